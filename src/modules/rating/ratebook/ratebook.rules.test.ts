// checkRateBook table by table: the demo book passes and normalises to itself; every class of problem
// is reported with its location (JSON pointer, or CSV row and column) and nothing else is; the CSV
// rates merge with the JSON ones; the problem list is capped. Then catalogueItemsOf and summarize.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { demoRateBook } from './demo-ratebook.ts'
import { DEFAULT_CANCEL_METHODS, DEFAULT_CANCEL_REASONS } from './ratebook.defaults.ts'
import {
  bucketTotal,
  catalogueItemsOf,
  checkRateBook,
  factsOf,
  MAX_REPORTED_PROBLEMS,
  summarize,
  type RateBook,
  type RateBookProblem,
} from './ratebook.rules.ts'
import { parseCriteria } from '../criteria/index.ts'
import type { RateBookInput } from './ratebook.format.ts'

/** A small book touching every part: two plans, implicit and explicit term codes, a factor table, an option, custom fields. */
function mini(): RateBookInput {
  return {
    formatVersion: 1,
    effectiveDate: '2026-01-01',
    disbursementCodes: [
      { code: 'RES', label: 'Reserve', group: 'RESERVE' },
      { code: 'ADM', label: 'Admin fee', group: 'ADMIN_FEE' },
    ],
    vehicleClasses: [{ code: 'A' }, { code: 'B', description: 'Trucks' }],
    vehicles: [{ make: 'Honda', model: 'Accord', trims: ['Sport'], yearFrom: 2015, yearTo: 2027, vehicleClass: 'A' }],
    factorTables: [{ code: 'ST', name: 'State', fact: 'customerState', entries: [{ key: 'FL', factor: '1.10' }] }],
    products: [
      {
        code: 'VSC',
        name: 'Service contract',
        type: 'VSC',
        assetTypes: ['AUTO'],
        requiredInputs: ['vehicle'],
        factorTables: ['ST'],
        deductibles: [
          { code: 'D0', amount: '0', type: 'STANDARD' },
          { code: 'D100', amount: 100, type: 'STANDARD' },
        ],
        options: [{ code: 'ROAD', name: 'Roadside', kind: 'OPTION', plans: ['P1'], buckets: { ADM: '10' } }],
        customFields: [{ key: 'mgr', label: 'Manager', type: 'STRING' }],
        programs: [
          {
            code: 'PG',
            name: 'Program',
            plans: [
              {
                code: 'P1',
                name: 'Plan 1',
                conditions: ['USED'],
                formNumber: 'F1',
                terms: [
                  { months: 36, miles: 36000 },
                  { code: 'T48', months: 48, miles: 48000 },
                ],
              },
              {
                code: 'P2',
                name: 'Plan 2',
                conditions: ['NEW'],
                formNumber: 'F2',
                terms: [{ months: 36, miles: 0, milesBasis: 'FROM_ZERO' }],
              },
            ],
          },
        ],
      },
    ],
    rates: [
      {
        plan: 'P1',
        term: '36-36000',
        deductible: 'D0',
        vehicleClass: 'A',
        buckets: { RES: '500.00', ADM: 100 },
        suggestedRetail: '1000',
        minRetail: '600',
        maxRetail: '1500',
      },
      { plan: 'P1', term: 'T48', deductible: 'D100', vehicleClass: '*', buckets: { RES: '700' }, suggestedRetail: 900 },
      {
        plan: 'P2',
        term: '36-0',
        deductible: 'D0',
        vehicleClass: 'B',
        state: 'NY',
        buckets: { RES: '100' },
        suggestedRetail: '300',
        retailLocked: true,
      },
    ],
  }
}

type Book = ReturnType<typeof mini> & Record<string, unknown>
const product = (b: Book) => b.products[0]!
const plan = (b: Book, i = 0) => product(b).programs[0]!.plans[i]!
const rate = (b: Book, i = 0) => b.rates![i]!
/** A second product with codes of its own, so only what a case changes collides. */
const otherProduct = (code = 'GAP', programCode = 'PG2', planCode = 'Q1') => ({
  code,
  name: 'Other',
  type: 'GAP' as const,
  assetTypes: ['AUTO' as const],
  requiredInputs: [],
  deductibles: [{ code: 'DX', amount: '0', type: 'STANDARD' as const }],
  programs: [
    {
      code: programCode,
      name: 'Other program',
      plans: [
        {
          code: planCode,
          name: 'Other plan',
          conditions: ['NEW' as const],
          formNumber: 'F9',
          terms: [{ months: 12, miles: 0 }],
        },
      ],
    },
  ],
})

/** What a problem is compared on: where and what (messages are checked where they matter). */
type Where = { file?: string; path?: string; row?: number; field?: string; code: string }
const where = (problems: readonly RateBookProblem[]): Where[] => problems.map(({ message: _m, ...p }) => p)
const at = (path: string, code: string): Where => ({ file: 'body', path, code })

function problemsOf(input: unknown, sources = { file: 'body' }): RateBookProblem[] {
  const result = checkRateBook(input, sources)
  assert.equal(result.ok, false, 'the book should be refused')
  return result.ok ? [] : result.problems
}

function bookOf(input: unknown, sources = { file: 'body' }): RateBook {
  const result = checkRateBook(input, sources)
  if (!result.ok) assert.fail(`refused: ${JSON.stringify(result.problems.slice(0, 5))}`)
  return result.book
}

const clone = (): Book => structuredClone(mini()) as Book

