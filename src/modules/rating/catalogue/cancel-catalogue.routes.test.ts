// Cancel methods and cancel reasons through HTTP: v1 lists and by id, v2 pages and by id or code in
// any case, filters, the version read (today, `date`, `version`), items retired from the book still
// readable by id (own ones and the defaults), 404s (unknown, other kind, other tenant, later
// versions only), no book, credentials. On the embedded database and on PostgreSQL
// (scripts/with-postgres.sh).
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
import { systemContext } from '../../../platform/http/context.ts'
import { demoRateBook } from '../index.ts'

type Book = ReturnType<typeof demoRateBook>
type Headers = Record<string, string>
type Item = Record<string, unknown>
type Page = { items: Item[]; pageNumber: number; pageSize: number; totalCount: number; totalPages: number }
type Problem = { status: number; code: string; errors?: Array<{ field: string; code: string }> }
type World = { tenant: TestTenant; h: Headers; id(kind: string, code: string): number }

let t: TestApp
/** The demo book, version 1 from 2026-01-01. */
let w: World
/**
 * Four versions: 1 (2026-01-01) without methods or reasons of its own (the defaults), 2 (2026-03-01)
 * the demo book, 3 (2026-04-01, in force today) the demo book without FLAT_100 and SALE_UNWOUND, 4
 * (2027-01-01) the demo book with a method FUTURE_50 only it has.
 */
let r: World

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
  w = await world('Cancel catalogue', [book('2026-01-01')])
  r = await world('Cancel catalogue retired', [
    book('2026-01-01', withoutAfterSale),
    book('2026-03-01'),
    book('2026-04-01', (b) => {
      b.cancelMethods = b.cancelMethods!.filter((m) => m.code !== 'FLAT_100')
      b.cancelReasons = b.cancelReasons!.filter((m) => m.code !== 'SALE_UNWOUND')
    }),
    book('2027-01-01', (b) => {
      b.cancelMethods!.push({ code: 'FUTURE_50', name: 'A flat 50.00', formula: 'FIXED_AMOUNT', fixedAmount: '50.00' })
    }),
  ])
})
after(() => t.close())

/** The demo book without fixed payees (a fresh tenant has no insurers to pay). */
function book(effectiveDate: string, change: (b: Book) => void = () => {}): Book {
  const b = demoRateBook(effectiveDate)
  b.disbursementCodes = b.disbursementCodes.map(({ payee: _payee, ...c }) => c)
  change(b)
  return b
}

/** A book as written before the after-sale members: it has the default methods and reasons. */
function withoutAfterSale(b: Book) {
  b.disbursementCodes = b.disbursementCodes.map(({ earnings: _e, refundable: _r, ...c }) => c)
  for (const k of ['cancelMethods', 'cancelReasons', 'stateRules', 'earningsCurves'] as const) delete b[k]
  for (const p of b.products) {
    delete p.cancellation
    delete p.transfer
    for (const g of p.programs) for (const pl of g.plans) delete pl.claims
  }
}

async function world(name: string, books: Book[]): Promise<World> {
  const tenant = await createTenant(t, name)
  for (const b of books)
    await t.modules.rating.rateBooks.importBook(systemContext(tenant.tenantId), b, { dryRun: false })
  const items = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('rating_catalogue_item')
      .select(['id', 'kind', 'code'])
      .where('tenant_id', '=', tenant.tenantId)
      .execute(),
  )
  return {
    tenant,
    h: tenant.headers,
    id(kind, code) {
      const found = items.find((i) => i.kind === kind && i.code === code)
      assert.ok(found, `${kind} ${code}`)
      return Number(found.id)
    },
  }
}

const get = (headers: Headers, url: string) => t.app.inject({ method: 'GET', url, headers })
async function ok<T = Item[]>(headers: Headers, url: string, version?: string): Promise<T> {
  const res = await get(headers, url)
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
  if (version !== undefined) assert.equal(res.headers['x-rate-book-version'], version, url)
  return json<T>(res)
}
async function problem(headers: Headers, url: string, status: number, code: string): Promise<Problem> {
  const res = await get(headers, url)
  assert.equal(res.statusCode, status, `${url}: ${res.body}`)
  assert.match(String(res.headers['content-type']), /application\/problem\+json/)
  const body = json<Problem>(res)
  assert.equal(body.code, code, url)
  return body
}
const codes = (items: Item[]) => items.map((i) => i.code)

