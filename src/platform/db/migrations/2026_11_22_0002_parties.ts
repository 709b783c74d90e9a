// Frozen: account holders (every party money flows to or from) and what hangs off them.
import { sql, type Kysely } from 'kysely'

const tenantOwned = [
  'account_holder',
  'dealer_agent',
  'custom_field_definition',
  'account_holder_custom_field',
  'disbursement_account',
  'repair_facility_link',
]

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table account_holder (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      kind text not null check (kind in ('ADMIN_COMPANY', 'DEALER', 'DEALER_GROUP', 'AGENT', 'CUSTOMER', 'INSURER',
        'LIEN_HOLDER', 'REPAIR_FACILITY', 'INSPECTION_COMPANY', 'CLAIM_PAYEE')),
      business_key text,
      legal_name text not null,
      display_name text not null,
      status text not null default 'ACTIVE' check (status in ('ACTIVE', 'INACTIVE')),
      expired_date timestamptz,
      tax_id text,
      w9_on_file boolean not null default false,
      addresses jsonb not null default '[]'::jsonb,
      phones jsonb not null default '[]'::jsonb,
      emails jsonb not null default '[]'::jsonb,
      -- State of the first address, kept for search.
      primary_state text,
      details jsonb not null default '{}'::jsonb,
      dealer_group_id bigint,
      -- Sale date of the dealer's latest contract; maintained by contracts, read by auto-expire.
      last_contract_date date,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      unique (tenant_id, id),
      foreign key (tenant_id, dealer_group_id) references account_holder (tenant_id, id)
    );
    create unique index account_holder_business_key_uq on account_holder (tenant_id, kind, lower(business_key))
      where business_key is not null;
    create index account_holder_kind_idx on account_holder (tenant_id, kind, id);
    create index account_holder_name_idx on account_holder (tenant_id, lower(legal_name));
    create index account_holder_group_idx on account_holder (tenant_id, dealer_group_id) where dealer_group_id is not null;

    create table dealer_agent (
      tenant_id bigint not null,
      dealer_id bigint not null,
      agent_id bigint not null,
      primary key (tenant_id, dealer_id, agent_id),
      foreign key (tenant_id, dealer_id) references account_holder (tenant_id, id) on delete cascade,
      foreign key (tenant_id, agent_id) references account_holder (tenant_id, id)
    );
    create index dealer_agent_agent_idx on dealer_agent (tenant_id, agent_id);

    create table custom_field_definition (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      applies_to text not null check (applies_to in ('AGENT', 'DEALER_GROUP', 'DEALER')),
      name text not null,
      label text not null,
      type text not null check (type in ('STRING', 'INTEGER', 'DECIMAL', 'DATE', 'BOOLEAN', 'LIST')),
      required boolean not null default false,
      allowed_values text[],
      max_length integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      unique (tenant_id, id)
    );
    create unique index custom_field_definition_name_uq on custom_field_definition (tenant_id, applies_to, lower(name));

    create table account_holder_custom_field (
      id bigint generated always as identity primary key,
      tenant_id bigint not null,
      account_holder_id bigint not null,
      name text not null,
      type text not null check (type in ('STRING', 'INTEGER', 'DECIMAL', 'DATE', 'BOOLEAN', 'LIST')),
      value jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id) on delete cascade
    );
    create unique index account_holder_custom_field_name_uq on account_holder_custom_field (tenant_id, account_holder_id, lower(name));

    create table disbursement_account (
      id bigint generated always as identity primary key,
      tenant_id bigint not null,
      account_holder_id bigint not null,
      name text not null,
      payment_method text not null check (payment_method in ('ACH', 'WIRE', 'CHECK')),
      bank_name text,
      routing_number text,
      account_number text,
      account_type text check (account_type in ('CHECKING', 'SAVINGS')),
      is_default boolean not null default false,
      status text not null default 'ACTIVE' check (status in ('ACTIVE', 'INACTIVE')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id)
    );
    create index disbursement_account_holder_idx on disbursement_account (tenant_id, account_holder_id);
    -- At most one default account per account holder.
    create unique index disbursement_account_default_uq on disbursement_account (tenant_id, account_holder_id) where is_default;

    create table repair_facility_link (
      tenant_id bigint not null,
      repair_facility_id bigint not null,
      linked_id bigint not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, repair_facility_id, linked_id),
      foreign key (tenant_id, repair_facility_id) references account_holder (tenant_id, id) on delete cascade,
      foreign key (tenant_id, linked_id) references account_holder (tenant_id, id) on delete cascade
    );
    create index repair_facility_link_linked_idx on repair_facility_link (tenant_id, linked_id);

    -- Dealer-side membership groups (portal visibility groups) list account holders that exist.
    alter table membership_group_account_holder
      add foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id) on delete cascade;
    create index membership_group_account_holder_ah_idx on membership_group_account_holder (tenant_id, account_holder_id);
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

  // Every existing tenant gets its administrator-company record (new tenants get it at creation).
  await sql`
    do $$
    declare t record;
    begin
      for t in select id, name from tenant loop
        perform set_config('app.tenant_id', t.id::text, true);
        insert into account_holder (tenant_id, kind, business_key, legal_name, display_name)
          values (t.id, 'ADMIN_COMPANY', 'ADMIN', t.name, t.name);
      end loop;
      perform set_config('app.tenant_id', '', true);
    end $$;
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('parties migration is not reversible')
}
