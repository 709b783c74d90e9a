// Frozen: the ledger's running totals per account and contract (docs/ledgers.md "How the views are
// read", docs/benchmarks.md "Ledger views"). Not a second source of truth: the database derives each
// row from journal lines in the statement that inserts them, and lines are append-only (0008), so a
// row always equals the sum of its lines:
//
//   ledger_item(tenant, account, contract) = Σ debit, Σ credit, min/max of the entries' accounting
//   dates and the count of the journal lines of that account and contract (contract 0: lines without
//   one), over every committed line.
//
// The views read a row instead of its lines whenever the row's lines are all dated on or before the
// view's as-of date (last_date <= asOf); otherwise they read the lines. A dealer's summary was the
// aggregation of every receivable line of the dealer joined to its entry for the date; now it is
// one index range of its items.
//
// The trigger is statement-level over the statement's new lines (a transition table, as 0025's
// balance check), fires after that check (triggers fire in name order), and upserts in key order
// so two statements touching the same items lock them in the same order. Rows of contract 0 (cash
// received, lines without a contract) are shared by every such posting of an account: receipts of
// one payer queue on its unapplied-cash row until commit, which is the order they post in anyway.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table ledger_item (
      tenant_id bigint not null references tenant(id),
      account_id bigint not null,
      contract_id bigint not null,
      debit numeric(16, 2) not null,
      credit numeric(16, 2) not null,
      first_date date not null,
      last_date date not null,
      line_count bigint not null,
      -- The amounts ride in the key index: a holder's balances are an index-only range of it.
      primary key (tenant_id, account_id, contract_id) include (debit, credit),
      foreign key (tenant_id, account_id) references ledger_account (tenant_id, id)
    );
    -- Is any item of these accounts dated after as-of (then its lines are read)?
    create index ledger_item_last_date_idx on ledger_item (tenant_id, last_date);
    -- Open items oldest first (a receivable's unpaid contracts, its aging): index-only with the amounts.
    create index ledger_item_open_idx on ledger_item (tenant_id, account_id, first_date, contract_id)
      include (debit, credit) where debit > credit and contract_id <> 0;

    insert into ledger_item (tenant_id, account_id, contract_id, debit, credit, first_date, last_date, line_count)
    select l.tenant_id, l.account_id, coalesce(l.contract_id, 0), sum(l.debit), sum(l.credit),
           min(e.effective_date), max(e.effective_date), count(*)
      from journal_line l
      join journal_entry e on e.tenant_id = l.tenant_id and e.id = l.entry_id
     group by l.tenant_id, l.account_id, coalesce(l.contract_id, 0);

    create function ledger_item_add_lines() returns trigger language plpgsql as $$
      begin
        insert into ledger_item as i
               (tenant_id, account_id, contract_id, debit, credit, first_date, last_date, line_count)
        select n.tenant_id, n.account_id, coalesce(n.contract_id, 0), sum(n.debit), sum(n.credit),
               min(e.effective_date), max(e.effective_date), count(*)
          from new_lines n
          join journal_entry e on e.tenant_id = n.tenant_id and e.id = n.entry_id
         group by n.tenant_id, n.account_id, coalesce(n.contract_id, 0)
         order by 1, 2, 3
        on conflict (tenant_id, account_id, contract_id) do update
           set debit = i.debit + excluded.debit,
               credit = i.credit + excluded.credit,
               first_date = least(i.first_date, excluded.first_date),
               last_date = greatest(i.last_date, excluded.last_date),
               line_count = i.line_count + excluded.line_count;
        return null;
      end $$;
    create trigger journal_line_items after insert on journal_line
      referencing new table as new_lines
      for each statement execute function ledger_item_add_lines();

    -- Only the trigger writes it; like the journal, rows are never deleted.
    create function ledger_item_no_delete() returns trigger language plpgsql as $$
      begin
        raise exception 'ledger_item rows follow the journal and are never deleted' using errcode = '42501';
      end $$;
    create trigger ledger_item_no_delete before delete on ledger_item
      for each row execute function ledger_item_no_delete();
    create trigger ledger_item_no_truncate before truncate on ledger_item
      for each statement execute function ledger_item_no_delete();

    alter table ledger_item enable row level security;
    alter table ledger_item force row level security;
    create policy tenant_isolation on ledger_item
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('ledger items migration is not reversible')
}
