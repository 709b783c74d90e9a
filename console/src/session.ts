// The signed-in session: the tenant's API key, the user's email and access token with its expiry,
// kept in sessionStorage (this tab only). When the token expires, or the API answers 401, the token
// is dropped and the user is sent to sign in again, the page they were on kept in `next`.
import { useSyncExternalStore } from 'react'

/** timeZone: the tenant's (general setting), read at sign-in; null when the user may not read settings. */
export type Session = {
  apiKey: string
  email: string
  token: string | null
  expiresAt: number
  timeZone: string | null
}

const KEY = 'vpp.console.session'
let current: Session | null = read()
let notice: string | null = null
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setTimeout> | undefined

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY)
    return raw ? (JSON.parse(raw) as Session) : null
  } catch {
    return null
  }
}

function write(next: Session | null) {
  current = next
  if (next) sessionStorage.setItem(KEY, JSON.stringify(next))
  else sessionStorage.removeItem(KEY)
  clearTimeout(timer)
  if (next?.token) {
    // setTimeout holds at most 2^31-1 ms; tokens live an hour by default.
    timer = setTimeout(() => expire(), Math.min(Math.max(0, next.expiresAt - Date.now()), 2 ** 31 - 1))
  }
  for (const l of listeners) l()
}

export function getSession(): Session | null {
  if (current?.token && current.expiresAt <= Date.now()) expire()
  return current
}

export function signedIn(s: Session | null): s is Session & { token: string } {
  return !!s?.token && s.expiresAt > Date.now()
}

export function startSession(
  apiKey: string,
  email: string,
  token: string,
  expiresInSeconds: number,
  timeZone: string | null,
) {
  notice = null
  write({ apiKey, email, token, expiresAt: Date.now() + expiresInSeconds * 1000, timeZone })
}

/** Token expired or refused: keep the API key and email for the sign-in form, drop the token. */
export function expire(message = 'Your session has expired. Sign in again to go on where you were.') {
  if (!current?.token) return
  notice = message
  write({ ...current, token: null, expiresAt: 0 })
}

export function signOut() {
  notice = 'You are signed out.'
  write(current ? { ...current, token: null, expiresAt: 0 } : null)
}

/** The message the sign-in page shows once (expired, signed out). */
export function takeNotice(): string | null {
  const n = notice
  notice = null
  return n
}

function subscribe(l: () => void) {
  listeners.add(l)
  return () => listeners.delete(l)
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, () => current)
}

if (current?.token) write(current)
