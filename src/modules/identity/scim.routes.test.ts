import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  roleIdByCode,
  uniqueEmail,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'

const SCIM = 'application/scim+json'
const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error'
const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

type ScimUser = {
  id: string
  userName: string
  externalId?: string
  active: boolean
  name?: { givenName?: string; familyName?: string }
  emails: Array<{ value: string; type: string; primary: boolean }>
  phoneNumbers?: Array<{ value: string }>
  meta: { resourceType: string; location: string; version: string; created: string; lastModified: string }
}
type ListResponse = {
  schemas: string[]
  totalResults: number
  startIndex: number
  itemsPerPage: number
  Resources: ScimUser[]
}

let t: TestApp
before(async () => {
  t = await createTestApp()
})
after(async () => {
  await t.close()
})

function body<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T
}

function assertScimError(res: LightMyRequestResponse, status: number, scimType?: string): void {
  assert.equal(res.statusCode, status, res.body)
  assert.match(String(res.headers['content-type']), /^application\/scim\+json/)
  const b = body(res)
  assert.deepEqual(b.schemas, [ERROR_URN])
  assert.equal(b.status, String(status))
  assert.equal(typeof b.detail, 'string')
  if (scimType === undefined) assert.equal(b.scimType, undefined, res.body)
  else assert.equal(b.scimType, scimType, res.body)
}

function scim(
  tenant: { headers: Record<string, string> },
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method,
    url,
    headers: { ...tenant.headers, ...(payload !== undefined ? { 'content-type': SCIM } : {}), ...headers },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  })
}

async function createScimUser(tenant: TestTenant, extra: Record<string, unknown> = {}): Promise<ScimUser> {
  const userName = uniqueEmail('scim')
  const res = await scim(tenant, 'POST', '/api/v2/Users', { schemas: [USER_URN], userName, ...extra })
  assert.equal(res.statusCode, 201, res.body)
  return body<ScimUser>(res)
}

