// POST /api/auth/token: OAuth 2.0 token endpoint (RFC 6749 §4.3 and §4.4). Needs the X-Api-Key
// (which names the tenant) but no bearer token. Accepts JSON or form encoding.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { signInThrottle } from '../../platform/auth/failure-limiter.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import type { AuthService } from './auth.service.ts'

const TokenRequest = Type.Object(
  {
    grant_type: Type.String({ description: '`password` or `client_credentials`.', examples: ['password'] }),
    username: Type.Optional(Type.String({ maxLength: 254, description: "password grant: the user's email address." })),
    password: Type.Optional(Type.String({ maxLength: 200, writeOnly: true })),
    client_id: Type.Optional(
      Type.String({ maxLength: 254, description: "client_credentials grant: the machine user's id or email address." }),
    ),
    client_secret: Type.Optional(Type.String({ maxLength: 200, writeOnly: true })),
    scope: Type.Optional(
      Type.String({ maxLength: 1000, description: "Accepted and ignored: permissions come from the user's roles." }),
    ),
  },
  { examples: [{ grant_type: 'password', username: 'admin@demo.example', password: 'correct horse battery staple' }] },
)

const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds until the token expires.' }),
  },
  { examples: [{ access_token: 'eyJhbGciOiJFZERTQSIs...', token_type: 'Bearer', expires_in: 3600 }] },
)

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/api/auth/token',
    {
      schema: {
        tags: ['Authentication'],
        operationId: 'issueToken',
        summary: 'Get an access token',
        description:
          "Exchanges a user's credentials for a bearer token signed by the service with the tenant's key. Send the tenant's X-Api-Key. Errors carry the OAuth `error` member as well as the problem fields. After AUTH_FAILURE_LIMIT_PER_MINUTE wrong passwords for one user from one client address, that user's sign-ins from that address answer 429 until the minute ends; other users are not affected.",
        body: TokenRequest,
        response: { 200: TokenResponse, ...problemResponses(415) },
      },
      config: { auth: 'apiKey', idempotent: false },
    },
    async (req, reply) => {
      const b = req.body
      const token = await auth.issueToken(
        req.ctx,
        {
          grantType: b.grant_type,
          ...(b.username !== undefined ? { username: b.username } : {}),
          ...(b.password !== undefined ? { password: b.password } : {}),
          ...(b.client_id !== undefined ? { clientId: b.client_id } : {}),
          ...(b.client_secret !== undefined ? { clientSecret: b.client_secret } : {}),
        },
        signInThrottle(req.server.authFailures, req.ip),
      )
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
      return token
    },
  )
}
