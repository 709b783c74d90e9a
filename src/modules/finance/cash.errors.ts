import { defineErrors } from '../../platform/http/errors.ts'

export const cashErrors = defineErrors({
  cash_transaction_not_found: { status: 404, title: 'Cash transaction not found' },
  in_process_cash_not_found: { status: 404, title: 'In-process cash transaction not found' },
  cash_invalid: { status: 422, title: 'The cash transaction cannot be taken as submitted' },
  cash_already_processed: { status: 409, title: 'The in-process cash transaction is already processed' },
  cash_already_returned: { status: 409, title: 'The cash transaction is already returned' },
})
