// buildApp(deps): an unstarted Fastify instance with the platform plugins, then the routes of the
// module graph it is given (src/modules.ts), in one explicit list. server.ts listens; tests inject.
import { randomUUID } from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Config } from './config.ts'
import { installAuthentication } from './platform/auth/authenticate.ts'
import type { InvalidationBus } from './platform/cache.ts'
import type { Clock } from './platform/clock.ts'
import type { Database } from './platform/db/database.ts'
import {
  clientErrorHandler,
  frameworkErrorHandler,
  installErrorHandling,
  MAX_REQUEST_HEAD_BYTES,
} from './platform/http/error-handler.ts'
import { platformErrors } from './platform/http/errors.ts'
import { consoleRoutes } from './platform/http/console.ts'
import { healthRoutes } from './platform/http/health.ts'
import { installIdempotency } from './platform/http/idempotency.ts'
import { installOpenApi } from './platform/http/openapi.ts'
import { buildSerializer, buildValidator, unstorableTextError } from './platform/http/validation.ts'
import type { Modules } from './modules.ts'

export type AppDeps = {
  config: Pick<Config, 'rateLimitPerMinute' | 'authFailureLimitPerMinute' | 'bodyLimitBytes' | 'logLevel'>
  db: Database
  clock: Clock
  bus: InvalidationBus
  /** The module graph, built once by the caller from the same db, clock and bus (createModules). */
  modules: Modules
  logger?: FastifyServerOptions['logger']
}

const JSON_MEDIA_TYPES = ['application/scim+json', 'application/merge-patch+json', 'application/json-patch+json']

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, clock, bus, modules } = deps
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          '*.password',
          '*.client_secret',
          '*.accountNumber',
          '*.routingNumber',
          '*.taxId',
        ],
        censor: '[redacted]',
      },
    },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 5000 },
    bodyLimit: config.bodyLimitBytes,
    // Start-up is not a hot path: a loaded machine (CI running tests beside other work) must not turn
    // slow plugin start-up into a failure.
    pluginTimeout: 120_000,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID()
    },
    // Strict bodies, coerced query strings, every error reported; validators and response serializers
    // compiled once per process, not per plugin context or app (platform/http/validation.ts).
    schemaController: {
      compilersFactory: { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never },
    },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Room for every request the OpenAPI document allows; larger heads are 431 problem+json.
    http: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
  })
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', String(req.id))
  })

  const jsonParser = app.getDefaultJsonParser('error', 'error')
  // A JSON content type with an empty body (what many HTTP clients send for a POST without a payload)
  // is read as no body, not as malformed JSON: routes whose body is optional take it as `{}`, routes
  // that need one answer which members are missing.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(['application/json', ...JSON_MEDIA_TYPES], { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined)
    jsonParser(req, body as string, done)
  })
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)))
  })
  installErrorHandling(app)
  // NUL and lone UTF-16 surrogates ("\ud800") are valid JSON and valid percent-encoding, but no text
  // column or jsonb can hold them: refused here, once, for the path, the query string and the body
  // (which must also not nest deeper than MAX_JSON_DEPTH), instead of failing in whichever statement
  // first stores or compares them.
  app.addHook('preValidation', async (req) => {
    const refused = unstorableTextError(req)
    if (refused) throw refused
  })

  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => {
      const key = req.headers['x-api-key']
      return typeof key === 'string' && key !== '' ? `key:${key}` : `ip:${req.ip}`
    },
    allowList: (req) => !req.url.toLowerCase().startsWith('/api/'),
    errorResponseBuilder: (_req, context) =>
      platformErrors.create(
        'rate_limited',
        `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
        {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
          extensions: { retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
        },
      ),
  })

  installAuthentication(app, {
    store: modules.identity.credentialStore,
    tokens: modules.identity.tokenVerifier,
    clock,
    authFailureLimitPerMinute: config.authFailureLimitPerMinute,
  })
  installIdempotency(app, { db, clock })
  await installOpenApi(app)

  await app.register(healthRoutes, { db, bus })
  // The staff console's built files at /console (docs/console.md).
  await app.register(consoleRoutes)
  for (const routes of modules.routes) await app.register(routes)
  // Data the first request would otherwise wait for (the VIN decoder's, about 0.1 s) is loaded at start.
  app.addHook('onReady', async () => modules.rating.warmUp())
  // Secrets stored before they were sealed (signing, quote and link keys) are sealed now; then a
  // secrets key that cannot open what is stored stops the start, naming the key it needs (a SecretsError).
  app.addHook('onReady', async () => {
    await modules.identity.sealedSecrets.sealPlaintext()
    await modules.identity.signingKeys.verify()
  })

  return app
}
