// Frozen: the reporting book, what the reinsurance statements and the loss ratios sum in SQL
// (docs/reporting.md "How the figures are computed", docs/benchmarks.md "Reporting"). Two projections
// the database keeps in the statement that writes their sources, never written by the service:
//
//   reporting_contract(tenant, contract): one row per sold contract (status FINALIZED, ACTIVE,
//     EXPIRED or CANCELLED) with what the reports group and compute by: its cession (company, share,
//     fees), dealer, product, program, plan, term, dates, vintage (quarter of sale), its RESERVE
//     lines by code with their earnings terms (`reserve_lines`, `reserve_codes`) and `shape`, the
//     digest of what its earned fraction depends on (dates, term months, reserve lines), so that the
//     fraction is reckoned once per shape and day, not once per contract. Kept by statement-level
//     triggers on contract insert and update (an update re-derives only the contracts entering or
//     leaving the sold statuses or whose projected columns changed; a contract leaving the sold
//     statuses loses its row).
//   reporting_movement(tenant, contract, day, code): the contract's journal movements summed per
//     accounting date and disbursement code, in cents: `written` (credit − debit of the premium entry
//     kinds other than cancels on DISBURSEMENT_PAYABLE / UNEARNED_REVENUE), `cancelled` (debit − credit
//     of CONTRACT_CANCELLED / CANCEL_REVERSED there), `cancel_events` (+1 per cancel entry, −1 per
//     reversal), `claims_incurred` (debit − credit of CLAIM_EXPENSE, code ''), `claims_paid` (the claim
//     payments' amounts on their entries' dates, code ''). Kept by statement-level triggers on
//     journal_line and claim_payment inserts (both append-only). Which codes are the reserve is read
//     at report time from reporting_contract, so a movement posted before the contract's pricing names
//     the code is still counted.
//
//   Σ reporting_movement of a contract up to a day = what statement.repository's movements read of
//   the journal up to that day (the cumulative figures of statement.rules.ts).
import { sql, type Kysely } from 'kysely'

const SOLD = `('FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED')`

/** The reporting_contract rows of the contract rows of `source` (a table or transition table). */
const contractRows = (source: string) => `
  select n.tenant_id, n.id,
         (n.terms -> 'cession' ->> 'reinsuranceCompanyId')::bigint,
         coalesce((n.terms -> 'cession' ->> 'shareBps')::int, 10000),
         coalesce((n.terms -> 'cession' ->> 'cedingFeeBps')::int, 0),
         coalesce((n.terms -> 'cession' ->> 'administratorFeeBps')::int, 0),
         n.contract_number, n.dealer_id,
         n.deal_data -> 'dealer' ->> 'dealerNumber', n.deal_data -> 'dealer' ->> 'name',
         (n.coverage -> 'product' ->> 'id')::bigint, n.coverage -> 'product' ->> 'code', n.coverage -> 'product' ->> 'name',
         (n.coverage -> 'program' ->> 'id')::bigint, n.coverage -> 'program' ->> 'code', n.coverage -> 'program' ->> 'name',
         (n.coverage -> 'plan' ->> 'id')::bigint, n.coverage -> 'plan' ->> 'code', n.coverage -> 'plan' ->> 'name',
         (n.coverage -> 'term' ->> 'months')::int, coalesce((n.coverage -> 'term' ->> 'miles')::int, 0),
         n.sale_date, n.effective_date, n.expiration_date,
         extract(year from n.sale_date)::int || 'Q' || extract(quarter from n.sale_date)::int,
         r.lines, r.codes, n.pricing -> 'lines' @> '[{"group":"RESERVE"}]'::jsonb,
         md5(n.effective_date::text || '/' || n.expiration_date::text || '/' || (n.coverage -> 'term' ->> 'months') || '/' || r.lines::text)
    from ${source} n
    cross join lateral (
      select coalesce(jsonb_agg(jsonb_build_object('code', x.code, 'cents', x.cents, 'earnings', n.terms -> 'earnings' -> x.code)
                                order by x.code), '[]'::jsonb) as lines,
             coalesce(array_agg(x.code order by x.code), '{}'::text[]) as codes
        from (select l ->> 'code' as code, sum((l ->> 'cents')::bigint) as cents
                from jsonb_array_elements(coalesce(n.pricing -> 'lines', '[]'::jsonb)) l
               where l ->> 'group' = 'RESERVE'
               group by l ->> 'code') x
    ) r
   where n.status in ${SOLD}`

