// Pure contract rules (docs/contracts.md): the lifecycle state machine, custom-field values, what a
// contract must agree with in its quote, the retail price, and the journal lines a finalization posts.
import { addDays, addMonths, isIsoDate } from '../../platform/calendar.ts'
import { hasControlCharacter } from '../../platform/text.ts'
import type { ContractStatus, CustomFieldRule, RetailBounds } from '../../platform/db/schema.contracts.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { jsonEqual } from '../../platform/canonical-json.ts'
import { centsToNumber, Decimal, decimalProblem, toCents } from '../../platform/money.ts'
import type { CustomerInput, LienHolderInput } from '../parties/index.ts'

export const CONTRACT_STATUSES = [
  'PENDING',
  'FINALIZED',
  'ACTIVE',
  'EXPIRED',
  'CANCELLED',
  'VOIDED',
] as const satisfies readonly ContractStatus[]

// ---- lifecycle ---------------------------------------------------------------------------------

/**
 * What can happen to a contract. EDIT covers every change of a pending contract (PATCH, holds,
 * co-buyer, documents); the rest move it between statuses. ACTIVATE, VOID, EXPIRE, CANCEL and
 * REINSTATE come from the servicing port (contract-servicing.service.ts) for the modules and
 * processes that change a contract after the sale.
 */
export const CONTRACT_EVENTS = [
  'EDIT',
  'FINALIZE',
  'REFINALIZE',
  'ACTIVATE',
  'VOID',
  'EXPIRE',
  'CANCEL',
  'REINSTATE',
] as const
export type ContractEvent = (typeof CONTRACT_EVENTS)[number]

/**
 * From which statuses an event may happen, and the status it leads to ('SAME': stays; 'PRIOR': the
 * status the contract had before it was cancelled, a fact read from its status history).
 */
export const TRANSITIONS: Readonly<
  Record<ContractEvent, { from: readonly ContractStatus[]; to: ContractStatus | 'SAME' | 'PRIOR' }>
> = {
  EDIT: { from: ['PENDING'], to: 'SAME' },
  FINALIZE: { from: ['PENDING'], to: 'FINALIZED' },
  REFINALIZE: { from: ['FINALIZED', 'ACTIVE'], to: 'SAME' },
  ACTIVATE: { from: ['FINALIZED'], to: 'ACTIVE' },
  VOID: { from: ['PENDING'], to: 'VOIDED' },
  EXPIRE: { from: ['ACTIVE'], to: 'EXPIRED' },
  // From EXPIRED only as of a date on or before the expiration date (a late-reported total loss or repossession).
  CANCEL: { from: ['FINALIZED', 'ACTIVE', 'EXPIRED'], to: 'CANCELLED' },
  REINSTATE: { from: ['CANCELLED'], to: 'PRIOR' },
}

export type TransitionFacts = {
  /** Unresolved holds: they block finalization. */
  openHolds: number
  effectiveDate: string
  expirationDate: string
  /** Today in the tenant's time zone. */
  today: string
  /** The day the event takes effect (a cancellation's cancel date); today when not given. */
  eventDate?: string | undefined
  /** An odometer reading of the vehicle (EXPIRE by mileage). */
  odometer?: number | null | undefined
  /** The odometer at which the coverage ends; null: no mileage limit. */
  expirationOdometer?: number | null | undefined
  /** REINSTATE: the status the contract had before the cancellation being reversed (from its status history). */
  statusBeforeCancel?: ContractStatus | null | undefined
}

export type TransitionRefusal =
  | 'contract_state_conflict'
  | 'contract_on_hold'
  | 'contract_not_effective'
  | 'contract_not_expired'
  | 'contract_cancel_after_expiration'

export type Transition = { ok: true; to: ContractStatus } | { ok: false; code: TransitionRefusal; message: string }

