// The servicing port (docs/contracts.md "Servicing port"): how the modules that change a contract
// after the sale (cancellations, claims, processes) lock it, move it through the state machine and
// read its history and terms, always inside the caller's transaction. Every status change goes
// through the status recorder (contract-history.ts): a history row, an audit record, an outbox
// event and the parties' last contract date, so no caller keeps them itself.
import type { Transaction } from 'kysely'
import { isIsoDate } from '../../platform/calendar.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type {
  ContractStatus,
  CoverageSnapshot,
  FinanceSnapshot,
  LienHolderSnapshot,
  PricingSnapshot,
  VehicleSnapshot,
} from '../../platform/db/schema.contracts.ts'
import type { DB, JsonValue } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { isStorableId } from '../../platform/ids.ts'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import * as auto from './contract-autoprocess.repository.ts'
import { readingRefusal, type OdometerSource } from './contract-autoprocess.rules.ts'
import type { Window } from '../../platform/http/pagination.ts'
import {
  recordedContract,
  toStatusChange,
  type ContractEventSource,
  type RecordedChange,
  type StatusChange,
} from './contract-history.ts'
import { contractErrors } from './contract.errors.ts'
import * as repo from './contract.repository.ts'
import { statusOn, type ContractEvent } from './contract.rules.ts'
import type { ChangeFacts, ContractCore } from './contract.service.ts'
import type { ContractTerms } from './contract-terms.ts'

/** The status changes a servicing module may apply (finalization posts and is the contract routes' own). */
export type ServicingEvent = Extract<ContractEvent, 'ACTIVATE' | 'VOID' | 'EXPIRE' | 'CANCEL' | 'REINSTATE'>

/**
 * A contract as a servicing module needs it, read under the row lock. The one lockForEvent answers
 * also stands for that lock: given back to termsOf, settleSalePostings or applyTransition in the
 * same transaction, it is used as it is instead of locking and reading the row again (a cancel
 * locks its contract once); anywhere else, or given as an id, the contract is locked afresh.
 */
export type ServicedContract = {
  id: number
  contractNumber: string
  /** The status the event is judged from: a finalized contract in effect is ACTIVE (currentStatus). */
  status: ContractStatus
  /** The row version (ETag); a status change increments it. */
  version: number
  dealerId: number
  customerId: number
  productType: string
  productId: number
  planId: number
  rateBookId: number
  saleDate: string
  effectiveDate: string
  expirationDate: string
  saleOdometer: number | null
  expirationOdometer: number | null
  /** What was sold (product, plan, term with months and miles, the rate-book version, …). */
  coverage: CoverageSnapshot
  /** Every amount in whole cents; each priced line with its payee; the options. */
  pricing: PricingSnapshot
  vehicle: VehicleSnapshot
  finance: FinanceSnapshot | null
  lien: { lienHolderId: number | null; holder: LienHolderSnapshot | null }
  /** The terms snapshot as stored, null for a contract sold before snapshots: termsOf resolves and keeps it. */
  terms: ContractTerms | null
  finalizedAt: string | null
  journalEntryIds: number[]
  /** The day of its latest transfer to a new owner (docs/contracts.md "Transfers"), or null. */
  transferredOn: string | null
  /** When it was written (a pending contract is voided automatically `pendingContractVoidAfterDays` later). */
  createdAt: string
  /** The latest known odometer (reportOdometer), or null: an EXPIRE without `facts.odometer` is judged with it. */
  lastOdometer: LastOdometer | null
}

/** A contract's latest known odometer: the reading, the day it was read, where it came from. */
export type LastOdometer = {
  odometer: number
  readOn: string
  source: { type: OdometerSource; id: number | null }
}

/** An odometer reading reported to a contract (reportOdometer). */
export type OdometerReport = {
  odometer: number
  /** The day the vehicle showed it (a claim's loss date). */
  readOn: string
  /** CLAIM: an accepted claim (its id); CLAIM_INTAKE: a claim refused because the coverage's miles are used up. */
  source: { type: OdometerSource; id?: number | null | undefined }
}

