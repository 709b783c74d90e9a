// Checks a rate book as a whole and normalises it (docs/rate-books.md). Pure: no database. Every
// problem is reported with its location (file, JSON pointer or CSV row and column), so an
// administrator fixes a book in one round; a book with any problem is refused entirely.
import { parse as parseCsv } from 'csv-parse/sync'
import { compileSchemaValidator } from '../../../platform/http/validation.ts'
import { Decimal, formatMoney, parseDecimal, parseMoney, sumMoney } from '../../../platform/money.ts'
import { isIsoDate } from '../../../platform/calendar.ts'
import { parseCriteria, CriteriaSyntaxError, type CriteriaNode, type Operand } from '../criteria/index.ts'
import type { CatalogueKind } from './ratebook.compiled.ts'
import { cancelMethodsOf, cancelReasonsOf } from './ratebook.defaults.ts'
import { factTypeProblems, isQuoteFact } from './ratebook.facts.ts'
import { checkSaleTerms, normalizeSaleTerms } from './ratebook.terms.rules.ts'
import {
  RateBookSchema,
  RateSchema,
  type CustomFieldInput,
  type RateBookInput,
  type RateInput,
} from './ratebook.format.ts'

export type RateBookProblem = {
  file: string
  path?: string
  row?: number
  field?: string
  code: string
  message: string
}

/** The stored, exported form: the input format with money as JSON numbers (two decimals at most), defaults filled in, CSV rates merged. */
export type RateBook = Omit<RateBookInput, 'ratesCsv' | 'rates'> & { rates: NormalizedRate[] }
export type NormalizedRate = Omit<RateInput, 'buckets' | 'suggestedRetail' | 'minRetail' | 'maxRetail'> & {
  buckets: Record<string, number>
  suggestedRetail: number
  minRetail: number
  maxRetail: number
  retailLocked: boolean
}

export type RateBookSources = { file: string; csvFile?: string }

/** Problems past this many are summarised in one last problem; a broken CSV would otherwise list a million. */
export const MAX_REPORTED_PROBLEMS = 1000

/** Columns of the rates CSV other than the bucket columns (one per disbursement code). */
export const RATE_CSV_COLUMNS = [
  'plan',
  'term',
  'deductible',
  'vehicleClass',
  'odometerFrom',
  'odometerTo',
  'state',
  'criteria',
  'suggestedRetail',
  'minRetail',
  'maxRetail',
  'retailLocked',
] as const
const REQUIRED_CSV_COLUMNS = ['plan', 'term', 'deductible', 'vehicleClass', 'suggestedRetail']

const validateBookShape = compileSchemaValidator(RateBookSchema)
const validateRateShape = compileSchemaValidator(RateSchema)

/** Facts of the term being priced, and of its deductible: unknown above the level that prices them. */
const TERM_FACTS = new Set(['termMonths', 'termMiles'])
const DEDUCTIBLE_FACTS = new Set(['deductible'])

/** Whether criteria judged at `level` can see `fact` (products, programs and plans are judged before any term). */
export function factAvailable(fact: string, level: 'ABOVE_TERM' | 'TERM' | 'RATE'): boolean {
  if (level === 'RATE') return true
  if (DEDUCTIBLE_FACTS.has(fact)) return false
  return level === 'TERM' || !TERM_FACTS.has(fact)
}

/** The fact names a criteria tree reads. */
export function factsOf(node: CriteriaNode, into = new Set<string>()): Set<string> {
  const operand = (o: Operand) => {
    if (o.type === 'fact') into.add(o.name)
  }
  switch (node.type) {
    case 'and':
    case 'or':
      for (const n of node.operands) factsOf(n, into)
      break
    case 'not':
      factsOf(node.operand, into)
      break
    case 'compare':
      operand(node.left)
      operand(node.right)
      break
    case 'in':
    case 'isNull':
    case 'truth':
      operand(node.operand)
      break
    case 'between':
      operand(node.operand)
      operand(node.low)
      operand(node.high)
      break
  }
  return into
}

