// Frozen: account-holder statements (docs/statements.md, issue 15). statement_request holds one
// request for a statement of an account holder over a period of accounting dates and, once made,
// what it showed (opening and closing balance, line count) and the document that holds it. A small
// statement is made in the request's own transaction (it is inserted COMPLETED); a large one is
// inserted QUEUED and made in the background: RUNNING while it is written (heartbeat_at moves with
// every page), then COMPLETED or FAILED. A RUNNING request whose heartbeat stops (the process ended)
// is marked FAILED by the next read of it: nothing resumes it, the caller requests again.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table statement_request (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      account_holder_id bigint not null,
      -- One of the finance module's ACCOUNT_PURPOSES; null: every account of the holder.
      purpose text check (purpose ~ '^[A-Z][A-Z_]{0,39}$'),
      from_date date not null,
      to_date date not null,
      format text not null check (format in ('PDF', 'CSV')),
      status text not null check (status in ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED')),
      opening_balance numeric(16, 2),
      closing_balance numeric(16, 2),
      line_count integer check (line_count >= 0),
      document_id bigint,
      failure_reason text check (char_length(failure_reason) <= 1000),
      requested_by text not null,
      created_at timestamptz not null,
      heartbeat_at timestamptz not null,
      completed_at timestamptz,
      primary key (tenant_id, id),
      foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, document_id) references document (tenant_id, id),
      check (from_date <= to_date),
      check ((status = 'COMPLETED') = (document_id is not null)),
      check ((status = 'COMPLETED') = (completed_at is not null and closing_balance is not null))
    );
    create index statement_request_holder_idx on statement_request (tenant_id, account_holder_id, id);
    -- The requests still being made: what a status read checks for a stopped heartbeat.
    create index statement_request_open_idx on statement_request (tenant_id, id) where status in ('QUEUED', 'RUNNING');

    alter table statement_request enable row level security;
    alter table statement_request force row level security;
    create policy tenant_isolation on statement_request
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('statements migration is not reversible')
}
