// Portal visibility groups through HTTP: create → read (id, code) → dealers → list with filters;
// the bulk update (all or nothing, errors by index); delete rules; duplicates; bad references and
// input; permissions; another tenant's ids. Dealer-side visibility end to end: test/dealer-visibility.test.ts.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  groupIdByCode,
  json,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'

type Group = {
  id: number
  code: string
  name: string
  description: string
  dealerIds: number[]
  dealerCount: number
  userCount: number
  createdAt: string
}
type Dealer = {
  id: number
  dealerNumber: string
  legalName: string
  displayName: string
  status: string
  isActive: boolean
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

const BASE = '/api/portalvisibilitygroups'

let t: TestApp
let tenant: TestTenant
let other: TestTenant
let seq = 0

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
  tenant = await createTenant(t, 'Portal groups')
  other = await createTenant(t, 'Other portal groups')
})
after(() => t.close())

const get = (url: string, headers = tenant.headers) => t.app.inject({ method: 'GET', url, headers })
const post = (payload: unknown, headers = tenant.headers) =>
  t.app.inject({ method: 'POST', url: BASE, headers, payload: payload as Record<string, unknown> })
const patch = (payload: unknown, headers: Record<string, string> = tenant.headers) =>
  t.app.inject({
    method: 'PATCH',
    url: BASE,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  })
const del = (id: number, headers: Record<string, string> = tenant.headers) =>
  t.app.inject({ method: 'DELETE', url: `${BASE}/${id}`, headers })

const code = (prefix = 'PG') => `${prefix}-${++seq}`

