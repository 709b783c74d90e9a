// The demo tenant: created on first start of an empty database, so `npm start` has something to
// show. Its credentials are printed once and written to DATA_DIR/demo-tenant.json for scripts.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Database } from './platform/db/database.ts'
import { systemContext } from './platform/http/context.ts'
import { KINDS } from './modules/parties/index.ts'
import type { Modules } from './modules.ts'
import { localDate } from './platform/clock.ts'
import { seedDemoBook, type DemoBookDeps } from './demo-book.ts'

export type DemoTenant = { tenantId: number; apiKey: string; adminEmail: string; adminPassword: string }

export const DEMO_ADMIN_EMAIL = 'admin@demo.example'
export const DEMO_TENANT_NAME = 'Demo Administrator, Inc.'

export async function isEmptyDatabase(db: Database): Promise<boolean> {
  const row = await db.read(null, (x) => x.selectFrom('tenant').select('id').limit(1).executeTakeFirst())
  return row === undefined
}

/** The context the demo's data is made under: the audit trail says `demo-seed` did it. */
const demoSeed = (tenantId: number) => systemContext(tenantId, 'demo-seed')

const newDemoPassword = () => `demo-${randomBytes(9).toString('base64url')}`

/**
 * Creates the demo tenant and its data. `onCredentials` runs as soon as the tenant exists, before
 * its data is seeded (the slow part), so that credentials are saved even when the process is
 * stopped during the seeding; the data (parties, then the rate book and who sells from it) is seeded
 * in one transaction, so a stopped seeding leaves none of it and `completeDemoTenant` redoes it.
 */
export async function seedDemoTenant(
  modules: Modules,
  db: Database,
  onCredentials: (demo: DemoTenant) => void = () => {},
): Promise<DemoTenant> {
  const adminPassword = newDemoPassword()
  const created = await modules.identity.tenants.createTenant(
    { name: DEMO_TENANT_NAME, adminEmail: DEMO_ADMIN_EMAIL, adminPassword },
    demoSeed,
  )
  const demo = { tenantId: created.tenantId, apiKey: created.apiKey, adminEmail: DEMO_ADMIN_EMAIL, adminPassword }
  onCredentials(demo)
  await seedDemoData(modules, db, created.tenantId)
  return demo
}

async function seedDemoData(modules: Modules, db: Database, tenantId: number): Promise<void> {
  await db.transaction(tenantId, async () => {
    await modules.parties.seedDemo(tenantId)
    const ctx = demoSeed(tenantId)
    const { rows: dealers } = await modules.parties.accountHolders.list(
      ctx,
      KINDS.DEALER,
      {},
      { limit: 1000, offset: 0 },
    )
    await modules.rating.seedDemo(
      tenantId,
      dealers.map((d) => ({ id: d.id, dealerNumber: d.business_key!, agentIds: d.agent_ids.map(Number) })),
    )
  })
}

/** The demo tenant of a database that already has tenants: the oldest under the demo name. */
export async function findDemoTenant(db: Database): Promise<number | undefined> {
  const row = await db.read(null, (x) =>
    x.selectFrom('tenant').select('id').where('name', '=', DEMO_TENANT_NAME).orderBy('id').limit(1).executeTakeFirst(),
  )
  return row?.id
}

/**
 * Makes good a first start that was stopped part-way: seeds the demo data when the tenant has none
 * (the seeding transaction never committed), and, when `credentialsLost`, issues new credentials
 * (a new API key and a new administrator password: the old ones are stored only as hashes and
 * cannot be shown again). Returns the new credentials, if any were issued.
 */
