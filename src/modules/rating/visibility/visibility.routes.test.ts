// Dealer rate visibility through HTTP: PUT replacing a dealer's set (ETag/If-Match, audited), the
// two GETs, every 4xx, dealer-side visibility, and forQuote's cache kept true across instances.
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
import { demoRateBook } from '../index.ts'

let t: TestApp

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
})
after(() => t.close())

type Headers = Record<string, string>
type Entry = {
  dealerId: number
  productId: number
  programId: number | null
  planId: number | null
  maxMarkupAmount: number | null
  maxMarkupPercent: number | null
}
type Problem = { status: number; code: string; errors?: Array<{ field: string; code: string; message: string }> }

const fields = (res: { json(): unknown }) => ((res.json() as Problem).errors ?? []).map((e) => [e.field, e.code])

let seq = 0

type World = {
  tenant: TestTenant
  item(kind: string, code: string): number
  dealer: number
  otherDealer: number
  agent: number
}

async function create(tenant: TestTenant, path: string, payload: Record<string, unknown>): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: tenant.headers, payload })
  assert.equal(res.statusCode, 201, `${path}: ${res.body}`)
  return json<{ id: number }>(res).id
}

async function world(): Promise<World> {
  const tenant = await createTenant(t, 'Rate visibility')
  const book = demoRateBook('2026-01-01')
  const imported = await t.app.inject({
    method: 'POST',
    url: '/api/Rates/ratebooks',
    headers: tenant.headers,
    payload: { ...book, disbursementCodes: book.disbursementCodes.map(({ payee: _payee, ...c }) => c) },
  })
  assert.equal(imported.statusCode, 201, imported.body)
  const items = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('rating_catalogue_item')
      .select(['id', 'kind', 'code'])
      .where('tenant_id', '=', tenant.tenantId)
      .execute(),
  )
  seq += 1
  return {
    tenant,
    dealer: await create(tenant, '/api/dealers', { dealerNumber: `V${seq}`, legalName: 'Dealer' }),
    otherDealer: await create(tenant, '/api/dealers', { dealerNumber: `W${seq}`, legalName: 'Other dealer' }),
    agent: await create(tenant, '/api/agents', { agentCode: `AG${seq}`, legalName: 'Agent' }),
    item(kind, code) {
      const found = items.find((i) => i.kind === kind && i.code === code)
      assert.ok(found, `${kind} ${code}`)
      return found.id
    },
  }
}

const url = (dealerId: number | string) => `/api/dealers/${dealerId}/ratevisibilities`
const getOne = (headers: Headers, dealerId: number | string) =>
  t.app.inject({ method: 'GET', url: url(dealerId), headers })
