// Rating: rate books and their catalogue, dealer rate visibility, account-holder disbursements, VIN
// decoding, the criteria language and the rate quote, each in a sub-folder with an index.ts of its
// own (docs/architecture.md, "The rating module"). Other code reaches this module only through
// what is exported here.
import type { FastifyInstance } from 'fastify'
import type { InvalidationBus } from '../../platform/cache.ts'
import { localDate, type Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { SecretBox } from '../../platform/secrets.ts'
import type { DealerDirectory } from '../parties/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { cancelCatalogueRoutes, catalogueRoutes } from './catalogue/index.ts'
import { createCriteriaCache, criteriaRoutes } from './criteria/index.ts'
import { seedDemoRating } from './demo.ts'
import { createDisbursementService, disbursementRoutes } from './disbursements/index.ts'
import { createQuoteKeys, createQuoteService, quoteRoutes } from './quote/index.ts'
import {
  createRateBookService,
  createRateBookStore,
  findCatalogueItem,
  rateBookRoutes,
  resolveSaleTerms,
  type SaleTerms,
  type SaleTermsInput,
} from './ratebook/index.ts'
import { createVinDecoder } from './vin/index.ts'
import { createRateVisibilityService, rateVisibilityRoutes } from './visibility/index.ts'

export {
  compileCriteria,
  createCriteriaCache,
  CriteriaEvaluationError,
  CriteriaSyntaxError,
  parseCriteria,
  type CompiledCriteria,
  type Facts,
} from './criteria/index.ts'
export {
  createVinDecoder,
  decodeVin,
  InvalidVinError,
  validateVin,
  type DecodedVin,
  type ModelYearBasis,
  type VehicleDecodedVin,
  type VinDataSource,
  type VinDecoder,
  type VinDecoderOptions,
  type VinDecoderStats,
  type VinProblem,
  type VinVehicle,
} from './vin/index.ts'
export {
  demoRateBook,
  PRODUCT_TYPES,
  RateBookRefused,
  type CustomFieldDefinition,
  type ImportResult,
  type RateBookProblem,
  type RateBookService,
} from './ratebook/index.ts'
// The terms a contract is sold under (docs/rate-books.md, "After the sale"): the snapshot kept at the
// sale, resolved from the contract's own rate-book version, and the terms of one cancel read from it.
export {
  CANCEL_FORMULAS,
  CANCEL_REQUESTERS,
  cancellationTermsFor,
  DEFAULT_CANCEL_METHODS,
  DEFAULT_CANCEL_REASONS,
  EARNINGS_METHODS,
  GAP_ENDINGS,
  REFUND_PAYEES,
  TIME_BASES,
  FEE_BASES,
  FEE_KEEPERS,
  REFUND_ISSUERS,
  LIABILITY_BASES,
  DEDUCTIBLE_APPLIES,
  BENEFIT_TYPES,
  resolveSaleTerms,
  type CancelFeeDecision,
  type CancelFeeTerms,
  type CancelFormula,
  type CancellationDecision,
  type CancellationRuleTerms,
  type CancelMethodTerms,
  type CancelReasonTerms,
  type CancelRequest,
  type CancelRequester,
  type GapEnding,
  type BenefitTerms,
  type ClaimTerms,
  type EarningsCurveTerms,
  type TermSource,
  type CompiledRateBook,
  type EarningsMethod,
  type LineEarningsTerms,
  type ProductCancellationTerms,
  type SaleTerms,
  type SaleTermsFallback,
  type SaleTermsInput,
  type StateRuleTerms,
  type TransferTerms,
} from './ratebook/index.ts'
export type { BucketPayee, QuotedLine, QuotedRate, QuoteService, RateQuote } from './quote/index.ts'
// A sold contract's rate priced again at its own version and sale date (quotes.reratedRate; docs/contracts.md "Rerating").
export type { Exclusion, RerateFacts, RerateOutcome, RerateRequest } from './quote/index.ts'
export {
  ruleApplies,
  type AppliedDisbursementRule,
  type DisbursementService,
  type QuoteHolders,
  type SaleScope,
} from './disbursements/index.ts'
export { visibleEntry, type RateVisibilityService, type VisibilityEntry } from './visibility/index.ts'

export type RatingDeps = {
  db: Database
  clock: Clock
  bus: InvalidationBus
  /** Seals the tenants' quote-signing secrets. */
  secrets: SecretBox
  /** Account-holder look-ups from parties (dealers, agents, groups). */
  directory: DealerDirectory
  settings: SettingsService
}

export function createRatingModule(deps: RatingDeps) {
  const cache = createCriteriaCache(1000)
  const store = createRateBookStore(deps)
  /** Today in the tenant's time zone (the timeZone setting): sale dates and versions in force are reckoned in it. */
  const today = async (tenantId: number) => localDate(deps.clock.now(), await deps.settings.get(tenantId, 'timeZone'))
  const rateBooks = createRateBookService({ ...deps, store, today })
  // Disbursement codes are those of the rate book in force today.
  const codes = {
    disbursementCodes: async (tenantId: number) => [
      ...((await store.inForce(tenantId, await today(tenantId)))?.disbursementCodes.values() ?? []),
    ],
  }
  const disbursements = createDisbursementService({ ...deps, codes })
  const rateVisibility = createRateVisibilityService(deps)
  const vin = createVinDecoder()
  const quoteKeys = createQuoteKeys(deps)
  const quotes = createQuoteService({
    ...deps,
    store,
    vin,
    disbursements,
    visibility: rateVisibility,
    today,
    quoteKey: quoteKeys.secret,
  })
  return {
    quotes,
    /**
     * The terms snapshot of a contract priced over rate-book version `bookId` (ratebook.terms.ts,
     * docs/rate-books.md "After the sale"); undefined when the tenant has no such version.
     */
    async saleTerms(tenantId: number, bookId: number, input: SaleTermsInput): Promise<SaleTerms | undefined> {
      const book = await store.byId(tenantId, bookId)
      return book === undefined ? undefined : resolveSaleTerms(book, input)
    },
    /** Work done when a tenant is created: its quote-signing key. */
    initializeTenant: quoteKeys.initializeTenant,
    /** The sealed quote-signing keys, for identity's sealing passes (start-up, rotation). */
    tenantSecrets: quoteKeys.tenantSecrets,
    /** Sets the demo tenant up for quoting: the demo book, visibility for every dealer, a few disbursements. */
    seedDemo: (
      tenantId: number,
      dealers: ReadonlyArray<{ id: number; dealerNumber: string; agentIds: readonly number[] }>,
    ) => seedDemoRating({ rateBooks, store, visibility: rateVisibility, disbursements }, tenantId, dealers),
    /** Loads what the first quote would otherwise wait for (the VIN data). */
    warmUp: () => vin.load(),
    rateBooks,
    store,
    disbursements,
    rateVisibility,
    async routes(app: FastifyInstance) {
      await app.register(criteriaRoutes, { cache })
      await app.register(rateBookRoutes, { service: rateBooks, today })
      await app.register(disbursementRoutes, { service: disbursements })
      await app.register(rateVisibilityRoutes, { service: rateVisibility })
      await app.register(quoteRoutes, { service: quotes, today })
      await app.register(catalogueRoutes, { store, today, bookOfQuote: quotes.quoteBook })
      await app.register(cancelCatalogueRoutes, {
        store,
        today,
        catalogueItem: (tenantId, by) => deps.db.read(tenantId, (x) => findCatalogueItem(x, tenantId, by)),
      })
    },
  }
}
