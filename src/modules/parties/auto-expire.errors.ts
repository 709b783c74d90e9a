import { defineErrors } from '../../platform/http/errors.ts'

export const autoExpireErrors = defineErrors({
  auto_expire_rule_invalid: { status: 422, title: 'The auto-expire rule cannot be applied' },
})
