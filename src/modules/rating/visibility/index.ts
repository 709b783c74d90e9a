// Dealer rate visibility (docs/rate-visibility.md): which products, programs and plans a dealer may
// sell, with markup limits; the rate quote reads it through forQuote.
export { visibleEntry } from './visibility.rules.ts'
export { createRateVisibilityService, type RateVisibilityService, type VisibilityEntry } from './visibility.service.ts'
export { rateVisibilityRoutes } from './visibility.routes.ts'
