// Payout runs over HTTP (docs/payouts.md). Runs finance:write; reads finance:read, dealer-side users
// reaching only their account holders' payouts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { Paged, problemResponses } from '../../platform/http/schemas.ts'
import { PayoutRunBodySchema, PayoutRunIdParams, PayoutRunQuerySchema, PayoutRunSchema } from './payout.schemas.ts'
import type { PayoutService } from './payout.service.ts'

const TAGS = ['Payouts']
const runRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'PayoutRun#' })

export const payoutRoutes: FastifyPluginAsyncTypebox<{ service: PayoutService }> = async (app, { service }) => {
  app.addSchema(PayoutRunSchema)

  app.post(
    '/api/payoutruns',
    {
      schema: {
        tags: TAGS,
        operationId: 'createPayoutRun',
        summary: 'Pay out what is due to payees (or, with dryRun, show it)',
        description:
          'Per payee: the REFUND_PAYABLE/DISBURSEMENT_PAYABLE balances due as of asOf and the open claim payment requests (CLAIM_PAYABLE: claims authorized, payment requested on or before asOf, not on hold), what the payee owes back netted against them; a payee netting to 0 or less gets nothing. One CASH_DISBURSED entry per payee; cancel refunds paid become PAID; each claim request paid in full gets its payment recorded (the claim PAID). 201 with the run; 200 with the plan for a dry run (nothing written). 422 payout_run_invalid names purposes, asOf or payeeIds[i] (unknown_reference). 409 ledger_period_closed when today is in the closed period; 409 claim_state_conflict when a claim request changed during the run (nothing written; run again).',
        body: PayoutRunBodySchema,
        response: { 200: runRef, 201: runRef, ...problemResponses(409, 422) },
      },
      config: { permission: 'finance:write' },
    },
    async (req, res) => {
      const run = await service.run(authenticatedContext(req), req.body)
      if (run.id === null) return run
      res.code(201).header('location', `/api/payoutruns/${run.id}`)
      return run
    },
  )

  app.get(
    '/api/payoutruns',
    {
      schema: {
        tags: TAGS,
        operationId: 'listPayoutRuns',
        summary: 'List payout runs (paged), newest first',
        description:
          'Filters: payeeId (runs that paid it), asOfFrom/asOfTo (inclusive). Dealer-side users see only runs paying their account holders, with only those payouts.',
        querystring: PayoutRunQuerySchema,
        response: { 200: Paged(runRef, 'PayoutRuns'), ...problemResponses() },
      },
      config: { permission: 'finance:read' },
    },
    async (req) => {
      const { pageNumber, pageSize, payeeId, asOfFrom, asOfTo } = req.query
      const window = pageWindow({ pageNumber, pageSize })
      const r = await service.list(authenticatedContext(req), { payeeId, asOfFrom, asOfTo }, window)
      return toPage(r.items, r.totalCount, window)
    },
  )

  app.get(
    '/api/payoutruns/:payoutRunId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getPayoutRun',
        summary: 'Read a payout run with its payouts',
        params: PayoutRunIdParams,
        response: { 200: runRef, ...problemResponses(404) },
      },
      config: { permission: 'finance:read' },
    },
    async (req) => service.get(authenticatedContext(req), req.params.payoutRunId),
  )
}
