// The rate quote (docs/rate-quote.md): dealer, visibility and disbursements from caches, the rate
// book in force on the sale date compiled in memory, the vehicle from the VIN decoder. What is
// offered is the offer walk's (offers.ts), written out by the quote writer (quote.writer.ts); a
// contract's rate is looked up in the same walk (quotedRate). A warm quote does no database work and
// writes nothing: its id is signed and self-describing (quote.token.ts), and replaying it over the
// same immutable book version gives the same numbers.
import { createSecretKey, type KeyObject } from 'node:crypto'
import type { Clock } from '../../../platform/clock.ts'
import type { AuthenticatedContext } from '../../../platform/http/context.ts'
import type { FieldError } from '../../../platform/http/errors.ts'
import { isActiveAccountHolder, type DealerDirectory, type DealerProfile } from '../../parties/index.ts'
import type { SettingsService } from '../../settings/index.ts'
import type { AppliedDisbursementRule } from '../disbursements/index.ts'
import {
  formatRateId,
  parseRateId,
  type CompiledRateBook,
  type CustomFieldDefinition,
  type IndexedPlan,
  type RateBookStore,
} from '../ratebook/index.ts'
import type { VinDecoder } from '../vin/index.ts'
import type { VisibilityEntry } from '../visibility/index.ts'
import {
  findOffer,
  priceOffer,
  walkOffers,
  type Exclusion,
  type Offer,
  type PlanOffer,
  type QuoteMessage,
  type Sale,
} from './offers.ts'
import { quoteErrors } from './quote.errors.ts'
import {
  expiration,
  priceOption,
  quoteDateProblems,
  quoteFacts,
  shortDriveType,
  shortFuelType,
  type Price,
  type PricedLine,
  type QuoteInputs,
  type Vehicle,
} from './quote.rules.ts'
import { encodeQuoteId, verifyQuoteId, type QuoteClaims } from './quote.token.ts'
import { createQuoteWriter } from './quote.writer.ts'
import type { EncodedReply } from './reply-json.ts'

export type { Exclusion, QuoteMessage } from './offers.ts'

type Ports = {
  clock: Clock
  store: Pick<RateBookStore, 'inForce' | 'byId'>
  directory: Pick<DealerDirectory, 'dealerByNumber'>
  settings: Pick<SettingsService, 'get'>
  vin: Pick<VinDecoder, 'decode'>
  disbursements: {
    forQuote(
      tenantId: number,
      holders: { dealerId: number; dealerGroupId: number | null; agentIds: number[] },
    ): Promise<{ fingerprint: string; rules: AppliedDisbursementRule[] }>
  }
  visibility: { forQuote(tenantId: number, dealerId: number): Promise<VisibilityEntry[]> }
  /** Today in the tenant's time zone. */
  today(tenantId: number): Promise<string>
  /** The tenant's quote-signing secret (quote-key.ts). */
  quoteKey(tenantId: number): Promise<Buffer>
}

export type QuoteService = ReturnType<typeof createQuoteService>

/** Who receives a rate's bucket, as the rate book says (null: the administrator). */
export type BucketPayee = {
  role: 'ADMINISTRATOR' | 'SELLING_DEALER' | 'DEALER_AGENT' | 'ACCOUNT_HOLDER'
  kind?: string
  businessKey?: string
} | null
export type QuotedLine = PricedLine & { payee: BucketPayee }
/** One rate of a quote, priced again for a contract (quotedRate). Amounts in whole cents. */
export type QuotedRate = {
  quoteId: string
  rateId: string
  quotedAt: Date
  expiresAt: Date
  inputs: QuoteInputs
  dealer: DealerProfile
  book: { bookId: number; version: number; effectiveDate: string }
  vehicle: Vehicle & { vehicleClass: string | null }
  product: { id: number; code: string; name: string; type: string }
  program: { id: number; code: string; name: string }
  plan: {
    id: number
    code: string
    name: string
    formNumber: string
    coverageGroups: IndexedPlan['coverageGroups']
    ppmServices: IndexedPlan['ppmServices']
    customFields: CustomFieldDefinition[]
  }
  term: { id: number; code: string; months: number; miles: number; milesBasis: 'FROM_SALE_ODOMETER' | 'FROM_ZERO' }
  deductible: { id: number; code: string; amountCents: number; type: string }
  expirationDate: string
  expirationOdometer: number | null
  price: Omit<Price, 'lines'> & { lines: QuotedLine[] }
  options: Array<{
    id: number
    code: string
    name: string
    kind: 'SURCHARGE' | 'OPTION'
    required: boolean
    dealerCostCents: number
    retailCents: number
    lines: QuotedLine[]
  }>
}

