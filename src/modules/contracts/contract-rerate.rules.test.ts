// Rerate rules, table by table: the event a status is judged as, the facts laid over the contract's,
// the retail price kept or refused, the differences in cents, the request's value problems, and the
// ineligibility errors naming each rule.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { RetailBounds, VehicleSnapshot } from '../../platform/db/schema.contracts.ts'
import {
  ineligibilityErrors,
  rerateDifference,
  rerateEvent,
  rerateFacts,
  rerateInputProblems,
  rerateRetail,
  salesTaxCents,
  type RerateInput,
} from './contract-rerate.rules.ts'

const VEHICLE: VehicleSnapshot = {
  vin: '1HGCV1F37LA012345',
  year: 2020,
  make: 'HONDA',
  model: 'ACCORD',
  trim: 'EX',
  condition: 'USED',
  inServiceDate: '2020-05-01',
  purchasePrice: '21500.00',
  msrp: null,
  assetType: 'AUTO',
  vehicleClass: 'B',
}
const CURRENT = { saleOdometer: 42150, vehicle: VEHICLE }

describe('rerateEvent', () => {
  test('pending is an edit, sold a refinalization (the state machine refuses the rest)', () => {
    const cases = [
      ['PENDING', 'EDIT'],
      ['FINALIZED', 'REFINALIZE'],
      ['ACTIVE', 'REFINALIZE'],
      ['CANCELLED', 'REFINALIZE'],
      ['EXPIRED', 'REFINALIZE'],
      ['VOIDED', 'REFINALIZE'],
    ] as const
    for (const [status, event] of cases) assert.equal(rerateEvent(status), event, status)
  })
})

describe('rerateFacts', () => {
  const cases: Array<[string, RerateInput, Partial<ReturnType<typeof rerateFacts>['facts']>, string[]]> = [
    ['nothing asked: the contract’s own facts', {}, { odometer: 42150, vin: VEHICLE.vin, vehicleTrim: 'EX' }, []],
    ['a corrected odometer', { saleOdometer: 52150 }, { odometer: 52150 }, ['saleOdometer']],
    ['an odometer cleared', { saleOdometer: null }, { odometer: null }, ['saleOdometer']],
    [
      'a corrected VIN drops the decoded vehicle unless restated',
      { vehicle: { vin: '4t1b11hk8ku123456' } },
      { vin: '4T1B11HK8KU123456', vehicleYear: null, vehicleMake: null, vehicleModel: null, vehicleTrim: null },
      ['vehicle/vin', 'vehicle/year', 'vehicle/make', 'vehicle/model', 'vehicle/trim'],
    ],
    [
      'a corrected VIN with a restated make (upper-cased)',
      { vehicle: { vin: '4T1B11HK8KU123456', make: 'toyota' } },
      { vehicleMake: 'TOYOTA', vehicleModel: null },
      ['vehicle/vin', 'vehicle/year', 'vehicle/make', 'vehicle/model', 'vehicle/trim'],
    ],
    [
      'the same VIN keeps the vehicle',
      { vehicle: { vin: '1hgcv1f37la012345' } },
      { vehicleMake: 'HONDA', vehicleTrim: 'EX' },
      [],
    ],
    [
      'condition and prices; amounts kept as 2-decimal text',
      { vehicle: { condition: 'CERTIFIED', purchasePrice: 21500, msrp: '30000.5' } },
      { vehicleCondition: 'CERTIFIED', vehiclePurchasePrice: '21500.00', msrp: '30000.50' },
      ['vehicle/condition', 'vehicle/msrp'],
    ],
    [
      'an in-service date cleared',
      { vehicle: { inServiceDate: null } },
      { inServiceDate: null },
      ['vehicle/inServiceDate'],
    ],
  ]
  for (const [name, input, expected, changed] of cases)
    test(name, () => {
      const got = rerateFacts(CURRENT, input)
      for (const [k, v] of Object.entries(expected)) assert.equal(got.facts[k as keyof typeof got.facts], v, k)
      assert.deepEqual(got.changed, changed)
    })
})

