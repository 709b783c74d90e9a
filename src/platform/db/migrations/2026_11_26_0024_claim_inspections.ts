// Frozen: claim inspections (docs/claims.md "Inspections", issue 14).
// - claim_inspection: an inspection of a claim's vehicle asked of an inspection company (an account
//   holder of kind INSPECTION_COMPANY) for a reason (an INSPECTION_REASON lookup). REQUESTED, then
//   TAKEN or REJECTED (a REJECT_INSPECTION_REASON lookup) by the company, COMPLETED with its findings,
//   or CANCELLED by the adjuster. The company's name and fee are copied when it is asked. At most one
//   inspection of a claim is outstanding (REQUESTED or TAKEN) at a time. Its files are the documents
//   module's (owner type CLAIM_INSPECTION), not a table here.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table claim_inspection (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      claim_id bigint not null,
      inspection_company_id bigint not null,
      inspection_company_name text not null,
      reason_id bigint not null,
      status text not null check (status in ('REQUESTED', 'TAKEN', 'REJECTED', 'COMPLETED', 'CANCELLED')),
      fee numeric(14, 2) check (fee >= 0),
      note text check (char_length(note) <= 2000),
      reject_reason_id bigint,
      company_note text check (char_length(company_note) <= 2000),
      findings text check (char_length(findings) <= 8000),
      inspected_odometer integer check (inspected_odometer >= 0),
      inspected_on date,
      requested_at timestamptz not null,
      requested_by text not null,
      taken_at timestamptz,
      rejected_at timestamptz,
      completed_at timestamptz,
      cancelled_at timestamptz,
      updated_at timestamptz not null,
      updated_by text not null,
      version integer not null default 1,
      primary key (tenant_id, id),
      foreign key (tenant_id, claim_id) references claim (tenant_id, id),
      foreign key (tenant_id, inspection_company_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, reason_id) references claim_lookup (tenant_id, id),
      foreign key (tenant_id, reject_reason_id) references claim_lookup (tenant_id, id),
      check ((status = 'REJECTED') <= (reject_reason_id is not null)),
      check ((status = 'COMPLETED') <= (findings is not null and completed_at is not null))
    );
    create index claim_inspection_claim_idx on claim_inspection (tenant_id, claim_id, id);
    -- The inspection companies' work queues: a company's inspections by status, newest first.
    create index claim_inspection_company_idx on claim_inspection (tenant_id, inspection_company_id, status, id);
    create index claim_inspection_status_idx on claim_inspection (tenant_id, status, id);
    -- At most one outstanding inspection per claim.
    create unique index claim_inspection_outstanding_key on claim_inspection (tenant_id, claim_id)
      where status in ('REQUESTED', 'TAKEN');
  `.execute(db)
  await sql
    .raw(
      `alter table claim_inspection enable row level security;
       alter table claim_inspection force row level security;
       create policy tenant_isolation on claim_inspection
         using (tenant_id = app_current_tenant())
         with check (tenant_id = app_current_tenant());`,
    )
    .execute(db)
}

export async function down(): Promise<void> {
  throw new Error('claim inspections migration is not reversible')
}
