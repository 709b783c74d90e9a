// Cash rules (docs/cash.md "Applying cash"): a payer's open items and how received cash is spread
// over them. Pure, in whole cents. Open items are derived from the payer's DEALER_RECEIVABLE journal
// lines only (no second source of truth): applying cash credits the receivable, a returned payment
// reverses that credit, so the items close and reopen with the lines.
import type { FieldError } from '../../platform/http/errors.ts'

/** A payer's receivable, per contract, as one grouped query over its journal lines returns it. */
export type ReceivableByContract = {
  contractId: number
  /** Debit − credit of the contract's DEALER_RECEIVABLE lines, in cents. */
  balanceCents: number
  /** The effective date of the contract's first posting to the receivable (YYYY-MM-DD): its age. */
  firstDate: string
}

export type OpenItem = { contractId: number; openCents: number; firstDate: string }

export type Application = { contractId: number; amountCents: number }

/**
 * The items cash may be applied to: contracts whose receivable balance is above zero, oldest first
 * (then by contract id, for a stable order). A negative balance is a chargeback owed to the dealer
 * (after a cancel): it is not an item, and it does not net against the others.
 */
export function openItems(rows: readonly ReceivableByContract[]): OpenItem[] {
  return rows
    .filter((r) => r.balanceCents > 0)
    .map((r) => ({ contractId: r.contractId, openCents: r.balanceCents, firstDate: r.firstDate }))
    .toSorted((a, b) => (a.firstDate < b.firstDate ? -1 : a.firstDate > b.firstDate ? 1 : a.contractId - b.contractId))
}

export type Allocation =
  { ok: true; applications: Application[]; appliedCents: number } | { ok: false; errors: FieldError[] }

/**
 * What to apply of `availableCents` (the unapplied balance): the chosen items when given (each no more
 * than its open amount, all together no more than the balance), else oldest first until the balance
 * or the items run out. Partial application is allowed; what is left stays unapplied.
 */
export function allocate(
  items: readonly OpenItem[],
  availableCents: number,
  chosen?: ReadonlyArray<{ contractId: number; amountCents: number }>,
): Allocation {
  if (chosen === undefined) {
    const applications: Application[] = []
    let left = availableCents
    for (const item of items) {
      if (left <= 0) break
      const amount = Math.min(item.openCents, left)
      applications.push({ contractId: item.contractId, amountCents: amount })
      left -= amount
    }
    return { ok: true, applications, appliedCents: availableCents - left }
  }
  const open = new Map(items.map((i) => [i.contractId, i.openCents]))
  const errors: FieldError[] = []
  const byContract = new Map<number, number>()
  let total = 0
  chosen.forEach((c, i) => {
    const remaining = open.get(c.contractId)
    if (remaining === undefined) {
      errors.push({
        field: `applications[${i}].contractId`,
        code: 'not_open_item',
        message: `contract ${c.contractId} is not an open item of this payer`,
      })
      return
    }
    if (!(c.amountCents > 0)) {
      errors.push({ field: `applications[${i}].amount`, code: 'too_small', message: 'must be more than 0' })
      return
    }
    if (c.amountCents > remaining) {
      errors.push({
        field: `applications[${i}].amount`,
        code: 'exceeds_open_amount',
        message: `${(c.amountCents / 100).toFixed(2)} is more than the open amount ${(remaining / 100).toFixed(2)} of contract ${c.contractId}`,
      })
      return
    }
    open.set(c.contractId, remaining - c.amountCents)
    byContract.set(c.contractId, (byContract.get(c.contractId) ?? 0) + c.amountCents)
    total += c.amountCents
  })
  if (errors.length === 0 && total > availableCents) {
    errors.push({
      field: 'applications',
      code: 'exceeds_unapplied',
      message: `${(total / 100).toFixed(2)} is more than the unapplied balance ${(availableCents / 100).toFixed(2)}`,
    })
  }
  if (errors.length > 0) return { ok: false, errors }
  const applications = [...byContract].map(([contractId, amountCents]) => ({ contractId, amountCents }))
  return { ok: true, applications, appliedCents: total }
}

/** The unapplied balance of a cash transaction: received − applied (returned cash has none). */
export function unappliedCents(amountCents: number, appliedCents: number): number {
  return amountCents - appliedCents
}
