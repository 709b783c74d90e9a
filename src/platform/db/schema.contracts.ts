// Kysely table types of the contract tables (migrations/2026_11_22_0007_contracts.ts).
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json = ColumnType<unknown, string, string>
type Money = ColumnType<string, string, string>

export type ContractStatus = 'PENDING' | 'FINALIZED' | 'ACTIVE' | 'EXPIRED' | 'CANCELLED' | 'VOIDED'

export type ContractTable = {
  id: Generated<number>
  tenant_id: number
  contract_number: string
  status: ContractStatus
  version: Generated<number>
  dealer_id: number
  customer_id: number
  lien_holder_id: number | null
  quote_id: string
  rate_id: string
  rate_book_id: number
  product_id: number
  program_id: number
  plan_id: number
  term_id: number
  deductible_id: number
  product_type: string
  vin: string | null
  customer_name: string
  sale_date: string
  effective_date: string
  expiration_date: string
  sale_odometer: number | null
  expiration_odometer: number | null
  dealer_cost: Money
  retail_price: Money
  coverage: Json
  pricing: Json
  vehicle: Json
  customer: Json
  co_buyer: Json | null
  lien_holder: Json | null
  finance: Json | null
  custom_fields: Json
  deal_data: Json
  lock_user_id: number | null
  lock_user_label: string | null
  lock_expires_at: Date | null
  finalized_at: Date | null
  finalized_by: string | null
  journal_entry_ids: ColumnType<number[], string | undefined, string>
  created_at: Timestamp
  updated_at: Timestamp
  created_by: string
}

export type ContractHoldTable = {
  id: Generated<number>
  tenant_id: number
  contract_id: number
  reason_code: string
  note: string | null
  created_at: Timestamp
  created_by: string
  resolved_at: Date | null
  resolved_by: string | null
  resolution_note: string | null
}

export type ContractUniqueValueTable = { tenant_id: number; field_key: string; value: string; contract_id: number }

export type ContractTables = {
  contract: ContractTable
  contract_hold: ContractHoldTable
  contract_unique_value: ContractUniqueValueTable
}
