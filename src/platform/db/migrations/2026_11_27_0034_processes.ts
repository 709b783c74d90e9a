// Automatic process runs (docs/processes.md, issue 16 "Processes"): one row per run of a process of a
// tenant. A scheduled run has its slot (the tenant-local date): unique per (tenant, process, slot), so
// two instances starting the same slot make one run. The runner leases a run (lease_owner,
// lease_expires_at, taken FOR UPDATE SKIP LOCKED); a run whose lease expired is taken over and resumed
// after its cursor, each batch committed with its cursor advance.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table automatic_process_run (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      guid uuid not null,
      process text not null check (char_length(process) between 1 and 40),
      parameters jsonb not null check (jsonb_typeof(parameters) = 'object'),
      slot date,
      status text not null check (status in ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
      cursor bigint not null default 0,
      examined integer not null default 0,
      changed integer not null default 0,
      failed integer not null default 0,
      errors jsonb not null default '[]' check (jsonb_typeof(errors) = 'array'),
      started_by text not null,
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      duration_ms integer,
      lease_owner text,
      lease_expires_at timestamptz,
      primary key (tenant_id, id),
      unique (tenant_id, guid),
      unique (tenant_id, process, slot)
    );
    create index automatic_process_run_open_idx on automatic_process_run (tenant_id, id)
      where status in ('QUEUED', 'RUNNING');
    create index automatic_process_run_created_idx on automatic_process_run (tenant_id, created_at);
    alter table automatic_process_run enable row level security;
    alter table automatic_process_run force row level security;
    create policy tenant_isolation on automatic_process_run
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('processes migration is not reversible')
}
