// The compiled form of one rate-book version, built once when the version is first used and shared
// by every quote: criteria compiled, money parsed, catalogue ids attached, and rates indexed by
// plan × term × deductible × vehicle class, so a quote looks rates up instead of scanning the book.
// It knows the book only: how a quote reply is written is the quote writer's business.
import { Decimal, toCents } from '../../../platform/money.ts'
import { compileCriteria, parseCriteria, type CompiledCriteria } from '../criteria/index.ts'
import {
  cancelMethodsOf,
  cancelMethodTerms,
  cancelReasonsOf,
  cancelReasonTerms,
  type CancelMethodTerms,
  type CancelReasonTerms,
} from './ratebook.defaults.ts'
import type { CustomFieldInput, QuoteInput } from './ratebook.format.ts'
import { factsOf, type RateBook } from './ratebook.rules.ts'

export type CatalogueKind =
  'PRODUCT' | 'PROGRAM' | 'PLAN' | 'TERM' | 'DEDUCTIBLE' | 'OPTION' | 'FACTOR_TABLE' | 'CANCEL_METHOD' | 'CANCEL_REASON'
/** Catalogue ids by kind and code (scoped codes: 'PLAN/TERM', 'PRODUCT/DEDUCTIBLE', 'PRODUCT/OPTION'). */
export type CatalogueIds = ReadonlyMap<string, number>
export const catalogueKey = (kind: CatalogueKind, code: string) => `${kind}:${code}`

type Rule = { text: string; compiled: CompiledCriteria } | null
/** A disbursement bucket of a rate or option, in whole cents. */
export type Bucket = { code: string; cents: number }

export type IndexedRate = {
  /** Position in the book's rate list: with the book version it identifies the rate forever. */
  index: number
  vehicleClass: string
  odometerFrom: number | null
  odometerTo: number | null
  state: string | null
  criteria: Rule
  buckets: Bucket[]
  suggestedRetailCents: number
  minRetailCents: number
  maxRetailCents: number
  retailLocked: boolean
}
export type IndexedDeductible = { id: number; code: string; amountCents: number; type: string }
export type IndexedTerm = {
  id: number
  code: string
  months: number
  miles: number
  milesBasis: 'FROM_SALE_ODOMETER' | 'FROM_ZERO'
  criteria: Rule
}
export type IndexedOption = {
  id: number
  code: string
  name: string
  kind: 'SURCHARGE' | 'OPTION'
  requiredWhen: Rule
  criteria: Rule
  plans: ReadonlySet<string> | null
  buckets: Bucket[]
  suggestedRetailCents: number | null
}
export type CustomFieldDefinition = CustomFieldInput & {
  required: boolean
  unique: boolean
  order: number
  level: 'PRODUCT' | 'PLAN'
}
export type IndexedPlan = {
  id: number
  code: string
  name: string
  formNumber: string
  conditions: ReadonlySet<string>
  criteria: Rule
  effectiveFrom: string | null
  effectiveTo: string | null
  terms: IndexedTerm[]
  coverageGroups: RateBook['products'][number]['programs'][number]['plans'][number]['coverageGroups']
  ppmServices: RateBook['products'][number]['programs'][number]['plans'][number]['ppmServices']
  /** The product's fields then the plan's own, in display order. */
  customFields: CustomFieldDefinition[]
  requiresCustomFields: boolean
  /** No term of the plan has criteria. */
  termsFreeOfCriteria: boolean
  /** Whether any of the plan's rates has criteria reading a term fact (termMonths, termMiles). */
  ratesReadTermFacts: boolean
  /** Whether any of the plan's rates has criteria reading the `deductible` fact. */
  ratesReadDeductible: boolean
  program: IndexedProgram
  product: IndexedProduct
}
export type IndexedProgram = {
  id: number
  code: string
  name: string
  criteria: Rule
  plans: IndexedPlan[]
  product: IndexedProduct
}
export type IndexedProduct = {
  id: number
  code: string
  name: string
  type: string
  assetTypes: ReadonlySet<string>
  requiredInputs: readonly QuoteInput[]
  criteria: Rule
  effectiveFrom: string | null
  effectiveTo: string | null
  factorTables: IndexedFactorTable[]
  deductibles: IndexedDeductible[]
  options: IndexedOption[]
  /** Whether any option's criteria read the `deductible` fact (then options are judged per deductible). */
  optionsReadDeductible: boolean
  /** Whether any option's criteria read a term or deductible fact (then options are judged per term). */
  optionsReadTermFacts: boolean
  programs: IndexedProgram[]
  /** Contract custom fields declared on the product (every plan has them too). */
  customFields: CustomFieldDefinition[]
}
export type IndexedFactorTable = {
  id: number
  code: string
  name: string
  fact: string
  defaultFactor: Decimal
  factors: ReadonlyMap<string, Decimal>
}
export type TermCell = {
  /**
   * The band of an odometer (-1 for none given): every odometer of a band gets the same rate from
   * findRate, for every deductible of the product.
   */
  band(odometer: number | undefined): number
}
export type DisbursementCode = RateBook['disbursementCodes'][number]
type VehicleEntry = RateBook['vehicles'][number]

