// Shared test harness. The runner gives each test file a process of its own (two at a time), and
// each process one database: a private in-memory copy of the embedded database migrated once by
// test/global-setup.ts, or the PostgreSQL database of DATABASE_URL (as in CI). A fresh app per test
// file with its own moved-by-hand clock; a new tenant per test, so tests never see each other's data.
// Everything opened here (apps, the database) is closed when the file's tests end, whether they
// passed, failed or were cancelled.
import type { ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../src/app.ts'
import { createModules, type Modules } from '../src/modules.ts'
import { createInvalidationBus, type InvalidationBus } from '../src/platform/cache.ts'
import { createManualClock } from '../src/platform/clock.ts'
import { openPglite, openPostgres, type Database } from '../src/platform/db/database.ts'
import { migrateToLatest } from '../src/platform/db/migrate.ts'
import { createSecretBox, parseSecretsKeys, type SecretBox } from '../src/platform/secrets.ts'
import { TEMPLATE_ENV } from './global-setup.ts'
import { installOpenApiConformance } from './openapi-conformance.ts'

// Every response of every app this test process builds is checked against the app's own OpenAPI
// document (test/openapi-conformance.ts; OPENAPI_CONFORMANCE=0 turns it off).
installOpenApiConformance()

let shared: Promise<Database> | undefined
/** Closers of what this process opened and has not closed yet, run (newest first) when its tests end. */
const open = new Set<() => Promise<void>>()

/** Closes `close`'s resource when this file's tests end unless the test closed it first; returns the closer to use. */
export function closeAtEnd(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined
  const once = () => {
    open.delete(once)
    closing ??= close()
    return closing
  }
  open.add(once)
  return once
}

/** Kills `child` (SIGKILL) when this file's tests end if it is still running then, and waits for it to go. */
export function killAtEnd(child: ChildProcess): void {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  const close = closeAtEnd(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  })
  // Gone by itself: nothing left to do at the end.
  void exited.then(() => open.delete(close))
}

// A root-level hook: with one process per test file it runs once, after the file's last test.
after(async () => {
  for (const close of [...open].toReversed()) await close()
  if (shared) await (await shared).close()
})

export function testDatabase(): Promise<Database> {
  shared ??= (async () => {
    const url = process.env.DATABASE_URL
    const template = process.env[TEMPLATE_ENV]
    // As the service reads them (src/config.ts): off behind PgBouncer (scripts/with-pgbouncer.sh).
    const db = url
      ? await openPostgres(url, 10, {
          preparedStatements: !/^(0|false|no)$/i.test(process.env.DATABASE_PREPARED_STATEMENTS ?? ''),
        })
      : await openPglite('memory://', template ? { from: new Blob([fs.readFileSync(template)]) } : {})
    // Already migrated by the global set-up (then this only checks); a file run on its own migrates here.
    await migrateToLatest(db)
    return db
  })()
  return shared
}

export type TestApp = {
  app: FastifyInstance
  db: Database
  bus: InvalidationBus
  clock: ReturnType<typeof createManualClock>
  tenants: Modules['identity']['tenants']
  /** The module graph that serves `app`'s requests, for arranging data the API cannot create (customers). */
  modules: Modules
  close(): Promise<void>
}

/**
 * The tests' secrets key: SECRETS_KEY when set (scripts/with-postgres.sh sets one, which the CLI
 * processes of test/cli.test.ts use too), otherwise a fixed key derived from a label, so that every
 * test process on one PostgreSQL database opens what the others sealed.
 */
export const TEST_SECRETS = process.env.SECRETS_KEY
  ? createSecretBox(parseSecretsKeys(process.env.SECRETS_KEY, 'SECRETS_KEY'))
  : createSecretBox([createHash('sha256').update('vpp test secrets key').digest()])

export const TEST_CONFIG = {
  rateLimitPerMinute: 1_000_000,
  authFailureLimitPerMinute: 1_000_000,
  accessTokenTtlSeconds: 3600,
  bodyLimitBytes: 1_048_576,
  logLevel: 'silent',
  documents: {
    storage: 'database' as 'database' | 'filesystem',
    dir: path.join(os.tmpdir(), 'vpp-test-documents'),
    maxBytes: 1_048_576,
    linkTtlSeconds: 300,
  },
}

