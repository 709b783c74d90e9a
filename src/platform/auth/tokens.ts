// Access tokens: signed by the service with the tenant's own Ed25519 key, or by the tenant's trusted
// identity provider (verified against its JWKS). Verification results are cached per token string
// for up to five minutes, never past the token's expiry, so a busy client seldom pays the signature check.
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose'
import { createTtlCache } from '../cache.ts'
import { systemClock } from '../clock.ts'

export const SERVICE_ISSUER = 'urn:vpp-admin'
export const SERVICE_AUDIENCE = 'urn:vpp-admin:api'
/**
 * Audience of provisioning tokens (CLI `token issue`): accepted only on the SCIM routes, so a
 * long-lived token kept in an identity provider's settings cannot be used on the rest of the API.
 */
export const PROVISIONING_AUDIENCE = 'urn:vpp-admin:scim'
/** The longest lifetime of an access token (ACCESS_TOKEN_TTL_SECONDS cannot exceed it). */
export const MAX_ACCESS_TOKEN_TTL_SECONDS = 86_400
export const SERVICE_TOKEN_ALG = 'EdDSA'
/** Asymmetric algorithms accepted from identity providers; `none` and HMAC never are. */
export const IDP_ALGORITHM_ALLOW_LIST = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const
/** Tolerated clock difference between us and a token's issuer, for exp and nbf. */
export const CLOCK_SKEW_SECONDS = 30

export type SigningKey = { kid: string; privateJwk: JWK; publicJwk: JWK }
export type IdentityProviderTrust = {
  issuer: string
  audience: string
  jwksUrl: string
  identityClaim: string
  algorithms: string[]
}

export type TokenSubject =
  /** `provisioning`: a provisioning token, which only the SCIM routes accept. */
  { kind: 'user'; userId: number; provisioning?: true } | { kind: 'external'; externalIdentity: string }

export class TokenRejected extends Error {}

export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(SERVICE_TOKEN_ALG, { extractable: true })
  const kid = crypto.randomUUID()
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SERVICE_TOKEN_ALG }
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SERVICE_TOKEN_ALG, use: 'sig' }
  return { kid, privateJwk, publicJwk }
}