export type CompiledRateBook = {
  /** rate_book.id: the immutable version quotes and contracts refer to. */
  bookId: number
  version: number
  effectiveDate: string
  book: RateBook
  products: IndexedProduct[]
  productById: ReadonlyMap<number, IndexedProduct>
  planById: ReadonlyMap<number, IndexedPlan>
  factorTableById: ReadonlyMap<number, IndexedFactorTable>
  disbursementCodes: ReadonlyMap<string, DisbursementCode>
  /** The cancel methods of the version (its own, or the defaults), in the book's order, with their catalogue ids. */
  cancelMethods: readonly CancelMethodTerms[]
  cancelMethodById: ReadonlyMap<number, CancelMethodTerms>
  cancelMethodByCode: ReadonlyMap<string, CancelMethodTerms>
  /** The cancel reasons of the version (its own, or the defaults), in the book's order, with their catalogue ids. */
  cancelReasons: readonly CancelReasonTerms[]
  cancelReasonById: ReadonlyMap<number, CancelReasonTerms>
  cancelReasonByCode: ReadonlyMap<string, CancelReasonTerms>
  /** The first candidate rate (class-specific ones before '*' ones, most specific first) that `accept` takes. */
  findRate(
    planId: number,
    termId: number,
    deductibleId: number,
    vehicleClass: string,
    accept: (rate: IndexedRate) => boolean,
  ): IndexedRate | undefined
  /**
   * The odometer bands of a plan's term for a vehicle class when the rate findRate chooses depends
   * on the odometer alone (no candidate is tied to a state or criteria). Null otherwise.
   */
  termCell(plan: IndexedPlan, termId: number, vehicleClass: string): TermCell | null
  /** The cells of all the plan's terms (in order) for a class, or null when any term has none. */
  planCells(plan: IndexedPlan, vehicleClass: string): readonly TermCell[] | null
  /** The class of a vehicle: the most specific matching entry, else the book's default class. */
  classify(vehicle: {
    make?: string
    model?: string
    trim?: string
    year?: number
  }): { vehicleClass: string; entry: VehicleEntry | null } | null
  warranties(make: string | undefined): ReadonlyArray<{ type: string; months: number; miles: number }>
}

const rule = (text: string | undefined): Rule => (text === undefined ? null : { text, compiled: compileCriteria(text) })
const cents = (v: number | string) => toCents(new Decimal(v))
const buckets = (b: Readonly<Record<string, number | string>>): Bucket[] =>
  Object.entries(b).map(([code, amount]) => ({ code, cents: cents(amount) }))

