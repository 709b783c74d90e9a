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
