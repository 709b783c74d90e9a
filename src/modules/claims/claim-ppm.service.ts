// PPM services of a contract and of a claim (docs/claims.md "PPM services"): the contract's schedule
// (its coverage snapshot's `ppmServices`) with what its claims have used and what is left, and the
// check the claims service runs when a claim's jobs redeem services (claim-ppm.rules.ts). Contracts
// are read through the claims module's contracts port, with the caller's visibility (404 otherwise).
import type { Transaction } from 'kysely'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { claimErrors } from './claim.errors.ts'
import * as claims from './claim.repository.ts'
import { visibleTo, type ClaimContractReader, type ClaimContractRecord } from './claim.service.ts'
import { lockPpmRedemptions, ppmUsedCounts } from './claim-ppm.repository.ts'
import {
  ppmRedemptionProblems,
  ppmServiceOf,
  ppmServiceStatuses,
  type PpmContractDates,
  type PpmJob,
  type PpmService,
  type PpmServiceStatus,
} from './claim-ppm.rules.ts'

export type ClaimPpmServiceDeps = { db: Database; contracts: Pick<ClaimContractReader, 'readRow'> }

/** A service as a claim's route shows it: the contract's, and the jobs of this claim that redeem it. */
export type ClaimPpmServiceStatus = PpmServiceStatus & { claimJobLineNumbers: number[] }

type ContractForPpm = Pick<ClaimContractRecord, 'effective_date' | 'sale_odometer' | 'coverage'>

/** The contract's schedule; none on a contract sold without one (every product but PPM). */
const scheduleOf = (contract: Pick<ClaimContractRecord, 'coverage'>): readonly PpmService[] =>
  contract.coverage.ppmServices ?? []
const datesOf = (contract: ContractForPpm): PpmContractDates => ({
  effectiveDate: contract.effective_date,
  saleOdometer: contract.sale_odometer,
})

export function createClaimPpmService(deps: ClaimPpmServiceDeps) {
  const { db, contracts } = deps

  return {
    /**
     * GET /contracts/{id}/ppmservices: each scheduled service with its uses, what is left and when the
     * next use falls due; [] for a contract without a schedule. 404 when the caller cannot see it.
     */
    async contractServices(ctx: AuthenticatedContext, contractId: number): Promise<PpmServiceStatus[]> {
      const contract = await contracts.readRow(ctx, contractId)
      const schedule = scheduleOf(contract)
      if (schedule.length === 0) return []
      const used = await db.read(ctx.tenantId, (x) => ppmUsedCounts(x, ctx.tenantId, contract.id))
      return ppmServiceStatuses(schedule, used, datesOf(contract))
    },

    /**
     * GET /claims/{id}/ppmservices: the services of the claim's contract as above, each with the line
     * numbers of the claim's jobs that redeem it (not DENIED). 404 claim_not_found when the caller
     * cannot see the claim (or its contract).
     */
    async claimServices(ctx: AuthenticatedContext, claimId: number): Promise<ClaimPpmServiceStatus[]> {
      const claim = await db.read(ctx.tenantId, (x) => claims.findClaim(x, ctx.tenantId, claimId))
      if (!claim || !visibleTo(ctx, claim)) throw claimErrors.create('claim_not_found', `claim ${claimId} not found`)
      const contract = await contracts.readRow(ctx, claim.contract_id).catch(() => {
        throw claimErrors.create('claim_not_found', `claim ${claimId} not found`)
      })
      const schedule = scheduleOf(contract)
      if (schedule.length === 0) return []
      const used = await db.read(ctx.tenantId, (x) => ppmUsedCounts(x, ctx.tenantId, contract.id))
      const lines = new Map<string, number[]>()
      for (const job of claim.jobs) {
        const service = job.ppmServiceCode ? ppmServiceOf(schedule, job.ppmServiceCode) : undefined
        if (!service || job.status === 'DENIED') continue
        const key = service.code.toUpperCase()
        lines.set(key, [...(lines.get(key) ?? []), job.lineNumber])
      }
      return ppmServiceStatuses(schedule, used, datesOf(contract)).map((s) => ({
        ...s,
        claimJobLineNumbers: lines.get(s.serviceCode.toUpperCase()) ?? [],
      }))
    },

    /**
     * What the claims service calls at intake and on an edit, inside its transaction after
     * `lockRedemptions`: every problem of the jobs that name a `ppmServiceCode` (unknown_service,
     * allowance_used, not_due), the uses counted from the contract's other claims (`claimId`: the
     * claim being edited, left out; null at intake).
     */
    async redemptionProblems(
      x: Executor,
      tenantId: number,
      contract: Pick<ClaimContractRecord, 'id' | 'effective_date' | 'sale_odometer' | 'coverage'>,
      claim: { claimId: number | null; jobs: readonly PpmJob[]; lossDate: string; odometer: number | null },
    ): Promise<FieldError[]> {
      if (!claim.jobs.some((j) => j.ppmServiceCode !== null && j.ppmServiceCode !== undefined)) return []
      const used = await ppmUsedCounts(x, tenantId, contract.id, claim.claimId)
      return ppmRedemptionProblems(
        scheduleOf(contract),
        used,
        claim.jobs,
        claim.lossDate,
        claim.odometer,
        datesOf(contract),
      )
    },

    /** The code as the contract's schedule spells it (what a job stores); null when the schedule has no such service. */
    serviceCodeOf(contract: Pick<ClaimContractRecord, 'coverage'>, code: string): string | null {
      return ppmServiceOf(scheduleOf(contract), code)?.code ?? null
    },

    /** Serializes redemptions of the contract's services until `tx` ends (take it before redemptionProblems). */
    lockRedemptions(tx: Transaction<DB>, tenantId: number, contractId: number): Promise<void> {
      return lockPpmRedemptions(tx, tenantId, contractId)
    },
  }
}

export type ClaimPpmService = ReturnType<typeof createClaimPpmService>
