// The rate quote (docs/rate-quote.md): dealer, visibility and disbursements from caches, the rate
// book in force on the sale date from its in-memory index, the vehicle from the VIN decoder. A warm
// quote does no database work and writes nothing: its id is signed and self-describing
// (quote.token.ts), and replaying it over the same immutable book version gives the same numbers.
import { createSecretKey, type KeyObject } from 'node:crypto'
import type { Clock } from '../../platform/clock.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { centsToNumber, type Decimal } from '../../platform/money.ts'
import type { DealerDirectory, DealerProfile } from '../parties/index.ts'
import { isActiveAccountHolder } from '../parties/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { Explanation, Facts } from './criteria.evaluator.ts'
import type { AppliedDisbursementRule } from './disbursement.service.ts'
import { ratingErrors } from './rating.errors.ts'
import type {
  CustomFieldDefinition,
  IndexedOption,
  IndexedPlan,
  IndexedProduct,
  IndexedProgram,
  IndexedRate,
  RateBookIndex,
} from './ratebook.index.ts'
import type { RateBookStore } from './ratebook.store.ts'
import { ruleApplies } from './disbursement.rules.ts'
import { visibleEntry } from './rate-visibility.rules.ts'
import type { VisibilityEntry } from './rate-visibility.service.ts'
import {
  expiration,
  expirationOdometer,
  missingInputs,
  priceOption,
  priceRate,
  productFactor,
  quoteDateProblems,
  quoteFacts,
  shortDriveType,
  shortFuelType,
  type HolderDisbursement,
  type Price,
  type PricedLine,
  type QuoteInputs,
  type Vehicle,
} from './quote.rules.ts'
import { encodeQuoteId, verifyQuoteId, type QuoteClaims } from './quote.token.ts'
import type { VinDecoder } from './vin.decoder.ts'
import { openArrayPrefix, ownedBuffer, TreeWriter, type EncodedReply } from './reply-json.ts'

export type QuoteMessage = { severity: 'INFO' | 'WARNING'; code: string; text: string; productCode?: string }
export type Exclusion = {
  level: 'PRODUCT' | 'PROGRAM' | 'PLAN' | 'TERM' | 'DEDUCTIBLE'
  productCode: string
  programCode?: string
  planCode?: string
  termCode?: string
  deductibleCode?: string
  reason: string
  text: string
  criteria?: { text: string; result: boolean; explanation: Explanation }
}

