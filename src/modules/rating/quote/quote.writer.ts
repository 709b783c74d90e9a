// Writes an offer walk as the quote reply's JSON (RateQuoteSchema, quote.schemas.ts), once, into one
// pooled buffer (reply-json.ts). The reply is large (100-200 KB) and hot, so what does not change
// from quote to quote is kept already encoded, in caches bounded in bytes: each priced deductible,
// and whole plans whose offers follow from a few values (PlanOffer.decidedBy). Every cache key holds
// the book version, and versions are immutable, so a piece is never stale, only unused.
import { centsToNumber, type Decimal } from '../../../platform/money.ts'
import {
  formatRateId,
  type CompiledRateBook,
  type IndexedOption,
  type IndexedPlan,
  type IndexedProduct,
  type IndexedProgram,
} from '../ratebook/index.ts'
import { priceOffer, type Offer, type OfferWalk, type PlanOffer, type Sale, type TermOffer } from './offers.ts'
import { expiration, expirationOdometer, priceOption } from './quote.rules.ts'
import { openArrayPrefix, ownedBuffer, TreeWriter, type EncodedReply } from './reply-json.ts'

/** Memory for encoded pieces kept per instance: deductible entries (about 1 KB) and whole plans (about 25 KB). */
const FRAGMENT_BYTES = 32 * 1024 * 1024
const PLAN_PIECE_BYTES = 96 * 1024 * 1024

/** The products of a quote, written: what the reply is finished with. */
export type WrittenProducts = {
  /** No product was written (then the quote says NO_PLANS_FOUND). */
  empty: boolean
  /** Codes of the options offered with at least one written rate. */
  offered: ReadonlySet<string>
  /** The reply: `head` (written first, so it may still change until now) and the products. */
  reply(head: Record<string, unknown>): EncodedReply
}

/**
 * A priced term of a plan, encoded up to its deductibles' closing bracket: only the expiration
 * odometer, which depends on the exact sale odometer, is written per quote after it.
 */
type TermPiece = { json: Buffer; term: IndexedPlan['terms'][number] }
/** A plan's priced terms, and the options they offer. */
type PlanPieces = { terms: TermPiece[]; offered: readonly string[] }

