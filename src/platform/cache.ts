// In-process caches for the hot path (API keys, signing keys, principals, settings) and the bus
// that keeps them true across instances: a change publishes an invalidation that every instance
// applies at once (PostgreSQL LISTEN/NOTIFY; in-process only on the embedded database, which has a
// single owner process). TTLs are a backstop, not the mechanism.
//
// The LISTEN connection can drop (a database restart, a terminated backend, a network reset). The
// bus then reconnects by itself with capped exponential backoff, and because announcements made
// while it was away are lost for good, every cache of the process forgets everything when the
// connection is lost and again when it is back, and in between keeps values only briefly
// (UNSYNCHRONISED_TTL_MS). Publishing never fails the caller: the change it announces is already
// committed; an announcement that cannot be sent is kept and sent once the bus is back.
//
// The bus holds one session connection of its own, to DATABASE_LISTEN_URL (default DATABASE_URL),
// and sends its announcements on that same connection, never through the pool: LISTEN belongs to a
// session, which a transaction-pooling proxy (PgBouncer in transaction mode) does not keep, so
// behind one that URL must reach PostgreSQL directly or through a session-mode pool.
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import type { Clock } from './clock.ts'

/** How long a cached value is trusted while some bus of this process cannot hear announcements. */
export const UNSYNCHRONISED_TTL_MS = 1_000

/**
 * Every TtlCache of the process (weakly: a cache dropped by its owner is not kept alive), so a bus
 * that may have missed announcements can make them all forget without each owner subscribing to a
 * separate signal; the price of forgetting is a reload, never a wrong answer.
 */
const liveCaches = new Set<WeakRef<{ clear(): void }>>()
let pruneAt = 64
function registerCache(cache: { clear(): void }): void {
  liveCaches.add(new WeakRef(cache))
  if (liveCaches.size >= pruneAt) {
    for (const ref of liveCaches) if (!ref.deref()) liveCaches.delete(ref)
    pruneAt = Math.max(64, liveCaches.size * 2)
  }
}

/** Empties every TtlCache of this process. */
export function forgetAllCachedValues(): void {
  for (const ref of liveCaches) {
    const cache = ref.deref()
    if (cache) cache.clear()
    else liveCaches.delete(ref)
  }
}

/** Buses of this process that are not hearing announcements right now. */
const deafBuses = new Set<symbol>()
/** True while some bus of this process may be missing announcements, so caches keep values only briefly. */
export function cachesUnsynchronised(): boolean {
  return deafBuses.size > 0
}

export type TtlCache<V> = {
  get(key: string): V | undefined
  set(key: string, value: V): void
  delete(key: string): void
  /** Deletes every key starting with `prefix` (keys are `tenant:rest`). */
  deletePrefix(prefix: string): void
  clear(): void
  /** Returns the cached value, or loads, caches (unless undefined) and returns it. */
  getOrLoad(key: string, load: () => Promise<V | undefined>): Promise<V | undefined>
}

export function createTtlCache<V>(options: { ttlMs: number; maxEntries: number; clock: Clock }): TtlCache<V> {
  // `trustUntil` is on the monotonic clock, not the injected one: it bounds how long a value stored
  // while announcements may be missed is served, whatever the (possibly frozen, in tests) clock says.
  const entries = new Map<string, { value: V; expiresAt: number; trustUntil: number }>()
  // Loads in flight, so concurrent misses for one key share one query; a generation counter drops
  // results that were loaded before an invalidation.
  const pending = new Map<string, Promise<V | undefined>>()
  let generation = 0
  const cache: TtlCache<V> = {
    get(key) {
      const e = entries.get(key)
      if (!e) return undefined
      if (e.expiresAt <= options.clock.now().getTime() || e.trustUntil <= performance.now()) {
        entries.delete(key)
        return undefined
      }
      return e.value
    },
    set(key, value) {
      if (entries.size >= options.maxEntries) entries.clear()
      const trustUntil = cachesUnsynchronised() ? performance.now() + UNSYNCHRONISED_TTL_MS : Infinity
      entries.set(key, { value, expiresAt: options.clock.now().getTime() + options.ttlMs, trustUntil })
    },
    delete(key) {
      generation++
      entries.delete(key)
    },
    deletePrefix(prefix) {
      generation++
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key)
    },
    clear() {
      generation++
      entries.clear()
    },
    async getOrLoad(key, load) {
      const hit = cache.get(key)
      if (hit !== undefined) return hit
      let p = pending.get(key)
      if (!p) {
        const startedAt = generation
        p = load()
          .then((value) => {
            if (value !== undefined && generation === startedAt) cache.set(key, value)
            return value
          })
          .finally(() => pending.delete(key))
        pending.set(key, p)
      }
      return p
    },
  }
  registerCache(cache)
  return cache
}

export type BusLog = {
  info(obj: Record<string, unknown>, msg: string): void
  warn(obj: Record<string, unknown>, msg: string): void
  error(obj: Record<string, unknown>, msg: string): void
}

