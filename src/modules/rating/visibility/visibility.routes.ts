// Dealer rate visibility (docs/rate-visibility.md): one dealer's entries (GET, and PUT replacing
// them as a whole, with ETag/If-Match), and every dealer's entries, filtered and bounded.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../../platform/http/etag.ts'
import { listWindow, sendList } from '../../../platform/http/pagination.ts'
import { problemResponses } from '../../../platform/http/schemas.ts'
import { validatedExcept } from '../../../platform/http/validation.ts'
import { MAX_ENTRIES } from './visibility.rules.ts'
import {
  DealerIdParams,
  ReplaceVisibilityBody,
  VISIBILITY_EXAMPLE,
  VisibilityEntrySchema,
  VisibilityListQuery,
} from './visibility.schemas.ts'
import type { RateVisibilityService } from './visibility.service.ts'

const TAGS = ['Dealer rate visibility']

/** The PUT body is checked by the service (shape and rules in one pass); path parameters as on every route. */
const bodyByService = validatedExcept('body')

export const rateVisibilityRoutes: FastifyPluginAsyncTypebox<{ service: RateVisibilityService }> = async (
  app,
  { service },
) => {
  app.addSchema(VisibilityEntrySchema)
  const list = Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'DealerRateVisibility#' }), {
    examples: [[VISIBILITY_EXAMPLE]],
  })

  app.get(
    '/api/dealers/ratevisibilities',
    {
      schema: {
        operationId: 'listRateVisibilities',
        tags: TAGS,
        summary: 'List the rate visibility of every dealer',
        description:
          'Entries of every dealer, filtered by dealerId and productId, ordered by dealer, product, program and plan, bounded by limit/offset; the total is in X-Total-Count. ' +
          'Dealers without entries sell nothing and have no rows here. Dealer-side users see only their own dealers.',
        querystring: VisibilityListQuery,
        response: { 200: list, ...problemResponses() },
      },
      config: { permission: 'rates:read' },
    },
    async (req, res) => {
      const q = req.query
      const filter = {
        ...(q.dealerId !== undefined ? { dealerId: q.dealerId } : {}),
        ...(q.productId !== undefined ? { productId: q.productId } : {}),
      }
      return sendList(res, await service.list(authenticatedContext(req), filter, listWindow(q)))
    },
  )

  app.get(
    '/api/dealers/:dealerId/ratevisibilities',
    {
      schema: {
        tags: TAGS,
        operationId: 'getDealerRateVisibility',
        summary: "Read a dealer's rate visibility",
        description:
          `Every entry of the dealer (at most ${MAX_ENTRIES}), ordered by product, program and plan. An empty list: the dealer may sell nothing. ` +
          'The ETag is the version of the dealer\'s set ("0" before it was ever written); send it as If-Match with the PUT.',
        params: DealerIdParams,
        response: { 200: list, ...problemResponses(404) },
      },
      config: { permission: 'rates:read' },
    },
    async (req, res) => {
      const { entries, version } = await service.forDealer(authenticatedContext(req), req.params.dealerId)
      setEtag(res, version)
      return entries
    },
  )

  app.put(
    '/api/dealers/:dealerId/ratevisibilities',
    {
      schema: {
        tags: TAGS,
        operationId: 'replaceDealerRateVisibility',
        summary: "Replace a dealer's rate visibility",
        description:
          "The body is the dealer's whole set: each entry lets the dealer sell a product, or only one program or plan of it, with optional markup limits. " +
          'Where several entries cover a plan, the most specific applies (plan, then program, then product). An empty list leaves the dealer with nothing to sell. ' +
          'Every bad field is listed at once (400, items named [i]; two entries for the same product, program and plan: [i] conflict). ' +
          "Ids must be catalogue items of the right kind (422 unknown_reference naming [i].productId, …). If-Match with the GET's ETag is honoured (412 when the set changed). " +
          'Audited; the reply is the new set, its ETag the new version.',
        params: DealerIdParams,
        body: ReplaceVisibilityBody,
        response: { 200: list, ...problemResponses(404, 412, 415, 422) },
      },
      validatorCompiler: bodyByService,
      config: { permission: 'rates:write' },
    },
    async (req, res) => {
      const { entries, version } = await service.replace(
        authenticatedContext(req),
        req.params.dealerId,
        req.body as unknown,
        expectedVersion(req),
      )
      setEtag(res, version)
      return entries
    },
  )
}
