import { defineErrors } from '../../platform/http/errors.ts'

export const ratingErrors = defineErrors({
  invalid_criteria: { status: 422, title: 'The criteria are not valid' },
  criteria_evaluation_failed: { status: 422, title: 'The criteria cannot be evaluated with these facts' },
  invalid_rate_book: { status: 422, title: 'The rate book is not valid' },
  rate_book_not_found: { status: 404, title: 'Rate book version not found' },
  catalogue_item_not_found: { status: 404, title: 'Catalogue item not found' },
  dealer_not_found: { status: 404, title: 'Dealer not found' },
  quote_dates_invalid: { status: 422, title: 'The quote dates are not acceptable' },
  quote_not_found: { status: 404, title: 'Quote not found' },
  quote_unknown: { status: 422, title: 'The quote is unknown' },
  quote_expired: { status: 422, title: 'The quote has expired' },
  quote_outdated: { status: 422, title: 'The quote is out of date' },
  rate_not_in_quote: { status: 422, title: 'The rate or option is not offered by the quote' },
  rate_not_available: { status: 422, title: 'The rate can no longer be sold' },
})
