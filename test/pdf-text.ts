// Reads rendered PDFs back in tests: the text of each page (through PDF.js, bundled by unpdf; pure
// JS, no canvas), the positioned text items, and the document information dictionary.
import { extractText, extractTextItems, getDocumentProxy, getMeta, type StructuredTextItem } from 'unpdf'

// PDF.js may transfer (detach) the buffer it is given: it always gets a copy, so the caller's
// bytes stay usable.
const copy = (bytes: Uint8Array) => new Uint8Array(bytes)

/** The text of each page, in page order. */
export async function extractPdfText(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(copy(bytes), { mergePages: false })
  return text
}

/** Each page's text items with their positions (PDF points, origin bottom-left). */
export async function extractPdfTextItems(bytes: Uint8Array): Promise<StructuredTextItem[][]> {
  const { items } = await extractTextItems(copy(bytes))
  return items
}

/** Each page's size in points, in page order. */
export async function pdfPageSizes(bytes: Uint8Array): Promise<Array<{ width: number; height: number }>> {
  const pdf = await getDocumentProxy(copy(bytes))
  try {
    const sizes: Array<{ width: number; height: number }> = []
    for (let i = 1; i <= pdf.numPages; i++) {
      const { view } = await pdf.getPage(i)
      sizes.push({ width: view[2]! - view[0]!, height: view[3]! - view[1]! })
    }
    return sizes
  } finally {
    await pdf.loadingTask.destroy()
  }
}

/** The document information dictionary (Title, Subject, Creator, CreationDate...). */
export async function pdfInfo(bytes: Uint8Array): Promise<Record<string, unknown>> {
  const { info } = await getMeta(copy(bytes))
  return info
}
