// Automatic processes (docs/processes.md): the runs (one row each, migrations 0034 and 0040) and the
// runner that works them; what each process does is its definition (processes.catalog.ts: the items
// due after a cursor, the action on one). Invariants:
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
import { AppError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { processCatalog, type ProcessDefinition, type ProcessPorts, type RunInfo } from './processes.catalog.ts'
import { processErrors } from './processes.errors.ts'
import * as repo from './processes.repository.ts'
import {
  CADENCE,
  checkStart,
  DEFAULT_BATCH_SIZE,
  PROCESSES,
  scheduledParameters,
  slotOf,
  type ProcessName,
} from './processes.rules.ts'
import { createPeriodicLoop, type PeriodicLoop } from '../../platform/periodic-loop.ts'

export { DEFAULT_BATCH_SIZE, PROCESSES, type ProcessName } from './processes.rules.ts'
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

/** At most this many item errors are kept on a run; `failed` is always the exact count. */
export const MAX_RUN_ERRORS = 100

export type ProcessOptions = {
  /** This instance's name in leases. */
  owner: string
  /** How long a lease holds without a batch renewing it. */
  leaseMs: number
  /**
   * Batches of a parallel process (ACTIVATION, EXPIRY) worked at once, each on its own connection:
   * 4 on PostgreSQL, 1 on the embedded database (one connection).
   */
  parallelBatches: number
}

/** A batch found its run no longer this instance's (cancelled, or its lease taken over). */
class StoppedRun extends Error {}

export type ProcessDeps = ProcessPorts & {
  db: Database
  clock: Clock
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
  state: Record<string, unknown>
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
    state: r.state,
    startedBy: r.started_by,
    createdAt: r.created_at.toISOString(),
    startedAt: r.started_at?.toISOString() ?? null,
    finishedAt: r.finished_at?.toISOString() ?? null,
    durationMs: r.duration_ms,
  }
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

/**
 * What a run shows of an item's failure: a refusal's code and message (an AppError: 409, 423…);
 * anything else only as an internal error, with the database's SQLSTATE when there is one (the
 * run is read over the API: no driver or SQL text in it).
 */
function itemError(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.code, message: err.message.slice(0, 500) }
  const state = (err as { code?: unknown } | null)?.code
  return {
    code: 'internal_error',
    message:
      typeof state === 'string' && /^[0-9A-Z]{5}$/.test(state)
        ? `the item failed in the database (SQLSTATE ${state})`
        : 'the item failed (internal error)',
  }
}

/** The counts and position a run has reached, as its process's `end` sees them. */
type Progress = { cursor: number; examined: number; changed: number; failed: number }

