// Quote ids are self-describing and signed (decision 0006): the quote's inputs, dealer, rate-book
// version and times, signed with the tenant's HMAC key. Nothing is written per quote; a contract
// (or anyone showing the quote again) replays the quote from the immutable book version and gets
// exactly the same numbers. A tampered or foreign id fails verification.
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto'
import type { QuoteInputs } from './quote.rules.ts'

const PREFIX = 'q1'
/** 128 bits of HMAC-SHA256 are plenty against forgery and keep ids short. */
const SIGNATURE_BYTES = 16
/** Ids longer than this are refused before any parsing. */
export const MAX_QUOTE_ID_LENGTH = 4800

export type QuoteClaims = {
  tenantId: number
  dealerId: number
  bookId: number
  /** Issued and expiry instants, seconds since the epoch. */
  issuedAt: number
  expiresAt: number
  /** Fingerprint of the dealer's account-holder disbursements when quoted. */
  disbursements: string
  inputs: QuoteInputs
}

/** A Buffer, or (faster, for the hot path) a KeyObject made once from it with createSecretKey. */
export type QuoteKey = Buffer | KeyObject

function sign(key: QuoteKey, payload: string): string {
  return createHmac('sha256', key)
    .update(`${PREFIX}.${payload}`)
    .digest()
    .subarray(0, SIGNATURE_BYTES)
    .toString('base64url')
}

export function encodeQuoteId(key: QuoteKey, claims: QuoteClaims): string {
  const payload = Buffer.from(
    JSON.stringify([
      claims.tenantId,
      claims.dealerId,
      claims.bookId,
      claims.issuedAt,
      claims.expiresAt,
      claims.disbursements,
      claims.inputs,
    ]),
  ).toString('base64url')
  return `${PREFIX}.${payload}.${sign(key, payload)}`
}

function parseClaims(payload: string): QuoteClaims | undefined {
  try {
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown
    if (!Array.isArray(raw) || raw.length !== 7) return undefined
    const [tenantId, dealerId, bookId, issuedAt, expiresAt, disbursements, inputs] = raw as [
      unknown,
      unknown,
      unknown,
      unknown,
      unknown,
      unknown,
      unknown,
    ]
    if (
      ![tenantId, dealerId, bookId, issuedAt, expiresAt].every((n) => Number.isSafeInteger(n)) ||
      typeof disbursements !== 'string' ||
      typeof inputs !== 'object' ||
      inputs === null ||
      Array.isArray(inputs)
    )
      return undefined
    return {
      tenantId: tenantId as number,
      dealerId: dealerId as number,
      bookId: bookId as number,
      issuedAt: issuedAt as number,
      expiresAt: expiresAt as number,
      disbursements,
      inputs: inputs as QuoteInputs,
    }
  } catch {
    return undefined
  }
}

/** The claims of a quote id signed with `key`; undefined when malformed or the signature does not match. */
export function verifyQuoteId(key: QuoteKey, quoteId: string): QuoteClaims | undefined {
  if (quoteId.length > MAX_QUOTE_ID_LENGTH) return undefined
  const parts = quoteId.split('.')
  if (parts.length !== 3 || parts[0] !== PREFIX) return undefined
  const [, payload, signature] = parts as [string, string, string]
  // The signature's text is compared, not its decoded bytes: Node's base64url decoding ignores padding,
  // stray characters and the spare low bits of the last character, so other texts decode to the same bytes.
  const expected = Buffer.from(sign(key, payload), 'utf8')
  const given = Buffer.from(signature, 'utf8')
  // The signature is checked before anything of the payload is parsed.
  return given.length === expected.length && timingSafeEqual(given, expected) ? parseClaims(payload) : undefined
}
