// The whole-book checks of the after-sale members (docs/rate-books.md, "After the sale"): cancel
// methods and reasons, each product's cancellation and transfer terms, state rules, earnings of the
// disbursement codes and their curves, each plan's claim terms. Pure; every problem names its place
// as a JSON pointer, like the rest of ratebook.rules.ts, which calls these. Then the normal form:
// amounts, percentages and fractions as JSON numbers, everything else as written (defaults are not
// written into the book: ratebook.defaults.ts applies them when the terms are read).
import { Decimal, parseDecimal, parseMoney } from '../../../platform/money.ts'
import { US_STATES } from '../../parties/index.ts'
import {
  cancelMethodsOf,
  cancelReasonsOf,
  defaultCancelMethodCode,
  MONTH_EARNINGS,
  reasonApplies,
  TIME_BASIS_FORMULAS,
  timeBasisOf,
} from './ratebook.defaults.ts'
import type {
  BenefitType,
  CancelFeeInput,
  CancellationInput,
  PlanInput,
  ProductInput,
  RateBookInput,
  RateInput,
} from './ratebook.format.ts'

/** Reports a problem at a JSON pointer of the book. */
export type Report = (path: string, code: string, message: string) => void

const STATES: ReadonlySet<string> = new Set(US_STATES)
const PER_DAY_BENEFITS: ReadonlySet<BenefitType> = new Set(['RENTAL', 'TRIP_INTERRUPTION'])
const PER_OCCURRENCE_BENEFITS: ReadonlySet<BenefitType> = new Set(['TOWING', 'ROADSIDE', 'TRIP_INTERRUPTION'])
/** Places of a percentage (as disbursement percentages) and of an earnings-curve point. */
export const PERCENT_PLACES = 4
export const FRACTION_PLACES = 6
const HUNDRED = new Decimal(100)

