import { defineErrors } from '../../platform/http/errors.ts'

// The state machine's refusals (claim.rules.ts `transition`) keep their codes: a conflict with the
// claim's state is a 409, input the rule cannot take (a payment of 0, above what is left, a denial
// without a reason, an authorization with nothing authorized) a 422.
export const claimErrors = defineErrors({
  claim_invalid: { status: 422, title: 'The claim cannot be taken as submitted' },
  claim_not_found: { status: 404, title: 'Claim not found' },
  claim_state_conflict: { status: 409, title: 'The claim is not in a status that allows this' },
  claim_locked: { status: 423, title: "Another user holds the claim's edit lock" },
  claim_note_not_found: { status: 404, title: 'Claim note not found' },
  claim_note_invalid: { status: 422, title: 'The note cannot be added as submitted' },
  claim_on_hold: { status: 409, title: 'The claim has open holds' },
  claim_not_on_hold: { status: 409, title: 'The claim has no open hold' },
  claim_nothing_authorized: { status: 422, title: 'Nothing on the claim is authorized' },
  claim_authorization_missing: { status: 409, title: 'The claim has no authorization' },
  claim_authorization_expired: { status: 409, title: "The claim's authorization has expired" },
  claim_nothing_payable: { status: 409, title: 'Nothing is payable on the claim' },
  claim_payment_not_positive: { status: 422, title: 'A payment must be more than 0' },
  claim_payment_above_payable: { status: 422, title: 'The payment is more than is left to pay' },
  claim_denied_reason_required: { status: 422, title: 'A denial needs a denied reason' },
  claim_has_payments: { status: 409, title: 'Money was paid on the claim' },
  claim_payment_request_not_found: { status: 404, title: 'Claim payment request not found' },
  claim_payment_invalid: { status: 422, title: 'The payment request or payment cannot be taken as submitted' },
})