/**
 * A map from everything that decides a piece to the piece, bounded in bytes: the least recently used
 * pieces leave first.
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

// The opening text of each product, program and plan in a reply, made once per compiled book.
const prefixes = new WeakMap<object, string>()
function prefixOf<T extends object>(node: T, head: (node: T) => Record<string, unknown>, key: string): string {
  let prefix = prefixes.get(node)
  if (prefix === undefined) {
    prefix = openArrayPrefix(head(node), key)
    prefixes.set(node, prefix)
  }
  return prefix
}
const productPrefix = (product: IndexedProduct) =>
  prefixOf(
    product,
    (p) => ({ productId: p.id, productCode: p.code, productName: p.name, productType: p.type }),
    'programs',
  )
const programPrefix = (program: IndexedProgram) =>
  prefixOf(program, (g) => ({ programId: g.id, programCode: g.code, programName: g.name }), 'plans')
const planPrefix = (plan: IndexedPlan) =>
  prefixOf(
    plan,
    (l) => ({
      planId: l.id,
      planCode: l.code,
      planName: l.name,
      formNumber: l.formNumber,
      requiresCustomFields: l.requiresCustomFields,
      customFields: l.customFields.map(({ level: _level, ...f }) => f),
    }),
    'terms',
  )

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

/** One priced deductible entry of a term, as JSON. */
function offerJson(
  book: CompiledRateBook,
  plan: PlanOffer,
  term: TermOffer,
  offer: Offer,
  optionReply: OptionReply,
): string {
  const price = priceOffer(book, plan, term, offer)
  const { deductible } = offer
  return JSON.stringify({
    deductibleId: deductible.id,
    code: deductible.code,
    amount: centsToNumber(deductible.amountCents),
    type: deductible.type,
    rate: {
      rateId: formatRateId({
        planId: plan.plan.id,
        termId: offer.term.id,
        deductibleId: deductible.id,
        rateIndex: offer.rate.index,
      }),
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
    options: offer.options.list.map((o) => optionReply(o.option, o.required, o.selected)),
  })
}

const holderKeyOf = (term: TermOffer, fingerprint: string) =>
  term.holderRules.length === 0 ? '' : `${term.holderRules.map((d) => d.id).join(',')}@${fingerprint}`

export type QuoteWriter = ReturnType<typeof createQuoteWriter>

export function createQuoteWriter() {
  const deductiblePieces = createFragmentCache<Buffer>(FRAGMENT_BYTES, (b) => b.length)
  const planPieces = createFragmentCache<PlanPieces>(PLAN_PIECE_BYTES, (p) =>
    p.terms.reduce((n, t) => n + t.json.length, 0),
  )

  /** A plan whose offers follow from its decidedBy: its priced terms from the cache, made on a miss. */
  function writeDecidedPlan(
    out: TreeWriter,
    book: CompiledRateBook,
    sale: Sale,
    plan: PlanOffer,
    keys: { factor: string; markup: string },
    optionReply: () => OptionReply,
    offered: Set<string>,
  ): void {
    const { inputs } = sale
    // decidedBy names the offers; the factor, the markup limit and the sale date (expiration dates) their encoding.
    const key = `${book.bookId}|P${plan.plan.id}|${plan.decidedBy}|${keys.factor}|${keys.markup}|${inputs.saleDate}`
    const pieces = planPieces(key, () => {
      const codes = new Set<string>()
      const terms = plan.terms().map((term) => {
        const head = {
          termId: term.term.id,
          termCode: term.term.code,
          termMonths: term.term.months,
          termMiles: term.term.miles,
          milesBasis: term.term.milesBasis,
          expirationDate: expiration(inputs.saleDate, undefined, term.term).expirationDate,
        }
        const entries = term.offers.map((offer) => {
          for (const o of offer.options.list) codes.add(o.option.code)
          return offerJson(book, plan, term, offer, optionReply())
        })
        return { json: ownedBuffer(`${openArrayPrefix(head, 'deductibles')}${entries.join(',')}]`), term: term.term }
      })
      return { terms, offered: [...codes] }
    })
    for (const { json, term } of pieces.terms)
      out.element(json, `,"expirationOdometer":${expirationOdometer(inputs.odometer, term)}}`)
    for (const code of pieces.offered) offered.add(code)
  }

  /** A plan priced deductible by deductible, each entry from the cache. */
  function writePlanTerms(
    out: TreeWriter,
    book: CompiledRateBook,
    sale: Sale,
    plan: PlanOffer,
    keys: { factor: string; markup: string },
    optionReply: () => OptionReply,
    offered: Set<string>,
  ): void {
    const { inputs } = sale
    for (const term of plan.terms()) {
      const holderKey = holderKeyOf(term, sale.holders.fingerprint)
      const mark = out.open(
        {
          termId: term.term.id,
          termCode: term.term.code,
          termMonths: term.term.months,
          termMiles: term.term.miles,
          milesBasis: term.term.milesBasis,
          ...expiration(inputs.saleDate, inputs.odometer, term.term),
        },
        'deductibles',
      )
      for (const offer of term.offers) {
        for (const o of offer.options.list) offered.add(o.option.code)
        const key = `${book.bookId}|${offer.rate.index}|${offer.deductible.id}|${keys.factor}|${holderKey}|${keys.markup}|${offer.options.key}`
        out.raw(deductiblePieces(key, () => ownedBuffer(offerJson(book, plan, term, offer, optionReply()))))
      }
      out.close(mark)
    }
  }

  return {
    /**
     * Writes the walk's plans, grouped by product and program in book order. `reuseDecidedPlans`:
     * take decided plans whole from the cache (off when explaining, so that each entry is priced on
     * its own path and the two can be compared).
     */
    products(
      book: CompiledRateBook,
      sale: Sale,
      walk: OfferWalk,
      options: { reuseDecidedPlans: boolean },
    ): WrittenProducts {
      const out = new TreeWriter()
      const offered = new Set<string>()
      let product: { node: IndexedProduct; mark: ReturnType<TreeWriter['openPrefix']> } | undefined
      let program: { node: IndexedProgram; mark: ReturnType<TreeWriter['openPrefix']> } | undefined
      // The factor is the product's: its text and the option replies are made once per product.
      let factorKey = ''
      let optionReply: OptionReply | undefined
      for (const plan of walk.plans) {
        if (product?.node !== plan.product) {
          if (program) out.close(program.mark)
          if (product) out.close(product.mark)
          program = undefined
          product = { node: plan.product, mark: out.openPrefix(productPrefix(plan.product)) }
          factorKey = plan.factor.toString()
          optionReply = undefined
        }
        if (program?.node !== plan.program) {
          if (program) out.close(program.mark)
          program = { node: plan.program, mark: out.openPrefix(programPrefix(plan.program)) }
        }
        const factor = plan.factor
        const replies = () => (optionReply ??= optionReplies(factor))
        const keys = {
          factor: factorKey,
          markup: `${plan.visibility.maxMarkupAmount ?? ''}/${plan.visibility.maxMarkupPercent ?? ''}`,
        }
        const mark = out.openPrefix(planPrefix(plan.plan))
        if (options.reuseDecidedPlans && plan.decidedBy !== null)
          writeDecidedPlan(out, book, sale, plan, keys, replies, offered)
        else writePlanTerms(out, book, sale, plan, keys, replies, offered)
        out.close(mark)
      }
      if (program) out.close(program.mark)
      if (product) out.close(product.mark)
      return {
        empty: !out.hasContent,
        offered,
        reply: (head) => out.toReply(head, 'products'),
      }
    },

    /** A reply without products (no book, an inactive dealer, nothing visible). */
    none(): WrittenProducts {
      const out = new TreeWriter()
      return { empty: true, offered: new Set(), reply: (head) => out.toReply(head, 'products') }
    },
  }
}
