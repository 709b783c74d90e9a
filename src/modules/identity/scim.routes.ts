// SCIM 2.0 at /api/v2 (RFC 7643, RFC 7644): /Users for identity providers (Entra ID, Okta) and the
// discovery endpoints. Registered as its own encapsulated plugin so that its error handler answers
// every failure of these routes (authentication, validation, malformed JSON, service errors) in the
// SCIM error schema, as application/scim+json, instead of problem+json.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Clock } from '../../platform/clock.ts'
import { authenticatedContext } from '../../platform/http/context.ts'
import { userResourceType, userSchema, serviceProviderConfig } from './scim.discovery.ts'
import { ScimError, scimErrorBody, toScimFailure } from './scim.errors.ts'
import { toScimUser, weakEtag } from './scim.mapper.ts'
import {
  DiscoveryIdParams,
  DiscoveryQuery,
  ListOf,
  ResourceSchemaSchema,
  ResourceTypeSchema,
  SCIM_CONTENT_TYPE,
  SCIM_LIST_URN,
  SCIM_MAX_COUNT,
  SCIM_MEDIA_TYPES,
  SCIM_REPLY_MEDIA_TYPES,
  SCIM_USER_URN,
  ScimErrorSchema,
  ScimIdParams,
  ScimListQuery,
  ScimPatchBody,
  ScimUserBody,
  ScimUserListSchema,
  ScimUserSchema,
  ServiceProviderConfigSchema,
  scimErrorResponses,
  scimUserRef,
} from './scim.schemas.ts'
import { createScimUserService, ifMatchAllows } from './scim.service.ts'
import type { UserService } from './user.service.ts'

/** The absolute base of resource locations (RFC 7643 §3.1 meta.location), from the request's own host. */
function baseUrl(req: FastifyRequest): string {
  return req.host ? `${req.protocol}://${req.host}` : ''
}

function listOf<T>(resources: T[]) {
  return {
    schemas: [SCIM_LIST_URN],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  }
}

/** RFC 7644 §4: a filter on the discovery endpoints is refused, so no client reads it as applied. */
function refuseFilter(query: { filter?: string }): void {
  if (query.filter !== undefined) throw new ScimError(403, undefined, 'Filtering is not supported on this endpoint')
}

/** Base URL used in the OpenAPI examples only. */
const EXAMPLE_BASE_URL = 'https://admin.example.com'

