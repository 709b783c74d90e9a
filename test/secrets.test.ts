// Secrets at rest: the secret box itself (platform/secrets.ts), where its key comes from, and
// tenants' private signing keys sealed in the database: stored sealed, still signing, sealed at
// start-up when stored before sealing existed, re-sealed under a new key, refused under a wrong one.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import { buildApp } from '../src/app.ts'
import { ConfigError, loadConfig } from '../src/config.ts'
import { createModules } from '../src/modules.ts'
import { createInvalidationBus } from '../src/platform/cache.ts'
import { createManualClock } from '../src/platform/clock.ts'
import { openPglite, type Database } from '../src/platform/db/database.ts'
import { migrateToLatest } from '../src/platform/db/migrate.ts'
import { createSecretBox, generateSecretsKey, loadSecretBox, parseSecretsKeys, SECRETS_KEY_FILE, SecretsError, type SecretBox } from '../src/platform/secrets.ts'
import { TEMPLATE_ENV } from './global-setup.ts'
import { closeAtEnd, TEST_CONFIG } from './harness.ts'

const box = (...keys: string[]) => createSecretBox(parseSecretsKeys(keys.join(','), 'test keys'))

describe('the secret box', () => {
  const oldKey = generateSecretsKey()
  const newKey = generateSecretsKey()

  test('seals with AES-256-GCM under the current key; opens under any configured key', () => {
    const before = box(oldKey)
    const sealed = before.seal('{"d":"private"}', 'row:1')
    assert.match(sealed, /^v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{22}$/)
    assert.ok(!sealed.includes('private'))
    assert.notEqual(before.seal('{"d":"private"}', 'row:1'), sealed, 'a fresh IV each time')
    assert.equal(before.open(sealed, 'row:1'), '{"d":"private"}')
    assert.equal(before.keyIdOf(sealed), before.currentKeyId)
    assert.equal(before.isSealed('{"d":"private"}'), false)

    const rotated = box(newKey, oldKey)
    assert.deepEqual(rotated.keyIds, [rotated.currentKeyId, before.currentKeyId])
    assert.equal(rotated.open(sealed, 'row:1'), '{"d":"private"}', 'the old key still opens what it sealed')
    assert.equal(rotated.keyIdOf(rotated.seal('x', 'row:1')), box(newKey).currentKeyId, 'new values go under the new key')
  })

  test('a value does not open under a missing key, in another row, or altered: SecretsError says why', () => {
    const sealed = box(oldKey).seal('secret', 'row:1')
    assert.throws(() => box(newKey).open(sealed, 'row:1'), (err: unknown) =>
      err instanceof SecretsError && err.message.includes(`secrets key ${box(oldKey).currentKeyId}, which is not configured`) && err.message.includes('SECRETS_KEY'))
    assert.throws(() => box(oldKey).open(sealed, 'row:2'), (err: unknown) => err instanceof SecretsError && /does not authenticate/.test(err.message))
    const parts = sealed.split(':')
    const ciphertext = Buffer.from(parts[3]!, 'base64url')
    ciphertext[0]! ^= 1
    const altered = [...parts.slice(0, 3), ciphertext.toString('base64url'), parts[4]].join(':')
    assert.throws(() => box(oldKey).open(altered, 'row:1'), (err: unknown) => err instanceof SecretsError && /does not authenticate/.test(err.message))
  })

  test('key lists: base64 of 32 bytes, comma- or space-separated, no duplicates', () => {
    assert.equal(parseSecretsKeys(` ${newKey}, ${oldKey}\n`, 'SECRETS_KEY').length, 2)
    assert.equal(parseSecretsKeys(Buffer.from(newKey, 'base64').toString('base64url'), 'SECRETS_KEY').length, 1, 'URL-safe base64 too')
    assert.throws(() => parseSecretsKeys('', 'SECRETS_KEY'), /SECRETS_KEY holds no key/)
    assert.throws(() => parseSecretsKeys('c2hvcnQ=', 'SECRETS_KEY'), /SECRETS_KEY: key 1 is not 32 bytes/)
    assert.throws(() => parseSecretsKeys(`${oldKey},${oldKey}`, 'SECRETS_KEY'), /the same key twice/)
  })

  test('SECRETS_KEY is required with DATABASE_URL and checked when given', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1/db' }), (err: unknown) => err instanceof ConfigError && /SECRETS_KEY is required with DATABASE_URL/.test(err.message))
    assert.throws(() => loadConfig({ SECRETS_KEY: 'nonsense' }), (err: unknown) => err instanceof ConfigError && /SECRETS_KEY: key 1 is not 32 bytes/.test(err.message))
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1/db', SECRETS_KEY: `${newKey},${oldKey}` }).secretsKey, `${newKey},${oldKey}`)
    assert.throws(() => loadSecretBox({ secretsKey: undefined, databaseUrl: 'postgres://u:p@127.0.0.1/db', dataDir: '/nonexistent' }), SecretsError)
  })

  test('the embedded database without SECRETS_KEY: a key file made on first start (0600), reused after', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-secrets-'))
    after(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    const file = path.join(dataDir, SECRETS_KEY_FILE)
    const first = loadSecretBox({ secretsKey: undefined, databaseUrl: undefined, dataDir })
    assert.equal(fs.statSync(file).mode & 0o777, 0o600)
    const again = loadSecretBox({ secretsKey: undefined, databaseUrl: undefined, dataDir })
    assert.equal(again.currentKeyId, first.currentKeyId)
    assert.equal(again.open(first.seal('x', 'c'), 'c'), 'x')
    // SECRETS_KEY, when set, is used instead of the file.
    assert.equal(loadSecretBox({ secretsKey: newKey, databaseUrl: undefined, dataDir }).currentKeyId, box(newKey).currentKeyId)
    fs.chmodSync(file, 0o644)
    assert.throws(() => loadSecretBox({ secretsKey: undefined, databaseUrl: undefined, dataDir }), (err: unknown) => err instanceof SecretsError && /chmod 600/.test(err.message))
  })
})

