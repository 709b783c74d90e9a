// Earnings, as pure rules (money.md "Earnings" and "Time"; decision 0012, "The earnings ledger"): how
// much of a priced line is earned as of a date, by the line's method from the contract's terms
// snapshot. Amounts are integer cents; a fraction is an exact ratio of integers, and an amount is
// rounded once, half up, per earned-to-date (multiplyCentsByRatio), never through a rounded factor.
// Every other amount is a difference of such earned-to-date values (cumulative rounding), so the
// periods of a line add up to the line exactly and a run repeated posts nothing new.
//
// Dates are calendar dates YYYY-MM-DD in the tenant's time zone. "Earned as of C" counts the days
// and months elapsed from the effective date E to C (days(E, C), monthsElapsed(E, C)): as of E
// nothing is earned by time (IMMEDIATE is earned in full), as of the expiration X everything is.
import { addDays, addMonths, isIsoDate, monthsElapsed } from '../../platform/calendar.ts'
import { Decimal, multiplyCentsByRatio } from '../../platform/money.ts'
import type { EarningsMethod, LineEarningsTerms } from '../rating/index.ts'

/** What of a line's earnings terms the arithmetic reads (the rest of LineEarningsTerms is the caller's). */
export type EarningsTerms = Pick<LineEarningsTerms, 'method' | 'curve' | 'monthCounting'>

/** The contract's dates as stored: X is normally addMonths(E, termMonths). */
export type EarningsDates = { effectiveDate: string; expirationDate: string; termMonths: number }

/**
 * An exact fraction `num/den`, 0 ≤ num ≤ den. The denominator is the method's own and the same at
 * every date for a line (D days, n months, n(n + 1) for both Rules of 78, 10^6 for a curve, 1 for
 * IMMEDIATE), so fractions of one line compare by their numerators; it is not reduced.
 */
export type Fraction = { num: number; den: number }

/** A curve point is a decimal of at most six places: exactly a number of millionths. */
const CURVE_SCALE = 1_000_000
const CURVE_POINT = /^(0|1)(?:\.(\d{1,6}))?$/

function refuse(message: string): never {
  throw new RangeError(`earnings: ${message}`)
}

const DAY_MS = 86_400_000
/**
 * Day numbers (days since 1970-01-01) of the dates read so far, valid ones only: an earnings run
 * reckons every line of every contract against the same few hundred dates, and checking and parsing
 * each date again was a tenth of the run's service CPU. Bounded: cleared when full.
 */
const dayNumbers = new Map<string, number>()

/** The date's day number; undefined when it is not a date YYYY-MM-DD. */
function dayNumber(date: string): number | undefined {
  let n = dayNumbers.get(date)
  if (n === undefined) {
    if (!isIsoDate(date)) return undefined
    // UTC midnight: an exact multiple of a day.
    n = Date.parse(`${date}T00:00:00Z`) / DAY_MS
    if (dayNumbers.size >= 10_000) dayNumbers.clear()
    dayNumbers.set(date, n)
  }
  return n
}

/** Actual days from `from` to `to` (calendar.daysBetween), of dates already checked. */
function daysBetween(from: string, to: string): number {
  return dayNumber(to)! - dayNumber(from)!
}

function checkDates(dates: EarningsDates): void {
  const { effectiveDate: e, expirationDate: x, termMonths: n } = dates
  if (dayNumber(e) === undefined) refuse(`effective date ${JSON.stringify(e)} is not a date YYYY-MM-DD`)
  if (dayNumber(x) === undefined) refuse(`expiration date ${JSON.stringify(x)} is not a date YYYY-MM-DD`)
  // D = days(E, X) is a denominator: a term of no days has nothing to spread over.
  if (x <= e) refuse(`expiration date ${x} is not after the effective date ${e}`)
  if (!Number.isSafeInteger(n) || n < 1) refuse(`term months ${n} is not a positive whole number`)
}

function checkDate(date: string, name: string): void {
  if (dayNumber(date) === undefined) refuse(`${name} ${JSON.stringify(date)} is not a date YYYY-MM-DD`)
}

