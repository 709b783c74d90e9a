// The read-only rating catalogue (spec §4.3 "Rates", docs/rate-catalogue.md): asset types, products,
// programs, plans, terms, deductibles, the vehicle look-ups and factor tables, all read from one
// rate-book version (today's, the one in force on `date`, or `version`), already in memory.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { authenticatedContext, type AuthenticatedContext } from '../../../platform/http/context.ts'
import { listWindow, sendList } from '../../../platform/http/pagination.ts'
import { problemResponses } from '../../../platform/http/schemas.ts'
import {
  assetTypes,
  classifyVehicle,
  customFieldItem,
  deductibleItems,
  factorTableItem,
  planItem,
  productFilter,
  productItem,
  programItem,
  selectVehicleRows,
  termItems,
  vehicleClasses,
  vehicleItem,
  vehicleRows,
  windowOf,
  type VehicleFilter,
  type VehicleList,
  type VehicleRow,
} from './catalogue.rules.ts'
import {
  AssetTypeSchema,
  BodyStyleSchema,
  BookOnlyQuery,
  CustomFieldsQuery,
  CustomFieldsSchema,
  DeductibleSchema,
  FactorTableIdParams,
  FactorTableSchema,
  ListedQuery,
  MakeSchema,
  MakesQuery,
  ModelSchema,
  ModelsQuery,
  PlanIdParams,
  PlanSchema,
  ProductIdParams,
  ProductListQuery,
  ProductSchema,
  ProgramListQuery,
  ProgramSchema,
  SegmentationQuery,
  SegmentationSchema,
  SeriesSchema,
  TermSchema,
  TrimSchema,
  VehicleDetailQuery,
} from './catalogue.schemas.ts'
import { catalogueErrors } from './catalogue.errors.ts'
import { BOOK_HEADER, createBookReader, invalidQuery, upperCaseQuery } from './catalogue.http.ts'
import { parseRateId, type CompiledRateBook, type RateBookStore } from '../ratebook/index.ts'

const TAGS = ['Rating catalogue']
const READ = { permission: 'rates:read' }

const WHICH_BOOK =
  'Read from the rate book in force today, on `date`, or version `version`; the version read is in the X-Rate-Book-Version header.'
const NO_BOOK_LIST = 'Without a rate book in force: an empty list.'
const NO_BOOK_ONE =
  "Without a rate book in force: 404 rate_book_not_found; an id the book does not have (another tenant's included): 404 catalogue_item_not_found."
const WINDOWED = 'Bounded by limit/offset; the total is in X-Total-Count.'
const describe = (...parts: string[]) => parts.join(' ')

const listOf = <T extends TSchema>(item: T) => Type.Array(item)