describe('rerateRetail', () => {
  const bounds = (over: Partial<RetailBounds> = {}): RetailBounds => ({
    suggestedRetailCents: 200000,
    minRetailCents: 120000,
    maxRetailCents: 320000,
    retailLocked: false,
    ...over,
  })
  const cases: Array<[string, number, RetailBounds, number | string | undefined, number | string]> = [
    ['the contract’s own while it fits', 215500, bounds(), undefined, 215500],
    ['one asked for that fits', 215500, bounds(), '2300.10', 230010],
    ['one asked for below the minimum', 215500, bounds(), 1000, 'out_of_range'],
    ['locked: the fixed retail', 215500, bounds({ retailLocked: true }), undefined, 200000],
    ['locked: another one asked for', 215500, bounds({ retailLocked: true }), 2155, 'retail_locked'],
    ['the own one no longer fits: it must be given', 110000, bounds(), undefined, 'retail_no_longer_fits'],
  ]
  for (const [name, current, b, requested, expected] of cases)
    test(name, () => {
      const got = rerateRetail(current, b, requested)
      if (typeof expected === 'number') assert.deepEqual(got, { ok: true, retailCents: expected })
      else {
        assert.equal(got.ok, false)
        if (!got.ok) assert.deepEqual([got.error.field, got.error.code], ['retailPrice', expected])
      }
    })
})

describe('rerateDifference and salesTaxCents', () => {
  test('after minus before, in cents; the customer pays retail plus options', () => {
    const before = { retailCents: 215500, optionsRetailCents: 0, dealerCostCents: 123100, salesTaxCents: 7694 }
    const after = { retailCents: 215500, optionsRetailCents: 9900, dealerCostCents: 155616, salesTaxCents: 9726 }
    assert.deepEqual(rerateDifference(before, after), {
      dealerCostCents: 32516,
      retailPriceCents: 0,
      optionsRetailCents: 9900,
      salesTaxCents: 2032,
      totalPriceCents: 9900,
    })
    assert.deepEqual(rerateDifference(after, before).dealerCostCents, -32516)
  })
  test('the kept tax in cents', () => {
    assert.equal(salesTaxCents(null), 0)
    assert.equal(salesTaxCents({ amount: '168.44' }), 16844)
    assert.equal(salesTaxCents({ amount: '0.1' }), 10)
  })
})

describe('rerateInputProblems', () => {
  const cases: Array<[RerateInput, string[]]> = [
    [{}, []],
    [{ vehicle: { vin: '1HGCV1F37LA012345' } }, []],
    [{ vehicle: { vin: '1HGCV1F30LA012345' } }, ['vehicle/vin:check_digit']],
    [{ retailPrice: '12.345' }, ['retailPrice:too_precise']],
    [{ retailPrice: 'abc', vehicle: { msrp: -1 } }, ['vehicle/msrp:out_of_range', 'retailPrice:invalid_format']],
  ]
  for (const [input, expected] of cases)
    test(JSON.stringify(input), () => {
      assert.deepEqual(
        rerateInputProblems(input).map((e) => `${e.field}:${e.code}`),
        expected,
      )
    })
})

describe('ineligibilityErrors', () => {
  test('each exclusion named by its level with its reason, then the options not offered', () => {
    const errors = ineligibilityErrors(
      [
        {
          level: 'PLAN',
          productCode: 'VSC',
          planCode: 'PLAT-USED',
          reason: 'CRITERIA',
          text: 'Plan PLAT-USED criteria not met: vehicleAge <= 8 AND odometer <= 100000',
        },
        {
          level: 'DEDUCTIBLE',
          productCode: 'VSC',
          planCode: 'PLAT-USED',
          termCode: '24-24000',
          deductibleCode: 'D0',
          reason: 'NO_RATE',
          text: 'No rate',
        },
      ],
      [{ field: 'selectedOptionIds/0', code: 'option_not_offered', text: 'option 9 is not offered with this rate' }],
    )
    assert.deepEqual(
      errors.map((e) => [e.field, e.code]),
      [
        ['plan', 'CRITERIA'],
        ['deductible', 'NO_RATE'],
        ['selectedOptionIds/0', 'option_not_offered'],
      ],
    )
    assert.match(errors[0]!.message, /odometer <= 100000/)
  })
})