/** Whether `event` may happen to a contract in `status`, and the status it leaves the contract in. */
export function transition(status: ContractStatus, event: ContractEvent, facts: TransitionFacts): Transition {
  const rule = TRANSITIONS[event]
  if (!rule.from.includes(status)) {
    return {
      ok: false,
      code: 'contract_state_conflict',
      message: `a contract that is ${status} cannot be ${PAST[event]}; only one that is ${rule.from.join(' or ')} can`,
    }
  }
  if (event === 'FINALIZE' && facts.openHolds > 0) {
    return {
      ok: false,
      code: 'contract_on_hold',
      message: `the contract has ${facts.openHolds} unresolved hold(s); resolve them before finalizing`,
    }
  }
  if (event === 'ACTIVATE' && facts.today < facts.effectiveDate) {
    return { ok: false, code: 'contract_not_effective', message: `the contract takes effect on ${facts.effectiveDate}` }
  }
  if (event === 'EXPIRE' && !expired(facts)) {
    const limit = facts.expirationOdometer
    const miles = limit === null || limit === undefined ? '' : ` or an odometer of ${limit}`
    return {
      ok: false,
      code: 'contract_not_expired',
      message: `the contract runs until ${facts.expirationDate}${miles}`,
    }
  }
  if (event === 'CANCEL' && status === 'EXPIRED' && (facts.eventDate ?? facts.today) > facts.expirationDate) {
    return {
      ok: false,
      code: 'contract_cancel_after_expiration',
      message: `the contract expired; it can be cancelled only as of a date on or before its expiration date ${facts.expirationDate}`,
    }
  }
  if (rule.to === 'PRIOR') {
    const prior = facts.statusBeforeCancel
    if (prior === null || prior === undefined || !TRANSITIONS.CANCEL.from.includes(prior))
      return {
        ok: false,
        code: 'contract_state_conflict',
        message: 'the status history records no cancellation to reverse',
      }
    return { ok: true, to: prior }
  }
  return { ok: true, to: rule.to === 'SAME' ? status : rule.to }
}

/** Run out: past the expiration date (today), or at or past the expiration odometer (a reading). */
function expired(facts: TransitionFacts): boolean {
  if (facts.today > facts.expirationDate) return true
  const { odometer, expirationOdometer } = facts
  return (
    odometer !== null &&
    odometer !== undefined &&
    expirationOdometer !== null &&
    expirationOdometer !== undefined &&
    odometer >= expirationOdometer
  )
}

const PAST: Record<ContractEvent, string> = {
  EDIT: 'changed',
  FINALIZE: 'finalized',
  REFINALIZE: 'refinalized',
  ACTIVATE: 'activated',
  VOID: 'voided',
  EXPIRE: 'expired',
  CANCEL: 'cancelled',
  REINSTATE: 'reinstated',
}

/**
 * The status a reader sees: a finalized contract is ACTIVE from its effective date even before the
 * change is written (the next write, or the daily process, records it).
 */
export function currentStatus(status: ContractStatus, effectiveDate: string, today: string): ContractStatus {
  return status === 'FINALIZED' && today >= effectiveDate ? 'ACTIVE' : status
}

/**
 * The status an event is judged from: the one a reader sees (currentStatus), except for ACTIVATE,
 * which is the writing of exactly that change. A write on a finalized contract in effect records
 * the activation first (catch-up), then its own event from ACTIVE.
 */
export function statusForEvent(
  stored: ContractStatus,
  event: ContractEvent,
  effectiveDate: string,
  today: string,
): ContractStatus {
  return event === 'ACTIVATE' ? stored : currentStatus(stored, effectiveDate, today)
}

// ---- status history ----------------------------------------------------------------------------

/** The events a status history records: the creation and every transition that changes the status. */
export const STATUS_EVENTS = ['CREATE', 'FINALIZE', 'ACTIVATE', 'VOID', 'EXPIRE', 'CANCEL', 'REINSTATE'] as const
export type StatusEvent = (typeof STATUS_EVENTS)[number]

/** `contract.<event in the past tense>`: the audit action and the outbox event type of a status change. */
export function statusEventType(event: StatusEvent): string {
  return `contract.${event === 'CREATE' ? 'created' : PAST[event]}`
}