export function compileRateBook(bookId: number, version: number, book: RateBook, ids: CatalogueIds): CompiledRateBook {
  const id = (kind: CatalogueKind, code: string) => {
    const found = ids.get(catalogueKey(kind, code))
    if (found === undefined) throw new Error(`rate book ${bookId}: no catalogue id for ${kind} ${code}`)
    return found
  }
  const factorTables = new Map(
    book.factorTables!.map((t) => [
      t.code,
      {
        id: id('FACTOR_TABLE', t.code),
        code: t.code,
        name: t.name,
        fact: t.fact,
        defaultFactor: new Decimal(t.defaultFactor!),
        factors: new Map(t.entries.map((e) => [String(e.key), new Decimal(e.factor)])),
      } satisfies IndexedFactorTable,
    ]),
  )

  const productById = new Map<number, IndexedProduct>()
  const planById = new Map<number, IndexedPlan>()
  const planByCode = new Map<string, IndexedPlan>()
  const products = book.products.map((p) => {
    const optionFacts = new Set(
      (p.options ?? [])
        .flatMap((o) => [o.criteria, o.requiredWhen])
        .flatMap((c) => (c === undefined ? [] : [...factsOf(parseCriteria(c))])),
    )
    const product: IndexedProduct = {
      id: id('PRODUCT', p.code),
      code: p.code,
      name: p.name,
      type: p.type,
      assetTypes: new Set(p.assetTypes),
      requiredInputs: p.requiredInputs,
      criteria: rule(p.criteria),
      effectiveFrom: p.effectiveFrom ?? null,
      effectiveTo: p.effectiveTo ?? null,
      factorTables: (p.factorTables ?? []).map((code) => factorTables.get(code)!),
      deductibles: p.deductibles.map((d) => ({
        id: id('DEDUCTIBLE', `${p.code}/${d.code}`),
        code: d.code,
        amountCents: cents(d.amount),
        type: d.type,
      })),
      options: (p.options ?? []).map((o) => ({
        id: id('OPTION', `${p.code}/${o.code}`),
        code: o.code,
        name: o.name,
        kind: o.kind,
        requiredWhen: rule(o.requiredWhen),
        criteria: rule(o.criteria),
        plans: o.plans ? new Set(o.plans) : null,
        buckets: buckets(o.buckets),
        suggestedRetailCents: o.suggestedRetail === undefined ? null : cents(o.suggestedRetail),
      })),
      optionsReadDeductible: optionFacts.has('deductible'),
      optionsReadTermFacts: ['deductible', 'termMonths', 'termMiles'].some((f) => optionFacts.has(f)),
      programs: [],
      customFields: [],
    }
    const productFields = (p.customFields ?? []).map((f) => fieldDefinition(f, 'PRODUCT'))
    product.customFields = productFields.toSorted((a, b) => a.order - b.order)
    for (const g of p.programs) {
      const program: IndexedProgram = {
        id: id('PROGRAM', g.code),
        code: g.code,
        name: g.name,
        criteria: rule(g.criteria),
        plans: [],
        product,
      }
      for (const pl of g.plans) {
        const plan: IndexedPlan = {
          id: id('PLAN', pl.code),
          code: pl.code,
          name: pl.name,
          formNumber: pl.formNumber,
          conditions: new Set(pl.conditions),
          criteria: rule(pl.criteria),
          effectiveFrom: pl.effectiveFrom ?? null,
          effectiveTo: pl.effectiveTo ?? null,
          terms: pl.terms.map((t) => ({
            id: id('TERM', `${pl.code}/${t.code}`),
            code: t.code!,
            months: t.months,
            miles: t.miles,
            milesBasis: t.milesBasis ?? 'FROM_SALE_ODOMETER',
            criteria: rule(t.criteria),
          })),
          coverageGroups: pl.coverageGroups ?? [],
          ppmServices: pl.ppmServices ?? [],
          customFields: [...productFields, ...(pl.customFields ?? []).map((f) => fieldDefinition(f, 'PLAN'))].toSorted(
            (a, b) => a.order - b.order,
          ),
          requiresCustomFields: false,
          termsFreeOfCriteria: pl.terms.every((t) => t.criteria === undefined),
          ratesReadTermFacts: false,
          ratesReadDeductible: false,
          program,
          product,
        }
        plan.requiresCustomFields = plan.customFields.some((f) => f.required)
        program.plans.push(plan)
        planById.set(plan.id, plan)
        planByCode.set(plan.code, plan)
      }
      product.programs.push(program)
    }
    productById.set(product.id, product)
    return product
  })

  const rateIndex = new Map<string, IndexedRate[]>()
  book.rates.forEach((r, index) => {
    const plan = planByCode.get(r.plan)!
    const termId = id('TERM', `${r.plan}/${r.term}`)
    const deductibleId = id('DEDUCTIBLE', `${plan.product.code}/${r.deductible}`)
    const rate: IndexedRate = {
      index,
      vehicleClass: r.vehicleClass,
      odometerFrom: r.odometerFrom ?? null,
      odometerTo: r.odometerTo ?? null,
      state: r.state ?? null,
      criteria: rule(r.criteria),
      buckets: buckets(r.buckets),
      suggestedRetailCents: cents(r.suggestedRetail),
      minRetailCents: cents(r.minRetail),
      maxRetailCents: cents(r.maxRetail),
      retailLocked: r.retailLocked,
    }
    if (r.criteria !== undefined) {
      const read = factsOf(parseCriteria(r.criteria))
      if (read.has('termMonths') || read.has('termMiles')) plan.ratesReadTermFacts = true
      if (read.has('deductible')) plan.ratesReadDeductible = true
    }
    const key = `${plan.id}|${termId}|${deductibleId}|${r.vehicleClass}`
    const list = rateIndex.get(key)
    if (list) list.push(rate)
    else rateIndex.set(key, [rate])
  })
  // Most specific first: a state's own rate before the nationwide one, criteria-bound before plain.
  for (const list of rateIndex.values()) list.sort((a, b) => specificity(b) - specificity(a) || a.index - b.index)

  type Ranked = { v: VehicleEntry; order: number; weight: number }
  const byMake = new Map<string, Ranked[]>()
  book.vehicles.forEach((v, order) => {
    const e = { v, order, weight: (v.model ? 4 : 0) + (v.yearFrom !== undefined || v.yearTo !== undefined ? 1 : 0) }
    const list = byMake.get(v.make)
    if (list) list.push(e)
    else byMake.set(v.make, [e])
  })
  // Most specific first: model, then years. With a known trim, an entry listing it beats one without
  // a list, and a shorter list beats a longer one (a Raptor-only entry beats the F-150's general one);
  // with the trim unknown, the broadest entry wins (no list, then the longest list). Ties: book order.
  const trims = (e: Ranked) => e.v.trims?.length
  const byMakeTrimKnown = new Map<string, Ranked[]>()
  const byMakeTrimUnknown = new Map<string, Ranked[]>()
  for (const [make, list] of byMake) {
    byMakeTrimKnown.set(
      make,
      list.toSorted(
        (a, b) => b.weight - a.weight || (trims(a) ?? Infinity) - (trims(b) ?? Infinity) || a.order - b.order,
      ),
    )
    byMakeTrimUnknown.set(
      make,
      list.toSorted(
        (a, b) => b.weight - a.weight || (trims(b) ?? Infinity) - (trims(a) ?? Infinity) || a.order - b.order,
      ),
    )
  }
  const warranties = new Map<string, Array<{ type: string; months: number; miles: number }>>()
  for (const w of book.warranties ?? []) {
    const list = warranties.get(w.make) ?? []
    list.push({ type: w.type, months: w.months, miles: w.miles })
    warranties.set(w.make, list)
  }
  const cancelMethods = cancelMethodsOf(book).map((m) => cancelMethodTerms(id('CANCEL_METHOD', m.code), m))
  const cancelReasons = cancelReasonsOf(book).map((r) => cancelReasonTerms(id('CANCEL_REASON', r.code), r))
  const empty: IndexedRate[] = []
  // Built on first use: a cell per plan, term and class a quote has asked for.
  const cells = new Map<string, TermCell | null>()
  const planCells = new Map<number, Map<string, TermCell[] | null>>()

  return {
    bookId,
    version,
    effectiveDate: book.effectiveDate,
    book,
    products,
    productById,
    planById,
    factorTableById: new Map([...factorTables.values()].map((t) => [t.id, t])),
    disbursementCodes: new Map(book.disbursementCodes.map((c) => [c.code, c])),
    cancelMethods,
    cancelMethodById: new Map(cancelMethods.map((m) => [m.id, m])),
    cancelMethodByCode: new Map(cancelMethods.map((m) => [m.code, m])),
    cancelReasons,
    cancelReasonById: new Map(cancelReasons.map((r) => [r.id, r])),
    cancelReasonByCode: new Map(cancelReasons.map((r) => [r.code, r])),
    findRate(planId, termId, deductibleId, vehicleClass, accept) {
      const key = `${planId}|${termId}|${deductibleId}|`
      return (
        (rateIndex.get(key + vehicleClass) ?? empty).find(accept) ?? (rateIndex.get(`${key}*`) ?? empty).find(accept)
      )
    },
    termCell(plan, termId, vehicleClass) {
      const key = `${plan.id}|${termId}|${vehicleClass}`
      let cell = cells.get(key)
      if (cell === undefined) {
        cell = buildTermCell(plan, (deductibleId) => [
          ...(rateIndex.get(`${plan.id}|${termId}|${deductibleId}|${vehicleClass}`) ?? empty),
          ...(rateIndex.get(`${plan.id}|${termId}|${deductibleId}|*`) ?? empty),
        ])
        cells.set(key, cell)
      }
      return cell
    },
    planCells(plan, vehicleClass) {
      let byClass = planCells.get(plan.id)
      if (byClass === undefined) {
        byClass = new Map()
        planCells.set(plan.id, byClass)
      }
      let found = byClass.get(vehicleClass)
      if (found === undefined) {
        const list = plan.terms.map((t) => this.termCell(plan, t.id, vehicleClass))
        found = list.every((c) => c !== null) ? (list as TermCell[]) : null
        byClass.set(vehicleClass, found)
      }
      return found
    },

    classify({ make, model, trim, year }) {
      const candidates = make ? (trim === undefined ? byMakeTrimUnknown : byMakeTrimKnown).get(make) : undefined
      const match = candidates?.find(
        ({ v }) =>
          (v.model === undefined || v.model === model) &&
          // A trim list narrows the entry when the trim is known; an unknown trim does not rule it out.
          (v.trims === undefined || trim === undefined || v.trims.includes(trim)) &&
          (v.yearFrom === undefined || (year !== undefined && year >= v.yearFrom)) &&
          (v.yearTo === undefined || (year !== undefined && year <= v.yearTo)),
      )
      if (match) return { vehicleClass: match.v.vehicleClass, entry: match.v }
      return book.defaultVehicleClass ? { vehicleClass: book.defaultVehicleClass, entry: null } : null
    },
    warranties: (make) => (make ? (warranties.get(make) ?? []) : []),
  }
}