const DEMO_METHODS = [
  'PRO_RATA_DAYS',
  'PRO_RATA_MONTHS_NEAREST_15',
  'PRO_RATA_LESSER_TIME_MILES',
  'PRO_RATA_LESSER_MONTHS_MILES',
  'RULE_OF_78',
  'SHORT_RATE_90',
  'FLAT_100',
  'FULL',
]
const DEMO_REASONS = [
  'CUSTOMER_REQUEST',
  'TRADE_IN',
  'EARLY_PAYOFF',
  'GAP_REFINANCE',
  'REPOSSESSION',
  'TOTAL_LOSS',
  'SALE_UNWOUND',
]

describe('cancel methods', () => {
  test("v1 list: every method in the book's order, each field, windowed with X-Total-Count", async () => {
    const res = await get(w.h, '/api/cancelmethods')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-rate-book-version'], '1')
    assert.equal(res.headers['x-total-count'], '8')
    const methods = json<Item[]>(res)
    assert.deepEqual(codes(methods), DEMO_METHODS)
    const byCode = new Map(methods.map((m) => [m.code, m]))
    assert.deepEqual(byCode.get('PRO_RATA_LESSER_MONTHS_MILES'), {
      id: w.id('CANCEL_METHOD', 'PRO_RATA_LESSER_MONTHS_MILES'),
      code: 'PRO_RATA_LESSER_MONTHS_MILES',
      name: 'Pro rata, the lesser of months or miles',
      formula: 'PRO_RATA',
      calculation: 'PRO_RATA_LESSER_TIME_MILES',
      timeBasis: 'MONTHS',
      mileageBasis: true,
      milesCombination: 'LESSER',
      monthCounting: 'COMPLETED',
      shortRatePercent: null,
      fixedAmount: null,
    })
    assert.deepEqual(byCode.get('PRO_RATA_MONTHS_NEAREST_15'), {
      id: w.id('CANCEL_METHOD', 'PRO_RATA_MONTHS_NEAREST_15'),
      code: 'PRO_RATA_MONTHS_NEAREST_15',
      name: 'Pro rata by months (a month counts from its 15th day)',
      formula: 'PRO_RATA',
      calculation: 'PRO_RATA_MONTHS',
      timeBasis: 'MONTHS',
      mileageBasis: false,
      milesCombination: null,
      monthCounting: 'NEAREST_15',
      shortRatePercent: null,
      fixedAmount: null,
    })
    assert.deepEqual(byCode.get('SHORT_RATE_90'), {
      id: w.id('CANCEL_METHOD', 'SHORT_RATE_90'),
      code: 'SHORT_RATE_90',
      name: 'Short rate, 90 % of pro rata by days',
      formula: 'SHORT_RATE',
      calculation: 'SHORT_RATE',
      timeBasis: 'DAYS',
      mileageBasis: false,
      milesCombination: null,
      monthCounting: null,
      shortRatePercent: 90,
      fixedAmount: null,
    })
    assert.deepEqual(byCode.get('FLAT_100'), {
      id: w.id('CANCEL_METHOD', 'FLAT_100'),
      code: 'FLAT_100',
      name: 'A flat 100.00',
      formula: 'FIXED_AMOUNT',
      calculation: 'FIXED_AMOUNT',
      timeBasis: null,
      mileageBasis: false,
      milesCombination: null,
      monthCounting: null,
      shortRatePercent: null,
      fixedAmount: 100,
    })
    const window = await get(w.h, '/api/cancelmethods?limit=3&offset=2')
    assert.deepEqual(codes(json(window)), DEMO_METHODS.slice(2, 5))
    assert.equal(window.headers['x-total-count'], '8')
  })

  test('filters: formula family and exact calculation, any case', async () => {
    assert.deepEqual(codes(await ok(w.h, '/api/cancelmethods?formula=pro_rata')), [
      'PRO_RATA_DAYS',
      'PRO_RATA_MONTHS_NEAREST_15',
      'PRO_RATA_LESSER_TIME_MILES',
      'PRO_RATA_LESSER_MONTHS_MILES',
    ])
    assert.deepEqual(codes(await ok(w.h, '/api/cancelmethods?calculation=Pro_Rata_Lesser_Time_Miles')), [
      'PRO_RATA_LESSER_TIME_MILES',
      'PRO_RATA_LESSER_MONTHS_MILES',
    ])
    assert.deepEqual(codes(await ok(w.h, '/api/cancelmethods?formula=FIXED_AMOUNT')), ['FLAT_100'])
    assert.deepEqual(await ok(w.h, '/api/cancelmethods?formula=NONE'), [])
    const page = await ok<Page>(w.h, '/api/v2/cancelmethods?formula=pro_rata&calculation=pro_rata_days')
    assert.deepEqual(codes(page.items), ['PRO_RATA_DAYS'])
    const bad = await problem(w.h, '/api/cancelmethods?formula=PRO_RATA_DAYS&calculation=x', 400, 'validation_failed')
    assert.deepEqual(bad.errors!.map((e) => e.field).toSorted(), ['calculation', 'formula'])
  })

  test('v2 list: paged', async () => {
    const first = await ok<Page>(w.h, '/api/v2/cancelmethods', '1')
    assert.deepEqual(codes(first.items), DEMO_METHODS)
    assert.deepEqual(
      { ...first, items: undefined },
      { items: undefined, pageNumber: 1, pageSize: 100, totalCount: 8, totalPages: 1 },
    )
    const third = await ok<Page>(w.h, '/api/v2/cancelmethods?pageSize=3&pageNumber=3')
    assert.deepEqual(codes(third.items), DEMO_METHODS.slice(6))
    assert.deepEqual([third.pageNumber, third.pageSize, third.totalCount, third.totalPages], [3, 3, 8, 3])
    const beyond = await ok<Page>(w.h, '/api/v2/cancelmethods?pageSize=3&pageNumber=4')
    assert.deepEqual(beyond.items, [])
    assert.equal(beyond.totalCount, 8)
    await problem(w.h, '/api/v2/cancelmethods?pageSize=0', 400, 'validation_failed')
    await problem(w.h, '/api/v2/cancelmethods?limit=5', 400, 'validation_failed')
  })

  test('by id (v1), by id or code in any case (v2)', async () => {
    const id = w.id('CANCEL_METHOD', 'RULE_OF_78')
    const expected = {
      id,
      code: 'RULE_OF_78',
      name: 'Rule of 78',
      formula: 'RULE_OF_78',
      calculation: 'RULE_OF_78',
      timeBasis: 'MONTHS',
      mileageBasis: false,
      milesCombination: null,
      monthCounting: 'COMPLETED',
      shortRatePercent: null,
      fixedAmount: null,
      retired: false,
      lastVersion: null,
    }
    assert.deepEqual(await ok<Item>(w.h, `/api/cancelmethods/${id}`, '1'), expected)
    assert.deepEqual(await ok<Item>(w.h, `/api/v2/cancelmethods/${id}`, '1'), expected)
    assert.deepEqual(await ok<Item>(w.h, '/api/v2/cancelmethods/rule_of_78', '1'), expected)
    assert.deepEqual(await ok<Item>(w.h, '/api/v2/cancelmethods/Rule_Of_78'), expected)
    assert.equal((await ok<Item>(w.h, '/api/v2/cancelmethods/flat_100')).fixedAmount, 100)
  })
})

