// Frozen: the reinsurance statements' ways in (docs/reporting.md, docs/benchmarks.md "Reporting").
// A statement reads the contracts ceded to one reinsurance company (terms.cession.reinsuranceCompanyId)
// a thousand at a time in id order, then their claim payments through their payment requests by
// contract.
//
// The company a contract is ceded to is a stored generated column: an index on the JSON expression
// itself is never used, because row-level security is forced on contract and the jsonb operators are
// not leakproof, so the planner must apply the tenant policy before any such condition and falls back
// to reading every contract of the tenant (EXPLAIN on 50,000 contracts: a seq scan of 380 ms for one
// page of 1,000, against 1 ms through an index on a plain column; int8 equality is leakproof). The
// column follows terms, never written by the service; bulk copies leave generated columns out.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table contract add column ceded_company_id bigint
      generated always as ((terms -> 'cession' ->> 'reinsuranceCompanyId')::bigint) stored;
    create index contract_ceded_company_idx on contract (tenant_id, ceded_company_id, id)
      where ceded_company_id is not null;
    create index claim_payment_request_contract_idx on claim_payment_request (tenant_id, contract_id, id);
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('reporting indexes migration is not reversible')
}