export type TransitionRequest = {
  event: ServicingEvent
  /** The day from which the contract is in its new status (a cancellation's cancel date). */
  effectiveDate: string
  source: ContractEventSource
  /** EXPIRE by mileage: the odometer reading that reached the expiration odometer. */
  facts?: { odometer?: number | null | undefined } | undefined
  /** More for the audit record (the cancellation's refund, a claim number…). */
  details?: Record<string, JsonValue> | undefined
}

export type AppliedTransition = RecordedChange & {
  contractId: number
  contractNumber: string
  event: ServicingEvent
  fromStatus: ContractStatus
  toStatus: ContractStatus
  effectiveDate: string
  /** A finalized contract in effect had its activation recorded first (its own history row and event). */
  activatedFirst: boolean
}

/**
 * The port. `tx` is the caller's transaction (`db.transaction(ctx.tenantId, …)`); nothing here
 * commits. 404 contract_not_found (unknown, another tenant's, or a dealer the user cannot see),
 * 423 contract_locked (another user's edit lock), 409 when the state machine refuses the event
 * (contract_state_conflict, contract_not_expired, contract_not_effective, contract_cancel_after_expiration).
 */
export type ContractServicing = {
  /** Locks the contract for `event` until `tx` ends and checks that the event may happen (as of `facts.effectiveDate`, default today). */
  lockForEvent(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contractId: number,
    event: ServicingEvent,
    facts?: ChangeFacts,
  ): Promise<ServicedContract>
  /**
   * Checks the rules again (on the row already locked when given lockForEvent's answer of `tx`),
   * writes the status, the history row, the audit record and `contract.<event>` to the outbox.
   */
  applyTransition(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contract: number | ServicedContract,
    request: TransitionRequest,
  ): Promise<AppliedTransition>
  /** The contract's status changes, oldest first; through `tx` when given (else the ambient transaction of the tenant, if any). */
  historyOf(tenantId: number, contractId: number, tx?: Transaction<DB>): Promise<StatusChange[]>
  /** Its status on `date` (statusOn of contract.rules.ts); null before it existed. */
  statusOn(tenantId: number, contractId: number, date: string, tx?: Transaction<DB>): Promise<ContractStatus | null>
  /**
   * The terms the contract is sold under (contract-terms.ts), under its row lock; a contract sold
   * before snapshots gets them resolved from its own rate-book version and written back.
   */
  termsOf(tx: Transaction<DB>, ctx: AuthenticatedContext, contract: number | ServicedContract): Promise<ContractTerms>
  /**
   * Under the row lock, brings the contract's sale postings to what its lines call for (the
   * refinalize difference, CONTRACT_REFINALIZED, no PDF): call it before posting a cancel or earnings,
   * so an old contract's administrator lines are in UNEARNED_REVENUE (decision 0012). The entry's id,
   * or null when nothing differed or the contract was never finalized.
   */
  settleSalePostings(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contract: number | ServicedContract,
  ): Promise<number | null>
  /**
   * Keeps an odometer reading as the contract's latest known odometer (docs/contracts.md "Automatic
   * expiry and voiding"), under its row lock, with the audit record `contract.odometer_recorded`;
   * a reading the rules do not take (readingRefusal: out of range, in the future, before the
   * effective date, older than the kept one, a contract never sold) is left aside. Whether it was kept.
   * 404 for a contract the caller cannot see. Not a change of the contract (no new version).
   */
  reportOdometer(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contractId: number,
    reading: OdometerReport,
  ): Promise<boolean>
}

export type ServicingPorts = {
  db: Database
  clock: Clock
  core: ContractCore
  settle: (ctx: AuthenticatedContext, row: repo.ContractRow) => Promise<number | null>
}

/**
 * The row behind each ServicedContract lockForEvent answered, with the transaction holding its lock
 * and the tenant it was read for: weakly held, so a handle and its row go with the caller's work.
 * The row is kept current with what the port writes to it (terms, sale postings, status).
 */
const lockedRows = new WeakMap<
  ServicedContract,
  { tx: Transaction<DB>; tenantId: number; visible: ReadonlySet<number> | null; row: repo.ContractRow }
>()

