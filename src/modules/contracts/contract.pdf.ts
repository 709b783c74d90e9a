// The contract document as a PDF: a pure function of display-ready data (the caller decides what
// the contract says; this file decides only how it looks). pdf-lib with the standard Helvetica
// fonts, so nothing is embedded but a font name and a document is a few kilobytes; those fonts
// encode WinAnsi (cp1252) only, so every string passes through sanitizePdfText before it is
// measured or drawn. Output is deterministic: identical input gives identical bytes (no clock, no
// random document id; the metadata dates come from `issuedOn`).
import { degrees, PDFDocument, rgb, StandardFonts, type Color, type PDFFont, type PDFPage } from 'pdf-lib'
import { Decimal, formatMoney } from '../../platform/money.ts'
import { groupThousands, PDF_CREATOR, textWidth } from '../../platform/pdf-text.ts'

export type Address = {
  line1: string
  line2?: string | null
  city: string
  state: string
  postalCode: string
  country?: string | null
}

export type Person = {
  firstName?: string | null
  lastName?: string | null
  companyName?: string | null
  address?: Address | null
  emailAddress?: string | null
  phoneNumber?: string | null
}

export type ContractDocument = {
  draft: boolean
  /** The contract number, or for a draft without a contract the quote reference. */
  reference: { label: 'Contract number' | 'Quote'; value: string }
  formNumber: string | null
  /** YYYY-MM-DD: the document date, printed in the header and used as the PDF's creation date. */
  issuedOn: string
  administrator: { name: string; address?: Address | null; phoneNumber?: string | null }
  dealer: { dealerNumber: string; name: string; address?: Address | null }
  customer: Person
  coBuyer: Person | null
  lienHolder: { name: string; address?: Address | null; phoneNumber?: string | null } | null
  vehicle: {
    vin: string | null
    year: number | null
    make: string | null
    model: string | null
    trim: string | null
    condition: string | null
    odometer: number | null
    inServiceDate: string | null
    purchasePrice: number | null
  }
  product: { code: string; name: string; type: string }
  program: { code: string; name: string } | null
  plan: { code: string; name: string }
  term: { months: number; miles: number | null }
  deductible: { amount: number; type: string } | null
  options: Array<{ code: string; name: string; retail: number | null }>
  saleDate: string
  effectiveDate: string
  expiration: { date: string; odometer: number | null }
  price: { retailPrice: number; salesTax?: number | null; total?: number | null }
  finance: {
    financeType: string | null
    amountFinanced: number | null
    termMonths: number | null
    apr: number | null
  } | null
  customFields: Array<{ label: string; value: string }>
  /** What is covered, printed after the price when present. */
  coverage?: Array<{ group: string; components: string[] }>
  /** Terms and conditions paragraphs; when absent a short standard cancellation and claims notice is printed. */
  terms?: string[]
  distanceUnit: 'MILES' | 'KILOMETERS'
}

export const DRAFT_MARK = 'DRAFT — NOT A CONTRACT'

// ---------------------------------------------------------------------------------------------
// Text: what the standard fonts can encode, and how wide it is.

// WinAnsiEncoding: printable ASCII, Latin-1 from NBSP up, and the 27 cp1252 extras in 0x80-0x9F.
const WIN_ANSI = new Set<number>([
  ...range(0x20, 0x7e),
  ...range(0xa0, 0xff),
  ...[...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'].map((c) => c.codePointAt(0)!),
])

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}

/** The code points sanitizePdfText lets through: exactly what WinAnsiEncoding can encode. */
export const PDF_CHARACTER_SET: ReadonlySet<number> = WIN_ANSI

const LINE_BREAKING = /[\t\n\v\f\r\u0085\u2028\u2029]/
const INVISIBLE = /[\p{Cf}\p{M}\uFE00-\uFE0F]/u