async function dealer(who: TestTenant = tenant, extra: Record<string, unknown> = {}): Promise<number> {
  const n = ++seq
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dealers',
    headers: who.headers,
    payload: { dealerNumber: `D${n}`, legalName: `Dealer ${n} LLC`, ...extra },
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

async function group(body: Record<string, unknown> = {}, who: TestTenant = tenant): Promise<Group> {
  const res = await post({ code: code(), name: `Group ${seq}`, ...body }, who.headers)
  assert.equal(res.statusCode, 201, res.body)
  return json<Group>(res)
}

describe('create → read → dealers → list', () => {
  test('creates a group and reads it by id and by code', async () => {
    const [d1, d2] = [await dealer(), await dealer()]
    const c = code('Lone.Star')
    const res = await post({ code: c, name: '  Lone Star dealers ', description: 'Texas', dealerIds: [d2, d1] })
    assert.equal(res.statusCode, 201, res.body)
    const g = json<Group>(res)
    assert.equal(res.headers.location, `${BASE}/${g.id}`)
    assert.match(String(res.headers.etag), /^"[\w-]{27}"$/)
    assert.deepEqual(
      { ...g, id: 0, createdAt: '' },
      {
        id: 0,
        code: c,
        name: 'Lone Star dealers',
        description: 'Texas',
        dealerIds: [d1, d2],
        dealerCount: 2,
        userCount: 0,
        createdAt: '',
      },
    )

    const byId = await get(`${BASE}/${g.id}`)
    assert.equal(byId.statusCode, 200)
    assert.deepEqual(json(byId), g)
    assert.equal(byId.headers.etag, res.headers.etag)
    const byCode = await get(`${BASE}/code/${c}`)
    assert.equal(byCode.statusCode, 200)
    assert.deepEqual(json(byCode), g)
    // Codes are case-sensitive, like every membership group code.
    assert.equal((await get(`${BASE}/code/${c.toLowerCase()}`)).statusCode, 404)

    // A portal visibility group is a membership group of kind DEALER.
    const membership = json<{ kind: string; accountHolderIds: number[] }>(await get(`/api/MembershipGroups/${g.id}`))
    assert.equal(membership.kind, 'DEALER')
    assert.deepEqual(membership.accountHolderIds, [d1, d2])
  })

  test('dealers of a group: summaries, ordered, paged, by id and by code', async () => {
    const ids = [await dealer(), await dealer(), await dealer()]
    const g = await group({ dealerIds: ids })
    for (const url of [`${BASE}/${g.id}/dealers`, `${BASE}/code/${g.code}/dealers`]) {
      const all = await get(url)
      assert.equal(all.statusCode, 200, all.body)
      assert.equal(all.headers['x-total-count'], '3')
      const dealers = json<Dealer[]>(all)
      assert.deepEqual(
        dealers.map((d) => d.id),
        ids,
      )
      assert.deepEqual(Object.keys(dealers[0]!).toSorted(), [
        'dealerNumber',
        'displayName',
        'id',
        'isActive',
        'legalName',
        'status',
      ])
      assert.equal(dealers[0]!.isActive, true)
      const page = await get(`${url}?limit=1&offset=1`)
      assert.deepEqual(
        json<Dealer[]>(page).map((d) => d.id),
        [ids[1]],
      )
      assert.equal(page.headers['x-total-count'], '3')
    }
    const empty = await group()
    assert.deepEqual(json(await get(`${BASE}/${empty.id}/dealers`)), [])
  })

  test('list: ordered by id, filtered by name and dealer, bounded, total in X-Total-Count; staff groups are not listed', async () => {
    const d = await dealer()
    const a = await group({ name: 'Gulf Coast 100%', dealerIds: [d] })
    const b = await group({ name: 'Gulf Coast north' })
    const all = json<Group[]>(await get(`${BASE}?limit=1000`))
    assert.deepEqual(
      all.map((g) => g.id),
      all.map((g) => g.id).toSorted((x, y) => x - y),
    )
    assert.ok(!all.some((g) => g.code === 'STAFF'))
    assert.deepEqual(
      json<Group[]>(await get(`${BASE}?name=gulf%20coast`)).map((g) => g.id),
      [a.id, b.id],
    )
    assert.deepEqual(
      json<Group[]>(await get(`${BASE}?name=100%25`)).map((g) => g.id),
      [a.id],
    )
    assert.deepEqual(
      json<Group[]>(await get(`${BASE}?dealerId=${d}`)).map((g) => g.id),
      [a.id],
    )
    const page = await get(`${BASE}?limit=1`)
    assert.equal(json<Group[]>(page).length, 1)
    assert.equal(page.headers['x-total-count'], String(all.length))
    assert.equal((await get(`${BASE}?limit=1001`)).statusCode, 400)
  })

  test('a STAFF membership group is not a portal visibility group', async () => {
    const staff = await groupIdByCode(t, tenant, 'STAFF')
    assert.equal((await get(`${BASE}/${staff}`)).statusCode, 404)
    assert.equal((await get(`${BASE}/code/STAFF`)).statusCode, 404)
    assert.equal((await del(staff)).statusCode, 404)
  })
})

describe('create: duplicates, references, input', () => {
  test('a code already used by any membership group → 409', async () => {
    const g = await group()
    for (const taken of [g.code, 'STAFF']) {
      const res = await post({ code: taken, name: 'Again' })
      assert.equal(res.statusCode, 409)
      assert.equal(json<Problem>(res).code, 'portal_visibility_group_code_taken')
      assert.deepEqual(
        json<Problem>(res).errors?.map((e) => e.field),
        ['code'],
      )
    }
    // Another tenant may use the same code.
    assert.equal((await post({ code: g.code, name: 'Theirs' }, other.headers)).statusCode, 201)
  })

  test('dealer ids that are not dealers of the tenant → 422 naming each', async () => {
    const d = await dealer()
    const theirs = await dealer(other)
    const insurer = json<{ id: number }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/insurers',
        headers: tenant.headers,
        payload: { insurerCode: code('INS'), legalName: 'Insurer' },
      }),
    ).id
    const res = await post({ code: code(), name: 'Bad', dealerIds: [d, 999999999, theirs, insurer, 1e20] })
    assert.equal(res.statusCode, 422, res.body)
    const body = json<Problem>(res)
    assert.equal(body.code, 'unknown_reference')
    assert.deepEqual(
      body.errors?.map((e) => e.field),
      ['dealerIds[1]', 'dealerIds[2]', 'dealerIds[3]', 'dealerIds[4]'],
    )
  })

  test('bad input → 400 listing every field; nothing saved', async () => {
    const res = await post({ code: 'has space', name: '', dealerIds: [1, 1, 'x'], extra: true })
    assert.equal(res.statusCode, 400)
    const fields = json<Problem>(res).errors?.map((e) => e.field) ?? []
    for (const f of ['code', 'name', 'extra']) assert.ok(fields.includes(f), `${f} in ${fields.join(', ')}`)
    assert.equal((await post({ name: 'No code' })).statusCode, 400)
    for (const bad of [{ name: '   ' }, { name: 'a\u0000b' }, { name: 'ok', description: 'x\u0000' }]) {
      assert.equal((await post({ code: code(), ...bad })).statusCode, 400, JSON.stringify(bad))
    }
    assert.equal((await get(`${BASE}/code/%00`)).statusCode, 400)
    assert.equal((await get(`${BASE}/code/has%20space`)).statusCode, 404)
  })
})

