// One error class, one registry of codes (each with its HTTP status and title), one body shape:
// application/problem+json (RFC 9457) with a stable `code`, the request id and, for validation,
// every offending field. Modules declare their codes with defineErrors(); docs/errors.md lists
// every registered code (a test keeps the two in step).

export type FieldError = { field: string; code: string; message: string }

export type ErrorDefinition = { status: number; title: string }

const registry = new Map<string, ErrorDefinition>()

export class AppError extends Error {
  readonly code: string
  readonly status: number
  readonly title: string
  readonly errors: FieldError[] | undefined
  /** Extra members placed in the problem body (for example `retryAfterSeconds`). */
  readonly extensions: Record<string, unknown> | undefined
  readonly headers: Record<string, string> | undefined

  constructor(
    code: string,
    detail: string,
    options: { errors?: FieldError[]; extensions?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail)
    const def = registry.get(code)
    if (!def) throw new Error(`unregistered error code ${code}`)
    this.name = 'AppError'
    this.code = code
    this.status = def.status
    this.title = def.title
    this.errors = options.errors
    this.extensions = options.extensions
    this.headers = options.headers
  }
}

/**
 * Declares a module's error codes. Returns a typed factory so that only declared codes can be
 * thrown. Declaring the same code twice with a different status is a programming error.
 */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(defs: T) {
  for (const [code, def] of Object.entries(defs)) {
    const existing = registry.get(code)
    if (existing && (existing.status !== def.status || existing.title !== def.title)) {
      throw new Error(`error code ${code} declared twice with different meanings`)
    }
    registry.set(code, def)
  }
  return {
    create(
      code: keyof T & string,
      detail: string,
      options?: { errors?: FieldError[]; extensions?: Record<string, unknown>; headers?: Record<string, string> },
    ): AppError {
      return new AppError(code, detail, options)
    },
  }
}

export function registeredErrorCodes(): ReadonlyMap<string, ErrorDefinition> {
  return registry
}

export const platformErrors = defineErrors({
  route_not_found: { status: 404, title: 'Route not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  malformed_json: { status: 400, title: 'Malformed JSON' },
  validation_failed: { status: 400, title: 'Invalid request' },
  id_mismatch: { status: 400, title: 'Identifier mismatch' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  request_header_too_large: { status: 431, title: 'Request header fields too large' },
  malformed_request: { status: 400, title: 'Malformed HTTP request' },
  request_timeout: { status: 408, title: 'Request timeout' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  invalid_token: { status: 401, title: 'Invalid token' },
  user_inactive: { status: 401, title: 'User is not active' },
  permission_denied: { status: 403, title: 'Permission denied' },
  rate_limited: { status: 429, title: 'Too many requests' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused with a different request' },
  idempotency_in_progress: { status: 409, title: 'A request with this idempotency key is in progress' },
  invalid_idempotency_key: { status: 400, title: 'Invalid idempotency key' },
  internal_error: { status: 500, title: 'Internal server error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  database_unavailable: { status: 503, title: 'Database unavailable' },
})

export type ProblemBody = {
  type: string
  title: string
  status: number
  detail: string
  instance: string
  code: string
  requestId: string
  errors?: FieldError[]
  [extension: string]: unknown
}

export function problemBody(err: AppError, instance: string, requestId: string): ProblemBody {
  const body: ProblemBody = {
    type: `urn:problem-type:vpp:${err.code}`,
    title: err.title,
    status: err.status,
    detail: err.message,
    instance,
    code: err.code,
    requestId,
  }
  if (err.errors) body.errors = err.errors
  if (err.extensions) Object.assign(body, err.extensions)
  return body
}
