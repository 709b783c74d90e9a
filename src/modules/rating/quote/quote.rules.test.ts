// The pure rules of the rate quote, table by table: reading the query, the date rules, calendar
// months, required inputs, the facts criteria see, factors, expiration, which disbursements apply,
// and pricing (per-bucket rounding, holder disbursements, retail moves, markup caps), with a
// property test that the lines of a price always add up to its dealer cost.
import { addDays, addMonths } from '../../../platform/calendar.ts'
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { Decimal } from '../../../platform/money.ts'
import type { Bucket, IndexedFactorTable } from '../ratebook/index.ts'
import {
  expiration,
  missingInputs,
  priceOption,
  priceRate,
  productFactor,
  QUOTE_QUERY_PARAMETERS,
  quoteDateProblems,
  quoteFacts,
  readQuoteQuery,
  shortDriveType,
  shortFuelType,
  wholeMonthsBetween,
  type HolderDisbursement,
  type QuoteInputs,
  type Vehicle,
} from './quote.rules.ts'

const TODAY = '2026-11-22'
const d = (v: string | number) => new Decimal(v)
/** '610.00' → 61000 cents, and back. */
const cents = (v: string) => d(v).times(100).toNumber()
const amount = (c: number) => d(c).dividedBy(100).toFixed(2)

