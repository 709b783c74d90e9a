// Error codes of the rating catalogue. rate_book_not_found means what it means for rate books.
import { defineErrors } from '../../../platform/http/errors.ts'

export const catalogueErrors = defineErrors({
  rate_book_not_found: { status: 404, title: 'Rate book version not found' },
  catalogue_item_not_found: { status: 404, title: 'Catalogue item not found' },
})
