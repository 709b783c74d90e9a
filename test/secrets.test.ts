// Secrets at rest: the secret box itself (platform/secrets.ts), where its key comes from, and
// tenants' private signing keys sealed in the database: stored sealed, still signing, sealed at
// start-up when stored before sealing existed, re-sealed under a new key, refused under a wrong one.
// The same for the quote-signing and download-link keys, whose quote ids and links outlive
// sealing and rotation, and the migration that left them in plaintext.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { ConfigError, loadConfig } from '../src/config.ts'
import { createModules } from '../src/modules.ts'
import { createInvalidationBus } from '../src/platform/cache.ts'
import { createManualClock } from '../src/platform/clock.ts'
import { openPglite, type Database } from '../src/platform/db/database.ts'
import { migrateToLatest } from '../src/platform/db/migrate.ts'
import { migrations } from '../src/platform/db/migrations/index.ts'
import { systemContext } from '../src/platform/http/context.ts'
import {
  createSecretBox,
  generateSecretsKey,
  loadSecretBox,
  parseSecretsKeys,
  SECRETS_KEY_FILE,
  SecretsError,
  type SecretBox,
} from '../src/platform/secrets.ts'
import { TEMPLATE_ENV } from './global-setup.ts'
import { DEMO, seedDemo } from './demo-tenant.ts'
import { closeAtEnd, createTestApp, loginHeaders, TEST_CONFIG, type TestApp } from './harness.ts'

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
    assert.equal(
      rotated.keyIdOf(rotated.seal('x', 'row:1')),
      box(newKey).currentKeyId,
      'new values go under the new key',
    )
  })

  test('a value does not open under a missing key, in another row, or altered: SecretsError says why', () => {
    const sealed = box(oldKey).seal('secret', 'row:1')
    assert.throws(
      () => box(newKey).open(sealed, 'row:1'),
      (err: unknown) =>
        err instanceof SecretsError &&
        err.message.includes(`secrets key ${box(oldKey).currentKeyId}, which is not configured`) &&
        err.message.includes('SECRETS_KEY'),
    )
    assert.throws(
      () => box(oldKey).open(sealed, 'row:2'),
      (err: unknown) => err instanceof SecretsError && /does not authenticate/.test(err.message),
    )
    const parts = sealed.split(':')
    const ciphertext = Buffer.from(parts[3]!, 'base64url')
    ciphertext[0]! ^= 1
    const altered = [...parts.slice(0, 3), ciphertext.toString('base64url'), parts[4]].join(':')
    assert.throws(
      () => box(oldKey).open(altered, 'row:1'),
      (err: unknown) => err instanceof SecretsError && /does not authenticate/.test(err.message),
    )
  })

  test('key lists: base64 of 32 bytes, comma- or space-separated, no duplicates', () => {
    assert.equal(parseSecretsKeys(` ${newKey}, ${oldKey}\n`, 'SECRETS_KEY').length, 2)
    assert.equal(
      parseSecretsKeys(Buffer.from(newKey, 'base64').toString('base64url'), 'SECRETS_KEY').length,
      1,
      'URL-safe base64 too',
    )
    assert.throws(() => parseSecretsKeys('', 'SECRETS_KEY'), /SECRETS_KEY holds no key/)
    assert.throws(() => parseSecretsKeys('c2hvcnQ=', 'SECRETS_KEY'), /SECRETS_KEY: key 1 is not 32 bytes/)
    assert.throws(() => parseSecretsKeys(`${oldKey},${oldKey}`, 'SECRETS_KEY'), /the same key twice/)
  })

  test('SECRETS_KEY is required with DATABASE_URL and checked when given', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1/db' }),
      (err: unknown) => err instanceof ConfigError && /SECRETS_KEY is required with DATABASE_URL/.test(err.message),
    )
    assert.throws(
      () => loadConfig({ SECRETS_KEY: 'nonsense' }),
      (err: unknown) => err instanceof ConfigError && /SECRETS_KEY: key 1 is not 32 bytes/.test(err.message),
    )
    assert.equal(
      loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1/db', SECRETS_KEY: `${newKey},${oldKey}` }).secretsKey,
      `${newKey},${oldKey}`,
    )
    assert.throws(
      () =>
        loadSecretBox({ secretsKey: undefined, databaseUrl: 'postgres://u:p@127.0.0.1/db', dataDir: '/nonexistent' }),
      SecretsError,
    )
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
    assert.equal(
      loadSecretBox({ secretsKey: newKey, databaseUrl: undefined, dataDir }).currentKeyId,
      box(newKey).currentKeyId,
    )
    fs.chmodSync(file, 0o644)
    assert.throws(
      () => loadSecretBox({ secretsKey: undefined, databaseUrl: undefined, dataDir }),
      (err: unknown) => err instanceof SecretsError && /chmod 600/.test(err.message),
    )
  })
})

