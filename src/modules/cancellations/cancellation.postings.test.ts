// The cancel entry of decision 0012, on its worked example (money.md's scenario): the table's lines
// to the cent, debits equal to credits, and per administrator line earned to date + earned at cancel
// + refunded share = the line. Then the fee kept by the dealer, claims deducted, and an
// administrator line earned faster than it is refunded (a debit to ADMINISTRATOR_REVENUE).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { LedgerLineInput } from '../finance/index.ts'
import type { CancelMethodTerms, LineEarningsTerms } from '../rating/index.ts'
import { cancelPostingLines, type CancelPostingInput } from './cancellation.postings.ts'
import { salesTaxRefundCents } from './cancellation.rules.ts'
import { quoteRefund, type QuoteDecision, type RefundLine, type RefundQuote } from './index.ts'

const INSURER = 7
const ADMINISTRATOR = 1
const AGENT = 9
const DEALER = 20
const CUSTOMER = 41
const LINES: RefundLine[] = [
  { code: 'RES', group: 'RESERVE', payeeAccountHolderId: INSURER, cents: 64_000, refundable: true },
  { code: 'PRM', group: 'PREMIUM', payeeAccountHolderId: INSURER, cents: 3_500, refundable: true },
  { code: 'ADM', group: 'ADMIN_FEE', payeeAccountHolderId: ADMINISTRATOR, cents: 17_500, refundable: true },
  { code: 'COM', group: 'COMMISSION', payeeAccountHolderId: AGENT, cents: 15_000, refundable: true },
]
const PRO_RATA_DAYS: CancelMethodTerms = {
  id: 1,
  code: 'PRO_RATA_DAYS',
  name: 'Pro rata by days',
  formula: 'PRO_RATA_DAYS',
  timeBasis: 'DAYS',
  monthCounting: null,
  shortRatePercent: null,
  fixedAmount: null,
  milesApply: false,
}
const DECISION: QuoteDecision = {
  method: PRO_RATA_DAYS,
  fee: {
    amount: '50.00',
    percent: null,
    percentOf: null,
    max: null,
    keptBy: 'ADMINISTRATOR',
    capAmount: null,
    capPercentOfPrice: null,
  },
  freeLookDays: 30,
  deductClaims: true,
  forcesFullRefund: false,
  waivesFee: false,
  refundPayee: 'AUTO',
  refundIssuer: 'ADMINISTRATOR',
  rule: { productRule: null, stateRule: null },
  reason: { code: 'CUSTOMER_REQUEST' },
}
const DATES = { effectiveDate: '2025-03-14', expirationDate: '2028-03-14', termMonths: 36 }
const earning = (method: LineEarningsTerms['method']): LineEarningsTerms => ({
  group: 'X',
  method,
  curve: null,
  monthCounting: null,
  refundable: true,
})
const EARNINGS = {
  RES: earning('PRO_RATA_DAYS'),
  PRM: earning('PRO_RATA_DAYS'),
  ADM: earning('PRO_RATA_DAYS'),
  COM: earning('PRO_RATA_DAYS'),
}

function quote(d: Partial<QuoteDecision> = {}, claimsPaidCents = 0): RefundQuote {
  const q = quoteRefund({
    priceCents: 180_000,
    lines: LINES,
    decision: { ...DECISION, ...d },
    claimsPaidCents,
    claimPaid: claimsPaidCents > 0,
    facts: {
      ...DATES,
      saleDate: '2025-03-14',
      cancelDate: '2025-09-30',
      termMiles: 0,
      milesBasis: 'FROM_SALE_ODOMETER',
      saleOdometer: 20_000,
      expirationOdometer: null,
      cancelOdometer: 31_000,
    },
  })
  if (!q.ok) assert.fail(JSON.stringify(q.errors))
  return q
}

function post(q: RefundQuote, over: Partial<CancelPostingInput> = {}): LedgerLineInput[] {
  return cancelPostingLines({
    quote: q,
    contractId: 900,
    administratorId: ADMINISTRATOR,
    dealerId: DEALER,
    refundPayeeId: CUSTOMER,
    riskBearerId: null,
    earnedByCode: new Map([['ADM', 2_714]]),
    earnings: EARNINGS,
    dates: DATES,
    cancelDate: '2025-09-30',
    ...over,
  })
}

/** "holder purpose code side amount" of each line, and the entry's two totals. */
const table = (lines: LedgerLineInput[]) =>
  lines.map((l) => `${l.accountHolderId} ${l.purpose} ${l.disbursementCode ?? '-'} ${l.side} ${String(l.amount)}`)
