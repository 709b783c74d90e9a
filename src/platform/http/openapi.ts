// The OpenAPI 3.1 document, generated from the route schemas, served at /api/openapi.json, with the
// reference page at /docs. Each route's security and required permission come from its config.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { authModeOf, type AuthMode } from '../auth/authenticate.ts'
import { ProblemSchema } from './schemas.ts'

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ProblemSchema)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vehicle protection product administration API',
        version: '1.0.0',
        description: [
          'Multi-tenant administration service for vehicle service contracts, GAP, tire & wheel and prepaid maintenance.',
          '',
          'Every `/api` route needs `X-Api-Key` (names the tenant) and `Authorization: Bearer <JWT>` (names the user),',
          'except `POST /api/auth/token`, which needs only the API key. Errors are `application/problem+json` with a',
          'stable `code` (docs/errors.md). POST accepts `Idempotency-Key`; single resources carry `ETag` and honour `If-Match`.',
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
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url, route }) => {
      const config = (route.config ?? {}) as { auth?: AuthMode; permission?: string; bearerOnly?: boolean }
      const mode = authModeOf(config, url)
      const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) }
      if (mode === 'user')
        out.security = config.bearerOnly ? [{ apiKey: [], bearer: [] }, { bearer: [] }] : [{ apiKey: [], bearer: [] }]
      else if (mode === 'apiKey') out.security = [{ apiKey: [] }]
      else out.security = []
      if (config.permission) {
        const description = typeof out.description === 'string' ? out.description : ''
        out.description = `${description}${description ? '\n\n' : ''}Requires permission \`${config.permission}\`.`
      }
      return { schema: out, url }
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } })
  app.get('/api/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger())
}