export function createProcessService(deps: ProcessDeps) {
  const { db, clock, settings, options } = deps
  const catalog: Record<ProcessName, ProcessDefinition> = processCatalog(deps)

  async function today(tenantId: number): Promise<string> {
    return localDate(clock.now(), await settings.get(tenantId, 'timeZone'))
  }

  const info = (run: repo.RunRow, now: Date): RunInfo => ({
    id: run.id,
    guid: run.guid,
    parameters: run.parameters,
    state: run.state as RunInfo['state'],
    now,
  })

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
    const errors = checkStart(body, await today(ctx.tenantId))
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

  /**
   * Ends the run in `status`, in `tx`: its process's `end` (a run that started), the event, and for a
   * cancel its audit record.
   */
  async function finish(
    tx: Transaction<DB>,
    tenantId: number,
    ctx: AuthenticatedContext,
    run: repo.RunRow,
    status: ProcessRunStatus,
    now: Date,
  ): Promise<void> {
    const durationMs = run.started_at === null ? 0 : Math.max(0, now.getTime() - run.started_at.getTime())
    const definition = catalog[run.process as ProcessName]
    // A run that never started fixed nothing (no day in its state), so there is nothing to end.
    if (definition?.end && typeof run.state.day === 'string') {
      const progress: Progress = {
        cursor: run.cursor,
        examined: run.examined,
        changed: run.changed,
        failed: run.failed,
      }
      await definition.end(tx, systemContext(tenantId, 'automatic-process'), { ...info(run, now), ...progress })
    }
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

  /** Works `ids` in `tx`, each under its own savepoint: one item's failure is its own. */
  async function workItems(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    definition: ProcessDefinition,
    run: RunInfo,
    ids: readonly number[],
  ): Promise<Omit<Progress, 'cursor'> & { errors: repo.RunRow['errors'] }> {
    const done = { examined: 0, changed: 0, failed: 0, errors: [] as repo.RunRow['errors'] }
    if (definition.items && ids.length > 0) {
      await repo.savepoint(tx, 'savepoint', 'process_batch')
      try {
        const outcomes = await definition.items(tx, ctx, run, ids)
        if (definition.posts) await repo.checkDeferredConstraints(tx)
        await repo.savepoint(tx, 'release', 'process_batch')
        for (const o of outcomes) {
          done.examined++
          if (o.changed) done.changed++
          if (o.error) {
            done.failed++
            if (done.errors.length < MAX_RUN_ERRORS)
              done.errors.push({ itemId: o.id, code: o.error.code, message: o.error.message.slice(0, 500) })
          }
        }
        return done
      } catch {
        // Nothing of the set-based attempt stays: the batch is worked item by item.
        await repo.savepoint(tx, 'rollback', 'process_batch')
      }
    }
    for (const id of ids) {
      done.examined++
      await repo.savepoint(tx, 'savepoint')
      try {
        const did = await definition.item(tx, ctx, run, id)
        if (definition.posts) await repo.checkDeferredConstraints(tx)
        await repo.savepoint(tx, 'release')
        if (did) done.changed++
      } catch (err) {
        // One item's failure is its own: its writes are undone, the run goes on.
        await repo.savepoint(tx, 'rollback')
        done.failed++
        if (done.errors.length < MAX_RUN_ERRORS) done.errors.push({ itemId: id, ...itemError(err) })
      }
    }
    return done
  }

  /** The run locked in `tx` when it is still this instance's to work (RUNNING under its lease). */
  async function ownRun(tx: Transaction<DB>, tenantId: number, runId: number): Promise<repo.RunRow | undefined> {
    const run = await repo.lockById(tx, tenantId, runId)
    return run && run.status === 'RUNNING' && run.lease_owner === options.owner ? run : undefined
  }

  /** The run's state, fixed (its day, what the process's `begin` gives) and saved when it has none yet. */
  async function fixState(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    definition: ProcessDefinition,
    run: repo.RunRow,
    now: Date,
  ): Promise<repo.RunRow> {
    if (typeof run.state.day === 'string') return run
    const day = await today(ctx.tenantId)
    const fixed = definition.begin ? await definition.begin(tx, ctx, info({ ...run, state: { day } }, now)) : {}
    const state = { ...fixed, day }
    await repo.updateRun(tx, ctx.tenantId, run.id, { state })
    return { ...run, state }
  }

  const sizeOf = (run: repo.RunRow) =>
    typeof run.parameters.batchSize === 'number' ? run.parameters.batchSize : DEFAULT_BATCH_SIZE

  /**
   * One batch of the run leased by this instance, in one transaction with its cursor advance: the
   * process's due items after the cursor, each worked under its own savepoint. The first batch
   * fixes the run's state. 'more' when another batch may follow, 'done' when the run finished,
   * 'stopped' when the run is no longer this instance's (cancelled, or its lease taken over).
   */
  async function batch(tenantId: number, runId: number): Promise<'more' | 'done' | 'stopped'> {
    const ctx = systemContext(tenantId, 'automatic-process')
    const now = clock.now()
    return db.transaction(tenantId, async (tx) => {
      let run = await ownRun(tx, tenantId, runId)
      if (!run) return 'stopped'
      const definition = definitionOf(run)
      run = await fixState(tx, ctx, definition, run, now)
      const current = info(run, now)
      const size = sizeOf(run)
      const ids = await definition.due(tenantId, current, run.cursor, size)
      const done = await workItems(tx, ctx, definition, current, ids)
      const progress = {
        cursor: ids.at(-1) ?? run.cursor,
        examined: run.examined + done.examined,
        changed: run.changed + done.changed,
        failed: run.failed + done.failed,
        errors: [...run.errors, ...done.errors].slice(0, MAX_RUN_ERRORS),
      }
      await repo.updateRun(tx, tenantId, run.id, {
        ...progress,
        lease_expires_at: new Date(now.getTime() + options.leaseMs),
      })
      if (ids.length < size) {
        await finish(tx, tenantId, ctx, { ...run, ...progress }, 'SUCCEEDED', now)
        return 'done'
      }
      return 'more'
    })
  }

  /**
   * Up to `slices` batches of a parallel process (its items leave its due query once worked: a
   * status changed) at once, each its own transaction on its own connection, committing its items
   * with its counts (added under the run's lock at its end, when the run is still this instance's;
   * otherwise the batch rolls back). The cursor moves past them all once every batch committed: an
   * instance that dies in between leaves the cursor behind items already changed, which its
   * successor's due query no longer finds, so nothing is changed twice and every change is counted.
   */
  async function parallelBatches(
    tenantId: number,
    runId: number,
    slices: number,
  ): Promise<'more' | 'done' | 'stopped'> {
    const ctx = systemContext(tenantId, 'automatic-process')
    const now = clock.now()
    const opened = await db.transaction(tenantId, async (tx) => {
      const owned = await ownRun(tx, tenantId, runId)
      if (!owned) return undefined
      const run = await fixState(tx, ctx, definitionOf(owned), owned, now)
      return { run, ids: await definitionOf(run).due(tenantId, info(run, now), run.cursor, sizeOf(run) * slices) }
    })
    if (!opened) return 'stopped'
    const { run, ids } = opened
    const definition = definitionOf(run)
    const size = sizeOf(run)
    const current = info(run, now)
    const parts: number[][] = []
    for (let k = 0; k < ids.length; k += size) parts.push(ids.slice(k, k + size))
    const outcomes = await Promise.all(
      parts.map((part) =>
        db
          .transaction(tenantId, async (tx) => {
            const done = await workItems(tx, ctx, definition, current, part)
            const held = await ownRun(tx, tenantId, runId)
            // Cancelled or taken over meanwhile: this batch's changes go with it.
            if (!held) throw new StoppedRun()
            await repo.updateRun(tx, tenantId, runId, {
              examined: held.examined + done.examined,
              changed: held.changed + done.changed,
              failed: held.failed + done.failed,
              errors: [...held.errors, ...done.errors].slice(0, MAX_RUN_ERRORS),
              lease_expires_at: new Date(now.getTime() + options.leaseMs),
            })
            return 'ok' as const
          })
          .catch((err: unknown) => {
            if (err instanceof StoppedRun) return 'stopped' as const
            throw err
          }),
      ),
    )
    if (outcomes.includes('stopped')) return 'stopped'
    return db.transaction(tenantId, async (tx) => {
      const held = await ownRun(tx, tenantId, runId)
      if (!held) return 'stopped'
      const cursor = ids.at(-1) ?? held.cursor
      await repo.updateRun(tx, tenantId, runId, { cursor })
      if (ids.length < size * slices) {
        await finish(tx, tenantId, ctx, { ...held, cursor }, 'SUCCEEDED', now)
        return 'done'
      }
      return 'more'
    })
  }

  function definitionOf(run: repo.RunRow): ProcessDefinition {
    const definition = catalog[run.process as ProcessName]
    if (definition === undefined) throw new Error(`no automatic process ${run.process}`)
    return definition
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
        errors.push({ itemId: 0, code: 'process_failed', message: itemError(err).message })
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
      const parallel = await db.read(tenantId, async (x) => {
        const row = await repo.byId(x, tenantId, runId)
        return row !== undefined && catalog[row.process as ProcessName]?.parallel === true
      })
      for (;;) {
        if (limits.maxBatches !== undefined && batches >= limits.maxBatches) return taken
        const slices =
          parallel && options.parallelBatches > 1
            ? Math.min(options.parallelBatches, (limits.maxBatches ?? Number.POSITIVE_INFINITY) - batches)
            : 1
        batches += slices
        let outcome: 'more' | 'done' | 'stopped'
        try {
          outcome = slices > 1 ? await parallelBatches(tenantId, runId, slices) : await batch(tenantId, runId)
        } catch (err) {
          await fail(tenantId, runId, err)
          break
        }
        if (outcome !== 'more') break
      }
    }
  }

  /**
   * Queues the scheduled runs whose time of day has come: a daily process's run of today, a monthly
   * one's run of this month (for the month before). A slot taken by another instance is skipped.
   */
  async function schedule(tenantId: number): Promise<number> {
    const now = clock.now()
    const zone = await settings.get(tenantId, 'timeZone')
    const day = localDate(now, zone)
    const minutes = localMinutes(now, zone)
    let made = 0
    for (const process of PROCESSES) {
      const at = await settings.get(tenantId, catalog[process].schedule)
      if (at === null || minutes * 60_000 < at.milliseconds) continue
      const slot = slotOf(CADENCE[process], day)
      if (await db.read(tenantId, (x) => repo.slotTaken(x, tenantId, process, slot))) continue
      const row = await insert(
        tenantId,
        systemContext(tenantId, 'scheduler'),
        process,
        scheduledParameters(process, slot),
        slot,
      )
      if (row) made++
    }
    return made
  }

  /**
   * One deterministic pass: queue due slots, then work every claimable run, for every tenant or for
   * `tenantIds` only (an instance serving some tenants; tests sharing one database with other
   * files' tenants, whose clocks differ).
   */
  async function tick(limits: { maxBatches?: number; tenantIds?: readonly number[] } = {}): Promise<TickResult> {
    const tenants =
      limits.tenantIds ??
      (await db.read(null, (x) => x.selectFrom('tenant').select('id').orderBy('id').execute())).map((r) => Number(r.id))
    const result: TickResult = { scheduled: 0, worked: 0 }
    for (const tenantId of tenants) {
      result.scheduled += await schedule(tenantId)
      result.worked += await work(tenantId, limits)
    }
    return result
  }

  return { start, get, list, cancel, tick, work, schedule }
}

export type ProcessService = ReturnType<typeof createProcessService>

/** The loop around tick(): started by the server, stopped when the app closes. */
export function createScheduler(service: Pick<ProcessService, 'tick'>, intervalMs: number): PeriodicLoop {
  return createPeriodicLoop(() => service.tick(), intervalMs)
}

export type Scheduler = PeriodicLoop
