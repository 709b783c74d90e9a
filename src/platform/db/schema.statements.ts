// Kysely table types of the statement tables (migrations/2026_11_26_0030_statements.ts, docs/statements.md).
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
/** date, as 'YYYY-MM-DD'. */
type DateColumn = ColumnType<string, string, string>
/** numeric, read and written as a decimal string. */
type Money = ColumnType<string, string, string>

export type StatementRequestStatus = 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED'

export interface StatementRequestTable {
  tenant_id: number
  id: Generated<number>
  account_holder_id: number
  /** One of the finance module's ACCOUNT_PURPOSES; null: every account of the holder. */
  purpose: string | null
  from_date: DateColumn
  to_date: DateColumn
  format: 'PDF' | 'CSV'
  status: StatementRequestStatus
  opening_balance: Money | null
  closing_balance: Money | null
  line_count: number | null
  document_id: number | null
  failure_reason: string | null
  requested_by: string
  created_at: Timestamp
  /** Moves with every page a background run writes; a RUNNING request whose heartbeat stopped is FAILED. */
  heartbeat_at: Timestamp
  completed_at: Timestamp | null
}

export type StatementTables = {
  statement_request: StatementRequestTable
}
