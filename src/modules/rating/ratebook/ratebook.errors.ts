// Error codes of rate books. rate_book_not_found is the catalogue's too (same status and title).
import { defineErrors } from '../../../platform/http/errors.ts'

export const rateBookErrors = defineErrors({
  invalid_rate_book: { status: 422, title: 'The rate book is not valid' },
  rate_book_not_found: { status: 404, title: 'Rate book version not found' },
})