describe('cancel reasons', () => {
  test("v1 list: every reason in the book's order, each field", async () => {
    const res = await get(w.h, '/api/cancelreasons')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-rate-book-version'], '1')
    assert.equal(res.headers['x-total-count'], '7')
    const reasons = json<Item[]>(res)
    assert.deepEqual(codes(reasons), DEMO_REASONS)
    const byCode = new Map(reasons.map((m) => [m.code, m]))
    assert.deepEqual(byCode.get('GAP_REFINANCE'), {
      id: w.id('CANCEL_REASON', 'GAP_REFINANCE'),
      code: 'GAP_REFINANCE',
      name: 'Loan refinanced (GAP)',
      requiresPayoffDate: true,
      requiresDocuments: ['PAYOFF_LETTER'],
      forcesFullRefund: false,
      waivesFee: false,
      requestedBy: ['CUSTOMER', 'LIENHOLDER', 'ADMIN'],
      refundPayee: 'AUTO',
      productTypes: ['GAP'],
      endsGap: 'REFINANCE',
    })
    // A forced full refund waives the fee unless the book says otherwise.
    assert.deepEqual(byCode.get('SALE_UNWOUND'), {
      id: w.id('CANCEL_REASON', 'SALE_UNWOUND'),
      code: 'SALE_UNWOUND',
      name: 'Sale unwound',
      requiresPayoffDate: false,
      requiresDocuments: [],
      forcesFullRefund: true,
      waivesFee: true,
      requestedBy: ['DEALER', 'ADMIN'],
      refundPayee: 'DEALER',
      productTypes: null,
      endsGap: null,
    })
    assert.deepEqual(byCode.get('REPOSSESSION')!.refundPayee, 'LIENHOLDER')
  })

  test('filters: product type (reasons for every type included) and requester, any case', async () => {
    assert.deepEqual(codes(await ok(w.h, '/api/cancelreasons?productType=vsc')), [
      'CUSTOMER_REQUEST',
      'TRADE_IN',
      'EARLY_PAYOFF',
      'REPOSSESSION',
      'TOTAL_LOSS',
      'SALE_UNWOUND',
    ])
    assert.deepEqual(codes(await ok(w.h, '/api/cancelreasons?productType=Other')), [
      'CUSTOMER_REQUEST',
      'TRADE_IN',
      'EARLY_PAYOFF',
      'REPOSSESSION',
      'SALE_UNWOUND',
    ])
    assert.deepEqual(codes(await ok(w.h, '/api/cancelreasons?requestedBy=lienholder')), [
      'EARLY_PAYOFF',
      'GAP_REFINANCE',
      'REPOSSESSION',
      'TOTAL_LOSS',
    ])
    const page = await ok<Page>(w.h, '/api/v2/cancelreasons?productType=GAP&requestedBy=LienHolder')
    assert.deepEqual(codes(page.items), ['EARLY_PAYOFF', 'GAP_REFINANCE', 'REPOSSESSION', 'TOTAL_LOSS'])
    assert.equal(page.totalCount, 4)
    const bad = await problem(w.h, '/api/cancelreasons?productType=CAR&requestedBy=BANK', 400, 'validation_failed')
    assert.deepEqual(bad.errors!.map((e) => e.field).toSorted(), ['productType', 'requestedBy'])
  })

  test('v2 list paged; by id (v1), by id or code in any case (v2)', async () => {
    const page = await ok<Page>(w.h, '/api/v2/cancelreasons?pageSize=5&pageNumber=2', '1')
    assert.deepEqual(codes(page.items), DEMO_REASONS.slice(5))
    assert.deepEqual([page.pageNumber, page.pageSize, page.totalCount, page.totalPages], [2, 5, 7, 2])
    const id = w.id('CANCEL_REASON', 'EARLY_PAYOFF')
    const expected = {
      id,
      code: 'EARLY_PAYOFF',
      name: 'Loan paid off early',
      requiresPayoffDate: true,
      requiresDocuments: ['PAYOFF_LETTER'],
      forcesFullRefund: false,
      waivesFee: false,
      requestedBy: ['CUSTOMER', 'LIENHOLDER', 'ADMIN'],
      refundPayee: 'AUTO',
      productTypes: null,
      endsGap: 'PAYOFF',
      retired: false,
      lastVersion: null,
    }
    assert.deepEqual(await ok<Item>(w.h, `/api/cancelreasons/${id}`, '1'), expected)
    assert.deepEqual(await ok<Item>(w.h, `/api/v2/cancelreasons/${id}`), expected)
    assert.deepEqual(await ok<Item>(w.h, '/api/v2/cancelreasons/early_payoff'), expected)
    assert.deepEqual(await ok<Item>(w.h, '/api/v2/cancelreasons/Early_Payoff'), expected)
  })
})