describe('readQuoteQuery', () => {
  test('an empty query: the defaults (AUTO, sale date today), no explain', () => {
    assert.deepEqual(readQuoteQuery('10001', {}, TODAY), {
      ok: true,
      inputs: { dealerNumber: '10001', assetType: 'AUTO', saleDate: TODAY },
      explain: false,
    })
  })

  test('every parameter read and normalised', () => {
    const query = {
      vin: ' 1hgcv1f37la012345 ',
      vehicleYear: '2020',
      vehicleMake: ' honda ',
      vehicleModel: 'Accord',
      vehicleTrim: 'ex-l',
      assetType: 'rv',
      vehicleCondition: 'used',
      odometer: '42150',
      saleDate: '2026-11-20',
      inServiceDate: '2020-05-01',
      vehiclePurchasePrice: '28500',
      msrp: '31200.5',
      financeType: 'retail',
      amountFinanced: '24000.00',
      financeTermMonths: '72',
      apr: '6.990',
      monthlyPayment: '410.22',
      firstPaymentDate: '2026-12-20',
      productTypes: 'vsc, gap,VSC',
      productIds: '5,9,5',
      programIds: '12',
      surcharges: 'commercial_use,LIFT_KIT',
      customerState: 'fl',
      explain: 'true',
    }
    assert.deepEqual(readQuoteQuery('10001', query, TODAY), {
      ok: true,
      explain: true,
      inputs: {
        dealerNumber: '10001',
        vin: '1HGCV1F37LA012345',
        vehicleYear: 2020,
        vehicleMake: 'HONDA',
        vehicleModel: 'ACCORD',
        vehicleTrim: 'EX-L',
        assetType: 'RV',
        vehicleCondition: 'USED',
        odometer: 42150,
        saleDate: '2026-11-20',
        inServiceDate: '2020-05-01',
        vehiclePurchasePrice: '28500.00',
        msrp: '31200.50',
        financeType: 'RETAIL',
        amountFinanced: '24000.00',
        financeTermMonths: 72,
        apr: '6.99',
        monthlyPayment: '410.22',
        firstPaymentDate: '2026-12-20',
        productTypes: ['VSC', 'GAP'],
        productIds: [5, 9],
        programIds: [12],
        surcharges: ['COMMERCIAL_USE', 'LIFT_KIT'],
        customerState: 'FL',
      },
    })
    // Every documented parameter was exercised.
    assert.deepEqual(Object.keys(query).toSorted(), [...QUOTE_QUERY_PARAMETERS].toSorted())
  })

  const valid: Array<[string, string, unknown]> = [
    ['vehicleYear', '1900', 1900],
    ['vehicleYear', '2100', 2100],
    ['odometer', '0', 0],
    ['odometer', '2000000', 2000000],
    ['financeTermMonths', '1', 1],
    ['financeTermMonths', '144', 144],
    ['apr', '0', '0'],
    ['apr', '100', '100'],
    ['apr', '7', '7'],
    ['vehiclePurchasePrice', '0', '0.00'],
    ['msrp', '99.9', '99.90'],
    ['assetType', 'MARINE', 'MARINE'],
    ['vehicleCondition', 'certified', 'CERTIFIED'],
    ['financeType', 'Balloon', 'BALLOON'],
    ['saleDate', '2024-02-29', '2024-02-29'],
    ['productTypes', 'TIRE_WHEEL', ['TIRE_WHEEL']],
    ['vehicleMake', 'x'.repeat(60), 'X'.repeat(60)],
    ['vehicleModel', 'Silverado 1500', 'SILVERADO 1500'],
  ]
  for (const [name, value, expected] of valid) {
    test(`${name}=${value.length > 20 ? `${value.slice(0, 10)}…` : value} is read as ${JSON.stringify(expected).slice(0, 30)}`, () => {
      const read = readQuoteQuery('10001', { [name]: value }, TODAY)
      assert.ok(read.ok, JSON.stringify(read))
      assert.deepEqual((read.inputs as Record<string, unknown>)[name], expected)
    })
  }

  const invalid: Array<[string, string, string]> = [
    ['vin', '1HGCV1F34LA012345', 'check_digit'],
    ['vin', '1HGCV1F3', 'invalid_format'],
    ['vin', '1HGCV1F37LA01234O', 'invalid_format'],
    ['vehicleYear', '1899', 'out_of_range'],
    ['vehicleYear', '2101', 'out_of_range'],
    ['vehicleYear', 'abc', 'invalid_type'],
    ['vehicleYear', '2020.5', 'invalid_type'],
    ['vehicleMake', '', 'invalid_value'],
    ['vehicleMake', '   ', 'invalid_value'],
    ['vehicleMake', 'x'.repeat(61), 'invalid_value'],
    ['vehicleModel', 'x'.repeat(81), 'invalid_value'],
    ['vehicleTrim', '', 'invalid_value'],
    ['assetType', 'CAR', 'invalid_value'],
    ['vehicleCondition', 'SALVAGE', 'invalid_value'],
    ['odometer', '-1', 'out_of_range'],
    ['odometer', '2000001', 'out_of_range'],
    ['odometer', '1e5', 'invalid_type'],
    ['odometer', '42,150', 'invalid_type'],
    ['odometer', '', 'invalid_type'],
    ['saleDate', '2026-02-30', 'invalid_format'],
    ['saleDate', '2026/01/01', 'invalid_format'],
    ['saleDate', '', 'invalid_format'],
    ['inServiceDate', 'yesterday', 'invalid_format'],
    ['firstPaymentDate', '2026-13-01', 'invalid_format'],
    ['vehiclePurchasePrice', '-1', 'invalid_type'],
    ['vehiclePurchasePrice', '10.001', 'invalid_type'],
    ['msrp', 'abc', 'invalid_type'],
    ['amountFinanced', '1,000', 'invalid_type'],
    ['monthlyPayment', '$410', 'invalid_type'],
    ['financeType', 'LOAN', 'invalid_value'],
    ['financeTermMonths', '0', 'out_of_range'],
    ['financeTermMonths', '145', 'out_of_range'],
    ['apr', '100.001', 'invalid_value'],
    ['apr', '6.9999', 'invalid_value'],
    ['apr', '-1', 'invalid_value'],
    ['apr', 'six', 'invalid_value'],
    ['productTypes', ',,', 'invalid_value'],
    ['productTypes', 'VSC,WARRANTY', 'invalid_value'],
    ['productTypes', 'VSC;GAP', 'invalid_value'],
    ['productTypes', Array.from({ length: 21 }, (_, i) => `P${i}`).join(','), 'invalid_value'],
    ['productIds', 'a', 'invalid_value'],
    ['productIds', '-1', 'invalid_value'],
    ['programIds', '1.5', 'invalid_value'],
    ['productIds', '', 'invalid_value'],
    ['surcharges', 'lift kit', 'invalid_value'],
    ['customerState', 'Texas', 'invalid_format'],
    ['customerState', 'T1', 'invalid_format'],
    ['explain', 'yes', 'invalid_type'],
    ['explain', 'TRUE', 'invalid_type'],
  ]
  for (const [name, value, code] of invalid) {
    test(`${name}=${value.length > 20 ? `${value.slice(0, 10)}…` : value} is refused (${code})`, () => {
      assert.deepEqual(readQuoteQuery('10001', { [name]: value }, TODAY), {
        ok: false,
        errors: [
          {
            field: name,
            code,
            message: (readQuoteQuery('10001', { [name]: value }, TODAY) as { errors: Array<{ message: string }> })
              .errors[0]!.message,
          },
        ],
      })
    })
  }

  test('the VIN message says what is wrong with the check digit', () => {
    const read = readQuoteQuery('10001', { vin: '1HGCV1F34LA012345' }, TODAY)
    assert.ok(!read.ok)
    assert.match(read.errors[0]!.message, /expected 7/)
  })

  test('unknown parameters are refused by name, including names on Object.prototype', () => {
    const query = JSON.parse('{"foo":"1","__proto__":"x","constructor":"y","toString":"z","odometer":"5"}') as Record<
      string,
      unknown
    >
    const read = readQuoteQuery('10001', query, TODAY)
    assert.ok(!read.ok)
    assert.deepEqual(
      read.errors.map((e) => [e.field, e.code]),
      [
        ['foo', 'unknown_parameter'],
        ['__proto__', 'unknown_parameter'],
        ['constructor', 'unknown_parameter'],
        ['toString', 'unknown_parameter'],
      ],
    )
    assert.match(read.errors[0]!.message, /vin, vehicleYear/)
  })

  test('a parameter given twice (an array) is refused rather than guessed', () => {
    const read = readQuoteQuery('10001', { odometer: ['1', '2'], explain: ['true', 'true'] }, TODAY)
    assert.deepEqual(read, {
      ok: false,
      errors: [
        { field: 'odometer', code: 'invalid_value', message: 'must be given once' },
        { field: 'explain', code: 'invalid_value', message: 'must be given once' },
      ],
    })
  })

  test('every bad parameter is listed in one reply', () => {
    const read = readQuoteQuery(
      '10001',
      { vin: '1HGCV1F34LA012345', odometer: '-1', saleDate: '2026-02-30', foo: '1', vehicleCondition: 'USED' },
      TODAY,
    )
    assert.ok(!read.ok)
    assert.deepEqual(
      read.errors.map((e) => [e.field, e.code]),
      [
        ['vin', 'check_digit'],
        ['odometer', 'out_of_range'],
        ['saleDate', 'invalid_format'],
        ['foo', 'unknown_parameter'],
      ],
    )
  })

  test('explain=false reads as false', () => {
    const read = readQuoteQuery('10001', { explain: 'false' }, TODAY)
    assert.ok(read.ok)
    assert.equal(read.explain, false)
  })
})

