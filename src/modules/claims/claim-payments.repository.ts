// A claim's payment requests and payments (docs/claims.md "Payment requests and payments"): plain
// Kysely functions, the executor and the tenant first; every statement names tenant_id.
import type { Insertable, Selectable, Transaction } from 'kysely'
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
