// A reinsurance statement as a PDF (docs/reporting.md "Formats"): pdf-lib with the standard Helvetica
// fonts, as the contract document and the account statements (src/modules/contracts/contract.pdf.ts,
// src/modules/finance/statement.pdf.ts). Landscape US Letter: the administrator's letterhead, the
// company and the period, the statement's four columns (MTD, QTD, YTD, ITD), then by product and by
// vintage (a block of four rows each: a column per figure), the footnotes (how earned premium is
// computed, what the loss ratio is), and "page n of N" on every page. The standard fonts encode
// WinAnsi only: every string passes through winAnsi first.
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib'
import { groupThousands, latin1PdfText, PDF_CREATOR, textWidth } from '../../platform/pdf-text.ts'
import { COLUMNS, FIGURES, type Column, type Figure } from './statement.rules.ts'
import type { FiguresView, ReinsuranceStatement } from './statement.service.ts'
import { FIGURE_LABELS } from './statement.xlsx.ts'

const PAGE_WIDTH = 792
const PAGE_HEIGHT = 612
const MARGIN = 40
const FOOTER = 28
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.38, 0.38, 0.42)
const ACCENT = rgb(0.12, 0.27, 0.45)
const RULE = rgb(0.7, 0.7, 0.74)
const BAND = rgb(0.93, 0.95, 0.97)

const winAnsi = latin1PdfText

/** 1234567.5 (an amount of the JSON) → "1,234,567.50"; negative with a leading minus. */
export function amountText(n: number): string {
  const cents = Math.round(n * 100)
  const abs = Math.abs(cents)
  return `${cents < 0 ? '-' : ''}${groupThousands(String(Math.trunc(abs / 100)))}.${String(abs % 100).padStart(2, '0')}`
}

/** "0.6250" → "62.50%"; null (nothing earned) → "n/a". */
export function ratioText(r: string | null): string {
  if (r === null) return 'n/a'
  const bps = Math.round(Number(r) * 10000)
  const abs = Math.abs(bps)
  return `${bps < 0 ? '-' : ''}${groupThousands(String(Math.trunc(abs / 100)))}.${String(abs % 100).padStart(2, '0')}%`
}