describe('checkRateBook: valid books', () => {
  test('the demo book passes, and its normal form normalises to itself (an export re-imports with the same checksum)', () => {
    const book = bookOf(demoRateBook('2026-01-01'))
    assert.equal(book.effectiveDate, '2026-01-01')
    const again = bookOf(JSON.parse(JSON.stringify(book)))
    assert.equal(JSON.stringify(again), JSON.stringify(book))
  })

  test('the small book passes and is normalised: amounts as JSON numbers, defaults filled in, vehicles upper case', () => {
    const book = bookOf(mini())
    assert.deepEqual(book.rates[0], {
      plan: 'P1',
      term: '36-36000',
      deductible: 'D0',
      vehicleClass: 'A',
      buckets: { RES: 500, ADM: 100 },
      suggestedRetail: 1000,
      minRetail: 600,
      maxRetail: 1500,
      retailLocked: false,
    })
    // Minimum and maximum default to the suggested retail.
    assert.deepEqual(book.rates[1], {
      plan: 'P1',
      term: 'T48',
      deductible: 'D100',
      vehicleClass: '*',
      buckets: { RES: 700 },
      suggestedRetail: 900,
      minRetail: 900,
      maxRetail: 900,
      retailLocked: false,
    })
    assert.deepEqual(book.rates[2], {
      plan: 'P2',
      term: '36-0',
      deductible: 'D0',
      vehicleClass: 'B',
      state: 'NY',
      buckets: { RES: 100 },
      suggestedRetail: 300,
      minRetail: 300,
      maxRetail: 300,
      retailLocked: true,
    })
    const p = book.products[0]!
    assert.deepEqual(
      p.deductibles.map((d) => d.amount),
      [0, 100],
    )
    assert.deepEqual(p.options?.[0]?.buckets, { ADM: 10 })
    assert.deepEqual(
      p.programs[0]!.plans[0]!.terms.map((t) => [t.code, t.milesBasis]),
      [
        ['36-36000', 'FROM_SALE_ODOMETER'],
        ['T48', 'FROM_SALE_ODOMETER'],
      ],
    )
    assert.deepEqual(
      p.programs[0]!.plans[1]!.terms.map((t) => [t.code, t.milesBasis]),
      [['36-0', 'FROM_ZERO']],
    )
    assert.deepEqual(
      book.disbursementCodes.map((c) => c.payee),
      [{ role: 'ADMINISTRATOR' }, { role: 'ADMINISTRATOR' }],
    )
    assert.deepEqual(book.vehicles, [
      { make: 'HONDA', model: 'ACCORD', trims: ['SPORT'], yearFrom: 2015, yearTo: 2027, vehicleClass: 'A' },
    ])
    assert.deepEqual(book.factorTables, [
      { code: 'ST', name: 'State', fact: 'customerState', defaultFactor: 1, entries: [{ key: 'FL', factor: 1.1 }] },
    ])
    assert.equal(JSON.stringify(bookOf(JSON.parse(JSON.stringify(book)))), JSON.stringify(book))
  })

  test('a book with no rates at all is valid (rates may come later in a CSV or another version)', () => {
    const b = clone()
    delete b.rates
    assert.deepEqual(bookOf(b).rates, [])
  })
})

type Case = [name: string, change: (b: Book) => unknown, expected: Where[]]

function runCases(cases: Case[]) {
  for (const [name, change, expected] of cases) {
    test(name, () => {
      const b = clone()
      const replaced = change(b)
      assert.deepEqual(where(problemsOf(replaced === undefined ? b : replaced)), expected)
    })
  }
}

describe('checkRateBook: structural problems (JSON pointer; semantics are not checked then)', () => {
  runCases([
    ['not an object', () => null, [at('', 'invalid_type')]],
    [
      'a missing required field',
      (b) => {
        delete (b as Partial<Book>).effectiveDate
      },
      [at('/effectiveDate', 'required')],
    ],
    [
      'an unsupported formatVersion',
      (b) => {
        b.formatVersion = 2 as 1
      },
      [at('/formatVersion', 'invalid_value')],
    ],
    [
      'an unknown field deep in the book',
      (b) => {
        ;(rate(b, 1) as Record<string, unknown>).colour = 'red'
      },
      [at('/rates/1/colour', 'unknown_field')],
    ],
    [
      'a lower-case code',
      (b) => {
        product(b).code = 'vsc'
      },
      [at('/products/0/code', 'invalid_value')],
    ],
    [
      'a wrong type',
      (b) => {
        ;(plan(b).terms[0] as Record<string, unknown>).months = '36'
      },
      [at('/products/0/programs/0/plans/0/terms/0/months', 'invalid_type')],
    ],
    [
      'an unknown enum value',
      (b) => {
        ;(plan(b, 1) as Record<string, unknown>).conditions = ['SALVAGE']
      },
      [at('/products/0/programs/0/plans/1/conditions/0', 'invalid_value')],
    ],
    [
      'an empty program list',
      (b) => {
        product(b).programs = []
      },
      [at('/products/0/programs', 'invalid_value')],
    ],
    [
      'every structural problem at once, and no semantic one with them',
      (b) => {
        delete (b as Partial<Book>).effectiveDate
        product(b).code = 'vsc'
        rate(b).plan = 'NOPE' // a semantic problem: not reported while the shape is wrong
      },
      [at('/effectiveDate', 'required'), at('/products/0/code', 'invalid_value')],
    ],
  ])
})