/** A line's amount: whole cents, never negative (a priced line is never negative). */
function checkAmount(cents: number, name = 'amount'): void {
  if (!Number.isSafeInteger(cents) || cents < 0) refuse(`${name} ${cents} is not a whole, non-negative number of cents`)
}

/** Month k (1 ≤ k < n) of a curve earns cumulative[min(k, L) − 1], in millionths. */
function curvePoint(cumulative: readonly string[], k: number): number {
  const text = cumulative[Math.min(k, cumulative.length) - 1]
  const m = text === undefined ? null : CURVE_POINT.exec(text)
  if (!m) refuse(`curve point ${k} ${JSON.stringify(text)} is not a fraction from 0 to 1 of at most six places`)
  const millionths = Number(m[1]) * CURVE_SCALE + Number((m[2] ?? '').padEnd(6, '0'))
  if (millionths > CURVE_SCALE) refuse(`curve point ${k} ${text} is more than 1`)
  return millionths
}

/** The denominator of a method's fractions. */
function denominatorOf(terms: EarningsTerms, dates: EarningsDates): number {
  const n = dates.termMonths
  const method: EarningsMethod = terms.method
  switch (method) {
    case 'PRO_RATA_DAYS':
      return daysBetween(dates.effectiveDate, dates.expirationDate)
    case 'PRO_RATA_MONTHS':
      return n
    case 'RULE_OF_78':
    case 'REVERSE_RULE_OF_78':
      return n * (n + 1)
    case 'CURVE':
      if (terms.curve === null || terms.curve.cumulative.length === 0) refuse('method CURVE has no curve')
      return CURVE_SCALE
    case 'IMMEDIATE':
      return 1
    default:
      return refuse(`unknown method ${String(method satisfies never)}`)
  }
}

/**
 * The fraction of a line earned as of `asOf` (money.md "Earnings"), exact: 0 before E, 1 on and after
 * X, otherwise PRO_RATA_DAYS d/D with d = days(E, asOf) and D = days(E, X); PRO_RATA_MONTHS k/n;
 * RULE_OF_78 k(2n − k + 1)/(n(n + 1)) (front-loaded); REVERSE_RULE_OF_78 k(k + 1)/(n(n + 1))
 * (back-loaded); CURVE cumulative[min(k, L) − 1] over 10^6 (0 at k = 0, 1 at k = n); IMMEDIATE 1 from
 * E. k = monthsElapsed(E, asOf, n, monthCounting), COMPLETED when the terms name no counting.
 * Refuses (RangeError) dates that are not dates, X not after E, a term of no months, CURVE without
 * a curve or with a point that is not a fraction of six places.
 */
export function earnedFraction(terms: EarningsTerms, at: EarningsDates & { asOf: string }): Fraction {
  checkDates(at)
  checkDate(at.asOf, 'as-of date')
  const den = denominatorOf(terms, at)
  const { effectiveDate: e, expirationDate: x, termMonths: n, asOf } = at
  if (asOf < e) return { num: 0, den }
  if (asOf >= x) return { num: den, den }
  const months = () => monthsElapsed(e, asOf, n, terms.monthCounting ?? 'COMPLETED')
  switch (terms.method) {
    case 'PRO_RATA_DAYS':
      // E ≤ asOf < X, so 0 ≤ d < D: the clamp of money.md is the two early returns.
      return { num: daysBetween(e, asOf), den }
    case 'PRO_RATA_MONTHS':
      return { num: months(), den }
    case 'RULE_OF_78': {
      const k = months()
      return { num: k * (2 * n - k + 1), den }
    }
    case 'REVERSE_RULE_OF_78': {
      const k = months()
      return { num: k * (k + 1), den }
    }
    case 'CURVE': {
      const k = months()
      return { num: k === 0 ? 0 : k >= n ? den : curvePoint(terms.curve!.cumulative, k), den }
    }
    case 'IMMEDIATE':
      return { num: 1, den }
  }
}

