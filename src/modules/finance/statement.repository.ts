// Statement requests and the journal reads a statement is made of. Executor first, tenant always.
// Lines are read in pages by a keyset cursor over (effective_date, entry_id, line_no), the order a
// statement prints them in, so a run holds one page at a time whatever the statement's length.
import { sql, type Insertable, type Selectable, type Transaction, type Updateable } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { StatementRequestTable } from '../../platform/db/schema.statements.ts'

export type RequestRow = Selectable<StatementRequestTable>

export type HolderRow = { id: number; kind: string; display_name: string }

export async function findAccountHolder(db: Executor, tenantId: number, id: number): Promise<HolderRow | undefined> {
  return db
    .selectFrom('account_holder')
    .select(['id', 'kind', 'display_name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The holder's ledger accounts (of one purpose, or all): a statement covers their lines. */
export async function accountIds(
  db: Executor,
  tenantId: number,
  accountHolderId: number,
  purpose: string | null,
): Promise<number[]> {
  let q = db
    .selectFrom('ledger_account')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('account_holder_id', '=', accountHolderId)
  if (purpose !== null) q = q.where('purpose', '=', purpose)
  return (await q.orderBy('id').execute()).map((r) => Number(r.id))
}

function linesOfAccounts(db: Executor, tenantId: number, accounts: readonly number[]) {
  return db
    .selectFrom('journal_line as l')
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .where('l.tenant_id', '=', tenantId)
    .where('l.account_id', 'in', accounts.length > 0 ? [...accounts] : [0])
}

/** Σ(debit − credit) of the accounts' lines dated before `from` (the opening balance), as text. */
export async function balanceBefore(
  db: Executor,
  tenantId: number,
  accounts: readonly number[],
  from: string,
): Promise<string> {
  if (accounts.length === 0) return '0'
  const row = await linesOfAccounts(db, tenantId, accounts)
    .select(sql<string>`coalesce(sum(l.debit - l.credit), 0)::text`.as('net'))
    .where('e.effective_date', '<', from)
    .executeTakeFirstOrThrow()
  return row.net
}

/** How many lines, and their Σ(debit − credit), the accounts have dated from `from` through `to`. */
export async function periodTotals(
  db: Executor,
  tenantId: number,
  accounts: readonly number[],
  from: string,
  to: string,
): Promise<{ count: number; net: string }> {
  if (accounts.length === 0) return { count: 0, net: '0' }
  const row = await linesOfAccounts(db, tenantId, accounts)
    .select([
      sql<string>`count(*)::text`.as('count'),
      sql<string>`coalesce(sum(l.debit - l.credit), 0)::text`.as('net'),
    ])
    .where('e.effective_date', '>=', from)
    .where('e.effective_date', '<=', to)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), net: row.net }
}

export type Cursor = { effectiveDate: string; entryId: number; lineNo: number }

export type StatementLineRow = {
  effective_date: string
  entry_id: number
  line_no: number
  kind: string
  source_type: string
  source_id: number
  purpose: string
  contract_number: string | null
  disbursement_code: string | null
  memo: string | null
  debit: string
  credit: string
}

/** One page of the period's lines after `after` (null: from the start), in statement order. */
export async function linesPage(
  db: Executor,
  tenantId: number,
  accounts: readonly number[],
  period: { from: string; to: string },
  after: Cursor | null,
  limit: number,
): Promise<StatementLineRow[]> {
  if (accounts.length === 0) return []
  let q = linesOfAccounts(db, tenantId, accounts)
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .leftJoin('contract as c', (j) => j.onRef('c.tenant_id', '=', 'l.tenant_id').onRef('c.id', '=', 'l.contract_id'))
    .select([
      sql<string>`e.effective_date::text`.as('effective_date'),
      'l.entry_id',
      'l.line_no',
      'e.kind',
      'e.source_type',
      'e.source_id',
      'a.purpose',
      'c.contract_number',
      'l.disbursement_code',
      sql<string | null>`coalesce(l.memo, e.memo)`.as('memo'),
      sql<string>`l.debit::text`.as('debit'),
      sql<string>`l.credit::text`.as('credit'),
    ])
    .where('e.effective_date', '>=', period.from)
    .where('e.effective_date', '<=', period.to)
  if (after) {
    q = q.where(
      sql<boolean>`(e.effective_date, l.entry_id, l.line_no) > (${after.effectiveDate}::date, ${after.entryId}::bigint, ${after.lineNo}::integer)`,
    )
  }
  const rows = await q.orderBy('e.effective_date').orderBy('l.entry_id').orderBy('l.line_no').limit(limit).execute()
  return rows.map((r) => ({
    ...r,
    entry_id: Number(r.entry_id),
    line_no: Number(r.line_no),
    source_id: Number(r.source_id),
  }))
}

export async function insertRequest(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<StatementRequestTable>, 'tenant_id' | 'id'>,
): Promise<RequestRow> {
  return tx
    .insertInto('statement_request')
    .values({ tenant_id: tenantId, ...values })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updateRequest(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  changes: Omit<Updateable<StatementRequestTable>, 'tenant_id' | 'id'>,
  /** Only when the request is still in one of these statuses (a stale run's late write changes nothing). */
  fromStatuses: readonly string[],
): Promise<RequestRow | undefined> {
  return tx
    .updateTable('statement_request')
    .set(changes)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('status', 'in', [...fromStatuses] as never)
    .returningAll()
    .executeTakeFirst()
}

export async function findRequest(db: Executor, tenantId: number, id: number): Promise<RequestRow | undefined> {
  return db
    .selectFrom('statement_request')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The request's dates as text, whatever the driver makes of a date column. */
export function dateText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  return String(value).slice(0, 10)
}

/** The administrator company's name, printed on the statement (the tenant's first ADMIN_COMPANY). */
export async function administratorName(db: Executor, tenantId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('account_holder')
    .select('display_name')
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'ADMIN_COMPANY')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
  return row?.display_name
}

/**
 * The MONTHLY_STATEMENTS process's items (docs/processes.md): ids of the dealers after `afterId`,
 * ascending, with a ledger line dated on or before `to`, that have no statement of exactly
 * `from`..`to` over all their accounts yet (queued, running or completed: a failed one is made again).
 */
export async function dealersWithoutStatement(
  db: Executor,
  tenantId: number,
  q: { from: string; to: string; afterId: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('account_holder as h')
    .select('h.id')
    .where('h.tenant_id', '=', tenantId)
    .where('h.kind', '=', 'DEALER')
    .where('h.id', '>', q.afterId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('ledger_account as a')
          .innerJoin('journal_line as l', (j) =>
            j.onRef('l.tenant_id', '=', 'a.tenant_id').onRef('l.account_id', '=', 'a.id'),
          )
          .innerJoin('journal_entry as e', (j) =>
            j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
          )
          .select('l.entry_id')
          .where('a.tenant_id', '=', tenantId)
          .where('l.tenant_id', '=', tenantId)
          .where('e.tenant_id', '=', tenantId)
          .whereRef('a.account_holder_id', '=', 'h.id')
          .where('e.effective_date', '<=', q.to),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('statement_request as r')
            .select('r.id')
            .where('r.tenant_id', '=', tenantId)
            .whereRef('r.account_holder_id', '=', 'h.id')
            .where('r.purpose', 'is', null)
            .where('r.from_date', '=', q.from)
            .where('r.to_date', '=', q.to)
            .where('r.status', 'in', ['QUEUED', 'RUNNING', 'COMPLETED']),
        ),
      ),
    )
    .orderBy('h.id')
    .limit(q.limit)
    .execute()
  return rows.map((r) => Number(r.id))
}
