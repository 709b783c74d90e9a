import { defineErrors } from '../../platform/http/errors.ts'

export const cancellationErrors = defineErrors({
  cancel_request_invalid: { status: 422, title: 'The cancel request cannot be taken as submitted' },
  cancel_request_not_found: { status: 404, title: 'Cancel request not found' },
  cancel_not_found: { status: 404, title: 'Cancel not found' },
  cancel_request_state_conflict: {
    status: 409,
    title: 'The cancel request is not in a status that allows this action',
  },
  cancel_not_allowed: { status: 409, title: 'The contract cannot be cancelled in its status' },
  claims_open: { status: 409, title: 'The contract has open claims' },
  contract_already_cancelled: { status: 409, title: 'The contract already has a processed cancel' },
  cancel_already_reversed: { status: 409, title: 'The cancel is already reversed' },
  cancel_refund_paid: { status: 409, title: 'A payment of the cancel was already paid' },
  gap_cancel_not_due: { status: 409, title: 'The contract is not a GAP contract due for cancellation' },
})