export async function signAccessToken(
  key: SigningKey,
  claims: { tenantId: number; userId: number },
  now: Date,
  ttlSeconds: number,
  use: 'access' | 'provisioning' = 'access',
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new SignJWT({ tid: claims.tenantId })
    .setProtectedHeader({ alg: SERVICE_TOKEN_ALG, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(SERVICE_ISSUER)
    .setAudience(use === 'provisioning' ? PROVISIONING_AUDIENCE : SERVICE_AUDIENCE)
    .setSubject(String(claims.userId))
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + ttlSeconds)
    .setJti(crypto.randomUUID())
    .sign(await importJWK(key.privateJwk, SERVICE_TOKEN_ALG))
}

export type TokenKeyStore = {
  /** Public key of the tenant's signing key `kid` (current or recently retired), if it exists. */
  verificationKey(tenantId: number, kid: string): Promise<JWK | undefined>
  identityProviders(tenantId: number): Promise<IdentityProviderTrust[]>
}

type CachedVerification = { tenantId: number; subject: TokenSubject; expiresAtMs: number }

const MAX_CACHED_TOKENS = 50_000
/**
 * How long a verification is reused (never past the token's own expiry). A TtlCache, so that a bus
 * that lost its connection (and may have missed a signing key's retirement) empties it and trusts
 * what is verified meanwhile for a second only (platform/cache.ts).
 */
const VERIFICATION_TTL_MS = 5 * 60_000

export function createTokenVerifier(
  store: TokenKeyStore,
  fetchJwks: (url: string) => ReturnType<typeof createRemoteJWKSet> = defaultJwksFetcher(),
) {
  const verified = createTtlCache<CachedVerification>({
    ttlMs: VERIFICATION_TTL_MS,
    maxEntries: MAX_CACHED_TOKENS,
    clock: systemClock,
  })

  async function verifyUncached(tenantId: number, token: string, now: Date): Promise<CachedVerification> {
    let header: ReturnType<typeof decodeProtectedHeader>
    let unverified: JWTPayload
    try {
      header = decodeProtectedHeader(token)
      unverified = decodeJwt(token)
    } catch {
      throw new TokenRejected('the token is not a JWT')
    }
    const options = { clockTolerance: CLOCK_SKEW_SECONDS, currentDate: now, requiredClaims: ['exp'] }
    if (unverified.iss === SERVICE_ISSUER) {
      if (typeof header.kid !== 'string') throw new TokenRejected('the token names no key')
      const jwk = await store.verificationKey(tenantId, header.kid)
      // A key of another tenant is simply not found here: the token belongs to another tenant.
      if (!jwk) throw new TokenRejected("the token was not issued for this API key's tenant")
      const publicKey = await importJWK(jwk, SERVICE_TOKEN_ALG)
      const { payload } = await verifyOrReject(() =>
        jwtVerify(token, publicKey, {
          ...options,
          issuer: SERVICE_ISSUER,
          audience: [SERVICE_AUDIENCE, PROVISIONING_AUDIENCE],
          algorithms: [SERVICE_TOKEN_ALG],
        }),
      )
      if (payload.tid !== tenantId) throw new TokenRejected("the token was not issued for this API key's tenant")
      const userId = Number(payload.sub)
      if (!Number.isSafeInteger(userId)) throw new TokenRejected('the token has no valid subject')
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud]
      // Provisioning tokens issued before they had their own audience are told apart by their
      // lifetime: no access token may live longer than MAX_ACCESS_TOKEN_TTL_SECONDS.
      const provisioning =
        audiences.includes(PROVISIONING_AUDIENCE) ||
        (payload.exp ?? 0) - (payload.iat ?? payload.exp ?? 0) > MAX_ACCESS_TOKEN_TTL_SECONDS
      const subject: TokenSubject = provisioning
        ? { kind: 'user', userId, provisioning: true }
        : { kind: 'user', userId }
      return { tenantId, subject, expiresAtMs: (payload.exp ?? 0) * 1000 }
    }
    const idp = (await store.identityProviders(tenantId)).find((p) => p.issuer === unverified.iss)
    if (!idp) throw new TokenRejected("the token's issuer is not trusted by this tenant")
    const algorithms = idp.algorithms.filter((a) => (IDP_ALGORITHM_ALLOW_LIST as readonly string[]).includes(a))
    const { payload } = await verifyOrReject(() =>
      jwtVerify(token, fetchJwks(idp.jwksUrl), {
        ...options,
        issuer: idp.issuer,
        audience: idp.audience,
        algorithms,
      }),
    )
    const externalIdentity = payload[idp.identityClaim]
    if (typeof externalIdentity !== 'string' || externalIdentity === '') {
      throw new TokenRejected(`the token has no ${idp.identityClaim} claim`)
    }
    return { tenantId, subject: { kind: 'external', externalIdentity }, expiresAtMs: (payload.exp ?? 0) * 1000 }
  }

  return {
    claimedTenant(token: string): number | undefined {
      try {
        const payload = decodeJwt(token)
        return payload.iss === SERVICE_ISSUER &&
          typeof payload.tid === 'number' &&
          Number.isSafeInteger(payload.tid) &&
          payload.tid > 0
          ? payload.tid
          : undefined
      } catch {
        return undefined
      }
    },
    async verify(tenantId: number, token: string, now: Date): Promise<TokenSubject> {
      const cached = verified.get(token)
      if (cached && cached.tenantId === tenantId && cached.expiresAtMs + CLOCK_SKEW_SECONDS * 1000 > now.getTime()) {
        return cached.subject
      }
      const result = await verifyUncached(tenantId, token, now)
      verified.set(token, result)
      return result.subject
    },
    /** Forgets cached verifications, for example after a signing key is retired. */
    clear() {
      verified.clear()
    },
  }
}

async function verifyOrReject<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    const code = (err as { code?: string }).code
    const reason =
      code === 'ERR_JWT_EXPIRED'
        ? 'the token has expired'
        : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
          ? `the token's ${(err as { claim?: string }).claim ?? ''} claim is not acceptable`
          : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
            ? 'the token signature is invalid'
            : code === 'ERR_JOSE_ALG_NOT_ALLOWED'
              ? 'the token algorithm is not allowed'
              : code === 'ERR_JWKS_NO_MATCHING_KEY'
                ? 'no key of the identity provider matches the token'
                : code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC'
                  ? "the identity provider's keys could not be fetched"
                  : 'the token is invalid'
    throw new TokenRejected(reason)
  }
}

/** One remote JWKS per URL; jose caches the keys and refetches on an unknown kid (rate limited). */
function defaultJwksFetcher() {
  const sets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()
  return (url: string) => {
    let set = sets.get(url)
    if (!set) {
      set = createRemoteJWKSet(new URL(url), {
        cacheMaxAge: 10 * 60_000,
        cooldownDuration: 30_000,
        timeoutDuration: 5_000,
      })
      sets.set(url, set)
    }
    return set
  }
}