describe('checkRateBook: duplicate codes', () => {
  runCases([
    [
      'disbursement codes',
      (b) => {
        b.disbursementCodes.push({ code: 'RES', label: 'Again', group: 'OTHER' })
      },
      [at('/disbursementCodes/2/code', 'duplicate')],
    ],
    [
      'vehicle classes',
      (b) => {
        b.vehicleClasses.push({ code: 'A' })
      },
      [at('/vehicleClasses/2/code', 'duplicate')],
    ],
    [
      'products',
      (b) => {
        b.products.push(otherProduct('VSC'))
      },
      [at('/products/1/code', 'duplicate')],
    ],
    [
      'programs, across products',
      (b) => {
        b.products.push(otherProduct('GAP', 'PG'))
      },
      [at('/products/1/programs/0/code', 'duplicate')],
    ],
    // (P2's rate is dropped: with two plans P2 the rate would be checked against the last one.)
    [
      'plans, across products',
      (b) => {
        b.products.push(otherProduct('GAP', 'PG2', 'P2'))
        b.rates!.pop()
      },
      [at('/products/1/programs/0/plans/0/code', 'duplicate')],
    ],
    [
      'plans, within a program',
      (b) => {
        product(b).programs[0]!.plans.push({ ...structuredClone(plan(b)), name: 'Copy' })
      },
      [at('/products/0/programs/0/plans/2/code', 'duplicate')],
    ],
    [
      'terms in a plan (an implicit code counts)',
      (b) => {
        plan(b).terms.push({ months: 36, miles: 36000, milesBasis: 'FROM_ZERO' })
      },
      [at('/products/0/programs/0/plans/0/terms/2/code', 'duplicate')],
    ],
    [
      'terms with an explicit code',
      (b) => {
        plan(b).terms.push({ code: 'T48', months: 60, miles: 60000 })
      },
      [at('/products/0/programs/0/plans/0/terms/2/code', 'duplicate')],
    ],
    [
      'the same term code in two plans is fine',
      (b) => {
        plan(b, 1).terms.push({ code: 'T48', months: 48, miles: 0 })
        rate(b).plan = 'NOPE'
      },
      [at('/rates/0/plan', 'unknown_reference')],
    ],
    [
      'deductibles',
      (b) => {
        product(b).deductibles.push({ code: 'D0', amount: '50', type: 'REDUCED' })
      },
      [at('/products/0/deductibles/2/code', 'duplicate')],
    ],
    [
      'options',
      (b) => {
        product(b).options!.push({ code: 'ROAD', name: 'Again', kind: 'OPTION', buckets: { ADM: '1' } })
      },
      [at('/products/0/options/1/code', 'duplicate')],
    ],
    [
      'factor tables',
      (b) => {
        b.factorTables!.push({ code: 'ST', name: 'Again', fact: 'dealerState', entries: [] })
      },
      [at('/factorTables/1/code', 'duplicate')],
    ],
    [
      'factor table keys',
      (b) => {
        b.factorTables![0]!.entries.push({ key: 'FL', factor: 2 })
      },
      [at('/factorTables/0/entries/1/key', 'duplicate')],
    ],
    [
      'warranties of one make and type',
      (b) => {
        b.warranties = [
          { make: 'Honda', type: 'BASIC', months: 36, miles: 36000 },
          { make: 'HONDA', type: 'BASIC', months: 12, miles: 12000 },
        ]
      },
      [at('/warranties/1/type', 'duplicate')],
    ],
    [
      'a condition listed twice',
      (b) => {
        plan(b).conditions = ['USED', 'USED']
      },
      [at('/products/0/programs/0/plans/0/conditions', 'duplicate')],
    ],
    [
      'two rates for the same plan, term, deductible, class, band, state and criteria',
      (b) => {
        b.rates!.push(structuredClone(rate(b)))
      },
      [at('/rates/3', 'duplicate')],
    ],
    [
      'the same rate for another state is not a duplicate',
      (b) => {
        b.rates!.push({ ...structuredClone(rate(b)), state: 'FL' })
        b.rates!.push({ ...structuredClone(rate(b)), state: 'FL' })
      },
      [at('/rates/4', 'duplicate')],
    ],
  ])
})

describe('checkRateBook: unknown references', () => {
  runCases([
    [
      'the plan of a rate',
      (b) => {
        rate(b).plan = 'NOPE'
      },
      [at('/rates/0/plan', 'unknown_reference')],
    ],
    [
      'the term of a rate (a term of another plan)',
      (b) => {
        rate(b).term = '36-0'
      },
      [at('/rates/0/term', 'unknown_reference')],
    ],
    [
      'the deductible of a rate (one of another product)',
      (b) => {
        b.products.push(otherProduct())
        rate(b).deductible = 'DX'
      },
      [at('/rates/0/deductible', 'unknown_reference')],
    ],
    [
      'the vehicle class of a rate',
      (b) => {
        rate(b).vehicleClass = 'Z'
      },
      [at('/rates/0/vehicleClass', 'unknown_reference')],
    ],
    [
      'a bucket code of a rate',
      (b) => {
        rate(b).buckets = { RES: '500', ADM: '100', XYZ: '0' }
      },
      [at('/rates/0/buckets/XYZ', 'unknown_reference')],
    ],
    [
      'a bucket code of an option',
      (b) => {
        product(b).options![0]!.buckets = { XYZ: '1' }
      },
      [at('/products/0/options/0/buckets/XYZ', 'unknown_reference')],
    ],
    [
      'a factor table of a product',
      (b) => {
        product(b).factorTables = ['ST', 'NOPE']
      },
      [at('/products/0/factorTables/1', 'unknown_reference')],
    ],
    [
      'a plan of an option (one of another product)',
      (b) => {
        b.products.push(otherProduct())
        product(b).options![0]!.plans = ['P1', 'Q1']
      },
      [at('/products/0/options/0/plans/1', 'unknown_reference')],
    ],
    [
      'the vehicle class of a vehicle entry',
      (b) => {
        b.vehicles[0]!.vehicleClass = 'Z'
      },
      [at('/vehicles/0/vehicleClass', 'unknown_reference')],
    ],
    [
      'the default vehicle class',
      (b) => {
        b.defaultVehicleClass = 'Z'
      },
      [at('/defaultVehicleClass', 'unknown_reference')],
    ],
    [
      'a known default vehicle class is fine',
      (b) => {
        b.defaultVehicleClass = 'B'
        rate(b).plan = 'NOPE'
      },
      [at('/rates/0/plan', 'unknown_reference')],
    ],
    [
      'an ACCOUNT_HOLDER payee without kind and business key',
      (b) => {
        b.disbursementCodes[0]!.payee = { role: 'ACCOUNT_HOLDER', kind: 'INSURER' }
      },
      [at('/disbursementCodes/0/payee', 'required')],
    ],
    [
      'a business key on a payee that is not an ACCOUNT_HOLDER',
      (b) => {
        b.disbursementCodes[1]!.payee = { role: 'SELLING_DEALER', businessKey: 'X' }
      },
      [at('/disbursementCodes/1/payee', 'not_allowed')],
    ],
  ])
})