describe('PATCH /api/portalvisibilitygroups (bulk)', () => {
  test('renames, describes, adds, removes and replaces dealers in one request; selects by id or code', async () => {
    const [d1, d2, d3, d4] = [await dealer(), await dealer(), await dealer(), await dealer()]
    const a = await group({ dealerIds: [d1, d2] })
    const b = await group({ dealerIds: [d3] })
    const newCode = code('RENAMED')
    const res = await patch([
      { code: a.code, name: 'Alpha', addDealerIds: [d3, d1], removeDealerIds: [d2, d4] },
      { id: b.id, code: newCode, description: 'Bravo', dealerIds: [d4, d1] },
    ])
    assert.equal(res.statusCode, 200, res.body)
    const [ra, rb] = json<Group[]>(res)
    assert.deepEqual([ra!.id, ra!.name, ra!.code, ra!.dealerIds], [a.id, 'Alpha', a.code, [d1, d3]])
    assert.deepEqual(
      [rb!.id, rb!.code, rb!.description, rb!.dealerIds, rb!.name],
      [b.id, newCode, 'Bravo', [d1, d4], b.name],
    )
    assert.deepEqual(json(await get(`${BASE}/code/${newCode}`)), rb)
    assert.equal((await get(`${BASE}/code/${b.code}`)).statusCode, 404)

    const audit = await t.db.read(tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'entity_id', 'changes'])
        .where('tenant_id', '=', tenant.tenantId)
        .where('action', '=', 'portal_visibility_group.updated')
        .where('entity_id', '=', String(a.id))
        .execute(),
    )
    assert.equal(audit.length, 1)
    assert.deepEqual((audit[0]!.changes as { addedDealerIds: number[]; removedDealerIds: number[] }).addedDealerIds, [
      d3,
    ])
    assert.deepEqual((audit[0]!.changes as { removedDealerIds: number[] }).removedDealerIds, [d2])
  })

  test('one bad item → nothing changes; every error named by item index', async () => {
    const d = await dealer()
    const a = await group({ name: 'Untouched A' })
    const b = await group({ name: 'Untouched B', dealerIds: [d] })
    const res = await patch([
      { id: a.id, name: 'Changed', addDealerIds: [d] },
      { id: b.id, removeDealerIds: [d], addDealerIds: [123456789] },
      { code: 'NO-SUCH-GROUP', name: 'x' },
      { id: 1e20 },
    ])
    assert.equal(res.statusCode, 422, res.body)
    const body = json<Problem>(res)
    assert.equal(body.code, 'unknown_reference')
    assert.deepEqual(body.errors?.map((e) => e.field).toSorted(), ['[1].addDealerIds[0]', '[2].code', '[3].id'])
    assert.deepEqual(json(await get(`${BASE}/${a.id}`)), a)
    assert.deepEqual(json(await get(`${BASE}/${b.id}`)), b)
  })

  test('item rules: id or code, dealerIds not with add/remove, add and remove apart, one item per group → 422', async () => {
    const d = await dealer()
    const a = await group()
    const b = await group()
    const res = await patch([
      { name: 'no selector' },
      { id: a.id, dealerIds: [d], addDealerIds: [d] },
      { id: b.id, addDealerIds: [d], removeDealerIds: [d] },
      { code: a.code, name: 'same group again' },
    ])
    assert.equal(res.statusCode, 422, res.body)
    const body = json<Problem>(res)
    assert.equal(body.code, 'portal_visibility_bulk_update_invalid')
    assert.deepEqual(body.errors?.map((e) => `${e.field} ${e.code}`).toSorted(), [
      '[0].id required',
      '[1].dealerIds invalid_value',
      '[2].removeDealerIds[0] invalid_value',
      '[3].code invalid_value',
    ])
    assert.deepEqual(json(await get(`${BASE}/${a.id}`)), a)
  })

  test('a new code already used (or given twice) is refused; nothing changes', async () => {
    const a = await group()
    const b = await group()
    const c = await group()
    const taken = await patch([{ id: a.id, code: b.code }])
    assert.equal(taken.statusCode, 409)
    assert.equal(json<Problem>(taken).code, 'portal_visibility_group_code_taken')
    assert.deepEqual(
      json<Problem>(taken).errors?.map((e) => e.field),
      ['[0].code'],
    )
    const twice = await patch([
      { id: a.id, code: 'SAME-NEW' },
      { id: c.id, code: 'SAME-NEW' },
    ])
    assert.equal(twice.statusCode, 422)
    assert.deepEqual(
      json<Problem>(twice).errors?.map((e) => e.field),
      ['[1].code'],
    )
    assert.deepEqual(json(await get(`${BASE}/${a.id}`)), a)
    assert.equal((await get(`${BASE}/code/SAME-NEW`)).statusCode, 404)
  })

  test('the body is this bulk format: JSON Patch media type → 415, empty or malformed → 400', async () => {
    const a = await group()
    const jsonPatch = await t.app.inject({
      method: 'PATCH',
      url: BASE,
      headers: { ...tenant.headers, 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify([{ op: 'replace', path: '/0/name', value: 'x' }]),
    })
    assert.equal(jsonPatch.statusCode, 415)
    assert.equal((await patch([])).statusCode, 400)
    assert.equal((await patch({ id: a.id, name: 'not an array' })).statusCode, 400)
    const unknown = await patch([{ id: a.id, colour: 'red' }])
    assert.equal(unknown.statusCode, 400)
    assert.deepEqual(
      json<Problem>(unknown).errors?.map((e) => e.field),
      ['[0].colour'],
    )
  })
})

