// Kysely table types of the claim tables (migrations 0020 and 0021, docs/claims.md).
import type { ColumnType, Generated } from 'kysely'
import type { Json } from './schema.ts'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type DateColumn = ColumnType<string, string, string>
/** numeric, read and written as a decimal string. */
type Money = ColumnType<string, string, string>

export type ClaimLookupKindColumn =
  | 'TYPE'
  | 'COMPLAINT'
  | 'CAUSE'
  | 'CORRECTION'
  | 'DENIED_REASON'
  | 'HOLD_REASON'
  | 'INSPECTION_REASON'
  | 'REJECT_INSPECTION_REASON'

export interface ClaimLookupTable {
  tenant_id: number
  id: Generated<number>
  kind: ClaimLookupKindColumn
  code: string
  name: string
  /** The TYPE code of a complaint, cause or correction; null for the other kinds. */
  type_code: string | null
  active: Generated<boolean>
  sort_order: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ClaimLookupCombinationTable {
  tenant_id: number
  id: Generated<number>
  complaint_id: number
  cause_id: number
  correction_id: number
  active: Generated<boolean>
  sort_order: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export type ClaimStatusColumn =
  | 'OPEN'
  | 'PENDING_INSPECTION'
  | 'AUTHORIZED'
  | 'PENDING_PAYMENT'
  | 'PAID'
  | 'PARTIALLY_PAID'
  | 'DENIED'
  | 'CLOSED'
  | 'VOIDED'

export type ClaimJobStatusColumn = 'PENDING' | 'AUTHORIZED' | 'DENIED'

/** A job as stored in `claim.jobs`: amounts in whole cents, quantities and hours as decimal strings. */
export type StoredClaimJob = {
  lineNumber: number
  complaintId: number
  causeId: number | null
  correctionId: number | null
  coverageComponentCode: string | null
  /** The PPM service the job redeems (the contract's `coverage.ppmServices` code, as the schedule spells it); absent or null: none (docs/claims.md "PPM services"). */
  ppmServiceCode?: string | null
  status: ClaimJobStatusColumn
  deniedReasonId: number | null
  parts: Array<{
    partNumber: string
    description: string
    quantity: string
    requestedUnitCents: number
    authorizedUnitCents: number | null
    taxable: boolean
    /** Why an authorized line was reduced (authorized below what was asked). */
    reductionReason?: string | null
  }>
  labor: Array<{
    operationCode: string | null
    hours: string
    rateCents: number
    requestedCents: number | null
    authorizedCents: number | null
    reductionReason?: string | null
  }>
  sublet: Array<{
    description: string
    requestedCents: number
    authorizedCents: number | null
    reductionReason?: string | null
  }>
}

/** A benefit line as stored in `claim.benefits` (amounts in whole cents); `countedCents`: what it pays, caps applied. */
export type StoredClaimBenefit = {
  type: string
  status: ClaimJobStatusColumn
  days: number | null
  dailyRateCents: number | null
  requestedCents: number | null
  authorizedCents: number | null
  countedCents: number
  cappedBy: string[]
}

export type StoredClaimContact = { name: string | null; phoneNumber: string | null; emailAddress: string | null }

export interface ClaimNumberCounterTable {
  tenant_id: number
  last_value: ColumnType<number, number, number>
}

export interface ClaimTable {
  tenant_id: number
  id: Generated<number>
  claim_number: string
  contract_id: number
  contract_number: string
  dealer_id: number
  vin: string | null
  repair_facility_id: number
  repair_facility_name: string
  status: ClaimStatusColumn
  loss_date: DateColumn
  odometer: number | null
  reported_at: Timestamp
  repair_order_number: string | null
  contact: Json<StoredClaimContact> | null
  jobs: Json<StoredClaimJob[]>
  benefits: Json<StoredClaimBenefit[]>
  /** The facility's labor rate per hour when the claim was taken; null: none posted. */
  facility_labor_rate: Money | null
  /** A fraction ("0.082500"). */
  facility_tax_rate: Money
  requested_total: Money
  authorized_total: Money
  tax_total: Money
  deductible_total: Money
  payable_total: Money
  paid_total: Money
  authorization_number: string | null
  authorized_at: Timestamp | null
  authorized_by: string | null
  authorization_expires_on: DateColumn | null
  payee_type: ClaimPayeeTypeColumn | null
  payee_account_holder_id: number | null
  adjuster_user_id: number | null
  /** Why a DENIED claim was denied (migration 0023). */
  denied_reason_id: number | null
  /** How many authorizations the claim was given (migration 0023). */
  authorization_count: Generated<number>
  lock_user_id: number | null
  lock_user_label: string | null
  lock_expires_at: Timestamp | null
  created_at: Timestamp
  created_by: string
  created_by_user_id: number | null
  updated_at: Timestamp
  updated_by: string
  version: Generated<number>
}

/** A note on a claim (migration 0022): append-only. */
export interface ClaimNoteTable {
  tenant_id: number
  id: Generated<number>
  claim_id: number
  text: string
  visibility: ColumnType<'ALL' | 'STAFF', 'ALL' | 'STAFF' | undefined, never>
  created_at: Timestamp
  created_by: string
  created_by_user_id: number | null
}

/** A hold on a claim (migration 0023): released, never deleted. */
export interface ClaimHoldTable {
  tenant_id: number
  id: Generated<number>
  claim_id: number
  hold_reason_id: number
  note: string | null
  placed_at: Timestamp
  placed_by: string
  released_at: Timestamp | null
  released_by: string | null
}

export type ClaimPayeeTypeColumn = 'REPAIR_FACILITY' | 'CONTRACT_HOLDER' | 'OTHER'
export type ClaimPaymentRequestStatusColumn = 'REQUESTED' | 'PARTIALLY_PAID' | 'PAID' | 'WITHDRAWN' | 'CLOSED'

/** A payment request of a claim (migration 0023): the invoice and the amount committed (CLAIM_APPROVED). */
export interface ClaimPaymentRequestTable {
  tenant_id: number
  id: Generated<number>
  claim_id: number
  contract_id: number
  status: ClaimPaymentRequestStatusColumn
  invoice_number: string
  invoice_date: DateColumn
  invoiced_total: Money
  amount: Money
  paid_total: ColumnType<string, string | undefined, string>
  payee_type: ClaimPayeeTypeColumn
  payee_account_holder_id: number
  risk_bearer_id: number
  journal_entry_id: number
  release_entry_id: number | null
  created_at: Timestamp
  created_by: string
  updated_at: Timestamp
}

export type ClaimPaymentMethodColumn = 'CHECK' | 'ACH' | 'CREDIT_CARD' | 'WIRE'

/** Money paid on a claim's payment request (migration 0023, CLAIM_PAID): append-only. */
export interface ClaimPaymentTable {
  tenant_id: number
  id: Generated<number>
  claim_id: number
  payment_request_id: number
  method: ClaimPaymentMethodColumn
  amount: Money
  paid_on: DateColumn
  reference: string | null
  journal_entry_id: number
  created_at: Timestamp
  created_by: string
}

export type ClaimTables = {
  claim_lookup: ClaimLookupTable
  claim_lookup_combination: ClaimLookupCombinationTable
  claim_number_counter: ClaimNumberCounterTable
  claim: ClaimTable
  claim_note: ClaimNoteTable
  claim_hold: ClaimHoldTable
  claim_payment_request: ClaimPaymentRequestTable
  claim_payment: ClaimPaymentTable
  claim_inspection: ClaimInspectionTable
}

export type ClaimInspectionStatusColumn = 'REQUESTED' | 'TAKEN' | 'REJECTED' | 'COMPLETED' | 'CANCELLED'

/** An inspection of a claim asked of an inspection company (migration 0024, docs/claims.md "Inspections"). */
export interface ClaimInspectionTable {
  tenant_id: number
  id: Generated<number>
  claim_id: number
  inspection_company_id: number
  /** The company's name when it was asked. */
  inspection_company_name: string
  reason_id: number
  status: ClaimInspectionStatusColumn
  /** The company's inspectionFee when it was asked; null: it posts none. */
  fee: Money | null
  note: string | null
  reject_reason_id: number | null
  /** The company's remark (why it rejected, what it reports). */
  company_note: string | null
  findings: string | null
  inspected_odometer: number | null
  inspected_on: DateColumn | null
  requested_at: Timestamp
  requested_by: string
  taken_at: Timestamp | null
  rejected_at: Timestamp | null
  completed_at: Timestamp | null
  cancelled_at: Timestamp | null
  updated_at: Timestamp
  updated_by: string
  version: Generated<number>
}
