// Frozen: what contract creation needs to stay fast under load.
// - Contract numbers come from one PostgreSQL sequence per tenant (next_contract_number): nextval
//   never waits on another transaction, where the counter row of 0007 was locked by each creation
//   until it committed and so serialized every sale of a tenant. A refused submission that had
//   drawn a number leaves a gap, as a voided contract does; numbers stay unique and increasing.
// - Customers and lien holders are matched by a stored lower-cased name compared with `=`, which
//   can use an index under row-level security (lower() is not LEAKPROOF; see 0003).
// - Indexes for a contract by its number in any case, and for the values a contract claims; the
//   rate-book version a contract was priced from as a foreign key.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function next_contract_number(p_tenant bigint) returns bigint
      language plpgsql
      as $$
      declare
        seq regclass;
      begin
        if p_tenant is distinct from app_current_tenant() then
          raise exception 'contract numbers of tenant % drawn for tenant %', p_tenant, app_current_tenant() using errcode = '42501';
        end if;
        seq := to_regclass(format('contract_number_seq_%s', p_tenant));
        if seq is null then
          -- Two first contracts of a tenant at once: one creates the sequence, the other waits here.
          perform pg_advisory_xact_lock(hashtext('contract_number_seq'), p_tenant::int);
          execute format('create sequence if not exists contract_number_seq_%s', p_tenant);
          seq := to_regclass(format('contract_number_seq_%s', p_tenant));
        end if;
        return nextval(seq);
      end
      $$;

    alter table account_holder add column legal_name_key text generated always as (lower(legal_name)) stored;
    create index account_holder_legal_name_key_idx on account_holder (tenant_id, kind, legal_name_key, id);

    create index contract_number_upper_idx on contract (tenant_id, upper(contract_number));
    create index contract_unique_value_contract_idx on contract_unique_value (tenant_id, contract_id);
    alter table contract add constraint contract_rate_book_fk foreign key (tenant_id, rate_book_id) references rate_book (tenant_id, id);
  `.execute(db)

  // Tenants that already numbered contracts go on from where their counter row stood.
  const tenants = await sql<{ id: number }>`select id from tenant`.execute(db)
  for (const { id } of tenants.rows) {
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(db)
    const row = await sql<{
      last_value: string
    }>`select last_value from contract_number_sequence where tenant_id = ${id}`.execute(db)
    const last = row.rows[0] ? Number(row.rows[0].last_value) : 0
    await sql.raw(`create sequence contract_number_seq_${Number(id)} start with ${last + 1}`).execute(db)
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
  await sql`drop table contract_number_sequence`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('contract look-ups migration is not reversible')
}