export function createContractServicing({ db, clock, core, settle }: ServicingPorts) {
  const notFound = (id: number) => contractErrors.create('contract_not_found', `no contract ${id}`)

  /** The row `contract` stands for, locked in `tx`: the handle's own when it was locked there, else locked now. */
  const lockedRow = async (tx: Transaction<DB>, ctx: AuthenticatedContext, contract: number | ServicedContract) => {
    if (typeof contract !== 'number') {
      const held = lockedRows.get(contract)
      // The same transaction, tenant and visibility as the lock's: anything else locks (and filters) afresh.
      if (
        held &&
        held.tx === tx &&
        held.tenantId === ctx.tenantId &&
        held.visible === ctx.principal.visibleAccountHolderIds
      )
        return held.row
    }
    return core.lockRow(tx, ctx, typeof contract === 'number' ? contract : contract.id)
  }

  const port: ContractServicing = {
    async lockForEvent(tx, ctx, contractId, event, facts = {}) {
      if (facts.effectiveDate !== undefined) assertDate(facts.effectiveDate)
      // forChange's lock and checks, an expiry judged with the kept odometer when none is given.
      const locked = await core.lockRow(tx, ctx, contractId)
      const { row, from } = await core.judgeChange(tx, ctx, locked, event, {
        ...facts,
        odometer: odometerFor(event, facts.odometer, locked),
      })
      const contract = serviced(row, from)
      lockedRows.set(contract, { tx, tenantId: ctx.tenantId, visible: ctx.principal.visibleAccountHolderIds, row })
      return contract
    },

    async applyTransition(tx, ctx, target, request) {
      assertDate(request.effectiveDate)
      const { event, effectiveDate, source } = request
      // Every check of forChange, on the row as locked (by lockForEvent in this transaction, or now).
      const locked = await lockedRow(tx, ctx, target)
      const { row, from, to, now } = await core.judgeChange(tx, ctx, locked, event, {
        effectiveDate,
        odometer: odometerFor(event, request.facts?.odometer, locked),
      })
      const contract = recordedContract(row)
      // Judged from ACTIVE while stored FINALIZED: the activation is recorded first, as of the effective date.
      const activatedFirst = row.status !== from
      if (activatedFirst)
        await core.recorder.record(tx, ctx, {
          contract,
          event: 'ACTIVATE',
          from: row.status,
          to: from,
          effectiveDate: row.effective_date,
          source: { type: 'CONTRACT' },
          at: now,
        })
      // The status written by the recorder's statement, with the history row, audit record and event.
      const recorded = await core.recorder.record(tx, ctx, {
        contract,
        event,
        from,
        to,
        effectiveDate,
        source,
        at: now,
        audit: request.details,
        writeStatus: true,
      })
      // The locked row as it now stands, for whatever the caller does next with its handle.
      row.status = to
      row.version += 1
      row.updated_at = now
      return {
        ...recorded,
        contractId: row.id,
        contractNumber: row.contract_number,
        event,
        fromStatus: from,
        toStatus: to,
        effectiveDate,
        activatedFirst,
      }
    },

    async historyOf(tenantId, contractId, tx) {
      const read = (x: Executor) => repo.listStatusHistory(x, tenantId, contractId)
      const rows = tx ? await read(tx) : await db.read(tenantId, read)
      return rows.map(toStatusChange)
    },

    async statusOn(tenantId, contractId, date, tx) {
      assertDate(date)
      const read = async (x: Executor) => {
        const row = isStorableId(contractId) ? await repo.findContract(x, tenantId, contractId, null) : undefined
        if (!row) throw notFound(contractId)
        const history = await repo.listStatusHistory(x, tenantId, contractId)
        return statusOn(
          history.map((h) => ({ toStatus: h.to_status, effectiveDate: h.effective_date })),
          date,
          { effectiveDate: row.effective_date },
        )
      }
      return tx ? read(tx) : db.read(tenantId, read)
    },

    async settleSalePostings(tx, ctx, contract) {
      const row = await lockedRow(tx, ctx, contract)
      const entryId = await settle(ctx, row)
      if (entryId !== null) row.journal_entry_ids = [...row.journal_entry_ids, entryId]
      return entryId
    },

    async reportOdometer(tx, ctx, contractId, reading) {
      const row = isStorableId(contractId)
        ? await auto.lockOdometer(tx, ctx.tenantId, contractId, ctx.principal.visibleAccountHolderIds)
        : undefined
      if (!row) throw notFound(contractId)
      const current =
        row.last_odometer === null || row.last_odometer_on === null
          ? null
          : { odometer: row.last_odometer, readOn: row.last_odometer_on }
      const refusal = readingRefusal(
        { status: row.status, effectiveDate: row.effective_date, current },
        { odometer: reading.odometer, readOn: reading.readOn },
        await core.today(ctx.tenantId),
      )
      if (refusal !== null) return false
      const source = { type: reading.source.type, id: reading.source.id ?? null }
      await auto.writeOdometer(tx, ctx.tenantId, row.id, {
        odometer: reading.odometer,
        readOn: reading.readOn,
        source: source.type,
        sourceId: source.id,
      })
      await writeAudit(tx, ctx, clock.now(), {
        action: 'contract.odometer_recorded',
        entityType: 'contract',
        entityId: row.id,
        changes: {
          before: current && {
            ...current,
            source: { type: row.last_odometer_source, id: row.last_odometer_source_id },
          },
          after: { odometer: reading.odometer, readOn: reading.readOn, source },
        },
      })
      return true
    },

    async termsOf(tx, ctx, contract) {
      // Under the row lock: a contract sold before snapshots gets its terms resolved from its own
      // rate-book version and written back, once.
      const row = await lockedRow(tx, ctx, contract)
      const terms = await core.ensureTerms(tx, ctx.tenantId, row)
      row.terms = terms as unknown as repo.ContractRow['terms']
      if (typeof contract !== 'number') contract.terms = terms
      return terms
    },
  }

  return {
    port,

    /** GET /api/contracts/{contractId}/statushistory: visible as the contract is; oldest first. */
    async statusHistory(ctx: AuthenticatedContext, contractId: number, window: Window) {
      await core.readRow(ctx, contractId)
      return db.read(ctx.tenantId, async (x) => {
        const rows = await repo.listStatusHistory(x, ctx.tenantId, contractId, window)
        const totalCount = await repo.countStatusHistory(x, ctx.tenantId, contractId)
        return { items: rows.map(toStatusChange), totalCount }
      })
    },
  }
}

