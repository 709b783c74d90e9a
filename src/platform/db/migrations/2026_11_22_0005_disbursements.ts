// Frozen: account-holder disbursements (a dealer's pack or participation, an agent's commission,
// added to the rates of the products, programs, plans or terms they target) and dealer rate
// visibility (which products, programs and plans a dealer may sell, with optional markup limits).
// Targets reference rating catalogue items, whose ids stay the same across rate-book versions.
import { sql, type Kysely } from 'kysely'

const tenantOwned = ['rate_disbursement', 'dealer_rate_visibility_set', 'dealer_rate_visibility']

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table rate_disbursement (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      account_holder_id bigint not null,
      -- The account holder's kind, which never changes: the quote reads rules without a join.
      account_holder_kind text not null check (account_holder_kind in ('DEALER', 'DEALER_GROUP', 'AGENT')),
      -- A disbursement code of the rate book, with its label and group as they were when the code was chosen.
      code text not null,
      label text not null,
      disbursement_group text not null,
      basis text not null check (basis in ('AMOUNT', 'PERCENT')),
      amount numeric(12, 2) check (amount > 0),
      percent numeric(9, 4) check (percent > 0 and percent <= 100),
      product_id bigint,
      program_id bigint,
      plan_id bigint,
      term_id bigint,
      effective_from date not null,
      -- The last day the disbursement applies (inclusive); null: open-ended. Ending one sets it.
      effective_to date,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      unique (tenant_id, id),
      check ((basis = 'AMOUNT' and amount is not null and percent is null) or (basis = 'PERCENT' and percent is not null and amount is null)),
      check (effective_to is null or effective_to >= effective_from),
      foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id),
      foreign key (tenant_id, product_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, program_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, plan_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, term_id) references rating_catalogue_item (tenant_id, id)
    );
    create index rate_disbursement_holder_idx on rate_disbursement (tenant_id, account_holder_id, id);

    -- One row per dealer whose visibility was ever written: the version its ETag carries.
    create table dealer_rate_visibility_set (
      tenant_id bigint not null references tenant(id),
      dealer_id bigint not null,
      version integer not null,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, dealer_id),
      foreign key (tenant_id, dealer_id) references account_holder (tenant_id, id)
    );

    create table dealer_rate_visibility (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      dealer_id bigint not null,
      product_id bigint not null,
      -- null: every program (or plan) of the product.
      program_id bigint,
      plan_id bigint,
      max_markup_amount numeric(12, 2) check (max_markup_amount >= 0),
      max_markup_percent numeric(9, 4) check (max_markup_percent >= 0),
      foreign key (tenant_id, dealer_id) references dealer_rate_visibility_set (tenant_id, dealer_id),
      foreign key (tenant_id, product_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, program_id) references rating_catalogue_item (tenant_id, id),
      foreign key (tenant_id, plan_id) references rating_catalogue_item (tenant_id, id)
    );
    create unique index dealer_rate_visibility_entry_uq on dealer_rate_visibility (tenant_id, dealer_id, product_id, program_id, plan_id) nulls not distinct;
    create index dealer_rate_visibility_product_idx on dealer_rate_visibility (tenant_id, product_id);
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
  throw new Error('disbursement migration is not reversible')
}
