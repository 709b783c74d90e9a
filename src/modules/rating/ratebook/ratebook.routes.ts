// Rate books (docs/rate-books.md): import a new version (or check one with dryRun), list versions,
// read one, and export a version's book in the import format.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext, type AuthenticatedContext } from '../../../platform/http/context.ts'
import { platformErrors } from '../../../platform/http/errors.ts'
import { listWindow, sendList } from '../../../platform/http/pagination.ts'
import {
  ListQuery,
  PROBLEM_MEDIA_TYPE,
  ProblemSchema,
  problemResponse,
  problemResponses,
} from '../../../platform/http/schemas.ts'
import { validatedExcept } from '../../../platform/http/validation.ts'
import { rateBookErrors } from './ratebook.errors.ts'
import type { RateBookVersionRow } from './ratebook.repository.ts'
import { RateBookSchema } from './ratebook.format.ts'
import { RateBookRefused, type RateBookService } from './ratebook.service.ts'
import { versionInForce } from './ratebook.store.ts'

const TAGS = ['Rate books']
const COLLECTION = '/api/Rates/ratebooks'
/** A 100,000-rate book is about 25 MB of JSON. */
const IMPORT_BODY_LIMIT = 256 * 1024 * 1024

/**
 * A book holds every rate's internal buckets, the criteria and the payees: it is for the
 * administrator's staff. Dealer-side users (any user limited to some dealers) see quotes, not books.
 */
function staffOnly(req: FastifyRequest): AuthenticatedContext {
  const ctx = authenticatedContext(req)
  if (ctx.principal.visibleAccountHolderIds !== null)
    throw platformErrors.create('permission_denied', "Rate books are for the administrator's staff")
  return ctx
}

const Summary = Type.Object({
  products: Type.Integer(),
  programs: Type.Integer(),
  plans: Type.Integer(),
  terms: Type.Integer(),
  rates: Type.Integer(),
  vehicles: Type.Integer(),
  factorTables: Type.Integer(),
  disbursementCodes: Type.Integer(),
})
const SUMMARY_EXAMPLE = {
  products: 4,
  programs: 6,
  plans: 7,
  terms: 25,
  rates: 402,
  vehicles: 44,
  factorTables: 1,
  disbursementCodes: 7,
}

const VersionSchema = Type.Object(
  {
    version: Type.Integer(),
    id: Type.Integer(),
    effectiveDate: Type.String({ format: 'date' }),
    description: Type.Union([Type.String(), Type.Null()]),
    checksum: Type.String({ description: 'SHA-256 of the stored book.' }),
    summary: Summary,
    importedAt: Type.String({ format: 'date-time' }),
    importedBy: Type.String(),
    inForce: Type.Boolean({ description: 'True for the version quotes use today.' }),
  },
  {
    $id: 'RateBookVersion',
    examples: [
      {
        version: 3,
        id: 12,
        effectiveDate: '2026-12-01',
        description: 'December filing',
        checksum: 'a3f1…',
        summary: SUMMARY_EXAMPLE,
        importedAt: '2026-11-22T02:10:00.000Z',
        importedBy: 'jane@admin.example',
        inForce: false,
      },
    ],
  },
)

const ImportResultSchema = Type.Object(
  {
    dryRun: Type.Boolean(),
    unchanged: Type.Boolean({
      description: 'The book equals the latest version, which is returned instead of a copy.',
    }),
    version: Type.Union([Type.Integer(), Type.Null()]),
    id: Type.Union([Type.Integer(), Type.Null()]),
    effectiveDate: Type.String({ format: 'date' }),
    checksum: Type.String(),
    summary: Summary,
  },
  {
    examples: [
      {
        dryRun: false,
        unchanged: false,
        version: 3,
        id: 12,
        effectiveDate: '2026-12-01',
        checksum: 'a3f1…',
        summary: SUMMARY_EXAMPLE,
      },
    ],
  },
)

const RateBookProblemsSchema = Type.Object(
  {
    ...ProblemSchema.properties,
    errors: Type.Array(
      Type.Object({
        file: Type.String(),
        path: Type.Optional(Type.String({ description: 'JSON pointer into the book.' })),
        row: Type.Optional(Type.Integer({ description: 'CSV row (the header is row 1).' })),
        field: Type.String({ description: 'The JSON pointer again, or the CSV column.' }),
        code: Type.String(),
        message: Type.String(),
      }),
    ),
  },
  {
    additionalProperties: true,
    examples: [
      {
        type: 'urn:problem-type:vpp:invalid_rate_book',
        title: 'The rate book is not valid',
        status: 422,
        code: 'invalid_rate_book',
        detail: 'the rate book has 2 problem(s)',
        instance: '/api/Rates/ratebooks',
        requestId: 'req-1',
        errors: [
          {
            file: 'body',
            path: '/products/0/programs/1/plans/0/criteria',
            field: '/products/0/programs/1/plans/0/criteria',
            code: 'unknown_fact',
            message: "criteria names 'vehicleAg', not a quote fact (docs/criteria.md)",
          },
          {
            file: 'rates.csv',
            row: 1042,
            field: 'RES',
            code: 'invalid_money',
            message: 'RES must be an amount with at most two decimals, not negative',
          },
        ],
      },
    ],
  },
)

