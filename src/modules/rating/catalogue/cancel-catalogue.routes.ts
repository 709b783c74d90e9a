// Cancel methods and cancel reasons (spec §4.3 "Cancellation", docs/rate-catalogue.md "Cancel methods
// and reasons"): v1 lists and by id, v2 paged lists and by id or code, read from the rate-book version
// in force (or `date`, `version`) like the rest of the catalogue. An item the version no longer has
// stays readable by id: it is answered from the newest earlier version that has it, marked retired,
// because contracts sold under that version keep naming it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../../platform/http/context.ts'
import { listWindow, pageWindow, sendList, toPage } from '../../../platform/http/pagination.ts'
import { problemResponses } from '../../../platform/http/schemas.ts'
import { isStorableId } from '../../../platform/ids.ts'
import type {
  CancelMethodTerms,
  CancelReasonTerms,
  CatalogueItemRow,
  CompiledRateBook,
  RateBookStore,
} from '../ratebook/index.ts'
import { catalogueErrors } from './catalogue.errors.ts'
import { BOOK_HEADER, createBookReader, upperCaseQuery } from './catalogue.http.ts'
import { windowOf } from './catalogue.rules.ts'
import { BookOnlyQuery } from './catalogue.schemas.ts'
import {
  cancelMethodFilter,
  cancelMethodItem,
  cancelReasonFilter,
  cancelReasonItem,
  parseIdentifier,
} from './cancel-catalogue.rules.ts'
import {
  CancelMethodDetailSchema,
  CancelMethodIdParams,
  CancelMethodListQuery,
  CancelMethodPageQuery,
  CancelMethodPageSchema,
  CancelMethodSchema,
  CancelReasonDetailSchema,
  CancelReasonIdParams,
  CancelReasonListQuery,
  CancelReasonPageQuery,
  CancelReasonPageSchema,
  CancelReasonSchema,
  IdentifierParams,
} from './cancel-catalogue.schemas.ts'

const TAGS = ['Cancellations']
const READ = { permission: 'rates:read' }

const WHICH_BOOK =
  'Read from the rate book in force today, on `date`, or version `version`; the version read is in the X-Rate-Book-Version header.'
const NO_BOOK_LIST = 'Without a rate book in force: an empty list.'
const RETIRED =
  'An item the version no longer has is answered from the newest earlier version that has it, with `retired: true` and that version in `lastVersion` and in X-Rate-Book-Version.'
const NOT_FOUND =
  'Without a rate book in force: 404 rate_book_not_found; an id that is no item of this kind of the tenant (unknown, of another kind or of another tenant), or one only later versions have: 404 catalogue_item_not_found.'
const describe = (...parts: string[]) => parts.join(' ')

type Query = { date?: string | undefined; version?: number | undefined }
type Ref = { id: number | undefined; code: string | undefined }
type Kind = 'CANCEL_METHOD' | 'CANCEL_REASON'

/** How each kind is read from a compiled book. */
type Catalogue<T> = {
  kind: Kind
  noun: string
  byId: (book: CompiledRateBook) => ReadonlyMap<number, T>
  byCode: (book: CompiledRateBook) => ReadonlyMap<string, T>
}
const METHODS: Catalogue<CancelMethodTerms> = {
  kind: 'CANCEL_METHOD',
  noun: 'cancel method',
  byId: (b) => b.cancelMethodById,
  byCode: (b) => b.cancelMethodByCode,
}
const REASONS: Catalogue<CancelReasonTerms> = {
  kind: 'CANCEL_REASON',
  noun: 'cancel reason',
  byId: (b) => b.cancelReasonById,
  byCode: (b) => b.cancelReasonByCode,
}

