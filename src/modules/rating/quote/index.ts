// The rate quote (docs/rate-quote.md): the offer walk over a compiled rate book, the reply writer,
// signed quote ids and their keys, the replay, and the rates contracts are written from.
export { createQuoteKeys } from './quote-key.ts'
export {
  createQuoteService,
  type BucketPayee,
  type QuotedLine,
  type QuotedRate,
  type QuoteService,
  type Exclusion,
  type RerateFacts,
  type RerateOutcome,
  type RerateRequest,
} from './quote.service.ts'
export { quoteRoutes } from './quote.routes.ts'
export type { RateQuote } from './quote.schemas.ts'
