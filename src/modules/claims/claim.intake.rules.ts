// Whether a claim may be taken against a contract, as pure rules (issue 14 "Intake"; docs/claims.md
// "Rules"). The caller gives the contract's facts (its status history, dates, odometers, the plan's
// waiting period) and the claim's (loss date, odometer, today, what earlier claims read); it gets every
// refusal at once, each a FieldError naming the field and the rule, or none. Nothing is read here.
//
// The rules and the choices:
// - The loss date is a real date, on or after the sale date and not after today.
// - The contract was in force on the loss date (contracts' `inForceOn`: ACTIVE by its status history,
//   within its effective and expiration dates). So a contract cancelled after the loss is claimable for
//   it, an expired one for losses up to its expiry, a cancellation back-dated before the loss is not.
//   The refusal says why: before the effective date, after the expiration date, or the status the
//   history gives on that day (`contract_not_in_force`).
// - The odometer is a whole number ≥ 0, required when the coverage reads miles (an expiration odometer
//   or a waiting period in miles); at least the sale odometer and the highest odometer of the
//   contract's earlier claims (the caller's to pick: those whose loss date is on or before this one's);
//   below the expiration odometer (FROM_ZERO plans: the term's miles; a term of 0 miles: no limit).
// - The waiting period: the loss on or after `effectiveDate + waitingPeriodDays` and the odometer at
//   least `saleOdometer + waitingPeriodMiles`; both must be past. Days count from the effective date
//   (the coverage is not in force before it, so a waiting period from the sale would be shorter than
//   the plan says whenever the effective date is later); miles from the sale odometer (FROM_ZERO
//   plans too: the miles driven since the sale).
import { addDays, isIsoDate } from '../../platform/calendar.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { inForceOn, statusOn, type StatusHistoryPoint } from '../contracts/index.ts'

export type MilesBasis = 'FROM_SALE_ODOMETER' | 'FROM_ZERO'

/** What intake reads of the contract: dates YYYY-MM-DD in the tenant's time zone; the waiting period from `contract.terms.claims`. */
export type IntakeContract = {
  /** Its status changes in the order they were recorded (the servicing port's history). */
  history: readonly StatusHistoryPoint[]
  saleDate: string
  effectiveDate: string
  expirationDate: string
  saleOdometer: number | null
  /** As stored; FROM_ZERO plans read the term's miles instead. */
  expirationOdometer: number | null
  /** The term's miles; 0: unlimited. */
  termMiles: number
  milesBasis: MilesBasis
  waitingPeriodDays: number
  waitingPeriodMiles: number
}

export type IntakeClaim = {
  lossDate: string
  odometer: number | null
  /** Today. */
  today: string
  /** The highest odometer of the contract's earlier claims; null: none. */
  earlierClaimsMaxOdometer: number | null
}

/** The odometer at which the coverage ends; null: no mileage limit. */
export function expirationOdometerOf(
  contract: Pick<IntakeContract, 'expirationOdometer' | 'termMiles' | 'milesBasis'>,
) {
  if (contract.termMiles <= 0) return null
  return contract.milesBasis === 'FROM_ZERO' ? contract.termMiles : contract.expirationOdometer
}

/** The first day a loss is covered after the waiting period in days. */
export function firstCoveredDay(contract: Pick<IntakeContract, 'effectiveDate' | 'waitingPeriodDays'>): string {
  return addDays(contract.effectiveDate, contract.waitingPeriodDays)
}

const err = (field: string, code: string, message: string): FieldError => ({ field, code, message })

/** Every reason the claim may not be taken against the contract; empty: it may. */
export function intakeProblems(contract: IntakeContract, claim: IntakeClaim): FieldError[] {
  const errors: FieldError[] = []
  const loss = claim.lossDate
  if (!isIsoDate(loss)) {
    errors.push(err('lossDate', 'invalid_format', 'must be a date written YYYY-MM-DD'))
  } else if (loss < contract.saleDate) {
    errors.push(err('lossDate', 'before_sale_date', `must be on or after the sale date ${contract.saleDate}`))
  } else if (loss > claim.today) {
    errors.push(err('lossDate', 'in_future', `must not be after today ${claim.today}`))
  } else if (!inForceOn(contract.history, loss, contract)) {
    if (loss < contract.effectiveDate)
      errors.push(
        err(
          'lossDate',
          'before_effective_date',
          `the contract takes effect on ${contract.effectiveDate}, after the loss`,
        ),
      )
    else if (loss > contract.expirationDate)
      errors.push(err('lossDate', 'after_expiration_date', `the contract expired on ${contract.expirationDate}`))
    else {
      const status = statusOn(contract.history, loss, contract)
      errors.push(
        err(
          'lossDate',
          'contract_not_in_force',
          `the contract was not in force on ${loss}: it was ${status ?? 'not yet sold'} then`,
        ),
      )
    }
  } else if (loss < firstCoveredDay(contract)) {
    errors.push(
      err(
        'lossDate',
        'within_waiting_period',
        `the plan's waiting period of ${contract.waitingPeriodDays} days runs until ${firstCoveredDay(contract)}`,
      ),
    )
  }

  const o = claim.odometer
  const limit = expirationOdometerOf(contract)
  const readsMiles = limit !== null || contract.waitingPeriodMiles > 0
  if (o === null) {
    if (readsMiles)
      errors.push(err('odometer', 'required', 'the coverage is limited by miles: the odometer is required'))
    return errors
  }
  if (!Number.isSafeInteger(o) || o < 0) {
    errors.push(err('odometer', 'out_of_range', 'must be a whole number of miles, 0 or more'))
    return errors
  }
  const os = contract.saleOdometer
  if (os !== null && o < os) {
    errors.push(err('odometer', 'below_sale_odometer', `must be at least the sale odometer ${os}`))
  } else if (claim.earlierClaimsMaxOdometer !== null && o < claim.earlierClaimsMaxOdometer) {
    errors.push(
      err(
        'odometer',
        'below_earlier_claim_odometer',
        `must be at least ${claim.earlierClaimsMaxOdometer}, the odometer of an earlier claim`,
      ),
    )
  }
  if (limit !== null && o >= limit) {
    errors.push(err('odometer', 'at_or_above_expiration_odometer', `the coverage ends at ${limit} miles`))
  } else if (os !== null && contract.waitingPeriodMiles > 0 && o >= os && o < os + contract.waitingPeriodMiles) {
    errors.push(
      err(
        'odometer',
        'within_waiting_period',
        `the plan's waiting period of ${contract.waitingPeriodMiles} miles runs until ${os + contract.waitingPeriodMiles}`,
      ),
    )
  }
  return errors
}