/** A row of a status history, as the pure reading below needs it. */
export type StatusHistoryPoint = { toStatus: ContractStatus; effectiveDate: string }

/**
 * The status of a contract on `date`, from its history in the order it was recorded: the status left
 * by the latest recorded change effective on or before `date`. A later record thus overrides earlier
 * ones for the days it covers: a reinstatement effective as of the cancel date reverses the
 * cancellation altogether (one effective later leaves a lapse); a cancellation of an expired contract
 * as of a day before its expiry makes it cancelled from that day. A finalized contract reads ACTIVE
 * from its effective date (currentStatus). Null before the first change (no contract yet).
 */
export function statusOn(
  history: readonly StatusHistoryPoint[],
  date: string,
  contract: { effectiveDate: string },
): ContractStatus | null {
  let status: ContractStatus | null = null
  for (const point of history) if (point.effectiveDate <= date) status = point.toStatus
  return status === null ? null : currentStatus(status, contract.effectiveDate, date)
}

/**
 * Whether the coverage was in force on `date`: ACTIVE then by its history, within its term's dates.
 * The mileage limit is the caller's to check against the odometer of the day (an EXPIRE by mileage,
 * once recorded, ends it here too).
 */
export function inForceOn(
  history: readonly StatusHistoryPoint[],
  date: string,
  contract: { effectiveDate: string; expirationDate: string },
): boolean {
  return (
    date >= contract.effectiveDate && date <= contract.expirationDate && statusOn(history, date, contract) === 'ACTIVE'
  )
}

// ---- holds and locks ---------------------------------------------------------------------------

export const HOLD_REASONS = [
  {
    code: 'MISSING_SIGNATURE',
    name: 'Missing signature',
    description: "The contract holder's or the dealer's signature is missing from the signed contract.",
  },
  { code: 'MISSING_PAYMENT', name: 'Missing payment', description: 'The dealer has not remitted the dealer cost.' },
  {
    code: 'MISSING_DOCUMENTS',
    name: 'Missing documents',
    description: 'A required document (bill of sale, odometer statement, finance contract) has not been received.',
  },
  {
    code: 'NEEDS_REVIEW',
    name: 'Needs review',
    description: 'An underwriter must review the sale before it is accepted.',
  },
  {
    code: 'VEHICLE_INSPECTION',
    name: 'Vehicle inspection required',
    description: 'The vehicle must pass an inspection before coverage is accepted.',
  },
  { code: 'OTHER', name: 'Other', description: 'Any other reason, given in the note.' },
] as const
export type HoldReasonCode = (typeof HOLD_REASONS)[number]['code']

/** How long a contract lock lasts unless renewed: long enough to edit, short enough that a forgotten lock frees itself. */
export const LOCK_MINUTES = 15

/** Whether a lock held by `holder` until `expiresAt` stops `userId` from changing the contract at `now`. */
export function lockedAgainst(
  lock: { holder: number | null; expiresAt: Date | null },
  userId: number,
  now: Date,
): boolean {
  return lock.holder !== null && lock.expiresAt !== null && lock.expiresAt > now && lock.holder !== userId
}

// ---- custom fields -----------------------------------------------------------------------------

export type { CustomFieldRule, RetailBounds } from '../../platform/db/schema.contracts.ts'
export type CustomFieldValue = string | number | boolean

/** The longest text value of any custom field, whatever the rate book allows: values are indexed when unique. */
const MAX_TEXT_VALUE = 1000

/**
 * Checks a contract's custom-field values against the plan's fields (GET
 * /api/Rates/Products/{productId}/customfields shows the same rules): every problem is listed, each
 * under `customFields/<key>`. Strings are trimmed; an empty string counts as absent.
 */
