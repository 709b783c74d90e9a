// Kysely table types of the cancellation tables (migration 0017, docs/cancellations.md).
import type { ColumnType, Generated } from 'kysely'
import type { Json, JsonValue } from './schema.ts'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type DateColumn = ColumnType<string, string, string>
type Money = ColumnType<string, string, string>

export type CancelRequestStatus =
  'REQUESTED' | 'PENDING_DOCUMENTS' | 'APPROVED' | 'REJECTED' | 'WITHDRAWN' | 'PROCESSED'
export type CancelPayeeType = 'CUSTOMER' | 'LIENHOLDER' | 'DEALER' | 'PAYEE'
export type CancelPaymentKind = 'REFUND' | 'CHARGEBACK' | 'RECOVERY'
export type CancelPaymentStatus = 'PENDING' | 'PAID' | 'VOID'

export interface CancelNumberCounterTable {
  tenant_id: number
  last_value: ColumnType<number, number, number>
}

/** A reason's `endsGap` (rating: GAP_ENDINGS). */
export type GapEndingColumn = 'PAYOFF' | 'REFINANCE' | 'SALE' | 'REPOSSESSION' | 'TOTAL_LOSS'

export interface CancelRequestTable {
  tenant_id: number
  id: Generated<number>
  contract_id: number
  request_number: string
  status: CancelRequestStatus
  cancel_date: DateColumn
  cancel_odometer: number | null
  reason_id: number
  reason_code: string
  method_override_id: number | null
  requested_by: string
  refund_payee: string
  payoff_date: DateColumn | null
  notes: string | null
  documents: Json<Array<{ documentId: number; type: string | null }>>
  include_open_claims: boolean
  /** What of a GAP contract the request's reason ends (migration 0019); null: not a GAP ending. */
  ends_gap: GapEndingColumn | null
  /** The quote as answered when the request was stored (the reply's calculation, funding, payments, rules). */
  quote: ColumnType<JsonValue, string, string>
  created_at: Timestamp
  created_by: string
  created_by_user_id: number | null
  decided_at: Timestamp | null
  decided_by: string | null
  decision_note: string | null
  updated_at: Timestamp
  version: Generated<number>
}

export interface CancelTable {
  tenant_id: number
  id: Generated<number>
  contract_id: number
  request_id: number | null
  cancel_number: string
  cancel_date: DateColumn
  cancel_odometer: number | null
  reason_id: number
  reason_code: string
  method_id: number
  method_code: string
  calculation: ColumnType<JsonValue, string, string>
  journal_entry_id: number | null
  processed_at: Timestamp
  processed_by: string
  processed_by_user_id: number | null
  reversed_at: Timestamp | null
  reversed_by: string | null
  reversal_reason: string | null
  reversal_entry_id: number | null
}

export interface CancelPaymentTable {
  tenant_id: number
  id: Generated<number>
  cancel_id: number
  contract_id: number
  payee_type: CancelPayeeType
  account_holder_id: number
  kind: CancelPaymentKind
  amount: Money
  status: CancelPaymentStatus
  due_date: DateColumn | null
  created_at: Timestamp
  updated_at: Timestamp
}

export type CancellationTables = {
  cancel_number_counter: CancelNumberCounterTable
  cancel_request: CancelRequestTable
  cancel: CancelTable
  cancel_payment: CancelPaymentTable
}
