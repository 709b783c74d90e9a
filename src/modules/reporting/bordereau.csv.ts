// Bordereaux as CSV (RFC 4180), as the finance statements write it: CRLF line ends, a header row,
// fields quoted when they hold a comma, a quote or a line break (quotes doubled), a leading = + - @
// prefixed with ' so a spreadsheet does not run it, ISO dates, amounts with 2 decimals. A record-type
// column tells the lines from the totals, so the file alone carries every figure of the JSON.
import { formatCents } from '../../platform/money.ts'
import type { ClaimsBordereau, PremiumBordereau } from './bordereau.service.ts'

const NEEDS_QUOTES = /[",\r\n]/

/** An amount written as is: digits, a sign and a point need neither quotes nor the formula guard. */
type Amount = { amount: string }

export function csvField(value: string | number | Amount | null): string {
  if (value === null) return ''
  if (typeof value === 'object') return value.amount
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const row = (fields: ReadonlyArray<string | number | Amount | null>) => `${fields.map(csvField).join(',')}\r\n`
const money = (n: number): Amount => ({ amount: formatCents(Math.round(n * 100)) })

export const PREMIUM_CSV_HEADER = [
  'recordType',
  'transaction',
  'count',
  'postedOn',
  'journalEntryId',
  'contractNumber',
  'dealerNumber',
  'dealerName',
  'productCode',
  'programCode',
  'planCode',
  'termMonths',
  'termMiles',
  'saleDate',
  'effectiveDate',
  'expirationDate',
  'cancelNumber',
  'cancelDate',
  'premium',
  'reserve',
  'other',
  'total',
  'treatyId',
  'reinsuranceCompanyId',
  'cededShareBps',
] as const

export function premiumCsv(b: PremiumBordereau): string {
  let out = row(PREMIUM_CSV_HEADER)
  for (const l of b.lines) {
    out += row([
      'LINE',
      l.transaction,
      null,
      l.postedOn,
      l.journalEntryId,
      l.contractNumber,
      l.dealer.dealerNumber,
      l.dealer.name,
      l.product.code,
      l.program.code,
      l.plan.code,
      l.term.months,
      l.term.miles,
      l.saleDate,
      l.effectiveDate,
      l.expirationDate,
      l.cancelNumber,
      l.cancelDate,
      money(l.premium),
      money(l.reserve),
      money(l.other),
      money(l.total),
      l.cession?.treatyId ?? null,
      l.cession?.reinsuranceCompanyId ?? null,
      l.cession?.shareBps ?? null,
    ])
  }
  for (const [name, t] of Object.entries(b.totals)) {
    out += row([
      'TOTAL',
      name.toUpperCase(),
      t.count,
      ...Array<null>(15).fill(null),
      money(t.premium),
      money(t.reserve),
      money(t.other),
      money(t.total),
      null,
      null,
      null,
    ])
  }
  return out
}

export const CLAIMS_CSV_HEADER = [
  'recordType',
  'count',
  'claimNumber',
  'contractNumber',
  'dealerNumber',
  'productCode',
  'planCode',
  'lossDate',
  'basis',
  'paymentRequestId',
  'journalEntryId',
  'date',
  'paidOn',
  'method',
  'reference',
  'amount',
  'paidToDate',
  'released',
  'outstanding',
] as const

export function claimsCsv(b: ClaimsBordereau): string {
  let out = row(CLAIMS_CSV_HEADER)
  for (const p of b.paid) {
    out += row([
      'PAID',
      null,
      p.claimNumber,
      p.contractNumber,
      p.dealer.dealerNumber,
      p.product.code,
      p.plan.code,
      p.lossDate,
      null,
      p.paymentRequestId,
      p.journalEntryId,
      p.postedOn,
      p.paidOn,
      p.method,
      p.reference,
      money(p.amount),
      null,
      null,
      null,
    ])
  }
  for (const o of b.outstanding) {
    out += row([
      'OUTSTANDING',
      null,
      o.claimNumber,
      o.contractNumber,
      o.dealer.dealerNumber,
      o.product.code,
      o.plan.code,
      o.lossDate,
      o.basis,
      o.paymentRequestId,
      null,
      o.since,
      null,
      null,
      null,
      money(o.authorized),
      money(o.paidToDate),
      money(o.released),
      money(o.outstanding),
    ])
  }
  const blank = Array<null>(13).fill(null)
  out += row(['TOTAL_PAID', b.totals.paid.count, ...blank, money(b.totals.paid.amount), null, null, null])
  out += row([
    'TOTAL_OUTSTANDING',
    b.totals.outstanding.count,
    ...blank,
    null,
    null,
    null,
    money(b.totals.outstanding.amount),
  ])
  return out
}
