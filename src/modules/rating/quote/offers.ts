// The offer walk (docs/rate-quote.md, "Order of evaluation"): for one sale, which plans, terms and
// deductibles of a compiled rate book are offered, at which rate and with which options, and, when
// explaining, everything left out with the reason. Pure and synchronous. The quote writes the walk
// out; a contract's rate (quotedRate) is looked up in the same walk, so a rate the quote offered is
// accepted, at the same price, and nothing else is.
import { centsToNumber, type Decimal } from '../../../platform/money.ts'
import type { Explanation, Facts } from '../criteria/index.ts'
import { ruleApplies } from '../disbursements/index.ts'
import type {
  CompiledRateBook,
  IndexedDeductible,
  IndexedOption,
  IndexedPlan,
  IndexedProduct,
  IndexedProgram,
  IndexedRate,
  IndexedTerm,
  RateRef,
} from '../ratebook/index.ts'
import { visibleEntry, type VisibilityEntry } from '../visibility/index.ts'
import {
  missingInputs,
  priceRate,
  productFactor,
  type HolderDisbursement,
  type Price,
  type QuoteInputs,
} from './quote.rules.ts'

export type QuoteMessage = { severity: 'INFO' | 'WARNING'; code: string; text: string; productCode?: string }

export type ExclusionReason =
  | 'NOT_REQUESTED'
  | 'NOT_VISIBLE'
  | 'ASSET_TYPE'
  | 'NOT_EFFECTIVE'
  | 'INPUTS_MISSING'
  | 'CRITERIA'
  | 'CONDITION'
  | 'NO_VEHICLE_CLASS'
  | 'NO_RATE'

/**
 * Something of the book left out, and why. NOT_REQUESTED (the query's productTypes, productIds or
 * programIds left it out) is for quotedRate's answer; a quote reply does not list those.
 */
export type Exclusion = {
  level: 'PRODUCT' | 'PROGRAM' | 'PLAN' | 'TERM' | 'DEDUCTIBLE'
  productCode: string
  programCode?: string
  planCode?: string
  termCode?: string
  deductibleCode?: string
  reason: ExclusionReason
  text: string
  criteria?: { text: string; result: boolean; explanation: Explanation }
}

/** Everything the walk decides from, worked out before it: nothing in it changes during the walk. */
export type Sale = {
  inputs: QuoteInputs
  /** The facts criteria see above the term (quoteFacts): termMonths, termMiles and deductible are null. */
  facts: Facts
  vehicleClass: string | null
  /** A make and model year are known (from the VIN or the inputs): what the `vehicle` input asks for. */
  vehicleKnown: boolean
  dealerNumber: string
  /** The dealer's rate visibility (fails closed: no entry, nothing offered). */
  visibility: readonly VisibilityEntry[]
  /** The disbursements of the dealer, its group and agents (forQuote), and their fingerprint. */
  holders: { fingerprint: string; rules: readonly HolderDisbursement[] }
}

export type OfferedOption = { option: IndexedOption; required: boolean; selected: boolean }
/** The options offered with a rate, and a key naming the lot (ids and flags). */
export type OfferedOptions = { list: readonly OfferedOption[]; key: string }

/** One rate offered: what a rate id names, with the options that go with it. */
export type Offer = { term: IndexedTerm; deductible: IndexedDeductible; rate: IndexedRate; options: OfferedOptions }

/** A term of a plan with at least one rate offered. */
export type TermOffer = {
  term: IndexedTerm
  /** The holder disbursements that apply to a sale of this term (ruleApplies). */
  holderRules: readonly HolderDisbursement[]
  /** In the product's deductible order. */
  offers: readonly Offer[]
}

/** A plan the sale qualifies for. Its terms may still all be without a rate. */
export type PlanOffer = {
  product: IndexedProduct
  program: IndexedProgram
  plan: IndexedPlan
  /** The dealer's visibility entry that decides (the most specific): its markup limits cap retail. */
  visibility: VisibilityEntry
  /** The product's factor (factor tables) for the sale. */
  factor: Decimal
  /**
   * Set when the plan's offers follow from a few values alone (no term criteria, options that read
   * no term or deductible fact, rates chosen by the odometer's band only): those values as text, so
   * that with the book version and the plan it names `terms()` exactly, and what is made of it may be
   * kept under it. Null otherwise.
   */
  decidedBy: string | null
  /** The terms with offers, in the plan's order; worked out on first use (during the walk when explaining). */
  terms(): readonly TermOffer[]
}

export type OfferWalk = {
  /** In book order: products, then programs, then plans. */
  plans: readonly PlanOffer[]
  /** Empty unless explaining. */
  exclusions: readonly Exclusion[]
  /** PRODUCT_INPUTS_MISSING for each product left out for a missing input. */
  messages: readonly QuoteMessage[]
}