describe('DELETE /api/portalvisibilitygroups/{id}', () => {
  test('refused while users remain; If-Match honoured; then deleted and audited', async () => {
    const d = await dealer()
    const g = await group({ dealerIds: [d] })
    const member = await createUserWithRoles(t, tenant, [], { groups: [{ id: g.id }] })
    const inUse = await del(g.id)
    assert.equal(inUse.statusCode, 409)
    assert.equal(json<Problem>(inUse).code, 'portal_visibility_group_in_use')
    assert.equal(json<Group>(await get(`${BASE}/${g.id}`)).userCount, 1)

    const user = json<Record<string, unknown>>(await get(`/api/v1/adminusers/${member.id}`))
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${member.id}`,
      headers: tenant.headers,
      payload: { ...user, groups: [] },
    })
    assert.equal(moved.statusCode, 200, moved.body)

    const stale = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/${g.id}`,
      headers: { ...tenant.headers, 'if-match': '"not-it"' },
    })
    assert.equal(stale.statusCode, 412)
    const etag = String((await get(`${BASE}/${g.id}`)).headers.etag)
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/${g.id}`,
      headers: { ...tenant.headers, 'if-match': etag },
    })
    assert.equal(gone.statusCode, 204, gone.body)
    assert.equal(gone.body, '')
    assert.equal((await get(`${BASE}/${g.id}`)).statusCode, 404)
    assert.equal((await del(g.id)).statusCode, 404)
    // The dealer itself is untouched.
    assert.equal((await get(`/api/dealers/${d}`)).statusCode, 200)
    const audit = await t.db.read(tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('action')
        .where('tenant_id', '=', tenant.tenantId)
        .where('entity_type', '=', 'membership_group')
        .where('entity_id', '=', String(g.id))
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => a.action),
      ['portal_visibility_group.created', 'portal_visibility_group.deleted'],
    )
  })
})

describe('security', () => {
  test("another tenant's group → 404 on every route (422 naming it in a bulk update)", async () => {
    const theirs = await group({ dealerIds: [await dealer(other)] }, other)
    for (const url of [
      `${BASE}/${theirs.id}`,
      `${BASE}/${theirs.id}/dealers`,
      `${BASE}/code/${theirs.code}`,
      `${BASE}/code/${theirs.code}/dealers`,
    ]) {
      const res = await get(url)
      assert.equal(res.statusCode, 404, url)
      assert.equal(json<Problem>(res).code, 'portal_visibility_group_not_found')
    }
    assert.equal((await del(theirs.id)).statusCode, 404)
    const bulk = await patch([{ id: theirs.id, name: 'Mine now' }])
    assert.equal(bulk.statusCode, 422)
    assert.deepEqual(
      json<Problem>(bulk).errors?.map((e) => e.field),
      ['[0].id'],
    )
    assert.ok(!json<Group[]>(await get(`${BASE}?limit=1000`)).some((g) => g.id === theirs.id))
    assert.deepEqual(json(await get(`${BASE}/${theirs.id}`, other.headers)), theirs)
  })

  test('reads need membership:read; writes need users:write', async () => {
    const g = await group()
    const nobody = await createUserWithRoles(t, tenant, [])
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    const userAdmin = await createUserWithRoles(t, tenant, ['USER_ADMINISTRATOR'])
    const reads = [
      BASE,
      `${BASE}/${g.id}`,
      `${BASE}/${g.id}/dealers`,
      `${BASE}/code/${g.code}`,
      `${BASE}/code/${g.code}/dealers`,
    ]
    for (const url of reads) {
      assert.equal((await get(url, nobody.headers)).statusCode, 403, url)
      assert.equal((await get(url, reader.headers)).statusCode, 200, url)
    }
    for (const who of [nobody, reader]) {
      assert.equal((await post({ code: code(), name: 'x' }, who.headers)).statusCode, 403)
      assert.equal((await patch([{ id: g.id, name: 'x' }], who.headers)).statusCode, 403)
      assert.equal((await del(g.id, who.headers)).statusCode, 403)
    }
    assert.equal((await patch([{ id: g.id, name: 'By the user administrator' }], userAdmin.headers)).statusCode, 200)
    assert.equal((await post({ code: code(), name: 'By the user administrator' }, userAdmin.headers)).statusCode, 201)
  })

  test('POST takes an Idempotency-Key', async () => {
    const headers = { ...tenant.headers, 'idempotency-key': `pg-${code()}` }
    const body = { code: code(), name: 'Once' }
    const first = await post(body, headers)
    const again = await post(body, headers)
    assert.equal(first.statusCode, 201)
    assert.equal(again.statusCode, 201)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(json(again), json(first))
  })
})
