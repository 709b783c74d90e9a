// Reinsurance statements and loss ratios as pure rules (docs/reporting.md "Reinsurance statements"):
// what a contract's ceded reserve has come to as of a day (cumulative figures from its journal
// movements), a period's figures as the difference of two such days, the columns of a month (MTD,
// QTD, YTD, inception to date), vintages and the loss ratio. Every amount is whole cents, every share
// rounded once, half up, on the cumulative figure (money.md "Cumulative rounding"), so the months of
// a quarter add up to the quarter and a cancel returns exactly what the sale ceded. No I/O.
import { addDays } from '../../platform/calendar.ts'
import { multiplyCentsByRatio } from '../../platform/money.ts'
import { earnedFraction, type EarningsTerms } from '../finance/index.ts'
import { FULL_SHARE_BPS } from './treaty.rules.ts'

/** A journal movement of a contract, in whole cents, on its accounting date. */
export type Movement = { on: string; cents: number }

/** What the statements know of one contract: its facts, its cession and its journal movements. */
export type BookContract = {
  id: number
  saleDate: string
  effectiveDate: string
  expirationDate: string
  termMonths: number
  /** The ceded share (10000 = 100 %, the gross book for loss ratios) and the fees of the cession. */
  shareBps: number
  cedingFeeBps: number
  administratorFeeBps: number
  /** The contract's RESERVE lines with their earnings terms: the weights of its earned fraction. */
  reserveLines: ReadonlyArray<{ code: string; amountCents: number; terms: EarningsTerms }>
  /** Reserve credited to its payee by the sale and later price changes (finalize, refinalize, rerate). */
  written: readonly Movement[]
  /** Reserve returned by cancels (positive), given back by their reversals (negative). */
  cancelled: readonly Movement[]
  /** +1 at a cancel entry, −1 at its reversal: cancelled on a day when the sum up to it is above 0. */
  cancelEvents: readonly Movement[]
  /** Claim payments (the payment entries' dates). */
  claimsPaid: readonly Movement[]
  /** The risk bearer's CLAIM_EXPENSE (debit − credit): committed payment requests less releases. */
  claimsIncurred: readonly Movement[]
}

/** A contract's cumulative ceded figures as of a day (whole cents). */
export type Cumulative = {
  written: number
  cancelled: number
  netWritten: number
  earned: number
  unearned: number
  claimsPaid: number
  claimsIncurred: number
  claimsOutstanding: number
  cedingFee: number
  administratorFee: number
}

const ZERO: Cumulative = {
  written: 0,
  cancelled: 0,
  netWritten: 0,
  earned: 0,
  unearned: 0,
  claimsPaid: 0,
  claimsIncurred: 0,
  claimsOutstanding: 0,
  cedingFee: 0,
  administratorFee: 0,
}

const upTo = (moves: readonly Movement[], day: string) => moves.reduce((n, m) => (m.on <= day ? n + m.cents : n), 0)
const share = (cents: number, bps: number) => multiplyCentsByRatio(cents, bps, FULL_SHARE_BPS)

/**
 * The earned fraction of a contract's reserve as of `day`: its RESERVE lines' fractions weighted by
 * their amounts, exact (Σ Aᵢ·numᵢ/denᵢ over Σ Aᵢ, integers), so nothing is rounded before the share.
 */
export function reserveFraction(
  c: Pick<BookContract, 'reserveLines' | 'effectiveDate' | 'expirationDate' | 'termMonths'>,
  day: string,
): { num: bigint; den: bigint } {
  const lines = c.reserveLines.filter((l) => l.amountCents > 0)
  const total = lines.reduce((n, l) => n + BigInt(l.amountCents), 0n)
  if (total === 0n) return { num: day >= c.effectiveDate ? 1n : 0n, den: 1n }
  let num = 0n
  let den = 1n
  for (const l of lines) {
    const f = earnedFraction(l.terms, {
      effectiveDate: c.effectiveDate,
      expirationDate: c.expirationDate,
      termMonths: c.termMonths,
      asOf: day,
    })
    // num/den + A·f.num/f.den
    const fd = BigInt(f.den)
    num = num * fd + BigInt(l.amountCents) * BigInt(f.num) * den
    den = den * fd
  }
  return { num, den: den * total }
}

/** What a contract's earned fraction depends on: its dates, term months and reserve lines (a "shape"). */
export type Shape = Pick<BookContract, 'reserveLines' | 'effectiveDate' | 'expirationDate' | 'termMonths'> & {
  shape: string
}

