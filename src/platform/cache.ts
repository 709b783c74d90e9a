// In-process caches for the hot path (API keys, signing keys, principals, settings) and the bus
// that keeps them true across instances: a change publishes an invalidation that every instance
// applies at once (PostgreSQL LISTEN/NOTIFY; in-process only on the embedded database, which has a
// single owner process). TTLs are a backstop, not the mechanism.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { Clock } from './clock.ts'

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
  const entries = new Map<string, { value: V; expiresAt: number }>()
  // Loads in flight, so concurrent misses for one key share one query; a generation counter drops
  // results that were loaded before an invalidation.
  const pending = new Map<string, Promise<V | undefined>>()
  let generation = 0
  const cache: TtlCache<V> = {
    get(key) {
      const e = entries.get(key)
      if (!e) return undefined
      if (e.expiresAt <= options.clock.now().getTime()) {
        entries.delete(key)
        return undefined
      }
      return e.value
    },
    set(key, value) {
      if (entries.size >= options.maxEntries) entries.clear()
      entries.set(key, { value, expiresAt: options.clock.now().getTime() + options.ttlMs })
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
        p = load().then((value) => {
          if (value !== undefined && generation === startedAt) cache.set(key, value)
          return value
        }).finally(() => pending.delete(key))
        pending.set(key, p)
      }
      return p
    },
  }
  return cache
}

export type InvalidationBus = {
  /** Applies the invalidation here and on every other instance. Call after the change commits. */
  publish(topic: string, key: string): Promise<void>
  subscribe(topic: string, handler: (key: string) => void): void
  close(): Promise<void>
}

const CHANNEL = 'vpp_cache_invalidation'

export async function createInvalidationBus(databaseUrl: string | undefined): Promise<InvalidationBus> {
  const handlers = new Map<string, Array<(key: string) => void>>()
  const instance = randomUUID()
  const deliver = (topic: string, key: string) => {
    for (const h of handlers.get(topic) ?? []) h(key)
  }
  let client: pg.Client | undefined
  if (databaseUrl) {
    client = new pg.Client({ connectionString: databaseUrl })
    client.on('error', () => {
      // The listener lost its connection; TTLs bound staleness until the process restarts it.
    })
    await client.connect()
    await client.query(`listen ${CHANNEL}`)
    client.on('notification', (msg) => {
      if (!msg.payload) return
      const { from, topic, key } = JSON.parse(msg.payload) as { from: string; topic: string; key: string }
      if (from !== instance) deliver(topic, key)
    })
  }
  return {
    async publish(topic, key) {
      deliver(topic, key)
      if (client) {
        await client.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ from: instance, topic, key })])
      }
    },
    subscribe(topic, handler) {
      const list = handlers.get(topic) ?? []
      list.push(handler)
      handlers.set(topic, list)
    },
    async close() {
      await client?.end()
    },
  }
}
