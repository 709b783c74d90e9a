import { defineErrors } from '../../platform/http/errors.ts'

export const payoutErrors = defineErrors({
  payout_run_not_found: { status: 404, title: 'Payout run not found' },
  payout_run_invalid: { status: 422, title: 'The payout run cannot be made as asked' },
})
