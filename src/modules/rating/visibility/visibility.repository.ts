// Dealer rate visibility. Executor first, tenant always. A dealer's entries change as a whole; the
// set row (created on the first write) carries the version its ETag names and is the lock writes take.
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely'
import type { Executor } from '../../../platform/db/database.ts'
import type { DB, DealerRateVisibilityTable } from '../../../platform/db/schema.ts'
import { windowed, type Window } from '../../../platform/http/pagination.ts'

export type EntryRow = Selectable<DealerRateVisibilityTable>
export type EntryWrite = Omit<EntryRow, 'id' | 'tenant_id' | 'dealer_id'>

export type VisibilityFilter = { dealerId?: number; productId?: number }

type Eb = ExpressionBuilder<DB & { v: DealerRateVisibilityTable }, 'v'>

function selectEntries(db: Executor, tenantId: number) {
  return db
    .selectFrom('dealer_rate_visibility as v')
    .selectAll('v')
    .where('v.tenant_id', '=', tenantId)
    .orderBy('v.dealer_id')
    .orderBy('v.product_id')
    .orderBy('v.program_id', (ob) => ob.asc().nullsFirst())
    .orderBy('v.plan_id', (ob) => ob.asc().nullsFirst())
}

/** The version of the dealer's set: 0 when it was never written. */
export async function setVersion(db: Executor, tenantId: number, dealerId: number): Promise<number> {
  const row = await db
    .selectFrom('dealer_rate_visibility_set')
    .select('version')
    .where('tenant_id', '=', tenantId)
    .where('dealer_id', '=', dealerId)
    .executeTakeFirst()
  return row?.version ?? 0
}

export async function entriesOf(db: Executor, tenantId: number, dealerId: number): Promise<EntryRow[]> {
  return selectEntries(db, tenantId).where('v.dealer_id', '=', dealerId).execute()
}

/** Locks the dealer's set, creating it at version 0 when it was never written; returns its version. */
export async function lockSet(tx: Transaction<DB>, tenantId: number, dealerId: number, now: Date): Promise<number> {
  await tx
    .insertInto('dealer_rate_visibility_set')
    .values({ tenant_id: tenantId, dealer_id: dealerId, version: 0, updated_at: now })
    .onConflict((oc) => oc.columns(['tenant_id', 'dealer_id']).doNothing())
    .execute()
  const row = await tx
    .selectFrom('dealer_rate_visibility_set')
    .select('version')
    .where('tenant_id', '=', tenantId)
    .where('dealer_id', '=', dealerId)
    .forUpdate()
    .executeTakeFirstOrThrow()
  return row.version
}

/** Replaces the dealer's entries and bumps the set's version; returns the new version. */
export async function replaceEntries(
  tx: Transaction<DB>,
  tenantId: number,
  dealerId: number,
  entries: EntryWrite[],
  now: Date,
): Promise<number> {
  await tx
    .deleteFrom('dealer_rate_visibility')
    .where('tenant_id', '=', tenantId)
    .where('dealer_id', '=', dealerId)
    .execute()
  if (entries.length > 0) {
    await tx
      .insertInto('dealer_rate_visibility')
      .values(entries.map((e) => ({ ...e, tenant_id: tenantId, dealer_id: dealerId })))
      .execute()
  }
  const row = await tx
    .updateTable('dealer_rate_visibility_set')
    .set({ version: sql`version + 1`, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('dealer_id', '=', dealerId)
    .returning('version')
    .executeTakeFirstOrThrow()
  return row.version
}

/**
 * Entries of every dealer (of the visible ones, for dealer-side callers), ordered by dealer,
 * product, program and plan (the unique key, so the order is total).
 */
export async function listEntries(
  db: Executor,
  tenantId: number,
  filter: VisibilityFilter,
  visibleDealers: ReadonlySet<number> | null,
  window: Window,
) {
  const where = (eb: Eb) => {
    const c: Array<Expression<SqlBool>> = []
    if (visibleDealers !== null)
      c.push(visibleDealers.size === 0 ? eb.val(false) : eb('v.dealer_id', 'in', [...visibleDealers]))
    if (filter.dealerId !== undefined) c.push(eb('v.dealer_id', '=', filter.dealerId))
    if (filter.productId !== undefined) c.push(eb('v.product_id', '=', filter.productId))
    return eb.and(c)
  }
  const rows = await windowed(selectEntries(db, tenantId).where(where), window).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await db
    .selectFrom('dealer_rate_visibility as v')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('v.tenant_id', '=', tenantId)
    .where(where)
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}
