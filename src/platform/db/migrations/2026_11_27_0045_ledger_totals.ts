// Frozen: the ledger's totals per account and, for the receivables, per first posted date
// (docs/ledgers.md "How the views are read", docs/benchmarks.md "Ledger views"). Like the ledger items
// (0035) they are sums the database derives from the journal lines in the statement that inserts
// them, never written by the service:
//
//   ledger_total(tenant, account) + Σ ledger_total_delta(tenant, account)
//       = Σ debit, Σ credit of the account's items (so of its lines);
//   ledger_open_total(tenant, account, date) + Σ ledger_open_delta(tenant, account, date)
//       = Σ (debit − credit) and the count of the account's open items (contract <> 0, debit > credit)
//         whose first_date is that date, for DEALER_RECEIVABLE accounts.
//
// Written without serializing postings: the statement-level trigger on journal_line (0035's function,
// replaced here) appends one delta row per account (and per account and first date of the open items
// it changes) and statement; no shared row is updated, so concurrent postings of one account never
// wait on each other. An item's change of open amount is its new contribution less its old one: the
// upsert of the item returns its new sums (the old are the new less the statement's) and, in
// prev_first_date, its first date before the statement (a column the upsert sets to the row version
// it locked, so it is exact under concurrency).
//
// Folding: when an account has FOLD_AT or more unfolded deltas, the posting that sees it moves them
// into the total rows, holding the account's ledger_total row (FOR UPDATE SKIP LOCKED: a posting that
// finds it held by another fold leaves its deltas for a later one and does not wait). Only the
// holder of that lock deletes the account's deltas, and each statement of the fold reads after the
// lock is taken (READ COMMITTED: a fresh snapshot per statement), so a delta is added exactly once.
// A view reads total + the unfolded deltas: at most about FOLD_AT + the concurrent postings' rows.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table ledger_total (
      tenant_id bigint not null references tenant(id),
      account_id bigint not null,
      debit numeric(16, 2) not null,
      credit numeric(16, 2) not null,
      primary key (tenant_id, account_id) include (debit, credit),
      foreign key (tenant_id, account_id) references ledger_account (tenant_id, id)
    );
    create table ledger_total_delta (
      tenant_id bigint not null references tenant(id),
      account_id bigint not null,
      id bigint generated always as identity,
      debit numeric(16, 2) not null,
      credit numeric(16, 2) not null,
      primary key (tenant_id, account_id, id) include (debit, credit)
    );
    create table ledger_open_total (
      tenant_id bigint not null references tenant(id),
      account_id bigint not null,
      first_date date not null,
      open_amount numeric(16, 2) not null,
      open_count bigint not null,
      primary key (tenant_id, account_id, first_date) include (open_amount, open_count),
      foreign key (tenant_id, account_id) references ledger_account (tenant_id, id)
    );
    create table ledger_open_delta (
      tenant_id bigint not null references tenant(id),
      account_id bigint not null,
      first_date date not null,
      id bigint generated always as identity,
      open_amount numeric(16, 2) not null,
      open_count bigint not null,
      primary key (tenant_id, account_id, first_date, id) include (open_amount, open_count)
    );

    -- The item's first date before the statement's upsert (null when the statement created it).
    alter table ledger_item add column prev_first_date date;

    -- Every account has its total row (the fold's lock), from its creation on.
    insert into ledger_total (tenant_id, account_id, debit, credit)
    select a.tenant_id, a.id, coalesce(sum(i.debit), 0), coalesce(sum(i.credit), 0)
      from ledger_account a
      left join ledger_item i on i.tenant_id = a.tenant_id and i.account_id = a.id
     group by a.tenant_id, a.id;
    insert into ledger_open_total (tenant_id, account_id, first_date, open_amount, open_count)
    select i.tenant_id, i.account_id, i.first_date, sum(i.debit - i.credit), count(*)
      from ledger_item i
      join ledger_account a on a.tenant_id = i.tenant_id and a.id = i.account_id
     where a.purpose = 'DEALER_RECEIVABLE' and i.contract_id <> 0 and i.debit > i.credit
     group by i.tenant_id, i.account_id, i.first_date;

    create function ledger_total_for_account() returns trigger language plpgsql as $$
      begin
        insert into ledger_total (tenant_id, account_id, debit, credit) values (new.tenant_id, new.id, 0, 0);
        return null;
      end $$;
    create trigger ledger_account_total after insert on ledger_account
      for each row execute function ledger_total_for_account();

    create or replace function ledger_item_add_lines() returns trigger language plpgsql as $$
      declare
        fold_at constant int := 16;
        t_id bigint;
        a_id bigint;
      begin
        with agg as (
          select n.tenant_id, n.account_id, coalesce(n.contract_id, 0) as contract_id,
                 sum(n.debit) as debit, sum(n.credit) as credit,
                 min(e.effective_date) as first_date, max(e.effective_date) as last_date, count(*) as line_count
            from new_lines n
            join journal_entry e on e.tenant_id = n.tenant_id and e.id = n.entry_id
           group by n.tenant_id, n.account_id, coalesce(n.contract_id, 0)
        ), up as (
          insert into ledger_item as i
                 (tenant_id, account_id, contract_id, debit, credit, first_date, last_date, line_count, prev_first_date)
          select tenant_id, account_id, contract_id, debit, credit, first_date, last_date, line_count, null
            from agg
           order by 1, 2, 3
          on conflict (tenant_id, account_id, contract_id) do update
             set debit = i.debit + excluded.debit,
                 credit = i.credit + excluded.credit,
                 first_date = least(i.first_date, excluded.first_date),
                 last_date = greatest(i.last_date, excluded.last_date),
                 line_count = i.line_count + excluded.line_count,
                 prev_first_date = i.first_date
          returning i.tenant_id, i.account_id, i.contract_id, i.debit, i.credit, i.first_date, i.line_count,
                    i.prev_first_date
        ), changed as (
          -- Receivable items of a contract: new sums, and the old ones when the item existed.
          select u.tenant_id, u.account_id, u.first_date, u.debit, u.credit, u.prev_first_date,
                 u.line_count > g.line_count as existed,
                 u.debit - g.debit as old_debit, u.credit - g.credit as old_credit
            from up u
            join agg g on g.tenant_id = u.tenant_id and g.account_id = u.account_id and g.contract_id = u.contract_id
            join ledger_account a on a.tenant_id = u.tenant_id and a.id = u.account_id
           where u.contract_id <> 0 and a.purpose = 'DEALER_RECEIVABLE'
        ), contribution as (
          select tenant_id, account_id, prev_first_date as first_date, old_credit - old_debit as amount, -1 as n
            from changed
           where existed and old_debit > old_credit
          union all
          select tenant_id, account_id, first_date, debit - credit, 1
            from changed
           where debit > credit
        ), open_deltas as (
          insert into ledger_open_delta (tenant_id, account_id, first_date, open_amount, open_count)
          select tenant_id, account_id, first_date, sum(amount), sum(n)
            from contribution
           group by tenant_id, account_id, first_date
          having sum(amount) <> 0 or sum(n) <> 0
        )
        insert into ledger_total_delta (tenant_id, account_id, debit, credit)
        select tenant_id, account_id, sum(debit), sum(credit)
          from agg
         group by tenant_id, account_id;

        -- Fold the accounts with many deltas whose total row no other fold holds.
        for t_id, a_id in
          select t.tenant_id, t.account_id
            from ledger_total t
           where (t.tenant_id, t.account_id) in (select distinct n.tenant_id, n.account_id from new_lines n)
             and ((select count(*) from (select 1 from ledger_total_delta x
                                           where x.tenant_id = t.tenant_id and x.account_id = t.account_id
                                           limit fold_at) c) >= fold_at
               or (select count(*) from (select 1 from ledger_open_delta x
                                           where x.tenant_id = t.tenant_id and x.account_id = t.account_id
                                           limit fold_at * 4) c) >= fold_at * 4)
           order by 1, 2
             for update of t skip locked
        loop
          with d as (
            delete from ledger_total_delta x where x.tenant_id = t_id and x.account_id = a_id
            returning x.debit, x.credit
          )
          update ledger_total
             set debit = debit + (select coalesce(sum(d.debit), 0) from d),
                 credit = credit + (select coalesce(sum(d.credit), 0) from d)
           where tenant_id = t_id and account_id = a_id;
          with d as (
            delete from ledger_open_delta x where x.tenant_id = t_id and x.account_id = a_id
            returning x.first_date, x.open_amount, x.open_count
          )
          insert into ledger_open_total as o (tenant_id, account_id, first_date, open_amount, open_count)
          select t_id, a_id, d.first_date, sum(d.open_amount), sum(d.open_count)
            from d
           group by d.first_date
           order by d.first_date
          on conflict (tenant_id, account_id, first_date) do update
             set open_amount = o.open_amount + excluded.open_amount,
                 open_count = o.open_count + excluded.open_count;
        end loop;
        return null;
      end $$;

    -- The service never writes them; only the fold above deletes deltas.
    create trigger ledger_total_no_delete before delete on ledger_total
      for each row execute function ledger_item_no_delete();
    create trigger ledger_open_total_no_delete before delete on ledger_open_total
      for each row execute function ledger_item_no_delete();
    create trigger ledger_total_no_truncate before truncate on ledger_total
      for each statement execute function ledger_item_no_delete();
    create trigger ledger_open_total_no_truncate before truncate on ledger_open_total
      for each statement execute function ledger_item_no_delete();

    alter table ledger_total enable row level security;
    alter table ledger_total force row level security;
    create policy tenant_isolation on ledger_total
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
    alter table ledger_total_delta enable row level security;
    alter table ledger_total_delta force row level security;
    create policy tenant_isolation on ledger_total_delta
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
    alter table ledger_open_total enable row level security;
    alter table ledger_open_total force row level security;
    create policy tenant_isolation on ledger_open_total
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
    alter table ledger_open_delta enable row level security;
    alter table ledger_open_delta force row level security;
    create policy tenant_isolation on ledger_open_delta
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('ledger totals migration is not reversible')
}