test('a SCIM client round trip: create, filter by userName, deactivate with PUT, seen expired in v1', async () => {
  const tenant = await createTenant(t)
  const userName = uniqueEmail('Jane.Doe')
  const externalId = `entra-${userName}`

  const created = await scim(tenant, 'POST', '/api/v2/Users', {
    schemas: [USER_URN],
    userName,
    externalId,
    active: true,
    displayName: 'Jane Doe',
    name: { givenName: 'Jane', familyName: 'Doe', formatted: 'Jane Doe' },
    emails: [{ value: userName, type: 'work', primary: true }],
    phoneNumbers: [{ value: '+15555550100', type: 'work' }],
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Claims' },
  })
  assert.equal(created.statusCode, 201, created.body)
  assert.equal(created.headers['content-type'], 'application/scim+json; charset=utf-8')
  const user = body<ScimUser>(created)
  assert.match(user.id, /^\d+$/)
  assert.deepEqual(
    { ...user, meta: undefined },
    {
      schemas: [USER_URN],
      id: user.id,
      externalId,
      userName,
      name: { givenName: 'Jane', familyName: 'Doe' },
      active: true,
      emails: [{ value: userName, type: 'work', primary: true }],
      phoneNumbers: [{ value: '+15555550100', type: 'work', primary: true }],
      meta: undefined,
    },
  )
  assert.equal(user.meta.resourceType, 'User')
  assert.equal(user.meta.location, `http://localhost:80/api/v2/Users/${user.id}`)
  assert.equal(created.headers.location, user.meta.location)
  assert.equal(user.meta.version, 'W/"1"')
  assert.equal(created.headers.etag, 'W/"1"')

  const found = await scim(
    tenant,
    'GET',
    `/api/v2/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`,
  )
  assert.equal(found.statusCode, 200, found.body)
  assert.match(String(found.headers['content-type']), /^application\/scim\+json/)
  const list = body<ListResponse>(found)
  assert.deepEqual(list.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse'])
  assert.equal(list.totalResults, 1)
  assert.equal(list.itemsPerPage, 1)
  assert.equal(list.startIndex, 1)
  assert.equal(list.Resources[0]?.id, user.id)

  // Okta-style full replacement, deactivating.
  const put = await scim(tenant, 'PUT', `/api/v2/Users/${user.id}`, { ...user, active: false })
  assert.equal(put.statusCode, 200, put.body)
  const deactivated = body<ScimUser>(put)
  assert.equal(deactivated.active, false)
  assert.equal(deactivated.meta.version, 'W/"2"')
  assert.equal(put.headers.etag, 'W/"2"')

  const v1 = await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${user.id}`, headers: tenant.headers })
  assert.equal(v1.statusCode, 200, v1.body)
  const v1User = body(v1)
  assert.equal(v1User.expiredDate, t.clock.now().toISOString())
  assert.equal(v1User.isActive, false)
  assert.equal(v1User.externalIdentity, externalId)
  assert.equal(v1User.firstName, 'Jane')

  // The filter sees the deactivated user, with active false.
  const again = body<ListResponse>(
    await scim(tenant, 'GET', `/api/v2/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`),
  )
  assert.equal(again.Resources[0]?.active, false)
})

test('PATCH as Entra ID sends it: deactivate and reactivate, attribute changes', async () => {
  const tenant = await createTenant(t)
  const user = await createScimUser(tenant, { name: { givenName: 'Ann', familyName: 'Lee' } })

  const off = await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
    schemas: [PATCH_URN],
    Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
  })
  assert.equal(off.statusCode, 200, off.body)
  assert.equal(body<ScimUser>(off).active, false)
  let v1 = body(await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${user.id}`, headers: tenant.headers }))
  assert.equal(v1.isActive, false)
  assert.equal(v1.expiredDate, t.clock.now().toISOString())

  // Deactivating again changes nothing, not even the version.
  t.clock.advance(60_000)
  const offAgain = await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
    schemas: [PATCH_URN],
    Operations: [{ op: 'replace', value: { active: false } }],
  })
  assert.equal(offAgain.statusCode, 200, offAgain.body)
  assert.equal(body<ScimUser>(offAgain).meta.version, body<ScimUser>(off).meta.version)

  const on = await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
    schemas: [PATCH_URN],
    Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
  })
  assert.equal(on.statusCode, 200, on.body)
  assert.equal(body<ScimUser>(on).active, true)
  v1 = body(await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${user.id}`, headers: tenant.headers }))
  assert.equal(v1.isActive, true)
  assert.equal(v1.expiredDate, null)

  const newName = uniqueEmail('ann.renamed')
  const changed = await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
    schemas: [PATCH_URN],
    Operations: [
      { op: 'Replace', path: 'name.givenName', value: 'Annie' },
      { op: 'Replace', path: 'emails[type eq "work"].value', value: newName },
      { op: 'Add', path: 'externalId', value: 'entra-object-1' },
      { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+15555550142' },
      { op: 'Add', path: 'displayName', value: 'Annie Lee' },
      { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Claims' },
    ],
  })
  assert.equal(changed.statusCode, 200, changed.body)
  const u = body<ScimUser>(changed)
  assert.equal(u.userName, newName)
  assert.deepEqual(u.emails, [{ value: newName, type: 'work', primary: true }])
  assert.deepEqual(u.name, { givenName: 'Annie', familyName: 'Lee' })
  assert.equal(u.externalId, 'entra-object-1')
  assert.equal(u.phoneNumbers?.[0]?.value, '+15555550142')
  assert.equal(changed.headers.etag, u.meta.version)

  // Plain application/json is accepted too.
  const plain = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/Users/${user.id}`,
    headers: { ...tenant.headers, 'content-type': 'application/json' },
    payload: { Operations: [{ op: 'remove', path: 'name.familyName' }] },
  })
  assert.equal(plain.statusCode, 200, plain.body)
  assert.deepEqual(body<ScimUser>(plain).name, { givenName: 'Annie' })
  assert.match(String(plain.headers['content-type']), /^application\/scim\+json/)

  // All or nothing: a failing operation leaves the user unchanged.
  const bad = await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
    Operations: [
      { op: 'replace', path: 'name.givenName', value: 'Nope' },
      { op: 'replace', path: 'active', value: 'maybe' },
    ],
  })
  assertScimError(bad, 400, 'invalidValue')
  assert.equal(body<ScimUser>(await scim(tenant, 'GET', `/api/v2/Users/${user.id}`)).name?.givenName, 'Annie')

  assertScimError(
    await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
      Operations: [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }],
    }),
    400,
    'invalidPath',
  )
  assertScimError(
    await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, { Operations: [{ op: 'remove' }] }),
    400,
    'noTarget',
  )
  assertScimError(
    await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
      Operations: [{ op: 'replace', path: 'id', value: '1' }],
    }),
    400,
    'mutability',
  )
  assertScimError(
    await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
      Operations: [{ op: 'move', path: 'active', value: true }],
    }),
    400,
    'invalidValue',
  )
  assertScimError(
    await scim(tenant, 'PATCH', `/api/v2/Users/${user.id}`, {
      Operations: [{ op: 'replace', path: 'userName', value: 'not-an-email' }],
    }),
    400,
    'invalidValue',
  )
})

