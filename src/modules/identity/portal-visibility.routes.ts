// /api/portalvisibilitygroups (spec §4.3): the DEALER membership groups that decide which dealers
// dealer-side users see, by id and by code, their dealers, and a bulk update
// (docs/portal-visibility.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { platformErrors } from '../../platform/http/errors.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import {
  BulkUpdateBody,
  CreateGroupBody,
  DealerListQuery,
  DealerSummarySchema,
  GroupCodeParams,
  GroupIdParams,
  GroupListQuery,
  MAX_BULK_ITEMS,
  MAX_DEALERS_PER_GROUP,
  PortalVisibilityGroupSchema,
} from './portal-visibility.schemas.ts'
import { groupEtag, type PortalVisibilityService } from './portal-visibility.service.ts'

const TAGS = ['Portal visibility groups']
const READ = { permission: 'membership:read' }
// Groups decide what users see: changing them is user administration.
const WRITE = { permission: 'users:write' }

const groupRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'PortalVisibilityGroup#' })
const dealerRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'PortalVisibilityGroupDealer#' })

const DEALERS_DESCRIPTION = 'Dealer summaries, ascending by id, bounded by limit/offset; the total is in X-Total-Count.'
const READ_SCOPE =
  'Dealer-side callers (members of any DEALER group) see only the groups they belong to; any other group is 404.'

/** If-Match against the ETag the group has now (412 when it names none of it). */
function ifMatch(req: FastifyRequest) {
  return (current: string) => {
    const header = req.headers['if-match']
    if (header === undefined) return
    const tags = header.split(',').map((t) => t.trim())
    if (tags.includes('*') || tags.includes(current)) return
    throw platformErrors.create('precondition_failed', `If-Match ${header} does not match the current ETag ${current}`)
  }
}