class Problems {
  readonly list: RateBookProblem[] = []
  private dropped = 0
  add(p: RateBookProblem) {
    if (this.list.length < MAX_REPORTED_PROBLEMS) this.list.push(p)
    else this.dropped++
  }
  done(file: string): RateBookProblem[] {
    if (this.dropped > 0)
      this.list.push({ file, code: 'too_many_problems', message: `${this.dropped} more problems not listed` })
    return this.list
  }
  get count() {
    return this.list.length + this.dropped
  }
}

type Ok = { ok: true; book: RateBook }
type Refused = { ok: false; problems: RateBookProblem[] }

/** Validates and normalises an import; `input` is the parsed JSON of the book file. */
export function checkRateBook(input: unknown, sources: RateBookSources): Ok | Refused {
  const problems = new Problems()
  const file = sources.file
  const shapeErrors = validateBookShape(input)
  if (shapeErrors.length > 0) {
    for (const e of shapeErrors) problems.add({ file, path: pointer(e.field), code: e.code, message: e.message })
    return { ok: false, problems: problems.done(file) }
  }
  const book = input as RateBookInput
  const csvRates =
    book.ratesCsv === undefined
      ? []
      : readRatesCsv(
          book.ratesCsv,
          new Set(book.disbursementCodes.map((c) => c.code)),
          sources.csvFile ?? `${file}#ratesCsv`,
          problems,
        )
  const rates: Array<{ rate: RateInput; at: Location }> = [
    ...(book.rates ?? []).map((rate, i) => ({ rate, at: { file, path: `/rates/${i}` } as Location })),
    ...csvRates,
  ]
  const normalized = checkSemantics(book, rates, file, problems)
  if (problems.count > 0 || !normalized) return { ok: false, problems: problems.done(file) }
  return { ok: true, book: normalized }
}

type Location = { file: string; path?: string; row?: number }

function at(loc: Location, field: string | undefined, code: string, message: string): RateBookProblem {
  if (loc.row !== undefined) return { file: loc.file, row: loc.row, ...(field ? { field } : {}), code, message }
  return { file: loc.file, path: field ? `${loc.path}/${field}` : loc.path!, code, message }
}

/** Turns the validator's dotted field path (`products[0].code`) into a JSON pointer. */
function pointer(field: string): string {
  // '(body)' is the validator's name for the document itself, whose JSON pointer is ''.
  if (!field || field === '(body)') return ''
  return (
    '/' +
    field
      .replace(/\[(\d+)\]/g, '.$1')
      .split('.')
      .filter(Boolean)
      .join('/')
  )
}

