// Cancellation persistence (docs/cancellations.md): plain Kysely functions taking the executor and the
// tenant id first. Requests, cancels and cancel payments; the service owns the transactions and locks
// in the order of every cancel (the contract first, then the request or the cancel).
import { sql, type Insertable, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { CancelPaymentTable, CancelRequestTable, CancelTable } from '../../platform/db/schema.cancellations.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'

export type CancelRequestRow = Selectable<CancelRequestTable>
export type CancelRequestInsert = Omit<Insertable<CancelRequestTable>, 'tenant_id'>
export type CancelRequestUpdate = Partial<Omit<Insertable<CancelRequestTable>, 'tenant_id' | 'id'>>
export type CancelRow = Selectable<CancelTable>
export type CancelInsert = Omit<Insertable<CancelTable>, 'tenant_id'>
export type CancelPaymentRow = Selectable<CancelPaymentTable>
export type CancelPaymentInsert = Omit<Insertable<CancelPaymentTable>, 'tenant_id'>

// ---- numbers -----------------------------------------------------------------------------------

/** The tenant's next cancel number sequence (requests and cancels share it); the row lock serializes. */
export async function nextCancelSequence(tx: Transaction<DB>, tenantId: number): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`
      insert into cancel_number_counter (tenant_id, last_value) values (${tenantId}, 1)
      on conflict (tenant_id) do update set last_value = cancel_number_counter.last_value + 1
      returning last_value as n`.execute(tx)
  return Number(rows[0]!.n)
}

// ---- requests ----------------------------------------------------------------------------------

/** The request; undefined for an id no row can have. */
export async function findRequest(db: Executor, tenantId: number, id: number): Promise<CancelRequestRow | undefined> {
  if (!isStorableId(id)) return undefined
  return db
    .selectFrom('cancel_request')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The request of a request number, case-insensitively. */
export async function findRequestByNumber(
  db: Executor,
  tenantId: number,
  requestNumber: string,
): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('cancel_request')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(request_number)`, '=', requestNumber.toLowerCase())
    .executeTakeFirst()
}

/** The request locked for an action; the caller's transaction holds the lock until it ends. */
export async function lockRequest(tx: Transaction<DB>, tenantId: number, id: number): Promise<CancelRequestRow> {
  return tx
    .selectFrom('cancel_request')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow()
}

/** A contract's requests in id order. */
export async function listRequests(
  db: Executor,
  tenantId: number,
  contractId: number,
  window: Window,
): Promise<CancelRequestRow[]> {
  return windowed(
    db
      .selectFrom('cancel_request')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('contract_id', '=', contractId)
      .orderBy('id'),
    window,
  ).execute()
}

export async function countRequests(db: Executor, tenantId: number, contractId: number): Promise<number> {
  const row = await db
    .selectFrom('cancel_request')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertRequest(
  tx: Transaction<DB>,
  tenantId: number,
  values: CancelRequestInsert,
): Promise<Pick<CancelRequestRow, 'id' | 'status'>> {
  return tx
    .insertInto('cancel_request')
    .values({ ...values, tenant_id: tenantId })
    .returning(['id', 'status'])
    .executeTakeFirstOrThrow()
}

export async function updateRequest(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: CancelRequestUpdate,
): Promise<void> {
  await tx.updateTable('cancel_request').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

// ---- cancels -----------------------------------------------------------------------------------

/** The cancel; undefined for an id no row can have. */
export async function findCancel(db: Executor, tenantId: number, id: number): Promise<CancelRow | undefined> {
  if (!isStorableId(id)) return undefined
  return db.selectFrom('cancel').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()
}

/** The latest cancel processed from the request; null when none. */
export async function cancelIdOfRequest(db: Executor, tenantId: number, requestId: number): Promise<number | null> {
  const row = await db
    .selectFrom('cancel')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('request_id', '=', requestId)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  return row?.id ?? null
}

/** The cancel locked for its reversal; the caller's transaction holds the lock until it ends. */
export async function lockCancel(tx: Transaction<DB>, tenantId: number, id: number): Promise<CancelRow> {
  return tx
    .selectFrom('cancel')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow()
}

/** The ids of a contract's cancels in id order. */
export async function listCancelIds(
  db: Executor,
  tenantId: number,
  contractId: number,
  window: Window,
): Promise<number[]> {
  const rows = await windowed(
    db
      .selectFrom('cancel')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('contract_id', '=', contractId)
      .orderBy('id'),
    window,
  ).execute()
  return rows.map((r) => r.id)
}

export async function countCancels(db: Executor, tenantId: number, contractId: number): Promise<number> {
  const row = await db
    .selectFrom('cancel')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Inserts the cancel; a second processed cancel of the contract fails on the partial unique index (23505). */
export async function insertCancel(tx: Transaction<DB>, tenantId: number, values: CancelInsert): Promise<number> {
  const row = await tx
    .insertInto('cancel')
    .values({ ...values, tenant_id: tenantId })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

/** Records the cancel's CONTRACT_CANCELLED entry. */
export async function setCancelEntry(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  entryId: number,
): Promise<void> {
  await tx
    .updateTable('cancel')
    .set({ journal_entry_id: entryId })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

export async function markCancelReversed(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  // The reason is always given (the service refuses a reversal without one); typed as the caller holds it.
  values: { reversed_at: Date; reversed_by: string; reversal_reason: string | undefined; reversal_entry_id: number },
): Promise<void> {
  await tx.updateTable('cancel').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

/** The contract number of a contract (a cancel's reply names it). */
export async function contractNumberOf(db: Executor, tenantId: number, contractId: number): Promise<string> {
  const row = await db
    .selectFrom('contract')
    .select('contract_number')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', contractId)
    .executeTakeFirstOrThrow()
  return row.contract_number
}

// ---- payments ----------------------------------------------------------------------------------

export async function insertPayments(
  tx: Transaction<DB>,
  tenantId: number,
  values: readonly CancelPaymentInsert[],
): Promise<void> {
  if (values.length === 0) return
  await tx
    .insertInto('cancel_payment')
    .values(values.map((v) => ({ ...v, tenant_id: tenantId })))
    .execute()
}

/** A cancel's payments in id order. */
export async function paymentsOfCancel(db: Executor, tenantId: number, cancelId: number): Promise<CancelPaymentRow[]> {
  return db
    .selectFrom('cancel_payment')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('cancel_id', '=', cancelId)
    .orderBy('id')
    .execute()
}

/** Every cancel payment of a contract in id order. */
export async function paymentsOfContract(
  db: Executor,
  tenantId: number,
  contractId: number,
): Promise<CancelPaymentRow[]> {
  return db
    .selectFrom('cancel_payment')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .orderBy('id')
    .execute()
}

/** Voids every payment of a reversed cancel. */
export async function voidPayments(tx: Transaction<DB>, tenantId: number, cancelId: number, now: Date): Promise<void> {
  await tx
    .updateTable('cancel_payment')
    .set({ status: 'VOID', updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('cancel_id', '=', cancelId)
    .execute()
}
