// Users v1 (spec §2.1, §3, §4.1) through HTTP.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  groupIdByCode,
  json,
  roleIdByCode,
  uniqueEmail,
  type TestApp,
  type TestTenant,
} from './harness.ts'

type User = {
  id: number
  emailAddress: string
  externalIdentity: string | null
  expiredDate: string | null
  isActive: boolean
  roles: Array<{ id: number; name: string }>
  groups: Array<{ id: number; name: string }>
  version: number
  firstName: string | null
  lastName: string | null
  phoneNumber: string | null
  accountHolderId: number | null
  createdAt: string
  updatedAt: string
  userName: string
}

let t: TestApp
let tenant: TestTenant

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
  tenant = await createTenant(t)
})
after(() => t.close())

async function createUser(body: Record<string, unknown>, headers = tenant.headers) {
  return t.app.inject({ method: 'POST', url: '/api/v1/adminusers', headers, payload: body })
}

function putBody(u: User, changes: Record<string, unknown> = {}) {
  return {
    emailAddress: u.emailAddress,
    externalIdentity: u.externalIdentity,
    firstName: u.firstName,
    lastName: u.lastName,
    phoneNumber: u.phoneNumber,
    expiredDate: u.expiredDate,
    accountHolderId: u.accountHolderId,
    roles: u.roles.map((r) => ({ id: r.id })),
    groups: u.groups.map((g) => ({ id: g.id })),
    ...changes,
  }
}

describe('POST /api/v1/adminusers', () => {
  test('creates a user with roles and groups, password never returned', async () => {
    const roleId = await roleIdByCode(t, tenant, 'READ_ONLY')
    const email = uniqueEmail('Create')
    const res = await createUser({
      emailAddress: email,
      firstName: 'Jane',
      lastName: 'Doe',
      phoneNumber: '+15555550100',
      externalIdentity: `ext-${email}`,
      roles: [{ id: roleId, name: 'ignored' }],
      groups: [{ id: await groupIdByCode(t, tenant, 'STAFF') }],
      password: 'a long enough password',
    })
    assert.equal(res.statusCode, 201, res.body)
    const u = json<User>(res)
    assert.equal(res.headers.location, `/api/v1/adminusers/${u.id}`)
    assert.equal(res.headers.etag, `"${u.version}"`)
    assert.equal(u.emailAddress, email)
    assert.equal(u.isActive, true)
    assert.equal(u.expiredDate, null)
    assert.deepEqual(u.roles, [{ id: roleId, name: 'Read-only' }])
    assert.equal(u.groups.length, 1)
    assert.equal('password' in u, false)
    assert.doesNotMatch(res.body, /password|scrypt/i)
  })

  test('unknown role or group id → 422 naming each', async () => {
    const res = await createUser({ emailAddress: uniqueEmail(), roles: [{ id: 999999 }], groups: [{ id: 888888 }] })
    assert.equal(res.statusCode, 422)
    const body = json<{ code: string; errors: Array<{ field: string }> }>(res)
    assert.equal(body.code, 'unknown_reference')
    assert.deepEqual(
      body.errors.map((e) => e.field),
      ['roles[0].id', 'groups[0].id'],
    )
  })

  test('duplicate email (any case) or External Identity → 409', async () => {
    const email = uniqueEmail('dup')
    assert.equal((await createUser({ emailAddress: email, externalIdentity: `x-${email}` })).statusCode, 201)
    const sameEmail = await createUser({ emailAddress: email.toUpperCase() })
    assert.equal(sameEmail.statusCode, 409)
    assert.equal(json(sameEmail).code, 'email_address_taken')
    const sameExt = await createUser({ emailAddress: uniqueEmail(), externalIdentity: `x-${email}` })
    assert.equal(sameExt.statusCode, 409)
    assert.equal(json(sameExt).code, 'external_identity_taken')
  })

  test('the same email in another tenant is fine', async () => {
    const other = await createTenant(t, 'Other')
    const email = uniqueEmail('shared')
    assert.equal((await createUser({ emailAddress: email })).statusCode, 201)
    assert.equal((await createUser({ emailAddress: email }, other.headers)).statusCode, 201)
  })

  test('schema violations list every field', async () => {
    const res = await createUser({
      emailAddress: 'not-an-email',
      phoneNumber: 'abc',
      roles: 'x',
      unknownThing: 1,
      password: 'short',
    })
    assert.equal(res.statusCode, 400)
    const fields = json<{ errors: Array<{ field: string }> }>(res)
      .errors.map((e) => e.field)
      .toSorted()
    assert.deepEqual(fields, ['emailAddress', 'password', 'phoneNumber', 'roles', 'unknownThing'])
  })

  test('missing emailAddress → 400 required', async () => {
    const res = await createUser({ firstName: 'No email' })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(json<{ errors: Array<{ field: string; code: string }> }>(res).errors, [
      { field: 'emailAddress', code: 'required', message: 'is required' },
    ])
  })

  test('a past expiredDate on create is stored as now', async () => {
    const res = await createUser({ emailAddress: uniqueEmail(), expiredDate: '2001-01-01T00:00:00Z' })
    assert.equal(res.statusCode, 201)
    const u = json<User>(res)
    assert.equal(u.expiredDate, t.clock.now().toISOString())
    assert.equal(u.isActive, false)
  })

  test('nobody grants a role carrying permissions they do not hold', async () => {
    const userAdmin = await createUserWithRoles(t, tenant, ['USER_ADMINISTRATOR'])
    const adminRole = await roleIdByCode(t, tenant, 'ADMINISTRATOR')
    const escalate = await createUser({ emailAddress: uniqueEmail(), roles: [{ id: adminRole }] }, userAdmin.headers)
    assert.equal(escalate.statusCode, 403)
    assert.equal(json(escalate).code, 'permission_escalation')
    const ok = await createUser(
      { emailAddress: uniqueEmail(), roles: [{ id: await roleIdByCode(t, tenant, 'USER_ADMINISTRATOR') }] },
      userAdmin.headers,
    )
    assert.equal(ok.statusCode, 201)
  })

  test('only holders of users:write manage users', async () => {
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    const res = await createUser({ emailAddress: uniqueEmail() }, reader.headers)
    assert.equal(res.statusCode, 403)
    assert.equal(json(res).code, 'permission_denied')
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: reader.headers })
    assert.equal(list.statusCode, 200)
    const noRoles = await createUserWithRoles(t, tenant, [])
    const denied = await t.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: noRoles.headers })
    assert.equal(denied.statusCode, 403)
  })

  test('every change is in the audit trail', async () => {
    const res = await createUser({ emailAddress: uniqueEmail('audited'), password: 'a long enough password' })
    const u = json<User>(res)
    const rows = await t.db.read(tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .selectAll()
        .where('tenant_id', '=', tenant.tenantId)
        .where('entity_type', '=', 'user')
        .where('entity_id', '=', String(u.id))
        .execute(),
    )
    assert.equal(rows.length, 1)
    assert.equal(rows[0]?.action, 'user.created')
    assert.equal(rows[0]?.actor_user_id, tenant.adminUserId)
    assert.doesNotMatch(JSON.stringify(rows[0]?.changes), /a long enough password|scrypt/)
  })
})

