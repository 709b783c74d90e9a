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
  status: ClaimJobStatusColumn
  deniedReasonId: number | null
  parts: Array<{
    partNumber: string
    description: string
    quantity: string
    requestedUnitCents: number
    authorizedUnitCents: number | null
    taxable: boolean
  }>
  labor: Array<{
    operationCode: string | null
    hours: string
    rateCents: number
    requestedCents: number | null
    authorizedCents: number | null
  }>
  sublet: Array<{ description: string; requestedCents: number; authorizedCents: number | null }>
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
  benefits: Json<unknown[]>
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
  payee_type: 'REPAIR_FACILITY' | 'CONTRACT_HOLDER' | 'OTHER' | null
  payee_account_holder_id: number | null
  adjuster_user_id: number | null
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

export type ClaimTables = {
  claim_lookup: ClaimLookupTable
  claim_lookup_combination: ClaimLookupCombinationTable
  claim_number_counter: ClaimNumberCounterTable
  claim: ClaimTable
  claim_note: ClaimNoteTable
}
