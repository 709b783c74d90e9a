// Cash received from account holders (docs/cash.md, issue 15 "Receiving cash").
// - in_process_cash_transaction: a receipt recorded and not yet processed (a check in the drawer);
//   processing it creates the cash_transaction and posts; it keeps its row (PROCESSED) and the link.
// - cash_transaction: money received and posted (CASH_RECEIVED); RETURNED when the payment came back
//   (NSF): its entries are reversed then.
// - cash_application: what of a cash transaction was applied to a contract's receivable (CASH_APPLIED),
//   append-only; reversed_at is set when the payment is returned.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table cash_transaction (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      payer_id bigint not null,
      payment_method text not null check (payment_method in ('CHECK', 'ACH', 'WIRE')),
      amount numeric(14, 2) not null check (amount > 0),
      applied_amount numeric(14, 2) not null default 0 check (applied_amount >= 0 and applied_amount <= amount),
      reference text not null check (char_length(reference) between 1 and 100),
      received_date date not null,
      accounting_date date not null,
      memo text check (char_length(memo) <= 1000),
      status text not null check (status in ('POSTED', 'RETURNED')),
      return_reason text check (char_length(return_reason) <= 1000),
      returned_at timestamptz,
      -- Set in the same transaction, once the entry (whose source is this row) is posted.
      received_entry_id bigint,
      created_at timestamptz not null,
      created_by text not null,
      updated_at timestamptz not null,
      version integer not null default 1,
      primary key (tenant_id, id),
      foreign key (tenant_id, payer_id) references account_holder (tenant_id, id)
    );
    create index cash_transaction_payer_idx on cash_transaction (tenant_id, payer_id, id);

    create table in_process_cash_transaction (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      payer_id bigint not null,
      payment_method text not null check (payment_method in ('CHECK', 'ACH', 'WIRE')),
      amount numeric(14, 2) not null check (amount > 0),
      reference text not null check (char_length(reference) between 1 and 100),
      received_date date not null,
      memo text check (char_length(memo) <= 1000),
      applications jsonb,
      status text not null check (status in ('PENDING', 'PROCESSED')),
      cash_transaction_id bigint,
      created_at timestamptz not null,
      created_by text not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, payer_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, cash_transaction_id) references cash_transaction (tenant_id, id),
      check ((status = 'PROCESSED') = (cash_transaction_id is not null))
    );
    create index in_process_cash_transaction_payer_idx on in_process_cash_transaction (tenant_id, payer_id, id);

    create table cash_application (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      cash_transaction_id bigint not null,
      contract_id bigint not null,
      amount numeric(14, 2) not null check (amount > 0),
      journal_entry_id bigint not null,
      applied_at timestamptz not null,
      applied_by text not null,
      reversed_at timestamptz,
      primary key (tenant_id, id),
      foreign key (tenant_id, cash_transaction_id) references cash_transaction (tenant_id, id)
    );
    create index cash_application_transaction_idx on cash_application (tenant_id, cash_transaction_id, id);
  `.execute(db)
  for (const table of ['cash_transaction', 'in_process_cash_transaction', 'cash_application']) {
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
  throw new Error('cash migration is not reversible')
}
