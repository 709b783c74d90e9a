// Reinsurance statements, their lines and loss ratios as CSV (RFC 4180), written as the bordereaux
// are (bordereau.csv.ts): CRLF, a header row, quoted fields where needed, amounts with 2 decimals, a
// record-type column, so the file alone carries every figure of the JSON.
import { formatCents } from '../../platform/money.ts'
import { csvField } from './bordereau.csv.ts'
import { FIGURES } from './statement.rules.ts'
import type {
  FiguresView,
  LossRatios,
  Reconciliation,
  ReinsuranceStatement,
  StatementLines,
} from './statement.service.ts'

type Amount = { amount: string }
const row = (fields: ReadonlyArray<string | number | Amount | null>) => `${fields.map(csvField).join(',')}\r\n`
const money = (n: number): Amount => ({ amount: formatCents(Math.round(n * 100)) })

export const STATEMENT_CSV_HEADER = ['recordType', 'key', 'column', 'from', 'to', ...FIGURES, 'lossRatio'] as const

export function statementCsv(s: ReinsuranceStatement): string {
  let out = row(STATEMENT_CSV_HEADER)
  const cells = (recordType: string, key: string | null, c: Record<'mtd' | 'qtd' | 'ytd' | 'itd', FiguresView>) => {
    for (const col of ['mtd', 'qtd', 'ytd', 'itd'] as const) {
      const f = c[col]
      out += row([
        recordType,
        key,
        col.toUpperCase(),
        s.periods[col].from,
        s.periods[col].to,
        ...FIGURES.map((k) => money(f[k])),
        f.lossRatio,
      ])
    }
  }
  cells('TOTAL', null, s.totals)
  for (const p of s.byProduct) cells('PRODUCT', p.product.code, p)
  for (const v of s.byVintage) cells('VINTAGE', v.vintage, v)
  return out
}

export const LINES_CSV_HEADER = [
  'recordType',
  'figure',
  'column',
  'contractNumber',
  'dealerNumber',
  'productCode',
  'programCode',
  'planCode',
  'termMonths',
  'termMiles',
  'saleDate',
  'vintage',
  'shareBps',
  'amount',
] as const

/** The lines of the page asked for, and the total of every line of the filter. */
export function statementLinesCsv(l: StatementLines): string {
  let out = row(LINES_CSV_HEADER)
  for (const i of l.items)
    out += row([
      'LINE',
      l.figure,
      l.column.toUpperCase(),
      i.contractNumber,
      i.dealer.dealerNumber,
      i.product.code,
      i.program.code,
      i.plan.code,
      i.term.months,
      i.term.miles,
      i.saleDate,
      i.vintage,
      i.shareBps,
      money(i.amount),
    ])
  out += row(['TOTAL', l.figure, l.column.toUpperCase(), ...Array<null>(10).fill(null), money(l.total)])
  return out
}

export const LOSS_RATIO_CSV_HEADER = [
  'dealerNumber',
  'dealerName',
  'dealerGroupName',
  'productCode',
  'programCode',
  'planCode',
  'termMonths',
  'termMiles',
  'vintage',
  'contracts',
  'writtenPremium',
  'cancellations',
  'netWrittenPremium',
  'earnedPremium',
  'claimsPaid',
  'claimsIncurred',
  'lossRatio',
] as const

/** One record per group of the page; the dimensions not grouped by are empty. */
export function lossRatiosCsv(r: LossRatios): string {
  let out = row(LOSS_RATIO_CSV_HEADER)
  for (const i of r.items) {
    const g = i.group as {
      dealer?: { dealerNumber: string; name: string }
      dealerGroup?: { name: string } | null
      product?: { code: string }
      program?: { code: string }
      plan?: { code: string }
      term?: { months: number; miles: number }
      vintage?: string
    }
    out += row([
      g.dealer?.dealerNumber ?? null,
      g.dealer?.name ?? null,
      g.dealerGroup?.name ?? null,
      g.product?.code ?? null,
      g.program?.code ?? null,
      g.plan?.code ?? null,
      g.term?.months ?? null,
      g.term?.miles ?? null,
      g.vintage ?? null,
      i.contracts,
      money(i.writtenPremium),
      money(i.cancellations),
      money(i.netWrittenPremium),
      money(i.earnedPremium),
      money(i.claimsPaid),
      money(i.claimsIncurred),
      i.lossRatio,
    ])
  }
  return out
}

export const RECONCILIATION_CSV_HEADER = [
  'recordType',
  'report',
  'riskBearerId',
  'riskBearerCode',
  'riskBearerName',
  'figure',
  'source',
  'reported',
  'ledger',
  'difference',
] as const

/** One CHECK record per check (the differences are the checks whose difference is not 0). */
export function reconciliationCsv(r: Reconciliation): string {
  let out = row(RECONCILIATION_CSV_HEADER)
  for (const c of r.checks)
    out += row([
      'CHECK',
      c.report,
      c.riskBearer.id,
      c.riskBearer.code,
      c.riskBearer.name,
      c.figure,
      c.source,
      money(c.reported),
      money(c.ledger),
      money(c.difference),
    ])
  return out
}
