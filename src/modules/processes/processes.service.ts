// Automatic processes (docs/processes.md): the catalogue of processes, the runs (one row each,
// migration 0034) and the runner that works them. Invariants:
// - one run per tenant x process x scheduled slot (the unique key; a second instance's insert does nothing);
// - a run is worked by the instance holding its lease (taken FOR UPDATE SKIP LOCKED, extended by each
//   batch); an expired lease is taken over and the run resumed after its cursor;
// - each batch is one transaction with its cursor advance, so a change is never made twice; each item
//   has its own savepoint, so its failure is recorded and the batch goes on;
// - a cancel (PATCH) takes the run's lock, so it lands between batches and the next batch stops.
import { randomUUID } from 'node:crypto'
import type { Transaction } from 'kysely'
import { appendEvent } from '../../platform/events/outbox.ts'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import { localDate } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { ProcessRunStatus } from '../../platform/db/schema.processes.ts'
import type { DB } from '../../platform/db/schema.ts'
import { actorLabel, systemContext, type AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import type { ContractServicing } from '../contracts/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { processErrors } from './processes.errors.ts'
import * as repo from './processes.repository.ts'

export const PROCESSES = ['ACTIVATION', 'EXPIRY', 'VOID'] as const
export type ProcessName = (typeof PROCESSES)[number]
export const RUN_STATUSES = [
  'QUEUED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
] as const satisfies ProcessRunStatus[]
/** The guid column is a uuid: anything else names no run (and is never sent to the database). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const FINISHED: ReadonlySet<ProcessRunStatus> = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED'])

/** Items per batch (one transaction) unless the run's parameters say otherwise. */
export const DEFAULT_BATCH_SIZE = 500
/** At most this many item errors are kept on a run; `failed` is always the exact count. */
export const MAX_RUN_ERRORS = 100

/** The setting holding each process's daily time of day (null: not scheduled). */
const SCHEDULE_SETTING = {
  ACTIVATION: 'activationProcessTime',
  EXPIRY: 'expiryProcessTime',
  VOID: 'voidProcessTime',
} as const satisfies Record<ProcessName, string>

const EVENT = { ACTIVATION: 'ACTIVATE', EXPIRY: 'EXPIRE', VOID: 'VOID' } as const satisfies Record<
  ProcessName,
  'ACTIVATE' | 'EXPIRE' | 'VOID'
>

export type ProcessContracts = {
  dueForProcess(
    tenantId: number,
    q: { event: 'ACTIVATE' | 'EXPIRE' | 'VOID'; today: string; createdBefore?: Date; afterId: number; limit: number },
  ): Promise<number[]>
  servicing: Pick<ContractServicing, 'lockForEvent' | 'applyTransition'>
}

export type ProcessOptions = {
  /** This instance's name in leases. */
  owner: string
  /** How long a lease holds without a batch renewing it. */
  leaseMs: number
}

export type ProcessDeps = {
  db: Database
  clock: Clock
  settings: Pick<SettingsService, 'get'>
  contracts: ProcessContracts
  options: ProcessOptions
}

export type RunView = {
  guid: string
  process: string
  parameters: Record<string, unknown>
  slot: string | null
  status: ProcessRunStatus
  cursor: number
  examined: number
  changed: number
  failed: number
  errors: Array<{ itemId: number; code: string; message: string }>
  startedBy: string
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  durationMs: number | null
}

export function runView(r: repo.RunRow): RunView {
  return {
    guid: r.guid,
    process: r.process,
    parameters: r.parameters,
    slot: r.slot,
    status: r.status,
    cursor: r.cursor,
    examined: r.examined,
    changed: r.changed,
    failed: r.failed,
    errors: r.errors,
    startedBy: r.started_by,
    createdAt: r.created_at.toISOString(),
    startedAt: r.started_at?.toISOString() ?? null,
    finishedAt: r.finished_at?.toISOString() ?? null,
    durationMs: r.duration_ms,
  }
}

/** The field errors of a start request; empty when it may start. */
export function checkStart(body: { process?: unknown; parameters?: unknown }): FieldError[] {
  const errors: FieldError[] = []
  if (typeof body.process !== 'string' || !(PROCESSES as readonly string[]).includes(body.process))
    errors.push({ field: 'process', code: 'unknown', message: `must be one of ${PROCESSES.join(', ')}` })
  const p = body.parameters ?? {}
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    errors.push({ field: 'parameters', code: 'invalid', message: 'must be an object' })
    return errors
  }
  for (const [key, value] of Object.entries(p)) {
    if (key !== 'batchSize')
      errors.push({ field: `parameters.${key}`, code: 'unknown', message: 'is not a parameter of the process' })
    else if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 1000)
      errors.push({ field: 'parameters.batchSize', code: 'invalid', message: 'must be an integer from 1 to 1000' })
  }
  return errors
}