export function checkCustomFields(
  rules: readonly CustomFieldRule[],
  given: Readonly<Record<string, unknown>>,
): { values: Record<string, CustomFieldValue>; errors: FieldError[] } {
  const values: Record<string, CustomFieldValue> = {}
  const errors: FieldError[] = []
  const known = new Set(rules.map((r) => r.key))
  for (const key of Object.keys(given)) {
    if (!known.has(key))
      errors.push({
        field: `customFields/${key}`,
        code: 'unknown_field',
        message: `'${key}' is not a custom field of this plan`,
      })
  }
  for (const rule of rules) {
    const field = `customFields/${rule.key}`
    const fail = (code: string, message: string) => {
      errors.push({ field, code, message: `${rule.label}: ${message}` })
    }
    let raw = given[rule.key]
    if (typeof raw === 'string') raw = raw.trim()
    if (raw === undefined || raw === null || raw === '') {
      if (rule.required) fail('required', 'is required')
      continue
    }
    const value = fieldValue(rule, raw, fail)
    if (value !== undefined) values[rule.key] = value
  }
  return { values, errors }
}

function fieldValue(
  rule: CustomFieldRule,
  raw: unknown,
  fail: (code: string, message: string) => void,
): CustomFieldValue | undefined {
  const inRange = (n: number, shown: string) => {
    if (rule.min !== undefined && n < rule.min) {
      fail('out_of_range', `${shown} is below the minimum ${rule.min}`)
      return false
    }
    if (rule.max !== undefined && n > rule.max) {
      fail('out_of_range', `${shown} is above the maximum ${rule.max}`)
      return false
    }
    return true
  }
  switch (rule.type) {
    case 'STRING': {
      if (typeof raw !== 'string') return void fail('invalid_type', 'must be text')
      if (hasControlCharacter(raw)) return void fail('invalid_value', 'must not contain control characters')
      if (raw.length > MAX_TEXT_VALUE)
        return void fail('too_long', `must be at most ${rule.maxLength ?? MAX_TEXT_VALUE} characters`)
      if (rule.minLength !== undefined && raw.length < rule.minLength)
        return void fail('too_short', `must be at least ${rule.minLength} characters`)
      if (rule.maxLength !== undefined && raw.length > rule.maxLength)
        return void fail('too_long', `must be at most ${rule.maxLength} characters`)
      if (rule.pattern !== undefined && !new RegExp(rule.pattern, 'u').test(raw))
        return void fail('pattern', `does not match the required format ${rule.pattern}`)
      return raw
    }
    case 'INTEGER': {
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw))
        return void fail('invalid_type', 'must be a whole number')
      return inRange(raw, String(raw)) ? raw : undefined
    }
    case 'DECIMAL':
    case 'MONEY': {
      const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : typeof raw === 'string' ? raw : null
      if (text === null || !/^-?\d{1,12}(\.\d{1,6})?$/.test(text)) return void fail('invalid_type', 'must be a number')
      const d = new Decimal(text)
      if (rule.type === 'MONEY' && (d.decimalPlaces() > 2 || d.isNegative()))
        return void fail('invalid_type', 'must be an amount with at most 2 decimals, not negative')
      return inRange(d.toNumber(), text) ? d.toNumber() : undefined
    }
    case 'DATE':
      if (typeof raw !== 'string' || !isIsoDate(raw)) return void fail('invalid_type', 'must be a date YYYY-MM-DD')
      return raw
    case 'BOOLEAN':
      if (typeof raw !== 'boolean') return void fail('invalid_type', 'must be true or false')
      return raw
    case 'LIST': {
      const allowed = rule.options ?? []
      if (typeof raw !== 'string' || !allowed.some((o) => o.value === raw))
        return void fail('not_allowed', `must be one of ${allowed.map((o) => o.value).join(', ')}`)
      return raw
    }
  }
}

/** The text a unique value is claimed under: case and surrounding blanks do not make a value new. */
export function uniqueValueKey(value: CustomFieldValue): string {
  return String(value).trim().toUpperCase()
}

