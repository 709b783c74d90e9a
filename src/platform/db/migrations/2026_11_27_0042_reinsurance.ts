// Frozen: risk-bearer reporting, part 1 (issue 21; docs/reporting.md). A reinsurance company is an
// account holder of its own kind. A reinsurance treaty cedes a share of the claims reserve of the
// contracts its dealers (or dealer groups) sell of its products (or programs) while it is in force;
// the cession is fixed at sale in the contract's terms (terms.cession), never rewritten. Treaties of
// the same dealer (group) and product (program) never overlap in time: the service checks it under
// an advisory lock of the tenant (an exclusion constraint would need btree_gist, which the embedded
// database does not have). The coverage lists are small arrays of ids, read whole with the treaty.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table account_holder drop constraint account_holder_kind_check;
    alter table account_holder add constraint account_holder_kind_check check (kind in ('ADMIN_COMPANY', 'DEALER',
      'DEALER_GROUP', 'AGENT', 'CUSTOMER', 'INSURER', 'LIEN_HOLDER', 'REPAIR_FACILITY', 'INSPECTION_COMPANY',
      'CLAIM_PAYEE', 'REINSURANCE_COMPANY'));

    create table reinsurance_treaty (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      reinsurance_company_id bigint not null,
      name text not null check (char_length(name) between 1 and 200),
      -- Account-holder ids (dealers, dealer groups) and rating catalogue ids (products, programs).
      dealer_ids bigint[] not null default '{}',
      dealer_group_ids bigint[] not null default '{}',
      product_ids bigint[] not null default '{}',
      program_ids bigint[] not null default '{}',
      effective_from date not null,
      -- The last day in force (inclusive); null: open-ended.
      effective_to date,
      -- The ceded share of the reserve line, in basis points (10000 = 100 %).
      share_bps integer not null default 10000 check (share_bps between 0 and 10000),
      -- Fees the reinsurance company pays, in basis points of the ceded reserve.
      ceding_fee_bps integer not null default 0 check (ceding_fee_bps between 0 and 10000),
      administrator_fee_bps integer not null default 0 check (administrator_fee_bps between 0 and 10000),
      version integer not null default 1,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (tenant_id, id),
      foreign key (tenant_id, reinsurance_company_id) references account_holder (tenant_id, id),
      check (effective_to is null or effective_to >= effective_from),
      check (cardinality(dealer_ids) + cardinality(dealer_group_ids) > 0),
      check (cardinality(product_ids) + cardinality(program_ids) > 0)
    );
    create index reinsurance_treaty_company_idx on reinsurance_treaty (tenant_id, reinsurance_company_id, id);
    create index reinsurance_treaty_from_idx on reinsurance_treaty (tenant_id, effective_from);

    -- The contracts a treaty ceded (terms.cession.treatyId): what a treaty's deletion asks, and the
    -- reinsurance statements' way in.
    create index contract_cession_treaty_idx on contract (tenant_id, ((terms -> 'cession' ->> 'treatyId')::bigint))
      where (terms -> 'cession' ->> 'treatyId') is not null;

    alter table reinsurance_treaty enable row level security;
    alter table reinsurance_treaty force row level security;
    create policy tenant_isolation on reinsurance_treaty
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('reinsurance migration is not reversible')
}
