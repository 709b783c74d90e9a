// Month close and report runs as pure rules (docs/reporting.md "Month close", "Report runs"): when a
// month is closed, the digest of a report's inputs, a statement's inputs as of a day, the prior-period
// adjustment of a statement, a run's scope and its next risk bearer. No I/O.
import { createHash } from 'node:crypto'
import type { ReportKind } from '../../platform/db/schema.reporting.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import {
  contractFigures,
  FIGURES,
  zeroFigures,
  addFigures,
  type BookContract,
  type Figures,
} from './statement.rules.ts'

export const REPORT_KINDS = [
  'REINSURANCE_STATEMENT',
  'PREMIUM_BORDEREAU',
  'CLAIMS_BORDEREAU',
] as const satisfies readonly ReportKind[]
export type { ReportKind }

/** The account-holder kind whose members a report kind is produced for. */
export const RISK_BEARER_KIND: Record<ReportKind, 'REINSURANCE_COMPANY' | 'INSURER'> = {
  REINSURANCE_STATEMENT: 'REINSURANCE_COMPANY',
  PREMIUM_BORDEREAU: 'INSURER',
  CLAIMS_BORDEREAU: 'INSURER',
}

/**
 * A report month is closed, so its reports are frozen, when its last day is on or before
 * booksClosedThrough (no journal entry can be dated in it any more) and has come in the tenant's time
 * zone (a month closed ahead of its end is still reported to date, not frozen).
 */
export function monthClosed(monthTo: string, today: string, booksClosedThrough: string | null): boolean {
  return booksClosedThrough !== null && monthTo <= booksClosedThrough && monthTo <= today
}

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (value instanceof Date) return JSON.stringify(value.toISOString())
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const o = value as Record<string, unknown>
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .toSorted()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`
}

/** The sha256 (hex) of a report's inputs, taken as canonical JSON. */
export function inputDigest(inputs: unknown): string {
  return createHash('sha256').update(canonicalJson(inputs)).digest('hex')
}

/**
 * What a reinsurance statement as of `day` reads of its book: each contract with a movement dated on
 * or before the day, its cession and reserve lines, and those movements (date and cents), by id.
 */
export function statementInputs(book: readonly BookContract[], day: string) {
  const upTo = (ms: ReadonlyArray<{ on: string; cents: number }>) =>
    ms.filter((m) => m.on <= day).map((m) => [m.on, m.cents])
  const out: unknown[] = []
  for (const c of book.toSorted((a, b) => a.id - b.id)) {
    const moves = {
      written: upTo(c.written),
      cancelled: upTo(c.cancelled),
      cancelEvents: upTo(c.cancelEvents),
      claimsPaid: upTo(c.claimsPaid),
      claimsIncurred: upTo(c.claimsIncurred),
    }
    if (Object.values(moves).every((m) => m.length === 0)) continue
    out.push({
      id: c.id,
      shareBps: c.shareBps,
      cedingFeeBps: c.cedingFeeBps,
      administratorFeeBps: c.administratorFeeBps,
      reserveLines: c.reserveLines.map((l) => [l.code, l.amountCents]),
      ...moves,
    })
  }
  return out
}

/** The book's inception-to-date figures through `day` (whole cents). */
export function itdFigures(book: readonly BookContract[], day: string): Figures {
  const f = zeroFigures()
  for (const c of book) addFigures(f, contractFigures(c, null, day))
  return f
}

/**
 * The prior-period adjustment: what the inception-to-date figures through a frozen month's end are
 * now, less what its frozen statement reported (money on the wire, converted back to cents).
 */
export function adjustmentOf(now: Figures, frozen: Record<string, unknown>): Figures {
  const f = zeroFigures()
  for (const k of FIGURES) f[k] = now[k] - Math.round(Number(frozen[k] ?? 0) * 100)
  return f
}

/** The risk bearers of a run, ascending and once each, and its idempotency key. */
export function scopeOf(ids: readonly number[]): { ids: number[]; key: string } {
  const sorted = [...new Set(ids)].toSorted((a, b) => a - b)
  return { ids: sorted, key: sorted.length === 0 ? '-' : sorted.join(',') }
}

/** The next risk bearer of a run after its cursor (the last one done), or undefined when all are. */
export function nextRiskBearer(ids: readonly number[], cursor: number): number | undefined {
  return ids.find((id) => id > cursor)
}

/** The report month of a run: YYYY-MM, begun by `today`; else the field's problem. */
export function runPeriodProblem(period: string, today: string): FieldError | undefined {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period))
    return { field: 'period', code: 'invalid_format', message: `must be a month YYYY-MM, not ${period}` }
  if (`${period}-01` > today)
    return { field: 'period', code: 'out_of_range', message: `${period} has not begun (today is ${today})` }
  return undefined
}
