// Webhook tables (migration 0033): plain Kysely functions, executor and tenant first; every
// statement names tenant_id.
import { sql, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type {
  WebhookDeliveryStatus,
  WebhookDeliveryTable,
  WebhookSubscriptionTable,
} from '../../platform/db/schema.webhooks.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type SubscriptionRow = Selectable<WebhookSubscriptionTable>
export type DeliveryRow = Selectable<WebhookDeliveryTable>

export async function insertSubscription(
  tx: Transaction<DB>,
  tenantId: number,
  row: { url: string; eventTypes: string[]; description: string | null; active: boolean; at: Date; by: string },
): Promise<SubscriptionRow> {
  return tx
    .insertInto('webhook_subscription')
    .values({
      tenant_id: tenantId,
      url: row.url,
      event_types: JSON.stringify(row.eventTypes),
      description: row.description,
      active: row.active,
      // Sealed in the same transaction once the id (part of the sealing context) is known.
      secret: '',
      created_at: row.at,
      created_by: row.by,
      updated_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function setSecret(tx: Transaction<DB>, tenantId: number, id: number, sealed: string, at: Date) {
  await tx
    .updateTable('webhook_subscription')
    .set({ secret: sealed, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

/** Every subscription's sealed secret (deleted ones too), locked: the sealing passes (reseal after a key rotation). */
export async function lockSecrets(tx: Transaction<DB>, tenantId: number) {
  return tx
    .selectFrom('webhook_subscription')
    .select(['id', 'secret', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .forUpdate()
    .execute()
}

/** A subscription not deleted; `lock` takes its row for the caller's transaction. */
export async function findSubscription(
  db: Executor,
  tenantId: number,
  id: number,
  lock = false,
): Promise<SubscriptionRow | undefined> {
  let q = db
    .selectFrom('webhook_subscription')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
  if (lock) q = q.forUpdate()
  return q.executeTakeFirst()
}

export async function listSubscriptions(
  db: Executor,
  tenantId: number,
  window: Window,
): Promise<{ items: SubscriptionRow[]; totalCount: number }> {
  const base = db.selectFrom('webhook_subscription').where('tenant_id', '=', tenantId).where('deleted_at', 'is', null)
  const [items, count] = await Promise.all([
    windowed(base.selectAll().orderBy('id'), window).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { items, totalCount: Number(count.n) }
}

/** The tenant's subscriptions that take new deliveries (active, not deleted). */
export async function activeSubscriptions(db: Executor, tenantId: number): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('webhook_subscription')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('active', '=', true)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute()
}

export async function updateSubscription(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  set: Partial<{ url: string; event_types: string; description: string | null; active: boolean; deleted_at: Date }>,
  at: Date,
): Promise<SubscriptionRow> {
  return tx
    .updateTable('webhook_subscription')
    .set({ ...set, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Gives up the PENDING deliveries of a deleted subscription. */
export async function failPendingOf(tx: Transaction<DB>, tenantId: number, subscriptionId: number, at: Date) {
  await tx
    .updateTable('webhook_delivery')
    .set({ status: 'FAILED', next_attempt_at: null, last_error: 'subscription deleted', updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'PENDING')
    .execute()
}

/**
 * The tenant's fan-out cursor, created at the tenant's newest event when its first subscription is
 * made (events from before any subscription existed are never delivered).
 */
export async function ensureCursor(tx: Transaction<DB>, tenantId: number, at: Date) {
  await sql`
    insert into webhook_cursor (tenant_id, last_event_id, updated_at)
    select ${tenantId}::bigint, coalesce(max(id), 0), ${at}::timestamptz from event_outbox where tenant_id = ${tenantId}
    on conflict (tenant_id) do nothing`.execute(tx)
}

/** The cursor, locked for this transaction; undefined when absent or another instance holds it. */
export async function lockCursor(tx: Transaction<DB>, tenantId: number): Promise<number | undefined> {
  const row = await tx
    .selectFrom('webhook_cursor')
    .select('last_event_id')
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst()
  return row === undefined ? undefined : Number(row.last_event_id)
}

export async function moveCursor(tx: Transaction<DB>, tenantId: number, lastEventId: number, at: Date) {
  await tx
    .updateTable('webhook_cursor')
    .set({ last_event_id: lastEventId, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .execute()
}

/**
 * Events at or behind the cursor (within `window` ids, created since `since`) that have no delivery:
 * outbox ids follow insertion, not commit order, so an event may commit after a later id was read
 * (docs/events.md). An event no subscription takes is read again until it leaves the window.
 */
export async function lateEvents(tx: Transaction<DB>, tenantId: number, cursor: number, window: number, since: Date) {
  return tx
    .selectFrom('event_outbox as o')
    .select(['o.id', 'o.type', 'o.payload', 'o.created_at'])
    .where('o.tenant_id', '=', tenantId)
    .where('o.id', '>', cursor - window)
    .where('o.id', '<=', cursor)
    .where('o.created_at', '>=', since)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_delivery as d')
            .select('d.id')
            .where('d.tenant_id', '=', tenantId)
            .whereRef('d.event_id', '=', 'o.id'),
        ),
      ),
    )
    .orderBy('o.id')
    .limit(500)
    .execute()
}

export type NewDelivery = { subscriptionId: number; eventId: number; eventType: string; contractId: string | null }

export async function insertDeliveries(tx: Transaction<DB>, tenantId: number, rows: readonly NewDelivery[], at: Date) {
  if (rows.length === 0) return
  await tx
    .insertInto('webhook_delivery')
    .values(
      rows.map((r) => ({
        tenant_id: tenantId,
        subscription_id: r.subscriptionId,
        event_id: r.eventId,
        event_type: r.eventType,
        contract_id: r.contractId,
        status: 'PENDING' as const,
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(['tenant_id', 'subscription_id', 'event_id']).doNothing())
    .execute()
}

export type ClaimedDelivery = {
  id: number
  subscriptionId: number
  eventId: number
  attempts: number
  attemptsBeforeRedelivery: number
  url: string
  secret: string
  type: string
  payload: unknown
  eventCreatedAt: Date
}

/**
 * Takes up to `limit` due deliveries (FOR UPDATE SKIP LOCKED: another instance takes others) and
 * leases them until `leaseUntil` with their attempt counted, in the caller's transaction. A delivery
 * waits while an earlier event of the same contract to the same subscription is PENDING (in order
 * per contract); a subscription made inactive holds its deliveries.
 */
export async function claimDue(
  tx: Transaction<DB>,
  tenantId: number,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const rows = await sql<{
    id: number
    subscription_id: number
    event_id: number
    attempts: number
    attempts_before_redelivery: number
  }>`
    select d.id, d.subscription_id, d.event_id, d.attempts, d.attempts_before_redelivery
      from webhook_delivery d
     where d.tenant_id = ${tenantId} and d.status = 'PENDING' and d.next_attempt_at <= ${now}
       -- The first PENDING event of its contract to its subscription: one probe of the partial
       -- contract index per candidate (a scalar subquery, never turned into a join whose plan
       -- would depend on the statistics of a table that fills up between two analyzes).
       and (d.contract_id is null or d.event_id = (
         select e.event_id from webhook_delivery e
          where e.tenant_id = ${tenantId} and e.subscription_id = d.subscription_id and e.status = 'PENDING'
            and e.contract_id = d.contract_id
          order by e.event_id
          limit 1))
       and exists (
         select 1 from webhook_subscription s
          where s.tenant_id = ${tenantId} and s.id = d.subscription_id and s.active and s.deleted_at is null)
     order by d.next_attempt_at, d.id
     limit ${limit}
       for update of d skip locked`.execute(tx)
  if (rows.rows.length === 0) return []
  const ids = rows.rows.map((r) => Number(r.id))
  await tx
    .updateTable('webhook_delivery')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      next_attempt_at: leaseUntil,
      last_attempt_at: now,
      updated_at: now,
    }))
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute()
  const details = await tx
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook_subscription as s', (j) =>
      j.onRef('s.tenant_id', '=', 'd.tenant_id').onRef('s.id', '=', 'd.subscription_id'),
    )
    .innerJoin('event_outbox as o', (j) => j.onRef('o.tenant_id', '=', 'd.tenant_id').onRef('o.id', '=', 'd.event_id'))
    .select(['d.id', 's.url', 's.secret', 'o.type', 'o.payload', 'o.created_at'])
    .where('d.tenant_id', '=', tenantId)
    .where('s.tenant_id', '=', tenantId)
    .where('o.tenant_id', '=', tenantId)
    .where('d.id', 'in', ids)
    .execute()
  const byId = new Map(details.map((d) => [Number(d.id), d]))
  return rows.rows.map((r) => {
    const d = byId.get(Number(r.id))
    if (!d) throw new Error(`webhook delivery ${r.id} lost its subscription or event`)
    return {
      id: Number(r.id),
      subscriptionId: Number(r.subscription_id),
      eventId: Number(r.event_id),
      attempts: Number(r.attempts) + 1,
      attemptsBeforeRedelivery: Number(r.attempts_before_redelivery),
      url: d.url,
      secret: d.secret,
      type: d.type,
      payload: d.payload,
      eventCreatedAt: d.created_at,
    }
  })
}

export type AttemptOutcome = {
  id: number
  /** The attempt count the lease was taken with. */
  attempts: number
  status: WebhookDeliveryStatus
  nextAttemptAt: Date | null
  responseCode: number | null
  latencyMs: number
  error: string | null
}

/**
 * Records the outcomes of a batch of attempts in one statement, each unless its lease was lost
 * meanwhile (another instance took the delivery after it expired and counted another attempt):
 * then that instance's outcome stands.
 */
export async function recordAttempts(
  tx: Transaction<DB>,
  tenantId: number,
  outcomes: readonly AttemptOutcome[],
  at: Date,
) {
  if (outcomes.length === 0) return
  await sql`
    update webhook_delivery d
       set status = v.status, next_attempt_at = v.next_attempt_at, last_response_code = v.code,
           last_latency_ms = v.latency, last_error = v.error, updated_at = ${at}
      from unnest(
             ${outcomes.map((o) => o.id)}::bigint[], ${outcomes.map((o) => o.attempts)}::int[],
             ${outcomes.map((o) => o.status)}::text[],
             ${outcomes.map((o) => (o.nextAttemptAt === null ? null : o.nextAttemptAt.toISOString()))}::timestamptz[],
             ${outcomes.map((o) => o.responseCode)}::int[], ${outcomes.map((o) => o.latencyMs)}::int[],
             ${outcomes.map((o) => (o.error === null ? null : o.error.slice(0, 1000)))}::text[]
           ) as v(id, attempts, status, next_attempt_at, code, latency, error)
     where d.tenant_id = ${tenantId} and d.id = v.id and d.attempts = v.attempts and d.status = 'PENDING'`.execute(tx)
}

export type DeliveryFilter = {
  subscriptionId?: number | undefined
  status?: string | undefined
  eventType?: string | undefined
}

export async function listDeliveries(
  db: Executor,
  tenantId: number,
  filter: DeliveryFilter,
  window: Window,
): Promise<{ items: DeliveryRow[]; totalCount: number }> {
  let base = db.selectFrom('webhook_delivery').where('tenant_id', '=', tenantId)
  if (filter.subscriptionId !== undefined) base = base.where('subscription_id', '=', filter.subscriptionId)
  if (filter.status !== undefined) base = base.where('status', '=', filter.status as WebhookDeliveryStatus)
  if (filter.eventType !== undefined) base = base.where('event_type', '=', filter.eventType)
  const [items, count] = await Promise.all([
    windowed(base.selectAll().orderBy('id', 'desc'), window).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { items, totalCount: Number(count.n) }
}

export async function findDelivery(db: Executor, tenantId: number, id: number, lock = false) {
  let q = db.selectFrom('webhook_delivery').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id)
  if (lock) q = q.forUpdate()
  return q.executeTakeFirst()
}

/** A new attempt now; the retry limit counts again from here. */
export async function redeliver(tx: Transaction<DB>, tenantId: number, id: number, at: Date): Promise<DeliveryRow> {
  return tx
    .updateTable('webhook_delivery')
    .set((eb) => ({
      status: 'PENDING' as const,
      next_attempt_at: at,
      attempts_before_redelivery: eb.ref('attempts'),
      last_error: null,
      updated_at: at,
    }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}