export const scimRoutes: FastifyPluginAsyncTypebox<{ users: UserService; clock: Clock }> = async (
  app,
  { users, clock },
) => {
  app.addSchema(ScimErrorSchema)
  app.addSchema(ScimUserSchema)
  const scim = createScimUserService({ users, clock })

  // Bodies are SCIM JSON or plain JSON only (RFC 7644 §3.1); any other media type is 415.
  // Parsers are encapsulated: this changes nothing outside these routes.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    ['application/scim+json', 'application/json'],
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  )

  app.addHook('onRequest', async (_req, reply) => {
    reply.type(SCIM_CONTENT_TYPE)
  })

  app.setErrorHandler((error, request, reply) => {
    const failure = toScimFailure(error)
    if (failure.unexpected) request.log.error({ err: error, requestId: request.id }, 'unhandled error')
    const detail = failure.unexpected
      ? `An unexpected error occurred; quote request id ${request.id} when reporting it`
      : failure.detail
    if (failure.headers) reply.headers(failure.headers)
    return reply
      .code(failure.status)
      .type(SCIM_CONTENT_TYPE)
      .send(scimErrorBody({ ...failure, detail }))
  })

  const common = { tags: ['SCIM'], produces: SCIM_REPLY_MEDIA_TYPES }

  app.get(
    '/api/v2/Users',
    {
      schema: {
        ...common,
        operationId: 'scimListUsers',
        summary: 'List or filter users (SCIM)',
        description: [
          'A ListResponse of the users, ordered by id. `filter` supports `eq` on `userName` (case-insensitive), `externalId`,',
          '`emails.value` (also `emails[type eq "work" and value eq "..."]`) and `id`, combined with `and`, `or` and parentheses;',
          `any other filter is 400 invalidFilter. \`startIndex\` is 1-based; \`count\` defaults to 100 and is capped at ${SCIM_MAX_COUNT}.`,
        ].join(' '),
        querystring: ScimListQuery,
        response: { 200: ScimUserListSchema, ...scimErrorResponses() },
      },
      config: { permission: 'users:read', bearerOnly: true },
    },
    async (req) => {
      const page = await scim.list(authenticatedContext(req), req.query)
      const now = clock.now()
      const base = baseUrl(req)
      return {
        schemas: [SCIM_LIST_URN],
        totalResults: page.totalResults,
        startIndex: page.startIndex,
        itemsPerPage: page.rows.length,
        Resources: page.rows.map((row) => toScimUser(row, now, base)),
      }
    },
  )

  app.post(
    '/api/v2/Users',
    {
      schema: {
        ...common,
        consumes: SCIM_MEDIA_TYPES,
        operationId: 'scimCreateUser',
        summary: 'Create a user (SCIM)',
        description:
          'The user gets no roles or groups (grant them through /api/v1/adminusers). A userName or externalId already used in the tenant is 409 uniqueness. `active: false` creates the user already expired.',
        body: ScimUserBody,
        response: { 201: scimUserRef, ...scimErrorResponses(409, 413, 415) },
      },
      config: { permission: 'users:write', bearerOnly: true },
    },
    async (req, reply) => {
      const row = await scim.create(authenticatedContext(req), req.body)
      const user = toScimUser(row, clock.now(), baseUrl(req))
      reply.code(201).header('location', user.meta.location).header('etag', user.meta.version)
      return user
    },
  )

  app.get(
    '/api/v2/Users/:id',
    {
      schema: {
        ...common,
        operationId: 'scimGetUser',
        summary: 'Read a user (SCIM)',
        description:
          'Anything that is not the id of a user of the tenant is 404. Carries a weak ETag (W/"<version>", as meta.version); If-None-Match with it answers 304.',
        params: ScimIdParams,
        response: {
          200: scimUserRef,
          304: Type.Null({ description: 'Not modified: If-None-Match names the current version.' }),
          ...scimErrorResponses(404),
        },
      },
      config: { permission: 'users:read', bearerOnly: true },
    },
    async (req, reply) => {
      const row = await scim.get(authenticatedContext(req), req.params.id)
      reply.header('etag', weakEtag(row.version))
      const noneMatch = req.headers['if-none-match']
      if (noneMatch !== undefined && ifMatchAllows(noneMatch, row.version)) return reply.code(304).send(null)
      return toScimUser(row, clock.now(), baseUrl(req))
    },
  )

  app.put(
    '/api/v2/Users/:id',
    {
      schema: {
        ...common,
        consumes: SCIM_MEDIA_TYPES,
        operationId: 'scimReplaceUser',
        summary: 'Replace a user (SCIM)',
        description: [
          'Replaces the SCIM attributes: name and phoneNumbers left out are cleared; externalId and active left out keep their values',
          '(null clears externalId). `active: false` expires the user now; `active: true` reactivates an expired user. Roles, groups,',
          'account holder and password are kept. If-Match (W/"<version>" or "<version>") is honoured: 412 on mismatch.',
        ].join(' '),
        params: ScimIdParams,
        body: ScimUserBody,
        response: { 200: scimUserRef, ...scimErrorResponses(404, 409, 412, 413, 415) },
      },
      config: { permission: 'users:write', bearerOnly: true },
    },
    async (req, reply) => {
      const row = await scim.replace(authenticatedContext(req), req.params.id, req.body, req.headers['if-match'])
      reply.header('etag', weakEtag(row.version))
      return toScimUser(row, clock.now(), baseUrl(req))
    },
  )

  app.patch(
    '/api/v2/Users/:id',
    {
      schema: {
        ...common,
        consumes: SCIM_MEDIA_TYPES,
        operationId: 'scimPatchUser',
        summary: 'Change some attributes of a user (SCIM PatchOp)',
        description: [
          'A PatchOp as Entra ID and Okta send it: `op` add, replace or remove in any case; with a `path` (userName, externalId,',
          'active, name, name.givenName, name.familyName, emails, emails[type eq "work"].value, phoneNumbers, phoneNumbers[type eq "work"].value)',
          'or without one (the value is an object of attributes). Booleans may be the strings "True"/"False". Operations apply in order and',
          'all or none take effect. Attributes the service does not hold (displayName, title, enterprise extension, ...) are ignored;',
          'a malformed path is 400 invalidPath; id and meta are 400 mutability. If-Match is honoured: 412 on mismatch.',
        ].join(' '),
        params: ScimIdParams,
        body: ScimPatchBody,
        response: { 200: scimUserRef, ...scimErrorResponses(404, 409, 412, 413, 415) },
      },
      config: { permission: 'users:write', bearerOnly: true },
    },
    async (req, reply) => {
      const row = await scim.patch(
        authenticatedContext(req),
        req.params.id,
        req.body.Operations,
        req.headers['if-match'],
      )
      reply.header('etag', weakEtag(row.version))
      return toScimUser(row, clock.now(), baseUrl(req))
    },
  )

  app.get(
    '/api/v2/ServiceProviderConfig',
    {
      schema: {
        ...common,
        operationId: 'scimGetServiceProviderConfig',
        summary: 'What this SCIM service supports (RFC 7643 §5)',
        querystring: DiscoveryQuery,
        response: {
          200: { ...ServiceProviderConfigSchema, examples: [serviceProviderConfig(EXAMPLE_BASE_URL)] },
          ...scimErrorResponses(),
        },
      },
      config: { permission: 'users:read', bearerOnly: true },
    },
    async (req) => {
      refuseFilter(req.query)
      return serviceProviderConfig(baseUrl(req))
    },
  )

  app.get(
    '/api/v2/Schemas',
    {
      schema: {
        ...common,
        operationId: 'scimListSchemas',
        summary: 'The resource schemas (RFC 7643 §7)',
        description: 'The core User schema, listing only the attributes the service holds.',
        querystring: DiscoveryQuery,
        response: { 200: ListOf(ResourceSchemaSchema, 'ListResponse of schemas'), ...scimErrorResponses() },
      },
      config: { permission: 'users:read', bearerOnly: true },
    },
    async (req) => {
      refuseFilter(req.query)
      return listOf([userSchema(baseUrl(req))])
    },
  )

  app.get(
    '/api/v2/Schemas/:id',
    {
      schema: {
        ...common,
        operationId: 'scimGetSchema',
        summary: 'One resource schema by its URN',
        params: DiscoveryIdParams,
        querystring: DiscoveryQuery,
        response: { 200: ResourceSchemaSchema, ...scimErrorResponses(404) },
      },
      config: { permission: 'users:read', bearerOnly: true },
    },
    async (req) => {
      refuseFilter(req.query)
      if (req.params.id.toLowerCase() !== SCIM_USER_URN.toLowerCase())
        throw new ScimError(404, undefined, `No schema ${req.params.id}`)
      return userSchema(baseUrl(req))
    },
  )

  app.get(
    '/api/v2/ResourceTypes',
    {
      schema: {
        ...common,
        operationId: 'scimListResourceTypes',
        summary: 'The resource types (RFC 7643 §6)',
        querystring: DiscoveryQuery,
        response: {
          200: {
            ...ListOf(ResourceTypeSchema, 'ListResponse of resource types'),
            examples: [listOf([userResourceType(EXAMPLE_BASE_URL)])],
          },
          ...scimErrorResponses(),
        },
      },
      config: { permission: 'users:read', bearerOnly: true },
    },
    async (req) => {
      refuseFilter(req.query)
      return listOf([userResourceType(baseUrl(req))])
    },
  )

  app.get(
    '/api/v2/ResourceTypes/:id',
    {
      schema: {
        ...common,
        operationId: 'scimGetResourceType',
        summary: 'One resource type by its id',
        params: DiscoveryIdParams,
        querystring: DiscoveryQuery,
        response: { 200: ResourceTypeSchema, ...scimErrorResponses(404) },
      },
      config: { permission: 'users:read', bearerOnly: true },
    },
    async (req) => {
      refuseFilter(req.query)
      if (req.params.id.toLowerCase() !== 'user')
        throw new ScimError(404, undefined, `No resource type ${req.params.id}`)
      return userResourceType(baseUrl(req))
    },
  )
}
