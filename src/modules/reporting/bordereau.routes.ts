// Insurer bordereaux over HTTP (docs/reporting.md): reinsurance:read, staff only; JSON, CSV or XLSX
// (`format=` or the Accept header, report-format.ts). Handlers translate; the service decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { claimsCsv, premiumCsv } from './bordereau.csv.ts'
import { claimsXlsx, premiumXlsx } from './bordereau.xlsx.ts'
import { reportFormat, sendXlsx, xlsxContent } from './report-format.ts'
import { BordereauParams, BordereauQuery, ClaimsBordereauSchema, PremiumBordereauSchema } from './bordereau.schemas.ts'
import type { BordereauService } from './bordereau.service.ts'

const TAGS = ['Reports']
const READ = { permission: 'reinsurance:read' }
const STAFF = "For the administrator's staff: a dealer-side user gets 403 permission_denied."
const PERIOD =
  'month is an accounting month YYYY-MM that has begun in the tenant’s time zone (the current month reports to date); a malformed or future month is 422 `report_period_invalid` naming month. An unknown insurer (or any account holder that is not an insurer, or another tenant’s) is 404 `risk_bearer_not_found`.'
const FORMAT =
  'JSON by default; CSV (RFC 4180, a header row, LINE and TOTAL records) with `format=csv` or `Accept: text/csv`; XLSX (a Report sheet, then the lines with their totals rows: money as numbers formatted #,##0.00, dates as dates) with `format=xlsx` or `Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`. An unknown format is 400 `validation_failed` naming format.'

const twoFormats = (ref: string, csvExample: string) => ({
  description: 'The bordereau',
  content: {
    'application/json': { schema: Type.Unsafe<Record<string, unknown>>({ $ref: `${ref}#` }) },
    'text/csv': { schema: Type.String({ examples: [csvExample] }) },
    ...xlsxContent,
  },
})

/** CSV when asked by the query, or by an Accept header that names text/csv before (or without) JSON. */
export function wantsCsv(req: FastifyRequest<{ Querystring: { format?: 'json' | 'csv' } }>): boolean {
  if (req.query.format !== undefined) return req.query.format === 'csv'
  const accept = (req.headers.accept ?? '').toLowerCase()
  const csv = accept.indexOf('text/csv')
  const json = accept.indexOf('application/json')
  return csv >= 0 && (json < 0 || csv < json)
}

export function sendCsv(reply: FastifyReply, name: string, text: string) {
  reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`)
  return reply.send(Buffer.from(text, 'utf8'))
}

export const bordereauRoutes: FastifyPluginAsyncTypebox<{ service: BordereauService }> = async (app, { service }) => {
  app.addSchema(PremiumBordereauSchema)
  app.addSchema(ClaimsBordereauSchema)

  app.get(
    '/api/reports/insurers/:insurerId/bordereaux/premium',
    {
      schema: {
        tags: TAGS,
        operationId: 'getInsurerPremiumBordereau',
        summary: "An insurer's premium bordereau for a month",
        description: `One line per contract entry posted in the month on the insurer's DISBURSEMENT_PAYABLE: WRITTEN (finalized), CANCELLED (the refunded shares, negative), REINSTATED (a cancel reversed), ADJUSTED (refinalize or rerate differences); the premium (PREMIUM, CLIP_PREMIUM), reserve (RESERVE) and other amounts, the contract's dealer, product, plan, term and dates, its cession; totals per transaction and net, equal to the journal's sums. ${PERIOD} ${FORMAT} ${STAFF}`,
        params: BordereauParams,
        querystring: BordereauQuery,
        response: {
          200: twoFormats(
            'InsurerPremiumBordereau',
            'recordType,transaction,count,postedOn,journalEntryId,contractNumber,...\r\nLINE,WRITTEN,,2026-11-20,4101,VSCPL-00A004352,...\r\n',
          ),
          ...problemResponses(404, 422),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const b = await service.premium(authenticatedContext(req), req.params.insurerId, req.query.month)
      const name = `premium-bordereau-${b.insurer.id}-${b.month}`
      switch (reportFormat(req, ['csv', 'xlsx'])) {
        case 'csv':
          return sendCsv(reply as FastifyReply, name, premiumCsv(b))
        case 'xlsx':
          return sendXlsx(reply as FastifyReply, name, await premiumXlsx(b))
        default:
          return b
      }
    },
  )

  app.get(
    '/api/reports/insurers/:insurerId/bordereaux/claims',
    {
      schema: {
        tags: TAGS,
        operationId: 'getInsurerClaimsBordereau',
        summary: "An insurer's claims bordereau for a month",
        description: `The claims the insurer bears (the payee of the contract's RESERVE line): every payment posted in the month, and what is authorized and unpaid at month end (payment requests committed by then less what was paid or released by then; claims authorized by then and not yet invoiced, at their authorized payable); totals. ${PERIOD} ${FORMAT} ${STAFF}`,
        params: BordereauParams,
        querystring: BordereauQuery,
        response: {
          200: twoFormats(
            'InsurerClaimsBordereau',
            'recordType,count,claimNumber,contractNumber,...\r\nPAID,,CLM-202611-000512,VSCPL-00A004352,...\r\n',
          ),
          ...problemResponses(404, 422),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const b = await service.claims(authenticatedContext(req), req.params.insurerId, req.query.month)
      const name = `claims-bordereau-${b.insurer.id}-${b.month}`
      switch (reportFormat(req, ['csv', 'xlsx'])) {
        case 'csv':
          return sendCsv(reply as FastifyReply, name, claimsCsv(b))
        case 'xlsx':
          return sendXlsx(reply as FastifyReply, name, await claimsXlsx(b))
        default:
          return b
      }
    },
  )
}