const VersionParam = Type.Object({
  version: Type.Union([Type.Literal('active'), Type.Integer({ minimum: 1, maximum: 2_147_483_647 })], {
    description: 'A version number, or `active` for the version in force today.',
  }),
})

function toVersion(row: RateBookVersionRow, inForce: boolean) {
  return {
    version: row.version,
    id: row.id,
    effectiveDate: row.effective_date,
    description: row.description,
    checksum: row.checksum,
    summary: row.summary,
    importedAt: row.imported_at.toISOString(),
    importedBy: row.imported_by,
    inForce,
  }
}

export const rateBookRoutes: FastifyPluginAsyncTypebox<{
  service: RateBookService
  today: (tenantId: number) => Promise<string>
}> = async (app, { service, today }) => {
  app.addSchema(VersionSchema)
  const versionRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'RateBookVersion#' })

  app.post(
    COLLECTION,
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags: TAGS,
        operationId: 'importRateBook',
        summary: 'Import a rate book (or check one with dryRun=true)',
        description: [
          'The body is a whole rate book in the format of docs/rate-books.md (rates inline and/or as CSV text in `ratesCsv`).',
          'It is checked as a whole: every problem is listed in `errors` with its location (JSON pointer, or CSV row and column) and nothing is stored (422 `invalid_rate_book`).',
          "A valid book becomes the tenant's next version in one transaction, effective from its `effectiveDate`, and is used by every instance at once.",
          'Importing a book identical to the latest version stores nothing and answers that version (`unchanged: true`).',
        ].join(' '),
        querystring: Type.Object({
          dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Check only; store nothing.' })),
        }),
        body: RateBookSchema,
        response: {
          200: ImportResultSchema,
          201: ImportResultSchema,
          ...problemResponses(413, 415),
          422: problemResponse(422, PROBLEM_MEDIA_TYPE, RateBookProblemsSchema),
        },
      },
      // The body is checked whole by the service, which reports every problem with its location (422).
      validatorCompiler: validatedExcept('body'),
      config: { permission: 'rates:write' },
    },
    async (req, res) => {
      try {
        const result = await service.importBook(authenticatedContext(req), req.body, {
          dryRun: req.query.dryRun === true,
        })
        if (!result.dryRun && !result.unchanged) res.code(201).header('location', `${COLLECTION}/${result.version}`)
        return result
      } catch (err) {
        if (err instanceof RateBookRefused)
          // `field` keeps the platform's error shape: the JSON pointer, or the CSV column.
          throw rateBookErrors.create('invalid_rate_book', err.message, {
            errors: err.problems.map((p) => ({ ...p, field: p.path ?? p.field ?? '' })),
          })
        throw err
      }
    },
  )

  app.get(
    COLLECTION,
    {
      schema: {
        tags: TAGS,
        operationId: 'listRateBookVersions',
        summary: 'List rate-book versions, newest first',
        description:
          "The version in force on a date is, of the versions effective on or before it, the latest imported; `inForce` marks today's. Staff only (403 for dealer-side users). Bounded: `limit`/`offset`, total in `X-Total-Count`.",
        querystring: Type.Object(ListQuery),
        response: { 200: Type.Array(versionRef), ...problemResponses() },
      },
      config: { permission: 'rates:read' },
    },
    async (req, res) => {
      const { tenantId } = staffOnly(req)
      const [rows, date] = await Promise.all([service.versions(tenantId), today(tenantId)])
      const inForce = versionInForce(rows, date)
      const window = listWindow(req.query)
      return sendList(res, {
        items: rows.slice(window.offset, window.offset + window.limit).map((r) => toVersion(r, r === inForce)),
        totalCount: rows.length,
      })
    },
  )

  app.get(
    `${COLLECTION}/:version`,
    {
      schema: {
        tags: TAGS,
        operationId: 'getRateBookVersion',
        summary: 'Read a rate-book version',
        description: 'Staff only (403 for dealer-side users).',
        params: VersionParam,
        response: { 200: versionRef, ...problemResponses(404) },
      },
      config: { permission: 'rates:read' },
    },
    async (req) => {
      const { row, active } = await service.version(staffOnly(req).tenantId, req.params.version)
      return toVersion(row, active)
    },
  )

  app.get(
    `${COLLECTION}/:version/document`,
    {
      schema: {
        tags: TAGS,
        operationId: 'exportRateBook',
        summary: 'Export a rate-book version in the import format',
        description:
          'The stored book, normalised (amounts as JSON numbers, defaults filled in, CSV rates merged into `rates`); importing it again gives the same checksum. Staff only (403 for dealer-side users).',
        params: VersionParam,
        response: {
          200: Type.Unsafe<Record<string, unknown>>({
            type: 'object',
            additionalProperties: true,
            description: 'A rate book (docs/rate-books.md).',
            examples: [{ formatVersion: 1, effectiveDate: '2026-12-01', products: [] }],
          }),
          ...problemResponses(404),
        },
      },
      config: { permission: 'rates:read' },
    },
    async (req) => service.exportBook(staffOnly(req).tenantId, req.params.version),
  )
}