export const portalVisibilityRoutes: FastifyPluginAsyncTypebox<{ groups: PortalVisibilityService }> = async (
  app,
  { groups },
) => {
  app.addSchema(PortalVisibilityGroupSchema)
  app.addSchema(DealerSummarySchema)

  app.get(
    '/api/portalvisibilitygroups',
    {
      schema: {
        tags: TAGS,
        operationId: 'listPortalVisibilityGroups',
        summary: 'List portal visibility groups',
        description: `Filtered, ordered by id, bounded by limit/offset; the total is in X-Total-Count. ${READ_SCOPE}`,
        querystring: GroupListQuery,
        response: { 200: Type.Array(groupRef), ...problemResponses() },
      },
      config: READ,
    },
    async (req, reply) => {
      const q = req.query
      const result = await groups.list(
        authenticatedContext(req),
        {
          ...(q.name !== undefined ? { name: q.name } : {}),
          ...(q.dealerId !== undefined ? { dealerId: q.dealerId } : {}),
        },
        listWindow(q),
      )
      return sendList(reply, result)
    },
  )

  app.post(
    '/api/portalvisibilitygroups',
    {
      schema: {
        tags: TAGS,
        operationId: 'createPortalVisibilityGroup',
        summary: 'Create a portal visibility group',
        description:
          'Creates a membership group of kind DEALER; users join it through `groups` on /api/v1/adminusers and from then on see only its dealers. ' +
          `The code is unique among the tenant's membership groups (409). Every dealer id must be a dealer of the tenant (422 naming \`dealerIds[i]\`); at most ${MAX_DEALERS_PER_GROUP}. Dealer-side callers are refused (403).`,
        body: CreateGroupBody,
        response: { 201: groupRef, ...problemResponses(409, 415, 422) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      const group = await groups.create(authenticatedContext(req), req.body)
      reply.code(201).header('location', `/api/portalvisibilitygroups/${group.id}`).header('etag', groupEtag(group))
      return group
    },
  )

  app.patch(
    '/api/portalvisibilitygroups',
    {
      schema: {
        tags: TAGS,
        operationId: 'updatePortalVisibilityGroups',
        summary: 'Bulk update portal visibility groups',
        description: [
          `Body (\`application/json\`): an array of 1–${MAX_BULK_ITEMS} items, each changing one group. \`id\` selects the group (with \`id\`, \`code\` is the group's new code); without \`id\`, \`code\` selects it.`,
          '`name`, `description`: replaced when given. Dealers: `dealerIds` replaces them, or `addDealerIds` / `removeDealerIds` change them (not both ways in one item; adding a present dealer or removing an absent one changes nothing).',
          `Every item applies, or none does (one transaction). Errors name the item by index (\`[1].addDealerIds[0]\`): unknown groups and dealers 422 \`unknown_reference\`; only taken codes 409 \`portal_visibility_group_code_taken\`; anything else 422 \`portal_visibility_bulk_update_invalid\` with every error. A group holds at most ${MAX_DEALERS_PER_GROUP} dealers.`,
          'The reply lists the changed groups as they are afterwards, in item order. Members see the new dealers on their next request. Dealer-side callers are refused (403).',
        ].join('\n\n'),
        body: BulkUpdateBody,
        consumes: ['application/json'],
        response: { 200: Type.Array(groupRef), ...problemResponses(409, 415, 422) },
      },
      config: WRITE,
      // The body is this route's own bulk format, not an RFC 6902 document.
      preValidation: async (req) => {
        if ((req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json-patch+json')) {
          throw platformErrors.create(
            'unsupported_media_type',
            'This bulk update is not a JSON Patch document; send application/json (docs/portal-visibility.md)',
          )
        }
      },
    },
    async (req) => groups.bulkUpdate(authenticatedContext(req), req.body),
  )

  app.get(
    '/api/portalvisibilitygroups/:portalVisibilityGroupId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getPortalVisibilityGroup',
        summary: 'Read a portal visibility group',
        description: READ_SCOPE,
        params: GroupIdParams,
        response: { 200: groupRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) => {
      const group = await groups.get(authenticatedContext(req), req.params.portalVisibilityGroupId)
      reply.header('etag', groupEtag(group))
      return group
    },
  )

  app.delete(
    '/api/portalvisibilitygroups/:portalVisibilityGroupId',
    {
      schema: {
        tags: TAGS,
        operationId: 'deletePortalVisibilityGroup',
        summary: 'Delete a portal visibility group',
        description:
          'Refused with 409 `portal_visibility_group_in_use` while users remain in the group: a user in no DEALER group is staff and sees every dealer, so members are moved first (PUT /api/v1/adminusers/{userId}). If-Match is honoured. Dealer-side callers are refused (403).',
        params: GroupIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...problemResponses(404, 409, 412) },
      },
      config: WRITE,
    },
    async (req, reply) => {
      await groups.remove(authenticatedContext(req), req.params.portalVisibilityGroupId, ifMatch(req))
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/api/portalvisibilitygroups/:portalVisibilityGroupId/dealers',
    {
      schema: {
        tags: TAGS,
        operationId: 'listPortalVisibilityGroupDealers',
        summary: 'Dealers of a portal visibility group',
        description: `${DEALERS_DESCRIPTION} ${READ_SCOPE}`,
        params: GroupIdParams,
        querystring: DealerListQuery,
        response: { 200: Type.Array(dealerRef), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) =>
      sendList(
        reply,
        await groups.dealers(authenticatedContext(req), req.params.portalVisibilityGroupId, listWindow(req.query)),
      ),
  )

  app.get(
    '/api/portalvisibilitygroups/code/:portalVisibilityGroupCode',
    {
      schema: {
        tags: TAGS,
        operationId: 'getPortalVisibilityGroupByCode',
        summary: 'Read a portal visibility group by code',
        description: `The code is matched exactly (case-sensitive). ${READ_SCOPE}`,
        params: GroupCodeParams,
        response: { 200: groupRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) => {
      const group = await groups.getByCode(authenticatedContext(req), req.params.portalVisibilityGroupCode)
      reply.header('etag', groupEtag(group))
      return group
    },
  )

  app.get(
    '/api/portalvisibilitygroups/code/:portalVisibilityGroupCode/dealers',
    {
      schema: {
        tags: TAGS,
        operationId: 'listPortalVisibilityGroupDealersByCode',
        summary: 'Dealers of a portal visibility group, by code',
        description: `${DEALERS_DESCRIPTION} ${READ_SCOPE}`,
        params: GroupCodeParams,
        querystring: DealerListQuery,
        response: { 200: Type.Array(dealerRef), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) =>
      sendList(
        reply,
        await groups.dealersByCode(
          authenticatedContext(req),
          req.params.portalVisibilityGroupCode,
          listWindow(req.query),
        ),
      ),
  )
}
