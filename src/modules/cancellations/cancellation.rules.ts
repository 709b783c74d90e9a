// The refund of a cancel, as pure rules: the unearned fraction U of every formula of
// `../shared/design/money.md` and the whole quote built on it (gross, fee, claims deducted, net, each
// payee's share and the dealer's markup share). money.md is the definition; this file agrees with it
// to the cent. Nothing here reads a database, a clock or a setting: the caller gives the contract's
// facts and the decision of `cancellationTermsFor` (rating), and gets a value back. Bad input a user
// can send (a cancel date before the sale, an odometer below the sale odometer) is a refusal value
// `{ ok: false, errors }`, never a throw; a throw is a caller's mistake (a method without its
// parameters, a negative amount).
//
// Arithmetic (decision 0012): money is integer cents; every fraction is an exact ratio of BigInts
// (`Ratio`, in lowest terms, 0 ≤ num ≤ den), compared by cross-multiplying, and an amount is rounded
// ONCE, half up, by `multiplyCentsByRatio`: the gross `round(B·U)`, a percentage fee, a state's cap
// in per cent of the price. Factors shown to people (`displayFactor`, six places) are display only.
//
// Choices where money.md leaves one (docs: the same words belong in docs/cancellations.md):
// - Non-refundable lines (`terms.earnings[code].refundable === false`; docs/rate-books.md: "keeps the
//   bucket's share out of every refund"): such a line refunds 0 and the part of the price it stands
//   for is not refunded, in every path (free-look and a forced full refund included). The refundable
//   price is `B = max(0, P − Σ non-refundable cᵢ)`; `gross = round(B·U)` (FIXED_AMOUNT: min(amount,
//   B)); the shares are `allocate(gross, [c₁ … c_k, m])` with a non-refundable line's weight 0. With
//   every line refundable, B = P and this is money.md exactly.
// - A negative markup (a locked retail below a dealer cost that account-holder disbursements raised):
//   `allocate` takes no negative weight, so the lines share `T = round(R·U)` (R the refundable dealer
//   cost) by `allocate(T, [c₁ … c_k])`, and the markup share is `gross − T`, negative: the dealer gets
//   back the unearned part of what it paid above the price. Shares still add to the gross exactly.
// - PRO_RATA_MILES when miles do not apply (no miles in the term, the sale or expiration odometer
//   unknown, cov ≤ 0) reads the time by days, as lesser and greater do ("time alone");
//   `parts.decidedBy` says TIME.
// - Months are counted by the method's `monthCounting` (COMPLETED when it has none).
// - A method that reads miles, when miles apply, needs the cancel odometer: without it the quote is
//   refused (`cancelOdometer`, `required`) rather than letting the time alone decide.
// - A fee `percent` without `percentOf` is per cent of the PRICE.
// - `withinFreeLook` is true when the free-look decided (inside the window, no claim paid, no reason
//   forcing the full refund first); `freeLook` tells the window and whether a claim lost it.
import { daysBetween, isIsoDate, monthsElapsed, type MonthCounting } from '../../platform/calendar.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { allocate, centsToDecimal, Decimal, multiplyCentsByRatio, toCents } from '../../platform/money.ts'
import type {
  CancelFeeDecision,
  CancelFormula,
  CancellationDecision,
  CancelMethodTerms,
  CancelReasonTerms,
} from '../rating/index.ts'

// ---- exact ratios ------------------------------------------------------------------------------

/** An exact fraction in lowest terms, `den > 0`; every fraction of a refund lies in [0, 1]. */
export type Ratio = { num: bigint; den: bigint }

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a
  let y = b < 0n ? -b : b
  while (y !== 0n) [x, y] = [y, x % y]
  return x
}

/** `num/den` in lowest terms; `den` must be positive. */
export function ratio(num: number | bigint, den: number | bigint): Ratio {
  const n = BigInt(num)
  const d = BigInt(den)
  if (d <= 0n) throw new RangeError('ratio: the denominator must be positive')
  const g = gcd(n, d)
  return g <= 1n ? { num: n, den: d } : { num: n / g, den: d / g }
}

