// Frozen: 0045's trigger function without its quadratic join (docs/benchmarks.md "Ledger views").
// The upsert of the ledger items joined its returned rows back to the statement's aggregate to learn
// each item's sums before the statement; both are CTEs the planner cannot size, and a posting of
// 5,000 contracts' lines in one statement spent 22 s in that nested loop. The item now keeps, like
// prev_first_date, the sums of the row version the upsert locked (prev_debit, prev_credit: null when
// the statement created the item), so the upsert returns the old sums itself. Same results.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table ledger_item add column prev_debit numeric(16, 2), add column prev_credit numeric(16, 2);

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
                 (tenant_id, account_id, contract_id, debit, credit, first_date, last_date, line_count,
                  prev_first_date, prev_debit, prev_credit)
          select tenant_id, account_id, contract_id, debit, credit, first_date, last_date, line_count, null, null, null
            from agg
           order by 1, 2, 3
          on conflict (tenant_id, account_id, contract_id) do update
             set debit = i.debit + excluded.debit,
                 credit = i.credit + excluded.credit,
                 first_date = least(i.first_date, excluded.first_date),
                 last_date = greatest(i.last_date, excluded.last_date),
                 line_count = i.line_count + excluded.line_count,
                 prev_first_date = i.first_date,
                 prev_debit = i.debit,
                 prev_credit = i.credit
          returning i.tenant_id, i.account_id, i.contract_id, i.debit, i.credit, i.first_date,
                    i.prev_first_date, i.prev_debit, i.prev_credit
        ), changed as (
          -- Receivable items of a contract: new sums, and the old ones when the item existed (the
          -- upsert returns them: no join of the upsert's rows back to agg, which the planner, blind
          -- to both CTEs' sizes, ran as a nested loop: quadratic in the lines of one statement).
          select u.tenant_id, u.account_id, u.first_date, u.debit, u.credit, u.prev_first_date,
                 u.prev_debit is not null as existed,
                 u.prev_debit as old_debit, u.prev_credit as old_credit
            from up u
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
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('ledger item sums migration is not reversible')
}
