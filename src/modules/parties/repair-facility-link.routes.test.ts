// Repair facilities ↔ dealers and dealer groups through HTTP: add, replace, remove, list; bad
// references and wrong kinds; another tenant's ids on every route; the facilities of a dealer,
// directly and through its group; routing next to /repairfacilities/{id}; permissions; dealer-side
// visibility; the audit trail.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'

type Linked = { id: number; kind: string; businessKey: string; legalName: string; isActive: boolean; linkedAt: string }
type FacilityOfDealer = {
  id: number
  kind: string
  facilityCode: string
  via: string
  isActive: boolean
  taxId: string | null
}
type Problem = { code: string; errors?: Array<{ field: string; code: string; message: string }> }

let t: TestApp
let tenant: TestTenant
let other: TestTenant
let seq = 0

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
  tenant = await createTenant(t, 'Repair links')
  other = await createTenant(t, 'Other repair links')
})
after(() => t.close())

const get = (url: string, headers = tenant.headers) => t.app.inject({ method: 'GET', url, headers })
const patch = (url: string, payload: unknown, headers = tenant.headers) =>
  t.app.inject({
    method: 'PATCH',
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  })
const del = (url: string, headers = tenant.headers) => t.app.inject({ method: 'DELETE', url, headers })

async function create(path: string, body: Record<string, unknown>, who: TestTenant = tenant): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: who.headers, payload: body })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}
const facility = (who: TestTenant = tenant) =>
  create('/api/repairfacilities', { facilityCode: `RF-${++seq}`, legalName: `Facility ${seq} LLC` }, who)
const dealerGroup = (who: TestTenant = tenant) =>
  create('/api/dealergroups', { groupCode: `G-${++seq}`, legalName: `Group ${seq} Inc.` }, who)
const dealer = (extra: Record<string, unknown> = {}, who: TestTenant = tenant) =>
  create('/api/dealers', { dealerNumber: `D-${++seq}`, legalName: `Dealer ${seq} LLC`, ...extra }, who)

const ids = (res: { json(): unknown }) => (res.json() as Linked[]).map((r) => r.id)

