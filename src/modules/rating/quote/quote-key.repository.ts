// The tenants' quote-signing secrets (rate_quote_key). Plain Kysely functions; the executor and
// tenant come first.
import type { Transaction } from 'kysely'
import type { Executor } from '../../../platform/db/database.ts'
import type { DB } from '../../../platform/db/schema.ts'

/** Gives a new tenant its quote-signing secret, sealed (in the tenant's creating transaction). */
export async function createQuoteKey(tx: Transaction<DB>, tenantId: number, sealedSecret: string): Promise<void> {
  await tx
    .insertInto('rate_quote_key')
    .values({ tenant_id: tenantId, secret: sealedSecret })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute()
}

/** The tenant's stored quote-signing secret: made with the tenant (or by migration 0006 for older ones). */
export async function quoteKey(db: Executor, tenantId: number): Promise<string> {
  const row = await db
    .selectFrom('rate_quote_key')
    .select('secret')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow()
  return row.secret
}

/** The tenant's quote-signing secret row, locked for (re-)sealing. */
export async function lockQuoteKey(tx: Transaction<DB>, tenantId: number) {
  return tx.selectFrom('rate_quote_key').select('secret').where('tenant_id', '=', tenantId).forUpdate().execute()
}

export async function updateQuoteKey(tx: Transaction<DB>, tenantId: number, sealedSecret: string): Promise<void> {
  await tx.updateTable('rate_quote_key').set({ secret: sealedSecret }).where('tenant_id', '=', tenantId).execute()
}
