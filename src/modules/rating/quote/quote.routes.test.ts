// The rate quote through HTTP on the demo tenant, with the clock fixed at 2026-11-22 12:00 UTC: real
// VINs priced, nothing qualifying, every 4xx, dates, missing inputs, inactive dealers and empty
// visibility (seen at once), explain and its permission, surcharges, expiration, money that adds up,
// dealer and agent disbursements, the markup limit, state factors and locked retail, replaying a
// quote id (and its expiry), and who may quote for which dealer.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type TestApp,
  type TestTenant,
} from '../../../../test/harness.ts'
import { seedDemoTenant, type DemoTenant } from '../../../demo.ts'
import type { RateQuote } from './quote.schemas.ts'

const NOW = new Date('2026-11-22T12:00:00Z')
const TODAY = '2026-11-22'

let t: TestApp
let demo: DemoTenant
let headers: Record<string, string>
const dealers = new Map<string, { id: number; agentIds: number[] }>()

async function tokenFor(email: string, password: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'x-api-key': demo.apiKey },
    payload: { grant_type: 'password', username: email, password },
  })
  assert.equal(res.statusCode, 200, res.body)
  return json<{ access_token: string }>(res).access_token
}
const tokenHeaders = async () => ({
  'x-api-key': demo.apiKey,
  authorization: `Bearer ${await tokenFor(demo.adminEmail, demo.adminPassword)}`,
})
/** The demo tenant as the harness's factories want it. */
const demoTenant = (): TestTenant => ({ ...demo, adminUserId: 0, headers })

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemoTenant(t.modules, t.db)
  headers = await tokenHeaders()
  const res = await t.app.inject({ method: 'GET', url: '/api/dealers?limit=1000', headers })
  for (const d of json<Array<{ id: number; dealerNumber: string; agentIds: number[] }>>(res))
    dealers.set(d.dealerNumber, { id: d.id, agentIds: d.agentIds })
})
after(() => t.close())

// ---- reply shapes and helpers ----------------------------------------------------------------------

// The reply's types are the published schema's (RateQuote), so a test reads what clients are promised.
type Quote = RateQuote
/** What the schema leaves open (an explanation is the criteria evaluator's), as the evaluator writes it. */
type Explanation = { text: string; value: unknown; skipped?: boolean; children?: Explanation[] }
type Problem = {
  status: number
  code: string
  detail: string
  errors?: Array<{ field: string; code: string; message: string }>
}

/** Amounts compared in whole cents. */
const cents = (v: number) => Math.round(v * 100)

const FINANCE =
  'vehiclePurchasePrice=28500&msrp=31200&financeType=RETAIL&amountFinanced=24000&financeTermMonths=72&apr=6.99'
const HONDA = 'vin=1HGCV1F37LA012345&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01'
const RAM_DIESEL = 'vin=3C6UR5DL9LG123456&vehicleCondition=USED&odometer=40000&inServiceDate=2020-06-01'

const get = (url: string, h = headers) => t.app.inject({ method: 'GET', url, headers: h })
const quoteRes = (query: string, dealer = '10001', h = headers) => get(`/api/Rates/rateQuote/${dealer}?${query}`, h)
async function quote(query: string, dealer = '10001', h = headers): Promise<Quote> {
  const res = await quoteRes(query, dealer, h)
  assert.equal(res.statusCode, 200, res.body)
  return json<Quote>(res)
}

/** Every priced rate of a reply, with where it is. */
function rates(q: Quote) {
  return q.products.flatMap((p) =>
    p.programs.flatMap((g) =>
      g.plans.flatMap((plan) =>
        plan.terms.flatMap((term) =>
          term.deductibles.map((d) => ({
            product: p.productCode,
            program: g.programCode,
            plan: plan.planCode,
            term,
            deductible: d,
            rate: d.rate,
            options: d.options,
            key: `${plan.planCode}/${term.termCode}/${d.code}`,
          })),
        ),
      ),
    ),
  )
}
const planCodes = (q: Quote, product: string) =>
  q.products.find((p) => p.productCode === product)?.programs.flatMap((g) => g.plans.map((p) => p.planCode)) ?? []
const messageCodes = (q: Quote) => q.messages.map((m) => m.code)

