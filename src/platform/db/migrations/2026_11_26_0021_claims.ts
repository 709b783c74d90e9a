// Frozen: claims (docs/claims.md "Claims: intake, read, index", issue 14).
// - claim_number_counter: the tenant's last claim number sequence (a row lock, never a gap).
// - claim: a claim against a contract at a repair facility. The jobs (the three Cs, the covered
//   component, parts, labor, sublet, each job's status) and benefits are jsonb arrays: they are read
//   and written with their claim, never queried on their own. The totals are the payable rules'
//   figures (claim.payable.rules.ts) kept in columns so that lists and sums read them without the
//   jobs. contract_number, dealer_id and vin are copied from the contract when the claim is taken
//   (none of them changes once a contract is sold): the index filters by them and dealer-side
//   visibility is by dealer_id, without a join. The repair facility's name, labor rate and tax rate
//   are copied too: what the claim was taken and priced with.
//   Lock fields as the contract's: an adjuster's edit lock (423 for others).
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table claim_number_counter (
      tenant_id bigint not null references tenant(id),
      last_value bigint not null check (last_value >= 0),
      primary key (tenant_id)
    );

    create table claim (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      claim_number text not null check (char_length(claim_number) between 1 and 60),
      contract_id bigint not null,
      contract_number text not null,
      dealer_id bigint not null,
      vin text check (char_length(vin) <= 17),
      repair_facility_id bigint not null,
      repair_facility_name text not null,
      status text not null check (status in ('OPEN', 'PENDING_INSPECTION', 'AUTHORIZED', 'PENDING_PAYMENT', 'PAID',
        'PARTIALLY_PAID', 'DENIED', 'CLOSED', 'VOIDED')),
      loss_date date not null,
      odometer integer check (odometer >= 0),
      reported_at timestamptz not null,
      repair_order_number text check (char_length(repair_order_number) <= 60),
      contact jsonb check (contact is null or jsonb_typeof(contact) = 'object'),
      jobs jsonb not null default '[]' check (jsonb_typeof(jobs) = 'array'),
      benefits jsonb not null default '[]' check (jsonb_typeof(benefits) = 'array'),
      facility_labor_rate numeric(14, 2) check (facility_labor_rate >= 0),
      facility_tax_rate numeric(9, 6) not null default 0 check (facility_tax_rate >= 0 and facility_tax_rate < 1),
      requested_total numeric(14, 2) not null default 0 check (requested_total >= 0),
      authorized_total numeric(14, 2) not null default 0 check (authorized_total >= 0),
      tax_total numeric(14, 2) not null default 0 check (tax_total >= 0),
      deductible_total numeric(14, 2) not null default 0 check (deductible_total >= 0),
      payable_total numeric(14, 2) not null default 0 check (payable_total >= 0),
      paid_total numeric(14, 2) not null default 0 check (paid_total >= 0),
      authorization_number text check (char_length(authorization_number) <= 60),
      authorized_at timestamptz,
      authorized_by text,
      authorization_expires_on date,
      payee_type text check (payee_type in ('REPAIR_FACILITY', 'CONTRACT_HOLDER', 'OTHER')),
      payee_account_holder_id bigint,
      adjuster_user_id bigint,
      lock_user_id bigint,
      lock_user_label text,
      lock_expires_at timestamptz,
      created_at timestamptz not null,
      created_by text not null,
      created_by_user_id bigint,
      updated_at timestamptz not null,
      updated_by text not null,
      version integer not null default 1,
      primary key (tenant_id, id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id),
      foreign key (tenant_id, dealer_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, repair_facility_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, payee_account_holder_id) references account_holder (tenant_id, id),
      check ((authorization_number is null) = (authorized_at is null))
    );
    create unique index claim_number_key on claim (tenant_id, lower(claim_number));
    create index claim_dealer_status_idx on claim (tenant_id, dealer_id, status, id);
    create index claim_status_idx on claim (tenant_id, status, id);
    create index claim_contract_idx on claim (tenant_id, contract_id, id);
    create index claim_vin_idx on claim (tenant_id, vin, id);
    create index claim_repair_facility_idx on claim (tenant_id, repair_facility_id, id);
    create index claim_loss_date_idx on claim (tenant_id, loss_date, id);
    create index claim_created_idx on claim (tenant_id, created_at, id);
    create index claim_adjuster_idx on claim (tenant_id, adjuster_user_id, id) where adjuster_user_id is not null;
  `.execute(db)
  for (const table of ['claim_number_counter', 'claim']) {
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
  throw new Error('claims migration is not reversible')
}