/** The facts a rerate states about the sale, over the quote's inputs; null: not known (left out of the inputs). */
export type RerateFacts = {
  odometer: number | null
  vin: string | null
  vehicleYear: number | null
  vehicleMake: string | null
  vehicleModel: string | null
  vehicleTrim: string | null
  vehicleCondition: string | null
  inServiceDate: string | null
  vehiclePurchasePrice: string | null
  msrp: string | null
}

/** What reratedRate prices: the contract's quote, rate-book version, plan, term, deductible and options. */
export type RerateRequest = {
  quoteId: string
  bookId: number
  planId: number
  termId: number
  deductibleId: number
  optionIds: readonly number[]
  facts: RerateFacts
}

/**
 * The rerate's answer: the rate priced (its rateId names the rate of the book that fits the facts),
 * or why it is not: a term or deductible that is not the plan's, the offer walk's exclusions on the
 * rate's path (with the criteria explained), or the chosen options the rate does not offer.
 */
export type RerateOutcome =
  | { eligible: true; rate: QuotedRate }
  | {
      eligible: false
      exclusions: Exclusion[]
      /** termId or deductibleId not of the plan (unknown_reference), options not offered (option_not_offered). */
      problems: Array<{ field: string; code: 'unknown_reference' | 'option_not_offered'; text: string }>
    }

/** A quote or rate a contract cannot be written from: 422 naming the field. */
function unusable(
  code: 'quote_unknown' | 'quote_expired' | 'quote_outdated' | 'rate_not_in_quote' | 'rate_not_available',
  field: string,
  message: string,
) {
  return quoteErrors.create(code, `${field} ${message}`, { errors: [{ field, code, message }] })
}

const NO_PLANS: QuoteMessage = { severity: 'WARNING', code: 'NO_PLANS_FOUND', text: 'No plans found' }

/** What the rate book makes of the vehicle: its class, the manufacturer's warranties, and whether it is known. */
function vehicleInBook(book: CompiledRateBook | undefined, vehicle: Vehicle) {
  const classified =
    book &&
    (vehicle.make
      ? book.classify({
          make: vehicle.make,
          model: vehicle.model ?? undefined,
          trim: vehicle.trim ?? undefined,
          year: vehicle.year ?? undefined,
        })
      : null)
  return {
    vehicleClass: classified ? classified.vehicleClass : null,
    warranties: book ? book.warranties(vehicle.make ?? undefined) : [],
    /** A make and model year, and a model or a VIN: what a product's `vehicle` input needs. */
    known: vehicle.make !== null && vehicle.year !== null && (vehicle.model !== null || vehicle.vin !== null),
  }
}

/** The sale the offer walk decides from. */
function saleOf(
  inputs: QuoteInputs,
  vehicle: Vehicle,
  seen: ReturnType<typeof vehicleInBook>,
  dealer: DealerProfile,
  visibility: readonly VisibilityEntry[],
  holders: { fingerprint: string; rules: readonly AppliedDisbursementRule[] },
): Sale {
  return {
    inputs,
    facts: quoteFacts(
      inputs,
      vehicle,
      seen.vehicleClass,
      { number: dealer.dealerNumber, state: dealer.state },
      seen.warranties,
    ),
    vehicleClass: seen.vehicleClass,
    vehicleKnown: seen.known,
    dealerNumber: dealer.dealerNumber,
    visibility,
    holders,
  }
}

