// Kysely table types of the contract tables (migrations 0007, 0015 and later), with the
// shapes of the documents the contract's jsonb columns hold: what was sold, priced and agreed when
// the contract was written, kept as it was then (the rate book and the parties change afterwards).
import type { ColumnType, Generated } from 'kysely'
import type { Json, JsonValue } from './schema.ts'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type Money = ColumnType<string, string, string>

/** A custom field a plan asks for (the rate book's rule when sold): a PATCH is checked against it. */
export type CustomFieldRule = {
  key: string
  label: string
  type: 'STRING' | 'INTEGER' | 'DECIMAL' | 'MONEY' | 'DATE' | 'BOOLEAN' | 'LIST'
  required: boolean
  unique: boolean
  minLength?: number
  maxLength?: number
  pattern?: string
  min?: number
  max?: number
  options?: ReadonlyArray<{ value: string; label: string }>
}

/** The rate's retail limits, for a retail price changed while pending. */
export type RetailBounds = {
  suggestedRetailCents: number
  minRetailCents: number
  maxRetailCents: number
  retailLocked: boolean
}

/** `coverage`: what was sold, as the rate book described it then. */
export type CoverageSnapshot = {
  rateBookVersion: number
  product: { id: number; code: string; name: string; type: string }
  program: { id: number; code: string; name: string }
  plan: { id: number; code: string; name: string; formNumber: string }
  term: { id: number; code: string; months: number; miles: number; milesBasis: string }
  deductible: { id: number; code: string; amountCents: number; type: string }
  coverageGroups: Array<{ code: string; name: string; components: Array<{ code: string; name: string }> }>
  ppmServices: Array<{
    code: string
    name: string
    intervalMonths?: number | null
    intervalMiles?: number | null
    count: number
  }>
  /** The plan's custom-field rules when sold: a PATCH is checked against them. */
  customFieldRules: CustomFieldRule[]
}

/** `pricing`: every amount in whole cents (decision 0007), lines with their payees. */
export type PricingSnapshot = {
  retailCents: number
  optionsRetailCents: number
  dealerCostCents: number
  lines: Array<{
    code: string
    group: string
    label: string
    cents: number
    source: 'RATE' | 'ACCOUNT_HOLDER' | 'OPTION'
    optionCode: string | null
    payeeAccountHolderId: number
  }>
  options: Array<{
    id: number
    code: string
    name: string
    kind: string
    required: boolean
    dealerCostCents: number
    retailCents: number
  }>
  retailBounds: RetailBounds
}

/** `deal_data`: the dealer as it was, and the deal's own particulars. */
export type DealData = {
  dealer: { dealerNumber: string; name: string }
  dealNumber: string | null
  salesPerson: { firstName: string | null; lastName: string | null; code: string | null } | null
  financeManager: { name: string | null; code: string | null } | null
  taxExempt: boolean
}

/** `vehicle`: amounts are decimals as text (2 places). */
export type VehicleSnapshot = {
  vin: string | null
  year: number | null
  make: string | null
  model: string | null
  trim: string | null
  condition: string | null
  inServiceDate: string | null
  purchasePrice: string | null
  msrp: string | null
  assetType: string
  vehicleClass: string | null
}

export type PostalAddressSnapshot = {
  line1: string
  line2?: string | null
  city: string
  state: string
  postalCode: string
  country?: string | null
}

/** `customer`, `co_buyer`: a person as stored on the contract, trimmed, empty values null. */
export type PersonSnapshot = {
  firstName: string | null
  middleInitial: string | null
  lastName: string | null
  companyName: string | null
  emailAddress: string | null
  phoneNumber: string | null
  address: PostalAddressSnapshot | null
}

/** `lien_holder`: the lien holder as it was when named. */
export type LienHolderSnapshot = {
  lienHolderId: number
  name: string
  address: PostalAddressSnapshot | null
  phoneNumber: string | null
}

