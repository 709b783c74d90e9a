// The queries of denying the claims of ended contracts (docs/claims.md "Denying the claims of ended
// contracts"): a contract's claims and the tenant's denied reason by code. The executor and the
// tenant first; every statement names tenant_id.
import type { Executor } from '../../platform/db/database.ts'
import type { ClaimStatusColumn } from '../../platform/db/schema.claims.ts'

export type ContractClaim = { id: number; claim_number: string; status: ClaimStatusColumn; loss_date: string }

/** Every claim of the contract, oldest first. */
export async function contractClaims(db: Executor, tenantId: number, contractId: number): Promise<ContractClaim[]> {
  const rows = await db
    .selectFrom('claim')
    .select(['id', 'claim_number', 'status', 'loss_date'])
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ ...r, id: Number(r.id) }))
}

/** The tenant's DENIED_REASON entry of `code` (active or not); undefined when it has none. */
export async function deniedReasonByCode(
  db: Executor,
  tenantId: number,
  code: string,
): Promise<{ id: number; code: string; name: string } | undefined> {
  const row = await db
    .selectFrom('claim_lookup')
    .select(['id', 'code', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'DENIED_REASON')
    .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()))
    .executeTakeFirst()
  return row === undefined ? undefined : { ...row, id: Number(row.id) }
}
