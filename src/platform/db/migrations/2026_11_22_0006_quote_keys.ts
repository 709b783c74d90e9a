// Frozen: every existing tenant gets its quote-signing key now (new tenants get one at creation),
// so the key is never first written inside some other, possibly rolled-back, transaction.
import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  const tenants = await sql<{ id: number }>`select id from tenant`.execute(db)
  for (const { id } of tenants.rows) {
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(db)
    await sql`insert into rate_quote_key (tenant_id, secret) values (${id}, ${randomBytes(32)}) on conflict (tenant_id) do nothing`.execute(
      db,
    )
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('quote key migration is not reversible')
}
