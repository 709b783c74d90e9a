// The after-sale members of a rate book, table by table: a book using all of them passes and
// normalises to itself; a book without them normalises exactly as before (its checksum does not
// move); each kind of problem is reported at its JSON pointer with its code, and nothing else is.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { checkRateBook, type RateBook, type RateBookProblem } from './ratebook.rules.ts'
import type { RateBookInput } from './ratebook.format.ts'

/** A small valid book with every after-sale member: two products (VSC and GAP), curves, state rules. */
function base(): RateBookInput {
  return {
    formatVersion: 1,
    effectiveDate: '2026-01-01',
    disbursementCodes: [
      { code: 'RES', label: 'Reserve', group: 'RESERVE', earnings: { method: 'CURVE', curve: 'C12' } },
      { code: 'ADM', label: 'Admin fee', group: 'ADMIN_FEE' },
      { code: 'COM', label: 'Commission', group: 'COMMISSION', earnings: { method: 'IMMEDIATE' }, refundable: false },
    ],
    vehicleClasses: [{ code: 'A' }],
    vehicles: [],
    products: [
      {
        code: 'VSC',
        name: 'Service contract',
        type: 'VSC',
        assetTypes: ['AUTO'],
        requiredInputs: [],
        deductibles: [{ code: 'D0', amount: 0, type: 'STANDARD' }],
        options: [{ code: 'ROAD', name: 'Roadside', kind: 'OPTION', buckets: { ADM: '10' } }],
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
                terms: [{ months: 12, miles: 12000 }],
                claims: {
                  waitingPeriodDays: 30,
                  limitOfLiability: { basis: 'AMOUNT', amount: '10000.00' },
                  benefits: [{ type: 'RENTAL', perDay: '40.00', maxDays: 5 }],
                },
              },
            ],
          },
        ],
        cancellation: {
          method: 'PR',
          fee: { amount: '50.00', percent: '10', percentOf: 'REFUND', max: '75' },
          rules: [{ reasons: ['ASKED'], states: ['TX'], requestedBy: ['DEALER'], method: 'SR', freeLookDays: 10 }],
        },
        transfer: { allowed: true, fee: '25.00', withinDays: 30 },
      },
      {
        code: 'GAP',
        name: 'GAP',
        type: 'GAP',
        assetTypes: ['AUTO'],
        requiredInputs: [],
        deductibles: [{ code: 'D0', amount: 0, type: 'STANDARD' }],
        programs: [
          {
            code: 'PG2',
            name: 'GAP program',
            plans: [
              { code: 'G1', name: 'GAP', conditions: ['NEW'], formNumber: 'G1', terms: [{ months: 24, miles: 0 }] },
            ],
          },
        ],
        cancellation: { method: 'PR' },
      },
    ],
    rates: [
      {
        plan: 'P1',
        term: '12-12000',
        deductible: 'D0',
        vehicleClass: '*',
        buckets: { RES: 100, COM: 10 },
        suggestedRetail: 200,
      },
      { plan: 'G1', term: '24-0', deductible: 'D0', vehicleClass: '*', buckets: { ADM: 100 }, suggestedRetail: 200 },
    ],
    cancelMethods: [
      { code: 'PR', name: 'Pro rata', formula: 'PRO_RATA_DAYS' },
      {
        code: 'SR',
        name: 'Short rate',
        formula: 'SHORT_RATE',
        shortRatePercent: '90',
        timeBasis: 'MONTHS',
        monthCounting: 'STARTED',
      },
      { code: 'FX', name: 'Fixed', formula: 'FIXED_AMOUNT', fixedAmount: '25.50' },
    ],
    cancelReasons: [
      { code: 'ASKED', name: 'Asked', requestedBy: ['CUSTOMER', 'DEALER'] },
      { code: 'PAYOFF', name: 'Payoff', requestedBy: ['LIENHOLDER'], productTypes: ['GAP'], endsGap: 'PAYOFF' },
    ],
    stateRules: [
      { state: 'TX', freeLookDays: 20, cancelFeeMax: '50', cancelFeeMaxPercent: '10.5', claimsDeductible: false },
    ],
    earningsCurves: [
      {
        code: 'C12',
        name: 'Twelve months',
        cumulative: ['0.2', '0.4', '0.5', 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.999999, '1'],
      },
    ],
  }
}

