// Error codes of the rate quote, its replay, and the rates a contract is written from.
import { defineErrors } from '../../../platform/http/errors.ts'

export const quoteErrors = defineErrors({
  dealer_not_found: { status: 404, title: 'Dealer not found' },
  quote_dates_invalid: { status: 422, title: 'The quote dates are not acceptable' },
  quote_not_found: { status: 404, title: 'Quote not found' },
  quote_unknown: { status: 422, title: 'The quote is unknown' },
  quote_expired: { status: 422, title: 'The quote has expired' },
  quote_outdated: { status: 422, title: 'The quote is out of date' },
  rate_not_in_quote: { status: 422, title: 'The rate or option is not offered by the quote' },
  rate_not_available: { status: 422, title: 'The rate can no longer be sold' },
})