export const ZERO_RATIO: Ratio = Object.freeze({ num: 0n, den: 1n })
export const ONE_RATIO: Ratio = Object.freeze({ num: 1n, den: 1n })

/** −1, 0 or 1 as a < b, a = b, a > b (cross-multiplied: exact). */
export function compareRatios(a: Ratio, b: Ratio): number {
  const l = a.num * b.den
  const r = b.num * a.den
  return l < r ? -1 : l > r ? 1 : 0
}

const times = (a: Ratio, b: Ratio): Ratio => ratio(a.num * b.num, a.den * b.den)

/**
 * The sales tax a cancel refunds (money.md "A cancel quote"; docs/sales-tax.md "At cancel"): the
 * unearned share of the tax the administrator collected and holds, `round(tax·U)` half up, once.
 * The tax the dealer collected is not on the administrator's books: the dealer refunds it.
 */
export function salesTaxRefundCents(
  rules: ReadonlyArray<{ collectedBy: 'DEALER' | 'ADMINISTRATOR'; taxCents: number }>,
  U: Ratio,
): number {
  const held = rules.reduce((n, r) => n + (r.collectedBy === 'ADMINISTRATOR' ? r.taxCents : 0), 0)
  return held === 0 ? 0 : multiplyCentsByRatio(held, U.num, U.den)
}

/** `a/b` written "a/b" (lowest terms), the exact ratio as text for JSON. */
export const ratioText = (r: Ratio): string => `${r.num}/${r.den}`

/** A fraction as people read it: six places, half up ("0.817518"); display only, nothing computes from it. */
export function displayFactor(r: Ratio): string {
  const micro = multiplyCentsByRatio(1_000_000n, r.num, r.den)
  const whole = Math.floor(micro / 1_000_000)
  return `${whole}.${String(micro % 1_000_000).padStart(6, '0')}`
}

/** A plain decimal text of the terms ("90", "12.5") as an exact ratio. */
export function decimalRatio(text: string): Ratio {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text)
  if (!m) throw new RangeError(`'${text}' is not a plain decimal`)
  const places = m[2]?.length ?? 0
  return ratio(BigInt(`${m[1]}${m[2] ?? ''}`), 10n ** BigInt(places))
}

/** `percent` per cent (a decimal text) of `cents`, rounded once, half up. */
export function percentOfCentsExact(cents: number, percent: string): number {
  const p = decimalRatio(percent)
  return multiplyCentsByRatio(cents, p.num, p.den * 100n)
}

const moneyCents = (text: string): number => toCents(new Decimal(text))

// ---- the facts of one cancel ---------------------------------------------------------------------

export type MilesBasis = 'FROM_SALE_ODOMETER' | 'FROM_ZERO'

/** What a cancel's fraction reads: the contract's dates and odometers (as stored), the cancel's date and odometer. */
export type CancelFacts = {
  /** E: calendar dates YYYY-MM-DD in the tenant's time zone. */
  effectiveDate: string
  /** X, as stored. */
  expirationDate: string
  /** S: the free-look counts from it; no cancel before it. */
  saleDate: string
  /** C. */
  cancelDate: string
  /** n: the term's months (a GAP contract: the GAP term). */
  termMonths: number
  /** The term's miles; 0: unlimited (miles do not apply). */
  termMiles: number
  milesBasis: MilesBasis
  saleOdometer: number | null
  /** As stored (FROM_ZERO: the term's miles, whatever is stored). */
  expirationOdometer: number | null
  cancelOdometer: number | null
}

