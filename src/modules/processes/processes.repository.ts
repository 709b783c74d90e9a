// Automatic process runs (migrations 0034 and 0040): plain Kysely functions, executor and tenant id first.
import { sql, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { ProcessRunStatus } from '../../platform/db/schema.processes.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { Window } from '../../platform/http/pagination.ts'

export type RunRow = {
  id: number
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
  started_by: string
  created_at: Date
  started_at: Date | null
  finished_at: Date | null
  duration_ms: number | null
  lease_owner: string | null
  lease_expires_at: Date | null
  state: Record<string, unknown>
}

const COLUMNS = [
  'id',
  'guid',
  'process',
  'parameters',
  'slot',
  'status',
  'cursor',
  'examined',
  'changed',
  'failed',
  'errors',
  'started_by',
  'created_at',
  'started_at',
  'finished_at',
  'duration_ms',
  'lease_owner',
  'lease_expires_at',
  'state',
] as const

function normalized(row: Record<string, unknown>): RunRow {
  const slot = row.slot as unknown
  return {
    ...(row as unknown as RunRow),
    id: Number(row.id),
    cursor: Number(row.cursor),
    // A date column may come back as a Date (pg) or a string: the slot is the calendar date.
    slot: slot === null ? null : slot instanceof Date ? slot.toISOString().slice(0, 10) : String(slot).slice(0, 10),
  }
}

export type NewRun = {
  guid: string
  process: string
  parameters: Record<string, unknown>
  slot: string | null
  startedBy: string
}

/** Inserts a QUEUED run; a scheduled slot already taken (another instance) inserts nothing: undefined. */
export async function insertRun(
  tx: Transaction<DB>,
  tenantId: number,
  run: NewRun,
  now: Date,
): Promise<RunRow | undefined> {
  const row = await tx
    .insertInto('automatic_process_run')
    .values({
      tenant_id: tenantId,
      guid: run.guid,
      process: run.process,
      parameters: JSON.stringify(run.parameters),
      slot: run.slot,
      status: 'QUEUED',
      started_by: run.startedBy,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'process', 'slot']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst()
  return row === undefined ? undefined : normalized(row)
}

export async function byGuid(x: Executor, tenantId: number, guid: string): Promise<RunRow | undefined> {
  const row = await x
    .selectFrom('automatic_process_run')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('guid', '=', guid)
    .executeTakeFirst()
  return row === undefined ? undefined : normalized(row)
}

export async function byId(x: Executor, tenantId: number, id: number): Promise<RunRow | undefined> {
  const row = await x
    .selectFrom('automatic_process_run')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row === undefined ? undefined : normalized(row)
}

/** The run locked until `tx` ends (a cancel waits for the batch in progress to commit). */
export async function lockByGuid(tx: Transaction<DB>, tenantId: number, guid: string): Promise<RunRow | undefined> {
  const row = await tx
    .selectFrom('automatic_process_run')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('guid', '=', guid)
    .forUpdate()
    .executeTakeFirst()
  return row === undefined ? undefined : normalized(row)
}

export async function lockById(tx: Transaction<DB>, tenantId: number, id: number): Promise<RunRow | undefined> {
  const row = await tx
    .selectFrom('automatic_process_run')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  return row === undefined ? undefined : normalized(row)
}

/**
 * The oldest run to work on: QUEUED, or RUNNING with its lease expired (its instance died). Locked
 * FOR UPDATE SKIP LOCKED, so two instances never take the same run.
 */
export async function claimable(tx: Transaction<DB>, tenantId: number, now: Date): Promise<RunRow | undefined> {
  const row = await tx
    .selectFrom('automatic_process_run')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([eb('status', '=', 'QUEUED'), eb.and([eb('status', '=', 'RUNNING'), eb('lease_expires_at', '<', now)])]),
    )
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst()
  return row === undefined ? undefined : normalized(row)
}

export type RunPatch = Partial<{
  status: ProcessRunStatus
  cursor: number
  examined: number
  changed: number
  failed: number
  errors: RunRow['errors']
  started_at: Date
  finished_at: Date | null
  duration_ms: number | null
  lease_owner: string | null
  lease_expires_at: Date | null
  state: Record<string, unknown>
}>

export async function updateRun(tx: Transaction<DB>, tenantId: number, id: number, patch: RunPatch): Promise<void> {
  const { errors, state, ...rest } = patch
  await tx
    .updateTable('automatic_process_run')
    .set({
      ...rest,
      ...(errors === undefined ? {} : { errors: JSON.stringify(errors) }),
      ...(state === undefined ? {} : { state: JSON.stringify(state) }),
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

export type RunFilters = {
  process?: string | undefined
  status?: ProcessRunStatus | undefined
  /** created_at on or after this instant / before this one (the day after `to`). */
  from?: Date | undefined
  before?: Date | undefined
}

export async function listRuns(
  x: Executor,
  tenantId: number,
  f: RunFilters,
  window: Window,
): Promise<{ items: RunRow[]; totalCount: number }> {
  let q = x.selectFrom('automatic_process_run').where('tenant_id', '=', tenantId)
  if (f.process !== undefined) q = q.where('process', '=', f.process)
  if (f.status !== undefined) q = q.where('status', '=', f.status)
  if (f.from !== undefined) q = q.where('created_at', '>=', f.from)
  if (f.before !== undefined) q = q.where('created_at', '<', f.before)
  const [rows, count] = await Promise.all([
    q.select(COLUMNS).orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute(),
    q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { items: rows.map(normalized), totalCount: Number(count.n) }
}

/** Whether the tenant's scheduled run of `process` for `slot` exists (made by this or another instance). */
export async function slotTaken(x: Executor, tenantId: number, process: string, slot: string): Promise<boolean> {
  const row = await x
    .selectFrom('automatic_process_run')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('process', '=', process)
    .where('slot', '=', slot)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Runs the deferred constraint checks now (the journal's balanced-entry triggers, checked at commit
 * otherwise), so an item whose postings fail them fails inside its own savepoint, not the batch's commit.
 */
export async function checkDeferredConstraints(tx: Transaction<DB>): Promise<void> {
  await sql.raw('set constraints all immediate').execute(tx)
  await sql.raw('set constraints all deferred').execute(tx)
}

/**
 * Savepoints around one item, so its failure rolls back only its own writes (the batch goes on), or
 * around a batch worked set-based, so its failure leaves the batch to be worked item by item.
 */
export async function savepoint(
  tx: Transaction<DB>,
  action: 'savepoint' | 'release' | 'rollback',
  name: 'process_item' | 'process_batch' = 'process_item',
): Promise<void> {
  const text =
    action === 'savepoint'
      ? `savepoint ${name}`
      : action === 'release'
        ? `release savepoint ${name}`
        : `rollback to savepoint ${name}`
  await sql.raw(text).execute(tx)
}
