// Webhook subscriptions and the delivery log (docs/webhooks.md). Writes are audited in their own
// transaction; no request ever delivers: deliveries are made out of band by the deliverer
// (webhooks.deliverer.ts), which a redelivery only wakes. Staff only: a dealer-side user (one whose
// visibility is limited to some account holders) gets 403 whatever its permissions, since
// subscriptions receive every event of the tenant.
import { lookup } from 'node:dns/promises'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { EVENT_TYPE_PATTERN } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext } from '../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import type { SecretBox } from '../../platform/secrets.ts'
import { webhookErrors } from './webhooks.errors.ts'
import * as repo from './webhooks.repository.ts'
import type { DeliveryFilter, DeliveryRow, SubscriptionRow } from './webhooks.repository.ts'
import { checkEventTypes, checkUrl, isPrivateAddress, newSecret, webhookId } from './webhooks.rules.ts'

export type WebhookOptions = {
  /** WEBHOOKS_ALLOW_PRIVATE: receivers on loopback and private addresses are allowed (tests, closed networks). */
  allowPrivateReceivers: boolean
}

export type SubscriptionBody = { url: string; eventTypes: string[]; description?: string | null; active?: boolean }
export type SubscriptionPatch = Partial<SubscriptionBody>

export type WebhookServiceDeps = {
  db: Database
  clock: Clock
  secrets: SecretBox
  options: WebhookOptions
  /** Asks the deliverer to look for due work now (after a redelivery). */
  wake(): void
}

const ENTITY = 'webhook_subscription'
export const secretContext = (tenantId: number, id: number) => `webhook_subscription:${tenantId}:${id}`

export function subscriptionView(r: SubscriptionRow) {
  return {
    id: Number(r.id),
    url: r.url,
    eventTypes: r.event_types,
    description: r.description,
    active: r.active,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }
}
export type SubscriptionView = ReturnType<typeof subscriptionView>

export function deliveryView(r: DeliveryRow) {
  return {
    id: Number(r.id),
    subscriptionId: Number(r.subscription_id),
    eventId: webhookId(Number(r.event_id)),
    eventType: r.event_type,
    contractId: r.contract_id,
    status: r.status,
    attempts: r.attempts,
    lastAttemptAt: r.last_attempt_at?.toISOString() ?? null,
    lastResponseCode: r.last_response_code,
    lastLatencyMs: r.last_latency_ms,
    lastError: r.last_error,
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }
}
export type DeliveryView = ReturnType<typeof deliveryView>

