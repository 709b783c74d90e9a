// A contract's earnings (docs/earnings.md): the earning details (each priced line earned by its
// method from the contract's terms snapshot, as of a date, with its schedule by calendar month and
// what the earnings runs posted), and the earnings sync (decision 0012): under the contract's row
// lock, its sale postings settled first, one EARNINGS_RECOGNIZED entry moving what is due of the
// administrator's own lines from UNEARNED_REVENUE to ADMINISTRATOR_REVENUE. What is due is always
// earned-to-date minus what the runs posted (cumulative), so a repeated sync posts nothing.
import type { Transaction } from 'kysely'
import { writeAudit, writeAudits, type AuditRecord } from '../../platform/audit.ts'
import { isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import type { DB, JsonValue } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { AppError } from '../../platform/http/errors.ts'
import { centsToDecimal, centsToNumber } from '../../platform/money.ts'
import {
  earnedToDate,
  earningsAsOf,
  earningsDue,
  earningsSchedule,
  type EarningsDates,
  type LedgerService,
  type PostEntryInput,
} from '../finance/index.ts'
import type { ContractParties } from '../parties/index.ts'
import { contractErrors } from './contract.errors.ts'
import { defineErrors } from '../../platform/http/errors.ts'
import * as earningsRepo from './contract-earnings.repository.ts'
import * as repo from './contract.repository.ts'
import { differenceLines, finalizationLines, type PostingLine } from './contract.rules.ts'
import type { ContractServicing } from './contract-servicing.service.ts'
import type { ContractTerms } from './contract-terms.ts'
import type { ContractCore } from './contract.service.ts'

export type EarningDetailsQuery = { asOf?: string | undefined; schedule?: boolean | undefined }

/** The statuses an earnings run looks at by default: every contract that was sold. */
export const SYNCABLE_STATUSES = ['FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED'] as const satisfies ContractStatus[]
export type SyncableStatus = (typeof SYNCABLE_STATUSES)[number]

/** Contracts of a run synced together, set-based, in one transaction (syncBatch). */
export const RUN_BATCH_SIZE = 500
/**
 * Batches of a run synced at once, each in its own transaction on its own connection (so the
 * database works on one while the service prepares another): they share nothing but the
 * administrator's accounts, which the ledger creates race-free (on conflict do nothing). The cursor
 * is saved once they are all done, so a resumed run redoes at most RUN_BATCH_SIZE ×
 * RUN_BATCHES_AT_ONCE contracts, which post nothing new.
 */
export const RUN_BATCHES_AT_ONCE = 3
/**
 * Contracts a batch left to the per-contract sync (syncIn) synced at once, each in its own
 * transaction on its own connection.
 */
export const RUN_CONCURRENCY = 4
/** At most this many per-contract errors are kept on a run (the count of failures is always exact). */
export const MAX_RUN_ERRORS = 100

export type SyncLine = {
  code: string
  /** round(A·f(asOf)): what the line should have earned by then. */
  earnedToDate: number
  /** What earnings runs posted for it before this sync. */
  earnedPosted: number
  /** earnedToDate − earnedPosted: what this sync posts (negative: Dr ADMINISTRATOR_REVENUE / Cr UNEARNED_REVENUE). */
  due: number
}

export type SyncResult = {
  contractId: number
  contractNumber: string
  status: ContractStatus
  /** The date earned-to-date was computed as of (the cancel date when asked later than it). */
  asOf: string
  requestedAsOf: string
  earningsStoppedOn: string | null
  /** POSTED: an entry was posted; NOTHING_DUE: every line was up to date (or a cancel entry settled them). */
  outcome: 'POSTED' | 'NOTHING_DUE'
  /** The administrator's own lines (third-party lines are their payees' sub-ledger: never posted here). */
  lines: SyncLine[]
  totalDue: number
  entryId: number | null
  runId: number | null
  /** The CONTRACT_REFINALIZED entry that moved an old contract's administrator lines to UNEARNED_REVENUE first. */
  settlementEntryId: number | null
  /** A CONTRACT_CANCELLED entry (not reversed) cleared the lines: nothing more is earned by runs. */
  settledByCancel: boolean
}

export type UpdateEarningsInput = {
  asOf?: string | undefined
  dealerId?: number | undefined
  productType?: string | undefined
  contractIds?: number[] | undefined
  statuses?: SyncableStatus[] | undefined
  /** Resume this run (still RUNNING) after its cursor, with its own filters and date. */
  runId?: number | undefined
  /** Examine at most this many contracts in this call; the run stays RUNNING when more remain. */
  limit?: number | undefined
}

type RunFilters = {
  dealerId: number | null
  productType: string | null
  contractIds: number[] | null
  statuses: SyncableStatus[]
}

type RunRow = {
  id: number
  scope: string
  status: 'RUNNING' | 'COMPLETED'
  as_of: string
  filters: RunFilters
  cursor_contract_id: number | null
  examined: number
  posted: number
  nothing_due: number
  failed: number
  errors: JsonValue[]
  started_at: Date
  finished_at: Date | null
}

export const earningsErrors = defineErrors({
  earnings_run_not_found: { status: 404, title: 'Earnings run not found' },
  earnings_run_completed: { status: 409, title: 'The earnings run is already completed' },
})

export type EarningsDeps = {
  db: Database
  clock: Clock
  core: ContractCore
  ledger: LedgerService
  parties: Pick<ContractParties, 'administratorId'>
  servicing: ContractServicing
}

export function createContractEarnings({ db, clock, core, ledger, parties, servicing }: EarningsDeps) {
  const unprocessable = (field: string, message: string) =>
    contractErrors.create('contract_invalid', `${field} ${message}`, {
      errors: [{ field, code: 'out_of_range', message }],
    })

  /** asOf as asked, default today; never after today (a run does not earn ahead). */
  async function requestedAsOf(tenantId: number, asOf: string | undefined): Promise<string> {
    const today = await core.today(tenantId)
    if (asOf === undefined) return today
    if (!isIsoDate(asOf)) throw unprocessable('asOf', 'must be a date YYYY-MM-DD')
    if (asOf > today) throw unprocessable('asOf', `must not be after today (${today})`)
    return asOf
  }

  /**
   * One contract's sync, in `tx` (the caller's transaction: the route's own, or one per contract of
   * a run). `runId` is the run the entry is posted for; null: a run of this one contract is
   * recorded when something is due. Throws 404 (unknown, invisible), 409 (pending or voided).
   */
  async function syncIn(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contractId: number,
    requested: string,
    runId: number | null,
  ): Promise<SyncResult> {
    const row = await core.lockRow(tx, ctx, contractId)
    if (row.status === 'PENDING' || row.status === 'VOIDED')
      throw contractErrors.create(
        'contract_state_conflict',
        `contract ${row.contract_number} is ${row.status.toLowerCase()}: only a sold contract earns`,
      )
    const terms = await core.ensureTerms(tx, ctx.tenantId, row)
    const cancelledOn = row.status === 'CANCELLED' ? await lastCancelDate(tx, ctx.tenantId, row.id) : null
    const settlementEntryId = await servicing.settleSalePostings(tx, ctx, row.id)
    const settledByCancel =
      row.status === 'CANCELLED' && (await earningsRepo.cancelEntryStands(tx, ctx.tenantId, row.id))
    const [administratorId, posted] = await Promise.all([
      parties.administratorId(ctx.tenantId),
      ledger.earnedByCode(ctx.tenantId, row.id),
    ])
    const { asOf, lines, dueLines } = reckon(
      { ...row, lines: row.pricing.lines, term_months: row.coverage.term.months },
      terms,
      {
        requested,
        cancelledOn,
        settledByCancel,
        administratorId,
        posted,
      },
    )
    let entryId: number | null = null
    let run = runId
    if (dueLines.length > 0) {
      const now = clock.now()
      if (run === null) run = await insertRun(tx, ctx, 'CONTRACT', asOf, { contractIds: [row.id] }, now, true)
      const entry = await ledger.post(
        ctx,
        earningsEntry(row, asOf, run, dueLines, administratorId, await ledger.postingDate(ctx.tenantId)),
      )
      entryId = entry.entryId
      await writeAudit(tx, ctx, now, syncedAudit(row.id, asOf, run, entryId, dueLines))
    }
    const totalDue = lines.reduce((s, l) => s + l.cents, 0)
    return {
      contractId: row.id,
      contractNumber: row.contract_number,
      status: row.status,
      asOf,
      requestedAsOf: requested,
      earningsStoppedOn: cancelledOn,
      outcome: entryId === null ? 'NOTHING_DUE' : 'POSTED',
      lines: lines.map((l) => ({
        code: l.code,
        earnedToDate: centsToNumber(l.earnedToDate),
        earnedPosted: centsToNumber(l.earnedPosted),
        due: centsToNumber(l.due),
      })),
      totalDue: centsToNumber(totalDue),
      entryId,
      runId: entryId === null ? null : run,
      settlementEntryId,
      settledByCancel,
    }
  }

  /**
   * A run's batch, set-based (docs/earnings.md "Runs"): in one transaction, the batch's contracts
   * locked in id order (SKIP LOCKED), what the per-contract sync reads of them read in a few
   * statements, each one reckoned exactly as syncIn does, and the entries (one per contract that has
   * something due) posted together with their audit records. What the batch does not settle is
   * returned in `rest`, for syncIn one by one, which then records its error or waits for its lock:
   * a contract locked by someone else, gone or no longer sold; one without a terms snapshot yet (it
   * is written on first use), or whose sale postings need settling first (an old contract); one
   * whose reckoning throws. When the batch's writes fail, nothing of it stays and every contract of
   * it is in `rest`.
   */
  async function syncBatch(
    ctx: AuthenticatedContext,
    ids: readonly number[],
    requested: string,
    runId: number,
  ): Promise<{ posted: number; nothingDue: number; rest: number[] }> {
    const tenantId = ctx.tenantId
    try {
      return await db.transaction(tenantId, async (tx) => {
        const locked = await earningsRepo.lockBatch(tx, tenantId, ids, ctx.principal.visibleAccountHolderIds)
        const sold = locked.filter((r) => r.status !== 'PENDING' && r.status !== 'VOIDED' && r.earnings !== null)
        const soldIds = sold.map((r) => r.id)
        const cancelled = sold.filter((r) => r.status === 'CANCELLED').map((r) => r.id)
        const [administratorId, cancelDates, cancelStands, postedByContract, saleNets, postingDate] = await Promise.all(
          [
            parties.administratorId(tenantId),
            earningsRepo.lastCancelDates(tx, tenantId, cancelled),
            earningsRepo.cancelEntriesStand(tx, tenantId, cancelled),
            ledger.earnedByCodeOf(tenantId, soldIds),
            ledger.netsBySource(
              tenantId,
              'CONTRACT',
              sold.filter((r) => r.finalized_at !== null).map((r) => r.id),
            ),
            ledger.postingDate(tenantId),
          ],
        )
        const done = new Set<number>()
        const entries: PostEntryInput[] = []
        const synced: Array<{ id: number; asOf: string; dueLines: ReckonedLine[] }> = []
        let nothingDue = 0
        for (const row of sold) {
          try {
            // settleSalePostings would post a difference: left to syncIn, which posts it first.
            // differenceLines nets by account and code, so the nets the sale entries posted stand for their lines.
            if (row.finalized_at !== null) {
              const posted: PostingLine[] = (saleNets.get(row.id) ?? []).map((n) => ({
                accountHolderId: n.accountHolderId,
                purpose: n.purpose as PostingLine['purpose'],
                side: n.netCents > 0 ? 'DEBIT' : 'CREDIT',
                cents: Math.abs(n.netCents),
                ...(n.disbursementCode === null ? {} : { disbursementCode: n.disbursementCode }),
              }))
              const wanted = finalizationLines({ dealerId: row.dealer_id, administratorId }, row.lines)
              if (differenceLines(wanted, posted).length > 0) continue
            }
            const { asOf, dueLines } = reckon(
              row,
              { earnings: row.earnings! },
              {
                requested,
                cancelledOn: row.status === 'CANCELLED' ? (cancelDates.get(row.id) ?? null) : null,
                settledByCancel: row.status === 'CANCELLED' && cancelStands.has(row.id),
                administratorId,
                posted: postedByContract.get(row.id) ?? new Map(),
              },
            )
            if (dueLines.length > 0) {
              entries.push(earningsEntry(row, asOf, runId, dueLines, administratorId, postingDate))
              synced.push({ id: row.id, asOf, dueLines })
            } else nothingDue++
            done.add(row.id)
          } catch {
            // syncIn reckons it again and records what fails.
          }
        }
        const entryIds = await ledger.postMany(ctx, entries)
        await writeAudits(
          tx,
          ctx,
          clock.now(),
          synced.map((c, i) => syncedAudit(c.id, c.asOf, runId, entryIds[i]!, c.dueLines)),
        )
        return { posted: entries.length, nothingDue, rest: ids.filter((id) => !done.has(id)) }
      })
    } catch {
      // Nothing of the batch was written: each contract is synced on its own, which records its own error.
      return { posted: 0, nothingDue: 0, rest: [...ids] }
    }
  }

  async function insertRun(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    scope: 'CONTRACT' | 'BATCH',
    asOf: string,
    filters: Record<string, JsonValue>,
    now: Date,
    completed: boolean,
  ): Promise<number> {
    return earningsRepo.insertRun(tx, ctx.tenantId, {
      scope,
      status: completed ? 'COMPLETED' : 'RUNNING',
      as_of: asOf,
      filters: JSON.stringify(filters),
      cursor_contract_id: null,
      started_at: now,
      updated_at: now,
      finished_at: completed ? now : null,
      started_by: ctx.principal.emailAddress,
    })
  }

  /** The next ids of a run after its cursor, in id order (memory stays flat: one batch at a time). */
  async function nextIds(ctx: AuthenticatedContext, filters: RunFilters, after: number, limit: number) {
    const visible = ctx.principal.visibleAccountHolderIds
    return db.read(ctx.tenantId, (x) =>
      earningsRepo.nextRunContractIds(x, ctx.tenantId, filters, visible, after, limit),
    )
  }

  function runView(run: RunRow, entries: number, durationMs: number) {
    return {
      runId: run.id,
      status: run.status,
      asOf: run.as_of,
      filters: run.filters,
      cursor: run.cursor_contract_id,
      examined: run.examined,
      posted: run.posted,
      nothingDue: run.nothing_due,
      failed: run.failed,
      errors: run.errors,
      /** Entries posted by this call (a resumed run counts its earlier calls in `posted`). */
      entries,
      startedAt: run.started_at.toISOString(),
      finishedAt: run.finished_at ? run.finished_at.toISOString() : null,
      durationMs,
    }
  }

  return {
    /** POST /contracts/{id}/syncEarnings: posts what is due as of `asOf` (default today) in one transaction. */
    async sync(ctx: AuthenticatedContext, contractId: number, body: { asOf?: string | undefined }) {
      await core.readRow(ctx, contractId)
      const requested = await requestedAsOf(ctx.tenantId, body.asOf)
      return db.transaction(ctx.tenantId, (tx) => syncIn(tx, ctx, contractId, requested, null))
    },

    /**
     * The sync of one contract as of today inside the caller's transaction (a reversed cancel
     * resyncs the reinstated contract with its reversal: docs/cancellations.md "Reversal").
     */
    async syncWithin(tx: Transaction<DB>, ctx: AuthenticatedContext, contractId: number) {
      return syncIn(tx, ctx, contractId, await core.today(ctx.tenantId), null)
    },

    /**
     * The automatic EARNINGS process's part (docs/processes.md): the process run opens one BATCH
     * earnings run when it starts (the entries' source), syncs each sold contract in its own batch
     * transaction (the contract's savepoint there), and completes the earnings run with its counts
     * when it ends. What each contract posts is exactly what syncEarnings would.
     */
    process: {
      /** Ids of every sold contract after `afterId`, ascending (what an updateEarnings run selects unfiltered). */
      dueIds(tenantId: number, afterId: number, limit: number): Promise<number[]> {
        const every = { dealerId: null, productType: null, contractIds: null, statuses: SYNCABLE_STATUSES }
        return db.read(tenantId, (x) => earningsRepo.nextRunContractIds(x, tenantId, every, null, afterId, limit))
      },
      /** Opens the BATCH earnings run of a process run as of `asOf` (not after today), in `tx`; its id. */
      async openRun(tx: Transaction<DB>, ctx: AuthenticatedContext, asOf: string, processRun: string): Promise<number> {
        const requested = await requestedAsOf(ctx.tenantId, asOf)
        const now = clock.now()
        const filters = { statuses: [...SYNCABLE_STATUSES], processRun }
        const runId = await insertRun(tx, ctx, 'BATCH', requested, filters, now, false)
        await writeAudit(tx, ctx, now, {
          action: 'earnings_run.started',
          entityType: 'earnings_run',
          entityId: runId,
          changes: { after: { asOf: requested, filters } },
        })
        return runId
      },
      /** One contract's sync for the run, in `tx`: true when it posted. */
      async sync(
        tx: Transaction<DB>,
        ctx: AuthenticatedContext,
        contractId: number,
        asOf: string,
        runId: number,
      ): Promise<boolean> {
        return (await syncIn(tx, ctx, contractId, asOf, runId)).outcome === 'POSTED'
      },
      /** Completes the earnings run with the process run's counts, in `tx`. */
      async closeRun(
        tx: Transaction<DB>,
        ctx: AuthenticatedContext,
        runId: number,
        counts: { cursor: number; examined: number; posted: number; failed: number },
      ): Promise<void> {
        const now = clock.now()
        const nothingDue = Math.max(0, counts.examined - counts.posted - counts.failed)
        await earningsRepo.updateRun(tx, ctx.tenantId, runId, {
          status: 'COMPLETED',
          cursor_contract_id: counts.cursor === 0 ? null : counts.cursor,
          examined: counts.examined,
          posted: counts.posted,
          nothing_due: nothingDue,
          failed: counts.failed,
          updated_at: now,
          finished_at: now,
        })
        await writeAudit(tx, ctx, now, {
          action: 'earnings_run.completed',
          entityType: 'earnings_run',
          entityId: runId,
          changes: {
            after: { examined: counts.examined, posted: counts.posted, nothingDue, failed: counts.failed },
          },
        })
      },
    },

    /**
     * POST /contracts/updateEarnings: the sync of every contract the filters select, by id cursor,
     * RUN_BATCHES_AT_ONCE batches of RUN_BATCH_SIZE at a time, each batch set-based in its own
     * transaction (syncBatch), what a batch leaves synced one by one (one failure is recorded and
     * the run goes on); the run row keeps the cursor and counters after every round, so an
     * interrupted run resumes (`runId`) where it stopped and a repeated run posts nothing new.
     */
    async update(ctx: AuthenticatedContext, body: UpdateEarningsInput) {
      const started = performance.now()
      let run: RunRow
      if (body.runId !== undefined) {
        const found = await readRun(db, ctx.tenantId, body.runId)
        if (!found || found.scope !== 'BATCH')
          throw earningsErrors.create('earnings_run_not_found', `no earnings run ${body.runId}`)
        if (found.status !== 'RUNNING')
          throw earningsErrors.create('earnings_run_completed', `earnings run ${found.id} is already completed`)
        run = found
      } else {
        const asOf = await requestedAsOf(ctx.tenantId, body.asOf)
        const filters: RunFilters = {
          dealerId: body.dealerId ?? null,
          productType: body.productType ?? null,
          contractIds: body.contractIds ? [...new Set(body.contractIds)].toSorted((a, b) => a - b) : null,
          statuses: body.statuses && body.statuses.length > 0 ? [...new Set(body.statuses)] : [...SYNCABLE_STATUSES],
        }
        const id = await db.transaction(ctx.tenantId, async (tx) => {
          const now = clock.now()
          const runId = await insertRun(
            tx,
            ctx,
            'BATCH',
            asOf,
            filters as unknown as Record<string, JsonValue>,
            now,
            false,
          )
          await writeAudit(tx, ctx, now, {
            action: 'earnings_run.started',
            entityType: 'earnings_run',
            entityId: runId,
            changes: { after: { asOf, filters: filters as unknown as JsonValue } },
          })
          return runId
        })
        run = (await readRun(db, ctx.tenantId, id))!
      }
      const budget = body.limit ?? Number.POSITIVE_INFINITY
      let examinedNow = 0
      let entries = 0
      const errors = [...run.errors]
      while (examinedNow < budget) {
        const ids = await nextIds(
          ctx,
          run.filters,
          run.cursor_contract_id ?? 0,
          Math.min(RUN_BATCH_SIZE * RUN_BATCHES_AT_ONCE, budget - examinedNow),
        )
        if (ids.length === 0) break
        let posted = 0
        let nothingDue = 0
        let failed = 0
        const slices: number[][] = []
        for (let k = 0; k < ids.length; k += RUN_BATCH_SIZE) slices.push(ids.slice(k, k + RUN_BATCH_SIZE))
        await Promise.all(
          slices.map(async (slice) => {
            const batch = await syncBatch(ctx, slice, run.as_of, run.id)
            posted += batch.posted
            nothingDue += batch.nothingDue
            entries += batch.posted
            await eachConcurrently(batch.rest, RUN_CONCURRENCY, async (id) => {
              try {
                const r = await db.transaction(ctx.tenantId, (tx) => syncIn(tx, ctx, id, run.as_of, run.id))
                if (r.outcome === 'POSTED') {
                  posted++
                  entries++
                } else nothingDue++
              } catch (err) {
                failed++
                if (errors.length < MAX_RUN_ERRORS)
                  errors.push(
                    err instanceof AppError
                      ? { contractId: id, code: err.code, detail: err.message }
                      : {
                          contractId: id,
                          code: 'earnings_sync_failed',
                          detail: err instanceof Error ? err.message : String(err),
                        },
                  )
              }
            })
          }),
        )
        examinedNow += ids.length
        run = {
          ...run,
          cursor_contract_id: ids.at(-1)!,
          examined: run.examined + ids.length,
          posted: run.posted + posted,
          nothing_due: run.nothing_due + nothingDue,
          failed: run.failed + failed,
          errors: [...errors],
        }
        await saveRun(db, ctx.tenantId, run, clock.now())
      }
      // Done when the last call found nothing more (or the budget ended exactly at the end).
      const more = examinedNow >= budget && (await nextIds(ctx, run.filters, run.cursor_contract_id ?? 0, 1)).length > 0
      if (!more) {
        const now = clock.now()
        run = { ...run, status: 'COMPLETED', finished_at: now }
        await db.transaction(ctx.tenantId, async (tx) => {
          await saveRunIn(tx, ctx.tenantId, run, now)
          await writeAudit(tx, ctx, now, {
            action: 'earnings_run.completed',
            entityType: 'earnings_run',
            entityId: run.id,
            changes: {
              after: { examined: run.examined, posted: run.posted, nothingDue: run.nothing_due, failed: run.failed },
            },
          })
        })
      }
      return runView(run, entries, Math.round(performance.now() - started))
    },
    /**
     * The earnings of every priced line as of `asOf` (default today in the tenant's zone). A voided
     * contract earns nothing (409); a cancelled one stops earning on its cancel date, so a later
     * asOf reads as of that date (what the cancel refunds or earns at cancel is the cancel's).
     */
    async details(ctx: AuthenticatedContext, contractId: number, query: EarningDetailsQuery) {
      const row = await core.readRow(ctx, contractId)
      if (row.status === 'VOIDED')
        throw contractErrors.create(
          'contract_state_conflict',
          `contract ${row.contract_number} is voided: a contract never sold earns nothing`,
        )
      const [terms, today, cancelledOn, administratorId, posted, postedThrough] = await Promise.all([
        core.termsOf(ctx.tenantId, row),
        core.today(ctx.tenantId),
        row.status === 'CANCELLED'
          ? db.read(ctx.tenantId, (x) => lastCancelDate(x, ctx.tenantId, row.id))
          : Promise.resolve(null),
        parties.administratorId(ctx.tenantId),
        ledger.earnedByCode(ctx.tenantId, row.id),
        db.read(ctx.tenantId, (x) => earningsRepo.lastPostedThrough(x, ctx.tenantId, row.id)),
      ])
      const requested = query.asOf ?? today
      const asOf = cancelledOn !== null && cancelledOn < requested ? cancelledOn : requested
      const dates: EarningsDates = {
        effectiveDate: row.effective_date,
        expirationDate: row.expiration_date,
        termMonths: row.coverage.term.months,
      }
      const own = administratorAmountsByCode(row.pricing.lines, administratorId)
      const lines = row.pricing.lines.map((l) => {
        const t = terms.earnings[l.code]
        // Every line code has terms: the snapshot was resolved from these very lines.
        if (t === undefined) throw new Error(`contract ${row.id}: no earnings terms for line ${l.code}`)
        return { line: l, terms: t }
      })
      const result = earningsAsOf(
        lines.map(({ line, terms: t }) => ({ code: line.code, amountCents: line.cents, terms: t })),
        dates,
        asOf,
      )
      return {
        contractId: row.id,
        contractNumber: row.contract_number,
        status: row.status,
        asOf,
        requestedAsOf: requested,
        earningsStoppedOn: cancelledOn,
        effectiveDate: dates.effectiveDate,
        expirationDate: dates.expirationDate,
        termMonths: dates.termMonths,
        totals: {
          amount: centsToNumber(result.totals.amountCents),
          earnedToDate: centsToNumber(result.totals.earnedToDateCents),
          unearned: centsToNumber(result.totals.unearnedCents),
        },
        postedThrough,
        lines: lines.map(({ line, terms: t }, i) => {
          const e = result.lines[i]!
          // Only the administrator's own lines are posted by syncs, per disbursement code; a third-party
          // line is its payee's sub-ledger. The code's posted and due amounts are shown on its first own
          // line (null on the others), so that the lines' figures add up.
          const firstOfCode =
            line.payeeAccountHolderId === administratorId &&
            lines.findIndex((o) => o.line.code === line.code && o.line.payeeAccountHolderId === administratorId) === i
          const earnedPosted = firstOfCode ? (posted.get(line.code) ?? 0) : null
          const codeAmount = own.get(line.code) ?? 0
          return {
            lineNumber: i + 1,
            code: line.code,
            group: line.group,
            label: line.label,
            source: line.source,
            payeeAccountHolderId: line.payeeAccountHolderId,
            method: t.method,
            curveCode: t.curve?.code ?? null,
            monthCounting: t.monthCounting,
            refundable: t.refundable,
            amount: centsToNumber(e.amountCents),
            earnedToDate: centsToNumber(e.earnedToDateCents),
            unearned: centsToNumber(e.unearnedCents),
            earnedFraction: `${e.earnedFraction.num}/${e.earnedFraction.den}`,
            earnedFactor: e.earnedFactor,
            earnedPosted: earnedPosted === null ? null : centsToNumber(earnedPosted),
            dueToPost:
              earnedPosted === null ? null : centsToNumber(earnedToDate(codeAmount, t, dates, asOf) - earnedPosted),
            schedule:
              query.schedule === false
                ? null
                : earningsSchedule(line.cents, t, dates, { through: cancelledOn ?? undefined }).map((p) => ({
                    periodStart: p.periodStart,
                    periodEnd: p.periodEnd,
                    earnedThisPeriod: centsToNumber(p.earnedThisPeriodCents),
                    earnedToDate: centsToNumber(p.earnedToDateCents),
                    unearned: centsToNumber(p.unearnedCents),
                  })),
          }
        }),
      }
    },
  }
}

type ReckonedLine = SyncLine & { cents: number }

/**
 * What one contract's sync posts (pure): per disbursement code of the administrator's own lines,
 * earned to date as of asOf (the cancel date when earlier than requested) minus what was posted;
 * nothing once a cancel entry stands. Shared by the per-contract sync and a run's batches, so both
 * post exactly the same.
 */
function reckon(
  row: Pick<earningsRepo.BatchContractRow, 'id' | 'lines' | 'effective_date' | 'expiration_date' | 'term_months'>,
  terms: Pick<ContractTerms, 'earnings'>,
  facts: {
    requested: string
    cancelledOn: string | null
    settledByCancel: boolean
    administratorId: number
    posted: ReadonlyMap<string, number>
  },
): { asOf: string; lines: ReckonedLine[]; dueLines: ReckonedLine[] } {
  const { requested, cancelledOn, settledByCancel, administratorId, posted } = facts
  const asOf = cancelledOn !== null && cancelledOn < requested ? cancelledOn : requested
  const dates: EarningsDates = {
    effectiveDate: row.effective_date,
    expirationDate: row.expiration_date,
    termMonths: row.term_months,
  }
  // The administrator's own lines, as finalizationLines defers them (payee = the administrator company),
  // by disbursement code: the ledger holds them per code (a rate's ADM and an option's ADM together),
  // so what is earned is reckoned on the code's whole amount, as the cancel reckons what is left.
  const own = administratorAmountsByCode(row.lines, administratorId)
  const lines: ReckonedLine[] = [...own].map(([code, amountCents]) => {
    const t = terms.earnings[code]
    if (t === undefined) throw new Error(`contract ${row.id}: no earnings terms for line ${code}`)
    const already = posted.get(code) ?? 0
    const due = settledByCancel
      ? { earnedToDateCents: already, dueCents: 0 }
      : earningsDue(amountCents, t, dates, asOf, already)
    return { code, earnedToDate: due.earnedToDateCents, earnedPosted: already, due: due.dueCents, cents: due.dueCents }
  })
  return { asOf, lines, dueLines: lines.filter((l) => l.cents !== 0) }
}

/** The EARNINGS_RECOGNIZED entry of one contract's sync (decision 0012), for the run `runId`. */
function earningsEntry(
  row: { id: number; contract_number: string },
  asOf: string,
  runId: number,
  dueLines: readonly ReckonedLine[],
  administratorId: number,
  effectiveDate: string,
): PostEntryInput {
  const amount = (cents: number) => centsToDecimal(Math.abs(cents))
  return {
    kind: 'EARNINGS_RECOGNIZED',
    source: { type: 'PROCESS', id: runId },
    effectiveDate,
    memo: `Earnings of contract ${row.contract_number} through ${asOf}`,
    lines: dueLines.flatMap((l) => {
      const earn = l.cents > 0
      const base = {
        accountHolderId: administratorId,
        amount: amount(l.cents),
        contractId: row.id,
        disbursementCode: l.code,
      }
      return [
        { ...base, purpose: 'UNEARNED_REVENUE' as const, side: earn ? ('DEBIT' as const) : ('CREDIT' as const) },
        { ...base, purpose: 'ADMINISTRATOR_REVENUE' as const, side: earn ? ('CREDIT' as const) : ('DEBIT' as const) },
      ]
    }),
  }
}

/** The audit record of a contract's sync that posted. */
function syncedAudit(
  contractId: number,
  asOf: string,
  runId: number,
  entryId: number,
  dueLines: readonly ReckonedLine[],
): AuditRecord {
  return {
    action: 'contract.earnings_synced',
    entityType: 'contract',
    entityId: contractId,
    changes: {
      after: { asOf, runId, entryId, lines: dueLines.map((l) => ({ code: l.code, due: centsToNumber(l.cents) })) },
    },
  }
}

/** The administrator company's own priced lines, in cents per disbursement code (finalizationLines defers them). */
function administratorAmountsByCode(
  lines: ReadonlyArray<{ code: string; cents: number; payeeAccountHolderId: number }>,
  administratorId: number,
): Map<string, number> {
  const byCode = new Map<string, number>()
  for (const l of lines)
    if (l.payeeAccountHolderId === administratorId && l.cents > 0)
      byCode.set(l.code, (byCode.get(l.code) ?? 0) + l.cents)
  return byCode
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachConcurrently<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** The effective date of the contract's latest cancellation (its cancel date). */
async function lastCancelDate(x: Executor, tenantId: number, contractId: number): Promise<string | null> {
  const rows = await repo.listStatusHistory(x, tenantId, contractId)
  const cancel = rows.findLast((r) => r.event === 'CANCEL')
  return cancel ? cancel.effective_date : null
}

async function readRun(db: Database, tenantId: number, id: number): Promise<RunRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 1) return undefined
  const row = await db.read(tenantId, (x) => earningsRepo.findRun(x, tenantId, id))
  if (!row) return undefined
  return {
    id: row.id,
    scope: row.scope,
    status: row.status,
    as_of: row.as_of,
    filters: row.filters as unknown as RunFilters,
    cursor_contract_id: row.cursor_contract_id,
    examined: row.examined,
    posted: row.posted,
    nothing_due: row.nothing_due,
    failed: row.failed,
    errors: row.errors,
    started_at: row.started_at,
    finished_at: row.finished_at,
  }
}

async function saveRunIn(tx: Transaction<DB>, tenantId: number, run: RunRow, now: Date): Promise<void> {
  await earningsRepo.updateRun(tx, tenantId, run.id, {
    status: run.status,
    cursor_contract_id: run.cursor_contract_id,
    examined: run.examined,
    posted: run.posted,
    nothing_due: run.nothing_due,
    failed: run.failed,
    errors: JSON.stringify(run.errors),
    updated_at: now,
    finished_at: run.finished_at,
  })
}

function saveRun(db: Database, tenantId: number, run: RunRow, now: Date): Promise<void> {
  return db.transaction(tenantId, (tx) => saveRunIn(tx, tenantId, run, now))
}

export type ContractEarnings = ReturnType<typeof createContractEarnings>
