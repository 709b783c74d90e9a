// Pure rules of webhooks (docs/webhooks.md): receiver URLs, which events a subscription takes, the
// signature, the retry schedule and the body. No I/O here except `isPrivateAddress`'s table.
import { createHmac, randomBytes } from 'node:crypto'
import { BlockList, isIP } from 'node:net'
import type { FieldError } from '../../platform/http/errors.ts'

export const MAX_URL_LENGTH = 2000
export const SECRET_PREFIX = 'whsec_'
export const ALL_EVENTS = '*'
/** Backoff of the first retry; each later one doubles it, up to MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 10_000
export const MAX_BACKOFF_MS = 6 * 3600_000

/** A new subscription secret: 32 random bytes, base64url, prefixed so that it is recognisable in a leak scan. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url')
}

/**
 * `Webhook-Signature` of a body: `v1=` and the hex HMAC-SHA256, keyed with the secret exactly as shown
 * (its UTF-8 bytes, prefix included), of `<timestamp>.<body>`; the timestamp is the `Webhook-Timestamp`
 * header (Unix seconds), so a receiver refuses replays by refusing old timestamps.
 */
export function signature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** Loopback, private, link-local, carrier-grade NAT, multicast, reserved and unspecified ranges (v4 and v6). */
const PRIVATE = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6')

/** Whether `address` (an IP literal) is one a receiver may not have unless the operator allows it. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)
  if (v4mapped?.[1]) return PRIVATE.check(v4mapped[1], 'ipv4')
  const family = isIP(bare)
  if (family === 4) return PRIVATE.check(bare, 'ipv4')
  if (family === 6) return PRIVATE.check(bare, 'ipv6')
  return false
}

/**
 * The parsed receiver URL, or the field error naming `url`: http or https, at most 2,000
 * characters, no credentials, a host; a literal private address (or `localhost`) only when
 * `allowPrivate`. Host names are resolved and checked again at each delivery (docs/webhooks.md).
 */
export function checkUrl(url: string, allowPrivate: boolean): { url: URL } | { error: FieldError } {
  const bad = (code: string, message: string) => ({ error: { field: 'url', code, message } })
  if (url.length > MAX_URL_LENGTH) return bad('too_long', `must be at most ${MAX_URL_LENGTH} characters`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return bad('invalid', 'is not an absolute URL')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return bad('invalid', 'must be http or https')
  if (parsed.username !== '' || parsed.password !== '') return bad('invalid', 'must not carry credentials')
  if (parsed.hostname === '') return bad('invalid', 'has no host')
  const host = parsed.hostname.toLowerCase()
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)))
    return bad('private_address', 'is a private or loopback address, which the operator does not allow')
  return { url: parsed }
}

/** The event types a subscription takes: a non-empty list of distinct types, or ['*'] for all. */
export function checkEventTypes(types: readonly string[], pattern: RegExp): FieldError | null {
  if (types.length === 0) return { field: 'eventTypes', code: 'required', message: 'must name at least one type or *' }
  if (types.includes(ALL_EVENTS) && types.length > 1)
    return { field: 'eventTypes', code: 'invalid', message: '* stands alone' }
  for (const [i, t] of types.entries()) {
    if (t !== ALL_EVENTS && !pattern.test(t))
      return { field: `eventTypes[${i}]`, code: 'invalid', message: 'is not <entity>.<event> in lower case, or *' }
  }
  if (new Set(types).size !== types.length)
    return { field: 'eventTypes', code: 'invalid', message: 'lists a type twice' }
  return null
}

export function takesEvent(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.includes(ALL_EVENTS) || eventTypes.includes(type)
}

/** The contract an event is about (ordering key per contract), from its payload's contractId. */
export function contractIdOf(payload: Record<string, unknown>): string | null {
  const id = payload['contractId']
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null
}

/**
 * Wait before attempt `attempt + 1` after `attempt` failed ones (1-based): BASE_BACKOFF_MS doubled per
 * attempt, capped, with "equal jitter" (half fixed, half random) so that receivers recovering from an
 * outage are not hit by every sender at once. `random` is in [0, 1).
 */
export function backoffMs(attempt: number, random: number): number {
  const full = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.min(30, Math.max(0, attempt - 1)))
  return Math.round(full / 2 + (full / 2) * random)
}

/** The id receivers deduplicate by: the event's, the same for every attempt and redelivery. */
export const webhookId = (eventId: number) => `evt_${eventId}`

/** The JSON body of a delivery; the same bytes for every attempt of the event. */
export function deliveryBody(event: { id: number; type: string; createdAt: Date; payload: unknown }): string {
  return JSON.stringify({
    id: webhookId(event.id),
    type: event.type,
    created: event.createdAt.toISOString(),
    data: event.payload,
  })
}
