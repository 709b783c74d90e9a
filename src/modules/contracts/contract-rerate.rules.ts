// Rerating a contract (issue 16; docs/contracts.md "Rerating"): pure rules. What the corrected facts
// are (the contract's own, with the request's changes laid over them), whether they can be priced,
// which retail price the contract keeps, why a rerate is refused, and what it changes, in cents.
import type { ContractStatus, RetailBounds, VehicleSnapshot } from '../../platform/db/schema.contracts.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { Decimal, decimalProblem, toCents, toStoredDecimal } from '../../platform/money.ts'
import type { Exclusion, RerateFacts } from '../rating/index.ts'
import { validateVin } from '../rating/index.ts'
import { retailProblem, type ContractEvent } from './contract.rules.ts'

/** The body of POST /api/contracts/{contractId}/rerateRequests as the schema admits it. */
export type RerateInput = {
  /** The odometer at the sale, corrected (null: not known). */
  saleOdometer?: number | null
  vehicle?: {
    vin?: string
    year?: number | null
    make?: string | null
    model?: string | null
    trim?: string | null
    condition?: string | null
    inServiceDate?: string | null
    purchasePrice?: number | string | null
    msrp?: number | string | null
  }
  /** Another term of the contract's plan. */
  termId?: number
  /** Another deductible of the contract's product. */
  deductibleId?: number
  /** Replaces the options chosen (required ones are added whatever is sent). */
  selectedOptionIds?: number[]
  /** A new retail price; by default the contract keeps its own when it still fits the rate. */
  retailPrice?: number | string
  reason?: string | null
  dryRun?: boolean
}

/** What the contract says of its sale now: the facts a rerate starts from. */
export type CurrentFacts = { saleOdometer: number | null; vehicle: VehicleSnapshot }

/**
 * The event a rerate is judged as by the state machine: EDIT while PENDING (its pricing is still
 * being written), REFINALIZE once sold (FINALIZED or ACTIVE: the difference is posted); anything else
 * is refused by the state machine as contract_state_conflict.
 */
export function rerateEvent(status: ContractStatus): ContractEvent {
  return status === 'PENDING' ? 'EDIT' : 'REFINALIZE'
}

const MONEY_BOUNDS = { places: 2, min: new Decimal(0), max: new Decimal('99999999.99') }

/** Problems with the request's values that the schema cannot see (VIN check digit, amounts). Empty: none. */
export function rerateInputProblems(input: RerateInput): FieldError[] {
  const errors: FieldError[] = []
  const vin = input.vehicle?.vin
  if (vin !== undefined) {
    const problems = validateVin(vin)
    if (problems.length > 0)
      errors.push({
        field: 'vehicle/vin',
        code: problems[0]!.code === 'check_digit' ? 'check_digit' : 'invalid_format',
        message: problems.map((p) => p.message).join('; '),
      })
  }
  const money = (field: string, value: unknown) => {
    if (value === undefined || value === null) return
    const problem = decimalProblem(value, MONEY_BOUNDS)
    if (problem) errors.push({ field, code: problem.code, message: `${field} ${problem.message}` })
  }
  money('vehicle/purchasePrice', input.vehicle?.purchasePrice)
  money('vehicle/msrp', input.vehicle?.msrp)
  money('retailPrice', input.retailPrice)
  return errors
}

const upper = (v: string | null) => (v === null ? null : v.trim().toUpperCase())
const decimalText = (v: number | string | null) => (v === null ? null : toStoredDecimal(v, 2))

/**
 * The facts the rate is priced from: the contract's own, each replaced by the request's when it gives
 * one (null clears it). A corrected VIN decodes afresh: the year, make, model and trim the contract
 * had (decoded from the old VIN) are dropped unless the request restates them. `changed` lists the
 * facts that differ from the contract's, by their request field.
 */