export type BusStatus = {
  /** `local`: in-process only (the embedded database); `postgres`: LISTEN/NOTIFY. */
  mode: 'local' | 'postgres'
  /** `listening`: announcements flow; `reconnecting`: the connection is lost and being re-opened. */
  state: 'listening' | 'reconnecting' | 'closed'
  /** When `state` last changed. */
  since: Date
  /** Connections re-opened after a loss since the bus started. */
  reconnects: number
  /** Announcements made here that wait for the connection to be sent to other instances. */
  pendingPublishes: number
  /** The PostgreSQL backend of the LISTEN connection (pg_stat_activity.pid), while listening. */
  backendPid?: number
  lastError?: string
}

export type InvalidationBus = {
  /**
   * Applies the invalidation here and on every other instance. Call after the change commits.
   * Never rejects: when the announcement cannot be sent now it is logged and sent on reconnect.
   */
  publish(topic: string, key: string): Promise<void>
  subscribe(topic: string, handler: (key: string) => void): void
  status(): BusStatus
  close(): Promise<void>
}

export type BusOptions = {
  log?: BusLog
  /** First reconnection delay; doubled per failed attempt up to `reconnectMaxMs` (each with jitter). */
  reconnectInitialMs?: number
  reconnectMaxMs?: number
  /** How often the LISTEN connection is checked, which finds connections that died silently. */
  heartbeatMs?: number
}

const CHANNEL = 'vpp_cache_invalidation'
/** application_name of the LISTEN connection, so operators can tell it apart in pg_stat_activity. */
export const BUS_APPLICATION_NAME = 'vpp-invalidation-bus'
const CONNECT_TIMEOUT_MS = 5_000
const QUERY_TIMEOUT_MS = 5_000
/** Beyond this many held announcements one "forget everything" replaces them all. */
const MAX_PENDING = 10_000

type Message = { from: string; topic: string; key: string } | { from: string; flush: true }

const stderrLog: BusLog = {
  info: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
  warn: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
  error: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
}

class TimedOut extends Error {}

/**
 * Queries on the bus connection one after another (publishes from concurrent requests, the
 * heartbeat): pg deprecates overlapping queries on one client.
 */
