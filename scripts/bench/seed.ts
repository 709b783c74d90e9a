// Seeds the benchmark tenant: created through the module list exactly as an operator would
// (default roles and groups, signing key, API key, an administrator with a password), then N users
// inserted in batches inside one transaction bound to the tenant, each with one role and one group
// like real users. A fresh tenant every run, so a reused PostgreSQL database never mixes runs.
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Clock } from '../../src/platform/clock.ts'
import type { Database } from '../../src/platform/db/database.ts'
import type { Modules } from '../../src/modules.ts'
import { systemContext } from '../../src/platform/http/context.ts'

export type SeededTenant = {
  tenantId: number
  apiKey: string
  adminEmail: string
  adminPassword: string
  /** ids[i] is the user whose email address is emails[i]. */
  users: { ids: number[]; emails: string[] }
}

// 1,000 rows x 11 columns stays far below PostgreSQL's 65,535 bind parameters per statement.
const BATCH = 1000

/** Names of the bench's people (also the contract bench's buyers). */
export const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloe',
  'Diego',
  'Emma',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Keiko',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Priya',
]
export const LAST_NAMES = [
  'Anders',
  'Brown',
  'Costa',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nguyen',
]

export async function seedBenchTenant(
  deps: { db: Database; clock: Clock; modules: Modules },
  userCount: number,
): Promise<SeededTenant> {
  const { db, clock, modules } = deps
  const tag = randomBytes(4).toString('hex')
  const adminEmail = `admin@bench-${tag}.example`
  const adminPassword = `bench-${randomBytes(12).toString('base64url')}`
  // Through the whole module graph, so the tenant gets what every module sets up at creation.
  const created = await modules.identity.tenants.createTenant(
    { name: `Benchmark ${tag}`, adminEmail, adminPassword },
    (tenantId) => systemContext(tenantId, 'bench'),
  )
  const tenantId = created.tenantId

  const ids: number[] = []
  const emails: string[] = []
  await db.transaction(tenantId, async (tx) => {
    const roles = await tx
      .selectFrom('membership_role')
      .select(['id', 'code'])
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .execute()
    const groups = await tx
      .selectFrom('membership_group')
      .select(['id'])
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .execute()
    // Ordinary users hold ordinary roles; only the tenant administrator holds ADMINISTRATOR.
    const roleIds = roles.filter((r) => r.code !== 'ADMINISTRATOR').map((r) => r.id)
    const groupIds = groups.map((g) => g.id)
    if (roleIds.length === 0 || groupIds.length === 0) throw new Error('the new tenant has no default roles or groups')
    const now = clock.now()
    for (let start = 0; start < userCount; start += BATCH) {
      const values = []
      for (let i = start; i < Math.min(start + BATCH, userCount); i++) {
        const first = FIRST_NAMES[i % FIRST_NAMES.length] as string
        const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length] as string
        values.push({
          tenant_id: tenantId,
          email_address: `${first}.${last}.${i}@bench-${tag}.example`,
          external_identity: `bench|${tag}|${i}`,
          first_name: first,
          last_name: last,
          phone_number: `+1555${String(i).padStart(7, '0')}`,
          password_hash: null,
          expired_date: null,
          account_holder_id: null,
          created_at: now,
          updated_at: now,
        })
      }
      const rows = await tx.insertInto('app_user').values(values).returning(['id', 'email_address']).execute()
      await tx
        .insertInto('user_role')
        .values(
          rows.map((r, k) => ({
            tenant_id: tenantId,
            user_id: r.id,
            role_id: roleIds[(start + k) % roleIds.length] as number,
          })),
        )
        .execute()
      await tx
        .insertInto('user_group')
        .values(
          rows.map((r, k) => ({
            tenant_id: tenantId,
            user_id: r.id,
            group_id: groupIds[(start + k) % groupIds.length] as number,
          })),
        )
        .execute()
      for (const r of rows) {
        ids.push(r.id)
        emails.push(r.email_address)
      }
    }
  })
  // Fresh statistics, so the planner sees 10,000 users rather than an empty table.
  await db.read(null, (x) => sql`analyze app_user, user_role, user_group, membership_role, membership_group`.execute(x))
  return { tenantId, apiKey: created.apiKey, adminEmail, adminPassword, users: { ids, emails } }
}