describe('links to dealers', () => {
  test('add, add again, list paged, replace, delete; audited', async () => {
    const f = await facility()
    const [d1, d2, d3] = [await dealer(), await dealer(), await dealer()]
    const url = `/api/repairfacilities/${f}/dealers`
    assert.deepEqual(json(await get(url)), [])

    const added = await patch(url, { add: [d2, d1] })
    assert.equal(added.statusCode, 200, added.body)
    assert.deepEqual(ids(added), [d1, d2])
    assert.equal(added.headers['x-total-count'], '2')
    const first = json<Linked[]>(added)[0]!
    assert.equal(first.kind, 'DEALER')
    assert.equal(first.isActive, true)
    assert.equal(first.linkedAt, '2026-06-01T12:00:00.000Z')

    // Adding again keeps what is linked (and its date), adds what is new, accepts duplicates.
    t.clock.advance(60_000)
    const again = await patch(url, { add: [d2, d3, d3] })
    assert.equal(again.statusCode, 200, again.body)
    assert.deepEqual(ids(again), [d1, d2, d3])
    assert.equal(json<Linked[]>(again)[1]!.linkedAt, '2026-06-01T12:00:00.000Z')

    const page = await get(`${url}?limit=2&offset=1`)
    assert.deepEqual(ids(page), [d2, d3])
    assert.equal(page.headers['x-total-count'], '3')

    const replaced = await patch(url, { replace: [d3, d1] })
    assert.equal(replaced.statusCode, 200, replaced.body)
    assert.deepEqual(ids(replaced), [d1, d3])

    // Unknown and unlinked ids are ignored; comma-separated and repeated forms combine.
    const removed = await del(`${url}?ids=${d1},999999&ids=${d2}`)
    assert.equal(removed.statusCode, 200, removed.body)
    assert.deepEqual(ids(removed), [d3])
    assert.equal(removed.headers['x-total-count'], '1')
    assert.deepEqual(ids(await patch(url, { replace: [] })), [])

    const audit = await t.db.read(tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'changes'])
        .where('tenant_id', '=', tenant.tenantId)
        .where('entity_id', '=', String(f))
        .where('action', '=', 'repair_facility.links_changed')
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => a.changes),
      [
        { kind: 'DEALER', added: [d1, d2], removed: [] },
        { kind: 'DEALER', added: [d3], removed: [] },
        { kind: 'DEALER', added: [], removed: [d2] },
        { kind: 'DEALER', added: [], removed: [d1] },
        { kind: 'DEALER', added: [], removed: [d3] },
      ],
    )
  })

  test('bad bodies: both or neither of add and replace, bad ids, no ids to delete', async () => {
    const f = await facility()
    const d = await dealer()
    const url = `/api/repairfacilities/${f}/dealers`
    const both = await patch(url, { add: [d], replace: [d] })
    assert.equal(both.statusCode, 400, both.body)
    assert.deepEqual(
      json<Problem>(both).errors?.map((e) => e.field),
      ['add', 'replace'],
    )
    assert.equal((await patch(url, {})).statusCode, 400)
    assert.equal((await patch(url, { add: ['x'] })).statusCode, 400)
    assert.equal((await patch(url, { add: [0] })).statusCode, 400)
    assert.equal((await patch(url, { remove: [d] })).statusCode, 400)
    assert.equal((await patch(url, [{ op: 'add', path: '/-', value: d }])).statusCode, 400)
    assert.equal((await patch(url, { add: Array.from({ length: 1001 }, (_, i) => i + 1) })).statusCode, 400)
    assert.equal((await del(url)).statusCode, 400)
    assert.equal((await del(`${url}?ids=abc`)).statusCode, 400)
    assert.equal((await del(`${url}?ids=1,,2`)).statusCode, 400)
    const tooMany = await del(`${url}?ids=${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}`)
    assert.equal(tooMany.statusCode, 400)
    assert.deepEqual(
      json<Problem>(tooMany).errors?.map((e) => e.field),
      ['ids'],
    )
    assert.deepEqual(json(await get(url)), [])
  })

  test('every id must be a dealer of the tenant: 422 naming each, nothing saved', async () => {
    const f = await facility()
    const [d, g, theirs] = [await dealer(), await dealerGroup(), await dealer({}, other)]
    const url = `/api/repairfacilities/${f}/dealers`
    const res = await patch(url, { add: [d, 999999999, g, theirs, f, 1e20] })
    assert.equal(res.statusCode, 422, res.body)
    const problem = json<Problem>(res)
    assert.equal(problem.code, 'unknown_reference')
    assert.deepEqual(
      problem.errors?.map((e) => [e.field, e.code]),
      [
        ['add[1]', 'unknown_reference'],
        ['add[2]', 'unknown_reference'],
        ['add[3]', 'unknown_reference'],
        ['add[4]', 'unknown_reference'],
        ['add[5]', 'unknown_reference'],
      ],
    )
    assert.match(problem.errors![1]!.message, /is a DEALER_GROUP, not a dealer/)
    assert.deepEqual(json(await get(url)), [])
    const replace = await patch(url, { replace: [g] })
    assert.equal(replace.statusCode, 422)
    assert.deepEqual(
      json<Problem>(replace).errors?.map((e) => e.field),
      ['replace[0]'],
    )
  })
})

describe('links to dealer groups', () => {
  test('add, list, delete; dealers and groups are separate sets', async () => {
    const f = await facility()
    const [g1, g2, d] = [await dealerGroup(), await dealerGroup(), await dealer()]
    const url = `/api/repairfacilities/${f}/dealergroups`
    assert.deepEqual(ids(await patch(url, { add: [g1, g2] })), [g1, g2])
    assert.deepEqual(ids(await patch(`/api/repairfacilities/${f}/dealers`, { add: [d] })), [d])
    const listed = json<Linked[]>(await get(url))
    assert.deepEqual(
      listed.map((l) => [l.id, l.kind]),
      [
        [g1, 'DEALER_GROUP'],
        [g2, 'DEALER_GROUP'],
      ],
    )

    // A replace of the groups leaves the dealers alone, and a dealer id given as a group is refused.
    assert.deepEqual(ids(await patch(url, { replace: [g2] })), [g2])
    assert.deepEqual(ids(await get(`/api/repairfacilities/${f}/dealers`)), [d])
    const wrongKind = await patch(url, { add: [d] })
    assert.equal(wrongKind.statusCode, 422)
    assert.deepEqual(
      json<Problem>(wrongKind).errors?.map((e) => e.field),
      ['add[0]'],
    )
    // Removing a dealer's id through the groups route does nothing.
    assert.deepEqual(ids(await del(`${url}?ids=${d}`)), [g2])
    assert.deepEqual(ids(await get(`/api/repairfacilities/${f}/dealers`)), [d])
    assert.deepEqual(ids(await del(`${url}?ids=${g2}`)), [])
  })
})

