// Denying the claims of ended contracts, as pure rules (issue 14 "denyClaims"; docs/claims.md "Denying
// the claims of ended contracts"). Nothing here reads a database or a clock.
//
// - A contract has ended when it is CANCELLED (as of its cancel's effective date, the status history's
//   last change to CANCELLED) or EXPIRED, or still ACTIVE/FINALIZED past its expiration date (the
//   expiry not recorded yet). Any other contract's claims are left alone.
// - A claim's loss is covered when the contract was in force on the loss date: contracts' `inForceOn`,
//   the very test intake applied. So a loss before the cancel date stays payable and one on or after
//   it is not (a contract cancelled as of the loss date was not in force that day); an expired
//   contract covers losses up to and including its expiration date.
// - Only claims still being decided are denied: OPEN, PENDING_INSPECTION, AUTHORIZED (the state
//   machine's DENY). From PENDING_PAYMENT on the claim expense is posted and the invoice matched to the
//   authorization: such a claim is left, and the reply says to withdraw the payment request first.
//   PAID, DENIED, CLOSED and VOIDED claims are settled and left as they are.
import { addDays } from '../../platform/calendar.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import { inForceOn, type StatusHistoryPoint } from '../contracts/index.ts'
import { CLAIM_TRANSITIONS, type ClaimStatus } from './claim.rules.ts'

/** The denied reason (a DENIED_REASON lookup code of the tenant's) given to the claims denied here. */
export const CONTRACT_ENDED_DENIED_REASON = 'CONTRACT_NOT_IN_FORCE'

export type EndedContract = {
  status: ContractStatus
  effectiveDate: string
  expirationDate: string
  /** Its status changes in the order recorded (the servicing port's history). */
  history: readonly StatusHistoryPoint[]
}

/** How the coverage ended and the first day it no longer covers. */
export type CoverageEnd = { kind: 'CANCELLED' | 'EXPIRED'; from: string }

/** How the contract's coverage ended, or null when it has not (or was never in force: PENDING, VOIDED). */
export function coverageEnd(contract: EndedContract, today: string): CoverageEnd | null {
  const last = (status: ContractStatus) => contract.history.findLast((p) => p.toStatus === status)?.effectiveDate
  const afterExpiry = addDays(contract.expirationDate, 1)
  if (contract.status === 'CANCELLED') return { kind: 'CANCELLED', from: last('CANCELLED') ?? today }
  if (contract.status === 'EXPIRED') {
    const recorded = last('EXPIRED')
    return { kind: 'EXPIRED', from: recorded !== undefined && recorded < afterExpiry ? recorded : afterExpiry }
  }
  if ((contract.status === 'ACTIVE' || contract.status === 'FINALIZED') && contract.expirationDate < today)
    return { kind: 'EXPIRED', from: afterExpiry }
  return null
}

const DENIABLE: readonly ClaimStatus[] = CLAIM_TRANSITIONS.DENY.from
const PAYMENT_REQUESTED: readonly ClaimStatus[] = ['PENDING_PAYMENT', 'PARTIALLY_PAID']

export type DenyDecision = { deny: boolean; reason: string }

/** Whether the claim is denied because its contract's coverage ended before its loss, and why (or why not). */
export function denyDecision(
  claim: { status: ClaimStatus; lossDate: string },
  contract: EndedContract,
  end: CoverageEnd,
): DenyDecision {
  const ended = end.kind === 'CANCELLED' ? `cancelled as of ${end.from}` : `expired (not covered from ${end.from})`
  const covered = inForceOn(contract.history, claim.lossDate, contract)
  if (!DENIABLE.includes(claim.status) && !PAYMENT_REQUESTED.includes(claim.status))
    return { deny: false, reason: `the claim is ${claim.status} already: it is settled and left as it is` }
  if (covered)
    return {
      deny: false,
      reason: `the loss on ${claim.lossDate} is before the contract was ${ended}: it was in force then and the claim stays payable`,
    }
  if (PAYMENT_REQUESTED.includes(claim.status))
    return {
      deny: false,
      reason: `the loss on ${claim.lossDate} is not covered (the contract was ${ended}), but the claim is ${claim.status}: its payment was requested and the claim expense posted; withdraw the payment request (or close the claim) to deny it`,
    }
  return {
    deny: true,
    reason: `the loss on ${claim.lossDate} is not covered: the contract was ${ended}`,
  }
}
