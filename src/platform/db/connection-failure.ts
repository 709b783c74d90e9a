// Which failures mean "the database cannot be reached right now" rather than "this request is
// wrong" or "the code is wrong". They are transient: the pool replaces broken connections by itself,
// so the caller is told to retry (503 database_unavailable with Retry-After) instead of receiving a
// 500 that reads like a bug, and an operator sees an outage instead of a stream of stack traces.

/** How long a client is asked to wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 2

/**
 * SQLSTATEs of a lost or refused connection: class 08 (connection exception), 57P01 admin_shutdown
 * (fast or immediate shutdown, pg_terminate_backend), 57P02 crash_shutdown (another backend
 * crashed), 57P03 cannot_connect_now (starting up, shutting down, in recovery), 53300
 * too_many_connections (the server's slots are full, typically while clients reconnect en masse).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])
const SQLSTATE_CLASSES = ['08']

/** Socket errors from connecting or from a connection dropped underneath a query. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ECONNABORTED',
  'EAI_AGAIN',
  'ENOTFOUND',
])

/**
 * node-postgres and pg-pool report a lost connection, a client left unusable by one, and a pool
 * that could not hand out a connection in time with plain Errors carrying no code: these messages
 * are the only signal.
 */
const MESSAGES = [
  /^Connection terminated/, // "Connection terminated unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^terminating connection due to administrator command$/,
]

function isConnectionFailureItself(err: { code?: unknown; message?: unknown }): boolean {
  const code = typeof err.code === 'string' ? err.code : undefined
  if (code !== undefined) {
    if (SQLSTATES.has(code) || SOCKET_CODES.has(code)) return true
    if (/^[0-9A-Z]{5}$/.test(code)) return SQLSTATE_CLASSES.some((c) => code.startsWith(c))
  }
  const message = typeof err.message === 'string' ? err.message : ''
  return MESSAGES.some((m) => m.test(message))
}

/**
 * True when `err` (or what it wraps: `cause`, or the attempts of an AggregateError, which Node
 * raises when every address of a host refuses) is a connection-level failure.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (depth > 5 || err === null || typeof err !== 'object') return false
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
  if (isConnectionFailureItself(e)) return true
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x) => isDatabaseUnavailable(x, depth + 1)))
    return true
  return e.cause !== undefined && isDatabaseUnavailable(e.cause, depth + 1)
}