describe('retired items and versions', () => {
  test('lists read the version in force; date and version choose another', async () => {
    const today = await ok(r.h, '/api/cancelmethods', '3')
    assert.deepEqual(
      codes(today),
      DEMO_METHODS.filter((c) => c !== 'FLAT_100'),
    )
    assert.deepEqual(codes(await ok(r.h, '/api/cancelmethods?date=2026-03-15', '2')), DEMO_METHODS)
    assert.deepEqual(codes(await ok(r.h, '/api/cancelmethods?date=2027-01-01', '4')), [...DEMO_METHODS, 'FUTURE_50'])
    const defaults = await ok(r.h, '/api/cancelmethods?version=1', '1')
    assert.deepEqual(codes(defaults), [
      'PRO_RATA_DAYS',
      'PRO_RATA_MONTHS',
      'PRO_RATA_MILES',
      'PRO_RATA_LESSER_TIME_MILES',
      'PRO_RATA_GREATER_TIME_MILES',
      'RULE_OF_78',
      'MEAN_PR_R78',
      'SHORT_RATE',
      'FULL',
      'NONE',
    ])
    // Codes shared by the defaults and the book's own list keep their ids.
    assert.equal(defaults[0]!.id, r.id('CANCEL_METHOD', 'PRO_RATA_DAYS'))
    assert.equal(codes(await ok<Page>(r.h, '/api/v2/cancelreasons?version=1', '1').then((p) => p.items)).length, 12)
    assert.deepEqual(
      codes(await ok(r.h, '/api/cancelreasons', '3')),
      DEMO_REASONS.filter((c) => c !== 'SALE_UNWOUND'),
    )
    await problem(r.h, '/api/cancelmethods?version=9', 404, 'rate_book_not_found')
    await problem(r.h, `/api/cancelmethods/${r.id('CANCEL_METHOD', 'FULL')}?version=9`, 404, 'rate_book_not_found')
    const both = await problem(r.h, '/api/v2/cancelreasons?version=1&date=2026-07-01', 400, 'validation_failed')
    assert.deepEqual(
      both.errors!.map((e) => [e.field, e.code]),
      [['version', 'conflict']],
    )
    await problem(r.h, '/api/cancelmethods?date=2026-02-30', 400, 'validation_failed')
  })

  test('a method or reason the version in force dropped stays readable by id, from the newest version that has it', async () => {
    const flat = r.id('CANCEL_METHOD', 'FLAT_100')
    const res = await get(r.h, `/api/cancelmethods/${flat}`)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['x-rate-book-version'], '2')
    assert.deepEqual(json(res), {
      id: flat,
      code: 'FLAT_100',
      name: 'A flat 100.00',
      formula: 'FIXED_AMOUNT',
      calculation: 'FIXED_AMOUNT',
      timeBasis: null,
      mileageBasis: false,
      milesCombination: null,
      monthCounting: null,
      shortRatePercent: null,
      fixedAmount: 100,
      retired: true,
      lastVersion: 2,
    })
    const byCode = await ok<Item>(r.h, '/api/v2/cancelmethods/flat_100', '2')
    assert.deepEqual([byCode.id, byCode.retired, byCode.lastVersion], [flat, true, 2])
    assert.deepEqual((await ok<Item>(r.h, `/api/v2/cancelmethods/${flat}`)).retired, true)
    // Read from a version that has it, it is not retired.
    const inV2 = await ok<Item>(r.h, `/api/cancelmethods/${flat}?version=2`, '2')
    assert.deepEqual([inV2.retired, inV2.lastVersion], [false, null])
    const inMarch = await ok<Item>(r.h, `/api/cancelmethods/${flat}?date=2026-03-31`, '2')
    assert.equal(inMarch.retired, false)
    // Version 1 had the defaults only: FLAT_100 came later.
    await problem(r.h, `/api/cancelmethods/${flat}?version=1`, 404, 'catalogue_item_not_found')

    // A default method, which versions 2 on replaced with the book's own, is read from version 1.
    const mean = r.id('CANCEL_METHOD', 'MEAN_PR_R78')
    const old = await get(r.h, `/api/v2/cancelmethods/Mean_PR_R78`)
    assert.equal(old.statusCode, 200, old.body)
    assert.equal(old.headers['x-rate-book-version'], '1')
    assert.deepEqual(json(old), {
      id: mean,
      code: 'MEAN_PR_R78',
      name: 'Mean of pro rata and Rule of 78',
      formula: 'MEAN_PR_R78',
      calculation: 'MEAN_PR_R78',
      timeBasis: 'MONTHS',
      mileageBasis: false,
      milesCombination: null,
      monthCounting: 'COMPLETED',
      shortRatePercent: null,
      fixedAmount: null,
      retired: true,
      lastVersion: 1,
    })
    assert.equal((await ok<Item>(r.h, `/api/cancelmethods/${mean}`)).lastVersion, 1)

    const unwound = r.id('CANCEL_REASON', 'SALE_UNWOUND')
    const reason = await ok<Item>(r.h, `/api/cancelreasons/${unwound}`, '2')
    assert.deepEqual(
      [reason.code, reason.forcesFullRefund, reason.retired, reason.lastVersion],
      ['SALE_UNWOUND', true, true, 2],
    )
    assert.equal((await ok<Item>(r.h, '/api/v2/cancelreasons/sale_unwound')).id, unwound)
    const sold = await ok<Item>(r.h, '/api/v2/cancelreasons/VEHICLE_SOLD', '1')
    assert.deepEqual(sold, {
      id: r.id('CANCEL_REASON', 'VEHICLE_SOLD'),
      code: 'VEHICLE_SOLD',
      name: 'Vehicle sold',
      requiresPayoffDate: false,
      requiresDocuments: ['ODOMETER_STATEMENT'],
      forcesFullRefund: false,
      waivesFee: false,
      requestedBy: ['CUSTOMER', 'DEALER', 'LIENHOLDER', 'ADMIN'],
      refundPayee: 'AUTO',
      productTypes: null,
      endsGap: 'SALE',
      retired: true,
      lastVersion: 1,
    })
  })

  test('an item only a later version has is not found until that version is in force', async () => {
    const future = r.id('CANCEL_METHOD', 'FUTURE_50')
    await problem(r.h, `/api/cancelmethods/${future}`, 404, 'catalogue_item_not_found')
    await problem(r.h, '/api/v2/cancelmethods/future_50', 404, 'catalogue_item_not_found')
    const then = await ok<Item>(r.h, `/api/cancelmethods/${future}?date=2027-01-01`, '4')
    assert.deepEqual([then.code, then.fixedAmount, then.retired], ['FUTURE_50', 50, false])
    assert.equal((await ok<Item>(r.h, '/api/v2/cancelmethods/future_50?version=4')).id, future)
  })

  test('no book in force: lists are empty, by id 404 rate_book_not_found', async () => {
    const earlier = '?date=2025-12-31'
    for (const path of ['cancelmethods', 'cancelreasons']) {
      const res = await get(r.h, `/api/${path}${earlier}`)
      assert.equal(res.statusCode, 200, path)
      assert.deepEqual(json(res), [])
      assert.equal(res.headers['x-total-count'], '0')
      assert.equal(res.headers['x-rate-book-version'], undefined)
      assert.deepEqual(await ok(r.h, `/api/v2/${path}${earlier}`), {
        items: [],
        pageNumber: 1,
        pageSize: 100,
        totalCount: 0,
        totalPages: 0,
      })
    }
    await problem(r.h, `/api/cancelmethods/${r.id('CANCEL_METHOD', 'FULL')}${earlier}`, 404, 'rate_book_not_found')
    await problem(r.h, `/api/v2/cancelreasons/death${earlier}`, 404, 'rate_book_not_found')
  })
})