describe("another tenant's ids and other kinds answer 404 on every route", () => {
  test('facility and dealer ids', async () => {
    const [mine, theirs, dealerId] = [await facility(), await facility(other), await dealer()]
    const theirDealer = await dealer({}, other)
    for (const segment of ['dealers', 'dealergroups']) {
      for (const id of [theirs, dealerId, 999999999, 1e20]) {
        const url = `/api/repairfacilities/${id}/${segment}`
        for (const res of [await get(url), await patch(url, { add: [] }), await del(`${url}?ids=1`)]) {
          assert.equal(res.statusCode, 404, `${url}: ${res.body}`)
          assert.equal(json<Problem>(res).code, 'account_holder_not_found')
        }
      }
      // The other tenant sees nothing of ours either.
      assert.equal((await get(`/api/repairfacilities/${mine}/${segment}`, other.headers)).statusCode, 404)
    }
    for (const id of [theirDealer, mine, 999999999]) {
      const res = await get(`/api/repairfacilities/repairfacilityofdealer/${id}`)
      assert.equal(res.statusCode, 404, res.body)
      assert.equal(json<Problem>(res).code, 'account_holder_not_found')
    }
  })
})

describe('repair facilities of a dealer', () => {
  test('linked to the dealer, to its group, or both; ordered; paged; case-insensitive path', async () => {
    const g = await dealerGroup()
    const d = await dealer({ dealerGroupId: g })
    const [direct, viaGroup, both, unrelated] = [await facility(), await facility(), await facility(), await facility()]
    await patch(`/api/repairfacilities/${direct}/dealers`, { add: [d] })
    await patch(`/api/repairfacilities/${viaGroup}/dealergroups`, { add: [g] })
    await patch(`/api/repairfacilities/${both}/dealers`, { add: [d] })
    await patch(`/api/repairfacilities/${both}/dealergroups`, { add: [g] })
    await patch(`/api/repairfacilities/${unrelated}/dealergroups`, { add: [await dealerGroup()] })
    // Expired facilities are listed, marked inactive.
    const expire = await t.app.inject({
      method: 'PATCH',
      url: `/api/repairfacilities/${viaGroup}`,
      headers: { ...tenant.headers, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ expiredDate: '2026-01-01T00:00:00Z' }),
    })
    assert.equal(expire.statusCode, 200, expire.body)

    for (const url of [
      `/api/repairfacilities/repairfacilityofdealer/${d}`,
      `/api/RepairFacilities/RepairFacilityOfDealer/${d}`,
      `/API/REPAIRFACILITIES/REPAIRFACILITYOFDEALER/${d}/`,
    ]) {
      const res = await get(url)
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      assert.equal(res.headers['x-total-count'], '3')
      const list = json<FacilityOfDealer[]>(res)
      assert.deepEqual(
        list.map((r) => [r.id, r.via, r.isActive]),
        [
          [direct, 'DEALER', true],
          [viaGroup, 'DEALER_GROUP', false],
          [both, 'DEALER', true],
        ],
      )
      assert.equal(list[0]!.kind, 'REPAIR_FACILITY')
      assert.match(list[0]!.facilityCode, /^RF-/)
    }
    const page = await get(`/api/repairfacilities/repairfacilityofdealer/${d}?limit=1&offset=2`)
    assert.deepEqual(
      json<FacilityOfDealer[]>(page).map((r) => r.id),
      [both],
    )
    assert.equal(page.headers['x-total-count'], '3')

    // A dealer without a group, and one with no facilities.
    assert.deepEqual(json(await get(`/api/repairfacilities/repairfacilityofdealer/${await dealer()}`)), [])
  })

  test('the static segment does not shadow the facility routes, nor they it', async () => {
    const f = await facility()
    assert.equal((await get(`/api/repairfacilities/${f}`)).statusCode, 200)
    assert.equal((await get(`/api/RepairFacilities/${f}/Dealers`)).statusCode, 200)
    assert.equal((await get(`/api/repairfacilities/${f}/DealerGroups`)).statusCode, 200)
    // Without a dealer id the segment is read as a (bad) facility id.
    assert.equal((await get('/api/repairfacilities/repairfacilityofdealer')).statusCode, 400)
    assert.equal((await get('/api/repairfacilities/repairfacilityofdealer/abc')).statusCode, 400)
  })
})

