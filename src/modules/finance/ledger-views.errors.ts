import { defineErrors } from '../../platform/http/errors.ts'

export const ledgerViewErrors = defineErrors({
  account_holder_not_found: { status: 404, title: 'Account holder not found' },
})