type Book = RateBookInput & Record<string, any>
const clone = (): Book => structuredClone(base()) as Book
const vsc = (b: Book) => b.products[0]! as any
const plan = (b: Book) => vsc(b).programs[0].plans[0]

function bookOf(input: unknown): RateBook {
  const result = checkRateBook(input, { file: 'body' })
  if (!result.ok) assert.fail(`refused: ${JSON.stringify(result.problems.slice(0, 5))}`)
  return result.book
}
type Where = { path?: string; code: string }
const where = (problems: readonly RateBookProblem[]): Where[] => problems.map(({ path, code }) => ({ path, code }))
const at = (path: string, code: string): Where => ({ path, code })

type Case = [name: string, change: (b: Book) => void, expected: Where[]]
function runCases(cases: Case[]) {
  for (const [name, change, expected] of cases)
    test(name, () => {
      const b = clone()
      change(b)
      const result = checkRateBook(b, { file: 'body' })
      assert.equal(result.ok, false, 'the book should be refused')
      assert.deepEqual(where(result.ok ? [] : result.problems), expected)
    })
}

describe('valid books', () => {
  test('a book with every after-sale member passes; amounts, percentages and fractions become JSON numbers; it normalises to itself', () => {
    const book = bookOf(base())
    assert.deepEqual(book.cancelMethods, [
      { code: 'PR', name: 'Pro rata', formula: 'PRO_RATA_DAYS' },
      {
        code: 'SR',
        name: 'Short rate',
        formula: 'SHORT_RATE',
        shortRatePercent: 90,
        timeBasis: 'MONTHS',
        monthCounting: 'STARTED',
      },
      { code: 'FX', name: 'Fixed', formula: 'FIXED_AMOUNT', fixedAmount: 25.5 },
    ])
    // Defaults are not written in: what the book leaves out stays out.
    assert.deepEqual(book.cancelReasons, base().cancelReasons)
    assert.deepEqual(book.stateRules, [
      { state: 'TX', freeLookDays: 20, cancelFeeMax: 50, cancelFeeMaxPercent: 10.5, claimsDeductible: false },
    ])
    assert.deepEqual(
      book.earningsCurves![0]!.cumulative,
      [0.2, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.999999, 1],
    )
    assert.deepEqual(book.products[0]!.cancellation, {
      method: 'PR',
      fee: { amount: 50, percent: 10, percentOf: 'REFUND', max: 75 },
      rules: [{ reasons: ['ASKED'], states: ['TX'], requestedBy: ['DEALER'], method: 'SR', freeLookDays: 10 }],
    })
    assert.deepEqual(book.products[0]!.transfer, { allowed: true, fee: 25, withinDays: 30 })
    assert.deepEqual(book.products[0]!.programs[0]!.plans[0]!.claims, {
      waitingPeriodDays: 30,
      limitOfLiability: { basis: 'AMOUNT', amount: 10000 },
      benefits: [{ type: 'RENTAL', perDay: 40, maxDays: 5 }],
    })
    assert.deepEqual(book.disbursementCodes[2], {
      code: 'COM',
      label: 'Commission',
      group: 'COMMISSION',
      earnings: { method: 'IMMEDIATE' },
      refundable: false,
      payee: { role: 'ADMINISTRATOR' },
    })
    assert.equal(JSON.stringify(bookOf(JSON.parse(JSON.stringify(book)))), JSON.stringify(book))
  })

  test('a book without the after-sale members normalises without them (old books keep their form and checksum)', () => {
    const b = clone()
    for (const k of ['cancelMethods', 'cancelReasons', 'stateRules', 'earningsCurves']) delete b[k]
    for (const p of b.products as any[]) {
      delete p.cancellation
      delete p.transfer
      for (const g of p.programs) for (const pl of g.plans) delete pl.claims
    }
    for (const c of b.disbursementCodes as any[]) {
      delete c.earnings
      delete c.refundable
    }
    const book = bookOf(b) as Record<string, any>
    for (const k of ['cancelMethods', 'cancelReasons', 'stateRules', 'earningsCurves'])
      assert.equal(k in book, false, k)
    assert.equal('cancellation' in book.products[0], false)
    assert.equal('transfer' in book.products[0], false)
    assert.equal('claims' in book.products[0].programs[0].plans[0], false)
    assert.deepEqual(Object.keys(book.disbursementCodes[0]), ['code', 'label', 'group', 'payee'])
  })

  test('without cancelMethods a product may name a default method; its own default (lesser of time and miles for VSC) exists', () => {
    const b = clone()
    delete b.cancelMethods
    delete vsc(b).cancellation.rules
    vsc(b).cancellation.method = 'SHORT_RATE'
    delete b.products[1]!.cancellation
    bookOf(b)
  })

  test('a curve longer than the terms it serves, and codes in options only, are fine; a rule may set only a fee of 0', () => {
    const b = clone()
    b.earningsCurves![0]!.cumulative.push('1', '1')
    vsc(b).cancellation.rules.push({ requestedBy: ['ADMIN'], fee: { amount: 0 } })
    bookOf(b)
  })
})