/** A fraction for people: six places, half up. Display only; nothing is computed from it. */
export function fractionFactor(f: Fraction): string {
  return new Decimal(f.num).dividedBy(f.den).toFixed(6)
}

/** round(A·f(asOf)), once, half up: the line's earned-to-date. `amountCents` is whole, non-negative cents. */
export function earnedToDate(amountCents: number, terms: EarningsTerms, dates: EarningsDates, asOf: string): number {
  checkAmount(amountCents)
  const f = earnedFraction(terms, { ...dates, asOf })
  return multiplyCentsByRatio(amountCents, f.num, f.den)
}

/** One period of a line's schedule. */
export type EarningsPeriod = {
  /** E for the first period, else the day after the previous period's end. */
  periodStart: string
  /** A calendar month's last day, or X for the last period. */
  periodEnd: string
  /** earnedToDate(periodEnd) − earnedToDate(the previous end), 0 before the first. */
  earnedThisPeriodCents: number
  /** round(A·f(periodEnd)). */
  earnedToDateCents: number
  /** A − earnedToDateCents. */
  unearnedCents: number
}

/** The last day of `date`'s calendar month. */
function endOfMonth(date: string): string {
  return addDays(addMonths(`${date.slice(0, 8)}01`, 1), -1)
}

/**
 * A line's earnings by period: one period per calendar month from E's month to X's, each ending on
 * its month's last day (what a monthly close posts), the last ending at X (whether or not X is a
 * month end); so a term of n months with X = addMonths(E, n) has n + 1 periods, the first from E
 * and the last to X. A period's earning is the difference of earned-to-date at its two ends
 * (cumulative rounding; before E nothing is earned), so all periods add up to A exactly.
 * `through` keeps the periods that end on or before it (a close's date: the periods it closes).
 */
export function earningsSchedule(
  amountCents: number,
  terms: EarningsTerms,
  dates: EarningsDates,
  options: { through?: string } = {},
): EarningsPeriod[] {
  checkAmount(amountCents)
  checkDates(dates)
  if (options.through !== undefined) checkDate(options.through, 'through date')
  const periods: EarningsPeriod[] = []
  let start = dates.effectiveDate
  let before = 0
  while (start <= dates.expirationDate) {
    const monthEnd = endOfMonth(start)
    const end = monthEnd < dates.expirationDate ? monthEnd : dates.expirationDate
    if (options.through !== undefined && end > options.through) break
    const earned = earnedToDate(amountCents, terms, dates, end)
    periods.push({
      periodStart: start,
      periodEnd: end,
      earnedThisPeriodCents: earned - before,
      earnedToDateCents: earned,
      unearnedCents: amountCents - earned,
    })
    before = earned
    start = addDays(end, 1)
  }
  return periods
}

/** A priced line of a contract, with its earnings terms from the contract's snapshot. */
export type EarningsLineInput = { code: string; amountCents: number; terms: EarningsTerms }

/** One line as of a date: what `GET /contracts/{id}/earningdetails?asOf=` shows per line. */
export type LineEarnings = {
  code: string
  method: EarningsMethod
  amountCents: number
  earnedToDateCents: number
  unearnedCents: number
  /** The exact earned fraction, and its six-place display factor. */
  earnedFraction: Fraction
  earnedFactor: string
}

export type EarningsAsOf = {
  asOf: string
  /** In the order given. */
  lines: LineEarnings[]
  totals: { amountCents: number; earnedToDateCents: number; unearnedCents: number }
}

