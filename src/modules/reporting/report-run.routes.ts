// Report runs over HTTP (docs/reporting.md "Report runs"): reinsurance:read / reinsurance:write, staff
// only. Handlers translate; the service decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { claimsCsv, premiumCsv } from './bordereau.csv.ts'
import { sendCsv, wantsCsv } from './bordereau.routes.ts'
import type { ClaimsBordereau, PremiumBordereau } from './bordereau.service.ts'
import type { RunFilter } from './report-run.repository.ts'
import {
  ReportDocumentParams,
  ReportDocumentQuery,
  ReportRunListQuery,
  ReportRunParams,
  ReportRunSchema,
  RUN_EXAMPLE,
  StartReportRunBody,
} from './report-run.schemas.ts'
import type { ReportRunService } from './report-run.service.ts'
import { statementCsv } from './statement.csv.ts'
import type { ReinsuranceStatement } from './statement.service.ts'

const TAGS = ['Reports']
const READ = { permission: 'reinsurance:read' }
const WRITE = { permission: 'reinsurance:write' }
const runRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ReportRun#' })
const STAFF = "For the administrator's staff: a dealer-side user gets 403 permission_denied."

export const reportRunRoutes: FastifyPluginAsyncTypebox<{
  service: ReportRunService
  /** Asks the background loop for a pass (a run just queued). */
  wake: () => void
}> = async (app, { service, wake }) => {
  app.addSchema(ReportRunSchema)

  app.post(
    '/api/reports/runs',
    {
      schema: {
        tags: TAGS,
        operationId: 'createReportRun',
        summary: 'Produce all the reports of a kind for a closed month',
        description: `A job producing the frozen reinsurance statements (or premium, or claims bordereaux) of a closed month (its last day on or before booksClosedThrough; else 422 \`report_period_invalid\` naming period) for riskBearerIds, by default every reinsurance company (insurer) of the tenant; an id of another kind is 422 \`report_run_invalid\` naming it. 201 with Location; the same kind, month and risk bearers again: 200 with the existing run (a report already frozen is reused, never produced twice). Worked in the background under a lease, resumed after its cursor by another instance when its own dies. Audited \`report_run.created\`. ${STAFF}`,
        body: StartReportRunBody,
        response: {
          200: { ...runRef, description: 'The run of the same kind, month and risk bearers, already requested.' },
          201: { ...runRef, description: 'The run, queued.' },
          ...problemResponses(415, 422),
        },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const { created, run } = await service.start(authenticatedContext(req), req.body)
      if (created) {
        wake()
        reply.code(201).header('location', `/api/reports/runs/${run.id}`)
      }
      return run
    },
  )

  app.get(
    '/api/reports/runs',
    {
      schema: {
        tags: TAGS,
        operationId: 'listReportRuns',
        summary: 'List report runs',
        description: `Newest first, filtered by kind, period and status; bounded by limit/offset, the total in X-Total-Count. ${STAFF}`,
        querystring: ReportRunListQuery,
        response: {
          200: Type.Array(runRef, {
            examples: [[RUN_EXAMPLE]],
            headers: { 'X-Total-Count': Type.Integer({ description: 'Runs matching the query.' }) },
          }),
          ...problemResponses(),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const filter: RunFilter = {
        ...(req.query.kind === undefined ? {} : { kind: req.query.kind }),
        ...(req.query.period === undefined ? {} : { period: req.query.period }),
        ...(req.query.status === undefined ? {} : { status: req.query.status }),
      }
      return sendList(reply, await service.list(authenticatedContext(req), filter, listWindow(req.query)))
    },
  )

  app.get(
    '/api/reports/runs/:reportRunId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getReportRun',
        summary: 'A report run: status, progress and its documents',
        description: `progress.done of progress.total risk bearers; each frozen document with its link. Another tenant's run is 404 \`report_run_not_found\`. ${STAFF}`,
        params: ReportRunParams,
        response: { 200: runRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.get(authenticatedContext(req), req.params.reportRunId),
  )

  app.get(
    '/api/reports/runs/:reportRunId/documents/:riskBearerId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getReportRunDocument',
        summary: 'A document of a report run, as frozen',
        description: `The stored report of one of the run's risk bearers, exactly as frozen: a ReinsuranceStatement, PremiumBordereau or ClaimsBordereau (by the run's kind). JSON by default; CSV (RFC 4180, the report's own CSV) with \`format=csv\` or \`Accept: text/csv\`. 404 \`report_document_not_found\` for a risk bearer not of the run or not produced yet; 404 \`report_run_not_found\`. ${STAFF}`,
        params: ReportDocumentParams,
        querystring: ReportDocumentQuery,
        response: {
          200: {
            description: 'The frozen report',
            content: {
              'application/json': {
                schema: Type.Object(
                  {},
                  {
                    additionalProperties: true,
                    description:
                      'A ReinsuranceStatement, PremiumBordereau or ClaimsBordereau (see those schemas), as frozen.',
                    examples: [
                      {
                        insurer: { id: 29, insurerCode: 'INS-FCI', name: 'Frontier Casualty' },
                        month: '2026-10',
                        from: '2026-10-01',
                        to: '2026-10-31',
                        generatedAt: '2026-11-02T18:00:00.000Z',
                        paid: [],
                        outstanding: [],
                        totals: { paid: { count: 0, amount: 0 }, outstanding: { count: 0, amount: 0 } },
                      },
                    ],
                  },
                ),
              },
              'text/csv': {
                schema: Type.String({
                  examples: ['recordType,key,column,from,to,...\r\nTOTAL,,MTD,2026-10-01,2026-10-31,...\r\n'],
                }),
              },
            },
          },
          ...problemResponses(404),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const { reportRunId, riskBearerId } = req.params
      const { kind, document } = await service.document(authenticatedContext(req), reportRunId, riskBearerId)
      if (!wantsCsv(req)) return document
      const month = String(document.month)
      switch (kind) {
        case 'REINSURANCE_STATEMENT':
          return sendCsv(
            reply as FastifyReply,
            `reinsurance-statement-${riskBearerId}-${month}`,
            statementCsv(document as unknown as ReinsuranceStatement),
          )
        case 'PREMIUM_BORDEREAU':
          return sendCsv(
            reply as FastifyReply,
            `premium-bordereau-${riskBearerId}-${month}`,
            premiumCsv(document as unknown as PremiumBordereau),
          )
        case 'CLAIMS_BORDEREAU':
          return sendCsv(
            reply as FastifyReply,
            `claims-bordereau-${riskBearerId}-${month}`,
            claimsCsv(document as unknown as ClaimsBordereau),
          )
      }
    },
  )
}