describe('GET /api/v1/adminusers', () => {
  test('exact-match search on id, email (case-insensitive), externalIdentity, combined with AND', async () => {
    const email = uniqueEmail('Search')
    const u = json<User>(await createUser({ emailAddress: email, externalIdentity: `ext|${email}` }))
    await createUser({ emailAddress: uniqueEmail('other') })
    const get = async (qs: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/adminusers?${qs}`, headers: tenant.headers })
      assert.equal(res.statusCode, 200, res.body)
      return json<User[]>(res).map((x) => x.id)
    }
    assert.deepEqual(await get(`searchData.id=${u.id}`), [u.id])
    assert.deepEqual(await get(`searchData.emailAddress=${encodeURIComponent(email.toUpperCase())}`), [u.id])
    assert.deepEqual(await get(`searchData.emailAddress=${encodeURIComponent(email.slice(0, 10))}`), [])
    assert.deepEqual(await get(`searchData.externalIdentity=${encodeURIComponent(`ext|${email}`)}`), [u.id])
    assert.deepEqual(await get(`searchData.externalIdentity=${encodeURIComponent(`EXT|${email}`)}`), [])
    assert.deepEqual(await get(`searchData.id=${u.id}&searchData.emailAddress=${encodeURIComponent(email)}`), [u.id])
    assert.deepEqual(await get(`searchData.id=${u.id}&searchData.emailAddress=nobody%40x.example`), [])
    assert.deepEqual(await get('searchData.id=99999999999999999999'), [])
  })

  test('no criteria lists users, bounded, ordered, with X-Total-Count', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/adminusers?limit=2', headers: tenant.headers })
    assert.equal(res.statusCode, 200)
    const page = json<User[]>(res)
    assert.equal(page.length, 2)
    assert.ok(page[0]!.id < page[1]!.id)
    const total = Number(res.headers['x-total-count'])
    assert.ok(total >= 2)
    const next = json<User[]>(
      await t.app.inject({ method: 'GET', url: '/api/v1/adminusers?limit=2&offset=2', headers: tenant.headers }),
    )
    assert.ok(next.every((u) => u.id > page[1]!.id))
    const tooBig = await t.app.inject({ method: 'GET', url: '/api/v1/adminusers?limit=5000', headers: tenant.headers })
    assert.equal(tooBig.statusCode, 400)
  })

  test('non-integer searchData.id → 400; unknown parameter → 400', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/adminusers?searchData.id=abc',
      headers: tenant.headers,
    })
    assert.equal(res.statusCode, 400)
    assert.equal(json<{ errors: Array<{ field: string }> }>(res).errors[0]?.field, 'searchData.id')
    const typo = await t.app.inject({
      method: 'GET',
      url: '/api/v1/adminusers?searchData.email=x',
      headers: tenant.headers,
    })
    assert.equal(typo.statusCode, 400)
  })
})

describe('GET /api/v1/adminusers/{userId}', () => {
  test('non-integer → 400, missing or out-of-range → 404, never 500', async () => {
    const cases: Array<[string, number, string]> = [
      ['abc', 400, 'validation_failed'],
      ['1.5', 400, 'validation_failed'],
      ['999999999', 404, 'user_not_found'],
      ['0', 404, 'user_not_found'],
      ['-3', 404, 'user_not_found'],
      ['9223372036854775807', 404, 'user_not_found'],
      ['99999999999999999999999', 404, 'user_not_found'],
    ]
    for (const [id, status, code] of cases) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${id}`, headers: tenant.headers })
      assert.equal(res.statusCode, status, `${id}: ${res.body}`)
      assert.equal(json(res).code, code, id)
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8')
    }
  })

  test("another tenant's user answers exactly like a missing one, on every user route", async () => {
    const other = await createTenant(t, 'Other')
    const theirs = json<User>(await createUser({ emailAddress: uniqueEmail('theirs') }, other.headers))
    const get = await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${theirs.id}`, headers: tenant.headers })
    assert.equal(get.statusCode, 404)
    assert.equal(json(get).code, 'user_not_found')
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${theirs.id}`,
      headers: tenant.headers,
      payload: putBody(theirs, { roles: [], groups: [] }),
    })
    assert.equal(put.statusCode, 404)
    const search = await t.app.inject({
      method: 'GET',
      url: `/api/v1/adminusers?searchData.id=${theirs.id}`,
      headers: tenant.headers,
    })
    assert.deepEqual(json(search), [])
    const byEmail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/adminusers?searchData.emailAddress=${encodeURIComponent(theirs.emailAddress)}`,
      headers: tenant.headers,
    })
    assert.deepEqual(json(byEmail), [])
    const roles = await t.app.inject({
      method: 'GET',
      url: `/api/MembershipRoles/Search/${theirs.id}`,
      headers: tenant.headers,
    })
    assert.equal(roles.statusCode, 404)
    const unchanged = await t.app.inject({
      method: 'GET',
      url: `/api/v1/adminusers/${theirs.id}`,
      headers: other.headers,
    })
    assert.equal(json<User>(unchanged).version, theirs.version)
  })
})

describe('PUT /api/v1/adminusers/{userId}', () => {
  test('full replacement: roles and groups replaced, GET reply with changes accepted', async () => {
    const created = json<User>(
      await createUser({
        emailAddress: uniqueEmail('put'),
        roles: [{ id: await roleIdByCode(t, tenant, 'READ_ONLY') }],
        groups: [{ id: await groupIdByCode(t, tenant, 'STAFF') }],
      }),
    )
    const got = json<User>(
      await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${created.id}`, headers: tenant.headers }),
    )
    const accounting = await roleIdByCode(t, tenant, 'ACCOUNTING')
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${created.id}`,
      headers: tenant.headers,
      payload: {
        ...got,
        firstName: 'Changed',
        isActive: false,
        createdAt: 'whatever',
        roles: [{ id: accounting }],
        groups: [],
      },
    })
    assert.equal(res.statusCode, 200, res.body)
    const u = json<User>(res)
    assert.equal(u.firstName, 'Changed')
    assert.equal(u.isActive, true, 'isActive is read-only and ignored')
    assert.deepEqual(
      u.roles.map((r) => r.id),
      [accounting],
    )
    assert.deepEqual(u.groups, [])
    assert.equal(u.version, got.version + 1)
    assert.equal(u.createdAt, got.createdAt)
  })

  test('every field is required; each missing one is listed', async () => {
    const u = json<User>(await createUser({ emailAddress: uniqueEmail() }))
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${u.id}`,
      headers: tenant.headers,
      payload: { emailAddress: u.emailAddress },
    })
    assert.equal(res.statusCode, 400)
    const fields = json<{ errors: Array<{ field: string; code: string }> }>(res)
      .errors.map((e) => e.field)
      .toSorted()
    assert.deepEqual(fields, [
      'accountHolderId',
      'expiredDate',
      'externalIdentity',
      'firstName',
      'groups',
      'lastName',
      'phoneNumber',
      'roles',
    ])
  })

  test('an id in the body that differs from the path → 400', async () => {
    const u = json<User>(await createUser({ emailAddress: uniqueEmail() }))
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${u.id}`,
      headers: tenant.headers,
      payload: { ...putBody(u), id: u.id + 1 },
    })
    assert.equal(res.statusCode, 400)
    assert.equal(json(res).code, 'id_mismatch')
  })

  test('If-Match: stale version → 412, current → 200', async () => {
    const u = json<User>(await createUser({ emailAddress: uniqueEmail() }))
    const stale = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${u.id}`,
      headers: { ...tenant.headers, 'if-match': '"999"' },
      payload: putBody(u),
    })
    assert.equal(stale.statusCode, 412)
    const ok = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${u.id}`,
      headers: { ...tenant.headers, 'if-match': `"${u.version}"` },
      payload: putBody(u),
    })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.headers.etag, `"${u.version + 1}"`)
  })

  test('email taken by another user → 409', async () => {
    const a = json<User>(await createUser({ emailAddress: uniqueEmail() }))
    const b = json<User>(await createUser({ emailAddress: uniqueEmail() }))
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${b.id}`,
      headers: tenant.headers,
      payload: putBody(b, { emailAddress: a.emailAddress }),
    })
    assert.equal(res.statusCode, 409)
  })
})

