// Frozen report documents and report runs (migration 0043, docs/reporting.md "Month close" and "Report
// runs"). Plain Kysely functions; every statement names the tenant.
import type { Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { ReportKind, ReportRunStatus } from '../../platform/db/schema.reporting.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { Window } from '../../platform/http/pagination.ts'

export type DocumentRow = {
  id: number
  kind: ReportKind
  riskBearerId: number
  period: string
  reportRunId: number | null
  document: Record<string, unknown>
  inputDigest: string
  createdAt: Date
  createdBy: string
}

const DOCUMENT_COLUMNS = [
  'id',
  'kind',
  'risk_bearer_id',
  'period',
  'report_run_id',
  'document',
  'input_digest',
  'created_at',
  'created_by',
] as const

type RawDocument = {
  id: number | string
  kind: ReportKind
  risk_bearer_id: number | string
  period: string
  report_run_id: number | string | null
  document: Record<string, unknown>
  input_digest: string
  created_at: Date
  created_by: string
}

const toDocument = (r: RawDocument): DocumentRow => ({
  id: Number(r.id),
  kind: r.kind,
  riskBearerId: Number(r.risk_bearer_id),
  period: r.period,
  reportRunId: r.report_run_id === null ? null : Number(r.report_run_id),
  document: r.document,
  inputDigest: r.input_digest,
  createdAt: r.created_at,
  createdBy: r.created_by,
})

/** The frozen document of a kind, risk bearer and month. */
export async function documentOf(
  x: Executor,
  tenantId: number,
  kind: ReportKind,
  riskBearerId: number,
  period: string,
): Promise<DocumentRow | undefined> {
  const r = await x
    .selectFrom('report_document')
    .select(DOCUMENT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('risk_bearer_id', '=', riskBearerId)
    .where('period', '=', period)
    .executeTakeFirst()
  return r && toDocument(r)
}

/** The latest frozen document of a kind and risk bearer before a month. */
export async function latestDocumentBefore(
  x: Executor,
  tenantId: number,
  kind: ReportKind,
  riskBearerId: number,
  period: string,
): Promise<DocumentRow | undefined> {
  const r = await x
    .selectFrom('report_document')
    .select(DOCUMENT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('risk_bearer_id', '=', riskBearerId)
    .where('period', '<', period)
    .orderBy('period', 'desc')
    .limit(1)
    .executeTakeFirst()
  return r && toDocument(r)
}

/** Stores a frozen document unless one of its kind, risk bearer and month is there (the first wins): its id, or undefined. */
export async function insertDocument(
  tx: Transaction<DB>,
  tenantId: number,
  d: Omit<DocumentRow, 'id'>,
): Promise<number | undefined> {
  const r = await tx
    .insertInto('report_document')
    .values({
      tenant_id: tenantId,
      kind: d.kind,
      risk_bearer_id: d.riskBearerId,
      period: d.period,
      report_run_id: d.reportRunId,
      document: JSON.stringify(d.document),
      input_digest: d.inputDigest,
      created_at: d.createdAt,
      created_by: d.createdBy,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'kind', 'risk_bearer_id', 'period']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return r === undefined ? undefined : Number(r.id)
}

/** The documents of a kind and month for the risk bearers, without their bodies, by risk bearer. */
export async function documentsFor(
  x: Executor,
  tenantId: number,
  kind: ReportKind,
  period: string,
  riskBearerIds: readonly number[],
) {
  if (riskBearerIds.length === 0) return []
  const rows = await x
    .selectFrom('report_document')
    .select(['id', 'risk_bearer_id', 'report_run_id', 'input_digest', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('period', '=', period)
    .where('risk_bearer_id', 'in', [...riskBearerIds])
    .orderBy('risk_bearer_id')
    .execute()
  return rows.map((r) => ({
    id: Number(r.id),
    riskBearerId: Number(r.risk_bearer_id),
    reportRunId: r.report_run_id === null ? null : Number(r.report_run_id),
    inputDigest: r.input_digest,
    createdAt: r.created_at,
  }))
}

export type RunRow = {
  id: number
  kind: ReportKind
  period: string
  riskBearerIds: number[]
  scopeKey: string
  status: ReportRunStatus
  total: number
  done: number
  cursor: number
  leaseOwner: string | null
  leaseExpiresAt: Date | null
  error: { code: string; message: string } | null
  createdAt: Date
  createdBy: string
  startedAt: Date | null
  finishedAt: Date | null
}

const RUN_COLUMNS = [
  'id',
  'kind',
  'period',
  'risk_bearer_ids',
  'scope_key',
  'status',
  'total',
  'done',
  'cursor',
  'lease_owner',
  'lease_expires_at',
  'error',
  'created_at',
  'created_by',
  'started_at',
  'finished_at',
] as const

type RawRun = {
  id: number | string
  kind: ReportKind
  period: string
  risk_bearer_ids: Array<number | string>
  scope_key: string
  status: ReportRunStatus
  total: number
  done: number
  cursor: number | string
  lease_owner: string | null
  lease_expires_at: Date | null
  error: { code: string; message: string } | null
  created_at: Date
  created_by: string
  started_at: Date | null
  finished_at: Date | null
}

const toRun = (r: RawRun): RunRow => ({
  id: Number(r.id),
  kind: r.kind,
  period: r.period,
  riskBearerIds: r.risk_bearer_ids.map(Number),
  scopeKey: r.scope_key,
  status: r.status,
  total: Number(r.total),
  done: Number(r.done),
  cursor: Number(r.cursor),
  leaseOwner: r.lease_owner,
  leaseExpiresAt: r.lease_expires_at,
  error: r.error,
  createdAt: r.created_at,
  createdBy: r.created_by,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
})

/** A new run, unless one of its kind, month and risk bearers is there: the new row, or undefined. */
export async function insertRun(
  tx: Transaction<DB>,
  tenantId: number,
  v: {
    kind: ReportKind
    period: string
    riskBearerIds: number[]
    scopeKey: string
    createdAt: Date
    createdBy: string
  },
): Promise<RunRow | undefined> {
  const r = await tx
    .insertInto('report_run')
    .values({
      tenant_id: tenantId,
      kind: v.kind,
      period: v.period,
      risk_bearer_ids: v.riskBearerIds,
      scope_key: v.scopeKey,
      status: 'QUEUED',
      total: v.riskBearerIds.length,
      created_at: v.createdAt,
      created_by: v.createdBy,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'kind', 'period', 'scope_key']).doNothing())
    .returning(RUN_COLUMNS)
    .executeTakeFirst()
  return r && toRun(r)
}

export async function runByScope(
  x: Executor,
  tenantId: number,
  kind: ReportKind,
  period: string,
  scopeKey: string,
): Promise<RunRow | undefined> {
  const r = await x
    .selectFrom('report_run')
    .select(RUN_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('period', '=', period)
    .where('scope_key', '=', scopeKey)
    .executeTakeFirst()
  return r && toRun(r)
}

const runQuery = (x: Executor, tenantId: number, id: number) =>
  x.selectFrom('report_run').select(RUN_COLUMNS).where('tenant_id', '=', tenantId).where('id', '=', id)

export async function runById(x: Executor, tenantId: number, id: number): Promise<RunRow | undefined> {
  const r = await runQuery(x, tenantId, id).executeTakeFirst()
  return r && toRun(r)
}

/** The run under its row lock (a batch, a take-over). */
export async function lockRun(tx: Transaction<DB>, tenantId: number, id: number): Promise<RunRow | undefined> {
  const r = await runQuery(tx, tenantId, id).forUpdate().executeTakeFirst()
  return r && toRun(r)
}

/** The oldest run to work: QUEUED, or RUNNING with its lease expired; skipping runs another instance holds locked. */
export async function claimable(tx: Transaction<DB>, tenantId: number, now: Date): Promise<RunRow | undefined> {
  const r = await tx
    .selectFrom('report_run')
    .select(RUN_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'QUEUED'),
        eb.and([
          eb('status', '=', 'RUNNING'),
          eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]),
        ]),
      ]),
    )
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst()
  return r && toRun(r)
}

export async function updateRun(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  patch: Partial<{
    status: ReportRunStatus
    done: number
    cursor: number
    lease_owner: string | null
    lease_expires_at: Date | null
    error: { code: string; message: string } | null
    started_at: Date | null
    finished_at: Date | null
  }>,
): Promise<void> {
  const { error, ...rest } = patch
  await tx
    .updateTable('report_run')
    .set({ ...rest, ...(error === undefined ? {} : { error: error === null ? null : JSON.stringify(error) }) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

export type RunFilter = {
  kind?: ReportKind | undefined
  period?: string | undefined
  status?: ReportRunStatus | undefined
}

export async function listRuns(
  x: Executor,
  tenantId: number,
  filter: RunFilter,
  window: Window,
): Promise<{ items: RunRow[]; totalCount: number }> {
  let q = x.selectFrom('report_run').where('tenant_id', '=', tenantId)
  if (filter.kind !== undefined) q = q.where('kind', '=', filter.kind)
  if (filter.period !== undefined) q = q.where('period', '=', filter.period)
  if (filter.status !== undefined) q = q.where('status', '=', filter.status)
  const [rows, count] = [
    await q.select(RUN_COLUMNS).orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute(),
    await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]
  return { items: rows.map(toRun), totalCount: Number(count.n) }
}
