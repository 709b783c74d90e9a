// The formats a report is answered in (docs/reporting.md "Formats"): JSON by default, CSV, XLSX and,
// for the reinsurance statement, PDF. `format=` in the query decides (its enum, per route, is checked
// by the schema: an unknown value is 400 `validation_failed` naming format); without it the Accept
// header does: the offered media type named first wins, JSON when none is named.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'

export type ReportFormat = 'json' | 'csv' | 'xlsx' | 'pdf'

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

const MEDIA: Record<ReportFormat, string> = {
  json: 'application/json',
  csv: 'text/csv',
  xlsx: XLSX_MEDIA_TYPE,
  pdf: 'application/pdf',
}

/** The format asked for: the query's format, else the offered type the Accept header names first. */
export function reportFormat(req: FastifyRequest, offered: readonly ReportFormat[]): ReportFormat {
  const asked = (req.query as { format?: string } | undefined)?.format
  if (asked !== undefined) return (offered as readonly string[]).includes(asked) ? (asked as ReportFormat) : 'json'
  const accept = (req.headers.accept ?? '').toLowerCase()
  let best: ReportFormat = 'json'
  let at = accept.indexOf(MEDIA.json)
  if (at < 0) at = Number.POSITIVE_INFINITY
  for (const f of offered) {
    const i = accept.indexOf(MEDIA[f])
    if (i >= 0 && i < at) [best, at] = [f, i]
  }
  return best
}

export function sendXlsx(reply: FastifyReply, name: string, bytes: Uint8Array) {
  reply.type(XLSX_MEDIA_TYPE).header('content-disposition', `attachment; filename="${name}.xlsx"`)
  return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
}

export function sendPdf(reply: FastifyReply, name: string, bytes: Uint8Array) {
  reply.type('application/pdf').header('content-disposition', `inline; filename="${name}.pdf"`)
  return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
}

/** The OpenAPI content entries of the binary formats: a string/binary schema and an example. */
export const xlsxContent = {
  [XLSX_MEDIA_TYPE]: {
    schema: Type.String({
      format: 'binary',
      description: 'An Office Open XML workbook (ZIP): a Report sheet, then one sheet per section.',
      examples: ['PK\u0003\u0004...'],
    }),
  },
}
export const pdfContent = {
  'application/pdf': {
    schema: Type.String({
      format: 'binary',
      description: 'A PDF document, US Letter, numbered pages.',
      examples: ['%PDF-1.7 ...'],
    }),
  },
}