const invalid = (errors: FieldError[]) =>
  webhookErrors.create(
    'webhook_subscription_invalid',
    `Invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
    {
      errors,
    },
  )

function staffOnly(ctx: AuthenticatedContext) {
  if (ctx.principal.visibleAccountHolderIds !== null)
    throw platformErrors.create(
      'permission_denied',
      'Webhooks are for staff users: they receive every event of the tenant',
    )
}

export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, clock, secrets, options } = deps

  /** The URL's field error, if any: its form, then (unless allowed) the addresses its host name resolves to now. */
  async function urlProblem(url: string): Promise<FieldError | null> {
    const checked = checkUrl(url, options.allowPrivateReceivers)
    if ('error' in checked) return checked.error
    if (options.allowPrivateReceivers) return null
    const host = checked.url.hostname.replace(/^\[|\]$/g, '')
    try {
      const addresses = await lookup(host, { all: true, verbatim: true })
      if (addresses.some((a) => isPrivateAddress(a.address)))
        return { field: 'url', code: 'private_address', message: 'resolves to a private or loopback address' }
    } catch {
      // A name that does not resolve yet is taken: every delivery resolves and checks it again.
    }
    return null
  }

  async function validate(body: SubscriptionPatch): Promise<FieldError[]> {
    const errors: FieldError[] = []
    if (body.url !== undefined) {
      const e = await urlProblem(body.url)
      if (e) errors.push(e)
    }
    if (body.eventTypes !== undefined) {
      const e = checkEventTypes(body.eventTypes, EVENT_TYPE_PATTERN)
      if (e) errors.push(e)
    }
    return errors
  }

  async function subscriptionOf(ctx: AuthenticatedContext, id: number): Promise<SubscriptionRow> {
    const row = isStorableId(id)
      ? await db.read(ctx.tenantId, (x) => repo.findSubscription(x, ctx.tenantId, id))
      : undefined
    if (!row) throw webhookErrors.create('webhook_subscription_not_found', `No webhook subscription ${id}`)
    return row
  }

  return {
    async list(ctx: AuthenticatedContext, window: Window) {
      staffOnly(ctx)
      const r = await db.read(ctx.tenantId, (x) => repo.listSubscriptions(x, ctx.tenantId, window))
      return { items: r.items.map(subscriptionView), totalCount: r.totalCount }
    },

    async get(ctx: AuthenticatedContext, id: number): Promise<SubscriptionView> {
      staffOnly(ctx)
      return subscriptionView(await subscriptionOf(ctx, id))
    },

    /** The new subscription with its secret: the only time the secret is shown. */
    async create(ctx: AuthenticatedContext, body: SubscriptionBody): Promise<SubscriptionView & { secret: string }> {
      staffOnly(ctx)
      const errors = await validate(body)
      if (errors.length > 0) throw invalid(errors)
      const secret = newSecret()
      const at = clock.now()
      const row = await db.transaction(ctx.tenantId, async (tx) => {
        const inserted = await repo.insertSubscription(tx, ctx.tenantId, {
          url: body.url,
          eventTypes: body.eventTypes,
          description: body.description ?? null,
          active: body.active ?? true,
          at,
          by: actorLabel(ctx),
        })
        const id = Number(inserted.id)
        await repo.setSecret(tx, ctx.tenantId, id, secrets.seal(secret, secretContext(ctx.tenantId, id)), at)
        await repo.ensureCursor(tx, ctx.tenantId, at)
        // The secret is never audited.
        await writeAudit(tx, ctx, at, {
          action: 'webhook_subscription.created',
          entityType: ENTITY,
          entityId: id,
          changes: { after: subscriptionView(inserted) },
        })
        return inserted
      })
      return { ...subscriptionView(row), secret }
    },

    async patch(ctx: AuthenticatedContext, id: number, patch: SubscriptionPatch): Promise<SubscriptionView> {
      staffOnly(ctx)
      await subscriptionOf(ctx, id)
      const errors = await validate(patch)
      if (errors.length > 0) throw invalid(errors)
      const at = clock.now()
      const row = await db.transaction(ctx.tenantId, async (tx) => {
        const before = await repo.findSubscription(tx, ctx.tenantId, id, true)
        if (!before) throw webhookErrors.create('webhook_subscription_not_found', `No webhook subscription ${id}`)
        const after = await repo.updateSubscription(
          tx,
          ctx.tenantId,
          id,
          {
            ...(patch.url !== undefined ? { url: patch.url } : {}),
            ...(patch.eventTypes !== undefined ? { event_types: JSON.stringify(patch.eventTypes) } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {}),
            ...(patch.active !== undefined ? { active: patch.active } : {}),
          },
          at,
        )
        await writeAudit(tx, ctx, at, {
          action: 'webhook_subscription.updated',
          entityType: ENTITY,
          entityId: id,
          changes: { before: subscriptionView(before), after: subscriptionView(after) },
        })
        return after
      })
      return subscriptionView(row)
    },

    /** Deletes the subscription: no new deliveries, its PENDING ones FAILED; its log stays readable. */
    async remove(ctx: AuthenticatedContext, id: number): Promise<void> {
      staffOnly(ctx)
      await subscriptionOf(ctx, id)
      const at = clock.now()
      await db.transaction(ctx.tenantId, async (tx) => {
        const before = await repo.findSubscription(tx, ctx.tenantId, id, true)
        if (!before) throw webhookErrors.create('webhook_subscription_not_found', `No webhook subscription ${id}`)
        await repo.updateSubscription(tx, ctx.tenantId, id, { deleted_at: at, active: false }, at)
        await repo.failPendingOf(tx, ctx.tenantId, id, at)
        await writeAudit(tx, ctx, at, {
          action: 'webhook_subscription.deleted',
          entityType: ENTITY,
          entityId: id,
          changes: { before: subscriptionView(before) },
        })
      })
    },

    /** A new secret, returned once; the old one stops signing at once. */
    async rotateSecret(ctx: AuthenticatedContext, id: number): Promise<{ id: number; secret: string }> {
      staffOnly(ctx)
      await subscriptionOf(ctx, id)
      const secret = newSecret()
      const at = clock.now()
      await db.transaction(ctx.tenantId, async (tx) => {
        const row = await repo.findSubscription(tx, ctx.tenantId, id, true)
        if (!row) throw webhookErrors.create('webhook_subscription_not_found', `No webhook subscription ${id}`)
        await repo.setSecret(tx, ctx.tenantId, id, secrets.seal(secret, secretContext(ctx.tenantId, id)), at)
        await writeAudit(tx, ctx, at, {
          action: 'webhook_subscription.secret_rotated',
          entityType: ENTITY,
          entityId: id,
        })
      })
      return { id, secret }
    },

    deliveries: {
      async list(ctx: AuthenticatedContext, filter: DeliveryFilter, window: Window) {
        staffOnly(ctx)
        const r = await db.read(ctx.tenantId, (x) => repo.listDeliveries(x, ctx.tenantId, filter, window))
        return { items: r.items.map(deliveryView), totalCount: r.totalCount }
      },

      async get(ctx: AuthenticatedContext, id: number): Promise<DeliveryView> {
        staffOnly(ctx)
        const row = isStorableId(id)
          ? await db.read(ctx.tenantId, (x) => repo.findDelivery(x, ctx.tenantId, id))
          : undefined
        if (!row) throw webhookErrors.create('webhook_delivery_not_found', `No webhook delivery ${id}`)
        return deliveryView(row)
      },

      /** Queues a new attempt now (PENDING, due now, the retry count starting again); the deliverer makes it. */
      async redeliver(ctx: AuthenticatedContext, id: number): Promise<DeliveryView> {
        staffOnly(ctx)
        const at = clock.now()
        const row = await db.transaction(ctx.tenantId, async (tx) => {
          const before = isStorableId(id) ? await repo.findDelivery(tx, ctx.tenantId, id, true) : undefined
          if (!before) throw webhookErrors.create('webhook_delivery_not_found', `No webhook delivery ${id}`)
          const sub = await repo.findSubscription(tx, ctx.tenantId, Number(before.subscription_id))
          if (!sub)
            throw invalid([
              { field: 'deliveryId', code: 'subscription_deleted', message: 'its subscription is deleted' },
            ])
          const after = await repo.redeliver(tx, ctx.tenantId, id, at)
          await writeAudit(tx, ctx, at, {
            action: 'webhook_delivery.redelivery_requested',
            entityType: 'webhook_delivery',
            entityId: id,
            changes: { before: { status: before.status, attempts: before.attempts } },
          })
          return after
        })
        await db.afterCommit(() => deps.wake())
        return deliveryView(row)
      },
    },
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>