const queues = new WeakMap<pg.Client, Promise<unknown>>()
function queued<T>(c: pg.Client, run: () => Promise<T>): Promise<T> {
  const next = (queues.get(c) ?? Promise.resolve()).then(run)
  queues.set(
    c,
    next.catch(() => {}),
  )
  return next
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} did not answer within ${ms} ms`)), ms)
  })
  // The losing promise may still reject later; that is expected and handled by whoever lost it.
  p.catch(() => {})
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

/**
 * `listenUrl`: a PostgreSQL URL whose connections are sessions (config.databaseListenUrl, never a
 * transaction pooler); absent, the in-process bus of the embedded database.
 */
export async function createInvalidationBus(
  listenUrl: string | undefined,
  options: BusOptions = {},
): Promise<InvalidationBus> {
  const log = options.log ?? stderrLog
  const handlers = new Map<string, Array<(key: string) => void>>()
  const instance = randomUUID()
  const deliver = (topic: string, key: string) => {
    for (const h of handlers.get(topic) ?? []) {
      try {
        h(key)
      } catch (err) {
        log.error({ err, topic }, 'cache invalidation handler failed')
      }
    }
  }
  const subscribe = (topic: string, handler: (key: string) => void) => {
    const list = handlers.get(topic) ?? []
    list.push(handler)
    handlers.set(topic, list)
  }

  if (!listenUrl) {
    const since = new Date()
    let closed = false
    return {
      async publish(topic, key) {
        deliver(topic, key)
      },
      subscribe,
      status: () => ({
        mode: 'local',
        state: closed ? 'closed' : 'listening',
        since,
        reconnects: 0,
        pendingPublishes: 0,
      }),
      async close() {
        closed = true
      },
    }
  }

  const initialMs = options.reconnectInitialMs ?? 100
  const maxMs = options.reconnectMaxMs ?? 5_000
  const heartbeatMs = options.heartbeatMs ?? 10_000
  const deaf = Symbol('bus')
  let client: pg.Client | undefined
  let state: BusStatus['state'] = 'reconnecting'
  let since = new Date()
  let reconnects = 0
  let attempt = 0
  let lastError: string | undefined
  let reconnectTimer: NodeJS.Timeout | undefined
  let heartbeatTimer: NodeJS.Timeout | undefined
  // Announcements not yet sent to other instances, each once (an invalidation applied twice is harmless).
  const pending = new Map<string, { topic: string; key: string }>()
  let pendingFlush = false

  const onNotification = (msg: pg.Notification) => {
    if (!msg.payload) return
    let m: Message
    try {
      m = JSON.parse(msg.payload) as Message
    } catch {
      return
    }
    if (m.from === instance) return
    if ('flush' in m) forgetAllCachedValues()
    else deliver(m.topic, m.key)
  }

  async function open(): Promise<pg.Client> {
    const c = new pg.Client({
      connectionString: listenUrl,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: BUS_APPLICATION_NAME,
    })
    // Listeners for the client's whole life: pg emits 'error' when the connection drops, and an
    // unheard 'error' would end the process.
    c.on('error', (err) => lost(c, err))
    c.on('end', () => lost(c, new Error('Connection terminated')))
    c.on('notification', onNotification)
    try {
      await c.connect()
      await withTimeout(c.query(`listen ${CHANNEL}`), QUERY_TIMEOUT_MS, 'LISTEN')
    } catch (err) {
      void c.end().catch(() => {})
      throw err
    }
    return c
  }

  function lost(c: pg.Client, err: Error): void {
    if (c !== client || state === 'closed') return
    client = undefined
    clearInterval(heartbeatTimer)
    void c.end().catch(() => {})
    state = 'reconnecting'
    since = new Date()
    lastError = err.message
    // Announcements from now on are missed: what is cached may go stale without notice, so it goes,
    // and until the bus is back values are kept only briefly.
    deafBuses.add(deaf)
    forgetAllCachedValues()
    log.warn({ err: err.message }, 'cache invalidation bus lost its connection; reconnecting')
    scheduleReconnect()
  }

  function scheduleReconnect(): void {
    if (state === 'closed' || reconnectTimer) return
    const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 20))
    const delay = ceiling / 2 + Math.random() * (ceiling / 2)
    attempt++
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined
      void reconnect()
    }, delay)
    // The bus alone must not keep a process alive (the CLI, a test that forgot to close it).
    reconnectTimer.unref()
  }

  async function reconnect(): Promise<void> {
    let c: pg.Client
    try {
      c = await open()
    } catch (err) {
      lastError = (err as Error).message
      // Every attempt while the outage is young, then one line in ten.
      if (attempt <= 3 || attempt % 10 === 0)
        log.warn({ err: lastError, attempt }, 'cache invalidation bus could not reconnect yet')
      scheduleReconnect()
      return
    }
    if (state === 'closed') {
      await c.end().catch(() => {})
      return
    }
    listening(c)
    reconnects++
    // What changed while the bus was away was never announced here: forget it all.
    forgetAllCachedValues()
    log.info({ reconnects, backendPid: pidOf(c) }, 'cache invalidation bus reconnected; local caches flushed')
    await sendPending(c)
  }

  function listening(c: pg.Client): void {
    client = c
    state = 'listening'
    since = new Date()
    attempt = 0
    lastError = undefined
    deafBuses.delete(deaf)
    clearInterval(heartbeatTimer)
    heartbeatTimer = setInterval(() => {
      withTimeout(
        queued(c, () => c.query('select 1')),
        QUERY_TIMEOUT_MS,
        'bus heartbeat',
      ).catch((err: Error) => lost(c, err))
    }, heartbeatMs)
    heartbeatTimer.unref()
  }

  const notify = (c: pg.Client, m: Message) =>
    withTimeout(
      queued(c, () => c.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(m)])),
      QUERY_TIMEOUT_MS,
      'NOTIFY',
    )

  function hold(topic: string, key: string): void {
    if (pendingFlush) return
    pending.set(`${topic}\u0000${key}`, { topic, key })
    if (pending.size > MAX_PENDING) {
      pending.clear()
      pendingFlush = true
    }
  }

  async function sendPending(c: pg.Client): Promise<void> {
    if (!pendingFlush && pending.size === 0) return
    const flush = pendingFlush
    const batch = [...pending.values()]
    pendingFlush = false
    pending.clear()
    try {
      if (flush) await notify(c, { from: instance, flush: true })
      for (const { topic, key } of batch) await notify(c, { from: instance, topic, key })
      log.info(
        { sent: flush ? 'flush' : batch.length },
        'cache invalidation bus sent the announcements held while it was away',
      )
    } catch (err) {
      // Still unsent: keep them for the next connection.
      if (flush) pendingFlush = true
      for (const { topic, key } of batch) hold(topic, key)
      if (err instanceof TimedOut) lost(c, err)
    }
  }

  listening(await open())

  return {
    async publish(topic, key) {
      deliver(topic, key)
      const c = client
      if (state === 'closed') return
      if (!c) {
        hold(topic, key)
        return
      }
      try {
        await notify(c, { from: instance, topic, key })
      } catch (err) {
        hold(topic, key)
        log.warn({ err: (err as Error).message, topic }, 'cache invalidation not sent; held until the bus reconnects')
        if (err instanceof TimedOut) lost(c, err)
      }
    },
    subscribe,
    status() {
      const pid = client ? pidOf(client) : undefined
      return {
        mode: 'postgres',
        state,
        since,
        reconnects,
        pendingPublishes: pending.size + (pendingFlush ? 1 : 0),
        ...(pid !== undefined ? { backendPid: pid } : {}),
        ...(lastError !== undefined ? { lastError } : {}),
      }
    },
    async close() {
      if (state === 'closed') return
      state = 'closed'
      since = new Date()
      clearTimeout(reconnectTimer)
      clearInterval(heartbeatTimer)
      deafBuses.delete(deaf)
      const c = client
      client = undefined
      await c?.end().catch(() => {})
    },
  }
}

function pidOf(c: pg.Client): number | undefined {
  const pid = (c as unknown as { processID?: unknown }).processID
  return typeof pid === 'number' ? pid : undefined
}
