import { defineErrors } from '../../platform/http/errors.ts'

export const disbursementAccountErrors = defineErrors({
  disbursement_account_not_found: { status: 404, title: 'Disbursement account not found' },
})
