// The status history of contracts (docs/contracts.md "Status history"): every status change —
// creation, finalization, activation, and what the servicing port applies (void, expire, cancel,
// reinstate) — is recorded here in the transaction of the change, with its audit record and its
// outbox event, and keeps the parties' last contract date true when a contract stops counting.
import type { Transaction } from 'kysely'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import type { DB, JsonValue } from '../../platform/db/schema.ts'
import { EVENT_TYPE_PATTERN } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext } from '../../platform/http/context.ts'
import type { ContractParties } from '../parties/index.ts'
import * as repo from './contract.repository.ts'
import { statusEventType, type StatusEvent } from './contract.rules.ts'

/**
 * What made a status change: the contract's own lifecycle (its routes, its dates), a cancellation,
 * a claim, an automatic process, a transfer; `id` names that record when there is one.
 */
export const SOURCE_TYPES = ['CONTRACT', 'CANCELLATION', 'CLAIM', 'PROCESS', 'TRANSFER'] as const
export type ContractSourceType = (typeof SOURCE_TYPES)[number]
export type ContractEventSource = { type: ContractSourceType; id?: number | null | undefined }

/** A recorded status change as the port and GET …/statushistory show it. */
export type StatusChange = {
  historyId: number
  event: StatusEvent
  /** Null for the creation. */
  fromStatus: ContractStatus | null
  toStatus: ContractStatus
  /** The day from which the contract is in `toStatus`. */
  effectiveDate: string
  /** BACKFILL: rebuilt by migration 0015 for contracts older than the history. */
  source: { type: ContractSourceType | 'BACKFILL'; id: number | null }
  occurredAt: string
  actor: string
  actorUserId: number | null
}

export function toStatusChange(row: repo.StatusHistoryRow): StatusChange {
  return {
    historyId: row.id,
    event: row.event as StatusEvent,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    effectiveDate: row.effective_date,
    source: { type: row.source_type as StatusChange['source']['type'], id: row.source_id },
    occurredAt: new Date(row.occurred_at).toISOString(),
    actor: row.actor_label,
    actorUserId: row.actor_user_id,
  }
}

/** The contract a change is recorded for. */
export type RecordedContract = { id: number; contractNumber: string; dealerId: number; customerId: number }

export type StatusChangeInput = {
  contract: RecordedContract
  event: StatusEvent
  from: ContractStatus | null
  to: ContractStatus
  effectiveDate: string
  source: ContractEventSource
  /** The service clock's now: when the change happened. */
  at: Date
  /** More for the audit record, beside the statuses, effective date and source (an `after` replaces the default one). */
  audit?: Record<string, unknown> | undefined
  /**
   * The recorder writes `to` as the contract's status too (updated_at = `at`, version + 1), in the
   * same statement as the history row; otherwise the caller has written it.
   */
  writeStatus?: boolean | undefined
}

export type RecordedChange = { historyId: number; outboxEventId: number }

/** The parties' part: their last contract date follows contracts that stop (or start again) counting. */
export type HistoryParties = Pick<ContractParties, 'resetLastContractDates'>

export function createStatusRecorder(parties: HistoryParties) {
  /**
   * Records a status change the caller has written (or is writing; or, with `writeStatus`, writes it
   * here) to the contract row: the history row, the audit record `contract.<event>` and the outbox
   * event of the same type, all in `tx`, in one statement.
   * A change into or out of VOIDED recomputes the last contract date of the dealer and the contract
   * holder (the latest sale date of their contracts that are not voided).
   */
  async function record(tx: Transaction<DB>, ctx: AuthenticatedContext, input: StatusChangeInput) {
    const { contract, event, from, to, effectiveDate, at } = input
    const source = { type: input.source.type, id: input.source.id ?? null }
    const userId = ctx.principal.userId
    const type = statusEventType(event)
    if (!EVENT_TYPE_PATTERN.test(type))
      throw new RangeError(`event type ${JSON.stringify(type)} is not <entity>.<event>`)
    // The history row, the audit record and the event in one statement; the payload's historyId is
    // the new row's id, set by that statement.
    const payload: { [key: string]: JsonValue } = {
      contractId: contract.id,
      contractNumber: contract.contractNumber,
      dealerId: contract.dealerId,
      event,
      fromStatus: from,
      toStatus: to,
      effectiveDate,
      source,
      historyId: null,
    }
    const { historyId, outboxEventId } = await repo.insertStatusChange(
      tx,
      ctx.tenantId,
      {
        contract_id: contract.id,
        event,
        from_status: from,
        to_status: to,
        effective_date: effectiveDate,
        source_type: source.type,
        source_id: source.id,
        occurred_at: at,
        actor_label: actorLabel(ctx),
        actor_user_id: userId > 0 ? userId : null,
      },
      {
        actorUserId: ctx.principal && userId > 0 ? userId : null,
        actorApiKeyId: ctx.apiKeyId > 0 ? ctx.apiKeyId : null,
        actorLabel: actorLabel(ctx),
        requestId: ctx.requestId,
        action: type,
        entityId: String(contract.id),
        changes: { before: { status: from }, after: { status: to }, effectiveDate, source, ...input.audit },
      },
      { type, payload },
      input.writeStatus === true,
    )
    if (from === 'VOIDED' || to === 'VOIDED') {
      const who = { dealerId: contract.dealerId, customerId: contract.customerId }
      await parties.resetLastContractDates(tx, ctx.tenantId, [who.dealerId, who.customerId], () =>
        repo.latestSaleDates(tx, ctx.tenantId, who),
      )
    }
    return { historyId, outboxEventId } satisfies RecordedChange
  }
  return { record }
}

export type StatusRecorder = ReturnType<typeof createStatusRecorder>

/** The contract a row describes, for the recorder. */
export function recordedContract(row: repo.ContractRow): RecordedContract {
  return { id: row.id, contractNumber: row.contract_number, dealerId: row.dealer_id, customerId: row.customer_id }
}