let privateDb: Promise<Database> | undefined
/**
 * An embedded database of this file's own, whatever DATABASE_URL says: re-sealing touches every
 * tenant of a database, which on the PostgreSQL database the test files share would re-seal other
 * files' tenants under a key they lack. Each test makes tenants of its own in it.
 */
function privateDatabase(): Promise<Database> {
  privateDb ??= (async () => {
    const template = process.env[TEMPLATE_ENV]
    const db = await openPglite('memory://', template ? { from: new Blob([fs.readFileSync(template)]) } : {})
    closeAtEnd(() => db.close())
    await migrateToLatest(db)
    return db
  })()
  return privateDb
}

async function appOn(db: Database, secrets: SecretBox) {
  const bus = await createInvalidationBus(undefined)
  const clock = createManualClock(new Date())
  const app = await buildApp({ config: TEST_CONFIG, db, clock, bus, secrets, logger: false })
  const close = closeAtEnd(() => app.close())
  await app.ready()
  const modules = createModules({ db, clock, bus, secrets, accessTokenTtlSeconds: TEST_CONFIG.accessTokenTtlSeconds })
  return { app, modules, close }
}

async function signIn(app: Awaited<ReturnType<typeof appOn>>['app'], created: { apiKey: string }, email: string, password: string) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-api-key': created.apiKey }, payload: { grant_type: 'password', username: email, password } })
  assert.equal(res.statusCode, 200, res.body)
  const headers = { 'x-api-key': created.apiKey, authorization: `Bearer ${(res.json() as { access_token: string }).access_token}` }
  assert.equal((await app.inject({ method: 'GET', url: '/api/v1/adminusers', headers })).statusCode, 200)
  return headers
}

const storedKeys = (db: Database, tenantId: number) =>
  db.read(tenantId, (x) => x.selectFrom('tenant_signing_key').select(['id', 'kid', 'private_key', 'public_jwk']).where('tenant_id', '=', tenantId).orderBy('id').execute())

