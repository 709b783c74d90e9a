// Frozen: the reporting book's month-end sums (docs/reporting.md "Month-end sums", docs/benchmarks.md
// "Reporting"). At a month end the books have closed through, what every contract of the book has come
// to (its cumulative figures as statement.rules.ts reckons them, rounded once per contract) summed by
// cell: the finest grouping the reports ask for (cession, dealer, product, program, plan, term,
// vintage). A statement or a loss-ratio query whose days are such month ends adds up a few thousand
// cells instead of reckoning every contract again.
//
//   reporting_month(tenant, month_end): the sums of one month end, BUILDING while a builder works on
//     them (claimed by inserting the row), READY once built.
//   reporting_month_cell(tenant, month_end, cell): the sums of one cell: the gross book's figures (share
//     100 %, no fees: the loss ratios) and the ceded figures (the contract's share and fees: the
//     statements), the contracts with a movement by the month end, those still holding unearned
//     premium or an outstanding claim at it (gross), and the first of them by id (the group's labels).
//   reporting_month_digest(tenant, month_end, company): the digest of what the company's statement as
//     of the month end reads (statement.repository statementDigest), taken with the sums: a month's
//     prior-period check compares it with the frozen statement's instead of digesting the book again.
//
// A company's book is read by an index-only scan: 0046's index of the ceded contracts by company
// carries, besides the key, the columns a statement reckons and groups by.
//
// The sums are a cache of a function of reporting_contract and reporting_movement, so the database
// drops them when an input they read changes: a movement dated on or before a month end, or a change
// to a contract with a movement dated on or before it, deletes that month end's sums (and the later
// ones) in the statement that writes the change. A closed month takes no postings, so in practice
// this happens when booksClosedThrough is moved back and something is posted there.
import { sql, type Kysely } from 'kysely'

/** Deletes the sums of the month ends on or after the earliest movement of the changed rows. */
const DROP_FOR_MOVEMENTS = `
  delete from reporting_month s
   using (select tenant_id, min(on_date) as on_date from changed_rows group by tenant_id) n
   where s.tenant_id = n.tenant_id and s.month_end >= n.on_date`

/** Deletes the sums of the month ends on or after the earliest movement of the changed contracts. */
const DROP_FOR_CONTRACTS = `
  delete from reporting_month s
   using (select c.tenant_id, min(m.on_date) as on_date
            from changed_rows c
            join reporting_movement m on m.tenant_id = c.tenant_id and m.contract_id = c.contract_id
           group by c.tenant_id) n
   where s.tenant_id = n.tenant_id and s.month_end >= n.on_date`

/**
 * The statement-level triggers of a table calling `fn` with the rows an insert, update or delete
 * changed as `changed_rows` (a transition table serves one event per trigger).
 */
const dropTriggers = (name: string, table: string, fn: string) =>
  (
    [
      ['inserted', 'insert', 'new'],
      ['updated', 'update', 'new'],
      ['deleted', 'delete', 'old'],
    ] as const
  )
    .map(
      ([done, event, rows]) => `create trigger reporting_month_${name}_${done} after ${event} on ${table}
      referencing ${rows} table as changed_rows for each statement execute function ${fn}();`,
    )
    .join('\n')

/** Row-level security of a tenant table, forced. */
const tenantIsolation = (table: string) => `
    alter table ${table} enable row level security;
    alter table ${table} force row level security;
    create policy tenant_isolation on ${table}
      using (tenant_id = app_current_tenant())
      with check (tenant_id = app_current_tenant());`

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    drop index reporting_contract_company_idx;
    create index reporting_contract_company_idx on reporting_contract (tenant_id, ceded_company_id, contract_id)
      include (shape, share_bps, ceding_fee_bps, administrator_fee_bps, reserve_codes, product_id, vintage)
      where ceded_company_id is not null;
    create table reporting_month (
      tenant_id bigint not null references tenant(id),
      month_end date not null,
      status text not null check (status in ('BUILDING', 'READY')),
      cells int not null default 0,
      started_at timestamptz not null default now(),
      built_at timestamptz,
      primary key (tenant_id, month_end)
    );
    create table reporting_month_cell (
      tenant_id bigint not null,
      month_end date not null,
      cell int not null,
      ceded_company_id bigint,
      has_reserve boolean not null,
      dealer_id bigint not null,
      product_id bigint,
      program_id bigint,
      plan_id bigint,
      term_months int not null,
      term_miles int not null,
      vintage text not null,
      contracts int not null,
      open_contracts int not null,
      first_contract_id bigint not null,
      written bigint not null,
      cancelled bigint not null,
      earned bigint not null,
      claims_paid bigint not null,
      claims_incurred bigint not null,
      ceded_written bigint not null,
      ceded_cancelled bigint not null,
      ceded_earned bigint not null,
      ceded_claims_paid bigint not null,
      ceded_claims_incurred bigint not null,
      ceding_fee bigint not null,
      administrator_fee bigint not null,
      primary key (tenant_id, month_end, cell),
      foreign key (tenant_id, month_end) references reporting_month (tenant_id, month_end) on delete cascade
    );
    create table reporting_month_digest (
      tenant_id bigint not null,
      month_end date not null,
      reinsurance_company_id bigint not null,
      digest text not null,
      primary key (tenant_id, month_end, reinsurance_company_id),
      foreign key (tenant_id, month_end) references reporting_month (tenant_id, month_end) on delete cascade
    );
    create index reporting_month_cell_company_idx on reporting_month_cell (tenant_id, month_end, ceded_company_id)
      where ceded_company_id is not null;

    create function reporting_month_drop_moved() returns trigger language plpgsql as $$
      begin
        ${sql.raw(DROP_FOR_MOVEMENTS)};
        return null;
      end $$;
    create function reporting_month_drop_contracts() returns trigger language plpgsql as $$
      begin
        ${sql.raw(DROP_FOR_CONTRACTS)};
        return null;
      end $$;
    ${sql.raw(dropTriggers('movement', 'reporting_movement', 'reporting_month_drop_moved'))}
    ${sql.raw(dropTriggers('contract', 'reporting_contract', 'reporting_month_drop_contracts'))}
    ${sql.raw(['reporting_month', 'reporting_month_cell', 'reporting_month_digest'].map(tenantIsolation).join('\n'))}
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('reporting month sums migration is not reversible')
}
