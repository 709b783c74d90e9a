// A statement as a PDF, drawn a page of lines at a time: pdf-lib with the standard Helvetica fonts
// (as the contract document, src/modules/contracts/contract.pdf.ts), landscape US Letter, a header
// on every page, the opening balance first and the closing balance last. pdf-lib keeps the document
// in memory until save(), so a PDF grows with its pages (CSV is the format that streams flat); the
// drawing is a few text operators per line, so 10,000 lines render in well under 5 s
// (docs/statements.md "Performance"). The standard fonts encode WinAnsi only: every string passes
// through pdfText first (narrower than the contract document's sanitizer: these pages are written as
// latin1 bytes, so cp1252's 0x80-0x9F extras are left out). Measuring and grouping digits are shared
// (platform/pdf-text.ts).
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib'
import { groupThousands, latin1PdfText, PDF_CREATOR, textWidth } from '../../platform/pdf-text.ts'
import type { StatementLine } from './statement.csv.ts'
import { formatCents } from '../../platform/money.ts'

export type StatementHeader = {
  administratorName: string
  accountHolder: { id: number; name: string; kind: string }
  purpose: string | null
  from: string
  to: string
  /** YYYY-MM-DD: the day the statement was made, printed and used as the creation date. */
  issuedOn: string
  openingCents: number
}

/** WinAnsi text these pages can write as latin1 bytes (platform/pdf-text.ts). */
const pdfText = latin1PdfText

/** "1234567.5" cents-formatted with thousands separators: 123456750 → "1,234,567.50". */
export function groupedAmount(cents: number): string {
  const text = formatCents(cents)
  const negative = text.startsWith('-')
  const [whole = '0', frac = '00'] = (negative ? text.slice(1) : text).split('.')
  return `${negative ? '-' : ''}${groupThousands(whole)}.${frac}`
}

/** "2026-03-05" → "03/05/2026", the US convention of the contract document. */
export function usDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  return m ? `${m[2]}/${m[3]}/${m[1]}` : iso
}

const PAGE_WIDTH = 792
const PAGE_HEIGHT = 612
const MARGIN = 36
const ROW = 10.5
const SIZE = 7.5
const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.38, 0.38, 0.42)
const RULE = rgb(0.7, 0.7, 0.74)

type Column = { title: string; width: number; align: 'left' | 'right'; value: (l: StatementLine) => string }

const COLUMNS: Column[] = [
  { title: 'Date', width: 50, align: 'left', value: (l) => usDate(l.effectiveDate) },
  { title: 'Kind', width: 104, align: 'left', value: (l) => l.kind },
  { title: 'Source', width: 78, align: 'left', value: (l) => `${l.sourceType} ${l.sourceId}` },
  { title: 'Entry/line', width: 50, align: 'left', value: (l) => `${l.entryId}/${l.lineNo}` },
  { title: 'Contract', width: 70, align: 'left', value: (l) => l.contractNumber ?? '' },
  { title: 'Code', width: 50, align: 'left', value: (l) => l.disbursementCode ?? '' },
  { title: 'Memo', width: 128, align: 'left', value: (l) => l.memo ?? '' },
  { title: 'Debit', width: 60, align: 'right', value: (l) => (l.debitCents === 0 ? '' : groupedAmount(l.debitCents)) },
  {
    title: 'Credit',
    width: 60,
    align: 'right',
    value: (l) => (l.creditCents === 0 ? '' : groupedAmount(l.creditCents)),
  },
  { title: 'Balance', width: 68, align: 'right', value: (l) => groupedAmount(l.balanceCents) },
]

/** The text cut (with an ellipsis) to fit `width`. */
function fit(font: PDFFont, size: number, text: string, width: number): string {
  if (textWidth(font, size, text) <= width) return text
  let cut = text
  while (cut.length > 0 && textWidth(font, size, `${cut}...`) > width) cut = cut.slice(0, -1)
  return `${cut}...`
}

