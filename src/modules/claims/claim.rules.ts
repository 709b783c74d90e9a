// The life of a claim, as pure rules (issue 14; docs/claims.md "Rules"): its statuses, the events an
// administrator (or the inspection company, or the cash issue's payment) makes happen to it, and when
// an authorization has run out. Nothing here reads a database, a clock or a setting: the caller gives
// the claim's facts (`ClaimFacts`) and gets the next status or a refusal naming the rule, never a throw.
//
// Statuses (payloads.md §7): OPEN → PENDING_INSPECTION → AUTHORIZED → PENDING_PAYMENT → PAID or
// PARTIALLY_PAID; DENIED; CLOSED; VOIDED. Holds (with hold reasons) are not a status: a claim on hold
// keeps its status, and a hold blocks the money decisions only (AUTHORIZE, REQUEST_PAYMENT,
// RECORD_PAYMENT), not the paperwork (edits, inspections) nor ending the claim (DENY, CLOSE, VOID).
//
// The events, and why each is there (what an administrator needs):
// - EDIT: change jobs, lines, benefits, contact, repair order. OPEN, PENDING_INSPECTION, AUTHORIZED (a
//   supplement: new lines come in PENDING and need AUTHORIZE again; the amounts already authorized
//   stand). Not once a payment is requested: the invoice has been matched to the authorization.
// - PLACE_HOLD / RELEASE_HOLD: a hold (missing document, fraud review…) on a claim still being worked
//   (not PAID, DENIED, CLOSED, VOIDED); a hold can be released whatever the status, never one that is
//   not there. The status stays.
// - REQUEST_INSPECTION: OPEN → PENDING_INSPECTION; also again while PENDING_INSPECTION (the company
//   rejected it, the adjuster asks another one).
// - COMPLETE_INSPECTION: the results are in, PENDING_INSPECTION → OPEN: the adjuster decides.
// - CANCEL_INSPECTION: no longer waiting for one (not needed after all, or rejected and not asked
//   again), PENDING_INSPECTION → OPEN.
// - AUTHORIZE: OPEN → AUTHORIZED with an authorization number and date; also AUTHORIZED → AUTHORIZED
//   (a supplement, or renewing an authorization that ran out: a new number and a new date). Not while
//   an inspection is pending (its results decide), and only with something authorized (a job or a
//   benefit).
// - REQUEST_PAYMENT: the invoice came in, AUTHORIZED → PENDING_PAYMENT (the service posts the claim
//   expense then, money.md "Postings"); refused once the authorization has expired (re-AUTHORIZE) and
//   when nothing is payable (a deductible above the repair: CLOSE it instead).
// - CANCEL_PAYMENT_REQUEST: a wrong invoice, PENDING_PAYMENT → AUTHORIZED (the service reverses the
//   posting); only before any payment.
// - RECORD_PAYMENT: a payment of the cash issue, from PENDING_PAYMENT or PARTIALLY_PAID: PAID when the
//   payments reach the payable, else PARTIALLY_PAID; never more than what is left to pay.
// - DENY: with a denied reason, from OPEN, PENDING_INSPECTION, AUTHORIZED (fraud found after the
//   authorization). Not once a payment is requested: CANCEL_PAYMENT_REQUEST first.
// - CLOSE: ended without (more) payment: the customer withdrew, the repair was not done, the
//   authorization lapsed, or the rest of a partial payment will not be paid. From OPEN,
//   PENDING_INSPECTION, AUTHORIZED, PARTIALLY_PAID. PAID and DENIED are ends in themselves.
// - REOPEN: from DENIED (an appeal with new evidence) or CLOSED: back to OPEN, or to PARTIALLY_PAID
//   when the claim was paid in part (the rest becomes payable again; its payments stay).
// - VOID: entered in error, from any status but PENDING_PAYMENT (cancel the request first), PAID,
//   PARTIALLY_PAID and VOIDED, and only with no payment made.
// PAID and VOIDED are final: a repair after a payment is a new claim.
//
// An authorization is valid `claimAuthorizationValidDays` (setting 12, default 180) counted from the
// day it was given, that day included: authorized on 2026-02-03 for 180 days, it is valid through
// 2026-08-01 and expired from 2026-08-02 (`authorizationExpiresOn`, payloads.md §7's `expiresAt`).
import { addDays, isIsoDate } from '../../platform/calendar.ts'

export const CLAIM_STATUSES = [
  'OPEN',
  'PENDING_INSPECTION',
  'AUTHORIZED',
  'PENDING_PAYMENT',
  'PAID',
  'PARTIALLY_PAID',
  'DENIED',
  'CLOSED',
  'VOIDED',
] as const
export type ClaimStatus = (typeof CLAIM_STATUSES)[number]