describe('checkRateBook: criteria', () => {
  runCases([
    [
      'a syntax error in product criteria',
      (b) => {
        product(b).criteria = 'vehicleAge <='
      },
      [at('/products/0/criteria', 'invalid_criteria')],
    ],
    [
      'an unknown fact in plan criteria',
      (b) => {
        plan(b).criteria = 'vehicleAg <= 8'
      },
      [at('/products/0/programs/0/plans/0/criteria', 'unknown_fact')],
    ],
    [
      'an unknown fact in program criteria',
      (b) => {
        product(b).programs[0]!.criteria = "colour = 'RED'"
      },
      [at('/products/0/programs/0/criteria', 'unknown_fact')],
    ],
    [
      'an unknown fact in term criteria',
      (b) => {
        plan(b).terms[1]!.criteria = 'termMonth = 48'
      },
      [at('/products/0/programs/0/plans/0/terms/1/criteria', 'unknown_fact')],
    ],
    [
      "a syntax error in an option's requiredWhen",
      (b) => {
        product(b).options![0]!.requiredWhen = "driveType IN ('4WD'"
      },
      [at('/products/0/options/0/requiredWhen', 'invalid_criteria')],
    ],
    [
      'an unknown fact in option criteria',
      (b) => {
        product(b).options![0]!.criteria = 'wheels > 4'
      },
      [at('/products/0/options/0/criteria', 'unknown_fact')],
    ],
    [
      'an unknown fact in rate criteria',
      (b) => {
        rate(b, 1).criteria = 'mileage > 10'
      },
      [at('/rates/1/criteria', 'unknown_fact')],
    ],
    [
      'an unknown fact for a factor table',
      (b) => {
        b.factorTables![0]!.fact = 'customerStat'
      },
      [at('/factorTables/0/fact', 'unknown_fact')],
    ],
    [
      'valid criteria everywhere pass',
      (b) => {
        product(b).criteria = "vehicleAge <= 12 AND make NOT IN ('FERRARI')"
        plan(b).criteria = 'odometer <= 100000'
        plan(b).terms[0]!.criteria = 'termMonths BETWEEN 1 AND 36'
        rate(b, 1).criteria = 'deductible >= 100'
        rate(b).plan = 'NOPE'
      },
      [at('/rates/0/plan', 'unknown_reference')],
    ],
  ])

  test('the message names the unknown fact', () => {
    const b = clone()
    plan(b).criteria = 'vehicleAg <= 8 AND odometr < 5'
    const [p] = problemsOf(b)
    assert.match(p!.message, /'vehicleAg', 'odometr'/)
  })

  test('factsOf lists every fact a criteria tree reads', () => {
    const facts = factsOf(
      parseCriteria("vehicleAge <= 8 AND (make IN ('A') OR NOT odometer BETWEEN msrp AND 5) AND trim IS NULL"),
    )
    assert.deepEqual([...facts].toSorted(), ['make', 'msrp', 'odometer', 'trim', 'vehicleAge'])
  })
})

describe('checkRateBook: money, factors and ranges', () => {
  runCases([
    [
      'three decimals in a suggested retail (and no made-up range problem from it)',
      (b) => {
        rate(b).suggestedRetail = '1000.005'
      },
      [at('/rates/0/suggestedRetail', 'invalid_money')],
    ],
    [
      'three decimals as a JSON number',
      (b) => {
        rate(b).maxRetail = 1500.125
      },
      [at('/rates/0/maxRetail', 'invalid_money')],
    ],
    [
      'a negative minimum retail',
      (b) => {
        rate(b).minRetail = '-1'
      },
      [at('/rates/0/minRetail', 'invalid_money')],
    ],
    [
      'a negative bucket',
      (b) => {
        rate(b).buckets = { RES: -500, ADM: '100' }
      },
      [at('/rates/0/buckets/RES', 'invalid_money')],
    ],
    [
      'a money text that is not a number',
      (b) => {
        rate(b, 1).buckets = { RES: '7e2' }
      },
      [at('/rates/1/buckets/RES', 'invalid_money')],
    ],
    [
      'a negative deductible',
      (b) => {
        product(b).deductibles[1]!.amount = '-100'
      },
      [at('/products/0/deductibles/1/amount', 'invalid_money')],
    ],
    [
      'an option amount with three decimals',
      (b) => {
        product(b).options![0]!.suggestedRetail = '9.999'
      },
      [at('/products/0/options/0/suggestedRetail', 'invalid_money')],
    ],
    [
      'a zero factor',
      (b) => {
        b.factorTables![0]!.entries[0]!.factor = 0
      },
      [at('/factorTables/0/entries/0/factor', 'invalid_factor')],
    ],
    [
      'a negative default factor',
      (b) => {
        b.factorTables![0]!.defaultFactor = '-1'
      },
      [at('/factorTables/0/defaultFactor', 'invalid_factor')],
    ],
    [
      'a factor with seven places',
      (b) => {
        b.factorTables![0]!.entries[0]!.factor = '1.1234567'
      },
      [at('/factorTables/0/entries/0/factor', 'invalid_factor')],
    ],
    [
      'minRetail above maxRetail',
      (b) => {
        rate(b).minRetail = '1600'
      },
      [at('/rates/0/minRetail', 'invalid_range')],
    ],
    [
      'suggested below the minimum',
      (b) => {
        rate(b).suggestedRetail = '599'
      },
      [at('/rates/0/suggestedRetail', 'invalid_range')],
    ],
    [
      'suggested above the maximum',
      (b) => {
        rate(b).suggestedRetail = '1500.01'
      },
      [at('/rates/0/suggestedRetail', 'invalid_range')],
    ],
    [
      'minRetail below the bucket total',
      (b) => {
        rate(b).minRetail = '599.99'
      },
      [at('/rates/0/minRetail', 'below_cost')],
    ],
    [
      'a suggested retail (the default minimum) below the bucket total',
      (b) => {
        rate(b, 1).suggestedRetail = '699.99'
      },
      [at('/rates/1/minRetail', 'below_cost')],
    ],
    [
      'minRetail equal to the bucket total is fine',
      (b) => {
        rate(b).minRetail = '600.00'
        rate(b).plan = 'NOPE'
      },
      [at('/rates/0/plan', 'unknown_reference')],
    ],
    [
      'a locked retail with a different maximum',
      (b) => {
        rate(b, 2).maxRetail = '400'
      },
      [at('/rates/2/retailLocked', 'invalid_range')],
    ],
    [
      'a locked retail with a different minimum',
      (b) => {
        rate(b, 2).minRetail = '200'
      },
      [at('/rates/2/retailLocked', 'invalid_range')],
    ],
    [
      'a locked retail with equal minimum and maximum is fine',
      (b) => {
        rate(b, 2).minRetail = '300'
        rate(b, 2).maxRetail = 300
        rate(b).plan = 'NOPE'
      },
      [at('/rates/0/plan', 'unknown_reference')],
    ],
    [
      'a rate without buckets',
      (b) => {
        rate(b, 1).buckets = {}
      },
      [at('/rates/1/buckets', 'required')],
    ],
    [
      'an odometer band upside down',
      (b) => {
        rate(b).odometerFrom = 50001
        rate(b).odometerTo = 50000
      },
      [at('/rates/0/odometerTo', 'invalid_range')],
    ],
    [
      'vehicle years upside down',
      (b) => {
        b.vehicles[0]!.yearFrom = 2028
      },
      [at('/vehicles/0/yearTo', 'invalid_range')],
    ],
    [
      'trims without a model',
      (b) => {
        delete b.vehicles[0]!.model
      },
      [at('/vehicles/0/model', 'required')],
    ],
  ])

  test('the below-cost message gives the bucket total', () => {
    const b = clone()
    rate(b).minRetail = '599.99'
    assert.match(problemsOf(b)[0]!.message, /599\.99 is below the dealer cost 600\.00/)
  })
})

