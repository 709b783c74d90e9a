// Frozen: earnings runs (docs/earnings.md). A run syncs the earnings of many contracts (or of one,
// POST /contracts/{id}/syncEarnings) and is the source of the EARNINGS_RECOGNIZED entries it posts
// (journal_entry.source_type PROCESS, source_id the run's id). The row keeps the run's filters, its
// cursor (the last contract id done, so an interrupted run resumes after it) and its counters.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table earnings_run (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      scope text not null check (scope in ('CONTRACT', 'BATCH')),
      status text not null check (status in ('RUNNING', 'COMPLETED')),
      as_of date not null,
      filters jsonb not null check (jsonb_typeof(filters) = 'object'),
      cursor_contract_id bigint,
      examined integer not null default 0 check (examined >= 0),
      posted integer not null default 0 check (posted >= 0),
      nothing_due integer not null default 0 check (nothing_due >= 0),
      failed integer not null default 0 check (failed >= 0),
      errors jsonb not null default '[]' check (jsonb_typeof(errors) = 'array'),
      started_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz,
      started_by text not null,
      primary key (tenant_id, id)
    );
    create index earnings_run_status_idx on earnings_run (tenant_id, status, id);

    alter table earnings_run enable row level security;
    alter table earnings_run force row level security;
    create policy tenant_isolation on earnings_run
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('earnings runs migration is not reversible')
}