export const CLAIM_EVENTS = [
  'EDIT',
  'PLACE_HOLD',
  'RELEASE_HOLD',
  'REQUEST_INSPECTION',
  'COMPLETE_INSPECTION',
  'CANCEL_INSPECTION',
  'AUTHORIZE',
  'REQUEST_PAYMENT',
  'CANCEL_PAYMENT_REQUEST',
  'RECORD_PAYMENT',
  'DENY',
  'CLOSE',
  'REOPEN',
  'VOID',
] as const
export type ClaimEvent = (typeof CLAIM_EVENTS)[number]

/** A job's (or a benefit's) decision: only AUTHORIZED ones are paid (claim.payable.rules.ts). */
export const JOB_STATUSES = ['PENDING', 'AUTHORIZED', 'DENIED'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/**
 * From which statuses each event may happen, and where it leads: a status; 'SAME' (stays);
 * 'BY_PAYMENTS' (PAID when the payments reach the payable, else PARTIALLY_PAID); 'OPEN_OR_PARTIAL'
 * (OPEN, or PARTIALLY_PAID when something was paid).
 */
export const CLAIM_TRANSITIONS: Readonly<
  Record<ClaimEvent, { from: readonly ClaimStatus[]; to: ClaimStatus | 'SAME' | 'BY_PAYMENTS' | 'OPEN_OR_PARTIAL' }>
> = {
  EDIT: { from: ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED'], to: 'SAME' },
  PLACE_HOLD: { from: ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'PENDING_PAYMENT', 'PARTIALLY_PAID'], to: 'SAME' },
  RELEASE_HOLD: { from: CLAIM_STATUSES, to: 'SAME' },
  REQUEST_INSPECTION: { from: ['OPEN', 'PENDING_INSPECTION'], to: 'PENDING_INSPECTION' },
  COMPLETE_INSPECTION: { from: ['PENDING_INSPECTION'], to: 'OPEN' },
  CANCEL_INSPECTION: { from: ['PENDING_INSPECTION'], to: 'OPEN' },
  AUTHORIZE: { from: ['OPEN', 'AUTHORIZED'], to: 'AUTHORIZED' },
  REQUEST_PAYMENT: { from: ['AUTHORIZED'], to: 'PENDING_PAYMENT' },
  CANCEL_PAYMENT_REQUEST: { from: ['PENDING_PAYMENT'], to: 'AUTHORIZED' },
  RECORD_PAYMENT: { from: ['PENDING_PAYMENT', 'PARTIALLY_PAID'], to: 'BY_PAYMENTS' },
  DENY: { from: ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED'], to: 'DENIED' },
  CLOSE: { from: ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'PARTIALLY_PAID'], to: 'CLOSED' },
  REOPEN: { from: ['DENIED', 'CLOSED'], to: 'OPEN_OR_PARTIAL' },
  VOID: { from: ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'DENIED', 'CLOSED'], to: 'VOIDED' },
}

/** How long an adjuster's edit lock lasts unless renewed, in minutes (as a contract's). */
export const CLAIM_LOCK_MINUTES = 15

/** The events that hold back while a hold is open. */
export const BLOCKED_BY_HOLDS: readonly ClaimEvent[] = ['AUTHORIZE', 'REQUEST_PAYMENT', 'RECORD_PAYMENT']

/** What the rules read beyond the status. Money in integer cents; dates YYYY-MM-DD in the tenant's time zone. */
export type ClaimFacts = {
  /** Unreleased holds. */
  openHolds: number
  /** Today. */
  today: string
  /** The current authorization (the day it was given and the validity in days); null: none yet. */
  authorization: { authorizedOn: string; validDays: number } | null
  /** AUTHORIZE: at least one AUTHORIZED job or benefit. */
  hasAuthorizedLines: boolean
  /** DENY: a denied reason was given. */
  hasDeniedReason: boolean
  /** The claim's payable (claimPayable's `payableCents`). */
  payableCents: number
  /** Paid on this claim so far. */
  paidCents: number
  /** RECORD_PAYMENT: the payment being recorded. */
  paymentCents?: number | undefined
}

/** Each rule a transition can break, as the code of its refusal (docs/claims.md). */
export type ClaimTransitionRefusal =
  | 'claim_state_conflict'
  | 'claim_on_hold'
  | 'claim_not_on_hold'
  | 'claim_nothing_authorized'
  | 'claim_authorization_missing'
  | 'claim_authorization_expired'
  | 'claim_nothing_payable'
  | 'claim_payment_not_positive'
  | 'claim_payment_above_payable'
  | 'claim_denied_reason_required'
  | 'claim_has_payments'

export type ClaimTransition =
  { ok: true; to: ClaimStatus } | { ok: false; code: ClaimTransitionRefusal; message: string }