describe('permissions and visibility', () => {
  test('a read-only user may list but not change links', async () => {
    const f = await facility()
    const d = await dealer()
    await patch(`/api/repairfacilities/${f}/dealers`, { add: [d] })
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    assert.deepEqual(ids(await get(`/api/repairfacilities/${f}/dealers`, reader.headers)), [d])
    assert.equal((await get(`/api/repairfacilities/repairfacilityofdealer/${d}`, reader.headers)).statusCode, 200)
    for (const res of [
      await patch(`/api/repairfacilities/${f}/dealers`, { add: [d] }, reader.headers),
      await del(`/api/repairfacilities/${f}/dealers?ids=${d}`, reader.headers),
    ]) {
      assert.equal(res.statusCode, 403, res.body)
      assert.equal(json<Problem>(res).code, 'permission_denied')
    }
    assert.deepEqual(ids(await get(`/api/repairfacilities/${f}/dealers`)), [d])
  })

  test("a dealer-side user sees its dealers' facilities and only its dealers among the links", async () => {
    const g = await dealerGroup()
    const [mine, sibling, stranger] = [
      await dealer({ dealerGroupId: g }),
      await dealer({ dealerGroupId: g }),
      await dealer(),
    ]
    const [shared, groupOnly, foreign] = [await facility(), await facility(), await facility()]
    await patch(`/api/repairfacilities/${shared}/dealers`, { add: [mine, sibling, stranger] })
    await patch(`/api/repairfacilities/${groupOnly}/dealergroups`, { add: [g] })
    await patch(`/api/repairfacilities/${foreign}/dealers`, { add: [stranger] })
    const groupId = await t.db.transaction(tenant.tenantId, async (tx) => {
      const row = await tx
        .insertInto('membership_group')
        .values({
          tenant_id: tenant.tenantId,
          code: `DEALERS-${++seq}`,
          name: 'My dealer',
          description: '',
          kind: 'DEALER',
          created_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await tx
        .insertInto('membership_group_account_holder')
        .values({ tenant_id: tenant.tenantId, group_id: row.id, account_holder_id: mine })
        .execute()
      return row.id
    })
    const user = await createUserWithRoles(t, tenant, ['DEALER_USER'], { groups: [{ id: groupId }] })

    assert.deepEqual(
      json<FacilityOfDealer[]>(await get(`/api/repairfacilities/repairfacilityofdealer/${mine}`, user.headers)).map(
        (r) => [r.id, r.via],
      ),
      [
        [shared, 'DEALER'],
        [groupOnly, 'DEALER_GROUP'],
      ],
    )
    assert.equal((await get(`/api/repairfacilities/repairfacilityofdealer/${sibling}`, user.headers)).statusCode, 404)
    assert.equal((await get(`/api/repairfacilities/repairfacilityofdealer/${stranger}`, user.headers)).statusCode, 404)
    const links = await get(`/api/repairfacilities/${shared}/dealers`, user.headers)
    assert.deepEqual(ids(links), [mine])
    assert.equal(links.headers['x-total-count'], '1')
    assert.equal((await get(`/api/repairfacilities/${foreign}/dealers`, user.headers)).statusCode, 404)
  })
})
