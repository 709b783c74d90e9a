// Tokens from a tenant's trusted identity provider: verified against its JWKS (fetched over HTTP
// and cached), with iss/aud/exp/nbf checks and an algorithm allow-list; the user is found by
// External Identity.
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose'
import { systemContext } from '../src/platform/http/context.ts'
import { createTenant, createTestApp, json, uniqueEmail, type TestApp, type TestTenant } from './harness.ts'

const ISSUER = 'https://idp.test.example/'
const AUDIENCE = 'api://vpp-admin'

let t: TestApp
let tenant: TestTenant
let server: http.Server
let jwksRequests = 0
let privateKey: CryptoKey
const kid = 'idp-key-1'

before(async () => {
  const pair = await generateKeyPair('RS256')
  privateKey = pair.privateKey
  const jwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' }
  server = http.createServer((req, res) => {
    jwksRequests++
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  t = await createTestApp()
  tenant = await createTenant(t)
  await t.tenants.setIdentityProvider(systemContext(tenant.tenantId), {
    issuer: ISSUER,
    audience: AUDIENCE,
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    identityClaim: 'oid',
    algorithms: ['RS256'],
  })
})
after(async () => {
  await t.close()
  await new Promise((resolve) => server.close(resolve))
})

function idpToken(
  claims: Record<string, unknown>,
  options: { aud?: string; iss?: string; exp?: number; nbf?: number; alg?: string; key?: CryptoKey | Uint8Array } = {},
) {
  const now = Math.floor(t.clock.now().getTime() / 1000)
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid })
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(options.exp ?? now + 600)
  if (options.nbf !== undefined) jwt.setNotBefore(options.nbf)
  return jwt.sign(options.key ?? privateKey)
}

async function call(token: string, apiKey = tenant.apiKey) {
  return t.app.inject({
    method: 'GET',
    url: '/api/v1/adminusers?limit=1',
    headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}` },
  })
}

test("a user provisioned with an External Identity signs in with the identity provider's token", async () => {
  const roles = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('membership_role')
      .select('id')
      .where('tenant_id', '=', tenant.tenantId)
      .where('code', '=', 'READ_ONLY')
      .execute(),
  )
  const externalIdentity = `oid-${Date.now()}`
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/adminusers',
    headers: tenant.headers,
    payload: { emailAddress: uniqueEmail('sso'), externalIdentity, roles: [{ id: roles[0]!.id }] },
  })
  assert.equal(created.statusCode, 201)
  const userId = json<{ id: number }>(created).id
  const fetchesBefore = jwksRequests
  const ok = await call(await idpToken({ oid: externalIdentity, sub: 'ignored' }))
  assert.equal(ok.statusCode, 200, ok.body)
  assert.equal((await call(await idpToken({ oid: externalIdentity }))).statusCode, 200)
  assert.equal(jwksRequests - fetchesBefore <= 1, true, 'the JWKS is cached')

  const now = Math.floor(t.clock.now().getTime() / 1000)
  const rejected: Array<[string, Promise<string>]> = [
    ['wrong audience', idpToken({ oid: externalIdentity }, { aud: 'api://someone-else' })],
    ['expired', idpToken({ oid: externalIdentity }, { exp: now - 120 })],
    ['not yet valid beyond the clock skew', idpToken({ oid: externalIdentity }, { nbf: now + 300 })],
    ['untrusted issuer', idpToken({ oid: externalIdentity }, { iss: 'https://evil.example/' })],
    [
      'algorithm not allowed (HMAC)',
      idpToken({ oid: externalIdentity }, { alg: 'HS256', key: new TextEncoder().encode('x'.repeat(32)) }),
    ],
    ['unknown External Identity', idpToken({ oid: 'nobody' })],
    ['missing identity claim', idpToken({ sub: externalIdentity })],
  ]
  for (const [name, token] of rejected) {
    const res = await call(await token)
    assert.equal(res.statusCode, 401, name)
    assert.equal(json(res).code, 'invalid_token', name)
  }
  assert.equal(
    (await call(await idpToken({ oid: externalIdentity }, { nbf: now + 10 }))).statusCode,
    200,
    'small clock skew tolerated',
  )

  // Another tenant does not trust this issuer.
  const other = await createTenant(t, 'Other')
  assert.equal((await call(await idpToken({ oid: externalIdentity }), other.apiKey)).statusCode, 401)

  // An expired user is refused at once with an identity-provider token too.
  const current = json<Record<string, unknown>>(
    await t.app.inject({ method: 'GET', url: `/api/v1/adminusers/${userId}`, headers: tenant.headers }),
  )
  const expire = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/adminusers/${userId}`,
    headers: tenant.headers,
    payload: { ...current, expiredDate: t.clock.now().toISOString(), roles: [{ id: roles[0]!.id }], groups: [] },
  })
  assert.equal(expire.statusCode, 200)
  const inactive = await call(await idpToken({ oid: externalIdentity }))
  assert.equal(inactive.statusCode, 401)
  assert.equal(json(inactive).code, 'user_inactive')
})
