import { defineErrors } from '../../platform/http/errors.ts'

export const portalVisibilityErrors = defineErrors({
  portal_visibility_group_not_found: { status: 404, title: 'Portal visibility group not found' },
  portal_visibility_group_code_taken: { status: 409, title: 'Portal visibility group code already used' },
  portal_visibility_group_in_use: { status: 409, title: 'Portal visibility group still has users' },
  portal_visibility_bulk_update_invalid: { status: 422, title: 'Bulk update of portal visibility groups refused' },
  // Same meaning as identity's and parties' unknown_reference (defineErrors accepts the repeat).
  unknown_reference: { status: 422, title: 'Unknown referenced resource' },
})
