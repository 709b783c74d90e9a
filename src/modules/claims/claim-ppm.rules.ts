// Prepaid maintenance (PPM) redemption, as pure rules (issue 14 "PPM"; docs/claims.md "PPM services").
// A PPM contract's coverage snapshot carries its schedule of services (`coverage.ppmServices`: code,
// name, intervalMonths, intervalMiles, count); a claim's job redeems one of them by naming its
// `ppmServiceCode` instead of a coverage component. Nothing here reads a database, clock or setting.
//
// The rules and the choices:
// - A code is one of the schedule's, in any case (`unknown_service`); a contract sold without a
//   schedule (every non-PPM contract) has none, so any code is unknown there.
// - At most `count` uses over the contract's life (`allowance_used`). `used` is what the contract's
//   other claims already redeem (the repository's count: claims not VOIDED or DENIED, jobs not
//   DENIED); the jobs of the claim being checked come on top, in their order.
// - The k-th use is due once `intervalMonths × k` months have passed since the effective date OR
//   `intervalMiles × k` miles since the sale odometer (whichever comes first, as maintenance
//   schedules read "every 6 months or 7,500 miles"), less a tolerance: PPM_TOLERANCE_DAYS before the
//   due date, PPM_TOLERANCE_MILES before the due odometer (`not_due`). A service without either
//   interval is due at any time; one with one interval is due by that one only. An odometer that is
//   not known never makes a use due by miles. A missing sale odometer counts from 0, as the contracts
//   module's schedule did.
// - The tolerance is a constant, not a setting: a service done a little early (the customer came in a
//   few days or a few hundred miles before the book says) is still the service the contract paid for.
import { addDays, addMonths, isIsoDate } from '../../platform/calendar.ts'
import type { FieldError } from '../../platform/http/errors.ts'

/** How many days before its due date a service may be redeemed. */
export const PPM_TOLERANCE_DAYS = 30
/** How many miles before its due odometer a service may be redeemed. */
export const PPM_TOLERANCE_MILES = 500

/** A scheduled service as the contract's coverage snapshot holds it. */
export type PpmService = {
  code: string
  name: string
  intervalMonths?: number | null | undefined
  intervalMiles?: number | null | undefined
  count: number
}

/** What of the contract the schedule counts from. */
export type PpmContractDates = { effectiveDate: string; saleOdometer: number | null }

/** Uses so far by service code (upper case); a code not in it has none. */
export type PpmUsedCounts = ReadonlyMap<string, number>

/** A job as the rules read it: only jobs naming a service are checked. */
export type PpmJob = { ppmServiceCode?: string | null | undefined }

const positive = (n: number | null | undefined): n is number => typeof n === 'number' && n > 0

/** The schedule's service named `code`, in any case; undefined when it has none. */
export function ppmServiceOf(schedule: readonly PpmService[], code: string): PpmService | undefined {
  const wanted = code.trim().toUpperCase()
  return schedule.find((s) => s.code.toUpperCase() === wanted)
}

/** When the k-th use (from 1) of `service` falls due, by date and by odometer; null where it has no interval. */
export function ppmDue(
  service: PpmService,
  k: number,
  contract: PpmContractDates,
): { dueDate: string | null; dueOdometer: number | null } {
  if (!Number.isSafeInteger(k) || k < 1) throw new RangeError('k must be a whole number ≥ 1')
  return {
    dueDate: positive(service.intervalMonths) ? addMonths(contract.effectiveDate, service.intervalMonths * k) : null,
    dueOdometer: positive(service.intervalMiles) ? (contract.saleOdometer ?? 0) + service.intervalMiles * k : null,
  }
}

/**
 * Whether the k-th use of `service` may be redeemed by a loss on `lossDate` at `odometer`: on or
 * after its due date less PPM_TOLERANCE_DAYS, or at or past its due odometer less
 * PPM_TOLERANCE_MILES; always for a service with no interval.
 */
export function ppmIsDue(
  service: PpmService,
  k: number,
  contract: PpmContractDates,
  lossDate: string,
  odometer: number | null,
): boolean {
  const { dueDate, dueOdometer } = ppmDue(service, k, contract)
  if (dueDate === null && dueOdometer === null) return true
  if (dueDate !== null && lossDate >= addDays(dueDate, -PPM_TOLERANCE_DAYS)) return true
  return dueOdometer !== null && odometer !== null && odometer >= dueOdometer - PPM_TOLERANCE_MILES
}