/** The bad input of the facts, whatever the method: every problem listed. */
export function cancelFactProblems(facts: CancelFacts): FieldError[] {
  const errors: FieldError[] = []
  if (!isIsoDate(facts.cancelDate)) {
    errors.push({ field: 'cancelDate', code: 'invalid_format', message: 'must be a date written YYYY-MM-DD' })
  } else if (facts.cancelDate < facts.saleDate) {
    errors.push({
      field: 'cancelDate',
      code: 'before_sale_date',
      message: `must be on or after the sale date ${facts.saleDate}`,
    })
  }
  const o = facts.cancelOdometer
  if (o !== null && (!Number.isSafeInteger(o) || o < 0)) {
    errors.push({
      field: 'cancelOdometer',
      code: 'out_of_range',
      message: 'must be a whole number of miles, 0 or more',
    })
  } else if (o !== null && facts.saleOdometer !== null && o < facts.saleOdometer) {
    errors.push({
      field: 'cancelOdometer',
      code: 'below_sale_odometer',
      message: `must be at least the sale odometer ${facts.saleOdometer}`,
    })
  }
  return errors
}

// ---- the unearned fraction U ---------------------------------------------------------------------

/** The time or miles part that decided a fraction; FORMULA: neither (FIXED_AMOUNT, FULL, NONE). */
export type DecidedBy = 'TIME' | 'MILES' | 'FORMULA'

/** What a fraction was computed from (each null when the formula did not read it). */
export type FractionParts = {
  formula: CancelFormula
  /** The time the formula read: DAYS (d of D) or MONTHS (k of n). */
  timeBasis: 'DAYS' | 'MONTHS' | null
  /** D = days(E, X). */
  daysInTerm: number | null
  /** d = clamp(days(E, C), 0, D). */
  daysElapsed: number | null
  /** n. */
  termMonths: number | null
  /** k = monthsElapsed(E, C, n, monthCounting). */
  monthsElapsed: number | null
  monthCounting: MonthCounting | null
  /**
   * The unearned fraction of time as the formula read it: pro rata of its basis ((D − d)/D or
   * (n − k)/n; for SHORT_RATE before its percentage), or RULE_OF_78's / MEAN_PR_R78's own value.
   */
  time: Ratio | null
  /** Whether miles took part (the formula reads miles, and they apply to this contract). */
  milesApply: boolean
  /** cov = O_x − O_s (FROM_ZERO: term miles − O_s). */
  milesCovered: number | null
  /** used = clamp(O_c − O_s, 0, cov). */
  milesUsed: number | null
  /** (cov − used)/cov. */
  miles: Ratio | null
  /** SHORT_RATE's s ("90"). */
  shortRatePercent: string | null
  decidedBy: DecidedBy
}

export type UnearnedFraction =
  | {
      ok: true
      /** U, exact; null for FIXED_AMOUNT, which has no fraction (gross = min(amount, price)). */
      ratio: Ratio | null
      /** FIXED_AMOUNT's amount in cents; null otherwise. */
      fixedAmountCents: number | null
      parts: FractionParts
    }
  | { ok: false; errors: FieldError[] }

/** The cancel method's members the fraction reads. */
export type FractionMethod = Pick<
  CancelMethodTerms,
  'formula' | 'timeBasis' | 'monthCounting' | 'shortRatePercent' | 'fixedAmount'
>

type TimePart = Pick<
  FractionParts,
  'timeBasis' | 'daysInTerm' | 'daysElapsed' | 'termMonths' | 'monthsElapsed' | 'monthCounting'
> & { time: Ratio }

function byDays(facts: CancelFacts): TimePart {
  const D = daysBetween(facts.effectiveDate, facts.expirationDate)
  // A term of no days has nothing left to refund (and nothing to divide by).
  const d = D <= 0 ? 0 : Math.min(Math.max(daysBetween(facts.effectiveDate, facts.cancelDate), 0), D)
  return {
    timeBasis: 'DAYS',
    daysInTerm: D,
    daysElapsed: d,
    termMonths: null,
    monthsElapsed: null,
    monthCounting: null,
    time: D <= 0 ? ZERO_RATIO : ratio(D - d, D),
  }
}

