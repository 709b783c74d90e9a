// The audit trail: who changed what and when, written in the same transaction as the change.
import { sql, type Transaction } from 'kysely'
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

/**
 * Who an audit row of `ctx` names: for a statement that writes its audit row itself, beside the
 * change (one round trip instead of two), with the same columns writeAudit fills.
 */
export function auditActor(ctx: RequestContext): {
  actor_user_id: number | null
  actor_api_key_id: number | null
  actor_label: string
  request_id: string | null
} {
  return {
    actor_user_id: ctx.principal && ctx.principal.userId > 0 ? ctx.principal.userId : null,
    actor_api_key_id: ctx.apiKeyId > 0 ? ctx.apiKeyId : null,
    actor_label: actorLabel(ctx),
    request_id: ctx.requestId,
  }
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
      ...auditActor(ctx),
      action: record.action,
      entity_type: record.entityType,
      entity_id: String(record.entityId),
      changes: JSON.stringify(record.changes ?? {}),
    })
    .execute()
}

/**
 * Several records of one actor and time in one statement (a batch of changes made together), each
 * column one array parameter whatever the number of records.
 */
export async function writeAudits(
  tx: Transaction<DB>,
  ctx: RequestContext,
  at: Date,
  records: readonly AuditRecord[],
): Promise<void> {
  if (records.length === 0) return
  await sql`
    insert into audit_log
      (tenant_id, occurred_at, actor_user_id, actor_api_key_id, actor_label, request_id, action, entity_type, entity_id, changes)
    select ${ctx.tenantId}::bigint, ${at}::timestamptz, ${ctx.principal && ctx.principal.userId > 0 ? ctx.principal.userId : null}::bigint,
           ${ctx.apiKeyId > 0 ? ctx.apiKeyId : null}::bigint, ${actorLabel(ctx)}::text, ${ctx.requestId}::text,
           u.action, u.entity_type, u.entity_id, u.changes::jsonb
      from unnest(
        ${records.map((r) => r.action)}::text[], ${records.map((r) => r.entityType)}::text[],
        ${records.map((r) => String(r.entityId))}::text[], ${records.map((r) => JSON.stringify(r.changes ?? {}))}::text[]
      ) as u(action, entity_type, entity_id, changes)`.execute(tx)
}
