// Kysely table types of the payout tables (migrations 0031 and 0041, docs/payouts.md). Kept in step with the migration.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
/** numeric, read and written as a decimal string. */
type Money = ColumnType<string, string, string>

export interface PayoutRunTable {
  tenant_id: number
  id: Generated<number>
  as_of: string
  accounting_date: string
  /** The purposes paid, comma-separated. */
  purposes: string
  /** The payees the run was limited to, comma-separated; null: every payee. */
  payee_ids: string | null
  payout_count: number
  total: Money
  created_at: Timestamp
  created_by: string
}

export interface PayoutTable {
  tenant_id: number
  id: Generated<number>
  run_id: number
  payee_id: number
  payment_method: 'CHECK' | 'ACH' | 'WIRE'
  disbursement_account_id: number | null
  amount: Money
  entry_id: number | null
}

export interface PayoutItemTable {
  tenant_id: number
  id: Generated<number>
  payout_id: number
  purpose: 'REFUND_PAYABLE' | 'DISBURSEMENT_PAYABLE' | 'CLAIM_PAYABLE'
  contract_id: number
  amount: Money
  /** The claim payment request paid: CLAIM_PAYABLE items only (migration 0041). */
  payment_request_id: ColumnType<number | null, number | null | undefined, never>
}

export type PayoutTables = {
  payout_run: PayoutRunTable
  payout: PayoutTable
  payout_item: PayoutItemTable
}
