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
  CANCEL_FORMULAS,
  CANCEL_REQUESTERS,
  REFUND_PAYEES,
  GAP_ENDINGS,
  EARNINGS_METHODS,
  TIME_BASES,
  FEE_BASES,
  FEE_KEEPERS,
  REFUND_ISSUERS,
  LIABILITY_BASES,
  DEDUCTIBLE_APPLIES,
  BENEFIT_TYPES,
  type CancelFormula,
  type CancelRequester,
  type GapEnding,
  type EarningsMethod,
  type QuoteInput,
  type RateBookInput,
} from './ratebook.format.ts'
export {
  DEFAULT_CANCEL_METHODS,
  DEFAULT_CANCEL_REASONS,
  type CancelMethodTerms,
  type CancelReasonTerms,
} from './ratebook.defaults.ts'
export {
  cancellationTermsFor,
  resolveSaleTerms,
  type CancelFeeDecision,
  type CancelFeeTerms,
  type CancellationDecision,
  type CancellationRuleTerms,
  type CancelRequest,
  type BenefitTerms,
  type ClaimTerms,
  type EarningsCurveTerms,
  type TermSource,
  type LineEarningsTerms,
  type ProductCancellationTerms,
  type SaleTerms,
  type SaleTermsFallback,
  type SaleTermsInput,
  type StateRuleTerms,
  type TransferTerms,
} from './ratebook.terms.ts'
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
export { catalogueKinds, findCatalogueItem, type CatalogueItemRow } from './ratebook.repository.ts'
export { createRateBookStore, type RateBookStore } from './ratebook.store.ts'
export { createRateBookService, RateBookRefused, type ImportResult, type RateBookService } from './ratebook.service.ts'
export { rateBookRoutes } from './ratebook.routes.ts'
export { demoRateBook } from './demo-ratebook.ts'
