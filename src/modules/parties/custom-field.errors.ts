// Error codes of custom fields and their per-tenant definitions (docs/custom-fields.md). A parent
// account holder that is missing, of another kind or invisible answers `account_holder_not_found`.
import { defineErrors } from '../../platform/http/errors.ts'

export const customFieldErrors = defineErrors({
  custom_field_not_found: { status: 404, title: 'Custom field not found' },
  custom_field_definition_not_found: { status: 404, title: 'Custom field definition not found' },
  custom_field_name_taken: { status: 409, title: 'Custom field name already used' },
  custom_field_definition_name_taken: { status: 409, title: 'Custom field definition name already used' },
  custom_field_required: { status: 409, title: 'Custom field is required' },
  custom_field_definition_conflict: { status: 409, title: 'Existing custom fields contradict the definition' },
  invalid_custom_field_value: { status: 422, title: 'Invalid custom field value' },
  invalid_custom_field_definition: { status: 422, title: 'Invalid custom field definition' },
})