const privateDbs = new Map<string, Promise<Database>>()
/**
 * An embedded database of this file's own, whatever DATABASE_URL says: re-sealing touches every
 * tenant of a database, which on the PostgreSQL database the test files share would re-seal other
 * files' tenants under a key they lack. Each describe block has its own (by `name`), so its
 * re-sealing reports count its tenants only; each test makes tenants of its own in it.
 */
function privateDatabase(name: string): Promise<Database> {
  let db = privateDbs.get(name)
  if (!db) {
    db = (async () => {
      const template = process.env[TEMPLATE_ENV]
      const opened = await openPglite('memory://', template ? { from: new Blob([fs.readFileSync(template)]) } : {})
      closeAtEnd(() => opened.close())
      await migrateToLatest(opened)
      return opened
    })()
    privateDbs.set(name, db)
  }
  return db
}

/** An app over `db` whose modules seal with `secrets`: a start of the service with that key. */
const appOn = (db: Database, secrets: SecretBox) => createTestApp({ db, secrets })

/** Signs in (the signing key opens) and makes a request with the token (it verifies). */
async function signIn(started: TestApp, created: { apiKey: string }, email: string, password: string) {
  const headers = await loginHeaders(started, created.apiKey, email, password)
  assert.equal((await started.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers })).statusCode, 200)
  return headers
}

const storedKeys = (db: Database, tenantId: number) =>
  db.read(tenantId, (x) =>
    x
      .selectFrom('tenant_signing_key')
      .select(['id', 'kid', 'private_key', 'public_jwk'])
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .execute(),
  )

