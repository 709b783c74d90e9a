// Frozen: the adjuster's decisions and the money of a claim (docs/claims.md "Deciding a claim",
// "Payment requests and payments", issue 14).
// - claim.denied_reason_id: why a DENIED claim was denied (a DENIED_REASON lookup);
//   claim.authorization_count: how many authorizations the claim was given (the number's suffix).
// - claim_hold: a hold placed on a claim with a HOLD_REASON lookup; released, never deleted. Open
//   holds (released_at null) stop authorization and payment.
// - claim_payment_request: the invoice the payee sends and the amount committed for it; the claim
//   expense is posted then (CLAIM_APPROVED); a withdrawn request keeps its row (WITHDRAWN) and its
//   reversal entry; a partly paid request of a claim closed keeps its row (CLOSED) and the entry
//   releasing its unpaid rest (CLAIM_RELEASED): release_entry_id is either.
// - claim_payment: money paid on a request (CLAIM_PAID), append-only.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table claim add column denied_reason_id bigint;
    alter table claim add column authorization_count integer not null default 0 check (authorization_count >= 0);
    alter table claim add foreign key (tenant_id, denied_reason_id) references claim_lookup (tenant_id, id);

    create table claim_hold (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      claim_id bigint not null,
      hold_reason_id bigint not null,
      note text check (char_length(note) <= 1000),
      placed_at timestamptz not null,
      placed_by text not null,
      released_at timestamptz,
      released_by text,
      primary key (tenant_id, id),
      foreign key (tenant_id, claim_id) references claim (tenant_id, id),
      foreign key (tenant_id, hold_reason_id) references claim_lookup (tenant_id, id),
      check ((released_at is null) = (released_by is null))
    );
    create index claim_hold_claim_idx on claim_hold (tenant_id, claim_id, id);

    create table claim_payment_request (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      claim_id bigint not null,
      contract_id bigint not null,
      status text not null check (status in ('REQUESTED', 'PARTIALLY_PAID', 'PAID', 'WITHDRAWN', 'CLOSED')),
      invoice_number text not null check (char_length(invoice_number) between 1 and 60),
      invoice_date date not null,
      invoiced_total numeric(14, 2) not null check (invoiced_total >= 0),
      amount numeric(14, 2) not null check (amount > 0),
      paid_total numeric(14, 2) not null default 0 check (paid_total >= 0 and paid_total <= amount),
      payee_type text not null check (payee_type in ('REPAIR_FACILITY', 'CONTRACT_HOLDER', 'OTHER')),
      payee_account_holder_id bigint not null,
      risk_bearer_id bigint not null,
      journal_entry_id bigint not null,
      release_entry_id bigint,
      created_at timestamptz not null,
      created_by text not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, claim_id) references claim (tenant_id, id),
      foreign key (tenant_id, payee_account_holder_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, risk_bearer_id) references account_holder (tenant_id, id)
    );
    create index claim_payment_request_claim_idx on claim_payment_request (tenant_id, claim_id, id);
    -- At most one request of a claim is open at a time.
    create unique index claim_payment_request_open_key on claim_payment_request (tenant_id, claim_id)
      where status in ('REQUESTED', 'PARTIALLY_PAID');

    create table claim_payment (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      claim_id bigint not null,
      payment_request_id bigint not null,
      method text not null check (method in ('CHECK', 'ACH', 'CREDIT_CARD', 'WIRE')),
      amount numeric(14, 2) not null check (amount > 0),
      paid_on date not null,
      reference text check (char_length(reference) <= 100),
      journal_entry_id bigint not null,
      created_at timestamptz not null,
      created_by text not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, claim_id) references claim (tenant_id, id),
      foreign key (tenant_id, payment_request_id) references claim_payment_request (tenant_id, id)
    );
    create index claim_payment_request_payments_idx on claim_payment (tenant_id, payment_request_id, id);
  `.execute(db)
  for (const table of ['claim_hold', 'claim_payment_request', 'claim_payment']) {
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
  throw new Error('claim payments migration is not reversible')
}
