// Earnings persistence (docs/earnings.md): earnings runs, the contracts a run selects, and what the
// ledger says of a contract's cancel and earnings entries. Plain Kysely functions taking the executor
// and the tenant id first; contract-earnings.ts owns the transactions.
import { sql, type Insertable, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB, EarningsRunTable } from '../../platform/db/schema.ts'
import type { ContractStatus, PricingSnapshot } from '../../platform/db/schema.contracts.ts'
import type { ContractTerms } from './contract-terms.ts'

export type EarningsRunRow = Selectable<EarningsRunTable>
export type EarningsRunInsert = Omit<Insertable<EarningsRunTable>, 'tenant_id'>
export type EarningsRunUpdate = Partial<Omit<Insertable<EarningsRunTable>, 'tenant_id' | 'id'>>

/** What selects the contracts of a run. */
export type RunSelection = {
  dealerId: number | null
  productType: string | null
  contractIds: readonly number[] | null
  statuses: readonly ContractStatus[]
}

export async function insertRun(tx: Transaction<DB>, tenantId: number, values: EarningsRunInsert): Promise<number> {
  const inserted = await tx
    .insertInto('earnings_run')
    .values({ ...values, tenant_id: tenantId })
    .returning('id')
    .executeTakeFirstOrThrow()
  return inserted.id
}