/** `finance`: the finance terms; amounts and the APR are decimals as text. */
export type FinanceSnapshot = {
  financeType: string | null
  amountFinanced: string | null
  termMonths: number | null
  apr: string | null
  monthlyPayment: string | null
  firstPaymentDate: string | null
  balloonAmount: string | null
  residualValue: string | null
}

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
  coverage: Json<CoverageSnapshot>
  pricing: Json<PricingSnapshot>
  vehicle: Json<VehicleSnapshot>
  customer: Json<PersonSnapshot>
  co_buyer: Json<PersonSnapshot> | null
  lien_holder: Json<LienHolderSnapshot> | null
  finance: Json<FinanceSnapshot> | null
  /** By the rule's key. */
  custom_fields: Json<Record<string, string | number | boolean>>
  deal_data: Json<DealData>
  lock_user_id: number | null
  lock_user_label: string | null
  lock_expires_at: Date | null
  finalized_at: Date | null
  finalized_by: string | null
  journal_entry_ids: ColumnType<number[], string | undefined, string>
  /**
   * The terms the contract is sold under (cancellation, earnings, claims, governing state, lien),
   * resolved from its rate-book version; null until resolved (contracts sold before migration 0015).
   */
  terms: Json<JsonValue> | null
  /**
   * The reinsurance company the contract is ceded to (terms.cession.reinsuranceCompanyId), generated
   * by the database (migration 0044) so that the statements' book is found through an index; never
   * written.
   */
  ceded_company_id: ColumnType<string | number | null, never, never>
  /** The day of the latest approved transfer to a new owner (migration 0037); null: never transferred. */
  transferred_on: ColumnType<string | null, string | null | undefined, string | null>
  /**
   * The latest known odometer of the vehicle (migration 0038): a claim's repair-order reading, the
   * day it was read and its source (CLAIM with the claim's id; CLAIM_INTAKE, a refused claim's report).
   */
  last_odometer: ColumnType<number | null, number | null | undefined, number | null>
  last_odometer_on: ColumnType<string | null, string | null | undefined, string | null>
  last_odometer_source: ColumnType<string | null, string | null | undefined, string | null>
  last_odometer_source_id: ColumnType<number | null, number | null | undefined, number | null>
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

/**
 * A change of a contract's status (migration 0015), never updated: creation (CREATE, from null) and
 * every transition of the state machine that changes the status.
 */
export type ContractStatusHistoryTable = {
  tenant_id: number
  id: Generated<number>
  contract_id: number
  event: string
  from_status: ContractStatus | null
  to_status: ContractStatus
  /** The day from which the contract is in `to_status` (YYYY-MM-DD). */
  effective_date: string
  /** CONTRACT, CANCELLATION, CLAIM, PROCESS, …; BACKFILL for rows rebuilt by migration 0015. */
  source_type: string
  source_id: number | null
  occurred_at: Timestamp
  actor_label: string
  actor_user_id: number | null
}

/** A transfer of a contract to a new owner (migration 0037): requested, then approved or rejected. */
export type ContractTransferTable = {
  tenant_id: number
  id: Generated<number>
  contract_id: number
  status: 'REQUESTED' | 'APPROVED' | 'REJECTED'
  transfer_date: string
  odometer: number | null
  new_owner: Json<PersonSnapshot>
  new_owner_dealer_id: number | null
  previous_customer_id: number
  new_customer_id: number | null
  fee: Money
  note: string | null
  decision_note: string | null
  journal_entry_id: number | null
  requested_at: Timestamp
  requested_by: string
  decided_at: Date | null
  decided_by: string | null
  version: Generated<number>
}

/** Pricing of a contract on one side of a rerate: what the contract said before, or says after (cents). */
export type RerateSideSnapshot = {
  rateId: string
  term: { id: number; code: string; months: number; miles: number }
  deductible: { id: number; code: string }
  saleOdometer: number | null
  expirationDate: string
  expirationOdometer: number | null
  vehicle: VehicleSnapshot
  retailCents: number
  optionsRetailCents: number
  dealerCostCents: number
  salesTaxCents: number
  lines: PricingSnapshot['lines']
  options: PricingSnapshot['options']
}

/** A rerate applied to a contract (migration 0039), never changed. */
export type ContractRerateRequestTable = {
  tenant_id: number
  id: Generated<number>
  contract_id: number
  contract_status: 'PENDING' | 'FINALIZED' | 'ACTIVE'
  reason: string | null
  changes: Json<JsonValue>
  before: Json<RerateSideSnapshot>
  after: Json<RerateSideSnapshot>
  dealer_cost_difference: Money
  retail_price_difference: Money
  sales_tax_difference: Money
  posted_lines: Json<JsonValue>
  journal_entry_id: number | null
  settlement_entry_id: number | null
  earnings_entry_id: number | null
  requested_at: Timestamp
  requested_by: string
}

export type ContractTables = {
  contract: ContractTable
  contract_hold: ContractHoldTable
  contract_unique_value: ContractUniqueValueTable
  contract_status_history: ContractStatusHistoryTable
  contract_transfer: ContractTransferTable
  contract_rerate_request: ContractRerateRequestTable
}
