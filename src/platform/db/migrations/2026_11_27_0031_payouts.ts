// Payout runs (docs/payouts.md, issue 15 "Paying out").
// - payout_run: one run of the payables due as of a date; written only when not a dry run.
// - payout: what one payee was paid in a run, its method and its CASH_DISBURSED entry.
// - payout_item: each payable (purpose, contract) the payout debited (paid, amount > 0) or credited
//   (netted, amount < 0), so a payout explains its entry line by line.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table payout_run (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      as_of date not null,
      accounting_date date not null,
      purposes text not null check (char_length(purposes) between 1 and 200),
      payee_ids text check (char_length(payee_ids) <= 20000),
      payout_count integer not null check (payout_count >= 0),
      total numeric(16, 2) not null check (total >= 0),
      created_at timestamptz not null,
      created_by text not null,
      primary key (tenant_id, id)
    );

    create table payout (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      run_id bigint not null,
      payee_id bigint not null,
      payment_method text not null check (payment_method in ('CHECK', 'ACH', 'WIRE')),
      disbursement_account_id bigint,
      amount numeric(14, 2) not null check (amount > 0),
      entry_id bigint,
      primary key (tenant_id, id),
      foreign key (tenant_id, run_id) references payout_run (tenant_id, id),
      foreign key (tenant_id, payee_id) references account_holder (tenant_id, id)
    );
    create index payout_run_idx on payout (tenant_id, run_id, id);
    create index payout_payee_idx on payout (tenant_id, payee_id, id);

    create table payout_item (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      payout_id bigint not null,
      purpose text not null check (purpose in ('REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE')),
      contract_id bigint not null,
      amount numeric(14, 2) not null check (amount <> 0),
      primary key (tenant_id, id),
      foreign key (tenant_id, payout_id) references payout (tenant_id, id)
    );
    create index payout_item_payout_idx on payout_item (tenant_id, payout_id, id);
  `.execute(db)
  for (const table of ['payout_run', 'payout', 'payout_item']) {
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
  throw new Error('payouts migration is not reversible')
}