/**
 * The earned fraction of every shape on every day (index t into `days`), as decimal strings of the
 * exact numerator and denominator, reduced, and whether both are below 2^31: what the database
 * multiplies a contract's net written premium by and rounds once (statement.repository.ts), so its
 * earned premium is cumulativeAt's.
 */
export function shapeFractions(
  shapes: readonly Shape[],
  days: readonly string[],
): Record<string, Array<[string, string, 'small' | 'large']>> {
  const out: Record<string, Array<[string, string, 'small' | 'large']>> = {}
  const SMALL = 2 ** 31
  for (const s of shapes) {
    const lines = s.reserveLines.filter((l) => l.amountCents > 0)
    const only = lines.length === 1 ? lines[0]! : undefined
    out[s.shape] = days.map((day) => {
      if (only !== undefined) {
        // One reserve line: its own fraction (the weight cancels), in plain integers.
        const f = earnedFraction(only.terms, {
          effectiveDate: s.effectiveDate,
          expirationDate: s.expirationDate,
          termMonths: s.termMonths,
          asOf: day,
        })
        const g = gcdNumber(f.num, f.den)
        const num = f.num / g
        const den = f.den / g
        return [String(num), String(den), num < SMALL && den < SMALL ? 'small' : 'large']
      }
      const f = reserveFraction(s, day)
      // Reduced, so that the database multiplies in bigint whenever it can (the value is the same).
      const g = gcd(f.num, f.den)
      const num = f.num / g
      const den = f.den / g
      return [num.toString(), den.toString(), num < 2n ** 31n && den < 2n ** 31n ? 'small' : 'large']
    })
  }
  return out
}

function gcdNumber(a: number, b: number): number {
  let x = Math.abs(a)
  let y = Math.abs(b)
  while (y !== 0) [x, y] = [y, x % y]
  return x === 0 ? 1 : x
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a
  let y = b < 0n ? -b : b
  while (y !== 0n) [x, y] = [y, x % y]
  return x === 0n ? 1n : x
}

/** round(cents · num/den), half up, in BigInt (the fraction's parts may pass 2^53). */
function roundRatio(cents: number, num: bigint, den: bigint): number {
  const p = BigInt(cents) * num
  let q = p / den
  let r = p % den
  if (r < 0n) {
    q -= 1n
    r += den
  }
  return Number(2n * r >= den ? q + 1n : q)
}

/**
 * The contract's cumulative ceded figures as of `day` (its journal movements dated on or before it):
 * written and cancelled are the share of the reserve's movements, rounded once each; net written is
 * their difference; earned is round(net written × the reserve's earned fraction as of `day`), or all
 * of it while the contract stands cancelled (what a cancel does not refund is earned: money.md); the
 * fees are the treaty's basis points of net written; claims are the share of what was paid and of the
 * risk bearer's claim expense (paid plus authorized-unpaid), outstanding their difference.
 */
export function cumulativeAt(c: BookContract, day: string | null): Cumulative {
  if (day === null) return ZERO
  const written = share(upTo(c.written, day), c.shareBps)
  const cancelled = share(upTo(c.cancelled, day), c.shareBps)
  const netWritten = written - cancelled
  const standsCancelled = upTo(c.cancelEvents, day) > 0
  let earned = netWritten
  if (!standsCancelled && netWritten !== 0) {
    const f = reserveFraction(c, day)
    earned = roundRatio(netWritten, f.num, f.den)
  }
  const claimsPaid = share(upTo(c.claimsPaid, day), c.shareBps)
  const claimsIncurred = share(upTo(c.claimsIncurred, day), c.shareBps)
  return {
    written,
    cancelled,
    netWritten,
    earned,
    unearned: netWritten - earned,
    claimsPaid,
    claimsIncurred,
    claimsOutstanding: claimsIncurred - claimsPaid,
    cedingFee: share(netWritten, c.cedingFeeBps),
    administratorFee: share(netWritten, c.administratorFeeBps),
  }
}

/** The figures of a statement cell (whole cents; the ratio a decimal string). */
export type Figures = {
  writtenPremium: number
  cancellations: number
  netWrittenPremium: number
  earnedPremium: number
  /** At the period's end. */
  unearnedPremium: number
  claimsPaid: number
  /** Authorized and unpaid at the period's end. */
  claimsOutstanding: number
  claimsIncurred: number
  cedingFee: number
  administratorFee: number
  underwritingResult: number
}