/** The claims a contract's values make on the fields its plan marks unique. */
export function uniqueClaims(
  rules: ReadonlyArray<{ key: string; unique: boolean }>,
  values: Readonly<Record<string, CustomFieldValue>>,
): Array<{ key: string; value: string }> {
  return rules.flatMap((r) =>
    r.unique && values[r.key] !== undefined ? [{ key: r.key, value: uniqueValueKey(values[r.key]!) }] : [],
  )
}

// ---- agreement with the quote ------------------------------------------------------------------

/** The quote's inputs a contract restates; each must be what the quote was priced with. */
export type QuotedFacts = {
  vin?: string
  odometer?: number
  saleDate: string
  inServiceDate?: string
  vehicleCondition?: string
  assetType: string
  vehiclePurchasePrice?: string
  msrp?: string
  financeType?: string
  amountFinanced?: string
  financeTermMonths?: number
  apr?: string
}
export type StatedFacts = {
  vin?: string | null
  saleOdometer?: number | null
  saleDate?: string | null
  inServiceDate?: string | null
  condition?: string | null
  assetType?: string | null
  purchasePrice?: number | string | null
  msrp?: number | string | null
  financeType?: string | null
  amountFinanced?: number | string | null
  termMonths?: number | null
  apr?: number | string | null
}

const COMPARED: ReadonlyArray<{
  field: string
  quoted: keyof QuotedFacts
  stated: keyof StatedFacts
  kind: 'text' | 'number' | 'decimal'
}> = [
  { field: 'vehicle/vin', quoted: 'vin', stated: 'vin', kind: 'text' },
  { field: 'saleOdometer', quoted: 'odometer', stated: 'saleOdometer', kind: 'number' },
  { field: 'saleDate', quoted: 'saleDate', stated: 'saleDate', kind: 'text' },
  { field: 'vehicle/inServiceDate', quoted: 'inServiceDate', stated: 'inServiceDate', kind: 'text' },
  { field: 'vehicle/condition', quoted: 'vehicleCondition', stated: 'condition', kind: 'text' },
  { field: 'vehicle/assetType', quoted: 'assetType', stated: 'assetType', kind: 'text' },
  { field: 'vehicle/purchasePrice', quoted: 'vehiclePurchasePrice', stated: 'purchasePrice', kind: 'decimal' },
  { field: 'vehicle/msrp', quoted: 'msrp', stated: 'msrp', kind: 'decimal' },
  { field: 'finance/financeType', quoted: 'financeType', stated: 'financeType', kind: 'text' },
  { field: 'finance/amountFinanced', quoted: 'amountFinanced', stated: 'amountFinanced', kind: 'decimal' },
  { field: 'finance/termMonths', quoted: 'financeTermMonths', stated: 'termMonths', kind: 'number' },
  { field: 'finance/apr', quoted: 'apr', stated: 'apr', kind: 'decimal' },
]

/**
 * Every fact the contract states differently from its quote, or states when the quote was priced
 * without it (it could have changed the price): the contract must be quoted again. Facts the
 * contract leaves out are taken from the quote.
 */
export function quoteDisagreements(quoted: QuotedFacts, stated: StatedFacts): FieldError[] {
  const errors: FieldError[] = []
  for (const c of COMPARED) {
    const s = stated[c.stated]
    if (s === undefined || s === null) continue
    const q = quoted[c.quoted]
    if (q === undefined) {
      errors.push({
        field: c.field,
        code: 'not_quoted',
        message: `the quote was priced without ${c.field}; quote again with it`,
      })
      continue
    }
    const same =
      c.kind === 'text'
        ? String(s).toUpperCase() === String(q).toUpperCase()
        : c.kind === 'number'
          ? Number(s) === Number(q)
          : safeDecimal(s)?.equals(new Decimal(String(q))) === true
    if (!same)
      errors.push({
        field: c.field,
        code: 'differs_from_quote',
        message: `${c.field} ${String(s)} differs from the quote's ${String(q)}`,
      })
  }
  return errors
}

function safeDecimal(v: string | number): Decimal | undefined {
  try {
    return new Decimal(v)
  } catch {
    return undefined
  }
}

