// What a report document prints beyond its figures (docs/reporting.md "Formats"): plain Kysely reads.
import type { Executor } from '../../platform/db/database.ts'

/** The administrator company's name, the letterhead of a statement (the tenant's first ADMIN_COMPANY). */
export async function administratorName(db: Executor, tenantId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('account_holder')
    .select('display_name')
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'ADMIN_COMPANY')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
  return row?.display_name
}
