// Counts failed authentications in fixed one-minute windows, per key. The callers choose the keys:
// a sign-in identity with the client address (so guessing one user's password from one address is
// throttled while everyone else behind that address still signs in), or the address alone for
// credentials that are not guessable anyway (API keys, signed tokens). Memory is bounded: the
// counters are dropped at each window's end, and at most MAX_KEYS are kept within a window.
import type { Clock } from '../clock.ts'
import { platformErrors } from '../http/errors.ts'

const WINDOW_MS = 60_000
/**
 * Distinct keys counted in one window. Beyond it new keys are not counted until the window ends;
 * the per-API-key request limit bounds how fast anyone can get there.
 */
const MAX_KEYS = 100_000

export type FailureLimiter = {
  /** True when `key` has failed `limitPerMinute` times in the current window. */
  exceeded(key: string): boolean
  /** Counts one failure of `key`. */
  fail(key: string): void
  /** Forgets the failures of `key` (after it authenticated). */
  reset(key: string): void
  /** 429 rate_limited with Retry-After until the current window ends. */
  refusal(detail: string): Error
}

export function createFailureLimiter(limitPerMinute: number, clock: Clock): FailureLimiter {
  let windowStart = 0
  let counts = new Map<string, number>()
  const roll = () => {
    const now = clock.now().getTime()
    if (now - windowStart >= WINDOW_MS) {
      windowStart = now
      counts = new Map()
    }
    return now
  }
  return {
    exceeded(key) {
      roll()
      return (counts.get(key) ?? 0) >= limitPerMinute
    },
    fail(key) {
      roll()
      const count = counts.get(key)
      if (count !== undefined) counts.set(key, count + 1)
      else if (counts.size < MAX_KEYS) counts.set(key, 1)
    },
    reset(key) {
      counts.delete(key)
    },
    refusal(detail) {
      const now = roll()
      const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000))
      return platformErrors.create('rate_limited', detail, {
        headers: { 'retry-after': String(retryAfter) },
        extensions: { retryAfterSeconds: retryAfter },
      })
    },
  }
}

/**
 * Throttles guesses at one identity's secret (a password) from one client address. `check` comes
 * before the secret is checked, so a throttled guess costs no hashing and reveals nothing, right or
 * wrong; `failed` and `succeeded` report the outcome.
 */
export type SignInThrottle = {
  check(identity: string): void
  failed(identity: string): void
  succeeded(identity: string): void
}

export function signInThrottle(limiter: FailureLimiter, address: string): SignInThrottle {
  // JSON keeps an identity containing the separator from colliding with another pair.
  const key = (identity: string) => JSON.stringify(['sign-in', identity, address])
  return {
    check(identity) {
      if (limiter.exceeded(key(identity))) {
        throw limiter.refusal('Too many failed sign-ins for this user from this address')
      }
    },
    failed: (identity) => limiter.fail(key(identity)),
    succeeded: (identity) => limiter.reset(key(identity)),
  }
}
