// The terms a contract is sold under, resolved from its own rate-book version (money.md: "the terms
// are those of the contract's own rate-book version, never the book in force today"): a JSON snapshot
// the contract keeps (resolveSaleTerms), and the cancellation terms of one cancel read from it by the
// precedence of money.md (cancellationTermsFor). Pure: the caller gives the compiled book and the
// tenant settings that stand in for what the book leaves out; nothing here reads a database or
// rounds an amount.
//
// Money in a snapshot is a decimal string with two places ("50.00"); percentages and curve fractions
// are plain decimal strings ("90", "12.5", "0.166667"): exact, so whoever computes from them turns
// them into cents and ratios (platform/money.ts multiplyCentsByRatio) and rounds once.
import type { MonthCounting } from '../../../platform/calendar.ts'
import type { CompiledRateBook } from './ratebook.compiled.ts'
import {
  decimalText,
  defaultCancelMethodCode,
  MONTH_EARNINGS,
  moneyText,
  reasonApplies,
  type CancelMethodTerms,
  type CancelReasonTerms,
} from './ratebook.defaults.ts'
import type {
  BenefitType,
  CancelFeeInput,
  CancelRequester,
  DeductibleApplies,
  EarningsMethod,
  FeeBasis,
  FeeKeeper,
  LiabilityBasis,
  RefundIssuer,
  RefundPayee,
} from './ratebook.format.ts'

export type { CancelMethodTerms, CancelReasonTerms }

/** A cancel fee as the book describes it; `amount` and `percent` together: the smaller applies. */
export type CancelFeeTerms = {
  amount: string | null
  /** Per cent of `percentOf`. */
  percent: string | null
  percentOf: FeeBasis | null
  /** The largest a percent fee may be. */
  max: string | null
  keptBy: FeeKeeper
}

/** A product rule: when it matches a cancel (each list null: any), what it changes (each null: the product's). */
export type CancellationRuleTerms = {
  reasons: string[] | null
  states: string[] | null
  requestedBy: CancelRequester[] | null
  method: CancelMethodTerms | null
  /** Replaces the product's fee as a whole. */
  fee: CancelFeeTerms | null
  freeLookDays: number | null
  deductClaims: boolean | null
  refundIssuer: RefundIssuer | null
}

/** Where a product-level term came from: the book, or the default (method) / the tenant setting at the sale. */
export type TermSource = 'BOOK' | 'DEFAULT' | 'SETTING'

export type ProductCancellationTerms = {
  method: CancelMethodTerms
  fee: CancelFeeTerms
  freeLookDays: number
  deductClaims: boolean
  refundIssuer: RefundIssuer
  /** In the book's order; the first that matches a cancel applies. */
  rules: CancellationRuleTerms[]
  sources: { method: TermSource; fee: TermSource; freeLookDays: TermSource; deductClaims: TermSource }
}

export type StateRuleTerms = {
  state: string
  freeLookDays: number | null
  cancelFeeMax: string | null
  /** Per cent of the contract price. */
  cancelFeeMaxPercent: string | null
  claimsDeductible: boolean | null
}

export type EarningsCurveTerms = {
  code: string
  name: string
  /** Month k earns cumulative[k − 1] (exact, a ratio over 10^6); see docs/rate-books.md for terms of another length. */
  cumulative: string[]
}

export type LineEarningsTerms = {
  group: string
  method: EarningsMethod
  curve: EarningsCurveTerms | null
  /** For the methods that count months; null otherwise. */
  monthCounting: MonthCounting | null
  refundable: boolean
}

export type BenefitTerms = {
  type: BenefitType
  perDay: string | null
  maxDays: number | null
  perOccurrence: string | null
  maxAmount: string | null
}

export type ClaimTerms = {
  waitingPeriodDays: number
  waitingPeriodMiles: number
  limitOfLiability: { basis: LiabilityBasis; amount: string | null }
  perClaimLimit: string | null
  deductibleApplies: DeductibleApplies
  benefits: BenefitTerms[]
}

export type TransferTerms = { allowed: boolean; fee: string | null; withinDays: number | null; dealerMayOwn: boolean }

