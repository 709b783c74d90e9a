// Account-holder routes (spec §4.3): for each kind its collection (GET, POST where listed) and its
// records (GET, PATCH); the cross-kind search; the administrator company; paged lien holders.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Clock } from '../../platform/clock.ts'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, pageWindow, sendList, toPage } from '../../platform/http/pagination.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../platform/http/patch.ts'
import { IntegerId, Paged, problemResponses } from '../../platform/http/schemas.ts'
import { ADMIN_COMPANY, KINDS, type KindDefinition } from './account-holder.kinds.ts'
import { toReply, toSummary } from './account-holder.mapper.ts'
import type { AccountHolderFilter } from './account-holder.repository.ts'
import {
  AccountHolderSearchQuery,
  AccountHolderSummarySchema,
  createBodySchema,
  idParams,
  listQuery,
  PagedLienHolderQuery,
  replySchema,
  replySchemaId,
} from './account-holder.schemas.ts'
import { mayRevealSensitive, type AccountHolderService } from './account-holder.service.ts'

const READ = { permission: 'accountholders:read' }
const WRITE = { permission: 'accountholders:write' }

function filterFrom(def: KindDefinition, q: Record<string, unknown>): AccountHolderFilter {
  const f: AccountHolderFilter = {}
  if (typeof q.name === 'string') f.name = q.name
  if (def.businessKeyField && typeof q[def.businessKeyField] === 'string')
    f.businessKey = q[def.businessKeyField] as string
  if (typeof q.state === 'string') f.state = q.state
  if (typeof q.status === 'string') f.status = q.status as AccountHolderFilter['status']
  if (typeof q.dealerGroupId === 'number') f.dealerGroupId = q.dealerGroupId
  if (typeof q.agentId === 'number') f.agentId = q.agentId
  return f
}

type TypeBoxApp = Parameters<FastifyPluginAsyncTypebox>[0]

/** The kind's nouns in operationIds (docs/openapi.md): `Dealer`/`Dealers`, `RepairFacility`/`RepairFacilities`. */
function operationNouns(def: KindDefinition): { one: string; many: string } {
  const one = replySchemaId(def)
  return { one, many: one.endsWith('y') ? `${one.slice(0, -1)}ies` : `${one}s` }
}

