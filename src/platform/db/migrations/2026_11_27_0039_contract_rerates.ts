// Frozen: rerate requests of a contract (issue 16; docs/contracts.md "Rerating"). A rerate prices a
// contract again at its own rate-book version and sale date with corrected facts (odometer, vehicle,
// term, options); each one applied is kept here, never changed: the facts asked for, the pricing
// before and after (whole cents, as the contract's pricing snapshot keeps them), the differences,
// and the entries it posted (the CONTRACT_RERATED difference, the earnings resync). A dry run
// stores nothing.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table contract_rerate_request (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      contract_id bigint not null,
      contract_status text not null
        check (contract_status in ('PENDING', 'FINALIZED', 'ACTIVE')),
      reason text check (char_length(reason) <= 1000),
      changes jsonb not null check (jsonb_typeof(changes) = 'object'),
      before jsonb not null check (jsonb_typeof(before) = 'object'),
      after jsonb not null check (jsonb_typeof(after) = 'object'),
      dealer_cost_difference numeric(14, 2) not null,
      retail_price_difference numeric(14, 2) not null,
      sales_tax_difference numeric(14, 2) not null,
      posted_lines jsonb not null check (jsonb_typeof(posted_lines) = 'array'),
      journal_entry_id bigint,
      settlement_entry_id bigint,
      earnings_entry_id bigint,
      requested_at timestamptz not null,
      requested_by text not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id)
    );
    create index contract_rerate_request_contract_idx on contract_rerate_request (tenant_id, contract_id, id);

    alter table contract_rerate_request enable row level security;
    alter table contract_rerate_request force row level security;
    create policy tenant_isolation on contract_rerate_request
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('contract rerates migration is not reversible')
}
