// Kysely table types of the reporting tables (migrations/2026_11_27_0042_reinsurance.ts, docs/reporting.md).
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
/** date, as 'YYYY-MM-DD'. */
type DateColumn = ColumnType<string, string, string>
/** bigint[]: read as numbers or strings depending on the driver; normalised by the repository. */
type IdArray = ColumnType<Array<number | string>, number[] | undefined, number[]>

export interface ReinsuranceTreatyTable {
  tenant_id: number
  id: Generated<number>
  reinsurance_company_id: number
  name: string
  dealer_ids: IdArray
  dealer_group_ids: IdArray
  product_ids: IdArray
  program_ids: IdArray
  effective_from: DateColumn
  /** The last day in force, inclusive; null: open-ended. */
  effective_to: DateColumn | null
  share_bps: number
  ceding_fee_bps: number
  administrator_fee_bps: number
  version: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export type ReportKind = 'REINSURANCE_STATEMENT' | 'PREMIUM_BORDEREAU' | 'CLAIMS_BORDEREAU'
export type ReportRunStatus = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED'
type Json<T> = ColumnType<T, string, string>

/** A report job (migrations/2026_11_27_0043_report_runs.ts): one kind and month, a list of risk bearers. */
export interface ReportRunTable {
  tenant_id: number
  id: Generated<number>
  kind: ReportKind
  period: string
  risk_bearer_ids: IdArray
  scope_key: string
  status: ReportRunStatus
  total: number
  done: Generated<number>
  /** The last risk bearer done (0: none). */
  cursor: ColumnType<number | string, number | undefined, number>
  lease_owner: string | null
  lease_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  error: ColumnType<{ code: string; message: string } | null, string | null | undefined, string | null>
  created_at: Timestamp
  created_by: string
  started_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
}

/** A frozen report of a closed month: what it answered and the digest of its inputs. */
export interface ReportDocumentTable {
  tenant_id: number
  id: Generated<number>
  kind: ReportKind
  risk_bearer_id: number
  period: string
  report_run_id: number | null
  document: Json<Record<string, unknown>>
  input_digest: string
  created_at: Timestamp
  created_by: string
}

export type ReportingTables = {
  reinsurance_treaty: ReinsuranceTreatyTable
  report_run: ReportRunTable
  report_document: ReportDocumentTable
}
