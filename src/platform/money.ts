// The one money module: decimal arithmetic (decimal.js, never binary floating point), cents
// rounding half-up, whole cents for hot paths (decision 0007), and the wire format: amounts are
// accepted as decimal strings or JSON numbers with at most two decimals and written back as JSON
// numbers (formatMoney gives the two-decimal text where text is wanted). Every module computes
// money here.
import { Decimal as DecimalJs } from 'decimal.js'

/** A decimal.js clone of our own, so no other code's global configuration can change ours. */
export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP })
export type Decimal = InstanceType<typeof Decimal>

export const ZERO = new Decimal(0)

/** A decimal literal with at most `places` decimals, optionally signed (no exponents, no spaces). */
export function decimalPattern(places: number, signed = false): RegExp {
  return new RegExp(`^${signed ? '-?' : ''}(0|[1-9][0-9]{0,11})(\\.[0-9]{1,${places}})?$`)
}

const MONEY = decimalPattern(2)
const SIGNED_MONEY = decimalPattern(2, true)

/**
 * Parses an amount given as a string or a JSON number; null when it is not a plain decimal with at
 * most two places (or is negative, unless `signed`). Numbers go through their shortest decimal
 * rendering, which is exact for any literal of two places.
 */
export function parseMoney(value: unknown, options: { signed?: boolean } = {}): Decimal | null {
  const text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value : ''
  return (options.signed ? SIGNED_MONEY : MONEY).test(text) ? new Decimal(text) : null
}

/** Parses a decimal with at most `places` places (rates, percentages, factors); null when invalid. */
export function parseDecimal(value: unknown, places: number, options: { signed?: boolean } = {}): Decimal | null {
  const text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value : ''
  return decimalPattern(places, options.signed).test(text) ? new Decimal(text) : null
}

/** Rounds to cents, half away from zero (the convention of filed rates and refunds). */
export function roundCents(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
}

/** The wire form: exactly two decimals, rounded half-up. */
export function formatMoney(value: Decimal): string {
  return roundCents(value).toFixed(2)
}

export function sumMoney(values: Iterable<Decimal>): Decimal {
  let total = ZERO
  for (const v of values) total = total.plus(v)
  return total
}

/** `percent` per cent of `base`, rounded to cents. */
export function percentOf(base: Decimal, percent: Decimal): Decimal {
  return roundCents(base.times(percent).dividedBy(100))
}

/**
 * Splits `total` over `weights` in proportion, so that the parts add up to `total` exactly
 * (money.md, "Arithmetic"): each part gets ⌊A·wᵢ/Σw⌋ cents and the cents left over go to the
 * largest exact remainders, ties to the earlier part. Everything is integers (BigInt): weights are
 * scaled to whole numbers, remainders compared as `A·wᵢ mod Σw`, so equal remainders compare equal
 * whatever the parts' magnitudes. A negative total splits as its absolute value, negated. Zero or
 * empty weights give an empty list; a negative weight is refused.
 */
export function allocate(total: Decimal, weights: readonly Decimal[]): Decimal[] {
  if (weights.some((w) => w.isNegative())) throw new RangeError('allocate: a weight is negative')
  const places = Math.max(0, ...weights.map((w) => w.decimalPlaces()))
  const scale = new Decimal(10).pow(places)
  const units = weights.map((w) => BigInt(w.times(scale).toFixed(0)))
  const unitSum = units.reduce((a, b) => a + b, 0n)
  if (units.length === 0 || unitSum === 0n) return []
  const totalCents = BigInt(toCents(total))
  const amount = totalCents < 0n ? -totalCents : totalCents
  const parts = units.map((w) => (amount * w) / unitSum)
  let leftover = amount - parts.reduce((a, b) => a + b, 0n)
  const order = units
    .map((w, i) => ({ i, rest: (amount * w) % unitSum }))
    .toSorted((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1))
  // Fewer cents are left over than there are parts (each floor loses less than one).
  for (let k = 0; leftover > 0n; k++, leftover--) parts[order[k]!.i]! += 1n
  const sign = totalCents < 0n ? -1n : 1n
  return parts.map((p) => centsToDecimal(Number(sign * p)))
}

/**
 * `cents × num/den`, exact, rounded once, half up (money.md): ⌊P·num/den⌋, plus one when
 * 2·(P·num mod den) ≥ den, with the floor and the remainder taken mathematically (also for a
 * negative amount). In BigInt, never through a rounded factor: 1,000.05 × 30/36 is 83,337.5 cents
 * exactly, so 833.38. `den` must be positive.
 */