/** The terms snapshot of a contract: JSON as it is (stored as jsonb), self-contained, with catalogue ids. */
export type SaleTerms = {
  /** The shape of this snapshot: a later shape gets 2, and readers of stored snapshots handle both. */
  format: 1
  rateBookVersion: number
  /** rate_book.id of that version. */
  rateBookId: number
  product: { id: number; code: string; type: string }
  plan: { id: number; code: string }
  term: { id: number; code: string; months: number; miles: number }
  cancellation: ProductCancellationTerms
  /** Every cancel method of the version (a cancel may name one of them). */
  cancelMethods: CancelMethodTerms[]
  /** The cancel reasons of the version that apply to the product's type. */
  cancelReasons: CancelReasonTerms[]
  /** Every state rule of the version: the governing state is the contract's to decide. */
  stateRules: StateRuleTerms[]
  /** By disbursement code, each of the contract's priced lines. */
  earnings: Record<string, LineEarningsTerms>
  claims: ClaimTerms
  transfer: TransferTerms
}

/** What the tenant settings give where the book is silent (freeLookDays, defaultCancelFee, deductClaimsPaidFromRefund), read at the sale. */
export type SaleTermsFallback = {
  freeLookDays: number
  defaultCancelFee: number | string
  deductClaimsPaidFromRefund: boolean
}

export type SaleTermsInput = {
  productCode: string
  planCode: string
  termCode: string
  /** The disbursement codes of the contract's priced lines (rate buckets, options, account-holder disbursements). */
  lineCodes: readonly string[]
  fallback: SaleTermsFallback
}

const feeTerms = (f: CancelFeeInput): CancelFeeTerms => ({
  amount: f.amount === undefined ? null : moneyText(f.amount),
  percent: f.percent === undefined ? null : decimalText(f.percent),
  percentOf: f.percentOf ?? null,
  max: f.max === undefined ? null : moneyText(f.max),
  keptBy: f.keptBy ?? 'ADMINISTRATOR',
})

/**
 * The snapshot of the terms a contract of `productCode` / `planCode` / `termCode` is sold under in
 * `book`. Throws when the book has no such product, plan or term: the contract's coverage comes
 * from this very version, so that is a caller's mistake, not a user's. A line code the version does
 * not define is not: an account-holder disbursement may name a code of a later version, and the quote
 * prices it as group OTHER; such a line gets the default terms (PRO_RATA_DAYS, refundable).
 */