function readRatesCsv(
  text: string,
  bucketCodes: Set<string>,
  file: string,
  problems: Problems,
): Array<{ rate: RateInput; at: Location }> {
  // `info` gives each record's line, so a row number points at the line even after skipped blank lines.
  let records: Array<{ record: string[]; info: { lines: number } }>
  try {
    // Rows of the wrong length are reported one by one below, so one bad row hides no other problem.
    records = parseCsv(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as typeof records
  } catch (err) {
    const e = err as { message: string; lines?: number }
    problems.add({ file, ...(e.lines ? { row: e.lines } : {}), code: 'invalid_csv', message: e.message })
    return []
  }
  const header = records[0]?.record
  if (!header) {
    problems.add({ file, row: 1, code: 'invalid_csv', message: 'the rates CSV has no header row' })
    return []
  }
  const headerRow = records[0]!.info.lines
  const known = new Set<string>(RATE_CSV_COLUMNS)
  let headerOk = true
  header.forEach((col, i) => {
    if (!known.has(col) && !bucketCodes.has(col)) {
      headerOk = false
      problems.add({
        file,
        row: headerRow,
        field: col,
        code: 'unknown_column',
        message: `column ${i + 1} '${col}' is neither a rate column (${RATE_CSV_COLUMNS.join(', ')}) nor a disbursement code of the book`,
      })
    }
  })
  if (new Set(header).size !== header.length) {
    headerOk = false
    problems.add({ file, row: headerRow, code: 'duplicate_column', message: 'a column appears twice in the header' })
  }
  for (const col of REQUIRED_CSV_COLUMNS) {
    if (!header.includes(col)) {
      headerOk = false
      problems.add({
        file,
        row: headerRow,
        field: col,
        code: 'required',
        message: `the header lacks the required column '${col}'`,
      })
    }
  }
  if (!headerOk) return []
  const out: Array<{ rate: RateInput; at: Location }> = []
  for (let r = 1; r < records.length; r++) {
    const { record: cells, info } = records[r]!
    const row = info.lines
    if (cells.length !== header.length) {
      problems.add({
        file,
        row,
        code: 'invalid_csv',
        message: `row has ${cells.length} cells; the header has ${header.length} columns`,
      })
      continue
    }
    const rate: Record<string, unknown> = { buckets: {} }
    const buckets = rate.buckets as Record<string, string>
    let rowOk = true
    header.forEach((col, i) => {
      const cell = cells[i] ?? ''
      if (cell === '') return
      if (bucketCodes.has(col)) buckets[col] = cell
      else if (col === 'odometerFrom' || col === 'odometerTo') {
        if (!/^\d{1,8}$/.test(cell)) {
          rowOk = false
          problems.add({
            file,
            row,
            field: col,
            code: 'invalid_type',
            message: `${col} must be a whole number of miles`,
          })
        } else rate[col] = Number(cell)
      } else if (col === 'retailLocked') {
        if (cell !== 'true' && cell !== 'false') {
          rowOk = false
          problems.add({ file, row, field: col, code: 'invalid_type', message: 'retailLocked must be true or false' })
        } else rate[col] = cell === 'true'
      } else rate[col] = cell
    })
    if (!rowOk) continue
    const shapeErrors = validateRateShape(rate)
    if (shapeErrors.length > 0) {
      for (const e of shapeErrors)
        problems.add({ file, row, field: e.field || undefined, code: e.code, message: e.message })
      continue
    }
    out.push({ rate: rate as RateInput, at: { file, row } })
  }
  return out
}

function checkSemantics(
  book: RateBookInput,
  rates: Array<{ rate: RateInput; at: Location }>,
  file: string,
  problems: Problems,
): RateBook | null {
  const root: Location = { file, path: '' }
  const add = (loc: Location, field: string | undefined, code: string, message: string) =>
    problems.add(at(loc, field, code, message))
  const money = (loc: Location, field: string, value: unknown): number => {
    const d = parseMoney(value)
    if (!d) {
      add(loc, field, 'invalid_money', `${field} must be an amount with at most two decimals, not negative`)
      return 0
    }
    return d.toNumber()
  }
  const factor = (loc: Location, field: string, value: unknown): number => {
    const d = parseDecimal(value, 6)
    // A multiplier above 10 is a typo (1000 for 1.000), not a state surcharge.
    if (!d || d.isZero() || d.greaterThan(10)) {
      add(loc, field, 'invalid_factor', `${field} must be a positive decimal up to 10 with at most six places`)
      return 1
    }
    return d.toNumber()
  }
  const date = (loc: Location, field: string, value: string | undefined) => {
    if (value !== undefined && !isIsoDate(value)) add(loc, field, 'invalid_date', `${field} must be a date YYYY-MM-DD`)
  }
  /** `level`: where the criteria are judged, which decides the term and deductible facts they may read. */
  const criteria = (
    loc: Location,
    field: string,
    text: string | undefined,
    level: 'ABOVE_TERM' | 'TERM' | 'RATE' = 'ABOVE_TERM',
  ) => {
    if (text === undefined) return
    try {
      const ast = parseCriteria(text)
      const facts = [...factsOf(ast)]
      const unknown = facts.filter((f) => !isQuoteFact(f))
      if (unknown.length > 0)
        add(
          loc,
          field,
          'unknown_fact',
          `${field} names ${unknown.map((f) => `'${f}'`).join(', ')}, not a quote fact (docs/criteria.md)`,
        )
      const unavailable = facts.filter((f) => !factAvailable(f, level))
      if (unavailable.length > 0)
        add(
          loc,
          field,
          'fact_not_available',
          `${field} names ${unavailable.map((f) => `'${f}'`).join(', ')}, which ${level === 'TERM' ? 'term criteria' : 'product, program and plan criteria'} never see (docs/criteria.md)`,
        )
      const mismatched = factTypeProblems(ast)
      if (mismatched.length > 0)
        add(loc, field, 'fact_type_mismatch', `${field}: ${mismatched.join('; ')} (docs/criteria.md)`)
    } catch (err) {
      if (!(err instanceof CriteriaSyntaxError)) throw err
      add(loc, field, 'invalid_criteria', `${field}: ${err.message}`)
    }
  }
  const unique = <T>(
    items: readonly T[],
    key: (t: T) => string,
    loc: (i: number) => Location,
    field: string,
    what: string,
  ) => {
    const seen = new Set<string>()
    items.forEach((t, i) => {
      const k = key(t)
      if (seen.has(k)) add(loc(i), field, 'duplicate', `${what} '${k}' appears more than once`)
      seen.add(k)
    })
    return seen
  }

  date(root, 'effectiveDate', book.effectiveDate)

  const codes = unique(
    book.disbursementCodes,
    (c) => c.code,
    (i) => ({ file, path: `/disbursementCodes/${i}` }),
    'code',
    'disbursement code',
  )
  book.disbursementCodes.forEach((c, i) => {
    const loc = { file, path: `/disbursementCodes/${i}/payee` }
    if (c.payee?.role === 'ACCOUNT_HOLDER' && (!c.payee.kind || !c.payee.businessKey))
      add(loc, undefined, 'required', 'an ACCOUNT_HOLDER payee needs kind and businessKey')
    if (c.payee && c.payee.role !== 'ACCOUNT_HOLDER' && (c.payee.kind || c.payee.businessKey))
      add(
        loc,
        undefined,
        'not_allowed',
        `kind and businessKey are only for an ACCOUNT_HOLDER payee, not ${c.payee.role}`,
      )
  })
  const classes = unique(
    book.vehicleClasses,
    (c) => c.code,
    (i) => ({ file, path: `/vehicleClasses/${i}` }),
    'code',
    'vehicle class',
  )
  if (book.defaultVehicleClass !== undefined && !classes.has(book.defaultVehicleClass))
    add(
      root,
      'defaultVehicleClass',
      'unknown_reference',
      `defaultVehicleClass '${book.defaultVehicleClass}' is not a vehicle class of the book`,
    )
  book.vehicles.forEach((v, i) => {
    const loc = { file, path: `/vehicles/${i}` }
    if (!classes.has(v.vehicleClass))
      add(loc, 'vehicleClass', 'unknown_reference', `vehicle class '${v.vehicleClass}' is not in vehicleClasses`)
    if (v.yearFrom !== undefined && v.yearTo !== undefined && v.yearFrom > v.yearTo)
      add(loc, 'yearTo', 'invalid_range', 'yearTo is before yearFrom')
    if (v.model === undefined && (v.series !== undefined || v.trims !== undefined))
      add(loc, 'model', 'required', 'series and trims need a model')
  })
  unique(
    book.warranties ?? [],
    (w) => `${w.make.toUpperCase()}/${w.type}`,
    (i) => ({ file, path: `/warranties/${i}` }),
    'type',
    'warranty',
  )

  const factorTables = unique(
    book.factorTables ?? [],
    (t) => t.code,
    (i) => ({ file, path: `/factorTables/${i}` }),
    'code',
    'factor table',
  )
  const normFactorTables = (book.factorTables ?? []).map((t, i) => {
    const loc = { file, path: `/factorTables/${i}` }
    if (!isQuoteFact(t.fact)) add(loc, 'fact', 'unknown_fact', `'${t.fact}' is not a quote fact`)
    else if (!factAvailable(t.fact, 'ABOVE_TERM'))
      add(loc, 'fact', 'fact_not_available', `'${t.fact}' is not known when a product's factor is taken`)
    unique(
      t.entries,
      (e) => String(e.key),
      (j) => ({ file, path: `${loc.path}/entries/${j}` }),
      'key',
      'factor table key',
    )
    return {
      code: t.code,
      name: t.name,
      fact: t.fact,
      defaultFactor: t.defaultFactor === undefined ? 1 : factor(loc, 'defaultFactor', t.defaultFactor),
      entries: t.entries.map((e, j) => ({
        key: String(e.key),
        factor: factor({ file, path: `${loc.path}/entries/${j}` }, 'factor', e.factor),
      })),
    }
  })

  unique(
    book.products,
    (p) => p.code,
    (i) => ({ file, path: `/products/${i}` }),
    'code',
    'product',
  )
  const allPrograms = book.products.flatMap((p, i) =>
    p.programs.map((g, j) => ({ g, loc: { file, path: `/products/${i}/programs/${j}` } })),
  )
  unique(
    allPrograms,
    (x) => x.g.code,
    (k) => allPrograms[k]!.loc,
    'code',
    'program',
  )
  const allPlans = allPrograms.flatMap(({ g, loc }) =>
    g.plans.map((p, k) => ({ p, loc: { file, path: `${loc.path}/plans/${k}` } })),
  )
  unique(
    allPlans,
    (x) => x.p.code,
    (k) => allPlans[k]!.loc,
    'code',
    'plan',
  )

  /** Per plan code: its product's deductible codes, its own term codes. */
  const planIndex = new Map<string, { product: string; deductibles: Set<string>; terms: Set<string> }>()

  const products = book.products.map((p, i) => {
    const ploc = { file, path: `/products/${i}` }
    criteria(ploc, 'criteria', p.criteria)
    date(ploc, 'effectiveFrom', p.effectiveFrom)
    date(ploc, 'effectiveTo', p.effectiveTo)
    if (p.effectiveFrom && p.effectiveTo && p.effectiveFrom > p.effectiveTo)
      add(ploc, 'effectiveTo', 'invalid_range', 'effectiveTo is before effectiveFrom')
    ;(p.factorTables ?? []).forEach((t, k) => {
      if (!factorTables.has(t))
        add(ploc, `factorTables/${k}`, 'unknown_reference', `factor table '${t}' is not in the book`)
    })
    // A table listed twice would apply its factor twice; a type or input twice is a slip.
    for (const field of ['factorTables', 'assetTypes', 'requiredInputs'] as const) {
      const list: readonly string[] = p[field] ?? []
      if (new Set(list).size !== list.length) add(ploc, field, 'duplicate', `${field} lists a value more than once`)
    }
    const deductibles = unique(
      p.deductibles,
      (d) => d.code,
      (k) => ({ file, path: `${ploc.path}/deductibles/${k}` }),
      'code',
      'deductible',
    )
    const productPlans = new Set(p.programs.flatMap((g) => g.plans.map((pl) => pl.code)))
    unique(
      p.options ?? [],
      (o) => o.code,
      (k) => ({ file, path: `${ploc.path}/options/${k}` }),
      'code',
      'option',
    )
    checkCustomFields(p.customFields ?? [], { file, path: `${ploc.path}/customFields` }, add)
    return {
      ...p,
      deductibles: p.deductibles.map((d, k) => ({
        ...d,
        amount: money({ file, path: `${ploc.path}/deductibles/${k}` }, 'amount', d.amount),
      })),
      options: (p.options ?? []).map((o, k) => {
        const oloc = { file, path: `${ploc.path}/options/${k}` }
        criteria(oloc, 'criteria', o.criteria, 'RATE')
        criteria(oloc, 'requiredWhen', o.requiredWhen, 'RATE')
        ;(o.plans ?? []).forEach((pl, m) => {
          if (!productPlans.has(pl))
            add(oloc, `plans/${m}`, 'unknown_reference', `plan '${pl}' is not a plan of product ${p.code}`)
        })
        return {
          ...o,
          buckets: checkBuckets(o.buckets, oloc, codes, money, add),
          ...(o.suggestedRetail === undefined
            ? {}
            : { suggestedRetail: money(oloc, 'suggestedRetail', o.suggestedRetail) }),
        }
      }),
      customFields: p.customFields ?? [],
      programs: p.programs.map((g, j) => {
        const gloc = { file, path: `${ploc.path}/programs/${j}` }
        criteria(gloc, 'criteria', g.criteria)
        return {
          ...g,
          plans: g.plans.map((pl, k) => {
            const lloc = { file, path: `${gloc.path}/plans/${k}` }
            criteria(lloc, 'criteria', pl.criteria)
            date(lloc, 'effectiveFrom', pl.effectiveFrom)
            date(lloc, 'effectiveTo', pl.effectiveTo)
            if (pl.effectiveFrom && pl.effectiveTo && pl.effectiveFrom > pl.effectiveTo)
              add(lloc, 'effectiveTo', 'invalid_range', 'effectiveTo is before effectiveFrom')
            if (new Set(pl.conditions).size !== pl.conditions.length)
              add(lloc, 'conditions', 'duplicate', 'a condition appears more than once')
            checkCustomFields(
              pl.customFields ?? [],
              { file, path: `${lloc.path}/customFields` },
              add,
              new Set((p.customFields ?? []).map((f) => f.key)),
            )
            const terms = pl.terms.map((t) => ({
              ...t,
              code: t.code ?? `${t.months}-${t.miles}`,
              milesBasis: t.milesBasis ?? 'FROM_SALE_ODOMETER',
            }))
            const termCodes = unique(
              terms,
              (t) => t.code,
              (m) => ({ file, path: `${lloc.path}/terms/${m}` }),
              'code',
              'term',
            )
            pl.terms.forEach((t, m) =>
              criteria({ file, path: `${lloc.path}/terms/${m}` }, 'criteria', t.criteria, 'TERM'),
            )
            planIndex.set(pl.code, { product: p.code, deductibles, terms: termCodes })
            return {
              ...pl,
              terms,
              coverageGroups: pl.coverageGroups ?? [],
              ppmServices: pl.ppmServices ?? [],
              customFields: pl.customFields ?? [],
            }
          }),
        }
      }),
    }
  })

  const rateKeys = new Set<string>()
  const normRates: NormalizedRate[] = rates.map(({ rate, at: loc }) => {
    const plan = planIndex.get(rate.plan)
    if (!plan) add(loc, 'plan', 'unknown_reference', `plan '${rate.plan}' is not in the book`)
    else {
      if (!plan.terms.has(rate.term))
        add(loc, 'term', 'unknown_reference', `term '${rate.term}' is not a term of plan ${rate.plan}`)
      if (!plan.deductibles.has(rate.deductible))
        add(
          loc,
          'deductible',
          'unknown_reference',
          `deductible '${rate.deductible}' is not a deductible of product ${plan.product}`,
        )
    }
    if (rate.vehicleClass !== '*' && !classes.has(rate.vehicleClass))
      add(loc, 'vehicleClass', 'unknown_reference', `vehicle class '${rate.vehicleClass}' is not in vehicleClasses`)
    if (rate.odometerFrom !== undefined && rate.odometerTo !== undefined && rate.odometerFrom > rate.odometerTo)
      add(loc, 'odometerTo', 'invalid_range', 'odometerTo is below odometerFrom')
    criteria(loc, 'criteria', rate.criteria, 'RATE')
    const key = [
      rate.plan,
      rate.term,
      rate.deductible,
      rate.vehicleClass,
      rate.odometerFrom ?? '',
      rate.odometerTo ?? '',
      rate.state ?? '',
      rate.criteria ?? '',
    ].join('|')
    if (rateKeys.has(key))
      add(
        loc,
        undefined,
        'duplicate',
        `another rate has the same plan, term, deductible, class, odometer band, state and criteria`,
      )
    rateKeys.add(key)
    const buckets = checkBuckets(rate.buckets, loc, codes, money, add)
    const suggested = money(loc, 'suggestedRetail', rate.suggestedRetail)
    const minRetail = rate.minRetail === undefined ? suggested : money(loc, 'minRetail', rate.minRetail)
    const maxRetail = rate.maxRetail === undefined ? suggested : money(loc, 'maxRetail', rate.maxRetail)
    const cost = bucketTotal(buckets)
    const s = parseMoney(suggested)!,
      lo = parseMoney(minRetail)!,
      hi = parseMoney(maxRetail)!
    const locked = rate.retailLocked ?? false
    // An amount already reported as invalid stands in as 0.00: comparing it would report problems that are not there.
    const retailsValid = [rate.suggestedRetail, rate.minRetail, rate.maxRetail].every(
      (v) => v === undefined || parseMoney(v) !== null,
    )
    const bucketsValid = Object.values(rate.buckets).every((v) => parseMoney(v) !== null)
    if (retailsValid) {
      if (lo.greaterThan(hi))
        add(loc, 'minRetail', 'invalid_range', `minRetail ${minRetail} is above maxRetail ${maxRetail}`)
      else if (s.lessThan(lo) || s.greaterThan(hi))
        add(
          loc,
          'suggestedRetail',
          'invalid_range',
          `suggestedRetail ${suggested} is outside minRetail ${minRetail} .. maxRetail ${maxRetail}`,
        )
      if (bucketsValid && lo.lessThan(cost))
        add(
          loc,
          'minRetail',
          'below_cost',
          `minRetail ${minRetail} is below the dealer cost ${formatMoney(cost)} (the sum of the buckets)`,
        )
      if (locked && !(lo.equals(s) && hi.equals(s)))
        add(
          loc,
          'retailLocked',
          'invalid_range',
          'a locked retail needs minRetail and maxRetail equal to suggestedRetail (or absent)',
        )
    }
    // retailLocked is taken out with the amounts so that every rate is written in one key order: the
    // normalised book must normalise to itself, or an exported book would re-import with another checksum.
    const { buckets: _b, suggestedRetail: _s, minRetail: _lo, maxRetail: _hi, retailLocked: _l, ...rest } = rate
    return { ...rest, buckets, suggestedRetail: suggested, minRetail, maxRetail, retailLocked: locked }
  })

  // The after-sale members (cancellation, earnings, claims, transfer): ratebook.terms.rules.ts.
  checkSaleTerms(book, rates, (path, code, message) => problems.add({ file, path, code, message }))

  if (problems.count > 0) return null
  return normalizeSaleTerms({
    formatVersion: book.formatVersion,
    effectiveDate: book.effectiveDate,
    ...(book.description === undefined ? {} : { description: book.description }),
    disbursementCodes: book.disbursementCodes.map((c) => ({ ...c, payee: c.payee ?? { role: 'ADMINISTRATOR' } })),
    vehicleClasses: book.vehicleClasses,
    ...(book.defaultVehicleClass === undefined ? {} : { defaultVehicleClass: book.defaultVehicleClass }),
    vehicles: book.vehicles.map((v) => ({
      ...v,
      make: v.make.toUpperCase(),
      ...(v.model === undefined ? {} : { model: v.model.toUpperCase() }),
      ...(v.series === undefined ? {} : { series: v.series.toUpperCase() }),
      ...(v.trims === undefined ? {} : { trims: v.trims.map((t) => t.toUpperCase()) }),
    })),
    warranties: (book.warranties ?? []).map((w) => ({ ...w, make: w.make.toUpperCase() })),
    factorTables: normFactorTables,
    products,
    rates: normRates,
    // Present only when the book has them: a book without them keeps the normal form (and checksum) it had.
    ...(book.cancelMethods === undefined ? {} : { cancelMethods: book.cancelMethods }),
    ...(book.cancelReasons === undefined ? {} : { cancelReasons: book.cancelReasons }),
    ...(book.stateRules === undefined ? {} : { stateRules: book.stateRules }),
    ...(book.earningsCurves === undefined ? {} : { earningsCurves: book.earningsCurves }),
  })
}

function checkBuckets(
  buckets: Record<string, unknown>,
  loc: Location,
  codes: Set<string>,
  money: (loc: Location, field: string, value: unknown) => number,
  add: (loc: Location, field: string | undefined, code: string, message: string) => void,
): Record<string, number> {
  const out: Record<string, number> = {}
  const entries = Object.entries(buckets)
  if (entries.length === 0) add(loc, 'buckets', 'required', 'at least one disbursement bucket is required')
  for (const [code, value] of entries) {
    const field = loc.row === undefined ? `buckets/${code}` : code
    if (!codes.has(code)) add(loc, field, 'unknown_reference', `'${code}' is not a disbursement code of the book`)
    out[code] = money(loc, field, value)
  }
  return out
}

function checkCustomFields(
  fields: readonly CustomFieldInput[],
  loc: Location,
  add: (loc: Location, field: string | undefined, code: string, message: string) => void,
  inherited = new Set<string>(),
) {
  const seen = new Set<string>()
  fields.forEach((f, i) => {
    const floc = { file: loc.file, path: `${loc.path}/${i}` }
    if (seen.has(f.key) || inherited.has(f.key))
      add(floc, 'key', 'duplicate', `custom field '${f.key}' is defined twice for this plan`)
    seen.add(f.key)
    if (f.type === 'LIST' && !(f.options && f.options.length > 0))
      add(floc, 'options', 'required', 'a LIST field needs options')
    if (f.type !== 'LIST' && f.options) add(floc, 'options', 'not_allowed', 'options are only for LIST fields')
    if (f.min !== undefined && f.max !== undefined && f.min > f.max)
      add(floc, 'max', 'invalid_range', 'max is below min')
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength)
      add(floc, 'maxLength', 'invalid_range', 'maxLength is below minLength')
    if (f.pattern !== undefined) {
      try {
        RegExp(f.pattern, 'u')
      } catch {
        add(floc, 'pattern', 'invalid_format', 'pattern is not a valid regular expression')
      }
    }
  })
}

