// Reinsurance statements, loss ratios and the reconciliation over HTTP (docs/reporting.md):
// reinsurance:read; JSON, CSV or XLSX, and PDF for the statement (`format=` or the Accept header,
// report-format.ts). Handlers translate; the services decide who sees what.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { sendCsv } from './bordereau.routes.ts'
import { pdfContent, reportFormat, sendPdf, sendXlsx, xlsxContent } from './report-format.ts'
import type { ReportDocuments } from './report-document.service.ts'
import { lossRatiosCsv, reconciliationCsv, statementCsv, statementLinesCsv } from './statement.csv.ts'
import { lossRatiosXlsx, reconciliationXlsx, statementLinesXlsx, statementXlsx } from './statement.xlsx.ts'
import {
  LossRatioQuerySchema,
  LossRatiosSchema,
  ReconciliationQuery,
  ReconciliationSchema,
  ReinsuranceStatementSchema,
  StatementLinesQuery,
  StatementLinesSchema,
  StatementParams,
  StatementQuery,
} from './statement.schemas.ts'
import type { StatementService } from './statement.service.ts'

const TAGS = ['Reports']
const READ = { permission: 'reinsurance:read' }
const STAFF = "For the administrator's staff: a dealer-side user gets 403 permission_denied."
const WHO =
  "The administrator's staff see every company; a dealer-side user sees the companies with a treaty covering one of its dealers (directly or through the dealer's group); any other id, or another tenant's, is 404 `risk_bearer_not_found`. month is an accounting month YYYY-MM that has begun in the tenant's time zone; a malformed or future month is 422 `report_period_invalid` naming month."
const FORMAT =
  'JSON by default; CSV (RFC 4180, a header row and a record-type column) with `format=csv` or `Accept: text/csv`; XLSX (a Report sheet, then a sheet per section with a header row, frozen panes and totals rows: money as numbers formatted #,##0.00, dates as dates, loss ratios as percentages) with `format=xlsx` or `Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`. An unknown format is 400 `validation_failed` naming format.'
const PDF =
  " PDF with `format=pdf` or `Accept: application/pdf`: the administrator's letterhead, the company and the period, the four columns, by product and by vintage, footnotes (how earned premium is computed, the loss ratio), numbered pages."

const twoFormats = (ref: string, csvExample: string, pdf = false) => ({
  description: 'The report',
  content: {
    'application/json': { schema: Type.Unsafe<Record<string, unknown>>({ $ref: `${ref}#` }) },
    'text/csv': { schema: Type.String({ examples: [csvExample] }) },
    ...xlsxContent,
    ...(pdf ? pdfContent : {}),
  },
})

