// GAP auto-cancel over HTTP (spec §4.3, docs/cancellations.md "GAP"): the GAP contracts due for
// cancellation and the cancel of one. The static segment lives beside /contracts/{contractId}.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { IntegerId, problemResponses } from '../../platform/http/schemas.ts'
import type { GapAutoCancel } from './gap-autocancel.service.ts'
import { GapCancelBodySchema, GapDueQuerySchema, GapDueSchema } from './gap-autocancel.schemas.ts'

const TAGS = ['Cancellations']
const dueRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'GapCancelDue#' })
const cancelRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Cancel#' })

export const gapAutoCancelRoutes: FastifyPluginAsyncTypebox<{ gap: GapAutoCancel }> = async (app, { gap }) => {
  app.addSchema(GapDueSchema)

  app.get(
    '/api/contracts/autocancelgap',
    {
      schema: {
        tags: TAGS,
        operationId: 'listGapCancelsDue',
        summary: 'List the GAP contracts due for cancellation',
        description: [
          'GAP contracts in force (FINALIZED or ACTIVE) that something ended as of `asOf` (default today): a reported payoff, refinance, sale, repossession or total loss (a cancel request whose reason ends GAP, REQUESTED with its documents, dated on or before asOf), or a loan that matured before the GAP term ends (its last payment: first payment date + (term − 1) months, else sale date + term).',
          'One row per contract, by contract id, with the earlier trigger (a reported ending on the same day wins), the date it would be cancelled on and the reason. Bounded by limit/offset, the total in X-Total-Count. Dealer-side users see their dealers only.',
        ].join(' '),
        querystring: GapDueQuerySchema,
        response: { 200: Type.Array(dueRef), ...problemResponses(422) },
      },
      config: { permission: 'cancellations:read' },
    },
    async (req, res) => {
      const { asOf, dealerId } = req.query
      return sendList(res, await gap.due(authenticatedContext(req), { asOf, dealerId }, listWindow(req.query)))
    },
  )

  app.post(
    '/api/contracts/autocancelgap/:contractId',
    {
      schema: {
        tags: TAGS,
        operationId: 'createGapCancel',
        summary: 'Cancel a GAP contract due for cancellation, with its GAP reason',
        description: [
          "A reported ending: its cancel request is approved and processed on the request's date and facts (the request becomes PROCESSED). A matured loan: a cancel by the administrator with the rate book's payoff reason, on the maturity date.",
          'The cancel is the cancel flow\'s (docs/cancellations.md "Processing"): one entry, the contract CANCELLED, the payments (201, the cancel).',
          "409 gap_cancel_not_due when the contract is not a GAP contract in force or nothing ends it as of asOf; the cancel flow's 409s and 422s otherwise. 404 for a contract the caller cannot see.",
        ].join(' '),
        params: Type.Object({ contractId: IntegerId('Contract id') }),
        body: GapCancelBodySchema,
        response: { 201: cancelRef, ...problemResponses(404, 409, 422, 423) },
      },
      config: { permission: 'cancellations:approve' },
    },
    async (req, res) => {
      const cancel = await gap.cancel(authenticatedContext(req), req.params.contractId, req.body)
      res.code(201)
      return cancel
    },
  )
}
