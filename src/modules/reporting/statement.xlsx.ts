// Reinsurance statements, their lines, loss ratios and the reconciliation as XLSX (docs/reporting.md
// "Formats"), written as the bordereaux are (report.xlsx.ts). A statement: the Report sheet, the
// Statement sheet (a row per figure, the columns MTD, QTD, YTD and ITD, their dates above), then By
// product and By vintage (a row per product or vintage and column, the statement's totals last).
import { COLUMNS, FIGURES, lossRatio, type Figure } from './statement.rules.ts'
import { ReportWorkbook, sumMoney, type CellKind, type Raw, type XlsxColumn } from './report.xlsx.ts'
import type {
  FiguresView,
  LossRatios,
  ReinsuranceStatement,
  StatementLines,
  Reconciliation,
} from './statement.service.ts'

/** The figures as a statement prints them. */
export const FIGURE_LABELS: Record<Figure, string> = {
  writtenPremium: 'Written premium ceded',
  cancellations: 'Cancellations',
  netWrittenPremium: 'Net written premium',
  earnedPremium: 'Earned premium',
  unearnedPremium: 'Unearned premium reserve',
  claimsPaid: 'Claims paid',
  claimsOutstanding: 'Claims outstanding',
  claimsIncurred: 'Claims incurred',
  cedingFee: 'Ceding fee',
  administratorFee: 'Administrator fee',
  underwritingResult: 'Underwriting result',
}

type Company = ReinsuranceStatement['reinsuranceCompany']
type Header = {
  reinsuranceCompany: Company
  month: string
  from: string
  to: string
  asOf: string
  generatedAt: string
}

const about = (kind: string, s: Header, more: ReadonlyArray<readonly [string, CellKind, Raw]> = []) => [
  ['Report', 'text', kind] as const,
  ['Reinsurance company', 'text', s.reinsuranceCompany.name] as const,
  ['Company code', 'text', s.reinsuranceCompany.companyCode] as const,
  ['Company id', 'int', s.reinsuranceCompany.id] as const,
  ['Month', 'text', s.month] as const,
  ['From', 'date', s.from] as const,
  ['To', 'date', s.to] as const,
  ['As of', 'date', s.asOf] as const,
  ...more,
  ['Generated at', 'dateTime', s.generatedAt] as const,
  ['Amounts', 'text', 'US dollars; loss ratio = claims incurred / earned premium.'] as const,
]

type Row = { key: string; name: string | null; column: (typeof COLUMNS)[number]; f: FiguresView }

function figureColumns(s: ReinsuranceStatement, keyHeader: string, named: boolean): XlsxColumn<Row>[] {
  return [
    { header: keyHeader, kind: 'text', value: (r) => r.key },
    ...(named ? [{ header: 'Name', kind: 'text', width: 24, value: (r: Row) => r.name } as const] : []),
    { header: 'Column', kind: 'text', width: 8, value: (r) => r.column.toUpperCase() },
    { header: 'From', kind: 'date', value: (r) => s.periods[r.column].from },
    { header: 'To', kind: 'date', value: (r) => s.periods[r.column].to },
    ...FIGURES.map((k) => ({ header: FIGURE_LABELS[k], kind: 'money' as const, value: (r: Row) => r.f[k] })),
    { header: 'Loss ratio', kind: 'ratio', value: (r) => r.f.lossRatio },
  ]
}

const totalRows = (s: ReinsuranceStatement, named: boolean): Raw[][] =>
  COLUMNS.map((col) => [
    'TOTAL',
    ...(named ? [null] : []),
    col.toUpperCase(),
    s.periods[col].from,
    s.periods[col].to,
    ...FIGURES.map((k) => s.totals[col][k]),
    s.totals[col].lossRatio,
  ])

