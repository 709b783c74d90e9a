// Maps every failure to application/problem+json. Known Fastify errors become their documented
// codes; anything unexpected is a 500 that names no internals and is logged with the request id.
import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import FindMyWay from 'find-my-way'
import { AppError, type FieldError, platformErrors, problemBody } from './errors.ts'
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/connection-failure.ts'

type AjvError = {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

function fieldName(location: string | undefined, instancePath: string, params: Record<string, unknown>): string {
  const segments = instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (typeof params.missingProperty === 'string') segments.push(params.missingProperty)
  if (typeof params.additionalProperty === 'string') segments.push(params.additionalProperty)
  const path = segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '')
  if (location === 'body' || location === undefined) return path || '(body)'
  return path || `(${location})`
}

/** Turns Ajv's errors into one entry per offending field, most specific message first. */
export function validationFieldErrors(validation: AjvError[], location: string | undefined): FieldError[] {
  const seen = new Map<string, FieldError>()
  for (const e of validation) {
    // anyOf/oneOf wrappers repeat what their branches already said.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue
    const field = fieldName(location, e.instancePath, e.params)
    if (seen.has(field)) continue
    const code =
      e.keyword === 'required'
        ? 'required'
        : e.keyword === 'additionalProperties'
          ? 'unknown_field'
          : e.keyword === 'format'
            ? 'invalid_format'
            : e.keyword === 'type'
              ? 'invalid_type'
              : 'invalid_value'
    const message =
      e.keyword === 'required'
        ? 'is required'
        : e.keyword === 'additionalProperties'
          ? 'is not a known field'
          : (e.message ?? 'is invalid')
    seen.set(field, { field, code, message })
  }
  return [...seen.values()]
}

/** The AppError a failure stands for, or undefined for a real fault (a 500). */
export function toAppError(
  error: FastifyError & { validation?: AjvError[]; validationContext?: string },
): AppError | undefined {
  if (error instanceof AppError) return error
  if (error.validation) {
    const errors = validationFieldErrors(error.validation, error.validationContext)
    const where = error.validationContext
      ? ` in the ${error.validationContext === 'querystring' ? 'query string' : error.validationContext}`
      : ''
    return platformErrors.create(
      'validation_failed',
      `${errors.length} invalid field(s)${where}: ${errors.map((e) => e.field).join(', ')}`,
      { errors },
    )
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return platformErrors.create(
        'malformed_json',
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is empty but its content type says JSON'
          : 'The request body is not valid JSON',
      )
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return platformErrors.create('payload_too_large', 'The request body is larger than the service accepts')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return platformErrors.create(
        'unsupported_media_type',
        'The request body has a content type this route does not accept',
      )
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return platformErrors.create('validation_failed', 'Content-Length does not match the body')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return platformErrors.create(
        'uri_too_long',
        'A path segment is longer than the service accepts (5000 characters)',
      )
    case 'FST_ERR_BAD_URL':
      return platformErrors.create('route_not_found', 'The URL cannot be decoded')
    case 'FST_ERR_CTP_INVALID_PARSE_TYPE':
      return platformErrors.create('unsupported_media_type', 'The request body cannot be parsed')
  }
  // A lost or refused database connection is an outage the caller can wait out, not a fault.
  if (isDatabaseUnavailable(error)) return databaseUnavailable()
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return platformErrors.create('malformed_json', 'The request body is not valid JSON')
  }
  if (error.code === 'FST_ERR_RESPONSE_SERIALIZATION' || error.statusCode === undefined || error.statusCode >= 500)
    return undefined
  if (error.statusCode === 429) return platformErrors.create('rate_limited', 'Too many requests')
  if (error.statusCode === 413)
    return platformErrors.create('payload_too_large', 'The request body is larger than the service accepts')
  if (error.statusCode === 415) return platformErrors.create('unsupported_media_type', 'Unsupported content type')
  if (error.statusCode >= 400 && error.statusCode < 500) {
    return platformErrors.create('validation_failed', 'The request is not acceptable')
  }
  return undefined
}

