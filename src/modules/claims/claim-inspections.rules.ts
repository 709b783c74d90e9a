// The life of a claim inspection, as pure rules (docs/claims.md "Inspections"): which status changes
// an inspection may make, what each does to its claim, and what a report of results must hold. No
// database, clock or setting: the caller gives the facts and gets a refusal value, never a throw.
//
// REQUESTED (asked of a company) → TAKEN or REJECTED (the company's answer) → COMPLETED (findings);
// CANCELLED by the adjuster while outstanding, or after a rejection when no other company is asked.
// The claim is PENDING_INSPECTION while an inspection is outstanding (REQUESTED, TAKEN) and after a
// rejection; completing the inspection gives the claim COMPLETE_INSPECTION, cancelling it
// CANCEL_INSPECTION (claim.rules.ts), both back to OPEN.
import type { FieldError } from '../../platform/http/errors.ts'
import { isIsoDate } from '../../platform/calendar.ts'

export const INSPECTION_STATUSES = ['REQUESTED', 'TAKEN', 'REJECTED', 'COMPLETED', 'CANCELLED'] as const
export type InspectionStatus = (typeof INSPECTION_STATUSES)[number]

/** Statuses of an inspection still to be done: at most one per claim. */
export const OUTSTANDING_STATUSES: readonly InspectionStatus[] = ['REQUESTED', 'TAKEN']

/** What an inspection's change does to its claim (claim.rules.ts events); null: nothing. */
export type InspectionClaimEvent = 'COMPLETE_INSPECTION' | 'CANCEL_INSPECTION' | null

export type InspectionStep =
  | { ok: true; changed: boolean; claimEvent: InspectionClaimEvent }
  | { ok: false; code: 'claim_inspection_state_conflict'; message: string }

/** From which statuses each status is reached, and the claim's event then. */
export const INSPECTION_TRANSITIONS: Readonly<
  Record<
    Exclude<InspectionStatus, 'REQUESTED'>,
    { from: readonly InspectionStatus[]; claimEvent: InspectionClaimEvent }
  >
> = {
  TAKEN: { from: ['REQUESTED'], claimEvent: null },
  REJECTED: { from: ['REQUESTED'], claimEvent: null },
  COMPLETED: { from: ['REQUESTED', 'TAKEN'], claimEvent: 'COMPLETE_INSPECTION' },
  CANCELLED: { from: ['REQUESTED', 'TAKEN', 'REJECTED'], claimEvent: 'CANCEL_INSPECTION' },
}

/**
 * The change of an inspection from `from` to `to`. The same status again is no change (a company's
 * system may report a status twice); nothing goes back to REQUESTED; COMPLETED and CANCELLED are final.
 */
export function inspectionStep(from: InspectionStatus, to: InspectionStatus): InspectionStep {
  if (from === to) return { ok: true, changed: false, claimEvent: null }
  const rule = to === 'REQUESTED' ? undefined : INSPECTION_TRANSITIONS[to]
  if (!rule || !rule.from.includes(from))
    return {
      ok: false,
      code: 'claim_inspection_state_conflict',
      message: `a ${from} inspection cannot become ${to}`,
    }
  return { ok: true, changed: true, claimEvent: rule.claimEvent }
}

/** A report of an inspection's status and results (the PUT, the take/reject and the sync routes). */
export type InspectionReport = {
  status: InspectionStatus
  rejectReasonId?: number | null | undefined
  findings?: string | null | undefined
  inspectedOdometer?: number | null | undefined
  inspectedOn?: string | null | undefined
  /** An ISO instant. */
  completedAt?: string | null | undefined
}

/** What the report is checked against: the claim's loss date and odometer, and now. */
export type InspectionReportFacts = { lossDate: string; claimOdometer: number | null; now: Date }

/**
 * Every problem of a report, each naming its field: a rejection names its reason; results
 * (findings, the odometer and day of the inspection, when it was completed) come with COMPLETED only;
 * a completion has findings that are not only blanks and when it was completed, not in the future;
 * the vehicle was inspected on or after the loss, at or above the claim's odometer.
 */
export function reportProblems(report: InspectionReport, facts: InspectionReportFacts): FieldError[] {
  const errors: FieldError[] = []
  const given = (v: unknown) => v !== undefined && v !== null
  if (report.status === 'REJECTED') {
    if (!given(report.rejectReasonId))
      errors.push({ field: 'rejectReasonId', code: 'required', message: 'a rejection names its reason' })
  } else if (given(report.rejectReasonId))
    errors.push({ field: 'rejectReasonId', code: 'not_allowed', message: 'only a rejection names a reject reason' })

  if (report.status !== 'COMPLETED') {
    for (const field of ['findings', 'inspectedOdometer', 'inspectedOn', 'completedAt'] as const)
      if (given(report[field]))
        errors.push({ field, code: 'not_allowed', message: 'results come with status COMPLETED only' })
    return errors
  }
  if (!given(report.findings))
    errors.push({ field: 'findings', code: 'required', message: 'a completed inspection reports its findings' })
  else if (report.findings!.trim() === '') errors.push({ field: 'findings', code: 'blank', message: 'is only blanks' })
  if (!given(report.completedAt))
    errors.push({
      field: 'completedAt',
      code: 'required',
      message: 'a completed inspection says when it was completed',
    })
  else {
    const at = Date.parse(report.completedAt!)
    if (!Number.isFinite(at))
      errors.push({ field: 'completedAt', code: 'invalid_format', message: 'is not an ISO 8601 instant' })
    else if (at > facts.now.getTime())
      errors.push({ field: 'completedAt', code: 'in_future', message: 'is later than now' })
  }
  if (given(report.inspectedOn)) {
    if (!isIsoDate(report.inspectedOn!))
      errors.push({ field: 'inspectedOn', code: 'invalid_format', message: 'is not a date YYYY-MM-DD' })
    else if (report.inspectedOn! < facts.lossDate)
      errors.push({
        field: 'inspectedOn',
        code: 'before_loss_date',
        message: `is before the claim's loss date ${facts.lossDate}`,
      })
  }
  if (given(report.inspectedOdometer)) {
    const odometer = report.inspectedOdometer!
    if (!Number.isSafeInteger(odometer) || odometer < 0)
      errors.push({ field: 'inspectedOdometer', code: 'out_of_range', message: 'is not a whole number ≥ 0' })
    else if (facts.claimOdometer !== null && odometer < facts.claimOdometer)
      errors.push({
        field: 'inspectedOdometer',
        code: 'below_claim_odometer',
        message: `is below the claim's odometer ${facts.claimOdometer}`,
      })
  }
  return errors
}
