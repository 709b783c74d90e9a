// The PPM queries (docs/claims.md "PPM services"): how many uses of each scheduled service a
// contract's claims redeem, read from the jobs jsonb array of `claim`, and the lock that serializes
// redemptions of one contract. The executor and the tenant first; every statement names tenant_id.
import { sql, type Transaction } from 'kysely'
import { advisoryLock } from '../../platform/db/advisory-lock.ts'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { isStorableId } from '../../platform/ids.ts'

/** Claims whose jobs redeem nothing: a voided claim was entered in error, a denied one was refused. */
export const NOT_REDEEMING_STATUSES = ['VOIDED', 'DENIED'] as const

/**
 * Uses of each service (code upper case) by the contract's claims that are not VOIDED or DENIED,
 * counting their jobs that name a `ppmServiceCode` and are not DENIED; `exceptClaimId`: leave that
 * claim out (the one being edited, whose jobs are checked as new).
 */
export async function ppmUsedCounts(
  db: Executor,
  tenantId: number,
  contractId: number,
  exceptClaimId: number | null = null,
): Promise<Map<string, number>> {
  if (!isStorableId(contractId)) return new Map()
  const { rows } = await sql<{ code: string; n: string | number }>`
    select upper(j.value->>'ppmServiceCode') as code, count(*) as n
    from claim c cross join lateral jsonb_array_elements(c.jobs) as j(value)
    where c.tenant_id = ${tenantId} and c.contract_id = ${contractId}
      and c.status not in (${sql.join(NOT_REDEEMING_STATUSES.map((s) => sql.lit(s)))})
      and ${exceptClaimId === null ? sql`true` : sql`c.id <> ${exceptClaimId}`}
      and coalesce(j.value->>'ppmServiceCode', '') <> ''
      and coalesce(j.value->>'status', 'PENDING') <> 'DENIED'
    group by 1`.execute(db)
  return new Map(rows.map((r) => [r.code, Number(r.n)]))
}

/**
 * Serializes redemptions of one contract's services until `tx` ends: take it before counting the
 * uses and writing the claim, so two claims cannot both redeem the last use left.
 */
export async function lockPpmRedemptions(tx: Transaction<DB>, tenantId: number, contractId: number): Promise<void> {
  await advisoryLock(tx, 'claim_ppm_redemption', [tenantId, contractId])
}