/** Checks the after-sale members of `book`; `rates` are all its rates, CSV ones included (curves must cover their terms). */
export function checkSaleTerms(book: RateBookInput, rates: ReadonlyArray<{ rate: RateInput }>, report: Report): void {
  const money = (path: string, value: unknown) => {
    if (!parseMoney(value))
      report(path, 'invalid_money', `${last(path)} must be an amount with at most two decimals, not negative`)
  }
  /** A percentage above 0 (or from 0 when `zero`) and at most 100, with at most four places. */
  const percent = (path: string, value: unknown, zero = false) => {
    const d = parseDecimal(value, PERCENT_PLACES)
    if (!d || d.greaterThan(HUNDRED) || (zero ? d.isNegative() : d.isZero()))
      report(
        path,
        'invalid_percent',
        `${last(path)} must be a percentage ${zero ? 'from 0' : 'above 0'} up to 100 with at most ${PERCENT_PLACES} decimals`,
      )
  }
  const noRepeats = (path: string, list: readonly string[] | undefined, what: string) => {
    const seen = new Set<string>()
    list?.forEach((v, k) => {
      if (seen.has(v)) report(`${path}/${k}`, 'duplicate', `${what} '${v}' appears more than once`)
      seen.add(v)
    })
  }
  const state = (path: string, code: string) => {
    if (!STATES.has(code)) report(path, 'invalid_value', `'${code}' is not a US state or territory code`)
  }

  // Cancel methods: the book's own, or the defaults.
  const methodCodes = new Set<string>()
  ;(book.cancelMethods ?? []).forEach((m, i) => {
    const at = `/cancelMethods/${i}`
    if (methodCodes.has(m.code)) report(`${at}/code`, 'duplicate', `cancel method '${m.code}' appears more than once`)
    methodCodes.add(m.code)
    if (m.timeBasis !== undefined && !TIME_BASIS_FORMULAS.has(m.formula))
      report(
        `${at}/timeBasis`,
        'not_allowed',
        `timeBasis is only for PRO_RATA_LESSER_TIME_MILES, PRO_RATA_GREATER_TIME_MILES and SHORT_RATE, not ${m.formula}`,
      )
    else if (m.monthCounting !== undefined && timeBasisOf(m) !== 'MONTHS')
      report(
        `${at}/monthCounting`,
        'not_allowed',
        `monthCounting is only for a method that counts months (PRO_RATA_MONTHS, RULE_OF_78, MEAN_PR_R78, or timeBasis MONTHS), not ${m.formula}${m.timeBasis ? ` by ${m.timeBasis}` : ''}`,
      )
    if (m.formula === 'SHORT_RATE') {
      if (m.shortRatePercent === undefined)
        report(`${at}/shortRatePercent`, 'required', 'a SHORT_RATE method needs shortRatePercent')
      else percent(`${at}/shortRatePercent`, m.shortRatePercent)
    } else if (m.shortRatePercent !== undefined)
      report(`${at}/shortRatePercent`, 'not_allowed', `shortRatePercent is only for SHORT_RATE, not ${m.formula}`)
    if (m.formula === 'FIXED_AMOUNT') {
      if (m.fixedAmount === undefined)
        report(`${at}/fixedAmount`, 'required', 'a FIXED_AMOUNT method needs fixedAmount')
      else money(`${at}/fixedAmount`, m.fixedAmount)
    } else if (m.fixedAmount !== undefined)
      report(`${at}/fixedAmount`, 'not_allowed', `fixedAmount is only for FIXED_AMOUNT, not ${m.formula}`)
  })
  if (book.cancelMethods === undefined) for (const m of cancelMethodsOf(book)) methodCodes.add(m.code)
  const methodsWhere = book.cancelMethods === undefined ? 'the default cancel methods' : 'cancelMethods'

  // Cancel reasons: the book's own, or the defaults.
  const seenReasons = new Set<string>()
  ;(book.cancelReasons ?? []).forEach((r, i) => {
    const at = `/cancelReasons/${i}`
    if (seenReasons.has(r.code)) report(`${at}/code`, 'duplicate', `cancel reason '${r.code}' appears more than once`)
    seenReasons.add(r.code)
    noRepeats(`${at}/requestedBy`, r.requestedBy, 'requester')
    noRepeats(`${at}/productTypes`, r.productTypes, 'product type')
    noRepeats(`${at}/requiredDocuments`, r.requiredDocuments, 'document')
    if (r.endsGap !== undefined && !reasonApplies(r, 'GAP'))
      report(
        `${at}/endsGap`,
        'not_allowed',
        'endsGap is only for a reason that applies to GAP products (productTypes absent or listing GAP)',
      )
    if (r.forcesFullRefund === true && r.waivesFee === false)
      report(
        `${at}/waivesFee`,
        'invalid_value',
        'a reason that forces a full refund has no fee: waivesFee cannot be false',
      )
  })
  const reasons = new Map(cancelReasonsOf(book).map((r) => [r.code, r]))
  const reasonsWhere = book.cancelReasons === undefined ? 'the default cancel reasons' : 'cancelReasons'

  const fee = (at: string, f: CancelFeeInput) => {
    if (f.amount === undefined && f.percent === undefined)
      report(at, 'required', 'a fee needs an amount, a percent, or both (the smaller applies)')
    if (f.amount !== undefined) money(`${at}/amount`, f.amount)
    if (f.percent !== undefined) {
      percent(`${at}/percent`, f.percent)
      if (f.percentOf === undefined)
        report(`${at}/percentOf`, 'required', 'a percent fee needs percentOf: PRICE or REFUND')
    } else {
      if (f.percentOf !== undefined) report(`${at}/percentOf`, 'not_allowed', 'percentOf is only for a percent fee')
      if (f.max !== undefined) report(`${at}/max`, 'not_allowed', 'max caps a percent fee; an amount fee has none')
    }
    if (f.max !== undefined && f.percent !== undefined) money(`${at}/max`, f.max)
  }

  const cancellation = (at: string, p: ProductInput, c: CancellationInput | undefined) => {
    const method = c?.method ?? defaultCancelMethodCode(p.type)
    if (!methodCodes.has(method))
      report(
        `${at}/method`,
        c?.method === undefined ? 'required' : 'unknown_reference',
        c?.method === undefined
          ? `product ${p.code} names no cancel method, and ${methodsWhere} have no '${method}', the default for a ${p.type} product`
          : `cancel method '${method}' is not in ${methodsWhere}`,
      )
    if (c?.fee) fee(`${at}/fee`, c.fee)
    c?.rules?.forEach((r, j) => {
      const rat = `${at}/rules/${j}`
      if (!r.reasons && !r.states && !r.requestedBy)
        report(rat, 'required', 'a rule needs reasons, states or requestedBy: when it applies')
      if (
        r.method === undefined &&
        r.fee === undefined &&
        r.freeLookDays === undefined &&
        r.deductClaims === undefined &&
        r.refundIssuer === undefined
      )
        report(rat, 'required', 'a rule needs method, fee, freeLookDays, deductClaims or refundIssuer: what it changes')
      r.reasons?.forEach((code, k) => {
        const reason = reasons.get(code)
        if (!reason)
          report(`${rat}/reasons/${k}`, 'unknown_reference', `cancel reason '${code}' is not in ${reasonsWhere}`)
        else if (!reasonApplies(reason, p.type))
          report(`${rat}/reasons/${k}`, 'not_allowed', `cancel reason '${code}' is not for ${p.type} products`)
      })
      noRepeats(`${rat}/reasons`, r.reasons, 'reason')
      noRepeats(`${rat}/states`, r.states, 'state')
      noRepeats(`${rat}/requestedBy`, r.requestedBy, 'requester')
      r.states?.forEach((s, k) => state(`${rat}/states/${k}`, s))
      if (r.method !== undefined && !methodCodes.has(r.method))
        report(`${rat}/method`, 'unknown_reference', `cancel method '${r.method}' is not in ${methodsWhere}`)
      if (r.fee) fee(`${rat}/fee`, r.fee)
    })
  }

  const claims = (at: string, cl: NonNullable<PlanInput['claims']>) => {
    const limit = cl.limitOfLiability
    if (limit?.basis === 'AMOUNT') {
      if (limit.amount === undefined)
        report(`${at}/limitOfLiability/amount`, 'required', 'a limit of liability by AMOUNT needs an amount')
      else money(`${at}/limitOfLiability/amount`, limit.amount)
    } else if (limit?.amount !== undefined)
      report(`${at}/limitOfLiability/amount`, 'not_allowed', `an amount is only for basis AMOUNT, not ${limit.basis}`)
    if (cl.perClaimLimit !== undefined) money(`${at}/perClaimLimit`, cl.perClaimLimit)
    const seen = new Set<string>()
    cl.benefits?.forEach((b, k) => {
      const bat = `${at}/benefits/${k}`
      if (seen.has(b.type)) report(`${bat}/type`, 'duplicate', `benefit '${b.type}' appears more than once`)
      seen.add(b.type)
      for (const field of ['perDay', 'maxDays'] as const)
        if (b[field] !== undefined && !PER_DAY_BENEFITS.has(b.type))
          report(`${bat}/${field}`, 'not_allowed', `${field} is only for RENTAL and TRIP_INTERRUPTION, not ${b.type}`)
      if (b.perOccurrence !== undefined && !PER_OCCURRENCE_BENEFITS.has(b.type))
        report(
          `${bat}/perOccurrence`,
          'not_allowed',
          `perOccurrence is only for TOWING, ROADSIDE and TRIP_INTERRUPTION, not ${b.type}`,
        )
      if (b.maxDays !== undefined && b.perDay === undefined && PER_DAY_BENEFITS.has(b.type))
        report(`${bat}/perDay`, 'required', 'maxDays needs perDay')
      if (b.perDay === undefined && b.perOccurrence === undefined && b.maxAmount === undefined)
        report(bat, 'required', 'a benefit needs perDay, perOccurrence or maxAmount: its cap')
      for (const field of ['perDay', 'perOccurrence', 'maxAmount'] as const)
        if (b[field] !== undefined) money(`${bat}/${field}`, b[field])
    })
  }

  book.products.forEach((p, i) => {
    cancellation(`/products/${i}/cancellation`, p, p.cancellation)
    const t = p.transfer
    if (t && !t.allowed)
      for (const field of ['fee', 'withinDays', 'dealerMayOwn'] as const)
        if (t[field] !== undefined)
          report(`/products/${i}/transfer/${field}`, 'not_allowed', `${field} is only for a transfer that is allowed`)
    if (t?.fee !== undefined) money(`/products/${i}/transfer/fee`, t.fee)
    p.programs.forEach((g, j) =>
      g.plans.forEach((pl, k) => {
        if (pl.claims) claims(`/products/${i}/programs/${j}/plans/${k}/claims`, pl.claims)
      }),
    )
  })

  const seenStates = new Set<string>()
  ;(book.stateRules ?? []).forEach((s, i) => {
    const at = `/stateRules/${i}`
    if (seenStates.has(s.state)) report(`${at}/state`, 'duplicate', `state '${s.state}' has more than one rule`)
    seenStates.add(s.state)
    state(`${at}/state`, s.state)
    if (
      s.freeLookDays === undefined &&
      s.cancelFeeMax === undefined &&
      s.cancelFeeMaxPercent === undefined &&
      s.claimsDeductible === undefined
    )
      report(at, 'required', 'a state rule needs freeLookDays, cancelFeeMax, cancelFeeMaxPercent or claimsDeductible')
    if (s.cancelFeeMax !== undefined) money(`${at}/cancelFeeMax`, s.cancelFeeMax)
    if (s.cancelFeeMaxPercent !== undefined) percent(`${at}/cancelFeeMaxPercent`, s.cancelFeeMaxPercent, true)
  })

  /** Months of each curve. */
  const curves = new Map<string, number>()
  ;(book.earningsCurves ?? []).forEach((c, i) => {
    const at = `/earningsCurves/${i}`
    if (curves.has(c.code)) report(`${at}/code`, 'duplicate', `earnings curve '${c.code}' appears more than once`)
    else curves.set(c.code, c.cumulative.length)
    let previous: Decimal | null = null
    let end: Decimal | null = null
    for (const [k, v] of c.cumulative.entries()) {
      const d = parseDecimal(v, FRACTION_PLACES)
      end = d && !d.greaterThan(1) ? d : null
      if (!end) {
        report(
          `${at}/cumulative/${k}`,
          'invalid_fraction',
          `month ${k + 1} must be a fraction from 0 to 1 with at most ${FRACTION_PLACES} decimals`,
        )
        continue
      }
      if (previous && end.lessThan(previous))
        report(
          `${at}/cumulative/${k}`,
          'invalid_curve',
          `month ${k + 1} earns ${end.toFixed()}, less than the ${previous.toFixed()} earned before it: a curve never decreases`,
        )
      previous = end
    }
    // The last point, when it is a fraction at all, must be 1.
    if (end && !end.equals(1))
      report(
        `${at}/cumulative/${c.cumulative.length - 1}`,
        'invalid_curve',
        'the last month must earn 1: everything is earned by the end of the curve',
      )
  })

  const curveCodes = book.disbursementCodes.filter((c) => c.earnings?.method === 'CURVE').map((c) => c.code)
  const longest = curveCodes.length > 0 ? longestTerms(book, rates, new Set(curveCodes)) : new Map<string, Served>()
  book.disbursementCodes.forEach((c, i) => {
    const e = c.earnings
    if (!e) return
    const at = `/disbursementCodes/${i}/earnings`
    if (e.method === 'CURVE') {
      const months = e.curve === undefined ? undefined : curves.get(e.curve)
      const served = longest.get(c.code)
      if (e.curve === undefined) report(`${at}/curve`, 'required', 'earnings method CURVE needs a curve')
      else if (months === undefined)
        report(`${at}/curve`, 'unknown_reference', `earnings curve '${e.curve}' is not in earningsCurves`)
      else if (served && served.months > months)
        report(
          `${at}/curve`,
          'invalid_curve',
          `earnings curve ${e.curve} has ${months} months, but ${c.code} is priced in plan ${served.plan} term ${served.term} of ${served.months} months`,
        )
    } else if (e.curve !== undefined)
      report(`${at}/curve`, 'not_allowed', `curve is only for earnings method CURVE, not ${e.method}`)
    if (e.monthCounting !== undefined && !MONTH_EARNINGS.has(e.method))
      report(
        `${at}/monthCounting`,
        'not_allowed',
        `monthCounting is only for an earnings method that counts months (PRO_RATA_MONTHS, RULE_OF_78, REVERSE_RULE_OF_78, CURVE), not ${e.method}`,
      )
  })
}