export type WalkOptions = {
  /** Record every exclusion with its reason (and work out every plan's terms during the walk). */
  explain: boolean
  /** Walk this plan only (what quotedRate looks for): nothing else of the book is looked at. */
  planId?: number
}

type Rule = IndexedProduct['criteria']
type Place = Omit<Exclusion, 'reason' | 'text' | 'criteria'>
/** The place of exclusions that are not recorded (explain off): no object per level and quote. */
const NOWHERE: Place = Object.freeze({ level: 'PRODUCT', productCode: '' })
const NO_ENTRIES: readonly VisibilityEntry[] = []

/** Whether a rate's odometer band holds the sale odometer (a rate with a band needs one given). */
function odometerFits(rate: IndexedRate, odometer: number | undefined): boolean {
  return (
    (rate.odometerFrom === null || (odometer ?? -1) >= rate.odometerFrom) &&
    (rate.odometerTo === null || (odometer !== undefined && odometer <= rate.odometerTo))
  )
}

/** The product's options offered with a plan for these facts; requested ones (and required ones) are selected. */
export function judgeOptions(
  product: IndexedProduct,
  plan: IndexedPlan,
  facts: Facts,
  requested: ReadonlySet<string>,
): OfferedOptions {
  const list: OfferedOption[] = []
  let key = ''
  for (const option of product.options) {
    if (option.plans && !option.plans.has(plan.code)) continue
    if (option.criteria && !option.criteria.compiled.evaluate(facts)) continue
    const required = option.requiredWhen !== null && option.requiredWhen.compiled.evaluate(facts)
    const selected = required || requested.has(option.code)
    list.push({ option, required, selected })
    key += `${option.id}${required ? 'r' : ''}${selected ? 's' : ''},`
  }
  return { list, key }
}

/** The price of an offer: its rate times the product factor, the term's holder disbursements, the markup limit. */
export function priceOffer(book: CompiledRateBook, plan: PlanOffer, term: TermOffer, offer: Offer): Price {
  return priceRate(offer.rate, plan.factor, book.disbursementCodes, term.holderRules, plan.visibility)
}

