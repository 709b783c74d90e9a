// Payment-method records and the disbursement accounts they name: plain Kysely functions, the executor
// and the tenant first; every statement names tenant_id. Disbursement accounts are read for their id,
// holder, method, status and default flag only: their bank details are never selected here.
import type { Insertable, Selectable, Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import type { DisbursementAccountRef } from './payment-method.rules.ts'

export type PaymentMethodRow = Selectable<DB['available_payment_method']>

export type PaymentMethodFilter = {
  accountHolderId?: number | undefined
  direction?: string | undefined
  paymentMethod?: string | undefined
  /** Dealer-side callers: these holders' records and the tenant's; null for staff. */
  visible: ReadonlySet<number> | null
}

export async function listPaymentMethods(db: Executor, tenantId: number, f: PaymentMethodFilter, window: Window) {
  let q = db.selectFrom('available_payment_method').where('tenant_id', '=', tenantId)
  if (f.accountHolderId !== undefined) q = q.where('account_holder_id', '=', f.accountHolderId)
  if (f.direction !== undefined) q = q.where('direction', '=', f.direction as 'PAY')
  if (f.paymentMethod !== undefined) q = q.where('payment_method', '=', f.paymentMethod as 'CHECK')
  if (f.visible !== null) {
    const ids = [...f.visible]
    q = q.where((eb) =>
      ids.length > 0
        ? eb.or([eb('account_holder_id', 'is', null), eb('account_holder_id', 'in', ids)])
        : eb('account_holder_id', 'is', null),
    )
  }
  const [rows, count] = await Promise.all([
    windowed(q.selectAll().orderBy('id'), window).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: Number(count.n) }
}

export async function findPaymentMethod(db: Executor, tenantId: number, id: number) {
  if (!isStorableId(id)) return undefined
  return db
    .selectFrom('available_payment_method')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The tenant's records and the holder's (for resolution). */
export async function recordsFor(db: Executor, tenantId: number, accountHolderId: number) {
  return db
    .selectFrom('available_payment_method')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('account_holder_id', 'is', null), eb('account_holder_id', '=', accountHolderId)]))
    .orderBy('id')
    .execute()
}

export async function holderExists(db: Executor, tenantId: number, id: number): Promise<boolean> {
  if (!isStorableId(id)) return false
  const row = await db
    .selectFrom('account_holder')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row !== undefined
}

export async function accountsOf(
  db: Executor,
  tenantId: number,
  accountHolderId: number,
): Promise<DisbursementAccountRef[]> {
  const rows = await db
    .selectFrom('disbursement_account')
    .select(['id', 'account_holder_id', 'payment_method', 'status', 'is_default'])
    .where('tenant_id', '=', tenantId)
    .where('account_holder_id', '=', accountHolderId)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({
    id: String(r.id),
    accountHolderId: String(r.account_holder_id),
    paymentMethod: r.payment_method,
    status: r.status,
    isDefault: r.is_default,
  }))
}

/** Clears the current default of (holder or tenant, direction) before a new default goes in. */
export async function clearDefault(
  tx: Transaction<DB>,
  tenantId: number,
  accountHolderId: number | null,
  direction: 'PAY' | 'RECEIVE',
) {
  let q = tx
    .updateTable('available_payment_method')
    .set({ is_default: false })
    .where('tenant_id', '=', tenantId)
    .where('direction', '=', direction)
    .where('is_default', '=', true)
  q =
    accountHolderId === null
      ? q.where('account_holder_id', 'is', null)
      : q.where('account_holder_id', '=', accountHolderId)
  await q.execute()
}

export async function insertPaymentMethod(
  tx: Transaction<DB>,
  row: Insertable<DB['available_payment_method']>,
): Promise<PaymentMethodRow> {
  return tx.insertInto('available_payment_method').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function deletePaymentMethod(tx: Transaction<DB>, tenantId: number, id: number) {
  await tx.deleteFrom('available_payment_method').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}