const ordinal = (k: number) => {
  const tens = k % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][k % 10] ?? 'th')
  return `${k}${suffix}`
}

/**
 * Every problem of the jobs that redeem a scheduled service, each naming `jobs[i].ppmServiceCode`:
 * `unknown_service`, `allowance_used`, `not_due`. Jobs without a code are not looked at. An invalid
 * loss date skips the due check (intake reports the date itself).
 */
export function ppmRedemptionProblems(
  schedule: readonly PpmService[],
  used: PpmUsedCounts,
  jobs: readonly PpmJob[],
  lossDate: string,
  odometer: number | null,
  contract: PpmContractDates,
): FieldError[] {
  const errors: FieldError[] = []
  const taken = new Map<string, number>()
  jobs.forEach((job, i) => {
    const code = job.ppmServiceCode
    if (code === null || code === undefined) return
    const field = `jobs[${i}].ppmServiceCode`
    const service = ppmServiceOf(schedule, code)
    if (!service) {
      errors.push({
        field,
        code: 'unknown_service',
        message:
          schedule.length === 0
            ? `${code} is not a service of the contract: it has no prepaid-maintenance schedule`
            : `${code} is not a service of the contract's schedule (${schedule.map((s) => s.code).join(', ')})`,
      })
      return
    }
    const key = service.code.toUpperCase()
    const k = (used.get(key) ?? 0) + (taken.get(key) ?? 0) + 1
    taken.set(key, (taken.get(key) ?? 0) + 1)
    if (k > service.count) {
      errors.push({
        field,
        code: 'allowance_used',
        message: `${service.code}: the contract allows ${service.count} and ${k - 1} ${k - 1 === 1 ? 'is' : 'are'} used or redeemed on this claim already`,
      })
      return
    }
    if (!isIsoDate(lossDate) || ppmIsDue(service, k, contract, lossDate, odometer)) return
    const { dueDate, dueOdometer } = ppmDue(service, k, contract)
    const when = [
      dueDate === null ? null : `on ${dueDate} (from ${addDays(dueDate, -PPM_TOLERANCE_DAYS)})`,
      dueOdometer === null
        ? null
        : `at ${dueOdometer} miles (from ${dueOdometer - PPM_TOLERANCE_MILES}${odometer === null ? '; the claim gives no odometer' : ''})`,
    ]
      .filter((w) => w !== null)
      .join(' or ')
    errors.push({
      field,
      code: 'not_due',
      message: `the ${ordinal(k)} ${service.code} is due ${when}`,
    })
  })
  return errors
}

/** A service of the contract as the ppmservices routes show it. */
export type PpmServiceStatus = {
  serviceCode: string
  description: string
  allowedCount: number
  usedCount: number
  remainingCount: number
  intervalMonths: number | null
  intervalMiles: number | null
  /** When the next use falls due (without the tolerance); null when none is left or it has no such interval. */
  nextDueDate: string | null
  nextDueOdometer: number | null
  /** Every use with when it falls due and whether it is used (the first `usedCount`). */
  schedule: Array<{ sequence: number; dueDate: string | null; dueOdometer: number | null; used: boolean }>
}

/** The schedule with what is used and what is left, in the schedule's order. */
export function ppmServiceStatuses(
  schedule: readonly PpmService[],
  used: PpmUsedCounts,
  contract: PpmContractDates,
): PpmServiceStatus[] {
  return schedule.map((s) => {
    const usedCount = used.get(s.code.toUpperCase()) ?? 0
    const remainingCount = Math.max(0, s.count - usedCount)
    const next = remainingCount > 0 ? ppmDue(s, usedCount + 1, contract) : { dueDate: null, dueOdometer: null }
    return {
      serviceCode: s.code,
      description: s.name,
      allowedCount: s.count,
      usedCount,
      remainingCount,
      intervalMonths: positive(s.intervalMonths) ? s.intervalMonths : null,
      intervalMiles: positive(s.intervalMiles) ? s.intervalMiles : null,
      nextDueDate: next.dueDate,
      nextDueOdometer: next.dueOdometer,
      schedule: Array.from({ length: s.count }, (_, i) => ({
        sequence: i + 1,
        ...ppmDue(s, i + 1, contract),
        used: i < usedCount,
      })),
    }
  })
}