/** Walks the book for the sale (see the file comment). */
export function walkOffers(book: CompiledRateBook, sale: Sale, options: WalkOptions): OfferWalk {
  const { inputs, facts, dealerNumber } = sale
  const { explain } = options
  const target = options.planId === undefined ? undefined : book.planById.get(options.planId)
  const plans: PlanOffer[] = []
  const exclusions: Exclusion[] = []
  const messages: QuoteMessage[] = []
  const requested: ReadonlySet<string> = new Set(inputs.surcharges ?? [])

  /** Whether the rule holds; when it does not and the walk explains, records why. */
  const passes = (rule: Rule, at: Place, what: string, seen: Facts): boolean => {
    if (!rule || rule.compiled.evaluate(seen)) return true
    if (explain) {
      const { result, explanation } = rule.compiled.explain(seen)
      exclusions.push({
        ...at,
        reason: 'CRITERIA',
        text: `${what} criteria not met: ${rule.text}`,
        criteria: { text: rule.text, result, explanation },
      })
    }
    return false
  }
  const inWindow = (from: string | null, to: string | null) =>
    (from === null || from <= inputs.saleDate) && (to === null || inputs.saleDate <= to)

  const holderRulesOf = (product: IndexedProduct, program: IndexedProgram, plan: IndexedPlan, term: IndexedTerm) =>
    sale.holders.rules.filter((d) =>
      ruleApplies(d, {
        saleDate: inputs.saleDate,
        productId: product.id,
        programId: program.id,
        planId: plan.id,
        termId: term.id,
      }),
    )

  /**
   * The plan's terms with offers. `perTerm`: each term's holder disbursements, when already worked
   * out; `planOptions`: the options, when the same for every term and deductible.
   */
  function termsOf(
    product: IndexedProduct,
    program: IndexedProgram,
    plan: IndexedPlan,
    vehicleClass: string,
    at: Place,
    perTerm: ReadonlyArray<readonly HolderDisbursement[]> | null,
    planOptions: OfferedOptions | null,
  ): TermOffer[] {
    // Term, rate and option criteria see the term (and the deductible) being priced: facts of their
    // own, made only where something reads them.
    const termFactsNeeded = !plan.termsFreeOfCriteria || product.optionsReadTermFacts || plan.ratesReadTermFacts
    const deductibleFactsNeeded = product.optionsReadDeductible || plan.ratesReadDeductible
    const out: TermOffer[] = []
    plan.terms.forEach((term, i) => {
      const t: Place = explain ? { ...at, level: 'TERM', termCode: term.code } : NOWHERE
      const termFacts: Facts = termFactsNeeded ? { ...facts, termMonths: term.months, termMiles: term.miles } : facts
      if (!passes(term.criteria, t, `Term ${term.code}`, termFacts)) return
      const holderRules = perTerm?.[i] ?? holderRulesOf(product, program, plan, term)
      const termOptions =
        planOptions ?? (product.optionsReadDeductible ? null : judgeOptions(product, plan, termFacts, requested))
      const offers: Offer[] = []
      for (const deductible of product.deductibles) {
        const seen: Facts = deductibleFactsNeeded
          ? { ...termFacts, deductible: centsToNumber(deductible.amountCents) }
          : termFacts
        const rate = book.findRate(
          plan.id,
          term.id,
          deductible.id,
          vehicleClass,
          (r) =>
            odometerFits(r, inputs.odometer) &&
            (r.state === null || r.state === facts.customerState) &&
            (r.criteria === null || r.criteria.compiled.evaluate(seen)),
        )
        if (!rate) {
          if (explain)
            exclusions.push({
              ...t,
              level: 'DEDUCTIBLE',
              deductibleCode: deductible.code,
              reason: 'NO_RATE',
              text: `No rate for ${plan.code} ${term.code} ${deductible.code} in class ${vehicleClass} at ${inputs.odometer ?? 'unknown'} miles in ${facts.customerState ?? 'an unknown state'}`,
            })
          continue
        }
        offers.push({ term, deductible, rate, options: termOptions ?? judgeOptions(product, plan, seen, requested) })
      }
      if (offers.length > 0) out.push({ term, holderRules, offers })
    })
    return out
  }

  /** The offer of a plan that qualifies (see PlanOffer for decidedBy). */
  function planOffer(
    product: IndexedProduct,
    program: IndexedProgram,
    plan: IndexedPlan,
    entry: VisibilityEntry,
    factor: Decimal,
    vehicleClass: string,
    at: Place,
  ): PlanOffer {
    // Options that read no term fact are judged once for the plan.
    const planOptions = product.optionsReadTermFacts ? null : judgeOptions(product, plan, facts, requested)
    const cells = plan.termsFreeOfCriteria && planOptions ? book.planCells(plan, vehicleClass) : null
    let decidedBy: string | null = null
    let perTerm: Array<readonly HolderDisbursement[]> | null = null
    if (cells && planOptions) {
      let bands = ''
      for (const cell of cells) bands += `${cell.band(inputs.odometer)}.`
      let holderKey = ''
      if (sale.holders.rules.length > 0) {
        perTerm = plan.terms.map((term) => holderRulesOf(product, program, plan, term))
        if (perTerm.some((rules) => rules.length > 0))
          holderKey = `${perTerm.map((rules) => rules.map((d) => d.id).join(',')).join('/')}@${sale.holders.fingerprint}`
      }
      decidedBy = `${vehicleClass}|${bands}|${holderKey}|${planOptions.key}`
    }
    let terms: readonly TermOffer[] | undefined
    const offer: PlanOffer = {
      product,
      program,
      plan,
      visibility: entry,
      factor,
      decidedBy,
      terms: () => (terms ??= termsOf(product, program, plan, vehicleClass, at, perTerm, planOptions)),
    }
    // Explaining, the terms' exclusions follow their plan's.
    if (explain) offer.terms()
    return offer
  }

  const visibleByProduct = new Map<number, VisibilityEntry[]>()
  for (const v of sale.visibility) {
    const list = visibleByProduct.get(v.productId)
    if (list) list.push(v)
    else visibleByProduct.set(v.productId, [v])
  }
  for (const product of book.products) {
    if (target && target.product !== product) continue
    // Where an exclusion happened: built only when explaining (a quote walks dozens of these).
    const p: Place = explain ? { level: 'PRODUCT', productCode: product.code } : NOWHERE
    if (
      (inputs.productTypes && !inputs.productTypes.includes(product.type)) ||
      (inputs.productIds && !inputs.productIds.includes(product.id))
    ) {
      if (explain) exclusions.push({ ...p, reason: 'NOT_REQUESTED', text: `${product.code} was not asked for` })
      continue
    }
    const productVisibility = visibleByProduct.get(product.id) ?? NO_ENTRIES
    if (productVisibility.length === 0) {
      if (explain)
        exclusions.push({ ...p, reason: 'NOT_VISIBLE', text: `Dealer ${dealerNumber} may not sell ${product.code}` })
      continue
    }
    if (!product.assetTypes.has(inputs.assetType)) {
      if (explain)
        exclusions.push({
          ...p,
          reason: 'ASSET_TYPE',
          text: `${product.code} is not sold for asset type ${inputs.assetType}`,
        })
      continue
    }
    if (!inWindow(product.effectiveFrom, product.effectiveTo)) {
      if (explain)
        exclusions.push({ ...p, reason: 'NOT_EFFECTIVE', text: `${product.code} is not on sale on ${inputs.saleDate}` })
      continue
    }
    const missing = missingInputs(product.requiredInputs, inputs, sale.vehicleKnown)
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
      if (explain) exclusions.push({ ...p, reason: 'INPUTS_MISSING', text: `${product.code} needs ${names}` })
      continue
    }
    if (!passes(product.criteria, p, product.code, facts)) continue
    const factor = productFactor(product.factorTables, facts)
    for (const program of product.programs) {
      if (target && target.program !== program) continue
      const g: Place = explain ? { ...p, level: 'PROGRAM', programCode: program.code } : NOWHERE
      if (inputs.programIds && !inputs.programIds.includes(program.id)) {
        if (explain) exclusions.push({ ...g, reason: 'NOT_REQUESTED', text: `${program.code} was not asked for` })
        continue
      }
      if (!productVisibility.some((v) => v.programId === null || v.programId === program.id)) {
        if (explain)
          exclusions.push({
            ...g,
            reason: 'NOT_VISIBLE',
            text: `Dealer ${dealerNumber} may not sell program ${program.code}`,
          })
        continue
      }
      if (!passes(program.criteria, g, `Program ${program.code}`, facts)) continue
      for (const plan of program.plans) {
        if (target && target !== plan) continue
        const l: Place = explain ? { ...g, level: 'PLAN', planCode: plan.code } : NOWHERE
        // The most specific entry decides (a plan's own markup limit beats its product's).
        const entry = visibleEntry(productVisibility, { productId: product.id, programId: program.id, planId: plan.id })
        if (!entry) {
          if (explain)
            exclusions.push({
              ...l,
              reason: 'NOT_VISIBLE',
              text: `Dealer ${dealerNumber} may not sell plan ${plan.code}`,
            })
          continue
        }
        if (!plan.conditions.has(inputs.vehicleCondition ?? '')) {
          if (explain)
            exclusions.push({
              ...l,
              reason: 'CONDITION',
              text: `${plan.code} is for ${[...plan.conditions].join(', ')} vehicles, not ${inputs.vehicleCondition ?? 'an unknown condition'}`,
            })
          continue
        }
        if (!inWindow(plan.effectiveFrom, plan.effectiveTo)) {
          if (explain)
            exclusions.push({
              ...l,
              reason: 'NOT_EFFECTIVE',
              text: `${plan.code} is not on sale on ${inputs.saleDate}`,
            })
          continue
        }
        if (!passes(plan.criteria, l, `Plan ${plan.code}`, facts)) continue
        const vehicleClass = sale.vehicleClass
        if (vehicleClass === null) {
          if (explain)
            exclusions.push({
              ...l,
              reason: 'NO_VEHICLE_CLASS',
              text: `${plan.code}: the vehicle has no class in the rate book`,
            })
          continue
        }
        plans.push(planOffer(product, program, plan, entry, factor, vehicleClass, l))
      }
    }
  }
  return { plans, exclusions, messages }
}

