// Error codes of account-holder disbursements. account_holder_not_found and unknown_reference mean
// here what they mean in parties and identity (same status and title).
import { defineErrors } from '../../../platform/http/errors.ts'

export const disbursementErrors = defineErrors({
  disbursement_not_found: { status: 404, title: 'Disbursement not found' },
  disbursement_audit_log_not_found: { status: 404, title: 'Disbursement audit-log entry not found' },
  disbursement_holder_kind_not_allowed: {
    status: 422,
    title: 'Disbursements cannot be attached to this kind of account holder',
  },
  account_holder_not_found: { status: 404, title: 'Account holder not found' },
  unknown_reference: { status: 422, title: 'Unknown referenced resource' },
})
