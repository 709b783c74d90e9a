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