type Served = { months: number; plan: string; term: string }

/** For each of `codes`, the longest term whose rates or options price it (where a curve must reach). */
function longestTerms(
  book: RateBookInput,
  rates: ReadonlyArray<{ rate: RateInput }>,
  codes: ReadonlySet<string>,
): Map<string, Served> {
  const termMonths = new Map<string, number>()
  const planLongest = new Map<string, Served>()
  for (const p of book.products)
    for (const g of p.programs)
      for (const pl of g.plans)
        for (const t of pl.terms) {
          const code = t.code ?? `${t.months}-${t.miles}`
          termMonths.set(`${pl.code}/${code}`, t.months)
          if (t.months > (planLongest.get(pl.code)?.months ?? 0))
            planLongest.set(pl.code, { months: t.months, plan: pl.code, term: code })
        }
  const out = new Map<string, Served>()
  const serve = (bucket: string, served: Served) => {
    if (codes.has(bucket) && served.months > (out.get(bucket)?.months ?? 0)) out.set(bucket, served)
  }
  for (const { rate } of rates) {
    const months = termMonths.get(`${rate.plan}/${rate.term}`)
    if (months === undefined) continue
    for (const bucket of Object.keys(rate.buckets)) serve(bucket, { months, plan: rate.plan, term: rate.term })
  }
  for (const p of book.products)
    for (const o of p.options ?? []) {
      const plans = o.plans ?? p.programs.flatMap((g) => g.plans.map((pl) => pl.code))
      for (const plan of plans) {
        const served = planLongest.get(plan)
        if (served) for (const bucket of Object.keys(o.buckets)) serve(bucket, served)
      }
    }
  return out
}