/** k of n months, counted by `counting`; the time ratio is left to the formula. */
function months(facts: CancelFacts, counting: MonthCounting | null) {
  const n = facts.termMonths
  const mode = counting ?? 'COMPLETED'
  const k = monthsElapsed(facts.effectiveDate, facts.cancelDate, n, mode)
  return { n, k, mode }
}

function byMonths(facts: CancelFacts, counting: MonthCounting | null): TimePart {
  const { n, k, mode } = months(facts, counting)
  return {
    timeBasis: 'MONTHS',
    daysInTerm: null,
    daysElapsed: null,
    termMonths: n,
    monthsElapsed: k,
    monthCounting: mode,
    time: n <= 0 ? ZERO_RATIO : ratio(n - k, n),
  }
}

type MilesPart = { apply: false } | { apply: true; cov: number; used: number; miles: Ratio } | { apply: 'missing' }

/** money.md "Miles": applies with term miles, the sale and expiration odometers known, and cov > 0. */
function milesPart(facts: CancelFacts): MilesPart {
  const { saleOdometer: os, termMiles } = facts
  if (termMiles <= 0 || os === null) return { apply: false }
  const ox = facts.milesBasis === 'FROM_ZERO' ? termMiles : facts.expirationOdometer
  if (ox === null) return { apply: false }
  const cov = ox - os
  if (cov <= 0) return { apply: false }
  if (facts.cancelOdometer === null) return { apply: 'missing' }
  const used = Math.min(Math.max(facts.cancelOdometer - os, 0), cov)
  return { apply: true, cov, used, miles: ratio(cov - used, cov) }
}

const NO_TIME: TimePart = {
  timeBasis: null,
  daysInTerm: null,
  daysElapsed: null,
  termMonths: null,
  monthsElapsed: null,
  monthCounting: null,
  time: ZERO_RATIO,
}

/**
 * U of a cancel by `method` (money.md, "Unearned fraction U of a cancel"), exact, with what decided
 * it. Refuses the facts' bad input (cancelFactProblems), and a missing cancel odometer when the
 * method reads miles and they apply.
 */