describe('cancel methods', () => {
  runCases([
    [
      'a code given twice',
      (b) => b.cancelMethods!.push({ code: 'PR', name: 'Again', formula: 'FULL' }),
      [at('/cancelMethods/3/code', 'duplicate')],
    ],
    [
      'an empty list (omit the member for the defaults)',
      (b) => (b.cancelMethods = []),
      [at('/cancelMethods', 'invalid_value')],
    ],
    [
      'an unknown formula',
      (b) => ((b.cancelMethods![0] as any).formula = 'PRO_RATA'),
      [at('/cancelMethods/0/formula', 'invalid_value')],
    ],
    [
      'shortRatePercent on another formula, and SHORT_RATE without it',
      (b) => {
        ;(b.cancelMethods![0] as any).shortRatePercent = 90
        delete b.cancelMethods![1]!.shortRatePercent
      },
      [at('/cancelMethods/0/shortRatePercent', 'not_allowed'), at('/cancelMethods/1/shortRatePercent', 'required')],
    ],
    ...(['0', '100.5', '-5', '12.34567', 'ninety'] as const).map((v): Case => [
      `shortRatePercent ${v}: above 0, up to 100, four places`,
      (b) => (b.cancelMethods![1]!.shortRatePercent = v),
      [at('/cancelMethods/1/shortRatePercent', 'invalid_percent')],
    ]),
    [
      'fixedAmount on another formula, FIXED_AMOUNT without it',
      (b) => {
        ;(b.cancelMethods![0] as any).fixedAmount = 10
        delete b.cancelMethods![2]!.fixedAmount
      },
      [at('/cancelMethods/0/fixedAmount', 'not_allowed'), at('/cancelMethods/2/fixedAmount', 'required')],
    ],
    [
      'a fixed amount with three decimals, or negative',
      (b) => {
        b.cancelMethods![2]!.fixedAmount = '25.505'
        b.cancelMethods!.push({ code: 'FX2', name: 'Fixed', formula: 'FIXED_AMOUNT', fixedAmount: -1 })
      },
      [at('/cancelMethods/2/fixedAmount', 'invalid_money'), at('/cancelMethods/3/fixedAmount', 'invalid_money')],
    ],
    [
      'timeBasis on a formula whose time is fixed',
      (b) => ((b.cancelMethods![0] as any).timeBasis = 'MONTHS'),
      [at('/cancelMethods/0/timeBasis', 'not_allowed')],
    ],
    [
      'monthCounting on a method that counts days (by formula, or by timeBasis)',
      (b) => {
        ;(b.cancelMethods![0] as any).monthCounting = 'STARTED'
        b.cancelMethods![1]!.timeBasis = 'DAYS'
      },
      [at('/cancelMethods/0/monthCounting', 'not_allowed'), at('/cancelMethods/1/monthCounting', 'not_allowed')],
    ],
  ])

  test('monthCounting is fine on PRO_RATA_MONTHS, RULE_OF_78, MEAN_PR_R78 and a MONTHS time basis', () => {
    const b = clone()
    for (const formula of ['PRO_RATA_MONTHS', 'RULE_OF_78', 'MEAN_PR_R78'] as const)
      b.cancelMethods!.push({ code: formula, name: formula, formula, monthCounting: 'NEAREST_15' })
    b.cancelMethods!.push({
      code: 'G',
      name: 'Greater',
      formula: 'PRO_RATA_GREATER_TIME_MILES',
      timeBasis: 'MONTHS',
      monthCounting: 'COMPLETED',
    })
    bookOf(b)
  })
})