/** 503 database_unavailable, with the wait both as the Retry-After header and in the body. */
export function databaseUnavailable(): AppError {
  return platformErrors.create('database_unavailable', 'The database cannot be reached right now; retry shortly', {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    extensions: { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
  })
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, err: AppError): FastifyReply {
  if (err.headers) reply.headers(err.headers)
  return reply
    .code(err.status)
    .type('application/problem+json')
    .send(problemBody(err, request.url.split('?')[0] ?? request.url, String(request.id)))
}

/**
 * Known routes by path, any method, for telling 405 (path exists, method does not) from 404.
 * Matching mirrors the main router: case-insensitive, trailing slash ignored.
 */
function createMethodIndex() {
  const router = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true })
  const allowed = new Map<string, Set<string>>()
  const noop = () => {}
  return {
    add(method: string, url: string) {
      let methods = allowed.get(url)
      if (!methods) {
        methods = new Set()
        allowed.set(url, methods)
        router.on('GET', url, noop, { url })
      }
      methods.add(method)
      if (method === 'GET') methods.add('HEAD')
    },
    allowedFor(path: string): string[] | undefined {
      const found = router.find('GET', path)
      if (!found) return undefined
      const url = (found.store as { url: string }).url
      return [...(allowed.get(url) ?? [])].toSorted()
    },
  }
}

/**
 * Fastify's `frameworkErrors` option: errors the router raises before any route or hook runs (a
 * URL that cannot be decoded, a path segment over maxParamLength) answered as problem+json too.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendProblem(
    reply,
    request,
    toAppError(error) ?? platformErrors.create('route_not_found', 'The URL cannot be routed'),
  )
}

/**
 * The most the HTTP parser reads of a request line and headers together (Node's `maxHeaderSize`;
 * its default, 16 KiB, refused requests the OpenAPI document allows). Every request the document
 * allows fits, with 8 KiB to spare for headers and credentials: a path segment of up to 5000
 * characters (the router's bound; longer is 414), percent-encoded UTF-8 up to 45 KB, such as a
 * 4800-character quote id; an unlink of 1000 ids (about 21 KB). test/openapi-responses.test.ts
 * computes the longest request line of every operation from the document and holds it to this.
 * Larger heads are answered 431 request_header_too_large (answerUnparsedRequest).
 */
export const MAX_REQUEST_HEAD_BYTES = 64 * 1024

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before a request exists (a request
 * line and headers over MAX_REQUEST_HEAD_BYTES, such as a 100 KB query string; a request it cannot
 * parse; one too slow to arrive) is answered as problem+json too, written straight to the socket,
 * which is then closed, as Node and Fastify do by default.
 */
function answerUnparsedRequest(this: FastifyInstance, err: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const problem =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? platformErrors.create(
          'request_header_too_large',
          `The request line and headers together exceed ${MAX_REQUEST_HEAD_BYTES / 1024} KiB (a query string that long belongs in a body)`,
        )
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? platformErrors.create('request_timeout', 'The request did not arrive in time')
        : platformErrors.create('malformed_request', 'The HTTP request cannot be parsed')
  const requestId = randomUUID()
  this.log.debug({ err, requestId }, 'HTTP request refused by the parser')
  if (socket.writable) {
    // No request was parsed, so there is no path to name as the instance.
    const body = JSON.stringify(problemBody(problem, '', requestId))
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(err)
}
/** Fastify calls it with the instance as `this`, for its logger. */
export const clientErrorHandler = answerUnparsedRequest

export function installErrorHandling(app: FastifyInstance): void {
  const methodIndex = createMethodIndex()
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const m of methods) methodIndex.add(m, route.url)
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error)
    // One line per refused request during an outage (no stack: the cause is the database, not the code).
    if (appError?.code === 'database_unavailable')
      request.log.warn({ requestId: request.id, cause: error.message }, 'database unavailable')
    if (appError) return sendProblem(reply, request, appError)
    request.log.error({ err: error, requestId: request.id }, 'unhandled error')
    return sendProblem(
      reply,
      request,
      platformErrors.create(
        'internal_error',
        `An unexpected error occurred; quote request id ${request.id} when reporting it`,
      ),
    )
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = methodIndex.allowedFor(path)
    if (allowed && allowed.length > 0 && !allowed.includes(request.method)) {
      return sendProblem(
        reply,
        request,
        platformErrors.create(
          'method_not_allowed',
          `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
          {
            headers: { allow: allowed.join(', ') },
          },
        ),
      )
    }
    return sendProblem(reply, request, platformErrors.create('route_not_found', `No route ${request.method} ${path}`))
  })
}
