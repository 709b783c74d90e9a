// Kysely table types of the cash tables (migration 0026, docs/cash.md). Kept in step with the migration.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
/** numeric, read and written as a decimal string. */
type Money = ColumnType<string, string, string>

export type CashPaymentMethodColumn = 'CHECK' | 'ACH' | 'WIRE'
/** An application to make when processed, in cents (in_process_cash_transaction.applications). */
export type StoredCashApplication = { contractId: number; amountCents: number }

export interface CashTransactionTable {
  tenant_id: number
  id: Generated<number>
  payer_id: number
  payment_method: CashPaymentMethodColumn
  amount: Money
  applied_amount: ColumnType<string, string | undefined, string>
  reference: string
  received_date: string
  accounting_date: string
  memo: string | null
  status: 'POSTED' | 'RETURNED'
  return_reason: string | null
  returned_at: Timestamp | null
  received_entry_id: number | null
  created_at: Timestamp
  created_by: string
  updated_at: Timestamp
  version: Generated<number>
}

export interface InProcessCashTransactionTable {
  tenant_id: number
  id: Generated<number>
  payer_id: number
  payment_method: CashPaymentMethodColumn
  amount: Money
  reference: string
  received_date: string
  memo: string | null
  applications: ColumnType<StoredCashApplication[] | null, string | null, string | null>
  status: 'PENDING' | 'PROCESSED'
  cash_transaction_id: number | null
  created_at: Timestamp
  created_by: string
  updated_at: Timestamp
}

export interface CashApplicationTable {
  tenant_id: number
  id: Generated<number>
  cash_transaction_id: number
  contract_id: number
  amount: Money
  journal_entry_id: number
  applied_at: Timestamp
  applied_by: string
  reversed_at: Timestamp | null
}

export type CashTables = {
  cash_transaction: CashTransactionTable
  in_process_cash_transaction: InProcessCashTransactionTable
  cash_application: CashApplicationTable
}