describe('expiredDate (spec §3) with a moved clock', () => {
  test('past → stored as now and refused at once; future → active until then; null reactivates', async () => {
    const user = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    const self = () =>
      t.app.inject({ method: 'GET', url: `/api/v1/adminusers?searchData.id=${user.id}`, headers: user.headers })
    assert.equal((await self()).statusCode, 200)
    const current = json<User>(
      await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${user.id}`, headers: tenant.headers }),
    )

    // Past: stored as the current time; the user's still-valid token is refused at once.
    const past = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${user.id}`,
      headers: tenant.headers,
      payload: putBody(current, { expiredDate: '2020-01-01T00:00:00Z' }),
    })
    assert.equal(past.statusCode, 200)
    assert.equal(json<User>(past).expiredDate, t.clock.now().toISOString())
    assert.equal(json<User>(past).isActive, false)
    const refused = await self()
    assert.equal(refused.statusCode, 401)
    assert.equal(json(refused).code, 'user_inactive')
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { grant_type: 'password', username: user.email, password: user.password },
    })
    assert.equal(noToken.statusCode, 400)
    assert.equal(json(noToken).code, 'invalid_grant')

    // null reactivates.
    const reactivated = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${user.id}`,
      headers: tenant.headers,
      payload: putBody(json<User>(past), { expiredDate: null }),
    })
    assert.equal(json<User>(reactivated).isActive, true)
    assert.equal((await self()).statusCode, 200)

    // Future: stored as given; active until that instant, then refused with no job needed.
    const at = new Date(t.clock.now().getTime() + 60 * 60_000)
    const future = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${user.id}`,
      headers: tenant.headers,
      payload: putBody(json<User>(reactivated), { expiredDate: at.toISOString() }),
    })
    assert.equal(json<User>(future).expiredDate, at.toISOString())
    assert.equal(json<User>(future).isActive, true)
    assert.equal((await self()).statusCode, 200)
    t.clock.set(new Date(at.getTime() - 1))
    assert.equal((await self()).statusCode, 200)
    t.clock.set(at)
    assert.equal((await self()).statusCode, 401)
    const later = json<User>(
      await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${user.id}`, headers: tenant.headers }),
    )
    assert.equal(later.isActive, false)
    assert.equal(later.expiredDate, at.toISOString())
    t.clock.set(new Date('2026-06-01T12:00:00Z'))
  })
})

describe('membership', () => {
  test("roles show permissions; groups show users; Search/{userId} lists a user's roles and groups", async () => {
    const member = await createUserWithRoles(t, tenant, ['ACCOUNTING'], {
      groups: [{ id: await groupIdByCode(t, tenant, 'STAFF') }],
    })
    const roles = await t.app.inject({
      method: 'GET',
      url: `/api/MembershipRoles/Search/${member.id}`,
      headers: tenant.headers,
    })
    assert.equal(roles.statusCode, 200)
    const [role] = json<Array<{ id: number; code: string; permissions: string[] }>>(roles)
    assert.equal(role?.code, 'ACCOUNTING')
    assert.ok(role?.permissions.includes('bankdetails:read'))
    const one = await t.app.inject({ method: 'GET', url: `/api/membershiproles/${role!.id}`, headers: tenant.headers })
    assert.deepEqual(json(one), role)
    const groups = json<Array<{ id: number; users: Array<{ id: number }>; kind: string }>>(
      await t.app.inject({ method: 'GET', url: `/api/MembershipGroups/Search/${member.id}`, headers: tenant.headers }),
    )
    assert.equal(groups.length, 1)
    assert.ok(groups[0]!.users.some((u) => u.id === member.id))
    const group = await t.app.inject({
      method: 'GET',
      url: `/api/MembershipGroups/${groups[0]!.id}`,
      headers: tenant.headers,
    })
    assert.equal(json<{ kind: string }>(group).kind, 'STAFF')
    for (const url of [
      '/api/MembershipRoles/999999',
      '/api/MembershipGroups/999999',
      '/api/MembershipGroups/Search/999999',
    ]) {
      assert.equal((await t.app.inject({ method: 'GET', url, headers: tenant.headers })).statusCode, 404, url)
    }
  })

  test("GET /api/MembershipRoles and /api/MembershipGroups list the tenant's roles and groups by id, paged", async () => {
    const member = await createUserWithRoles(t, tenant, ['ACCOUNTING'], {
      groups: [{ id: await groupIdByCode(t, tenant, 'STAFF') }],
    })
    const roles = await t.app.inject({ method: 'GET', url: '/api/MembershipRoles', headers: tenant.headers })
    assert.equal(roles.statusCode, 200, roles.body)
    const all = json<Array<{ id: number; code: string; permissions: string[] }>>(roles)
    assert.equal(roles.headers['x-total-count'], String(all.length))
    assert.deepEqual(
      all.map((r) => r.id),
      all.map((r) => r.id).toSorted((x, y) => x - y),
    )
    const accounting = all.find((r) => r.code === 'ACCOUNTING')
    assert.ok(accounting?.permissions.includes('bankdetails:read'))
    // The same role as by id.
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/MembershipRoles/${accounting!.id}`,
      headers: tenant.headers,
    })
    assert.deepEqual(json(one), accounting)
    // Paged: the second role alone, the total still all of them.
    const second = await t.app.inject({
      method: 'GET',
      url: '/api/MembershipRoles?limit=1&offset=1',
      headers: tenant.headers,
    })
    assert.deepEqual(
      json<Array<{ id: number }>>(second).map((r) => r.id),
      [all[1]!.id],
    )
    assert.equal(second.headers['x-total-count'], String(all.length))

    const groups = await t.app.inject({ method: 'GET', url: '/api/MembershipGroups', headers: tenant.headers })
    assert.equal(groups.statusCode, 200, groups.body)
    const list = json<Array<{ id: number; code: string; kind: string; users: Array<{ id: number }> }>>(groups)
    assert.equal(groups.headers['x-total-count'], String(list.length))
    const staff = list.find((g) => g.code === 'STAFF')
    assert.equal(staff?.kind, 'STAFF')
    assert.ok(staff!.users.some((u) => u.id === member.id))
    const byId = await t.app.inject({
      method: 'GET',
      url: `/api/MembershipGroups/${staff!.id}`,
      headers: tenant.headers,
    })
    assert.deepEqual(json(byId), staff)

    // Another tenant's roles and groups are its own.
    const other = await createTenant(t, 'Roles elsewhere')
    const theirs = json<Array<{ id: number }>>(
      await t.app.inject({ method: 'GET', url: '/api/MembershipRoles', headers: other.headers }),
    )
    assert.equal(
      theirs.some((r) => all.some((m) => m.id === r.id)),
      false,
    )
    // A bad window is the schema's 400.
    const bad = await t.app.inject({ method: 'GET', url: '/api/MembershipGroups?limit=0', headers: tenant.headers })
    assert.equal(bad.statusCode, 400)
  })
})
