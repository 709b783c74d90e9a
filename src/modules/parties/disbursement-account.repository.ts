// Disbursement accounts. Executor first, tenant always. An account is visible exactly when its
// account holder is (account-holder visibleTo), so a dealer-side user neither lists nor fetches
// the accounts of account holders its groups do not grant.
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB, DisbursementAccountTable } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { visibleTo, type Visibility } from './account-holder.repository.ts'

export type DisbursementAccountRow = Selectable<DisbursementAccountTable>

export type DisbursementAccountWrite = {
  name: string
  payment_method: DisbursementAccountTable['payment_method']
  bank_name: string | null
  routing_number: string | null
  account_number: string | null
  account_type: DisbursementAccountTable['account_type']
  is_default: boolean
  status: DisbursementAccountTable['status']
}

export type DisbursementAccountFilter = {
  accountHolderId?: number
  paymentMethod?: DisbursementAccountTable['payment_method']
  status?: DisbursementAccountTable['status']
  isDefault?: boolean
}

type Eb = ExpressionBuilder<DB & { da: DisbursementAccountTable }, 'da'>

/** Accounts whose account holder the caller may see; no restriction for staff. */
function visibleAccount(db: Executor, eb: Eb, tenantId: number, visibility: Visibility): Expression<SqlBool> {
  if (visibility === null) return eb.val(true)
  return eb(
    'da.account_holder_id',
    'in',
    db
      .selectFrom('account_holder as ah')
      .select('ah.id')
      .where('ah.tenant_id', '=', tenantId)
      .where((ah) => visibleTo(ah, tenantId, visibility)),
  )
}

export async function findDisbursementAccount(
  db: Executor,
  tenantId: number,
  id: number,
  visibility: Visibility,
): Promise<DisbursementAccountRow | undefined> {
  return db
    .selectFrom('disbursement_account as da')
    .selectAll('da')
    .where('da.tenant_id', '=', tenantId)
    .where('da.id', '=', id)
    .where((eb) => visibleAccount(db, eb, tenantId, visibility))
    .executeTakeFirst()
}

export async function lockDisbursementAccount(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
): Promise<DisbursementAccountRow | undefined> {
  return tx
    .selectFrom('disbursement_account')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/**
 * Locks the account holder of accounts being written, after checking it exists and is visible.
 * Every write to a holder's accounts takes this lock first, so default switching is serialised per
 * holder (the partial unique index would otherwise fail the slower of two concurrent switches) and
 * account rows are always locked after it, never before (no deadlock between two switches).
 * NO KEY UPDATE: it does not block the foreign-key checks of inserts.
 */
export async function lockVisibleAccountHolder(
  tx: Transaction<DB>,
  tenantId: number,
  accountHolderId: number,
  visibility: Visibility,
): Promise<boolean> {
  const row = await tx
    .selectFrom('account_holder as ah')
    .select('ah.id')
    .where('ah.tenant_id', '=', tenantId)
    .where('ah.id', '=', accountHolderId)
    .where((eb) => visibleTo(eb, tenantId, visibility))
    .forNoKeyUpdate()
    .executeTakeFirst()
  return row !== undefined
}

export async function listDisbursementAccounts(
  db: Executor,
  tenantId: number,
  filter: DisbursementAccountFilter,
  visibility: Visibility,
  window: Window,
) {
  const where = (eb: Eb) => {
    const c: Array<Expression<SqlBool>> = [visibleAccount(db, eb, tenantId, visibility)]
    if (filter.accountHolderId !== undefined) c.push(eb('da.account_holder_id', '=', filter.accountHolderId))
    if (filter.paymentMethod) c.push(eb('da.payment_method', '=', filter.paymentMethod))
    if (filter.status) c.push(eb('da.status', '=', filter.status))
    if (filter.isDefault !== undefined) c.push(eb('da.is_default', '=', filter.isDefault))
    return eb.and(c)
  }
  const rows = await windowed(
    db
      .selectFrom('disbursement_account as da')
      .selectAll('da')
      .where('da.tenant_id', '=', tenantId)
      .where(where)
      .orderBy('da.id'),
    window,
  ).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await db
    .selectFrom('disbursement_account as da')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('da.tenant_id', '=', tenantId)
    .where(where)
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

/** Unsets the holder's current default (other than `exceptId`), before another account becomes it. */
export async function clearDefault(
  tx: Transaction<DB>,
  tenantId: number,
  accountHolderId: number,
  exceptId: number | null,
  now: Date,
): Promise<number[]> {
  let q = tx
    .updateTable('disbursement_account')
    .set({ is_default: false, updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('account_holder_id', '=', accountHolderId)
    .where('is_default', '=', true)
  if (exceptId !== null) q = q.where('id', '<>', exceptId)
  const rows = await q.returning('id').execute()
  return rows.map((r) => r.id)
}

export async function insertDisbursementAccount(
  tx: Transaction<DB>,
  tenantId: number,
  accountHolderId: number,
  values: DisbursementAccountWrite,
  now: Date,
): Promise<DisbursementAccountRow> {
  return tx
    .insertInto('disbursement_account')
    .values({ ...values, tenant_id: tenantId, account_holder_id: accountHolderId, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updateDisbursementAccount(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: DisbursementAccountWrite,
  now: Date,
): Promise<DisbursementAccountRow> {
  return tx
    .updateTable('disbursement_account')
    .set({ ...values, updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}