export function rerateFacts(current: CurrentFacts, input: RerateInput): { facts: RerateFacts; changed: string[] } {
  const v = input.vehicle ?? {}
  const cur = current.vehicle
  const vin = v.vin === undefined ? cur.vin : v.vin.toUpperCase()
  const newVin = vin !== cur.vin
  const pick = <T>(given: T | undefined, own: T | null): T | null =>
    given !== undefined ? (given ?? null) : newVin ? null : own
  const keep = <T>(given: T | undefined, own: T | null): T | null => (given !== undefined ? (given ?? null) : own)
  const facts: RerateFacts = {
    odometer: input.saleOdometer !== undefined ? input.saleOdometer : current.saleOdometer,
    vin,
    vehicleYear: pick(v.year, cur.year),
    vehicleMake: upper(pick(v.make, cur.make)),
    vehicleModel: upper(pick(v.model, cur.model)),
    vehicleTrim: upper(pick(v.trim, cur.trim)),
    vehicleCondition: keep(v.condition, cur.condition),
    inServiceDate: keep(v.inServiceDate, cur.inServiceDate),
    vehiclePurchasePrice: decimalText(keep(v.purchasePrice, cur.purchasePrice)),
    msrp: decimalText(keep(v.msrp, cur.msrp)),
  }
  const was: Record<keyof RerateFacts, unknown> = {
    odometer: current.saleOdometer,
    vin: cur.vin,
    vehicleYear: cur.year,
    vehicleMake: cur.make,
    vehicleModel: cur.model,
    vehicleTrim: cur.trim,
    vehicleCondition: cur.condition,
    inServiceDate: cur.inServiceDate,
    vehiclePurchasePrice: decimalText(cur.purchasePrice),
    msrp: decimalText(cur.msrp),
  }
  const FIELD: Record<keyof RerateFacts, string> = {
    odometer: 'saleOdometer',
    vin: 'vehicle/vin',
    vehicleYear: 'vehicle/year',
    vehicleMake: 'vehicle/make',
    vehicleModel: 'vehicle/model',
    vehicleTrim: 'vehicle/trim',
    vehicleCondition: 'vehicle/condition',
    inServiceDate: 'vehicle/inServiceDate',
    vehiclePurchasePrice: 'vehicle/purchasePrice',
    msrp: 'vehicle/msrp',
  }
  const changed = (Object.keys(facts) as Array<keyof RerateFacts>)
    .filter((k) => facts[k] !== was[k])
    .map((k) => FIELD[k])
  return { facts, changed }
}

/**
 * The retail price after the rerate: the one asked for, which must fit the new rate; else the rate's
 * fixed retail when it is locked; else the contract's own while it still fits. A retail price that
 * no longer fits (the rate's minimum rose above it) must be given: 422 naming retailPrice.
 */
export function rerateRetail(
  currentCents: number,
  bounds: RetailBounds,
  requested: number | string | undefined,
): { ok: true; retailCents: number } | { ok: false; error: FieldError } {
  if (requested !== undefined) {
    const cents = toCents(new Decimal(requested))
    const problem = retailProblem(cents, bounds)
    return problem ? { ok: false, error: problem } : { ok: true, retailCents: cents }
  }
  if (bounds.retailLocked) return { ok: true, retailCents: bounds.suggestedRetailCents }
  const problem = retailProblem(currentCents, bounds)
  if (!problem) return { ok: true, retailCents: currentCents }
  return {
    ok: false,
    error: {
      field: 'retailPrice',
      code: 'retail_no_longer_fits',
      message: `the contract's retail price no longer fits the rate: give a retailPrice that ${problem.message}`,
    },
  }
}

/** One side of a rerate, in cents (what the contract says before, and after). */
export type RerateSide = {
  retailCents: number
  optionsRetailCents: number
  dealerCostCents: number
  salesTaxCents: number
}

/** What a rerate changes, in cents (after − before): the dealer cost, the retail, options, sales tax and the price the customer pays. */
export function rerateDifference(before: RerateSide, after: RerateSide) {
  return {
    dealerCostCents: after.dealerCostCents - before.dealerCostCents,
    retailPriceCents: after.retailCents - before.retailCents,
    optionsRetailCents: after.optionsRetailCents - before.optionsRetailCents,
    salesTaxCents: after.salesTaxCents - before.salesTaxCents,
    totalPriceCents: after.retailCents + after.optionsRetailCents - (before.retailCents + before.optionsRetailCents),
  }
}

export type RerateDifference = ReturnType<typeof rerateDifference>

/** The sales tax kept in the terms, in cents (null: none). */
export function salesTaxCents(tax: { amount: string } | null | undefined): number {
  return tax ? toCents(new Decimal(tax.amount)) : 0
}

/**
 * Why the corrected facts cannot be priced, one error per rule (docs/contracts.md "Rerating"): the
 * offer walk's exclusions on the rate's path, named by their level (`product`, `program`, `plan`,
 * `term`, `deductible`) with the exclusion's reason as the code (CRITERIA, NO_RATE, CONDITION…) and its
 * text (a criteria rule's own text), then the options the rate no longer offers.
 */
export function ineligibilityErrors(
  exclusions: readonly Exclusion[],
  problems: ReadonlyArray<{ field: string; code: string; text: string }>,
): FieldError[] {
  return [
    ...exclusions.map((e) => ({ field: e.level.toLowerCase(), code: e.reason, message: e.text })),
    ...problems.map((p) => ({ field: p.field, code: p.code, message: p.text })),
  ]
}