async function patchDealer(number: string, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/dealers/${dealers.get(number)!.id}`,
    headers: { ...headers, 'content-type': 'application/merge-patch+json' },
    payload: JSON.stringify(body),
  })
  assert.equal(res.statusCode, 200, res.body)
}

// ---- tests ----------------------------------------------------------------------------------------

describe('real vehicles are priced', () => {
  const vins: Array<[string, string, number, string, string, string, string]> = [
    [
      '1HGCV1F37LA012345',
      '2020 Honda Accord Sport',
      2020,
      'HONDA',
      'ACCORD',
      'A',
      'odometer=42150&inServiceDate=2020-05-01',
    ],
    ['1FTFW1E57MFA12345', '2021 Ford F-150', 2021, 'FORD', 'F-150', 'B', 'odometer=30000&inServiceDate=2021-03-01'],
    ['4T1B11HK8KU123456', '2019 Toyota Camry', 2019, 'TOYOTA', 'CAMRY', 'A', 'odometer=60000&inServiceDate=2019-02-01'],
  ]
  for (const [vin, name, year, make, model, vehicleClass, usage] of vins) {
    test(`${name} (${vin}): VSC, GAP (with finance inputs) and tire & wheel`, async () => {
      const q = await quote(`vin=${vin}&vehicleCondition=used&${usage}&${FINANCE}`)
      assert.deepEqual(
        [q.vehicle.vin, q.vehicle.year, q.vehicle.make, q.vehicle.model, q.vehicle.vehicleClass, q.vehicle.condition],
        [vin, year, make, model, vehicleClass, 'USED'],
      )
      assert.equal((q.vehicle.manufacturerWarranties as unknown[]).length, 2)
      assert.deepEqual(
        q.products.map((p) => p.productCode),
        ['VSC', 'GAP', 'TW'],
      )
      assert.deepEqual(planCodes(q, 'VSC'), ['PLAT-USED', 'GOLD-USED', 'PWT-USED'])
      // GAP terms are chosen by the finance term: 72 months only.
      assert.deepEqual(
        rates(q)
          .filter((r) => r.product === 'GAP')
          .map((r) => r.key),
        ['GAP-STD/72/D0'],
      )
      assert.deepEqual(
        rates(q)
          .filter((r) => r.product === 'TW')
          .map((r) => r.key),
        ['TW-STD/36-0/D0', 'TW-STD/60-0/D0'],
      )
      assert.deepEqual(q.messages, [])
      assert.match(q.quoteId, /^q1\./)
      assert.deepEqual(
        [q.quotedAt, q.quoteExpiresAt, q.dealerNumber, q.saleDate, q.rateBook],
        [NOW.toISOString(), '2026-11-23T12:00:00.000Z', '10001', TODAY, { version: 1, effectiveDate: '2025-01-01' }],
      )
      assert.equal(q.exclusions, undefined)
      const gap = q.products.find((p) => p.productCode === 'GAP')!.programs[0]!.plans[0]!
      assert.deepEqual([gap.requiresCustomFields, gap.customFields.map((f) => f.key)], [true, ['lenderLoanNumber']])
    })
  }

  test('year, make and model without a VIN are enough; the VIN wins when they disagree', async () => {
    const byName = await quote(
      `vehicleYear=2020&vehicleMake=honda&vehicleModel=accord&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01`,
    )
    assert.deepEqual(planCodes(byName, 'VSC'), ['PLAT-USED', 'GOLD-USED', 'PWT-USED'])
    const conflict = await quote(`${HONDA}&vehicleMake=Toyota&productTypes=VSC`)
    assert.equal(conflict.vehicle.make, 'HONDA')
    assert.deepEqual(messageCodes(conflict), ['VEHICLE_INPUT_OVERRIDDEN'])
  })

  test('a vehicle outside every rule: 200, no products, NO_PLANS_FOUND "No plans found"', async () => {
    const res = await quoteRes(
      'vehicleYear=2001&vehicleMake=Ferrari&vehicleModel=F50&vehicleCondition=USED&odometer=200000',
    )
    assert.equal(res.statusCode, 200, res.body)
    const q = json<Quote>(res)
    assert.deepEqual(q.products, [])
    const noPlans = q.messages.filter((m) => m.code === 'NO_PLANS_FOUND')
    assert.deepEqual(noPlans, [{ severity: 'WARNING', code: 'NO_PLANS_FOUND', text: 'No plans found' }])
    assert.equal(q.messages.at(-1)!.code, 'NO_PLANS_FOUND')
  })

  test('VEHICLE_NOT_CLASSIFIED for a make the book does not class; VEHICLE_NOT_DECODED for a VIN of an unknown maker', async () => {
    const ferrari = await quote(
      'vehicleYear=2024&vehicleMake=Ferrari&vehicleModel=Roma&vehicleCondition=USED&odometer=2000&inServiceDate=2024-06-01',
    )
    assert.deepEqual(
      ferrari.messages.filter((m) => m.code === 'VEHICLE_NOT_CLASSIFIED').map((m) => m.severity),
      ['INFO'],
    )
    // A valid check digit, but a WMI no manufacturer has: no make, so no vehicle for any product.
    const unknown = await quote('vin=9ZZABCDE1RA012345&vehicleCondition=USED&odometer=2000')
    assert.deepEqual(
      unknown.messages.filter((m) => m.code === 'VEHICLE_NOT_DECODED').map((m) => m.severity),
      ['INFO'],
    )
    assert.deepEqual(unknown.products, [])
  })

  test('NO_RATE_BOOK for a tenant without a rate book in force', async () => {
    const other = await createTenant(t, 'Quotes without a book')
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/dealers',
      headers: other.headers,
      payload: { dealerNumber: 'NB-1', legalName: 'No Book Motors' },
    })
    assert.equal(created.statusCode, 201, created.body)
    const res = await get(`/api/Rates/rateQuote/NB-1?${HONDA}`, other.headers)
    assert.equal(res.statusCode, 200, res.body)
    const q = json<Quote>(res)
    assert.deepEqual(
      [q.products, q.rateBook, q.messages.map((m) => m.code)],
      [[], null, ['NO_RATE_BOOK', 'NO_PLANS_FOUND']],
    )
  })

  test('filters: productTypes', async () => {
    const q = await quote(`${HONDA}&${FINANCE}&productTypes=GAP,tire_wheel`)
    assert.deepEqual(
      q.products.map((p) => p.productCode),
      ['GAP', 'TW'],
    )
    // Types, not codes: TW is the code of the TIRE_WHEEL product, not a type (400).
    const wrong = await quoteRes(`${HONDA}&productTypes=TW`)
    assert.equal(wrong.statusCode, 400, wrong.body)
    assert.deepEqual(
      json<Problem>(wrong).errors!.map((e) => e.field),
      ['productTypes'],
    )
  })
})

describe('money', () => {
  let all: Quote[]
  before(async () => {
    all = await Promise.all([
      quote(`${HONDA}&${FINANCE}`),
      quote(
        `vin=1FTFW1E57MFA12345&vehicleCondition=USED&odometer=30000&inServiceDate=2021-03-01&${FINANCE}&customerState=FL`,
      ),
      quote(`${RAM_DIESEL}&surcharges=COMMERCIAL_USE`, '10002'),
      quote(
        'vehicleYear=2026&vehicleMake=Honda&vehicleModel=Accord&vehicleCondition=NEW&odometer=12&inServiceDate=2026-11-20',
        '10003',
      ),
      quote(`${HONDA}&${FINANCE}&customerState=NY`, '10010'),
    ])
  })

  test("every rate's dealer cost is exactly the sum of its disbursement lines; every option's too; min ≤ suggested ≤ max", () => {
    let counted = 0
    for (const q of all) {
      for (const { key, rate, options } of rates(q)) {
        assert.equal(
          rate.disbursements.reduce((n, l) => n + cents(l.amount), 0),
          cents(rate.dealerCost),
          `${q.dealerNumber} ${key}`,
        )
        assert.ok(
          cents(rate.minRetail) <= cents(rate.suggestedRetail) && cents(rate.suggestedRetail) <= cents(rate.maxRetail),
          `${key}: ${rate.minRetail} ${rate.suggestedRetail} ${rate.maxRetail}`,
        )
        if (!rate.retailLocked) assert.ok(cents(rate.minRetail) >= cents(rate.dealerCost), `${key}: min below cost`)
        for (const v of [
          rate.dealerCost,
          rate.suggestedRetail,
          rate.minRetail,
          rate.maxRetail,
          ...rate.disbursements.map((l) => l.amount),
        ])
          assert.match(String(v), /^\d+(\.\d{1,2})?$/, `${key}: ${v}`)
        for (const o of options)
          assert.equal(
            o.disbursements.reduce((n, l) => n + cents(l.amount), 0),
            cents(o.dealerCost),
            `${key} ${o.code}`,
          )
        counted += 1
      }
    }
    assert.ok(counted > 100, String(counted))
  })

  test("dealer 10001: its pack (PCK 100.00, VSC only) and its agent's override (OVR 25.00, every product) are ACCOUNT_HOLDER lines", () => {
    const dealer = dealers.get('10001')!
    for (const { product, key, rate } of rates(all[0]!)) {
      const holderLines = rate.disbursements
        .filter((l) => l.source === 'ACCOUNT_HOLDER')
        .map((l) => [l.code, l.group, cents(l.amount), l.accountHolderId])
      const expected = [
        ...(product === 'VSC' ? [['PCK', 'DEALER_PACK', 10000, dealer.id]] : []),
        ['OVR', 'COMMISSION', 2500, dealer.agentIds[0]],
      ]
      assert.deepEqual(holderLines, expected, key)
      assert.ok(
        rate.disbursements.filter((l) => l.source === 'RATE').every((l) => l.accountHolderId === undefined),
        key,
      )
    }
  })

  test("dealer 10002: its participation (PRT 10% of the rate's own cost, VSC only) is an ACCOUNT_HOLDER line", () => {
    const vsc = rates(all[2]!).filter((r) => r.product === 'VSC')
    assert.ok(vsc.length > 0)
    for (const { key, rate } of vsc) {
      const base = rate.disbursements.filter((l) => l.source === 'RATE').reduce((n, l) => n + cents(l.amount), 0)
      const prt = rate.disbursements.find((l) => l.code === 'PRT')!
      assert.deepEqual(
        [prt.source, prt.accountHolderId, cents(prt.amount)],
        ['ACCOUNT_HOLDER', dealers.get('10002')!.id, Math.round(base / 10)],
        key,
      )
      assert.equal(
        rate.disbursements.some((l) => l.code === 'PCK'),
        false,
        key,
      )
    }
  })

  test("dealer 10001's markup limit caps every VSC maximum retail at dealer cost + 1500.00; a dealer without a limit is not capped", () => {
    const capped = rates(all[0]!).filter((r) => r.product === 'VSC')
    for (const { key, rate } of capped)
      assert.ok(
        cents(rate.maxRetail) <= cents(rate.dealerCost) + 150000,
        `${key}: ${rate.maxRetail} > ${rate.dealerCost} + 1500`,
      )
    assert.ok(
      capped.some(({ rate }) => cents(rate.maxRetail) === cents(rate.dealerCost) + 150000),
      'the cap binds somewhere',
    )
    // The book's own maximum is about 2.8 times cost; dealer 10003 (no limit) shows it.
    const uncapped = rates(all[3]!).filter((r) => r.product === 'VSC')
    assert.ok(uncapped.some(({ rate }) => cents(rate.maxRetail) > cents(rate.dealerCost) + 150000))
    // GAP and tire & wheel have no limit for 10001.
    assert.ok(
      rates(all[0]!)
        .filter((r) => r.product === 'TW')
        .every(({ rate }) => cents(rate.maxRetail) > cents(rate.suggestedRetail)),
    )
  })

  test('customerState=FL applies the STATE_RESERVE factor: every VSC bucket 1.10×, rounded per bucket; GAP and TW unchanged', async () => {
    const tx = await quote(`${HONDA}&${FINANCE}`)
    const fl = await quote(`${HONDA}&${FINANCE}&customerState=FL`)
    const byKey = new Map(rates(tx).map((r) => [r.key, r]))
    const flRates = rates(fl)
    assert.equal(flRates.length, byKey.size)
    for (const { key, product, rate } of flRates) {
      const base = byKey.get(key)!.rate
      for (const line of rate.disbursements) {
        const was = base.disbursements.find((l) => l.code === line.code)!
        const expected =
          product === 'VSC' && line.source === 'RATE' ? Math.round(cents(was.amount) * 1.1) : cents(was.amount)
        assert.equal(cents(line.amount), expected, `${key} ${line.code}`)
      }
    }
    const res = (q: Quote) =>
      cents(
        rates(q)
          .find((r) => r.key === 'PLAT-USED/48-48000/D100')!
          .rate.disbursements.find((l) => l.code === 'RES')!.amount,
      )
    assert.equal(res(fl), Math.round(res(tx) * 1.1))
    // Options are factored as well.
    const commercial = (q: Quote) => cents(rates(q)[0]!.options.find((o) => o.code === 'COMMERCIAL_USE')!.dealerCost)
    assert.equal(commercial(fl), Math.round(commercial(tx) * 1.1))
  })

  test("customerState=NY: GAP is New York's filed rate, retail locked; elsewhere it is not", async () => {
    const ny = rates(all[4]!).filter((r) => r.product === 'GAP')
    assert.equal(ny.length, 1)
    const locked = ny[0]!.rate
    assert.equal(locked.retailLocked, true)
    assert.deepEqual(
      [cents(locked.minRetail), cents(locked.maxRetail)],
      [cents(locked.suggestedRetail), cents(locked.suggestedRetail)],
    )
    // 72 months: cost 509.00, filed retail round-up-to-5(509 × 1.8) = 920.00.
    assert.equal(cents(locked.suggestedRetail), 92000)
    const tx = rates(all[0]!).find((r) => r.product === 'GAP')!.rate
    assert.equal(tx.retailLocked, false)
    assert.notEqual(cents(tx.minRetail), cents(tx.maxRetail))
    assert.notEqual(tx.rateId, locked.rateId)
  })
})

describe('bad requests', () => {
  test('an unknown dealer: 404 dealer_not_found', async () => {
    const res = await quoteRes(HONDA, '99999')
    assert.equal(res.statusCode, 404, res.body)
    assert.equal(json<Problem>(res).code, 'dealer_not_found')
  })

  test('400 listing each bad field in one reply: VIN check digit, negative odometer, impossible date, unknown parameter', async () => {
    const res = await quoteRes('vin=1HGCV1F34LA012345&odometer=-1&saleDate=2026-02-30&foo=1&vehicleCondition=USED')
    assert.equal(res.statusCode, 400, res.body)
    const problem = json<Problem>(res)
    assert.equal(problem.code, 'validation_failed')
    assert.deepEqual(
      problem.errors!.map((e) => [e.field, e.code]),
      [
        ['vin', 'check_digit'],
        ['odometer', 'out_of_range'],
        ['saleDate', 'invalid_format'],
        ['foo', 'unknown_parameter'],
      ],
    )
  })

  test('400 for a parameter given twice', async () => {
    const res = await quoteRes(`${HONDA}&odometer=5`)
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(
      json<Problem>(res).errors!.map((e) => [e.field, e.message]),
      [['odometer', 'must be given once']],
    )
  })

  test('422 quote_dates_invalid: a future sale, one older than the look-back setting, in service after the sale', async () => {
    const cases: Array<[string, string]> = [
      ['saleDate=2026-11-23', 'saleDate'],
      ['saleDate=2026-09-22', 'saleDate'], // 61 days back; the default look-back is 60
      ['saleDate=2026-11-20&inServiceDate=2026-11-21', 'inServiceDate'],
    ]
    for (const [query, field] of cases) {
      const res = await quoteRes(
        `vehicleYear=2026&vehicleMake=Honda&vehicleModel=Accord&vehicleCondition=NEW&odometer=5&${query}`,
      )
      assert.equal(res.statusCode, 422, `${query}: ${res.body}`)
      const problem = json<Problem>(res)
      assert.equal(problem.code, 'quote_dates_invalid')
      assert.deepEqual(
        problem.errors!.map((e) => [e.field, e.code]),
        [[field, 'out_of_range']],
        query,
      )
    }
    assert.equal((await quoteRes('saleDate=2026-09-23')).statusCode, 200)
  })

  test("the look-back follows the tenant's saleDateLookBackDays setting", async () => {
    const put = (value: number) =>
      t.app.inject({ method: 'PUT', url: '/api/generalsettings/saleDateLookBackDays', headers, payload: { value } })
    assert.equal((await put(10)).statusCode, 200)
    try {
      assert.equal((await quoteRes('saleDate=2026-11-11')).statusCode, 422)
      assert.equal((await quoteRes('saleDate=2026-11-12')).statusCode, 200)
    } finally {
      assert.equal((await put(60)).statusCode, 200)
    }
    assert.equal((await quoteRes('saleDate=2026-11-11')).statusCode, 200)
  })
  test('"today" is the tenant\'s (timeZone setting): at 21:00 in Chicago on the 22nd, UTC is already the 23rd', async () => {
    t.clock.set(new Date('2026-11-23T03:00:00Z'))
    try {
      const h = await tokenHeaders()
      assert.equal(
        (
          await quote(
            'vehicleYear=2026&vehicleMake=Honda&vehicleModel=Accord&vehicleCondition=NEW&odometer=5',
            '10001',
            h,
          )
        ).saleDate,
        '2026-11-22',
      )
      const tomorrow = await quoteRes(
        'vehicleYear=2026&vehicleMake=Honda&vehicleModel=Accord&vehicleCondition=NEW&odometer=5&saleDate=2026-11-23',
        '10001',
        h,
      )
      assert.equal(tomorrow.statusCode, 422, tomorrow.body)
    } finally {
      t.clock.set(NOW)
    }
  })
})

describe('what a product needs', () => {
  test('PRODUCT_INPUTS_MISSING names exactly what GAP lacks', async () => {
    const none = await quote(HONDA)
    assert.deepEqual(none.messages, [
      {
        severity: 'INFO',
        code: 'PRODUCT_INPUTS_MISSING',
        text: 'GAP not rated: vehiclePurchasePrice, financeType, amountFinanced, financeTermMonths, apr required',
        productCode: 'GAP',
      },
    ])
    assert.deepEqual(
      none.products.map((p) => p.productCode),
      ['VSC', 'TW'],
    )
    const some = await quote(`${HONDA}&vehiclePurchasePrice=28500&financeType=RETAIL`)
    assert.deepEqual(
      some.messages.map((m) => m.text),
      ['GAP not rated: amountFinanced, financeTermMonths, apr required'],
    )
  })

  test('no vehicle at all: every product says it needs one', async () => {
    const q = await quote('vehicleCondition=USED&odometer=100')
    const vehicleMissing = q.messages.filter((m) => m.code === 'PRODUCT_INPUTS_MISSING').map((m) => m.productCode)
    assert.deepEqual(vehicleMissing, ['VSC', 'GAP', 'TW', 'PPM'])
    assert.match(
      q.messages[0]!.text,
      /^VSC not rated: vin \(or vehicleYear, vehicleMake and vehicleModel\), inServiceDate required$/,
    )
    assert.equal(messageCodes(q).at(-1), 'NO_PLANS_FOUND')
  })

  test('GAP criteria: a loan above 125% of MSRP is not rated', async () => {
    const q = await quote(
      `${HONDA}&vehiclePurchasePrice=20000&msrp=20000&financeType=RETAIL&amountFinanced=25001&financeTermMonths=72&apr=6.99&explain=true`,
    )
    assert.deepEqual(
      q.products.map((p) => p.productCode),
      ['VSC', 'TW'],
    )
    const gap = q.exclusions!.find((e) => e.productCode === 'GAP')!
    assert.deepEqual([gap.level, gap.reason], ['PRODUCT', 'CRITERIA'])
  })
})

describe('dealers that cannot sell', () => {
  test('an inactive dealer (expired, or status INACTIVE): 200, no products, DEALER_INACTIVE, seen at once', async () => {
    assert.ok((await quote(HONDA, '10005')).products.length > 0)
    await patchDealer('10005', { expiredDate: '2026-11-21T00:00:00Z' })
    const expired = await quote(HONDA, '10005')
    assert.deepEqual(expired.products, [])
    assert.ok(messageCodes(expired).includes('DEALER_INACTIVE'), JSON.stringify(expired.messages))
    assert.match(expired.messages.find((m) => m.code === 'DEALER_INACTIVE')!.text, /10005 is not active/)
    await patchDealer('10005', { expiredDate: null })
    assert.ok((await quote(HONDA, '10005')).products.length > 0)

    await patchDealer('10004', { status: 'INACTIVE' })
    const inactive = await quote(HONDA, '10004')
    assert.deepEqual(inactive.products, [])
    assert.ok(messageCodes(inactive).includes('DEALER_INACTIVE'))
    await patchDealer('10004', { status: 'ACTIVE' })
    assert.ok((await quote(HONDA, '10004')).products.length > 0)
  })

  test('a dealer whose rate visibility is empty: DEALER_HAS_NO_PRODUCTS, seen at once', async () => {
    const dealer = dealers.get('10007')!
    const url = `/api/dealers/${dealer.id}/ratevisibilities`
    const initial = await quote(`${HONDA}&${FINANCE}`, '10007')
    assert.deepEqual(
      initial.products.map((p) => p.productCode),
      ['VSC', 'GAP', 'TW'],
    )
    const emptied = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '[]',
    })
    assert.equal(emptied.statusCode, 200, emptied.body)
    const q = await quote(HONDA, '10007')
    assert.deepEqual(q.products, [])
    assert.ok(messageCodes(q).includes('DEALER_HAS_NO_PRODUCTS'), JSON.stringify(q.messages))
    // Only GAP visible: only GAP is quoted.
    const gapOnly = [{ productId: initial.products.find((p) => p.productCode === 'GAP')!.productId }]
    const narrowed = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(gapOnly),
    })
    assert.equal(narrowed.statusCode, 200, narrowed.body)
    assert.deepEqual(
      (await quote(`${HONDA}&${FINANCE}`, '10007')).products.map((p) => p.productCode),
      ['GAP'],
    )
  })
})

describe('explain', () => {
  test('lists every exclusion with its reason: CONDITION for a new-car plan, CRITERIA with the explanation for a plan the vehicle is too old for', async () => {
    // A 2017 Accord is 9 years old at sale: too old for Platinum (≤ 8), fine for Gold (≤ 10).
    const q = await quote(
      'vehicleYear=2017&vehicleMake=Honda&vehicleModel=Accord&vehicleCondition=USED&odometer=80000&inServiceDate=2017-03-01&explain=true',
    )
    assert.deepEqual(planCodes(q, 'VSC'), ['GOLD-USED', 'PWT-USED'])
    const ex = q.exclusions!
    const platNew = ex.find((e) => e.planCode === 'PLAT-NEW')!
    assert.deepEqual(
      [platNew.level, platNew.reason, platNew.text],
      ['PLAN', 'CONDITION', 'PLAT-NEW is for NEW vehicles, not USED'],
    )
    const platUsed = ex.find((e) => e.planCode === 'PLAT-USED')!
    assert.deepEqual(
      [platUsed.level, platUsed.productCode, platUsed.programCode, platUsed.reason],
      ['PLAN', 'VSC', 'PLAT', 'CRITERIA'],
    )
    assert.equal(platUsed.criteria!.text, 'vehicleAge <= 8 AND odometer <= 100000')
    assert.equal(platUsed.criteria!.result, false)
    assert.deepEqual((platUsed.criteria!.explanation as Explanation).children![0], {
      text: 'vehicleAge <= 8',
      value: false,
    })
    assert.deepEqual(
      ex.filter((e) => e.productCode === 'GAP').map((e) => e.reason),
      ['INPUTS_MISSING'],
    )
    assert.deepEqual(
      ex.filter((e) => e.productCode === 'PPM').map((e) => [e.level, e.reason]),
      [['PRODUCT', 'CRITERIA']],
    )
    // Nothing priced is listed as excluded.
    assert.equal(
      ex.some((e) => e.planCode === 'GOLD-USED'),
      false,
    )
  })

  test('a VSC the vehicle is too old for is excluded at the product by vehicleAge', async () => {
    const q = await quote(
      'vehicleYear=2012&vehicleMake=Honda&vehicleModel=Accord&vehicleCondition=USED&odometer=120000&inServiceDate=2012-03-01&explain=true',
    )
    const vsc = q.exclusions!.find((e) => e.productCode === 'VSC')!
    assert.deepEqual([vsc.level, vsc.reason], ['PRODUCT', 'CRITERIA'])
    assert.deepEqual((vsc.criteria!.explanation as Explanation).children![0], {
      text: 'vehicleAge <= 12',
      value: false,
    })
  })

  test('needs rates:explain: 403 for a read-only or dealer user, who may still quote without it', async () => {
    for (const role of ['READ_ONLY', 'DEALER_USER']) {
      const user = await createUserWithRoles(t, demoTenant(), [role])
      const refused = await quoteRes(`${HONDA}&explain=true`, '10001', user.headers)
      assert.equal(refused.statusCode, 403, `${role}: ${refused.body}`)
      assert.equal(json<Problem>(refused).code, 'permission_denied')
      assert.equal((await quoteRes(HONDA, '10001', user.headers)).statusCode, 200, role)
      assert.equal((await quoteRes(`${HONDA}&explain=false`, '10001', user.headers)).statusCode, 200, role)
    }
  })
})

describe('surcharges and options', () => {
  test('a diesel (decoded from the VIN) gets the DIESEL surcharge required and selected; COMMERCIAL_USE is selected when asked; an unknown code is reported', async () => {
    const q = await quote(`${RAM_DIESEL}&surcharges=commercial_use,BOGUS`)
    assert.equal(q.vehicle.fuelType, 'DIESEL')
    const vsc = rates(q).filter((r) => r.product === 'VSC')
    assert.ok(vsc.length > 0)
    for (const { key, options } of vsc) {
      const byCode = new Map(options.map((o) => [o.code, o]))
      assert.deepEqual([byCode.get('DIESEL')?.required, byCode.get('DIESEL')?.selected], [true, true], key)
      assert.deepEqual(
        [byCode.get('COMMERCIAL_USE')?.required, byCode.get('COMMERCIAL_USE')?.selected],
        [false, true],
        key,
      )
      assert.deepEqual([byCode.get('FOUR_WD')?.required, byCode.get('FOUR_WD')?.selected], [false, false], key)
      assert.deepEqual([byCode.get('ROADSIDE')?.kind, byCode.get('ROADSIDE')?.selected], ['OPTION', false], key)
      // LIFT_KIT is only for the pickups its criteria name.
      assert.equal(byCode.has('LIFT_KIT'), false, key)
      assert.equal(cents(byCode.get('DIESEL')!.dealerCost), 15000)
    }
    const notAvailable = q.messages.filter((m) => m.code === 'SURCHARGE_NOT_AVAILABLE')
    assert.equal(notAvailable.length, 1)
    assert.match(notAvailable[0]!.text, /BOGUS/)
    assert.doesNotMatch(notAvailable[0]!.text, /COMMERCIAL_USE/)
  })

  test('a petrol car: no DIESEL requirement; nothing selected that was not asked for; LIFT_KIT offered for an F-150', async () => {
    const honda = await quote(`${HONDA}&productTypes=VSC`)
    for (const { options } of rates(honda)) {
      assert.ok(options.every((o) => !o.required && !o.selected))
      assert.equal(
        options.some((o) => o.code === 'LIFT_KIT'),
        false,
      )
    }
    const f150 = await quote(
      'vin=1FTFW1E57MFA12345&vehicleCondition=USED&odometer=30000&inServiceDate=2021-03-01&productTypes=VSC&surcharges=LIFT_KIT',
    )
    for (const { options } of rates(f150))
      assert.deepEqual(
        options.filter((o) => o.code === 'LIFT_KIT').map((o) => [o.required, o.selected]),
        [[false, true]],
      )
    assert.equal(messageCodes(f150).includes('SURCHARGE_NOT_AVAILABLE'), false)
  })
})

describe('expiration', () => {
  test('a used term counts miles from the sale odometer; a new term from zero; tire & wheel has unlimited miles', async () => {
    const used = rates(await quote(`${HONDA}&productTypes=VSC,TIRE_WHEEL`))
    const term = used.find((r) => r.key === 'PLAT-USED/48-48000/D100')!.term
    assert.deepEqual(
      [term.milesBasis, term.termMonths, term.termMiles, term.expirationDate, term.expirationOdometer],
      ['FROM_SALE_ODOMETER', 48, 48000, '2030-11-22', 90150],
    )
    const tw = used.find((r) => r.key === 'TW-STD/60-0/D0')!.term
    assert.deepEqual([tw.termMiles, tw.expirationDate, tw.expirationOdometer], [0, '2031-11-22', null])

    const fresh = rates(
      await quote(
        'vehicleYear=2026&vehicleMake=Honda&vehicleModel=Accord&vehicleCondition=NEW&odometer=12&inServiceDate=2026-11-20&saleDate=2026-11-20&productTypes=VSC',
      ),
    )
    assert.deepEqual([...new Set(fresh.map((r) => r.plan))], ['PLAT-NEW'])
    const newTerm = fresh.find((r) => r.key === 'PLAT-NEW/36-36000/D0')!.term
    assert.deepEqual(
      [newTerm.milesBasis, newTerm.expirationDate, newTerm.expirationOdometer],
      ['FROM_ZERO', '2029-11-20', 36000],
    )
  })
})

describe('showing a quote again', () => {
  test('GET /Rates/quotes/{quoteId} replays the same products; after the quote lifetime it says expired', async () => {
    const original = await quote(`${HONDA}&${FINANCE}`)
    const res = await get(`/api/Rates/quotes/${original.quoteId}`)
    assert.equal(res.statusCode, 200, res.body)
    const replay = json<Quote>(res)
    assert.deepEqual(replay.products, original.products)
    assert.deepEqual(
      [replay.quoteId, replay.quotedAt, replay.quoteExpiresAt, replay.saleDate, replay.expired],
      [original.quoteId, original.quotedAt, original.quoteExpiresAt, original.saleDate, false],
    )
    assert.deepEqual(replay.messages, original.messages)

    t.clock.advance(24 * 3600_000)
    try {
      const later = await tokenHeaders() // the first token has expired by now
      const stale = json<Quote>(await get(`/api/Rates/quotes/${original.quoteId}`, later))
      assert.equal(stale.expired, true)
      assert.deepEqual(stale.products, original.products)
    } finally {
      t.clock.set(NOW)
    }
  })

  // Ids grow with the inputs (they carry them): the router takes path segments up to 5000 characters.
  test('a quote with every input (a long id) can be shown again', async () => {
    const original = await quote(
      `${HONDA}&${FINANCE}&vehicleTrim=Sport&monthlyPayment=410.22&firstPaymentDate=2026-12-22&surcharges=ROADSIDE,RENTAL&customerState=TX&productTypes=VSC,GAP,TIRE_WHEEL`,
    )
    assert.ok(original.quoteId.length > 500, String(original.quoteId.length))
    const res = await get(`/api/Rates/quotes/${original.quoteId}`)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(json<Quote>(res).products, original.products)
  })

  test("the id carries the customer state the quote used (the dealer's, when none was given), so a replay prices the same after the dealer moves", async () => {
    const q = await quote(HONDA)
    const inputs = JSON.parse(Buffer.from(q.quoteId.split('.')[1]!, 'base64url').toString('utf8'))[6] as Record<
      string,
      unknown
    >
    assert.equal(inputs.customerState, 'TX')
  })

  test("QUOTE_DISBURSEMENTS_CHANGED when the dealer's disbursements changed since; the id stays the one asked for", async () => {
    const original = await quote(HONDA, '10003')
    const dealer = dealers.get('10003')!
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/Rates/Disbursements/AccountHolder/${dealer.id}`,
      headers,
      payload: { code: 'PCK', basis: 'AMOUNT', amount: 75, effectiveFrom: '2025-01-01' },
    })
    assert.equal(added.statusCode, 201, added.body)
    const replay = json<Quote>(await get(`/api/Rates/quotes/${original.quoteId}`))
    assert.equal(replay.quoteId, original.quoteId)
    assert.deepEqual(
      replay.messages.filter((m) => m.code === 'QUOTE_DISBURSEMENTS_CHANGED').map((m) => m.severity),
      ['WARNING'],
    )
    assert.equal(
      (await quote(HONDA, '10003')).messages.some((m) => m.code === 'QUOTE_DISBURSEMENTS_CHANGED'),
      false,
    )
  })

  test("an altered quote id, a made-up one, or another tenant's: 404 quote_not_found", async () => {
    const { quoteId } = await quote(HONDA)
    const [prefix, payload, signature] = quoteId.split('.') as [string, string, string]
    const forged = `${prefix}.${Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace('"10001"', '"10002"')).toString('base64url')}.${signature}`
    for (const id of [
      forged,
      `${prefix}.${payload}.${signature.slice(0, -3)}AAA`,
      'q1.e30.AAAAAAAAAAAAAAAAAAAAAA',
      'nonsense',
    ]) {
      const res = await get(`/api/Rates/quotes/${encodeURIComponent(id)}`)
      assert.equal(res.statusCode, 404, `${id}: ${res.body}`)
      assert.equal(json<Problem>(res).code, 'quote_not_found')
    }
    const other = await createTenant(t, 'Another tenant')
    const foreign = await get(`/api/Rates/quotes/${quoteId}`, other.headers)
    assert.equal(foreign.statusCode, 404, foreign.body)
    assert.equal(json<Problem>(foreign).code, 'quote_not_found')
  })
})