describe('private signing keys at rest', () => {
  // One database for both tests (their tenants side by side), sealed under oldKey until the second
  // test rotates to newKey.
  const oldKey = generateSecretsKey()
  const newKey = generateSecretsKey()

  test('keys stored in plaintext before sealing existed keep working and are sealed at the next start', async () => {
    const db = await privateDatabase()
    const key = oldKey
    const first = await appOn(db, box(key))
    const admin = { adminEmail: 'admin@legacy.example', adminPassword: 'correct horse battery staple' }
    const created = await first.modules.identity.tenants.createTenant({ name: 'Legacy', ...admin })
    await first.close()
    // What migration 0011 leaves: the JWK as JSON text, and the tenant marked.
    const [row] = await storedKeys(db, created.tenantId)
    const plaintext = box(key).open(row!.private_key, `tenant_signing_key:${created.tenantId}:${row!.kid}`)
    await db.transaction(created.tenantId, async (tx) => {
      await tx.updateTable('tenant_signing_key').set({ private_key: plaintext }).where('id', '=', row!.id).execute()
      await tx.updateTable('tenant').set({ plaintext_secrets: true }).where('id', '=', created.tenantId).execute()
    })
    // Before any start seals it, the plaintext key still signs (a CLI run after `db migrate`).
    const bus = await createInvalidationBus(undefined)
    const modules = createModules({ db, clock: createManualClock(new Date()), bus, secrets: box(key), accessTokenTtlSeconds: 3600 })
    const early = await modules.identity.tenants.issueProvisioningToken(created.tenantId, created.adminUserId, 1)
    assert.equal(early.userId, created.adminUserId)

    const started = await appOn(db, box(key))
    const [sealed] = await storedKeys(db, created.tenantId)
    assert.match(sealed!.private_key, /^v1:/)
    assert.equal(box(key).open(sealed!.private_key, `tenant_signing_key:${created.tenantId}:${sealed!.kid}`), plaintext)
    const flag = await db.read(null, (x) => x.selectFrom('tenant').select('plaintext_secrets').where('id', '=', created.tenantId).executeTakeFirstOrThrow())
    assert.equal(flag.plaintext_secrets, false)
    await signIn(started.app, created, admin.adminEmail, admin.adminPassword)
    await started.close()
  })

  test('are stored sealed, sign tokens that verify, and are re-sealed under a new key; a wrong key is refused clearly', async () => {
    const db = await privateDatabase()
    const first = await appOn(db, box(oldKey))
    const admin = { adminEmail: 'admin@sealed.example', adminPassword: 'correct horse battery staple' }
    const created = await first.modules.identity.tenants.createTenant({ name: 'Sealed', ...admin })
    await first.modules.identity.tenants.rotateSigningKey(created.tenantId)
    const stored = await storedKeys(db, created.tenantId)
    assert.equal(stored.length, 2)
    for (const row of stored) {
      assert.match(row.private_key, /^v1:/)
      const privateJwk = JSON.parse(box(oldKey).open(row.private_key, `tenant_signing_key:${created.tenantId}:${row.kid}`)) as { d: string; x: string }
      assert.equal(privateJwk.x, (row.public_jwk as { x: string }).x)
      assert.ok(!row.private_key.includes(privateJwk.d), 'the private key is not in the column')
    }
    const oldHeaders = await signIn(first.app, created, admin.adminEmail, admin.adminPassword)
    await first.close()

    // Rotation: the new key first, the old one after it; re-seal; then the old key alone is gone.
    const rotating = await appOn(db, box(newKey, oldKey))
    await signIn(rotating.app, created, admin.adminEmail, admin.adminPassword)
    const report = await rotating.modules.identity.signingKeys.reseal()
    // Both tests' tenants: this one's two keys and the other's one.
    assert.deepEqual(report, { keyId: box(newKey).currentKeyId, tenants: 2, resealed: 3, unchanged: 0 })
    assert.deepEqual(await rotating.modules.identity.signingKeys.reseal(), { ...report, resealed: 0, unchanged: 3 }, 'running it again changes nothing')
    await rotating.close()
    for (const row of await storedKeys(db, created.tenantId)) assert.equal(box(newKey).keyIdOf(row.private_key), box(newKey).currentKeyId)

    const rotated = await appOn(db, box(newKey))
    await signIn(rotated.app, created, admin.adminEmail, admin.adminPassword)
    assert.equal((await rotated.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: oldHeaders })).statusCode, 200, 'tokens signed before the rotation still verify')
    const { token } = await rotated.modules.identity.tenants.issueProvisioningToken(created.tenantId, created.adminUserId, 1)
    assert.equal((await rotated.app.inject({ method: 'GET', url: '/api/v2/Users?count=1', headers: { authorization: `Bearer ${token}` } })).statusCode, 200)
    await rotated.close()

    // Only the old key: the start is refused, naming the key it needs.
    const bus = await createInvalidationBus(undefined)
    const wrong = await buildApp({ config: TEST_CONFIG, db, clock: createManualClock(new Date()), bus, secrets: box(oldKey), logger: false })
    closeAtEnd(() => wrong.close())
    await assert.rejects(async () => { await wrong.ready() }, (err: unknown) => err instanceof SecretsError && err.message.includes(`secrets key ${box(newKey).currentKeyId}, which is not configured`))
  })

})
