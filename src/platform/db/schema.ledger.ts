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
}

export type LedgerTables = {
  ledger_account: LedgerAccountTable
  journal_entry: JournalEntryTable
  journal_line: JournalLineTable
  ledger_item: LedgerItemTable
}
