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

export type ReportingTables = { reinsurance_treaty: ReinsuranceTreatyTable }