export function unearnedFraction(method: FractionMethod, facts: CancelFacts): UnearnedFraction {
  const errors = cancelFactProblems(facts)
  if (errors.length > 0) return { ok: false, errors }
  const f = method.formula
  const timeOf = (basis: 'DAYS' | 'MONTHS' | null): TimePart =>
    basis === 'MONTHS' ? byMonths(facts, method.monthCounting) : byDays(facts)
  const result = (
    r: Ratio | null,
    t: TimePart | null,
    m: MilesPart,
    decidedBy: DecidedBy,
    extra: { fixedAmountCents?: number; shortRatePercent?: string } = {},
  ): UnearnedFraction => {
    const tp = t ?? NO_TIME
    return {
      ok: true,
      ratio: r,
      fixedAmountCents: extra.fixedAmountCents ?? null,
      parts: {
        formula: f,
        timeBasis: tp.timeBasis,
        daysInTerm: tp.daysInTerm,
        daysElapsed: tp.daysElapsed,
        termMonths: tp.termMonths,
        monthsElapsed: tp.monthsElapsed,
        monthCounting: tp.monthCounting,
        time: t === null ? null : t.time,
        milesApply: m.apply === true,
        milesCovered: m.apply === true ? m.cov : null,
        milesUsed: m.apply === true ? m.used : null,
        miles: m.apply === true ? m.miles : null,
        shortRatePercent: extra.shortRatePercent ?? null,
        decidedBy,
      },
    }
  }
  const missingOdometer: UnearnedFraction = {
    ok: false,
    errors: [
      {
        field: 'cancelOdometer',
        code: 'required',
        message: `the ${f} method reads the miles driven: the cancel odometer is required`,
      },
    ],
  }

  switch (f) {
    case 'PRO_RATA_DAYS': {
      const t = byDays(facts)
      return result(t.time, t, { apply: false }, 'TIME')
    }
    case 'PRO_RATA_MONTHS': {
      const t = byMonths(facts, method.monthCounting)
      return result(t.time, t, { apply: false }, 'TIME')
    }
    case 'RULE_OF_78':
    case 'MEAN_PR_R78': {
      const t = byMonths(facts, method.monthCounting)
      const { termMonths: n, monthsElapsed: k } = t as { termMonths: number; monthsElapsed: number }
      const r =
        n <= 0
          ? ZERO_RATIO
          : f === 'RULE_OF_78'
            ? ratio((n - k) * (n - k + 1), n * (n + 1))
            : ratio((n - k) * (2 * n - k + 2), 2 * n * (n + 1))
      return result(r, { ...t, time: r }, { apply: false }, 'TIME')
    }
    case 'PRO_RATA_MILES': {
      const m = milesPart(facts)
      if (m.apply === 'missing') return missingOdometer
      if (m.apply === true) return result(m.miles, null, m, 'MILES')
      const t = byDays(facts)
      return result(t.time, t, m, 'TIME')
    }
    case 'PRO_RATA_LESSER_TIME_MILES':
    case 'PRO_RATA_GREATER_TIME_MILES': {
      const m = milesPart(facts)
      if (m.apply === 'missing') return missingOdometer
      const t = timeOf(method.timeBasis)
      if (m.apply === false) return result(t.time, t, m, 'TIME')
      const c = compareRatios(m.miles, t.time)
      // On a tie the time decides (either gives the same U).
      const milesWin = f === 'PRO_RATA_LESSER_TIME_MILES' ? c < 0 : c > 0
      return result(milesWin ? m.miles : t.time, t, m, milesWin ? 'MILES' : 'TIME')
    }
    case 'SHORT_RATE': {
      if (method.shortRatePercent === null) throw new RangeError('a SHORT_RATE method needs its shortRatePercent')
      const t = timeOf(method.timeBasis)
      const s = decimalRatio(method.shortRatePercent)
      const r = times(ratio(s.num, s.den * 100n), t.time)
      return result(r, t, { apply: false }, 'TIME', { shortRatePercent: method.shortRatePercent })
    }
    case 'FIXED_AMOUNT': {
      if (method.fixedAmount === null) throw new RangeError('a FIXED_AMOUNT method needs its fixedAmount')
      return result(null, null, { apply: false }, 'FORMULA', { fixedAmountCents: moneyCents(method.fixedAmount) })
    }
    case 'FULL':
      return result(ONE_RATIO, null, { apply: false }, 'FORMULA')
    case 'NONE':
      return result(ZERO_RATIO, null, { apply: false }, 'FORMULA')
  }
}

// ---- the fee ------------------------------------------------------------------------------------

export type FeeKeeper = CancelFeeDecision['keptBy']

/** How a fee came to be: each part in cents (null when absent), then the smallest. */
export type FeeComputation = {
  cents: number
  /** The fee's amount. */
  amountCents: number | null
  /** Its percentage of the price or of the gross, rounded once, after its `max`. */
  percentCents: number | null
  /** The state's caps: the amount, and the per cent of the price rounded once. */
  stateCapCents: number | null
  stateCapPercentCents: number | null
  /** True when the gross was smaller than the fee after caps (the fee is never more than the gross). */
  limitedByGross: boolean
}

const smallest = (values: ReadonlyArray<number | null>): number | null =>
  values.reduce<number | null>((a, v) => (v === null ? a : a === null ? v : Math.min(a, v)), null)

/**
 * The fee of a cancel (docs/rate-books.md, "A fee"): `min(amount, round(B × percent / 100), max)`
 * with B the price or the gross, an absent part left out (neither: no fee); then the state's caps
 * `min(fee, cancelFeeMax, round(P × cancelFeeMaxPercent / 100))`; then `min(fee, gross)`.
 */