export function resolveSaleTerms(book: CompiledRateBook, input: SaleTermsInput): SaleTerms {
  const fail = (what: string) => {
    throw new Error(`rate book version ${book.version} has no ${what}`)
  }
  const product = book.products.find((p) => p.code === input.productCode) ?? fail(`product ${input.productCode}`)
  const source = book.book.products.find((p) => p.code === input.productCode)!
  const plan =
    product.programs.flatMap((g) => g.plans).find((pl) => pl.code === input.planCode) ??
    fail(`plan ${input.planCode} in product ${input.productCode}`)
  const planSource = source.programs.flatMap((g) => g.plans).find((pl) => pl.code === input.planCode)!
  const term = plan.terms.find((t) => t.code === input.termCode) ?? fail(`term ${input.termCode} in plan ${plan.code}`)

  const method = (code: string) => structuredClone(book.cancelMethodByCode.get(code) ?? fail(`cancel method ${code}`))
  const c = source.cancellation
  const cancellation: ProductCancellationTerms = {
    method: method(c?.method ?? defaultCancelMethodCode(product.type)),
    fee: c?.fee
      ? feeTerms(c.fee)
      : {
          amount: moneyText(input.fallback.defaultCancelFee),
          percent: null,
          percentOf: null,
          max: null,
          keptBy: 'ADMINISTRATOR',
        },
    freeLookDays: c?.freeLookDays ?? input.fallback.freeLookDays,
    deductClaims: c?.deductClaims ?? input.fallback.deductClaimsPaidFromRefund,
    refundIssuer: c?.refundIssuer ?? 'ADMINISTRATOR',
    rules: (c?.rules ?? []).map((r) => ({
      reasons: r.reasons ? [...r.reasons] : null,
      states: r.states ? [...r.states] : null,
      requestedBy: r.requestedBy ? [...r.requestedBy] : null,
      method: r.method === undefined ? null : method(r.method),
      fee: r.fee ? feeTerms(r.fee) : null,
      freeLookDays: r.freeLookDays ?? null,
      deductClaims: r.deductClaims ?? null,
      refundIssuer: r.refundIssuer ?? null,
    })),
    sources: {
      method: c?.method === undefined ? 'DEFAULT' : 'BOOK',
      fee: c?.fee ? 'BOOK' : 'SETTING',
      freeLookDays: c?.freeLookDays === undefined ? 'SETTING' : 'BOOK',
      deductClaims: c?.deductClaims === undefined ? 'SETTING' : 'BOOK',
    },
  }

  const curves = new Map((book.book.earningsCurves ?? []).map((k) => [k.code, k]))
  const earnings: Record<string, LineEarningsTerms> = {}
  for (const code of input.lineCodes) {
    if (Object.hasOwn(earnings, code)) continue
    const d = book.disbursementCodes.get(code) ?? { group: 'OTHER', earnings: undefined, refundable: undefined }
    const e = d.earnings
    const methodOf: EarningsMethod = e?.method ?? 'PRO_RATA_DAYS'
    const curve = e?.method === 'CURVE' && e.curve !== undefined ? curves.get(e.curve) : undefined
    earnings[code] = {
      group: d.group,
      method: methodOf,
      curve: curve ? { code: curve.code, name: curve.name, cumulative: curve.cumulative.map(decimalText) } : null,
      monthCounting: MONTH_EARNINGS.has(methodOf) ? (e?.monthCounting ?? 'COMPLETED') : null,
      refundable: d.refundable ?? true,
    }
  }

  const cl = planSource.claims
  const money = (v: number | string | undefined) => (v === undefined ? null : moneyText(v))
  const t = source.transfer
  const allowed = t?.allowed ?? true
  return {
    format: 1,
    rateBookVersion: book.version,
    rateBookId: book.bookId,
    product: { id: product.id, code: product.code, type: product.type },
    plan: { id: plan.id, code: plan.code },
    term: { id: term.id, code: term.code, months: term.months, miles: term.miles },
    cancellation,
    cancelMethods: structuredClone([...book.cancelMethods]),
    cancelReasons: structuredClone(book.cancelReasons.filter((r) => reasonApplies(r, product.type))),
    stateRules: (book.book.stateRules ?? []).map((s) => ({
      state: s.state,
      freeLookDays: s.freeLookDays ?? null,
      cancelFeeMax: money(s.cancelFeeMax),
      cancelFeeMaxPercent: s.cancelFeeMaxPercent === undefined ? null : decimalText(s.cancelFeeMaxPercent),
      claimsDeductible: s.claimsDeductible ?? null,
    })),
    earnings,
    claims: {
      waitingPeriodDays: cl?.waitingPeriodDays ?? 0,
      waitingPeriodMiles: cl?.waitingPeriodMiles ?? 0,
      limitOfLiability: {
        basis: cl?.limitOfLiability?.basis ?? 'NONE',
        amount: money(cl?.limitOfLiability?.amount),
      },
      perClaimLimit: money(cl?.perClaimLimit),
      deductibleApplies: cl?.deductibleApplies ?? 'PER_VISIT',
      benefits: (cl?.benefits ?? []).map((b) => ({
        type: b.type,
        perDay: money(b.perDay),
        maxDays: b.maxDays ?? null,
        perOccurrence: money(b.perOccurrence),
        maxAmount: money(b.maxAmount),
      })),
    },
    transfer: {
      allowed,
      fee: allowed ? money(t?.fee) : null,
      withinDays: allowed ? (t?.withinDays ?? null) : null,
      dealerMayOwn: allowed ? (t?.dealerMayOwn ?? false) : false,
    },
  }
}

/** The fee of one cancel: the product's (or rule's) description with the governing state's caps. Nothing is rounded here. */
export type CancelFeeDecision = CancelFeeTerms & {
  /** The state's largest fee, an amount; null: no cap. */
  capAmount: string | null
  /** The state's largest fee as per cent of the contract price; null: no cap. */
  capPercentOfPrice: string | null
}