const COLUMNS = `(tenant_id, contract_id, ceded_company_id, share_bps, ceding_fee_bps, administrator_fee_bps,
  contract_number, dealer_id, dealer_number, dealer_name, product_id, product_code, product_name,
  program_id, program_code, program_name, plan_id, plan_code, plan_name, term_months, term_miles,
  sale_date, effective_date, expiration_date, vintage, reserve_lines, reserve_codes, has_reserve, shape)`

/** The reporting_movement rows of the journal lines of `source` (journal_line or a transition table). */
const lineMovements = (source: string) => `
  select n.tenant_id, n.contract_id, e.effective_date,
         case when a.purpose = 'CLAIM_EXPENSE' then '' else n.disbursement_code end,
         coalesce(sum((n.credit - n.debit) * 100) filter (where a.purpose <> 'CLAIM_EXPENSE'
                   and e.kind not in ('CONTRACT_CANCELLED', 'CANCEL_REVERSED')), 0)::bigint,
         coalesce(sum((n.debit - n.credit) * 100) filter (where a.purpose <> 'CLAIM_EXPENSE'
                   and e.kind in ('CONTRACT_CANCELLED', 'CANCEL_REVERSED')), 0)::bigint,
         (count(distinct e.id) filter (where a.purpose <> 'CLAIM_EXPENSE' and e.kind = 'CONTRACT_CANCELLED')
           - count(distinct e.id) filter (where a.purpose <> 'CLAIM_EXPENSE' and e.kind = 'CANCEL_REVERSED'))::int,
         0::bigint,
         coalesce(sum((n.debit - n.credit) * 100) filter (where a.purpose = 'CLAIM_EXPENSE'), 0)::bigint
    from ${source} n
    join journal_entry e on e.tenant_id = n.tenant_id and e.id = n.entry_id
    join ledger_account a on a.tenant_id = n.tenant_id and a.id = n.account_id
   where n.contract_id is not null
     and (a.purpose = 'CLAIM_EXPENSE'
          or (a.purpose in ('DISBURSEMENT_PAYABLE', 'UNEARNED_REVENUE') and n.disbursement_code is not null
              and e.kind in ('CONTRACT_FINALIZED', 'CONTRACT_REFINALIZED', 'CONTRACT_RERATED', 'CONTRACT_CANCELLED', 'CANCEL_REVERSED')))
   group by 1, 2, 3, 4`

/** The reporting_movement rows of the claim payments of `source` (claim_payment or a transition table). */
const paymentMovements = (source: string) => `
  select p.tenant_id, r.contract_id, e.effective_date, '', 0::bigint, 0::bigint, 0, sum(p.amount * 100)::bigint, 0::bigint
    from ${source} p
    join claim_payment_request r on r.tenant_id = p.tenant_id and r.id = p.payment_request_id
    join journal_entry e on e.tenant_id = p.tenant_id and e.id = p.journal_entry_id
   where r.contract_id is not null
   group by 1, 2, 3`

const MOVEMENT_COLUMNS = `(tenant_id, contract_id, on_date, code, written, cancelled, cancel_events, claims_paid, claims_incurred)`
const ADD_MOVEMENT = `
  on conflict (tenant_id, contract_id, on_date, code) do update
     set written = m.written + excluded.written,
         cancelled = m.cancelled + excluded.cancelled,
         cancel_events = m.cancel_events + excluded.cancel_events,
         claims_paid = m.claims_paid + excluded.claims_paid,
         claims_incurred = m.claims_incurred + excluded.claims_incurred`

