// The id of a rate in a quote, `r.<planId>.<termId>.<deductibleId>.<rate index>`: with the quote's
// rate-book version it names one rate forever (the index is the rate's position in the book). Built
// by the quote writer, read back by quotedRate and the catalogue's custom-field route; this file is
// the only one that knows the format.

/** What a rate id names. */
export type RateRef = { planId: number; termId: number; deductibleId: number; rateIndex: number }

/** The format, for schemas; catalogue ids have at most 15 digits and a rate index at most 9. */
export const RATE_ID_PATTERN = '^r\\.\\d{1,15}\\.\\d{1,15}\\.\\d{1,15}\\.\\d{1,9}$'
const RATE_ID = new RegExp(RATE_ID_PATTERN)

export function formatRateId(ref: RateRef): string {
  return `r.${ref.planId}.${ref.termId}.${ref.deductibleId}.${ref.rateIndex}`
}

/** The parts of a rate id; undefined for any other text. */
export function parseRateId(text: string): RateRef | undefined {
  if (!RATE_ID.test(text)) return undefined
  const [, planId, termId, deductibleId, rateIndex] = text.split('.').map(Number) as [number, ...number[]]
  return { planId: planId!, termId: termId!, deductibleId: deductibleId!, rateIndex: rateIndex! }
}
