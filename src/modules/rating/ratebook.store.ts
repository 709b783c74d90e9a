// Which rate-book version is in force, and its in-memory index. Versions are immutable, so an index
// built once stays right for as long as it is kept; only the tenant's version list changes, on
// import, and an import publishes on the invalidation bus so every instance re-reads the list.
import { gunzipSync } from 'node:zlib'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { buildRateBookIndex, type RateBookIndex } from './ratebook.index.ts'
import { listRateBookVersions, loadCatalogueIds, loadRateBookDocument, type RateBookVersionRow } from './ratebook.repository.ts'
import type { RateBook } from './ratebook.rules.ts'

export const RATE_BOOK_TOPIC = 'rating.rate_book'

/** Built indexes kept per instance; a 100,000-rate book takes tens of megabytes. */
const MAX_INDEXES = 8

export type RateBookStore = ReturnType<typeof createRateBookStore>

/**
 * How long a version list is trusted without an announcement: a safety net for an instance that
 * missed one (a dropped LISTEN connection). Future versions are in the list; the date picks them.
 */
const VERSION_LIST_TTL_MS = 60_000

export function createRateBookStore({ db, bus, clock }: { db: Database; bus: InvalidationBus; clock: Clock }) {
  const versions = new Map<number, { list: Promise<RateBookVersionRow[]>; loadedAt: number }>()
  const indexes = new Map<number, Promise<RateBookIndex>>()

  bus.subscribe(RATE_BOOK_TOPIC, (key) => versions.delete(Number(key.split(':')[0])))

  function versionList(tenantId: number): Promise<RateBookVersionRow[]> {
    const now = clock.now().getTime()
    const cached = versions.get(tenantId)
    if (cached && now - cached.loadedAt < VERSION_LIST_TTL_MS) return cached.list
    const list = db.read(tenantId, (x) => listRateBookVersions(x, tenantId))
    versions.set(tenantId, { list, loadedAt: now })
    list.catch(() => versions.delete(tenantId))
    return list
  }

  function index(tenantId: number, row: RateBookVersionRow): Promise<RateBookIndex> {
    let built = indexes.get(row.id)
    if (built) {
      // Most recently used last, so the oldest unused index leaves first.
      indexes.delete(row.id)
      indexes.set(row.id, built)
      return built
    }
    built = (async () => {
      const [document, ids] = await db.read(tenantId, (x) => Promise.all([loadRateBookDocument(x, tenantId, row.id), loadCatalogueIds(x, tenantId)]))
      if (!document) throw new Error(`rate book ${row.id} vanished`)
      const book = JSON.parse(gunzipSync(document).toString('utf8')) as RateBook
      return buildRateBookIndex(row.id, row.version, book, ids)
    })()
    indexes.set(row.id, built)
    built.catch(() => indexes.delete(row.id))
    if (indexes.size > MAX_INDEXES) indexes.delete(indexes.keys().next().value!)
    return built
  }

  return {
    versions: versionList,
    /**
     * The version in force on `date` (YYYY-MM-DD): of the versions effective on or before it, the
     * latest imported. Undefined when the tenant has none.
     */
    async inForce(tenantId: number, date: string): Promise<RateBookIndex | undefined> {
      const row = (await versionList(tenantId)).find((v) => v.effective_date <= date)
      return row && index(tenantId, row)
    },
    /** A version by number, in force or not. */
    async byVersion(tenantId: number, version: number): Promise<RateBookIndex | undefined> {
      const row = (await versionList(tenantId)).find((v) => v.version === version)
      return row && index(tenantId, row)
    },
    /** A version by its id (what quote ids carry). */
    async byId(tenantId: number, bookId: number): Promise<RateBookIndex | undefined> {
      const row = (await versionList(tenantId)).find((v) => v.id === bookId)
      return row && index(tenantId, row)
    },
    invalidate: (tenantId: number) => bus.publish(RATE_BOOK_TOPIC, `${tenantId}:`),
  }
}