/**
 * Text the standard fonts can draw on one line: line breaks and tabs become spaces; format
 * characters, stray combining marks and variation selectors (invisible on their own) are dropped;
 * a letter outside WinAnsi becomes its base letter when it has one ("ő" → "o"); anything else
 * unencodable (emoji, CJK, control characters) becomes '?'. Never throws.
 */
export function sanitizePdfText(value: string): string {
  const text = value.normalize('NFC')
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (WIN_ANSI.has(code)) out += ch
    else if (LINE_BREAKING.test(ch)) out += ' '
    else if (INVISIBLE.test(ch)) continue
    else {
      const base = ch.normalize('NFD')
      const first = base.codePointAt(0)!
      out += base.length > 1 && WIN_ANSI.has(first) && INVISIBLE.test(base.slice(1)) ? String.fromCodePoint(first) : '?'
    }
  }
  return out
}

/** Greedy word wrap of sanitized text; a word wider than the line is broken between characters. */
function wrapText(font: PDFFont, size: number, text: string, maxWidth: number): string[] {
  const lines: string[] = []
  const space = textWidth(font, size, ' ')
  let current = ''
  let currentWidth = 0
  for (const word of text.split(' ')) {
    if (word === '') continue
    const wordWidth = textWidth(font, size, word)
    if (current !== '' && currentWidth + space + wordWidth <= maxWidth) {
      current += ` ${word}`
      currentWidth += space + wordWidth
      continue
    }
    if (current !== '') lines.push(current)
    if (wordWidth <= maxWidth) {
      current = word
      currentWidth = wordWidth
      continue
    }
    current = ''
    currentWidth = 0
    for (const ch of word) {
      const w = textWidth(font, size, ch)
      if (current !== '' && currentWidth + w > maxWidth) {
        lines.push(current)
        current = ''
        currentWidth = 0
      }
      current += ch
      currentWidth += w
    }
  }
  if (current !== '' || lines.length === 0) lines.push(current)
  return lines
}

/** Sanitized text cut to one line of `maxWidth`, ending in an ellipsis when cut. */
function fitText(font: PDFFont, size: number, text: string, maxWidth: number): string {
  if (textWidth(font, size, text) <= maxWidth) return text
  const room = maxWidth - textWidth(font, size, '…')
  let width = 0
  let end = 0
  while (end < text.length) {
    const w = textWidth(font, size, text.charAt(end))
    if (width + w > room) break
    width += w
    end++
  }
  return `${text.slice(0, end).trimEnd()}…`
}

// ---------------------------------------------------------------------------------------------
// Formatting: one place for money, dates, distances and codes.

const NONE = '—'

/** US dollars with thousands separators, rounded half-up to the cent: 2695 → "$2,695.00". */
export function formatPdfMoney(amount: number): string {
  if (!Number.isFinite(amount)) return NONE
  const fixed = formatMoney(new Decimal(String(amount)))
  const negative = fixed.startsWith('-')
  const [whole = '0', cents = '00'] = (negative ? fixed.slice(1) : fixed).split('.')
  return `${negative ? '-' : ''}$${groupThousands(whole)}.${cents}`
}

