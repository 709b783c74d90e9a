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

export type RequestSearch = {
  statuses?: readonly CancelRequestTable['status'][] | undefined
  notStatuses?: readonly CancelRequestTable['status'][] | undefined
  dealerId?: number | undefined
  /** Dealer-side users: the dealers they may see; null for staff. */
  visibleDealerIds: ReadonlySet<number> | null
  cancelDateFrom?: string | undefined
  cancelDateTo?: string | undefined
}

function requestSearchQuery(db: Executor, tenantId: number, f: RequestSearch) {
  let q = db
    .selectFrom('cancel_request as r')
    .innerJoin('contract as c', (j) => j.onRef('c.tenant_id', '=', 'r.tenant_id').onRef('c.id', '=', 'r.contract_id'))
    .where('r.tenant_id', '=', tenantId)
    .where('c.tenant_id', '=', tenantId)
  if (f.statuses) q = q.where('r.status', 'in', [...f.statuses])
  if (f.notStatuses) q = q.where('r.status', 'not in', [...f.notStatuses])
  if (f.dealerId !== undefined) q = q.where('c.dealer_id', '=', f.dealerId)
  if (f.visibleDealerIds) q = q.where('c.dealer_id', 'in', f.visibleDealerIds.size > 0 ? [...f.visibleDealerIds] : [0])
  if (f.cancelDateFrom !== undefined) q = q.where('r.cancel_date', '>=', f.cancelDateFrom)
  if (f.cancelDateTo !== undefined) q = q.where('r.cancel_date', '<=', f.cancelDateTo)
  return q
}

/**
 * The tenant's requests across contracts, newest first, each with its contract's number and the
 * latest cancel processed from it (one statement), and the total matching.
 */