/** A rate found in the offer walk, priced, as a contract is written from it (quotedRate, reratedRate). */
function toQuotedRate(a: {
  quoteId: string
  rateId: string
  claims: QuoteClaims
  inputs: QuoteInputs
  dealer: DealerProfile
  book: CompiledRateBook
  vehicle: Vehicle
  vehicleClass: string | null
  found: { plan: PlanOffer; offer: Offer }
  price: Price
  chosen: ReadonlySet<number>
}): QuotedRate {
  const { book, found, price, inputs } = a
  const { product, program, plan } = found.plan
  const { term, deductible } = found.offer
  const payeeOf = (code: string) => book.disbursementCodes.get(code)?.payee ?? null
  return {
    quoteId: a.quoteId,
    rateId: a.rateId,
    quotedAt: new Date(a.claims.issuedAt * 1000),
    expiresAt: new Date(a.claims.expiresAt * 1000),
    inputs,
    dealer: a.dealer,
    book: { bookId: book.bookId, version: book.version, effectiveDate: book.effectiveDate },
    vehicle: { ...a.vehicle, vehicleClass: a.vehicleClass },
    product: { id: product.id, code: product.code, name: product.name, type: product.type },
    program: { id: program.id, code: program.code, name: program.name },
    plan: {
      id: plan.id,
      code: plan.code,
      name: plan.name,
      formNumber: plan.formNumber,
      coverageGroups: plan.coverageGroups,
      ppmServices: plan.ppmServices,
      customFields: plan.customFields,
    },
    term: { id: term.id, code: term.code, months: term.months, miles: term.miles, milesBasis: term.milesBasis },
    deductible: {
      id: deductible.id,
      code: deductible.code,
      amountCents: deductible.amountCents,
      type: deductible.type,
    },
    ...expiration(inputs.saleDate, inputs.odometer, term),
    price: {
      ...price,
      lines: price.lines.map((l) => ({ ...l, payee: l.source === 'RATE' ? payeeOf(l.code) : null })),
    },
    options: found.offer.options.list
      .filter(({ option, required }) => required || a.chosen.has(option.id))
      .map(({ option, required }) => {
        const priced = priceOption(option, found.plan.factor)
        return {
          id: option.id,
          code: option.code,
          name: option.name,
          kind: option.kind,
          required,
          dealerCostCents: priced.dealerCostCents,
          retailCents: priced.suggestedRetailCents,
          lines: priced.lines.map((l) => {
            const code = book.disbursementCodes.get(l.code)
            return {
              code: l.code,
              group: code?.group ?? 'OTHER',
              label: code?.label ?? l.code,
              cents: l.cents,
              source: 'RATE' as const,
              payee: payeeOf(l.code),
            }
          }),
        }
      }),
  }
}

