// Cash transactions, in-process cash and applications: plain Kysely functions, the executor and the
// tenant first; every statement names tenant_id.
import { sql, type Insertable, type Selectable, type Transaction, type Updateable } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { toCents, Decimal } from '../../platform/money.ts'
import type { ReceivableByContract } from './cash.rules.ts'

export type CashRow = Selectable<DB['cash_transaction']>
export type InProcessRow = Selectable<DB['in_process_cash_transaction']>
export type ApplicationRow = Selectable<DB['cash_application']> & { contract_number: string | null }

export type CashFilter = {
  payerId?: number | undefined
  /** Dealer-side callers: only these payers; null for staff. */
  visible: ReadonlySet<number> | null
  status?: string | undefined
  receivedFrom?: string | undefined
  receivedTo?: string | undefined
}

/** The payer, locked until `tx` ends: cash of one payer is applied one transaction at a time. */
export async function lockPayer(tx: Transaction<DB>, tenantId: number, payerId: number): Promise<boolean> {
  if (!isStorableId(payerId)) return false
  const row = await tx
    .selectFrom('account_holder')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', payerId)
    .forUpdate()
    .executeTakeFirst()
  return row !== undefined
}

export async function payerExists(db: Executor, tenantId: number, payerId: number): Promise<boolean> {
  if (!isStorableId(payerId)) return false
  const row = await db
    .selectFrom('account_holder')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', payerId)
    .executeTakeFirst()
  return row !== undefined
}

/** The payer's DEALER_RECEIVABLE balance per contract: the sums of its journal lines, from the ledger items. */
export async function receivableByContract(
  db: Executor,
  tenantId: number,
  payerId: number,
): Promise<ReceivableByContract[]> {
  // The ledger items (migration 0035) are the sums of the journal lines per account and contract, kept
  // by the database in the statement that inserts the lines: one row per contract instead of its lines.
  const rows = await db
    .selectFrom('ledger_item as i')
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'i.tenant_id').onRef('a.id', '=', 'i.account_id'),
    )
    .select([
      'i.contract_id',
      sql<string>`i.debit - i.credit`.as('balance'),
      sql<string>`i.first_date::text`.as('first_date'),
    ])
    .where('i.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
    .where('a.account_holder_id', '=', payerId)
    .where('a.purpose', '=', 'DEALER_RECEIVABLE')
    .where('i.contract_id', '<>', 0)
    .execute()
  return rows.map((r) => ({
    contractId: Number(r.contract_id),
    balanceCents: toCents(new Decimal(r.balance)),
    firstDate: String(r.first_date).slice(0, 10),
  }))
}

export async function insertCash(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<DB['cash_transaction']>, 'tenant_id' | 'id'>,
): Promise<CashRow> {
  return tx
    .insertInto('cash_transaction')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updateCash(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: Updateable<DB['cash_transaction']>,
): Promise<CashRow> {
  return tx
    .updateTable('cash_transaction')
    .set({ ...values, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findCash(db: Executor, tenantId: number, id: number, lock = false): Promise<CashRow | undefined> {
  if (!isStorableId(id)) return undefined
  let q = db.selectFrom('cash_transaction').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id)
  if (lock) q = q.forUpdate()
  return q.executeTakeFirst()
}

function filtered<Q extends { where: (...args: any[]) => Q }>(q: Q, f: CashFilter, dateColumn = 'received_date'): Q {
  if (f.payerId !== undefined) q = q.where('payer_id', '=', f.payerId)
  if (f.visible) q = q.where('payer_id', 'in', f.visible.size > 0 ? [...f.visible] : [-1])
  if (f.status !== undefined) q = q.where('status', '=', f.status)
  if (f.receivedFrom !== undefined) q = q.where(dateColumn, '>=', f.receivedFrom)
  if (f.receivedTo !== undefined) q = q.where(dateColumn, '<=', f.receivedTo)
  return q
}

export async function listCash(
  db: Executor,
  tenantId: number,
  f: CashFilter,
  window: Window,
): Promise<{ rows: CashRow[]; totalCount: number }> {
  const base = filtered(db.selectFrom('cash_transaction').where('tenant_id', '=', tenantId) as any, f) as ReturnType<
    typeof db.selectFrom<'cash_transaction'>
  >
  const [rows, count] = await Promise.all([
    windowed(base.selectAll().orderBy('id'), window).execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: Number(count.n) }
}

export async function applicationsOf(
  db: Executor,
  tenantId: number,
  cashIds: readonly number[],
): Promise<ApplicationRow[]> {
  if (cashIds.length === 0) return []
  return db
    .selectFrom('cash_application as a')
    .leftJoin('contract as c', (j) => j.onRef('c.tenant_id', '=', 'a.tenant_id').onRef('c.id', '=', 'a.contract_id'))
    .selectAll('a')
    .select('c.contract_number')
    .where('a.tenant_id', '=', tenantId)
    .where('a.cash_transaction_id', 'in', [...cashIds])
    .orderBy('a.id')
    .execute()
}

/** All applications in one multi-row insert. */
export async function insertApplications(
  tx: Transaction<DB>,
  tenantId: number,
  rows: ReadonlyArray<Omit<Insertable<DB['cash_application']>, 'tenant_id' | 'id'>>,
): Promise<void> {
  if (rows.length === 0) return
  await tx
    .insertInto('cash_application')
    .values(rows.map((r) => ({ ...r, tenant_id: tenantId })))
    .execute()
}

export async function reverseApplications(
  tx: Transaction<DB>,
  tenantId: number,
  cashId: number,
  at: Date,
): Promise<void> {
  await tx
    .updateTable('cash_application')
    .set({ reversed_at: at })
    .where('tenant_id', '=', tenantId)
    .where('cash_transaction_id', '=', cashId)
    .where('reversed_at', 'is', null)
    .execute()
}

export async function insertInProcess(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<DB['in_process_cash_transaction']>, 'tenant_id' | 'id'>,
): Promise<InProcessRow> {
  return tx
    .insertInto('in_process_cash_transaction')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findInProcess(
  db: Executor,
  tenantId: number,
  id: number,
  lock = false,
): Promise<InProcessRow | undefined> {
  if (!isStorableId(id)) return undefined
  let q = db
    .selectFrom('in_process_cash_transaction')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
  if (lock) q = q.forUpdate()
  return q.executeTakeFirst()
}

export async function listInProcess(
  db: Executor,
  tenantId: number,
  f: CashFilter,
  window: Window,
): Promise<{ rows: InProcessRow[]; totalCount: number }> {
  const base = filtered(
    db.selectFrom('in_process_cash_transaction').where('tenant_id', '=', tenantId) as any,
    f,
  ) as ReturnType<typeof db.selectFrom<'in_process_cash_transaction'>>
  const [rows, count] = await Promise.all([
    windowed(base.selectAll().orderBy('id'), window).execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: Number(count.n) }
}

export async function markProcessed(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  cashId: number,
  at: Date,
): Promise<InProcessRow> {
  return tx
    .updateTable('in_process_cash_transaction')
    .set({ status: 'PROCESSED', cash_transaction_id: cashId, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteInProcess(tx: Transaction<DB>, tenantId: number, id: number): Promise<void> {
  await tx.deleteFrom('in_process_cash_transaction').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}
