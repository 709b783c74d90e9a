// The sales tax computation, table-driven (docs/sales-tax.md "Computation").
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  computeSalesTax,
  DealerCostRequired,
  levelOf,
  overlapping,
  periodsOverlap,
  rulesInForce,
  type TaxRule,
} from './sales-tax.rules.ts'

let nextId = 1
function rule(over: Partial<TaxRule>): TaxRule {
  return {
    id: nextId++,
    state: 'TX',
    county: null,
    city: null,
    productType: null,
    rate: '0.062500',
    taxableBase: 'RETAIL_PRICE',
    collectedBy: 'DEALER',
    effectiveFrom: '2026-01-01',
    effectiveTo: null,
    ...over,
  }
}

const STATE = rule({})
const STATE_GAP_EXEMPT = rule({ productType: 'GAP', taxableBase: 'NONE', rate: '0' })
const COUNTY = rule({ county: 'Travis', rate: '0.005000', collectedBy: 'ADMINISTRATOR' })
const CITY = rule({ city: 'Austin', rate: '0.010000', taxableBase: 'DEALER_COST' })
const OLD_CITY = rule({ city: 'Austin', rate: '0.020000', effectiveFrom: '2025-01-01', effectiveTo: '2025-12-31' })
const OTHER_STATE = rule({ state: 'OK', rate: '0.045000' })
const ALL = [STATE, STATE_GAP_EXEMPT, COUNTY, CITY, OLD_CITY, OTHER_STATE]

describe('rulesInForce', () => {
  const cases: Array<{
    name: string
    at: Parameters<typeof rulesInForce>[1]
    type: string
    date: string
    ids: number[]
  }> = [
    { name: 'state only', at: { state: 'TX' }, type: 'VSC', date: '2026-06-01', ids: [STATE.id] },
    {
      name: 'state, county and city stack',
      at: { state: 'tx', county: 'travis', city: ' AUSTIN ' },
      type: 'VSC',
      date: '2026-06-01',
      ids: [STATE.id, COUNTY.id, CITY.id],
    },
    {
      name: 'the product type rule replaces the all-products rule of its jurisdiction',
      at: { state: 'TX', city: 'Austin' },
      type: 'GAP',
      date: '2026-06-01',
      ids: [STATE_GAP_EXEMPT.id, CITY.id],
    },
    {
      name: 'an earlier day finds the rules then in force',
      at: { state: 'TX', city: 'Austin' },
      type: 'VSC',
      date: '2025-12-31',
      ids: [OLD_CITY.id],
    },
    {
      name: 'another city: no city rule',
      at: { state: 'TX', city: 'Dallas' },
      type: 'VSC',
      date: '2026-06-01',
      ids: [STATE.id],
    },
    { name: 'another state', at: { state: 'OK' }, type: 'VSC', date: '2026-06-01', ids: [OTHER_STATE.id] },
    { name: 'no rules', at: { state: 'NY' }, type: 'VSC', date: '2026-06-01', ids: [] },
  ]
  for (const c of cases)
    test(c.name, () => {
      assert.deepEqual(
        rulesInForce(ALL, c.at, c.type, c.date).map((r) => r.id),
        c.ids,
      )
    })
})

describe('computeSalesTax', () => {
  const cases: Array<{
    name: string
    rules: TaxRule[]
    retail: number
    cost: number | null
    taxes: number[]
    total: number
  }> = [
    {
      name: '6.25% of 2,695.00 is 168.4375, rounded half-up to 168.44',
      rules: [STATE],
      retail: 269500,
      cost: null,
      taxes: [16844],
      total: 16844,
    },
    {
      name: 'each rule rounds once, on its own base',
      rules: [STATE, COUNTY, CITY],
      retail: 269500,
      cost: 87640,
      taxes: [16844, 1348, 876],
      total: 19068,
    },
    {
      name: 'half a cent rounds up',
      rules: [rule({ rate: '0.050000' })],
      retail: 10010,
      cost: null,
      taxes: [501],
      total: 501,
    },
    {
      name: 'an exempt rule taxes nothing',
      rules: [STATE_GAP_EXEMPT],
      retail: 50000,
      cost: null,
      taxes: [0],
      total: 0,
    },
    { name: 'no rules, no tax', rules: [], retail: 50000, cost: null, taxes: [], total: 0 },
  ]
  for (const c of cases)
    test(c.name, () => {
      const r = computeSalesTax(c.rules, { retailCents: c.retail, dealerCostCents: c.cost })
      assert.deepEqual(
        r.lines.map((l) => l.taxCents),
        c.taxes,
      )
      assert.equal(r.totalCents, c.total)
    })

  test('a rule on the dealer cost needs it', () => {
    assert.throws(
      () => computeSalesTax([CITY], { retailCents: 100, dealerCostCents: null }),
      (e) => e instanceof DealerCostRequired && e.ruleId === CITY.id,
    )
  })

  test('lines name their jurisdiction and level', () => {
    const [line] = computeSalesTax([COUNTY], { retailCents: 1000, dealerCostCents: null }).lines
    assert.deepEqual(line?.jurisdiction, { level: 'COUNTY', state: 'TX', county: 'Travis', city: null })
    assert.equal(line?.collectedBy, 'ADMINISTRATOR')
    assert.equal(levelOf(CITY), 'CITY')
  })
})

describe('overlap', () => {
  const cases: Array<[string, string | null, string, string | null, boolean]> = [
    ['2026-01-01', '2026-06-30', '2026-07-01', null, false],
    ['2026-01-01', '2026-07-01', '2026-07-01', null, true],
    ['2026-01-01', null, '2030-01-01', '2030-12-31', true],
    ['2026-03-01', '2026-03-01', '2026-03-01', '2026-03-01', true],
    ['2026-03-02', null, '2026-01-01', '2026-03-01', false],
  ]
  for (const [af, at, bf, bt, expected] of cases)
    test(`${af}..${at ?? '∞'} and ${bf}..${bt ?? '∞'}: ${expected}`, () => {
      const a = { effectiveFrom: af, effectiveTo: at }
      const b = { effectiveFrom: bf, effectiveTo: bt }
      assert.equal(periodsOverlap(a, b), expected)
      assert.equal(periodsOverlap(b, a), expected)
    })

  test('only rules of the same jurisdiction and product type clash', () => {
    const candidate = rule({ county: 'TRAVIS', effectiveFrom: '2027-01-01' })
    assert.deepEqual(
      overlapping(candidate, ALL).map((r) => r.id),
      [COUNTY.id],
    )
    assert.deepEqual(overlapping({ ...COUNTY }, ALL), [], 'a rule does not clash with itself')
    assert.deepEqual(overlapping(rule({ productType: 'VSC' }), ALL), [], 'VSC is its own key beside null')
  })
})
