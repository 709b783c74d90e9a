// Frozen: the ledger core (docs/ledger.md). Accounts are (account holder, purpose) pairs created on
// first use; journal entries and their lines are append-only and every entry balances, both
// enforced here by the database itself so that no code path (nor raw SQL under the application
// role) can edit history or commit an unbalanced entry. Purposes, entry kinds and source types are
// listed in the finance module (ledger.rules.ts); the columns only check their spelling, so a later
// issue adds a kind without a migration. Lines name their contract and disbursement code without a
// foreign key: the ledger stays decoupled from the tables of the modules that post to it.
import { sql, type Kysely } from 'kysely'

const tenantOwned = ['ledger_account', 'journal_entry', 'journal_line']

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table ledger_account (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      account_holder_id bigint not null,
      purpose text not null check (purpose ~ '^[A-Z][A-Z_]{0,62}$'),
      created_at timestamptz not null default now(),
      unique (tenant_id, id),
      unique (tenant_id, account_holder_id, purpose),
      foreign key (tenant_id, account_holder_id) references account_holder (tenant_id, id)
    );

    create table journal_entry (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      kind text not null check (kind ~ '^[A-Z][A-Z_]{0,62}$'),
      source_type text not null check (source_type ~ '^[A-Z][A-Z_]{0,62}$'),
      source_id bigint not null,
      effective_date date not null,
      posted_at timestamptz not null,
      posted_by text not null,
      memo text check (char_length(memo) <= 1000),
      -- Set on a reversal only; unique, so an entry is reversed at most once.
      reverses_entry_id bigint,
      unique (tenant_id, id),
      unique (tenant_id, reverses_entry_id),
      check ((kind = 'REVERSAL') = (reverses_entry_id is not null)),
      check (reverses_entry_id is null or reverses_entry_id < id),
      foreign key (tenant_id, reverses_entry_id) references journal_entry (tenant_id, id)
    );
    create index journal_entry_source_idx on journal_entry (tenant_id, source_type, source_id, id);

    create table journal_line (
      id bigint generated always as identity primary key,
      tenant_id bigint not null references tenant(id),
      entry_id bigint not null,
      line_no integer not null check (line_no >= 1),
      account_id bigint not null,
      debit numeric(14, 2) not null default 0 check (debit >= 0),
      credit numeric(14, 2) not null default 0 check (credit >= 0),
      contract_id bigint,
      disbursement_code text check (char_length(disbursement_code) between 1 and 100),
      memo text check (char_length(memo) <= 1000),
      unique (tenant_id, id),
      unique (tenant_id, entry_id, line_no),
      -- Exactly one side carries the amount.
      check ((debit > 0 and credit = 0) or (credit > 0 and debit = 0)),
      foreign key (tenant_id, entry_id) references journal_entry (tenant_id, id),
      foreign key (tenant_id, account_id) references ledger_account (tenant_id, id)
    );
    create index journal_line_account_idx on journal_line (tenant_id, account_id, entry_id);
    create index journal_line_contract_idx on journal_line (tenant_id, contract_id, entry_id) where contract_id is not null;

    -- History is never edited: a correction is a reversing entry. 42501 as for audit_log.
    create function ledger_append_only() returns trigger language plpgsql as $$
      begin
        raise exception '% is append-only', tg_table_name using errcode = '42501';
      end $$;

    create trigger ledger_account_append_only before update or delete on ledger_account
      for each row execute function ledger_append_only();
    create trigger ledger_account_no_truncate before truncate on ledger_account
      for each statement execute function ledger_append_only();
    create trigger journal_entry_append_only before update or delete on journal_entry
      for each row execute function ledger_append_only();
    create trigger journal_entry_no_truncate before truncate on journal_entry
      for each statement execute function ledger_append_only();
    create trigger journal_line_append_only before update or delete on journal_line
      for each row execute function ledger_append_only();
    create trigger journal_line_no_truncate before truncate on journal_line
      for each statement execute function ledger_append_only();

    -- At commit, every entry touched by the transaction has at least two lines, a positive total
    -- and debits equal to credits. Deferred, so that an entry and its lines can be inserted in any
    -- order within the transaction. Fired per row: an entry with n lines is summed n + 1 times,
    -- each an index range scan of its own lines.
    create function journal_entry_check_balanced(entry_tenant bigint, entry bigint) returns void language plpgsql as $$
      declare
        total_debit numeric;
        total_credit numeric;
        line_count integer;
      begin
        select coalesce(sum(debit), 0), coalesce(sum(credit), 0), count(*)
          into total_debit, total_credit, line_count
          from journal_line
          where tenant_id = entry_tenant and entry_id = entry;
        if line_count < 2 or total_debit <> total_credit or total_debit = 0 then
          raise exception 'journal entry % does not balance: % line(s), debits %, credits %',
            entry, line_count, total_debit, total_credit
            using errcode = '23514', constraint = 'journal_entry_balanced';
        end if;
      end $$;
    create function journal_entry_balanced() returns trigger language plpgsql as $$
      begin
        perform journal_entry_check_balanced(new.tenant_id, new.id);
        return null;
      end $$;
    create function journal_line_balanced() returns trigger language plpgsql as $$
      begin
        perform journal_entry_check_balanced(new.tenant_id, new.entry_id);
        return null;
      end $$;

    create constraint trigger journal_entry_balanced after insert on journal_entry
      deferrable initially deferred
      for each row execute function journal_entry_balanced();
    create constraint trigger journal_line_balanced after insert on journal_line
      deferrable initially deferred
      for each row execute function journal_line_balanced();
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
  throw new Error('ledger migration is not reversible')
}