function registerKind(
  app: TypeBoxApp,
  def: KindDefinition,
  service: AccountHolderService,
  clock: Clock,
  methods: { create: boolean },
) {
  app.addSchema(replySchema(def))
  const ref = Type.Unsafe<Record<string, unknown>>({ $ref: `${replySchemaId(def)}#` })
  const one = `${def.path}/:${def.idParam}`
  const nouns = operationNouns(def)
  const idOf = (req: FastifyRequest) => (req.params as Record<string, number>)[def.idParam] as number
  const send = (req: FastifyRequest, res: FastifyReply, row: Awaited<ReturnType<AccountHolderService['get']>>) => {
    setEtag(res, row.version)
    return toReply(def, row, clock.now(), mayRevealSensitive(authenticatedContext(req)))
  }

  app.get(
    def.path,
    {
      schema: {
        tags: [def.tag],
        operationId: `list${nouns.many}`,
        summary: `List ${def.noun}s`,
        description: `Filtered, ordered by id, bounded by limit/offset; the total is in X-Total-Count. Dealer-side users see only the ${def.noun}s their groups grant.`,
        querystring: listQuery(def),
        response: { 200: Type.Array(ref), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => {
      const q = req.query as Record<string, unknown>
      const result = await service.list(authenticatedContext(req), def, filterFrom(def, q), listWindow(q))
      const now = clock.now()
      const reveal = mayRevealSensitive(authenticatedContext(req))
      return sendList(res, { items: result.rows.map((r) => toReply(def, r, now, reveal)), totalCount: result.total })
    },
  )

  if (methods.create) {
    app.post(
      def.path,
      {
        schema: {
          tags: [def.tag],
          operationId: `create${nouns.one}`,
          summary: `Create a ${def.noun}`,
          description: `${def.businessKeyField ? `${def.businessKeyField} is unique in the tenant (409 when taken). ` : ''}Referenced account holders must exist (422 naming the field).`,
          body: createBodySchema(def),
          response: { 201: ref, ...problemResponses(409, 415, 422) },
        },
        config: WRITE,
      },
      async (req, res) => {
        const row = await service.create(authenticatedContext(req), def, req.body as Record<string, unknown>)
        res.code(201).header('location', `${def.path}/${row.id}`)
        return send(req, res, row)
      },
    )
  }

  app.get(
    one,
    {
      schema: {
        tags: [def.tag],
        operationId: `get${nouns.one}`,
        summary: `Read a ${def.noun}`,
        params: idParams(def),
        response: { 200: ref, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => send(req, res, await service.get(authenticatedContext(req), def, idOf(req))),
  )

  app.patch(
    one,
    {
      schema: {
        tags: [def.tag],
        operationId: `update${nouns.one}`,
        summary: `Change a ${def.noun}`,
        description:
          'JSON Patch (application/json-patch+json) or JSON Merge Patch (application/merge-patch+json; plain application/json is read as a merge patch). ' +
          'id, kind, isActive and the timestamps cannot change (422 naming them); the result is validated as a whole (422 listing every field). If-Match is honoured.',
        params: idParams(def),
        body: PatchBody({ displayName: 'New display name' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: ref, ...problemResponses(404, 409, 412, 415, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const row = await service.patch(
        authenticatedContext(req),
        def,
        idOf(req),
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      return send(req, res, row)
    },
  )
}

export const accountHolderRoutes: FastifyPluginAsyncTypebox<{ service: AccountHolderService; clock: Clock }> = async (
  app,
  { service, clock },
) => {
  app.addSchema(AccountHolderSummarySchema)
  const summaryRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'AccountHolderSummary#' })

  for (const def of Object.values(KINDS)) registerKind(app, def, service, clock, { create: def.creatable })

  app.get(
    '/api/accountholders',
    {
      schema: {
        tags: ['Account holders'],
        operationId: 'listAccountHolders',
        summary: 'Search account holders of every kind',
        description:
          'Filters combine with AND; ordered by id; bounded by limit/offset with X-Total-Count. Dealer-side users see only what their groups grant.',
        querystring: AccountHolderSearchQuery,
        response: { 200: Type.Array(summaryRef), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => {
      const q = req.query
      const filter: AccountHolderFilter = {}
      if (q.kind) filter.kind = q.kind
      if (q.name) filter.name = q.name
      if (q.businessKey) filter.businessKey = q.businessKey
      if (q.state) filter.state = q.state
      if (q.status) filter.status = q.status as AccountHolderFilter['status']
      const result = await service.list(authenticatedContext(req), null, filter, listWindow(q))
      const now = clock.now()
      return sendList(res, { items: result.rows.map((r) => toSummary(r, now)), totalCount: result.total })
    },
  )

  app.addSchema(replySchema(ADMIN_COMPANY))
  app.get(
    '/api/admincompanies/:adminCompanyId',
    {
      schema: {
        tags: [ADMIN_COMPANY.tag],
        operationId: 'getAdminCompany',
        summary: 'Read the administrator company',
        description:
          "The tenant's own record as product administrator (the obligor on its contracts). Its id is in GET /api/accountholders?kind=ADMIN_COMPANY.",
        params: Type.Object({ adminCompanyId: IntegerId('Administrator company id') }),
        response: { 200: Type.Unsafe({ $ref: `${replySchemaId(ADMIN_COMPANY)}#` }), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const row = await service.adminCompany(authenticatedContext(req), req.params.adminCompanyId)
      setEtag(res, row.version)
      return toReply(ADMIN_COMPANY, row, clock.now(), mayRevealSensitive(authenticatedContext(req)))
    },
  )

  const lienHolders = KINDS.LIEN_HOLDER
  app.get(
    '/api/v2/lienHolders',
    {
      schema: {
        tags: [lienHolders.tag],
        operationId: 'listLienHoldersV2',
        summary: 'List lien holders, paged',
        description: 'The paged shape: { items, pageNumber, pageSize, totalCount, totalPages }, ordered by id.',
        querystring: PagedLienHolderQuery,
        response: {
          200: Paged(Type.Unsafe({ $ref: `${replySchemaId(lienHolders)}#` }), 'PagedLienHolders'),
          ...problemResponses(),
        },
      },
      config: READ,
    },
    async (req) => {
      const q = req.query as Record<string, unknown>
      const window = pageWindow(req.query)
      const result = await service.list(authenticatedContext(req), lienHolders, filterFrom(lienHolders, q), window)
      const now = clock.now()
      const reveal = mayRevealSensitive(authenticatedContext(req))
      return toPage(
        result.rows.map((r) => toReply(lienHolders, r, now, reveal)),
        result.total,
        window,
      )
    },
  )
}