export const FIGURES = [
  'writtenPremium',
  'cancellations',
  'netWrittenPremium',
  'earnedPremium',
  'unearnedPremium',
  'claimsPaid',
  'claimsOutstanding',
  'claimsIncurred',
  'cedingFee',
  'administratorFee',
  'underwritingResult',
] as const satisfies ReadonlyArray<keyof Figures>
export type Figure = (typeof FIGURES)[number]

export const zeroFigures = (): Figures => ({
  writtenPremium: 0,
  cancellations: 0,
  netWrittenPremium: 0,
  earnedPremium: 0,
  unearnedPremium: 0,
  claimsPaid: 0,
  claimsOutstanding: 0,
  claimsIncurred: 0,
  cedingFee: 0,
  administratorFee: 0,
  underwritingResult: 0,
})

/**
 * A period's figures from the cumulative figures at its end and on the day before it began (`start`
 * is `cumulativeAt(c, null)` from inception): flows are differences, unearned and outstanding are
 * the end's; the underwriting result is earned − incurred − fees (the reinsurer pays the fees).
 */
export function periodFigures(start: Cumulative, end: Cumulative): Figures {
  const earnedPremium = end.earned - start.earned
  const claimsIncurred = end.claimsIncurred - start.claimsIncurred
  const cedingFee = end.cedingFee - start.cedingFee
  const administratorFee = end.administratorFee - start.administratorFee
  return {
    writtenPremium: end.written - start.written,
    cancellations: end.cancelled - start.cancelled,
    netWrittenPremium: end.netWritten - start.netWritten,
    earnedPremium,
    unearnedPremium: end.unearned,
    claimsPaid: end.claimsPaid - start.claimsPaid,
    claimsOutstanding: end.claimsOutstanding,
    claimsIncurred,
    cedingFee,
    administratorFee,
    underwritingResult: earnedPremium - claimsIncurred - cedingFee - administratorFee,
  }
}

/**
 * A group's sums as of a day: the sum of its contracts' cumulative figures (each rounded once per
 * contract, so the sum is exact), the contracts with a movement of their reserve or claims by the day, those of them holding
 * unearned premium or an outstanding claim at it (`open`), and the first of them by id (0: none).
 */
export type DaySums = { cumulative: Cumulative; contracts: number; open: number; firstId: number }

/** A group's sums before anything moved (and on the day before inception). */
export const NO_SUMS: DaySums = { cumulative: ZERO, contracts: 0, open: 0, firstId: 0 }

export function addFigures(into: Figures, f: Figures): Figures {
  for (const k of FIGURES) into[k] += f[k]
  return into
}

export const isZero = (f: Figures) => FIGURES.every((k) => f[k] === 0)

/**
 * Claims incurred over earned premium as a decimal string of 4 places ("0.6250" = 62.50 %), the
 * exact quotient rounded once, half away from zero; null when nothing was earned.
 */
export function lossRatio(incurredCents: number, earnedCents: number): string | null {
  if (earnedCents === 0) return null
  const negative = incurredCents < 0 !== earnedCents < 0 && incurredCents !== 0
  const n = BigInt(Math.abs(incurredCents)) * 10000n
  const d = BigInt(Math.abs(earnedCents))
  const q = n / d + (2n * (n % d) >= d ? 1n : 0n)
  const text = `${q / 10000n}.${String(q % 10000n).padStart(4, '0')}`
  return negative ? `-${text}` : text
}

/** The quarter a day falls in: 2026-08-14 → 2026Q3. */
export function vintageOf(day: string): string {
  return `${day.slice(0, 4)}Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`
}

export const COLUMNS = ['mtd', 'qtd', 'ytd', 'itd'] as const
export type Column = (typeof COLUMNS)[number]

/** The periods of a month's columns: each from its first day (null: inception) through the month's last. */
export function columnPeriods(from: string, to: string): Record<Column, { from: string | null; to: string }> {
  const month = Number(from.slice(5, 7))
  const quarterStart = `${from.slice(0, 4)}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`
  return {
    mtd: { from, to },
    qtd: { from: quarterStart, to },
    ytd: { from: `${from.slice(0, 4)}-01-01`, to },
    itd: { from: null, to },
  }
}

/** A contract's figures over a period (from null: since inception). */
export function contractFigures(c: BookContract, from: string | null, to: string): Figures {
  return periodFigures(cumulativeAt(c, from === null ? null : addDays(from, -1)), cumulativeAt(c, to))
}