type Ports = {
  clock: Clock
  store: RateBookStore
  directory: DealerDirectory
  settings: SettingsService
  vin: VinDecoder
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

/** A quote or rate a contract cannot be written from: 422 naming the field. */
function unusable(
  code: 'quote_unknown' | 'quote_expired' | 'quote_outdated' | 'rate_not_in_quote' | 'rate_not_available',
  field: string,
  message: string,
) {
  return ratingErrors.create(code, `${field} ${message}`, { errors: [{ field, code, message }] })
}

const NO_PLANS: QuoteMessage = { severity: 'WARNING', code: 'NO_PLANS_FOUND', text: 'No plans found' }

type ExclusionAt = Omit<Exclusion, 'reason' | 'text' | 'criteria'>
/** The place of exclusions that are not recorded (explain off). */
const NOWHERE: ExclusionAt = Object.freeze({ level: 'PRODUCT', productCode: '' })
const NO_ENTRIES: VisibilityEntry[] = []

/** Memory for priced pieces kept per instance: deductible entries (about 1 KB) and whole plans (about 25 KB). */
const FRAGMENT_BYTES = 32 * 1024 * 1024
const PLAN_PIECE_BYTES = 96 * 1024 * 1024

export function createQuoteService(ports: Ports) {
  const { clock, store, directory, settings } = ports
  const fragments = createFragmentCache<Buffer>(FRAGMENT_BYTES, (b) => b.length)
  const planFragments = createFragmentCache<PlanPiece[]>(PLAN_PIECE_BYTES, (pieces) =>
    pieces.reduce((n, p) => n + p.json.length, 0),
  )
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
    const visible = ctx.principal?.visibleAccountHolderIds
    if (!dealer || (visible && !visible.has(dealer.id)))
      throw ratingErrors.create('dealer_not_found', `no dealer with number '${dealerNumber}'`)
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
      book: RateBookIndex | undefined
      lifetimeSeconds: number
      /** What a replay brings: the id shown again (never re-signed), its messages and fields. */
      quoteId?: string
      extraMessages?: QuoteMessage[]
      extraFields?: Record<string, unknown>
    },
  ): Promise<EncodedReply> {
    const { explain, at, dealer, book } = options
    const messages: QuoteMessage[] = [...(options.extraMessages ?? [])]
    const exclusions: Exclusion[] = []
    const exclude = explain
      ? (e: Exclusion) => {
          exclusions.push(e)
        }
      : () => {}
    const vehicle = decodeVehicle(inputs, messages)
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
    const vehicleClass = classified ? classified.vehicleClass : null
    const warranties = book ? book.warranties(vehicle.make ?? undefined) : []
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
    const vehicleOut = {
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
      vehicleClass,
      manufacturerWarranties: warranties,
    }
    const reply = (products: TreeWriter) => {
      if (!products.hasContent) messages.push(NO_PLANS)
      return products.toReply(
        {
          quoteId,
          quoteExpiresAt: new Date(claims.expiresAt * 1000).toISOString(),
          quotedAt: at.toISOString(),
          dealerNumber: dealer.dealerNumber,
          saleDate: inputs.saleDate,
          rateBook: book ? { version: book.version, effectiveDate: book.effectiveDate } : null,
          vehicle: vehicleOut,
          messages,
          ...(explain ? { exclusions } : {}),
          ...options.extraFields,
        },
        'products',
      )
    }

    if (!book) {
      messages.push({
        severity: 'WARNING',
        code: 'NO_RATE_BOOK',
        text: `No rate book is in force on ${inputs.saleDate}`,
      })
      return reply(new TreeWriter())
    }
    if (!isActiveAccountHolder({ status: dealer.status, expired_date: dealer.expiredDate }, at)) {
      messages.push({
        severity: 'WARNING',
        code: 'DEALER_INACTIVE',
        text: `Dealer ${dealer.dealerNumber} is not active: it can sell no products`,
      })
      return reply(new TreeWriter())
    }
    if (visibility.length === 0) {
      messages.push({
        severity: 'WARNING',
        code: 'DEALER_HAS_NO_PRODUCTS',
        text: `Dealer ${dealer.dealerNumber} may sell no products: its rate visibility is empty`,
      })
      return reply(new TreeWriter())
    }
    const vehicleKnown =
      vehicle.make !== null && vehicle.year !== null && (vehicle.model !== null || vehicle.vin !== null)
    if (inputs.vin && !vehicleKnown) {
      messages.push({
        severity: 'INFO',
        code: 'VEHICLE_NOT_DECODED',
        text: `The VIN ${inputs.vin} does not decode to a make and model year; give vehicleYear, vehicleMake and vehicleModel`,
      })
    }
    if (vehicleKnown && vehicleClass === null) {
      messages.push({
        severity: 'INFO',
        code: 'VEHICLE_NOT_CLASSIFIED',
        text: `The rate book gives ${vehicle.year} ${vehicle.make} ${vehicle.model ?? ''} no vehicle class`.trimEnd(),
      })
    }

    const facts = quoteFacts(
      inputs,
      vehicle,
      vehicleClass,
      { number: dealer.dealerNumber, state: dealer.state },
      warranties,
    )
    const holderRules: HolderDisbursement[] = holders.rules
    const requested = new Set(inputs.surcharges ?? [])
    const offered = new Set<string>()
    const check = (
      rule: IndexedProduct['criteria'],
      e: Omit<Exclusion, 'reason' | 'text' | 'criteria'>,
      what: string,
    ): boolean => {
      if (!rule) return true
      if (rule.compiled.evaluate(facts)) return true
      if (explain) {
        const { result, explanation } = rule.compiled.explain(facts)
        exclude({
          ...e,
          reason: 'CRITERIA',
          text: `${what} criteria not met: ${rule.text}`,
          criteria: { text: rule.text, result, explanation },
        })
      }
      return false
    }
    const inWindow = (from: string | null, to: string | null) =>
      (from === null || from <= inputs.saleDate) && (to === null || inputs.saleDate <= to)

    const visibleByProduct = new Map<number, VisibilityEntry[]>()
    for (const v of visibility) {
      const list = visibleByProduct.get(v.productId)
      if (list) list.push(v)
      else visibleByProduct.set(v.productId, [v])
    }
    const out = new TreeWriter()
    for (const product of book.products) {
      // Where an exclusion happened: built only when explaining (a quote walks dozens of these).
      const p: ExclusionAt = explain ? { level: 'PRODUCT', productCode: product.code } : NOWHERE
      if (inputs.productTypes && !inputs.productTypes.includes(product.type)) continue
      if (inputs.productIds && !inputs.productIds.includes(product.id)) continue
      const productVisibility = visibleByProduct.get(product.id) ?? NO_ENTRIES
      if (productVisibility.length === 0) {
        exclude({ ...p, reason: 'NOT_VISIBLE', text: `Dealer ${dealer.dealerNumber} may not sell ${product.code}` })
        continue
      }
      if (!product.assetTypes.has(inputs.assetType)) {
        exclude({ ...p, reason: 'ASSET_TYPE', text: `${product.code} is not sold for asset type ${inputs.assetType}` })
        continue
      }
      if (!inWindow(product.effectiveFrom, product.effectiveTo)) {
        exclude({ ...p, reason: 'NOT_EFFECTIVE', text: `${product.code} is not on sale on ${inputs.saleDate}` })
        continue
      }
      const missing = missingInputs(product.requiredInputs, inputs, vehicleKnown)
      if (missing.length > 0) {
        const names = missing
          .map((m) => (m === 'vehicle' ? 'vin (or vehicleYear, vehicleMake and vehicleModel)' : m))
          .join(', ')
        messages.push({
          severity: 'INFO',
          code: 'PRODUCT_INPUTS_MISSING',
          text: `${product.code} not rated: ${names} required`,
          productCode: product.code,
        })
        exclude({ ...p, reason: 'INPUTS_MISSING', text: `${product.code} needs ${names}` })
        continue
      }
      if (!check(product.criteria, p, product.code)) continue
      const factor = productFactor(product.factorTables, facts)
      const factorKey = factor.toString()
      const optionReply = optionReplies(factor)
      const productMark = out.openPrefix(product.replyPrefix)
      for (const program of product.programs) {
        if (inputs.programIds && !inputs.programIds.includes(program.id)) continue
        const g: ExclusionAt = explain ? { ...p, level: 'PROGRAM', programCode: program.code } : NOWHERE
        if (!productVisibility.some((v) => v.programId === null || v.programId === program.id)) {
          exclude({
            ...g,
            reason: 'NOT_VISIBLE',
            text: `Dealer ${dealer.dealerNumber} may not sell program ${program.code}`,
          })
          continue
        }
        if (!check(program.criteria, g, `Program ${program.code}`)) continue
        const programMark = out.openPrefix(program.replyPrefix)
        for (const plan of program.plans) {
          const l: ExclusionAt = explain ? { ...g, level: 'PLAN', planCode: plan.code } : NOWHERE
          // The most specific entry decides (a plan's own markup limit beats its product's).
          const entry = visibleEntry(productVisibility, {
            productId: product.id,
            programId: program.id,
            planId: plan.id,
          })
          if (!entry) {
            exclude({
              ...l,
              reason: 'NOT_VISIBLE',
              text: `Dealer ${dealer.dealerNumber} may not sell plan ${plan.code}`,
            })
            continue
          }
          if (!plan.conditions.has(inputs.vehicleCondition ?? '')) {
            exclude({
              ...l,
              reason: 'CONDITION',
              text: `${plan.code} is for ${[...plan.conditions].join(', ')} vehicles, not ${inputs.vehicleCondition ?? 'an unknown condition'}`,
            })
            continue
          }
          if (!inWindow(plan.effectiveFrom, plan.effectiveTo)) {
            exclude({ ...l, reason: 'NOT_EFFECTIVE', text: `${plan.code} is not on sale on ${inputs.saleDate}` })
            continue
          }
          if (!check(plan.criteria, l, `Plan ${plan.code}`)) continue
          if (vehicleClass === null) {
            exclude({
              ...l,
              reason: 'NO_VEHICLE_CLASS',
              text: `${plan.code}: the vehicle has no class in the rate book`,
            })
            continue
          }
          const planMark = out.openPrefix(plan.replyPrefix)
          priceTerms({
            book,
            product,
            program,
            plan,
            visibility: entry,
            factor,
            factorKey,
            facts,
            applicableTo: holderRules,
            holderFingerprint: holders.fingerprint,
            inputs,
            requested,
            offered,
            check,
            exclude,
            vehicleClass,
            at: l,
            optionReply,
            fragments,
            planFragments,
            out,
            explain,
          })
          out.close(planMark)
        }
        out.close(programMark)
      }
      out.close(productMark)
    }
    const unavailable = [...requested].filter((s) => !offered.has(s))
    if (unavailable.length > 0)
      messages.push({
        severity: 'INFO',
        code: 'SURCHARGE_NOT_AVAILABLE',
        text: `Not offered by any quoted plan: ${unavailable.join(', ')}`,
      })
    return reply(out)
  }

  /**
   * One rate of a quote, priced again from the quote's own inputs over its book version: what a
   * contract is written from. Every choice the quote made (visibility, eligibility, the rate picked
   * for the vehicle's class, odometer and state, the options offered) is made again, so a rate id
   * the quote never offered is refused, whatever the caller claims.
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
    const visible = ctx.principal?.visibleAccountHolderIds
    if (!dealer || dealer.id !== claims.dealerId || (visible && !visible.has(dealer.id)))
      throw unusable('quote_unknown', 'quoteId', 'names a dealer that is not visible to you')
    const at = new Date(claims.issuedAt * 1000)
    if (!isActiveAccountHolder({ status: dealer.status, expired_date: dealer.expiredDate }, clock.now())) {
      throw unusable('rate_not_available', 'dealerNumber', `dealer ${dealer.dealerNumber} is not active`)
    }
    const book = claims.bookId === 0 ? undefined : await store.byId(ctx.tenantId, claims.bookId)
    const rateRef = /^r\.(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.(\d{1,9})$/.exec(request.rateId)
    const plan = rateRef && book?.planById.get(Number(rateRef[1]))
    const term = plan?.terms.find((t) => t.id === Number(rateRef![2]))
    const deductible = plan?.product.deductibles.find((d) => d.id === Number(rateRef![3]))
    if (!book || !plan || !term || !deductible)
      throw unusable('rate_not_in_quote', 'rateId', 'is not a rate of this quote')
    const notOffered = (why: string) => unusable('rate_not_in_quote', 'rateId', `is not offered by this quote: ${why}`)
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
    const product = plan.product
    const program = plan.program
    const vehicle = decodeVehicle(inputs, [])
    const classified = vehicle.make
      ? book.classify({
          make: vehicle.make,
          model: vehicle.model ?? undefined,
          trim: vehicle.trim ?? undefined,
          year: vehicle.year ?? undefined,
        })
      : null
    const vehicleClass = classified ? classified.vehicleClass : null
    const vehicleKnown =
      vehicle.make !== null && vehicle.year !== null && (vehicle.model !== null || vehicle.vin !== null)
    const warranties = book.warranties(vehicle.make ?? undefined)
    const facts = quoteFacts(
      inputs,
      vehicle,
      vehicleClass,
      { number: dealer.dealerNumber, state: dealer.state },
      warranties,
    )
    const productVisibility = visibility.filter((v) => v.productId === product.id)
    const inWindow = (from: string | null, to: string | null) =>
      (from === null || from <= inputs.saleDate) && (to === null || inputs.saleDate <= to)
    const passes = (rule: IndexedProduct['criteria']) => rule === null || rule.compiled.evaluate(facts as Facts)
    if (
      (inputs.productTypes && !inputs.productTypes.includes(product.type)) ||
      (inputs.productIds && !inputs.productIds.includes(product.id)) ||
      (inputs.programIds && !inputs.programIds.includes(program.id))
    )
      throw notOffered('the quote was for other products')
    const entry = visibleEntry(productVisibility, { productId: product.id, programId: program.id, planId: plan.id })
    if (!entry) throw notOffered(`dealer ${dealer.dealerNumber} may not sell plan ${plan.code}`)
    if (
      !product.assetTypes.has(inputs.assetType) ||
      !inWindow(product.effectiveFrom, product.effectiveTo) ||
      !inWindow(plan.effectiveFrom, plan.effectiveTo) ||
      missingInputs(product.requiredInputs, inputs, vehicleKnown).length > 0 ||
      !plan.conditions.has(inputs.vehicleCondition ?? '') ||
      !passes(product.criteria) ||
      !passes(program.criteria) ||
      !passes(plan.criteria) ||
      vehicleClass === null
    )
      throw notOffered(`the vehicle does not qualify for ${plan.code}`)
    facts.termMonths = term.months
    facts.termMiles = term.miles
    if (!passes(term.criteria)) throw notOffered(`term ${term.code} does not apply`)
    facts.deductible = centsToNumber(deductible.amountCents)
    const rate = rateFor(book, plan.id, term.id, deductible.id, vehicleClass, inputs, facts)
    if (!rate || rate.index !== Number(rateRef![4])) throw notOffered('the quote priced another rate for this vehicle')
    const factor = productFactor(product.factorTables, facts)
    const sale = {
      saleDate: inputs.saleDate,
      productId: product.id,
      programId: program.id,
      planId: plan.id,
      termId: term.id,
    }
    const price = priceRate(
      rate,
      factor,
      book.disbursementCodes,
      holders.rules.filter((d) => ruleApplies(d, sale)),
      entry,
    )
    const offered = judgeOptions(product, plan, facts, new Set(inputs.surcharges ?? []), null).options
    const chosen = new Set(request.optionIds)
    const optionErrors: FieldError[] = []
    request.optionIds.forEach((id, i) => {
      if (!offered.some(([o]) => o.id === id))
        optionErrors.push({
          field: `selectedOptionIds/${i}`,
          code: 'option_not_offered',
          message: `option ${id} is not offered with this rate`,
        })
    })
    if (optionErrors.length > 0)
      throw ratingErrors.create('rate_not_in_quote', optionErrors.map((e) => e.message).join('; '), {
        errors: optionErrors,
      })
    const payeeOf = (code: string) => book.disbursementCodes.get(code)?.payee ?? null
    return {
      quoteId: request.quoteId,
      rateId: request.rateId,
      quotedAt: at,
      expiresAt: new Date(claims.expiresAt * 1000),
      inputs,
      dealer,
      book: { bookId: book.bookId, version: book.version, effectiveDate: book.effectiveDate },
      vehicle: { ...vehicle, vehicleClass },
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
      options: offered
        .filter(([o, required]) => required || chosen.has(o.id))
        .map(([o, required]) => {
          const priced = priceOption(o, factor)
          return {
            id: o.id,
            code: o.code,
            name: o.name,
            kind: o.kind,
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

  return {
    quotedRate,
    /** The rate-book version a quote was made over (undefined: none was in force); 422 quote_unknown for a foreign or altered id. */
    async quoteBook(ctx: AuthenticatedContext, quoteId: string): Promise<RateBookIndex | undefined> {
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
        throw ratingErrors.create('quote_dates_invalid', dateProblems.map((p) => p.message).join('; '), {
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
      if (!claims || claims.tenantId !== ctx.tenantId) throw ratingErrors.create('quote_not_found', 'no such quote')
      const dealer = await dealerFor(ctx, claims.inputs.dealerNumber)
      if (dealer.id !== claims.dealerId) throw ratingErrors.create('quote_not_found', 'no such quote')
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

/**
 * The rate of a plan × term × deductible for the vehicle's class that these inputs and facts select:
 * the odometer within the rate's band, its state (if any) the customer's, its criteria met. Facts
 * must carry the term and deductible being priced.
 */
function rateFor(
  book: RateBookIndex,
  planId: number,
  termId: number,
  deductibleId: number,
  vehicleClass: string,
  inputs: QuoteInputs,
  facts: Record<string, string | number | boolean | null>,
): IndexedRate | undefined {
  return book.findRate(
    planId,
    termId,
    deductibleId,
    vehicleClass,
    (r) =>
      (r.odometerFrom === null || (inputs.odometer ?? -1) >= r.odometerFrom) &&
      (r.odometerTo === null || (inputs.odometer !== undefined && inputs.odometer <= r.odometerTo)) &&
      (r.state === null || r.state === facts.customerState) &&
      (r.criteria === null || r.criteria.compiled.evaluate(facts as Facts)),
  )
}

type Check = (
  rule: IndexedProduct['criteria'],
  e: Omit<Exclusion, 'reason' | 'text' | 'criteria'>,
  what: string,
) => boolean

/**
 * A map from everything that decides a priced piece to the piece, bounded in bytes: the least
 * recently used pieces leave first. Keys hold the book version, so a piece is never stale, only unused.
 */
function createFragmentCache<T>(maxBytes: number, bytesOf: (value: T) => number) {
  const entries = new Map<string, T>()
  let bytes = 0
  return (key: string, build: () => T): T => {
    const hit = entries.get(key)
    if (hit !== undefined) {
      // Re-inserted, so the Map's order is least recently used first.
      entries.delete(key)
      entries.set(key, hit)
      return hit
    }
    const value = build()
    entries.set(key, value)
    bytes += bytesOf(value) + key.length
    for (const [oldKey, old] of entries) {
      if (bytes <= maxBytes) break
      entries.delete(oldKey)
      bytes -= bytesOf(old) + oldKey.length
    }
    return value
  }
}

type OptionReply = (option: IndexedOption, required: boolean, selected: boolean) => unknown

/** Option replies of one product in one quote: priced once, the same object for every deductible that offers it. */
function optionReplies(factor: Decimal): OptionReply {
  const cache = new Map<string, unknown>()
  return (option, required, selected) => {
    const key = `${option.id}|${required ? 1 : 0}|${selected ? 1 : 0}`
    let reply = cache.get(key)
    if (reply === undefined) {
      const priced = priceOption(option, factor)
      reply = {
        optionId: option.id,
        code: option.code,
        name: option.name,
        kind: option.kind,
        required,
        selected,
        dealerCost: centsToNumber(priced.dealerCostCents),
        suggestedRetail: centsToNumber(priced.suggestedRetailCents),
        disbursements: priced.lines.map((l) => ({ code: l.code, amount: centsToNumber(l.cents) })),
      }
      cache.set(key, reply)
    }
    return reply
  }
}

type TermPricing = {
  book: RateBookIndex
  product: IndexedProduct
  program: IndexedProgram
  plan: IndexedPlan
  visibility: VisibilityEntry
  factor: Decimal
  factorKey: string
  facts: Record<string, string | number | boolean | null>
  applicableTo: readonly HolderDisbursement[]
  holderFingerprint: string
  inputs: QuoteInputs
  requested: ReadonlySet<string>
  offered: Set<string>
  check: Check
  exclude: (e: Exclusion) => void
  vehicleClass: string
  at: Omit<Exclusion, 'reason' | 'text' | 'criteria'>
  optionReply: OptionReply
  fragments: ReturnType<typeof createFragmentCache<Buffer>>
  planFragments: ReturnType<typeof createFragmentCache<PlanPiece[]>>
  out: TreeWriter
  explain: boolean
}

/**
 * A priced term of a plan, encoded up to its deductibles' closing bracket: only the expiration
 * odometer, which depends on the exact sale odometer, is written per quote after it.
 */
type PlanPiece = { json: Buffer; term: IndexedPlan['terms'][number] }

/**
 * The common case, priced a whole plan at a time: no term criteria, options that read no term or
 * deductible fact, and rates chosen by odometer band alone for every term (see termCell). The
 * plan's priced terms are then one cached piece per combination of bands, and a quote writes them
 * with the expiration odometers. False when the plan is not such a case (or in explain mode, which
 * records why each deductible has no rate).
 */
function pricePlanAtOnce(x: TermPricing, markupKey: string): boolean {
  const { book, product, program, plan, facts, inputs, vehicleClass } = x
  if (x.explain || !plan.termsFreeOfCriteria || product.optionsReadTermFacts) return false
  const cells = book.planCells(plan, vehicleClass)
  if (!cells) return false
  let bands = ''
  for (const cell of cells) bands += `${cell.band(inputs.odometer)}.`
  // Options count as offered only if the plan gets priced terms (added below).
  const offeredHere = judgeOptions(product, plan, facts, x.requested, null)
  const applicable =
    x.applicableTo.length === 0
      ? null
      : plan.terms.map((term) =>
          x.applicableTo.filter((d) =>
            ruleApplies(d, {
              saleDate: inputs.saleDate,
              productId: product.id,
              programId: program.id,
              planId: plan.id,
              termId: term.id,
            }),
          ),
        )
  const holderKey =
    applicable === null || applicable.every((a) => a.length === 0)
      ? ''
      : `${applicable.map((a) => a.map((d) => d.id).join(',')).join('/')}@${x.holderFingerprint}`
  // Everything that decides the pieces is in the key; book versions are immutable, so a piece never goes stale.
  const key = `${book.bookId}|P${plan.id}|${vehicleClass}|${bands}|${x.factorKey}|${holderKey}|${markupKey}|${offeredHere.key}|${inputs.saleDate}`
  const pieces = x.planFragments(key, () =>
    plan.terms.flatMap((term, i) => {
      const cell = cells[i]!
      const entries = cell
        .select(cell.band(inputs.odometer), inputs.odometer)
        .flatMap((rate, d) =>
          rate
            ? [deductibleJson(x, term, product.deductibles[d]!, rate, applicable?.[i] ?? [], offeredHere.options)]
            : [],
        )
      if (entries.length === 0) return []
      const head = {
        termId: term.id,
        termCode: term.code,
        termMonths: term.months,
        termMiles: term.miles,
        milesBasis: term.milesBasis,
        expirationDate: expiration(inputs.saleDate, undefined, term).expirationDate,
      }
      return [{ json: ownedBuffer(`${openArrayPrefix(head, 'deductibles')}${entries.join(',')}]`), term }]
    }),
  )
  for (const { json, term } of pieces)
    x.out.element(json, `,"expirationOdometer":${expirationOdometer(inputs.odometer, term)}}`)
  if (pieces.length > 0) for (const [option] of offeredHere.options) x.offered.add(option.code)
  return true
}

type JudgedOptions = { options: Array<[IndexedOption, boolean, boolean]>; key: string }

/** The product's options offered with this plan for these facts: [option, required, selected], and a key of the lot. */
function judgeOptions(
  product: IndexedProduct,
  plan: IndexedPlan,
  facts: Record<string, string | number | boolean | null>,
  requested: ReadonlySet<string>,
  offered: Set<string> | null,
): JudgedOptions {
  const options: Array<[IndexedOption, boolean, boolean]> = []
  let key = ''
  for (const option of product.options) {
    if (option.plans && !option.plans.has(plan.code)) continue
    if (option.criteria && !option.criteria.compiled.evaluate(facts as Facts)) continue
    const required = option.requiredWhen !== null && option.requiredWhen.compiled.evaluate(facts as Facts)
    const selected = required || requested.has(option.code)
    offered?.add(option.code)
    options.push([option, required, selected])
    key += `${option.id}${required ? 'r' : ''}${selected ? 's' : ''},`
  }
  return { options, key }
}

/** One priced deductible entry of a term, as JSON. */
function deductibleJson(
  x: TermPricing,
  term: IndexedPlan['terms'][number],
  deductible: IndexedProduct['deductibles'][number],
  rate: IndexedRate,
  applicable: readonly HolderDisbursement[],
  options: JudgedOptions['options'],
): string {
  const price = priceRate(rate, x.factor, x.book.disbursementCodes, applicable, x.visibility)
  return JSON.stringify({
    deductibleId: deductible.id,
    code: deductible.code,
    amount: centsToNumber(deductible.amountCents),
    type: deductible.type,
    rate: {
      rateId: `r.${x.plan.id}.${term.id}.${deductible.id}.${rate.index}`,
      dealerCost: centsToNumber(price.dealerCostCents),
      suggestedRetail: centsToNumber(price.suggestedRetailCents),
      minRetail: centsToNumber(price.minRetailCents),
      maxRetail: centsToNumber(price.maxRetailCents),
      retailLocked: price.retailLocked,
      disbursements: price.lines.map((l) =>
        l.accountHolderId === undefined
          ? { code: l.code, group: l.group, label: l.label, amount: centsToNumber(l.cents), source: l.source }
          : {
              code: l.code,
              group: l.group,
              label: l.label,
              amount: centsToNumber(l.cents),
              source: l.source,
              accountHolderId: l.accountHolderId,
            },
      ),
    },
    options: options.map(([option, required, selected]) => x.optionReply(option, required, selected)),
  })
}

/** Writes the plan's priced terms. */
function priceTerms(x: TermPricing): void {
  const { book, product, program, plan, visibility, facts, inputs, requested, offered, check, exclude, vehicleClass } =
    x
  const factorKey = x.factorKey
  const markupKey = `${visibility.maxMarkupAmount ?? ''}/${visibility.maxMarkupPercent ?? ''}`
  const out = x.out
  if (pricePlanAtOnce(x, markupKey)) return
  // Term, rate and option criteria see the term (and deductible) being priced: set here, reset below.
  for (const term of plan.terms) {
    const t: ExclusionAt = x.explain ? { ...x.at, level: 'TERM', termCode: term.code } : NOWHERE
    facts.termMonths = term.months
    facts.termMiles = term.miles
    facts.deductible = null
    if (!check(term.criteria, t, `Term ${term.code}`)) continue
    const sale = {
      saleDate: inputs.saleDate,
      productId: product.id,
      programId: program.id,
      planId: plan.id,
      termId: term.id,
    }
    const applicable = x.applicableTo.filter((d) => ruleApplies(d, sale))
    const holderKey = applicable.length === 0 ? '' : `${applicable.map((d) => d.id).join(',')}@${x.holderFingerprint}`
    const termMark = out.open(
      {
        termId: term.id,
        termCode: term.code,
        termMonths: term.months,
        termMiles: term.miles,
        milesBasis: term.milesBasis,
        ...expiration(inputs.saleDate, inputs.odometer, term),
      },
      'deductibles',
    )
    for (const deductible of product.deductibles) {
      facts.deductible = centsToNumber(deductible.amountCents)
      const rate = rateFor(book, plan.id, term.id, deductible.id, vehicleClass, inputs, facts)
      if (!rate) {
        exclude({
          ...t,
          level: 'DEDUCTIBLE',
          deductibleCode: deductible.code,
          reason: 'NO_RATE',
          text: `No rate for ${plan.code} ${term.code} ${deductible.code} in class ${vehicleClass} at ${inputs.odometer ?? 'unknown'} miles in ${facts.customerState ?? 'an unknown state'}`,
        })
        continue
      }
      const offeredHere = judgeOptions(product, plan, facts, requested, offered)
      // Everything that decides the entry is in the key; book versions are immutable, so an entry never goes stale.
      const key = `${book.bookId}|${rate.index}|${deductible.id}|${factorKey}|${holderKey}|${markupKey}|${offeredHere.key}`
      out.raw(
        x.fragments(key, () => ownedBuffer(deductibleJson(x, term, deductible, rate, applicable, offeredHere.options))),
      )
    }
    out.close(termMark)
  }
  facts.termMonths = null
  facts.termMiles = null
  facts.deductible = null
}
