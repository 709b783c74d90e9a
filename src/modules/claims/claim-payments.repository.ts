// A claim's payment requests and payments (docs/claims.md "Payment requests and payments"): plain
// Kysely functions, the executor and the tenant first; every statement names tenant_id.
import { CompiledQuery, type Insertable, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { isStorableId } from '../../platform/ids.ts'

export type PaymentRequestRow = Selectable<DB['claim_payment_request']>
export type PaymentRow = Selectable<DB['claim_payment']>

export async function insertPaymentRequest(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<DB['claim_payment_request']>, 'tenant_id' | 'id'>,
): Promise<PaymentRequestRow> {
  return tx
    .insertInto('claim_payment_request')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The claim's payment request `id`, its row locked until `tx` ends; undefined for another claim's or none. */
export async function lockPaymentRequest(
  tx: Transaction<DB>,
  tenantId: number,
  claimId: number,
  id: number,
): Promise<PaymentRequestRow | undefined> {
  if (!isStorableId(id)) return undefined
  return tx
    .selectFrom('claim_payment_request')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('claim_id', '=', claimId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** The claim's open request (REQUESTED or PARTIALLY_PAID: at most one, a unique index says so). */
export async function openPaymentRequest(
  tx: Transaction<DB>,
  tenantId: number,
  claimId: number,
): Promise<PaymentRequestRow | undefined> {
  return tx
    .selectFrom('claim_payment_request')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('claim_id', '=', claimId)
    .where('status', 'in', ['REQUESTED', 'PARTIALLY_PAID'])
    .forUpdate()
    .executeTakeFirst()
}

export async function updatePaymentRequest(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: Partial<Pick<PaymentRequestRow, 'status' | 'paid_total' | 'release_entry_id' | 'updated_at'>>,
): Promise<PaymentRequestRow> {
  return tx
    .updateTable('claim_payment_request')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function insertPayment(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<DB['claim_payment']>, 'tenant_id' | 'id'>,
): Promise<PaymentRow> {
  return tx
    .insertInto('claim_payment')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The claim's payment requests in the order made, and their payments in the order recorded. */
export async function paymentRequestsOf(
  db: Executor,
  tenantId: number,
  claimId: number,
): Promise<{ requests: PaymentRequestRow[]; payments: PaymentRow[] }> {
  const [requests, payments] = await Promise.all([
    db
      .selectFrom('claim_payment_request')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('claim_id', '=', claimId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('claim_payment')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('claim_id', '=', claimId)
      .orderBy('id')
      .execute(),
  ])
  return { requests, payments }
}

/** An open request a payout run may pay (docs/payouts.md "Claim payables"). */
export type DueRequestRow = Pick<
  PaymentRequestRow,
  'id' | 'claim_id' | 'contract_id' | 'payee_account_holder_id' | 'amount' | 'paid_total'
>

/**
 * The open requests (REQUESTED, PARTIALLY_PAID) of claims waiting for money (PENDING_PAYMENT,
 * PARTIALLY_PAID), requested (their CLAIM_APPROVED entry dated) on or before `asOf`, of claims with
 * no open hold and not locked for editing by another user than `userId` at `now`; oldest first.
 */
export async function dueRequests(
  db: Executor,
  tenantId: number,
  q: {
    asOf: string
    payeeIds?: readonly number[] | undefined
    claimIds?: readonly number[] | undefined
    userId: number
    now: Date
  },
): Promise<DueRequestRow[]> {
  if (q.payeeIds?.length === 0 || q.claimIds?.length === 0) return []
  let s = db
    .selectFrom('claim_payment_request as r')
    .innerJoin('claim as c', (j) => j.onRef('c.tenant_id', '=', 'r.tenant_id').onRef('c.id', '=', 'r.claim_id'))
    .innerJoin('journal_entry as e', (j) =>
      j.onRef('e.tenant_id', '=', 'r.tenant_id').onRef('e.id', '=', 'r.journal_entry_id'),
    )
    .select(['r.id', 'r.claim_id', 'r.contract_id', 'r.payee_account_holder_id', 'r.amount', 'r.paid_total'])
    .where('r.tenant_id', '=', tenantId)
    .where('c.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('r.status', 'in', ['REQUESTED', 'PARTIALLY_PAID'])
    .where('c.status', 'in', ['PENDING_PAYMENT', 'PARTIALLY_PAID'])
    .where('e.effective_date', '<=', q.asOf)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('claim_hold as h')
            .select('h.id')
            .where('h.tenant_id', '=', tenantId)
            .whereRef('h.claim_id', '=', 'c.id')
            .where('h.released_at', 'is', null),
        ),
      ),
    )
    .where((eb) =>
      eb.or([
        eb('c.lock_user_id', 'is', null),
        eb('c.lock_expires_at', 'is', null),
        eb('c.lock_expires_at', '<=', q.now),
        eb('c.lock_user_id', '=', q.userId),
      ]),
    )
  if (q.payeeIds !== undefined) s = s.where('r.payee_account_holder_id', 'in', [...q.payeeIds])
  if (q.claimIds !== undefined) s = s.where('r.claim_id', 'in', [...q.claimIds])
  return s.orderBy('r.id').execute()
}

/** The claim of payment request `id` (any status); undefined when there is none. */
export async function claimOfRequest(db: Executor, tenantId: number, id: number): Promise<number | undefined> {
  if (!isStorableId(id)) return undefined
  const row = await db
    .selectFrom('claim_payment_request')
    .select('claim_id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row === undefined ? undefined : Number(row.claim_id)
}

/** The request's columns, in the order of REQUEST_SQL's parameters after the tenant and the claim. */
const REQUEST_COLUMNS = [
  'contract_id',
  'status',
  'invoice_number',
  'invoice_date',
  'invoiced_total',
  'amount',
  'payee_type',
  'payee_account_holder_id',
  'risk_bearer_id',
  'journal_entry_id',
  'created_at',
  'created_by',
  'updated_at',
] as const satisfies ReadonlyArray<keyof Insertable<DB['claim_payment_request']>>

export type RequestValues = Pick<Insertable<DB['claim_payment_request']>, (typeof REQUEST_COLUMNS)[number]>

const R = 3 + REQUEST_COLUMNS.length
// $1 tenant, $2 claim, the request's columns, then the claim's (status, payee type and account
// holder, updated by), then the audit row's (its `after` gets the request's id).
const REQUEST_SQL = `with r as (
    insert into claim_payment_request (tenant_id, claim_id, ${REQUEST_COLUMNS.join(', ')})
    values ($1, $2, ${REQUEST_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')})
    returning *),
  u as (
    update claim set status = $${R}, payee_type = $${R + 1}, payee_account_holder_id = $${R + 2},
                     updated_at = $${3 + REQUEST_COLUMNS.indexOf('updated_at')}, updated_by = $${R + 3},
                     version = version + 1
     where tenant_id = $1 and id = $2),
  a as (
    insert into audit_log (tenant_id, occurred_at, actor_user_id, actor_api_key_id, actor_label, request_id, action,
                           entity_type, entity_id, changes)
    select $1::bigint, $${3 + REQUEST_COLUMNS.indexOf('created_at')}::timestamptz, $${R + 4}::bigint, $${R + 5}::bigint,
           $${R + 6}::text, $${R + 7}::text, 'claim.payment_requested', 'claim', $2::text,
           jsonb_set($${R + 8}::jsonb, '{after,paymentRequestId}', to_jsonb(r.id)) from r)
  select * from r`

/**
 * A payment request's write in one statement (one round trip instead of three): the request, the
 * claim's new status and payee (its next version), and the `claim.payment_requested` audit row
 * (`audit.changes` without the request's id, which the statement adds). The request's row.
 */
export async function insertRequestedPayment(
  tx: Transaction<DB>,
  tenantId: number,
  claimId: number,
  values: RequestValues,
  claim: { status: string; payee_type: string; payee_account_holder_id: number; updated_by: string },
  audit: {
    actor_user_id: number | null
    actor_api_key_id: number | null
    actor_label: string
    request_id: string | null
    changes: string
  },
): Promise<PaymentRequestRow> {
  const { rows } = await tx.executeQuery<PaymentRequestRow>(
    CompiledQuery.raw(REQUEST_SQL, [
      tenantId,
      claimId,
      ...REQUEST_COLUMNS.map((c) => values[c]),
      claim.status,
      claim.payee_type,
      claim.payee_account_holder_id,
      claim.updated_by,
      audit.actor_user_id,
      audit.actor_api_key_id,
      audit.actor_label,
      audit.request_id,
      audit.changes,
    ]),
  )
  return rows[0]!
}