/** A PDF literal string of WinAnsi text (pdfText's output): backslash, parentheses escaped. */
const literal = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`
const num = (n: number) => (Math.round(n * 100) / 100).toString()
const color = (c: { red: number; green: number; blue: number }) => `${num(c.red)} ${num(c.green)} ${num(c.blue)}`

/**
 * Draws a statement page by page: begin, then lines in order (any number of calls), then finish.
 * Each page's content is one text object written as PDF operators directly (a Tm and a Tj per cell)
 * rather than through page.drawText, whose graphics-state and font bookkeeping per call made a
 * 10,000-line statement take seconds; the text is pdfText's, so its bytes are its WinAnsi codes.
 */
export class StatementPdf {
  #pdf: PDFDocument
  #regular: PDFFont
  #bold: PDFFont
  #header: StatementHeader
  #page!: PDFPage
  #keys = new Map<PDFFont, string>()
  #ops: string[] = []
  #font: PDFFont | undefined
  #size = 0
  #color = ''
  #y = 0
  #pages = 0

  private constructor(pdf: PDFDocument, regular: PDFFont, bold: PDFFont, header: StatementHeader) {
    this.#pdf = pdf
    this.#regular = regular
    this.#bold = bold
    this.#header = header
  }

  static async begin(header: StatementHeader): Promise<StatementPdf> {
    const pdf = await PDFDocument.create({ updateMetadata: false })
    const doc = new StatementPdf(
      pdf,
      await pdf.embedFont(StandardFonts.Helvetica),
      await pdf.embedFont(StandardFonts.HelveticaBold),
      header,
    )
    pdf.setTitle(pdfText(`Statement of ${header.accountHolder.name}, ${header.from} to ${header.to}`).slice(0, 200))
    pdf.setAuthor(pdfText(header.administratorName).slice(0, 200))
    pdf.setCreator(PDF_CREATOR)
    pdf.setProducer(PDF_CREATOR)
    const issued = new Date(`${header.issuedOn}T00:00:00.000Z`)
    if (!Number.isNaN(issued.getTime())) {
      pdf.setCreationDate(issued)
      pdf.setModificationDate(issued)
    }
    doc.#newPage()
    doc.#balanceRow('Opening balance', header.from, header.openingCents)
    return doc
  }

  /** Text at (x, #y): sanitized already. */
  #text(text: string, x: number, font: PDFFont, size: number, fill = INK) {
    if (font !== this.#font || size !== this.#size) {
      this.#ops.push(`${this.#keys.get(font)} ${num(size)} Tf\n`)
      this.#font = font
      this.#size = size
    }
    const c = color(fill)
    if (c !== this.#color) {
      this.#ops.push(`${c} rg\n`)
      this.#color = c
    }
    this.#ops.push(`1 0 0 1 ${num(x)} ${num(this.#y)} Tm ${literal(text)} Tj\n`)
  }

  /** Ends the current page's text object and attaches its content stream. */
  #flush() {
    if (this.#pages === 0) return
    this.#ops.push('ET\n')
    const stream = this.#pdf.context.flateStream(Buffer.from(this.#ops.join(''), 'latin1'))
    this.#page.node.addContentStream(this.#pdf.context.register(stream))
    this.#ops = []
  }

  #newPage() {
    this.#flush()
    this.#page = this.#pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT])
    this.#page.node.normalize()
    this.#keys = new Map([
      [this.#regular, this.#page.node.newFontDictionary(this.#regular.name, this.#regular.ref).toString()],
      [this.#bold, this.#page.node.newFontDictionary(this.#bold.name, this.#bold.ref).toString()],
    ])
    this.#font = undefined
    this.#color = ''
    this.#pages++
    const h = this.#header
    this.#y = PAGE_HEIGHT - MARGIN - 12
    // The rule under the column titles, then one text object for the page.
    const ruleY = this.#y - 14 - 16 - 3
    this.#ops.push(`${color(RULE)} RG 0.5 w ${MARGIN} ${num(ruleY)} m ${PAGE_WIDTH - MARGIN} ${num(ruleY)} l S\nBT\n`)
    this.#text(pdfText(`Statement: ${h.accountHolder.name}`), MARGIN, this.#bold, 13)
    const right = pdfText(h.administratorName)
    this.#text(right, PAGE_WIDTH - MARGIN - textWidth(this.#regular, 9, right), this.#regular, 9, MUTED)
    this.#y -= 14
    const scope = h.purpose === null ? 'all accounts' : `account ${h.purpose}`
    this.#text(
      pdfText(
        `Account holder ${h.accountHolder.id} (${h.accountHolder.kind}), ${scope}; period ${usDate(h.from)} to ${usDate(h.to)}; ` +
          `issued ${usDate(h.issuedOn)}; page ${this.#pages}. Balance: debit less credit (positive: owed by the account holder).`,
      ),
      MARGIN,
      this.#regular,
      8,
      MUTED,
    )
    this.#y -= 16
    let x = MARGIN
    for (const c of COLUMNS) {
      this.#cell(c.title, x, c, this.#bold)
      x += c.width
    }
    this.#y -= 3 + ROW
  }

  #cell(text: string, x: number, c: Column, font: PDFFont) {
    const fitted = fit(font, SIZE, pdfText(text), c.width - 4)
    const at = c.align === 'right' ? x + c.width - 4 - textWidth(font, SIZE, fitted) : x
    this.#text(fitted, at, font, SIZE)
  }

  #ensureRow() {
    if (this.#y < MARGIN) this.#newPage()
  }

  #balanceRow(label: string, date: string, cents: number) {
    this.#ensureRow()
    this.#text(pdfText(`${label} (${usDate(date)})`), MARGIN, this.#bold, SIZE)
    const last = COLUMNS[COLUMNS.length - 1]!
    this.#cell(groupedAmount(cents), PAGE_WIDTH - MARGIN - last.width, last, this.#bold)
    this.#y -= ROW
  }

  /** Draws the lines in order, starting pages as needed. */
  addLines(lines: readonly StatementLine[]): void {
    for (const line of lines) {
      this.#ensureRow()
      let x = MARGIN
      for (const c of COLUMNS) {
        const value = c.value(line)
        if (value !== '') this.#cell(value, x, c, this.#regular)
        x += c.width
      }
      this.#y -= ROW
    }
  }

  /** The closing balance row and the bytes. */
  async finish(closingCents: number, lineCount: number): Promise<Uint8Array> {
    this.#y -= 2
    this.#ensureRow()
    this.#text(pdfText(`${lineCount} line(s)`), MARGIN, this.#regular, SIZE, MUTED)
    this.#y -= ROW
    this.#balanceRow('Closing balance', this.#header.to, closingCents)
    this.#flush()
    return this.#pdf.save({ useObjectStreams: true })
  }
}