export const cancelCatalogueRoutes: FastifyPluginAsyncTypebox<{
  store: RateBookStore
  today: (tenantId: number) => Promise<string>
  /** A catalogue item of the tenant by id, or by kind and code (ratebook findCatalogueItem). */
  catalogueItem: (
    tenantId: number,
    by: { id: number } | { kind: Kind; code: string },
  ) => Promise<CatalogueItemRow | undefined>
}> = async (app, { store, today, catalogueItem }) => {
  /** The version the request reads, or undefined when none is in force on the date. */
  const bookOf = createBookReader(store, today)

  /**
   * The item `ref` names, from the version read when it has it; else, when the tenant has such an
   * item, from the newest version before the one read that has it (retired). An id is tried before
   * a code. Versions are immutable and compiled ones kept by the store, so a retired item costs a
   * database read for its row and, once per instance, the compilation of the version it is read from.
   */
  async function find<T>(
    req: FastifyRequest,
    res: FastifyReply,
    c: Catalogue<T>,
    q: Query,
    ref: Ref,
  ): Promise<{ terms: T; retired: boolean; lastVersion: number | null }> {
    const book = await bookOf(req, res, q)
    if (!book)
      throw catalogueErrors.create(
        'rate_book_not_found',
        `no rate book is in force ${q.date ? `on ${q.date}` : 'today'}`,
      )
    const inBook =
      (ref.id !== undefined ? c.byId(book).get(ref.id) : undefined) ??
      (ref.code !== undefined ? c.byCode(book).get(ref.code) : undefined)
    if (inBook) return { terms: inBook, retired: false, lastVersion: null }
    const notFound = () =>
      catalogueErrors.create(
        'catalogue_item_not_found',
        `rate book version ${book.version} has no ${c.noun} ${ref.id ?? ref.code}`,
      )
    const { tenantId } = authenticatedContext(req)
    // An id the database cannot hold names nothing; it is not asked.
    let item = ref.id !== undefined && isStorableId(ref.id) ? await catalogueItem(tenantId, { id: ref.id }) : undefined
    if (item?.kind !== c.kind) item = undefined
    if (!item && ref.code !== undefined) item = await catalogueItem(tenantId, { kind: c.kind, code: ref.code })
    if (!item) throw notFound()
    // Newest first; a version before the item's first cannot have it.
    for (const row of await store.versions(tenantId)) {
      if (row.version >= book.version) continue
      if (row.version < item.firstVersion) break
      const older = await store.byVersion(tenantId, row.version)
      const terms = older && c.byId(older).get(item.id)
      if (older && terms) {
        res.header(BOOK_HEADER, String(older.version))
        return { terms, retired: true, lastVersion: older.version }
      }
    }
    throw notFound()
  }

  const idRef = (id: number): Ref => ({ id, code: undefined })

  // ---- cancel methods ---------------------------------------------------------------------------

  const METHOD_LIST = describe(
    "Cancel methods in the rate book's order: the formula family (payloads.md), the exact calculation, its time basis, whether and how it reads miles, month counting, short-rate percent and fixed amount. Fees, free look and claims deduction are per product (docs/rate-books.md), not per method.",
    'Filtered by `formula` and `calculation` (any case).',
    WHICH_BOOK,
    NO_BOOK_LIST,
  )

  app.get(
    '/api/cancelmethods',
    {
      schema: {
        operationId: 'listCancelMethods',
        tags: TAGS,
        summary: 'List the cancel methods of the rate book',
        description: describe(METHOD_LIST, 'Bounded by limit/offset; the total is in X-Total-Count.'),
        querystring: CancelMethodListQuery,
        response: { 200: Type.Array(CancelMethodSchema), ...problemResponses(404) },
      },
      preValidation: upperCaseQuery('formula', 'calculation'),
      config: READ,
    },
    async (req, res) => {
      const book = await bookOf(req, res, req.query)
      const items = (book?.cancelMethods ?? []).filter(cancelMethodFilter(req.query)).map(cancelMethodItem)
      return sendList(res, windowOf(items, listWindow(req.query)))
    },
  )

  app.get(
    '/api/v2/cancelmethods',
    {
      schema: {
        operationId: 'listCancelMethodsV2',
        tags: TAGS,
        summary: 'List the cancel methods of the rate book (paged)',
        description: describe(METHOD_LIST, 'Answered as a page: items, pageNumber, pageSize, totalCount, totalPages.'),
        querystring: CancelMethodPageQuery,
        response: { 200: CancelMethodPageSchema, ...problemResponses(404) },
      },
      preValidation: upperCaseQuery('formula', 'calculation'),
      config: READ,
    },
    async (req, res) => {
      const book = await bookOf(req, res, req.query)
      const items = (book?.cancelMethods ?? []).filter(cancelMethodFilter(req.query)).map(cancelMethodItem)
      const window = pageWindow(req.query)
      const { items: slice, totalCount } = windowOf(items, window)
      return toPage(slice, totalCount, window)
    },
  )

  app.get(
    '/api/cancelmethods/:cancelMethodId',
    {
      schema: {
        operationId: 'getCancelMethod',
        tags: TAGS,
        summary: 'Read a cancel method',
        description: describe('One cancel method by catalogue id.', WHICH_BOOK, RETIRED, NOT_FOUND),
        params: CancelMethodIdParams,
        querystring: BookOnlyQuery,
        response: { 200: CancelMethodDetailSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const found = await find(req, res, METHODS, req.query, idRef(req.params.cancelMethodId))
      return { ...cancelMethodItem(found.terms), retired: found.retired, lastVersion: found.lastVersion }
    },
  )

  app.get(
    '/api/v2/cancelmethods/:identifier',
    {
      schema: {
        operationId: 'getCancelMethodV2',
        tags: TAGS,
        summary: 'Read a cancel method by id or code',
        description: describe(
          'One cancel method by catalogue id (digits) or by code in any case (an id is tried first).',
          WHICH_BOOK,
          RETIRED,
          NOT_FOUND,
        ),
        params: IdentifierParams('Cancel method', 'pro_rata_days'),
        querystring: BookOnlyQuery,
        response: { 200: CancelMethodDetailSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const found = await find(req, res, METHODS, req.query, parseIdentifier(req.params.identifier))
      return { ...cancelMethodItem(found.terms), retired: found.retired, lastVersion: found.lastVersion }
    },
  )

  // ---- cancel reasons ---------------------------------------------------------------------------

  const REASON_LIST = describe(
    "Cancel reasons in the rate book's order: whether they need a payoff date or documents, force a full refund or waive the fee, who may give them, who gets the refund, the product types they are for and what of a GAP contract they end.",
    'Filtered by `productType` and `requestedBy` (any case).',
    WHICH_BOOK,
    NO_BOOK_LIST,
  )

  app.get(
    '/api/cancelreasons',
    {
      schema: {
        operationId: 'listCancelReasons',
        tags: TAGS,
        summary: 'List the cancel reasons of the rate book',
        description: describe(REASON_LIST, 'Bounded by limit/offset; the total is in X-Total-Count.'),
        querystring: CancelReasonListQuery,
        response: { 200: Type.Array(CancelReasonSchema), ...problemResponses(404) },
      },
      preValidation: upperCaseQuery('productType', 'requestedBy'),
      config: READ,
    },
    async (req, res) => {
      const book = await bookOf(req, res, req.query)
      const items = (book?.cancelReasons ?? []).filter(cancelReasonFilter(req.query)).map(cancelReasonItem)
      return sendList(res, windowOf(items, listWindow(req.query)))
    },
  )

  app.get(
    '/api/v2/cancelreasons',
    {
      schema: {
        operationId: 'listCancelReasonsV2',
        tags: TAGS,
        summary: 'List the cancel reasons of the rate book (paged)',
        description: describe(REASON_LIST, 'Answered as a page: items, pageNumber, pageSize, totalCount, totalPages.'),
        querystring: CancelReasonPageQuery,
        response: { 200: CancelReasonPageSchema, ...problemResponses(404) },
      },
      preValidation: upperCaseQuery('productType', 'requestedBy'),
      config: READ,
    },
    async (req, res) => {
      const book = await bookOf(req, res, req.query)
      const items = (book?.cancelReasons ?? []).filter(cancelReasonFilter(req.query)).map(cancelReasonItem)
      const window = pageWindow(req.query)
      const { items: slice, totalCount } = windowOf(items, window)
      return toPage(slice, totalCount, window)
    },
  )

  app.get(
    '/api/cancelreasons/:cancelReasonId',
    {
      schema: {
        operationId: 'getCancelReason',
        tags: TAGS,
        summary: 'Read a cancel reason',
        description: describe('One cancel reason by catalogue id.', WHICH_BOOK, RETIRED, NOT_FOUND),
        params: CancelReasonIdParams,
        querystring: BookOnlyQuery,
        response: { 200: CancelReasonDetailSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const found = await find(req, res, REASONS, req.query, idRef(req.params.cancelReasonId))
      return { ...cancelReasonItem(found.terms), retired: found.retired, lastVersion: found.lastVersion }
    },
  )

  app.get(
    '/api/v2/cancelreasons/:identifier',
    {
      schema: {
        operationId: 'getCancelReasonV2',
        tags: TAGS,
        summary: 'Read a cancel reason by id or code',
        description: describe(
          'One cancel reason by catalogue id (digits) or by code in any case (an id is tried first).',
          WHICH_BOOK,
          RETIRED,
          NOT_FOUND,
        ),
        params: IdentifierParams('Cancel reason', 'early_payoff'),
        querystring: BookOnlyQuery,
        response: { 200: CancelReasonDetailSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const found = await find(req, res, REASONS, req.query, parseIdentifier(req.params.identifier))
      return { ...cancelReasonItem(found.terms), retired: found.retired, lastVersion: found.lastVersion }
    },
  )
}