describe('checkRateBook: dates', () => {
  runCases([
    [
      'an impossible effective date',
      (b) => {
        b.effectiveDate = '2026-02-30'
      },
      [at('/effectiveDate', 'invalid_date')],
    ],
    [
      'a malformed product date',
      (b) => {
        product(b).effectiveFrom = '2026-1-1'
      },
      [at('/products/0/effectiveFrom', 'invalid_date')],
    ],
    [
      'a product window upside down',
      (b) => {
        product(b).effectiveFrom = '2026-06-01'
        product(b).effectiveTo = '2026-05-31'
      },
      [at('/products/0/effectiveTo', 'invalid_range')],
    ],
    [
      'a plan date that does not exist',
      (b) => {
        plan(b, 1).effectiveTo = '2027-13-01'
      },
      [at('/products/0/programs/0/plans/1/effectiveTo', 'invalid_date')],
    ],
    [
      'a plan window upside down',
      (b) => {
        plan(b).effectiveFrom = '2027-01-01'
        plan(b).effectiveTo = '2026-12-31'
      },
      [at('/products/0/programs/0/plans/0/effectiveTo', 'invalid_range')],
    ],
    [
      'a one-day window is fine',
      (b) => {
        plan(b).effectiveFrom = '2027-01-01'
        plan(b).effectiveTo = '2027-01-01'
        b.effectiveDate = '2026-02-29'
      },
      [at('/effectiveDate', 'invalid_date')],
    ],
  ])
})

describe('checkRateBook: custom fields', () => {
  runCases([
    [
      'a LIST without options',
      (b) => {
        product(b).customFields!.push({ key: 'brand', label: 'Brand', type: 'LIST' })
      },
      [at('/products/0/customFields/1/options', 'required')],
    ],
    [
      'a LIST with an empty option list',
      (b) => {
        plan(b).customFields = [{ key: 'brand', label: 'Brand', type: 'LIST', options: [] }]
      },
      [at('/products/0/programs/0/plans/0/customFields/0/options', 'required')],
    ],
    [
      'options on a field that is not a LIST',
      (b) => {
        product(b).customFields![0]!.options = [{ value: 'A', label: 'A' }]
      },
      [at('/products/0/customFields/0/options', 'not_allowed')],
    ],
    [
      'a pattern that is not a regular expression',
      (b) => {
        product(b).customFields![0]!.pattern = '([a-z'
      },
      [at('/products/0/customFields/0/pattern', 'invalid_format')],
    ],
    [
      'a valid pattern is fine',
      (b) => {
        product(b).customFields![0]!.pattern = '^[A-Z]{2}\\d+$'
        rate(b).plan = 'NOPE'
      },
      [at('/rates/0/plan', 'unknown_reference')],
    ],
    [
      'a key defined by both the product and a plan',
      (b) => {
        plan(b, 1).customFields = [{ key: 'mgr', label: 'Manager again', type: 'STRING' }]
      },
      [at('/products/0/programs/0/plans/1/customFields/0/key', 'duplicate')],
    ],
    [
      'a key twice in the product',
      (b) => {
        product(b).customFields!.push({ key: 'mgr', label: 'Again', type: 'INTEGER' })
      },
      [at('/products/0/customFields/1/key', 'duplicate')],
    ],
    [
      'min above max',
      (b) => {
        product(b).customFields!.push({ key: 'n', label: 'N', type: 'INTEGER', min: 5, max: 4 })
      },
      [at('/products/0/customFields/1/max', 'invalid_range')],
    ],
    [
      'minLength above maxLength',
      (b) => {
        product(b).customFields![0]!.minLength = 5
        product(b).customFields![0]!.maxLength = 4
      },
      [at('/products/0/customFields/0/maxLength', 'invalid_range')],
    ],
  ])
})

