// The reports as XLSX workbooks (docs/reporting.md "Formats"), written with ExcelJS: a Report sheet
// (what, who, which period, when made), then one sheet per section, each a header row (bold, frozen,
// with an autofilter), its rows and its totals rows (bold, ruled above). Money cells are numbers, the
// JSON's amount (whole cents ÷ 100, so exact to the cent) formatted #,##0.00; dates are date cells
// (UTC midnight, formatted yyyy-mm-dd); loss ratios are numbers formatted as a percentage with two
// decimals (the JSON's 4-place decimal); text is written as text (never a formula).
import ExcelJS from 'exceljs'
import { PDF_CREATOR } from '../../platform/pdf-text.ts'

export const MONEY_FORMAT = '#,##0.00'
export const DATE_FORMAT = 'yyyy-mm-dd'
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss'
export const RATIO_FORMAT = '0.00%'

export type CellKind = 'text' | 'int' | 'money' | 'date' | 'dateTime' | 'ratio'
export type Raw = string | number | null | undefined

export type XlsxColumn<T> = { header: string; kind: CellKind; width?: number; value: (row: T) => Raw }

const FORMATS: Partial<Record<CellKind, string>> = {
  money: MONEY_FORMAT,
  date: DATE_FORMAT,
  dateTime: DATE_TIME_FORMAT,
  ratio: RATIO_FORMAT,
}

/** An amount of the JSON (cents ÷ 100) as the number of its whole cents ÷ 100: no float residue. */
export const excelMoney = (n: number) => Math.round(n * 100) / 100

/** "2026-11-30" as the date cell of that day (UTC midnight: Excel dates have no zone). */
export function excelDate(iso: string): Date | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : iso
}

/** The value of a cell of the kind: null stays an empty cell. */
export function cellValue(kind: CellKind, raw: Raw): ExcelJS.CellValue {
  if (raw === null || raw === undefined) return null
  switch (kind) {
    case 'money':
      return typeof raw === 'number' ? excelMoney(raw) : raw
    case 'ratio':
      return typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw
    case 'date':
      return typeof raw === 'string' ? excelDate(raw) : raw
    case 'dateTime': {
      const d = typeof raw === 'string' ? new Date(raw) : null
      return d && !Number.isNaN(d.getTime()) ? d : raw
    }
    case 'int':
      return raw
    case 'text':
      return String(raw)
  }
}

const BOLD = { bold: true }
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8ECF2' } }
const TOTAL_BORDER: Partial<ExcelJS.Borders> = { top: { style: 'thin' } }

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\. */
const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31)

export class ReportWorkbook {
  readonly #wb = new ExcelJS.Workbook()

  /** The workbook and its Report sheet: a title, then label/value rows. */
  constructor(title: string, about: ReadonlyArray<readonly [label: string, kind: CellKind, value: Raw]>) {
    this.#wb.creator = PDF_CREATOR
    this.#wb.title = title
    const generated = about.find(([label]) => label === 'Generated at')?.[2]
    const created = typeof generated === 'string' ? new Date(generated) : new Date(0)
    if (!Number.isNaN(created.getTime())) {
      this.#wb.created = created
      this.#wb.modified = created
    }
    const ws = this.#wb.addWorksheet('Report')
    ws.columns = [{ width: 28 }, { width: 48 }]
    ws.addRow([title]).font = { bold: true, size: 14 }
    ws.addRow([])
    for (const [label, kind, value] of about) {
      const r = ws.addRow([label, cellValue(kind, value)])
      r.getCell(1).font = BOLD
      const fmt = FORMATS[kind]
      if (fmt) r.getCell(2).numFmt = fmt
      r.getCell(2).alignment = { horizontal: 'left' }
    }
  }

  /**
   * A sheet of a table: the header row (frozen with the first `freezeColumns` columns), a row per
   * item, then the totals rows, each an array of raw values in column order formatted by the columns.
   */
  table<T>(
    name: string,
    columns: ReadonlyArray<XlsxColumn<T>>,
    rows: Iterable<T>,
    totals: ReadonlyArray<ReadonlyArray<Raw>> = [],
    freezeColumns = 0,
  ): ExcelJS.Worksheet {
    const ws = this.#wb.addWorksheet(sheetName(name), {
      views: [{ state: 'frozen', xSplit: freezeColumns, ySplit: 1 }],
    })
    ws.columns = columns.map((c) => ({
      header: c.header,
      width: c.width ?? (c.kind === 'money' ? 14 : c.kind === 'date' ? 12 : Math.max(10, c.header.length + 2)),
      style: FORMATS[c.kind] ? { numFmt: FORMATS[c.kind]! } : {},
    }))
    const header = ws.getRow(1)
    header.font = BOLD
    header.eachCell((cell) => {
      cell.fill = HEADER_FILL
    })
    let count = 0
    for (const row of rows) {
      ws.addRow(columns.map((c) => cellValue(c.kind, c.value(row))))
      count++
    }
    if (columns.length > 0)
      ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1 + count, column: columns.length } }
    for (const t of totals) {
      const r = ws.addRow(columns.map((c, i) => cellValue(c.kind, t[i])))
      r.font = BOLD
      r.eachCell({ includeEmpty: true }, (cell) => {
        cell.border = TOTAL_BORDER
      })
    }
    return ws
  }

  /**
   * A sheet whose rows each have their own kind (a statement: a row per figure, a column per period):
   * the header row, then [label, kind, values...] rows; `bold` rows are totals-like.
   */
  grid(
    name: string,
    header: readonly string[],
    rows: ReadonlyArray<{ label: string; kind: CellKind; values: readonly Raw[]; bold?: boolean }>,
  ): ExcelJS.Worksheet {
    const ws = this.#wb.addWorksheet(sheetName(name), { views: [{ state: 'frozen', xSplit: 1, ySplit: 1 }] })
    ws.columns = header.map((h, i) => ({ header: h, width: i === 0 ? 40 : 16 }))
    ws.getRow(1).font = BOLD
    ws.getRow(1).eachCell((cell) => {
      cell.fill = HEADER_FILL
    })
    for (const r of rows) {
      const row = ws.addRow([r.label, ...r.values.map((v) => cellValue(r.kind, v))])
      const fmt = FORMATS[r.kind]
      if (fmt) for (let i = 2; i <= r.values.length + 1; i++) row.getCell(i).numFmt = fmt
      if (r.bold) {
        row.font = BOLD
        row.eachCell({ includeEmpty: true }, (cell) => {
          cell.border = TOTAL_BORDER
        })
      }
    }
    return ws
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.#wb.xlsx.writeBuffer())
  }
}

/** Totals of money columns in whole cents, as the JSON's amounts: sums without float drift. */
export function sumMoney<T>(rows: Iterable<T>, value: (row: T) => number): number {
  let cents = 0
  for (const r of rows) cents += Math.round(value(r) * 100)
  return cents / 100
}
