// Error codes of dealer rate visibility. account_holder_not_found and unknown_reference mean here
// what they mean in parties and identity (same status and title).
import { defineErrors } from '../../../platform/http/errors.ts'

export const visibilityErrors = defineErrors({
  account_holder_not_found: { status: 404, title: 'Account holder not found' },
  unknown_reference: { status: 422, title: 'Unknown referenced resource' },
})