export type CancellationDecision =
  | {
      ok: true
      reason: CancelReasonTerms
      method: CancelMethodTerms
      /** Null: no fee (the reason waives it or forces a full refund, or a setting fee on a cancel the administrator asks for). */
      fee: CancelFeeDecision | null
      /** The longer of the product's (or rule's) and the state's. */
      freeLookDays: number
      /** The product (or rule) deducts and the state allows it, and the reason does not force a full refund. */
      deductClaims: boolean
      refundIssuer: RefundIssuer
      forcesFullRefund: boolean
      /** The reason waives the fee (a forced full refund always does). */
      waivesFee: boolean
      refundPayee: RefundPayee
      /** What decided: the index of the product rule that matched, and the state whose rule applied. */
      rule: { productRule: number | null; stateRule: string | null }
    }
  | { ok: false; code: 'reason_not_applicable' | 'requester_not_allowed'; message: string }

export type CancelRequest = {
  /** The governing state (two upper-case letters), or null when unknown: then no state rule applies and no rule by state matches. */
  state: string | null
  reasonCode: string
  requestedBy: CancelRequester
}

/**
 * The terms of one cancel, by money.md's precedence: the first matching product rule overrides the
 * product (an absent member keeps the product's); the free-look is the longer of that and the
 * state's; the fee is that one capped by the state (described, not computed); claims are deducted
 * only when the product says so and the state allows it; a reason that forces a full refund has no
 * fee and deducts no claims. A reason the requester may not ask for, or that is not for the
 * product's type, is refused as a value.
 */
export function cancellationTermsFor(terms: SaleTerms, request: CancelRequest): CancellationDecision {
  const reason = terms.cancelReasons.find((r) => r.code === request.reasonCode)
  if (!reason)
    return {
      ok: false,
      code: 'reason_not_applicable',
      message: `'${request.reasonCode}' is not a cancel reason of this contract's terms (rate book version ${terms.rateBookVersion}, ${terms.product.type} products)`,
    }
  if (!reason.requestedBy.includes(request.requestedBy))
    return {
      ok: false,
      code: 'requester_not_allowed',
      message: `a cancel for ${reason.code} may be asked for by ${reason.requestedBy.join(', ')}, not ${request.requestedBy}`,
    }
  const c = terms.cancellation
  const { state } = request
  const index = c.rules.findIndex(
    (r) =>
      (r.reasons === null || r.reasons.includes(reason.code)) &&
      (r.states === null || (state !== null && r.states.includes(state))) &&
      (r.requestedBy === null || r.requestedBy.includes(request.requestedBy)),
  )
  const rule = index < 0 ? null : c.rules[index]!
  const stateRule = state === null ? undefined : terms.stateRules.find((s) => s.state === state)

  const forcesFullRefund = reason.forcesFullRefund
  const waivesFee = reason.waivesFee || forcesFullRefund
  const fee = rule?.fee ?? c.fee
  // The defaultCancelFee setting is not charged when the administrator cancels (docs/settings.md).
  const settingFeeByAdmin = rule?.fee == null && c.sources.fee === 'SETTING' && request.requestedBy === 'ADMIN'
  const productDeducts = rule?.deductClaims ?? c.deductClaims
  return {
    ok: true,
    reason,
    method: rule?.method ?? c.method,
    fee:
      waivesFee || settingFeeByAdmin
        ? null
        : {
            ...fee,
            capAmount: stateRule?.cancelFeeMax ?? null,
            capPercentOfPrice: stateRule?.cancelFeeMaxPercent ?? null,
          },
    freeLookDays: Math.max(rule?.freeLookDays ?? c.freeLookDays, stateRule?.freeLookDays ?? 0),
    deductClaims: !forcesFullRefund && productDeducts && stateRule?.claimsDeductible !== false,
    refundIssuer: rule?.refundIssuer ?? c.refundIssuer,
    forcesFullRefund,
    waivesFee,
    refundPayee: reason.refundPayee,
    rule: { productRule: rule ? index : null, stateRule: stateRule?.state ?? null },
  }
}