test('PUT keeps roles, groups and what SCIM does not carry; If-Match and If-None-Match', async () => {
  const tenant = await createTenant(t)
  const roleId = await roleIdByCode(t, tenant, 'READ_ONLY')
  const email = uniqueEmail('kept')
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/adminusers',
    headers: tenant.headers,
    payload: {
      emailAddress: email,
      externalIdentity: 'ext-kept',
      firstName: 'Kim',
      roles: [{ id: roleId }],
      accountHolderId: 7,
    },
  })
  assert.equal(created.statusCode, 201, created.body)
  const id = body(created).id as number

  const current = await scim(tenant, 'GET', `/api/v2/Users/${id}`)
  assert.equal(current.statusCode, 200)
  assert.equal(current.headers.etag, 'W/"1"')
  const notModified = await scim(tenant, 'GET', `/api/v2/Users/${id}`, undefined, { 'if-none-match': 'W/"1"' })
  assert.equal(notModified.statusCode, 304)
  assert.equal(notModified.body, '')

  assertScimError(
    await scim(
      tenant,
      'PUT',
      `/api/v2/Users/${id}`,
      { userName: email, name: { givenName: 'Kimberly' } },
      { 'if-match': 'W/"7"' },
    ),
    412,
  )
  const put = await scim(
    tenant,
    'PUT',
    `/api/v2/Users/${id}`,
    { userName: email, name: { givenName: 'Kimberly' } },
    { 'if-match': 'W/"1"' },
  )
  assert.equal(put.statusCode, 200, put.body)
  const u = body<ScimUser>(put)
  assert.equal(u.externalId, 'ext-kept', 'externalId left out is kept')
  assert.equal(u.active, true, 'active left out is kept')

  const v1 = body(await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${id}`, headers: tenant.headers }))
  assert.deepEqual(
    (v1.roles as Array<{ id: number }>).map((r) => r.id),
    [roleId],
  )
  assert.equal(v1.accountHolderId, 7)
  assert.equal(v1.firstName, 'Kimberly')

  // A strong tag as v1 sends it also matches; a stale one is 412 on PATCH too.
  assertScimError(
    await scim(
      tenant,
      'PATCH',
      `/api/v2/Users/${id}`,
      { Operations: [{ op: 'replace', path: 'active', value: false }] },
      { 'if-match': '"1"' },
    ),
    412,
  )
  const patched = await scim(
    tenant,
    'PATCH',
    `/api/v2/Users/${id}`,
    { Operations: [{ op: 'replace', path: 'active', value: false }] },
    { 'if-match': '"2"' },
  )
  assert.equal(patched.statusCode, 200, patched.body)

  // A work email that differs from userName is refused rather than half stored.
  assertScimError(
    await scim(tenant, 'PUT', `/api/v2/Users/${id}`, {
      userName: email,
      emails: [{ value: uniqueEmail('other'), type: 'work' }],
    }),
    400,
    'invalidValue',
  )
})

test('filters: and, or, parentheses, emails; invalid filters are 400 invalidFilter', async () => {
  const tenant = await createTenant(t)
  const a = await createScimUser(tenant, { externalId: 'ext-a' })
  const b = await createScimUser(tenant, { externalId: 'ext-b' })
  await createScimUser(tenant, { externalId: 'ext-c' })
  const ids = async (filter: string) => {
    const res = await scim(tenant, 'GET', `/api/v2/Users?filter=${encodeURIComponent(filter)}`)
    assert.equal(res.statusCode, 200, `${filter}: ${res.body}`)
    const list = body<ListResponse>(res)
    assert.equal(list.totalResults, list.Resources.length)
    return list.Resources.map((r) => r.id)
  }
  assert.deepEqual(await ids(`userName eq "${a.userName}" or externalId eq "ext-b"`), [a.id, b.id])
  assert.deepEqual(await ids(`externalId eq "ext-b" or userName eq "${a.userName}"`), [a.id, b.id], 'ordered by id')
  assert.deepEqual(await ids(`userName eq "${a.userName}" and externalId eq "ext-a"`), [a.id])
  assert.deepEqual(await ids(`userName eq "${a.userName}" and externalId eq "ext-b"`), [])
  assert.deepEqual(
    await ids(`(userName eq "${a.userName}" or userName eq "${b.userName}") and externalId eq "ext-b"`),
    [b.id],
  )
  assert.deepEqual(await ids(`emails.value eq "${b.userName}"`), [b.id])
  assert.deepEqual(await ids(`emails[type eq "work"].value eq "${b.userName}"`), [b.id])
  assert.deepEqual(await ids(`emails[type eq "work" and value eq "${b.userName.toUpperCase()}"]`), [b.id])
  assert.deepEqual(
    await ids(`USERNAME Eq "${a.userName}"`),
    [a.id],
    'attribute names and operators are case-insensitive',
  )
  assert.deepEqual(await ids('externalId eq "EXT-A"'), [], 'externalId is case-exact')
  assert.deepEqual(await ids(`id eq "${a.id}" or id eq "nope"`), [a.id])
  assert.deepEqual(await ids('userName eq "nobody@test.example"'), [])

  for (const filter of [
    'userName co "x"',
    'name.givenName eq "Jane"',
    'userName eq',
    'not (userName eq "x")',
    'userName eq "x" or',
    'active eq true',
    '',
  ]) {
    assertScimError(
      await scim(tenant, 'GET', `/api/v2/Users?filter=${encodeURIComponent(filter)}`),
      400,
      'invalidFilter',
    )
  }
})

test('paging: startIndex and count, capped, stable order', async () => {
  const tenant = await createTenant(t)
  for (let i = 0; i < 5; i++) await createScimUser(tenant)
  const all = body<ListResponse>(await scim(tenant, 'GET', '/api/v2/Users'))
  assert.equal(all.totalResults, 6) // the tenant administrator and five
  assert.equal(all.itemsPerPage, 6)
  const allIds = all.Resources.map((r) => Number(r.id))
  assert.deepEqual(
    allIds,
    allIds.toSorted((x, y) => x - y),
  )

  const page = body<ListResponse>(await scim(tenant, 'GET', '/api/v2/Users?startIndex=2&count=2'))
  assert.deepEqual(
    { ...page, Resources: page.Resources.map((r) => Number(r.id)) },
    {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 6,
      startIndex: 2,
      itemsPerPage: 2,
      Resources: allIds.slice(1, 3),
    },
  )
  const last = body<ListResponse>(await scim(tenant, 'GET', '/api/v2/Users?startIndex=6&count=10'))
  assert.deepEqual(
    last.Resources.map((r) => Number(r.id)),
    allIds.slice(5),
  )
  const beyond = body<ListResponse>(await scim(tenant, 'GET', '/api/v2/Users?startIndex=50'))
  assert.equal(beyond.totalResults, 6)
  assert.equal(beyond.itemsPerPage, 0)
  const onlyTotal = body<ListResponse>(await scim(tenant, 'GET', '/api/v2/Users?count=0'))
  assert.deepEqual({ total: onlyTotal.totalResults, items: onlyTotal.itemsPerPage }, { total: 6, items: 0 })
  const negative = body<ListResponse>(await scim(tenant, 'GET', '/api/v2/Users?startIndex=-3&count=-1'))
  assert.deepEqual({ start: negative.startIndex, items: negative.itemsPerPage }, { start: 1, items: 0 })
  const capped = await scim(tenant, 'GET', '/api/v2/Users?count=5000')
  assert.equal(body<ListResponse>(capped).itemsPerPage, 6)

  // Paging a filter's matches.
  const filter = encodeURIComponent(
    all.Resources.slice(1, 4)
      .map((r) => `userName eq "${r.userName}"`)
      .join(' or '),
  )
  const filtered = body<ListResponse>(await scim(tenant, 'GET', `/api/v2/Users?filter=${filter}&startIndex=2&count=1`))
  assert.deepEqual(
    { total: filtered.totalResults, ids: filtered.Resources.map((r) => Number(r.id)) },
    { total: 3, ids: [allIds[2]] },
  )

  assertScimError(await scim(tenant, 'GET', '/api/v2/Users?count=many'), 400, 'invalidValue')
  // Parameters the service does not support are ignored (RFC 7644 §3.4.2).
  assert.equal((await scim(tenant, 'GET', '/api/v2/Users?sortBy=userName&attributes=userName')).statusCode, 200)
})

test('duplicate userName or externalId is 409 uniqueness', async () => {
  const tenant = await createTenant(t)
  const user = await createScimUser(tenant, { externalId: 'dup-ext' })
  assertScimError(
    await scim(tenant, 'POST', '/api/v2/Users', { userName: user.userName.toUpperCase() }),
    409,
    'uniqueness',
  )
  assertScimError(
    await scim(tenant, 'POST', '/api/v2/Users', { userName: uniqueEmail('other'), externalId: 'dup-ext' }),
    409,
    'uniqueness',
  )
  const other = await createScimUser(tenant)
  assertScimError(
    await scim(tenant, 'PUT', `/api/v2/Users/${other.id}`, { userName: user.userName }),
    409,
    'uniqueness',
  )
  assertScimError(
    await scim(tenant, 'PATCH', `/api/v2/Users/${other.id}`, {
      Operations: [{ op: 'replace', path: 'externalId', value: 'dup-ext' }],
    }),
    409,
    'uniqueness',
  )
})

test('ids that name no user of the tenant are 404 on GET, PUT and PATCH', async () => {
  const tenant = await createTenant(t)
  const otherTenant = await createTenant(t, 'Other tenant')
  const foreign = await createScimUser(otherTenant)
  const ids = [
    '999999999',
    'abc',
    '12abc',
    '0',
    '-1',
    '007',
    '1.5',
    '99999999999999999999999',
    'x'.repeat(400),
    foreign.id,
    encodeURIComponent('1 or 1=1'),
  ]
  for (const id of ids) {
    assertScimError(await scim(tenant, 'GET', `/api/v2/Users/${id}`), 404)
    assertScimError(await scim(tenant, 'PUT', `/api/v2/Users/${id}`, { userName: uniqueEmail('x') }), 404)
    assertScimError(
      await scim(tenant, 'PATCH', `/api/v2/Users/${id}`, {
        Operations: [{ op: 'replace', path: 'active', value: false }],
      }),
      404,
    )
  }
  // The other tenant's user is untouched.
  assert.equal(body<ScimUser>(await scim(otherTenant, 'GET', `/api/v2/Users/${foreign.id}`)).active, true)
})

test('authentication and permission failures are SCIM errors', async () => {
  const tenant = await createTenant(t)
  const user = await createScimUser(tenant)
  for (const [method, url] of [
    ['GET', '/api/v2/Users'],
    ['GET', `/api/v2/Users/${user.id}`],
    ['POST', '/api/v2/Users'],
    ['PATCH', `/api/v2/Users/${user.id}`],
    ['GET', '/api/v2/ServiceProviderConfig'],
  ] as const) {
    const none = await t.app.inject({
      method,
      url,
      headers: { 'content-type': SCIM },
      ...(method === 'GET' ? {} : { payload: '{}' }),
    })
    assertScimError(none, 401)
  }
  const badToken = await t.app.inject({
    method: 'GET',
    url: '/api/v2/Users',
    headers: { 'x-api-key': tenant.apiKey, authorization: 'Bearer nope' },
  })
  assertScimError(badToken, 401)
  assert.match(String(badToken.headers['www-authenticate']), /^Bearer/)

  const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
  assert.equal((await scim(reader, 'GET', `/api/v2/Users/${user.id}`)).statusCode, 200)
  assertScimError(await scim(reader, 'POST', '/api/v2/Users', { userName: uniqueEmail('x') }), 403)
  assertScimError(
    await scim(reader, 'PUT', `/api/v2/Users/${user.id}`, { userName: user.userName, active: false }),
    403,
  )
  assertScimError(
    await scim(reader, 'PATCH', `/api/v2/Users/${user.id}`, {
      Operations: [{ op: 'replace', path: 'active', value: false }],
    }),
    403,
  )
  const nobody = await createUserWithRoles(t, tenant, [])
  assertScimError(await scim(nobody, 'GET', '/api/v2/Users'), 403)
})

test('malformed bodies are SCIM errors', async () => {
  const tenant = await createTenant(t)
  const malformed = await t.app.inject({
    method: 'POST',
    url: '/api/v2/Users',
    headers: { ...tenant.headers, 'content-type': SCIM },
    payload: '{"userName":',
  })
  assertScimError(malformed, 400, 'invalidSyntax')
  assertScimError(
    await scim(tenant, 'POST', '/api/v2/Users', { name: { givenName: 'No userName' } }),
    400,
    'invalidValue',
  )
  assertScimError(await scim(tenant, 'POST', '/api/v2/Users', { userName: 'not-an-email' }), 400, 'invalidValue')
  assertScimError(
    await scim(tenant, 'POST', '/api/v2/Users', { userName: uniqueEmail('x'), active: 'maybe' }),
    400,
    'invalidValue',
  )
  assertScimError(
    await scim(tenant, 'POST', '/api/v2/Users', { userName: uniqueEmail('x'), phoneNumbers: [{ value: 'call me' }] }),
    400,
    'invalidValue',
  )
  assertScimError(await scim(tenant, 'PATCH', '/api/v2/Users/1', { Operations: [] }), 400, 'invalidValue')
  const text = await t.app.inject({
    method: 'POST',
    url: '/api/v2/Users',
    headers: { ...tenant.headers, 'content-type': 'text/plain' },
    payload: 'userName=x',
  })
  assertScimError(text, 415)
})

test('POST with Active "False" creates an expired user; Idempotency-Key replays as SCIM', async () => {
  const tenant = await createTenant(t)
  const userName = uniqueEmail('idem')
  const first = await scim(
    tenant,
    'POST',
    '/api/v2/Users',
    { userName, active: 'False' },
    { 'idempotency-key': `k-${userName}` },
  )
  assert.equal(first.statusCode, 201, first.body)
  assert.equal(body<ScimUser>(first).active, false)
  const replay = await scim(
    tenant,
    'POST',
    '/api/v2/Users',
    { userName, active: 'False' },
    { 'idempotency-key': `k-${userName}` },
  )
  assert.equal(replay.statusCode, 201, replay.body)
  assert.equal(replay.headers['idempotent-replayed'], 'true')
  assert.equal(body<ScimUser>(replay).id, body<ScimUser>(first).id)
  assert.match(String(replay.headers['content-type']), /^application\/scim\+json/)
})

test('discovery: ServiceProviderConfig, Schemas, ResourceTypes', async () => {
  const tenant = await createTenant(t)
  const spcRes = await scim(tenant, 'GET', '/api/v2/ServiceProviderConfig')
  assert.equal(spcRes.statusCode, 200, spcRes.body)
  assert.match(String(spcRes.headers['content-type']), /^application\/scim\+json/)
  const spc = body(spcRes)
  assert.deepEqual(spc.schemas, ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'])
  assert.deepEqual(
    {
      patch: spc.patch,
      bulk: spc.bulk,
      filter: spc.filter,
      changePassword: spc.changePassword,
      sort: spc.sort,
      etag: spc.etag,
    },
    {
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 1000 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
    },
  )
  assert.equal((spc.authenticationSchemes as Array<{ type: string }>)[0]?.type, 'oauthbearertoken')

  const schemas = body<{ totalResults: number; Resources: Array<{ id: string; attributes: Array<{ name: string }> }> }>(
    await scim(tenant, 'GET', '/api/v2/Schemas'),
  )
  assert.equal(schemas.totalResults, 1)
  assert.equal(schemas.Resources[0]?.id, USER_URN)
  assert.deepEqual(
    schemas.Resources[0]?.attributes.map((a) => a.name),
    ['id', 'externalId', 'userName', 'name', 'active', 'emails', 'phoneNumbers'],
  )
  const one = await scim(tenant, 'GET', `/api/v2/Schemas/${USER_URN}`)
  assert.equal(one.statusCode, 200, one.body)
  assert.equal(body(one).name, 'User')
  assertScimError(await scim(tenant, 'GET', '/api/v2/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group'), 404)

  const types = body<{ Resources: Array<{ id: string; endpoint: string; schema: string }> }>(
    await scim(tenant, 'GET', '/api/v2/ResourceTypes'),
  )
  assert.deepEqual(
    types.Resources.map((r) => [r.id, r.endpoint, r.schema]),
    [['User', '/Users', USER_URN]],
  )
  assert.equal(body(await scim(tenant, 'GET', '/api/v2/ResourceTypes/User')).endpoint, '/Users')
  assertScimError(await scim(tenant, 'GET', '/api/v2/ResourceTypes/Group'), 404)
  assertScimError(await scim(tenant, 'GET', `/api/v2/Schemas?filter=${encodeURIComponent('id eq "x"')}`), 403)
})

test('the SCIM routes are in the OpenAPI document', async () => {
  const doc = body<{
    paths: Record<
      string,
      Record<
        string,
        { tags?: string[]; responses: Record<string, unknown>; requestBody?: { content: Record<string, unknown> } }
      >
    >
  }>(await t.app.inject({ method: 'GET', url: '/api/openapi.json' }))
  for (const [path, methods] of [
    ['/api/v2/Users', ['get', 'post']],
    ['/api/v2/Users/{id}', ['get', 'put', 'patch']],
    ['/api/v2/ServiceProviderConfig', ['get']],
    ['/api/v2/Schemas', ['get']],
    ['/api/v2/Schemas/{id}', ['get']],
    ['/api/v2/ResourceTypes', ['get']],
    ['/api/v2/ResourceTypes/{id}', ['get']],
  ] as const) {
    for (const m of methods) {
      const op = doc.paths[path]?.[m]
      assert.ok(op, `${m} ${path}`)
      assert.deepEqual(op.tags, ['SCIM'])
      assert.ok(op.responses['401'], `${m} ${path} documents 401`)
    }
  }
  assert.ok(doc.paths['/api/v2/Users']?.post?.requestBody?.content['application/scim+json'])
})
