// The contract routes' workload: deals prepared before the measurement, one per POST /api/contracts,
// each on its own quote. A deal is a real quote (GET /api/Rates/rateQuote/{dealerNumber}, narrowed to
// one of the dealer's programs so the reply stays small) and a body built from one of its rates, with
// a VIN of its own: the service refuses a second contract for the same dealer, VIN, plan and sale
// date within 10 minutes (409 duplicate_contract), so no two deals may share one.
import { validateVin } from '../../src/modules/rating/index.ts'
import { FIRST_NAMES, LAST_NAMES } from './seed.ts'

/** One prepared POST /api/contracts: its body, already serialized, and what it was made from. */
export type PreparedDeal = { body: string; dealerNumber: string; vin: string }

type CustomField = {
  key: string
  type: string
  required: boolean
  unique: boolean
  minLength?: number
  maxLength?: number
  pattern?: string
  min?: number
  max?: number
  options?: Array<{ value: string }>
}
type QuotedRate = { rateId: string; suggestedRetail: number }
type QuotedDeductible = { rate: QuotedRate; options: Array<{ optionId: number; code: string; required: boolean }> }
type QuoteReply = {
  quoteId: string
  products: Array<{
    programs: Array<{
      plans: Array<{ planCode: string; customFields: CustomField[]; terms: Array<{ deductibles: QuotedDeductible[] }> }>
    }>
  }>
}
type Program = { id: number; code: string; product: { id: number; code: string } }

/** The VIN with its check digit (position 9) set: the one candidate the rating module's own rule accepts. */
function withCheckDigit(vin: string): string {
  for (const digit of '0123456789X') {
    const candidate = `${vin.slice(0, 8)}${digit}${vin.slice(9)}`
    if (validateVin(candidate).length === 0) return candidate
  }
  throw new Error(`no check digit makes ${vin} a valid VIN`)
}

/** VIN serial numbers per base VIN (the last five positions). */
const SERIALS = 100_000

/**
 * The k-th VIN of the benchmark: one of the base VINs (vehicles the synthetic book classes) with the
 * last five positions replaced by a serial number and the check digit recomputed. Positions 1–12
 * (maker, model, year, plant) are the base's, so each decodes to the same vehicle; every k below
 * bases × 100,000 gives a different VIN.
 */
export function benchVin(bases: readonly string[], k: number): string {
  const base = bases[k % bases.length] as string
  const serial = Math.floor(k / bases.length)
  if (serial >= SERIALS) throw new RangeError(`at most ${bases.length * SERIALS} distinct VINs`)
  return withCheckDigit(`${base.slice(0, 12)}${String(serial).padStart(5, '0')}`)
}

/**
 * A value for each custom field the plan defines, as a dealer would enter it: unique fields get a
 * value no other deal has (`k`). A field the benchmark cannot fill safely (a required pattern, a
 * unique list) stops the run before anything is measured.
 */
export function customFieldValues(fields: readonly CustomField[], k: number): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  const cannot = (f: CustomField, why: string) =>
    new Error(`the benchmark cannot fill custom field ${f.key} (${f.type}): ${why}`)
  for (const f of fields) {
    switch (f.type) {
      case 'STRING': {
        if (f.pattern !== undefined) {
          if (f.required || f.unique) throw cannot(f, `pattern ${f.pattern}`)
          continue
        }
        let v = f.unique ? `B${k.toString(36).toUpperCase()}` : 'FM7'
        if (f.minLength !== undefined && v.length < f.minLength) v = v.padEnd(f.minLength, 'X')
        if (f.maxLength !== undefined && v.length > f.maxLength)
          throw cannot(f, `maxLength ${f.maxLength} is too short for ${v}`)
        values[f.key] = v
        break
      }
      case 'INTEGER':
      case 'DECIMAL':
      case 'MONEY': {
        const min = Math.ceil(f.min ?? 1)
        const v = f.unique ? min + k : min
        if (f.max !== undefined && v > f.max) throw cannot(f, `max ${f.max} leaves too few values`)
        values[f.key] = v
        break
      }
      case 'DATE':
        if (f.unique) throw cannot(f, 'unique dates')
        values[f.key] = '2026-01-15'
        break
      case 'BOOLEAN':
        if (f.unique) throw cannot(f, 'unique booleans')
        values[f.key] = true
        break
      case 'LIST': {
        const first = f.options?.[0]
        if (f.unique || first === undefined) throw cannot(f, f.unique ? 'unique list values' : 'no options')
        values[f.key] = first.value
        break
      }
      default:
        if (f.required || f.unique) throw cannot(f, 'unknown type')
    }
  }
  return values
}

const BANKS = ['First Bank of Austin', 'Lone Star Credit Union', 'Summit Auto Finance']

/** Letters only (a, b, …, z, ba, …): makes each buyer's name its own without digits in it. */
function letters(n: number): string {
  let s = ''
  do {
    s = String.fromCharCode(97 + (n % 26)) + s
    n = Math.floor(n / 26)
  } while (n > 0)
  return s
}