export async function searchRequests(db: Executor, tenantId: number, f: RequestSearch, window: Window) {
  const [rows, count] = await Promise.all([
    windowed(
      requestSearchQuery(db, tenantId, f)
        .selectAll('r')
        .select((eb) => [
          'c.contract_number',
          eb
            .selectFrom('cancel as x')
            .select('x.id')
            .where('x.tenant_id', '=', tenantId)
            .whereRef('x.request_id', '=', 'r.id')
            .orderBy('x.id', 'desc')
            .limit(1)
            .as('cancel_id'),
        ])
        .orderBy('r.id', 'desc'),
      window,
    ).execute(),
    requestSearchQuery(db, tenantId, f)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: Number(count.n) }
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

/**
 * The number of a cancel inserted before its number is taken (finishCancel sets it in the same
 * transaction, so no other transaction ever sees it): not a number any format makes (a format's
 * literal characters are letters, digits, -, _, / and .).
 */
export const UNNUMBERED = '~'

/** Inserts the cancel; a second processed cancel of the contract fails on the partial unique index (23505). */
export async function insertCancel(tx: Transaction<DB>, tenantId: number, values: CancelInsert): Promise<CancelRow> {
  return tx
    .insertInto('cancel')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A payment as finishCancel wrote it, in id order (the columns a reply shows, as the read gives them). */
export type FinishedPayment = Pick<
  CancelPaymentRow,
  'id' | 'cancel_id' | 'contract_id' | 'payee_type' | 'account_holder_id' | 'kind' | 'amount' | 'status' | 'due_date'
>

/** A number to take from the tenant's counter: prefix, the sequence zero-padded to width (longer in full), suffix. */
export type NumberParts = { prefix: string; width: number; suffix: string }

/**
 * The last statement of a processed cancel: its number (`given`, a request's; or the tenant's next,
 * from cancel_number_counter, whose row lock the transaction then holds only until its commit), its
 * CONTRACT_CANCELLED entry, its audit record and its outbox event, both of which name the number
 * (`after.cancelNumber`, `cancelNumber`: null in what is passed, set here). The rows are those
 * writeAudit and appendEvent write (platform/audit.ts, platform/events/outbox.ts), written here so
 * that the number costs no statement of its own. Replies the number.
 */
export async function finishCancel(
  tx: Transaction<DB>,
  tenantId: number,
  input: {
    cancelId: number
    journalEntryId: number
    number: { given: string } | NumberParts
    audit: {
      occurredAt: Date
      actorUserId: number | null
      actorApiKeyId: number | null
      actorLabel: string
      requestId: string
      action: string
      entityType: string
      entityId: string
      changes: { after: Record<string, unknown> }
    }
    event: { type: string; createdAt: Date; payload: Record<string, unknown> }
    payments: readonly CancelPaymentInsert[]
  },
): Promise<{ number: string; payments: FinishedPayment[] }> {
  const { audit, event } = input
  const p = input.payments.map((v) => ({ ...v, tenant_id: tenantId }))
  const column = <K extends keyof (typeof p)[number]>(k: K) => p.map((v) => v[k] ?? null)
  // A data-modifying statement runs only at the top of a WITH: the counter's update is its own CTE.
  const taken =
    'given' in input.number
      ? sql`num as (select ${input.number.given}::text as v),`
      : sql`counter as (
          insert into cancel_number_counter (tenant_id, last_value) values (${tenantId}, 1)
          on conflict (tenant_id) do update set last_value = cancel_number_counter.last_value + 1
          returning last_value),
        num as (
          select ${input.number.prefix}::text || lpad(last_value::text, greatest(${input.number.width}::int, length(last_value::text)), '0') || ${input.number.suffix}::text as v
            from counter),`
  const { rows } = await sql<{ cancel_number: string; payments: FinishedPayment[] | null }>`
    with ${taken}
    done as (
      update cancel set cancel_number = num.v, journal_entry_id = ${input.journalEntryId}
        from num where cancel.tenant_id = ${tenantId} and cancel.id = ${input.cancelId}
        returning cancel.cancel_number),
    audited as (
      insert into audit_log
        (tenant_id, occurred_at, actor_user_id, actor_api_key_id, actor_label, request_id, action, entity_type, entity_id, changes)
      select ${tenantId}::bigint, ${audit.occurredAt}::timestamptz, ${audit.actorUserId}::bigint, ${audit.actorApiKeyId}::bigint,
             ${audit.actorLabel}::text, ${audit.requestId}::text, ${audit.action}::text, ${audit.entityType}::text,
             ${audit.entityId}::text, jsonb_set(${JSON.stringify(audit.changes)}::jsonb, '{after,cancelNumber}', to_jsonb(done.cancel_number))
        from done),
    announced as (
      insert into event_outbox (tenant_id, type, payload, created_at)
      select ${tenantId}::bigint, ${event.type}::text, jsonb_set(${JSON.stringify(event.payload)}::jsonb, '{cancelNumber}', to_jsonb(done.cancel_number)),
             ${event.createdAt}::timestamptz
        from done),
    paid as (
      insert into cancel_payment
        (tenant_id, cancel_id, contract_id, payee_type, account_holder_id, kind, amount, status, due_date, created_at, updated_at)
      select * from unnest(${column('tenant_id')}::bigint[], ${column('cancel_id')}::bigint[], ${column('contract_id')}::bigint[],
                           ${column('payee_type')}::text[], ${column('account_holder_id')}::bigint[], ${column('kind')}::text[],
                           ${column('amount')}::numeric[], ${column('status')}::text[], ${column('due_date')}::date[],
                           ${column('created_at')}::timestamptz[], ${column('updated_at')}::timestamptz[])
      returning id, cancel_id, contract_id, payee_type, account_holder_id, kind, amount::text as amount, status,
                due_date::text as due_date)
    select done.cancel_number, (select jsonb_agg(to_jsonb(paid) order by paid.id) from paid) as payments from done`.execute(
    tx,
  )
  const found = rows[0]
  if (found === undefined) throw new Error(`cancel ${input.cancelId} not found to finish`)
  return { number: found.cancel_number, payments: found.payments ?? [] }
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

/**
 * Marks PAID the PENDING refunds of these payees on these contracts: a payout run paid their
 * REFUND_PAYABLE (finance, docs/payouts.md). VOID and PAID rows are left as they are.
 */
export async function markRefundsPaid(
  tx: Transaction<DB>,
  tenantId: number,
  paid: readonly { payeeId: number; contractId: number }[],
  now: Date,
): Promise<void> {
  if (paid.length === 0) return
  await tx
    .updateTable('cancel_payment')
    .set({ status: 'PAID', updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'REFUND')
    .where('status', '=', 'PENDING')
    .where((eb) =>
      eb.or(paid.map((p) => eb.and([eb('account_holder_id', '=', p.payeeId), eb('contract_id', '=', p.contractId)]))),
    )
    .execute()
}