describe('quoteDateProblems', () => {
  const inputs = (saleDate: string, inServiceDate?: string): QuoteInputs => ({
    dealerNumber: '1',
    assetType: 'AUTO',
    saleDate,
    ...(inServiceDate ? { inServiceDate } : {}),
  })
  const cases: Array<[string, QuoteInputs, number, Array<[string, string]>]> = [
    ['a sale today', inputs(TODAY), 60, []],
    ['a sale tomorrow (in the future)', inputs('2026-11-23'), 60, [['saleDate', 'out_of_range']]],
    ['a sale exactly the look-back ago', inputs('2026-09-23'), 60, []],
    ['a sale one day older than the look-back', inputs('2026-09-22'), 60, [['saleDate', 'out_of_range']]],
    ['look-back 0: today only', inputs(TODAY), 0, []],
    ['look-back 0: yesterday is too old', inputs('2026-11-21'), 0, [['saleDate', 'out_of_range']]],
    ['in service on the sale date', inputs('2026-11-20', '2026-11-20'), 60, []],
    ['in service after the sale', inputs('2026-11-20', '2026-11-21'), 60, [['inServiceDate', 'out_of_range']]],
    [
      'a future sale and in service after it: both',
      inputs('2026-12-01', '2026-12-02'),
      60,
      [
        ['saleDate', 'out_of_range'],
        ['inServiceDate', 'out_of_range'],
      ],
    ],
    ['a look-back across a leap day', inputs('2028-02-29'), 1, []],
  ]
  for (const [name, given, lookBack, expected] of cases) {
    test(name, () => {
      const today = name.includes('leap day') ? '2028-03-01' : TODAY
      assert.deepEqual(
        quoteDateProblems(given, today, lookBack).map((e) => [e.field, e.code]),
        expected,
      )
    })
  }
  test('the messages give the dates', () => {
    assert.match(
      quoteDateProblems(inputs('2026-09-22'), TODAY, 60)[0]!.message,
      /more than 60 days ago \(earliest 2026-09-23\)/,
    )
    assert.match(
      quoteDateProblems(inputs('2026-11-23'), TODAY, 60)[0]!.message,
      /in the future \(today is 2026-11-22\)/,
    )
  })
})

