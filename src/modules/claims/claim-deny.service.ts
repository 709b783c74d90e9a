// Denying the claims of ended contracts (docs/claims.md "Denying the claims of ended contracts";
// issue 14 `POST /contracts/denyClaims`): for each cancelled or expired contract, its claims still
// being decided whose loss the coverage did not reach are denied with the tenant's CONTRACT_NOT_IN_FORCE
// reason; the rules are claim-deny.rules.ts. Every contract is read first with the caller's
// visibility (one it cannot see is a 404 and nothing is done); then each claim is denied in a
// transaction of its own, its row locked and its status judged again there (transition DENY),
// audited `claim.denied` with the event `claim.denied`. The processes issue runs it on a schedule.
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext } from '../../platform/http/context.ts'
import { Decimal, toCents } from '../../platform/money.ts'
import { CLAIM_TRANSITIONS, transition, type ClaimStatus } from './claim.rules.ts'
import * as claims from './claim.repository.ts'
import type { ClaimContractReader, ClaimContractRecord } from './claim.service.ts'
import { contractClaims, deniedReasonByCode, endedContractsWithOpenClaims } from './claim-deny.repository.ts'
import {
  CONTRACT_ENDED_DENIED_REASON,
  coverageEnd,
  denyDecision,
  type CoverageEnd,
  type EndedContract,
} from './claim-deny.rules.ts'

/** The most contracts one request names. */
export const MAX_DENY_CONTRACTS = 1000

export type ClaimDenyServiceDeps = {
  db: Database
  clock: Clock
  contracts: Pick<ClaimContractReader, 'readRow' | 'historyOf' | 'today'>
}

export type DeniedClaimResult = {
  claimId: number
  claimNumber: string
  lossDate: string
  before: ClaimStatus
  after: ClaimStatus
  denied: boolean
  reason: string
}

export type DenyContractResult = {
  contractId: number
  contractNumber: string
  status: string
  /** How the coverage ended and the first day it no longer covers; null: it has not ended. */
  coverageEnded: CoverageEnd | null
  reason: string
  claims: DeniedClaimResult[]
}

const centsOf = (text: string) => toCents(new Decimal(text))