export async function findRun(db: Executor, tenantId: number, id: number): Promise<EarningsRunRow | undefined> {
  return db
    .selectFrom('earnings_run')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function updateRun(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: EarningsRunUpdate,
): Promise<void> {
  await tx.updateTable('earnings_run').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

/** The next `limit` contract ids a run selects after `after`, in id order, among the dealers `visible` (null: all). */
export async function nextRunContractIds(
  db: Executor,
  tenantId: number,
  selection: RunSelection,
  visible: ReadonlySet<number> | null,
  after: number,
  limit: number,
): Promise<number[]> {
  let q = db
    .selectFrom('contract')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '>', after)
    .where('status', 'in', [...selection.statuses])
  if (selection.dealerId !== null) q = q.where('dealer_id', '=', selection.dealerId)
  if (selection.productType !== null) q = q.where('product_type', '=', selection.productType)
  if (selection.contractIds !== null)
    q = q.where('id', 'in', selection.contractIds.length > 0 ? [...selection.contractIds] : [0])
  if (visible) q = q.where('dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  const rows = await q.orderBy('id').limit(limit).execute()
  return rows.map((r) => r.id)
}

/**
 * Whether a cancel entry stands on the contract: more CONTRACT_CANCELLED entries than CANCEL_REVERSED
 * ones. The cancel cleared its administrator lines (earned to date + earned at cancel + refunded =
 * the line), so a run must post nothing more for it.
 */
export async function cancelEntryStands(db: Executor, tenantId: number, contractId: number): Promise<boolean> {
  const rows = await db
    .selectFrom('journal_entry as e')
    .select(['e.kind', (eb) => eb.fn.count<number>('e.id').distinct().as('n')])
    .where('e.tenant_id', '=', tenantId)
    .where('e.kind', 'in', ['CONTRACT_CANCELLED', 'CANCEL_REVERSED'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('journal_line as l')
          .select(sql.lit(1).as('one'))
          .where('l.tenant_id', '=', tenantId)
          .whereRef('l.entry_id', '=', 'e.id')
          .where('l.contract_id', '=', contractId),
      ),
    )
    .groupBy('e.kind')
    .execute()
  const count = (kind: string) => Number(rows.find((r) => r.kind === kind)?.n ?? 0)
  return count('CONTRACT_CANCELLED') > count('CANCEL_REVERSED')
}

/** The as-of date of the last earnings run that posted for the contract; null when none has. */
export async function lastPostedThrough(db: Executor, tenantId: number, contractId: number): Promise<string | null> {
  const row = await db
    .selectFrom('journal_entry as e')
    .innerJoin('earnings_run as r', (j) => j.onRef('r.tenant_id', '=', 'e.tenant_id').onRef('r.id', '=', 'e.source_id'))
    .select(['r.as_of'])
    .where('e.tenant_id', '=', tenantId)
    .where('e.kind', '=', 'EARNINGS_RECOGNIZED')
    .where('e.source_type', '=', 'PROCESS')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('journal_line as l')
          .select(sql.lit(1).as('one'))
          .where('l.tenant_id', '=', tenantId)
          .whereRef('l.entry_id', '=', 'e.id')
          .where('l.contract_id', '=', contractId),
      ),
    )
    .orderBy('e.id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.as_of ?? null
}

/**
 * What a run's batch sync reads of each contract: the columns the per-contract sync uses, and of
 * the JSON snapshots only the parts it reads (the priced lines, the earnings terms, the term).
 */
export type BatchContractRow = Pick<
  Selectable<DB['contract']>,
  'id' | 'contract_number' | 'status' | 'dealer_id' | 'effective_date' | 'expiration_date' | 'finalized_at'
> & {
  lines: PricingSnapshot['lines']
  /** terms.earnings; null when the contract has no terms snapshot yet. */
  earnings: ContractTerms['earnings'] | null
  term_months: number
}

/**
 * The contracts `ids` among the dealers `visible` (null: all), locked FOR UPDATE in id order until
 * `tx` ends. SKIP LOCKED: a contract another transaction holds (a cancel being processed) is left
 * out rather than waited for; the caller syncs it on its own, waiting for the lock then.
 */
export async function lockBatch(
  tx: Transaction<DB>,
  tenantId: number,
  ids: readonly number[],
  visible: ReadonlySet<number> | null,
): Promise<BatchContractRow[]> {
  if (ids.length === 0) return []
  let q = tx
    .selectFrom('contract as c')
    .select([
      'c.id',
      'c.contract_number',
      'c.status',
      'c.dealer_id',
      'c.effective_date',
      'c.expiration_date',
      'c.finalized_at',
      sql<PricingSnapshot['lines']>`c.pricing -> 'lines'`.as('lines'),
      sql<ContractTerms['earnings'] | null>`c.terms -> 'earnings'`.as('earnings'),
      sql<number>`(c.coverage -> 'term' ->> 'months')::int`.as('term_months'),
    ])
    .where('c.tenant_id', '=', tenantId)
    .where('c.id', 'in', [...ids])
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  return q.orderBy('c.id').forUpdate('c').skipLocked().execute()
}

/** Each contract's latest CANCEL date of its status history (lastCancelDate of several contracts). */
export async function lastCancelDates(
  db: Executor,
  tenantId: number,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('contract_status_history')
    .distinctOn('contract_id')
    .select(['contract_id', 'effective_date'])
    .where('tenant_id', '=', tenantId)
    .where('contract_id', 'in', [...ids])
    .where('event', '=', 'CANCEL')
    .orderBy('contract_id')
    .orderBy('id', 'desc')
    .execute()
  return new Map(rows.map((r) => [r.contract_id, r.effective_date]))
}

/** cancelEntryStands of several contracts: the ids among `ids` on which a cancel entry stands. */
export async function cancelEntriesStand(db: Executor, tenantId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('journal_entry as e')
    .innerJoin('journal_line as l', (j) => j.onRef('l.tenant_id', '=', 'e.tenant_id').onRef('l.entry_id', '=', 'e.id'))
    .select(['l.contract_id', 'e.kind', (eb) => eb.fn.count<number>('e.id').distinct().as('n')])
    .where('e.tenant_id', '=', tenantId)
    .where('l.tenant_id', '=', tenantId)
    .where('e.kind', 'in', ['CONTRACT_CANCELLED', 'CANCEL_REVERSED'])
    .where('l.contract_id', 'in', [...ids])
    .groupBy(['l.contract_id', 'e.kind'])
    .execute()
  const net = new Map<number, number>()
  for (const r of rows)
    net.set(r.contract_id!, (net.get(r.contract_id!) ?? 0) + (r.kind === 'CONTRACT_CANCELLED' ? 1 : -1) * Number(r.n))
  return new Set([...net].filter(([, n]) => n > 0).map(([id]) => id))
}
