// Claims (docs/claims.md "Claims: intake, read, index", issue 14): a claim taken against a contract
// (intake), read, and listed. The rules are claim.intake.rules.ts (may the claim be taken) and
// claim.payable.rules.ts (its figures); this file gathers the facts, checks the jobs against the
// tenant's lookups and the contract's coverage, and writes the claim, its audit row and its event in
// one transaction. Contracts are read through a narrow port (ClaimContractReader), repair facilities
// through the parties module's directory.
import { auditActor, writeAudit } from '../../platform/audit.ts'
import { jsonEqual } from '../../platform/canonical-json.ts'
import { addDays, isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type {
  ClaimPayeeTypeColumn,
  StoredClaimBenefit,
  StoredClaimContact,
  StoredClaimJob,
} from '../../platform/db/schema.claims.ts'
import type {
  ContractStatus,
  CoverageSnapshot,
  PricingSnapshot,
  VehicleSnapshot,
} from '../../platform/db/schema.contracts.ts'
import { actorLabel, hasPermission, type AuthenticatedContext } from '../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../platform/http/errors.ts'
import { applyPatch, createPatchedValidator } from '../../platform/http/patch.ts'
import type { Window } from '../../platform/http/pagination.ts'
import {
  centsToDecimal,
  centsToNumber,
  Decimal,
  decimalProblem,
  multiplyCentsByRatio,
  parseMoney,
  toCents,
} from '../../platform/money.ts'
import type { OdometerReport, StatusHistoryPoint } from '../contracts/index.ts'
import type { RepairFacilityForClaim } from '../parties/index.ts'
import type { ClaimTerms } from '../rating/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { claimErrors } from './claim.errors.ts'
import { claimNumberParts } from './claim-number.rules.ts'
import { intakeProblems, type MilesBasis } from './claim.intake.rules.ts'
import { claimPayable, limitOfLiabilityCents, type BenefitLine, type ClaimJob } from './claim.payable.rules.ts'
import {
  authorizationExpiresOn,
  CLAIM_LOCK_MINUTES,
  transition,
  type ClaimEvent,
  type ClaimFacts,
  type ClaimStatus,
  type ClaimTransitionRefusal,
  type JobStatus,
} from './claim.rules.ts'
import { ClaimPatchedSchema } from './claim.schemas.ts'
import type { ClaimPayments } from './claim-payments.service.ts'
import type { ClaimPpmService } from './claim-ppm.service.ts'
import * as repo from './claim.repository.ts'
import type { Transaction } from 'kysely'
import type { DB } from '../../platform/db/schema.ts'
import type { ClaimFilter, ClaimRow } from './claim.repository.ts'

/** What of a contract row intake reads (the contracts module's row is one). */
export type ClaimContractRecord = {
  id: number
  contract_number: string
  status: ContractStatus
  dealer_id: number
  vin: string | null
  sale_date: string
  effective_date: string
  expiration_date: string
  sale_odometer: number | null
  expiration_odometer: number | null
  coverage: CoverageSnapshot
  customer_id: number
  /** VSC, GAP, TIRE_WHEEL, PPM… (GAP contracts take no repair claims: docs/claims.md "GAP and tire & wheel"). */
  product_type: string
  retail_price: string
  pricing: PricingSnapshot
  vehicle: VehicleSnapshot
}

/** The contracts module as claims read it (visibility included: 404 for a contract the caller cannot see). */
export type ClaimContractReader = {
  readRow(ctx: AuthenticatedContext, id: number): Promise<ClaimContractRecord>
  /** The plan's claim terms of the contract (`contract.terms.claims`). */
  claimTermsOf(tenantId: number, row: ClaimContractRecord): Promise<ClaimTerms>
  /** Its status history, in the order recorded (the servicing port's historyOf). */
  historyOf(tenantId: number, contractId: number): Promise<StatusHistoryPoint[]>
  today(tenantId: number): Promise<string>
  /**
   * Reports the claim's odometer as the contract's latest known odometer (the servicing port's
   * reportOdometer: expiry by mileage, docs/contracts.md "Automatic expiry and voiding"); absent: not reported.
   */
  reportOdometer?:
    | ((
        tx: Transaction<DB>,
        ctx: AuthenticatedContext,
        contractId: number,
        reading: OdometerReport,
      ) => Promise<boolean>)
    | undefined
}

export type RepairFacilityReader = {
  repairFacility(tenantId: number, facilityId: number, dealerId: number): Promise<RepairFacilityForClaim | undefined>
  /** The kind of each id that is an account holder of the tenant (a claim payee is CLAIM_PAYEE). */
  accountHolderKinds(tenantId: number, ids: number[]): Promise<Map<number, string>>
}

export type ClaimsServiceDeps = {
  db: Database
  clock: Clock
  settings: Pick<SettingsService, 'get'>
  contracts: ClaimContractReader
  facilities: RepairFacilityReader
  /** The claim's payment requests: withdrawing the open one when a PATCH takes the claim back to AUTHORIZED. */
  payments: Pick<ClaimPayments, 'withdrawOpenRequest' | 'closeOpenRequest' | 'of'>
  /** PPM redemption: the check intake and edits run on jobs naming a scheduled service. */
  ppm: Pick<ClaimPpmService, 'redemptionProblems' | 'serviceCodeOf' | 'lockRedemptions'>
  /** The claim's current inspection for its view (claim-inspections.service.ts); absent: none. */
  inspectionOf?: ((x: Executor, tenantId: number, claimId: number) => Promise<unknown>) | undefined
  /** How many documents the claim has (the documents module's collection, owner type CLAIM); absent: 0. */
  documentsCount?: ((tenantId: number, claimId: number) => Promise<number>) | undefined
}

export type ClaimNoteBody = { text: string; visibility?: 'ALL' | 'STAFF' | undefined }

/** A decimal in JSON: a number or a decimal string. */
type Dec = number | string

export type ClaimJobInput = {
  complaintId: number
  causeId?: number | null | undefined
  correctionId?: number | null | undefined
  coverageComponentCode?: string | null | undefined
  parts?:
    | Array<{
        partNumber: string
        description: string
        quantity: Dec
        unitPrice: Dec
        taxable: boolean
        authorizedUnitPrice?: Dec | null | undefined
        reductionReason?: string | null | undefined
      }>
    | undefined
  labor?:
    | Array<{
        operationCode?: string | null | undefined
        hours: Dec
        rate: Dec
        authorizedAmount?: Dec | null | undefined
        reductionReason?: string | null | undefined
      }>
    | undefined
  sublet?:
    | Array<{
        description: string
        amount: Dec
        authorizedAmount?: Dec | null | undefined
        reductionReason?: string | null | undefined
      }>
    | undefined
  /** A service of the contract's PPM schedule the job redeems (instead of a coverage component). */
  ppmServiceCode?: string | null | undefined
  /** The adjuster's decision (PUT and PATCH; intake takes every job PENDING). */
  status?: JobStatus | undefined
  deniedReasonId?: number | null | undefined
}

export type ClaimBody = {
  contractId: number
  lossDate: string
  odometer?: number | null | undefined
  repairFacilityId: number
  repairOrderNumber?: string | null | undefined
  taxRate?: Dec | undefined
  contact?: { name?: string | null; phoneNumber?: string | null; emailAddress?: string | null } | null | undefined
  jobs?: ClaimJobInput[] | undefined
}

/** What PUT replaces and PATCH changes: the repair order, the contact, the tax rate and the jobs. */
export type ClaimEdit = {
  repairOrderNumber: string | null
  taxRate: Dec
  contact: ClaimBody['contact'] | null
  jobs: ClaimJobInput[]
}

/** Members of the representation PATCH sees that it cannot change (they are fixed at intake). */
const IMMUTABLE_ON_EDIT = ['contractId', 'lossDate', 'odometer', 'repairFacilityId'] as const

const MAX_AMOUNT = new Decimal('999999999.99')
const money = (cents: number) => centsToNumber(cents)
const stored = (cents: number) => centsToDecimal(cents).toFixed(2)
const centsOf = (text: string) => toCents(new Decimal(text))
const validatePatched = createPatchedValidator(ClaimPatchedSchema)

/** An amount of a line in whole cents (0 or more, two places); null when absent or refused (listed in `errors`). */
function amountCents(field: string, value: Dec | null | undefined, errors: FieldError[]): number | null {
  if (value === null || value === undefined) return null
  const p = decimalProblem(value, { places: 2, min: new Decimal(0), max: MAX_AMOUNT })
  if (p) {
    errors.push({ field, code: p.code, message: p.message })
    return null
  }
  return toCents(parseMoney(value) ?? new Decimal(0))
}

/** The lines of a claim as the payable rules read them: its jobs and benefits, the facility's rates. */
function payableLines(
  row: Pick<ClaimRow, 'jobs' | 'facility_labor_rate' | 'facility_tax_rate'> & {
    benefits?: ReadonlyArray<Omit<StoredClaimBenefit, 'countedCents' | 'cappedBy'>>
  },
) {
  const jobs: ClaimJob[] = row.jobs.map((j) => ({
    lineNumber: j.lineNumber,
    status: j.status,
    parts: j.parts.map((p) => ({
      partNumber: p.partNumber,
      quantity: p.quantity,
      requestedUnitCents: p.requestedUnitCents,
      authorizedUnitCents: p.authorizedUnitCents,
      taxable: p.taxable,
    })),
    labor: j.labor.map((l) => ({
      hours: l.hours,
      rateCents: l.rateCents,
      requestedCents: l.requestedCents,
      authorizedCents: l.authorizedCents,
    })),
    sublet: j.sublet.map((s) => ({ requestedCents: s.requestedCents, authorizedCents: s.authorizedCents })),
  }))
  return {
    jobs,
    benefits: (row.benefits ?? []).map((b) => ({
      type: b.type as BenefitLine['type'],
      status: b.status,
      days: b.days,
      dailyRateCents: b.dailyRateCents,
      requestedCents: b.requestedCents,
      authorizedCents: b.authorizedCents,
    })),
    facility: {
      laborRateCents: row.facility_labor_rate === null ? null : centsOf(row.facility_labor_rate),
      taxRate: new Decimal(row.facility_tax_rate).toString(),
    },
  }
}

/**
 * The figures of a claim's lines alone (what intake stores, and each job's amounts in the view):
 * no deductible, limits or benefits, which come in when the adjuster decides (`changed`).
 */
function figures(row: Pick<ClaimRow, 'jobs' | 'facility_labor_rate' | 'facility_tax_rate'>) {
  return claimPayable({
    ...payableLines({ ...row, benefits: [] }),
    deductible: { amountCents: 0, type: 'STANDARD' },
    facilityLinkedToSellingDealer: false,
    terms: { deductibleApplies: 'PER_VISIT', perClaimLimit: null, benefits: [] },
    liability: { limitCents: null, paidOnOtherClaimsCents: 0, authorizedUnpaidOnOtherClaimsCents: 0 },
  })
}

/** The decisions PATCH may carry beside the edit members (docs/claims.md "Deciding a claim"). */
export type BenefitDecision = {
  type: string
  status?: JobStatus | undefined
  days?: number | null | undefined
  dailyRate?: Dec | null | undefined
  amount?: Dec | null | undefined
  authorizedAmount?: Dec | null | undefined
}

export type ClaimDecisions = {
  status: ClaimStatus
  deniedReasonId: number | null
  holds: Array<{ id?: number | undefined; holdReasonId: number; note?: string | null | undefined }>
  payee: { type: ClaimPayeeTypeColumn; claimPayeeId?: number | null | undefined } | null
  adjusterUserId: number | null
  benefits: BenefitDecision[]
}

/** A change: the edit members, and the decisions (null: as they are). */
type ClaimChange = { edit: ClaimEdit; decisions: ClaimDecisions | null }

function benefitInput(b: Omit<StoredClaimBenefit, 'countedCents' | 'cappedBy'>): BenefitDecision {
  return {
    type: b.type,
    status: b.status,
    days: b.days,
    dailyRate: b.dailyRateCents === null ? null : centsToNumber(b.dailyRateCents),
    amount: b.requestedCents === null ? null : centsToNumber(b.requestedCents),
    authorizedAmount: b.authorizedCents === null ? null : centsToNumber(b.authorizedCents),
  }
}

/** A benefit as the claim shows it (payloads.md §7): what was asked, authorized and what it pays. */
export function benefitView(b: StoredClaimBenefit, index: number) {
  return {
    lineNumber: index + 1,
    type: b.type,
    status: b.status,
    days: b.days,
    dailyRate: b.dailyRateCents === null ? null : centsToNumber(b.dailyRateCents),
    requestedAmount: b.requestedCents === null ? null : centsToNumber(b.requestedCents),
    authorizedAmount: b.authorizedCents === null ? null : centsToNumber(b.authorizedCents),
    countedAmount: centsToNumber(b.countedCents),
    cappedBy: b.cappedBy,
  }
}

function payeeOf(row: ClaimRow): ClaimDecisions['payee'] {
  if (row.payee_type === null) return null
  return row.payee_type === 'OTHER'
    ? { type: 'OTHER', claimPayeeId: row.payee_account_holder_id }
    : { type: row.payee_type }
}

/**
 * The claim's authorization as the rules read it: the day it was given (the authorization's expiry
 * less its validity) and the validity. `validDays` 0 reads the stored expiry alone.
 */
export function authorizationOf(
  row: Pick<ClaimRow, 'authorization_expires_on' | 'authorized_at'>,
  validDays: number,
): ClaimFacts['authorization'] {
  if (row.authorization_expires_on === null || row.authorized_at === null) return null
  return { authorizedOn: addDays(row.authorization_expires_on, -validDays), validDays }
}

/**
 * What of a job or benefit (in its edit form) is the adjuster's decision: its status, denied reason
 * and every authorized amount (claims:approve), as opposed to what was asked (claims:write).
 */
function decisionOf(x: Record<string, unknown>): string {
  const lines = (key: string) =>
    ((x[key] as Array<Record<string, unknown>> | undefined) ?? []).flatMap((l, i) => {
      const amount = l.authorizedUnitPrice ?? l.authorizedAmount ?? null
      const reason = l.reductionReason ?? null
      return amount === null && reason === null ? [] : [[i, amount, reason]]
    })
  return JSON.stringify([
    x.status ?? 'PENDING',
    x.deniedReasonId ?? null,
    x.authorizedAmount ?? null,
    lines('parts'),
    lines('labor'),
    lines('sublet'),
  ])
}

/** Whether two lists of jobs or benefits (edit form) differ in a decision; an absent one is undecided. */
function decisionsDiffer(a: ReadonlyArray<Record<string, unknown>>, b: ReadonlyArray<Record<string, unknown>>) {
  const undecided = decisionOf({})
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] === undefined ? undecided : decisionOf(a[i]!)
    const y = b[i] === undefined ? undecided : decisionOf(b[i]!)
    if (x !== y) return true
  }
  return false
}

