// Status changes of many contracts at once (the automatic processes' batches, docs/processes.md
// "Batches"): the set-based form of the servicing port's lockForEvent + applyTransition for ACTIVATE
// and EXPIRE. The batch's contracts are locked in one statement (in id order), each judged exactly
// as judgeChange judges one (the edit lock, the state machine, the dates, an expiry's kept odometer),
// and for those that may change: the status (one update), the status history rows (the activation
// recorded first for a finalized contract in effect, as applyTransition does), their audit records
// and their outbox events, one statement each, with what the status recorder writes for one change.
// A contract refused is left as it was, its refusal its outcome. VOID is not here: a void also
// resets the parties' last contract dates, one dealer and customer at a time.
import { sql, type Transaction } from 'kysely'
import { writeAudits, type AuditRecord } from '../../platform/audit.ts'
import { addDays } from '../../platform/calendar.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import type { DB, JsonValue } from '../../platform/db/schema.ts'
import { appendEvents } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext } from '../../platform/http/context.ts'
import { AppError } from '../../platform/http/errors.ts'
import { isStorableId } from '../../platform/ids.ts'
import { expiryDue } from './contract-autoprocess.rules.ts'
import type { ContractEventSource } from './contract-history.ts'
import type * as repo from './contract.repository.ts'
import { statusEventType, type StatusEvent } from './contract.rules.ts'
import type { ContractCore } from './contract.service.ts'

export type BatchEvent = 'ACTIVATE' | 'EXPIRE'

export type BatchTransitionRequest = {
  event: BatchEvent
  /** The tenant-local day the batch is judged as of (an expiry's day is found from it). */
  today: string
  source: ContractEventSource
  /** More for each change's audit record (not the activation recorded first). */
  details?: Record<string, JsonValue>
}

export type BatchOutcome =
  | { contractId: number; changed: true; effectiveDate: string }
  | { contractId: number; changed: false; code: string; message: string }

type Planned = {
  row: repo.ContractRow
  from: ContractStatus
  to: ContractStatus
  effectiveDate: string
  /** An expiry's reasons (DATE, MILEAGE) for its audit record. */
  audit: Record<string, JsonValue>
}
type HistoryValues = {
  row: repo.ContractRow
  event: StatusEvent
  from: ContractStatus
  to: ContractStatus
  effectiveDate: string
  source: { type: string; id: number | null }
  audit: Record<string, JsonValue>
}

