// Reinsurance treaties over HTTP (docs/reporting.md): reinsurance:read / reinsurance:write, staff only.
// Handlers translate; the service decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../platform/http/patch.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import type { TreatyFilter } from './treaty.repository.ts'
import {
  CreateReinsuranceTreatyBody,
  ReinsuranceTreatySchema,
  TREATY_EXAMPLE,
  TreatyListQuery,
  TreatyParams,
} from './treaty.schemas.ts'
import type { TreatyService } from './treaty.service.ts'

const TAGS = ['Reinsurance']
const READ = { permission: 'reinsurance:read' }
const WRITE = { permission: 'reinsurance:write' }
const treatyRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ReinsuranceTreaty#' })
const Deleted = Type.Null({ description: 'Deleted; no body.' })
const STAFF = "For the administrator's staff: a dealer-side user gets 403 permission_denied."
const CHECKS =
  'shareBps, cedingFeeBps and administratorFeeBps are whole basis points from 0 to 10000 (422 `reinsurance_treaty_invalid` naming the field); reinsuranceCompanyId must be a reinsurance company, dealerIds dealers, dealerGroupIds dealer groups, productIds products and programIds programs of the tenant (422 `reinsurance_treaty_invalid`, `unknown_reference` naming each); at least one dealer or group and one product or program; effectiveTo not before effectiveFrom.'
const OVERLAP =
  'Two treaties in force on a common day may not name a common dealer (or dealer group) and a common product (or program): 422 `reinsurance_treaty_overlap` naming the other treaty (`conflictingTreaties`). A dealer carved out of its group, or a program out of its product, is allowed: the more specific treaty cedes the sale.'

export const treatyRoutes: FastifyPluginAsyncTypebox<{ service: TreatyService }> = async (app, { service }) => {
  app.addSchema(ReinsuranceTreatySchema)

  app.get(
    '/api/reinsurance/treaties',
    {
      schema: {
        tags: TAGS,
        operationId: 'listReinsuranceTreaties',
        summary: "List the tenant's reinsurance treaties",
        description: `Filtered by reinsurance company, dealer, dealer group, product, program (treaties naming it) and asOf (in force that day); ordered by id; bounded by limit/offset, the total in X-Total-Count. ${STAFF}`,
        querystring: TreatyListQuery,
        response: {
          200: Type.Array(treatyRef, {
            examples: [[TREATY_EXAMPLE]],
            headers: { 'X-Total-Count': Type.Integer({ description: 'Treaties matching the query.' }) },
          }),
          ...problemResponses(),
        },
      },
      config: READ,
    },
    async (req, reply) => {
      const { limit: _l, offset: _o, ...rest } = req.query
      const filter: TreatyFilter = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined))
      return sendList(reply, await service.list(authenticatedContext(req), filter, listWindow(req.query)))
    },
  )

  app.post(
    '/api/reinsurance/treaties',
    {
      schema: {
        tags: TAGS,
        operationId: 'createReinsuranceTreaty',
        summary: 'Add a reinsurance treaty',
        description: `A quota share of the claims reserve of the contracts sold by its dealers (or the dealers of its groups) of its products (or programs) on a sale date it is in force; shareBps defaults to 10000 (100 %), the fees to 0. ${CHECKS} ${OVERLAP} Audited. ${STAFF}`,
        body: CreateReinsuranceTreatyBody,
        response: { 201: treatyRef, ...problemResponses(415, 422) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const view = await service.create(authenticatedContext(req), req.body)
      setEtag(reply, view.version)
      reply.code(201).header('location', `/api/reinsurance/treaties/${view.id}`)
      return view
    },
  )

  app.get(
    '/api/reinsurance/treaties/:treatyId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getReinsuranceTreaty',
        summary: 'Read a reinsurance treaty',
        description: STAFF,
        params: TreatyParams,
        response: { 200: treatyRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) => {
      const view = await service.get(authenticatedContext(req), req.params.treatyId)
      setEtag(reply, view.version)
      return view
    },
  )

  app.patch(
    '/api/reinsurance/treaties/:treatyId',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateReinsuranceTreaty',
        summary: 'Change a reinsurance treaty',
        description: `JSON Patch or JSON Merge Patch, as for every PATCH; every field may change (closing a treaty is setting its effectiveTo). The result is validated as a whole (422), then ${CHECKS} ${OVERLAP} Contracts already ceded keep their cession as sold (terms.cession). If-Match is honoured (412). Audited. ${STAFF}`,
        params: TreatyParams,
        body: PatchBody({ effectiveTo: '2026-12-31' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: treatyRef, ...problemResponses(404, 412, 415, 422) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const view = await service.patch(
        authenticatedContext(req),
        req.params.treatyId,
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(reply, view.version)
      return view
    },
  )

  app.delete(
    '/api/reinsurance/treaties/:treatyId',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteReinsuranceTreaty',
        summary: 'Delete a reinsurance treaty',
        description: `A treaty entered by mistake. One that ceded a contract is kept: 409 \`reinsurance_treaty_in_use\` (with \`contractsCeded\`); close it with PATCH effectiveTo. If-Match is honoured (412). Audited. ${STAFF}`,
        params: TreatyParams,
        response: { 204: Deleted, ...problemResponses(404, 409, 412) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      await service.remove(authenticatedContext(req), req.params.treatyId, expectedVersion(req))
      return reply.code(204).send(null)
    },
  )
}
