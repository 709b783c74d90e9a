// Claim inspections (docs/claims.md "Inspections", issue 14): the adjuster asks an inspection company
// to look at a claim's vehicle; the company takes or rejects it, and reports its findings (by the
// take/reject route or its system's sync routes); the adjuster may change, complete or cancel it.
// The inspection's own statuses are claim-inspections.rules.ts's, the claim's claim.rules.ts's: each
// change locks the claim first, then the inspection, and writes both, the audit row and (for a
// request and a completion) the event in one transaction.
//
// Visibility: the administrator's staff see every inspection; any other caller sees an inspection
// when its inspection company, or the claim's dealer, is one of the caller's account holders (a user
// of the company's portal visibility group "authenticates as that company"). Only the company's own
// users and staff take, reject and report; to anyone else another company's inspection is a 404.
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { ClaimInspectionStatusColumn } from '../../platform/db/schema.claims.ts'
import type { DB } from '../../platform/db/schema.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext, type RequestContext } from '../../platform/http/context.ts'
import { defineErrors, type FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import type { DocumentService, DocumentView, OwnerAccess } from '../documents/index.ts'
import { isActiveAccountHolder } from '../parties/index.ts'
import type { Transaction } from 'kysely'
import { claimErrors } from './claim.errors.ts'
import * as claimRepo from './claim.repository.ts'
import { transition, type ClaimEvent, type ClaimStatus } from './claim.rules.ts'
import {
  inspectionStep,
  OUTSTANDING_STATUSES,
  reportProblems,
  type InspectionReport,
  type InspectionStatus,
} from './claim-inspections.rules.ts'
import * as repo from './claim-inspections.repository.ts'

/** The documents of an inspection (photos, the report): the documents module's owner type and kind. */
export const INSPECTION_OWNER = 'CLAIM_INSPECTION'
export const INSPECTION_FILE = 'INSPECTION_FILE'

export const inspectionErrors = defineErrors({
  claim_inspection_not_found: { status: 404, title: 'Claim inspection not found' },
  claim_inspection_invalid: { status: 422, title: 'The inspection cannot be changed as submitted' },
  claim_inspection_state_conflict: { status: 409, title: "The inspection's status does not allow this" },
  claim_inspection_outstanding: { status: 409, title: 'The claim already has an outstanding inspection' },
})

export type ClaimInspectionDeps = {
  db: Database
  clock: Clock
  documents: Pick<DocumentService, 'listForOwner'>
}

export type InspectionRequestBody = {
  inspectionCompanyId?: number | undefined
  reasonId: number
  note?: string | null | undefined
}

/** PUT /claims/{claimId}/inspections: every member required (nullable ones null). */
export type InspectionReplaceBody = {
  inspectionCompanyId: number
  reasonId: number
  note: string | null
  status: 'REQUESTED' | 'TAKEN' | 'COMPLETED' | 'CANCELLED'
  findings: string | null
  inspectedOdometer: number | null
  inspectedOn: string | null
  completedAt: string | null
}

export type TakeRejectBody = { action: 'TAKE' | 'REJECT'; rejectReasonId?: number | undefined; note?: string | null }

/** The company's report (the sync routes): PATCH gives some members, PUT every one. */
export type SyncBody = {
  claimInspectionId: number
  status: 'TAKEN' | 'REJECTED' | 'COMPLETED'
  rejectReasonId?: number | null | undefined
  note?: string | null | undefined
  findings?: string | null | undefined
  inspectedOdometer?: number | null | undefined
  inspectedOn?: string | null | undefined
  completedAt?: string | null | undefined
}

const AUDIT_ACTION: Record<InspectionStatus, string> = {
  REQUESTED: 'claim_inspection.updated',
  TAKEN: 'claim_inspection.taken',
  REJECTED: 'claim_inspection.rejected',
  COMPLETED: 'claim_inspection.completed',
  CANCELLED: 'claim_inspection.cancelled',
}

// Fail closed: a context without a user sees nothing (every route here names a permission, so has one).
const isStaff = (ctx: RequestContext) => ctx.principal != null && ctx.principal.visibleAccountHolderIds === null
const holds = (ctx: RequestContext, id: number) =>
  isStaff(ctx) || (ctx.principal?.visibleAccountHolderIds?.has(Number(id)) ?? false)
/** The caller sees the inspection: staff, its company's users, its claim's dealer's users. */
const sees = (ctx: RequestContext, row: { inspection_company_id: number; dealer_id: number }) =>
  holds(ctx, row.inspection_company_id) || holds(ctx, row.dealer_id)
/** The caller answers for the company: staff, or the company's own users. */
const answersFor = (ctx: RequestContext, row: { inspection_company_id: number }) =>
  holds(ctx, row.inspection_company_id)

const money = (v: string | null) => (v === null ? null : Number(v))
const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString())