// ---- dates and parties -------------------------------------------------------------------------

/** How far after the sale the coverage may start. */
export const MAX_EFFECTIVE_DELAY_DAYS = 60

/** Why an effective date is not acceptable for a sale date, or undefined when it is. */
export function effectiveDateProblem(saleDate: string, effectiveDate: string): FieldError | undefined {
  if (effectiveDate >= saleDate && effectiveDate <= addDays(saleDate, MAX_EFFECTIVE_DELAY_DAYS)) return undefined
  return {
    field: 'effectiveDate',
    code: 'out_of_range',
    message: `must be between the sale date ${saleDate} and ${MAX_EFFECTIVE_DELAY_DAYS} days after it`,
  }
}

/** A contract holder or co-buyer needs a person's first and last name, or a company name. */
export function nameProblem(
  person: { firstName?: string | null; lastName?: string | null; companyName?: string | null },
  field: string,
): FieldError | undefined {
  if (person.companyName?.trim() || (person.firstName?.trim() && person.lastName?.trim())) return undefined
  return { field, code: 'required', message: `${field}: give firstName and lastName, or companyName` }
}

// ---- price -------------------------------------------------------------------------------------

/** Why a retail price is not acceptable for a rate, or undefined when it is. */
export function retailProblem(retailCents: number, rate: RetailBounds): FieldError | undefined {
  const show = (c: number) => centsToNumber(c).toFixed(2)
  if (rate.retailLocked) {
    return retailCents === rate.suggestedRetailCents
      ? undefined
      : {
          field: 'retailPrice',
          code: 'retail_locked',
          message: `the retail price of this rate is fixed at ${show(rate.suggestedRetailCents)}`,
        }
  }
  if (retailCents < rate.minRetailCents || retailCents > rate.maxRetailCents) {
    return {
      field: 'retailPrice',
      code: 'out_of_range',
      message: `must be between ${show(rate.minRetailCents)} and ${show(rate.maxRetailCents)}`,
    }
  }
  return undefined
}

// ---- editing a pending contract (PATCH) -------------------------------------------------------

/** What the price rests on: a PATCH that changes one is refused by name (a new quote and contract are the way). */
export const IMMUTABLE_ON_EDIT = [
  'contractNumber',
  'status',
  'quoteId',
  'rateId',
  'saleDate',
  'saleOdometer',
  'vin',
  'dealerNumber',
] as const

/**
 * A pending contract's editable representation, and a PATCH result as PatchedContractSchema admits
 * it: a merge patch's null leaves a member out, so absent and null mean the same.
 */
export type ContractEdit = {
  contractNumber: string
  status: string
  quoteId: string
  rateId: string
  saleDate: string
  saleOdometer?: number | null
  vin?: string | null
  dealerNumber: string
  effectiveDate: string
  retailPrice: number | string
  customer: CustomerInput
  coBuyer?: CustomerInput | null
  lienHolderId?: number | null
  lienHolder?: LienHolderInput | null
  finance?: {
    monthlyPayment?: number | string | null
    firstPaymentDate?: string | null
    balloonAmount?: number | string | null
    residualValue?: number | string | null
  } | null
  dealNumber?: string | null
  salesPerson?: { firstName?: string | null; lastName?: string | null; code?: string | null } | null
  financeManager?: { name?: string | null; code?: string | null } | null
  customFields?: Record<string, unknown>
  taxExempt: boolean
}

/** What an edit is judged against: the contract as it was sold. */
export type EditFacts = {
  saleDate: string
  termMonths: number
  retailBounds: RetailBounds
  customFieldRules: readonly CustomFieldRule[]
  /** Sold with finance terms: they may change, but not be added to a contract sold without. */
  financed: boolean
}

/** An accepted edit: what it sets beyond the members it names. */
export type AcceptedEdit = {
  retailCents: number
  customFields: Record<string, CustomFieldValue>
  /** The coverage runs its term from the (possibly new) effective date. */
  expirationDate: string
}