/** See CompiledRateBook.termCell. `candidates` lists a deductible's rates in the order findRate tries them. */
function buildTermCell(plan: IndexedPlan, candidates: (deductibleId: number) => IndexedRate[]): TermCell | null {
  const perDeductible = plan.product.deductibles.map((d) => candidates(d.id))
  if (perDeductible.some((list) => list.some((r) => r.state !== null || r.criteria !== null))) return null
  // Every band edge of every candidate: between two consecutive cuts no rate starts or ends.
  const cuts = [
    ...new Set(
      perDeductible
        .flat()
        .flatMap((r) => [r.odometerFrom, r.odometerTo === null ? null : r.odometerTo + 1])
        .filter((c): c is number => c !== null),
    ),
  ].toSorted((a, b) => a - b)
  return {
    band(odometer) {
      if (odometer === undefined) return -1
      let lo = 0
      let hi = cuts.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (cuts[mid]! <= odometer) lo = mid + 1
        else hi = mid
      }
      return lo
    },
  }
}

function specificity(r: IndexedRate): number {
  return (r.state ? 4 : 0) + (r.criteria ? 2 : 0) + (r.odometerFrom !== null || r.odometerTo !== null ? 1 : 0)
}

function fieldDefinition(f: CustomFieldInput, level: 'PRODUCT' | 'PLAN'): CustomFieldDefinition {
  return {
    ...f,
    required: f.required ?? false,
    unique: f.unique ?? false,
    order: f.order ?? (level === 'PRODUCT' ? 0 : 1000),
    level,
  }
}
