// Account holders through HTTP: every kind's create → read → patch (both formats) → list, plus
// duplicates, bad references, bad input, tax-id masking, expiry, and other tenants' ids.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { systemContext } from '../../platform/http/context.ts'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  loginHeaders,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'
import { KINDS } from './index.ts'

type Rep = Record<string, unknown> & { id: number; version: number; isActive: boolean }

let t: TestApp
let tenant: TestTenant
let other: TestTenant

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
  tenant = await createTenant(t, 'Parties')
  other = await createTenant(t, 'Other parties')
})
after(() => t.close())

const post = (url: string, payload: unknown, headers = tenant.headers) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> })
const get = (url: string, headers = tenant.headers) => t.app.inject({ method: 'GET', url, headers })
const mergePatch = (url: string, payload: unknown, headers = tenant.headers) =>
  t.app.inject({
    method: 'PATCH',
    url,
    headers: { ...headers, 'content-type': 'application/merge-patch+json' },
    payload: JSON.stringify(payload),
  })
const jsonPatch = (url: string, payload: unknown, headers = tenant.headers) =>
  t.app.inject({
    method: 'PATCH',
    url,
    headers: { ...headers, 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify(payload),
  })

const address = { line1: '100 Congress Ave', city: 'Austin', state: 'TX', postalCode: '78701' }

const creatable = Object.values(KINDS).filter((k) => k.creatable)

describe('every creatable kind: create → read → patch (both formats) → list', () => {
  for (const def of creatable) {
    test(def.path, async () => {
      const key = def.businessKeyField!
      const body = {
        ...def.example,
        [key]: `K-${def.kind}`,
        addresses: [address],
        phones: [{ number: '(512) 555-0100' }],
        emails: [{ address: 'office@example.com' }],
      }
      const created = await post(def.path, body)
      assert.equal(created.statusCode, 201, created.body)
      const rep = json<Rep>(created)
      assert.equal(created.headers.location, `${def.path}/${rep.id}`)
      assert.equal(rep.kind, def.kind)
      assert.equal(rep[key], `K-${def.kind}`)
      assert.equal(rep.isActive, true)
      assert.deepEqual(rep.addresses, [{ type: 'MAILING', ...address, country: 'US' }])

      const read = await get(`${def.path}/${rep.id}`)
      assert.equal(read.statusCode, 200)
      assert.equal(read.headers.etag, `"${rep.version}"`)
      assert.deepEqual(json(read), rep)

      const merged = await mergePatch(`${def.path}/${rep.id}`, { displayName: 'Merged name', emails: null })
      assert.equal(merged.statusCode, 200, merged.body)
      assert.equal(json<Rep>(merged).displayName, 'Merged name')
      assert.equal(json<Rep>(merged).version, rep.version + 1)

      const patched = await jsonPatch(`${def.path}/${rep.id}`, [
        { op: 'test', path: '/displayName', value: 'Merged name' },
        { op: 'replace', path: '/legalName', value: 'Patched legal name' },
        { op: 'add', path: '/phones/-', value: { type: 'FAX', number: '+15125550199' } },
      ])
      assert.equal(patched.statusCode, 200, patched.body)
      assert.equal(json<Rep>(patched).legalName, 'Patched legal name')
      assert.equal((json<Rep>(patched).phones as unknown[]).length, 2)

      const listed = await get(`${def.path}?name=patched&state=TX&status=ACTIVE&${key}=k-${def.kind.toLowerCase()}`)
      assert.equal(listed.statusCode, 200, listed.body)
      assert.deepEqual(
        json<Rep[]>(listed).map((r) => r.id),
        [rep.id],
      )
      assert.equal(listed.headers['x-total-count'], '1')
      assert.deepEqual(json(await get(`${def.path}?name=nothing-like-this`)), [])

      // Another tenant's id answers exactly like a missing one.
      for (const headers of [other.headers]) {
        assert.equal((await get(`${def.path}/${rep.id}`, headers)).statusCode, 404)
        assert.equal((await mergePatch(`${def.path}/${rep.id}`, { displayName: 'x' }, headers)).statusCode, 404)
        assert.deepEqual(json(await get(`${def.path}?${key}=K-${def.kind}`, headers)), [])
      }
    })
  }
})

describe('rules on every route', () => {
  test('duplicate business key (any case) → 409; the same key in another kind or tenant is fine', async () => {
    assert.equal((await post('/api/dealers', { dealerNumber: 'D-100', legalName: 'First' })).statusCode, 201)
    const dup = await post('/api/dealers', { dealerNumber: 'd-100', legalName: 'Second' })
    assert.equal(dup.statusCode, 409)
    assert.equal(json(dup).code, 'business_key_taken')
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(dup).errors.map((e) => e.field),
      ['dealerNumber'],
    )
    assert.equal((await post('/api/agents', { agentCode: 'D-100', legalName: 'Agent' })).statusCode, 201)
    assert.equal(
      (await post('/api/dealers', { dealerNumber: 'D-100', legalName: 'Theirs' }, other.headers)).statusCode,
      201,
    )
  })

  test('references must exist in the tenant with the right kind → 422 naming each field', async () => {
    const theirGroup = json<Rep>(
      await post('/api/dealergroups', { groupCode: 'THEIRS', legalName: 'Their group' }, other.headers),
    )
    const agent = json<Rep>(await post('/api/agents', { agentCode: 'AG-REF', legalName: 'Agent' }))
    const res = await post('/api/dealers', {
      dealerNumber: 'D-REF',
      legalName: 'Dealer',
      dealerGroupId: theirGroup.id,
      agentIds: [agent.id, 987654321],
    })
    assert.equal(res.statusCode, 422)
    assert.equal(json(res).code, 'unknown_reference')
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(res).errors.map((e) => e.field),
      ['dealerGroupId', 'agentIds[1]'],
    )
    const wrongKind = await post('/api/dealers', {
      dealerNumber: 'D-REF2',
      legalName: 'Dealer',
      dealerGroupId: agent.id,
    })
    assert.equal(wrongKind.statusCode, 422)
  })

  test('bad input lists every field and saves nothing', async () => {
    const res = await post('/api/dealers', {
      dealerNumber: 'bad key!',
      legalName: '',
      taxId: '12345',
      emails: [{ address: 'nope' }],
      addresses: [{ line1: '1 Main', city: 'Austin', state: 'XX', postalCode: '7870' }],
      phones: [{ number: '555-0100' }],
      color: 'red',
    })
    assert.equal(res.statusCode, 400)
    const fields = json<{ errors: Array<{ field: string }> }>(res)
      .errors.map((e) => e.field)
      .toSorted()
    assert.deepEqual(fields, [
      'addresses[0].postalCode',
      'addresses[0].state',
      'color',
      'dealerNumber',
      'emails[0].address',
      'legalName',
      'phones[0].number',
      'taxId',
    ])
    assert.deepEqual(json(await get('/api/dealers?dealerNumber=bad')), [])
  })

  test('PATCH: identity, kind and timestamps cannot change; the result is validated as a whole; If-Match', async () => {
    const d = json<Rep>(await post('/api/dealers', { dealerNumber: 'D-PATCH', legalName: 'Patch me' }))
    const immutable = await mergePatch(`/api/dealers/${d.id}`, {
      id: d.id + 1,
      kind: 'AGENT',
      createdAt: '2000-01-01T00:00:00Z',
    })
    assert.equal(immutable.statusCode, 422)
    assert.equal(json(immutable).code, 'immutable_field')
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(immutable).errors.map((e) => e.field),
      ['id', 'kind', 'createdAt'],
    )
    const viaJsonPatch = await jsonPatch(`/api/dealers/${d.id}`, [{ op: 'replace', path: '/kind', value: 'AGENT' }])
    assert.equal(viaJsonPatch.statusCode, 422)
    const invalid = await mergePatch(`/api/dealers/${d.id}`, { legalName: null, phones: [{ number: 'x' }] })
    assert.equal(invalid.statusCode, 422)
    assert.equal(json(invalid).code, 'patched_resource_invalid')
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(invalid)
        .errors.map((e) => e.field)
        .toSorted(),
      ['legalName', 'phones[0].number'],
    )
    const unresolvable = await jsonPatch(`/api/dealers/${d.id}`, [{ op: 'replace', path: '/nothing/here', value: 1 }])
    assert.equal(unresolvable.statusCode, 422)
    assert.equal(json(unresolvable).code, 'invalid_patch')
    const failedTest = await jsonPatch(`/api/dealers/${d.id}`, [{ op: 'test', path: '/legalName', value: 'Other' }])
    assert.equal(failedTest.statusCode, 422)
    const stale = await t.app.inject({
      method: 'PATCH',
      url: `/api/dealers/${d.id}`,
      headers: { ...tenant.headers, 'if-match': '"99"' },
      payload: { legalName: 'x' },
    })
    assert.equal(stale.statusCode, 412)
    const plainJson = await t.app.inject({
      method: 'PATCH',
      url: `/api/dealers/${d.id}`,
      headers: { ...tenant.headers, 'if-match': `"${d.version}"` },
      payload: { legalName: 'Plain JSON is a merge patch' },
    })
    assert.equal(plainJson.statusCode, 200)
    assert.equal(json<Rep>(await get(`/api/dealers/${d.id}`)).version, d.version + 1, 'failed patches changed nothing')
  })

  test('tax ids are shown in clear only to holders of bankdetails:read', async () => {
    const d = json<Rep>(await post('/api/insurers', { insurerCode: 'TAX', legalName: 'Taxed', taxId: '12-3456789' }))
    assert.equal(d.taxId, '12-3456789')
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    assert.equal(json<Rep>(await get(`/api/insurers/${d.id}`, reader.headers)).taxId, '*****6789')
    const audit = await t.db.read(tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('changes')
        .where('tenant_id', '=', tenant.tenantId)
        .where('entity_type', '=', 'account_holder')
        .where('entity_id', '=', String(d.id))
        .execute(),
    )
    assert.equal(audit.length, 1)
    assert.doesNotMatch(JSON.stringify(audit), /3456789/)
  })

  test('expired account holders are not active; status filter EXPIRED finds them', async () => {
    const d = json<Rep>(
      await post('/api/dealers', { dealerNumber: 'D-EXP', legalName: 'Expiring', expiredDate: '2026-07-01T00:00:00Z' }),
    )
    assert.equal(d.isActive, true)
    t.clock.set(new Date('2026-07-01T00:00:00Z'))
    try {
      // A month later the admin needs a fresh token too.
      const headers = await loginHeaders(t, tenant.apiKey, tenant.adminEmail, tenant.adminPassword)
      assert.equal(json<Rep>(await get(`/api/dealers/${d.id}`, headers)).isActive, false)
      assert.ok(json<Rep[]>(await get('/api/dealers?status=EXPIRED', headers)).some((r) => r.id === d.id))
      assert.ok(!json<Rep[]>(await get('/api/dealers?status=ACTIVE', headers)).some((r) => r.id === d.id))
    } finally {
      t.clock.set(new Date('2026-06-01T12:00:00Z'))
    }
  })

  test('read-only users cannot write; no credentials → 401', async () => {
    const reader = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    assert.equal((await post('/api/dealers', { dealerNumber: 'RO', legalName: 'x' }, reader.headers)).statusCode, 403)
    assert.equal((await get('/api/dealers', reader.headers)).statusCode, 200)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/dealers' })).statusCode, 401)
  })

  test('every change is audited', async () => {
    const d = json<Rep>(await post('/api/lienHolders', { lienHolderCode: 'AUD', legalName: 'Audited bank' }))
    await mergePatch(`/api/lienHolders/${d.id}`, { displayName: 'Audited' })
    const rows = await t.db.read(tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'actor_user_id'])
        .where('tenant_id', '=', tenant.tenantId)
        .where('entity_type', '=', 'account_holder')
        .where('entity_id', '=', String(d.id))
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(
      rows.map((r) => r.action),
      ['lien_holder.created', 'lien_holder.updated'],
    )
    assert.ok(rows.every((r) => r.actor_user_id === tenant.adminUserId))
  })
})