export function cancelFee(fee: CancelFeeDecision, priceCents: number, grossCents: number): FeeComputation {
  const amountCents = fee.amount === null ? null : moneyCents(fee.amount)
  let percentCents: number | null = null
  if (fee.percent !== null) {
    percentCents = percentOfCentsExact(fee.percentOf === 'REFUND' ? grossCents : priceCents, fee.percent)
    if (fee.max !== null) percentCents = Math.min(percentCents, moneyCents(fee.max))
  }
  const stateCapCents = fee.capAmount === null ? null : moneyCents(fee.capAmount)
  const stateCapPercentCents =
    fee.capPercentOfPrice === null ? null : percentOfCentsExact(priceCents, fee.capPercentOfPrice)
  const product = smallest([amountCents, percentCents]) ?? 0
  const afterCaps = smallest([product, stateCapCents, stateCapPercentCents]) ?? 0
  return {
    cents: Math.max(0, Math.min(afterCaps, grossCents)),
    amountCents,
    percentCents,
    stateCapCents,
    stateCapPercentCents,
    limitedByGross: afterCaps > grossCents,
  }
}

// ---- the quote ----------------------------------------------------------------------------------

/** A dealer-cost line of the contract, in the order of its pricing snapshot. */
export type RefundLine = {
  code: string
  group: string
  payeeAccountHolderId: number
  cents: number
  /** `terms.earnings[code].refundable`: false keeps the line out of every refund. */
  refundable: boolean
}

type OkDecision = Extract<CancellationDecision, { ok: true }>

/** What of `cancellationTermsFor`'s decision the quote reads (a whole decision will do). */
export type QuoteDecision = Pick<
  OkDecision,
  | 'method'
  | 'fee'
  | 'freeLookDays'
  | 'deductClaims'
  | 'forcesFullRefund'
  | 'waivesFee'
  | 'refundPayee'
  | 'refundIssuer'
  | 'rule'
> & { reason: Pick<CancelReasonTerms, 'code'> }

export type RefundQuoteInput = {
  /** P: what the customer paid for the contract (retail plus options), in cents. */
  priceCents: number
  lines: readonly RefundLine[]
  decision: QuoteDecision
  /** Claims paid on the contract so far, in cents. */
  claimsPaidCents: number
  /** Whether any claim was paid (a claim paid at 0.00 included): the free-look is lost once one was. */
  claimPaid: boolean
  /** Whether the contract passed to a new owner: the free-look is the first buyer's only (docs/contracts.md "Transfers"). */
  transferred?: boolean
  /**
   * A GAP total loss whose GAP benefit was paid: the contract's whole purpose was served, nothing is
   * refunded (issue 13, "total loss with a GAP claim paid (no refund)"). The caller decides it: a GAP
   * product, a reason ending GAP by TOTAL_LOSS, a claim paid.
   */
  benefitPaid?: boolean
  facts: CancelFacts
}

/**
 * What decided U: the GAP benefit paid on a total loss (U = 0), the reason (forced full refund), the
 * free-look, or the method.
 */
export type RefundBasis = 'BENEFIT_PAID' | 'REASON' | 'FREE_LOOK' | 'METHOD'

export type LineRefund = RefundLine & {
  /** The line's share of the gross: what its payee returns. */
  refundCents: number
}