describe('cancel reasons', () => {
  runCases([
    [
      'a code given twice',
      (b) => b.cancelReasons!.push({ code: 'ASKED', name: 'Again', requestedBy: ['ADMIN'] }),
      [at('/cancelReasons/2/code', 'duplicate')],
    ],
    [
      'no requester',
      (b) => (b.cancelReasons![0]!.requestedBy = []),
      [at('/cancelReasons/0/requestedBy', 'invalid_value')],
    ],
    [
      'a requester, product type or document listed twice',
      (b) => {
        b.cancelReasons![0]!.requestedBy = ['CUSTOMER', 'DEALER', 'CUSTOMER']
        b.cancelReasons![1]!.productTypes = ['GAP', 'GAP']
        b.cancelReasons![1]!.requiredDocuments = ['PAYOFF_LETTER', 'PAYOFF_LETTER']
      },
      [
        at('/cancelReasons/0/requestedBy/2', 'duplicate'),
        at('/cancelReasons/1/productTypes/1', 'duplicate'),
        at('/cancelReasons/1/requiredDocuments/1', 'duplicate'),
      ],
    ],
    [
      'endsGap on a reason that is not for GAP products',
      (b) => (b.cancelReasons![1]!.productTypes = ['VSC']),
      [at('/cancelReasons/1/endsGap', 'not_allowed')],
    ],
    [
      'a forced full refund that keeps the fee',
      (b) => Object.assign(b.cancelReasons![0]!, { forcesFullRefund: true, waivesFee: false }),
      [at('/cancelReasons/0/waivesFee', 'invalid_value')],
    ],
    [
      'an unknown requester or payee',
      (b) => Object.assign(b.cancelReasons![0]!, { requestedBy: ['BANK'], refundPayee: 'BANK' }),
      [at('/cancelReasons/0/requestedBy/0', 'invalid_value'), at('/cancelReasons/0/refundPayee', 'invalid_value')],
    ],
  ])
})

describe("a product's cancellation", () => {
  runCases([
    [
      'an unknown method, on the product and in a rule',
      (b) => {
        vsc(b).cancellation.method = 'NOPE'
        vsc(b).cancellation.rules[0].method = 'SHORT_RATE'
      },
      [
        at('/products/0/cancellation/method', 'unknown_reference'),
        at('/products/0/cancellation/rules/0/method', 'unknown_reference'),
      ],
    ],
    [
      "no method, and the book's own methods lack the default for the product's type",
      (b) => {
        delete vsc(b).cancellation.method
        delete b.products[1]!.cancellation
      },
      [at('/products/0/cancellation/method', 'required'), at('/products/1/cancellation/method', 'required')],
    ],
    [
      'a rule naming an unknown reason, and one not for the product type',
      (b) => (vsc(b).cancellation.rules[0].reasons = ['ASKED', 'GONE', 'PAYOFF']),
      [
        at('/products/0/cancellation/rules/0/reasons/1', 'unknown_reference'),
        at('/products/0/cancellation/rules/0/reasons/2', 'not_allowed'),
      ],
    ],
    [
      'a state in lower case (a shape problem: nothing else is checked then)',
      (b) => (vsc(b).cancellation.rules[0].states = ['ZZ', 'tx']),
      [at('/products/0/cancellation/rules/0/states/1', 'invalid_value')],
    ],
    [
      'a state code that is not a US state or territory; a state listed twice',
      (b) => (vsc(b).cancellation.rules[0].states = ['ZZ', 'TX', 'TX']),
      [
        at('/products/0/cancellation/rules/0/states/2', 'duplicate'),
        at('/products/0/cancellation/rules/0/states/0', 'invalid_value'),
      ],
    ],
    [
      'a rule that says neither when nor what',
      (b) => vsc(b).cancellation.rules.push({ freeLookDays: 5 }, { reasons: ['ASKED'] }),
      [at('/products/0/cancellation/rules/1', 'required'), at('/products/0/cancellation/rules/2', 'required')],
    ],
    [
      'free-look days out of range',
      (b) => (vsc(b).cancellation.freeLookDays = 400),
      [at('/products/0/cancellation/freeLookDays', 'invalid_value')],
    ],
    [
      'a fee with neither amount nor percent',
      (b) => (vsc(b).cancellation.fee = { keptBy: 'DEALER' }),
      [at('/products/0/cancellation/fee', 'required')],
    ],
    [
      'a percent fee without its base; a base and a max without a percent',
      (b) => {
        vsc(b).cancellation.fee = { percent: 10 }
        vsc(b).cancellation.rules[0].fee = { amount: 10, percentOf: 'PRICE', max: 20 }
      },
      [
        at('/products/0/cancellation/fee/percentOf', 'required'),
        at('/products/0/cancellation/rules/0/fee/percentOf', 'not_allowed'),
        at('/products/0/cancellation/rules/0/fee/max', 'not_allowed'),
      ],
    ],
    [
      'fee amounts and percentages that are not amounts or percentages',
      (b) => (vsc(b).cancellation.fee = { amount: '5.001', percent: '101', percentOf: 'PRICE', max: -3 }),
      [
        at('/products/0/cancellation/fee/amount', 'invalid_money'),
        at('/products/0/cancellation/fee/percent', 'invalid_percent'),
        at('/products/0/cancellation/fee/max', 'invalid_money'),
      ],
    ],
    [
      'an unknown member',
      (b) => (vsc(b).cancellation.refundMethod = 'PR'),
      [at('/products/0/cancellation/refundMethod', 'unknown_field')],
    ],
  ])
})

