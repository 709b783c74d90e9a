// The demo tenant: created on first start of an empty database, so `npm start` has something to
// show. Its credentials are printed once and written to DATA_DIR/demo-tenant.json for scripts.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Database } from './platform/db/database.ts'
import { systemContext } from './platform/http/context.ts'
import { KINDS } from './modules/parties/index.ts'
import type { Modules } from './modules.ts'

export type DemoTenant = { tenantId: number; apiKey: string; adminEmail: string; adminPassword: string }

export const DEMO_ADMIN_EMAIL = 'admin@demo.example'

export async function isEmptyDatabase(db: Database): Promise<boolean> {
  const row = await db.read(null, (x) => x.selectFrom('tenant').select('id').limit(1).executeTakeFirst())
  return row === undefined
}

export async function seedDemoTenant(modules: Modules): Promise<DemoTenant> {
  const adminPassword = `demo-${randomBytes(9).toString('base64url')}`
  const created = await modules.identity.tenants.createTenant({ name: 'Demo Administrator, Inc.', adminEmail: DEMO_ADMIN_EMAIL, adminPassword, operator: 'demo-seed' })
  await modules.parties.seedDemo(created.tenantId)
  const ctx = systemContext(created.tenantId, 'demo-seed')
  const { rows: dealers } = await modules.parties.accountHolders.list(ctx, KINDS.DEALER, {}, { limit: 1000, offset: 0 })
  await modules.rating.seedDemo(created.tenantId, dealers.map((d) => ({ id: d.id, dealerNumber: d.business_key!, agentIds: d.agent_ids.map(Number) })))
  return { tenantId: created.tenantId, apiKey: created.apiKey, adminEmail: DEMO_ADMIN_EMAIL, adminPassword }
}

export function writeDemoFile(dataDir: string, demo: DemoTenant): string {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, 'demo-tenant.json')
  fs.writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 })
  return file
}

export function demoInstructions(demo: DemoTenant, baseUrl: string, file: string | undefined): string {
  return [
    '',
    'Demo tenant created.',
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
