// Schemas shared by every module: the problem body, id parameters, list query, paged result.
import { Type, type TSchema } from 'typebox'
import { MAX_REQUEST_HEAD_BYTES } from './error-handler.ts'

export const FieldErrorSchema = Type.Object({
  field: Type.String({ description: 'The offending field, as a dotted path (query parameters by their own name).' }),
  code: Type.String(),
  message: Type.String(),
})

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    code: Type.String({ description: 'Stable error code; every code is listed in docs/errors.md.' }),
    requestId: Type.String(),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
  },
  {
    $id: 'Problem',
    additionalProperties: true,
    description: 'application/problem+json (RFC 9457)',
    examples: [
      {
        type: 'urn:problem-type:vpp:validation_failed',
        title: 'Invalid request',
        status: 400,
        detail: '1 invalid field(s) in the body: emailAddress',
        instance: '/api/v1/adminusers',
        code: 'validation_failed',
        requestId: 'req-1',
        errors: [{ field: 'emailAddress', code: 'invalid_format', message: 'must match format "email"' }],
      },
    ],
  },
)

/** The media type of every error answer but SCIM's (RFC 9457). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json'

/** A response header the OpenAPI document marks `required` (platform/http/openapi.ts lifts the flag). */
export const REQUIRED_HEADER = 'x-required'

const problemRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Problem#' })

/** What an error status means on any operation; the code in the body says exactly what happened. */
const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is malformed or breaks the schema (`validation_failed` lists every field in `errors[]`, `malformed_json`, …).',
  401: 'Credentials missing or not accepted (`unauthenticated`, `invalid_api_key`, `invalid_token`, `user_inactive`).',
  403: 'The credentials do not allow this (`permission_denied`, …).',
  404: 'No such resource in the tenant (also ids of other tenants and resources the caller may not see).',
  409: 'The current state does not allow this; `code` says why.',
  412: '`If-Match` names none of the current version (`precondition_failed`).',
  413: 'The body is larger than the service accepts (`payload_too_large`).',
  414: 'A path segment is longer than 5000 characters (`uri_too_long`).',
  415: 'The body has a content type this operation does not accept (`unsupported_media_type`).',
  422: 'Well-formed but unacceptable input; `code` says why and `errors[]` names the fields.',
  423: "Another user holds the record's edit lock.",
  429: 'Too many requests (`rate_limited`): retry after `Retry-After` seconds.',
  431: `The request line and headers together exceed ${MAX_REQUEST_HEAD_BYTES / 1024} KiB (\`request_header_too_large\`); the connection is closed.`,
  500: 'An unexpected fault (`internal_error`); quote the `requestId`.',
  503: 'Temporarily unavailable (`database_unavailable`; `service_unavailable` from the readiness probe): retry after `Retry-After` seconds.',
}

/** Statuses whose answer always says, in `Retry-After`, when to try again. */
const RETRY_AFTER_STATUSES = new Set([429, 503])

/**
 * One error response of an operation for the OpenAPI document and the serializer: `schema` under
 * `media` (by default the Problem under application/problem+json, as the error handler sends it),
 * with Retry-After where the status always sends it. Typed `never`: an error body is sent by the
 * error handler, never returned by a route handler.
 */
export function problemResponse(status: number, media = PROBLEM_MEDIA_TYPE, schema: unknown = problemRef): TSchema {
  return Type.Unsafe<never>({
    description: PROBLEM_DESCRIPTIONS[status] ?? `Error ${status}; \`code\` says which (docs/errors.md).`,
    ...(RETRY_AFTER_STATUSES.has(status)
      ? {
          headers: {
            'Retry-After': {
              type: 'integer',
              minimum: 1,
              description: 'Seconds to wait before retrying.',
              [REQUIRED_HEADER]: true,
            },
          },
        }
      : {}),
    content: { [media]: { schema } },
  })
}

/**
 * The error responses of an authenticated route, under application/problem+json: 400, 401, 403 and
 * 429, which every one can answer, and `statuses`, those of its own. Statuses every operation of
 * some kind can answer (413 and 415 with a body, 414 with a path parameter, the idempotency 409 and
 * 422 of a POST, 431, 500, 503) are added to the document for every route (platform/http/openapi.ts).
 */
export function problemResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {}
  for (const s of [400, 401, 403, 429, ...statuses]) out[s] = problemResponse(s)
  return out
}

/** Integer path id. Integers the column cannot hold answer 404 (see isStorableId). */
export const IntegerId = (description: string) => Type.Integer({ description, examples: [1042] })

/**
 * An id a list is filtered by, bounded like every integer that reaches SQL: ids are positive bigints
 * read into JS numbers, so none exceeds Number.MAX_SAFE_INTEGER; beyond it is a 400, not a database error.
 */
export const IdFilter = (description: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description })

/** limit/offset of plain lists: bounded, so that the pager never writes a number SQL cannot take. */
export const ListQuery = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Page size (default 100, max 1000).' }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0, description: 'Rows to skip.' })),
}

export const PagedQuery = {
  pageNumber: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page to return, from 1.' }),
  ),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Items per page (default 100, max 1000).' }),
  ),
}

export function Paged<T extends TSchema>(item: T, name: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      pageNumber: Type.Integer(),
      pageSize: Type.Integer(),
      totalCount: Type.Integer(),
      totalPages: Type.Integer(),
    },
    { title: name },
  )
}

export const DateTime = (description: string) => Type.String({ format: 'date-time', description })

/** `schema` or null; the description, when given, on the union. */
export const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {})

/** One of `values`, a string enum in the document, typed as their union. */
export const enumOf = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) })

/**
 * The `sort` query parameter of a list: one of `fields`, ascending, or with a leading `-`,
 * descending (`sort=-saleDate`). A list sorted this way still breaks ties by id, so pages are
 * stable; `sortOrder` reads the value.
 */
export const sortParam = <const T extends readonly string[]>(fields: T, defaultSort: string) =>
  Type.Optional(
    Type.Unsafe<T[number] | `-${T[number]}`>({
      type: 'string',
      enum: fields.flatMap((f) => [f, `-${f}`]),
      maxLength: 40,
      description: `Order of the list: a field, ascending, or the field after \`-\`, descending (default \`${defaultSort}\`). Ties are broken by id.`,
      examples: [`-${fields[0]}`],
    }),
  )

/** The field and direction of a `sort` value (see sortParam); `undefined` gives the default. */
export function sortOrder<F extends string>(
  value: F | `-${F}` | undefined,
  defaultSort: { field: F; direction: 'asc' | 'desc' },
): { field: F; direction: 'asc' | 'desc' } {
  if (value === undefined) return defaultSort
  return value.startsWith('-')
    ? { field: value.slice(1) as F, direction: 'desc' }
    : { field: value as F, direction: 'asc' }
}

/** The body of an action that takes none: `{}` (or no body at all, with `noBodyIsEmpty`). */
export const EmptyBody = Type.Object({}, { additionalProperties: false, examples: [{}] })

/** preValidation of a route whose body is optional (`Type.Optional(EmptyBody)`): no body reads as `{}`. */
export const noBodyIsEmpty = async (req: { body: unknown }) => {
  req.body ??= {}
}