/** Sum of a rate's buckets: its base dealer cost before account-holder disbursements. */
export function bucketTotal(buckets: Readonly<Record<string, number>>): Decimal {
  return sumMoney(Object.values(buckets).map((v) => new Decimal(v)))
}

/**
 * Every catalogue item a book defines, with its scoped code (see rating_catalogue_item). Cancel
 * methods and reasons are book-wide codes, and a book without its own has the default ones
 * (ratebook.defaults.ts), which are items too: their ids are the same in every version.
 */
export function catalogueItemsOf(book: RateBook): Array<{ kind: CatalogueKind; code: string }> {
  const items: ReturnType<typeof catalogueItemsOf> = []
  for (const t of book.factorTables ?? []) items.push({ kind: 'FACTOR_TABLE', code: t.code })
  for (const p of book.products) {
    items.push({ kind: 'PRODUCT', code: p.code })
    for (const d of p.deductibles) items.push({ kind: 'DEDUCTIBLE', code: `${p.code}/${d.code}` })
    for (const o of p.options ?? []) items.push({ kind: 'OPTION', code: `${p.code}/${o.code}` })
    for (const g of p.programs) {
      items.push({ kind: 'PROGRAM', code: g.code })
      for (const pl of g.plans) {
        items.push({ kind: 'PLAN', code: pl.code })
        for (const t of pl.terms) items.push({ kind: 'TERM', code: `${pl.code}/${t.code}` })
      }
    }
  }
  // Last, so that the items of a book without these members are numbered as they were before them.
  for (const m of cancelMethodsOf(book)) items.push({ kind: 'CANCEL_METHOD', code: m.code })
  for (const r of cancelReasonsOf(book)) items.push({ kind: 'CANCEL_REASON', code: r.code })
  return items
}

/** Counts shown after an import and in the version list. */
export function summarize(book: RateBook) {
  const plans = book.products.flatMap((p) => p.programs.flatMap((g) => g.plans))
  return {
    products: book.products.length,
    programs: book.products.reduce((n, p) => n + p.programs.length, 0),
    plans: plans.length,
    terms: plans.reduce((n, p) => n + p.terms.length, 0),
    rates: book.rates.length,
    vehicles: book.vehicles.length,
    factorTables: (book.factorTables ?? []).length,
    disbursementCodes: book.disbursementCodes.length,
  }
}
