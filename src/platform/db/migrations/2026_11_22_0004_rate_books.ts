// Frozen: rate books. A book version is immutable once imported: the quote and the contracts priced
// from it refer to it by id forever, so rows are never updated or deleted (the database refuses).
// Catalogue items give every product, program, plan, term, deductible and option a numeric id that
// stays the same across versions (matched by code), so ids in contracts and disbursement targets
// keep their meaning when a new book is imported.
import { sql, type Kysely } from 'kysely'

const tenantOwned = ['rate_book', 'rating_catalogue_item', 'rate_quote_key']

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table rate_book (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      version integer not null,
      effective_date date not null,
      description text,
      checksum text not null,
      -- The normalised book (the import format, defaults filled in), gzip-compressed JSON: read whole
      -- into the in-memory index, never queried piecemeal.
      document bytea not null,
      summary jsonb not null,
      imported_at timestamptz not null default now(),
      imported_by text not null,
      unique (tenant_id, version),
      unique (tenant_id, id)
    );
    create index rate_book_effective_idx on rate_book (tenant_id, effective_date, version);

    create function rate_book_immutable() returns trigger language plpgsql as $$
      begin
        raise exception 'rate_book versions are immutable' using errcode = '42501';
      end $$;
    create trigger rate_book_no_update before update or delete on rate_book
      for each row execute function rate_book_immutable();

    create table rating_catalogue_item (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      kind text not null check (kind in ('PRODUCT', 'PROGRAM', 'PLAN', 'TERM', 'DEDUCTIBLE', 'OPTION', 'FACTOR_TABLE')),
      -- Codes are upper-case by the book's rules; scoped kinds carry their parent's code
      -- ('PLAT-USED/48-48000' for a term, 'VSC/100' for a deductible, 'VSC/ROADSIDE' for an option).
      code text not null,
      first_version integer not null,
      created_at timestamptz not null default now(),
      unique (tenant_id, kind, code),
      unique (tenant_id, id)
    );

    create table rate_quote_key (
      tenant_id bigint primary key references tenant(id),
      secret bytea not null,
      created_at timestamptz not null default now()
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
  throw new Error('rate book migration is not reversible')
}