export const statementRoutes: FastifyPluginAsyncTypebox<{
  service: StatementService
  documents: ReportDocuments
}> = async (app, { service, documents }) => {
  app.addSchema(ReinsuranceStatementSchema)
  app.addSchema(StatementLinesSchema)
  app.addSchema(LossRatiosSchema)
  app.addSchema(ReconciliationSchema)

  app.get(
    '/api/reports/reinsurancecompanies/:reinsuranceCompanyId/statement',
    {
      schema: {
        tags: TAGS,
        operationId: 'getReinsuranceStatement',
        summary: "A reinsurance company's statement for a month",
        description: `The contracts ceded to the company (terms.cession), from the journal: written premium ceded, cancellations, net written, earned and unearned premium, claims paid, outstanding and incurred, ceding and administrator fees, underwriting result and loss ratio, in MTD, QTD, YTD and inception-to-date columns; totals, by product and by vintage (quarter of sale). ${WHO} ${FORMAT}${PDF}`,
        params: StatementParams,
        querystring: StatementQuery,
        response: {
          200: twoFormats(
            'ReinsuranceStatement',
            'recordType,key,column,from,to,writtenPremium,...,lossRatio\r\nTOTAL,,MTD,2026-11-01,2026-11-30,915.00,...,13.6157\r\n',
            true,
          ),
          ...problemResponses(404, 422),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const ctx = authenticatedContext(req)
      const format = reportFormat(req, ['csv', 'xlsx', 'pdf'])
      if (format === 'pdf') {
        const { statement, bytes } = await documents.statementPdf(ctx, req.params.reinsuranceCompanyId, req.query.month)
        return sendPdf(
          reply as FastifyReply,
          `reinsurance-statement-${statement.reinsuranceCompany.id}-${statement.month}`,
          bytes,
        )
      }
      const s = await service.statement(ctx, req.params.reinsuranceCompanyId, req.query.month)
      const name = `reinsurance-statement-${s.reinsuranceCompany.id}-${s.month}`
      if (format === 'csv') return sendCsv(reply as FastifyReply, name, statementCsv(s))
      if (format === 'xlsx') return sendXlsx(reply as FastifyReply, name, await statementXlsx(s))
      return s
    },
  )

  app.get(
    '/api/reports/reinsurancecompanies/:reinsuranceCompanyId/statement/lines',
    {
      schema: {
        tags: TAGS,
        operationId: 'listReinsuranceStatementLines',
        summary: 'The contracts behind a figure of a statement',
        description: `One line per contract with a non-zero amount for the figure in the column (default mtd), optionally of one product (code) and vintage; paged; \`total\` is the sum of every line of the filter, the statement's cell. ${WHO} ${FORMAT}`,
        params: StatementParams,
        querystring: StatementLinesQuery,
        response: {
          200: twoFormats(
            'ReinsuranceStatementLines',
            'recordType,figure,column,contractNumber,...,amount\r\nLINE,writtenPremium,MTD,VSC-PLAT-U-0126-00000004,...,457.50\r\n',
          ),
          ...problemResponses(404, 422),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const l = await service.statementLines(
        authenticatedContext(req),
        req.params.reinsuranceCompanyId,
        req.query.month,
        req.query,
      )
      const name = `reinsurance-statement-${l.reinsuranceCompany.id}-${l.month}-${l.figure}-${l.column}`
      switch (reportFormat(req, ['csv', 'xlsx'])) {
        case 'csv':
          return sendCsv(reply as FastifyReply, name, statementLinesCsv(l))
        case 'xlsx':
          return sendXlsx(reply as FastifyReply, name, await statementLinesXlsx(l))
        default:
          return l
      }
    },
  )

  app.get(
    '/api/reports/lossratios',
    {
      schema: {
        tags: TAGS,
        operationId: 'listLossRatios',
        summary: 'Loss ratios by dealer, dealer group, product, program, plan, term or vintage',
        description: `The gross book (every sold contract with a RESERVE line, whoever bears it) over the accounting dates from–to: written, cancelled and earned reserve, claims paid and incurred, loss ratio = incurred ÷ earned; grouped by the groupBy dimensions, paged; contracts counts those first posted in the period or holding unearned premium or an outstanding claim when it began. A range from a month's first day to a month's last day, both in closed months (booksClosedThrough), reads the month-end sums; any other range reckons every contract on its two days. A bad groupBy, a bad date, to after today or from after to: 422 \`report_period_invalid\` naming each. ${FORMAT} ${STAFF}`,
        querystring: LossRatioQuerySchema,
        response: {
          200: twoFormats(
            'LossRatios',
            'dealerNumber,dealerName,...,lossRatio\r\n10001,Lone Star Honda,...,2.4676\r\n',
          ),
          ...problemResponses(422),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const r = await service.lossRatios(authenticatedContext(req), req.query)
      const name = `loss-ratios-${r.from}-${r.to}`
      switch (reportFormat(req, ['csv', 'xlsx'])) {
        case 'csv':
          return sendCsv(reply as FastifyReply, name, lossRatiosCsv(r))
        case 'xlsx':
          return sendXlsx(reply as FastifyReply, name, await lossRatiosXlsx(r))
        default:
          return r
      }
    },
  )

  app.get(
    '/api/reports/reconciliation',
    {
      schema: {
        tags: TAGS,
        operationId: 'getReportReconciliation',
        summary: "A month's reports tied to the ledger",
        description: `Each reinsurance statement's month figures (written, cancellations, claims incurred and paid, earned + unearned) and each insurer bordereau's totals, beside the journal's own sums of the accounts they come from; \`differences\` lists every check that does not tie (empty when all do). riskBearerId: one insurer or reinsurance company (404 \`risk_bearer_not_found\` otherwise). ${FORMAT} ${STAFF}`,
        querystring: ReconciliationQuery,
        response: {
          200: twoFormats(
            'Reconciliation',
            'recordType,report,riskBearerId,riskBearerCode,riskBearerName,figure,source,reported,ledger,difference\r\nCHECK,REINSURANCE_STATEMENT,39,LSRE,Lone Star Re,writtenPremium,...,915.00,915.00,0.00\r\n',
          ),
          ...problemResponses(404, 422),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const r = await service.reconciliation(authenticatedContext(req), req.query.month, req.query.riskBearerId)
      const name = `reconciliation-${r.month}${req.query.riskBearerId === undefined ? '' : `-${req.query.riskBearerId}`}`
      switch (reportFormat(req, ['csv', 'xlsx'])) {
        case 'csv':
          return sendCsv(reply as FastifyReply, name, reconciliationCsv(r))
        case 'xlsx':
          return sendXlsx(reply as FastifyReply, name, await reconciliationXlsx(r))
        default:
          return r
      }
    },
  )
}
