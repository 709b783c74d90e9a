// Frozen: foundation tables (tenants, credentials, users, membership, audit, idempotency, settings).
import { sql, type Kysely } from 'kysely'

const tenantOwned = [
  'tenant_signing_key',
  'api_key',
  'identity_provider',
  'app_user',
  'membership_role',
  'membership_group',
  'membership_group_account_holder',
  'user_role',
  'user_group',
  'audit_log',
  'idempotency_key',
  'general_setting',
]

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function app_current_tenant() returns bigint
      language sql stable
      as $$ select nullif(current_setting('app.tenant_id', true), '')::bigint $$;

    create table tenant (
      id bigint generated always as identity primary key,
      name text not null,
      created_at timestamptz not null default now()
    );

    create table tenant_signing_key (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      kid text not null,
      alg text not null,
      private_jwk jsonb not null,
      public_jwk jsonb not null,
      created_at timestamptz not null default now(),
      retired_at timestamptz,
      unique (tenant_id, kid)
    );

    create table api_key (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      name text not null,
      key_prefix text not null,
      key_hash text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz,
      unique (tenant_id, key_hash)
    );

    create table identity_provider (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      issuer text not null,
      audience text not null,
      jwks_url text not null,
      identity_claim text not null default 'sub',
      algorithms text[] not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (tenant_id, issuer)
    );

    create table app_user (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      email_address text not null,
      external_identity text,
      first_name text,
      last_name text,
      phone_number text,
      password_hash text,
      expired_date timestamptz,
      account_holder_id bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      version integer not null default 1,
      unique (tenant_id, id)
    );
    -- Mail systems treat addresses case-insensitively, so uniqueness does too.
    create unique index app_user_email_uq on app_user (tenant_id, lower(email_address));
    create unique index app_user_external_identity_uq on app_user (tenant_id, external_identity)
      where external_identity is not null;

    create table membership_role (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      code text not null,
      name text not null,
      description text not null default '',
      permissions text[] not null,
      created_at timestamptz not null default now(),
      unique (tenant_id, code),
      unique (tenant_id, id)
    );

    create table membership_group (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      code text not null,
      name text not null,
      description text not null default '',
      kind text not null check (kind in ('STAFF', 'DEALER')),
      created_at timestamptz not null default now(),
      unique (tenant_id, code),
      unique (tenant_id, id)
    );

    create table membership_group_account_holder (
      tenant_id bigint not null,
      group_id bigint not null,
      account_holder_id bigint not null,
      primary key (tenant_id, group_id, account_holder_id),
      foreign key (tenant_id, group_id) references membership_group (tenant_id, id) on delete cascade
    );

    create table user_role (
      tenant_id bigint not null,
      user_id bigint not null,
      role_id bigint not null,
      primary key (tenant_id, user_id, role_id),
      foreign key (tenant_id, user_id) references app_user (tenant_id, id) on delete cascade,
      foreign key (tenant_id, role_id) references membership_role (tenant_id, id)
    );

    create table user_group (
      tenant_id bigint not null,
      user_id bigint not null,
      group_id bigint not null,
      primary key (tenant_id, user_id, group_id),
      foreign key (tenant_id, user_id) references app_user (tenant_id, id) on delete cascade,
      foreign key (tenant_id, group_id) references membership_group (tenant_id, id)
    );
    create index user_group_group_idx on user_group (tenant_id, group_id);

    create table audit_log (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      occurred_at timestamptz not null,
      actor_user_id bigint,
      actor_api_key_id bigint,
      actor_label text not null,
      request_id text,
      action text not null,
      entity_type text not null,
      entity_id text not null,
      changes jsonb not null default '{}'::jsonb
    );
    create index audit_log_entity_idx on audit_log (tenant_id, entity_type, entity_id, id);

    -- The audit trail is append-only: the database itself refuses edits.
    create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only' using errcode = '42501';
      end $$;
    create trigger audit_log_no_update before update or delete on audit_log
      for each row execute function audit_log_append_only();

    create table idempotency_key (
      tenant_id bigint not null references tenant(id),
      scope_key text not null,
      request_hash text not null,
      status_code integer not null,
      response_headers jsonb not null,
      response_body jsonb,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (tenant_id, scope_key)
    );

    create table general_setting (
      tenant_id bigint not null references tenant(id),
      setting_key text not null,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      updated_by text not null,
      version integer not null default 1,
      primary key (tenant_id, setting_key)
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
  throw new Error('foundation migration is not reversible')
}