/** The body of deal `k` on `quote`: the k-th term and deductible of its one plan, a buyer of its own. */
export function dealBody(quote: QuoteReply, k: number, facts: { vin: string; odometer: number }): string {
  const plan = quote.products[0]?.programs[0]?.plans[0]
  const terms = plan?.terms ?? []
  const term = terms[k % Math.max(1, terms.length)]
  const deductible = term?.deductibles[Math.floor(k / Math.max(1, terms.length)) % Math.max(1, term.deductibles.length)]
  if (!plan || !deductible) throw new Error(`the quote for VIN ${facts.vin} offered no rate`)
  const roadside = deductible.options.find((o) => o.code === 'ROADSIDE' && !o.required)
  const first = FIRST_NAMES[k % FIRST_NAMES.length] as string
  const last = `${LAST_NAMES[Math.floor(k / FIRST_NAMES.length) % LAST_NAMES.length] as string}-${letters(k)}`
  return JSON.stringify({
    quoteId: quote.quoteId,
    rateId: deductible.rate.rateId,
    ...(roadside && k % 2 === 0 ? { selectedOptionIds: [roadside.optionId] } : {}),
    retailPrice: deductible.rate.suggestedRetail,
    saleOdometer: facts.odometer,
    vehicle: { vin: facts.vin, condition: 'USED' },
    customer: {
      firstName: first,
      lastName: last,
      emailAddress: `${first.toLowerCase()}.${last.toLowerCase()}@buyers.example`,
      phoneNumber: '+15125550101',
      address: { line1: `${100 + (k % 9000)} Elm Street`, city: 'Round Rock', state: 'TX', postalCode: '78664' },
    },
    ...(k % 2 === 1 ? { lienHolder: { name: BANKS[k % BANKS.length] as string } } : {}),
    dealNumber: `D-${k}`,
    customFields: customFieldValues(plan.customFields, k),
  })
}

/**
 * Prepares `count` deals through HTTP, `concurrency` quotes at a time. Deal k is quoted for dealer
 * k mod dealers, the next of that dealer's programs that prices anything, VIN benchVin(k) and an
 * odometer from 5,000 to 144,999 miles.
 */
export async function prepareDeals(options: {
  baseUrl: string
  headers: Record<string, string>
  dealerNumbers: readonly string[]
  /** Product codes each dealer may sell, aligned with dealerNumbers. */
  dealerProducts: ReadonlyArray<readonly string[]>
  vins: readonly string[]
  count: number
  concurrency?: number
}): Promise<PreparedDeal[]> {
  const { baseUrl, headers, dealerNumbers, dealerProducts } = options
  const res = await fetch(`${baseUrl}/api/Rates/Programs?limit=1000`, { headers })
  if (res.status !== 200)
    throw new Error(`GET /api/Rates/Programs answered ${res.status}: ${(await res.text()).slice(0, 300)}`)
  const programsOf = new Map<string, Program[]>()
  for (const p of (await res.json()) as Program[])
    programsOf.set(p.product.code, [...(programsOf.get(p.product.code) ?? []), p])

  const deals: PreparedDeal[] = []
  // Programs that priced nothing (a synthetic book cut short at --rates leaves the last products
  // without rates): later deals skip them rather than quote them again.
  const barren = new Set<number>()
  let next = 0
  const worker = async () => {
    for (let k = next++; k < options.count; k = next++) {
      const d = k % dealerNumbers.length
      const dealerNumber = dealerNumbers[d] as string
      const candidates = (dealerProducts[d] ?? []).flatMap((code) => programsOf.get(code) ?? [])
      if (candidates.length === 0)
        throw new Error(`dealer ${dealerNumber} has no product with a program in the rate book`)
      const vin = benchVin(options.vins, k)
      const odometer = 5000 + ((k * 7919) % 140_000)
      // Each round over the dealers takes the next of the dealer's programs.
      const first = Math.floor(k / dealerNumbers.length)
      let quote: QuoteReply | undefined
      for (let i = 0; i < candidates.length && !quote; i++) {
        const program = candidates[(first + i) % candidates.length] as Program
        if (barren.has(program.id) && i < candidates.length - 1) continue
        const url = `/api/Rates/rateQuote/${dealerNumber}?vin=${vin}&vehicleCondition=USED&odometer=${odometer}&productIds=${program.product.id}&programIds=${program.id}`
        const reply = await fetch(`${baseUrl}${url}`, { headers })
        const text = await reply.text()
        if (reply.status !== 200)
          throw new Error(`preparing deals: GET ${url} answered ${reply.status}: ${text.slice(0, 300)}`)
        const parsed = JSON.parse(text) as QuoteReply
        if (parsed.products.length > 0) quote = parsed
        else barren.add(program.id)
      }
      if (!quote)
        throw new Error(`preparing deals: no program of dealer ${dealerNumber} prices VIN ${vin} at ${odometer} miles`)
      deals[k] = { body: dealBody(quote, k, { vin, odometer }), dealerNumber, vin }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker))
  return deals
}

/**
 * Hands out each prepared deal once. Past the last one it hands out the last again (the server
 * answers 409, which the benchmark counts as an error) and says so: the run needs more deals.
 */
export function dealSource(deals: readonly PreparedDeal[]) {
  let used = 0
  return {
    next(): PreparedDeal {
      const deal = deals[Math.min(used, deals.length - 1)]
      used++
      if (!deal) throw new Error('no deals were prepared')
      return deal
    },
    get used() {
      return used
    },
    get exhausted() {
      return used > deals.length
    },
  }
}

/** The contract id in a 201's Location header (`/api/contracts/{id}`), if any. */
export function createdId(headers: Record<string, string | string[] | undefined>): number | undefined {
  const raw = headers.location ?? headers.Location
  const location = Array.isArray(raw) ? raw[0] : raw
  const m = location ? /^\/api\/contracts\/(\d+)$/.exec(location) : null
  return m ? Number(m[1]) : undefined
}
