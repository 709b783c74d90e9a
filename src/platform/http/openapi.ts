// The OpenAPI 3.1 document, generated from the route schemas, served at /api/openapi.json, with the
// reference page at /docs. Each route's security and required permission come from its config.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { authModeOf, type AuthMode } from '../auth/authenticate.ts'
import { PROBLEM_MEDIA_TYPE, problemResponse, ProblemSchema, REQUIRED_HEADER } from './schemas.ts'

type RouteSchema = Record<string, unknown> & {
  response?: Record<string, unknown>
  body?: unknown
  produces?: string[]
  querystring?: { properties?: Record<string, unknown> }
}

/**
 * Adds to an operation's declared responses those that every operation of its kind can answer, so
 * that no route can leave them out: 400 (any query string can hold text no column stores), 431 (a
 * request line and headers over the limit, refused by the HTTP parser as problem+json), 500; with
 * credentials 401, 429 and 503 (the database unavailable); with a user 403; with a path parameter
 * 414 (longer than 5000 characters); with a body 413 and 415; on a POST that takes an
 * Idempotency-Key 409 and 422 (still in progress; the key reused with another request). Errors keep
 * the route's own form (SCIM's error under application/scim+json on the SCIM routes); 431 is always
 * problem+json: no route has run. A plain list (an array answer paged by limit/offset) declares its
 * required X-Total-Count.
 */
function withCommonResponses(
  schema: RouteSchema,
  route: { method: string | string[]; url: string; idempotent: boolean; mode: AuthMode },
): RouteSchema {
  const declared = schema.response
  if (!declared) return schema
  const response: Record<string, unknown> = { ...declared }
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  const statuses = [400, 431, 500]
  if (route.mode !== 'none') statuses.push(401, 429)
  if (route.mode === 'user') statuses.push(403)
  if (route.mode !== 'none') statuses.push(503)
  if (/\/:[^/]/.test(route.url)) statuses.push(414)
  if (schema.body !== undefined) statuses.push(413, 415)
  if (methods.includes('POST') && route.mode !== 'none' && route.idempotent) statuses.push(409, 422)
  // The route's own error form (the SCIM error under application/scim+json on the SCIM routes),
  // else problem+json; 431 is always problem+json.
  const own = (declared['400'] ?? declared[400]) as { content?: unknown } | undefined
  for (const status of statuses) {
    if (response[status] !== undefined) continue
    const generic = problemResponse(status, PROBLEM_MEDIA_TYPE)
    response[status] =
      own === undefined || status === 431
        ? generic
        : own.content
          ? { ...generic, content: own.content }
          : { ...own, description: (generic as { description?: string }).description }
  }
  const ok = (declared['200'] ?? declared[200]) as { type?: string; headers?: Record<string, unknown> } | undefined
  const query = schema.querystring?.properties ?? {}
  if (ok?.type === 'array' && 'limit' in query && 'offset' in query) {
    response[200] = {
      ...ok,
      headers: {
        ...ok.headers,
        'X-Total-Count': {
          type: 'integer',
          minimum: 0,
          description: 'Rows matching the query, ignoring limit/offset.',
          [REQUIRED_HEADER]: true,
        },
      },
    }
  }
  return { ...schema, response }
}

/** `required: true` on each response header whose schema carries REQUIRED_HEADER (where OpenAPI wants it). */
function liftRequiredHeaders(document: Record<string, unknown>): Record<string, unknown> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, { responses?: Record<string, unknown> }>>
  for (const item of Object.values(paths))
    for (const operation of Object.values(item))
      for (const response of Object.values(operation.responses ?? {})) {
        const headers = (
          response as { headers?: Record<string, { schema?: Record<string, unknown> } & Record<string, unknown>> }
        ).headers
        for (const header of Object.values(headers ?? {})) {
          if (header.schema?.[REQUIRED_HEADER] !== true) continue
          const { [REQUIRED_HEADER]: _marker, ...rest } = header.schema
          header.schema = rest
          header.required = true
        }
      }
  return document
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ProblemSchema)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vehicle protection product administration API',
        version: '1.0.0',
        // The package is private and ships no licence: proprietary, named by an SPDX LicenseRef (docs/openapi.md).
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        description: [
          'Multi-tenant administration service for vehicle service contracts, GAP, tire & wheel and prepaid maintenance.',
          '',
          'Every `/api` route needs `X-Api-Key` (names the tenant) and `Authorization: Bearer <JWT>` (names the user),',
          'except `POST /api/auth/token`, which needs only the API key, and a signed download link (`GET /api/files/{fileId}?t=&expires=&signature=`),',
          'which needs none. Errors are `application/problem+json` with a stable `code` (docs/errors.md); the SCIM routes',
          'answer with the SCIM error as `application/scim+json`. POST accepts `Idempotency-Key`; single resources carry `ETag` and honour `If-Match`.',
        ].join('\n'),
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: 'Tenant API key (shown once when created).',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: "Access token from POST /api/auth/token or the tenant's identity provider.",
          },
          signedLink: {
            type: 'apiKey',
            in: 'query',
            name: 'signature',
            description:
              'A signed link: the `t`, `expires` and `signature` (43 base64url characters) query parameters of a `downloadUrl`, together. It is the whole credential: send no API key or token with it.',
          },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      const config = (route.config ?? {}) as {
        auth?: AuthMode
        permission?: string
        bearerOnly?: boolean
        presigned?: unknown
        idempotent?: boolean
      }
      const mode = authModeOf(config, url)
      const out: RouteSchema = withCommonResponses(
        { ...(schema as RouteSchema) },
        {
          method: route.method,
          url,
          mode,
          idempotent: config.idempotent !== false,
        },
      )
      if (mode === 'user')
        out.security = config.bearerOnly ? [{ apiKey: [], bearer: [] }, { bearer: [] }] : [{ apiKey: [], bearer: [] }]
      else if (mode === 'apiKey') out.security = [{ apiKey: [] }]
      else out.security = []
      // A route that also takes a signed link in its query: the link alone is an alternative.
      if (config.presigned) (out.security as unknown[]).push({ signedLink: [] })
      if (config.permission) {
        const description = typeof out.description === 'string' ? out.description : ''
        out.description = `${description}${description ? '\n\n' : ''}Requires permission \`${config.permission}\`.`
      }
      return { schema: out, url }
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? liftRequiredHeaders(document.openapiObject as Record<string, unknown>)
        : document.swaggerObject,
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } })
  app.get('/api/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger())
}
