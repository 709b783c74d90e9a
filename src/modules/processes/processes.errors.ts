import { defineErrors } from '../../platform/http/errors.ts'

export const processErrors = defineErrors({
  process_run_not_found: { status: 404, title: 'Automatic process run not found' },
  process_run_invalid: { status: 422, title: 'The automatic process run cannot be started as submitted' },
  process_run_finished: { status: 409, title: 'The automatic process run is already finished' },
})
