// Contract persistence: plain Kysely functions taking the executor and the tenant id first.
import { sql, type Insertable, type Selectable, type Transaction } from 'kysely'
import { advisoryLock } from '../../platform/db/advisory-lock.ts'
import type { Executor } from '../../platform/db/database.ts'
import { precompile } from '../../platform/db/precompiled.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { ContractStatus, ContractStatusHistoryTable, ContractTable } from '../../platform/db/schema.contracts.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { ContractSortField } from './contract.schemas.ts'

export type ContractRow = Selectable<ContractTable> & { open_holds: number }
export type ContractInsert = Omit<Insertable<ContractTable>, 'tenant_id'>

const withOpenHolds = (tenantId: number) =>
  sql<number>`(select count(*)::int from contract_hold h where h.tenant_id = ${tenantId} and h.contract_id = c.id and h.resolved_at is null)`

// The contract read is the hottest statement of the module: compiled once (precompile), the dealers
// a dealer-side user may see bound as one array, so that one shape serves every caller.
const contractById = precompile(2, (db, tenantId: number, id: number) =>
  db
    .selectFrom('contract as c')
    .selectAll('c')
    .select(withOpenHolds(tenantId).as('open_holds'))
    .where('c.tenant_id', '=', tenantId)
    .where('c.id', '=', id),
)
const visibleContractById = precompile(3, (db, tenantId: number, id: number, dealerIds: number[]) =>
  db
    .selectFrom('contract as c')
    .selectAll('c')
    .select(withOpenHolds(tenantId).as('open_holds'))
    .where('c.tenant_id', '=', tenantId)
    .where('c.id', '=', id)
    .where(sql<boolean>`c.dealer_id = any(${dealerIds})`),
)

export async function findContract(
  db: Executor,
  tenantId: number,
  id: number,
  visible: ReadonlySet<number> | null,
): Promise<ContractRow | undefined> {
  const rows = visible
    ? await visibleContractById(db, tenantId, id, [...visible])
    : await contractById(db, tenantId, id)
  return rows[0]
}

export async function findContractByNumber(
  db: Executor,
  tenantId: number,
  contractNumber: string,
  visible: ReadonlySet<number> | null,
): Promise<ContractRow | undefined> {
  let q = db
    .selectFrom('contract as c')
    .selectAll('c')
    .select(withOpenHolds(tenantId).as('open_holds'))
    .where('c.tenant_id', '=', tenantId)
    .where(sql<string>`upper(c.contract_number)`, '=', contractNumber.toUpperCase())
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  return q.executeTakeFirst()
}

/**
 * The contract row locked for a change; the caller's transaction holds the lock until it ends.
 * Open holds are counted by a second statement, after the lock is granted: a count inside the
 * locking statement would come from its snapshot, taken before it waited, and miss a hold placed
 * by the transaction it waited for.
 */
export async function lockContract(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  visible: ReadonlySet<number> | null,
): Promise<ContractRow | undefined> {
  let q = tx.selectFrom('contract as c').selectAll('c').where('c.tenant_id', '=', tenantId).where('c.id', '=', id)
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  const row = await q.forUpdate('c').executeTakeFirst()
  if (!row) return undefined
  const holds = await tx
    .selectFrom('contract_hold')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', id)
    .where('resolved_at', 'is', null)
    .executeTakeFirstOrThrow()
  return { ...row, open_holds: holds.n }
}

export async function insertContract(
  tx: Transaction<DB>,
  tenantId: number,
  values: ContractInsert,
): Promise<ContractRow> {
  const row = await tx
    .insertInto('contract')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { ...row, open_holds: 0 }
}