describe('checkRateBook: rates as CSV', () => {
  const header =
    'plan,term,deductible,vehicleClass,odometerFrom,odometerTo,state,criteria,RES,ADM,suggestedRetail,minRetail,maxRetail,retailLocked'
  const withCsv = (csv: string, rates: unknown[] = []) => ({ ...clone(), rates, ratesCsv: csv })
  const csvAt = (row: number, field: string | undefined, code: string, file = 'body#ratesCsv'): Where => ({
    file,
    row,
    ...(field ? { field } : {}),
    code,
  })

  test('good CSV rates are merged after the JSON rates and normalised like them', () => {
    const csv = [
      header,
      'P1,T48,D0,A,0,50000,,,500,100.5,1000,700,1500,',
      "P1,T48,D0,A,50001,100000,,\"odometer > 50000 AND make IN ('HONDA', 'ACURA')\",600,100,1100,,,false",
      'P2,36-0,D100,*,,,TX,,100,,250,,,true',
    ].join('\r\n')
    const book = bookOf(withCsv(csv, [rate(clone())]))
    assert.equal(book.rates.length, 4)
    assert.equal(book.rates[0]!.plan, 'P1')
    assert.deepEqual(book.rates[1], {
      plan: 'P1',
      term: 'T48',
      deductible: 'D0',
      vehicleClass: 'A',
      odometerFrom: 0,
      odometerTo: 50000,
      buckets: { RES: 500, ADM: 100.5 },
      suggestedRetail: 1000,
      minRetail: 700,
      maxRetail: 1500,
      retailLocked: false,
    })
    assert.equal(book.rates[2]!.criteria, "odometer > 50000 AND make IN ('HONDA', 'ACURA')")
    assert.deepEqual(book.rates[3], {
      plan: 'P2',
      term: '36-0',
      deductible: 'D100',
      vehicleClass: '*',
      state: 'TX',
      buckets: { RES: 100 },
      suggestedRetail: 250,
      minRetail: 250,
      maxRetail: 250,
      retailLocked: true,
    })
    assert.equal((book as Record<string, unknown>).ratesCsv, undefined)
    assert.equal(summarize(book).rates, 4)
  })

  test('a byte-order mark and only the required columns are enough', () => {
    const book = bookOf(withCsv('\uFEFFplan,term,deductible,vehicleClass,suggestedRetail,RES\nP1,T48,D0,B,900,700\n'))
    assert.deepEqual(
      book.rates.map((r) => [r.vehicleClass, r.buckets]),
      [['B', { RES: 700 }]],
    )
  })

  test('a CSV rate that duplicates a JSON rate is reported at its row', () => {
    assert.deepEqual(
      where(
        problemsOf(
          withCsv(
            'plan,term,deductible,vehicleClass,suggestedRetail,RES,ADM,minRetail,maxRetail\nP1,36-36000,D0,A,1000,500,100,600,1500\n',
            [rate(clone())],
          ),
        ),
      ),
      [csvAt(2, undefined, 'duplicate')],
    )
  })

  const cases: Array<[string, string, Where[]]> = [
    [
      'an unknown column',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES,FOO\nP1,T48,D0,A,900,700,1\n',
      [csvAt(1, 'FOO', 'unknown_column')],
    ],
    [
      'a missing required column',
      'plan,term,deductible,vehicleClass,RES\nP1,T48,D0,A,700\n',
      [csvAt(1, 'suggestedRetail', 'required')],
    ],
    [
      'two missing columns and an unknown one, all reported',
      'plan,term,RES,COLOUR\n',
      [
        csvAt(1, 'COLOUR', 'unknown_column'),
        csvAt(1, 'deductible', 'required'),
        csvAt(1, 'vehicleClass', 'required'),
        csvAt(1, 'suggestedRetail', 'required'),
      ],
    ],
    [
      'a column twice',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES,RES\nP1,T48,D0,A,900,700,1\n',
      [csvAt(1, undefined, 'duplicate_column')],
    ],
    [
      'a bad amount, with its row and column',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES\nP1,T48,D0,A,900,700\nP1,T48,D100,A,900,12.345\n',
      [csvAt(3, 'RES', 'invalid_money')],
    ],
    [
      'a bad odometer and a bad retailLocked in one row',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES,odometerFrom,retailLocked\nP1,T48,D0,A,900,700,-5,yes\n',
      [csvAt(2, 'odometerFrom', 'invalid_type'), csvAt(2, 'retailLocked', 'invalid_type')],
    ],
    [
      'a cell the rate schema refuses',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES,state\nP1,T48,D0,A,900,700,tx\n',
      [csvAt(2, 'state', 'invalid_value')],
    ],
    [
      'an empty required cell',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES\nP1,,D0,A,900,700\n',
      [csvAt(2, 'term', 'required')],
    ],
    [
      'an unknown plan and a retail below cost, with their rows',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES\nNOPE,T48,D0,A,900,700\nP1,T48,D0,A,600,700\n',
      [csvAt(2, 'plan', 'unknown_reference'), csvAt(3, 'minRetail', 'below_cost')],
    ],
    [
      'an unknown fact in a criteria cell',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES,criteria\nP1,T48,D0,A,900,700,colour = 1\n',
      [csvAt(2, 'criteria', 'unknown_fact')],
    ],
    [
      'rows are line numbers: blank lines count',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES\n\nP1,T48,D0,A,900,700\n\n\nP1,T48,D100,A,900,7.001\n',
      [csvAt(6, 'RES', 'invalid_money')],
    ],
    [
      'an unclosed quote',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES\nP1,"T48,D0,A,900,700\n',
      [csvAt(2, undefined, 'invalid_csv')],
    ],
    [
      'a row with too few cells',
      'plan,term,deductible,vehicleClass,suggestedRetail,RES\nP1,T48,D0\n',
      [csvAt(2, undefined, 'invalid_csv')],
    ],
    ['no header at all', '', [csvAt(1, undefined, 'invalid_csv')]],
  ]
  for (const [name, csv, expected] of cases) {
    test(name, () => assert.deepEqual(where(problemsOf(withCsv(csv))), expected))
  }

  test("the CSV file name given by the caller is the problem's file; JSON problems keep the book's", () => {
    const b = withCsv('plan,term,deductible,vehicleClass,suggestedRetail,RES\nP1,T48,D0,A,900,70.001\n')
    b.effectiveDate = '2026-02-30'
    assert.deepEqual(where(problemsOf(b, { file: 'book.json', csvFile: 'rates.csv' } as { file: string })), [
      { file: 'book.json', path: '/effectiveDate', code: 'invalid_date' },
      { file: 'rates.csv', row: 2, field: 'RES', code: 'invalid_money' },
    ])
  })
})

