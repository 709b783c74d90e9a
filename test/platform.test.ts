// Platform behaviour every route shares: errors, authentication, idempotency, rate limits, OpenAPI.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { SignJWT, generateKeyPair } from 'jose'
import { signAccessToken } from '../src/platform/auth/tokens.ts'
import { systemContext } from '../src/platform/http/context.ts'
import { registeredErrorCodes } from '../src/platform/http/errors.ts'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  loginHeaders,
  uniqueEmail,
  type TestApp,
  type TestTenant,
} from './harness.ts'
import fs from 'node:fs'

let t: TestApp
let tenant: TestTenant

before(async () => {
  t = await createTestApp()
  tenant = await createTenant(t)
})
after(() => t.close())

const problemType = 'application/problem+json; charset=utf-8'

describe('errors are problem+json with stable codes', () => {
  test('unknown route → 404 route_not_found', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing/here', headers: tenant.headers })
    assert.equal(res.statusCode, 404)
    assert.equal(res.headers['content-type'], problemType)
    const body = json<Record<string, unknown>>(res)
    assert.equal(body.code, 'route_not_found')
    for (const k of ['type', 'title', 'status', 'detail', 'instance', 'requestId']) assert.ok(k in body, k)
    assert.equal(body.requestId, res.headers['x-request-id'])
  })

  test('wrong method → 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/v1/adminusers', headers: tenant.headers })
    assert.equal(res.statusCode, 405)
    assert.equal(res.headers.allow, 'GET, HEAD, POST')
    assert.equal(json(res).code, 'method_not_allowed')
  })

  test('malformed JSON → 400 malformed_json; empty JSON body → 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '{"emailAddress": ',
    })
    assert.equal(res.statusCode, 400)
    assert.equal(json(res).code, 'malformed_json')
    assert.doesNotMatch(res.body, /at JSON\.parse|Unexpected end|\.ts:/)

    // An empty body under a JSON content type is no body: a route that needs one names what is missing.
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '',
    })
    assert.equal(empty.statusCode, 400, empty.body)
    assert.equal(json(empty).code, 'validation_failed')
  })

  test('body too large → 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ firstName: 'x'.repeat(1_100_000) }),
    })
    assert.equal(res.statusCode, 413)
    assert.equal(json(res).code, 'payload_too_large')
  })

  test('unsupported media type → 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: { ...tenant.headers, 'content-type': 'application/xml' },
      payload: '<user/>',
    })
    assert.equal(res.statusCode, 415)
    assert.equal(json(res).code, 'unsupported_media_type')
  })

  test('paths match case-insensitively and ignore a trailing slash', async () => {
    for (const url of [`/API/V1/ADMINUSERS/${tenant.adminUserId}`, `/api/v1/AdminUsers/${tenant.adminUserId}/`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: tenant.headers })
      assert.equal(res.statusCode, 200, url)
    }
  })

  test('every registered error code is documented in docs/errors.md', () => {
    const doc = fs.readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8')
    const missing = [...registeredErrorCodes().keys()].filter((code) => !doc.includes(`\`${code}\``))
    assert.deepEqual(missing, [])
  })
})

