import { defineErrors } from '../../platform/http/errors.ts'

export const statementErrors = defineErrors({
  // The same code and title as the parties module's: an unknown or invisible holder reads alike everywhere.
  account_holder_not_found: { status: 404, title: 'Account holder not found' },
  statement_request_not_found: { status: 404, title: 'Statement request not found' },
  statement_request_invalid: { status: 422, title: 'The statement request cannot be taken as submitted' },
})
