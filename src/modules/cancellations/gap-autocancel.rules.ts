// What ends a GAP contract, as pure rules (docs/cancellations.md "GAP"): the trigger of a due GAP
// contract (a reported ending or its loan's maturity, the earlier first) and the reason a matured
// loan is cancelled with. Nothing here reads a database or a clock.
import type { GapEnding } from '../rating/index.ts'

/** What ends the GAP coverage: a reported ending of the loan or the vehicle, or the loan's maturity. */
export type GapTrigger = GapEnding | 'LOAN_MATURED'

export type GapTriggerChoice =
  | { source: 'CANCEL_REQUEST'; trigger: GapEnding; cancelDate: string }
  | { source: 'LOAN_TERMS'; trigger: 'LOAN_MATURED'; cancelDate: string }

/**
 * The trigger a due GAP contract is cancelled by: the earlier of an open reported ending (the
 * request's cancel date) and the loan's maturity (only when it falls on or before `asOf` and before
 * the expiration: a loan maturing with the GAP term ends nothing early). On the same day the
 * reported ending wins: it carries the reason and documents someone gave. Null: nothing due.
 */
export function gapTrigger(input: {
  asOf: string
  expirationDate: string
  request: { endsGap: GapEnding; cancelDate: string } | null
  maturityDate: string | null
}): GapTriggerChoice | null {
  const { asOf, expirationDate, request, maturityDate } = input
  const reported = request && request.cancelDate <= asOf ? request : null
  const matured = maturityDate !== null && maturityDate <= asOf && maturityDate < expirationDate ? maturityDate : null
  if (reported && (matured === null || reported.cancelDate <= matured))
    return { source: 'CANCEL_REQUEST', trigger: reported.endsGap, cancelDate: reported.cancelDate }
  if (matured !== null) return { source: 'LOAN_TERMS', trigger: 'LOAN_MATURED', cancelDate: matured }
  return null
}

/**
 * The reason a matured loan's GAP contract is cancelled with: the first of the contract's reasons that
 * ends GAP by PAYOFF and that the administrator may give (a loan paid to its end is paid off). Null
 * when its rate-book version has none.
 */
export function maturityReason<R extends { endsGap: GapEnding | null; requestedBy: readonly string[] }>(
  reasons: readonly R[],
): R | null {
  return reasons.find((r) => r.endsGap === 'PAYOFF' && r.requestedBy.includes('ADMIN')) ?? null
}
