// Frozen: the event outbox (docs/events.md). An event is written in the transaction of the change it
// announces, so it exists exactly when the change committed; a later issue delivers it (webhooks).
// Rows are never updated or deleted by the service: delivery state lives in the deliverer's tables.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table event_outbox (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      type text not null check (type ~ '^[a-z][a-z_]*([.][a-z][a-z_]*)+$' and char_length(type) <= 100),
      payload jsonb not null check (jsonb_typeof(payload) = 'object'),
      created_at timestamptz not null,
      primary key (tenant_id, id)
    );
    create index event_outbox_type_idx on event_outbox (tenant_id, type, id);

    create function event_outbox_immutable() returns trigger language plpgsql as $$
      begin
        raise exception 'event_outbox rows are immutable' using errcode = '42501';
      end $$;
    create trigger event_outbox_no_update before update or delete on event_outbox
      for each row execute function event_outbox_immutable();

    alter table event_outbox enable row level security;
    alter table event_outbox force row level security;
    create policy tenant_isolation on event_outbox
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('event outbox migration is not reversible')
}
