// Insurer bordereaux as XLSX (docs/reporting.md "Formats"): the Report sheet, then the premium
// bordereau's lines with a totals row per transaction and the net, or the claims bordereau's paid and
// outstanding claims, each sheet with its totals row. The figures are the JSON's (report.xlsx.ts).
import { ReportWorkbook, type Raw, type XlsxColumn } from './report.xlsx.ts'
import type { ClaimsBordereau, PremiumBordereau } from './bordereau.service.ts'

type Insurer = PremiumBordereau['insurer']

const about = (kind: string, b: { insurer: Insurer; month: string; from: string; to: string; generatedAt: string }) =>
  [
    ['Report', 'text', kind],
    ['Insurer', 'text', b.insurer.name],
    ['Insurer code', 'text', b.insurer.insurerCode],
    ['Insurer id', 'int', b.insurer.id],
    ['Month', 'text', b.month],
    ['From', 'date', b.from],
    ['To', 'date', b.to],
    ['Generated at', 'dateTime', b.generatedAt],
    ['Amounts', 'text', 'US dollars; a refunded (returned) amount is negative.'],
  ] as const

type PremiumLine = PremiumBordereau['lines'][number]

export const PREMIUM_XLSX_COLUMNS: ReadonlyArray<XlsxColumn<PremiumLine>> = [
  { header: 'Transaction', kind: 'text', width: 13, value: (l) => l.transaction },
  { header: 'Posted on', kind: 'date', value: (l) => l.postedOn },
  { header: 'Journal entry', kind: 'int', value: (l) => l.journalEntryId },
  { header: 'Contract', kind: 'text', width: 26, value: (l) => l.contractNumber },
  { header: 'Dealer number', kind: 'text', value: (l) => l.dealer.dealerNumber },
  { header: 'Dealer', kind: 'text', width: 24, value: (l) => l.dealer.name },
  { header: 'Product', kind: 'text', value: (l) => l.product.code },
  { header: 'Program', kind: 'text', value: (l) => l.program.code },
  { header: 'Plan', kind: 'text', value: (l) => l.plan.code },
  { header: 'Term months', kind: 'int', value: (l) => l.term.months },
  { header: 'Term miles', kind: 'int', value: (l) => l.term.miles },
  { header: 'Sale date', kind: 'date', value: (l) => l.saleDate },
  { header: 'Effective date', kind: 'date', value: (l) => l.effectiveDate },
  { header: 'Expiration date', kind: 'date', value: (l) => l.expirationDate },
  { header: 'Cancel number', kind: 'text', value: (l) => l.cancelNumber },
  { header: 'Cancel date', kind: 'date', value: (l) => l.cancelDate },
  { header: 'Premium', kind: 'money', value: (l) => l.premium },
  { header: 'Reserve', kind: 'money', value: (l) => l.reserve },
  { header: 'Other', kind: 'money', value: (l) => l.other },
  { header: 'Total', kind: 'money', value: (l) => l.total },
  { header: 'Treaty', kind: 'int', value: (l) => l.cession?.treatyId ?? null },
  { header: 'Reinsurance company', kind: 'int', value: (l) => l.cession?.reinsuranceCompanyId ?? null },
  { header: 'Ceded share (bps)', kind: 'int', value: (l) => l.cession?.shareBps ?? null },
]

export function premiumXlsx(b: PremiumBordereau): Promise<Uint8Array> {
  const wb = new ReportWorkbook(`Premium bordereau: ${b.insurer.name}, ${b.month}`, about('Premium bordereau', b))
  const width = PREMIUM_XLSX_COLUMNS.length
  // Totals rows: "TOTAL <transaction>" in the first column, the count in the journal entry column.
  const totals = Object.entries(b.totals).map(([name, t]) => {
    const row: Raw[] = Array<Raw>(width).fill(null)
    row[0] = `TOTAL ${name.toUpperCase()}`
    row[2] = t.count
    row[16] = t.premium
    row[17] = t.reserve
    row[18] = t.other
    row[19] = t.total
    return row
  })
  wb.table('Lines', PREMIUM_XLSX_COLUMNS, b.lines, totals, 4)
  return wb.bytes()
}

type Paid = ClaimsBordereau['paid'][number]
type Outstanding = ClaimsBordereau['outstanding'][number]

export const PAID_XLSX_COLUMNS: ReadonlyArray<XlsxColumn<Paid>> = [
  { header: 'Claim', kind: 'text', width: 20, value: (p) => p.claimNumber },
  { header: 'Contract', kind: 'text', width: 26, value: (p) => p.contractNumber },
  { header: 'Dealer number', kind: 'text', value: (p) => p.dealer.dealerNumber },
  { header: 'Product', kind: 'text', value: (p) => p.product.code },
  { header: 'Plan', kind: 'text', value: (p) => p.plan.code },
  { header: 'Loss date', kind: 'date', value: (p) => p.lossDate },
  { header: 'Payment request', kind: 'int', value: (p) => p.paymentRequestId },
  { header: 'Journal entry', kind: 'int', value: (p) => p.journalEntryId },
  { header: 'Posted on', kind: 'date', value: (p) => p.postedOn },
  { header: 'Paid on', kind: 'date', value: (p) => p.paidOn },
  { header: 'Method', kind: 'text', value: (p) => p.method },
  { header: 'Reference', kind: 'text', width: 18, value: (p) => p.reference },
  { header: 'Amount', kind: 'money', value: (p) => p.amount },
]

export const OUTSTANDING_XLSX_COLUMNS: ReadonlyArray<XlsxColumn<Outstanding>> = [
  { header: 'Claim', kind: 'text', width: 20, value: (o) => o.claimNumber },
  { header: 'Contract', kind: 'text', width: 26, value: (o) => o.contractNumber },
  { header: 'Dealer number', kind: 'text', value: (o) => o.dealer.dealerNumber },
  { header: 'Product', kind: 'text', value: (o) => o.product.code },
  { header: 'Plan', kind: 'text', value: (o) => o.plan.code },
  { header: 'Loss date', kind: 'date', value: (o) => o.lossDate },
  { header: 'Basis', kind: 'text', value: (o) => o.basis },
  { header: 'Payment request', kind: 'int', value: (o) => o.paymentRequestId },
  { header: 'Since', kind: 'date', value: (o) => o.since },
  { header: 'Authorized', kind: 'money', value: (o) => o.authorized },
  { header: 'Paid to date', kind: 'money', value: (o) => o.paidToDate },
  { header: 'Released', kind: 'money', value: (o) => o.released },
  { header: 'Outstanding', kind: 'money', value: (o) => o.outstanding },
]

export function claimsXlsx(b: ClaimsBordereau): Promise<Uint8Array> {
  const wb = new ReportWorkbook(`Claims bordereau: ${b.insurer.name}, ${b.month}`, about('Claims bordereau', b))
  const paidTotal: Raw[] = Array<Raw>(PAID_XLSX_COLUMNS.length).fill(null)
  paidTotal[0] = `TOTAL PAID (${b.totals.paid.count})`
  paidTotal[12] = b.totals.paid.amount
  wb.table('Paid', PAID_XLSX_COLUMNS, b.paid, [paidTotal], 2)
  const outTotal: Raw[] = Array<Raw>(OUTSTANDING_XLSX_COLUMNS.length).fill(null)
  outTotal[0] = `TOTAL OUTSTANDING (${b.totals.outstanding.count})`
  outTotal[12] = b.totals.outstanding.amount
  wb.table('Outstanding', OUTSTANDING_XLSX_COLUMNS, b.outstanding, [outTotal], 2)
  return wb.bytes()
}
