// A statement as CSV (RFC 4180): CRLF line ends, a header row, fields quoted when they hold a
// comma, a quote or a line break (quotes doubled), ISO dates, amounts with 2 decimals. The opening
// and closing balances are rows of their own (kind OPENING_BALANCE, CLOSING_BALANCE) so that the
// file alone reconciles: the opening row's balance plus the lines' debits less credits is the
// closing row's balance. Made a page at a time: the caller feeds rows and takes the bytes.
import { formatCents } from '../../platform/money.ts'

export const CSV_HEADER = [
  'date',
  'kind',
  'source',
  'sourceId',
  'entryId',
  'lineNo',
  'purpose',
  'contractNumber',
  'disbursementCode',
  'memo',
  'debit',
  'credit',
  'balance',
] as const

export type StatementLine = {
  effectiveDate: string
  kind: string
  sourceType: string
  sourceId: number
  entryId: number
  lineNo: number
  purpose: string
  contractNumber: string | null
  disbursementCode: string | null
  memo: string | null
  debitCents: number
  creditCents: number
  /** The running balance after this line. */
  balanceCents: number
}

const NEEDS_QUOTES = /[",\r\n]/

/**
 * An amount written as is (`-` for negatives): digits, a sign and a point need neither quotes nor the
 * formula guard, and a guarded `'-12.50` would be text, not a number.
 */
type Amount = { amount: string }
const amount = (cents: number): Amount => ({ amount: formatCents(cents) })

/** One RFC 4180 field. A leading =, +, - or @ of a text is prefixed with ' so a spreadsheet does not run it as a formula. */
export function csvField(value: string | number | Amount | null): string {
  if (value === null) return ''
  if (typeof value === 'object') return value.amount
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const row = (fields: ReadonlyArray<string | number | Amount | null>) => `${fields.map(csvField).join(',')}\r\n`

export const csvHeaderRow = () => row(CSV_HEADER)

export function csvBalanceRow(kind: 'OPENING_BALANCE' | 'CLOSING_BALANCE', date: string, cents: number): string {
  return row([date, kind, null, null, null, null, null, null, null, null, null, null, amount(cents)])
}

export function csvLineRow(l: StatementLine): string {
  return row([
    l.effectiveDate,
    l.kind,
    l.sourceType,
    l.sourceId,
    l.entryId,
    l.lineNo,
    l.purpose,
    l.contractNumber,
    l.disbursementCode,
    l.memo,
    amount(l.debitCents),
    amount(l.creditCents),
    amount(l.balanceCents),
  ])
}