export function createQuoteService(ports: Ports) {
  const { clock, store, directory, settings } = ports
  const writer = createQuoteWriter()
  const keys = new Map<number, Promise<KeyObject>>()
  const keyOf = (tenantId: number) => {
    let key = keys.get(tenantId)
    if (!key) {
      // The secret never changes (re-sealing keeps its bytes), so it is kept for the life of the process.
      key = ports.quoteKey(tenantId).then((secret) => createSecretKey(secret))
      keys.set(tenantId, key)
      key.catch(() => keys.delete(tenantId))
    }
    return key
  }

  async function dealerFor(ctx: AuthenticatedContext, dealerNumber: string): Promise<DealerProfile> {
    const dealer = await directory.dealerByNumber(ctx.tenantId, dealerNumber)
    const visible = ctx.principal.visibleAccountHolderIds
    if (!dealer || (visible && !visible.has(dealer.id)))
      throw quoteErrors.create('dealer_not_found', `no dealer with number '${dealerNumber}'`)
    return dealer
  }

  function decodeVehicle(inputs: QuoteInputs, messages: QuoteMessage[]): Vehicle {
    const vehicle: Vehicle = {
      vin: inputs.vin ?? null,
      year: inputs.vehicleYear ?? null,
      make: inputs.vehicleMake ?? null,
      model: inputs.vehicleModel ?? null,
      trim: inputs.vehicleTrim ?? null,
      series: null,
      bodyStyle: null,
      driveType: null,
      fuelType: null,
      cylinders: null,
      manufacturer: null,
    }
    if (!inputs.vin) return vehicle
    // The sale year bounds the model year (at most one ahead), which settles a year code shared by two cycles.
    const decoded = ports.vin.decode(inputs.vin, { referenceYear: Number(inputs.saleDate.slice(0, 4)) })
    const up = (s: string | undefined) => (s ? s.toUpperCase() : null)
    // The VIN is authoritative for what it encodes; given values fill what it does not.
    const conflicts: string[] = []
    const take = <K extends 'year' | 'make' | 'model' | 'trim'>(
      field: K,
      fromVin: Vehicle[K] | null,
      input: string,
    ) => {
      if (fromVin === null || fromVin === undefined) return
      if (vehicle[field] !== null && vehicle[field] !== fromVin)
        conflicts.push(`${input} ${vehicle[field]} (the VIN says ${fromVin})`)
      vehicle[field] = fromVin
    }
    take('year', decoded.modelYear ?? null, 'vehicleYear')
    take('make', up(decoded.make), 'vehicleMake')
    take('model', up(decoded.model), 'vehicleModel')
    if (vehicle.trim === null) vehicle.trim = up(decoded.trim)
    vehicle.series = up(decoded.series)
    vehicle.bodyStyle = decoded.bodyStyle ?? null
    vehicle.driveType = shortDriveType(decoded.driveType)
    vehicle.fuelType = shortFuelType(decoded.fuelType)
    vehicle.cylinders = decoded.cylinders ?? null
    vehicle.manufacturer = decoded.manufacturer ?? null
    if (conflicts.length > 0)
      messages.push({
        severity: 'INFO',
        code: 'VEHICLE_INPUT_OVERRIDDEN',
        text: `The VIN decides: ${conflicts.join('; ')}`,
      })
    return vehicle
  }

  /**
   * Produces the quote. `at` is the instant the quote is made (a replay passes the original one);
   * `explain` records every exclusion with its reason.
   */
  async function run(
    ctx: AuthenticatedContext,
    inputs: QuoteInputs,
    options: {
      explain: boolean
      at: Date
      dealer: DealerProfile
      book: CompiledRateBook | undefined
      lifetimeSeconds: number
      /** What a replay brings: the id shown again (never re-signed), its messages and fields. */
      quoteId?: string
      extraMessages?: QuoteMessage[]
      extraFields?: Record<string, unknown>
    },
  ): Promise<EncodedReply> {
    const { explain, at, dealer, book } = options
    const messages: QuoteMessage[] = [...(options.extraMessages ?? [])]
    const vehicle = decodeVehicle(inputs, messages)
    const seen = vehicleInBook(book, vehicle)
    const issuedAt = Math.floor(at.getTime() / 1000)
    const [holders, visibility] = await Promise.all([
      ports.disbursements.forQuote(ctx.tenantId, {
        dealerId: dealer.id,
        dealerGroupId: dealer.dealerGroupId,
        agentIds: dealer.agentIds,
      }),
      ports.visibility.forQuote(ctx.tenantId, dealer.id),
    ])
    const claims: QuoteClaims = {
      tenantId: ctx.tenantId,
      dealerId: dealer.id,
      bookId: book?.bookId ?? 0,
      issuedAt,
      expiresAt: issuedAt + options.lifetimeSeconds,
      disbursements: holders.fingerprint,
      inputs,
    }
    const quoteId = options.quoteId ?? encodeQuoteId(await keyOf(ctx.tenantId), claims)
    const head = (exclusions: readonly unknown[]) => ({
      quoteId,
      quoteExpiresAt: new Date(claims.expiresAt * 1000).toISOString(),
      quotedAt: at.toISOString(),
      dealerNumber: dealer.dealerNumber,
      saleDate: inputs.saleDate,
      rateBook: book ? { version: book.version, effectiveDate: book.effectiveDate } : null,
      vehicle: {
        vin: vehicle.vin,
        year: vehicle.year,
        make: vehicle.make,
        model: vehicle.model,
        trim: vehicle.trim,
        series: vehicle.series,
        bodyStyle: vehicle.bodyStyle,
        driveType: vehicle.driveType,
        fuelType: vehicle.fuelType,
        cylinders: vehicle.cylinders,
        manufacturer: vehicle.manufacturer,
        condition: inputs.vehicleCondition ?? null,
        odometer: inputs.odometer ?? null,
        inServiceDate: inputs.inServiceDate ?? null,
        vehicleClass: seen.vehicleClass,
        manufacturerWarranties: seen.warranties,
      },
      messages,
      ...(explain ? { exclusions } : {}),
      ...options.extraFields,
    })
    /** A reply without products, saying why. */
    const nothing = (message: QuoteMessage) => {
      messages.push(message, NO_PLANS)
      return writer.none().reply(head([]))
    }

    if (!book)
      return nothing({
        severity: 'WARNING',
        code: 'NO_RATE_BOOK',
        text: `No rate book is in force on ${inputs.saleDate}`,
      })
    if (!isActiveAccountHolder({ status: dealer.status, expired_date: dealer.expiredDate }, at))
      return nothing({
        severity: 'WARNING',
        code: 'DEALER_INACTIVE',
        text: `Dealer ${dealer.dealerNumber} is not active: it can sell no products`,
      })
    if (visibility.length === 0)
      return nothing({
        severity: 'WARNING',
        code: 'DEALER_HAS_NO_PRODUCTS',
        text: `Dealer ${dealer.dealerNumber} may sell no products: its rate visibility is empty`,
      })
    if (inputs.vin && !seen.known) {
      messages.push({
        severity: 'INFO',
        code: 'VEHICLE_NOT_DECODED',
        text: `The VIN ${inputs.vin} does not decode to a make and model year; give vehicleYear, vehicleMake and vehicleModel`,
      })
    }
    if (seen.known && seen.vehicleClass === null) {
      messages.push({
        severity: 'INFO',
        code: 'VEHICLE_NOT_CLASSIFIED',
        text: `The rate book gives ${vehicle.year} ${vehicle.make} ${vehicle.model ?? ''} no vehicle class`.trimEnd(),
      })
    }

    const sale = saleOf(inputs, vehicle, seen, dealer, visibility, holders)
    const walk = walkOffers(book, sale, { explain })
    messages.push(...walk.messages)
    // Explaining, every entry is priced on its own (not from whole cached plans), so the two agree or a test says so.
    const products = writer.products(book, sale, walk, { reuseDecidedPlans: !explain })
    const unavailable = (inputs.surcharges ?? []).filter((s) => !products.offered.has(s))
    if (unavailable.length > 0)
      messages.push({
        severity: 'INFO',
        code: 'SURCHARGE_NOT_AVAILABLE',
        text: `Not offered by any quoted plan: ${unavailable.join(', ')}`,
      })
    if (products.empty) messages.push(NO_PLANS)
    // What the query itself left out is not news to the caller.
    return products.reply(head(explain ? walk.exclusions.filter((e) => e.reason !== 'NOT_REQUESTED') : []))
  }

  /**
   * One rate of a quote, priced again from the quote's own inputs over its book version: what a
   * contract is written from. The quote's offer walk is made again for the rate's plan, so a rate id
   * the quote did not offer is refused, whatever the caller claims, and one it did is priced as it was.
   */
  async function quotedRate(
    ctx: AuthenticatedContext,
    request: { quoteId: string; rateId: string; optionIds: readonly number[] },
  ): Promise<QuotedRate> {
    const claims = verifyQuoteId(await keyOf(ctx.tenantId), request.quoteId)
    if (!claims || claims.tenantId !== ctx.tenantId)
      throw unusable('quote_unknown', 'quoteId', 'is not a quote of this tenant (unknown, altered or cut short)')
    const now = Math.floor(clock.now().getTime() / 1000)
    if (now >= claims.expiresAt) {
      throw unusable(
        'quote_expired',
        'quoteId',
        `expired at ${new Date(claims.expiresAt * 1000).toISOString()}: quote again`,
      )
    }
    const dealer = await directory.dealerByNumber(ctx.tenantId, claims.inputs.dealerNumber)
    const visible = ctx.principal.visibleAccountHolderIds
    if (!dealer || dealer.id !== claims.dealerId || (visible && !visible.has(dealer.id)))
      throw unusable('quote_unknown', 'quoteId', 'names a dealer that is not visible to you')
    // Active now (so active when quoted too: an expiry date never moves back).
    if (!isActiveAccountHolder({ status: dealer.status, expired_date: dealer.expiredDate }, clock.now())) {
      throw unusable('rate_not_available', 'dealerNumber', `dealer ${dealer.dealerNumber} is not active`)
    }
    const book = claims.bookId === 0 ? undefined : await store.byId(ctx.tenantId, claims.bookId)
    const ref = parseRateId(request.rateId)
    const plan = ref && book?.planById.get(ref.planId)
    if (
      !book ||
      !ref ||
      !plan ||
      !plan.terms.some((t) => t.id === ref.termId) ||
      !plan.product.deductibles.some((d) => d.id === ref.deductibleId)
    )
      throw unusable('rate_not_in_quote', 'rateId', 'is not a rate of this quote')
    const inputs = claims.inputs
    const [holders, visibility] = await Promise.all([
      ports.disbursements.forQuote(ctx.tenantId, {
        dealerId: dealer.id,
        dealerGroupId: dealer.dealerGroupId,
        agentIds: dealer.agentIds,
      }),
      ports.visibility.forQuote(ctx.tenantId, dealer.id),
    ])
    // Prices are only ever those the dealer was shown: changed disbursements mean a new quote.
    if (holders.fingerprint !== claims.disbursements)
      throw unusable('quote_outdated', 'quoteId', "the dealer's disbursements changed since this quote: quote again")
    const vehicle = decodeVehicle(inputs, [])
    const seen = vehicleInBook(book, vehicle)
    const sale = saleOf(inputs, vehicle, seen, dealer, visibility, holders)
    // Explained, so that a refusal says why; walked for the rate's plan only.
    const found = findOffer(walkOffers(book, sale, { explain: true, planId: plan.id }), ref)
    if (!found.found) throw unusable('rate_not_in_quote', 'rateId', `is not offered by this quote: ${found.reason}`)
    const { offer } = found
    const price = priceOffer(book, found.plan, found.term, offer)
    const chosen = new Set(request.optionIds)
    const optionErrors: FieldError[] = []
    request.optionIds.forEach((id, i) => {
      if (!offer.options.list.some((o) => o.option.id === id))
        optionErrors.push({
          field: `selectedOptionIds/${i}`,
          code: 'option_not_offered',
          message: `option ${id} is not offered with this rate`,
        })
    })
    if (optionErrors.length > 0)
      throw quoteErrors.create('rate_not_in_quote', optionErrors.map((e) => e.message).join('; '), {
        errors: optionErrors,
      })
    return toQuotedRate({
      quoteId: request.quoteId,
      rateId: request.rateId,
      claims,
      inputs,
      dealer,
      book,
      vehicle,
      vehicleClass: seen.vehicleClass,
      found,
      price,
      chosen,
    })
  }

  /**
   * A sold contract's rate priced again with corrected facts (a rerate, docs/contracts.md "Rerating"):
   * the contract's quote gives the inputs, dealer and rate-book version; `facts` replace what the
   * contract says of the vehicle and odometer (null: not known). The sale date stays the quote's and
   * the version the contract's, so neither the look-back of sale dates nor the quote's lifetime
   * applies, and the dealer's disbursements are those that apply to that sale date now (no
   * fingerprint check: a rerate is not a quote shown to the dealer). The offer walk is made for the
   * contract's plan with explain on: the plan, term and deductible asked for are priced at whatever
   * rate of theirs fits the facts, or the exclusions on their path say why none does.
   */
  async function reratedRate(ctx: AuthenticatedContext, request: RerateRequest): Promise<RerateOutcome> {
    const claims = verifyQuoteId(await keyOf(ctx.tenantId), request.quoteId)
    // A contract's quote id was verified when the contract was written and tenant keys never change.
    if (!claims || claims.tenantId !== ctx.tenantId || claims.bookId !== request.bookId)
      throw new Error(`quote id of rate book ${request.bookId} does not verify for tenant ${ctx.tenantId}`)
    const book = await store.byId(ctx.tenantId, request.bookId)
    if (!book) throw new Error(`rate book ${request.bookId} of tenant ${ctx.tenantId} not found`)
    const dealer = await directory.dealerByNumber(ctx.tenantId, claims.inputs.dealerNumber)
    if (!dealer || dealer.id !== claims.dealerId)
      throw unusable(
        'rate_not_available',
        'dealerNumber',
        `dealer number ${claims.inputs.dealerNumber} no longer names the contract's dealer`,
      )
    const plan = book.planById.get(request.planId)
    if (!plan) throw new Error(`plan ${request.planId} is not in rate book ${request.bookId}`)
    const termOf = plan.terms.find((t) => t.id === request.termId)
    const deductibleOf = plan.product.deductibles.find((d) => d.id === request.deductibleId)
    if (!termOf || !deductibleOf)
      return {
        eligible: false,
        exclusions: [],
        problems: [
          ...(termOf
            ? []
            : [
                {
                  field: 'termId',
                  code: 'unknown_reference' as const,
                  text: `plan ${plan.code} has no term ${request.termId}`,
                },
              ]),
          ...(deductibleOf
            ? []
            : [
                {
                  field: 'deductibleId',
                  code: 'unknown_reference' as const,
                  text: `product ${plan.product.code} has no deductible ${request.deductibleId}`,
                },
              ]),
        ],
      }
    const inputs: QuoteInputs = { ...claims.inputs }
    for (const [key, value] of Object.entries(request.facts) as Array<[keyof RerateFacts, unknown]>) {
      if (value === null) delete inputs[key]
      else (inputs as Record<string, unknown>)[key] = value
    }
    const [holders, visibility] = await Promise.all([
      ports.disbursements.forQuote(ctx.tenantId, {
        dealerId: dealer.id,
        dealerGroupId: dealer.dealerGroupId,
        agentIds: dealer.agentIds,
      }),
      ports.visibility.forQuote(ctx.tenantId, dealer.id),
    ])
    const vehicle = decodeVehicle(inputs, [])
    const seen = vehicleInBook(book, vehicle)
    const sale = saleOf(inputs, vehicle, seen, dealer, visibility, holders)
    const walk = walkOffers(book, sale, { explain: true, planId: plan.id })
    const planOffer = walk.plans.find((p) => p.plan.id === plan.id)
    const termOffer = planOffer?.terms().find((t) => t.term.id === termOf.id)
    const offer = termOffer?.offers.find((o) => o.deductible.id === deductibleOf.id)
    if (!planOffer || !termOffer || !offer) {
      // The exclusions on the rate's own path: above the term, its term, or its deductible of that term.
      const path = walk.exclusions.filter(
        (e) =>
          e.reason !== 'NOT_REQUESTED' &&
          (e.level === 'PRODUCT' ||
            e.level === 'PROGRAM' ||
            e.level === 'PLAN' ||
            (e.termCode === termOf.code && (e.level === 'TERM' || e.deductibleCode === deductibleOf.code))),
      )
      return {
        eligible: false,
        problems: [],
        exclusions:
          path.length > 0
            ? path
            : [
                {
                  level: 'PLAN',
                  productCode: plan.product.code,
                  planCode: plan.code,
                  reason: 'NO_RATE',
                  text: `${plan.code} ${termOf.code} ${deductibleOf.code} is not offered for these facts`,
                },
              ],
      }
    }
    const problems: Array<{ field: string; code: 'option_not_offered'; text: string }> = []
    request.optionIds.forEach((id, i) => {
      if (!offer.options.list.some((o) => o.option.id === id))
        problems.push({
          field: `selectedOptionIds/${i}`,
          code: 'option_not_offered',
          text: `option ${id} is not offered with this rate`,
        })
    })
    if (problems.length > 0) return { eligible: false, exclusions: [], problems }
    return {
      eligible: true,
      rate: toQuotedRate({
        quoteId: request.quoteId,
        rateId: formatRateId({
          planId: plan.id,
          termId: termOf.id,
          deductibleId: deductibleOf.id,
          rateIndex: offer.rate.index,
        }),
        claims,
        inputs,
        dealer,
        book,
        vehicle,
        vehicleClass: seen.vehicleClass,
        found: { plan: planOffer, offer },
        price: priceOffer(book, planOffer, termOffer, offer),
        chosen: new Set(request.optionIds),
      }),
    }
  }

  return {
    quotedRate,
    reratedRate,
    /**
     * The customer state a quote was priced for (the dealer's, when the quote named none); null when
     * it had neither; undefined for an id that is not the tenant's (unknown, altered or cut short).
     */
    async quotedState(tenantId: number, quoteId: string): Promise<string | null | undefined> {
      const claims = verifyQuoteId(await keyOf(tenantId), quoteId)
      if (!claims || claims.tenantId !== tenantId) return undefined
      return claims.inputs.customerState ?? null
    },
    /** The rate-book version a quote was made over (undefined: none was in force); 422 quote_unknown for a foreign or altered id. */
    async quoteBook(ctx: AuthenticatedContext, quoteId: string): Promise<CompiledRateBook | undefined> {
      const claims = verifyQuoteId(await keyOf(ctx.tenantId), quoteId)
      if (!claims || claims.tenantId !== ctx.tenantId)
        throw unusable('quote_unknown', 'quoteId', 'is not a quote of this tenant (unknown, altered or cut short)')
      return claims.bookId === 0 ? undefined : store.byId(ctx.tenantId, claims.bookId)
    },
    /**
     * A new quote for the dealer, as encoded JSON (the reply is large and hot: it is assembled once,
     * from cached priced pieces; see reply-json.ts). The caller releases it once it is sent. 404 for an unknown or invisible dealer, 422 for unacceptable dates.
     */
    async quote(ctx: AuthenticatedContext, inputs: QuoteInputs, explain: boolean): Promise<EncodedReply> {
      // Whole seconds: the quote id carries seconds, and a replay must show the same instant.
      const at = new Date(Math.floor(clock.now().getTime() / 1000) * 1000)
      const [dealer, lookBack, lifetime, today] = await Promise.all([
        dealerFor(ctx, inputs.dealerNumber),
        settings.get(ctx.tenantId, 'saleDateLookBackDays'),
        settings.get(ctx.tenantId, 'quoteLifetime'),
        ports.today(ctx.tenantId),
      ])
      const dateProblems: FieldError[] = quoteDateProblems(inputs, today, lookBack)
      if (dateProblems.length > 0)
        throw quoteErrors.create('quote_dates_invalid', dateProblems.map((p) => p.message).join('; '), {
          errors: dateProblems,
        })
      const book = await store.inForce(ctx.tenantId, inputs.saleDate)
      // The quote id carries the state the quote used, so a replay prices the same even if the dealer moves.
      const resolved: QuoteInputs = {
        ...inputs,
        dealerNumber: dealer.dealerNumber,
        ...(inputs.customerState === undefined && dealer.state !== null ? { customerState: dealer.state } : {}),
      }
      return run(ctx, resolved, {
        explain,
        at,
        dealer,
        book,
        lifetimeSeconds: Math.floor(lifetime.milliseconds / 1000),
      })
    },

    /**
     * Shows a quote again from its id: the same inputs over the same book version at the original
     * instant. 404 for an id that is not this tenant's or was tampered with.
     */
    async replay(ctx: AuthenticatedContext, quoteId: string, explain: boolean): Promise<EncodedReply> {
      const claims = verifyQuoteId(await keyOf(ctx.tenantId), quoteId)
      if (!claims || claims.tenantId !== ctx.tenantId) throw quoteErrors.create('quote_not_found', 'no such quote')
      const dealer = await dealerFor(ctx, claims.inputs.dealerNumber)
      if (dealer.id !== claims.dealerId) throw quoteErrors.create('quote_not_found', 'no such quote')
      const book = claims.bookId === 0 ? undefined : await store.byId(ctx.tenantId, claims.bookId)
      const now = Math.floor(clock.now().getTime() / 1000)
      const current = await ports.disbursements.forQuote(ctx.tenantId, {
        dealerId: dealer.id,
        dealerGroupId: dealer.dealerGroupId,
        agentIds: dealer.agentIds,
      })
      const extraMessages: QuoteMessage[] =
        current.fingerprint === claims.disbursements
          ? []
          : [
              {
                severity: 'WARNING',
                code: 'QUOTE_DISBURSEMENTS_CHANGED',
                text: "The dealer's disbursements changed since this quote: amounts shown are today's; quote again before contracting",
              },
            ]
      return run(ctx, claims.inputs, {
        explain,
        at: new Date(claims.issuedAt * 1000),
        dealer,
        book,
        lifetimeSeconds: claims.expiresAt - claims.issuedAt,
        quoteId,
        extraMessages,
        extraFields: { expired: now >= claims.expiresAt },
      })
    },
  }
}
