// Transfer requests of a contract (migration 0037). Executor first, tenant always.
import type { Insertable, Selectable, Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type TransferRow = Selectable<DB['contract_transfer']>

export async function insertTransfer(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<DB['contract_transfer']>, 'tenant_id' | 'id'>,
): Promise<TransferRow> {
  return tx
    .insertInto('contract_transfer')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function findTransfer(
  db: Executor,
  tenantId: number,
  contractId: number,
  id: number,
): Promise<TransferRow | undefined> {
  return db
    .selectFrom('contract_transfer')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export function lockTransfer(
  tx: Transaction<DB>,
  tenantId: number,
  contractId: number,
  id: number,
): Promise<TransferRow | undefined> {
  return tx
    .selectFrom('contract_transfer')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** The request awaiting a decision, if any (at most one: contract_transfer_open_uq). */
export function openTransfer(tx: Executor, tenantId: number, contractId: number): Promise<TransferRow | undefined> {
  return tx
    .selectFrom('contract_transfer')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('status', '=', 'REQUESTED')
    .executeTakeFirst()
}

export async function listTransfers(
  db: Executor,
  tenantId: number,
  contractId: number,
  window: Window,
): Promise<{ rows: TransferRow[]; totalCount: number }> {
  const base = db
    .selectFrom('contract_transfer')
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
  const rows = await windowed(base.selectAll().orderBy('id'), window).execute()
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return { rows, totalCount: Number(count.n) }
}

export async function decideTransfer(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: Pick<
    Insertable<DB['contract_transfer']>,
    'status' | 'decided_at' | 'decided_by' | 'decision_note' | 'new_customer_id' | 'journal_entry_id'
  >,
): Promise<TransferRow> {
  return tx
    .updateTable('contract_transfer')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}