export async function completeDemoTenant(
  modules: Modules,
  db: Database,
  tenantId: number,
  credentialsLost: boolean,
): Promise<DemoTenant | undefined> {
  // The dealers come with the rest of the data in one transaction: one dealer means all of it.
  const seeded = await db.read(tenantId, (x) =>
    x
      .selectFrom('account_holder')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', 'DEALER')
      .limit(1)
      .executeTakeFirst(),
  )
  if (seeded === undefined) await seedDemoData(modules, db, tenantId)
  if (!credentialsLost) return undefined
  const ctx = demoSeed(tenantId)
  const { rows } = await modules.identity.users.search(ctx, { emailAddress: DEMO_ADMIN_EMAIL }, { limit: 1, offset: 0 })
  const admin = rows[0]
  if (admin === undefined) return undefined
  const adminPassword = newDemoPassword()
  await modules.identity.users.replace(ctx, admin.id, {
    emailAddress: admin.email_address,
    externalIdentity: admin.external_identity,
    firstName: admin.first_name,
    lastName: admin.last_name,
    phoneNumber: admin.phone_number,
    expiredDate: admin.expired_date,
    accountHolderId: admin.account_holder_id,
    password: adminPassword,
  })
  const key = await modules.identity.tenants.createApiKey(ctx, 'demo (re-issued)')
  return { tenantId, apiKey: key.apiKey, adminEmail: DEMO_ADMIN_EMAIL, adminPassword }
}

/**
 * What `npm start` does for the demo: on an empty database, seeds the demo tenant (its credentials
 * written to `dataDir`/demo-tenant.json on the embedded database, as soon as the tenant exists); on a
 * database with a demo tenant, completes what a stopped first start left undone, and on the embedded
 * database issues new credentials when the file is missing. Returns credentials to print, if new.
 * With `book` (demoBookDeps), a new demo tenant also gets its year of business (src/demo-book.ts).
 */
export async function prepareDemoTenant(
  modules: Modules,
  db: Database,
  dataDir: string | undefined,
  book?: DemoBookDeps & { today(tenantId: number): Promise<string> },
): Promise<{ demo: DemoTenant; file: string | undefined; reissued: boolean } | undefined> {
  if (await isEmptyDatabase(db)) {
    let file: string | undefined
    const demo = await seedDemoTenant(modules, db, (credentials) => {
      if (dataDir !== undefined) file = writeDemoFile(dataDir, credentials)
    })
    if (book !== undefined) await seedDemoBook(book, demo, await book.today(demo.tenantId))
    return { demo, file, reissued: false }
  }
  const tenantId = await findDemoTenant(db)
  if (tenantId === undefined) return undefined
  const lost = dataDir !== undefined && !fs.existsSync(path.join(dataDir, 'demo-tenant.json'))
  const demo = await completeDemoTenant(modules, db, tenantId, lost)
  if (demo === undefined) return undefined
  return { demo, file: dataDir === undefined ? undefined : writeDemoFile(dataDir, demo), reissued: true }
}

/**
 * The demo book's dependencies for `prepareDemoTenant` (src/demo-book.ts): the server's, and its
 * today in the tenant's time zone. The book is seeded on the first start only, after the demo data.
 */
export function demoBookDeps(modules: Modules, deps: DemoBookDeps, now: () => Date) {
  return {
    ...deps,
    today: async (tenantId: number) => localDate(now(), await modules.settings.service.get(tenantId, 'timeZone')),
  }
}

export function writeDemoFile(dataDir: string, demo: DemoTenant): string {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, 'demo-tenant.json')
  fs.writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 })
  return file
}

export function demoInstructions(
  demo: DemoTenant,
  baseUrl: string,
  file: string | undefined,
  reissued = false,
): string {
  return [
    '',
    reissued
      ? 'Demo tenant: its credentials file was missing, so new credentials were issued.'
      : 'Demo tenant created.',
    `  tenant id:      ${demo.tenantId}`,
    `  API key:        ${demo.apiKey}`,
    `  admin email:    ${demo.adminEmail}`,
    `  admin password: ${demo.adminPassword}`,
    ...(file ? [`  (also in ${file})`] : []),
    '',
    'Get a token and list users:',
    `  TOKEN=$(curl -s -X POST ${baseUrl}/api/auth/token -H 'X-Api-Key: ${demo.apiKey}' -H 'Content-Type: application/json' \\`,
    `    -d '{"grant_type":"password","username":"${demo.adminEmail}","password":"${demo.adminPassword}"}' | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `  curl -s ${baseUrl}/api/v1/adminusers -H 'X-Api-Key: ${demo.apiKey}' -H "Authorization: Bearer $TOKEN"`,
    '',
    `API reference: ${baseUrl}/docs`,
    '',
  ].join('\n')
}
