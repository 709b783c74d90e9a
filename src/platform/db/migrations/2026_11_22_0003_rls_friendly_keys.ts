// Frozen: case-insensitive keys as stored generated columns. Under row-level security, predicates
// with functions that are not LEAKPROOF (such as lower()) are evaluated after the policy and cannot
// use an index, so `lower(email_address) = $1` scanned every user. Comparing a stored lower-cased
// column with `=` (texteq is LEAKPROOF) uses the unique index.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table app_user add column email_address_key text generated always as (lower(email_address)) stored;
    drop index app_user_email_uq;
    create unique index app_user_email_uq on app_user (tenant_id, email_address_key);

    alter table account_holder add column business_key_key text generated always as (lower(business_key)) stored;
    drop index account_holder_business_key_uq;
    create unique index account_holder_business_key_uq on account_holder (tenant_id, kind, business_key_key)
      where business_key is not null;
    create index account_holder_business_key_any_kind_idx on account_holder (tenant_id, business_key_key)
      where business_key is not null;
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('not reversible')
}