export function createClaimDenyService(deps: ClaimDenyServiceDeps) {
  const { db, clock, contracts } = deps

  /** Denies one claim under its row lock, judged again on the locked row; the result either way. */
  async function denyOne(
    ctx: AuthenticatedContext,
    contract: ClaimContractRecord,
    ended: EndedContract,
    end: CoverageEnd,
    claimId: number,
    reason: { id: number; code: string },
    today: string,
  ): Promise<DeniedClaimResult> {
    const tenantId = ctx.tenantId
    return db.transaction(tenantId, async (tx) => {
      const row = await claims.lockClaim(tx, tenantId, claimId)
      if (!row) throw new Error(`claim ${claimId} of contract ${contract.id} vanished`)
      const decision = denyDecision({ status: row.status, lossDate: row.loss_date }, ended, end)
      const result = (after: ClaimStatus, denied: boolean, why: string): DeniedClaimResult => ({
        claimId: row.id,
        claimNumber: row.claim_number,
        lossDate: row.loss_date,
        before: row.status,
        after,
        denied,
        reason: why,
      })
      if (!decision.deny) return result(row.status, false, decision.reason)
      const step = transition(row.status, 'DENY', {
        openHolds: 0,
        today,
        authorization: null,
        hasAuthorizedLines: false,
        hasDeniedReason: true,
        payableCents: centsOf(row.payable_total),
        paidCents: centsOf(row.paid_total),
      })
      if (!step.ok) return result(row.status, false, step.message)
      const now = clock.now()
      await claims.updateClaim(tx, tenantId, row.id, {
        status: step.to,
        denied_reason_id: reason.id,
        updated_at: now,
        updated_by: actorLabel(ctx),
      })
      await writeAudit(tx, ctx, now, {
        action: 'claim.denied',
        entityType: 'claim',
        entityId: row.id,
        changes: {
          before: { status: row.status, deniedReasonId: row.denied_reason_id },
          after: { status: step.to, deniedReasonId: reason.id },
          source: 'CONTRACT_ENDED',
          contractId: contract.id,
          coverageEnded: end,
        },
      })
      await appendEvent(tx, tenantId, now, {
        type: 'claim.denied',
        payload: {
          claimId: row.id,
          claimNumber: row.claim_number,
          contractId: contract.id,
          contractNumber: contract.contract_number,
          dealerId: row.dealer_id,
          lossDate: row.loss_date,
          fromStatus: row.status,
          deniedReasonId: reason.id,
          deniedReasonCode: reason.code,
          source: 'CONTRACT_ENDED',
        },
      })
      return result(step.to, true, decision.reason)
    })
  }

  return {
    /**
     * The CLAIMS_DENIAL process's items (docs/processes.md): contracts after `afterId` that ended
     * (as of `today`) with a claim still being decided, ascending; each is given to denyClaims.
     */
    async dueContractIds(tenantId: number, today: string, afterId: number, limit: number): Promise<number[]> {
      const deniable = CLAIM_TRANSITIONS.DENY.from
      return db.read(tenantId, (x) => endedContractsWithOpenClaims(x, tenantId, { today, deniable, afterId, limit }))
    },

    /**
     * POST /contracts/denyClaims, and the processes issue's scheduled run: for each contract (at
     * most MAX_DENY_CONTRACTS, repeats once), its claims and what happened to each. A contract the
     * caller cannot see is a 404 before anything is done.
     */
    async denyClaims(ctx: AuthenticatedContext, contractIds: readonly number[]): Promise<DenyContractResult[]> {
      const ids = [...new Set(contractIds)]
      if (ids.length > MAX_DENY_CONTRACTS)
        throw new RangeError(`at most ${MAX_DENY_CONTRACTS} contracts at a time (${ids.length} given)`)
      const tenantId = ctx.tenantId
      const rows: ClaimContractRecord[] = []
      for (const id of ids) rows.push(await contracts.readRow(ctx, id))
      const [today, reason] = await Promise.all([
        contracts.today(tenantId),
        db.read(tenantId, (x) => deniedReasonByCode(x, tenantId, CONTRACT_ENDED_DENIED_REASON)),
      ])
      const results: DenyContractResult[] = []
      for (const contract of rows) {
        const [history, list] = await Promise.all([
          contracts.historyOf(tenantId, contract.id),
          db.read(tenantId, (x) => contractClaims(x, tenantId, contract.id)),
        ])
        const ended: EndedContract = {
          status: contract.status,
          effectiveDate: contract.effective_date,
          expirationDate: contract.expiration_date,
          history,
        }
        const end = coverageEnd(ended, today)
        const base = { contractId: contract.id, contractNumber: contract.contract_number, status: contract.status }
        const left = (why: string) =>
          list.map((c): DeniedClaimResult => ({
            claimId: c.id,
            claimNumber: c.claim_number,
            lossDate: c.loss_date,
            before: c.status,
            after: c.status,
            denied: false,
            reason: why,
          }))
        if (end === null) {
          const why = `the contract is ${contract.status} and within its term (to ${contract.expiration_date}): its claims are left`
          results.push({ ...base, coverageEnded: null, reason: why, claims: left('the contract has not ended') })
          continue
        }
        const how = end.kind === 'CANCELLED' ? `cancelled as of ${end.from}` : `expired (not covered from ${end.from})`
        if (reason === undefined) {
          const why = `the tenant has no denied reason ${CONTRACT_ENDED_DENIED_REASON} (GET /api/claims/deniedReasons): no claim is denied`
          results.push({ ...base, coverageEnded: end, reason: `the contract was ${how}; ${why}`, claims: left(why) })
          continue
        }
        const done: DeniedClaimResult[] = []
        for (const c of list) {
          // Judged on the row read; a claim to deny is judged again under its lock (it may have moved on).
          const first = denyDecision({ status: c.status, lossDate: c.loss_date }, ended, end)
          done.push(
            first.deny
              ? await denyOne(ctx, contract, ended, end, c.id, reason, today)
              : {
                  claimId: c.id,
                  claimNumber: c.claim_number,
                  lossDate: c.loss_date,
                  before: c.status,
                  after: c.status,
                  denied: false,
                  reason: first.reason,
                },
          )
        }
        const denied = done.filter((c) => c.denied).length
        results.push({
          ...base,
          coverageEnded: end,
          reason: `the contract was ${how}: ${denied} of its ${done.length} claim(s) denied (${CONTRACT_ENDED_DENIED_REASON})`,
          claims: done,
        })
      }
      return results
    },
  }
}

export type ClaimDenyService = ReturnType<typeof createClaimDenyService>