export type RefundQuote = {
  ok: true
  method: Pick<CancelMethodTerms, 'code' | 'formula'>
  decidedBy: RefundBasis
  /** The free-look decided the refund. */
  withinFreeLook: boolean
  freeLook: {
    days: number
    /** days(S, C). */
    daysSinceSale: number
    /** Inside the window, but a claim was paid. */
    lostToClaim: boolean
    /** Inside the window, but the contract was transferred to a new owner. */
    lostToTransfer: boolean
  }
  /** U applied to the refundable price, exact (FIXED_AMOUNT: gross / B; B = 0: 0). */
  fraction: Ratio
  /** U with six places, for display. */
  factor: string
  /** The method's parts; null when the reason or the free-look decided. */
  parts: FractionParts | null
  priceCents: number
  /** B = max(0, P − Σ non-refundable lines): the part of the price a refund is taken from. */
  refundableCents: number
  grossCents: number
  fee: FeeComputation & { keptBy: FeeKeeper | null }
  claimsDeductedCents: number
  netCents: number
  /** Each dealer-cost line with its share, in snapshot order. */
  lines: LineRefund[]
  /** Σ line shares: what the payees return. */
  linesRefundCents: number
  /** The line shares by payee account holder, in the order each payee first appears. */
  payees: Array<{ payeeAccountHolderId: number; refundCents: number }>
  /** m = P − Σ cᵢ. */
  markupCents: number
  /** The dealer's markup share (the chargeback); negative with a negative markup. */
  markupRefundCents: number
  refundPayee: OkDecision['refundPayee']
  refundIssuer: OkDecision['refundIssuer']
  /** The rules that decided: the product rule's index, the governing state, the reason and the method. */
  rule: { productRule: number | null; stateRule: string | null; reason: string; method: string }
}

export type RefundQuoteResult = RefundQuote | { ok: false; errors: FieldError[] }

const assertCents = (what: string, cents: number) => {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`${what} must be whole cents, 0 or more`)
}

function byPayee(lines: readonly RefundLine[], shares: readonly number[]): RefundQuote['payees'] {
  const totals = new Map<number, number>()
  lines.forEach((l, i) => totals.set(l.payeeAccountHolderId, (totals.get(l.payeeAccountHolderId) ?? 0) + shares[i]!))
  return [...totals].map(([payeeAccountHolderId, refundCents]) => ({ payeeAccountHolderId, refundCents }))
}

/**
 * The whole quote of a cancel (money.md, "A cancel quote"). Order: a GAP total loss with its benefit
 * paid (U = 0: nothing refunded, no fee); a reason forcing a full refund
 * (U = 1, no fee, no claims deducted); else inside the free-look with no claim paid and no transfer (U = 1, no fee);
 * else the method. gross = round(B·U); the fee (cancelFee), never more than the gross; claims
 * deducted `min(claimsPaid, gross − fee)` when the decision deducts; net = gross − fee − claims ≥ 0.
 * Shares: `allocate(gross, [c₁ … c_k, m])`, markup last (see the file's header for non-refundable
 * lines and a negative markup).
 */
