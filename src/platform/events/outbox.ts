// The event outbox (docs/events.md): an event is appended inside the transaction of the change it
// announces (a contract finalized, cancelled, a claim paid…), so it exists if and only if the change
// committed. Nothing here delivers events; the deliverer reads them in id order per tenant.
import { sql, type Transaction } from 'kysely'
import type { DB, JsonValue } from '../db/schema.ts'

/** `<entity>.<what happened>`, lower case: `contract.finalized`, `claim.paid`. */
export const EVENT_TYPE_PATTERN = /^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/

export type OutboxEvent = {
  type: string
  /** What a subscriber needs without another call: ids, numbers, statuses, dates, amounts as decimals. */
  payload: { [key: string]: JsonValue }
}

export type StoredEvent = OutboxEvent & { id: number; tenantId: number; createdAt: Date }

/** Appends `event` in `tx`; `at` is the service clock's now (the change's time, not the database's). */
export async function appendEvent(
  tx: Transaction<DB>,
  tenantId: number,
  at: Date,
  event: OutboxEvent,
): Promise<number> {
  if (!EVENT_TYPE_PATTERN.test(event.type) || event.type.length > 100)
    throw new RangeError(`event type ${JSON.stringify(event.type)} is not <entity>.<event> in lower case`)
  const row = await tx
    .insertInto('event_outbox')
    .values({ tenant_id: tenantId, type: event.type, payload: JSON.stringify(event.payload), created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

/**
 * Appends `events` in `tx` in one statement, in their order (their ids ascend with it, so events of
 * one contract keep their order for the deliverer); their ids, in that order.
 */
export async function appendEvents(
  tx: Transaction<DB>,
  tenantId: number,
  at: Date,
  events: readonly OutboxEvent[],
): Promise<number[]> {
  if (events.length === 0) return []
  for (const event of events)
    if (!EVENT_TYPE_PATTERN.test(event.type) || event.type.length > 100)
      throw new RangeError(`event type ${JSON.stringify(event.type)} is not <entity>.<event> in lower case`)
  const { rows } = await sql<{ id: string | number }>`
    insert into event_outbox (tenant_id, type, payload, created_at)
    select ${tenantId}::bigint, u.type, u.payload::jsonb, ${at}::timestamptz
      from unnest(${events.map((e) => e.type)}::text[], ${events.map((e) => JSON.stringify(e.payload))}::text[])
           with ordinality as u(type, payload, ord)
     order by u.ord
    returning id`.execute(tx)
  return rows.map((r) => Number(r.id)).toSorted((a, b) => a - b)
}

/** The tenant's events after `afterId` in id order (the deliverer's cursor), at most `limit`. */
export async function eventsAfter(
  tx: Transaction<DB>,
  tenantId: number,
  afterId: number,
  limit: number,
  types?: readonly string[],
): Promise<StoredEvent[]> {
  let query = tx
    .selectFrom('event_outbox')
    .select(['id', 'tenant_id', 'type', 'payload', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '>', afterId)
  if (types !== undefined) query = query.where('type', 'in', types.length > 0 ? [...types] : [''])
  const rows = await query.orderBy('id').limit(limit).execute()
  return rows.map((r) => ({
    id: Number(r.id),
    tenantId: Number(r.tenant_id),
    type: r.type,
    payload: r.payload as StoredEvent['payload'],
    createdAt: r.created_at,
  }))
}
