// Text measurement and formatting shared by the service's PDFs (the contract document, statements):
// domain-free helpers over pdf-lib's standard fonts.
import type { PDFFont } from 'pdf-lib'

/** The Creator and Producer of every PDF the service makes. */
export const PDF_CREATOR = 'vpp-admin-service'

// Glyph advance widths per font in thousandths of the font size. The standard fonts' metrics never
// change, so the cache is shared by every document; sanitized text holds at most a few hundred
// distinct characters. Kerning is left out on purpose: drawText does not kern either.
const glyphWidths = new Map<string, Map<number, number>>()

/** The width of `text` (one line, already encodable by the font) at `size` points. */
export function textWidth(font: PDFFont, size: number, text: string): number {
  let widths = glyphWidths.get(font.name)
  if (!widths) {
    widths = new Map()
    glyphWidths.set(font.name, widths)
  }
  let total = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let width = widths.get(code)
    if (width === undefined) {
      width = font.widthOfTextAtSize(String.fromCharCode(code), 1000)
      widths.set(code, width)
    }
    total += width
  }
  return (total * size) / 1000
}

/** "1234567" → "1,234,567": digits grouped by thousands, the US convention. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/**
 * Text for pages written as Latin-1 bytes (the statements): WinAnsi without cp1252's 0x80-0x9F
 * extras, so printable ASCII and Latin-1; dashes as '-'; a letter outside them as its base letter
 * when it has one ("ő" → "o", "ł" → "?"), anything else '?'; line breaks and tabs become spaces.
 */
export function latin1PdfText(value: string): string {
  let out = ''
  for (const ch of value.normalize('NFC')) {
    const code = ch.codePointAt(0)!
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += ch
    else if (code === 0x09 || code === 0x0a || code === 0x0d) out += ' '
    else if (code === 0x2013 || code === 0x2014 || code === 0x2212) out += '-'
    else {
      const base = ch.normalize('NFD').codePointAt(0)!
      out += base !== code && base >= 0x20 && base <= 0x7e ? String.fromCodePoint(base) : '?'
    }
  }
  return out
}
