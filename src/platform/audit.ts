// The audit trail: who changed what and when, written in the same transaction as the change.
import type { Transaction } from 'kysely'
import type { DB } from './db/schema.ts'
import type { RequestContext } from './http/context.ts'
import { actorLabel } from './http/context.ts'

export type AuditRecord = {
  action: string
  entityType: string
  entityId: string | number
  /** What changed: typically `{ before, after }` of the fields touched, secrets excluded. */
  changes?: Record<string, unknown>
}

export async function writeAudit(
  tx: Transaction<DB>,
  ctx: RequestContext,
  at: Date,
  record: AuditRecord,
): Promise<void> {
  await tx
    .insertInto('audit_log')
    .values({
      tenant_id: ctx.tenantId,
      occurred_at: at,
      actor_user_id: ctx.principal && ctx.principal.userId > 0 ? ctx.principal.userId : null,
      actor_api_key_id: ctx.apiKeyId > 0 ? ctx.apiKeyId : null,
      actor_label: actorLabel(ctx),
      request_id: ctx.requestId,
      action: record.action,
      entity_type: record.entityType,
      entity_id: String(record.entityId),
      changes: JSON.stringify(record.changes ?? {}),
    })
    .execute()
}