describe('authentication', () => {
  const users = '/api/v1/adminusers'

  test('no credentials → 401; API key alone → 401; token alone → 401', async () => {
    const none = await t.app.inject({ method: 'GET', url: users })
    assert.equal(none.statusCode, 401)
    assert.equal(json(none).code, 'unauthenticated')
    const keyOnly = await t.app.inject({ method: 'GET', url: users, headers: { 'x-api-key': tenant.apiKey } })
    assert.equal(keyOnly.statusCode, 401)
    assert.equal(keyOnly.headers['www-authenticate'], 'Bearer')
    const tokenOnly = await t.app.inject({
      method: 'GET',
      url: users,
      headers: { authorization: tenant.headers.authorization! },
    })
    assert.equal(tokenOnly.statusCode, 401)
  })

  test('invalid API key or token → 401', async () => {
    for (const key of ['nonsense', `vpk_${tenant.tenantId}_${'A'.repeat(43)}`, `vpk_99999999_${'A'.repeat(43)}`]) {
      const res = await t.app.inject({ method: 'GET', url: users, headers: { ...tenant.headers, 'x-api-key': key } })
      assert.equal(res.statusCode, 401, key)
      assert.equal(json(res).code, 'invalid_api_key')
    }
    for (const auth of ['Bearer nonsense', 'Bearer a.b.c', 'Basic abc']) {
      const res = await t.app.inject({ method: 'GET', url: users, headers: { ...tenant.headers, authorization: auth } })
      assert.equal(res.statusCode, 401, auth)
    }
  })

  test('API key and token of different tenants → 401', async () => {
    const other = await createTenant(t, 'Other')
    const res = await t.app.inject({
      method: 'GET',
      url: users,
      headers: { 'x-api-key': other.apiKey, authorization: tenant.headers.authorization! },
    })
    assert.equal(res.statusCode, 401)
    assert.equal(json(res).code, 'invalid_token')
  })

  test('a token signed with a key the tenant does not own, or with alg none → 401', async () => {
    const { privateKey } = await generateKeyPair('EdDSA')
    const forged = await new SignJWT({ tid: tenant.tenantId })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'forged' })
      .setIssuer('urn:vpp-admin')
      .setAudience('urn:vpp-admin:api')
      .setSubject(String(tenant.adminUserId))
      .setExpirationTime('1h')
      .sign(privateKey)
    const res = await t.app.inject({
      method: 'GET',
      url: users,
      headers: { ...tenant.headers, authorization: `Bearer ${forged}` },
    })
    assert.equal(res.statusCode, 401)
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: 'urn:vpp-admin', sub: String(tenant.adminUserId), tid: tenant.tenantId, exp: 9999999999 })).toString('base64url')}.`
    const none = await t.app.inject({
      method: 'GET',
      url: users,
      headers: { ...tenant.headers, authorization: `Bearer ${unsigned}` },
    })
    assert.equal(none.statusCode, 401)
  })

  test('token endpoint: wrong password → 400 invalid_grant with OAuth error; form encoding accepted; unknown grant → 400', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { grant_type: 'password', username: tenant.adminEmail, password: 'wrong password!' },
    })
    assert.equal(wrong.statusCode, 400)
    assert.equal(json(wrong).code, 'invalid_grant')
    assert.equal(json(wrong).error, 'invalid_grant')
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: String(tenant.adminUserId),
        client_secret: tenant.adminPassword,
      }).toString(),
    })
    assert.equal(form.statusCode, 200, form.body)
    const token = json<{ access_token: string; token_type: string; expires_in: number }>(form)
    assert.equal(token.token_type, 'Bearer')
    assert.equal(token.expires_in, 3600)
    assert.equal(form.headers['cache-control'], 'no-store')
    const use = await t.app.inject({
      method: 'GET',
      url: users,
      headers: { 'x-api-key': tenant.apiKey, authorization: `Bearer ${token.access_token}` },
    })
    assert.equal(use.statusCode, 200)
    const grant = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { grant_type: 'authorization_code' },
    })
    assert.equal(grant.statusCode, 400)
    assert.equal(json(grant).code, 'unsupported_grant_type')
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { grant_type: 'password', username: tenant.adminEmail, password: tenant.adminPassword },
    })
    assert.equal(noKey.statusCode, 401)
  })

  test('a token expires: past exp → 401 even though the user is active', async () => {
    const headers = await loginHeaders(t, tenant.apiKey, tenant.adminEmail, tenant.adminPassword)
    assert.equal((await t.app.inject({ method: 'GET', url: users, headers })).statusCode, 200)
    const start = t.clock.now()
    t.clock.set(new Date(start.getTime() + 3600_000 + 31_000))
    try {
      const res = await t.app.inject({ method: 'GET', url: users, headers })
      assert.equal(res.statusCode, 401)
      assert.equal(json(res).code, 'invalid_token')
    } finally {
      t.clock.set(start)
    }
  })

  test('a revoked API key stops working at once; a rotated signing key keeps old tokens valid', async () => {
    const own = await createTenant(t, 'Keys')
    const extra = await t.tenants.createApiKey(systemContext(own.tenantId), 'second')
    const headers = { ...own.headers, 'x-api-key': extra.apiKey }
    // A token is bound to the tenant, not to the key it was obtained with.
    assert.equal((await t.app.inject({ method: 'GET', url: users, headers })).statusCode, 200)
    await t.tenants.revokeApiKey(systemContext(own.tenantId), extra.id)
    const revoked = await t.app.inject({ method: 'GET', url: users, headers })
    assert.equal(revoked.statusCode, 401)
    assert.equal(json(revoked).code, 'invalid_api_key')

    await t.tenants.rotateSigningKey(systemContext(own.tenantId))
    assert.equal(
      (await t.app.inject({ method: 'GET', url: users, headers: own.headers })).statusCode,
      200,
      'old token still verifies',
    )
    const freshHeaders = await loginHeaders(t, own.apiKey, own.adminEmail, own.adminPassword)
    const fresh = freshHeaders.authorization!.slice('Bearer '.length)
    assert.notEqual(
      JSON.parse(Buffer.from(fresh.split('.')[0]!, 'base64url').toString()).kid,
      JSON.parse(Buffer.from(own.headers.authorization!.slice(7).split('.')[0]!, 'base64url').toString()).kid,
    )
    assert.equal((await t.app.inject({ method: 'GET', url: users, headers: freshHeaders })).statusCode, 200)
  })
})

describe('bearer-only provisioning (SCIM clients send no X-Api-Key)', () => {
  test('a provisioning token works on SCIM routes without X-Api-Key, nowhere else, and dies with its user', async () => {
    const own = await createTenant(t, 'Provisioning')
    const roles = await t.db.read(own.tenantId, (x) =>
      x
        .selectFrom('membership_role')
        .select('id')
        .where('tenant_id', '=', own.tenantId)
        .where('code', '=', 'USER_ADMINISTRATOR')
        .execute(),
    )
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: own.headers,
      payload: { emailAddress: uniqueEmail('scim-client'), roles: [{ id: roles[0]!.id }] },
    })
    const userId = json<{ id: number }>(created).id
    const { token, expiresAt } = await t.tenants.issueProvisioningToken(systemContext(own.tenantId), userId, 365)
    assert.ok(new Date(expiresAt).getTime() > t.clock.now().getTime() + 364 * 86_400_000)
    const bearer = { authorization: `Bearer ${token}` }
    const scim = await t.app.inject({ method: 'GET', url: '/api/v2/Users?count=1', headers: bearer })
    assert.equal(scim.statusCode, 200, scim.body)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: bearer })).statusCode, 401)
    // With the tenant's API key it is still refused outside the SCIM routes, though its user's roles
    // would allow the route: a provisioning token is for provisioning only.
    const withKey = { ...bearer, 'x-api-key': own.apiKey }
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/api/v2/Users?count=1', headers: withKey })).statusCode,
      200,
    )
    for (const url of [
      '/api/v1/adminusers',
      `/api/v1/adminusers/${userId}`,
      `/api/MembershipRoles/${roles[0]!.id}`,
      '/api/generalsettings',
    ]) {
      const refused = await t.app.inject({ method: 'GET', url, headers: withKey })
      assert.equal(refused.statusCode, 403, `${url}: ${refused.body}`)
      assert.equal(json(refused).code, 'permission_denied')
    }
    // Provisioning tokens issued before they had their own audience are known by their lifetime,
    // longer than any access token may live.
    const row = await t.db.read(own.tenantId, (x) =>
      x
        .selectFrom('tenant_signing_key')
        .select(['kid', 'private_key', 'public_jwk'])
        .where('tenant_id', '=', own.tenantId)
        .where('retired_at', 'is', null)
        .executeTakeFirstOrThrow(),
    )
    const legacy = await signAccessToken(
      t.modules.identity.signingKeys.open(own.tenantId, row),
      { tenantId: own.tenantId, userId },
      t.clock.now(),
      365 * 86_400,
    )
    assert.equal(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v2/Users?count=1',
          headers: { authorization: `Bearer ${legacy}` },
        })
      ).statusCode,
      200,
    )
    assert.equal(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/adminusers',
          headers: { 'x-api-key': own.apiKey, authorization: `Bearer ${legacy}` },
        })
      ).statusCode,
      403,
    )
    // A normal access token of the same user works on both kinds of route.
    const password = `pw-${'x'.repeat(16)}`
    const current0 = json<Record<string, unknown>>(
      await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${userId}`, headers: own.headers }),
    )
    assert.equal(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/adminusers/${userId}`,
          headers: own.headers,
          payload: { ...current0, password },
        })
      ).statusCode,
      200,
    )
    const access = await loginHeaders(t, own.apiKey, current0.emailAddress as string, password)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: access })).statusCode, 200)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/Users?count=1', headers: access })).statusCode, 200)
    // A token naming another tenant is checked against that tenant's keys, and fails.
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, tid: tenant.tenantId })).toString('base64url')}.${signature}`
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/api/v2/Users', headers: { authorization: `Bearer ${forged}` } }))
        .statusCode,
      401,
    )
    // Expiring the user revokes the token at once.
    const current = json<Record<string, unknown>>(
      await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${userId}`, headers: own.headers }),
    )
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/adminusers/${userId}`,
      headers: own.headers,
      payload: { ...current, expiredDate: '2000-01-01T00:00:00Z' },
    })
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v2/Users', headers: bearer })).statusCode, 401)
  })
})

