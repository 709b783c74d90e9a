import { defineErrors } from '../../platform/http/errors.ts'

export const identityErrors = defineErrors({
  user_not_found: { status: 404, title: 'User not found' },
  membership_role_not_found: { status: 404, title: 'Membership role not found' },
  membership_group_not_found: { status: 404, title: 'Membership group not found' },
  email_address_taken: { status: 409, title: 'Email address already used' },
  external_identity_taken: { status: 409, title: 'External identity already used' },
  unknown_reference: { status: 422, title: 'Unknown referenced resource' },
  permission_escalation: { status: 403, title: 'Cannot grant permissions you do not hold' },
  invalid_grant: { status: 400, title: 'Invalid grant' },
  unsupported_grant_type: { status: 400, title: 'Unsupported grant type' },
})
