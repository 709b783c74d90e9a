// Dealer-side visibility end to end: a user in a portal visibility group (a DEALER membership
// group) sees only the dealers of its groups, and what hangs off them, on every account-holder
// route; changes to the group apply on the user's next request (the cached principal is dropped).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { KINDS } from '../src/modules/parties/index.ts'
import { systemContext } from '../src/platform/http/context.ts'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  groupIdByCode,
  json,
  uniqueEmail,
  type TestApp,
  type TestTenant,
} from './harness.ts'

type Headers = Record<string, string>
type Rep = { id: number; kind?: string }

let t: TestApp
let tenant: TestTenant
let seq = 0

// Tenant data: dealers A and B, each with its own dealer group, agent and customer; an insurer and
// a lien holder (reference data every dealer sees).
const ids = {
  a: 0,
  b: 0,
  groupOfA: 0,
  groupOfB: 0,
  agentOfA: 0,
  agentOfB: 0,
  customerOfA: 0,
  customerOfB: 0,
  insurer: 0,
  lienHolder: 0,
}
let portalGroup: { id: number; code: string }
let dealerUser: { id: number; headers: Headers }

const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers })
const idsOf = async (url: string, headers: Headers) => {
  const res = await get(url, headers)
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
  return json<Rep[]>(res).map((r) => r.id)
}
const patchGroups = async (body: unknown[]) => {
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/portalvisibilitygroups',
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  })
  assert.equal(res.statusCode, 200, res.body)
}

async function create(path: string, payload: Record<string, unknown>): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: tenant.headers, payload })
  assert.equal(res.statusCode, 201, `${path}: ${res.body}`)
  return json<Rep>(res).id
}

async function createGroup(dealerIds: number[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/portalvisibilitygroups',
    headers: tenant.headers,
    payload: { code: `PORTAL-${++seq}`, name: `Portal ${seq}`, dealerIds },
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number; code: string }>(res)
}

async function customerOf(dealerId: number): Promise<number> {
  const row = await t.modules.parties.accountHolders.create(systemContext(tenant.tenantId), KINDS.CUSTOMER, {
    legalName: `Customer of ${dealerId}`,
    dealerId,
  })
  return row.id
}

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
  tenant = await createTenant(t, 'Dealer visibility')
  ids.groupOfA = await create('/api/dealergroups', { groupCode: 'GA', legalName: 'Group of A' })
  ids.groupOfB = await create('/api/dealergroups', { groupCode: 'GB', legalName: 'Group of B' })
  ids.agentOfA = await create('/api/agents', { agentCode: 'AGA', legalName: 'Agent of A' })
  ids.agentOfB = await create('/api/agents', { agentCode: 'AGB', legalName: 'Agent of B' })
  ids.a = await create('/api/dealers', {
    dealerNumber: 'A-1',
    legalName: 'Dealer A LLC',
    dealerGroupId: ids.groupOfA,
    agentIds: [ids.agentOfA],
  })
  ids.b = await create('/api/dealers', {
    dealerNumber: 'B-1',
    legalName: 'Dealer B LLC',
    dealerGroupId: ids.groupOfB,
    agentIds: [ids.agentOfB],
  })
  ids.customerOfA = await customerOf(ids.a)
  ids.customerOfB = await customerOf(ids.b)
  ids.insurer = await create('/api/insurers', { insurerCode: 'INS', legalName: 'Frontier Casualty' })
  ids.lienHolder = await create('/api/lienHolders', { lienHolderCode: 'FNB', legalName: 'First National Bank' })

  portalGroup = await createGroup([ids.a])
  // Creating a user needs only roles the caller holds; the tenant administrator holds '*'.
  dealerUser = await createUserWithRoles(t, tenant, ['DEALER_USER'], { groups: [{ id: portalGroup.id }] })
})
after(() => t.close())

/** What the dealer user sees of B and everything hanging off it (and of A, for contrast). */
async function assertSeesB(visible: boolean) {
  const h = dealerUser.headers
  const expectB = (list: number[], id: number) => assert.equal(list.includes(id), visible, `${id} in ${list.join(',')}`)
  assert.deepEqual(await idsOf('/api/dealers', h), visible ? [ids.a, ids.b] : [ids.a])
  assert.deepEqual(await idsOf('/api/accountholders?kind=DEALER', h), visible ? [ids.a, ids.b] : [ids.a])
  assert.equal((await get(`/api/dealers/${ids.b}`, h)).statusCode, visible ? 200 : 404)
  assert.equal(
    (await get(`/api/accountholders?kind=DEALER&businessKey=B-1`, h)).headers['x-total-count'],
    visible ? '1' : '0',
  )
  expectB(await idsOf('/api/dealergroups', h), ids.groupOfB)
  expectB(await idsOf('/api/agents', h), ids.agentOfB)
  expectB(await idsOf('/api/customers', h), ids.customerOfB)
  expectB(await idsOf('/api/accountholders', h), ids.b)
  for (const path of [
    `/api/dealergroups/${ids.groupOfB}`,
    `/api/agents/${ids.agentOfB}`,
    `/api/customers/${ids.customerOfB}`,
  ]) {
    assert.equal((await get(path, h)).statusCode, visible ? 200 : 404, path)
  }
  // A and what hangs off it stay visible throughout.
  for (const path of [
    `/api/dealers/${ids.a}`,
    `/api/dealergroups/${ids.groupOfA}`,
    `/api/agents/${ids.agentOfA}`,
    `/api/customers/${ids.customerOfA}`,
  ]) {
    assert.equal((await get(path, h)).statusCode, 200, path)
  }
}

