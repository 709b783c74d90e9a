import { defineErrors } from '../../platform/http/errors.ts'

export const contractErrors = defineErrors({
  contract_not_found: { status: 404, title: 'Contract not found' },
  contract_invalid: { status: 422, title: 'The contract cannot be written as submitted' },
  duplicate_contract: { status: 409, title: 'The same contract was submitted moments ago' },
  custom_field_value_taken: { status: 409, title: 'A unique custom-field value is already used by another contract' },
  contract_state_conflict: { status: 409, title: 'The contract is not in a state that allows this' },
  contract_on_hold: { status: 409, title: 'The contract has unresolved holds' },
  contract_not_effective: { status: 409, title: 'The contract is not yet in effect' },
  contract_not_expired: { status: 409, title: 'The contract has not run out' },
  contract_not_voidable: {
    status: 409,
    title: 'The pending contract is not old enough to be voided automatically',
  },
  contract_cancel_after_expiration: {
    status: 409,
    title: 'An expired contract can be cancelled only as of a date on or before its expiration date',
  },
  contract_locked: { status: 423, title: "Another user holds the contract's edit lock" },
  hold_not_found: { status: 404, title: 'Hold not found' },
  hold_already_resolved: { status: 409, title: 'The hold is already resolved' },
  transfer_not_allowed: { status: 422, title: "The product's terms do not allow this transfer" },
  transfer_window_closed: { status: 422, title: 'The transfer was asked for too long after the sale to the new owner' },
  transfer_invalid: { status: 422, title: 'The transfer cannot be requested as submitted' },
  transfer_pending: { status: 409, title: 'The contract already has a transfer request awaiting a decision' },
  transfer_not_found: { status: 404, title: 'Transfer request not found' },
  transfer_already_decided: { status: 409, title: 'The transfer request is already approved or rejected' },
  rerate_ineligible: { status: 422, title: "The contract's rate is not offered for the corrected facts" },
})