describe('customers, search, administrator company, paged lien holders', () => {
  test('customers are created by contracts (a factory here), then read, listed and patched', async () => {
    const dealer = json<Rep>(await post('/api/dealers', { dealerNumber: 'D-CUST', legalName: 'Seller' }))
    const row = await t.modules.parties.accountHolders.create(systemContext(tenant.tenantId), KINDS.CUSTOMER, {
      legalName: 'Sam J Buyer',
      firstName: 'Sam',
      middleInitial: 'J',
      lastName: 'Buyer',
      dealerId: dealer.id,
      addresses: [address],
    })
    const c = json<Rep>(await get(`/api/customers/${row.id}`))
    assert.equal(c.firstName, 'Sam')
    assert.equal(c.dealerId, dealer.id)
    assert.equal((await post('/api/customers', { legalName: 'x' })).statusCode, 405)
    const patched = await mergePatch(`/api/customers/${row.id}`, {
      lastName: 'Buyer-Smith',
      legalName: 'Sam J Buyer-Smith',
    })
    assert.equal(patched.statusCode, 200)
    assert.ok(json<Rep[]>(await get('/api/customers?name=buyer-smith')).some((r) => r.id === row.id))
    assert.equal((await get(`/api/customers/${row.id}`, other.headers)).statusCode, 404)
  })

  test('GET /api/accountholders searches across kinds', async () => {
    await post('/api/insurers', {
      insurerCode: 'SRCH',
      legalName: 'Searchable Insurance Co',
      addresses: [{ ...address, state: 'OK', postalCode: '73102' }],
    })
    const res = await get('/api/accountholders?name=searchable&state=OK')
    assert.equal(res.statusCode, 200)
    const [first] = json<Array<{ kind: string; businessKey: string; state: string }>>(res)
    assert.deepEqual([first?.kind, first?.businessKey, first?.state], ['INSURER', 'SRCH', 'OK'])
    assert.ok(
      json<Array<{ kind: string }>>(await get('/api/accountholders?kind=DEALER')).every((r) => r.kind === 'DEALER'),
    )
    assert.equal((await get('/api/accountholders?kind=SPACESHIP')).statusCode, 400)
  })

  test('the administrator company exists from tenant creation', async () => {
    const [admin] = json<Array<{ id: number }>>(await get('/api/accountholders?kind=ADMIN_COMPANY'))
    const res = await get(`/api/admincompanies/${admin!.id}`)
    assert.equal(res.statusCode, 200)
    assert.equal(json<Rep>(res).legalName, 'Parties')
    assert.equal((await get(`/api/admincompanies/${admin!.id}`, other.headers)).statusCode, 404)
    const dealer = json<Rep>(await post('/api/dealers', { dealerNumber: 'NOT-ADMIN', legalName: 'x' }))
    assert.equal((await get(`/api/admincompanies/${dealer.id}`)).statusCode, 404)
  })

  test('GET /api/v2/lienHolders is paged', async () => {
    for (const code of ['P1', 'P2', 'P3'])
      await post('/api/lienHolders', { lienHolderCode: `LH-${code}`, legalName: `Paged Bank ${code}` })
    const page = json<{ items: Rep[]; pageNumber: number; pageSize: number; totalCount: number; totalPages: number }>(
      await get('/api/v2/lienHolders?name=paged%20bank&pageSize=2&pageNumber=2'),
    )
    assert.deepEqual(
      [page.pageNumber, page.pageSize, page.totalCount, page.totalPages, page.items.length],
      [2, 2, 3, 2, 1],
    )
  })

  test("a dealer id under another kind's path is not found", async () => {
    const dealer = json<Rep>(await post('/api/dealers', { dealerNumber: 'KIND', legalName: 'x' }))
    for (const path of ['/api/agents', '/api/insurers', '/api/lienHolders', '/api/customers', '/api/dealergroups']) {
      assert.equal((await get(`${path}/${dealer.id}`)).statusCode, 404, path)
    }
  })
})
