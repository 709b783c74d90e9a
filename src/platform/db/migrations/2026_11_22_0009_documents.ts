// Frozen: stored documents. A document (owned by one record of another module: a contract, a claim)
// has immutable versions; each version's bytes live in one blob store, named by `storage` and
// `storage_key`: the database (chunks in document_blob_chunk) or a file system directory. Every
// existing tenant gets its link-signing secret here (new tenants get one at creation).
import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'

const tenantOwned = ['document', 'document_version', 'document_blob_chunk', 'document_link_key']

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table document (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      -- The owning record, by the owner module's name for it ('CONTRACT', 'CLAIM'); no foreign key,
      -- since owners live in tables of several modules. The owner module checks the id on upload.
      owner_type text not null check (owner_type ~ '^[A-Z][A-Z0-9_]{0,39}$'),
      owner_id bigint not null check (owner_id > 0),
      kind text not null check (kind ~ '^[A-Z][A-Z0-9_]{0,39}$'),
      title text not null check (length(title) between 1 and 255),
      current_version integer not null check (current_version between 1 and 100),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by text not null,
      unique (tenant_id, id)
    );
    create index document_owner_idx on document (tenant_id, owner_type, owner_id, kind, id);

    create table document_version (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      document_id bigint not null,
      version_no integer not null check (version_no between 1 and 100),
      file_name text not null check (length(file_name) between 1 and 255),
      content_type text not null,
      size_bytes bigint not null check (size_bytes > 0),
      sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
      storage text not null check (storage in ('DATABASE', 'FILESYSTEM')),
      storage_key text not null check (storage_key ~ '^[0-9a-f]{32}$'),
      metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
      created_at timestamptz not null default now(),
      created_by text not null,
      unique (tenant_id, id),
      unique (tenant_id, document_id, version_no),
      unique (tenant_id, storage_key),
      foreign key (tenant_id, document_id) references document (tenant_id, id)
    );

    -- Bytes of DATABASE versions, in order of seq; a blob is written once, with its version row.
    create table document_blob_chunk (
      tenant_id bigint not null references tenant(id),
      storage_key text not null,
      seq integer not null check (seq >= 0),
      data bytea not null,
      primary key (tenant_id, storage_key, seq)
    );

    -- The secret that signs a tenant's download links: shared by every instance, kept across restarts.
    create table document_link_key (
      tenant_id bigint primary key references tenant(id),
      secret bytea not null check (length(secret) >= 32),
      created_at timestamptz not null default now()
    );

    -- Versions and their bytes never change: a new upload is a new version.
    create function document_immutable() returns trigger language plpgsql as $$
      begin
        raise exception '% rows are immutable', TG_TABLE_NAME using errcode = '42501';
      end $$;
    create trigger document_version_immutable before update or delete on document_version
      for each row execute function document_immutable();
    create trigger document_blob_chunk_immutable before update or delete on document_blob_chunk
      for each row execute function document_immutable();
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

  const tenants = await sql<{ id: number }>`select id from tenant`.execute(db)
  for (const { id } of tenants.rows) {
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(db)
    await sql`insert into document_link_key (tenant_id, secret) values (${id}, ${randomBytes(32)}) on conflict (tenant_id) do nothing`.execute(
      db,
    )
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('documents migration is not reversible')
}