export const catalogueRoutes: FastifyPluginAsyncTypebox<{
  store: RateBookStore
  today: (tenantId: number) => Promise<string>
  /** The book version a quote used (verifying the id); 422 quote_unknown for an id that is not this tenant's. */
  bookOfQuote: (ctx: AuthenticatedContext, quoteId: string) => Promise<CompiledRateBook | undefined>
}> = async (app, { store, today, bookOfQuote }) => {
  /** Sorted candidate rows per book version and vehicle list; a version never changes, so neither do they. */
  const rowCache = new WeakMap<CompiledRateBook, Map<VehicleList, VehicleRow[]>>()
  function rowsOf(book: CompiledRateBook, list: VehicleList): VehicleRow[] {
    let lists = rowCache.get(book)
    if (!lists) rowCache.set(book, (lists = new Map()))
    let rows = lists.get(list)
    if (!rows) lists.set(list, (rows = vehicleRows(book.book.vehicles, list)))
    return rows
  }

  /** The version the request reads, or undefined when none is in force on the date. */
  const bookOf = createBookReader(store, today)

  async function requireBook(
    req: FastifyRequest,
    res: FastifyReply,
    q: { date?: string | undefined; version?: number | undefined },
  ): Promise<CompiledRateBook> {
    const book = await bookOf(req, res, q)
    if (!book)
      throw catalogueErrors.create(
        'rate_book_not_found',
        `no rate book is in force ${q.date ? `on ${q.date}` : 'today'}`,
      )
    return book
  }

  const notFound = (kind: string, id: number, book: CompiledRateBook) =>
    catalogueErrors.create('catalogue_item_not_found', `rate book version ${book.version} has no ${kind} ${id}`)

  app.get(
    '/api/Rates/AssetTypes',
    {
      schema: {
        operationId: 'listAssetTypes',
        tags: TAGS,
        summary: 'List the asset types and the products sold for each',
        description: describe(
          'Every asset type (AUTO, RV, MARINE, POWERSPORTS, OTHER) with a description and the products of the rate book sold for it.',
          WHICH_BOOK,
          'Without a rate book in force the types are listed with no products.',
        ),
        querystring: BookOnlyQuery,
        response: { 200: listOf(AssetTypeSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => assetTypes((await bookOf(req, res, req.query))?.products ?? []),
  )

  app.get(
    '/api/Rates/Products',
    {
      schema: {
        operationId: 'listProducts',
        tags: TAGS,
        summary: 'List the products of the rate book',
        description: describe(
          "Products in the book's order, filtered by `type` and `assetType` (any case).",
          WHICH_BOOK,
          NO_BOOK_LIST,
          WINDOWED,
        ),
        querystring: ProductListQuery,
        response: { 200: listOf(ProductSchema), ...problemResponses(404) },
      },
      preValidation: upperCaseQuery('type', 'assetType'),
      config: READ,
    },
    async (req, res) => {
      const book = await bookOf(req, res, req.query)
      const products = (book?.products ?? []).filter(productFilter(req.query)).map(productItem)
      return sendList(res, windowOf(products, listWindow(req.query)))
    },
  )

  app.get(
    '/api/Rates/Programs',
    {
      schema: {
        operationId: 'listPrograms',
        tags: TAGS,
        summary: 'List the programs of the rate book, each with its product and plans',
        description: describe(
          "Programs in the book's order (by product), filtered by `productId` (an unknown product gives an empty list).",
          WHICH_BOOK,
          NO_BOOK_LIST,
          WINDOWED,
        ),
        querystring: ProgramListQuery,
        response: { 200: listOf(ProgramSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const book = await bookOf(req, res, req.query)
      const { productId } = req.query
      const products =
        productId === undefined
          ? (book?.products ?? [])
          : [book?.productById.get(productId)].filter((p) => p !== undefined)
      return sendList(res, windowOf(products.flatMap((p) => p.programs).map(programItem), listWindow(req.query)))
    },
  )

  app.get(
    '/api/Rates/Plans/:productId',
    {
      schema: {
        operationId: 'listPlans',
        tags: TAGS,
        summary: 'List the plans of a product',
        description: describe(
          "Plans of every program of the product, in the book's order: program, vehicle conditions, form number, effective dates, coverage groups and their components, prepaid-maintenance services and the contract custom fields.",
          WHICH_BOOK,
          NO_BOOK_ONE,
          WINDOWED,
        ),
        params: ProductIdParams,
        querystring: ListedQuery,
        response: { 200: listOf(PlanSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const book = await requireBook(req, res, req.query)
      const product = book.productById.get(req.params.productId)
      if (!product) throw notFound('product', req.params.productId, book)
      return sendList(res, windowOf(product.programs.flatMap((g) => g.plans).map(planItem), listWindow(req.query)))
    },
  )

  app.get(
    '/api/Rates/Products/:productId/customfields',
    {
      schema: {
        operationId: 'listProductCustomFields',
        tags: TAGS,
        summary: 'List the custom fields a contract of the product (and plan) must carry',
        description: describe(
          'Digital retailing step 2: the fields the administrator requires on a contract, each with its label, type, limits, allowed values, whether it is required or unique, and its order.',
          "Give `planId` or a quote's `rateId` for the plan's own fields as well; with `quoteId` the fields come from the rate-book version of that quote, which is what POST /api/contracts enforces.",
          WHICH_BOOK,
          NO_BOOK_ONE,
          'A plan or rate of another product: 404 catalogue_item_not_found.',
        ),
        params: ProductIdParams,
        querystring: CustomFieldsQuery,
        response: { 200: CustomFieldsSchema, ...problemResponses(400, 404, 422) },
      },
      config: READ,
    },
    async (req, res) => {
      const { quoteId, rateId, ...rest } = req.query
      if (quoteId !== undefined && (rest.date !== undefined || rest.version !== undefined))
        throw invalidQuery('quoteId', 'conflict', 'give either quoteId or date/version, not both')
      // The schema admits rate ids only (RATE_ID_PATTERN).
      const planFromRate = rateId === undefined ? undefined : parseRateId(rateId)?.planId
      if (planFromRate !== undefined && rest.planId !== undefined && planFromRate !== rest.planId)
        throw invalidQuery('rateId', 'conflict', 'the rate is of another plan than planId')
      let book: CompiledRateBook | undefined
      if (quoteId === undefined) book = await requireBook(req, res, rest)
      else {
        book = await bookOfQuote(authenticatedContext(req), quoteId)
        if (!book) throw catalogueErrors.create('rate_book_not_found', 'the quote was made without a rate book')
        res.header(BOOK_HEADER, String(book.version))
      }
      const product = book.productById.get(req.params.productId)
      if (!product) throw notFound('product', req.params.productId, book)
      const planId = planFromRate ?? rest.planId
      const plan = planId === undefined ? undefined : book.planById.get(planId)
      if (planId !== undefined && (!plan || plan.product !== product)) throw notFound('plan', planId, book)
      const fields = plan ? plan.customFields : product.customFields
      return {
        productId: product.id,
        productCode: product.code,
        planId: plan?.id ?? null,
        planCode: plan?.code ?? null,
        rateBookVersion: book.version,
        fields: fields.map(customFieldItem),
      }
    },
  )

  app.get(
    '/api/Rates/Terms/Plan/:planId',
    {
      schema: {
        operationId: 'listPlanTerms',
        tags: TAGS,
        summary: 'List the terms of a plan',
        description: describe(
          "Months, miles (0: unlimited) and how the expiration odometer counts, in the book's order.",
          WHICH_BOOK,
          NO_BOOK_ONE,
          WINDOWED,
        ),
        params: PlanIdParams,
        querystring: ListedQuery,
        response: { 200: listOf(TermSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const book = await requireBook(req, res, req.query)
      const plan = book.planById.get(req.params.planId)
      if (!plan) throw notFound('plan', req.params.planId, book)
      return sendList(res, windowOf(termItems(plan), listWindow(req.query)))
    },
  )

  app.get(
    '/api/Rates/DeductiblesByProduct/:productId',
    {
      schema: {
        operationId: 'listDeductiblesByProduct',
        tags: TAGS,
        summary: 'List the deductibles of a product',
        description: describe(
          "Amount (a JSON number, at most 2 decimals) and type, in the book's order.",
          WHICH_BOOK,
          NO_BOOK_ONE,
          WINDOWED,
        ),
        params: ProductIdParams,
        querystring: ListedQuery,
        response: { 200: listOf(DeductibleSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const book = await requireBook(req, res, req.query)
      const product = book.productById.get(req.params.productId)
      if (!product) throw notFound('product', req.params.productId, book)
      return sendList(res, windowOf(deductibleItems(product), listWindow(req.query)))
    },
  )

  const vehicleRoute = (
    list: VehicleList,
    path: string,
    operationId: string,
    summary: string,
    what: string,
    querystring: TSchema,
    item: TSchema,
  ) => {
    app.get(
      path,
      {
        schema: {
          operationId,
          tags: TAGS,
          summary,
          description: describe(
            what,
            "From the rate book's vehicle entries; filters compare case-insensitively; sorted (by make, then model, then value, upper-cased) and de-duplicated.",
            WHICH_BOOK,
            NO_BOOK_LIST,
            WINDOWED,
          ),
          querystring,
          response: { 200: listOf(item), ...problemResponses(404) },
        },
        config: READ,
      },
      async (req, res) => {
        const q = req.query as VehicleFilter & { date?: string; version?: number; limit?: number; offset?: number }
        const book = await bookOf(req, res, q)
        const rows = book ? selectVehicleRows(rowsOf(book, list), q) : []
        return sendList(res, windowOf(rows, listWindow(q))).map((r) => vehicleItem(list, r))
      },
    )
  }
  vehicleRoute(
    'makes',
    '/api/Rates/VehicleMakes',
    'listVehicleMakes',
    'List vehicle makes',
    'Makes, filtered by model `year`.',
    MakesQuery,
    MakeSchema,
  )
  vehicleRoute(
    'models',
    '/api/Rates/VehicleModels',
    'listVehicleModels',
    'List vehicle models',
    'Models with their make, filtered by `make` and model `year`.',
    ModelsQuery,
    ModelSchema,
  )
  vehicleRoute(
    'series',
    '/api/Rates/VehicleSeries',
    'listVehicleSeries',
    'List vehicle series',
    'Series with their make and model, filtered by `make`, `model` and model `year`.',
    VehicleDetailQuery,
    SeriesSchema,
  )
  vehicleRoute(
    'trims',
    '/api/Rates/VehicleTrims',
    'listVehicleTrims',
    'List vehicle trims',
    'Trims with their make and model, filtered by `make`, `model` and model `year`.',
    VehicleDetailQuery,
    TrimSchema,
  )
  vehicleRoute(
    'bodyStyles',
    '/api/Rates/VehicleBodyStyles',
    'listVehicleBodyStyles',
    'List vehicle body styles',
    'Body styles with their make and model, filtered by `make`, `model` and model `year`.',
    VehicleDetailQuery,
    BodyStyleSchema,
  )

  app.get(
    '/api/Rates/VehicleSegmentations',
    {
      schema: {
        operationId: 'listVehicleSegmentations',
        tags: TAGS,
        summary: 'List the vehicle classes, or classify one vehicle',
        description: describe(
          'Without `make`: every vehicle class of the book with its description, ordered by code.',
          "With `make` (and optionally `model`, `trim`, `year`): the class that vehicle rates in, by the rule quotes use (the most specific matching vehicle entry, else the book's default class; `matchedBy` says which), or an empty list when neither applies.",
          '`model`, `trim` or `year` without `make` is a 400.',
          WHICH_BOOK,
          NO_BOOK_LIST,
          WINDOWED,
        ),
        querystring: SegmentationQuery,
        response: { 200: listOf(SegmentationSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const q = req.query
      if (q.make === undefined) {
        const given = (['model', 'trim', 'year'] as const).find((k) => q[k] !== undefined)
        if (given) throw invalidQuery('make', 'required', `is required with ${given}`)
      }
      const book = await bookOf(req, res, q)
      const items = !book
        ? []
        : q.make === undefined
          ? vehicleClasses(book.book)
          : classifyVehicle(book, { make: q.make, model: q.model, trim: q.trim, year: q.year })
      return sendList(res, windowOf(items, listWindow(q)))
    },
  )

  app.get(
    '/api/factorTables/:factorTableId',
    {
      schema: {
        operationId: 'getFactorTable',
        tags: TAGS,
        summary: 'Read a factor table',
        description: describe(
          "The table's fact, default factor and factor per fact value (JSON numbers, at most 6 decimals).",
          WHICH_BOOK,
          NO_BOOK_ONE,
        ),
        params: FactorTableIdParams,
        querystring: BookOnlyQuery,
        response: { 200: FactorTableSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const book = await requireBook(req, res, req.query)
      const table = book.factorTableById.get(req.params.factorTableId)
      if (!table) throw notFound('factor table', req.params.factorTableId, book)
      return factorTableItem(table)
    },
  )
}
