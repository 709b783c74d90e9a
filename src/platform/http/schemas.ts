// Schemas shared by every module: the problem body, id parameters, list query, paged result.
import { Type, type TSchema } from 'typebox'

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

const problemRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Problem#' })

/** The error responses every authenticated route can produce, for the OpenAPI document. */
export function problemResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {}
  for (const s of [400, 401, 403, 429, ...statuses]) out[s] = problemRef
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