export type ContractServicingService = ReturnType<typeof createContractServicing>

function serviced(row: repo.ContractRow, status: ContractStatus): ServicedContract {
  return {
    id: row.id,
    contractNumber: row.contract_number,
    status,
    version: row.version,
    dealerId: row.dealer_id,
    customerId: row.customer_id,
    productType: row.product_type,
    productId: row.product_id,
    planId: row.plan_id,
    rateBookId: row.rate_book_id,
    saleDate: row.sale_date,
    effectiveDate: row.effective_date,
    expirationDate: row.expiration_date,
    saleOdometer: row.sale_odometer,
    expirationOdometer: row.expiration_odometer,
    coverage: row.coverage,
    pricing: row.pricing,
    vehicle: row.vehicle,
    finance: row.finance,
    lien: { lienHolderId: row.lien_holder_id, holder: row.lien_holder },
    terms: row.terms as ContractTerms | null,
    finalizedAt: row.finalized_at ? row.finalized_at.toISOString() : null,
    journalEntryIds: row.journal_entry_ids,
    transferredOn: row.transferred_on === null ? null : String(row.transferred_on).slice(0, 10),
    createdAt: row.created_at.toISOString(),
    lastOdometer:
      row.last_odometer === null || row.last_odometer_on === null
        ? null
        : {
            odometer: row.last_odometer,
            readOn: row.last_odometer_on,
            source: {
              type: row.last_odometer_source as OdometerSource,
              id: row.last_odometer_source_id === null ? null : Number(row.last_odometer_source_id),
            },
          },
  }
}

/** The odometer an event is judged with: the caller's; for an expiry without one, the contract's latest known. */
function odometerFor(
  event: ContractEvent,
  given: number | null | undefined,
  row: repo.ContractRow,
): number | null | undefined {
  return given !== undefined ? given : event === 'EXPIRE' ? row.last_odometer : undefined
}

/** A date the caller states is a programming matter, not the user's: a bad one is a fault (500), not a 4xx. */
function assertDate(date: string): void {
  if (!isIsoDate(date)) throw new RangeError(`${JSON.stringify(date)} is not a date YYYY-MM-DD`)
}