const last = (path: string) => path.slice(path.lastIndexOf('/') + 1)

// The normal form. Only called on a book without problems, so every value parses.
const num = (v: number | string): number => new Decimal(v).toNumber()
type Numeric = number | string
/** `o` with the named members (those present) as JSON numbers, keeping the key order. */
function numbers<T extends object>(o: T, keys: ReadonlyArray<keyof T>): T {
  const out = { ...o }
  for (const k of keys) if (out[k] !== undefined) (out as Record<keyof T, unknown>)[k] = num(out[k] as Numeric)
  return out
}
const FEE_NUMBERS = ['amount', 'percent', 'max'] as const
const normalFee = (f: CancelFeeInput) => numbers(f, FEE_NUMBERS)
const normalCancellation = (c: CancellationInput): CancellationInput => ({
  ...c,
  ...(c.fee ? { fee: normalFee(c.fee) } : {}),
  ...(c.rules ? { rules: c.rules.map((r) => (r.fee ? { ...r, fee: normalFee(r.fee) } : r)) } : {}),
})
const normalClaims = (cl: NonNullable<PlanInput['claims']>): NonNullable<PlanInput['claims']> => ({
  ...numbers(cl, ['perClaimLimit']),
  ...(cl.limitOfLiability ? { limitOfLiability: numbers(cl.limitOfLiability, ['amount']) } : {}),
  ...(cl.benefits ? { benefits: cl.benefits.map((b) => numbers(b, ['perDay', 'perOccurrence', 'maxAmount'])) } : {}),
})

