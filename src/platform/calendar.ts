// Calendar dates as 'YYYY-MM-DD' strings, reckoned in UTC so no time zone shifts a day.

/** True when `text` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (mo < 1 || mo > 12 || d < 1) return false
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate()
}

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** Adds calendar months; a day past the end of the target month becomes its last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number]
  const total = y * 12 + (m - 1) + months
  const year = Math.floor(total / 12)
  const month = total % 12
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return new Date(Date.UTC(year, month, Math.min(d, last))).toISOString().slice(0, 10)
}

const DAY_MS = 86_400_000

/** Actual days from `from` to `to` (negative when `to` is earlier), leap days included (money.md, "Time"). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/**
 * How months elapsed are counted (money.md, "Time"): COMPLETED counts whole months only; STARTED
 * also the month begun (once the date is past the anniversary); NEAREST_15 also the month begun
 * when 15 or more days of it have passed.
 */
export const MONTH_COUNTING = ['COMPLETED', 'STARTED', 'NEAREST_15'] as const
export type MonthCounting = (typeof MONTH_COUNTING)[number]

/**
 * Months elapsed from `effective` to `asOf`: the largest k ≤ `termMonths` whose anniversary
 * `addMonths(effective, k)` is on or before `asOf`, always counted from the effective date (never
 * chained: from 2025-01-31 the anniversaries are 02-28, 03-31, 04-30), plus one by `counting` for a
 * month begun; never more than `termMonths`, and 0 before the effective date.
 */
export function monthsElapsed(
  effective: string,
  asOf: string,
  termMonths: number,
  counting: MonthCounting = 'COMPLETED',
): number {
  if (asOf < effective || termMonths <= 0) return 0
  // A first guess from the calendar months, then corrected by the anniversaries themselves.
  const [ey, em] = effective.split('-').map(Number) as [number, number]
  const [cy, cm] = asOf.split('-').map(Number) as [number, number]
  let k = Math.min(termMonths, Math.max(0, (cy - ey) * 12 + (cm - em)))
  while (k > 0 && addMonths(effective, k) > asOf) k--
  while (k < termMonths && addMonths(effective, k + 1) <= asOf) k++
  if (k >= termMonths) return termMonths
  const anniversary = addMonths(effective, k)
  const past = daysBetween(anniversary, asOf)
  if (counting === 'STARTED' && past > 0) k++
  if (counting === 'NEAREST_15' && past >= 15) k++
  return Math.min(k, termMonths)
}
