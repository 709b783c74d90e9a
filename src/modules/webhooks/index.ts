// Webhooks (docs/webhooks.md): tenants' subscriptions to the events of the outbox (docs/events.md),
// delivered signed, out of band, at least once and in order per contract. Reached only through this
// file. The deliverer's loop is started by the server (src/server.ts) and stopped when the app closes;
// tests drive it with `deliverer.deliverDue()`.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { sealStored, type SecretBox } from '../../platform/secrets.ts'
import type { TenantSecrets } from '../../platform/tenancy.ts'
import type { SettingsService } from '../settings/index.ts'
import { createDeliverer, type DelivererOptions } from './webhooks.deliverer.ts'
import { webhookRoutes } from './webhooks.routes.ts'
import * as repo from './webhooks.repository.ts'
import { createWebhookService, secretContext } from './webhooks.service.ts'

export { webhookErrors } from './webhooks.errors.ts'
export { signature as webhookSignature } from './webhooks.rules.ts'
export type { Deliverer, DelivererOptions, PassResult } from './webhooks.deliverer.ts'

export type WebhooksDeps = {
  db: Database
  clock: Clock
  secrets: SecretBox
  settings: Pick<SettingsService, 'get'>
  /** WEBHOOKS_ALLOW_PRIVATE (src/config.ts); false when absent. */
  allowPrivateReceivers?: boolean | undefined
}

export function createWebhooksModule(deps: WebhooksDeps) {
  /** Tunable after creation by tests and benches (a local receiver needs allowPrivateReceivers). */
  const options: DelivererOptions = {
    allowPrivateReceivers: deps.allowPrivateReceivers ?? false,
    timeoutMs: 5_000,
    intervalMs: 1_000,
    batchSize: 100,
    concurrency: 4,
    tenantConcurrency: 4,
    random: Math.random,
  }
  const deliverer = createDeliverer({ ...deps, options })
  const service = createWebhookService({ ...deps, options, wake: () => deliverer.wake() })
  /** The subscription secrets' part in the sealing passes (`secrets reseal` after a key rotation). */
  const tenantSecrets: TenantSecrets = {
    name: 'webhook_subscription',
    seal: async (tx, tenantId, scope) =>
      sealStored(deps.secrets, await repo.lockSecrets(tx, tenantId), scope, {
        stored: (row) => row.secret,
        context: (row) => secretContext(tenantId, Number(row.id)),
        write: (row, sealed) => repo.setSecret(tx, tenantId, Number(row.id), sealed, row.updated_at),
      }),
  }
  return {
    service,
    deliverer,
    options,
    tenantSecrets,
    async routes(app: FastifyInstance) {
      await app.register(webhookRoutes, { service, deliverer })
    },
  }
}

export type WebhooksModule = ReturnType<typeof createWebhooksModule>