function view(row: repo.InspectionRow, files?: DocumentView[]) {
  return {
    inspectionId: Number(row.id),
    claimId: Number(row.claim_id),
    claimNumber: row.claim_number,
    dealerId: Number(row.dealer_id),
    vin: row.vin,
    repairFacility: { accountHolderId: Number(row.repair_facility_id), name: row.repair_facility_name },
    inspectionCompanyId: Number(row.inspection_company_id),
    inspectionCompanyName: row.inspection_company_name,
    reasonId: Number(row.reason_id),
    status: row.status,
    note: row.note,
    fee: money(row.fee),
    rejectReasonId: row.reject_reason_id === null ? null : Number(row.reject_reason_id),
    companyNote: row.company_note,
    findings: row.findings,
    inspectedOdometer: row.inspected_odometer,
    inspectedOn: row.inspected_on,
    requestedAt: new Date(row.requested_at).toISOString(),
    requestedBy: row.requested_by,
    takenAt: iso(row.taken_at),
    rejectedAt: iso(row.rejected_at),
    completedAt: iso(row.completed_at),
    cancelledAt: iso(row.cancelled_at),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: row.version,
    ...(files ? { files } : {}),
  }
}

export type ClaimInspectionView = ReturnType<typeof view>

export function createClaimInspectionService(deps: ClaimInspectionDeps) {
  const { db, clock, documents } = deps

  const notFound = (id: number) =>
    inspectionErrors.create('claim_inspection_not_found', `claim inspection ${id} not found`)
  const claimNotFound = (id: number) => claimErrors.create('claim_not_found', `claim ${id} not found`)
  const invalid = (errors: FieldError[]) =>
    inspectionErrors.create(
      'claim_inspection_invalid',
      `Invalid inspection: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      { errors },
    )

  const filesOf = (tenantId: number, inspectionId: number) =>
    documents.listForOwner(tenantId, INSPECTION_OWNER, inspectionId, { kind: INSPECTION_FILE, limit: 100 })

  async function fullView(tenantId: number, id: number) {
    const row = await db.read(tenantId, (x) => repo.findInspection(x, tenantId, id))
    if (!row) throw notFound(id)
    return view(row, await filesOf(tenantId, Number(row.id)))
  }

  /** The claim's new status after `event`, or 409 claim_state_conflict naming the rule. */
  function claimStep(claim: claimRepo.ClaimRow, event: ClaimEvent, now: Date): ClaimStatus {
    const step = transition(claim.status, event, {
      // None of the inspection events reads holds, dates, authorizations or money.
      openHolds: 0,
      today: now.toISOString().slice(0, 10),
      authorization: null,
      hasAuthorizedLines: false,
      hasDeniedReason: false,
      payableCents: 0,
      paidCents: 0,
    })
    if (!step.ok) throw claimErrors.create('claim_state_conflict', `claim ${claim.claim_number}: ${step.message}`)
    return step.to
  }

  async function setClaimStatus(
    tx: Transaction<DB>,
    ctx: RequestContext,
    claim: claimRepo.ClaimRow,
    to: ClaimStatus,
    now: Date,
  ) {
    if (to === claim.status) return
    await claimRepo.updateClaim(tx, ctx.tenantId, Number(claim.id), {
      status: to,
      updated_at: now,
      updated_by: actorLabel(ctx),
    })
  }

  /** A claim lookup of `kind` the tenant still offers, else the field's error. */
  async function checkLookup(
    x: Executor,
    tenantId: number,
    field: string,
    id: number,
    kind: 'INSPECTION_REASON' | 'REJECT_INSPECTION_REASON',
    errors: FieldError[],
  ) {
    const entry = await repo.lookupEntry(x, tenantId, id)
    const list = kind === 'INSPECTION_REASON' ? '/api/inspectionreasons' : '/api/rejectinspectionreasons'
    if (!entry || entry.kind !== kind)
      errors.push({ field, code: 'unknown_lookup', message: `${id} is not one of the tenant's reasons (GET ${list})` })
    else if (!entry.active)
      errors.push({ field, code: 'inactive_lookup', message: `reason ${id} is no longer offered` })
  }

  /** The inspection company named, checked (kind, active), with its fee; undefined when refused. */
  async function checkCompany(x: Executor, tenantId: number, id: number, errors: FieldError[], now: Date) {
    const company = await repo.inspectionCompany(x, tenantId, id)
    if (!company) {
      errors.push({
        field: 'inspectionCompanyId',
        code: 'not_found',
        message: `${id} is not an inspection company of the tenant`,
      })
      return undefined
    }
    if (!isActiveAccountHolder(company, now)) {
      errors.push({ field: 'inspectionCompanyId', code: 'inactive', message: `inspection company ${id} is inactive` })
      return undefined
    }
    return company
  }

  const feeOf = (company: repo.InspectionCompanyRow) => {
    const fee = company.details.inspectionFee
    return typeof fee === 'number' && Number.isFinite(fee) && fee >= 0 ? fee.toFixed(2) : null
  }

  /**
   * Applies a report (a status and results) to a locked inspection of a locked claim: the status
   * change (409 claim_inspection_state_conflict), the report's problems and the reject reason
   * (422 claim_inspection_invalid), the claim's event (409 claim_state_conflict); then writes both
   * rows and the audit row, and the completion's event.
   */
  async function applyReport(
    tx: Transaction<DB>,
    ctx: RequestContext,
    claim: claimRepo.ClaimRow,
    current: repo.InspectionRecord,
    report: InspectionReport & { companyNote?: string | null | undefined },
    extra: { errors?: FieldError[]; values?: Parameters<typeof repo.updateInspection>[3]; audit?: object } = {},
  ) {
    const tenantId = ctx.tenantId
    const now = clock.now()
    const step = inspectionStep(current.status, report.status)
    if (!step.ok)
      throw inspectionErrors.create(
        'claim_inspection_state_conflict',
        `inspection ${current.id} of claim ${claim.claim_number}: ${step.message}`,
      )
    const errors = [...(extra.errors ?? [])]
    errors.push(...reportProblems(report, { lossDate: claim.loss_date, claimOdometer: claim.odometer, now }))
    if (report.status === 'REJECTED' && report.rejectReasonId != null)
      await checkLookup(tx, tenantId, 'rejectReasonId', report.rejectReasonId, 'REJECT_INSPECTION_REASON', errors)
    if (errors.length > 0) throw invalid(errors)
    // The company answers while the claim waits for it; a claim decided meanwhile (denied, closed,
    // voided) takes no answer.
    if (
      step.changed &&
      (report.status === 'TAKEN' || report.status === 'REJECTED') &&
      claim.status !== 'PENDING_INSPECTION'
    )
      throw claimErrors.create(
        'claim_state_conflict',
        `claim ${claim.claim_number} is ${claim.status}: it waits for no inspection`,
      )
    // A completion or a cancel moves a claim that waits for it; one decided meanwhile (denied, closed,
    // voided) keeps its status, the inspection's results or end recorded all the same.
    const claimTo =
      step.claimEvent && claim.status === 'PENDING_INSPECTION' ? claimStep(claim, step.claimEvent, now) : claim.status
    const stamp: Parameters<typeof repo.updateInspection>[3] = {}
    if (step.changed) {
      if (report.status === 'TAKEN') stamp.taken_at = now
      if (report.status === 'REJECTED') stamp.rejected_at = now
      if (report.status === 'CANCELLED') stamp.cancelled_at = now
    }
    const completed = report.status === 'COMPLETED'
    const changed = await repo.updateInspection(tx, tenantId, Number(current.id), {
      ...extra.values,
      ...stamp,
      status: report.status as ClaimInspectionStatusColumn,
      ...(report.status === 'REJECTED' || report.rejectReasonId != null
        ? { reject_reason_id: report.rejectReasonId ?? null }
        : {}),
      ...(report.companyNote !== undefined ? { company_note: report.companyNote } : {}),
      findings: completed ? (report.findings ?? null) : current.findings,
      inspected_odometer: completed ? (report.inspectedOdometer ?? null) : current.inspected_odometer,
      inspected_on: completed ? (report.inspectedOn ?? null) : current.inspected_on,
      completed_at: completed ? new Date(report.completedAt!) : current.completed_at,
      updated_at: now,
      updated_by: actorLabel(ctx),
    })
    await setClaimStatus(tx, ctx, claim, claimTo, now)
    await writeAudit(tx, ctx, now, {
      action: step.changed ? AUDIT_ACTION[report.status] : 'claim_inspection.updated',
      entityType: 'claim',
      entityId: Number(claim.id),
      changes: {
        inspectionId: Number(current.id),
        before: { status: current.status, claimStatus: claim.status },
        after: { status: changed.status, claimStatus: claimTo, ...extra.audit },
      },
    })
    if (completed && step.changed)
      await appendEvent(tx, tenantId, now, {
        type: 'claim.inspection_completed',
        payload: {
          claimId: Number(claim.id),
          claimNumber: claim.claim_number,
          inspectionId: Number(current.id),
          inspectionCompanyId: Number(current.inspection_company_id),
          completedAt: new Date(report.completedAt!).toISOString(),
          inspectedOdometer: report.inspectedOdometer ?? null,
        },
      })
    return changed
  }

  /**
   * The inspection a company answers for, locked with its claim (claim first) in `tx`: 404 when the
   * caller is neither staff nor the company (or, given `claimId`, when it is another claim's).
   */
  async function lockForCompany(tx: Transaction<DB>, ctx: RequestContext, inspectionId: number, claimId?: number) {
    const tenantId = ctx.tenantId
    const seen = await repo.findInspection(tx, tenantId, inspectionId)
    if (!seen || !answersFor(ctx, seen) || (claimId !== undefined && Number(seen.claim_id) !== claimId))
      throw notFound(inspectionId)
    const claim = await claimRepo.lockClaim(tx, tenantId, Number(seen.claim_id))
    const current = await repo.lockInspection(tx, tenantId, inspectionId)
    // The company may have been changed (PUT) between the first read and the locks.
    if (!claim || !current || !answersFor(ctx, current)) throw notFound(inspectionId)
    return { claim, current }
  }

  /** The claim, locked, when the caller may work it (staff, its dealer's users): 404 otherwise. */
  async function lockVisibleClaim(tx: Transaction<DB>, ctx: RequestContext, claimId: number) {
    const claim = await claimRepo.lockClaim(tx, ctx.tenantId, claimId)
    if (!claim || !holds(ctx, claim.dealer_id)) throw claimNotFound(claimId)
    return claim
  }

  const service = {
    /**
     * POST /claims/{claimId}/inspections: asks a company to inspect; the claim REQUEST_INSPECTION →
     * PENDING_INSPECTION. 404 claim; 409 claim_state_conflict, claim_inspection_outstanding; 422.
     */
    async request(ctx: AuthenticatedContext, claimId: number, body: InspectionRequestBody) {
      const tenantId = ctx.tenantId
      const id = await db.transaction(tenantId, async (tx) => {
        const now = clock.now()
        const claim = await lockVisibleClaim(tx, ctx, claimId)
        const claimTo = claimStep(claim, 'REQUEST_INSPECTION', now)
        const latest = await repo.latestInspection(tx, tenantId, claimId)
        if (latest && OUTSTANDING_STATUSES.includes(latest.status))
          throw inspectionErrors.create(
            'claim_inspection_outstanding',
            `claim ${claim.claim_number} already has inspection ${latest.id} ${latest.status}: change it (PUT) or cancel it first`,
            { extensions: { inspectionId: Number(latest.id) } },
          )
        const errors: FieldError[] = []
        await checkLookup(tx, tenantId, 'reasonId', body.reasonId, 'INSPECTION_REASON', errors)
        if (body.note != null && body.note.trim() === '')
          errors.push({ field: 'note', code: 'blank', message: 'is only blanks (send null for none)' })
        let company: repo.InspectionCompanyRow | undefined
        if (body.inspectionCompanyId !== undefined)
          company = await checkCompany(tx, tenantId, body.inspectionCompanyId, errors, now)
        else {
          // The company serving the repair facility's state (its first address), the lowest id first.
          const state = await repo.primaryStateOf(tx, tenantId, claim.repair_facility_id)
          company = state === null ? undefined : await repo.companyServing(tx, tenantId, state, now)
          if (!company)
            errors.push({
              field: 'inspectionCompanyId',
              code: 'required',
              message:
                state === null
                  ? 'the repair facility has no address to choose an inspection company by: name one'
                  : `no active inspection company serves ${state} (serviceStates): name one`,
            })
        }
        if (errors.length > 0 || !company) throw invalid(errors)
        const inserted = await repo.insertInspection(tx, tenantId, {
          claim_id: claimId,
          inspection_company_id: company.id,
          inspection_company_name: company.display_name,
          reason_id: body.reasonId,
          status: 'REQUESTED',
          fee: feeOf(company),
          note: body.note ?? null,
          requested_at: now,
          requested_by: actorLabel(ctx),
          updated_at: now,
          updated_by: actorLabel(ctx),
        })
        await setClaimStatus(tx, ctx, claim, claimTo, now)
        await writeAudit(tx, ctx, now, {
          action: 'claim_inspection.requested',
          entityType: 'claim',
          entityId: claimId,
          changes: {
            inspectionId: Number(inserted.id),
            before: { claimStatus: claim.status },
            after: {
              status: 'REQUESTED',
              claimStatus: claimTo,
              inspectionCompanyId: Number(company.id),
              reasonId: body.reasonId,
              fee: inserted.fee,
            },
          },
        })
        await appendEvent(tx, tenantId, now, {
          type: 'claim.inspection_requested',
          payload: {
            claimId,
            claimNumber: claim.claim_number,
            inspectionId: Number(inserted.id),
            inspectionCompanyId: Number(company.id),
            reasonId: body.reasonId,
          },
        })
        return Number(inserted.id)
      })
      return fullView(tenantId, id)
    },

    /**
     * PUT /claims/{claimId}/inspections: the claim's latest inspection replaced: its company (while
     * REQUESTED), reason and note; or completed with its results; or cancelled (also a REJECTED one
     * the claim still waits on). TAKEN and REJECTED are the company's to report (422).
     */
    async replace(
      ctx: AuthenticatedContext,
      claimId: number,
      body: InspectionReplaceBody,
      checkVersion: (v: number) => void,
    ) {
      const tenantId = ctx.tenantId
      const id = await db.transaction(tenantId, async (tx) => {
        const now = clock.now()
        const claim = await lockVisibleClaim(tx, ctx, claimId)
        const latest = await repo.latestInspection(tx, tenantId, claimId)
        if (!latest)
          throw inspectionErrors.create('claim_inspection_not_found', `claim ${claim.claim_number} has no inspection`)
        const current = (await repo.lockInspection(tx, tenantId, Number(latest.id)))!
        checkVersion(current.version)
        if (
          current.status === 'COMPLETED' ||
          current.status === 'CANCELLED' ||
          (current.status === 'REJECTED' && body.status !== 'CANCELLED')
        )
          throw inspectionErrors.create(
            'claim_inspection_state_conflict',
            `claim ${claim.claim_number}'s inspection ${current.id} is ${current.status}: ${
              current.status === 'REJECTED' ? 'cancel it or request another one' : 'request another one'
            }`,
          )
        const errors: FieldError[] = []
        if (body.status === 'TAKEN' && current.status !== 'TAKEN')
          errors.push({
            field: 'status',
            code: 'not_allowed',
            message: 'the company takes or rejects an inspection (POST /claims/{claimId}/inspections/takereject/{id})',
          })
        if (body.note != null && body.note.trim() === '')
          errors.push({ field: 'note', code: 'blank', message: 'is only blanks (send null for none)' })
        if (body.reasonId !== Number(current.reason_id))
          await checkLookup(tx, tenantId, 'reasonId', body.reasonId, 'INSPECTION_REASON', errors)
        let company: repo.InspectionCompanyRow | undefined
        if (body.inspectionCompanyId !== Number(current.inspection_company_id)) {
          if (current.status !== 'REQUESTED' || body.status !== 'REQUESTED')
            errors.push({
              field: 'inspectionCompanyId',
              code: 'not_allowed',
              message: `the company changes only while the inspection stays REQUESTED (it is ${current.status})`,
            })
          else company = await checkCompany(tx, tenantId, body.inspectionCompanyId, errors, now)
        }
        const changed = await applyReport(
          tx,
          ctx,
          claim,
          current,
          {
            status: body.status,
            findings: body.findings,
            inspectedOdometer: body.inspectedOdometer,
            inspectedOn: body.inspectedOn,
            completedAt: body.completedAt,
          },
          {
            errors,
            values: {
              reason_id: body.reasonId,
              note: body.note,
              ...(company
                ? {
                    inspection_company_id: company.id,
                    inspection_company_name: company.display_name,
                    fee: feeOf(company),
                  }
                : {}),
            },
            audit: { reasonId: body.reasonId, inspectionCompanyId: body.inspectionCompanyId },
          },
        )
        return Number(changed.id)
      })
      return fullView(tenantId, id)
    },

    /** POST /claims/{claimId}/inspections/takereject/{id}: the company takes or rejects a REQUESTED inspection. */
    async takeReject(ctx: AuthenticatedContext, claimId: number, inspectionId: number, body: TakeRejectBody) {
      const tenantId = ctx.tenantId
      await db.transaction(tenantId, async (tx) => {
        const { claim, current } = await lockForCompany(tx, ctx, inspectionId, claimId)
        const errors: FieldError[] = []
        if (body.action === 'TAKE' && body.note != null)
          errors.push({ field: 'note', code: 'not_allowed', message: 'a note comes with a rejection' })
        await applyReport(
          tx,
          ctx,
          claim,
          current,
          {
            status: body.action === 'TAKE' ? 'TAKEN' : 'REJECTED',
            rejectReasonId: body.rejectReasonId,
            ...(body.action === 'REJECT' ? { companyNote: body.note ?? null } : {}),
          },
          { errors },
        )
      })
      return fullView(tenantId, inspectionId)
    },

    /**
     * The sync routes: the company's system reports TAKEN, REJECTED or COMPLETED (with results).
     * `full` (PUT): every member as given; else (PATCH) members left out keep their stored values.
     */
    async sync(ctx: AuthenticatedContext, body: SyncBody, full: boolean) {
      const tenantId = ctx.tenantId
      await db.transaction(tenantId, async (tx) => {
        const { claim, current } = await lockForCompany(tx, ctx, body.claimInspectionId)
        const keep = <T>(given: T | undefined, stored: T) => (full || given !== undefined ? (given ?? null) : stored)
        const completedAt = keep(body.completedAt, iso(current.completed_at))
        await applyReport(tx, ctx, claim, current, {
          status: body.status,
          rejectReasonId:
            body.status === 'REJECTED'
              ? keep(body.rejectReasonId, current.reject_reason_id === null ? null : Number(current.reject_reason_id))
              : (body.rejectReasonId ?? null),
          companyNote: keep(body.note, current.company_note),
          findings: body.status === 'COMPLETED' ? keep(body.findings, current.findings) : (body.findings ?? null),
          inspectedOdometer:
            body.status === 'COMPLETED'
              ? keep(body.inspectedOdometer, current.inspected_odometer)
              : (body.inspectedOdometer ?? null),
          inspectedOn:
            body.status === 'COMPLETED' ? keep(body.inspectedOn, current.inspected_on) : (body.inspectedOn ?? null),
          completedAt: body.status === 'COMPLETED' ? completedAt : (body.completedAt ?? null),
        })
      })
      return fullView(tenantId, body.claimInspectionId)
    },

    /** GET /claims/inspections/{id}: 404 unless the caller sees it. */
    async get(ctx: AuthenticatedContext, id: number) {
      const row = await db.read(ctx.tenantId, (x) => repo.findInspection(x, ctx.tenantId, id))
      if (!row || !sees(ctx, row)) throw notFound(id)
      return view(row, await filesOf(ctx.tenantId, Number(row.id)))
    },

    /** GET /claims/inspections: the inspections the caller sees matching the filters, newest first (no files). */
    async list(ctx: AuthenticatedContext, filter: repo.InspectionFilter, window: Window) {
      const result = await db.reportRead(ctx.tenantId, (x) =>
        repo.searchInspections(x, ctx.tenantId, filter, ctx.principal.visibleAccountHolderIds, window),
      )
      return { items: result.rows.map((r) => view(r)), totalCount: result.totalCount }
    },

    /**
     * The claim's current inspection (its latest, whatever its status) in payloads.md §7's shape with
     * its files, or null: for the claim's own view. Reads through `x` (the caller's transaction or read).
     */
    async inspectionOf(x: Executor, tenantId: number, claimId: number): Promise<ClaimInspectionView | null> {
      const row = await repo.latestInspection(x, tenantId, claimId)
      return row ? view(row, await filesOf(tenantId, Number(row.id))) : null
    },

    /**
     * The documents module's owner check of an inspection's files: 404 unless the caller sees the
     * inspection; a write (upload) also 409 once the inspection is REJECTED or CANCELLED, or its
     * claim VOIDED.
     */
    async filesOwner(ctx: RequestContext, inspectionId: number, access: OwnerAccess, claimId?: number) {
      const row = await db.read(ctx.tenantId, (x) => repo.findInspection(x, ctx.tenantId, inspectionId))
      if (!row || !sees(ctx, row) || (claimId !== undefined && Number(row.claim_id) !== claimId))
        throw notFound(inspectionId)
      if (access === 'read') return
      if (row.claim_status === 'VOIDED')
        throw claimErrors.create('claim_state_conflict', `claim ${row.claim_number} is voided: it takes no files`)
      if (row.status === 'REJECTED' || row.status === 'CANCELLED')
        throw inspectionErrors.create(
          'claim_inspection_state_conflict',
          `inspection ${inspectionId} is ${row.status}: it takes no files`,
        )
    },
  }
  return service
}

export type ClaimInspectionService = ReturnType<typeof createClaimInspectionService>
