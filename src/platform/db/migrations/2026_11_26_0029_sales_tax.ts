// Frozen: sales tax rules (docs/sales-tax.md, issue 15). One row is the rate of one jurisdiction
// (a state, a county of it, or a city of it) for one product type (null: every product type) over a
// period of dates. Rules of the same jurisdiction and product type never overlap in time: the
// service checks it under an advisory lock of the tenant and state, where an exclusion constraint
// would need btree_gist, which the embedded database does not have.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table sales_tax_rule (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      state text not null check (state ~ '^[A-Z]{2}$'),
      county text check (char_length(county) between 1 and 100),
      city text check (char_length(city) between 1 and 100),
      product_type text check (product_type ~ '^[A-Z][A-Z_]{0,39}$'),
      rate numeric(8, 6) not null check (rate >= 0 and rate <= 1),
      taxable_base text not null check (taxable_base in ('RETAIL_PRICE', 'DEALER_COST', 'NONE')),
      collected_by text not null check (collected_by in ('DEALER', 'ADMINISTRATOR')),
      effective_from date not null,
      -- The last day the rule is in force (inclusive); null: open-ended.
      effective_to date,
      version integer not null default 1,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      check (effective_to is null or effective_to >= effective_from)
    );
    create index sales_tax_rule_state_idx on sales_tax_rule (tenant_id, state, effective_from);

    alter table sales_tax_rule enable row level security;
    alter table sales_tax_rule force row level security;
    create policy tenant_isolation on sales_tax_rule
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('sales tax migration is not reversible')
}