describe('checkRateBook: the problem list is capped', () => {
  test(`past ${MAX_REPORTED_PROBLEMS} problems, one last 'too_many_problems' entry counts the rest`, () => {
    const b = clone()
    b.rates = Array.from({ length: MAX_REPORTED_PROBLEMS + 100 }, (_, i) => ({
      plan: 'NOPE',
      term: 'T48',
      deductible: 'D0',
      vehicleClass: 'A',
      odometerFrom: i,
      buckets: { RES: '1' },
      suggestedRetail: '1',
    }))
    const problems = problemsOf(b)
    assert.equal(problems.length, MAX_REPORTED_PROBLEMS + 1)
    assert.deepEqual(where(problems.slice(0, 2)), [
      at('/rates/0/plan', 'unknown_reference'),
      at('/rates/1/plan', 'unknown_reference'),
    ])
    assert.deepEqual(where([problems[MAX_REPORTED_PROBLEMS - 1]!]), [
      at(`/rates/${MAX_REPORTED_PROBLEMS - 1}/plan`, 'unknown_reference'),
    ])
    const last = problems.at(-1)!
    assert.equal(last.code, 'too_many_problems')
    assert.equal(last.file, 'body')
    assert.match(last.message, /^100 more problems/)
  })

  test('exactly the cap is listed without a summary entry', () => {
    const b = clone()
    b.rates = Array.from({ length: MAX_REPORTED_PROBLEMS }, (_, i) => ({
      plan: 'NOPE',
      term: 'T48',
      deductible: 'D0',
      vehicleClass: 'A',
      odometerFrom: i,
      buckets: { RES: '1' },
      suggestedRetail: '1',
    }))
    const problems = problemsOf(b)
    assert.equal(problems.length, MAX_REPORTED_PROBLEMS)
    assert.ok(problems.every((p) => p.code === 'unknown_reference'))
  })
})

describe('catalogueItemsOf and summarize', () => {
  test('catalogueItemsOf lists every item with its scoped code', () => {
    const b = clone()
    b.products.push(otherProduct())
    assert.deepEqual(catalogueItemsOf(bookOf(b)), [
      { kind: 'FACTOR_TABLE', code: 'ST' },
      { kind: 'PRODUCT', code: 'VSC' },
      { kind: 'DEDUCTIBLE', code: 'VSC/D0' },
      { kind: 'DEDUCTIBLE', code: 'VSC/D100' },
      { kind: 'OPTION', code: 'VSC/ROAD' },
      { kind: 'PROGRAM', code: 'PG' },
      { kind: 'PLAN', code: 'P1' },
      { kind: 'TERM', code: 'P1/36-36000' },
      { kind: 'TERM', code: 'P1/T48' },
      { kind: 'PLAN', code: 'P2' },
      { kind: 'TERM', code: 'P2/36-0' },
      { kind: 'PRODUCT', code: 'GAP' },
      { kind: 'DEDUCTIBLE', code: 'GAP/DX' },
      { kind: 'PROGRAM', code: 'PG2' },
      { kind: 'PLAN', code: 'Q1' },
      { kind: 'TERM', code: 'Q1/12-0' },
      // The book has no cancel methods or reasons of its own: the defaults are its items, last.
      ...DEFAULT_CANCEL_METHODS.map((m) => ({ kind: 'CANCEL_METHOD', code: m.code })),
      ...DEFAULT_CANCEL_REASONS.map((r) => ({ kind: 'CANCEL_REASON', code: r.code })),
    ])
  })

  test("a book's own cancel methods and reasons are its items instead of the defaults", () => {
    const b = clone()
    b.cancelMethods = [{ code: 'PR', name: 'Pro rata', formula: 'PRO_RATA_DAYS' }]
    b.cancelReasons = [{ code: 'ASKED', name: 'Asked', requestedBy: ['CUSTOMER'] }]
    product(b).cancellation = { method: 'PR' }
    assert.deepEqual(
      catalogueItemsOf(bookOf(b)).filter((i) => i.kind.startsWith('CANCEL_')),
      [
        { kind: 'CANCEL_METHOD', code: 'PR' },
        { kind: 'CANCEL_REASON', code: 'ASKED' },
      ],
    )
  })

  test('catalogue codes of the demo book are unique', () => {
    const items = catalogueItemsOf(bookOf(demoRateBook('2026-01-01')))
    assert.equal(new Set(items.map((i) => `${i.kind}:${i.code}`)).size, items.length)
  })

  test('summarize counts the parts', () => {
    assert.deepEqual(summarize(bookOf(mini())), {
      products: 1,
      programs: 1,
      plans: 2,
      terms: 3,
      rates: 3,
      vehicles: 1,
      factorTables: 1,
      disbursementCodes: 2,
    })
    const demo = demoRateBook('2026-01-01')
    assert.deepEqual(summarize(bookOf(demo)), {
      products: 4,
      programs: 6,
      plans: 7,
      terms: 25,
      rates: demo.rates!.length,
      vehicles: demo.vehicles.length,
      factorTables: 1,
      disbursementCodes: 10,
    })
  })

  test('bucketTotal adds the buckets exactly', () => {
    assert.equal(bucketTotal({ RES: 0.1, PRM: 0.2, ADM: 1000000.7 }).toFixed(2), '1000001.00')
  })
})