describe('idempotency', () => {
  test('same key and body → replayed; different body → 422', async () => {
    const email = uniqueEmail('idem')
    const headers = { ...tenant.headers, 'idempotency-key': `k-${email}` }
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers,
      payload: { emailAddress: email },
    })
    assert.equal(first.statusCode, 201)
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers,
      payload: { emailAddress: email },
    })
    assert.equal(again.statusCode, 201)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.equal(again.headers.location, first.headers.location)
    assert.deepEqual(json(again), json(first))
    const different = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers,
      payload: { emailAddress: uniqueEmail() },
    })
    assert.equal(different.statusCode, 422)
    assert.equal(json(different).code, 'idempotency_key_reused')
    const users = await t.app.inject({
      method: 'GET',
      url: `/api/v1/adminusers?searchData.emailAddress=${encodeURIComponent(email)}`,
      headers: tenant.headers,
    })
    assert.equal(json<unknown[]>(users).length, 1)
  })

  test('a failed request stores nothing, so the key can be retried', async () => {
    const headers = { ...tenant.headers, 'idempotency-key': `retry-${Date.now()}` }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers,
      payload: { emailAddress: uniqueEmail(), roles: [{ id: 987654 }] },
    })
    assert.equal(bad.statusCode, 422)
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers,
      payload: { emailAddress: uniqueEmail() },
    })
    assert.equal(good.statusCode, 201)
    assert.equal(good.headers['idempotent-replayed'], undefined)
  })

  test('the key is scoped to the credential: another user with the same key is not replayed', async () => {
    const key = `scoped-${Date.now()}`
    const other = await createTenant(t, 'Scope')
    const a = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: { ...tenant.headers, 'idempotency-key': key },
      payload: { emailAddress: uniqueEmail() },
    })
    const b = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: { ...other.headers, 'idempotency-key': key },
      payload: { emailAddress: uniqueEmail() },
    })
    assert.equal(a.statusCode, 201)
    assert.equal(b.statusCode, 201)
    assert.equal(b.headers['idempotent-replayed'], undefined)
  })

  test('invalid key → 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adminusers',
      headers: { ...tenant.headers, 'idempotency-key': 'x'.repeat(300) },
      payload: { emailAddress: uniqueEmail() },
    })
    assert.equal(res.statusCode, 400)
    assert.equal(json(res).code, 'invalid_idempotency_key')
  })
})

