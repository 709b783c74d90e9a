// Kysely table types of payment methods (migration 0028, docs/payment-methods.md). Kept in step with the migration.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface AvailablePaymentMethodTable {
  tenant_id: number
  id: Generated<number>
  /** null: the tenant's own rule. */
  account_holder_id: number | null
  direction: 'PAY' | 'RECEIVE'
  payment_method: 'CHECK' | 'ACH' | 'WIRE'
  disbursement_account_id: number | null
  is_default: boolean
  created_at: Timestamp
  created_by: string
}

export type PaymentMethodTables = {
  available_payment_method: AvailablePaymentMethodTable
}
