// Claims (docs/claims.md "Claims: intake, read, index", issue 14): a claim taken against a contract
// (intake), read, and listed. The rules are claim.intake.rules.ts (may the claim be taken) and
// claim.payable.rules.ts (its figures); this file gathers the facts, checks the jobs against the
// tenant's lookups and the contract's coverage, and writes the claim, its audit row and its event in
// one transaction. Contracts are read through a narrow port (ClaimContractReader), repair facilities
// through the parties module's directory.
import { writeAudit } from '../../platform/audit.ts'
import { isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { StoredClaimContact, StoredClaimJob } from '../../platform/db/schema.claims.ts'
import type { ContractStatus, CoverageSnapshot } from '../../platform/db/schema.contracts.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { applyPatch, createPatchedValidator } from '../../platform/http/patch.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { centsToDecimal, centsToNumber, Decimal, decimalProblem, parseMoney, toCents } from '../../platform/money.ts'
import type { StatusHistoryPoint } from '../contracts/index.ts'
import type { RepairFacilityForClaim } from '../parties/index.ts'
import type { ClaimTerms } from '../rating/index.ts'
import { formatContractNumber, type SettingsService } from '../settings/index.ts'
import { claimErrors } from './claim.errors.ts'
import { intakeProblems, type MilesBasis } from './claim.intake.rules.ts'
import { claimPayable, type ClaimJob } from './claim.payable.rules.ts'
import { transition } from './claim.rules.ts'
import { ClaimEditSchema } from './claim.schemas.ts'
import * as repo from './claim.repository.ts'
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
}

/** The contracts module as claims read it (visibility included: 404 for a contract the caller cannot see). */
export type ClaimContractReader = {
  readRow(ctx: AuthenticatedContext, id: number): Promise<ClaimContractRecord>
  /** The plan's claim terms of the contract (`contract.terms.claims`). */
  claimTermsOf(tenantId: number, row: ClaimContractRecord): Promise<ClaimTerms>
  /** Its status history, in the order recorded (the servicing port's historyOf). */
  historyOf(tenantId: number, contractId: number): Promise<StatusHistoryPoint[]>
  today(tenantId: number): Promise<string>
}

export type RepairFacilityReader = {
  repairFacility(tenantId: number, facilityId: number, dealerId: number): Promise<RepairFacilityForClaim | undefined>
}

export type ClaimsServiceDeps = {
  db: Database
  clock: Clock
  settings: Pick<SettingsService, 'get'>
  contracts: ClaimContractReader
  facilities: RepairFacilityReader
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
    Array<{ partNumber: string; description: string; quantity: Dec; unitPrice: Dec; taxable: boolean }> | undefined
  labor?: Array<{ operationCode?: string | null | undefined; hours: Dec; rate: Dec }> | undefined
  sublet?: Array<{ description: string; amount: Dec }> | undefined
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
const validatePatched = createPatchedValidator(ClaimEditSchema)

/** The claim's figures of its stored jobs (what the totals columns hold and the view shows per job). */
function figures(row: Pick<ClaimRow, 'jobs' | 'facility_labor_rate' | 'facility_tax_rate'>) {
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
  return claimPayable({
    jobs,
    benefits: [],
    facility: {
      laborRateCents: row.facility_labor_rate === null ? null : centsOf(row.facility_labor_rate),
      taxRate: new Decimal(row.facility_tax_rate).toString(),
    },
    // Nothing is authorized at intake: the deductible and the limits bind from authorization on.
    deductible: { amountCents: 0, type: 'STANDARD' },
    facilityLinkedToSellingDealer: false,
    terms: { deductibleApplies: 'PER_VISIT', perClaimLimit: null, benefits: [] },
    liability: { limitCents: null, paidOnOtherClaimsCents: 0, authorizedUnpaidOnOtherClaimsCents: 0 },
  })
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
    })),
    labor: j.labor.map((l) => ({
      operationCode: l.operationCode,
      hours: Number(l.hours),
      rate: centsToNumber(l.rateCents),
    })),
    sublet: j.sublet.map((s) => ({ description: s.description, amount: centsToNumber(s.requestedCents) })),
  }
}