describe('who may quote for which dealer', () => {
  test('a dealer-side user sees only the dealers of its portal group: another dealer is 404, for quotes and replays', async () => {
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/portalvisibilitygroups',
      headers,
      payload: { code: 'QUOTE-PORTAL', name: 'Toyota Dallas portal', dealerIds: [dealers.get('10002')!.id] },
    })
    assert.equal(group.statusCode, 201, group.body)
    const user = await createUserWithRoles(t, demoTenant(), ['DEALER_USER'], {
      groups: [{ id: json<{ id: number }>(group).id }],
    })
    const other = await quoteRes(HONDA, '10001', user.headers)
    assert.equal(other.statusCode, 404, other.body)
    assert.equal(json<Problem>(other).code, 'dealer_not_found')
    const own = await quote(HONDA, '10002', user.headers)
    assert.ok(own.products.length > 0)
    // A quote of a dealer it cannot see cannot be shown to it either; its own can.
    const staffQuote = await quote(HONDA, '10001')
    assert.equal((await get(`/api/Rates/quotes/${staffQuote.quoteId}`, user.headers)).statusCode, 404)
    assert.equal((await get(`/api/Rates/quotes/${own.quoteId}`, user.headers)).statusCode, 200)
  })

  test('no credentials: 401; a role without rates:read: 403', async () => {
    assert.equal((await get(`/api/Rates/rateQuote/10001?${HONDA}`, { 'x-api-key': demo.apiKey })).statusCode, 401)
    const adjuster = await createUserWithRoles(t, demoTenant(), ['CLAIMS_ADJUSTER'])
    assert.equal((await quoteRes(HONDA, '10001', adjuster.headers)).statusCode, 403)
  })
})

describe('the longest quote ids', () => {
  test('a quote with every list at its longest can still be shown again (the inputs are bounded so the id fits)', async () => {
    const codes = Array.from({ length: 20 }, (_, i) => `S${i}_${'X'.repeat(36)}`).join(',')
    const ids = Array.from({ length: 20 }, (_, i) => String(10 ** 14 + i)).join(',')
    const original = await quote(
      `${HONDA}&${FINANCE}&vehicleTrim=${'T'.repeat(80)}&surcharges=${codes}&productIds=${ids}&programIds=${ids}&customerState=TX`,
    )
    const res = await get(`/api/Rates/quotes/${original.quoteId}`)
    assert.equal(res.statusCode, 200, res.body.slice(0, 300))
  })

  test("a path segment over the router's limit is a 414 problem, not the framework's own body", async () => {
    const res = await get(`/api/Rates/quotes/q1.${'A'.repeat(6000)}.x`)
    assert.equal(res.statusCode, 414)
    assert.equal(json<Problem>(res).code, 'uri_too_long')
  })
})