/** A contract's row re-derived: every column, written only when one changed. */
const REFRESH_CONTRACT = `
        on conflict (tenant_id, contract_id) do update
           set ceded_company_id = excluded.ceded_company_id, share_bps = excluded.share_bps,
               ceding_fee_bps = excluded.ceding_fee_bps, administrator_fee_bps = excluded.administrator_fee_bps,
               contract_number = excluded.contract_number, dealer_id = excluded.dealer_id,
               dealer_number = excluded.dealer_number, dealer_name = excluded.dealer_name,
               product_id = excluded.product_id, product_code = excluded.product_code, product_name = excluded.product_name,
               program_id = excluded.program_id, program_code = excluded.program_code, program_name = excluded.program_name,
               plan_id = excluded.plan_id, plan_code = excluded.plan_code, plan_name = excluded.plan_name,
               term_months = excluded.term_months, term_miles = excluded.term_miles, sale_date = excluded.sale_date,
               effective_date = excluded.effective_date, expiration_date = excluded.expiration_date,
               vintage = excluded.vintage, reserve_lines = excluded.reserve_lines, reserve_codes = excluded.reserve_codes,
               has_reserve = excluded.has_reserve, shape = excluded.shape
         where (c.*) is distinct from (excluded.*)`

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table reporting_contract (
      tenant_id bigint not null references tenant(id),
      contract_id bigint not null,
      ceded_company_id bigint,
      share_bps int not null,
      ceding_fee_bps int not null,
      administrator_fee_bps int not null,
      contract_number text not null,
      dealer_id bigint not null,
      dealer_number text,
      dealer_name text,
      product_id bigint,
      product_code text,
      product_name text,
      program_id bigint,
      program_code text,
      program_name text,
      plan_id bigint,
      plan_code text,
      plan_name text,
      term_months int not null,
      term_miles int not null,
      sale_date date not null,
      effective_date date not null,
      expiration_date date not null,
      vintage text not null,
      reserve_lines jsonb not null,
      reserve_codes text[] not null,
      has_reserve boolean not null,
      shape text not null,
      primary key (tenant_id, contract_id),
      foreign key (tenant_id, contract_id) references contract (tenant_id, id)
    );
    create index reporting_contract_company_idx on reporting_contract (tenant_id, ceded_company_id, contract_id)
      where ceded_company_id is not null;
    create table reporting_movement (
      tenant_id bigint not null references tenant(id),
      contract_id bigint not null,
      on_date date not null,
      code text not null,
      written bigint not null,
      cancelled bigint not null,
      cancel_events int not null,
      claims_paid bigint not null,
      claims_incurred bigint not null,
      primary key (tenant_id, contract_id, on_date, code)
        include (written, cancelled, cancel_events, claims_paid, claims_incurred)
    );

    -- round(x / d), half up (toward +∞ on a tie), d > 0, exact: ⌊(2x + d) / 2d⌋ by integer division
    -- of numerics (money.md "Arithmetic"; statement.rules.ts multiplyCentsByRatio).
    create function reporting_round(x numeric, d numeric) returns numeric
      language sql immutable strict parallel safe
      as $$ select div(2 * x + d, 2 * d) - case when mod(2 * x + d, 2 * d) < 0 then 1 else 0 end $$;

    create function reporting_contract_sync() returns trigger language plpgsql as $$
      begin
        insert into reporting_contract as c ${sql.raw(COLUMNS)} ${sql.raw(contractRows('new_rows'))}
         order by 1, 2
        ${sql.raw(REFRESH_CONTRACT)};
        delete from reporting_contract c
         using new_rows n
         where c.tenant_id = n.tenant_id and c.contract_id = n.id and n.status not in ${sql.raw(SOLD)};
        return null;
      end $$;
    create trigger reporting_contract_inserted after insert on contract
      referencing new table as new_rows for each statement execute function reporting_contract_sync();

    -- An update re-derives only the rows whose projection can change: a contract entering or leaving
    -- the sold statuses, or a sold one whose number, dealer, dates or snapshots changed (a status
    -- change within the sold ones, a lock, a version bump: nothing to do, and cheap to see).
    create function reporting_contract_sync_changed() returns trigger language plpgsql as $$
      begin
        insert into reporting_contract as c ${sql.raw(COLUMNS)} ${sql.raw(
          contractRows(`(select n.* from new_rows n join old_rows o on o.tenant_id = n.tenant_id and o.id = n.id
              where (n.status in ${SOLD}) <> (o.status in ${SOLD})
                 or (n.status in ${SOLD}
                     and ((n.contract_number, n.dealer_id, n.sale_date, n.effective_date, n.expiration_date)
                            is distinct from (o.contract_number, o.dealer_id, o.sale_date, o.effective_date, o.expiration_date)
                          or n.terms is distinct from o.terms or n.pricing is distinct from o.pricing
                          or n.coverage is distinct from o.coverage or n.deal_data is distinct from o.deal_data)))`),
        )}
         order by 1, 2
        ${sql.raw(REFRESH_CONTRACT)};
        delete from reporting_contract c
         using new_rows n, old_rows o
         where c.tenant_id = n.tenant_id and c.contract_id = n.id and o.tenant_id = n.tenant_id and o.id = n.id
           and n.status not in ${sql.raw(SOLD)} and o.status in ${sql.raw(SOLD)};
        return null;
      end $$;
    create trigger reporting_contract_updated after update on contract
      referencing old table as old_rows new table as new_rows
      for each statement execute function reporting_contract_sync_changed();

    create function reporting_movement_of_lines() returns trigger language plpgsql as $$
      begin
        insert into reporting_movement as m ${sql.raw(MOVEMENT_COLUMNS)}
        ${sql.raw(lineMovements('new_lines'))}
         order by 1, 2, 3, 4
        ${sql.raw(ADD_MOVEMENT)};
        return null;
      end $$;
    create trigger reporting_movement_lines after insert on journal_line
      referencing new table as new_lines for each statement execute function reporting_movement_of_lines();

    create function reporting_movement_of_payments() returns trigger language plpgsql as $$
      begin
        insert into reporting_movement as m ${sql.raw(MOVEMENT_COLUMNS)}
        ${sql.raw(paymentMovements('new_payments'))}
         order by 1, 2, 3
        ${sql.raw(ADD_MOVEMENT)};
        return null;
      end $$;
    create trigger reporting_movement_payments after insert on claim_payment
      referencing new table as new_payments for each statement execute function reporting_movement_of_payments();

    alter table reporting_contract enable row level security;
    alter table reporting_contract force row level security;
    create policy tenant_isolation on reporting_contract
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
    alter table reporting_movement enable row level security;
    alter table reporting_movement force row level security;
    create policy tenant_isolation on reporting_movement
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());
  `.execute(db)

  // The rows of the contracts, lines and payments there are, tenant by tenant: row-level security is
  // forced and the app role migrates, so each tenant's rows are read and written with it bound (as
  // migration 0015 does).
  const tenants = await sql<{ id: number }>`select id from tenant order by id`.execute(db)
  for (const { id } of tenants.rows) {
    const tenant = Number(id)
    await sql`select set_config('app.tenant_id', ${String(tenant)}, true)`.execute(db)
    await backfill(db, tenant)
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
}

export async function backfill(db: Kysely<any>, tenantId: number): Promise<void> {
  const of = (table: string) => `(select * from ${table} where tenant_id = ${tenantId})`
  await sql`
    insert into reporting_contract ${sql.raw(COLUMNS)} ${sql.raw(contractRows(of('contract')))};
    insert into reporting_movement ${sql.raw(MOVEMENT_COLUMNS)}
      select tenant_id, contract_id, on_date, code, sum(written), sum(cancelled), sum(cancel_events),
             sum(claims_paid), sum(claims_incurred)
        from (${sql.raw(lineMovements(of('journal_line')))}
              union all ${sql.raw(paymentMovements(of('claim_payment')))})
             as s(tenant_id, contract_id, on_date, code, written, cancelled, cancel_events, claims_paid, claims_incurred)
       group by 1, 2, 3, 4
       order by 1, 2, 3, 4;
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('reporting book migration is not reversible')
}