describe('not found, tenancy and credentials', () => {
  test('unknown ids and codes, ids of another kind: 404 catalogue_item_not_found', async () => {
    for (const url of [
      '/api/cancelmethods/987654321',
      '/api/cancelmethods/99999999999999999999',
      `/api/cancelmethods/${w.id('PRODUCT', 'VSC')}`,
      `/api/cancelmethods/${w.id('CANCEL_REASON', 'TRADE_IN')}`,
      `/api/v2/cancelmethods/${w.id('CANCEL_REASON', 'TRADE_IN')}`,
      '/api/v2/cancelmethods/TRADE_IN',
      '/api/v2/cancelmethods/no_such_method',
      '/api/v2/cancelmethods/98765432109876543',
      '/api/cancelreasons/987654321',
      `/api/cancelreasons/${w.id('CANCEL_METHOD', 'FULL')}`,
      `/api/cancelreasons/${w.id('PLAN', 'PLAT-NEW')}`,
      '/api/v2/cancelreasons/FULL',
      `/api/v2/cancelreasons/${w.id('CANCEL_METHOD', 'FULL')}`,
    ])
      await problem(w.h, url, 404, 'catalogue_item_not_found')
    for (const url of ['/api/v2/cancelmethods/a%20b', '/api/v2/cancelreasons/-x', '/api/cancelmethods/abc'])
      await problem(w.h, url, 400, 'validation_failed')
  })

  test("another tenant's ids and codes name nothing here", async () => {
    const other = await createTenant(t, 'Cancel other')
    const h = other.headers
    assert.deepEqual(await ok(h, '/api/cancelmethods'), [])
    assert.deepEqual((await ok<Page>(h, '/api/v2/cancelreasons')).items, [])
    await problem(h, `/api/cancelmethods/${w.id('CANCEL_METHOD', 'FULL')}`, 404, 'rate_book_not_found')
    await t.modules.rating.rateBooks.importBook(systemContext(other.tenantId), book('2026-01-01'), { dryRun: false })
    assert.equal((await ok(h, '/api/cancelmethods')).length, 8)
    // Its own ids differ; the first tenant's, current or retired, are unknown to it.
    assert.notEqual((await ok<Item>(h, '/api/v2/cancelmethods/full')).id, w.id('CANCEL_METHOD', 'FULL'))
    await problem(h, `/api/cancelmethods/${w.id('CANCEL_METHOD', 'FULL')}`, 404, 'catalogue_item_not_found')
    await problem(h, `/api/v2/cancelmethods/${w.id('CANCEL_METHOD', 'FULL')}`, 404, 'catalogue_item_not_found')
    await problem(h, `/api/cancelmethods/${r.id('CANCEL_METHOD', 'MEAN_PR_R78')}`, 404, 'catalogue_item_not_found')
    await problem(h, `/api/cancelreasons/${r.id('CANCEL_REASON', 'VEHICLE_SOLD')}`, 404, 'catalogue_item_not_found')
    await problem(h, '/api/v2/cancelreasons/vehicle_sold', 404, 'catalogue_item_not_found')
  })

  test('401 without credentials; 403 without rates:read; any role with it reads', async () => {
    const nobody = await createUserWithRoles(t, w.tenant, [])
    const reader = await createUserWithRoles(t, w.tenant, ['READ_ONLY'])
    for (const url of [
      '/api/cancelmethods',
      `/api/cancelmethods/${w.id('CANCEL_METHOD', 'FULL')}`,
      '/api/v2/cancelmethods',
      '/api/v2/cancelmethods/full',
      '/api/cancelreasons',
      `/api/cancelreasons/${w.id('CANCEL_REASON', 'TRADE_IN')}`,
      '/api/v2/cancelreasons',
      '/api/v2/cancelreasons/trade_in',
    ]) {
      const none = await t.app.inject({ method: 'GET', url })
      assert.equal(none.statusCode, 401, url)
      const keyOnly = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': w.tenant.apiKey } })
      assert.equal(keyOnly.statusCode, 401, url)
      const denied = await get(nobody.headers, url)
      assert.equal(denied.statusCode, 403, url)
      assert.equal(json(denied).code, 'permission_denied')
      assert.equal((await get(reader.headers, url)).statusCode, 200, url)
    }
  })
})
