import { defineErrors } from '../../platform/http/errors.ts'

export const partiesErrors = defineErrors({
  account_holder_not_found: { status: 404, title: 'Account holder not found' },
  business_key_taken: { status: 409, title: 'Business key already used' },
  unknown_reference: { status: 422, title: 'Unknown referenced resource' },
})
