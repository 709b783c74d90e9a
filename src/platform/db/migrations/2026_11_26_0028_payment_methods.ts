// Payment methods (docs/payment-methods.md, issue 15 "Payment methods").
// - available_payment_method: which method a tenant (account_holder_id null) or an account holder
//   uses to pay (PAY) or accept (RECEIVE). Bank details stay with the disbursement account: only its
//   id is kept here. At most one default per (holder or tenant, direction), enforced by the index.
//   A deleted record is removed (its last state stays in the audit log).
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table available_payment_method (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      account_holder_id bigint,
      direction text not null check (direction in ('PAY', 'RECEIVE')),
      payment_method text not null check (payment_method in ('CHECK', 'ACH', 'WIRE')),
      disbursement_account_id bigint,
      is_default boolean not null default false,
      created_at timestamptz not null,
      created_by text not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, disbursement_account_id) references disbursement_account (tenant_id, id)
    );
    create index available_payment_method_holder_idx on available_payment_method (tenant_id, account_holder_id, id);
    -- One default per holder (or the tenant: holder 0 stands for null) and direction.
    create unique index available_payment_method_default_idx
      on available_payment_method (tenant_id, coalesce(account_holder_id, 0), direction) where is_default;
    alter table available_payment_method enable row level security;
    alter table available_payment_method force row level security;
    create policy tenant_isolation on available_payment_method
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('payment methods migration is not reversible')
}