export function createClaimService(deps: ClaimsServiceDeps) {
  const { db, clock, settings, contracts, facilities } = deps
  const documentsCount = deps.documentsCount ?? (async () => 0)

  const invalid = (errors: FieldError[]) =>
    claimErrors.create('claim_invalid', `Invalid claim: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, {
      errors,
    })
  const notFound = (id: number) => claimErrors.create('claim_not_found', `claim ${id} not found`)

  /** Whether a dealer-side caller may see a claim of `dealerId` (staff see every claim of the tenant). */
  const visible = (ctx: AuthenticatedContext, dealerId: number) =>
    ctx.principal.visibleAccountHolderIds === null || ctx.principal.visibleAccountHolderIds.has(dealerId)

  /** Every problem of the jobs' money and codes, each naming its field; the stored jobs when none. */
  async function checkJobs(
    tenantId: number,
    jobs: readonly ClaimJobInput[],
    contract: Pick<ClaimContractRecord, 'coverage'>,
    errors: FieldError[],
  ): Promise<StoredClaimJob[]> {
    const amount = (field: string, value: Dec): number | null => {
      const p = decimalProblem(value, { places: 2, min: new Decimal(0), max: MAX_AMOUNT })
      if (p) {
        errors.push({ field, code: p.code, message: p.message })
        return null
      }
      return toCents(parseMoney(value) ?? new Decimal(0))
    }
    const ids = jobs
      .flatMap((j) => [j.complaintId, j.causeId ?? null, j.correctionId ?? null])
      .filter((v) => v !== null)
    const lookups = await db.read(tenantId, (x) => repo.threeCsByIds(x, tenantId, ids as number[]))
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
      return {
        lineNumber: n + 1,
        complaintId: j.complaintId,
        causeId: j.causeId ?? null,
        correctionId: j.correctionId ?? null,
        coverageComponentCode: code,
        status: 'PENDING',
        deniedReasonId: null,
        parts: (j.parts ?? []).map((p, i) => ({
          partNumber: p.partNumber,
          description: p.description,
          quantity: String(p.quantity),
          requestedUnitCents: amount(`${at}.parts[${i}].unitPrice`, p.unitPrice) ?? 0,
          authorizedUnitCents: null,
          taxable: p.taxable,
        })),
        labor: (j.labor ?? []).map((l, i) => ({
          operationCode: l.operationCode ?? null,
          hours: String(l.hours),
          rateCents: amount(`${at}.labor[${i}].rate`, l.rate) ?? 0,
          requestedCents: null,
          authorizedCents: null,
        })),
        sublet: (j.sublet ?? []).map((s, i) => ({
          description: s.description,
          requestedCents: amount(`${at}.sublet[${i}].amount`, s.amount) ?? 0,
          authorizedCents: null,
        })),
      }
    })
  }

  async function nextNumber(tx: Parameters<typeof repo.nextClaimSequence>[0], tenantId: number): Promise<string> {
    const sequence = await repo.nextClaimSequence(tx, tenantId)
    const format = String(await settings.get(tenantId, 'claimNumberFormat'))
    return formatContractNumber(format, { formPrefix: 'CLM', sequence, date: await contracts.today(tenantId) })
  }

  async function lookupTexts(tenantId: number, rows: readonly ClaimRow[]) {
    const ids = rows.flatMap((r) => r.jobs.flatMap((j) => [j.complaintId, j.causeId, j.correctionId]))
    return db.read(tenantId, (x) => repo.threeCsByIds(x, tenantId, ids.filter((v) => v !== null) as number[]))
  }

  function totalsOf(row: ClaimRow) {
    return {
      requested: Number(row.requested_total),
      authorized: Number(row.authorized_total),
      tax: Number(row.tax_total),
      deductible: Number(row.deductible_total),
      payable: Number(row.payable_total),
      paid: Number(row.paid_total),
    }
  }

  function summaryView(row: ClaimRow) {
    return {
      id: row.id,
      claimNumber: row.claim_number,
      contractId: row.contract_id,
      contractNumber: row.contract_number,
      dealerId: row.dealer_id,
      vin: row.vin,
      status: row.status,
      lossDate: row.loss_date,
      odometer: row.odometer,
      repairFacility: { accountHolderId: row.repair_facility_id, name: row.repair_facility_name },
      repairOrderNumber: row.repair_order_number,
      adjusterUserId: row.adjuster_user_id,
      totals: totalsOf(row),
      reportedAt: row.reported_at.toISOString(),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      version: row.version,
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

  /** The claim's full view: its row, the three Cs' texts and the counts. */
  async function fullView(ctx: AuthenticatedContext, row: ClaimRow) {
    const [texts, counts] = await Promise.all([lookupTexts(ctx.tenantId, [row]), countsOf(ctx, row.id)])
    return view(row, texts, counts)
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
  ) {
    const fig = figures(row)
    if (!fig.ok) throw new Error(`claim ${row.id}: stored jobs refused by the payable rules`)
    const ref = (id: number | null) => (id === null ? null : { id, text: texts.get(id)?.name ?? '' })
    return {
      id: row.id,
      claimNumber: row.claim_number,
      contractId: row.contract_id,
      contractNumber: row.contract_number,
      dealerId: row.dealer_id,
      vin: row.vin,
      status: row.status,
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
          status: j.status,
          deniedReason: null,
          parts: j.parts.map((p, i) => ({
            partNumber: p.partNumber,
            description: p.description,
            quantity: Number(p.quantity),
            requestedUnitPrice: money(p.requestedUnitCents),
            authorizedUnitPrice: p.authorizedUnitCents === null ? null : money(p.authorizedUnitCents),
            taxable: p.taxable,
            requestedAmount: money(f.parts[i]!.requestedCents),
          })),
          labor: j.labor.map((l, i) => ({
            operationCode: l.operationCode,
            hours: Number(l.hours),
            rate: money(l.rateCents),
            requestedAmount: money(f.labor[i]!.requestedCents),
            authorizedAmount: l.authorizedCents === null ? null : money(f.labor[i]!.authorizedCents),
          })),
          sublet: j.sublet.map((s) => ({
            description: s.description,
            requestedAmount: money(s.requestedCents),
            authorizedAmount: s.authorizedCents === null ? null : money(s.authorizedCents),
          })),
          requestedTotal: money(f.requestedCents),
          authorizedTotal: money(f.authorizedCents),
        }
      }),
      benefits: [] as unknown[],
      inspection: null,
      totals: totalsOf(row),
      payee: row.payee_type === null ? null : { claimPayeeId: row.payee_account_holder_id, type: row.payee_type },
      paymentRequests: [] as unknown[],
      notesCount: counts.notesCount,
      documentsCount: counts.documentsCount,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      version: row.version,
    }
  }

  /**
   * An edit in one transaction: the row locked, 404 when invisible, 423 while another user holds
   * its edit lock, 409 when its status allows no edit (transition EDIT), If-Match checked; then the
   * jobs checked as at intake (422 claim_invalid), stored PENDING, the totals recomputed, audited.
   */
  async function edited(
    ctx: AuthenticatedContext,
    id: number,
    checkVersion: (v: number) => void,
    editOf: (row: ClaimRow) => ClaimEdit,
  ) {
    const seen = await visibleClaim(ctx, id)
    // The coverage the jobs are checked against: the contract's, as the caller may see it.
    const contract = await contracts.readRow(ctx, seen.contract_id).catch(() => {
      throw notFound(id)
    })
    const tenantId = ctx.tenantId
    const row = await db.transaction(tenantId, async (tx) => {
      const locked = await repo.lockClaim(tx, tenantId, id)
      if (!locked || !visible(ctx, locked.dealer_id)) throw notFound(id)
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
          {
            extensions: { lockedBy: locked.lock_user_label, lockExpiresAt: locked.lock_expires_at.toISOString() },
          },
        )
      const step = transition(locked.status, 'EDIT', {
        openHolds: 0,
        today: await contracts.today(tenantId),
        authorization: null,
        hasAuthorizedLines: false,
        hasDeniedReason: false,
        payableCents: centsOf(locked.payable_total),
        paidCents: centsOf(locked.paid_total),
      })
      if (!step.ok) throw claimErrors.create('claim_state_conflict', `claim ${locked.claim_number}: ${step.message}`)
      checkVersion(locked.version)
      const edit = editOf(locked)
      const errors: FieldError[] = []
      const taxProblem = decimalProblem(edit.taxRate, { places: 6, min: new Decimal(0), max: new Decimal('0.999999') })
      if (taxProblem) errors.push({ field: 'taxRate', code: taxProblem.code, message: taxProblem.message })
      const jobs = await checkJobs(tenantId, edit.jobs, contract, errors)
      const draft = {
        jobs,
        facility_labor_rate: locked.facility_labor_rate,
        facility_tax_rate: taxProblem ? '0' : new Decimal(edit.taxRate).toFixed(6),
      }
      const fig = figures(draft)
      if (!fig.ok) errors.push(...fig.errors)
      if (errors.length > 0 || !fig.ok) throw invalid(errors)
      const changed = await repo.updateClaim(tx, tenantId, id, {
        repair_order_number: edit.repairOrderNumber ?? null,
        contact: edit.contact == null ? null : JSON.stringify(storedContact(edit.contact)),
        jobs: JSON.stringify(jobs),
        facility_tax_rate: draft.facility_tax_rate,
        requested_total: stored(fig.requestedCents),
        authorized_total: stored(fig.authorizedCents),
        tax_total: stored(fig.taxCents),
        deductible_total: stored(fig.deductibleCents),
        payable_total: stored(fig.payableCents),
        updated_at: now,
        updated_by: actorLabel(ctx),
      })
      await writeAudit(tx, ctx, now, {
        action: 'claim.updated',
        entityType: 'claim',
        entityId: id,
        changes: {
          before: {
            repairOrderNumber: locked.repair_order_number,
            taxRate: locked.facility_tax_rate,
            jobs: locked.jobs.length,
            requested: locked.requested_total,
          },
          after: {
            repairOrderNumber: changed.repair_order_number,
            taxRate: changed.facility_tax_rate,
            jobs: jobs.length,
            requested: changed.requested_total,
          },
        },
      })
      return changed
    })
    return fullView(ctx, row)
  }

  async function visibleClaim(ctx: AuthenticatedContext, id: number): Promise<ClaimRow> {
    const row = await db.read(ctx.tenantId, (x) => repo.findClaim(x, ctx.tenantId, id))
    if (!row || !visible(ctx, row.dealer_id)) throw notFound(id)
    return row
  }

  return {
    /** POST /claims: every refusal a 422 naming the field and the rule, nothing written. */
    async create(ctx: AuthenticatedContext, body: ClaimBody) {
      const contract = await contracts.readRow(ctx, body.contractId)
      const tenantId = ctx.tenantId
      const [terms, history, today, earlier] = await Promise.all([
        contracts.claimTermsOf(tenantId, contract),
        contracts.historyOf(tenantId, contract.id),
        contracts.today(tenantId),
        isIsoDate(body.lossDate)
          ? db.read(tenantId, (x) => repo.earlierClaimsMaxOdometer(x, tenantId, contract.id, body.lossDate))
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
        { lossDate: body.lossDate, odometer: body.odometer ?? null, today, earlierClaimsMaxOdometer: earlier },
      )
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
      const jobs = await checkJobs(tenantId, body.jobs ?? [], contract, errors)
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
      const row = await db.transaction(tenantId, async (tx) => {
        const number = await nextNumber(tx, tenantId)
        const inserted = await repo.insertClaim(tx, tenantId, {
          claim_number: number,
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
        })
        await writeAudit(tx, ctx, now, {
          action: 'claim.created',
          entityType: 'claim',
          entityId: inserted.id,
          changes: {
            after: {
              claimNumber: number,
              contractId: contract.id,
              repairFacilityId: facility.id,
              lossDate: body.lossDate,
              odometer: body.odometer ?? null,
              jobs: jobs.length,
              requested: stored(fig.requestedCents),
            },
          },
        })
        await appendEvent(tx, tenantId, now, {
          type: 'claim.created',
          payload: {
            claimId: inserted.id,
            claimNumber: number,
            contractId: contract.id,
            contractNumber: contract.contract_number,
            dealerId: contract.dealer_id,
            repairFacilityId: facility.id,
            lossDate: body.lossDate,
            requested: stored(fig.requestedCents),
          },
        })
        return inserted
      })
      return view(row, await lookupTexts(tenantId, [row]))
    },

    /** PUT /claims/{id}: the edit replaces the repair order, contact, tax rate and jobs. */
    async update(ctx: AuthenticatedContext, id: number, edit: ClaimEdit, checkVersion: (v: number) => void) {
      return edited(ctx, id, checkVersion, () => edit)
    },

    /** PATCH /claims/{id}: a JSON Patch or merge patch over the edit representation (and the fixed members). */
    async patch(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (v: number) => void,
    ) {
      return edited(ctx, id, checkVersion, (row) => {
        const current = {
          contractId: row.contract_id,
          lossDate: row.loss_date,
          odometer: row.odometer,
          repairFacilityId: row.repair_facility_id,
          repairOrderNumber: row.repair_order_number,
          taxRate: Number(row.facility_tax_rate),
          contact: row.contact,
          jobs: row.jobs.map(jobInput),
        }
        const patched = applyPatch(current, body, contentType, IMMUTABLE_ON_EDIT)
        for (const key of IMMUTABLE_ON_EDIT) delete patched[key]
        validatePatched(patched)
        return patched as unknown as ClaimEdit
      })
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
      return { items: result.rows.map(summaryView), totalCount: result.totalCount }
    },
  }
}

export type ClaimService = ReturnType<typeof createClaimService>