export function quoteRefund(input: RefundQuoteInput): RefundQuoteResult {
  const { priceCents: P, lines, decision, facts } = input
  assertCents('priceCents', P)
  assertCents('claimsPaidCents', input.claimsPaidCents)
  lines.forEach((l, i) => assertCents(`lines[${i}].cents`, l.cents))

  const problems = cancelFactProblems(facts)
  if (problems.length > 0) return { ok: false, errors: problems }

  const dealerCost = lines.reduce((n, l) => n + l.cents, 0)
  const nonRefundable = lines.reduce((n, l) => n + (l.refundable ? 0 : l.cents), 0)
  const refundableCost = dealerCost - nonRefundable
  const markup = P - dealerCost
  const B = Math.max(0, P - nonRefundable)

  const daysSinceSale = daysBetween(facts.saleDate, facts.cancelDate)
  const claimPaid = input.claimPaid || input.claimsPaidCents > 0
  const inWindow = decision.freeLookDays > 0 && daysSinceSale <= decision.freeLookDays
  const decidedBy: RefundBasis = input.benefitPaid
    ? 'BENEFIT_PAID'
    : decision.forcesFullRefund
      ? 'REASON'
      : inWindow && !claimPaid && !input.transferred
        ? 'FREE_LOOK'
        : 'METHOD'

  let U: Ratio
  let gross: number
  let parts: FractionParts | null = null
  if (decidedBy === 'METHOD') {
    const fraction = unearnedFraction(decision.method, facts)
    if (!fraction.ok) return fraction
    parts = fraction.parts
    if (fraction.ratio === null) {
      // FIXED_AMOUNT: no fraction; the one reported is what the amount comes to.
      gross = Math.min(fraction.fixedAmountCents ?? 0, B)
      U = B === 0 ? ZERO_RATIO : ratio(gross, B)
    } else {
      U = fraction.ratio
      gross = multiplyCentsByRatio(B, U.num, U.den)
    }
  } else if (decidedBy === 'BENEFIT_PAID') {
    U = ZERO_RATIO
    gross = 0
  } else {
    U = ONE_RATIO
    gross = B
  }

  // No fee on a full refund by the reason or the free-look, nor when the reason waives it.
  const feeTerms = decidedBy === 'METHOD' && !decision.waivesFee ? decision.fee : null
  const fee: RefundQuote['fee'] =
    feeTerms !== null
      ? { ...cancelFee(feeTerms, P, gross), keptBy: feeTerms.keptBy }
      : {
          cents: 0,
          amountCents: null,
          percentCents: null,
          stateCapCents: null,
          stateCapPercentCents: null,
          limitedByGross: false,
          keptBy: null,
        }
  if (fee.cents === 0) fee.keptBy = null
  const deducts = decidedBy !== 'REASON' && decidedBy !== 'BENEFIT_PAID' && decision.deductClaims
  const claimsDeducted = deducts ? Math.min(input.claimsPaidCents, gross - fee.cents) : 0
  const net = gross - fee.cents - claimsDeducted

  // The shares: money.md's allocation with a non-refundable line's weight 0; with a negative markup
  // the lines share their own unearned part and the markup share takes the rest (header).
  let lineShares: number[]
  let markupShare: number
  if (markup >= 0) {
    const weights = [...lines.map((l) => (l.refundable ? l.cents : 0)), markup].map((w) => new Decimal(w))
    const shares = allocate(centsToDecimal(gross), weights).map((p) => toCents(p))
    lineShares = shares.length === 0 ? lines.map(() => 0) : shares.slice(0, lines.length)
    markupShare = shares.length === 0 ? 0 : shares[lines.length]!
  } else {
    const linesTotal = multiplyCentsByRatio(refundableCost, U.num, U.den)
    const weights = lines.map((l) => new Decimal(l.refundable ? l.cents : 0))
    const shares = allocate(centsToDecimal(linesTotal), weights).map((p) => toCents(p))
    lineShares = shares.length === 0 ? lines.map(() => 0) : shares
    markupShare = gross - linesTotal
  }

  return {
    ok: true,
    method: { code: decision.method.code, formula: decision.method.formula },
    decidedBy,
    withinFreeLook: decidedBy === 'FREE_LOOK',
    freeLook: {
      days: decision.freeLookDays,
      daysSinceSale,
      lostToClaim: inWindow && claimPaid,
      lostToTransfer: inWindow && input.transferred === true,
    },
    fraction: U,
    factor: displayFactor(U),
    parts,
    priceCents: P,
    refundableCents: B,
    grossCents: gross,
    fee,
    claimsDeductedCents: claimsDeducted,
    netCents: net,
    lines: lines.map((l, i) => ({ ...l, refundCents: lineShares[i]! })),
    linesRefundCents: lineShares.reduce((n, c) => n + c, 0),
    payees: byPayee(lines, lineShares),
    markupCents: markup,
    markupRefundCents: markupShare,
    refundPayee: decision.refundPayee,
    refundIssuer: decision.refundIssuer,
    rule: {
      productRule: decision.rule.productRule,
      stateRule: decision.rule.stateRule,
      reason: decision.reason.code,
      method: decision.method.code,
    },
  }
}
