// Frozen: claim notes (docs/claims.md "Notes and documents", issue 14).
// - claim_note: a note on a claim, append-only (no update or delete route; a correction is another
//   note). visibility ALL: every caller who sees the claim reads it; STAFF: the administrator's staff
//   only (dealer-side callers neither read nor count it). The claim's documents are the documents
//   module's (owner type CLAIM), not a table here.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table claim_note (
      tenant_id bigint not null references tenant(id),
      id bigint generated always as identity,
      claim_id bigint not null,
      text text not null check (char_length(text) between 1 and 4000),
      visibility text not null default 'ALL' check (visibility in ('ALL', 'STAFF')),
      created_at timestamptz not null,
      created_by text not null,
      created_by_user_id bigint,
      primary key (tenant_id, id),
      foreign key (tenant_id, claim_id) references claim (tenant_id, id)
    );
    create index claim_note_claim_idx on claim_note (tenant_id, claim_id, id);
  `.execute(db)
  await sql
    .raw(
      `alter table claim_note enable row level security;
       alter table claim_note force row level security;
       create policy tenant_isolation on claim_note
         using (tenant_id = app_current_tenant())
         with check (tenant_id = app_current_tenant());`,
    )
    .execute(db)
}

export async function down(): Promise<void> {
  throw new Error('claim notes migration is not reversible')
}