describe('a dealer user in a portal visibility group', () => {
  test('sees only the dealers of its group and what hangs off them', async () => {
    await assertSeesB(false)
    const problem = json<{ code: string }>(await get(`/api/dealers/${ids.b}`, dealerUser.headers))
    assert.equal(problem.code, 'account_holder_not_found')
    // B is refused exactly like an id that does not exist.
    const missing = await get('/api/dealers/987654321', dealerUser.headers)
    assert.equal(missing.statusCode, 404)
    assert.equal(json<{ code: string }>(missing).code, problem.code)
  })

  test('sees reference data every dealer needs: insurers, lien holders, the administrator company', async () => {
    const h = dealerUser.headers
    assert.ok((await idsOf('/api/insurers', h)).includes(ids.insurer))
    assert.ok((await idsOf('/api/lienHolders', h)).includes(ids.lienHolder))
    assert.equal((await get(`/api/insurers/${ids.insurer}`, h)).statusCode, 200)
    assert.equal(json<unknown[]>(await get('/api/accountholders?kind=ADMIN_COMPANY', h)).length, 1)
  })

  test('staff see every dealer', async () => {
    const all = await idsOf('/api/dealers', tenant.headers)
    assert.ok(all.includes(ids.a) && all.includes(ids.b))
  })

  test('adding B to the group shows it at once; removing it hides it at once', async () => {
    // Warm the user's cached principal first, so the change has to invalidate it.
    await assertSeesB(false)
    await patchGroups([{ id: portalGroup.id, addDealerIds: [ids.b] }])
    await assertSeesB(true)
    await patchGroups([{ code: portalGroup.code, removeDealerIds: [ids.b] }])
    await assertSeesB(false)
    await patchGroups([{ id: portalGroup.id, dealerIds: [ids.a, ids.b] }])
    await assertSeesB(true)
    await patchGroups([{ id: portalGroup.id, dealerIds: [ids.a] }])
    await assertSeesB(false)
  })

  test("a bulk update with one bad item changes nobody's visibility", async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/portalvisibilitygroups',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: JSON.stringify([
        { id: portalGroup.id, addDealerIds: [ids.b] },
        { id: portalGroup.id + 100000, name: 'missing' },
      ]),
    })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(res).errors.map((e) => e.field),
      ['[1].id'],
    )
    await assertSeesB(false)
  })

  test('a user in two groups sees the dealers of both', async () => {
    const groupOfB = await createGroup([ids.b])
    const both = await createUserWithRoles(t, tenant, ['DEALER_USER'], {
      groups: [{ id: portalGroup.id }, { id: groupOfB.id }],
    })
    assert.deepEqual(await idsOf('/api/dealers', both.headers), [ids.a, ids.b])
  })

  test('a dealer-side user in a group with no dealers sees no dealers, nor anything hanging off one', async () => {
    const empty = await createGroup([])
    const user = await createUserWithRoles(t, tenant, ['DEALER_USER'], { groups: [{ id: empty.id }] })
    for (const path of [
      '/api/dealers',
      '/api/accountholders?kind=DEALER',
      '/api/dealergroups',
      '/api/agents',
      '/api/customers',
    ]) {
      assert.deepEqual(await idsOf(path, user.headers), [], path)
    }
    assert.equal((await get(`/api/dealers/${ids.a}`, user.headers)).statusCode, 404)
    assert.ok((await idsOf('/api/insurers', user.headers)).includes(ids.insurer))
    // Adding a dealer to that group opens it to the member at once.
    await patchGroups([{ id: empty.id, addDealerIds: [ids.a] }])
    assert.deepEqual(await idsOf('/api/dealers', user.headers), [ids.a])
  })
})