/** The event that takes a claim from `from` to the status wanted; null when no event does. */
function eventFor(from: ClaimStatus, wanted: ClaimStatus): ClaimEvent | null {
  switch (wanted) {
    case 'AUTHORIZED':
      return from === 'PENDING_PAYMENT' ? 'CANCEL_PAYMENT_REQUEST' : 'AUTHORIZE'
    case 'DENIED':
      return 'DENY'
    case 'CLOSED':
      return 'CLOSE'
    case 'VOIDED':
      return 'VOID'
    case 'OPEN':
      return 'REOPEN'
    default:
      return null
  }
}

/** The audit action of each event a PATCH can carry (claim.updated when none). */
const AUDIT_ACTION: Partial<Record<ClaimEvent, string>> = {
  AUTHORIZE: 'authorized',
  CANCEL_PAYMENT_REQUEST: 'payment_request_withdrawn',
  DENY: 'denied',
  CLOSE: 'closed',
  VOID: 'voided',
  REOPEN: 'reopened',
}

function auditFigures(row: ClaimRow) {
  return {
    status: row.status,
    repairOrderNumber: row.repair_order_number,
    taxRate: row.facility_tax_rate,
    jobs: row.jobs.length,
    jobsAuthorized: row.jobs.filter((j) => j.status === 'AUTHORIZED').length,
    benefits: row.benefits.length,
    requested: row.requested_total,
    authorized: row.authorized_total,
    payable: row.payable_total,
    authorizationNumber: row.authorization_number,
    deniedReasonId: row.denied_reason_id,
    payeeType: row.payee_type,
    payeeAccountHolderId: row.payee_account_holder_id,
    adjusterUserId: row.adjuster_user_id,
  }
}

/**
 * Whether the caller may see a claim: the administrator's staff see every claim of the tenant; any
 * other user the claims of the account holders its groups list: a dealer's (of its contracts) or a
 * repair facility's (repaired there).
 */
export function visibleTo(ctx: AuthenticatedContext, row: Pick<ClaimRow, 'dealer_id' | 'repair_facility_id'>) {
  const seen = ctx.principal.visibleAccountHolderIds
  return seen === null || seen.has(row.dealer_id) || seen.has(row.repair_facility_id)
}

function storedContact(contact: ClaimBody['contact']): StoredClaimContact | null {
  return contact == null
    ? null
    : {
        name: contact.name ?? null,
        phoneNumber: contact.phoneNumber ?? null,
        emailAddress: contact.emailAddress ?? null,
      }
}