describe('rate limits', () => {
  test('per API key: 429 with Retry-After', async () => {
    const limited = await createTestApp({ config: { rateLimitPerMinute: 3 } })
    try {
      const own = await createTenant(limited)
      const statuses: number[] = []
      let last
      for (let i = 0; i < 4; i++) {
        last = await limited.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: own.headers })
        statuses.push(last.statusCode)
      }
      // The token request made by createTenant was the key's first request of the minute.
      assert.deepEqual(statuses, [200, 200, 429, 429])
      assert.equal(last!.statusCode, 429)
      assert.ok(Number(last!.headers['retry-after']) >= 1)
      assert.equal(json(last!).code, 'rate_limited')
    } finally {
      await limited.close()
    }
  })

  test('failed authentications from an address turn into 429, but valid credentials from it still pass', async () => {
    const limited = await createTestApp({ config: { authFailureLimitPerMinute: 2 } })
    try {
      const own = await createTenant(limited)
      const shared = '10.9.9.9'
      const bad = { 'x-api-key': 'nonsense', authorization: 'Bearer x' }
      const fails = []
      for (let i = 0; i < 3; i++)
        fails.push(
          (await limited.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: bad, remoteAddress: shared }))
            .statusCode,
        )
      assert.deepEqual(fails, [401, 401, 429])
      const refused = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'x-api-key': 'vpk_1_nonsense' },
        payload: { grant_type: 'password' },
        remoteAddress: shared,
      })
      assert.equal(refused.statusCode, 429)
      assert.ok(Number(refused.headers['retry-after']) >= 1)
      // Another client behind the same address, with valid credentials, is not locked out.
      assert.equal(
        (
          await limited.app.inject({
            method: 'GET',
            url: '/api/v1/adminusers',
            headers: own.headers,
            remoteAddress: shared,
          })
        ).statusCode,
        200,
      )
      const signIn = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'x-api-key': own.apiKey },
        payload: { grant_type: 'password', username: own.adminEmail, password: own.adminPassword },
        remoteAddress: shared,
      })
      assert.equal(signIn.statusCode, 200, signIn.body)
    } finally {
      await limited.close()
    }
  })

  test('wrong passwords are limited per user and address: the attacked user is throttled there, everyone else signs in', async () => {
    const limited = await createTestApp({ config: { authFailureLimitPerMinute: 3 } })
    try {
      const own = await createTenant(limited)
      const victim = await createUserWithRoles(limited, own, ['READ_ONLY'])
      const signIn = (payload: Record<string, string>, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/token',
          headers: { 'x-api-key': own.apiKey },
          payload,
          remoteAddress,
        })
      const password = (username: string, pw: string) => ({ grant_type: 'password', username, password: pw })
      const attacker = '10.7.7.7'
      const guesses = []
      for (let i = 0; i < 4; i++)
        guesses.push((await signIn(password(victim.email, `guess-${i}-wrong-password`), attacker)).statusCode)
      assert.deepEqual(guesses, [400, 400, 400, 429])
      // Throttled, the right password is refused too (before it is checked), and so is the same user
      // named differently: by id through client_credentials, or in other letter case.
      const right = await signIn(password(victim.email, victim.password), attacker)
      assert.equal(right.statusCode, 429)
      assert.equal(json(right).code, 'rate_limited')
      assert.ok(Number(right.headers['retry-after']) >= 1)
      assert.equal(
        (
          await signIn(
            { grant_type: 'client_credentials', client_id: String(victim.id), client_secret: victim.password },
            attacker,
          )
        ).statusCode,
        429,
      )
      assert.equal((await signIn(password(victim.email.toUpperCase(), victim.password), attacker)).statusCode, 429)
      // Everyone else behind that address still signs in, and the victim does from elsewhere.
      assert.equal((await signIn(password(own.adminEmail, own.adminPassword), attacker)).statusCode, 200)
      assert.equal((await signIn(password(victim.email, victim.password), '10.8.8.8')).statusCode, 200)
      // An unknown login is throttled the same way, so the answers do not tell which users exist.
      const unknown = []
      for (let i = 0; i < 4; i++)
        unknown.push(
          (await signIn(password('nobody@nowhere.example', `guess-${i}-wrong-password`), attacker)).statusCode,
        )
      assert.deepEqual(unknown, [400, 400, 400, 429])
      // The limit is per minute: a minute later the victim signs in from that address again.
      limited.clock.advance(60_000)
      assert.equal((await signIn(password(victim.email, victim.password), attacker)).statusCode, 200)
    } finally {
      await limited.close()
    }
  })
})

