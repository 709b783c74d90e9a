// SQL of payout runs (docs/payouts.md). Every statement names the tenant.
import { sql } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { Insertable, Selectable } from 'kysely'
import type { PayoutItemTable, PayoutRunTable, PayoutTable } from '../../platform/db/schema.payouts.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { PayoutPurpose } from './payout.rules.ts'

export type RunRow = Selectable<PayoutRunTable>
export type PayoutRow = Selectable<PayoutTable>
export type PayoutItemRow = Selectable<PayoutItemTable>

/** A payable's credit-normal balance per payee, purpose and contract: as of a date and over every line. */
export type PayableBalance = {
  payeeId: number
  purpose: PayoutPurpose
  contractId: number
  asOf: string
  now: string
}

export async function payableBalances(
  db: Executor,
  tenantId: number,
  purposes: readonly PayoutPurpose[],
  asOf: string,
  payeeIds: readonly number[] | undefined,
): Promise<PayableBalance[]> {
  let q = db
    .selectFrom('journal_line as l')
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .select([
      'a.account_holder_id',
      'a.purpose',
      sql<string>`coalesce(l.contract_id, 0)`.as('contract_id'),
      sql<string>`coalesce(sum(case when e.effective_date <= ${asOf}::date then l.credit - l.debit else 0 end), 0)`.as(
        'as_of',
      ),
      sql<string>`coalesce(sum(l.credit - l.debit), 0)`.as('now'),
    ])
    .where('l.tenant_id', '=', tenantId)
    .where('e.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
    .where('a.purpose', 'in', [...purposes])
  if (payeeIds !== undefined) q = q.where('a.account_holder_id', 'in', [...payeeIds])
  const rows = await q.groupBy(['a.account_holder_id', 'a.purpose', sql`coalesce(l.contract_id, 0)`]).execute()
  return rows.map((r) => ({
    payeeId: Number(r.account_holder_id),
    purpose: r.purpose as PayoutPurpose,
    contractId: Number(r.contract_id),
    asOf: String(r.as_of),
    now: String(r.now),
  }))
}

/** The ids of `ids` that are account holders of the tenant. */
export async function existingHolders(db: Executor, tenantId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('account_holder')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .execute()
  return new Set(rows.map((r) => Number(r.id)))
}

export async function insertRun(db: Executor, tenantId: number, row: Omit<Insertable<PayoutRunTable>, 'tenant_id'>) {
  return db
    .insertInto('payout_run')
    .values({ ...row, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function insertPayout(db: Executor, tenantId: number, row: Omit<Insertable<PayoutTable>, 'tenant_id'>) {
  return db
    .insertInto('payout')
    .values({ ...row, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function insertItems(
  db: Executor,
  tenantId: number,
  rows: readonly Omit<Insertable<PayoutItemTable>, 'tenant_id'>[],
) {
  if (rows.length === 0) return
  await db
    .insertInto('payout_item')
    .values(rows.map((r) => ({ ...r, tenant_id: tenantId })))
    .execute()
}

/** Runs, newest first; with `visible`, only runs that paid one of those payees. */
export async function listRuns(
  db: Executor,
  tenantId: number,
  filter: {
    visible: ReadonlySet<number> | null
    payeeId?: number | undefined
    from?: string | undefined
    to?: string | undefined
  },
  window: Window,
): Promise<{ rows: RunRow[]; totalCount: number }> {
  let q = db.selectFrom('payout_run as r').where('r.tenant_id', '=', tenantId)
  const payees = filter.visible === null ? undefined : [...filter.visible]
  if (payees !== undefined && payees.length === 0) return { rows: [], totalCount: 0 }
  if (payees !== undefined || filter.payeeId !== undefined)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('payout as p')
          .select('p.id')
          .where('p.tenant_id', '=', tenantId)
          .whereRef('p.run_id', '=', 'r.id')
          .$if(payees !== undefined, (s) => s.where('p.payee_id', 'in', payees!))
          .$if(filter.payeeId !== undefined, (s) => s.where('p.payee_id', '=', filter.payeeId!)),
      ),
    )
  if (filter.from !== undefined) q = q.where('r.as_of', '>=', filter.from)
  if (filter.to !== undefined) q = q.where('r.as_of', '<=', filter.to)
  const [rows, count] = await Promise.all([
    windowed(q.selectAll('r').orderBy('r.id', 'desc'), window).execute(),
    q.select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: Number(count.n) }
}

export async function getRun(db: Executor, tenantId: number, id: number): Promise<RunRow | undefined> {
  return db
    .selectFrom('payout_run')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function payoutsOf(db: Executor, tenantId: number, runIds: readonly number[]) {
  if (runIds.length === 0) return { payouts: [] as PayoutRow[], items: [] as PayoutItemRow[] }
  const payouts = await db
    .selectFrom('payout')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('run_id', 'in', [...runIds])
    .orderBy('id')
    .execute()
  const items =
    payouts.length === 0
      ? []
      : await db
          .selectFrom('payout_item')
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .where(
            'payout_id',
            'in',
            payouts.map((p) => Number(p.id)),
          )
          .orderBy('id')
          .execute()
  return { payouts, items }
}
