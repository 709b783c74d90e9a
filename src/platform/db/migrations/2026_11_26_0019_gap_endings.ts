// Frozen: what ends a GAP contract (docs/cancellations.md "GAP"). A payoff, refinance, sale,
// repossession or total loss is reported as a cancel request whose reason ends GAP (the reason's
// `endsGap`); the request keeps that ending so that `GET /contracts/autocancelgap` finds the GAP
// contracts due for cancellation without reading every rate-book version. A loan's maturity is
// derived from the contract's finance terms and needs no column.
// Requests stored before this migration took their reason's ending from the default reasons
// (ratebook.defaults.ts) by code, on GAP contracts only.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table cancel_request
      add column ends_gap text
        check (ends_gap in ('PAYOFF', 'REFINANCE', 'SALE', 'REPOSSESSION', 'TOTAL_LOSS'));

    -- The open GAP endings a tenant's auto-cancel lists.
    create index cancel_request_gap_open_idx on cancel_request (tenant_id, contract_id)
      where ends_gap is not null and status = 'REQUESTED';
    -- The GAP contracts in force, scanned for matured loans.
    create index contract_gap_in_force_idx on contract (tenant_id, id)
      where product_type = 'GAP' and status in ('FINALIZED', 'ACTIVE');
  `.execute(db)
  // cancel_request and contract are under forced row-level security: one tenant at a time.
  const tenants = await sql<{ id: number }>`select id from tenant order by id`.execute(db)
  for (const { id } of tenants.rows) {
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(db)
    await sql`
      update cancel_request r
         set ends_gap = case r.reason_code
               when 'EARLY_PAYOFF' then 'PAYOFF'
               when 'REFINANCE' then 'REFINANCE'
               when 'GAP_REFINANCE' then 'REFINANCE'
               when 'TRADE_IN' then 'SALE'
               when 'VEHICLE_SOLD' then 'SALE'
               when 'REPOSSESSION' then 'REPOSSESSION'
               when 'TOTAL_LOSS' then 'TOTAL_LOSS'
             end
        from contract c
       where r.tenant_id = ${id} and c.tenant_id = ${id} and c.id = r.contract_id and c.product_type = 'GAP'
    `.execute(db)
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('gap endings migration is not reversible')
}
