// Webhooks (docs/webhooks.md, issue 16 "Webhooks"): subscriptions of a tenant, the deliverer's cursor
// over the event outbox, and one delivery per (subscription, event). The outbox itself stays
// immutable (migration 0016): every delivery state lives here.
// - webhook_subscription: a receiver URL, the event types it takes, its secret sealed
//   (platform/secrets.ts); deleted_at set instead of deleting, so its delivery log stays readable.
// - webhook_cursor: per tenant, the last outbox event fanned out into deliveries; the row is locked
//   (FOR UPDATE SKIP LOCKED) by the one instance fanning out that tenant's events at a time.
// - webhook_delivery: status PENDING until SUCCEEDED or FAILED for good; next_attempt_at is both the
//   retry time and the lease of an attempt in flight (an instance that dies mid-attempt leaves a
//   PENDING row that another retries once the lease expires: at least once). contract_id orders the
//   deliveries of one contract to one subscription.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_subscription (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      url text not null check (char_length(url) between 1 and 2000),
      event_types jsonb not null check (jsonb_typeof(event_types) = 'array'),
      description text check (char_length(description) <= 1000),
      active boolean not null,
      secret text not null,
      created_at timestamptz not null,
      created_by text not null,
      updated_at timestamptz not null,
      deleted_at timestamptz,
      primary key (tenant_id, id)
    );

    create table webhook_cursor (
      tenant_id bigint not null references tenant(id),
      last_event_id bigint not null,
      updated_at timestamptz not null,
      primary key (tenant_id)
    );

    create table webhook_delivery (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      subscription_id bigint not null,
      event_id bigint not null,
      event_type text not null,
      contract_id text,
      status text not null check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
      attempts integer not null default 0 check (attempts >= 0),
      -- Attempts made before the last redelivery: the retry limit counts the attempts after it.
      attempts_before_redelivery integer not null default 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_response_code integer,
      last_latency_ms integer,
      last_error text check (char_length(last_error) <= 1000),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      unique (tenant_id, subscription_id, event_id),
      foreign key (tenant_id, subscription_id) references webhook_subscription (tenant_id, id),
      foreign key (tenant_id, event_id) references event_outbox (tenant_id, id),
      check ((status = 'PENDING') = (next_attempt_at is not null))
    );
    create index webhook_delivery_due_idx on webhook_delivery (tenant_id, next_attempt_at) where status = 'PENDING';
    create index webhook_delivery_contract_idx on webhook_delivery (tenant_id, subscription_id, contract_id, event_id)
      where status = 'PENDING';
    create index webhook_delivery_subscription_idx on webhook_delivery (tenant_id, subscription_id, id);
    create index webhook_delivery_event_idx on webhook_delivery (tenant_id, event_id);
  `.execute(db)
  for (const table of ['webhook_subscription', 'webhook_cursor', 'webhook_delivery']) {
    await sql
      .raw(
        `alter table ${table} enable row level security;
         alter table ${table} force row level security;
         create policy tenant_isolation on ${table}
           using (tenant_id = app_current_tenant())
           with check (tenant_id = app_current_tenant());`,
      )
      .execute(db)
  }
}

export async function down(): Promise<void> {
  throw new Error('webhooks migration is not reversible')
}
