// Account-holder statements over HTTP (docs/statements.md): request one, read a request's status.
// Dealer-side users reach only their account holders; any other holder is a 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import {
  AccountHolderIdParams,
  StatementRequestBodySchema,
  StatementRequestIdParams,
  StatementRequestSchema,
} from './statement.schemas.ts'
import type { StatementService } from './statement.service.ts'

const TAGS = ['Statements']
const requestRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'StatementRequest#' })

export const statementRoutes: FastifyPluginAsyncTypebox<{ service: StatementService }> = async (app, { service }) => {
  app.addSchema(StatementRequestSchema)
  // Background runs finish (COMPLETED or FAILED) before the database they write to is closed.
  app.addHook('onClose', async () => service.idle())

  app.post(
    '/api/accountholders/:accountHolderId/statementrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'createStatementRequest',
        summary: "Request an account holder's statement for a period",
        description: [
          'Opening balance (lines dated before from), the lines dated from through to in order of date, entry and line, with a running balance, and the closing balance: Σ(debit − credit) over the holder’s accounts (or the one of `purpose`), positive when the holder owes.',
          'A statement of up to 2,000 lines is made at once: 201 with the COMPLETED request, its document and a signed download link (Location names the request).',
          'A larger one is made in the background: 202 with the QUEUED request and a Location to poll (getStatementRequest).',
          '422 statement_request_invalid names each bad field (from, to not a date, to before from); 404 for a holder the caller cannot see.',
        ].join(' '),
        params: AccountHolderIdParams,
        body: StatementRequestBodySchema,
        response: { 201: requestRef, 202: requestRef, ...problemResponses(404, 422) },
      },
      config: { permission: 'finance:write' },
    },
    async (req, res) => {
      const ctx = authenticatedContext(req)
      const { queued, request } = await service.request(ctx, req.params.accountHolderId, req.body)
      // Either way Location names the request: to poll while QUEUED, to read again once COMPLETED.
      res.header('location', `/api/accountholders/${request.accountHolderId}/statementrequests/${request.id}`)
      res.code(queued ? 202 : 201)
      return request
    },
  )

  app.get(
    '/api/accountholders/:accountHolderId/statementrequests/:statementRequestId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getStatementRequest',
        summary: 'Read a statement request: its status and, once COMPLETED, its document and a fresh signed link',
        description:
          'QUEUED or RUNNING while made in the background; COMPLETED; or FAILED with failureReason (also when the process making it stopped). 404 for a request of another holder, another tenant or a holder the caller cannot see.',
        params: StatementRequestIdParams,
        response: { 200: requestRef, ...problemResponses(404) },
      },
      config: { permission: 'finance:read' },
    },
    async (req) => service.get(authenticatedContext(req), req.params.accountHolderId, req.params.statementRequestId),
  )
}
