// API keys: `vpk_<tenantId>_<secret>`. The tenant id in the key lets the lookup run under that
// tenant's row-level security; the secret (256 random bits) is stored only as a SHA-256 hash, which
// suffices for high-entropy secrets and keeps verification cheap. Keys are shown once.
import { createHash, randomBytes } from 'node:crypto'

export type ParsedApiKey = { tenantId: number; hash: string; prefix: string }

export function generateApiKey(tenantId: number): { key: string; hash: string; prefix: string } {
  const key = `vpk_${tenantId}_${randomBytes(32).toString('base64url')}`
  return { key, hash: hashApiKey(key), prefix: key.slice(0, key.indexOf('_', 4) + 7) }
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url')
}

export function parseApiKey(key: string): ParsedApiKey | undefined {
  const m = /^vpk_([1-9][0-9]{0,15})_([A-Za-z0-9_-]{43})$/.exec(key)
  if (!m) return undefined
  const tenantId = Number(m[1])
  if (!Number.isSafeInteger(tenantId)) return undefined
  return { tenantId, hash: hashApiKey(key), prefix: key.slice(0, key.indexOf('_', 4) + 7) }
}
