import { defineErrors } from '../../platform/http/errors.ts'

// Risk-bearer reporting (docs/reporting.md). A treaty that would overlap another for the same dealer
// (or group) and product (or program) is refused as input (422, naming the other treaty), as is a
// share outside 0–100 % or an unknown reference; a treaty that ceded contracts cannot be deleted (409).
export const reportingErrors = defineErrors({
  reinsurance_treaty_not_found: { status: 404, title: 'Reinsurance treaty not found' },
  reinsurance_treaty_invalid: { status: 422, title: 'The reinsurance treaty cannot be taken as submitted' },
  reinsurance_treaty_overlap: {
    status: 422,
    title: 'Another treaty covers the same dealer and product on some of these dates',
  },
  reinsurance_treaty_in_use: { status: 409, title: 'Contracts were ceded by this treaty' },
  risk_bearer_not_found: { status: 404, title: 'Risk bearer not found' },
  report_period_invalid: { status: 422, title: 'The report period cannot be reported' },
  report_run_not_found: { status: 404, title: 'Report run not found' },
  report_run_invalid: { status: 422, title: 'The report run cannot be started as submitted' },
  report_document_not_found: { status: 404, title: 'The report run has no such document' },
})
