// Frozen: cancellations (docs/cancellations.md, issue 13).
// - cancel_request: a cancel asked for (by a dealer, the customer, a lien holder or the administrator),
//   with the quote computed when it was stored; QUOTED is never stored (a quote writes nothing).
// - cancel: a processed cancel of a contract, with its calculation and its journal entry; reversed_at
//   and reversal_entry_id once reversed. At most one unreversed cancel per contract (partial unique
//   index), so two approvals at once give one cancel.
// - cancel_payment: what the cancel owes or claws back, one row per party (the refund, the dealer's
//   chargeback, each payee's recovery); VOID when the cancel is reversed.
// - cancel_number_counter: the tenant's last cancel request number (a row lock, never a gap).
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table cancel_number_counter (
      tenant_id bigint not null references tenant(id),
      last_value bigint not null check (last_value >= 0),
      primary key (tenant_id)
    );

    create table cancel_request (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      contract_id bigint not null,
      request_number text not null check (char_length(request_number) between 1 and 60),
      status text not null check (status in ('REQUESTED', 'PENDING_DOCUMENTS', 'APPROVED', 'REJECTED', 'WITHDRAWN', 'PROCESSED')),
      cancel_date date not null,
      cancel_odometer integer check (cancel_odometer >= 0),
      reason_id bigint not null,
      reason_code text not null check (char_length(reason_code) <= 60),
      method_override_id bigint,
      requested_by text not null check (requested_by in ('CUSTOMER', 'DEALER', 'LIENHOLDER', 'ADMIN')),
      refund_payee text not null check (refund_payee in ('AUTO', 'CUSTOMER', 'LIENHOLDER', 'DEALER')),
      payoff_date date,
      notes text check (char_length(notes) <= 2000),
      documents jsonb not null default '[]' check (jsonb_typeof(documents) = 'array'),
      include_open_claims boolean not null default false,
      quote jsonb not null check (jsonb_typeof(quote) = 'object'),
      created_at timestamptz not null,
      created_by text not null,
      created_by_user_id bigint,
      decided_at timestamptz,
      decided_by text,
      decision_note text check (char_length(decision_note) <= 2000),
      updated_at timestamptz not null,
      version integer not null default 1,
      primary key (tenant_id, id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id)
    );
    create unique index cancel_request_number_key on cancel_request (tenant_id, lower(request_number));
    create index cancel_request_contract_idx on cancel_request (tenant_id, contract_id, id);

    create table cancel (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      contract_id bigint not null,
      request_id bigint,
      cancel_number text not null check (char_length(cancel_number) between 1 and 60),
      cancel_date date not null,
      cancel_odometer integer check (cancel_odometer >= 0),
      reason_id bigint not null,
      reason_code text not null,
      method_id bigint not null,
      method_code text not null,
      calculation jsonb not null check (jsonb_typeof(calculation) = 'object'),
      -- Set in the transaction that inserts the cancel, once its entry (whose source is the cancel) is posted.
      journal_entry_id bigint,
      processed_at timestamptz not null,
      processed_by text not null,
      processed_by_user_id bigint,
      reversed_at timestamptz,
      reversed_by text,
      reversal_reason text check (char_length(reversal_reason) <= 2000),
      reversal_entry_id bigint,
      primary key (tenant_id, id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id),
      foreign key (tenant_id, request_id) references cancel_request (tenant_id, id),
      foreign key (tenant_id, journal_entry_id) references journal_entry (tenant_id, id),
      foreign key (tenant_id, reversal_entry_id) references journal_entry (tenant_id, id),
      check ((reversed_at is null) = (reversal_entry_id is null))
    );
    create unique index cancel_one_per_contract on cancel (tenant_id, contract_id) where reversed_at is null;
    create index cancel_contract_idx on cancel (tenant_id, contract_id, id);
    create index cancel_request_idx on cancel (tenant_id, request_id) where request_id is not null;

    create table cancel_payment (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      cancel_id bigint not null,
      contract_id bigint not null,
      payee_type text not null check (payee_type in ('CUSTOMER', 'LIENHOLDER', 'DEALER', 'PAYEE')),
      account_holder_id bigint not null,
      kind text not null check (kind in ('REFUND', 'CHARGEBACK', 'RECOVERY')),
      amount numeric(14, 2) not null check (amount >= 0),
      status text not null check (status in ('PENDING', 'PAID', 'VOID')),
      due_date date,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, cancel_id) references cancel (tenant_id, id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id),
      foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id)
    );
    create index cancel_payment_cancel_idx on cancel_payment (tenant_id, cancel_id, id);
    create index cancel_payment_contract_idx on cancel_payment (tenant_id, contract_id, id);
  `.execute(db)
  for (const table of ['cancel_number_counter', 'cancel_request', 'cancel', 'cancel_payment']) {
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
  throw new Error('cancellations migration is not reversible')
}