const getAll = (headers: Headers, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/dealers/ratevisibilities${query}`, headers })
const put = (headers: Headers, dealerId: number | string, body: unknown, extra: Headers = {}) =>
  t.app.inject({
    method: 'PUT',
    url: url(dealerId),
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    payload: JSON.stringify(body),
  })

describe('dealer rate visibility', () => {
  test('a dealer starts with nothing; PUT replaces the whole set; both GETs read it; every change is audited', async () => {
    const w = await world()
    const h = w.tenant.headers
    const vsc = w.item('PRODUCT', 'VSC')
    const gap = w.item('PRODUCT', 'GAP')
    const plat = w.item('PROGRAM', 'PLAT')
    const platUsed = w.item('PLAN', 'PLAT-USED')

    const initial = await getOne(h, w.dealer)
    assert.equal(initial.statusCode, 200)
    assert.deepEqual(json(initial), [])
    assert.equal(initial.headers.etag, '"0"')

    const first = await put(
      h,
      w.dealer,
      [
        { productId: gap, maxMarkupPercent: '12.5000' },
        { productId: vsc, programId: plat, planId: platUsed, maxMarkupAmount: 400.1, maxMarkupPercent: null },
      ],
      { 'if-match': '"0"' },
    )
    assert.equal(first.statusCode, 200, first.body)
    assert.equal(first.headers.etag, '"1"')
    const expected: Entry[] = [
      {
        dealerId: w.dealer,
        productId: vsc,
        programId: plat,
        planId: platUsed,
        maxMarkupAmount: 400.1,
        maxMarkupPercent: null,
      },
      {
        dealerId: w.dealer,
        productId: gap,
        programId: null,
        planId: null,
        maxMarkupAmount: null,
        maxMarkupPercent: 12.5,
      },
    ].toSorted((a, b) => a.productId - b.productId)
    assert.deepEqual(json(first), expected)
    // Numbers and decimal strings in, JSON numbers out (in the reply text itself).
    assert.match(first.body, /"maxMarkupAmount":400\.1,"maxMarkupPercent":null/)
    assert.match(first.body, /"maxMarkupAmount":null,"maxMarkupPercent":12\.5\}/)
    const read = await getOne(h, w.dealer)
    assert.deepEqual(json(read), expected)
    assert.equal(read.headers.etag, '"1"')

    await put(h, w.otherDealer, [{ productId: vsc }])
    const all = await getAll(h)
    assert.equal(all.statusCode, 200)
    assert.equal(all.headers['x-total-count'], '3')
    assert.deepEqual(
      json<Entry[]>(all).map((e) => e.dealerId),
      [w.dealer, w.dealer, w.otherDealer],
    )
    assert.deepEqual(
      json<Entry[]>(await getAll(h, `?productId=${vsc}`)).map((e) => e.dealerId),
      [w.dealer, w.otherDealer],
    )
    assert.deepEqual(
      json<Entry[]>(await getAll(h, `?dealerId=${w.otherDealer}`)).map((e) => e.productId),
      [vsc],
    )
    const page = await getAll(h, '?limit=1&offset=2')
    assert.deepEqual(
      [json<Entry[]>(page).map((e) => e.dealerId), page.headers['x-total-count']],
      [[w.otherDealer], '3'],
    )
    assert.deepEqual(json(await getAll(h, '?dealerId=99999999999999999999')), [])

    const stale = await put(h, w.dealer, [], { 'if-match': '"0"' })
    assert.equal(stale.statusCode, 412)
    assert.equal(json<Problem>(stale).code, 'precondition_failed')

    const cleared = await put(h, w.dealer, [], { 'if-match': '"1"' })
    assert.equal(cleared.statusCode, 200, cleared.body)
    assert.deepEqual(json(cleared), [])
    assert.equal(cleared.headers.etag, '"2"')
    // Case-insensitive paths.
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/API/Dealers/${w.dealer}/RateVisibilities`, headers: h })).headers
        .etag,
      '"2"',
    )

    const audit = await t.db.read(w.tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'actor_label', 'changes'])
        .where('tenant_id', '=', w.tenant.tenantId)
        .where('entity_type', '=', 'dealer_rate_visibility')
        .where('entity_id', '=', String(w.dealer))
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => a.action),
      ['dealer_rate_visibility.replaced', 'dealer_rate_visibility.replaced'],
    )
    assert.equal(audit[0]!.actor_label, w.tenant.adminEmail)
    const changes = audit[1]!.changes as { version: number; before: unknown[]; after: unknown[] }
    assert.deepEqual([changes.version, changes.before.length, changes.after.length], [2, 2, 0])
  })

  test('400 names every bad item field; 422 every unknown or wrongly-kinded catalogue id', async () => {
    const w = await world()
    const h = w.tenant.headers
    const vsc = w.item('PRODUCT', 'VSC')
    const bad = await put(h, w.dealer, [
      { productId: 'VSC' },
      { productId: vsc, maxMarkupAmount: -1, colour: 'red' },
      { programId: 3 },
      { productId: vsc, maxMarkupPercent: '1.23456' },
      { productId: vsc, programId: null },
      // Over the schema's maxLength and too precise: the rule's more specific error replaces the schema's.
      { productId: vsc, planId: 7, maxMarkupAmount: '1.000000000000000000001' },
    ])
    assert.equal(bad.statusCode, 400, bad.body)
    assert.equal(json<Problem>(bad).code, 'validation_failed')
    assert.deepEqual(
      fields(bad).toSorted(),
      [
        ['[0].productId', 'invalid_type'],
        ['[1].colour', 'unknown_field'],
        ['[1].maxMarkupAmount', 'out_of_range'],
        ['[2].productId', 'required'],
        ['[3].maxMarkupPercent', 'too_precise'],
        ['[3]', 'conflict'],
        ['[4]', 'conflict'],
        ['[5].maxMarkupAmount', 'too_precise'],
      ].toSorted(),
    )
    assert.equal((await put(h, w.dealer, { productId: vsc })).statusCode, 400)
    assert.equal(
      (
        await put(
          h,
          w.dealer,
          Array.from({ length: 1001 }, () => ({ productId: vsc })),
        )
      ).statusCode,
      400,
    )

    const other = await world()
    const refs = await put(h, w.dealer, [
      { productId: w.item('PLAN', 'PLAT-USED') },
      { productId: other.item('PRODUCT', 'GAP') },
      { productId: vsc, programId: w.item('PLAN', 'GOLD-USED'), planId: 99_999_999_999 },
    ])
    assert.equal(refs.statusCode, 422, refs.body)
    assert.equal(json<Problem>(refs).code, 'unknown_reference')
    assert.deepEqual(fields(refs), [
      ['[0].productId', 'unknown_reference'],
      ['[1].productId', 'unknown_reference'],
      ['[2].programId', 'unknown_reference'],
      ['[2].planId', 'unknown_reference'],
    ])
    // Nothing was written.
    assert.equal((await getOne(h, w.dealer)).headers.etag, '"0"')
  })

  test('404 for anything but a visible dealer of the tenant; 403 without the permission', async () => {
    const a = await world()
    const b = await world()
    const vsc = a.item('PRODUCT', 'VSC')
    for (const id of [b.dealer, a.agent, 0, '99999999999999999999']) {
      for (const res of [await getOne(a.tenant.headers, id), await put(a.tenant.headers, id, [])]) {
        assert.equal(res.statusCode, 404, `${id}: ${res.body}`)
        assert.equal(json<Problem>(res).code, 'account_holder_not_found')
      }
    }
    // Another tenant's entries are not listed.
    await put(b.tenant.headers, b.dealer, [{ productId: b.item('PRODUCT', 'VSC') }])
    assert.deepEqual(json(await getAll(a.tenant.headers)), [])

    const reader = await createUserWithRoles(t, a.tenant, ['READ_ONLY'])
    assert.equal((await getOne(reader.headers, a.dealer)).statusCode, 200)
    assert.equal((await getAll(reader.headers)).statusCode, 200)
    const refused = await put(reader.headers, a.dealer, [{ productId: vsc }])
    assert.equal(refused.statusCode, 403)
    assert.equal(json<Problem>(refused).code, 'permission_denied')
    const nobody = await createUserWithRoles(t, a.tenant, [])
    assert.equal((await getOne(nobody.headers, a.dealer)).statusCode, 403)
    assert.equal((await getAll(nobody.headers)).statusCode, 403)

    // Dealer-side users see their own dealers only.
    await put(a.tenant.headers, a.dealer, [{ productId: vsc }])
    await put(a.tenant.headers, a.otherDealer, [{ productId: vsc }])
    const portal = await t.app.inject({
      method: 'POST',
      url: '/api/portalvisibilitygroups',
      headers: a.tenant.headers,
      payload: { code: `PV${++seq}`, name: 'Portal', dealerIds: [a.dealer] },
    })
    assert.equal(portal.statusCode, 201, portal.body)
    const dealerUser = await createUserWithRoles(t, a.tenant, ['DEALER_USER'], {
      groups: [{ id: json<{ id: number }>(portal).id }],
    })
    assert.equal((await getOne(dealerUser.headers, a.dealer)).statusCode, 200)
    assert.equal((await getOne(dealerUser.headers, a.otherDealer)).statusCode, 404)
    assert.deepEqual(
      json<Entry[]>(await getAll(dealerUser.headers)).map((e) => e.dealerId),
      [a.dealer],
    )
    const groupless = await createUserWithRoles(t, a.tenant, ['DEALER_USER'], { groups: [] })
    assert.deepEqual(json(await getAll(groupless.headers)), [])
  })

  test("forQuote: the dealer's entries from memory, dropped on every instance by each PUT", async () => {
    const w = await world()
    const h = w.tenant.headers
    // t.modules is a second instance over the same database and bus, as another process would be.
    const quote = t.modules.rating.rateVisibility
    assert.deepEqual(await quote.forQuote(w.tenant.tenantId, w.dealer), [])
    const vsc = w.item('PRODUCT', 'VSC')
    assert.equal((await put(h, w.dealer, [{ productId: vsc, maxMarkupAmount: 250 }])).statusCode, 200)
    assert.deepEqual(await quote.forQuote(w.tenant.tenantId, w.dealer), [
      { productId: vsc, programId: null, planId: null, maxMarkupAmount: '250.00', maxMarkupPercent: null },
    ])
    // Served from memory: a change behind the service's back is not seen, one through the API is.
    await t.db.transaction(w.tenant.tenantId, (tx) =>
      tx
        .deleteFrom('dealer_rate_visibility')
        .where('tenant_id', '=', w.tenant.tenantId)
        .where('dealer_id', '=', w.dealer)
        .execute(),
    )
    assert.equal((await quote.forQuote(w.tenant.tenantId, w.dealer)).length, 1)
    assert.equal(
      (await put(h, w.dealer, [{ productId: vsc, maxMarkupAmount: 300 }, { productId: w.item('PRODUCT', 'GAP') }]))
        .statusCode,
      200,
    )
    const now = await quote.forQuote(w.tenant.tenantId, w.dealer)
    assert.deepEqual(
      now.map((e) => e.maxMarkupAmount),
      ['300.00', null],
    )
    assert.throws(() => {
      ;(now[0] as { maxMarkupAmount: string | null }).maxMarkupAmount = '0'
    })
    assert.deepEqual(await quote.forQuote(w.tenant.tenantId, w.otherDealer), [])
    assert.deepEqual(await quote.forQuote(w.tenant.tenantId, -5), [])
  })
})
