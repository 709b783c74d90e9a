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

/**
 * A sold contract as the reports group and reckon it (migrations/2026_11_27_0046_reporting_book.ts):
 * kept by triggers on contract, never written by the service.
 */
export interface ReportingContractTable {
  tenant_id: number
  contract_id: number
  ceded_company_id: number | null
  share_bps: number
  ceding_fee_bps: number
  administrator_fee_bps: number
  contract_number: string
  dealer_id: number
  dealer_number: string | null
  dealer_name: string | null
  product_id: number | null
  product_code: string | null
  product_name: string | null
  program_id: number | null
  program_code: string | null
  program_name: string | null
  plan_id: number | null
  plan_code: string | null
  plan_name: string | null
  term_months: number
  term_miles: number
  sale_date: DateColumn
  effective_date: DateColumn
  expiration_date: DateColumn
  vintage: string
  reserve_lines: Json<Array<{ code: string; cents: number | string; earnings: Record<string, unknown> | null }>>
  reserve_codes: string[]
  has_reserve: boolean
  shape: string
}

/** A contract's journal movements per accounting date and code, in cents (0046): kept by triggers. */
export interface ReportingMovementTable {
  tenant_id: number
  contract_id: number
  on_date: DateColumn
  code: string
  written: ColumnType<number | string, number, number>
  cancelled: ColumnType<number | string, number, number>
  cancel_events: number
  claims_paid: ColumnType<number | string, number, number>
  claims_incurred: ColumnType<number | string, number, number>
}

/** The sums of one month end of the reporting book (migrations/2026_11_27_0048_reporting_month_sums.ts). */
export interface ReportingMonthTable {
  tenant_id: number
  month_end: DateColumn
  status: 'BUILDING' | 'READY'
  cells: Generated<number>
  started_at: Generated<Date>
  built_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
}

type Cents = ColumnType<number | string, number, number>

/** A cell of a month end's sums (0048): gross and ceded cumulative figures in cents, contract counts. */
export interface ReportingMonthCellTable {
  tenant_id: number
  month_end: DateColumn
  cell: number
  ceded_company_id: number | null
  has_reserve: boolean
  dealer_id: number
  product_id: number | null
  program_id: number | null
  plan_id: number | null
  term_months: number
  term_miles: number
  vintage: string
  contracts: number
  open_contracts: number
  first_contract_id: number
  written: Cents
  cancelled: Cents
  earned: Cents
  claims_paid: Cents
  claims_incurred: Cents
  ceded_written: Cents
  ceded_cancelled: Cents
  ceded_earned: Cents
  ceded_claims_paid: Cents
  ceded_claims_incurred: Cents
  ceding_fee: Cents
  administrator_fee: Cents
}

/** A company's statement input digest as of a month end, taken with its sums (0048). */
export interface ReportingMonthDigestTable {
  tenant_id: number
  month_end: DateColumn
  reinsurance_company_id: number
  digest: string
}

export type ReportingTables = {
  reinsurance_treaty: ReinsuranceTreatyTable
  report_run: ReportRunTable
  report_document: ReportDocumentTable
  reporting_contract: ReportingContractTable
  reporting_movement: ReportingMovementTable
  reporting_month: ReportingMonthTable
  reporting_month_cell: ReportingMonthCellTable
  reporting_month_digest: ReportingMonthDigestTable
}