export type CheckedEdit = ({ ok: true } & AcceptedEdit) | { ok: false; errors: FieldError[] }

const EDIT_MONEY = { places: 2, min: new Decimal(0), max: new Decimal('99999999.99') }
const FINANCE_AMOUNTS = ['monthlyPayment', 'balloonAmount', 'residualValue'] as const

/**
 * Every problem of an edited contract (answered 422 contract_invalid, all at once), or the retail
 * price in cents and the custom-field values it sets: the retail price is an amount of 2 places
 * that fits the rate; custom fields are checked again as a whole against the plan's rules; the
 * effective date stays within reach of the sale date; the contract holder and a co-buyer are named;
 * finance amounts are amounts of 2 places, and finance terms cannot be added. The coverage then
 * expires its term's months after the effective date.
 */
export function checkEdit(edit: ContractEdit, facts: EditFacts): CheckedEdit {
  const errors: FieldError[] = []
  let retailCents = 0
  const retailIssue = decimalProblem(edit.retailPrice, EDIT_MONEY)
  if (retailIssue)
    errors.push({ field: 'retailPrice', code: retailIssue.code, message: `retailPrice ${retailIssue.message}` })
  else {
    retailCents = toCents(new Decimal(edit.retailPrice))
    const p = retailProblem(retailCents, facts.retailBounds)
    if (p) errors.push(p)
  }
  const fields = checkCustomFields(facts.customFieldRules, edit.customFields ?? {})
  errors.push(...fields.errors)
  for (const problem of [
    effectiveDateProblem(facts.saleDate, edit.effectiveDate),
    nameProblem(edit.customer, 'customer'),
    edit.coBuyer ? nameProblem(edit.coBuyer, 'coBuyer') : undefined,
  ]) {
    if (problem) errors.push(problem)
  }
  if (edit.finance && !facts.financed)
    errors.push({
      field: 'finance',
      code: 'not_financed',
      message: 'the contract was sold without finance terms; they cannot be added',
    })
  for (const key of FINANCE_AMOUNTS) {
    const value = edit.finance?.[key]
    const problem = value === undefined || value === null ? undefined : decimalProblem(value, EDIT_MONEY)
    if (problem)
      errors.push({ field: `finance/${key}`, code: problem.code, message: `finance/${key} ${problem.message}` })
  }
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    retailCents,
    customFields: fields.values,
    expirationDate: addMonths(edit.effectiveDate, facts.termMonths),
  }
}

/**
 * Which parties an edit changes: a changed contract holder is matched (or created) again; a lien
 * holder changes by id (another existing one) or by its details (matched or created from them).
 */
export function editedParties(
  current: ContractEdit,
  next: ContractEdit,
): { customer: boolean; lienHolder: 'unchanged' | 'byId' | 'byDetails' } {
  const lienById = (next.lienHolderId ?? null) !== (current.lienHolderId ?? null)
  return {
    customer: !jsonEqual(next.customer, current.customer),
    lienHolder: lienById ? 'byId' : jsonEqual(next.lienHolder, current.lienHolder) ? 'unchanged' : 'byDetails',
  }
}

/** The members an edit changes (absent and null being the same), for its audit record. */
export function changedMembers(current: ContractEdit, next: ContractEdit): string[] {
  const before = current as Record<string, unknown>
  const after = next as Record<string, unknown>
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !jsonEqual(after[k], before[k]))
}

// ---- posting -----------------------------------------------------------------------------------

/** A priced line of a contract with the account holder it is paid to. */
export type PayableLine = { code: string; group: string; cents: number; payeeAccountHolderId: number }
export type PostingLine = {
  accountHolderId: number
  purpose: 'DEALER_RECEIVABLE' | 'DISBURSEMENT_PAYABLE' | 'UNEARNED_REVENUE' | 'SALES_TAX_PAYABLE'
  side: 'DEBIT' | 'CREDIT'
  cents: number
  disbursementCode?: string
}

