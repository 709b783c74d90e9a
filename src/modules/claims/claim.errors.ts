import { defineErrors } from '../../platform/http/errors.ts'

export const claimErrors = defineErrors({
  claim_invalid: { status: 422, title: 'The claim cannot be taken as submitted' },
  claim_not_found: { status: 404, title: 'Claim not found' },
  claim_state_conflict: { status: 409, title: 'The claim is not in a status that allows this' },
  claim_locked: { status: 423, title: "Another user holds the claim's edit lock" },
  claim_note_not_found: { status: 404, title: 'Claim note not found' },
  claim_note_invalid: { status: 422, title: 'The note cannot be added as submitted' },
})
