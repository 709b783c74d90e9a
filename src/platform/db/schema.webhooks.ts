// Kysely table types of the webhook tables (migration 0033, docs/webhooks.md). Kept in step with the migration.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED'

export interface WebhookSubscriptionTable {
  tenant_id: number
  id: Generated<number>
  url: string
  /** A JSON array of event types, or ['*'] for every type. */
  event_types: ColumnType<string[], string, string>
  description: string | null
  active: boolean
  /** Sealed (platform/secrets.ts), context `webhook_subscription:<tenant>:<id>`. */
  secret: string
  created_at: Timestamp
  created_by: string
  updated_at: Timestamp
  deleted_at: Timestamp | null
}

export interface WebhookCursorTable {
  tenant_id: number
  last_event_id: number
  updated_at: Timestamp
}

export interface WebhookDeliveryTable {
  tenant_id: number
  id: Generated<number>
  subscription_id: number
  event_id: number
  event_type: string
  contract_id: string | null
  status: WebhookDeliveryStatus
  attempts: ColumnType<number, number | undefined, number>
  attempts_before_redelivery: ColumnType<number, number | undefined, number>
  next_attempt_at: Timestamp | null
  last_attempt_at: Timestamp | null
  last_response_code: number | null
  last_latency_ms: number | null
  last_error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export type WebhookTables = {
  webhook_subscription: WebhookSubscriptionTable
  webhook_cursor: WebhookCursorTable
  webhook_delivery: WebhookDeliveryTable
}
