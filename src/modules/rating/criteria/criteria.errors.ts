// Error codes of the criteria language's evaluation route.
import { defineErrors } from '../../../platform/http/errors.ts'

export const criteriaErrors = defineErrors({
  invalid_criteria: { status: 422, title: 'The criteria are not valid' },
  criteria_evaluation_failed: { status: 422, title: 'The criteria cannot be evaluated with these facts' },
})