const PAST: Record<ClaimEvent, string> = {
  EDIT: 'changed',
  PLACE_HOLD: 'put on hold',
  RELEASE_HOLD: 'released from a hold',
  REQUEST_INSPECTION: 'sent to inspection',
  COMPLETE_INSPECTION: 'given inspection results',
  CANCEL_INSPECTION: 'taken off inspection',
  AUTHORIZE: 'authorized',
  REQUEST_PAYMENT: 'sent for payment',
  CANCEL_PAYMENT_REQUEST: 'taken back from payment',
  RECORD_PAYMENT: 'paid',
  DENY: 'denied',
  CLOSE: 'closed',
  REOPEN: 'reopened',
  VOID: 'voided',
}

const money = (cents: number) => (cents / 100).toFixed(2)
const refuse = (code: ClaimTransitionRefusal, message: string): ClaimTransition => ({ ok: false, code, message })

/**
 * The day an authorization given on `authorizedOn` stops being valid: `validDays` later (valid
 * `validDays` days, the day it was given included).
 */
export function authorizationExpiresOn(authorizedOn: string, validDays: number): string {
  if (!isIsoDate(authorizedOn)) throw new RangeError(`authorizedOn '${authorizedOn}' is not a date YYYY-MM-DD`)
  if (!Number.isSafeInteger(validDays) || validDays < 0) throw new RangeError('validDays must be a whole number ≥ 0')
  return addDays(authorizedOn, validDays)
}

/** Whether an authorization given on `authorizedOn`, valid `validDays` days, has expired on `date`. */
export function authorizationExpired(authorizedOn: string, validDays: number, date: string): boolean {
  return date >= authorizationExpiresOn(authorizedOn, validDays)
}

/** The events the table allows from `status` (before the facts are read), in CLAIM_EVENTS order. */
export function eventsFrom(status: ClaimStatus): ClaimEvent[] {
  return CLAIM_EVENTS.filter((e) => CLAIM_TRANSITIONS[e].from.includes(status))
}

/**
 * Whether `event` may happen to a claim in `status`, and the status it leaves the claim in; else the
 * rule it breaks. The table first (claim_state_conflict), then holds, then the event's own facts.
 */
export function transition(status: ClaimStatus, event: ClaimEvent, facts: ClaimFacts): ClaimTransition {
  const rule = CLAIM_TRANSITIONS[event]
  if (!rule.from.includes(status)) {
    return refuse(
      'claim_state_conflict',
      `a claim that is ${status} cannot be ${PAST[event]}; only one that is ${rule.from.join(', ')} can`,
    )
  }
  if (BLOCKED_BY_HOLDS.includes(event) && facts.openHolds > 0) {
    return refuse(
      'claim_on_hold',
      `the claim has ${facts.openHolds} open hold(s); release them before it is ${PAST[event]}`,
    )
  }
  switch (event) {
    case 'RELEASE_HOLD':
      if (facts.openHolds <= 0) return refuse('claim_not_on_hold', 'the claim has no open hold to release')
      break
    case 'AUTHORIZE':
      if (!facts.hasAuthorizedLines)
        return refuse('claim_nothing_authorized', 'authorize at least one job or benefit before authorizing the claim')
      break
    case 'REQUEST_PAYMENT': {
      const a = facts.authorization
      if (a === null) return refuse('claim_authorization_missing', 'the claim has no authorization')
      if (authorizationExpired(a.authorizedOn, a.validDays, facts.today))
        return refuse(
          'claim_authorization_expired',
          `the authorization of ${a.authorizedOn} expired on ${authorizationExpiresOn(a.authorizedOn, a.validDays)}; authorize the claim again`,
        )
      if (facts.payableCents <= 0)
        return refuse(
          'claim_nothing_payable',
          'nothing is payable on this claim (the deductible takes it all); close it',
        )
      break
    }
    case 'CANCEL_PAYMENT_REQUEST':
      if (facts.paidCents > 0)
        return refuse('claim_has_payments', `${money(facts.paidCents)} was already paid against the payment request`)
      break
    case 'RECORD_PAYMENT': {
      const payment = facts.paymentCents ?? 0
      if (payment <= 0) return refuse('claim_payment_not_positive', 'a payment must be more than 0.00')
      const left = facts.payableCents - facts.paidCents
      if (payment > left)
        return refuse(
          'claim_payment_above_payable',
          `the payment ${money(payment)} is more than the ${money(Math.max(0, left))} left to pay`,
        )
      return { ok: true, to: payment === left ? 'PAID' : 'PARTIALLY_PAID' }
    }
    case 'DENY':
      if (!facts.hasDeniedReason) return refuse('claim_denied_reason_required', 'a denial needs a denied reason')
      break
    case 'REOPEN':
      return { ok: true, to: facts.paidCents > 0 ? 'PARTIALLY_PAID' : 'OPEN' }
    case 'VOID':
      if (facts.paidCents > 0)
        return refuse('claim_has_payments', `${money(facts.paidCents)} was paid on the claim; it cannot be voided`)
      break
    default:
      break
  }
  return { ok: true, to: rule.to === 'SAME' ? status : (rule.to as ClaimStatus) }
}