describe('transfer, state rules, earnings, curves, claims', () => {
  runCases([
    [
      'terms of a transfer that is not allowed',
      (b) => (vsc(b).transfer = { allowed: false, fee: 10, withinDays: 5, dealerMayOwn: true }),
      [
        at('/products/0/transfer/fee', 'not_allowed'),
        at('/products/0/transfer/withinDays', 'not_allowed'),
        at('/products/0/transfer/dealerMayOwn', 'not_allowed'),
      ],
    ],
    [
      'a transfer fee that is not an amount',
      (b) => (vsc(b).transfer.fee = '1.234'),
      [at('/products/0/transfer/fee', 'invalid_money')],
    ],
    [
      'a state twice, an unknown state, a rule with nothing in it',
      (b) =>
        b.stateRules!.push({ state: 'TX', freeLookDays: 1 }, { state: 'XX', claimsDeductible: true }, { state: 'CA' }),
      [
        at('/stateRules/1/state', 'duplicate'),
        at('/stateRules/2/state', 'invalid_value'),
        at('/stateRules/3', 'required'),
      ],
    ],
    [
      'state caps out of range (0 % is a cap of nothing, fine)',
      (b) => {
        Object.assign(b.stateRules![0]!, { cancelFeeMax: '-1', cancelFeeMaxPercent: '100.01' })
        b.stateRules!.push({ state: 'CA', cancelFeeMaxPercent: 0 })
      },
      [at('/stateRules/0/cancelFeeMax', 'invalid_money'), at('/stateRules/0/cancelFeeMaxPercent', 'invalid_percent')],
    ],
    [
      'CURVE without a curve; a curve that is not in the book; a curve on another method',
      (b) => {
        delete b.disbursementCodes[0]!.earnings!.curve
        b.disbursementCodes[1]!.earnings = { method: 'CURVE', curve: 'C99' }
        b.disbursementCodes[2]!.earnings = { method: 'PRO_RATA_DAYS', curve: 'C12' }
      },
      [
        at('/disbursementCodes/0/earnings/curve', 'required'),
        at('/disbursementCodes/1/earnings/curve', 'unknown_reference'),
        at('/disbursementCodes/2/earnings/curve', 'not_allowed'),
      ],
    ],
    [
      'monthCounting on a method that does not count months',
      (b) => (b.disbursementCodes[2]!.earnings = { method: 'IMMEDIATE', monthCounting: 'STARTED' }),
      [at('/disbursementCodes/2/earnings/monthCounting', 'not_allowed')],
    ],
    [
      'a curve shorter than a term whose rates price its code',
      (b) => b.earningsCurves![0]!.cumulative.splice(0, 2),
      [at('/disbursementCodes/0/earnings/curve', 'invalid_curve')],
    ],
    [
      "a curve shorter than a term of a plan an option's bucket is sold with",
      (b) => {
        b.disbursementCodes[1]!.earnings = { method: 'CURVE', curve: 'C6' }
        b.earningsCurves!.push({ code: 'C6', name: 'Six', cumulative: [0.5, 0.6, 0.7, 0.8, 0.9, 1] })
        b.rates!.pop()
      },
      [at('/disbursementCodes/1/earnings/curve', 'invalid_curve')],
    ],
    [
      'a curve that decreases, does not end at 1, has a point above 1 or of seven places; a code twice',
      (b) => {
        b.earningsCurves!.push(
          { code: 'C12', name: 'Again', cumulative: [1] },
          { code: 'D', name: 'Down', cumulative: [0.5, 0.4, '1.5', '0.1234567', 0.9] },
        )
      },
      [
        at('/earningsCurves/1/code', 'duplicate'),
        at('/earningsCurves/2/cumulative/1', 'invalid_curve'),
        at('/earningsCurves/2/cumulative/2', 'invalid_fraction'),
        at('/earningsCurves/2/cumulative/3', 'invalid_fraction'),
        at('/earningsCurves/2/cumulative/4', 'invalid_curve'),
      ],
    ],
    [
      'a curve of more than 240 months',
      (b) => (b.earningsCurves![0]!.cumulative = Array.from({ length: 241 }, () => 1)),
      [at('/earningsCurves/0/cumulative', 'invalid_value')],
    ],
    [
      'a limit by AMOUNT without one; an amount on another basis',
      (b) => {
        delete plan(b).claims.limitOfLiability.amount
        b.products[1]!.programs[0]!.plans[0]!.claims = { limitOfLiability: { basis: 'CONTRACT_PRICE', amount: 5 } }
      },
      [
        at('/products/0/programs/0/plans/0/claims/limitOfLiability/amount', 'required'),
        at('/products/1/programs/0/plans/0/claims/limitOfLiability/amount', 'not_allowed'),
      ],
    ],
    [
      'benefits: a type twice, caps that do not belong to the type, maxDays without perDay, no cap at all, bad amounts',
      (b) =>
        (plan(b).claims.benefits = [
          { type: 'RENTAL', perDay: '40.001', perOccurrence: 10 },
          { type: 'TOWING', perDay: 10, maxDays: 2 },
          { type: 'TRIP_INTERRUPTION', maxDays: 2, maxAmount: 300 },
          { type: 'ROADSIDE' },
        ]),
      [
        at('/products/0/programs/0/plans/0/claims/benefits/0/perOccurrence', 'not_allowed'),
        at('/products/0/programs/0/plans/0/claims/benefits/0/perDay', 'invalid_money'),
        at('/products/0/programs/0/plans/0/claims/benefits/1/perDay', 'not_allowed'),
        at('/products/0/programs/0/plans/0/claims/benefits/1/maxDays', 'not_allowed'),
        at('/products/0/programs/0/plans/0/claims/benefits/2/perDay', 'required'),
        at('/products/0/programs/0/plans/0/claims/benefits/3', 'required'),
      ],
    ],
    [
      'a benefit type twice',
      (b) => plan(b).claims.benefits.push({ type: 'RENTAL', maxAmount: 100 }),
      [at('/products/0/programs/0/plans/0/claims/benefits/1/type', 'duplicate')],
    ],
    [
      'waiting periods out of range',
      (b) => Object.assign(plan(b).claims, { waitingPeriodDays: -1, waitingPeriodMiles: 100_001 }),
      [
        at('/products/0/programs/0/plans/0/claims/waitingPeriodDays', 'invalid_value'),
        at('/products/0/programs/0/plans/0/claims/waitingPeriodMiles', 'invalid_value'),
      ],
    ],
    [
      'a per-claim limit that is not an amount',
      (b) => (plan(b).claims.perClaimLimit = 'lots'),
      [at('/products/0/programs/0/plans/0/claims/perClaimLimit', 'invalid_money')],
    ],
  ])
})
