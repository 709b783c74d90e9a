// Rerate requests of a contract (migration 0039), and the terms a rerate writes back. Executor first, tenant always.
import type { Insertable, Selectable, Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type RerateRow = Selectable<DB['contract_rerate_request']>

export async function insertRerate(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<DB['contract_rerate_request']>, 'tenant_id' | 'id'>,
): Promise<RerateRow> {
  return tx
    .insertInto('contract_rerate_request')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function listRerates(
  db: Executor,
  tenantId: number,
  contractId: number,
  window: Window,
): Promise<{ rows: RerateRow[]; totalCount: number }> {
  const base = db
    .selectFrom('contract_rerate_request')
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
  const rows = await windowed(base.selectAll().orderBy('id'), window).execute()
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return { rows, totalCount: Number(count.n) }
}

/**
 * Replaces the terms of a contract a rerate repriced (its term, the earnings of its lines, its sales
 * tax), under the contract's row lock the caller holds. Only a rerate rewrites the terms of a sold
 * contract: what it was sold under is otherwise kept.
 */
export async function writeRerateTerms(
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
    .where('status', 'in', ['PENDING', 'FINALIZED', 'ACTIVE'])
    .execute()
}
