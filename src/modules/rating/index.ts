// Rating: the criteria language (eligibility and surcharge rules) and its evaluation route. Other
// code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import { createCriteriaCache } from './criteria.evaluator.ts'
import { criteriaRoutes } from './criteria.routes.ts'
import { rateBookRoutes } from './ratebook.routes.ts'
import { createQuoteKeys } from './quote-key.ts'
import { quoteRoutes } from './quote.routes.ts'
import { catalogueRoutes } from './catalogue.routes.ts'
import { seedDemoRating } from './demo.ts'
import { createVinDecoder } from './vin.decoder.ts'
import { createQuoteService } from './quote.service.ts'
import { createRateBookService } from './ratebook.service.ts'
import { createRateBookStore } from './ratebook.store.ts'
import { disbursementRoutes } from './disbursement.routes.ts'
import { createDisbursementService } from './disbursement.service.ts'
import { rateVisibilityRoutes } from './rate-visibility.routes.ts'
import { createRateVisibilityService } from './rate-visibility.service.ts'
import type { InvalidationBus } from '../../platform/cache.ts'
import { localDate, type Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { SecretBox } from '../../platform/secrets.ts'
import type { DealerDirectory } from '../parties/index.ts'
import type { SettingsService } from '../settings/index.ts'

export {
  compileCriteria,
  createCriteriaCache,
  CriteriaEvaluationError,
  type CompiledCriteria,
  type Facts,
} from './criteria.evaluator.ts'
export { CriteriaSyntaxError, parseCriteria } from './criteria.parser.ts'
export { validateVin, decodeVin, type DecodedVin, type VinProblem } from './vin.rules.ts'
export { InvalidVinError, type ModelYearBasis } from './vin.rules.ts'
export {
  createVinDecoder,
  type VehicleDecodedVin,
  type VinDecoder,
  type VinDecoderOptions,
  type VinDecoderStats,
  type VinVehicle,
} from './vin.decoder.ts'
export type { VinDataSource } from './vin.data.ts'

export { demoRateBook } from './demo-ratebook.ts'
export type { BucketPayee, QuotedLine, QuotedRate, QuoteService } from './quote.service.ts'
export type { CustomFieldDefinition } from './ratebook.index.ts'
export { RateBookRefused, type ImportResult, type RateBookService } from './ratebook.service.ts'
export type { RateBookProblem } from './ratebook.rules.ts'
export { ruleApplies, type SaleScope } from './disbursement.rules.ts'
export type { AppliedDisbursementRule, DisbursementService, QuoteHolders } from './disbursement.service.ts'
export { visibleEntry } from './rate-visibility.rules.ts'
export type { RateVisibilityService, VisibilityEntry } from './rate-visibility.service.ts'

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
    },
  }
}