export async function updateContract(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: Partial<Omit<ContractInsert, 'id'>>,
  now: Date,
  bumpVersion = true,
): Promise<void> {
  await tx
    .updateTable('contract')
    .set({ ...values, updated_at: now, ...(bumpVersion ? { version: sql<number>`version + 1` } : {}) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

/**
 * Writes the terms snapshot of a contract that has none (sold before snapshots), once: a snapshot is
 * never replaced, and writing it is not a change of the contract (no new version, no updated_at).
 */
export async function writeTerms(tx: Transaction<DB>, tenantId: number, id: number, terms: string): Promise<void> {
  await tx
    .updateTable('contract')
    .set({ terms })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('terms', 'is', null)
    .execute()
}

/** Replaces the terms of a PENDING contract (a reprice recomputes its sales tax); a sold contract's terms stay. */
export async function rewritePendingTerms(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  terms: string,
): Promise<void> {
  await tx
    .updateTable('contract')
    .set({ terms })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .execute()
}

/** Makes the tenant's contract-number sequence (at tenant creation; next_contract_number also makes a missing one). */
export async function createContractSequence(tx: Transaction<DB>, tenantId: number): Promise<void> {
  await sql.raw(`create sequence if not exists contract_number_seq_${Math.trunc(tenantId)}`).execute(tx)
}

/** The tenant's next contract sequence number (a PostgreSQL sequence: never waits, may leave gaps on rollback). */
export async function nextContractSequence(tx: Transaction<DB>, tenantId: number): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select next_contract_number(${tenantId}) as n`.execute(tx)
  return Number(rows[0]!.n)
}

/** What makes two submissions the same deal. */
export type DealKey = { dealerId: number; vin: string; planId: number; saleDate: string }

/** A contract of the same dealer, VIN, plan and sale date created since `since` and not voided. */
export async function findRecentDuplicate(tx: Executor, tenantId: number, key: DealKey, since: Date) {
  return tx
    .selectFrom('contract')
    .select(['id', 'contract_number'])
    .where('tenant_id', '=', tenantId)
    .where('dealer_id', '=', key.dealerId)
    .where('vin', '=', key.vin)
    .where('plan_id', '=', key.planId)
    .where('sale_date', '=', key.saleDate)
    .where('created_at', '>=', since)
    .where('status', '!=', 'VOIDED')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
}

/** Serializes submissions of the same deal within a tenant for the rest of the transaction. */
export async function lockDeal(tx: Transaction<DB>, tenantId: number, key: DealKey): Promise<void> {
  await advisoryLock(tx, 'contract_deal', [tenantId, key.dealerId, key.vin, key.planId, key.saleDate])
}

/**
 * Claims unique custom-field values for a contract. Returns the values another contract already
 * holds (then the caller rolls back); a concurrent claim of the same value is settled by the
 * primary key, never by a failed statement.
 */
export async function claimUniqueValues(
  tx: Transaction<DB>,
  tenantId: number,
  contractId: number,
  values: ReadonlyArray<{ key: string; value: string }>,
): Promise<Array<{ key: string; value: string; contractId: number }>> {
  if (values.length === 0) return []
  const claimed = await tx
    .insertInto('contract_unique_value')
    .values(values.map((v) => ({ tenant_id: tenantId, field_key: v.key, value: v.value, contract_id: contractId })))
    .onConflict((oc) => oc.columns(['tenant_id', 'field_key', 'value']).doNothing())
    .returning(['field_key', 'value'])
    .execute()
  const missing = values.filter((v) => !claimed.some((c) => c.field_key === v.key && c.value === v.value))
  if (missing.length === 0) return []
  const holders = await tx
    .selectFrom('contract_unique_value')
    .select(['field_key', 'value', 'contract_id'])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or(missing.map((v) => eb.and([eb('field_key', '=', v.key), eb('value', '=', v.value)]))))
    .execute()
  return holders
    .filter((h) => h.contract_id !== contractId)
    .map((h) => ({ key: h.field_key, value: h.value, contractId: h.contract_id }))
}

/** Releases a contract's claims on values it no longer carries. */
export async function releaseUniqueValues(
  tx: Transaction<DB>,
  tenantId: number,
  contractId: number,
  keep: ReadonlyArray<{ key: string; value: string }>,
): Promise<void> {
  let q = tx.deleteFrom('contract_unique_value').where('tenant_id', '=', tenantId).where('contract_id', '=', contractId)
  if (keep.length > 0)
    q = q.where((eb) =>
      eb.not(eb.or(keep.map((v) => eb.and([eb('field_key', '=', v.key), eb('value', '=', v.value)])))),
    )
  await q.execute()
}

export type ContractFilter = {
  contractNumber?: string | undefined
  vin?: string | undefined
  customerName?: string | undefined
  dealerId?: number | undefined
  dealerIds?: readonly number[] | undefined
  status?: ContractStatus | undefined
  saleDateFrom?: string | undefined
  saleDateTo?: string | undefined
  createdFrom?: string | undefined
  createdTo?: string | undefined
  /** Today in the tenant's time zone: what ACTIVE and FINALIZED mean to readers depends on it. */
  today: string
  /** Default: newest first (`createdAt` descending, which is id order). */
  sort?: { field: ContractSortField; direction: 'asc' | 'desc' } | undefined
}

/** The column each sort field orders by; `createdAt` is the id (ids are given in creation order). */
const SORT_COLUMN = {
  createdAt: 'c.id',
  saleDate: 'c.sale_date',
  contractNumber: 'c.contract_number',
  customerName: 'c.customer_name',
  expirationDate: 'c.expiration_date',
  dealerCost: 'c.dealer_cost',
  retailPrice: 'c.retail_price',
} as const satisfies Record<ContractSortField, string>

/** Contracts matching every filter, in the filter's order (newest first by default; id breaks ties), with the total. */
export async function searchContracts(
  db: Executor,
  tenantId: number,
  f: ContractFilter,
  visible: ReadonlySet<number> | null,
  window: Window,
) {
  let q = db.selectFrom('contract as c').where('c.tenant_id', '=', tenantId)
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  if (f.contractNumber !== undefined)
    q = q.where(sql<string>`upper(c.contract_number)`, '=', f.contractNumber.toUpperCase())
  if (f.vin !== undefined) {
    const vin = f.vin.toUpperCase()
    q = vin.length === 17 ? q.where('c.vin', '=', vin) : q.where('c.vin', 'like', `%${escapeLike(vin)}`)
  }
  if (f.customerName !== undefined) {
    const name = escapeLike(f.customerName.trim().toLowerCase())
    q = q.where((eb) => eb.or([eb('c.customer_name', 'like', `${name}%`), eb('c.customer_name', 'like', `% ${name}%`)]))
  }
  if (f.dealerId !== undefined) q = q.where('c.dealer_id', '=', f.dealerId)
  if (f.dealerIds !== undefined) q = q.where('c.dealer_id', 'in', f.dealerIds.length > 0 ? [...f.dealerIds] : [0])
  // A finalized contract in effect is ACTIVE to readers (currentStatus) even before that is written.
  if (f.status === 'ACTIVE')
    q = q.where((eb) =>
      eb.or([
        eb('c.status', '=', 'ACTIVE'),
        eb.and([eb('c.status', '=', 'FINALIZED'), eb('c.effective_date', '<=', f.today)]),
      ]),
    )
  else if (f.status === 'FINALIZED') q = q.where('c.status', '=', 'FINALIZED').where('c.effective_date', '>', f.today)
  else if (f.status !== undefined) q = q.where('c.status', '=', f.status)
  if (f.saleDateFrom !== undefined) q = q.where('c.sale_date', '>=', f.saleDateFrom)
  if (f.saleDateTo !== undefined) q = q.where('c.sale_date', '<=', f.saleDateTo)
  if (f.createdFrom !== undefined) q = q.where('c.created_at', '>=', new Date(f.createdFrom))
  if (f.createdTo !== undefined) q = q.where('c.created_at', '<', new Date(f.createdTo))
  const [rows, count] = await Promise.all([
    windowed(
      q
        .select([
          'c.id',
          'c.contract_number',
          'c.status',
          'c.dealer_id',
          'c.vin',
          'c.customer_name',
          'c.customer',
          'c.coverage',
          'c.sale_date',
          'c.effective_date',
          'c.expiration_date',
          'c.dealer_cost',
          'c.retail_price',
          'c.created_at',
        ])
        .$call((sel) => {
          const { field, direction } = f.sort ?? { field: 'createdAt', direction: 'desc' }
          const ordered = sel.orderBy(SORT_COLUMN[field], direction)
          return field === 'createdAt' ? ordered : ordered.orderBy('c.id', direction)
        }),
      window,
    ).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: count.n }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

// ---- holds -------------------------------------------------------------------------------------

export async function listHolds(db: Executor, tenantId: number, contractId: number) {
  return db
    .selectFrom('contract_hold')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .orderBy('id')
    .execute()
}

export async function findHold(db: Executor, tenantId: number, contractId: number, holdId: number) {
  return db
    .selectFrom('contract_hold')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('id', '=', holdId)
    .executeTakeFirst()
}

export async function insertHold(
  tx: Transaction<DB>,
  tenantId: number,
  values: { contract_id: number; reason_code: string; note: string | null; created_at: Date; created_by: string },
) {
  return tx
    .insertInto('contract_hold')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function resolveHold(
  tx: Transaction<DB>,
  tenantId: number,
  holdId: number,
  values: { resolved_at: Date; resolved_by: string; resolution_note: string | null },
) {
  return tx
    .updateTable('contract_hold')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', holdId)
    .where('resolved_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

// ---- status history ----------------------------------------------------------------------------

export type StatusHistoryRow = Selectable<ContractStatusHistoryTable>
export type StatusHistoryInsert = Omit<Insertable<ContractStatusHistoryTable>, 'tenant_id' | 'id'>

export async function insertStatusHistory(
  tx: Transaction<DB>,
  tenantId: number,
  values: StatusHistoryInsert,
): Promise<StatusHistoryRow> {
  return tx
    .insertInto('contract_status_history')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * A status change's three rows in one statement (one round trip instead of three): the history row,
 * its audit record and its outbox event, whose payload names the history row (`historyId`, set
 * here); with `writeStatus`, the contract's new status too. The same rows as insertStatusHistory,
 * writeAudit and appendEvent (platform/audit.ts, platform/events/outbox.ts) and updateContract.
 */
export async function insertStatusChange(
  tx: Transaction<DB>,
  tenantId: number,
  history: StatusHistoryInsert & { occurred_at: Date },
  audit: {
    actorUserId: number | null
    actorApiKeyId: number | null
    actorLabel: string
    requestId: string | null
    action: string
    entityId: string
    changes: Record<string, unknown>
  },
  event: { type: string; payload: Record<string, unknown> },
  /** Also sets the contract's status to the history row's `to_status` (updated_at = occurred_at, version + 1), as updateContract does. */
  writeStatus = false,
): Promise<{ historyId: number; outboxEventId: number }> {
  const at = history.occurred_at
  const status = writeStatus
    ? sql`u as (
        update contract set status = ${history.to_status}::text, updated_at = ${at}::timestamptz, version = version + 1
         where tenant_id = ${tenantId} and id = ${history.contract_id}),`
    : sql``
  const { rows } = await sql<{ history_id: string | number; event_id: string | number }>`
    with ${status} h as (
      insert into contract_status_history
        (tenant_id, contract_id, event, from_status, to_status, effective_date, source_type, source_id, occurred_at, actor_label, actor_user_id)
      values (${tenantId}::bigint, ${history.contract_id}::bigint, ${history.event}::text, ${history.from_status}::text,
              ${history.to_status}::text, ${history.effective_date}::date, ${history.source_type}::text,
              ${history.source_id ?? null}::bigint, ${at}::timestamptz, ${history.actor_label}::text,
              ${history.actor_user_id ?? null}::bigint)
      returning id),
    a as (
      insert into audit_log
        (tenant_id, occurred_at, actor_user_id, actor_api_key_id, actor_label, request_id, action, entity_type, entity_id, changes)
      values (${tenantId}::bigint, ${at}::timestamptz, ${audit.actorUserId}::bigint, ${audit.actorApiKeyId}::bigint,
              ${audit.actorLabel}::text, ${audit.requestId}::text, ${audit.action}::text, 'contract', ${audit.entityId}::text,
              ${JSON.stringify(audit.changes)}::jsonb)),
    o as (
      insert into event_outbox (tenant_id, type, payload, created_at)
      select ${tenantId}::bigint, ${event.type}::text,
             jsonb_set(${JSON.stringify(event.payload)}::jsonb, '{historyId}', to_jsonb(h.id)), ${at}::timestamptz
        from h
      returning id)
    select h.id as history_id, o.id as event_id from h, o`.execute(tx)
  const row = rows[0]!
  return { historyId: Number(row.history_id), outboxEventId: Number(row.event_id) }
}

/** A contract's status changes in the order they were recorded; the whole history without a window. */
export async function listStatusHistory(
  db: Executor,
  tenantId: number,
  contractId: number,
  window?: Window,
): Promise<StatusHistoryRow[]> {
  const q = db
    .selectFrom('contract_status_history')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .orderBy('id')
  return (window ? windowed(q, window) : q).execute()
}

export async function countStatusHistory(db: Executor, tenantId: number, contractId: number): Promise<number> {
  const row = await db
    .selectFrom('contract_status_history')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .executeTakeFirstOrThrow()
  return row.n
}

/** The status a contract had before its latest cancellation (null when none is recorded). */
export async function statusBeforeLastCancel(
  db: Executor,
  tenantId: number,
  contractId: number,
): Promise<ContractStatus | null> {
  const row = await db
    .selectFrom('contract_status_history')
    .select('from_status')
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('event', '=', 'CANCEL')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.from_status ?? null
}

/**
 * The latest sale date of the contracts of each account holder that count for its last contract
 * date (not voided), as dealer or as contract holder; null when it has none. Served by the partial
 * indexes of migration 0015.
 */
export async function latestSaleDates(
  db: Executor,
  tenantId: number,
  parties: { dealerId: number; customerId: number },
): Promise<Map<number, string | null>> {
  const latest = (column: 'dealer_id' | 'customer_id', id: number) =>
    db
      .selectFrom('contract')
      .select(sql<string | null>`max(sale_date)`.as('d'))
      .where('tenant_id', '=', tenantId)
      .where(column, '=', id)
      .where('status', '<>', 'VOIDED')
      .executeTakeFirstOrThrow()
  // One after the other: statements of one transaction share its connection.
  const dealer = await latest('dealer_id', parties.dealerId)
  const customer = await latest('customer_id', parties.customerId)
  const out = new Map<number, string | null>([[parties.dealerId, dealer.d]])
  // A dealer that is its own customer (a company car) counts both.
  const previous = out.get(parties.customerId)
  out.set(parties.customerId, laterOf(previous, customer.d))
  return out
}

function laterOf(a: string | null | undefined, b: string | null): string | null {
  if (a === undefined || a === null) return b
  if (b === null) return a
  return a > b ? a : b
}