describe('facts criteria cannot see where they are judged', () => {
  const cases: Array<[string, (b: Record<string, any>) => void, string]> = [
    [
      'a plan criteria naming termMonths',
      (b) => {
        b.products[0].programs[0].plans[0].criteria = 'termMonths <= 36'
      },
      '/products/0/programs/0/plans/0/criteria',
    ],
    [
      'a product criteria naming deductible',
      (b) => {
        b.products[0].criteria = 'deductible = 0'
      },
      '/products/0/criteria',
    ],
    [
      'a term criteria naming deductible',
      (b) => {
        b.products[0].programs[0].plans[0].terms[0].criteria = 'deductible = 0'
      },
      '/products/0/programs/0/plans/0/terms/0/criteria',
    ],
    [
      'a factor table keyed on termMiles',
      (b) => {
        b.factorTables[0].fact = 'termMiles'
      },
      '/factorTables/0/fact',
    ],
  ]
  for (const [name, change, path] of cases) {
    test(`${name} is refused (fact_not_available)`, () => {
      const input = structuredClone(demoRateBook('2026-01-01')) as Record<string, any>
      change(input)
      const result = checkRateBook(input, { file: 'book.json' })
      assert.equal(result.ok, false)
      if (!result.ok)
        assert.deepEqual(
          result.problems.map((p) => [p.path, p.code]),
          [[path, 'fact_not_available']],
        )
    })
  }
  test('term criteria may name termMonths; rate and option criteria may name deductible', () => {
    const input = structuredClone(demoRateBook('2026-01-01')) as Record<string, any>
    input.products[0].programs[0].plans[0].terms[0].criteria = 'termMonths <= 36'
    input.products[0].options[0].criteria = 'deductible >= 0'
    assert.equal(checkRateBook(input, { file: 'book.json' }).ok, true)
  })
})

describe('criteria whose facts and values do not fit', () => {
  const cases: Array<[string, (b: Record<string, any>) => void, string]> = [
    [
      'a number fact compared with a string',
      (b) => {
        b.products[0].criteria = "odometer = 'HIGH'"
      },
      '/products/0/criteria',
    ],
    [
      'a deductible compared with its code',
      (b) => {
        b.rates[0].criteria = "deductible = 'D100'"
      },
      '/rates/0/criteria',
    ],
    [
      'a string fact in a numeric BETWEEN',
      (b) => {
        b.products[0].programs[0].plans[0].criteria = 'make BETWEEN 1 AND 2'
      },
      '/products/0/programs/0/plans/0/criteria',
    ],
    [
      'an IN list of the wrong kind',
      (b) => {
        b.products[0].options[0].requiredWhen = "vehicleAge IN ('OLD')"
      },
      '/products/0/options/0/requiredWhen',
    ],
    [
      'a number used as a condition',
      (b) => {
        b.products[0].criteria = 'odometer'
      },
      '/products/0/criteria',
    ],
    [
      'a string fact compared with a number fact',
      (b) => {
        b.products[0].criteria = 'make = odometer'
      },
      '/products/0/criteria',
    ],
  ]
  for (const [name, change, path] of cases) {
    test(`${name} is refused (fact_type_mismatch)`, () => {
      const input = structuredClone(demoRateBook('2026-01-01')) as Record<string, any>
      change(input)
      const result = checkRateBook(input, { file: 'book.json' })
      assert.equal(result.ok, false)
      if (!result.ok)
        assert.deepEqual(
          result.problems.map((p) => [p.path, p.code]),
          [[path, 'fact_type_mismatch']],
        )
    })
  }
  test('dates compare with DATE literals and with strings; numbers with numbers', () => {
    const input = structuredClone(demoRateBook('2026-01-01')) as Record<string, any>
    input.products[0].criteria =
      "inServiceDate >= DATE '2015-01-01' AND saleDate <> '2026-12-25' AND odometer BETWEEN 0 AND 150000 AND make IN ('HONDA')"
    assert.equal(checkRateBook(input, { file: 'book.json' }).ok, true)
  })
})

describe('lists of a product that must not repeat', () => {
  for (const field of ['factorTables', 'assetTypes', 'requiredInputs'] as const) {
    test(`${field} listing a value twice is refused (it would apply a factor twice)`, () => {
      const input = structuredClone(demoRateBook('2026-01-01')) as Record<string, any>
      const first = input.products[0][field][0]
      input.products[0][field] = [first, first]
      const result = checkRateBook(input, { file: 'book.json' })
      assert.equal(result.ok, false)
      if (!result.ok)
        assert.deepEqual(
          result.problems.map((p) => [p.path, p.code]),
          [[`/products/0/${field}`, 'duplicate']],
        )
    })
  }
})

describe('factor bounds', () => {
  const cases: Array<[unknown, boolean]> = [
    ['1.10', true],
    [10, true],
    ['0.000001', true],
    ['10.000001', false],
    [1000, false],
    [0, false],
    ['-1', false],
  ]
  for (const [value, ok] of cases) {
    test(`a factor of ${JSON.stringify(value)} is ${ok ? 'accepted' : 'refused'}`, () => {
      const input = structuredClone(demoRateBook('2026-01-01')) as Record<string, any>
      input.factorTables[0].entries[0].factor = value
      const result = checkRateBook(input, { file: 'book.json' })
      assert.equal(result.ok, ok)
      if (!result.ok)
        assert.deepEqual(
          result.problems.map((p) => [p.path, p.code]),
          [['/factorTables/0/entries/0/factor', 'invalid_factor']],
        )
    })
  }
})