describe('calendar arithmetic', () => {
  const months: Array<[string, number, string]> = [
    ['2026-11-22', 48, '2030-11-22'],
    ['2026-01-15', 0, '2026-01-15'],
    ['2026-12-15', 1, '2027-01-15'],
    ['2026-01-31', 1, '2026-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2026-03-31', 1, '2026-04-30'],
    ['2026-08-31', 6, '2027-02-28'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2024-02-29', 48, '2028-02-29'],
    ['2023-02-28', 12, '2024-02-28'],
    ['2026-03-31', -1, '2026-02-28'],
    ['2026-01-31', -2, '2025-11-30'],
    ['2026-05-31', 240, '2046-05-31'],
  ]
  for (const [from, n, expected] of months)
    test(`addMonths(${from}, ${n}) = ${expected}`, () => assert.equal(addMonths(from, n), expected))

  const days: Array<[string, number, string]> = [
    ['2026-11-22', -60, '2026-09-23'],
    ['2028-03-01', -1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
  ]
  for (const [from, n, expected] of days)
    test(`addDays(${from}, ${n}) = ${expected}`, () => assert.equal(addDays(from, n), expected))

  const between: Array<[string, string, number]> = [
    ['2020-05-01', '2026-11-22', 78],
    ['2026-01-15', '2026-01-15', 0],
    ['2026-01-15', '2026-02-14', 0],
    ['2026-01-15', '2026-02-15', 1],
    ['2025-12-31', '2026-01-01', 0],
    ['2025-11-22', '2026-11-22', 12],
    ['2025-11-23', '2026-11-22', 11],
    ['2026-11-22', '2026-01-01', 0],
  ]
  for (const [from, to, expected] of between)
    test(`wholeMonthsBetween(${from}, ${to}) = ${expected}`, () => assert.equal(wholeMonthsBetween(from, to), expected))
})

describe('missingInputs', () => {
  const gap = ['vehicle', 'vehiclePurchasePrice', 'financeType', 'amountFinanced', 'financeTermMonths', 'apr'] as const
  const base: QuoteInputs = { dealerNumber: '1', assetType: 'AUTO', saleDate: TODAY }
  test('nothing given: every input but a known vehicle', () =>
    assert.deepEqual(missingInputs(gap, base, true), [
      'vehiclePurchasePrice',
      'financeType',
      'amountFinanced',
      'financeTermMonths',
      'apr',
    ]))
  test('an unknown vehicle is missing', () =>
    assert.deepEqual(missingInputs(['vehicle', 'odometer'], { ...base, odometer: 0 }, false), ['vehicle']))
  test('all given: nothing missing (0 counts as given)', () =>
    assert.deepEqual(
      missingInputs(
        gap,
        {
          ...base,
          vehiclePurchasePrice: '0.00',
          financeType: 'CASH',
          amountFinanced: '1.00',
          financeTermMonths: 1,
          apr: '0',
        },
        true,
      ),
      [],
    ))
  test('no requirements', () => assert.deepEqual(missingInputs([], base, false), []))
})

describe('quoteFacts', () => {
  const vehicle = (year: number | null = 2020, make: string | null = 'HONDA'): Vehicle => ({
    vin: null,
    year,
    make,
    model: 'ACCORD',
    trim: 'SPORT',
    series: null,
    bodyStyle: null,
    driveType: '4WD',
    fuelType: 'GASOLINE',
    cylinders: 4,
    manufacturer: null,
  })
  const dealer = { number: '10001', state: 'TX' }
  const warranties = [
    { type: 'BASIC', months: 36, miles: 36000 },
    { type: 'POWERTRAIN', months: 60, miles: 60000 },
  ]
  const inputs = (extra: Partial<QuoteInputs> = {}): QuoteInputs => ({
    dealerNumber: '10001',
    assetType: 'AUTO',
    saleDate: TODAY,
    ...extra,
  })
  const facts = (extra: Partial<QuoteInputs> = {}, v = vehicle(), w = warranties) =>
    quoteFacts(inputs(extra), v, 'A', dealer, w)

  test('every fact of a full quote', () => {
    assert.deepEqual(
      facts({
        vehicleCondition: 'USED',
        odometer: 20000,
        inServiceDate: '2024-05-01',
        vehiclePurchasePrice: '28500.00',
        msrp: '31200.00',
        financeType: 'RETAIL',
        amountFinanced: '24000.00',
        financeTermMonths: 72,
        apr: '6.99',
      }),
      {
        assetType: 'AUTO',
        condition: 'USED',
        vin: null,
        vehicleYear: 2020,
        make: 'HONDA',
        model: 'ACCORD',
        trim: 'SPORT',
        vehicleClass: 'A',
        fuelType: 'GASOLINE',
        driveType: '4WD',
        cylinders: 4,
        vehicleAge: 6,
        odometer: 20000,
        saleDate: TODAY,
        inServiceDate: '2024-05-01',
        monthsInService: 30,
        purchasePrice: 28500,
        msrp: 31200,
        financeType: 'RETAIL',
        amountFinanced: 24000,
        financeTermMonths: 72,
        apr: 6.99,
        loanToValue: 0.7692,
        customerState: 'TX',
        dealerState: 'TX',
        dealerNumber: '10001',
        basicWarrantyMonthsRemaining: 6,
        basicWarrantyMilesRemaining: 16000,
        powertrainWarrantyMonthsRemaining: 30,
        powertrainWarrantyMilesRemaining: 40000,
        termMonths: null,
        termMiles: null,
        deductible: null,
      },
    )
  })

  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['vehicleAge: sale year minus model year', facts({ saleDate: '2026-01-02' }, vehicle(2019)), { vehicleAge: 7 }],
    ["vehicleAge: next year's model is 0, never negative", facts({}, vehicle(2027)), { vehicleAge: 0 }],
    ['vehicleAge: unknown year', facts({}, vehicle(null)), { vehicleAge: null, vehicleYear: null }],
    ['monthsInService: none without an in-service date', facts(), { monthsInService: null, inServiceDate: null }],
    [
      'loanToValue from the MSRP (preferred to the price)',
      facts({ amountFinanced: '24000.00', msrp: '31200.00', vehiclePurchasePrice: '28500.00' }),
      { loanToValue: 0.7692 },
    ],
    [
      'loanToValue from the purchase price without an MSRP',
      facts({ amountFinanced: '24000.00', vehiclePurchasePrice: '28500.00' }),
      { loanToValue: 0.8421 },
    ],
    [
      'loanToValue rounds half up at four places',
      facts({ amountFinanced: '12500.50', msrp: '10000.00' }),
      { loanToValue: 1.2501 },
    ],
    ['loanToValue 1.25 exactly', facts({ amountFinanced: '25000.00', msrp: '20000.00' }), { loanToValue: 1.25 }],
    ['loanToValue: nothing to divide by', facts({ amountFinanced: '24000.00' }), { loanToValue: null }],
    ['loanToValue: a zero value', facts({ amountFinanced: '24000.00', msrp: '0.00' }), { loanToValue: null }],
    ['loanToValue: nothing financed', facts({ msrp: '31200.00' }), { loanToValue: null }],
    [
      'warranty remaining by months and miles',
      facts({ inServiceDate: '2025-11-22', odometer: 10000 }),
      {
        basicWarrantyMonthsRemaining: 24,
        basicWarrantyMilesRemaining: 26000,
        powertrainWarrantyMonthsRemaining: 48,
        powertrainWarrantyMilesRemaining: 50000,
      },
    ],
    [
      'a warranty ended by months has no miles left either',
      facts({ inServiceDate: '2023-05-01', odometer: 10000 }),
      {
        basicWarrantyMonthsRemaining: 0,
        basicWarrantyMilesRemaining: 0,
        powertrainWarrantyMonthsRemaining: 18,
        powertrainWarrantyMilesRemaining: 50000,
      },
    ],
    [
      'a warranty ended by miles has no months left either',
      facts({ inServiceDate: '2025-11-22', odometer: 40000 }),
      {
        basicWarrantyMonthsRemaining: 0,
        basicWarrantyMilesRemaining: 0,
        powertrainWarrantyMonthsRemaining: 48,
        powertrainWarrantyMilesRemaining: 20000,
      },
    ],
    [
      'miles without an in-service date',
      facts({ odometer: 1000 }),
      { basicWarrantyMonthsRemaining: null, basicWarrantyMilesRemaining: 35000 },
    ],
    [
      'months without an odometer',
      facts({ inServiceDate: '2026-05-22' }),
      { basicWarrantyMonthsRemaining: 30, basicWarrantyMilesRemaining: null },
    ],
    [
      'no warranty known for the make',
      facts({ inServiceDate: '2026-05-22', odometer: 5 }, vehicle(), []),
      {
        basicWarrantyMonthsRemaining: null,
        basicWarrantyMilesRemaining: null,
        powertrainWarrantyMonthsRemaining: null,
        powertrainWarrantyMilesRemaining: null,
      },
    ],
    ["customerState defaults to the dealer's", facts(), { customerState: 'TX', dealerState: 'TX' }],
    ['customerState given', facts({ customerState: 'FL' }), { customerState: 'FL', dealerState: 'TX' }],
    [
      'condition and finance facts absent',
      facts(),
      {
        condition: null,
        financeType: null,
        amountFinanced: null,
        apr: null,
        purchasePrice: null,
        msrp: null,
        odometer: null,
      },
    ],
  ]
  for (const [name, got, expected] of cases) {
    test(name, () => {
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(got[key], value, key)
    })
  }
  test('a dealer without a state gives no customer state', () => {
    assert.equal(quoteFacts(inputs(), vehicle(), null, { number: '1', state: null }, []).customerState, null)
  })
})

describe('productFactor', () => {
  const table = (
    code: string,
    fact: string,
    entries: Record<string, string>,
    defaultFactor = '1',
  ): IndexedFactorTable => ({
    id: 1,
    code,
    name: code,
    fact,
    defaultFactor: d(defaultFactor),
    factors: new Map(Object.entries(entries).map(([k, v]) => [k, d(v)])),
  })
  const state = table('ST', 'customerState', { FL: '1.10', NY: '1.08' })
  const cylinders = table('CYL', 'cylinders', { 8: '1.2' }, '1.05')
  const cases: Array<[string, IndexedFactorTable[], Record<string, string | number | null>, string]> = [
    ['no tables', [], { customerState: 'FL' }, '1'],
    ['an entry', [state], { customerState: 'FL' }, '1.1'],
    ['no entry: the default', [state], { customerState: 'TX' }, '1'],
    ['a null fact: the default', [state], { customerState: null }, '1'],
    ['a missing fact: the default', [cylinders], {}, '1.05'],
    ['a numeric fact matches its key', [cylinders], { cylinders: 8 }, '1.2'],
    ['tables multiply', [state, cylinders], { customerState: 'FL', cylinders: 8 }, '1.32'],
    ['tables multiply with defaults', [state, cylinders], { customerState: 'NY', cylinders: 4 }, '1.134'],
  ]
  for (const [name, tables, facts, expected] of cases)
    test(name, () => assert.equal(productFactor(tables, facts).toString(), expected))
})

describe('expiration', () => {
  const term = (
    months: number,
    miles: number,
    milesBasis: 'FROM_SALE_ODOMETER' | 'FROM_ZERO' = 'FROM_SALE_ODOMETER',
  ) => ({ months, miles, milesBasis })
  const cases: Array<
    [
      string,
      string,
      number | undefined,
      ReturnType<typeof term>,
      { expirationDate: string; expirationOdometer: number | null },
    ]
  > = [
    [
      'from the sale odometer',
      TODAY,
      42150,
      term(48, 48000),
      { expirationDate: '2030-11-22', expirationOdometer: 90150 },
    ],
    ['from zero', TODAY, 12, term(36, 36000, 'FROM_ZERO'), { expirationDate: '2029-11-22', expirationOdometer: 36000 }],
    [
      'from zero needs no odometer',
      TODAY,
      undefined,
      term(60, 75000, 'FROM_ZERO'),
      { expirationDate: '2031-11-22', expirationOdometer: 75000 },
    ],
    ['unlimited miles', TODAY, 42150, term(36, 0), { expirationDate: '2029-11-22', expirationOdometer: null }],
    [
      'unlimited miles from zero',
      TODAY,
      42150,
      term(36, 0, 'FROM_ZERO'),
      { expirationDate: '2029-11-22', expirationOdometer: null },
    ],
    [
      'no odometer given',
      TODAY,
      undefined,
      term(24, 24000),
      { expirationDate: '2028-11-22', expirationOdometer: null },
    ],
    ['odometer 0', TODAY, 0, term(24, 24000), { expirationDate: '2028-11-22', expirationOdometer: 24000 }],
    [
      'a month-end sale',
      '2024-02-29',
      100,
      term(12, 12000),
      { expirationDate: '2025-02-28', expirationOdometer: 12100 },
    ],
  ]
  for (const [name, saleDate, odometer, t, expected] of cases)
    test(name, () => assert.deepEqual(expiration(saleDate, odometer, t), expected))
})

const holder = (extra: Partial<HolderDisbursement> = {}): HolderDisbursement => ({
  id: 1,
  accountHolderId: 77,
  code: 'PCK',
  label: 'Dealer pack',
  group: 'DEALER_PACK',
  basis: 'AMOUNT',
  amount: '100.00',
  percent: null,
  productId: null,
  programId: null,
  planId: null,
  termId: null,
  effectiveFrom: '2026-01-01',
  effectiveTo: null,
  ...extra,
})

describe('priceRate', () => {
  const codes = new Map([
    ['RES', { label: 'Claims reserve', group: 'RESERVE' }],
    ['PRM', { label: 'CLIP premium', group: 'CLIP_PREMIUM' }],
    ['ADM', { label: 'Admin fee', group: 'ADMIN_FEE' }],
  ])
  const buckets = (b: Record<string, string>): Bucket[] =>
    Object.entries(b).map(([code, value]) => ({ code, cents: cents(value) }))
  type RateIn = Parameters<typeof priceRate>[0]
  const rate = (extra: Partial<RateIn> = {}): RateIn => ({
    buckets: buckets({ RES: '610.00', PRM: '36.65', ADM: '175.00' }),
    suggestedRetailCents: 183000,
    minRetailCents: 82165,
    maxRetailCents: 290000,
    retailLocked: false,
    ...extra,
  })
  const view = (p: ReturnType<typeof priceRate>) => ({
    dealerCost: amount(p.dealerCostCents),
    suggestedRetail: amount(p.suggestedRetailCents),
    minRetail: amount(p.minRetailCents),
    maxRetail: amount(p.maxRetailCents),
    retailLocked: p.retailLocked,
    lines: p.lines.map((l) => [
      l.code,
      amount(l.cents),
      l.source,
      ...(l.accountHolderId === undefined ? [] : [l.accountHolderId]),
    ]),
  })

  test('factor 1, nothing added: the rate as filed', () => {
    assert.deepEqual(view(priceRate(rate(), d(1), codes, [], null)), {
      dealerCost: '821.65',
      suggestedRetail: '1830.00',
      minRetail: '821.65',
      maxRetail: '2900.00',
      retailLocked: false,
      lines: [
        ['RES', '610.00', 'RATE'],
        ['PRM', '36.65', 'RATE'],
        ['ADM', '175.00', 'RATE'],
      ],
    })
    const p = priceRate(rate(), d(1), codes, [], null)
    assert.deepEqual(p.lines[0], {
      code: 'RES',
      group: 'RESERVE',
      label: 'Claims reserve',
      cents: 61000,
      source: 'RATE',
    })
  })

  test('each bucket times the factor, rounded half up per bucket; retail times the factor', () => {
    assert.deepEqual(view(priceRate(rate(), d('1.10'), codes, [], null)), {
      dealerCost: '903.82',
      suggestedRetail: '2013.00',
      minRetail: '903.82',
      maxRetail: '3190.00',
      retailLocked: false,
      lines: [
        ['RES', '671.00', 'RATE'],
        ['PRM', '40.32', 'RATE'],
        ['ADM', '192.50', 'RATE'],
      ],
    })
  })

  test('rounding is per bucket, not of the total', () => {
    // 0.05 × 1.1 = 0.055 → 0.06 each: 0.12, where rounding the total 0.11 would give 0.11.
    const p = priceRate(
      {
        buckets: buckets({ RES: '0.05', PRM: '0.05' }),
        suggestedRetailCents: 100,
        minRetailCents: 100,
        maxRetailCents: 100,
        retailLocked: false,
      },
      d('1.1'),
      codes,
      [],
      null,
    )
    assert.equal(p.dealerCostCents, 12)
  })

  test('a minimum filed at cost stays at cost after the factor, although the cost is rounded per bucket', () => {
    // Cost 0.05 + 4539.39 = 4539.44; × 0.780606 per bucket: 0.04 + 3543.48 = 3543.52, but 4539.44 × 0.780606 = 3543.51.
    const atCost = {
      buckets: buckets({ RES: '0.05', PRM: '4539.39' }),
      suggestedRetailCents: 453944,
      minRetailCents: 453944,
      maxRetailCents: 500000,
      retailLocked: false,
    }
    const p = view(priceRate(atCost, d('0.780606'), codes, [], null))
    assert.deepEqual(
      [p.dealerCost, p.minRetail, p.suggestedRetail, p.maxRetail],
      ['3543.52', '3543.52', '3543.52', '3903.03'],
    )
  })

  test('a bucket code the book does not describe is labelled with its code in group OTHER', () => {
    const p = priceRate({ ...rate(), buckets: buckets({ XYZ: '5.00' }) }, d(1), codes, [], null)
    assert.deepEqual(p.lines[0], { code: 'XYZ', group: 'OTHER', label: 'XYZ', cents: 500, source: 'RATE' })
  })

  test('an AMOUNT holder disbursement is added as is (not factored), and moves every retail by the same amount', () => {
    assert.deepEqual(view(priceRate(rate(), d('1.10'), codes, [holder()], null)), {
      dealerCost: '1003.82',
      suggestedRetail: '2113.00',
      minRetail: '1003.82',
      maxRetail: '3290.00',
      retailLocked: false,
      lines: [
        ['RES', '671.00', 'RATE'],
        ['PRM', '40.32', 'RATE'],
        ['ADM', '192.50', 'RATE'],
        ['PCK', '100.00', 'ACCOUNT_HOLDER', 77],
      ],
    })
    const line = priceRate(rate(), d(1), codes, [holder()], null).lines[3]!
    assert.deepEqual([line.group, line.label], ['DEALER_PACK', 'Dealer pack'])
  })

  test("a PERCENT holder disbursement is a share of the rate's own (factored) cost, rounded to the cent", () => {
    const prt = holder({
      code: 'PRT',
      group: 'DEALER_PARTICIPATION',
      basis: 'PERCENT',
      amount: null,
      percent: '10',
      accountHolderId: 78,
    })
    // 10% of 903.82 = 90.382 → 90.38; an AMOUNT holder does not count in the base of a PERCENT one.
    assert.deepEqual(view(priceRate(rate(), d('1.10'), codes, [holder(), prt], null)).lines.slice(3), [
      ['PCK', '100.00', 'ACCOUNT_HOLDER', 77],
      ['PRT', '90.38', 'ACCOUNT_HOLDER', 78],
    ])
    assert.equal(priceRate(rate(), d('1.10'), codes, [holder(), prt], null).dealerCostCents, 109420)
  })

  test('a locked retail is the filed price times the factor: no additions, no markup cap', () => {
    const locked = rate({
      suggestedRetailCents: 90000,
      minRetailCents: 90000,
      maxRetailCents: 90000,
      retailLocked: true,
    })
    assert.deepEqual(
      view(priceRate(locked, d('1.10'), codes, [holder()], { maxMarkupAmount: '0', maxMarkupPercent: null })),
      {
        dealerCost: '1003.82',
        suggestedRetail: '990.00',
        minRetail: '990.00',
        maxRetail: '990.00',
        retailLocked: true,
        lines: [
          ['RES', '671.00', 'RATE'],
          ['PRM', '40.32', 'RATE'],
          ['ADM', '192.50', 'RATE'],
          ['PCK', '100.00', 'ACCOUNT_HOLDER', 77],
        ],
      },
    )
  })

  const markups: Array<
    [
      string,
      { maxMarkupAmount: string | null; maxMarkupPercent: string | null } | null,
      { suggestedRetail: string; minRetail: string; maxRetail: string },
    ]
  > = [
    ['no markup limit', null, { suggestedRetail: '1830.00', minRetail: '821.65', maxRetail: '2900.00' }],
    [
      'a limit with neither value',
      { maxMarkupAmount: null, maxMarkupPercent: null },
      { suggestedRetail: '1830.00', minRetail: '821.65', maxRetail: '2900.00' },
    ],
    [
      'an amount cap: maximum is cost + amount',
      { maxMarkupAmount: '1500.00', maxMarkupPercent: null },
      { suggestedRetail: '1830.00', minRetail: '821.65', maxRetail: '2321.65' },
    ],
    [
      'an amount cap above the maximum changes nothing',
      { maxMarkupAmount: '5000', maxMarkupPercent: null },
      { suggestedRetail: '1830.00', minRetail: '821.65', maxRetail: '2900.00' },
    ],
    [
      'an amount cap below the suggested retail caps it too',
      { maxMarkupAmount: '500', maxMarkupPercent: null },
      { suggestedRetail: '1321.65', minRetail: '821.65', maxRetail: '1321.65' },
    ],
    [
      'a percent cap: cost + percent of cost, rounded to the cent',
      { maxMarkupAmount: null, maxMarkupPercent: '33.3' },
      { suggestedRetail: '1095.26', minRetail: '821.65', maxRetail: '1095.26' },
    ],
    [
      'both caps: the lower wins (percent)',
      { maxMarkupAmount: '1500', maxMarkupPercent: '100' },
      { suggestedRetail: '1643.30', minRetail: '821.65', maxRetail: '1643.30' },
    ],
    [
      'both caps: the lower wins (amount)',
      { maxMarkupAmount: '100', maxMarkupPercent: '100' },
      { suggestedRetail: '921.65', minRetail: '821.65', maxRetail: '921.65' },
    ],
  ]
  for (const [name, markup, expected] of markups) {
    test(name, () => {
      const { suggestedRetail, minRetail, maxRetail } = view(priceRate(rate(), d(1), codes, [], markup))
      assert.deepEqual({ suggestedRetail, minRetail, maxRetail }, expected)
    })
  }

  test('a cap below the minimum retail brings the minimum (and suggested) down to it, never below cost', () => {
    const high = rate({ minRetailCents: 150000 })
    assert.deepEqual(view(priceRate(high, d(1), codes, [], { maxMarkupAmount: '200', maxMarkupPercent: null })), {
      dealerCost: '821.65',
      suggestedRetail: '1021.65',
      minRetail: '1021.65',
      maxRetail: '1021.65',
      retailLocked: false,
      lines: [
        ['RES', '610.00', 'RATE'],
        ['PRM', '36.65', 'RATE'],
        ['ADM', '175.00', 'RATE'],
      ],
    })
    const zero = view(priceRate(high, d(1), codes, [], { maxMarkupAmount: '0', maxMarkupPercent: null }))
    assert.deepEqual([zero.suggestedRetail, zero.minRetail, zero.maxRetail], ['821.65', '821.65', '821.65'])
  })

  test('the cap counts from the cost with the holder disbursements in it', () => {
    const p = view(priceRate(rate(), d(1), codes, [holder()], { maxMarkupAmount: '1500', maxMarkupPercent: null }))
    assert.deepEqual([p.dealerCost, p.maxRetail], ['921.65', '2421.65'])
  })

  test('property: the lines add up exactly to the dealer cost, and min ≤ suggested ≤ max, an unlocked minimum never below cost', () => {
    const someCents = fc.integer({ min: 0, max: 500_000 })
    fc.assert(
      fc.property(
        fc.array(someCents, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 3_000_000 }).map((f) => d(f).dividedBy(1_000_000)),
        fc.array(
          fc.oneof(
            someCents.map((c) => holder({ amount: amount(c) })),
            fc
              .integer({ min: 0, max: 10_000 })
              .map((p) => holder({ basis: 'PERCENT', amount: null, percent: d(p).dividedBy(100).toString() })),
          ),
          { maxLength: 4 },
        ),
        fc.option(
          fc.record({
            maxMarkupAmount: fc.option(someCents.map(amount)),
            maxMarkupPercent: fc.option(fc.integer({ min: 0, max: 500 }).map(String)),
          }),
        ),
        fc.boolean(),
        (amounts, factor, holders, markup, locked) => {
          const cost = amounts.reduce((a, b) => a + b, 0)
          const r = {
            buckets: amounts.map((c, i) => ({ code: `B${i}`, cents: c })),
            suggestedRetailCents: cost + 10_000,
            minRetailCents: locked ? cost + 10_000 : cost,
            maxRetailCents: cost + (locked ? 10_000 : 90_000),
            retailLocked: locked,
          }
          const p = priceRate(r, factor, codes, holders, markup)
          assert.equal(
            p.lines.reduce((a, l) => a + l.cents, 0),
            p.dealerCostCents,
          )
          for (const v of [
            p.dealerCostCents,
            p.suggestedRetailCents,
            p.minRetailCents,
            p.maxRetailCents,
            ...p.lines.map((l) => l.cents),
          ])
            assert.ok(Number.isSafeInteger(v), String(v))
          assert.ok(
            p.minRetailCents <= p.suggestedRetailCents && p.suggestedRetailCents <= p.maxRetailCents,
            `${p.minRetailCents} ${p.suggestedRetailCents} ${p.maxRetailCents}`,
          )
          if (!locked)
            assert.ok(p.minRetailCents >= p.dealerCostCents, `min ${p.minRetailCents} below cost ${p.dealerCostCents}`)
        },
      ),
    )
  })
})