describe('health and OpenAPI', () => {
  test('health needs no credentials', async () => {
    assert.deepEqual(json(await t.app.inject({ method: 'GET', url: '/health/live' })), { status: 'ok' })
    assert.deepEqual(json(await t.app.inject({ method: 'GET', url: '/health/ready' })), { status: 'ready' })
  })

  test('every /api route is documented with request and response schemas and its auth scheme', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
    assert.equal(res.statusCode, 200)
    const doc = json<{
      openapi: string
      paths: Record<
        string,
        Record<
          string,
          { responses?: Record<string, unknown>; security?: unknown[]; parameters?: unknown[]; requestBody?: unknown }
        >
      >
      components: { securitySchemes: Record<string, unknown> }
    }>(res)
    assert.equal(doc.openapi, '3.1.0')
    assert.ok(doc.components.securitySchemes.apiKey && doc.components.securitySchemes.bearer)
    const paths = Object.keys(doc.paths)
    for (const p of [
      '/api/v1/adminusers',
      '/api/v1/adminusers/{userId}',
      '/api/auth/token',
      '/api/MembershipRoles/{membershipRoleId}',
      '/api/MembershipGroups/Search/{id}',
    ]) {
      assert.ok(paths.includes(p), p)
    }
    const components = (doc.components as { schemas?: Record<string, unknown> }).schemas ?? {}
    const hasExample = (node: unknown): boolean => {
      const text = JSON.stringify(node)
      if (/"examples?"/.test(text)) return true
      return [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].some((m) =>
        /"examples?"/.test(JSON.stringify(components[m[1]!])),
      )
    }
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/')) continue
      for (const [method, op] of Object.entries(ops)) {
        assert.ok(hasExample(op), `${method} ${path} has an example`)
        assert.ok(
          op.responses && Object.keys(op.responses).some((s) => s.startsWith('2')),
          `${method} ${path} has a success response schema`,
        )
        assert.ok(Array.isArray(op.security), `${method} ${path} declares security`)
        if (method === 'post' || method === 'put' || method === 'patch')
          assert.ok(op.requestBody, `${method} ${path} has a request body schema`)
      }
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/docs' })).statusCode < 400, true)
  })
})