export function statementXlsx(s: ReinsuranceStatement): Promise<Uint8Array> {
  const name = s.reinsuranceCompany.name
  const wb = new ReportWorkbook(
    `Reinsurance statement: ${name}, ${s.month}`,
    about('Reinsurance statement', s, [['Contracts', 'int', s.contracts]]),
  )
  wb.grid(
    'Statement',
    ['Figure', 'MTD', 'QTD', 'YTD', 'ITD'],
    [
      { label: 'From', kind: 'date', values: COLUMNS.map((c) => s.periods[c].from ?? 'inception') },
      { label: 'To', kind: 'date', values: COLUMNS.map((c) => s.periods[c].to) },
      ...FIGURES.map((k) => ({
        label: FIGURE_LABELS[k],
        kind: 'money' as const,
        values: COLUMNS.map((c) => s.totals[c][k]),
        bold: k === 'netWrittenPremium' || k === 'claimsIncurred' || k === 'underwritingResult',
      })),
      { label: 'Loss ratio', kind: 'ratio', values: COLUMNS.map((c) => s.totals[c].lossRatio) },
    ],
  )
  const byProduct = s.byProduct.flatMap((p) =>
    COLUMNS.map((column) => ({ key: p.product.code, name: p.product.name, column, f: p[column] })),
  )
  wb.table('By product', figureColumns(s, 'Product', true), byProduct, totalRows(s, true), 3)
  const byVintage = s.byVintage.flatMap((v) =>
    COLUMNS.map((column) => ({ key: v.vintage, name: null, column, f: v[column] })),
  )
  wb.table('By vintage', figureColumns(s, 'Vintage', false), byVintage, totalRows(s, false), 2)
  return wb.bytes()
}

type Line = StatementLines['items'][number]

export const LINES_XLSX_COLUMNS: ReadonlyArray<XlsxColumn<Line>> = [
  { header: 'Contract', kind: 'text', width: 26, value: (i) => i.contractNumber },
  { header: 'Dealer number', kind: 'text', value: (i) => i.dealer.dealerNumber },
  { header: 'Product', kind: 'text', value: (i) => i.product.code },
  { header: 'Program', kind: 'text', value: (i) => i.program.code },
  { header: 'Plan', kind: 'text', value: (i) => i.plan.code },
  { header: 'Term months', kind: 'int', value: (i) => i.term.months },
  { header: 'Term miles', kind: 'int', value: (i) => i.term.miles },
  { header: 'Sale date', kind: 'date', value: (i) => i.saleDate },
  { header: 'Vintage', kind: 'text', value: (i) => i.vintage },
  { header: 'Ceded share (bps)', kind: 'int', value: (i) => i.shareBps },
  { header: 'Amount', kind: 'money', value: (i) => i.amount },
]

/** The lines of the page asked for, then the total of every line of the filter (the statement's cell). */
export function statementLinesXlsx(l: StatementLines): Promise<Uint8Array> {
  const wb = new ReportWorkbook(
    `Statement lines: ${l.reinsuranceCompany.name}, ${l.month}, ${FIGURE_LABELS[l.figure]} ${l.column.toUpperCase()}`,
    about('Reinsurance statement lines', l, [
      ['Figure', 'text', `${l.figure} (${FIGURE_LABELS[l.figure]})`],
      ['Column', 'text', l.column.toUpperCase()],
      ['Column from', 'date', l.period.from ?? 'inception'],
      ['Column to', 'date', l.period.to],
      ['Product', 'text', l.product],
      ['Vintage', 'text', l.vintage],
      ['Lines (all pages)', 'int', l.totalCount],
    ]),
  )
  const total: Raw[] = Array<Raw>(LINES_XLSX_COLUMNS.length).fill(null)
  total[0] = `TOTAL (${l.totalCount} lines)`
  total[LINES_XLSX_COLUMNS.length - 1] = l.total
  wb.table('Lines', LINES_XLSX_COLUMNS, l.items, [total], 1)
  return wb.bytes()
}

type Group = {
  dealer?: { dealerNumber: string; name: string }
  dealerGroup?: { name: string } | null
  product?: { code: string }
  program?: { code: string }
  plan?: { code: string }
  term?: { months: number; miles: number }
  vintage?: string
}
type LossRatioItem = LossRatios['items'][number]
const group = (i: LossRatioItem) => i.group as Group

const LOSS_RATIO_MONEY = [
  ['writtenPremium', 'Written premium'],
  ['cancellations', 'Cancellations'],
  ['netWrittenPremium', 'Net written premium'],
  ['earnedPremium', 'Earned premium'],
  ['claimsPaid', 'Claims paid'],
  ['claimsIncurred', 'Claims incurred'],
] as const

const DIMENSIONS: Record<string, ReadonlyArray<XlsxColumn<LossRatioItem>>> = {
  dealer: [
    { header: 'Dealer number', kind: 'text', value: (i) => group(i).dealer?.dealerNumber },
    { header: 'Dealer', kind: 'text', width: 24, value: (i) => group(i).dealer?.name },
  ],
  dealerGroup: [{ header: 'Dealer group', kind: 'text', width: 24, value: (i) => group(i).dealerGroup?.name }],
  product: [{ header: 'Product', kind: 'text', value: (i) => group(i).product?.code }],
  program: [{ header: 'Program', kind: 'text', value: (i) => group(i).program?.code }],
  plan: [{ header: 'Plan', kind: 'text', value: (i) => group(i).plan?.code }],
  term: [
    { header: 'Term months', kind: 'int', value: (i) => group(i).term?.months },
    { header: 'Term miles', kind: 'int', value: (i) => group(i).term?.miles },
  ],
  vintage: [{ header: 'Vintage', kind: 'text', value: (i) => group(i).vintage }],
}