describe('portal visibility groups seen by a dealer-side caller', () => {
  test('only its own groups are readable; it cannot change any', async () => {
    const otherGroup = await createGroup([ids.b])
    // READ_ONLY carries membership:read; USER_ADMINISTRATOR carries users:write.
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY', 'USER_ADMINISTRATOR'], {
      groups: [{ id: portalGroup.id }],
    })
    const h = reader.headers
    assert.deepEqual(await idsOf('/api/portalvisibilitygroups', h), [portalGroup.id])
    assert.equal((await get(`/api/portalvisibilitygroups/${portalGroup.id}`, h)).statusCode, 200)
    for (const path of [
      `/api/portalvisibilitygroups/${otherGroup.id}`,
      `/api/portalvisibilitygroups/${otherGroup.id}/dealers`,
      `/api/portalvisibilitygroups/code/${otherGroup.code}`,
      `/api/portalvisibilitygroups/code/${otherGroup.code}/dealers`,
    ]) {
      assert.equal((await get(path, h)).statusCode, 404, path)
    }
    // Widening its own visibility is refused whatever its roles.
    const widen = await t.app.inject({
      method: 'PATCH',
      url: '/api/portalvisibilitygroups',
      headers: { ...h, 'content-type': 'application/json' },
      payload: JSON.stringify([{ id: portalGroup.id, addDealerIds: [ids.b] }]),
    })
    assert.equal(widen.statusCode, 403)
    assert.equal(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/portalvisibilitygroups',
          headers: h,
          payload: { code: 'MINE', name: 'Mine', dealerIds: [ids.b] },
        })
      ).statusCode,
      403,
    )
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/api/portalvisibilitygroups/${otherGroup.id}`, headers: h }))
        .statusCode,
      403,
    )
    await assertSeesB(false)
  })
})

describe('another tenant', () => {
  test("cannot see or reach this tenant's group, and nor put our dealers in its groups", async () => {
    const other = await createTenant(t, 'Other dealer visibility')
    for (const path of [
      `/api/portalvisibilitygroups/${portalGroup.id}`,
      `/api/portalvisibilitygroups/${portalGroup.id}/dealers`,
      `/api/portalvisibilitygroups/code/${portalGroup.code}`,
      `/api/portalvisibilitygroups/code/${portalGroup.code}/dealers`,
    ]) {
      assert.equal((await get(path, other.headers)).statusCode, 404, path)
    }
    assert.equal(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/portalvisibilitygroups/${portalGroup.id}`,
          headers: other.headers,
        })
      ).statusCode,
      404,
    )
    // Our dealer ids are unknown there, so they cannot be put in its groups.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/portalvisibilitygroups',
      headers: other.headers,
      payload: { code: 'STEAL', name: 'Steal', dealerIds: [ids.a] },
    })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(res).errors.map((e) => e.field),
      ['dealerIds[0]'],
    )
  })
})

describe('fail-closed visibility and group assignment', () => {
  test('a user in no group sees no dealer; a STAFF member sees them all', async () => {
    const local = await createTestApp()
    try {
      const own = await createTenant(local, 'Fail closed')
      const dealer = await local.app.inject({
        method: 'POST',
        url: '/api/dealers',
        headers: own.headers,
        payload: { dealerNumber: 'FC-1', legalName: 'Fail Closed Motors' },
      })
      assert.equal(dealer.statusCode, 201)
      const groupless = await createUserWithRoles(local, own, ['READ_ONLY'], { groups: [] })
      assert.deepEqual(
        json(await local.app.inject({ method: 'GET', url: '/api/dealers', headers: groupless.headers })),
        [],
      )
      assert.equal(
        (
          await local.app.inject({
            method: 'GET',
            url: `/api/dealers/${json<{ id: number }>(dealer).id}`,
            headers: groupless.headers,
          })
        ).statusCode,
        404,
      )
      const staff = await createUserWithRoles(local, own, ['READ_ONLY'])
      assert.equal(
        json<unknown[]>(await local.app.inject({ method: 'GET', url: '/api/dealers', headers: staff.headers })).length,
        1,
      )
    } finally {
      await local.close()
    }
  })

  test('a dealer-side user administrator can place users only in its own groups', async () => {
    const local = await createTestApp()
    try {
      const own = await createTenant(local, 'Own groups')
      const group = await local.app.inject({
        method: 'POST',
        url: '/api/portalvisibilitygroups',
        headers: own.headers,
        payload: { code: 'OWN', name: 'Own dealers', dealerIds: [] },
      })
      assert.equal(group.statusCode, 201, group.body)
      const groupId = json<{ id: number }>(group).id
      const dealerAdmin = await createUserWithRoles(local, own, ['USER_ADMINISTRATOR'], { groups: [{ id: groupId }] })
      const staffGroup = await groupIdByCode(local, own, 'STAFF')
      const escalate = await local.app.inject({
        method: 'POST',
        url: '/api/v1/adminusers',
        headers: dealerAdmin.headers,
        payload: { emailAddress: uniqueEmail('x'), groups: [{ id: staffGroup }] },
      })
      assert.equal(escalate.statusCode, 403)
      assert.equal(json(escalate).code, 'permission_escalation')
      const ok = await local.app.inject({
        method: 'POST',
        url: '/api/v1/adminusers',
        headers: dealerAdmin.headers,
        payload: { emailAddress: uniqueEmail('y'), groups: [{ id: groupId }] },
      })
      assert.equal(ok.statusCode, 201, ok.body)
    } finally {
      await local.close()
    }
  })
})
