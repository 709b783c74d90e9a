// Which rate-book version is in force, and its compiled form (ratebook.compiled.ts). Versions are
// immutable, so a book compiled once stays right for as long as it is kept; only the tenant's version
// list changes, on import, and an import publishes on the invalidation bus so every instance re-reads
// the list.
import { gunzipSync } from 'node:zlib'
import { createTtlCache, type InvalidationBus } from '../../../platform/cache.ts'
import type { Clock } from '../../../platform/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import { compileRateBook, type CompiledRateBook } from './ratebook.compiled.ts'
import {
  listRateBookVersions,
  loadCatalogueIds,
  loadRateBookDocument,
  type RateBookVersionRow,
} from './ratebook.repository.ts'
import type { RateBook } from './ratebook.rules.ts'

export const RATE_BOOK_TOPIC = 'rating.rate_book'

/**
 * Built indexes kept per instance, measured in rates (a 100,000-rate index takes on the order of
 * 100 MB): room for many tenants' small books or a few large ones, least recently used out first.
 * The index just asked for is never the one evicted.
 */
const INDEX_RATE_BUDGET = 400_000
const MAX_INDEXES = 256

export type RateBookStore = ReturnType<typeof createRateBookStore>

/**
 * How long a version list is trusted without an announcement: a safety net for an instance that
 * missed one. Future versions are in the list; the date picks them. A TtlCache, so that a bus that
 * lost its connection empties it and trusts what is loaded meanwhile for a second only
 * (platform/cache.ts), as every other cache of announced data.
 */
const VERSION_LIST_TTL_MS = 60_000

/** The version in force on `date` (YYYY-MM-DD): of those effective on or before it, the latest imported (`rows` newest first). */
export function versionInForce<R extends { effective_date: string }>(rows: readonly R[], date: string): R | undefined {
  return rows.find((v) => v.effective_date <= date)
}

export function createRateBookStore({ db, bus, clock }: { db: Database; bus: InvalidationBus; clock: Clock }) {
  // The list in flight is what is kept, so concurrent first requests share one read.
  const versions = createTtlCache<Promise<RateBookVersionRow[]>>({
    ttlMs: VERSION_LIST_TTL_MS,
    maxEntries: 100_000,
    clock,
  })
  const indexes = new Map<number, { built: Promise<CompiledRateBook>; rates: number }>()
  let heldRates = 0
  const drop = (bookId: number) => {
    const entry = indexes.get(bookId)
    if (!entry) return
    indexes.delete(bookId)
    heldRates -= entry.rates
  }

  bus.subscribe(RATE_BOOK_TOPIC, (key) => versions.delete(key.split(':')[0]!))

  function versionList(tenantId: number): Promise<RateBookVersionRow[]> {
    const key = String(tenantId)
    const cached = versions.get(key)
    if (cached) return cached
    const list = db.read(tenantId, (x) => listRateBookVersions(x, tenantId))
    versions.set(key, list)
    list.catch(() => versions.delete(key))
    return list
  }

  function index(tenantId: number, row: RateBookVersionRow): Promise<CompiledRateBook> {
    const held = indexes.get(row.id)
    if (held) {
      // Most recently used last, so the oldest unused index leaves first.
      indexes.delete(row.id)
      indexes.set(row.id, held)
      return held.built
    }
    const built = (async () => {
      const [document, ids] = await db.read(tenantId, (x) =>
        Promise.all([loadRateBookDocument(x, tenantId, row.id), loadCatalogueIds(x, tenantId)]),
      )
      if (!document) throw new Error(`rate book ${row.id} vanished`)
      const book = JSON.parse(gunzipSync(document).toString('utf8')) as RateBook
      return compileRateBook(row.id, row.version, book, ids)
    })()
    const rates = Math.max(1, row.summary.rates ?? 1)
    indexes.set(row.id, { built, rates })
    heldRates += rates
    built.catch(() => drop(row.id))
    for (const bookId of indexes.keys()) {
      if (heldRates <= INDEX_RATE_BUDGET && indexes.size <= MAX_INDEXES) break
      if (bookId !== row.id) drop(bookId)
    }
    return built
  }

  return {
    versions: versionList,
    /**
     * The version in force on `date` (YYYY-MM-DD): of the versions effective on or before it, the
     * latest imported. Undefined when the tenant has none.
     */
    async inForce(tenantId: number, date: string): Promise<CompiledRateBook | undefined> {
      const row = versionInForce(await versionList(tenantId), date)
      return row && index(tenantId, row)
    },
    /** A version by number, in force or not. */
    async byVersion(tenantId: number, version: number): Promise<CompiledRateBook | undefined> {
      const row = (await versionList(tenantId)).find((v) => v.version === version)
      return row && index(tenantId, row)
    },
    /** A version by its id (what quote ids carry). */
    async byId(tenantId: number, bookId: number): Promise<CompiledRateBook | undefined> {
      const row = (await versionList(tenantId)).find((v) => v.id === bookId)
      return row && index(tenantId, row)
    },
    invalidate: (tenantId: number) => bus.publish(RATE_BOOK_TOPIC, `${tenantId}:`),
  }
}
