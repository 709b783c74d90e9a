// Frozen: risk-bearer reporting, part 3a (issue 21; docs/reporting.md "Month close" and "Report
// runs"). A report of a closed month (its last day on or before booksClosedThrough) is frozen the
// first time it is produced: `report_document` keeps the document it answered and a sha256 digest of
// the inputs it read, one per kind, risk bearer and month (the unique key: never produced twice).
// `report_run` is a job producing the documents of one kind and month for a list of risk bearers,
// worked under a lease (an instance that dies leaves an expired lease, taken over) after a cursor
// (the last risk bearer done, ids ascending); one per kind, month and list of risk bearers.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table report_run (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      kind text not null check (kind in ('REINSURANCE_STATEMENT', 'PREMIUM_BORDEREAU', 'CLAIMS_BORDEREAU')),
      period text not null check (period ~ '^[0-9]{4}-[0-9]{2}$'),
      -- The risk bearers, ids ascending, and the same list as text: the idempotency key.
      risk_bearer_ids bigint[] not null,
      scope_key text not null,
      status text not null check (status in ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED')),
      total integer not null check (total >= 0),
      done integer not null default 0 check (done >= 0 and done <= total),
      -- The last risk bearer done (0: none yet).
      cursor bigint not null default 0,
      lease_owner text,
      lease_expires_at timestamptz,
      error jsonb,
      created_at timestamptz not null,
      created_by text not null,
      started_at timestamptz,
      finished_at timestamptz,
      primary key (tenant_id, id),
      unique (tenant_id, kind, period, scope_key)
    );
    create index report_run_claimable_idx on report_run (tenant_id, id) where status in ('QUEUED', 'RUNNING');

    create table report_document (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      kind text not null check (kind in ('REINSURANCE_STATEMENT', 'PREMIUM_BORDEREAU', 'CLAIMS_BORDEREAU')),
      risk_bearer_id bigint not null,
      period text not null check (period ~ '^[0-9]{4}-[0-9]{2}$'),
      -- The run that produced it; null when a request produced it first.
      report_run_id bigint,
      document jsonb not null,
      input_digest text not null check (input_digest ~ '^[0-9a-f]{64}$'),
      created_at timestamptz not null,
      created_by text not null,
      primary key (tenant_id, id),
      unique (tenant_id, kind, risk_bearer_id, period),
      foreign key (tenant_id, risk_bearer_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, report_run_id) references report_run (tenant_id, id)
    );

    alter table report_run enable row level security;
    alter table report_run force row level security;
    create policy tenant_isolation on report_run
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
    alter table report_document enable row level security;
    alter table report_document force row level security;
    create policy tenant_isolation on report_document
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('report runs migration is not reversible')
}
