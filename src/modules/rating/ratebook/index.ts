// Rate books (docs/rate-books.md): the file format, its checks, the compiled book quotes and the
// catalogue read, the store of versions in force, import and export, the routes, the demo book. The
// rest of rating reaches them only through this file.
export {
  ASSET_TYPES,
  CUSTOM_FIELD_TYPES,
  DEDUCTIBLE_TYPES,
  DISBURSEMENT_GROUPS,
  FINANCE_TYPES,
  MILES_BASES,
  PRODUCT_TYPES,
  QUOTE_INPUTS,
  VEHICLE_CONDITIONS,
  type QuoteInput,
  type RateBookInput,
} from './ratebook.format.ts'
export { catalogueItemsOf, checkRateBook, type RateBook, type RateBookProblem } from './ratebook.rules.ts'
export {
  catalogueKey,
  compileRateBook,
  type Bucket,
  type CompiledRateBook,
  type CustomFieldDefinition,
  type IndexedDeductible,
  type IndexedFactorTable,
  type IndexedOption,
  type IndexedPlan,
  type IndexedProduct,
  type IndexedProgram,
  type IndexedRate,
  type IndexedTerm,
  type TermCell,
} from './ratebook.compiled.ts'
export { formatRateId, parseRateId, RATE_ID_PATTERN, type RateRef } from './rate-id.ts'
export { catalogueKinds } from './ratebook.repository.ts'
export { createRateBookStore, type RateBookStore } from './ratebook.store.ts'
export { createRateBookService, RateBookRefused, type ImportResult, type RateBookService } from './ratebook.service.ts'
export { rateBookRoutes } from './ratebook.routes.ts'
export { demoRateBook } from './demo-ratebook.ts'
