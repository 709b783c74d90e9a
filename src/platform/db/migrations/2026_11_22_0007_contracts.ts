// Frozen: contracts (docs/contracts.md). A contract is written from a quote's rate, priced by the
// server; its coverage, pricing and the parties as sold are kept as snapshots so that a contract
// never changes when a rate book, dealer or customer record changes later. Holds block
// finalization; unique custom-field values are claimed per tenant; numbers come from a per-tenant
// sequence row.
import { sql, type Kysely } from 'kysely'

const tenantOwned = ['contract', 'contract_number_sequence', 'contract_hold', 'contract_unique_value']

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table contract (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      contract_number text not null,
      status text not null check (status in ('PENDING', 'FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED', 'VOIDED')),
      version integer not null default 1,
      dealer_id bigint not null,
      customer_id bigint not null,
      lien_holder_id bigint,
      quote_id text not null,
      rate_id text not null,
      rate_book_id bigint not null,
      product_id bigint not null,
      program_id bigint not null,
      plan_id bigint not null,
      term_id bigint not null,
      deductible_id bigint not null,
      product_type text not null,
      vin text,
      -- lower-case "first last company" of the contract holder, for searching by name.
      customer_name text not null,
      sale_date date not null,
      effective_date date not null,
      expiration_date date not null,
      sale_odometer integer,
      expiration_odometer integer,
      dealer_cost numeric(12, 2) not null check (dealer_cost >= 0),
      retail_price numeric(12, 2) not null check (retail_price >= 0),
      -- Snapshots as sold: product/program/plan/term/deductible with coverage groups and PPM services;
      -- priced lines with their payees and the options; the vehicle, customer, co-buyer, lien holder, finance.
      coverage jsonb not null,
      pricing jsonb not null,
      vehicle jsonb not null,
      customer jsonb not null,
      co_buyer jsonb,
      lien_holder jsonb,
      finance jsonb,
      custom_fields jsonb not null default '{}',
      deal_data jsonb not null default '{}',
      lock_user_id bigint,
      lock_user_label text,
      lock_expires_at timestamptz,
      finalized_at timestamptz,
      finalized_by text,
      -- Journal entries posted for the contract (finalize, refinalize), oldest first.
      journal_entry_ids jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      created_by text not null,
      unique (tenant_id, id),
      unique (tenant_id, contract_number),
      check (expiration_date >= effective_date),
      foreign key (tenant_id, dealer_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, customer_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, lien_holder_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, product_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, program_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, plan_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, term_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, deductible_id) references rating_catalogue_item (tenant_id, id)
    );
    create index contract_vin_idx on contract (tenant_id, vin);
    create index contract_dealer_idx on contract (tenant_id, dealer_id, id);
    create index contract_status_idx on contract (tenant_id, status, id);
    create index contract_sale_date_idx on contract (tenant_id, sale_date, id);
    create index contract_customer_name_idx on contract (tenant_id, customer_name text_pattern_ops);
    create index contract_duplicate_idx on contract (tenant_id, dealer_id, vin, plan_id, sale_date);

    create table contract_number_sequence (
      tenant_id bigint primary key references tenant(id),
      last_value bigint not null check (last_value >= 0)
    );

    create table contract_hold (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      contract_id bigint not null,
      reason_code text not null,
      note text,
      created_at timestamptz not null,
      created_by text not null,
      resolved_at timestamptz,
      resolved_by text,
      resolution_note text,
      unique (tenant_id, id),
      check ((resolved_at is null) = (resolved_by is null)),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id)
    );
    create index contract_hold_contract_idx on contract_hold (tenant_id, contract_id, id);

    -- A value of a custom field the rate book marks unique, claimed by one contract of the tenant.
    create table contract_unique_value (
      tenant_id bigint not null references tenant(id),
      field_key text not null,
      value text not null,
      contract_id bigint not null,
      primary key (tenant_id, field_key, value),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id)
    );
  `.execute(db)

  for (const table of tenantOwned) {
    await sql`
      alter table ${sql.table(table)} enable row level security;
      alter table ${sql.table(table)} force row level security;
      create policy tenant_isolation on ${sql.table(table)}
        using (tenant_id = app_current_tenant())
        with check (tenant_id = app_current_tenant());
    `.execute(db)
  }
}

export async function down(): Promise<void> {
  throw new Error('contracts migration is not reversible')
}
