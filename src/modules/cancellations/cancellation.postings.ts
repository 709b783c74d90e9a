// The entry a processed cancel posts (CONTRACT_CANCELLED), exactly per decision 0012's cancel table,
// as a pure function of the quote, the parties and what earnings runs recognized so far. A line of
// a negative amount goes on the other side (the earned-at-cancel difference of a line earned faster
// than it is refunded; a negative markup share); a zero amount gives no line.
import { centsToDecimal } from '../../platform/money.ts'
import { earningsAtCancel, type EarningsDates, type LedgerLineInput } from '../finance/index.ts'
import type { LineEarningsTerms } from '../rating/index.ts'
import type { RefundQuote } from './cancellation.rules.ts'

export type CancelPostingInput = {
  quote: Pick<RefundQuote, 'lines' | 'markupRefundCents' | 'netCents' | 'fee' | 'claimsDeductedCents'>
  contractId: number
  /** The tenant's administrator company: its lines are UNEARNED_REVENUE, not a payable. */
  administratorId: number
  dealerId: number
  /** The lien holder while the lien is unreleased, else the customer (or the dealer when the reason says so). */
  refundPayeeId: number
  /** Who bears the claims deducted; null: the payee of the contract's RESERVE line. */
  riskBearerId: number | null
  /** Cents per code the earnings runs recognized (ledger.earnedByCode). */
  earnedByCode: ReadonlyMap<string, number>
  /** The contract's earnings terms per code (terms.earnings). */
  earnings: Readonly<Record<string, LineEarningsTerms>>
  dates: EarningsDates
  cancelDate: string
  /** The sales tax refunded (U × the tax the administrator holds, rounded once); 0 or absent: none. */
  salesTaxRefundCents?: number
}

export function cancelPostingLines(input: CancelPostingInput): LedgerLineInput[] {
  const { quote: q, contractId, administratorId: adminId } = input
  const out: LedgerLineInput[] = []
  const push = (line: Omit<LedgerLineInput, 'amount' | 'side'>, side: 'DEBIT' | 'CREDIT', cents: number) => {
    if (cents === 0) return
    const flipped = cents < 0 ? (side === 'DEBIT' ? 'CREDIT' : 'DEBIT') : side
    out.push({ ...line, side: flipped, amount: centsToDecimal(Math.abs(cents)), contractId })
  }
  // Each other payee returns its share; the administrator's own lines are gathered per code.
  const adminByCode = new Map<string, { amount: number; refunded: number }>()
  for (const l of q.lines) {
    if (l.payeeAccountHolderId === adminId) {
      const a = adminByCode.get(l.code) ?? { amount: 0, refunded: 0 }
      a.amount += l.cents
      a.refunded += l.refundCents
      adminByCode.set(l.code, a)
    } else {
      push(
        { accountHolderId: l.payeeAccountHolderId, purpose: 'DISBURSEMENT_PAYABLE', disbursementCode: l.code },
        'DEBIT',
        l.refundCents,
      )
    }
  }
  // The unearned balance cleared (A − earned to date) and the earned-at-cancel difference: per code,
  // earned to date + earned at cancel + refunded share = A.
  for (const [code, a] of adminByCode) {
    const terms = input.earnings[code]
    if (terms === undefined) throw new Error(`contract ${contractId}: no earnings terms for line ${code}`)
    const e = earningsAtCancel(
      a.amount,
      terms,
      input.dates,
      input.cancelDate,
      a.refunded,
      Math.max(0, input.earnedByCode.get(code) ?? 0),
    )
    push({ accountHolderId: adminId, purpose: 'UNEARNED_REVENUE', disbursementCode: code }, 'DEBIT', e.remainingCents)
    push(
      { accountHolderId: adminId, purpose: 'ADMINISTRATOR_REVENUE', disbursementCode: code },
      'CREDIT',
      e.earnedAtCancelCents,
    )
  }
  push({ accountHolderId: input.dealerId, purpose: 'DEALER_RECEIVABLE' }, 'DEBIT', q.markupRefundCents)
  // The refunded sales tax leaves the administrator's SALES_TAX_PAYABLE and joins the payee's refund.
  const taxRefund = input.salesTaxRefundCents ?? 0
  push({ accountHolderId: adminId, purpose: 'SALES_TAX_PAYABLE', memo: 'sales tax refunded' }, 'DEBIT', taxRefund)
  push({ accountHolderId: input.refundPayeeId, purpose: 'REFUND_PAYABLE' }, 'CREDIT', q.netCents + taxRefund)
  if (q.fee.cents > 0)
    push(
      q.fee.keptBy === 'DEALER'
        ? { accountHolderId: input.dealerId, purpose: 'DEALER_RECEIVABLE', memo: 'cancel fee kept by the dealer' }
        : { accountHolderId: adminId, purpose: 'ADMINISTRATOR_REVENUE', memo: 'cancel fee' },
      'CREDIT',
      q.fee.cents,
    )
  if (q.claimsDeductedCents > 0) {
    const reserve = q.lines.find((l) => l.group === 'RESERVE')
    push(
      {
        accountHolderId: input.riskBearerId ?? reserve?.payeeAccountHolderId ?? adminId,
        purpose: 'DISBURSEMENT_PAYABLE',
        memo: 'claims deducted',
      },
      'CREDIT',
      q.claimsDeductedCents,
    )
  }
  return out
}