describe('private signing keys at rest', () => {
  // One database for both tests (their tenants side by side), sealed under oldKey until the second
  // test rotates to newKey.
  const oldKey = generateSecretsKey()
  const newKey = generateSecretsKey()

  test('keys stored in plaintext before sealing existed keep working and are sealed at the next start', async () => {
    const db = await privateDatabase('signing keys')
    const key = oldKey
    const first = await appOn(db, box(key))
    const admin = { adminEmail: 'admin@legacy.example', adminPassword: 'correct horse battery staple' }
    const created = await first.modules.identity.tenants.createTenant({ name: 'Legacy', ...admin })
    await first.close()
    // What migration 0011 leaves: the JWK as JSON text, and the tenant marked.
    const [row] = await storedKeys(db, created.tenantId)
    const plaintext = box(key).open(row!.private_key, `tenant_signing_key:${created.tenantId}:${row!.kid}`)
    await db.transaction(created.tenantId, async (tx) => {
      await tx
        .updateTable('tenant_signing_key')
        .set({ private_key: plaintext })
        .where('tenant_id', '=', created.tenantId)
        .where('id', '=', row!.id)
        .execute()
      await tx.updateTable('tenant').set({ plaintext_secrets: true }).where('id', '=', created.tenantId).execute()
    })
    // Before any start seals it, the plaintext key still signs (a CLI run after `db migrate`).
    const bus = await createInvalidationBus(undefined)
    const modules = createModules({
      db,
      clock: createManualClock(new Date()),
      bus,
      secrets: box(key),
      config: TEST_CONFIG,
    })
    const early = await modules.identity.tenants.issueProvisioningToken(
      systemContext(created.tenantId),
      created.adminUserId,
      1,
    )
    assert.equal(early.userId, created.adminUserId)

    const started = await appOn(db, box(key))
    const [sealed] = await storedKeys(db, created.tenantId)
    assert.match(sealed!.private_key, /^v1:/)
    assert.equal(box(key).open(sealed!.private_key, `tenant_signing_key:${created.tenantId}:${sealed!.kid}`), plaintext)
    const flag = await db.read(null, (x) =>
      x.selectFrom('tenant').select('plaintext_secrets').where('id', '=', created.tenantId).executeTakeFirstOrThrow(),
    )
    assert.equal(flag.plaintext_secrets, false)
    await signIn(started, created, admin.adminEmail, admin.adminPassword)
    await started.close()
  })

  test('are stored sealed, sign tokens that verify, and are re-sealed under a new key; a wrong key is refused clearly', async () => {
    const db = await privateDatabase('signing keys')
    const first = await appOn(db, box(oldKey))
    const admin = { adminEmail: 'admin@sealed.example', adminPassword: 'correct horse battery staple' }
    const created = await first.modules.identity.tenants.createTenant({ name: 'Sealed', ...admin })
    await first.modules.identity.tenants.rotateSigningKey(systemContext(created.tenantId))
    const stored = await storedKeys(db, created.tenantId)
    assert.equal(stored.length, 2)
    for (const row of stored) {
      assert.match(row.private_key, /^v1:/)
      const privateJwk = JSON.parse(
        box(oldKey).open(row.private_key, `tenant_signing_key:${created.tenantId}:${row.kid}`),
      ) as { d: string; x: string }
      assert.equal(privateJwk.x, (row.public_jwk as { x: string }).x)
      assert.ok(!row.private_key.includes(privateJwk.d), 'the private key is not in the column')
    }
    const oldHeaders = await signIn(first, created, admin.adminEmail, admin.adminPassword)
    await first.close()

    // Rotation: the new key first, the old one after it; re-seal; then the old key alone is gone.
    const rotating = await appOn(db, box(newKey, oldKey))
    await signIn(rotating, created, admin.adminEmail, admin.adminPassword)
    const report = await rotating.modules.identity.sealedSecrets.reseal()
    // Both tests' tenants: this one's two signing keys and the other's one; a quote and a link key each.
    assert.deepEqual(report, {
      keyId: box(newKey).currentKeyId,
      tenants: 2,
      resealed: 7,
      unchanged: 0,
      tables: {
        tenant_signing_key: { resealed: 3, unchanged: 0 },
        rate_quote_key: { resealed: 2, unchanged: 0 },
        document_link_key: { resealed: 2, unchanged: 0 },
        webhook_subscription: { resealed: 0, unchanged: 0 },
      },
    })
    assert.deepEqual(
      await rotating.modules.identity.sealedSecrets.reseal(),
      {
        ...report,
        resealed: 0,
        unchanged: 7,
        tables: {
          tenant_signing_key: { resealed: 0, unchanged: 3 },
          rate_quote_key: { resealed: 0, unchanged: 2 },
          document_link_key: { resealed: 0, unchanged: 2 },
          webhook_subscription: { resealed: 0, unchanged: 0 },
        },
      },
      'running it again changes nothing',
    )
    await rotating.close()
    for (const row of await storedKeys(db, created.tenantId))
      assert.equal(box(newKey).keyIdOf(row.private_key), box(newKey).currentKeyId)

    const rotated = await appOn(db, box(newKey))
    await signIn(rotated, created, admin.adminEmail, admin.adminPassword)
    assert.equal(
      (await rotated.app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: oldHeaders })).statusCode,
      200,
      'tokens signed before the rotation still verify',
    )
    const { token } = await rotated.modules.identity.tenants.issueProvisioningToken(
      systemContext(created.tenantId),
      created.adminUserId,
      1,
    )
    assert.equal(
      (
        await rotated.app.inject({
          method: 'GET',
          url: '/api/v2/Users?count=1',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
      200,
    )
    await rotated.close()

    // Only the old key: the start is refused, naming the key it needs.
    await assert.rejects(
      createTestApp({ db, secrets: box(oldKey) }),
      (err: unknown) =>
        err instanceof SecretsError &&
        err.message.includes(`secrets key ${box(newKey).currentKeyId}, which is not configured`),
    )
  })
})

const quoteKeyContext = (tenantId: number) => `rate_quote_key:${tenantId}`
const linkKeyContext = (tenantId: number) => `document_link_key:${tenantId}`

/** The stored quote-signing and link-signing secrets of a tenant, as the columns hold them. */
async function storedHmacKeys(db: Database, tenantId: number): Promise<{ quote: string; link: string }> {
  const quote = await db.read(tenantId, (x) =>
    x.selectFrom('rate_quote_key').select('secret').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow(),
  )
  const link = await db.read(tenantId, (x) =>
    x.selectFrom('document_link_key').select('secret').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow(),
  )
  return { quote: quote.secret, link: link.secret }
}

type Issued = {
  tenantId: number
  apiKey: string
  adminEmail: string
  adminPassword: string
  quoteId: string
  fileId: number
  downloadUrl: string
  content: Buffer
}

/** A demo tenant (a rate book and dealers to quote for) with a quote id and a download link issued now. */
async function issueQuoteAndLink(started: TestApp): Promise<Issued> {
  const { demo, headers } = await seedDemo(started)
  const quoted = await started.app.inject({
    method: 'GET',
    url: `/api/Rates/rateQuote/${DEMO.dealerNumber}?${DEMO.accordQuery}`,
    headers,
  })
  assert.equal(quoted.statusCode, 200, quoted.body)
  const content = Buffer.from(`a file of tenant ${demo.tenantId}\n`)
  const doc = await started.modules.documents.service.store(systemContext(demo.tenantId, 'secrets-test'), {
    ownerType: 'TEST',
    ownerId: 1,
    kind: 'TEST_FILE',
    fileName: 'note.txt',
    contentType: 'text/plain',
    content,
  })
  const version = doc.versions[0]!
  return {
    ...demo,
    quoteId: (quoted.json() as { quoteId: string }).quoteId,
    fileId: version.fileId,
    downloadUrl: version.downloadUrl,
    content,
  }
}

/** The quote id replays and the download link serves the file, on an app that has cached nothing of them. */
async function assertStillValid(started: TestApp, issued: Issued) {
  const headers = await signIn(started, issued, issued.adminEmail, issued.adminPassword)
  const replay = await started.app.inject({
    method: 'GET',
    url: `/api/Rates/quotes/${encodeURIComponent(issued.quoteId)}`,
    headers,
  })
  assert.equal(replay.statusCode, 200, replay.body)
  assert.equal((replay.json() as { quoteId: string }).quoteId, issued.quoteId)
  const file = await started.app.inject({ method: 'GET', url: issued.downloadUrl })
  assert.equal(file.statusCode, 200, file.body)
  assert.ok(file.rawPayload.equals(issued.content), 'the link serves the file, without credentials')
}

describe('quote-signing and download-link keys at rest', () => {
  const oldKey = generateSecretsKey()
  const newKey = generateSecretsKey()

  test('are stored sealed, bound to their table and tenant; re-sealed under a new key, old quote ids and links stay valid', async () => {
    const db = await privateDatabase('quote and link keys')
    const first = await appOn(db, box(oldKey))
    const issued = await issueQuoteAndLink(first)
    await first.close()

    const stored = await storedHmacKeys(db, issued.tenantId)
    const quoteHex = box(oldKey).open(stored.quote, quoteKeyContext(issued.tenantId))
    const linkHex = box(oldKey).open(stored.link, linkKeyContext(issued.tenantId))
    for (const [column, hex] of [
      [stored.quote, quoteHex],
      [stored.link, linkHex],
    ] as const) {
      assert.match(column, /^v1:/)
      assert.match(hex, /^[0-9a-f]{64}$/, 'the secret is 32 bytes')
      assert.ok(
        !column.includes(hex) && !column.includes(Buffer.from(hex, 'hex').toString('base64url')),
        'the secret is not in the column',
      )
    }
    assert.throws(
      () => box(oldKey).open(stored.quote, linkKeyContext(issued.tenantId)),
      /does not authenticate/,
      'a quote key does not open as a link key',
    )

    // Rotation: the new key first, the old one after it; re-seal; then the old key alone is gone.
    const rotating = await appOn(db, box(newKey, oldKey))
    const report = await rotating.modules.identity.sealedSecrets.reseal()
    assert.deepEqual(report, {
      keyId: box(newKey).currentKeyId,
      tenants: 1,
      resealed: 3,
      unchanged: 0,
      tables: {
        tenant_signing_key: { resealed: 1, unchanged: 0 },
        rate_quote_key: { resealed: 1, unchanged: 0 },
        document_link_key: { resealed: 1, unchanged: 0 },
        webhook_subscription: { resealed: 0, unchanged: 0 },
      },
    })
    await rotating.close()
    const resealed = await storedHmacKeys(db, issued.tenantId)
    assert.equal(box(newKey).keyIdOf(resealed.quote), box(newKey).currentKeyId)
    assert.equal(
      box(newKey).open(resealed.quote, quoteKeyContext(issued.tenantId)),
      quoteHex,
      'the same bytes, sealed again',
    )
    assert.equal(box(newKey).open(resealed.link, linkKeyContext(issued.tenantId)), linkHex)

    const rotated = await appOn(db, box(newKey))
    await assertStillValid(rotated, issued)

    // A sealed value moved into another tenant's row does not open there: it signs nothing.
    const other = await rotated.modules.identity.tenants.createTenant({
      name: 'Other',
      adminEmail: 'admin@other.example',
      adminPassword: 'correct horse battery staple',
    })
    await db.transaction(other.tenantId, async (tx) => {
      await tx
        .updateTable('rate_quote_key')
        .set({ secret: resealed.quote })
        .where('tenant_id', '=', other.tenantId)
        .execute()
      await tx
        .updateTable('document_link_key')
        .set({ secret: resealed.link })
        .where('tenant_id', '=', other.tenantId)
        .execute()
    })
    const fresh = createModules({
      db,
      clock: createManualClock(new Date()),
      bus: await createInvalidationBus(undefined),
      secrets: box(newKey),
      config: TEST_CONFIG,
    })
    const moved = (err: unknown) => err instanceof SecretsError && /does not authenticate/.test(err.message)
    await assert.rejects(fresh.rating.quotes.quoteBook(systemContext(other.tenantId), issued.quoteId), moved)
    await assert.rejects(fresh.documents.service.signedLink(other.tenantId, issued.fileId), moved)
    await rotated.close()
  })

  test('secrets left in plaintext by migration 0012 keep working and are sealed at the next start', async () => {
    const db = await privateDatabase('plaintext quote and link keys')
    const key = oldKey
    const first = await appOn(db, box(key))
    const issued = await issueQuoteAndLink(first)
    await first.close()
    // What migration 0012 leaves: the secrets' bytes as hex, and the tenant marked.
    const sealed = await storedHmacKeys(db, issued.tenantId)
    const quoteHex = box(key).open(sealed.quote, quoteKeyContext(issued.tenantId))
    const linkHex = box(key).open(sealed.link, linkKeyContext(issued.tenantId))
    await db.transaction(issued.tenantId, async (tx) => {
      await tx
        .updateTable('rate_quote_key')
        .set({ secret: quoteHex })
        .where('tenant_id', '=', issued.tenantId)
        .execute()
      await tx
        .updateTable('document_link_key')
        .set({ secret: linkHex })
        .where('tenant_id', '=', issued.tenantId)
        .execute()
      await tx.updateTable('tenant').set({ plaintext_secrets: true }).where('id', '=', issued.tenantId).execute()
    })

    // Before any start seals them, the plaintext secrets still verify (a CLI run after `db migrate`).
    const early = createModules({
      db,
      clock: createManualClock(new Date()),
      bus: await createInvalidationBus(undefined),
      secrets: box(key),
      config: TEST_CONFIG,
    })
    const query = Object.fromEntries(new URL(issued.downloadUrl, 'http://localhost').searchParams)
    assert.equal(await early.documents.service.verifyLink(query, issued.fileId), issued.tenantId)
    assert.ok(
      await early.rating.quotes.quoteBook(systemContext(issued.tenantId), issued.quoteId),
      'the quote id verifies',
    )

    const started = await appOn(db, box(key))
    const now = await storedHmacKeys(db, issued.tenantId)
    assert.match(now.quote, /^v1:/)
    assert.match(now.link, /^v1:/)
    assert.equal(box(key).open(now.quote, quoteKeyContext(issued.tenantId)), quoteHex)
    assert.equal(box(key).open(now.link, linkKeyContext(issued.tenantId)), linkHex)
    const flag = await db.read(null, (x) =>
      x.selectFrom('tenant').select('plaintext_secrets').where('id', '=', issued.tenantId).executeTakeFirstOrThrow(),
    )
    assert.equal(flag.plaintext_secrets, false)
    await assertStillValid(started, issued)
    await started.close()
  })

  test('migration 0012 keeps the stored bytes (as hex) and marks every tenant; the start-up pass seals them', async () => {
    // A database as the release before left it: migrated up to 0011, secrets in bytea.
    const db = await openPglite('memory://')
    closeAtEnd(() => db.close())
    const before = await new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } }).migrateTo(
      '2026_11_22_0011_sealed_secrets',
    )
    if (before.error) throw before.error
    const {
      rows: [tenant],
    } = await sql<{ id: number }>`insert into tenant (name) values ('Before 0012') returning id`.execute(db.kysely)
    const tenantId = Number(tenant!.id)
    const quoteBytes = randomBytes(32)
    const linkBytes = randomBytes(32)
    await db.transaction(tenantId, async (tx) => {
      await sql`insert into rate_quote_key (tenant_id, secret) values (${tenantId}, ${quoteBytes})`.execute(tx)
      await sql`insert into document_link_key (tenant_id, secret) values (${tenantId}, ${linkBytes})`.execute(tx)
    })

    await migrateToLatest(db)
    assert.deepEqual(await storedHmacKeys(db, tenantId), {
      quote: quoteBytes.toString('hex'),
      link: linkBytes.toString('hex'),
    })
    const flag = await db.read(null, (x) =>
      x.selectFrom('tenant').select('plaintext_secrets').where('id', '=', tenantId).executeTakeFirstOrThrow(),
    )
    assert.equal(flag.plaintext_secrets, true)

    const modules = createModules({
      db,
      clock: createManualClock(new Date()),
      bus: await createInvalidationBus(undefined),
      secrets: box(oldKey),
      config: TEST_CONFIG,
    })
    assert.equal(await modules.identity.sealedSecrets.sealPlaintext(), 2)
    const sealed = await storedHmacKeys(db, tenantId)
    assert.equal(box(oldKey).open(sealed.quote, quoteKeyContext(tenantId)), quoteBytes.toString('hex'))
    assert.equal(box(oldKey).open(sealed.link, linkKeyContext(tenantId)), linkBytes.toString('hex'))
    assert.equal(await modules.identity.sealedSecrets.sealPlaintext(), 0, 'sealed once')
  })
})
