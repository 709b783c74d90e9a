// Kysely table types of the ledger tables (migrations/2026_11_22_0008_ledger.ts). Kept in step with the migration.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export type LedgerAccountTable = {
  id: Generated<number>
  tenant_id: number
  account_holder_id: number
  /** One of the finance module's ACCOUNT_PURPOSES. */
  purpose: string
  created_at: Timestamp
}

export type JournalEntryTable = {
  id: Generated<number>
  tenant_id: number
  kind: string
  source_type: string
  source_id: number
  /** date, as 'YYYY-MM-DD' */
  effective_date: string
  posted_at: Timestamp
  posted_by: string
  memo: string | null
  reverses_entry_id: number | null
}

export type JournalLineTable = {
  id: Generated<number>
  tenant_id: number
  entry_id: number
  line_no: number
  account_id: number
  /** numeric(14,2), as a string; exactly one of debit and credit is positive. */
  debit: ColumnType<string, string | undefined, never>
  credit: ColumnType<string, string | undefined, never>
  contract_id: number | null
  disbursement_code: string | null
  memo: string | null
}

/**
 * Running totals per account and contract (0: lines without one), kept by the database from the
 * journal lines (migration 0035): read-only for the service.
 */
export interface LedgerItemTable {
  tenant_id: number
  account_id: number
  contract_id: number
  debit: ColumnType<string, never, never>
  credit: ColumnType<string, never, never>
  first_date: ColumnType<string, never, never>
  last_date: ColumnType<string, never, never>
  line_count: ColumnType<string, never, never>
  /** The first date before the last statement that changed the item (migration 0045; the trigger's own). */
  prev_first_date: ColumnType<string | null, never, never>
  /** The item's sums before the statement's upsert (null when the statement created it). */
  prev_debit: ColumnType<string | null, never, never>
  prev_credit: ColumnType<string | null, never, never>
}

/** Totals per account (migration 0045): the folded part; the views add the unfolded deltas. */
export interface LedgerTotalTable {
  tenant_id: number
  account_id: number
  debit: ColumnType<string, never, never>
  credit: ColumnType<string, never, never>
}

export interface LedgerTotalDeltaTable extends LedgerTotalTable {
  id: ColumnType<string, never, never>
}

/** Open receivable items per account and first posted date (migration 0045): amount and count. */
export interface LedgerOpenTotalTable {
  tenant_id: number
  account_id: number
  first_date: ColumnType<string, never, never>
  open_amount: ColumnType<string, never, never>
  open_count: ColumnType<string, never, never>
}

export interface LedgerOpenDeltaTable extends LedgerOpenTotalTable {
  id: ColumnType<string, never, never>
}

export type LedgerTables = {
  ledger_account: LedgerAccountTable
  journal_entry: JournalEntryTable
  journal_line: JournalLineTable
  ledger_item: LedgerItemTable
  ledger_total: LedgerTotalTable
  ledger_total_delta: LedgerTotalDeltaTable
  ledger_open_total: LedgerOpenTotalTable
  ledger_open_delta: LedgerOpenDeltaTable
}