/** "2026-03-05" → "03/05/2026", the US convention of the contract document. */
export function usDate(iso: string | null): string {
  if (iso === null) return 'inception'
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  return m ? `${m[2]}/${m[3]}/${m[1]}` : iso
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const monthName = (ym: string) => {
  const [y, m] = ym.split('-')
  return `${MONTHS[Number(m) - 1] ?? m} ${y}`
}

export const STATEMENT_FOOTNOTES = [
  "Figures are from the journal: the entries posted (by accounting date) on or before each column's last day, and the ceded share of each contract (its cession, fixed at the sale) applied once to its cumulative sum, rounded half up; so the months of a quarter add up to the quarter exactly.",
  'Written premium ceded is the ceded share of the claims reserve of the contracts sold; cancellations are the reserve refunded by cancels, less reinstatements; net written = written - cancellations.',
  "Earned premium: net written premium times the reserve's earned fraction on the column's last day, by each reserve line's earnings method (pro rata or the contract's earnings curve), rounded once; a cancelled contract's net written premium is fully earned. Unearned premium reserve = net written - earned, at the column's end.",
  "Claims incurred = claims paid + the change in claims authorized and unpaid (payment requests committed, less releases); claims outstanding = incurred - paid at the column's end.",
  "Ceding and administrator fees are the treaty's rates on net written premium. Underwriting result = earned premium - claims incurred - ceding fee - administrator fee.",
  'Loss ratio = claims incurred / earned premium, rounded half up to 0.01 %; n/a when nothing was earned.',
]

type Cell = { text: string; width: number; align: 'left' | 'right' }

export type ReinsuranceStatementPdfInput = { administratorName: string; statement: ReinsuranceStatement }

/** The statement's PDF bytes. */
export async function reinsuranceStatementPdf({
  administratorName,
  statement: s,
}: ReinsuranceStatementPdfInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false })
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const company = s.reinsuranceCompany
  const title = `Reinsurance statement: ${company.name}, ${monthName(s.month)}`
  pdf.setTitle(winAnsi(title).slice(0, 200))
  pdf.setAuthor(winAnsi(administratorName).slice(0, 200))
  pdf.setSubject(winAnsi(`${company.name} ${s.month}`))
  pdf.setCreator(PDF_CREATOR)
  pdf.setProducer(PDF_CREATOR)
  const generated = new Date(s.generatedAt)
  if (!Number.isNaN(generated.getTime())) {
    pdf.setCreationDate(generated)
    pdf.setModificationDate(generated)
  }

  let page!: PDFPage
  let y = 0
  const text = (t: string, x: number, size: number, font: PDFFont = regular, color = INK, at = y) =>
    page.drawText(winAnsi(t), { x, y: at, size, font, color })
  const right = (t: string, xRight: number, size: number, font: PDFFont = regular, color = INK, at = y) =>
    text(t, xRight - textWidth(font, size, winAnsi(t)), size, font, color, at)
  const rule = (at: number, color = RULE, thickness = 0.5) =>
    page.drawLine({ start: { x: MARGIN, y: at }, end: { x: PAGE_WIDTH - MARGIN, y: at }, thickness, color })

  function newPage(continued: boolean) {
    page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT])
    y = PAGE_HEIGHT - MARGIN
    if (!continued) {
      // Letterhead: the administrator, the document, then the company and the period.
      text(administratorName, MARGIN, 16, bold, ACCENT, y - 12)
      right('REINSURANCE STATEMENT', PAGE_WIDTH - MARGIN, 11, bold, ACCENT, y - 12)
      page.drawRectangle({ x: MARGIN, y: y - 20, width: PAGE_WIDTH - 2 * MARGIN, height: 2, color: ACCENT })
      y -= 40
      text(company.name, MARGIN, 13, bold)
      right(`Statement month: ${monthName(s.month)}`, PAGE_WIDTH - MARGIN, 10, bold)
      y -= 15
      const code = company.companyCode === null ? '' : `code ${company.companyCode}, `
      text(
        `Reinsurance company (${code}account holder ${company.id}); ${s.contracts} contract(s) ceded`,
        MARGIN,
        8.5,
        regular,
        MUTED,
      )
      right(
        `Period ${usDate(s.from)} to ${usDate(s.to)}; figures as of ${usDate(s.asOf)}`,
        PAGE_WIDTH - MARGIN,
        8.5,
        regular,
        MUTED,
      )
      y -= 12
      right(
        `Generated ${s.generatedAt.slice(0, 16).replace('T', ' ')} UTC; amounts in US dollars`,
        PAGE_WIDTH - MARGIN,
        8.5,
        regular,
        MUTED,
      )
      y -= 18
    } else {
      text(
        `${administratorName} - Reinsurance statement: ${company.name}, ${monthName(s.month)} (continued)`,
        MARGIN,
        9,
        bold,
        ACCENT,
        y - 8,
      )
      y -= 14
      rule(y, ACCENT, 1)
      y -= 14
    }
  }

  /** Room for `h` points, else a new page. */
  const need = (h: number) => {
    if (y - h < MARGIN + FOOTER) newPage(true)
  }

  /** A section title, kept on a page with `room` points of what follows it. */
  function heading(t: string, room = 40) {
    need(room)
    y -= 6
    text(t, MARGIN, 11, bold, ACCENT)
    y -= 5
    rule(y, ACCENT, 0.8)
    y -= 12
  }

  function row(cells: readonly Cell[], font: PDFFont, size: number, band = false, h = 12) {
    if (band) page.drawRectangle({ x: MARGIN, y: y - 3, width: PAGE_WIDTH - 2 * MARGIN, height: h, color: BAND })
    let x = MARGIN
    for (const c of cells) {
      let t = winAnsi(c.text)
      while (t.length > 1 && textWidth(font, size, t) > c.width - 6) t = t.slice(0, -1)
      const at = c.align === 'right' ? x + c.width - 4 - textWidth(font, size, t) : x + 2
      if (t !== '') page.drawText(t, { x: at, y, size, font, color: INK })
      x += c.width
    }
    y -= h
  }

  newPage(false)

  // The statement: a row per figure, the four columns.
  heading('Statement')
  const usable = PAGE_WIDTH - 2 * MARGIN
  const labelWidth = 232
  const colWidth = (usable - labelWidth) / 4
  const fourCols = (label: string, values: readonly string[]): Cell[] => [
    { text: label, width: labelWidth, align: 'left' },
    ...values.map((v) => ({ text: v, width: colWidth, align: 'right' as const })),
  ]
  row(fourCols('', ['Month to date', 'Quarter to date', 'Year to date', 'Inception to date']), bold, 8.5)
  row(
    fourCols(
      '',
      COLUMNS.map((c) => `${usDate(s.periods[c].from)} - ${usDate(s.periods[c].to)}`),
    ),
    regular,
    7.5,
  )
  rule(y + 7)
  y -= 4
  const strong = new Set<Figure>(['netWrittenPremium', 'claimsIncurred', 'underwritingResult'])
  FIGURES.forEach((k, i) => {
    need(14)
    row(
      fourCols(
        FIGURE_LABELS[k],
        COLUMNS.map((c) => amountText(s.totals[c][k])),
      ),
      strong.has(k) ? bold : regular,
      9,
      i % 2 === 1,
      14,
    )
  })
  rule(y + 10)
  row(
    fourCols(
      'Loss ratio',
      COLUMNS.map((c) => ratioText(s.totals[c].lossRatio)),
    ),
    bold,
    9,
    false,
    14,
  )

  // By product and by vintage: a block of four rows (the columns) per product or vintage.
  const SHOWN: Figure[] = [
    'writtenPremium',
    'cancellations',
    'netWrittenPremium',
    'earnedPremium',
    'unearnedPremium',
    'claimsPaid',
    'claimsIncurred',
    'cedingFee',
    'administratorFee',
    'underwritingResult',
  ]
  const SHORT: Partial<Record<Figure, string>> = {
    writtenPremium: 'Written',
    cancellations: 'Cancelled',
    netWrittenPremium: 'Net written',
    earnedPremium: 'Earned',
    unearnedPremium: 'Unearned',
    claimsPaid: 'Claims paid',
    claimsIncurred: 'Incurred',
    cedingFee: 'Ceding fee',
    administratorFee: 'Admin. fee',
    underwritingResult: 'Result',
  }
  const keyWidth = 130
  const periodWidth = 34
  const ratioWidth = 48
  const figWidth = (usable - keyWidth - periodWidth - ratioWidth) / SHOWN.length
  const breakdownCells = (key: string, col: string, f: FiguresView | null): Cell[] => [
    { text: key, width: keyWidth, align: 'left' },
    { text: col, width: periodWidth, align: 'left' },
    ...SHOWN.map((k) => ({
      text: f === null ? SHORT[k]! : amountText(f[k]),
      width: figWidth,
      align: 'right' as const,
    })),
    { text: f === null ? 'Loss ratio' : ratioText(f.lossRatio), width: ratioWidth, align: 'right' },
  ]
  function breakdown(
    titleText: string,
    keyTitle: string,
    parts: ReadonlyArray<{ key: string } & Record<Column, FiguresView>>,
  ) {
    heading(titleText, 40 + 12 + 4 * 11)
    const header = () => {
      row(breakdownCells(keyTitle, '', null), bold, 7.5)
      rule(y + 8)
    }
    header()
    const block = (key: string, cells: Record<Column, FiguresView>, font: PDFFont) => {
      if (y - 4 * 11 < MARGIN + FOOTER) {
        newPage(true)
        header()
      }
      COLUMNS.forEach((c, i) =>
        row(breakdownCells(i === 0 ? key : '', c.toUpperCase(), cells[c]), font, 7.5, i % 2 === 1, 11),
      )
      rule(y + 8)
    }
    if (parts.length === 0) row([{ text: 'No contracts.', width: usable, align: 'left' }], regular, 8)
    for (const p of parts) block(p.key, p, regular)
    block('Total', s.totals, bold)
  }
  breakdown(
    'By product',
    'Product',
    s.byProduct.map((p) => ({ key: `${p.product.code} ${p.product.name}`, ...p })),
  )
  breakdown(
    'By vintage (quarter of sale)',
    'Vintage',
    s.byVintage.map((v) => ({ key: v.vintage, ...v })),
  )

  // Footnotes, wrapped to the page's width.
  heading('Notes')
  STATEMENT_FOOTNOTES.forEach((note, i) => {
    const words = winAnsi(`${i + 1}. ${note}`).split(' ')
    let line = ''
    const flush = () => {
      need(11)
      text(line, MARGIN, 8, regular, MUTED)
      y -= 10.5
      line = '    '
    }
    for (const w of words) {
      const next = line === '' || line === '    ' ? `${line}${w}` : `${line} ${w}`
      if (textWidth(regular, 8, next) > usable && line.trim() !== '') {
        flush()
        line += w
      } else line = next
    }
    if (line.trim() !== '') flush()
    y -= 2
  })

  // Every page's footer: who and what, and page n of N.
  const pages = pdf.getPages()
  pages.forEach((p, i) => {
    page = p
    rule(MARGIN + 12)
    text(`${administratorName} - ${company.name} - ${monthName(s.month)}`, MARGIN, 7.5, regular, MUTED, MARGIN)
    right(`Page ${i + 1} of ${pages.length}`, PAGE_WIDTH - MARGIN, 7.5, regular, MUTED, MARGIN)
  })
  return pdf.save({ useObjectStreams: true })
}
