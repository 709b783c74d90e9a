// Pure rules of payout runs (docs/payouts.md): which payables a run pays and what it nets.
// Amounts are integer cents; a payable's balance is credit-normal (credit - debit), so a positive
// balance is owed to the payee and a negative one is owed back by it (e.g. a commission charged back).

export const PAYOUT_PURPOSES = ['REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE', 'CLAIM_PAYABLE'] as const
export type PayoutPurpose = (typeof PAYOUT_PURPOSES)[number]
/**
 * Purposes whose items are the account's balance per contract. CLAIM_PAYABLE items are the claims
 * module's open payment requests instead (a port gives them: only those that may be paid now).
 */
export const BALANCE_PURPOSES: readonly PayoutPurpose[] = ['REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE']

/**
 * One open payable of a payee: an account purpose and contract (0: lines without a contract); for
 * CLAIM_PAYABLE, one payment request (`paymentRequestId`), so a contract may have several items.
 */
export type PayableItem = {
  payeeId: number
  purpose: PayoutPurpose
  contractId: number
  balanceCents: number
  paymentRequestId?: number | undefined
}

export type PayeePayout = {
  payeeId: number
  /** Items paid: positive balances, debited in full. */
  paid: PayableItem[]
  /** Items netted: negative balances, credited in full (the payee's debt settled out of what it is owed). */
  netted: PayableItem[]
  /** What leaves CASH: Σ paid - Σ |netted|, always > 0. */
  netCents: number
}

export type PayoutPlan = {
  payouts: PayeePayout[]
  /** Payees whose items net to 0 or less: nothing is paid or netted; their items stay open. */
  skipped: { payeeId: number; netCents: number }[]
}

/**
 * Groups the open items by payee and nets each payee's debts against what it is owed. Invariant of
 * every payout: Σ paid = Σ |netted| + net, so the entry balances. A payee that nets to <= 0 is skipped
 * whole (a run never pays a debt or half-settles one); zero balances are not items.
 */
export function planPayouts(items: readonly PayableItem[]): PayoutPlan {
  const byPayee = new Map<number, PayableItem[]>()
  for (const it of items) {
    if (it.balanceCents === 0) continue
    const list = byPayee.get(it.payeeId) ?? []
    list.push(it)
    byPayee.set(it.payeeId, list)
  }
  const plan: PayoutPlan = { payouts: [], skipped: [] }
  for (const payeeId of [...byPayee.keys()].toSorted((a, b) => a - b)) {
    const list = byPayee.get(payeeId)!
    const order = (a: PayableItem, b: PayableItem) =>
      a.purpose.localeCompare(b.purpose) ||
      a.contractId - b.contractId ||
      (a.paymentRequestId ?? 0) - (b.paymentRequestId ?? 0)
    const paid = list.filter((i) => i.balanceCents > 0).toSorted(order)
    const netted = list.filter((i) => i.balanceCents < 0).toSorted(order)
    const netCents = list.reduce((s, i) => s + i.balanceCents, 0)
    if (netCents <= 0) plan.skipped.push({ payeeId, netCents })
    else plan.payouts.push({ payeeId, paid, netted, netCents })
  }
  return plan
}

/** The purposes asked for, checked: a subset of PAYOUT_PURPOSES, default all; null when bad. */
export function purposesOf(asked: readonly string[] | undefined): PayoutPurpose[] | null {
  if (asked === undefined) return [...PAYOUT_PURPOSES]
  if (asked.length === 0) return null
  const known = new Set<string>(PAYOUT_PURPOSES)
  if (!asked.every((p) => known.has(p))) return null
  return PAYOUT_PURPOSES.filter((p) => asked.includes(p))
}

/**
 * What of a payable a run as of a date may settle: its balance as of that date, but never more than
 * its balance now. Later postings that settled it (an earlier run, posted on a later accounting date
 * than this run's asOf) then count, so a second run pays 0. Opposite signs (or either 0) settle
 * nothing: the item is not the same debt or claim any more.
 */
export function dueCents(asOfCents: number, nowCents: number): number {
  if (asOfCents > 0 && nowCents > 0) return Math.min(asOfCents, nowCents)
  if (asOfCents < 0 && nowCents < 0) return Math.max(asOfCents, nowCents)
  return 0
}

/**
 * The claim payment requests a run may pay, checked against the journal: per payee and contract, the
 * requests (oldest first) are due while their sum stays within what the CLAIM_PAYABLE account owes
 * (`dueCents` of its balance as of the run's date and now). The claims module keeps the account equal
 * to the open requests' rest, so this drops nothing unless the two disagree; when they do, the run
 * never pays more than the books owe.
 */
export function coveredRequests<
  T extends { payeeId: number; contractId: number; requestId: number; amountCents: number },
>(requests: readonly T[], ledgerDueCents: (payeeId: number, contractId: number) => number): T[] {
  const left = new Map<string, number>()
  const out: T[] = []
  for (const r of requests.toSorted((a, b) => a.requestId - b.requestId)) {
    if (r.amountCents <= 0) continue
    const key = `${r.payeeId}:${r.contractId}`
    const room = left.get(key) ?? ledgerDueCents(r.payeeId, r.contractId)
    if (r.amountCents > room) {
      left.set(key, room)
      continue
    }
    left.set(key, room - r.amountCents)
    out.push(r)
  }
  return out
}