/**
 * The journal lines that put a contract's money on the books (docs/decisions/0012): the dealer owes
 * its dealer cost (a receivable, debit); each line paid to another payee is owed to it (a payable,
 * credit); a line paid to the administrator company (its fee, a reserve it holds, an agent's share
 * it keeps) is the administrator's own money, not yet earned: UNEARNED_REVENUE, which the earnings
 * process moves to ADMINISTRATOR_REVENUE over the term. Debits equal credits because the dealer
 * cost is the sum of the lines.
 */
export function finalizationLines(
  parties: { dealerId: number; administratorId: number },
  lines: readonly PayableLine[],
): PostingLine[] {
  const { dealerId, administratorId } = parties
  const out: PostingLine[] = []
  let total = 0
  for (const l of lines) {
    if (l.cents === 0) continue
    total += l.cents
    out.push({
      accountHolderId: l.payeeAccountHolderId,
      purpose: l.payeeAccountHolderId === administratorId ? 'UNEARNED_REVENUE' : 'DISBURSEMENT_PAYABLE',
      side: 'CREDIT',
      cents: l.cents,
      disbursementCode: l.code,
    })
  }
  if (total === 0) return []
  return [{ accountHolderId: dealerId, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents: total }, ...out]
}

/**
 * The sales tax lines of a finalization (docs/sales-tax.md "At finalize"): the tax of the kept rules
 * the ADMINISTRATOR collects is owed by the dealer (who took it from the customer) and owed on to the
 * state by the administrator company: Dr DEALER_RECEIVABLE (dealer), Cr SALES_TAX_PAYABLE
 * (administrator company). Rules the DEALER collects post nothing: the dealer remits them itself.
 * Empty when nothing is collected by the administrator.
 */
export function salesTaxLines(
  parties: { dealerId: number; administratorId: number },
  rules: ReadonlyArray<{ collectedBy: 'DEALER' | 'ADMINISTRATOR'; taxCents: number }>,
): PostingLine[] {
  const cents = rules.reduce((n, r) => n + (r.collectedBy === 'ADMINISTRATOR' ? r.taxCents : 0), 0)
  if (cents === 0) return []
  return [
    { accountHolderId: parties.dealerId, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents },
    { accountHolderId: parties.administratorId, purpose: 'SALES_TAX_PAYABLE', side: 'CREDIT', cents },
  ]
}

/**
 * What a refinalization posts: the difference between what the contract's lines call for now and
 * what its entries already posted, per account, purpose and code. Empty when nothing changed. A
 * contract finalized before the administrator's lines were deferred holds them as the
 * administrator's DISBURSEMENT_PAYABLE: the difference moves them to UNEARNED_REVENUE (Dr the one,
 * Cr the other, the dealer's receivable untouched), so they are on the books once, where the
 * earnings and cancels look for them.
 */
export function differenceLines(wanted: readonly PostingLine[], posted: readonly PostingLine[]): PostingLine[] {
  const key = (l: PostingLine) => `${l.accountHolderId}|${l.purpose}|${l.disbursementCode ?? ''}`
  const net = new Map<string, { line: PostingLine; cents: number }>()
  const add = (l: PostingLine, sign: 1 | -1) => {
    const signed = (l.side === 'DEBIT' ? l.cents : -l.cents) * sign
    const entry = net.get(key(l))
    if (entry) entry.cents += signed
    else net.set(key(l), { line: l, cents: signed })
  }
  for (const l of wanted) add(l, 1)
  for (const l of posted) add(l, -1)
  const out: PostingLine[] = []
  for (const { line, cents } of net.values()) {
    if (cents === 0) continue
    out.push({
      accountHolderId: line.accountHolderId,
      purpose: line.purpose,
      side: cents > 0 ? 'DEBIT' : 'CREDIT',
      cents: Math.abs(cents),
      ...(line.disbursementCode === undefined ? {} : { disbursementCode: line.disbursementCode }),
    })
  }
  return out
}