/** Where a rate id leads in a walk made for its plan (WalkOptions.planId). */
export type FoundOffer =
  { found: true; plan: PlanOffer; term: TermOffer; offer: Offer } | { found: false; reason: string }

/** The offer a rate id names, or why the walk does not offer it (from its exclusions; explain the walk for them). */
export function findOffer(walk: OfferWalk, ref: RateRef): FoundOffer {
  const plan = walk.plans.find((p) => p.plan.id === ref.planId)
  const termOffer = plan?.terms().find((t) => t.term.id === ref.termId)
  const offer = termOffer?.offers.find((o) => o.deductible.id === ref.deductibleId)
  if (plan && termOffer && offer) {
    return offer.rate.index === ref.rateIndex
      ? { found: true, plan, term: termOffer, offer }
      : { found: false, reason: 'the quote priced another rate for this vehicle' }
  }
  const term = plan?.plan.terms.find((t) => t.id === ref.termId)
  const deductible = plan?.product.deductibles.find((d) => d.id === ref.deductibleId)
  // The exclusion on the rate's own path: above the term, its term, or its deductible of that term.
  const why = walk.exclusions.find(
    (e) =>
      e.level === 'PRODUCT' ||
      e.level === 'PROGRAM' ||
      e.level === 'PLAN' ||
      (e.termCode === term?.code && (e.level === 'TERM' || e.deductibleCode === deductible?.code)),
  )
  if (!why) return { found: false, reason: 'the quote does not offer it' }
  return { found: false, reason: why.reason === 'NOT_REQUESTED' ? 'the quote was for other products' : why.text }
}