const totals = (lines: LedgerLineInput[]) => {
  const sum = (side: string) =>
    lines.filter((l) => l.side === side).reduce((n, l) => n + Math.round(Number(String(l.amount)) * 100), 0)
  return [sum('DEBIT'), sum('CREDIT')]
}

describe('the cancel entry of decision 0012', () => {
  it("posts the worked example's table to the cent", () => {
    const q = quote()
    assert.equal(q.grossCents, 147_153)
    assert.equal(q.netCents, 142_153)
    const lines = post(q)
    assert.deepEqual(table(lines), [
      `${INSURER} DISBURSEMENT_PAYABLE RES DEBIT 523.21`,
      `${INSURER} DISBURSEMENT_PAYABLE PRM DEBIT 28.61`,
      `${AGENT} DISBURSEMENT_PAYABLE COM DEBIT 122.63`,
      `${ADMINISTRATOR} UNEARNED_REVENUE ADM DEBIT 147.86`,
      `${ADMINISTRATOR} ADMINISTRATOR_REVENUE ADM CREDIT 4.79`,
      `${DEALER} DEALER_RECEIVABLE - DEBIT 654.01`,
      `${CUSTOMER} REFUND_PAYABLE - CREDIT 1421.53`,
      `${ADMINISTRATOR} ADMINISTRATOR_REVENUE - CREDIT 50`,
    ])
    assert.deepEqual(totals(lines), [147_632, 147_632])
    assert.ok(lines.every((l) => l.contractId === 900))
  })

  it('the fee kept by the dealer is credited to its receivable; claims deducted to the risk bearer', () => {
    const lines = post(quote({ fee: { ...DECISION.fee!, keptBy: 'DEALER' } }, 10_000))
    const t = table(lines)
    assert.ok(t.includes(`${DEALER} DEALER_RECEIVABLE - CREDIT 50`), t.join('\n'))
    // The reserve's payee bears the claims when no risk bearer is given.
    assert.ok(t.includes(`${INSURER} DISBURSEMENT_PAYABLE - CREDIT 100`), t.join('\n'))
    assert.equal(totals(lines)[0], totals(lines)[1])
  })

  it('an administrator line earned past its refund debits ADMINISTRATOR_REVENUE', () => {
    // Earned 60.00 by the runs; remaining 115.00 < refunded 143.07: earned at cancel −28.07.
    const lines = post(quote(), { earnedByCode: new Map([['ADM', 6_000]]) })
    const t = table(lines)
    assert.ok(t.includes(`${ADMINISTRATOR} UNEARNED_REVENUE ADM DEBIT 115`), t.join('\n'))
    assert.ok(t.includes(`${ADMINISTRATOR} ADMINISTRATOR_REVENUE ADM DEBIT 28.07`), t.join('\n'))
    assert.equal(totals(lines)[0], totals(lines)[1])
  })
})

describe('the sales tax refunded by a cancel (docs/sales-tax.md "At cancel")', () => {
  it('is U x the tax the administrator collected, rounded once; the dealer-collected tax is not refunded here', () => {
    const q = quote()
    // 11,250 cents of tax: U·T exact, half up once (the same U as the gross: 147,153 / 180,000).
    const rules = [
      { collectedBy: 'ADMINISTRATOR' as const, taxCents: 11_250 },
      { collectedBy: 'DEALER' as const, taxCents: 1_800 },
    ]
    const refund = salesTaxRefundCents(rules, q.fraction)
    const exact = (11_250 * Number(q.fraction.num)) / Number(q.fraction.den)
    assert.equal(refund, Math.round(exact))
    assert.equal(salesTaxRefundCents([{ collectedBy: 'DEALER', taxCents: 1_800 }], q.fraction), 0)
    assert.equal(salesTaxRefundCents(rules, { num: 1n, den: 1n }), 11_250)
  })

  it('debits SALES_TAX_PAYABLE and adds it to the refund payable; the entry stays balanced', () => {
    const q = quote()
    const without = post(q)
    const lines = post(q, { salesTaxRefundCents: 9_197 })
    assert.ok(table(lines).includes(`${ADMINISTRATOR} SALES_TAX_PAYABLE - DEBIT 91.97`))
    assert.ok(table(lines).includes(`${CUSTOMER} REFUND_PAYABLE - CREDIT 1513.5`))
    assert.ok(table(without).includes(`${CUSTOMER} REFUND_PAYABLE - CREDIT 1421.53`))
    const [debit, credit] = totals(lines)
    assert.equal(debit, credit)
    assert.deepEqual(
      totals(lines),
      totals(without).map((n) => n + 9_197),
    )
  })
})
