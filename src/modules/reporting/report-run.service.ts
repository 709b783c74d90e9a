// Report runs (docs/reporting.md "Report runs"): a job producing the frozen reports of one kind and
// closed month for a list of risk bearers (default: all of the kind). Invariants:
// - one run per kind, month and list of risk bearers (the unique key): a second request answers it;
// - a run is worked by the instance holding its lease (taken FOR UPDATE SKIP LOCKED, renewed by each
//   step); an expired lease is taken over and the run resumed after its cursor (the last risk bearer done);
// - each step is one transaction: the document produced and frozen (report_document, unique per kind,
//   risk bearer and month: never produced twice) and the cursor advanced, so a step is never redone.
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { writeAudit } from '../../platform/audit.ts'
import { localDate } from '../../platform/clock.ts'
import type { ReportRunStatus } from '../../platform/db/schema.reporting.ts'
import { actorLabel, systemContext, type AuthenticatedContext } from '../../platform/http/context.ts'
import { AppError, type FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import type { BordereauService } from './bordereau.service.ts'
import { createFreezer, type FreezeDeps } from './report-run.freeze.ts'
import * as repo from './report-run.repository.ts'
import { nextRiskBearer, RISK_BEARER_KIND, runPeriodProblem, scopeOf, type ReportKind } from './report-run.rules.ts'
import { reportingErrors } from './reporting.errors.ts'
import * as statements from './statement.repository.ts'
import type { StatementService } from './statement.service.ts'
import { monthPeriod } from './treaty.rules.ts'
import { staffOnly } from './treaty.service.ts'
import { createPeriodicLoop, type PeriodicLoop } from '../../platform/periodic-loop.ts'

export const RUN_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const satisfies readonly ReportRunStatus[]

export type ReportRunOptions = {
  /** This instance's name in leases. */
  owner: string
  /** How long a lease holds without a step renewing it. */
  leaseMs: number
}

export type ReportRunDeps = FreezeDeps & {
  statements: Pick<StatementService, 'statement' | 'prepareStatements'>
  bordereaux: Pick<BordereauService, 'premium' | 'claims'>
  options?: Partial<ReportRunOptions>
}

export type StartRun = { kind: ReportKind; period: string; riskBearerIds?: number[] | undefined }

/** The actor of what a run does (its steps, its end). */
const ACTOR = 'report-run'

export function createReportRunService(deps: ReportRunDeps) {
  const { db, clock, timeZone } = deps
  const freezer = createFreezer(deps)
  const options: ReportRunOptions = {
    owner: `${hostname()}:${process.pid}:${randomUUID()}`,
    leaseMs: 5 * 60_000,
    ...deps.options,
  }
  const notFound = (id: number) => reportingErrors.create('report_run_not_found', `no report run ${id}`)

  const documentHref = (run: repo.RunRow, riskBearerId: number) =>
    `/api/reports/runs/${run.id}/documents/${riskBearerId}`

  function toView(run: repo.RunRow, documents: Awaited<ReturnType<typeof repo.documentsFor>>) {
    return {
      id: run.id,
      kind: run.kind,
      period: run.period,
      status: run.status,
      riskBearerIds: run.riskBearerIds,
      progress: { done: run.done, total: run.total },
      error: run.error,
      createdAt: run.createdAt.toISOString(),
      createdBy: run.createdBy,
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      documents: documents.map((d) => ({
        riskBearerId: d.riskBearerId,
        reportDocumentId: d.id,
        producedBy: d.reportRunId === run.id ? ('THIS_RUN' as const) : ('EARLIER' as const),
        frozenAt: d.createdAt.toISOString(),
        inputDigest: d.inputDigest,
        href: documentHref(run, d.riskBearerId),
      })),
    }
  }

  /** Produces (and freezes) one report of the run, in the caller's transaction. */
  async function produce(tenantId: number, run: repo.RunRow, riskBearerId: number): Promise<void> {
    const tenantCtx = systemContext(tenantId, ACTOR)
    switch (run.kind) {
      case 'REINSURANCE_STATEMENT':
        await deps.statements.statement(tenantCtx, riskBearerId, run.period, run.id)
        break
      case 'PREMIUM_BORDEREAU':
        await deps.bordereaux.premium(tenantCtx, riskBearerId, run.period, run.id)
        break
      case 'CLAIMS_BORDEREAU':
        await deps.bordereaux.claims(tenantCtx, riskBearerId, run.period, run.id)
        break
    }
  }
  /** Takes the oldest claimable run of the tenant (QUEUED, or its lease expired) under this instance's lease. */
  async function claim(tenantId: number): Promise<number | undefined> {
    const now = clock.now()
    return db.transaction(tenantId, async (tx) => {
      const run = await repo.claimable(tx, tenantId, now)
      if (!run) return undefined
      await repo.updateRun(tx, tenantId, run.id, {
        status: 'RUNNING',
        started_at: run.startedAt ?? now,
        lease_owner: options.owner,
        lease_expires_at: new Date(now.getTime() + options.leaseMs),
      })
      return run.id
    })
  }

  /**
   * One step of a run leased by this instance: the next risk bearer's report produced and frozen, the
   * cursor advanced and the lease renewed, in one transaction; or the run finished. 'stopped' when the
   * run is no longer this instance's (its lease taken over).
   */
  async function step(tenantId: number, runId: number): Promise<'more' | 'done' | 'stopped'> {
    const now = clock.now()
    // A statement run's month-end sums are built before the step's transaction, in their own (a
    // build holds its claim for seconds at scale: not under this run's lock, nor as part of it).
    const peek = await db.read(tenantId, (x) => repo.runById(x, tenantId, runId))
    if (peek?.kind === 'REINSURANCE_STATEMENT' && peek.status === 'RUNNING')
      await deps.statements.prepareStatements(systemContext(tenantId, ACTOR), peek.period)
    return db.transaction(tenantId, async (tx) => {
      const run = await repo.lockRun(tx, tenantId, runId)
      if (!run || run.status !== 'RUNNING' || run.leaseOwner !== options.owner) return 'stopped'
      const next = nextRiskBearer(run.riskBearerIds, run.cursor)
      const ctx = systemContext(tenantId, ACTOR)
      if (next === undefined) {
        await repo.updateRun(tx, tenantId, runId, {
          status: 'SUCCEEDED',
          finished_at: now,
          lease_owner: null,
          lease_expires_at: null,
        })
        await writeAudit(tx, ctx, now, {
          action: 'report_run.succeeded',
          entityType: 'report_run',
          entityId: runId,
          changes: { after: { status: 'SUCCEEDED', done: run.done, total: run.total } },
        })
        return 'done'
      }
      if (!(await freezer.closed(tenantId, monthPeriodTo(run.period))))
        throw reportingErrors.create(
          'report_period_invalid',
          `period ${run.period} is no longer closed (booksClosedThrough moved back)`,
          { errors: [{ field: 'period', code: 'not_closed', message: 'is not closed' }] },
        )
      await produce(tenantId, run, next)
      await repo.updateRun(tx, tenantId, runId, {
        cursor: next,
        done: run.done + 1,
        lease_expires_at: new Date(now.getTime() + options.leaseMs),
      })
      return 'more'
    })
  }

  /** Marks a run FAILED when a step failed (a risk bearer gone, the month reopened). */
  async function fail(tenantId: number, runId: number, err: unknown): Promise<void> {
    const now = clock.now()
    const error =
      err instanceof AppError
        ? { code: err.code, message: err.message.slice(0, 500) }
        : { code: 'report_run_failed', message: (err instanceof Error ? err.message : String(err)).slice(0, 500) }
    await db.transaction(tenantId, async (tx) => {
      const run = await repo.lockRun(tx, tenantId, runId)
      if (!run || run.status !== 'RUNNING' || run.leaseOwner !== options.owner) return
      await repo.updateRun(tx, tenantId, runId, {
        status: 'FAILED',
        error,
        finished_at: now,
        lease_owner: null,
        lease_expires_at: null,
      })
      await writeAudit(tx, systemContext(tenantId, ACTOR), now, {
        action: 'report_run.failed',
        entityType: 'report_run',
        entityId: runId,
        changes: { after: { status: 'FAILED', error, done: run.done, total: run.total } },
      })
    })
  }

  /**
   * Works the tenant's claimable runs. `maxSteps` stops after that many steps and leaves the lease
   * held (tests: an instance that dies mid-run). The number of runs taken.
   */
  async function work(tenantId: number, limits: { maxSteps?: number } = {}): Promise<number> {
    let taken = 0
    let steps = 0
    for (;;) {
      if (limits.maxSteps !== undefined && steps >= limits.maxSteps) return taken
      const runId = await claim(tenantId)
      if (runId === undefined) return taken
      taken++
      for (;;) {
        if (limits.maxSteps !== undefined && steps >= limits.maxSteps) return taken
        steps++
        let outcome: 'more' | 'done' | 'stopped'
        try {
          outcome = await step(tenantId, runId)
        } catch (err) {
          await fail(tenantId, runId, err)
          break
        }
        if (outcome !== 'more') break
      }
    }
  }

  /** One pass over every tenant's claimable runs. */
  async function tick(limits: { maxSteps?: number } = {}): Promise<number> {
    const tenants = await db.read(null, (x) => x.selectFrom('tenant').select('id').orderBy('id').execute())
    let worked = 0
    for (const { id } of tenants) worked += await work(Number(id), limits)
    return worked
  }

  async function runOf(ctx: AuthenticatedContext, id: number) {
    staffOnly(ctx, 'Report runs')
    if (!isStorableId(id)) throw notFound(id)
    const run = await db.read(ctx.tenantId, (x) => repo.runById(x, ctx.tenantId, id))
    if (!run) throw notFound(id)
    return run
  }

  return {
    options,
    work,
    tick,

    /**
     * Starts a run, or answers the run of the same kind, month and risk bearers (`created` false).
     * The month must be closed; the risk bearers of the kind's account-holder kind.
     */
    async start(ctx: AuthenticatedContext, body: StartRun) {
      staffOnly(ctx, 'Report runs')
      const today = localDate(clock.now(), await timeZone(ctx.tenantId))
      const problem = runPeriodProblem(body.period, today)
      if (problem)
        throw reportingErrors.create('report_period_invalid', `period ${problem.message}`, { errors: [problem] })
      const period = monthPeriod(body.period, today)
      if ('field' in period) throw new Error('checked above')
      if (!(await freezer.closed(ctx.tenantId, period.to)))
        throw reportingErrors.create(
          'report_period_invalid',
          `period ${body.period} is not closed: its last day must be on or before booksClosedThrough and have come`,
          {
            errors: [
              {
                field: 'period',
                code: 'not_closed',
                message: 'must be a closed month (on or before booksClosedThrough)',
              },
            ],
          },
        )
      const bearerKind = RISK_BEARER_KIND[body.kind]
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        let ids: number[]
        if (body.riskBearerIds === undefined) {
          ids = (await statements.accountHoldersOfKind(tx, ctx.tenantId, bearerKind)).map((r) => Number(r.id))
        } else {
          const errors: FieldError[] = []
          for (const [i, id] of body.riskBearerIds.entries()) {
            const found =
              isStorableId(id) && (await statements.accountHolderOfKind(tx, ctx.tenantId, id, bearerKind)) !== undefined
            if (!found)
              errors.push({
                field: `riskBearerIds[${i}]`,
                code: 'unknown_reference',
                message: `${id} is not a${bearerKind === 'INSURER' ? 'n insurer' : ' reinsurance company'} of the tenant`,
              })
          }
          if (errors.length > 0)
            throw reportingErrors.create(
              'report_run_invalid',
              errors.map((e) => `${e.field} ${e.message}`).join('; '),
              { errors },
            )
          ids = body.riskBearerIds
        }
        const scope = scopeOf(ids)
        const inserted = await repo.insertRun(tx, ctx.tenantId, {
          kind: body.kind,
          period: body.period,
          riskBearerIds: scope.ids,
          scopeKey: scope.key,
          createdAt: now,
          createdBy: actorLabel(ctx),
        })
        const run = inserted ?? (await repo.runByScope(tx, ctx.tenantId, body.kind, body.period, scope.key))
        if (!run) throw new Error('report run neither inserted nor found')
        if (inserted)
          await writeAudit(tx, ctx, now, {
            action: 'report_run.created',
            entityType: 'report_run',
            entityId: run.id,
            changes: { after: { kind: run.kind, period: run.period, riskBearerIds: run.riskBearerIds } },
          })
        const documents = await repo.documentsFor(tx, ctx.tenantId, run.kind, run.period, run.riskBearerIds)
        return { created: inserted !== undefined, run: toView(run, documents) }
      })
    },

    async get(ctx: AuthenticatedContext, id: number) {
      const run = await runOf(ctx, id)
      const documents = await db.read(ctx.tenantId, (x) =>
        repo.documentsFor(x, ctx.tenantId, run.kind, run.period, run.riskBearerIds),
      )
      return toView(run, documents)
    },

    async list(ctx: AuthenticatedContext, filter: repo.RunFilter, window: Window) {
      staffOnly(ctx, 'Report runs')
      return db.read(ctx.tenantId, async (x) => {
        const page = await repo.listRuns(x, ctx.tenantId, filter, window)
        const items = []
        for (const run of page.items)
          items.push(toView(run, await repo.documentsFor(x, ctx.tenantId, run.kind, run.period, run.riskBearerIds)))
        return { items, totalCount: page.totalCount }
      })
    },

    /** The stored document of one of the run's risk bearers (404 until it is produced). */
    async document(ctx: AuthenticatedContext, id: number, riskBearerId: number) {
      const run = await runOf(ctx, id)
      const missing = () =>
        reportingErrors.create(
          'report_document_not_found',
          `report run ${id} has no document for risk bearer ${riskBearerId} (not one of its risk bearers, or not produced yet)`,
        )
      if (!isStorableId(riskBearerId) || !run.riskBearerIds.includes(riskBearerId)) throw missing()
      const row = await db.read(ctx.tenantId, (x) =>
        repo.documentOf(x, ctx.tenantId, run.kind, riskBearerId, run.period),
      )
      if (!row) throw missing()
      return { kind: run.kind, document: row.document }
    },
  }
}

/** The last day of a month YYYY-MM. */
function monthPeriodTo(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number]
  return `${period}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`
}

export type ReportRunService = ReturnType<typeof createReportRunService>
export type ReportRunView = Awaited<ReturnType<ReportRunService['get']>>

/** The loop around tick(): started by the server, stopped when the app closes. */
export function createReportRunLoop(service: Pick<ReportRunService, 'tick'>, intervalMs: number): PeriodicLoop {
  return createPeriodicLoop(() => service.tick(), intervalMs)
}