/** The contracts of `ids` a caller may see, locked in id order until `tx` ends, with their open holds. */
async function lockContracts(
  tx: Transaction<DB>,
  tenantId: number,
  ids: readonly number[],
  visible: ReadonlySet<number> | null,
): Promise<repo.ContractRow[]> {
  let q = tx.selectFrom('contract as c').selectAll('c').where('c.tenant_id', '=', tenantId).where('c.id', 'in', ids)
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  const rows = await q.orderBy('c.id').forUpdate('c').execute()
  if (rows.length === 0) return []
  const holds = await tx
    .selectFrom('contract_hold')
    .select(['contract_id', sql<number>`count(*)::int`.as('n')])
    .where('tenant_id', '=', tenantId)
    .where(
      'contract_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('resolved_at', 'is', null)
    .groupBy('contract_id')
    .execute()
  const open = new Map(holds.map((h) => [Number(h.contract_id), h.n]))
  return rows.map((r) => ({ ...r, open_holds: open.get(Number(r.id)) ?? 0 }))
}

/** The history rows, in their order; their ids by contract and event. */
async function insertHistory(
  tx: Transaction<DB>,
  tenantId: number,
  rows: readonly HistoryValues[],
  at: Date,
  actor: { label: string; userId: number | null },
): Promise<Map<string, number>> {
  const { rows: inserted } = await sql<{ id: string | number; contract_id: string | number; event: string }>`
    insert into contract_status_history
      (tenant_id, contract_id, event, from_status, to_status, effective_date, source_type, source_id,
       occurred_at, actor_label, actor_user_id)
    select ${tenantId}::bigint, u.contract_id, u.event, u.from_status, u.to_status, u.effective_date,
           u.source_type, u.source_id, ${at}::timestamptz, ${actor.label}::text, ${actor.userId}::bigint
      from unnest(
             ${rows.map((r) => r.row.id)}::bigint[], ${rows.map((r) => r.event)}::text[],
             ${rows.map((r) => r.from)}::text[], ${rows.map((r) => r.to)}::text[],
             ${rows.map((r) => r.effectiveDate)}::date[], ${rows.map((r) => r.source.type)}::text[],
             ${rows.map((r) => r.source.id)}::bigint[]
           ) with ordinality as u(contract_id, event, from_status, to_status, effective_date, source_type, source_id, ord)
     order by u.ord
    returning id, contract_id, event`.execute(tx)
  return new Map(inserted.map((r) => [`${Number(r.contract_id)}:${r.event}`, Number(r.id)]))
}

export function createBatchTransitions({ core }: { core: Pick<ContractCore, 'judgeChange'> }) {
  return {
    /**
     * ACTIVATE or EXPIRE each contract of `ids` that may take it, in `tx`; an outcome per id, in the
     * order given (a contract unknown or not visible: contract_not_found; refused: the refusal). An
     * expiry is effective on its day (expiryDue: the day after the expiration date, or the reading's
     * day), an activation on the effective date.
     */
    async transitionMany(
      tx: Transaction<DB>,
      ctx: AuthenticatedContext,
      ids: readonly number[],
      request: BatchTransitionRequest,
    ): Promise<BatchOutcome[]> {
      const { event } = request
      const wanted = ids.filter((id) => isStorableId(id))
      const rows = wanted.length === 0 ? [] : await lockContracts(tx, ctx.tenantId, wanted, visibleOf(ctx))
      const byId = new Map(rows.map((r) => [Number(r.id), r]))
      const outcomes = new Map<number, BatchOutcome>()
      const planned: Planned[] = []
      let now: Date | undefined
      for (const id of ids) {
        const row = byId.get(id)
        if (!row) {
          outcomes.set(id, { contractId: id, changed: false, code: 'contract_not_found', message: `no contract ${id}` })
          continue
        }
        try {
          // lockForEvent's judgement, then applyTransition's with the day it takes effect.
          const odometer = event === 'EXPIRE' ? row.last_odometer : undefined
          await core.judgeChange(tx, ctx, row, event, { odometer })
          const expiry = event === 'EXPIRE' ? expiryOf(row, request.today) : null
          const effectiveDate =
            event === 'ACTIVATE' ? row.effective_date : (expiry?.expiresOn ?? addDays(row.expiration_date, 1))
          const judged = await core.judgeChange(tx, ctx, row, event, { effectiveDate, odometer })
          now ??= judged.now
          const audit: Record<string, JsonValue> =
            expiry === null ? {} : { reason: expiry.reason, reasons: [...expiry.reasons] }
          planned.push({ row, from: judged.from, to: judged.to, effectiveDate, audit })
          outcomes.set(id, { contractId: id, changed: true, effectiveDate })
        } catch (err) {
          if (!(err instanceof AppError)) throw err
          outcomes.set(id, { contractId: id, changed: false, code: err.code, message: err.message })
        }
      }
      if (planned.length > 0 && now !== undefined) await write(tx, ctx, planned, request, now)
      return ids.map((id) => outcomes.get(id)!)
    },
  }

  async function write(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    planned: readonly Planned[],
    request: BatchTransitionRequest,
    at: Date,
  ): Promise<void> {
    const source = { type: request.source.type, id: request.source.id ?? null }
    const history: HistoryValues[] = []
    for (const p of planned) {
      // Judged from ACTIVE while stored FINALIZED: the activation is recorded first, as of the effective date.
      if (p.row.status !== p.from)
        history.push({
          row: p.row,
          event: 'ACTIVATE',
          from: p.row.status,
          to: p.from,
          effectiveDate: p.row.effective_date,
          source: { type: 'CONTRACT', id: null },
          audit: {},
        })
      history.push({
        row: p.row,
        event: request.event,
        from: p.from,
        to: p.to,
        effectiveDate: p.effectiveDate,
        source,
        audit: { ...request.details, ...p.audit },
      })
    }
    for (const to of new Set(planned.map((p) => p.to)))
      await tx
        .updateTable('contract')
        .set({ status: to, updated_at: at, version: sql<number>`version + 1` })
        .where('tenant_id', '=', ctx.tenantId)
        .where(
          'id',
          'in',
          planned.filter((p) => p.to === to).map((p) => p.row.id),
        )
        .execute()
    const userId = ctx.principal.userId
    const historyIds = await insertHistory(tx, ctx.tenantId, history, at, {
      label: actorLabel(ctx),
      userId: userId > 0 ? userId : null,
    })
    const audits: AuditRecord[] = history.map((h) => ({
      action: statusEventType(h.event),
      entityType: 'contract',
      entityId: h.row.id,
      changes: {
        before: { status: h.from },
        after: { status: h.to },
        effectiveDate: h.effectiveDate,
        source: h.source,
        ...h.audit,
      },
    }))
    await writeAudits(tx, ctx, at, audits)
    await appendEvents(
      tx,
      ctx.tenantId,
      at,
      history.map((h) => ({
        type: statusEventType(h.event),
        payload: {
          contractId: h.row.id,
          contractNumber: h.row.contract_number,
          dealerId: h.row.dealer_id,
          event: h.event,
          fromStatus: h.from,
          toStatus: h.to,
          effectiveDate: h.effectiveDate,
          source: h.source,
          historyId: historyIds.get(`${h.row.id}:${h.event}`) ?? null,
        },
      })),
    )
    // The locked rows as they now stand (the caller holds none of them; kept true all the same).
    for (const p of planned) {
      p.row.status = p.to
      p.row.version += 1
      p.row.updated_at = at
    }
  }
}

export type BatchTransitions = ReturnType<typeof createBatchTransitions>

/** The caller's dealers when it is dealer-side; null: every dealer (as lockRow filters). */
function visibleOf(ctx: AuthenticatedContext): ReadonlySet<number> | null {
  return ctx.principal.visibleAccountHolderIds
}

/** Why and from which day a contract expires as of `today`: by date the day after the expiration date, by mileage the reading's day. */
function expiryOf(row: repo.ContractRow, today: string) {
  const reading =
    row.last_odometer === null || row.last_odometer_on === null
      ? null
      : { odometer: row.last_odometer, readOn: row.last_odometer_on }
  const due = expiryDue(
    {
      effectiveDate: row.effective_date,
      expirationDate: row.expiration_date,
      expirationOdometer: row.expiration_odometer,
      reading,
    },
    today,
  )
  return due
}