const timeFormats = new Map<string, Intl.DateTimeFormat>()
/** Minutes since midnight of `instant` in `timeZone`. */
export function localMinutes(instant: Date, timeZone: string): number {
  let f = timeFormats.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    timeFormats.set(timeZone, f)
  }
  const [h, m] = f.format(instant).split(':').map(Number)
  return (h ?? 0) * 60 + (m ?? 0)
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + 1)
  return d.toISOString().slice(0, 10)
}

export type TickResult = { scheduled: number; worked: number }

export function createProcessService(deps: ProcessDeps) {
  const { db, clock, settings, contracts, options } = deps

  async function today(tenantId: number): Promise<string> {
    return localDate(clock.now(), await settings.get(tenantId, 'timeZone'))
  }

  async function insert(
    tenantId: number,
    ctx: AuthenticatedContext,
    process: ProcessName,
    parameters: Record<string, unknown>,
    slot: string | null,
  ): Promise<repo.RunRow | undefined> {
    const now = clock.now()
    return db.transaction(tenantId, async (tx) => {
      const row = await repo.insertRun(
        tx,
        tenantId,
        { guid: randomUUID(), process, parameters, slot, startedBy: actorLabel(ctx) },
        now,
      )
      if (row === undefined) return undefined
      await writeAudit(tx, ctx, now, {
        action: 'automatic_process_run.started',
        entityType: 'automatic_process_run',
        entityId: row.guid,
        changes: { after: { process, parameters, slot } },
      })
      return row
    })
  }

  /** Starts a run now (POST): QUEUED until the runner takes it. */
  async function start(ctx: AuthenticatedContext, body: { process?: unknown; parameters?: unknown }): Promise<RunView> {
    const errors = checkStart(body)
    if (errors.length > 0)
      throw processErrors.create(
        'process_run_invalid',
        `Invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
        { errors },
      )
    const row = await insert(
      ctx.tenantId,
      ctx,
      body.process as ProcessName,
      (body.parameters ?? {}) as Record<string, unknown>,
      null,
    )
    return runView(row as repo.RunRow)
  }

  async function get(ctx: AuthenticatedContext, guid: string): Promise<RunView> {
    if (!UUID.test(guid)) throw processErrors.create('process_run_not_found', `no automatic process run ${guid}`)
    const row = await db.read(ctx.tenantId, (x) => repo.byGuid(x, ctx.tenantId, guid))
    if (!row) throw processErrors.create('process_run_not_found', `no automatic process run ${guid}`)
    return runView(row)
  }

  async function list(
    ctx: AuthenticatedContext,
    f: { process?: string | undefined; status?: ProcessRunStatus | undefined; from?: string; to?: string },
    window: Window,
  ): Promise<{ items: RunView[]; totalCount: number }> {
    const r = await db.read(ctx.tenantId, (x) =>
      repo.listRuns(
        x,
        ctx.tenantId,
        {
          process: f.process,
          status: f.status,
          from: f.from === undefined ? undefined : new Date(`${f.from}T00:00:00Z`),
          before: f.to === undefined ? undefined : new Date(`${nextDay(f.to)}T00:00:00Z`),
        },
        window,
      ),
    )
    return { items: r.items.map(runView), totalCount: r.totalCount }
  }

  async function finish(
    tx: Transaction<DB>,
    tenantId: number,
    ctx: AuthenticatedContext,
    run: repo.RunRow,
    status: ProcessRunStatus,
    now: Date,
  ): Promise<void> {
    const durationMs = run.started_at === null ? 0 : Math.max(0, now.getTime() - run.started_at.getTime())
    await repo.updateRun(tx, tenantId, run.id, {
      status,
      finished_at: now,
      duration_ms: durationMs,
      lease_owner: null,
      lease_expires_at: null,
    })
    await appendEvent(tx, tenantId, now, {
      type: 'automatic_process_run.finished',
      payload: {
        guid: run.guid,
        process: run.process,
        status,
        examined: run.examined,
        changed: run.changed,
        failed: run.failed,
      },
    })
    if (status === 'CANCELLED')
      await writeAudit(tx, ctx, now, {
        action: 'automatic_process_run.cancelled',
        entityType: 'automatic_process_run',
        entityId: run.guid,
        changes: { before: { status: run.status }, after: { status } },
      })
  }

  /** PATCH { status: CANCELLED }: waits for the batch in progress (the run's lock); 409 once finished. */
  async function cancel(ctx: AuthenticatedContext, guid: string): Promise<RunView> {
    if (!UUID.test(guid)) throw processErrors.create('process_run_not_found', `no automatic process run ${guid}`)
    const now = clock.now()
    return db.transaction(ctx.tenantId, async (tx) => {
      const run = await repo.lockByGuid(tx, ctx.tenantId, guid)
      if (!run) throw processErrors.create('process_run_not_found', `no automatic process run ${guid}`)
      if (FINISHED.has(run.status))
        throw processErrors.create('process_run_finished', `the run is already ${run.status}`)
      await finish(tx, ctx.tenantId, ctx, run, 'CANCELLED', now)
      return runView((await repo.lockById(tx, ctx.tenantId, run.id)) as repo.RunRow)
    })
  }

  /** One item: lock the contract for the event, apply it. True when it changed. */
  async function workItem(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    run: repo.RunRow,
    contractId: number,
    day: string,
  ): Promise<boolean> {
    const event = EVENT[run.process as ProcessName]
    const locked = await contracts.servicing.lockForEvent(tx, ctx, contractId, event)
    const effectiveDate =
      event === 'ACTIVATE' ? locked.effectiveDate : event === 'EXPIRE' ? nextDay(locked.expirationDate) : day
    await contracts.servicing.applyTransition(tx, ctx, locked, {
      event,
      effectiveDate,
      source: { type: 'PROCESS', id: run.id },
      details: { process: run.process, run: run.guid },
    })
    return true
  }

  /**
   * One batch of the run leased by this instance, in one transaction with its cursor advance.
   * 'more' when another batch may follow, 'done' when the run finished, 'stopped' when the run is no
   * longer this instance's (cancelled, or its lease taken over).
   */
  async function batch(tenantId: number, runId: number): Promise<'more' | 'done' | 'stopped'> {
    const ctx = systemContext(tenantId, 'automatic-process')
    const now = clock.now()
    return db.transaction(tenantId, async (tx) => {
      const run = await repo.lockById(tx, tenantId, runId)
      if (!run || run.status !== 'RUNNING' || run.lease_owner !== options.owner) return 'stopped'
      const day = await today(tenantId)
      const process = run.process as ProcessName
      const size = typeof run.parameters.batchSize === 'number' ? run.parameters.batchSize : DEFAULT_BATCH_SIZE
      let createdBefore: Date | undefined
      if (process === 'VOID') {
        const days = await settings.get(tenantId, 'pendingContractVoidAfterDays')
        createdBefore = new Date(now.getTime() - days * 86_400_000)
      }
      const ids = await contracts.dueForProcess(tenantId, {
        event: EVENT[process],
        today: day,
        ...(createdBefore === undefined ? {} : { createdBefore }),
        afterId: run.cursor,
        limit: size,
      })
      let { examined, changed, failed } = run
      const errors = [...run.errors]
      for (const id of ids) {
        examined++
        await repo.savepoint(tx, 'savepoint')
        try {
          if (await workItem(tx, ctx, run, id, day)) changed++
          await repo.savepoint(tx, 'release')
        } catch (err) {
          // One item's failure is its own: its writes are undone, the run goes on.
          await repo.savepoint(tx, 'rollback')
          failed++
          const e = err as { code?: unknown; message?: unknown }
          if (errors.length < MAX_RUN_ERRORS)
            errors.push({
              itemId: id,
              code: typeof e.code === 'string' ? e.code : 'internal_error',
              message: String(e.message ?? err).slice(0, 500),
            })
        }
      }
      const cursor = ids.at(-1) ?? run.cursor
      await repo.updateRun(tx, tenantId, run.id, {
        cursor,
        examined,
        changed,
        failed,
        errors,
        lease_expires_at: new Date(now.getTime() + options.leaseMs),
      })
      if (ids.length < size) {
        await finish(tx, tenantId, ctx, { ...run, examined, changed, failed }, 'SUCCEEDED', now)
        return 'done'
      }
      return 'more'
    })
  }

  /** Takes the oldest claimable run of the tenant (QUEUED, or its lease expired) under a lease. */
  async function claim(tenantId: number): Promise<number | undefined> {
    const now = clock.now()
    return db.transaction(tenantId, async (tx) => {
      const run = await repo.claimable(tx, tenantId, now)
      if (!run) return undefined
      await repo.updateRun(tx, tenantId, run.id, {
        status: 'RUNNING',
        started_at: run.started_at ?? now,
        lease_owner: options.owner,
        lease_expires_at: new Date(now.getTime() + options.leaseMs),
      })
      return run.id
    })
  }

  /** Marks a run FAILED when its process itself failed (not one item). */
  async function fail(tenantId: number, runId: number, err: unknown): Promise<void> {
    const now = clock.now()
    await db.transaction(tenantId, async (tx) => {
      const run = await repo.lockById(tx, tenantId, runId)
      if (!run || run.status !== 'RUNNING' || run.lease_owner !== options.owner) return
      const errors = [...run.errors]
      if (errors.length < MAX_RUN_ERRORS)
        errors.push({
          itemId: 0,
          code: 'process_failed',
          message: String((err as Error)?.message ?? err).slice(0, 500),
        })
      await repo.updateRun(tx, tenantId, runId, { errors })
      await finish(tx, tenantId, systemContext(tenantId, 'automatic-process'), run, 'FAILED', now)
    })
  }

  /**
   * Works the tenant's claimable runs. `maxBatches` stops after that many batches and leaves the
   * lease held (tests: an instance that dies mid-run). The number of runs taken.
   */
  async function work(tenantId: number, limits: { maxBatches?: number } = {}): Promise<number> {
    let taken = 0
    let batches = 0
    for (;;) {
      const runId = await claim(tenantId)
      if (runId === undefined) return taken
      taken++
      for (;;) {
        if (limits.maxBatches !== undefined && batches >= limits.maxBatches) return taken
        batches++
        let outcome: 'more' | 'done' | 'stopped'
        try {
          outcome = await batch(tenantId, runId)
        } catch (err) {
          await fail(tenantId, runId, err)
          break
        }
        if (outcome !== 'more') break
      }
    }
  }

  /** Queues today's scheduled runs whose time of day has come (a slot taken by another instance is skipped). */
  async function schedule(tenantId: number): Promise<number> {
    const now = clock.now()
    const zone = await settings.get(tenantId, 'timeZone')
    const slot = localDate(now, zone)
    const minutes = localMinutes(now, zone)
    let made = 0
    for (const process of PROCESSES) {
      const at = await settings.get(tenantId, SCHEDULE_SETTING[process])
      if (at === null || minutes * 60_000 < at.milliseconds) continue
      const exists = await db.read(tenantId, (x) =>
        x
          .selectFrom('automatic_process_run')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('process', '=', process)
          .where('slot', '=', slot)
          .executeTakeFirst(),
      )
      if (exists) continue
      const row = await insert(tenantId, systemContext(tenantId, 'scheduler'), process, {}, slot)
      if (row) made++
    }
    return made
  }

  /** One deterministic pass over every tenant: queue due slots, then work every claimable run. */
  async function tick(limits: { maxBatches?: number } = {}): Promise<TickResult> {
    const tenants = await db.read(null, (x) => x.selectFrom('tenant').select('id').orderBy('id').execute())
    const result: TickResult = { scheduled: 0, worked: 0 }
    for (const { id } of tenants) {
      const tenantId = Number(id)
      result.scheduled += await schedule(tenantId)
      result.worked += await work(tenantId, limits)
    }
    return result
  }

  return { start, get, list, cancel, tick, work, schedule }
}

export type ProcessService = ReturnType<typeof createProcessService>

/** The loop around tick(): started by the server, stopped when the app closes. */
export function createScheduler(service: Pick<ProcessService, 'tick'>, intervalMs: number) {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let stopped = true
  let onError: (err: unknown) => void = () => {}
  function arm(ms: number) {
    timer = setTimeout(() => void pass(), ms)
    // The loop never keeps a process alive by itself.
    timer.unref()
  }
  async function pass() {
    timer = undefined
    running = service.tick().catch((err: unknown) => onError(err))
    await running
    running = undefined
    if (!stopped) arm(intervalMs)
  }
  return {
    start(handlers: { onError?: (err: unknown) => void } = {}) {
      if (!stopped) return
      stopped = false
      onError = handlers.onError ?? onError
      arm(0)
    },
    /** Runs a pass soon (a run started on demand). */
    wake() {
      if (stopped || running || timer === undefined) return
      clearTimeout(timer)
      arm(0)
    },
    /** Stops the loop; waits for the pass in progress. */
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      await running
    },
    get running() {
      return !stopped
    },
  }
}

export type Scheduler = ReturnType<typeof createScheduler>
