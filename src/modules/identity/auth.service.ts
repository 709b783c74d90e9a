// Credentials on the hot path. Every lookup authentication makes is cached here and invalidated
// through the bus when it changes (key revoked, signing key rotated, user changed), so a warm
// request costs no database round trip for authentication.
import type { JWK } from 'jose'
import type { CredentialStore, PrincipalRecord } from '../../platform/auth/authenticate.ts'
import type { SignInThrottle } from '../../platform/auth/failure-limiter.ts'
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../platform/auth/passwords.ts'
import {
  createTokenVerifier,
  signAccessToken,
  type IdentityProviderTrust,
  type SigningKey,
  type TokenKeyStore,
  type TokenSubject,
} from '../../platform/auth/tokens.ts'
import { createTtlCache, type InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { identityErrors } from './identity.errors.ts'
import * as credentials from './credentials.repository.ts'
import * as users from './user.repository.ts'
import { isActive } from './user.rules.ts'
import type { SigningKeyVault } from './signing-keys.ts'
import { PRINCIPAL_TOPIC } from './user.service.ts'

export const API_KEY_TOPIC = 'identity.api-key'
export const SIGNING_KEY_TOPIC = 'identity.signing-key'
export const IDENTITY_PROVIDER_TOPIC = 'identity.identity-provider'

/** Retired signing keys keep verifying for as long as a token they signed can live. */
const RETIRED_KEY_GRACE_MS = 24 * 60 * 60 * 1000

type Deps = {
  db: Database
  clock: Clock
  bus: InvalidationBus
  accessTokenTtlSeconds: number
  signingKeys: SigningKeyVault
}

export function createAuthService({ db, clock, bus, accessTokenTtlSeconds, signingKeys: vault }: Deps) {
  const apiKeys = createTtlCache<{ id: number }>({ ttlMs: 5 * 60_000, maxEntries: 10_000, clock })
  const verificationKeys = createTtlCache<JWK>({ ttlMs: 10 * 60_000, maxEntries: 10_000, clock })
  const signingKeys = createTtlCache<SigningKey>({ ttlMs: 10 * 60_000, maxEntries: 10_000, clock })
  const identityProviders = createTtlCache<IdentityProviderTrust[]>({ ttlMs: 5 * 60_000, maxEntries: 10_000, clock })
  const principals = createTtlCache<PrincipalRecord>({ ttlMs: 60_000, maxEntries: 100_000, clock })

  bus.subscribe(API_KEY_TOPIC, (key) => apiKeys.delete(key))
  bus.subscribe(SIGNING_KEY_TOPIC, (tenantPrefix) => {
    verificationKeys.deletePrefix(tenantPrefix)
    signingKeys.delete(tenantPrefix)
    tokens.clear()
  })
  bus.subscribe(IDENTITY_PROVIDER_TOPIC, (tenantPrefix) => {
    identityProviders.delete(tenantPrefix)
    tokens.clear()
  })
  bus.subscribe(PRINCIPAL_TOPIC, (tenantPrefix) => principals.deletePrefix(tenantPrefix))

  const keyStore: TokenKeyStore = {
    verificationKey: (tenantId, kid) =>
      verificationKeys.getOrLoad(`${tenantId}:${kid}`, async () => {
        const row = await db.read(tenantId, (x) =>
          credentials.findVerificationKey(x, tenantId, kid, new Date(clock.now().getTime() - RETIRED_KEY_GRACE_MS)),
        )
        return row?.public_jwk
      }),
    identityProviders: async (tenantId) =>
      (await identityProviders.getOrLoad(`${tenantId}:`, async () => {
        const rows = await db.read(tenantId, (x) => credentials.listIdentityProviders(x, tenantId))
        return rows.map((r) => ({
          issuer: r.issuer,
          audience: r.audience,
          jwksUrl: r.jwks_url,
          identityClaim: r.identity_claim,
          algorithms: r.algorithms,
        }))
      })) ?? [],
  }
  const tokens = createTokenVerifier(keyStore)

  async function loadPrincipal(
    tenantId: number,
    by: { id: number } | { externalIdentity: string },
  ): Promise<PrincipalRecord | undefined> {
    const row = await db.read(tenantId, (x) => users.findPrincipalRow(x, tenantId, by))
    if (!row) return undefined
    return {
      userId: row.id,
      emailAddress: row.email_address,
      expiredDate: row.expired_date,
      permissions: new Set(row.permissions),
      // Fail closed: only members of a STAFF group see every account holder; anyone else sees the
      // dealers of their DEALER (portal visibility) groups, which may be none.
      visibleAccountHolderIds: row.staff_member ? null : new Set(row.account_holder_ids.map(Number)),
    }
  }

  const store: CredentialStore = {
    findApiKey: (tenantId, hash) =>
      apiKeys.getOrLoad(`${tenantId}:${hash}`, () =>
        db.read(tenantId, (x) => credentials.findActiveApiKey(x, tenantId, hash)),
      ),
    principal: (tenantId, subject: TokenSubject) =>
      subject.kind === 'user'
        ? principals.getOrLoad(`${tenantId}:u:${subject.userId}`, () => loadPrincipal(tenantId, { id: subject.userId }))
        : principals.getOrLoad(`${tenantId}:x:${subject.externalIdentity}`, () =>
            loadPrincipal(tenantId, { externalIdentity: subject.externalIdentity }),
          ),
  }

  async function currentSigningKey(tenantId: number): Promise<SigningKey> {
    const key = await signingKeys.getOrLoad(`${tenantId}:`, async () => {
      const row = await db.read(tenantId, (x) => credentials.findCurrentSigningKey(x, tenantId))
      return row ? vault.open(tenantId, row) : undefined
    })
    if (!key) throw new Error(`tenant ${tenantId} has no signing key`)
    return key
  }

  return {
    store,
    tokens,
    /**
     * OAuth 2.0 token endpoint grants. `password`: username is the email address. `client_credentials`:
     * for machine users such as dealer menu systems; client_id is the user's id or email address and
     * client_secret its password. Either way the user must be active. `throttle` (bound to the
     * client address) refuses further guesses at one user's password once too many were wrong.
     */
    async issueToken(
      ctx: RequestContext,
      grant: { grantType: string; username?: string; password?: string; clientId?: string; clientSecret?: string },
      throttle: SignInThrottle,
    ) {
      let login: string | undefined
      let secret: string | undefined
      if (grant.grantType === 'password') {
        login = grant.username
        secret = grant.password
      } else if (grant.grantType === 'client_credentials') {
        login = grant.clientId
        secret = grant.clientSecret
      } else {
        throw identityErrors.create(
          'unsupported_grant_type',
          `grant_type ${grant.grantType} is not supported; use password or client_credentials`,
          {
            extensions: { error: 'unsupported_grant_type' },
          },
        )
      }
      const invalid = (description: string) =>
        identityErrors.create('invalid_grant', description, {
          extensions: { error: 'invalid_grant', error_description: description },
        })
      if (!login || !secret) {
        throw invalid(
          grant.grantType === 'password'
            ? 'username and password are required'
            : 'client_id and client_secret are required',
        )
      }
      const byId = /^[0-9]{1,15}$/.test(login)
      const user = await db.read(ctx.tenantId, (x) =>
        byId
          ? users.findCredentialsById(x, ctx.tenantId, Number(login))
          : users.findCredentialsByEmail(x, ctx.tenantId, login as string),
      )
      // One identity however the user is named (id or email, any case), so naming it differently
      // does not buy more guesses; an unknown login is throttled just the same.
      const identity = user ? `${ctx.tenantId}:user:${user.id}` : `${ctx.tenantId}:login:${login.toLowerCase()}`
      throttle.check(identity)
      // Always run the slow hash, so response time does not reveal whether the user exists.
      const ok = await verifyPassword(secret, user?.password_hash ?? DUMMY_PASSWORD_HASH)
      if (!user || !user.password_hash || !ok) {
        throttle.failed(identity)
        throw invalid('The credentials are incorrect')
      }
      throttle.succeeded(identity)
      const now = clock.now()
      if (!isActive(user.expired_date, now)) throw invalid('The user is no longer active')
      const key = await currentSigningKey(ctx.tenantId)
      const accessToken = await signAccessToken(
        key,
        { tenantId: ctx.tenantId, userId: user.id },
        now,
        accessTokenTtlSeconds,
      )
      return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: accessTokenTtlSeconds }
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
