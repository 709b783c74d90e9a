// The one pagination helper. Plain collections: limit/offset with X-Total-Count. Paged
// collections: { items, pageNumber, pageSize, totalCount, totalPages }.
import type { FastifyReply } from 'fastify'
import { sql, type SelectQueryBuilder } from 'kysely'

export const DEFAULT_PAGE_SIZE = 100
export const MAX_PAGE_SIZE = 1000

export type Window = { limit: number; offset: number }

const isWindowBound = (n: number) => Number.isSafeInteger(n) && n >= 0

export function listWindow(query: { limit?: number; offset?: number }): Window {
  return {
    limit: Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    offset: query.offset ?? 0,
  }
}

export function pageWindow(query: {
  pageNumber?: number
  pageSize?: number
}): Window & { pageNumber: number; pageSize: number } {
  const pageSize = Math.min(query.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
  const pageNumber = query.pageNumber ?? 1
  return { pageNumber, pageSize, limit: pageSize, offset: (pageNumber - 1) * pageSize }
}

export type Page<T> = { items: T[]; pageNumber: number; pageSize: number; totalCount: number; totalPages: number }

export function toPage<T>(items: T[], totalCount: number, window: { pageNumber: number; pageSize: number }): Page<T> {
  return {
    items,
    pageNumber: window.pageNumber,
    pageSize: window.pageSize,
    totalCount,
    totalPages: Math.ceil(totalCount / window.pageSize),
  }
}

/**
 * A page whose items are already JSON text (an array the database built in the reply's shape), as
 * the JSON text of the whole page: sent as it is, with nothing parsed or serialized in between.
 */
export function toPageJson(itemsJson: string, totalCount: number, window: { pageNumber: number; pageSize: number }) {
  const { pageNumber, pageSize, totalPages } = toPage([], totalCount, window)
  return `{"items":${itemsJson},"pageNumber":${pageNumber},"pageSize":${pageSize},"totalCount":${totalCount},"totalPages":${totalPages}}`
}

/** Sends a plain list with its total in X-Total-Count. */
export function sendList<T>(reply: FastifyReply, result: { items: T[]; totalCount: number }): T[] {
  reply.header('x-total-count', String(result.totalCount))
  return result.items
}

/**
 * Applies a window to a query. The bounds are written as literals, not parameters: with them as
 * parameters PostgreSQL kept re-planning the prepared statement instead of using its generic plan.
 */
export function windowed<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  window: Window,
): SelectQueryBuilder<DB, TB, O> {
  // Literals go into the SQL text as written: anything but a non-negative safe integer (Infinity,
  // 1e26) would be a database error at best. The route schemas bound limit, offset and pages
  // (platform/http/schemas.ts); reaching this means a route took paging values without them.
  if (!isWindowBound(window.limit) || !isWindowBound(window.offset))
    throw new RangeError(`unbounded list window ${window.limit}/${window.offset}`)
  return query.limit(sql.lit(window.limit)).offset(sql.lit(window.offset))
}