export type TestAppOptions = {
  config?: Partial<typeof TEST_CONFIG>
  now?: Date
  /** Instead of this process's shared database: a private one, or one made to fail. */
  db?: Database
  clock?: ReturnType<typeof createManualClock>
  bus?: InvalidationBus
  secrets?: SecretBox
  /** Registers test-only routes with the graph that serves (a test owner's file collection) before the app is ready. */
  register?: (app: FastifyInstance, modules: Modules) => PromiseLike<unknown> | void
}

/**
 * An app ready for `inject`, over one module graph: `t.modules` is the graph serving the requests,
 * so what a test arranges through it is what the routes see (their caches included).
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await testDatabase())
  const clock = options.clock ?? createManualClock(options.now ?? new Date())
  const bus = options.bus ?? (await createInvalidationBus(undefined))
  const config = { ...TEST_CONFIG, ...options.config }
  const modules = createModules({ config, db, clock, bus, secrets: options.secrets ?? TEST_SECRETS })
  const app = await buildApp({ config, db, clock, bus, modules, logger: false })
  const close = closeAtEnd(async () => {
    await app.close()
  })
  if (options.register) await options.register(app, modules)
  await app.ready()
  return { app, db, bus, clock, tenants: modules.identity.tenants, modules, close }
}

export type TestTenant = {
  tenantId: number
  apiKey: string
  adminUserId: number
  adminEmail: string
  adminPassword: string
  /** Headers of the tenant administrator (API key + bearer token); other users': loginHeaders. */
  headers: Record<string, string>
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${randomBytes(6).toString('hex')}@test.example`
}

export async function createTenant(t: TestApp, name = 'Test tenant'): Promise<TestTenant> {
  const adminEmail = uniqueEmail('admin')
  const adminPassword = `pw-${randomBytes(12).toString('hex')}`
  const created = await t.tenants.createTenant({ name, adminEmail, adminPassword })
  return {
    ...created,
    adminEmail,
    adminPassword,
    headers: await loginHeaders(t, created.apiKey, adminEmail, adminPassword),
  }
}

/**
 * Request headers of a user of a tenant: its API key and a fresh bearer token from the password
 * grant: the tests' one way to sign a user in (tests of the token endpoint send their own requests).
 */
export async function loginHeaders(
  t: TestApp,
  apiKey: string,
  email: string,
  password: string,
): Promise<Record<string, string>> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'x-api-key': apiKey },
    payload: { grant_type: 'password', username: email, password },
  })
  if (res.statusCode !== 200) throw new Error(`login of ${email} failed: ${res.statusCode} ${res.body}`)
  return { 'x-api-key': apiKey, authorization: `Bearer ${(res.json() as { access_token: string }).access_token}` }
}

/**
 * Creates a user through the API with the given role codes and returns its id and headers. The user
 * is staff (in the STAFF group, so it sees every account holder) unless `extra.groups` says otherwise.
 */
export async function createUserWithRoles(
  t: TestApp,
  tenant: TestTenant,
  roleCodes: string[],
  extra: Record<string, unknown> = {},
) {
  const roles = await t.db.read(tenant.tenantId, (x) =>
    x.selectFrom('membership_role').select(['id', 'code']).where('tenant_id', '=', tenant.tenantId).execute(),
  )
  const staff = await groupIdByCode(t, tenant, 'STAFF')
  const email = uniqueEmail('member')
  const password = `pw-${randomBytes(12).toString('hex')}`
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/adminusers',
    headers: tenant.headers,
    payload: {
      emailAddress: email,
      password,
      roles: roles.filter((r) => roleCodes.includes(r.code)).map((r) => ({ id: r.id })),
      groups: [{ id: staff }],
      ...extra,
    },
  })
  if (res.statusCode !== 201) throw new Error(`user creation failed: ${res.statusCode} ${res.body}`)
  const id = (res.json() as { id: number }).id
  return { id, email, password, headers: await loginHeaders(t, tenant.apiKey, email, password) }
}

export async function roleIdByCode(t: TestApp, tenant: TestTenant, code: string): Promise<number> {
  const row = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('membership_role')
      .select('id')
      .where('tenant_id', '=', tenant.tenantId)
      .where('code', '=', code)
      .executeTakeFirstOrThrow(),
  )
  return row.id
}

export async function groupIdByCode(t: TestApp, tenant: TestTenant, code: string): Promise<number> {
  const row = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('membership_group')
      .select('id')
      .where('tenant_id', '=', tenant.tenantId)
      .where('code', '=', code)
      .executeTakeFirstOrThrow(),
  )
  return row.id
}

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json() as T
}

export type { InjectOptions }
