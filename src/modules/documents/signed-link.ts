// Expiring download links: HMAC-SHA256 over the tenant, the file and the expiry, with a per-tenant
// secret kept (sealed; link-key.ts) in the database, so a link made by one instance works on every
// other and after a restart. The link names its tenant (`t`); the tenant is trusted only once the signature verifies.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto'
import { documentErrors } from './documents.errors.ts'
import { linkExpiry, linkPayload, linkUrl } from './documents.rules.ts'
import type { LinkKeys } from './link-key.ts'

export type SignedLink = { url: string; expiresAt: string }

/** The query members of a signed link, as they arrive. */
export type LinkQuery = { t?: unknown; expires?: unknown; signature?: unknown }

export function isSignedLinkQuery(query: LinkQuery): boolean {
  return query.t !== undefined || query.expires !== undefined || query.signature !== undefined
}

function sign(key: KeyObject, tenantId: number, fileId: number, expires: number): string {
  return createHmac('sha256', key)
    .update(linkPayload(tenantId, fileId, expires))
    .digest('base64url')
}

export function createLinkSigner(deps: { keys: LinkKeys; ttlSeconds: number }) {
  // Secrets never change once made (re-sealing keeps their bytes), so a found one is kept for the life of the process.
  const keys = new Map<number, KeyObject>()

  async function keyOf(tenantId: number, createMissing: boolean): Promise<KeyObject | undefined> {
    const cached = keys.get(tenantId)
    if (cached) return cached
    // Tenants are given a secret at creation (and by the migration); signing covers any made without one.
    const secret =
      (await deps.keys.secret(tenantId)) ?? (createMissing ? await deps.keys.secretOrNew(tenantId) : undefined)
    if (!secret) return undefined
    const key = createSecretKey(secret)
    keys.set(tenantId, key)
    return key
  }

  return {
    /** A link to the file's bytes that works without credentials until `ttlSeconds` after `now`. */
    async sign(tenantId: number, fileId: number, now: Date): Promise<SignedLink> {
      const key = await keyOf(tenantId, true)
      if (!key) throw new Error(`no link key for tenant ${tenantId}`)
      const expires = linkExpiry(now, deps.ttlSeconds)
      return {
        url: linkUrl(tenantId, fileId, expires, sign(key, tenantId, fileId, expires)),
        expiresAt: new Date(expires * 1000).toISOString(),
      }
    },

    /** The tenant of a valid, unexpired link to `fileId`; 403 for anything else. */
    async verify(query: LinkQuery, fileId: number, now: Date): Promise<number> {
      const invalid = () =>
        documentErrors.create(
          'download_link_invalid',
          'The download link is not valid (altered, incomplete, or for another file)',
        )
      const { t, expires, signature } = query
      if (typeof t !== 'string' || !/^[1-9][0-9]{0,14}$/.test(t)) throw invalid()
      if (typeof expires !== 'string' || !/^[0-9]{1,12}$/.test(expires)) throw invalid()
      if (typeof signature !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signature)) throw invalid()
      if (!Number.isSafeInteger(fileId) || fileId <= 0) throw invalid()
      const tenantId = Number(t)
      const key = await keyOf(tenantId, false)
      if (!key) throw invalid()
      const expected = Buffer.from(sign(key, tenantId, fileId, Number(expires)), 'base64url')
      const given = Buffer.from(signature, 'base64url')
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid()
      if (Number(expires) * 1000 <= now.getTime()) {
        throw documentErrors.create(
          'download_link_expired',
          `The download link expired at ${new Date(Number(expires) * 1000).toISOString()}; ask for a new one`,
        )
      }
      return tenantId
    },
  }
}

export type LinkSigner = ReturnType<typeof createLinkSigner>