/** Every line of a contract as of `asOf`, and their totals (each line rounded once; totals are sums of lines). */
export function earningsAsOf(lines: readonly EarningsLineInput[], dates: EarningsDates, asOf: string): EarningsAsOf {
  checkDates(dates)
  checkDate(asOf, 'as-of date')
  const out: LineEarnings[] = []
  const totals = { amountCents: 0, earnedToDateCents: 0, unearnedCents: 0 }
  for (const line of lines) {
    checkAmount(line.amountCents, `amount of ${line.code}`)
    const f = earnedFraction(line.terms, { ...dates, asOf })
    const earned = multiplyCentsByRatio(line.amountCents, f.num, f.den)
    out.push({
      code: line.code,
      method: line.terms.method,
      amountCents: line.amountCents,
      earnedToDateCents: earned,
      unearnedCents: line.amountCents - earned,
      earnedFraction: f,
      earnedFactor: fractionFactor(f),
    })
    totals.amountCents += line.amountCents
    totals.earnedToDateCents += earned
    totals.unearnedCents += line.amountCents - earned
  }
  return { asOf, lines: out, totals }
}

/** A line at its cancel (decision 0012): earnedToDateCents + earnedAtCancelCents + refundedShareCents = amountCents. */
export type CancelEarnings = {
  amountCents: number
  /** What earnings runs posted before the cancel (the line's ADMINISTRATOR_REVENUE so far). */
  earnedToDateCents: number
  /** A − earned to date: the unearned balance the cancel clears (Dr UNEARNED_REVENUE). */
  remainingCents: number
  refundedShareCents: number
  /**
   * remaining − refunded share: Cr ADMINISTRATOR_REVENUE, a debit when negative (a line earned
   * faster than the cancel method refunds it, e.g. an IMMEDIATE commission that is refunded).
   */
  earnedAtCancelCents: number
  /**
   * round(A·f(cancel date)): what the line's own method has earned by the cancel date. Explains the
   * earned-at-cancel: (this − earned to date) is the catch-up of earnings not yet run, and
   * (A − this − refunded share) the difference between the earnings method and the cancel method.
   */
  earnedByMethodCents: number
}

/**
 * What a cancel posts for a line: earned at cancel = A − earned posted − refunded share (decision
 * 0012), so the three add up to A whatever the methods. `refundedShareCents` is the line's share of
 * the gross refund, 0 to A; `earnedPostedCents` what earnings runs posted for it, 0 or more (more
 * than A only after a price cut the runs have not caught up with).
 */
export function earningsAtCancel(
  amountCents: number,
  terms: EarningsTerms,
  dates: EarningsDates,
  cancelDate: string,
  refundedShareCents: number,
  earnedPostedCents: number,
): CancelEarnings {
  const earnedByMethod = earnedToDate(amountCents, terms, dates, cancelDate)
  checkAmount(refundedShareCents, 'refunded share')
  if (refundedShareCents > amountCents)
    refuse(`refunded share ${refundedShareCents} is more than the line ${amountCents}`)
  checkAmount(earnedPostedCents, 'earned posted')
  const remaining = amountCents - earnedPostedCents
  return {
    amountCents,
    earnedToDateCents: earnedPostedCents,
    remainingCents: remaining,
    refundedShareCents,
    earnedAtCancelCents: remaining - refundedShareCents,
    earnedByMethodCents: earnedByMethod,
  }
}

/** What an earnings sync posts for a line now. */
export type EarningsDue = {
  /** round(A·f(asOf)): what the line should have earned. */
  earnedToDateCents: number
  alreadyEarnedCents: number
  /**
   * earned to date − already earned: Dr UNEARNED_REVENUE / Cr ADMINISTRATOR_REVENUE when positive;
   * 0 when a run for this date already posted (a repeated run posts nothing); negative when less is
   * earned than was posted (a price cut, or an as-of date before a previous run's): the opposite
   * entry.
   */
  dueCents: number
}

/**
 * What a sync posts for a line as of `asOf`, given what earnings runs already posted for it. Only for
 * a line in force: a cancel clears the line (earningsAtCancel) and earnings stop there.
 */
export function earningsDue(
  amountCents: number,
  terms: EarningsTerms,
  dates: EarningsDates,
  asOf: string,
  alreadyEarnedCents: number,
): EarningsDue {
  const target = earnedToDate(amountCents, terms, dates, asOf)
  checkAmount(alreadyEarnedCents, 'already earned')
  return { earnedToDateCents: target, alreadyEarnedCents, dueCents: target - alreadyEarnedCents }
}