function formatInteger(value: number): string {
  return Number.isFinite(value) ? groupThousands(String(Math.trunc(value))) : NONE
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function parseIsoDate(value: string): Date | null {
  const match = ISO_DATE.exec(value)
  if (!match) return null
  const date = new Date(`${value}T00:00:00.000Z`)
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date
}

/** "2026-03-05" → "03/05/2026", the US contract convention; anything else is printed as given. */
export function formatPdfDate(value: string | null | undefined): string {
  if (value == null || value.trim() === '') return NONE
  const match = ISO_DATE.exec(value)
  return match && parseIsoDate(value) ? `${match[2]}/${match[3]}/${match[1]}` : value
}

function distance(value: number, unit: ContractDocument['distanceUnit']): string {
  return `${formatInteger(value)} ${unit === 'KILOMETERS' ? 'km' : 'miles'}`
}

/** "RETAIL_INSTALLMENT" → "Retail installment"; text that is not an upper-case code stays as it is. */
function humanize(code: string): string {
  if (!/^[A-Z0-9_ -]+$/.test(code)) return code
  const words = code.toLowerCase().replaceAll('_', ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function present(value: string | null | undefined): value is string {
  return value != null && value.trim() !== ''
}

function nameAndCode(item: { code: string; name: string }): string {
  return present(item.code) && item.code !== item.name ? `${item.name} (${item.code})` : item.name
}

const TITLES: Record<string, string> = {
  VSC: 'Vehicle Service Contract',
  GAP: 'Guaranteed Asset Protection Contract',
  TIRE_WHEEL: 'Tire and Wheel Protection Contract',
  PPM: 'Prepaid Maintenance Contract',
  KEY: 'Key Replacement Contract',
  DENT: 'Dent Repair Contract',
  APPEARANCE: 'Appearance Protection Contract',
  THEFT: 'Theft Protection Contract',
}

/** The document title: the usual name of the product type, else the product's own name. */
export function contractTitle(product: ContractDocument['product']): string {
  return TITLES[product.type] ?? (present(product.name) ? product.name : 'Service Contract')
}

function personLines(person: Person): string[] {
  const individual = [person.firstName, person.lastName]
    .filter(present)
    .map((s) => s.trim())
    .join(' ')
  const lines: string[] = []
  if (present(person.companyName)) lines.push(person.companyName.trim())
  if (individual !== '') lines.push(individual)
  if (lines.length === 0) lines.push(NONE)
  return lines
}

function personName(person: Person): string {
  return personLines(person).join(', ')
}

function addressLines(address: Address | null | undefined): string[] {
  if (!address) return []
  const region = [address.state, address.postalCode].filter(present).join(' ')
  const place = [address.city, region].filter(present).join(', ')
  return [address.line1, address.line2, place, address.country].filter(present)
}

function vehicleDescription(vehicle: ContractDocument['vehicle']): string {
  const parts = [vehicle.year == null ? null : String(vehicle.year), vehicle.make, vehicle.model, vehicle.trim].filter(
    present,
  )
  return parts.length > 0 ? parts.join(' ') : NONE
}

function standardTerms(doc: ContractDocument): string[] {
  const phone = present(doc.administrator.phoneNumber) ? ` at ${doc.administrator.phoneNumber}` : ''
  return [
    'Cancellation. You may cancel this contract at any time by written request to the administrator or the selling dealer. ' +
      'Any refund is calculated as the contract terms and applicable law provide, less claims paid where the law allows. ' +
      'While a lien holder is named, a refund is paid to the lien holder.',
    `Claims. Before any repair is made, the repair facility must call the administrator${phone} for authorization and give ` +
      'the contract number. Repairs made without prior authorization may not be covered.',
    'This document summarizes your coverage. The complete terms, conditions and exclusions of the contract govern.',
  ]
}

// ---------------------------------------------------------------------------------------------
// Layout: a cursor flowing down US Letter pages; every line checks for room, so any content
// paginates, and the header (with the draft mark) is drawn on each new page.

const PAGE_WIDTH = 612
const PAGE_HEIGHT = 792
const MARGIN = 50
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN
const CONTENT_BOTTOM = 56
const GUTTER = 18
/** The narrowest the administrator's name may get in the page header beside a long reference. */
const MIN_NAME_WIDTH = 120
const LINE = 12

const INK = rgb(0.1, 0.1, 0.12)
const MUTED = rgb(0.38, 0.38, 0.42)
const RULE = rgb(0.7, 0.7, 0.74)
const BAND = rgb(0.92, 0.93, 0.95)
const DRAFT_RED = rgb(0.72, 0.1, 0.1)
const WATERMARK = rgb(0.88, 0.88, 0.88)

type Fonts = { regular: PDFFont; bold: PDFFont }
type Line = { text: string; font: PDFFont; size: number; color: Color; indent?: number }
type Cell = { x: number; width: number; lines: Line[]; align?: 'left' | 'right' }

class Layout {
  readonly pdf: PDFDocument
  readonly fonts: Fonts
  readonly doc: ContractDocument
  readonly title: string
  readonly pages: PDFPage[] = []
  page: PDFPage
  y = 0

  constructor(pdf: PDFDocument, fonts: Fonts, doc: ContractDocument, title: string) {
    this.pdf = pdf
    this.fonts = fonts
    this.doc = doc
    this.title = title
    this.page = this.newPage()
  }

  newPage(): PDFPage {
    const page = this.pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT])
    this.pages.push(page)
    this.page = page
    if (this.doc.draft) this.watermark(page)
    this.y = this.header(page)
    return page
  }

  /** Starts a new page unless `height` more points fit above the footer. */
  ensure(height: number): void {
    if (this.y - height < CONTENT_BOTTOM) this.newPage()
  }

  gap(height: number): void {
    this.y -= height
  }

  line(text: string, font: PDFFont, size: number, color: Color = INK, indent = 0): Line {
    return { text, font, size, color, indent }
  }

  /** Wrapped lines of raw text in one style. */
  para(
    value: string,
    width: number,
    font: PDFFont = this.fonts.regular,
    size = 9,
    color: Color = INK,
    indent = 0,
  ): Line[] {
    return wrapText(font, size, sanitizePdfText(value), width - indent).map((text) =>
      this.line(text, font, size, color, indent),
    )
  }

  /** Cells side by side, drawn line by line so a tall row continues on the next page. */
  rows(cells: Cell[], lineHeight = LINE): void {
    const count = Math.max(0, ...cells.map((c) => c.lines.length))
    for (let i = 0; i < count; i++) {
      this.ensure(lineHeight)
      const baseline = this.y - lineHeight + 3
      for (const cell of cells) {
        const line = cell.lines[i]
        if (!line || line.text === '') continue
        const indent = line.indent ?? 0
        const x =
          cell.align === 'right' ? cell.x + cell.width - textWidth(line.font, line.size, line.text) : cell.x + indent
        this.page.drawText(line.text, { x, y: baseline, font: line.font, size: line.size, color: line.color })
      }
      this.y -= lineHeight
    }
  }

  section(title: string, keepWith = 3 * LINE): void {
    this.gap(8)
    this.ensure(18 + keepWith)
    this.page.drawRectangle({ x: MARGIN, y: this.y - 15, width: CONTENT_WIDTH, height: 15, color: BAND })
    const text = fitText(this.fonts.bold, 9.5, sanitizePdfText(title.toUpperCase()), CONTENT_WIDTH - 12)
    this.page.drawText(text, { x: MARGIN + 6, y: this.y - 11, font: this.fonts.bold, size: 9.5, color: INK })
    this.y -= 20
  }

  /** Label/value pairs, `columns` pairs to a row. */
  fields(pairs: Array<[string, string]>, columns: 1 | 2 = 2, labelWidth = columns === 2 ? 96 : 160): void {
    const columnWidth = (CONTENT_WIDTH - (columns - 1) * GUTTER) / columns
    for (let start = 0; start < pairs.length; start += columns) {
      const cells: Cell[] = []
      pairs.slice(start, start + columns).forEach(([label, value], j) => {
        const x = MARGIN + j * (columnWidth + GUTTER)
        cells.push({ x, width: labelWidth - 6, lines: this.para(label, labelWidth - 6, this.fonts.bold, 8.5, MUTED) })
        cells.push({
          x: x + labelWidth,
          width: columnWidth - labelWidth,
          lines: this.para(value, columnWidth - labelWidth),
        })
      })
      this.rows(cells)
      this.gap(2)
    }
  }

  /** Titled blocks of lines (parties), two to a row. */
  blocks(blocks: Array<{ title: string; lines: string[]; bold?: number }>): void {
    const width = (CONTENT_WIDTH - GUTTER) / 2
    for (let start = 0; start < blocks.length; start += 2) {
      const cells = blocks.slice(start, start + 2).map((block, j): Cell => {
        const lines = [
          this.line(
            fitText(this.fonts.bold, 8, sanitizePdfText(block.title.toUpperCase()), width),
            this.fonts.bold,
            8,
            MUTED,
          ),
        ]
        block.lines.forEach((text, k) => {
          lines.push(...this.para(text, width, k < (block.bold ?? 1) ? this.fonts.bold : this.fonts.regular, 9.5))
        })
        return { x: MARGIN + j * (width + GUTTER), width, lines }
      })
      this.ensure(3 * LINE)
      this.rows(cells)
      this.gap(8)
    }
  }

  private watermark(page: PDFPage): void {
    const size = 150
    const text = 'DRAFT'
    const width = textWidth(this.fonts.bold, size, text)
    const capHeight = size * 0.72
    const angle = Math.PI / 4
    // The text's centre on the page's centre: walk back half the width along the baseline and
    // down half the cap height across it.
    const x = PAGE_WIDTH / 2 - (width / 2) * Math.cos(angle) + (capHeight / 2) * Math.sin(angle)
    const y = PAGE_HEIGHT / 2 - (width / 2) * Math.sin(angle) - (capHeight / 2) * Math.cos(angle)
    page.drawText(text, { x, y, font: this.fonts.bold, size, color: WATERMARK, rotate: degrees(45) })
  }

  /** Draws the page header and returns the cursor below it. */
  private header(page: PDFPage): number {
    const { regular, bold } = this.fonts
    const doc = this.doc
    // The contract (or quote) number is what a reader looks for on a page: it is printed whole, and
    // the administrator's name beside it gives way. Only a reference wider than the page less a
    // short name column (far beyond any number format) is cut.
    const reference = sanitizePdfText(`${doc.reference.label}: ${doc.reference.value}`)
    const referenceWidth = Math.min(textWidth(bold, 10, reference), CONTENT_WIDTH - GUTTER - MIN_NAME_WIDTH)
    const rightWidth = Math.max(CONTENT_WIDTH * 0.42 - GUTTER, referenceWidth)
    const leftWidth = CONTENT_WIDTH - rightWidth - GUTTER
    const right = MARGIN + CONTENT_WIDTH
    const drawLeft = (text: string, y: number, font: PDFFont, size: number, color: Color, width = leftWidth) => {
      page.drawText(fitText(font, size, sanitizePdfText(text), width), { x: MARGIN, y, font, size, color })
    }
    const drawRight = (text: string, y: number, font: PDFFont, size: number, color: Color) => {
      const fitted = fitText(font, size, sanitizePdfText(text), rightWidth)
      page.drawText(fitted, { x: right - textWidth(font, size, fitted), y, font, size, color })
    }
    let y = PAGE_HEIGHT - 44
    drawLeft(doc.administrator.name, y, bold, 11, INK)
    drawRight(reference, y, bold, 10, INK)
    y -= 11
    const contact = [addressLines(doc.administrator.address).join(', '), doc.administrator.phoneNumber]
      .filter(present)
      .join(' · ')
    if (contact !== '') drawLeft(contact, y, regular, 7.5, MUTED)
    const form = present(doc.formNumber) ? `Form ${doc.formNumber}  ·  ` : ''
    drawRight(`${form}Date ${formatPdfDate(doc.issuedOn)}`, y, regular, 8, MUTED)
    y -= 24
    drawLeft(this.title, y, bold, 17, INK, CONTENT_WIDTH)
    if (doc.draft) {
      y -= 17
      drawLeft(DRAFT_MARK, y, bold, 11, DRAFT_RED, CONTENT_WIDTH)
    }
    y -= 9
    page.drawLine({ start: { x: MARGIN, y }, end: { x: right, y }, thickness: 0.8, color: RULE })
    return y - 8
  }

  /** Page numbers, once the page count is known. */
  footers(): void {
    const { regular } = this.fonts
    const size = 7.5
    const reference = fitText(
      regular,
      size,
      sanitizePdfText(`${this.doc.reference.label}: ${this.doc.reference.value}`),
      CONTENT_WIDTH * 0.6,
    )
    this.pages.forEach((page, i) => {
      const y = 34
      page.drawLine({
        start: { x: MARGIN, y: y + 10 },
        end: { x: MARGIN + CONTENT_WIDTH, y: y + 10 },
        thickness: 0.5,
        color: RULE,
      })
      page.drawText(reference, { x: MARGIN, y, font: regular, size, color: MUTED })
      const number = `Page ${i + 1} of ${this.pages.length}`
      page.drawText(number, {
        x: MARGIN + CONTENT_WIDTH - textWidth(regular, size, number),
        y,
        font: regular,
        size,
        color: MUTED,
      })
    })
  }
}

// ---------------------------------------------------------------------------------------------
// The document.

function drawParties(layout: Layout, doc: ContractDocument): void {
  layout.section('Parties')
  const contact = (p: { phoneNumber?: string | null; emailAddress?: string | null }) =>
    [present(p.phoneNumber) ? `Phone ${p.phoneNumber}` : null, p.emailAddress].filter(present)
  const person = (title: string, p: Person) => {
    const names = personLines(p)
    return { title, lines: [...names, ...addressLines(p.address), ...contact(p)], bold: names.length }
  }
  const blocks = [person('Contract holder', doc.customer)]
  if (doc.coBuyer) blocks.push(person('Co-buyer', doc.coBuyer))
  if (doc.lienHolder) {
    blocks.push({
      title: 'Lien holder',
      lines: [doc.lienHolder.name, ...addressLines(doc.lienHolder.address), ...contact(doc.lienHolder)],
      bold: 1,
    })
  }
  blocks.push({
    title: 'Selling dealer',
    lines: [doc.dealer.name, `Dealer number ${doc.dealer.dealerNumber}`, ...addressLines(doc.dealer.address)],
    bold: 1,
  })
  blocks.push({
    title: 'Administrator',
    lines: [doc.administrator.name, ...addressLines(doc.administrator.address), ...contact(doc.administrator)],
    bold: 1,
  })
  layout.blocks(blocks)
}

function drawVehicle(layout: Layout, doc: ContractDocument): void {
  const v = doc.vehicle
  layout.section('Vehicle')
  layout.fields([
    ['VIN', present(v.vin) ? v.vin : NONE],
    ['Vehicle', vehicleDescription(v)],
    ['Condition', present(v.condition) ? humanize(v.condition) : NONE],
    ['Odometer at sale', v.odometer == null ? NONE : distance(v.odometer, doc.distanceUnit)],
    ['In-service date', formatPdfDate(v.inServiceDate)],
    ['Purchase price', v.purchasePrice == null ? NONE : formatPdfMoney(v.purchasePrice)],
  ])
}

function drawCoverage(layout: Layout, doc: ContractDocument): void {
  const { regular, bold } = layout.fonts
  layout.section('Coverage')
  const term = `${formatInteger(doc.term.months)} months${doc.term.miles == null ? '' : ` / ${distance(doc.term.miles, doc.distanceUnit)}`}`
  const deductible = doc.deductible
    ? `${formatPdfMoney(doc.deductible.amount)}${present(doc.deductible.type) ? ` (${humanize(doc.deductible.type)})` : ''}`
    : 'None'
  const pairs: Array<[string, string]> = [['Product', nameAndCode(doc.product)]]
  if (doc.program) pairs.push(['Program', nameAndCode(doc.program)])
  pairs.push(
    ['Plan', nameAndCode(doc.plan)],
    ['Term', term],
    ['Deductible', deductible],
    ['Sale date', formatPdfDate(doc.saleDate)],
    ['Effective date', formatPdfDate(doc.effectiveDate)],
    ['Expiration date', formatPdfDate(doc.expiration.date)],
    [
      'Expiration odometer',
      doc.expiration.odometer == null ? 'No mileage limit' : distance(doc.expiration.odometer, doc.distanceUnit),
    ],
  )
  layout.fields(pairs)
  layout.gap(4)
  if (doc.options.length === 0) {
    layout.fields([['Options', 'None']], 1, 96)
    return
  }
  const codeWidth = 96
  const retailWidth = 90
  const nameWidth = CONTENT_WIDTH - codeWidth - retailWidth - 12
  layout.ensure(3 * LINE)
  layout.rows([
    { x: MARGIN, width: codeWidth, lines: [layout.line('Option', bold, 8.5, MUTED)] },
    { x: MARGIN + codeWidth, width: nameWidth, lines: [layout.line('Description', bold, 8.5, MUTED)] },
    {
      x: MARGIN + CONTENT_WIDTH - retailWidth,
      width: retailWidth,
      lines: [layout.line('Retail', bold, 8.5, MUTED)],
      align: 'right',
    },
  ])
  for (const option of doc.options) {
    layout.rows([
      { x: MARGIN, width: codeWidth - 6, lines: layout.para(option.code, codeWidth - 6, regular, 9) },
      { x: MARGIN + codeWidth, width: nameWidth, lines: layout.para(option.name, nameWidth) },
      {
        x: MARGIN + CONTENT_WIDTH - retailWidth,
        width: retailWidth,
        lines: [layout.line(option.retail == null ? 'Included' : formatPdfMoney(option.retail), regular, 9)],
        align: 'right',
      },
    ])
  }
}

function drawPrice(layout: Layout, doc: ContractDocument): void {
  layout.section('Price')
  const pairs: Array<[string, string]> = [['Contract price', formatPdfMoney(doc.price.retailPrice)]]
  if (doc.price.salesTax != null) pairs.push(['Sales tax', formatPdfMoney(doc.price.salesTax)])
  if (doc.price.total != null) pairs.push(['Total', formatPdfMoney(doc.price.total)])
  layout.fields(pairs)
  const finance = doc.finance
  if (!finance) return
  const financePairs: Array<[string, string]> = []
  if (present(finance.financeType)) financePairs.push(['Finance type', humanize(finance.financeType)])
  if (finance.amountFinanced != null) financePairs.push(['Amount financed', formatPdfMoney(finance.amountFinanced)])
  if (finance.termMonths != null) financePairs.push(['Finance term', `${formatInteger(finance.termMonths)} months`])
  if (finance.apr != null && Number.isFinite(finance.apr))
    financePairs.push(['APR', `${new Decimal(String(finance.apr)).toDecimalPlaces(3).toString()}%`])
  if (financePairs.length > 0) layout.fields(financePairs)
}

function drawCustomFields(layout: Layout, doc: ContractDocument): void {
  if (doc.customFields.length === 0) return
  layout.section('Additional information')
  layout.fields(
    doc.customFields.map((f) => [f.label, f.value]),
    1,
  )
}

function drawCoverageDetails(layout: Layout, doc: ContractDocument): void {
  const groups = (doc.coverage ?? []).filter((g) => g.components.length > 0 || present(g.group))
  if (groups.length === 0) return
  const { regular, bold } = layout.fonts
  layout.section('What is covered')
  const width = (CONTENT_WIDTH - GUTTER) / 2
  for (const group of groups) {
    layout.gap(3)
    layout.ensure(3 * LINE)
    layout.rows([{ x: MARGIN, width: CONTENT_WIDTH, lines: layout.para(group.group, CONTENT_WIDTH, bold, 9.5) }])
    for (let i = 0; i < group.components.length; i += 2) {
      const cells = group.components.slice(i, i + 2).flatMap((component, j): Cell[] => {
        const x = MARGIN + j * (width + GUTTER)
        return [
          { x, width: 9, lines: [layout.line('•', regular, 8.5, MUTED)] },
          { x, width, lines: layout.para(component, width, regular, 8.5, INK, 9) },
        ]
      })
      layout.rows(cells, 11)
    }
  }
}

function drawTerms(layout: Layout, doc: ContractDocument): void {
  layout.section('Terms and conditions', 2 * LINE)
  const paragraphs = doc.terms && doc.terms.length > 0 ? doc.terms : standardTerms(doc)
  for (const paragraph of paragraphs) {
    layout.rows(
      [{ x: MARGIN, width: CONTENT_WIDTH, lines: layout.para(paragraph, CONTENT_WIDTH, layout.fonts.regular, 8.5) }],
      11,
    )
    layout.gap(5)
  }
}

function drawSignatures(layout: Layout, doc: ContractDocument): void {
  const { regular, bold } = layout.fonts
  layout.section('Signatures', 5 * LINE)
  const statement =
    'By signing below, the contract holder acknowledges having read and received a copy of this contract, including its ' +
    'terms and conditions, and agrees to them; the dealer representative confirms the information above.'
  layout.rows([{ x: MARGIN, width: CONTENT_WIDTH, lines: layout.para(statement, CONTENT_WIDTH, regular, 8.5) }], 11)
  const signers: Array<[string, string]> = [['Contract holder', personName(doc.customer)]]
  if (doc.coBuyer) signers.push(['Co-buyer', personName(doc.coBuyer)])
  signers.push(['Dealer representative', doc.dealer.name])
  const signatureWidth = 320
  const dateX = MARGIN + signatureWidth + 40
  for (const [role, name] of signers) {
    layout.ensure(56)
    layout.gap(30)
    const y = layout.y
    layout.page.drawLine({
      start: { x: MARGIN, y },
      end: { x: MARGIN + signatureWidth, y },
      thickness: 0.7,
      color: INK,
    })
    layout.page.drawLine({ start: { x: dateX, y }, end: { x: MARGIN + CONTENT_WIDTH, y }, thickness: 0.7, color: INK })
    layout.gap(2)
    layout.rows(
      [
        {
          x: MARGIN,
          width: signatureWidth,
          lines: [layout.line(fitText(bold, 8, sanitizePdfText(`${role} signature`), signatureWidth), bold, 8, MUTED)],
        },
        { x: dateX, width: 100, lines: [layout.line('Date', bold, 8, MUTED)] },
      ],
      10,
    )
    layout.rows(
      [
        {
          x: MARGIN,
          width: signatureWidth,
          lines: [layout.line(fitText(regular, 8.5, sanitizePdfText(name), signatureWidth), regular, 8.5)],
        },
      ],
      10,
    )
  }
}

function metadata(pdf: PDFDocument, doc: ContractDocument, title: string): void {
  const short = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s)
  pdf.setTitle(short(`${doc.draft ? 'DRAFT ' : ''}${title} — ${doc.reference.label} ${doc.reference.value}`))
  pdf.setSubject(short(`${doc.product.name}, ${doc.plan.name}, for ${personName(doc.customer)}`))
  pdf.setAuthor(short(doc.administrator.name))
  pdf.setCreator(PDF_CREATOR)
  pdf.setProducer(PDF_CREATOR)
  const issued = parseIsoDate(doc.issuedOn)
  if (issued) {
    pdf.setCreationDate(issued)
    pdf.setModificationDate(issued)
  }
}

/** The contract (or, with `draft`, the marked draft) as PDF bytes. */
export async function renderContractPdf(doc: ContractDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false })
  const fonts: Fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  }
  const title = contractTitle(doc.product)
  metadata(pdf, doc, title)
  const layout = new Layout(pdf, fonts, doc, title)
  drawParties(layout, doc)
  drawVehicle(layout, doc)
  drawCoverage(layout, doc)
  drawPrice(layout, doc)
  drawCustomFields(layout, doc)
  drawCoverageDetails(layout, doc)
  drawTerms(layout, doc)
  drawSignatures(layout, doc)
  layout.footers()
  return pdf.save()
}