export function multiplyCentsByRatio(cents: number | bigint, num: number | bigint, den: number | bigint): number {
  const d = BigInt(den)
  if (d <= 0n) throw new RangeError('multiplyCentsByRatio: the denominator must be positive')
  const product = BigInt(cents) * BigInt(num)
  let quotient = product / d
  let rest = product % d
  if (rest < 0n) {
    quotient -= 1n
    rest += d
  }
  const rounded = 2n * rest >= d ? quotient + 1n : quotient
  if (rounded > BigInt(Number.MAX_SAFE_INTEGER) || rounded < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('multiplyCentsByRatio: the result is beyond 2^53 cents')
  }
  return Number(rounded)
}

// Integer cents: the hot paths (rate quotes) add and compare whole cents as plain integers, which
// is exact up to 2^53 cents; multiplications by factors and percentages go through Decimal and
// round once, half-up, to the cent.

/** Whole cents of an amount with at most two decimals. */
export function toCents(value: Decimal): number {
  const cents = value.times(100)
  if (!cents.isInteger()) throw new RangeError(`${value.toString()} has more than two decimals`)
  return cents.toNumber()
}

/** The JSON number of an amount of cents: the shortest decimal, exact for whole cents (1450, 145.05). */
export function centsToNumber(cents: number): number {
  return cents / 100
}

/** The Decimal of an amount of cents (for numeric columns and the ledger: `.toFixed(2)` is its stored form). */
export function centsToDecimal(cents: number): Decimal {
  return new Decimal(cents).dividedBy(100)
}

/** cents × factor, rounded half-up to the cent. */
export function multiplyCents(cents: number, factor: Decimal): number {
  return new Decimal(cents).times(factor).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber()
}

/** `percent` per cent of `cents`, rounded half-up to the cent. */
export function percentOfCents(cents: number, percent: Decimal): number {
  return new Decimal(cents).times(percent).dividedBy(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber()
}

// Validation with reasons: what is wrong with a decimal given as a JSON number or a string, for
// replies that name the problem of each field (rather than parseDecimal's bare null).

const DECIMAL_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/

/** The decimal a JSON number or decimal string stands for (negative zero read as zero); null when it is not a plain decimal. */
function decimalOf(value: unknown): Decimal | null {
  const text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value : ''
  if (!DECIMAL_TEXT.test(text)) return null
  const d = new Decimal(text)
  return d.isZero() ? new Decimal(0) : d
}

/**
 * The problem with `value` as a decimal (a JSON number or a decimal string, no exponent, no
 * leading zeros) of at most `places` places within [min, max] (min exclusive when `minExclusive`),
 * as a field error's code and message; undefined when it is fine.
 */
export function decimalProblem(
  value: unknown,
  bounds: { places: number; min: Decimal; max: Decimal; minExclusive?: boolean },
): { code: 'invalid_type' | 'invalid_format' | 'out_of_range' | 'too_precise'; message: string } | undefined {
  if (typeof value !== 'number' && typeof value !== 'string')
    return { code: 'invalid_type', message: 'must be a number or a decimal string' }
  const d = decimalOf(value)
  if (!d) return { code: 'invalid_format', message: 'must be a plain decimal such as 125.50' }
  const range = `must be ${bounds.minExclusive ? 'greater than' : 'at least'} ${bounds.min.toString()} and at most ${bounds.max.toString()}`
  if (bounds.minExclusive ? d.lessThanOrEqualTo(bounds.min) : d.lessThan(bounds.min))
    return { code: 'out_of_range', message: range }
  if (d.greaterThan(bounds.max)) return { code: 'out_of_range', message: range }
  if (d.decimalPlaces() > bounds.places)
    return { code: 'too_precise', message: `must have at most ${bounds.places} decimal places` }
  return undefined
}

/** The stored form of a decimal decimalProblem accepted: exactly `places` places (as numeric(p, places) returns it). */
export function toStoredDecimal(value: unknown, places: number): string {
  const d = decimalOf(value)
  if (!d || d.decimalPlaces() > places) throw new Error('toStoredDecimal: not a valid decimal')
  return d.toFixed(places)
}

const AMOUNT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/

/**
 * Integer cents of a numeric column's text ('1234.5', '-0.25', '7'): exact, without a Decimal per
 * value, for reads of thousands of rows (statements; decision 0007). Throws on anything with more than two decimals.
 */
export function centsOf(value: string | number): number {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim()
  const m = AMOUNT.exec(text)
  if (!m) throw new RangeError(`not an amount of whole cents: ${text}`)
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'))
  return m[1] === '-' ? -cents : cents
}

/** Cents as 2-decimal text ('-1234.50'), without a Decimal: the stored and CSV form of an amount. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}
