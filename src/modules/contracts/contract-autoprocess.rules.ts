// Pure rules of automatic expiry and voiding (docs/contracts.md "Automatic expiry and voiding"):
// when a contract in force is due to expire (its date, or its mileage from the latest known odometer)
// and from which day, which odometer reading a contract keeps, and when a pending contract may be
// voided. The repository's queries select the same contracts; the state machine (contract.rules.ts
// `transition`) judges the change itself again under the row lock.
import { addDays, isIsoDate } from '../../platform/calendar.ts'

export const EXPIRY_REASONS = ['DATE', 'MILEAGE'] as const
export type ExpiryReason = (typeof EXPIRY_REASONS)[number]

/** Where an odometer reading of a contract came from: an accepted claim (with its id), or a refused claim's report. */
export const ODOMETER_SOURCES = ['CLAIM', 'CLAIM_INTAKE'] as const
export type OdometerSource = (typeof ODOMETER_SOURCES)[number]

/** The highest odometer a reading may have (the sale odometer's bound): anything above is a typing error, never kept. */
export const MAX_ODOMETER = 2_000_000

export type OdometerReading = { odometer: number; readOn: string }

export type ExpiryFacts = {
  effectiveDate: string
  expirationDate: string
  /** Null: no mileage limit (unlimited miles, or no sale odometer on a plan counting from it). */
  expirationOdometer: number | null
  /** The latest known odometer (null: none reported). */
  reading: OdometerReading | null
}

export type ExpiryDue = {
  /** What ends the coverage first (DATE on a tie). */
  reason: ExpiryReason
  /** Every reason that applies, DATE first. */
  reasons: ExpiryReason[]
  /** The day from which the contract is EXPIRED: the day after the expiration date, or the reading's day. */
  expiresOn: string
}

/**
 * Whether a contract in force is due to expire as of `asOf`, and from which day. DATE: `asOf` is after
 * the expiration date (the coverage ran through it: EXPIRED from the next day). MILEAGE: a reading
 * taken on or before `asOf` is at or past the expiration odometer (EXPIRED from the reading's day,
 * never before the effective date). Null when neither.
 */
export function expiryDue(f: ExpiryFacts, asOf: string): ExpiryDue | null {
  const byDate = asOf > f.expirationDate ? addDays(f.expirationDate, 1) : null
  const r = f.reading
  const byMiles =
    r !== null && f.expirationOdometer !== null && r.odometer >= f.expirationOdometer && r.readOn <= asOf
      ? r.readOn < f.effectiveDate
        ? f.effectiveDate
        : r.readOn
      : null
  if (byDate === null && byMiles === null) return null
  const reasons: ExpiryReason[] = []
  if (byDate !== null) reasons.push('DATE')
  if (byMiles !== null) reasons.push('MILEAGE')
  if (byMiles !== null && (byDate === null || byMiles < byDate))
    return { reason: 'MILEAGE', reasons, expiresOn: byMiles }
  return { reason: 'DATE', reasons, expiresOn: byDate! }
}

/** Miles left before the expiration odometer (negative: past it); null without a limit or a reading. */
export function milesLeft(expirationOdometer: number | null, reading: OdometerReading | null): number | null {
  return expirationOdometer === null || reading === null ? null : expirationOdometer - reading.odometer
}

export type ReadingRefusal = 'invalid' | 'out_of_range' | 'future' | 'before_effective_date' | 'not_in_force' | 'older'

/**
 * Whether a contract takes a reported reading as its latest known odometer, or why not. A reading is
 * a whole number of miles from 0 to MAX_ODOMETER, read on a day from the effective date to today, of
 * a contract that was sold (not PENDING or VOIDED); it replaces the kept one unless that one was read
 * on a later day (the latest report of a day wins, so a mistyped reading is corrected by the next).
 */
export function readingRefusal(
  contract: { status: string; effectiveDate: string; current: OdometerReading | null },
  reading: OdometerReading,
  today: string,
): ReadingRefusal | null {
  if (!Number.isSafeInteger(reading.odometer) || !isIsoDate(reading.readOn)) return 'invalid'
  if (reading.odometer < 0 || reading.odometer > MAX_ODOMETER) return 'out_of_range'
  if (contract.status === 'PENDING' || contract.status === 'VOIDED') return 'not_in_force'
  if (reading.readOn > today) return 'future'
  if (reading.readOn < contract.effectiveDate) return 'before_effective_date'
  if (contract.current !== null && reading.readOn < contract.current.readOn) return 'older'
  return null
}

const DAY_MS = 86_400_000

/** The instant from which a contract created at `createdAt` may be voided: `days` whole days later. */
export function voidableFrom(createdAt: Date, days: number): Date {
  return new Date(createdAt.getTime() + days * DAY_MS)
}

/**
 * Whether a PENDING contract may be voided automatically at `now`: created more than
 * `pendingContractVoidAfterDays` days before (the VOID process's `created_at < now − days`).
 */
export function voidable(createdAt: Date, days: number, now: Date): boolean {
  return createdAt.getTime() < now.getTime() - days * DAY_MS
}

/** Whole days a contract has been pending at `now`. */
export function pendingDays(createdAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - createdAt.getTime()) / DAY_MS))
}