/** A stored job as the edit representation gives it back (PATCH applies to this). */
function jobInput(j: StoredClaimJob): ClaimJobInput {
  return {
    complaintId: j.complaintId,
    causeId: j.causeId,
    correctionId: j.correctionId,
    coverageComponentCode: j.coverageComponentCode,
    parts: j.parts.map((p) => ({
      partNumber: p.partNumber,
      description: p.description,
      quantity: Number(p.quantity),
      unitPrice: centsToNumber(p.requestedUnitCents),
      taxable: p.taxable,
      authorizedUnitPrice: p.authorizedUnitCents === null ? null : centsToNumber(p.authorizedUnitCents),
      reductionReason: p.reductionReason ?? null,
    })),
    labor: j.labor.map((l) => ({
      operationCode: l.operationCode,
      hours: Number(l.hours),
      rate: centsToNumber(l.rateCents),
      authorizedAmount: l.authorizedCents === null ? null : centsToNumber(l.authorizedCents),
      reductionReason: l.reductionReason ?? null,
    })),
    sublet: j.sublet.map((s) => ({
      description: s.description,
      amount: centsToNumber(s.requestedCents),
      authorizedAmount: s.authorizedCents === null ? null : centsToNumber(s.authorizedCents),
      reductionReason: s.reductionReason ?? null,
    })),
    ppmServiceCode: j.ppmServiceCode ?? null,
    status: j.status,
    deniedReasonId: j.deniedReasonId,
  }
}

