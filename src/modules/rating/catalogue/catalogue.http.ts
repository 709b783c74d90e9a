// What every catalogue route shares (docs/rate-catalogue.md "Which rate-book version"): choosing
// the version a request reads (`date` / `version`, the X-Rate-Book-Version header) and matching
// enum filters in any case.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { authenticatedContext } from '../../../platform/http/context.ts'
import { platformErrors } from '../../../platform/http/errors.ts'
import type { CompiledRateBook, RateBookStore } from '../ratebook/index.ts'
import { catalogueErrors } from './catalogue.errors.ts'

export const BOOK_HEADER = 'x-rate-book-version'

export type BookQuery = { date?: string | undefined; version?: number | undefined }

/** Enum filters are matched in any case, like paths: upper-cased before the schema checks them. */
export const upperCaseQuery =
  (...names: string[]) =>
  async (req: FastifyRequest) => {
    const query = req.query as Record<string, unknown>
    for (const name of names) {
      const value = query[name]
      if (typeof value === 'string') query[name] = value.trim().toUpperCase()
    }
  }

export const invalidQuery = (field: string, code: string, message: string) =>
  platformErrors.create('validation_failed', `1 invalid field(s) in the query string: ${field}`, {
    errors: [{ field, code, message }],
  })

/**
 * The version a request reads: version `version`, else the one in force on `date` (default today in
 * the tenant's zone); undefined when none is in force. 400 for both, 404 rate_book_not_found for an
 * unknown version. Sets X-Rate-Book-Version to the version read.
 */
export function createBookReader(store: RateBookStore, today: (tenantId: number) => Promise<string>) {
  return async function bookOf(
    req: FastifyRequest,
    res: FastifyReply,
    q: BookQuery,
  ): Promise<CompiledRateBook | undefined> {
    if (q.date !== undefined && q.version !== undefined)
      throw invalidQuery('version', 'conflict', 'give either date or version, not both')
    const { tenantId } = authenticatedContext(req)
    const book =
      q.version === undefined
        ? await store.inForce(tenantId, q.date ?? (await today(tenantId)))
        : await store.byVersion(tenantId, q.version)
    if (!book && q.version !== undefined)
      throw catalogueErrors.create('rate_book_not_found', `rate book version ${q.version} does not exist`)
    if (book) res.header(BOOK_HEADER, String(book.version))
    return book
  }
}
