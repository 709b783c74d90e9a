import { defineErrors } from '../../platform/http/errors.ts'

export const settingsErrors = defineErrors({
  setting_not_found: { status: 404, title: 'Setting not found' },
  invalid_setting_value: { status: 422, title: 'Invalid setting value' },
})

/** Refusal of an operator (CLI) request: the message is written for the person at the terminal. */
export class SettingsOperatorError extends Error {
  override name = 'SettingsOperatorError'
}