export function createClaimService(deps: ClaimsServiceDeps) {
  const { db, clock, settings, contracts, facilities, payments, ppm } = deps
  const inspectionOf = deps.inspectionOf ?? (async () => null)
  const documentsCount = deps.documentsCount ?? (async () => 0)

  const invalid = (errors: FieldError[]) =>
    claimErrors.create('claim_invalid', `Invalid claim: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, {
      errors,
    })
  const notFound = (id: number) => claimErrors.create('claim_not_found', `claim ${id} not found`)

  /** Every problem of the jobs' money and codes, each naming its field; the stored jobs when none. */
  async function checkJobs(
    tenantId: number,
    jobs: readonly ClaimJobInput[],
    contract: Pick<ClaimContractRecord, 'coverage'>,
    errors: FieldError[],
    /** Receives the three Cs read (the reply's texts, so that it need not read them again). */
    read?: (lookups: Awaited<ReturnType<typeof repo.threeCsByIds>>) => void,
  ): Promise<StoredClaimJob[]> {
    // A job redeems a scheduled service or repairs a covered component, not both.
    jobs.forEach((j, n) => {
      if (j.ppmServiceCode != null && j.coverageComponentCode != null)
        errors.push({
          field: `jobs[${n}].ppmServiceCode`,
          code: 'not_allowed',
          message: 'a job names a PPM service or a coverage component, not both',
        })
    })
    const amount = (field: string, value: Dec | null | undefined) => amountCents(field, value, errors)
    /**
     * The reason a line of an AUTHORIZED job is reduced (authorized below what was asked): required
     * then (422 `reductionReason` `required`), kept as given otherwise.
     */
    const reduction = (
      at: string,
      job: ClaimJobInput,
      requested: number | null,
      authorized: number | null,
      reason: string | null | undefined,
    ): string | null => {
      const text = reason?.trim() ? reason.trim() : null
      const reduced = requested !== null && authorized !== null && authorized < requested
      if (reduced && text === null && job.status === 'AUTHORIZED')
        errors.push({
          field: `${at}.reductionReason`,
          code: 'required',
          message: 'a line authorized for less than was asked says why',
        })
      return text
    }
    const ids = jobs
      .flatMap((j) => [j.complaintId, j.causeId ?? null, j.correctionId ?? null])
      .filter((v) => v !== null)
    const deniedIds = jobs.flatMap((j) => (j.deniedReasonId == null ? [] : [j.deniedReasonId]))
    const [lookups, denied] = await db.read(tenantId, (x) =>
      Promise.all([
        repo.threeCsByIds(x, tenantId, ids as number[]),
        repo.lookupsOfKind(x, tenantId, 'DENIED_REASON', deniedIds),
      ]),
    )
    read?.(lookups)
    const components = new Set(
      contract.coverage.coverageGroups.flatMap((g) => g.components.map((c) => c.code.toUpperCase())),
    )
    return jobs.map((j, n): StoredClaimJob => {
      const at = `jobs[${n}]`
      const lookup = (
        field: 'complaintId' | 'causeId' | 'correctionId',
        kind: string,
        id: number | null | undefined,
      ) => {
        if (id === null || id === undefined) return
        const entry = lookups.get(id)
        if (!entry || entry.kind !== kind)
          errors.push({
            field: `${at}.${field}`,
            code: 'unknown_lookup',
            message: `${id} is not one of the tenant's ${kind.toLowerCase()}s (GET /api/claims/${kind === 'COMPLAINT' ? 'complaints' : kind === 'CAUSE' ? 'causes' : 'corrections'})`,
          })
        else if (!entry.active)
          errors.push({
            field: `${at}.${field}`,
            code: 'inactive_lookup',
            message: `${kind.toLowerCase()} ${id} is no longer offered`,
          })
      }
      lookup('complaintId', 'COMPLAINT', j.complaintId)
      lookup('causeId', 'CAUSE', j.causeId)
      lookup('correctionId', 'CORRECTION', j.correctionId)
      const code = j.coverageComponentCode?.trim().toUpperCase() || null
      if (code !== null && !components.has(code))
        errors.push({
          field: `${at}.coverageComponentCode`,
          code: 'not_covered',
          message: `${code} is not a component of the contract's coverage (plan ${contract.coverage.plan.code})`,
        })
      const deniedReasonId = j.deniedReasonId ?? null
      if (deniedReasonId !== null && !denied.get(deniedReasonId)?.active)
        errors.push({
          field: `${at}.deniedReasonId`,
          code: denied.has(deniedReasonId) ? 'inactive_lookup' : 'unknown_lookup',
          message: `${deniedReasonId} is not one of the tenant's denied reasons in use (GET /api/claims/deniedReasons)`,
        })
      return {
        lineNumber: n + 1,
        complaintId: j.complaintId,
        causeId: j.causeId ?? null,
        correctionId: j.correctionId ?? null,
        coverageComponentCode: code,
        ppmServiceCode:
          j.ppmServiceCode == null
            ? null
            : (ppm.serviceCodeOf(contract, j.ppmServiceCode) ?? j.ppmServiceCode.trim().toUpperCase()),
        status: j.status ?? 'PENDING',
        deniedReasonId,
        parts: (j.parts ?? []).map((p, i) => {
          const requested = amount(`${at}.parts[${i}].unitPrice`, p.unitPrice) ?? 0
          const authorized = amount(`${at}.parts[${i}].authorizedUnitPrice`, p.authorizedUnitPrice)
          return {
            partNumber: p.partNumber,
            description: p.description,
            quantity: String(p.quantity),
            requestedUnitCents: requested,
            authorizedUnitCents: authorized,
            taxable: p.taxable,
            reductionReason: reduction(`${at}.parts[${i}]`, j, requested, authorized, p.reductionReason),
          }
        }),
        labor: (j.labor ?? []).map((l, i) => {
          const rate = amount(`${at}.labor[${i}].rate`, l.rate) ?? 0
          const authorized = amount(`${at}.labor[${i}].authorizedAmount`, l.authorizedAmount)
          // hours × rate as asked (a cap alone needs no reason: only an amount the adjuster writes lower).
          const hours = /^\d{1,4}(\.\d{1,2})?$/.test(String(l.hours)) ? Math.round(Number(l.hours) * 100) : null
          const requested = hours === null ? null : multiplyCentsByRatio(rate, hours, 100)
          return {
            operationCode: l.operationCode ?? null,
            hours: String(l.hours),
            rateCents: rate,
            requestedCents: null,
            authorizedCents: authorized,
            reductionReason: reduction(`${at}.labor[${i}]`, j, requested, authorized, l.reductionReason),
          }
        }),
        sublet: (j.sublet ?? []).map((s, i) => {
          const requested = amount(`${at}.sublet[${i}].amount`, s.amount) ?? 0
          const authorized = amount(`${at}.sublet[${i}].authorizedAmount`, s.authorizedAmount)
          return {
            description: s.description,
            requestedCents: requested,
            authorizedCents: authorized,
            reductionReason: reduction(`${at}.sublet[${i}]`, j, requested, authorized, s.reductionReason),
          }
        }),
      }
    })
  }

  /** The number's parts around the sequence; the sequence is taken by the write statement itself. */
  async function numberParts(tenantId: number, today: string) {
    const format = String(await settings.get(tenantId, 'claimNumberFormat'))
    return claimNumberParts(format, { formPrefix: 'CLM', date: today })
  }

  async function lookupTexts(tenantId: number, rows: readonly ClaimRow[]) {
    const ids = rows.flatMap((r) => r.jobs.flatMap((j) => [j.complaintId, j.causeId, j.correctionId]))
    return db.read(tenantId, (x) => repo.threeCsByIds(x, tenantId, ids.filter((v) => v !== null) as number[]))
  }

  function totalsOf(
    row: Pick<
      ClaimRow,
      'requested_total' | 'authorized_total' | 'tax_total' | 'deductible_total' | 'payable_total' | 'paid_total'
    >,
  ) {
    return {
      requested: Number(row.requested_total),
      authorized: Number(row.authorized_total),
      tax: Number(row.tax_total),
      deductible: Number(row.deductible_total),
      payable: Number(row.payable_total),
      paid: Number(row.paid_total),
    }
  }

  /** Whether the caller is the administrator's staff (not dealer-side): STAFF notes are theirs only. */
  const isStaff = (ctx: AuthenticatedContext) => ctx.principal.visibleAccountHolderIds === null

  /** The claim's notes and documents counts for the view: one count query each, side by side. */
  async function countsOf(ctx: AuthenticatedContext, claimId: number) {
    const [notes, documents] = await Promise.all([
      db.read(ctx.tenantId, (x) => repo.countClaimNotes(x, ctx.tenantId, claimId, isStaff(ctx))),
      documentsCount(ctx.tenantId, claimId),
    ])
    return { notesCount: notes, documentsCount: documents }
  }

  /** The claim's full view: its row, the three Cs' and reasons' texts, its holds, payment requests and counts. */
  async function fullView(ctx: AuthenticatedContext, row: ClaimRow, known: KnownParts = {}) {
    // One read unit for all of it (the reads below join it), or the caller's transaction.
    return db.read(ctx.tenantId, () => fullViewWithin(ctx, row, known))
  }

  /** Parts of the view the caller already has (read in its transaction, current): not read again. */
  type KnownParts = {
    texts?: Awaited<ReturnType<typeof lookupTexts>>
    holds?: repo.ClaimHoldRow[]
    paymentRequests?: Awaited<ReturnType<typeof payments.of>>
    inspection?: null
    notesCount?: number
  }

  async function fullViewWithin(ctx: AuthenticatedContext, row: ClaimRow, known: KnownParts = {}) {
    const tenantId = ctx.tenantId
    const [texts, counts, holds, requests, inspection] = await Promise.all([
      known.texts ?? lookupTexts(tenantId, [row]),
      known.notesCount === undefined
        ? countsOf(ctx, row.id)
        : documentsCount(tenantId, row.id).then((documents) => ({
            notesCount: known.notesCount!,
            documentsCount: documents,
          })),
      known.holds ?? db.read(tenantId, (x) => repo.claimHolds(x, tenantId, row.id)),
      known.paymentRequests ?? payments.of(tenantId, row.id),
      known.inspection !== undefined ? known.inspection : db.read(tenantId, (x) => inspectionOf(x, tenantId, row.id)),
    ])
    const reasonIds = [
      ...holds.map((h) => Number(h.hold_reason_id)),
      ...row.jobs.flatMap((j) => (j.deniedReasonId === null ? [] : [j.deniedReasonId])),
      ...(row.denied_reason_id === null ? [] : [Number(row.denied_reason_id)]),
    ]
    const reasons =
      reasonIds.length === 0
        ? new Map<number, { name: string }>()
        : await db.read(tenantId, async (x) => {
            const [hold, denied] = await Promise.all([
              repo.lookupsOfKind(x, tenantId, 'HOLD_REASON', reasonIds),
              repo.lookupsOfKind(x, tenantId, 'DENIED_REASON', reasonIds),
            ])
            return new Map([...hold, ...denied])
          })
    return {
      ...view(row, texts, counts, reasons),
      holds: holds.map((h) => ({
        id: Number(h.id),
        holdReason: { id: Number(h.hold_reason_id), text: reasons.get(Number(h.hold_reason_id))?.name ?? '' },
        note: h.note,
        placedAt: h.placed_at.toISOString(),
        placedBy: h.placed_by,
        releasedAt: h.released_at?.toISOString() ?? null,
        releasedBy: h.released_by,
      })),
      paymentRequests: requests,
      inspection,
    }
  }

  function noteView(n: repo.ClaimNoteRow) {
    return {
      id: Number(n.id),
      claimId: Number(n.claim_id),
      text: n.text,
      visibility: n.visibility,
      createdAt: n.created_at.toISOString(),
      createdBy: n.created_by,
    }
  }

  function view(
    row: ClaimRow,
    texts: Awaited<ReturnType<typeof lookupTexts>>,
    counts: { notesCount: number; documentsCount: number } = { notesCount: 0, documentsCount: 0 },
    reasons: ReadonlyMap<number, { name: string }> = new Map(),
  ) {
    const fig = figures(row)
    if (!fig.ok) throw new Error(`claim ${row.id}: stored jobs refused by the payable rules`)
    const ref = (id: number | null) => (id === null ? null : { id, text: texts.get(id)?.name ?? '' })
    const reason = (id: number | null) => (id === null ? null : { id, text: reasons.get(Number(id))?.name ?? '' })
    return {
      id: row.id,
      claimNumber: row.claim_number,
      contractId: row.contract_id,
      contractNumber: row.contract_number,
      dealerId: row.dealer_id,
      vin: row.vin,
      status: row.status,
      deniedReason: reason(row.denied_reason_id === null ? null : Number(row.denied_reason_id)),
      holds: [] as unknown[],
      reportedAt: row.reported_at.toISOString(),
      lossDate: row.loss_date,
      odometer: row.odometer,
      repairFacility: {
        accountHolderId: row.repair_facility_id,
        name: row.repair_facility_name,
        laborRate: row.facility_labor_rate === null ? null : Number(row.facility_labor_rate),
        taxRate: Number(row.facility_tax_rate),
      },
      contact: row.contact,
      repairOrderNumber: row.repair_order_number,
      authorization:
        row.authorization_number === null
          ? null
          : {
              number: row.authorization_number,
              authorizedAt: row.authorized_at?.toISOString() ?? null,
              expiresAt: row.authorization_expires_on,
              authorizedBy: row.authorized_by,
            },
      adjusterUserId: row.adjuster_user_id,
      jobs: row.jobs.map((j, n) => {
        const f = fig.jobs[n]!
        return {
          lineNumber: j.lineNumber,
          complaint: ref(j.complaintId)!,
          cause: ref(j.causeId),
          correction: ref(j.correctionId),
          coverageComponentCode: j.coverageComponentCode,
          ppmServiceCode: j.ppmServiceCode ?? null,
          status: j.status,
          deniedReason: reason(j.deniedReasonId),
          parts: j.parts.map((p, i) => ({
            partNumber: p.partNumber,
            description: p.description,
            quantity: Number(p.quantity),
            requestedUnitPrice: money(p.requestedUnitCents),
            authorizedUnitPrice: p.authorizedUnitCents === null ? null : money(p.authorizedUnitCents),
            taxable: p.taxable,
            requestedAmount: money(f.parts[i]!.requestedCents),
            reductionReason: p.reductionReason ?? null,
          })),
          labor: j.labor.map((l, i) => ({
            operationCode: l.operationCode,
            hours: Number(l.hours),
            rate: money(l.rateCents),
            requestedAmount: money(f.labor[i]!.requestedCents),
            authorizedAmount: l.authorizedCents === null ? null : money(f.labor[i]!.authorizedCents),
            reductionReason: l.reductionReason ?? null,
          })),
          sublet: j.sublet.map((s) => ({
            description: s.description,
            requestedAmount: money(s.requestedCents),
            authorizedAmount: s.authorizedCents === null ? null : money(s.authorizedCents),
            reductionReason: s.reductionReason ?? null,
          })),
          requestedTotal: money(f.requestedCents),
          authorizedTotal: money(f.authorizedCents),
        }
      }),
      benefits: row.benefits.map(benefitView),
      inspection: null,
      totals: totalsOf(row),
      payee:
        row.payee_type === null ? null : { claimPayeeId: Number(row.payee_account_holder_id), type: row.payee_type },
      paymentRequests: [] as unknown[],
      notesCount: counts.notesCount,
      documentsCount: counts.documentsCount,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      version: row.version,
    }
  }

  /**
   * The claim locked for a change inside `tx`: 404 when unknown or invisible to the caller, 423 while
   * another user holds its edit lock.
   */
  async function lockedClaim(tx: Transaction<DB>, ctx: AuthenticatedContext, id: number): Promise<ClaimRow> {
    const locked = await repo.lockClaim(tx, ctx.tenantId, id)
    if (!locked || !visibleTo(ctx, locked)) throw notFound(id)
    const now = clock.now()
    if (
      locked.lock_user_id !== null &&
      locked.lock_expires_at !== null &&
      locked.lock_expires_at > now &&
      locked.lock_user_id !== ctx.principal.userId
    )
      throw claimErrors.create(
        'claim_locked',
        `claim ${locked.claim_number} is locked for editing by ${locked.lock_user_label ?? 'another user'}`,
        { extensions: { lockedBy: locked.lock_user_label, lockExpiresAt: locked.lock_expires_at.toISOString() } },
      )
    return locked
  }

  /** The payable rules' input of a claim as the adjuster decides it: the contract's deductible, terms and limits. */
  async function payableInputs(
    tenantId: number,
    contract: ClaimContractRecord,
    facilityId: number,
    others: repo.ClaimFacts['others'],
  ) {
    const [terms, facility] = await Promise.all([
      contracts.claimTermsOf(tenantId, contract),
      facilities.repairFacility(tenantId, facilityId, contract.dealer_id),
    ])
    const purchase = contract.vehicle.purchasePrice
    const limit = limitOfLiabilityCents(terms.limitOfLiability, {
      contractPriceCents: centsOf(contract.retail_price),
      vehiclePurchasePriceCents: purchase == null ? null : centsOf(purchase),
    })
    return {
      terms,
      limit,
      rest: {
        deductible: { amountCents: contract.coverage.deductible.amountCents, type: contract.coverage.deductible.type },
        facilityLinkedToSellingDealer: facility?.linkedToDealer ?? false,
        terms: {
          deductibleApplies: terms.deductibleApplies,
          perClaimLimit: terms.perClaimLimit,
          benefits: terms.benefits,
        },
      },
      others,
    }
  }

  /**
   * A change in one transaction (PUT, PATCH, and the adjuster's decisions): the row locked, 404 when
   * invisible, 423 while another user holds its edit lock, If-Match checked; then each part of the
   * change judged by the state machine (EDIT for the repair order and lines, PLACE_HOLD and
   * RELEASE_HOLD for holds, the event the wanted status names), every refusal of the input listed in
   * one 422 claim_invalid, the figures recomputed with the contract's deductible and limits, audited;
   * nothing is written unless all of it is.
   */
  async function changed(
    ctx: AuthenticatedContext,
    id: number,
    checkVersion: (v: number) => void,
    changeOf: (row: ClaimRow, holds: readonly repo.ClaimHoldRow[]) => ClaimChange,
  ) {
    const tenantId = ctx.tenantId
    // One unit of work, from the lock to the reply: every read joins it (fewer round trips).
    return db.transaction(tenantId, async (tx) => {
      const locked = await lockedClaim(tx, ctx, id)
      const now = clock.now()
      checkVersion(locked.version)
      // The coverage the jobs are checked against: the contract's, as the caller may see it.
      const contract = await contracts.readRow(ctx, locked.contract_id).catch(() => {
        throw notFound(id)
      })
      // Read once the row is locked: what the claim has (holds, requests…) and the contract's other claims.
      const known = await repo.claimFacts(tx, tenantId, id, locked.contract_id)
      const inputs = await payableInputs(tenantId, contract, locked.repair_facility_id, known.others)
      const allHolds = known.holds > 0 ? await repo.claimHolds(tx, tenantId, id) : []
      const openHolds = allHolds.filter((h) => h.released_at === null)
      const change = changeOf(locked, openHolds)
      const edit = change.edit
      const decisions: ClaimDecisions = change.decisions ?? {
        status: locked.status,
        deniedReasonId: locked.denied_reason_id,
        holds: openHolds.map((h) => ({ id: Number(h.id), holdReasonId: Number(h.hold_reason_id), note: h.note })),
        payee: payeeOf(locked),
        adjusterUserId: locked.adjuster_user_id,
        benefits: locked.benefits.map(benefitInput),
      }
      const today = await contracts.today(tenantId)
      const errors: FieldError[] = []
      const taxProblem = decimalProblem(edit.taxRate, { places: 6, min: new Decimal(0), max: new Decimal('0.999999') })
      if (taxProblem) errors.push({ field: 'taxRate', code: taxProblem.code, message: taxProblem.message })
      let texts: Awaited<ReturnType<typeof lookupTexts>> = new Map()
      const jobs = await checkJobs(tenantId, edit.jobs, contract, errors, (read) => (texts = read))
      if (jobs.some((j) => j.ppmServiceCode !== null)) {
        await ppm.lockRedemptions(tx, tenantId, locked.contract_id)
        errors.push(
          ...(await ppm.redemptionProblems(tx, tenantId, contract, {
            claimId: id,
            jobs: edit.jobs,
            lossDate: locked.loss_date,
            odometer: locked.odometer,
          })),
        )
      }
      const benefits = checkBenefits(decisions.benefits, errors)
      const reasons = await db.read(tenantId, (x) =>
        Promise.all([
          repo.lookupsOfKind(
            x,
            tenantId,
            'HOLD_REASON',
            decisions.holds.map((h) => h.holdReasonId),
          ),
          repo.lookupsOfKind(
            x,
            tenantId,
            'DENIED_REASON',
            decisions.deniedReasonId === null ? [] : [decisions.deniedReasonId],
          ),
        ]),
      )
      const [holdReasons, deniedReasons] = reasons

      // Holds: those with an id are kept (an open hold of this claim), the others placed, the open
      // ones left out released.
      const openIds = new Set(openHolds.map((h) => Number(h.id)))
      const kept = new Set<number>()
      const placed: Array<{ holdReasonId: number; note: string | null }> = []
      decisions.holds.forEach((h, i) => {
        if (h.id !== undefined) {
          if (!openIds.has(h.id))
            errors.push({
              field: `holds[${i}].id`,
              code: 'not_found',
              message: `${h.id} is not an open hold of the claim`,
            })
          else kept.add(h.id)
          return
        }
        const reason = holdReasons.get(h.holdReasonId)
        if (!reason)
          errors.push({
            field: `holds[${i}].holdReasonId`,
            code: 'unknown_lookup',
            message: `${h.holdReasonId} is not one of the tenant's hold reasons (GET /api/claims/holdReasons)`,
          })
        else if (!reason.active)
          errors.push({
            field: `holds[${i}].holdReasonId`,
            code: 'inactive_lookup',
            message: `hold reason ${h.holdReasonId} is no longer offered`,
          })
        placed.push({ holdReasonId: h.holdReasonId, note: h.note ?? null })
      })
      const released = [...openIds].filter((hid) => !kept.has(hid))

      // The denied reason: any status may keep one; DENY needs it.
      let deniedReasonId = decisions.deniedReasonId
      if (deniedReasonId !== null && deniedReasonId !== locked.denied_reason_id) {
        const reason = deniedReasons.get(deniedReasonId)
        if (!reason || !reason.active) {
          errors.push({
            field: 'deniedReasonId',
            code: reason ? 'inactive_lookup' : 'unknown_lookup',
            message: reason
              ? `denied reason ${deniedReasonId} is no longer offered`
              : `${deniedReasonId} is not one of the tenant's denied reasons (GET /api/claims/deniedReasons)`,
          })
          deniedReasonId = null
        }
      }

      const payee = await checkPayee(tenantId, decisions.payee, locked, contract, errors)
      const draft = {
        jobs,
        benefits,
        facility_labor_rate: locked.facility_labor_rate,
        facility_tax_rate: taxProblem ? '0' : new Decimal(edit.taxRate).toFixed(6),
      }
      // The limit binds only what is authorized: a claim of pending lines pays nothing yet, so a
      // contract without the vehicle's purchase price (a limit on it) is refused only then.
      const authorizing = jobs.some((j) => j.status === 'AUTHORIZED') || benefits.some((b) => b.status === 'AUTHORIZED')
      if (!inputs.limit.ok && authorizing) errors.push(...inputs.limit.errors)
      const fig = claimPayable({
        ...payableLines(draft),
        ...inputs.rest,
        liability: {
          limitCents: inputs.limit.ok ? inputs.limit.cents : null,
          paidOnOtherClaimsCents: inputs.others.paidCents,
          authorizedUnpaidOnOtherClaimsCents: inputs.others.authorizedUnpaidCents,
        },
      })
      if (!fig.ok) errors.push(...fig.errors)
      if (errors.length > 0 || !fig.ok) throw invalid(errors)
      const storedBenefits = benefits.map((b, i) => ({
        ...b,
        countedCents: fig.benefits[i]!.countedCents,
        cappedBy: [...fig.benefits[i]!.cappedBy],
      }))

      // What the change touches, each judged by the state machine.
      const facts = (extra: Partial<ClaimFacts> = {}): ClaimFacts => ({
        openHolds: openHolds.length - released.length + placed.length,
        today,
        authorization: authorizationOf(locked, 0),
        hasAuthorizedLines:
          jobs.some((j) => j.status === 'AUTHORIZED') || benefits.some((b) => b.status === 'AUTHORIZED'),
        hasDeniedReason: deniedReasonId !== null,
        payableCents: fig.payableCents,
        paidCents: centsOf(locked.paid_total),
        ...extra,
      })
      const refuse = (step: { ok: false; code: ClaimTransitionRefusal; message: string }) =>
        claimErrors.create(step.code, `claim ${locked.claim_number}: ${step.message}`)
      // jsonb keeps object members in its own order: compare as canonical JSON.
      const linesChanged =
        // Both as the edit representation: a job stored before a member existed reads it as null.
        !jsonEqual(jobs.map(jobInput), locked.jobs.map(jobInput)) ||
        !jsonEqual(storedBenefits.map(benefitInput), locked.benefits.map(benefitInput)) ||
        (edit.repairOrderNumber ?? null) !== locked.repair_order_number ||
        !jsonEqual(storedContact(edit.contact ?? null), locked.contact) ||
        draft.facility_tax_rate !== new Decimal(locked.facility_tax_rate).toFixed(6) ||
        payee.type !== locked.payee_type ||
        payee.accountHolderId !== locked.payee_account_holder_id
      const events: ClaimEvent[] = []
      if (linesChanged || decisions.adjusterUserId !== locked.adjuster_user_id) events.push('EDIT')
      if (released.length > 0) {
        const step = transition(locked.status, 'RELEASE_HOLD', facts({ openHolds: openHolds.length }))
        if (!step.ok) throw refuse(step)
      }
      if (placed.length > 0) events.push('PLACE_HOLD')
      for (const event of events) {
        const step = transition(locked.status, event, facts())
        if (!step.ok) throw refuse(step)
      }
      const wanted = decisions.status
      // Authorizing, denying and the money's decisions are claims:approve's (docs/permissions.md):
      // a status of AUTHORIZED or DENIED, a job's or benefit's decision or authorized amounts.
      const approving =
        (wanted !== locked.status && (wanted === 'AUTHORIZED' || wanted === 'DENIED')) ||
        decisionsDiffer(jobs.map(jobInput), locked.jobs.map(jobInput)) ||
        decisionsDiffer(storedBenefits.map(benefitInput), locked.benefits.map(benefitInput))
      if (approving && !hasPermission(ctx.principal.permissions, 'claims:approve'))
        throw platformErrors.create(
          'permission_denied',
          'Authorizing, denying or deciding the lines of a claim requires the claims:approve permission',
        )
      let status = locked.status
      let event: ClaimEvent | null = null
      if (wanted !== locked.status) {
        event = eventFor(locked.status, wanted)
        if (event === null)
          throw claimErrors.create(
            'claim_state_conflict',
            `claim ${locked.claim_number} is ${locked.status}: it cannot be set to ${wanted}` +
              (wanted === 'PENDING_INSPECTION'
                ? ' (request an inspection: POST /api/claims/{claimId}/inspections)'
                : wanted === 'PENDING_PAYMENT'
                  ? ' (request the payment: POST /api/claims/{claimId}/paymentrequests)'
                  : wanted === 'PAID' || wanted === 'PARTIALLY_PAID'
                    ? ' (payments are recorded on the payment request)'
                    : ''),
          )
        const step = transition(locked.status, event, facts())
        if (!step.ok) throw refuse(step)
        status = step.to
      }

      const values: repo.ChangeValues = {
        repair_order_number: edit.repairOrderNumber ?? null,
        contact: edit.contact == null ? null : JSON.stringify(storedContact(edit.contact)),
        jobs: JSON.stringify(jobs),
        benefits: JSON.stringify(storedBenefits),
        facility_tax_rate: draft.facility_tax_rate,
        requested_total: stored(fig.requestedCents),
        authorized_total: stored(fig.authorizedCents),
        tax_total: stored(fig.taxCents),
        deductible_total: stored(fig.deductibleCents),
        payable_total: stored(fig.payableCents),
        status,
        // A claim's denied reason is kept while it is DENIED; reopened, it has none.
        denied_reason_id: status === 'DENIED' ? deniedReasonId : null,
        payee_type: payee.type,
        payee_account_holder_id: payee.accountHolderId,
        adjuster_user_id: decisions.adjusterUserId,
        // The authorization as it is, unless this change gives a new one (below).
        authorization_number: locked.authorization_number,
        authorized_at: locked.authorized_at,
        authorized_by: locked.authorized_by,
        authorization_expires_on: locked.authorization_expires_on,
        authorization_count: locked.authorization_count,
        updated_at: now,
        updated_by: actorLabel(ctx),
      }
      if (event === 'AUTHORIZE') {
        const validDays = Number(await settings.get(tenantId, 'claimAuthorizationValidDays'))
        values.authorization_number = `${locked.claim_number}-A${locked.authorization_count + 1}`
        values.authorized_at = now
        values.authorized_by = actorLabel(ctx)
        values.authorization_expires_on = authorizationExpiresOn(today, validDays)
        values.authorization_count = locked.authorization_count + 1
      }
      if (event === 'CANCEL_PAYMENT_REQUEST') await payments.withdrawOpenRequest(tx, ctx, locked)
      if (event === 'CLOSE' && locked.status === 'PARTIALLY_PAID') await payments.closeOpenRequest(tx, ctx, locked)
      await repo.releaseClaimHolds(tx, tenantId, id, released, now, actorLabel(ctx))
      await repo.insertClaimHolds(
        tx,
        tenantId,
        placed.map((h) => ({
          claim_id: id,
          hold_reason_id: h.holdReasonId,
          note: h.note,
          placed_at: now,
          placed_by: actorLabel(ctx),
        })),
      )
      // The row as the statement writes it, for its audit row and event (written by the same statement).
      const written = {
        ...locked,
        ...values,
        jobs,
        benefits: storedBenefits,
        contact: storedContact(edit.contact ?? null),
      } as ClaimRow
      const after = await repo.writeClaimChange(
        tx,
        tenantId,
        id,
        values,
        {
          ...auditActor(ctx),
          occurred_at: now,
          action: event === null ? 'claim.updated' : `claim.${AUDIT_ACTION[event]}`,
          changes: JSON.stringify({
            before: auditFigures(locked),
            after: {
              ...auditFigures(written),
              ...(placed.length > 0 ? { holdsPlaced: placed.map((h) => h.holdReasonId) } : {}),
              ...(released.length > 0 ? { holdsReleased: released } : {}),
            },
          }),
        },
        event === 'AUTHORIZE' || event === 'DENY'
          ? {
              type: event === 'AUTHORIZE' ? 'claim.authorized' : 'claim.denied',
              payload: JSON.stringify({
                claimId: id,
                claimNumber: locked.claim_number,
                contractId: locked.contract_id,
                dealerId: locked.dealer_id,
                repairFacilityId: locked.repair_facility_id,
                status: written.status,
                ...(event === 'AUTHORIZE'
                  ? {
                      authorizationNumber: written.authorization_number,
                      expiresOn: written.authorization_expires_on,
                      authorized: written.authorized_total,
                      payable: written.payable_total,
                    }
                  : { deniedReasonId: written.denied_reason_id }),
              }),
            }
          : null,
      )
      // The reply from what this transaction read and wrote; rows read again only where it changed them.
      const holdsChanged = placed.length > 0 || released.length > 0
      const requestsChanged = event === 'CANCEL_PAYMENT_REQUEST' || event === 'CLOSE'
      return fullView(ctx, after, {
        texts,
        ...(holdsChanged ? {} : { holds: allHolds }),
        ...(known.paymentRequests === 0 && !requestsChanged ? { paymentRequests: [] } : {}),
        ...(known.inspections === 0 ? { inspection: null } : {}),
        notesCount: isStaff(ctx) ? known.notes.staff : known.notes.shared,
      })
    })
  }

  /** The benefits as the adjuster gives them, each amount checked; stored PENDING unless decided. */
  function checkBenefits(input: readonly BenefitDecision[], errors: FieldError[]) {
    const amount = (field: string, value: Dec | null | undefined) => amountCents(field, value, errors)
    return input.map((b, i) => ({
      type: b.type,
      status: b.status ?? ('PENDING' as const),
      days: b.days ?? null,
      dailyRateCents: amount(`benefits[${i}].dailyRate`, b.dailyRate),
      requestedCents: amount(`benefits[${i}].amount`, b.amount),
      authorizedCents: amount(`benefits[${i}].authorizedAmount`, b.authorizedAmount),
    }))
  }

  /** Who the claim is paid to: the account holder the payee type names (422 for a claim payee that is none). */
  async function checkPayee(
    tenantId: number,
    payee: ClaimDecisions['payee'],
    row: ClaimRow,
    contract: ClaimContractRecord,
    errors: FieldError[],
  ): Promise<{ type: ClaimPayeeTypeColumn | null; accountHolderId: number | null }> {
    if (payee === null) return { type: null, accountHolderId: null }
    if (payee.type === 'REPAIR_FACILITY') return { type: payee.type, accountHolderId: row.repair_facility_id }
    if (payee.type === 'CONTRACT_HOLDER') return { type: payee.type, accountHolderId: contract.customer_id }
    const id = payee.claimPayeeId ?? null
    if (id === null) {
      errors.push({ field: 'payee.claimPayeeId', code: 'required', message: 'an OTHER payee names its claim payee' })
      return { type: null, accountHolderId: null }
    }
    const kinds = await facilities.accountHolderKinds(tenantId, [id])
    if (kinds.get(id) !== 'CLAIM_PAYEE') {
      errors.push({
        field: 'payee.claimPayeeId',
        code: 'not_found',
        message: `${id} is not a claim payee of the tenant (GET /api/claimpayees)`,
      })
      return { type: null, accountHolderId: null }
    }
    return { type: 'OTHER', accountHolderId: id }
  }

  function lockView(
    ctx: AuthenticatedContext,
    row: Pick<ClaimRow, 'id' | 'lock_user_id' | 'lock_user_label' | 'lock_expires_at'>,
  ) {
    const held = row.lock_user_id !== null && row.lock_expires_at !== null && row.lock_expires_at > clock.now()
    return {
      claimId: row.id,
      locked: held,
      heldByYou: held && row.lock_user_id === ctx.principal.userId,
      userId: held ? row.lock_user_id : null,
      user: held ? row.lock_user_label : null,
      expiresAt: held ? row.lock_expires_at!.toISOString() : null,
    }
  }

  async function visibleClaim(ctx: AuthenticatedContext, id: number): Promise<ClaimRow> {
    const row = await db.read(ctx.tenantId, (x) => repo.findClaim(x, ctx.tenantId, id))
    if (!row || !visibleTo(ctx, row)) throw notFound(id)
    return row
  }

  /** POST /claims in its unit of work: every refusal a 422 naming the field and the rule, nothing written. */
  async function intake(ctx: AuthenticatedContext, body: ClaimBody) {
    const contract = await contracts.readRow(ctx, body.contractId)
    const tenantId = ctx.tenantId
    const [terms, history, today, earlier] = await Promise.all([
      contracts.claimTermsOf(tenantId, contract),
      contracts.historyOf(tenantId, contract.id),
      contracts.today(tenantId),
      isIsoDate(body.lossDate)
        ? db.read(tenantId, (x) => repo.intakeClaimReads(x, tenantId, contract.id, body.lossDate))
        : null,
    ])
    const errors = intakeProblems(
      {
        history,
        saleDate: contract.sale_date,
        effectiveDate: contract.effective_date,
        expirationDate: contract.expiration_date,
        saleOdometer: contract.sale_odometer,
        expirationOdometer: contract.expiration_odometer,
        termMiles: contract.coverage.term.miles,
        milesBasis: (contract.coverage.term.milesBasis === 'FROM_ZERO'
          ? 'FROM_ZERO'
          : 'FROM_SALE_ODOMETER') as MilesBasis,
        waitingPeriodDays: terms.waitingPeriodDays,
        waitingPeriodMiles: terms.waitingPeriodMiles,
      },
      {
        lossDate: body.lossDate,
        odometer: body.odometer ?? null,
        today,
        earlierClaimsMaxOdometer: earlier?.earlierMaxOdometer ?? null,
      },
    )
    // A GAP benefit is a loan balance, not a repair: it has no three Cs, facility or parts, and
    // is not taken as a claim here (docs/claims.md "GAP and tire & wheel").
    if (contract.product_type === 'GAP')
      errors.push({
        field: 'contractId',
        code: 'gap_not_claimable',
        message: `contract ${contract.contract_number} is a GAP contract: GAP benefits are not taken as repair claims`,
      })
    const facility = await facilities.repairFacility(tenantId, body.repairFacilityId, contract.dealer_id)
    if (!facility)
      errors.push({
        field: 'repairFacilityId',
        code: 'not_found',
        message: `${body.repairFacilityId} is not a repair facility of the tenant`,
      })
    else if (!facility.isActive)
      errors.push({
        field: 'repairFacilityId',
        code: 'inactive',
        message: `repair facility ${facility.id} is inactive`,
      })
    const taxRate = body.taxRate ?? 0
    const taxProblem = decimalProblem(taxRate, { places: 6, min: new Decimal(0), max: new Decimal('0.999999') })
    if (taxProblem) errors.push({ field: 'taxRate', code: taxProblem.code, message: taxProblem.message })
    let texts: Awaited<ReturnType<typeof lookupTexts>> = new Map()
    const jobs = await checkJobs(tenantId, body.jobs ?? [], contract, errors, (read) => (texts = read))
    const redemption = {
      claimId: null,
      jobs: body.jobs ?? [],
      lossDate: body.lossDate,
      odometer: body.odometer ?? null,
    }
    errors.push(...(await db.read(tenantId, (x) => ppm.redemptionProblems(x, tenantId, contract, redemption))))
    const draft = {
      jobs,
      facility_labor_rate: facility?.laborRate == null ? null : new Decimal(facility.laborRate).toFixed(2),
      facility_tax_rate: taxProblem ? '0' : new Decimal(taxRate).toFixed(6),
    }
    const fig = figures(draft)
    if (!fig.ok) errors.push(...fig.errors)
    if (errors.length > 0 || !fig.ok || !facility) throw invalid(errors)

    const now = clock.now()
    const contact = storedContact(body.contact)
    const redeems = jobs.some((j) => j.ppmServiceCode !== null)
    const row = await db.transaction(tenantId, async (tx) => {
      // Two claims cannot both take a service's last use: redemptions of the contract are
      // serialized and checked again under the lock.
      if (redeems) {
        await ppm.lockRedemptions(tx, tenantId, contract.id)
        const late = await ppm.redemptionProblems(tx, tenantId, contract, redemption)
        if (late.length > 0) throw invalid(late)
      }
      // A valid loss date (or intake was refused above), so the reads ran and drew the claim's id.
      if (!earlier) throw new Error('intake: the claim id was not drawn')
      const claimId = earlier.claimId
      // The repair order's odometer is the vehicle's latest known one (expiry by mileage reads it).
      if (body.odometer != null && contracts.reportOdometer)
        await contracts.reportOdometer(tx, ctx, contract.id, {
          odometer: body.odometer,
          readOn: body.lossDate,
          source: { type: 'CLAIM', id: claimId },
        })
      const number = await numberParts(tenantId, today)
      // The number, the claim, its audit row and event in one statement, the last before the commit:
      // the counter row, which every intake of the tenant waits for, is locked from there to the
      // commit only (docs/benchmarks.md "Claims").
      const inserted = await repo.insertNumberedClaim(
        tx,
        tenantId,
        number,
        claimId,
        {
          contract_id: contract.id,
          contract_number: contract.contract_number,
          dealer_id: contract.dealer_id,
          vin: contract.vin,
          repair_facility_id: facility.id,
          repair_facility_name: facility.name,
          status: 'OPEN',
          loss_date: body.lossDate,
          odometer: body.odometer ?? null,
          reported_at: now,
          repair_order_number: body.repairOrderNumber ?? null,
          contact: contact === null ? null : JSON.stringify(contact),
          jobs: JSON.stringify(jobs),
          benefits: '[]',
          facility_labor_rate: draft.facility_labor_rate,
          facility_tax_rate: draft.facility_tax_rate,
          requested_total: stored(fig.requestedCents),
          authorized_total: stored(fig.authorizedCents),
          tax_total: stored(fig.taxCents),
          deductible_total: stored(fig.deductibleCents),
          payable_total: stored(fig.payableCents),
          paid_total: '0.00',
          created_at: now,
          created_by: actorLabel(ctx),
          created_by_user_id: ctx.principal.userId > 0 ? ctx.principal.userId : null,
          updated_at: now,
          updated_by: actorLabel(ctx),
        },
        {
          ...auditActor(ctx),
          occurred_at: now,
          action: 'claim.created',
          // claimNumber is added by the statement.
          changes: JSON.stringify({
            after: {
              contractId: contract.id,
              repairFacilityId: facility.id,
              lossDate: body.lossDate,
              odometer: body.odometer ?? null,
              jobs: jobs.length,
              requested: stored(fig.requestedCents),
            },
          }),
        },
        // claimId and claimNumber are added by the statement.
        JSON.stringify({
          contractId: contract.id,
          contractNumber: contract.contract_number,
          dealerId: contract.dealer_id,
          repairFacilityId: facility.id,
          lossDate: body.lossDate,
          requested: stored(fig.requestedCents),
        }),
      )
      return inserted
    })
    return view(row, texts)
  }

  /**
   * A refusal whose only odometer problem is the mileage limit still tells the vehicle's odometer:
   * the coverage's miles are used up, which the contract keeps (its expiry by mileage). Null otherwise.
   */
  function readingPastLimit(err: unknown, body: ClaimBody): OdometerReport | null {
    const e = err as { code?: unknown; errors?: FieldError[] }
    if (e.code !== 'claim_invalid' || !Array.isArray(e.errors)) return null
    const odometer = e.errors.filter((x) => x.field === 'odometer')
    if (odometer.length !== 1 || odometer[0]!.code !== 'at_or_above_expiration_odometer') return null
    if (typeof body.odometer !== 'number' || typeof body.lossDate !== 'string' || !isIsoDate(body.lossDate)) return null
    return { odometer: body.odometer, readOn: body.lossDate, source: { type: 'CLAIM_INTAKE', id: null } }
  }

  return {
    /**
     * POST /claims: every refusal a 422 naming the field and the rule, no claim written. One refusal
     * keeps something: a repair order at or past the mileage limit is the contract's latest known
     * odometer (docs/claims.md; the contract's expiry by mileage reads it).
     */
    async create(ctx: AuthenticatedContext, body: ClaimBody) {
      // One unit of work: the reads, the checks, the write and the reply (fewer round trips); the
      // claim number is taken last, so its counter row is held only to the commit.
      try {
        return await db.transaction(ctx.tenantId, () => intake(ctx, body))
      } catch (err) {
        // Refused past the mileage limit: no claim is kept, the reading is (in a unit of work of its
        // own; inside a request's Idempotency-Key transaction it is rolled back with the refusal).
        const reading = readingPastLimit(err, body)
        if (reading && contracts.reportOdometer) {
          const report = contracts.reportOdometer
          await db.transaction(ctx.tenantId, (tx) => report(tx, ctx, body.contractId, reading))
        }
        throw err
      }
    },

    /** PUT /claims/{id}: the edit replaces the repair order, contact, tax rate and jobs (with their decisions). */
    async update(ctx: AuthenticatedContext, id: number, edit: ClaimEdit, checkVersion: (v: number) => void) {
      return changed(ctx, id, checkVersion, () => ({ edit, decisions: null }))
    },

    /**
     * PATCH /claims/{id}: a JSON Patch or merge patch over the edit representation, the fixed members
     * and the adjuster's decisions (status, denied reason, holds, payee, adjuster, benefits).
     */
    async patch(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (v: number) => void,
    ) {
      return changed(ctx, id, checkVersion, (row, holds) => {
        const current = {
          contractId: row.contract_id,
          lossDate: row.loss_date,
          odometer: row.odometer,
          repairFacilityId: row.repair_facility_id,
          repairOrderNumber: row.repair_order_number,
          taxRate: Number(row.facility_tax_rate),
          contact: row.contact,
          jobs: row.jobs.map(jobInput),
          status: row.status,
          deniedReasonId: row.denied_reason_id,
          holds: holds.map((h) => ({ id: Number(h.id), holdReasonId: Number(h.hold_reason_id), note: h.note })),
          payee: payeeOf(row),
          adjusterUserId: row.adjuster_user_id,
          benefits: row.benefits.map(benefitInput),
        }
        const patched = applyPatch(current, body, contentType, IMMUTABLE_ON_EDIT)
        for (const key of IMMUTABLE_ON_EDIT) delete patched[key]
        validatePatched(patched)
        const p = patched as unknown as ClaimEdit & ClaimDecisions
        return {
          edit: { repairOrderNumber: p.repairOrderNumber, taxRate: p.taxRate, contact: p.contact, jobs: p.jobs },
          decisions: {
            status: p.status,
            deniedReasonId: p.deniedReasonId,
            holds: p.holds,
            payee: p.payee,
            adjusterUserId: p.adjusterUserId,
            benefits: p.benefits,
          },
        }
      })
    },

    lockedClaim,

    /** GET /claims/{id}/lock: who holds the claim's edit lock, if anyone. */
    async lockStatus(ctx: AuthenticatedContext, id: number) {
      return lockView(ctx, await visibleClaim(ctx, id))
    },

    /**
     * POST /claims/{id}/lock: takes (or renews) the edit lock for CLAIM_LOCK_MINUTES; 423 while
     * another user holds it. Any status may be locked. Audited; the claim's version stays.
     */
    async lock(ctx: AuthenticatedContext, id: number) {
      return db.transaction(ctx.tenantId, async (tx) => {
        const row = await lockedClaim(tx, ctx, id)
        const now = clock.now()
        const lock = {
          lock_user_id: ctx.principal.userId,
          lock_user_label: ctx.principal.emailAddress,
          lock_expires_at: new Date(now.getTime() + CLAIM_LOCK_MINUTES * 60_000),
        }
        await repo.setClaimLock(tx, ctx.tenantId, id, lock)
        await writeAudit(tx, ctx, now, {
          action: 'claim.locked',
          entityType: 'claim',
          entityId: id,
          changes: { expiresAt: lock.lock_expires_at.toISOString() },
        })
        return lockView(ctx, { ...row, ...lock })
      })
    },

    /** DELETE /claims/{id}/lock: releases the caller's lock (nothing to do when none is held); 423 when another user holds it. */
    async unlock(ctx: AuthenticatedContext, id: number) {
      await db.transaction(ctx.tenantId, async (tx) => {
        const row = await lockedClaim(tx, ctx, id)
        if (row.lock_user_id === null || row.lock_expires_at === null || row.lock_expires_at <= clock.now()) return
        await repo.setClaimLock(tx, ctx.tenantId, id, {
          lock_user_id: null,
          lock_user_label: null,
          lock_expires_at: null,
        })
        await writeAudit(tx, ctx, clock.now(), { action: 'claim.unlocked', entityType: 'claim', entityId: id })
      })
    },

    /** GET /claims/{id}/claimbenefits: the claim's benefit lines (rental, towing, trip interruption), in order. */
    async benefits(ctx: AuthenticatedContext, id: number) {
      return (await visibleClaim(ctx, id)).benefits.map(benefitView)
    },

    /** GET /claims/{id}: 404 for another tenant's claim or one of a dealer the caller does not see. */
    async get(ctx: AuthenticatedContext, id: number) {
      return fullView(ctx, await visibleClaim(ctx, id))
    },

    /** The claim as its documents' owner check reads it: 404 when invisible; 409 on a write to a VOIDED claim. */
    async documentsOwner(ctx: AuthenticatedContext, id: number, access: 'read' | 'write') {
      const row = await visibleClaim(ctx, id)
      if (access === 'write' && row.status === 'VOIDED')
        throw claimErrors.create('claim_state_conflict', `claim ${row.claim_number} is voided: it takes no documents`)
    },

    /**
     * POST /claims/{id}/notes: appends a note (notes are never changed or removed), audited
     * `claim_note.created` in its transaction. A claim of any status takes notes. 404 when the
     * caller cannot see the claim; 422 claim_note_invalid for blank text or a dealer-side STAFF note.
     */
    async addNote(ctx: AuthenticatedContext, id: number, body: ClaimNoteBody) {
      const visibility = body.visibility ?? 'ALL'
      const errors: FieldError[] = []
      if (body.text.trim() === '') errors.push({ field: 'text', code: 'blank', message: 'is only blanks' })
      if (visibility === 'STAFF' && !isStaff(ctx))
        errors.push({
          field: 'visibility',
          code: 'not_allowed',
          message: "STAFF notes are the administrator's staff's: a dealer-side user writes ALL notes",
        })
      const claim = await visibleClaim(ctx, id)
      if (errors.length > 0)
        throw claimErrors.create(
          'claim_note_invalid',
          `Invalid note: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
          { errors },
        )
      const tenantId = ctx.tenantId
      const now = clock.now()
      const note = await db.transaction(tenantId, async (tx) => {
        const inserted = await repo.insertClaimNote(tx, tenantId, {
          claim_id: claim.id,
          text: body.text,
          visibility,
          created_at: now,
          created_by: actorLabel(ctx),
          created_by_user_id: ctx.principal.userId > 0 ? ctx.principal.userId : null,
        })
        await writeAudit(tx, ctx, now, {
          action: 'claim_note.created',
          entityType: 'claim',
          entityId: claim.id,
          changes: { after: { noteId: Number(inserted.id), visibility, length: body.text.length } },
        })
        return inserted
      })
      return noteView(note)
    },

    /** GET /claims/{id}/notes/{noteId}: 404 for another claim's note, or a STAFF note to a dealer-side user. */
    async getNote(ctx: AuthenticatedContext, id: number, noteId: number) {
      const claim = await visibleClaim(ctx, id)
      const note = await db.read(ctx.tenantId, (x) =>
        repo.findClaimNote(x, ctx.tenantId, claim.id, noteId, isStaff(ctx)),
      )
      if (!note) throw claimErrors.create('claim_note_not_found', `claim ${id} has no note ${noteId}`)
      return noteView(note)
    },

    /** GET /claims/{id}/notes/all: the notes the caller may read, oldest first, with the count. */
    async listNotes(ctx: AuthenticatedContext, id: number, window: Window) {
      const claim = await visibleClaim(ctx, id)
      const result = await db.read(ctx.tenantId, (x) =>
        repo.listClaimNotes(x, ctx.tenantId, claim.id, isStaff(ctx), window),
      )
      return { items: result.rows.map(noteView), totalCount: result.totalCount }
    },

    /** GET /claims: the claims matching the filters the caller may see, newest first. */
    async list(ctx: AuthenticatedContext, filter: ClaimFilter, window: Window) {
      const result = await db.reportRead(ctx.tenantId, (x) =>
        repo.searchClaims(x, ctx.tenantId, filter, ctx.principal.visibleAccountHolderIds, window),
      )
      return result
    },
  }
}

export type ClaimService = ReturnType<typeof createClaimService>