type BookWithTerms = Pick<RateBookInput, 'cancelMethods' | 'stateRules' | 'earningsCurves'> & {
  products: ReadonlyArray<
    Pick<ProductInput, 'cancellation' | 'transfer'> & {
      programs: ReadonlyArray<{ plans: ReadonlyArray<Pick<PlanInput, 'claims'>> }>
    }
  >
}

/** The book with the after-sale members in their normal form; members it does not have stay absent. */
export function normalizeSaleTerms<B extends BookWithTerms>(book: B): B {
  return {
    ...book,
    ...(book.cancelMethods
      ? { cancelMethods: book.cancelMethods.map((m) => numbers(m, ['shortRatePercent', 'fixedAmount'])) }
      : {}),
    ...(book.stateRules
      ? { stateRules: book.stateRules.map((s) => numbers(s, ['cancelFeeMax', 'cancelFeeMaxPercent'])) }
      : {}),
    ...(book.earningsCurves
      ? { earningsCurves: book.earningsCurves.map((c) => ({ ...c, cumulative: c.cumulative.map(num) })) }
      : {}),
    products: book.products.map((p) => ({
      ...p,
      ...(p.cancellation ? { cancellation: normalCancellation(p.cancellation) } : {}),
      ...(p.transfer ? { transfer: numbers(p.transfer, ['fee']) } : {}),
      programs: p.programs.map((g) => ({
        ...g,
        plans: g.plans.map((pl) => (pl.claims ? { ...pl, claims: normalClaims(pl.claims) } : pl)),
      })),
    })),
  }
}
