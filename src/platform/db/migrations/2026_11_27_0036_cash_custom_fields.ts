// Frozen: custom fields on cash transactions (issue 15; docs/custom-fields.md, docs/cash.md "Custom
// fields"). Definitions gain the kind CASH_TRANSACTION; the fields of a cash transaction live in
// their own table, shaped as account_holder_custom_field is (the parties module's custom-field
// service reads and writes both, by kind). Cash transactions are never deleted, so neither are their
// fields by cascade.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table custom_field_definition drop constraint custom_field_definition_applies_to_check;
    alter table custom_field_definition add constraint custom_field_definition_applies_to_check
      check (applies_to in ('AGENT', 'DEALER_GROUP', 'DEALER', 'CASH_TRANSACTION'));

    create table cash_transaction_custom_field (
      tenant_id bigint not null,
      id bigint generated always as identity,
      cash_transaction_id bigint not null,
      name text not null,
      type text not null check (type in ('STRING', 'INTEGER', 'DECIMAL', 'DATE', 'BOOLEAN', 'LIST')),
      value jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      primary key (tenant_id, id),
      foreign key (tenant_id, cash_transaction_id) references cash_transaction (tenant_id, id)
    );
    create unique index cash_transaction_custom_field_name_uq
      on cash_transaction_custom_field (tenant_id, cash_transaction_id, lower(name));

    alter table cash_transaction_custom_field enable row level security;
    alter table cash_transaction_custom_field force row level security;
    create policy tenant_isolation on cash_transaction_custom_field
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('cash custom fields migration is not reversible')
}
