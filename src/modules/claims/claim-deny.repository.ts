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

/**
 * The CLAIMS_DENIAL process's items (docs/processes.md): ids of the contracts after `afterId`,
 * ascending, that have ended (CANCELLED, EXPIRED, or in force past their expiration date before
 * `today`) and still have a claim in one of `deniable` statuses. denyClaims judges each claim.
 */
export async function endedContractsWithOpenClaims(
  db: Executor,
  tenantId: number,
  q: { today: string; deniable: readonly ClaimStatusColumn[]; afterId: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('contract as k')
    .select('k.id')
    .where('k.tenant_id', '=', tenantId)
    .where('k.id', '>', q.afterId)
    .where((eb) =>
      eb.or([
        eb('k.status', 'in', ['CANCELLED', 'EXPIRED']),
        eb.and([eb('k.status', 'in', ['FINALIZED', 'ACTIVE']), eb('k.expiration_date', '<', q.today)]),
      ]),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('claim as c')
          .select('c.id')
          .where('c.tenant_id', '=', tenantId)
          .whereRef('c.contract_id', '=', 'k.id')
          .where('c.status', 'in', [...q.deniable]),
      ),
    )
    .orderBy('k.id')
    .limit(q.limit)
    .execute()
  return rows.map((r) => Number(r.id))
}
