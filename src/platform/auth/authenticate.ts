// Authentication and authorization for every /api route. Each route declares in its config the
// credentials it needs (`auth`: 'user' by default, 'apiKey' for the token endpoint, 'none' for
// health and docs) and the permission it requires. The X-Api-Key names the tenant; the bearer
// token names the user of that same tenant. Nothing here touches the database on a warm path: the
// stores behind it cache keys, signing keys, identity providers and principals.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.ts'
import { AppError, platformErrors } from '../http/errors.ts'
import { hasPermission, type Principal, type RequestContext } from '../http/context.ts'
import { parseApiKey } from './api-keys.ts'
import { createFailureLimiter, type FailureLimiter } from './failure-limiter.ts'
import { TokenRejected, type TokenSubject } from './tokens.ts'

export type AuthMode = 'none' | 'apiKey' | 'user'

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode
    permission?: string
    /**
     * The route also accepts a service-issued bearer token without X-Api-Key; the token's own
     * tenant claim, proven by that tenant's signature, names the tenant. For provisioning clients
     * (SCIM from Entra ID or Okta) that can send only an Authorization header.
     */
    bearerOnly?: boolean
    /**
     * A credential the request carries itself (a presigned link's query): returns the context when
     * the request presents one and it verifies (a bad one throws), undefined to authenticate by the
     * headers. What was signed is the grant, so no permission check follows.
     */
    presigned?: (request: FastifyRequest) => Promise<RequestContext | undefined>
  }
  interface FastifyRequest {
    ctx: RequestContext
  }
  interface FastifyInstance {
    /** Failed-authentication counters, shared with the token endpoint's sign-in throttle. */
    authFailures: FailureLimiter
  }
}

/** Routes under /api need a user unless they say otherwise; everything else (health, docs) is open. */
export function authModeOf(config: { auth?: AuthMode } | undefined, url: string | undefined): AuthMode {
  return config?.auth ?? (url?.toLowerCase().startsWith('/api/') ? 'user' : 'none')
}

export type PrincipalRecord = Principal & { expiredDate: Date | null }

export type CredentialStore = {
  /** The active (unrevoked) API key with this hash in the tenant, if any. */
  findApiKey(tenantId: number, hash: string): Promise<{ id: number } | undefined>
  principal(tenantId: number, subject: TokenSubject): Promise<PrincipalRecord | undefined>
}

export type TokenVerifier = {
  verify(tenantId: number, token: string, now: Date): Promise<TokenSubject>
  /** The tenant a service-issued token claims, unverified; verify() then proves or refuses it. */
  claimedTenant(token: string): number | undefined
}

export function installAuthentication(
  app: FastifyInstance,
  deps: {
    store: CredentialStore
    tokens: TokenVerifier
    clock: Clock
    authFailureLimitPerMinute: number
  },
): void {
  const { store, tokens, clock } = deps
  const failures = createFailureLimiter(deps.authFailureLimitPerMinute, clock)
  app.decorate('authFailures', failures)

  async function authenticateApiKey(request: FastifyRequest): Promise<{ tenantId: number; apiKeyId: number }> {
    const header = request.headers['x-api-key']
    if (typeof header !== 'string' || header === '') {
      throw platformErrors.create('unauthenticated', 'The X-Api-Key header is required')
    }
    const parsed = parseApiKey(header)
    const key = parsed ? await store.findApiKey(parsed.tenantId, parsed.hash) : undefined
    if (!parsed || !key) throw platformErrors.create('invalid_api_key', 'The API key is not valid')
    return { tenantId: parsed.tenantId, apiKeyId: key.id }
  }

  function bearerToken(request: FastifyRequest): string {
    const header = request.headers.authorization
    const match = typeof header === 'string' ? /^Bearer[ ]+(\S+)$/i.exec(header) : null
    if (!match) {
      throw platformErrors.create('unauthenticated', 'An Authorization: Bearer <token> header is required', {
        headers: { 'www-authenticate': 'Bearer' },
      })
    }
    return match[1] as string
  }

  /** `scim`: the route is a SCIM route, the only kind that accepts provisioning tokens. */
  async function authenticateUser(tenantId: number, request: FastifyRequest, scim: boolean): Promise<Principal> {
    const token = bearerToken(request)
    const now = clock.now()
    let subject: TokenSubject
    try {
      subject = await tokens.verify(tenantId, token, now)
    } catch (err) {
      if (err instanceof TokenRejected) {
        throw platformErrors.create('invalid_token', `The bearer token is not accepted: ${err.message}`, {
          headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
        })
      }
      throw err
    }
    // A provisioning token is valid but not for this route: a permission it lacks, not a bad credential.
    if (subject.kind === 'user' && subject.provisioning && !scim) {
      throw platformErrors.create(
        'permission_denied',
        'A provisioning token is accepted only on the SCIM routes (/api/v2/...)',
      )
    }
    const principal = await store.principal(tenantId, subject)
    if (!principal) throw platformErrors.create('invalid_token', 'The bearer token names no user of this tenant')
    // expiredDate is checked on every request, so a user expires at that instant, whatever the token.
    if (principal.expiredDate !== null && principal.expiredDate.getTime() <= now.getTime()) {
      throw platformErrors.create('user_inactive', 'The user is no longer active')
    }
    return principal
  }

  app.decorateRequest('ctx', null as unknown as RequestContext)
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config
    const mode = authModeOf(config, request.routeOptions.url)
    if (mode === 'none' || request.is404) return
    const signed = config.presigned ? await config.presigned(request) : undefined
    if (signed) {
      request.ctx = signed
      return
    }
    try {
      const claimedTenant =
        mode === 'user' && config.bearerOnly && request.headers['x-api-key'] === undefined
          ? tokens.claimedTenant(bearerToken(request))
          : undefined
      if (claimedTenant !== undefined) {
        request.ctx = {
          requestId: String(request.id),
          tenantId: claimedTenant,
          apiKeyId: 0,
          principal: await authenticateUser(claimedTenant, request, true),
        }
      } else {
        const { tenantId, apiKeyId } = await authenticateApiKey(request)
        const principal =
          mode === 'user' ? await authenticateUser(tenantId, request, config.bearerOnly === true) : undefined
        request.ctx = { requestId: String(request.id), tenantId, apiKeyId, principal }
      }
    } catch (err) {
      if (err instanceof AppError && err.status === 401) {
        // Counted per address: API keys and signed tokens cannot be guessed, so this only slows a
        // client that keeps failing. It refuses nothing but failures: a request from the same
        // address with valid credentials (another client behind a shared address) still passes.
        const key = JSON.stringify(['address', request.ip])
        if (failures.exceeded(key)) throw failures.refusal('Too many failed authentications from this address')
        failures.fail(key)
      }
      throw err
    }
    const permission = config.permission
    if (permission && !hasPermission(request.ctx.principal?.permissions ?? new Set(), permission)) {
      throw platformErrors.create('permission_denied', `This operation requires the ${permission} permission`)
    }
  })
}
