// Insurer bordereaux as pure functions of what the journal posted (docs/reporting.md): one premium
// line per entry and contract, its amounts split by the group of each disbursement code (premium,
// reserve, other), and the totals by transaction; the claims bordereau's outstanding amounts. Every
// figure is whole cents summed from journal lines, so the totals equal the journal's sums exactly.

/** What a premium entry is to the insurer. */
export const TRANSACTIONS = ['WRITTEN', 'CANCELLED', 'REINSTATED', 'ADJUSTED'] as const
export type Transaction = (typeof TRANSACTIONS)[number]

export function transactionOf(kind: string): Transaction {
  switch (kind) {
    case 'CONTRACT_FINALIZED':
      return 'WRITTEN'
    case 'CONTRACT_CANCELLED':
      return 'CANCELLED'
    case 'CANCEL_REVERSED':
      return 'REINSTATED'
    default:
      // CONTRACT_REFINALIZED, CONTRACT_RERATED: a difference posted after the sale.
      return 'ADJUSTED'
  }
}

/** Which column a disbursement group's money falls in. */
export function columnOf(group: string | undefined): 'premium' | 'reserve' | 'other' {
  if (group === 'RESERVE') return 'reserve'
  if (group === 'PREMIUM' || group === 'CLIP_PREMIUM') return 'premium'
  return 'other'
}

export type Amounts = { premiumCents: number; reserveCents: number; otherCents: number; totalCents: number }
export const zeroAmounts = (): Amounts => ({ premiumCents: 0, reserveCents: 0, otherCents: 0, totalCents: 0 })

export type PremiumInputLine = {
  entryId: number
  kind: string
  contractId: number
  disbursementCode: string | null
  /** credit − debit on the insurer's payable. */
  cents: number
}

export type PremiumGroupedLine<L extends PremiumInputLine> = {
  first: L
  transaction: Transaction
  amounts: Amounts
}

/**
 * The journal lines grouped per entry and contract, in the order given (the journal's), each group's
 * cents split by column with `groupOf` (the contract's code → group).
 */
export function groupPremiumLines<L extends PremiumInputLine>(
  lines: readonly L[],
  groupOf: (contractId: number, code: string | null) => string | undefined,
): Array<PremiumGroupedLine<L>> {
  const out: Array<PremiumGroupedLine<L>> = []
  const byKey = new Map<string, PremiumGroupedLine<L>>()
  for (const l of lines) {
    const key = `${l.entryId}/${l.contractId}`
    let g = byKey.get(key)
    if (g === undefined) {
      g = { first: l, transaction: transactionOf(l.kind), amounts: zeroAmounts() }
      byKey.set(key, g)
      out.push(g)
    }
    const column = columnOf(groupOf(l.contractId, l.disbursementCode))
    g.amounts[`${column}Cents`] += l.cents
    g.amounts.totalCents += l.cents
  }
  return out
}

export type PremiumTotals = Record<Transaction | 'net', Amounts & { count: number }>

/** Totals by transaction and net (every line), each the plain sum of its lines. */
export function premiumTotals(lines: ReadonlyArray<{ transaction: Transaction; amounts: Amounts }>): PremiumTotals {
  const blank = () => ({ count: 0, ...zeroAmounts() })
  const totals: PremiumTotals = {
    WRITTEN: blank(),
    CANCELLED: blank(),
    REINSTATED: blank(),
    ADJUSTED: blank(),
    net: blank(),
  }
  for (const l of lines) {
    for (const t of [totals[l.transaction], totals.net]) {
      t.count += 1
      t.premiumCents += l.amounts.premiumCents
      t.reserveCents += l.amounts.reserveCents
      t.otherCents += l.amounts.otherCents
      t.totalCents += l.amounts.totalCents
    }
  }
  return totals
}

/** What is left of a committed payment request at a date: committed − paid − released, never below 0. */
export function outstandingCents(r: { amountCents: number; paidCents: number; releasedCents: number }): number {
  return Math.max(0, r.amountCents - r.paidCents - r.releasedCents)
}