/** A row per group of the page (the groupBy dimensions first), then the page's totals. */
export function lossRatiosXlsx(r: LossRatios): Promise<Uint8Array> {
  const wb = new ReportWorkbook(`Loss ratios by ${r.groupBy.join(', ')}, ${r.from} to ${r.to}`, [
    ['Report', 'text', 'Loss ratios (gross book: the reserve lines, whoever bears them)'],
    ['Grouped by', 'text', r.groupBy.join(', ')],
    ['From', 'date', r.from],
    ['To', 'date', r.to],
    ['Groups (all pages)', 'int', r.totalCount],
    ['Generated at', 'dateTime', r.generatedAt],
    ['Amounts', 'text', 'US dollars; loss ratio = claims incurred / earned premium.'],
  ])
  const dims = r.groupBy.flatMap((d) => DIMENSIONS[d] ?? [])
  const columns: XlsxColumn<LossRatioItem>[] = [
    ...dims,
    { header: 'Contracts', kind: 'int', value: (i) => i.contracts },
    ...LOSS_RATIO_MONEY.map(([k, header]) => ({ header, kind: 'money' as const, value: (i: LossRatioItem) => i[k] })),
    { header: 'Loss ratio', kind: 'ratio', value: (i) => i.lossRatio },
  ]
  const total: Raw[] = Array<Raw>(columns.length).fill(null)
  total[0] = r.items.length === r.totalCount ? 'TOTAL' : 'TOTAL (this page)'
  total[dims.length] = r.items.reduce((n, i) => n + i.contracts, 0)
  LOSS_RATIO_MONEY.forEach(([k], j) => (total[dims.length + 1 + j] = sumMoney(r.items, (i) => i[k])))
  const cents = (n: Raw) => Math.round(Number(n) * 100)
  total[columns.length - 1] = lossRatio(cents(total[dims.length + 6]), cents(total[dims.length + 4]))
  wb.table('Loss ratios', columns, r.items, [total], dims.length)
  return wb.bytes()
}

type Check = Reconciliation['checks'][number]

export const CHECK_XLSX_COLUMNS: ReadonlyArray<XlsxColumn<Check>> = [
  { header: 'Report', kind: 'text', width: 24, value: (c) => c.report },
  { header: 'Risk bearer id', kind: 'int', value: (c) => c.riskBearer.id },
  { header: 'Risk bearer code', kind: 'text', value: (c) => c.riskBearer.code },
  { header: 'Risk bearer', kind: 'text', width: 24, value: (c) => c.riskBearer.name },
  { header: 'Figure', kind: 'text', width: 22, value: (c) => c.figure },
  { header: 'Source', kind: 'text', width: 48, value: (c) => c.source },
  { header: 'Reported', kind: 'money', value: (c) => c.reported },
  { header: 'Ledger', kind: 'money', value: (c) => c.ledger },
  { header: 'Difference', kind: 'money', value: (c) => c.difference },
]

/** Every check, then the differences (the checks that do not tie), each with its count. */
export function reconciliationXlsx(r: Reconciliation): Promise<Uint8Array> {
  const wb = new ReportWorkbook(`Reconciliation of the reports, ${r.month}`, [
    ['Report', 'text', 'Reconciliation of the reports to the ledger'],
    ['Month', 'text', r.month],
    ['From', 'date', r.from],
    ['To', 'date', r.to],
    ['As of', 'date', r.asOf],
    ['Checks', 'int', r.checks.length],
    ['Differences', 'int', r.differences.length],
    ['Generated at', 'dateTime', r.generatedAt],
  ])
  const total = (checks: readonly Check[], label: string): Raw[] => [
    `${label} (${checks.length})`,
    ...Array<Raw>(7).fill(null),
    sumMoney(checks, (c) => c.difference),
  ]
  wb.table('Checks', CHECK_XLSX_COLUMNS, r.checks, [total(r.checks, 'TOTAL')], 1)
  wb.table('Differences', CHECK_XLSX_COLUMNS, r.differences, [total(r.differences, 'TOTAL')], 1)
  return wb.bytes()
}