describe('priceOption', () => {
  test('buckets times the factor; retail times the factor', () => {
    const p = priceOption({ buckets: [{ code: 'RES', cents: 7500 }], suggestedRetailCents: 10000 }, d('1.10'))
    assert.deepEqual(p, { dealerCostCents: 8250, suggestedRetailCents: 11000, lines: [{ code: 'RES', cents: 8250 }] })
  })
  test('no suggested retail: the retail is the cost', () => {
    const p = priceOption(
      {
        buckets: [
          { code: 'RES', cents: 5 },
          { code: 'ADM', cents: 5 },
        ],
        suggestedRetailCents: null,
      },
      d('1.1'),
    )
    assert.deepEqual([p.dealerCostCents, p.suggestedRetailCents], [12, 12])
  })
  test('factor 1 leaves the amounts as they are', () => {
    assert.deepEqual(priceOption({ buckets: [{ code: 'ADM', cents: 3500 }], suggestedRetailCents: 9900 }, d(1)), {
      dealerCostCents: 3500,
      suggestedRetailCents: 9900,
      lines: [{ code: 'ADM', cents: 3500 }],
    })
  })
})

describe('shortDriveType and shortFuelType', () => {
  const drives: Array<[string | undefined, string | null]> = [
    ['4WD/4-Wheel Drive/4x4', '4WD'],
    ['AWD/All-Wheel Drive', 'AWD'],
    ['FWD/Front-Wheel Drive', 'FWD'],
    ['RWD/ Rear-Wheel Drive', 'RWD'],
    ['4x2', '4X2'],
    ['', null],
    [undefined, null],
    ['/', null],
  ]
  for (const [raw, expected] of drives)
    test(`drive ${JSON.stringify(raw)} → ${expected}`, () => assert.equal(shortDriveType(raw), expected))
  const fuels: Array<[string | undefined, string | null]> = [
    ['Gasoline', 'GASOLINE'],
    ['Diesel', 'DIESEL'],
    ['Electric', 'ELECTRIC'],
    ['Flexible Fuel Vehicle (FFV)', 'FLEX'],
    ['Flexible Fuel Vehicle (FFV), Gasoline', 'FLEX'],
    ['Compressed Natural Gas (CNG)', 'COMPRESSED'],
    ['Hydrogen', 'HYDROGEN'],
    ['Biodiesel', 'DIESEL'],
    ['', null],
    [undefined, null],
  ]
  for (const [raw, expected] of fuels)
    test(`fuel ${JSON.stringify(raw)} → ${expected}`, () => assert.equal(shortFuelType(raw), expected))
})
