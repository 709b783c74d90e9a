// Caches of data other instances announce changes to are all forgotten when the invalidation bus may
// have missed an announcement (platform/cache.ts forgetAllCachedValues): token verifications (a
// signing key retired elsewhere) and the list of rate-book versions (a book imported elsewhere) too.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTokenVerifier, generateSigningKey, signAccessToken } from '../src/platform/auth/tokens.ts'
import { forgetAllCachedValues } from '../src/platform/cache.ts'
import { createTenant, createTestApp, type TestApp } from './harness.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
})
after(() => t.close())

test('a cached token verification is forgotten with every other cache', async () => {
  const key = await generateSigningKey()
  let keyReads = 0
  const verifier = createTokenVerifier({
    verificationKey: async (_tenantId, kid) => {
      keyReads++
      return kid === key.kid ? key.publicJwk : undefined
    },
    identityProviders: async () => [],
  })
  const now = new Date()
  const token = await signAccessToken(key, { tenantId: 7, userId: 42 }, now, 3600)
  assert.deepEqual(await verifier.verify(7, token, now), { kind: 'user', userId: 42 })
  await verifier.verify(7, token, now)
  assert.equal(keyReads, 1, 'the second verification came from the cache')
  forgetAllCachedValues()
  await verifier.verify(7, token, now)
  assert.equal(keyReads, 2, 'after the flush the key was read again')
})

test('the list of rate-book versions is read again after the flush', async () => {
  const tenant = await createTenant(t)
  const first = t.modules.rating.store.versions(tenant.tenantId)
  assert.equal(t.modules.rating.store.versions(tenant.tenantId), first, 'the list is shared while cached')
  await first
  forgetAllCachedValues()
  assert.notEqual(t.modules.rating.store.versions(tenant.tenantId), first)
})
