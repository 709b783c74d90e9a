// Request validation. Bodies are validated strictly (no type coercion: "12" is not an integer);
// path and query values arrive as text and are coerced. Every error is reported, not just the first.
// Installed as Fastify's validator builder so that every plugin context (including those that add
// shared schemas) uses it.
//
// Compiling is the dear part of building an app (an Ajv instance validates every schema added to it
// against the meta-schema, and each route's schema becomes generated code), so it is done once per
// process: one Ajv for bodies and one for text, holding every shared schema by its $id, and each
// distinct schema compiled once however many plugin contexts or apps ask for it. The same goes for
// response serializers (`buildSerializer`). An app is then cheap to build a second time, which is
// what the test suite does in every file.
//
// And it is done late: a route gets a function that compiles its schema at its first use, so that
// the service is ready without compiling some 700 schemas first (about 1.4 s of a start). The
// server then compiles the rest in the background, one schema per turn of the event loop
// (compilePendingInBackground), and the test suite compiles every one of them
// (compilePendingSchemas), so a schema that cannot compile fails CI, not a customer's request.
import serializerSelector from '@fastify/fast-json-stringify-compiler'
import { Ajv, type Options, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { MAX_JSON_DEPTH, printable, scanText } from '../text.ts'
import { validationFieldErrors } from './error-handler.ts'
import { type AppError, type FieldError, platformErrors } from './errors.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

type CachingAjv = { ajv: Ajv; compiled: Map<string, ValidateFunction> }

function createAjv(options: Options): CachingAjv {
  // strictNumbers: Infinity and NaN are neither integers nor numbers (JSON.parse reads 1e309 as
  // Infinity; without it the validator let it through to the pager and the SQL).
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    strictNumbers: true,
    useDefaults: true,
    removeAdditional: false,
    ...options,
  })
  addFormats(ajv)
  return { ajv, compiled: new Map() }
}

let bodies: CachingAjv | undefined
let texts: CachingAjv | undefined
/** The JSON text of every shared schema added so far, by $id: one $id means one schema. */
const sharedSchemas = new Map<string, string>()

function validators(): { bodies: CachingAjv; texts: CachingAjv } {
  bodies ??= createAjv({ coerceTypes: false })
  texts ??= createAjv({ coerceTypes: 'array' })
  return { bodies, texts }
}

function addSharedSchemas(externalSchemas: Record<string, unknown>): void {
  const both = validators()
  for (const [key, schema] of Object.entries(externalSchemas)) {
    const id = (schema as { $id?: string }).$id ?? key
    const text = JSON.stringify(schema)
    const known = sharedSchemas.get(id)
    if (known === text) continue
    // Two different schemas under one $id would make every $ref to it ambiguous (and the OpenAPI
    // document with it): a programming error, refused at start-up.
    if (known !== undefined) throw new Error(`Two different shared schemas are named ${id}`)
    both.bodies.ajv.addSchema(schema as object, id)
    both.texts.ajv.addSchema(schema as object, id)
    sharedSchemas.set(id, text)
  }
}

/** Compilations handed out and not yet run: run at first use, or by compilePending*(). */
const pending = new Set<() => unknown>()

/** `compile` run once, at the first call of the result or when the pending compilations are run. */
function deferred<T>(compile: () => T): () => T {
  let done: { value: T } | undefined
  const run = () => {
    if (done === undefined) {
      // Out of the queue before compiling: a schema that throws is not retried in a loop.
      pending.delete(run)
      done = { value: compile() }
    }
    return done.value
  }
  pending.add(run)
  return run
}

/**
 * Compiles a schema once per process (keyed by its JSON text; Ajv ignores the symbols TypeBox adds),
 * at its first use. The function handed out behaves as Ajv's own: `errors` after a call, and
 * `schemaEnv` (which Fastify reads to let Ajv replace a coerced root value).
 */
function compileOnce(target: CachingAjv, schema: object): ValidateFunction {
  const key = JSON.stringify(schema)
  let validate = target.compiled.get(key)
  if (validate === undefined) {
    const compiled = deferred(() => {
      const fn = target.ajv.compile(schema)
      return target === texts ? refusingNonFinite(fn) : fn
    })
    const late = ((data: unknown, dataCxt?: unknown) => {
      const fn = compiled()
      const valid = (fn as (d: unknown, c?: unknown) => boolean)(data, dataCxt)
      late.errors = fn.errors
      return valid
    }) as ValidateFunction
    Object.defineProperty(late, 'schemaEnv', { get: () => compiled().schemaEnv })
    validate = late
    target.compiled.set(key, validate)
  }
  return validate
}

/** Compiles every schema still waiting for its first use (the test suite checks they all compile). */
export function compilePendingSchemas(): number {
  let count = 0
  // Each run leaves the set as it goes; a Set's iteration allows that.
  for (const run of pending) {
    run()
    count++
  }
  return count
}

/**
 * Compiles the waiting schemas after start-up, one per turn of the event loop so that requests are
 * never held behind more than one compilation; a schema that fails is reported, the rest go on.
 */
export function compilePendingInBackground(onError: (err: unknown) => void): void {
  const step = () => {
    const next = pending.values().next()
    if (next.done) return
    try {
      next.value()
    } catch (err) {
      onError(err)
    }
    setImmediate(step)
  }
  setImmediate(step)
}

type AjvErrors = NonNullable<ValidateFunction['errors']>

/** JSON Pointer segment (RFC 6901), as Ajv writes instancePath. */
const pointer = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * Query strings and path parameters are coerced, and Ajv coerces "Infinity" and "1e309" to Infinity
 * without checking the result (strictNumbers covers only values that arrive as numbers). Every
 * coerced number must be finite: a schema without a maximum would otherwise hand Infinity on.
 */
function refusingNonFinite(validate: ValidateFunction): ValidateFunction {
  const wrapped = ((data: unknown) => {
    const valid = validate(data)
    const errors: AjvErrors = valid ? [] : [...(validate.errors ?? [])]
    if (data !== null && typeof data === 'object') {
      for (const [key, value] of Object.entries(data)) {
        const values: unknown[] = Array.isArray(value) ? value : [value]
        values.forEach((v, i) => {
          if (typeof v === 'number' && !Number.isFinite(v)) {
            const instancePath = Array.isArray(value) ? `/${pointer(key)}/${i}` : `/${pointer(key)}`
            errors.push({
              instancePath,
              schemaPath: '#/type',
              keyword: 'type',
              params: { type: 'number' },
              message: 'must be a finite number',
            })
          }
        })
      }
    }
    wrapped.errors = errors.length > 0 ? errors : null
    return errors.length === 0
  }) as ValidateFunction
  return wrapped
}

export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  addSharedSchemas(externalSchemas)
  const both = validators()
  return ({ schema, httpPart }) => compileOnce(httpPart === 'body' ? both.bodies : both.texts, schema as object)
}

const buildUncachedSerializer = serializerSelector()
/** Serializers by the JSON text of the shared schemas they may refer to, then of the response schema. */
const serializers = new Map<string, Map<string, (data: unknown) => string>>()

/** Fastify's own response serializer builder (fast-json-stringify), each distinct schema compiled once per process. */
export function buildSerializer(
  externalSchemas: Record<string, unknown> = {},
  serializerOptions?: unknown,
): FastifySerializerCompiler<unknown> {
  const contextKey = JSON.stringify([externalSchemas, serializerOptions ?? null])
  let compiled = serializers.get(contextKey)
  if (compiled === undefined) {
    compiled = new Map()
    serializers.set(contextKey, compiled)
  }
  const compile = buildUncachedSerializer(externalSchemas as never, serializerOptions as never) as unknown as (route: {
    schema: unknown
  }) => (data: unknown) => string
  const cache = compiled
  return (route) => {
    const key = JSON.stringify(route.schema)
    let serialize = cache.get(key)
    if (serialize === undefined) {
      const serializer = deferred(() => compile(route))
      serialize = (data) => serializer()(data)
      cache.set(key, serialize)
    }
    return serialize
  }
}

/**
 * A route validator that leaves one part to the route's own code, which reads it whole and lists
 * every problem at once (a rate book body, the rate quote's query); the other parts are validated
 * as usual. The schema stays on the route for the OpenAPI document.
 */
export function validatedExcept(part: 'body' | 'querystring'): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) =>
    httpPart === part
      ? () => true
      : compileOnce(httpPart === 'body' ? validators().bodies : validators().texts, schema as object)
}

/** A strict validator for values built in code (for example a patched resource): every error listed. */
export function compileSchemaValidator(schema: TSchema): (value: unknown) => FieldError[] {
  const validate = compileOnce(validators().bodies, schema as object)
  return (value) =>
    validate(value) ? [] : validationFieldErrors(validate.errors as Parameters<typeof validationFieldErrors>[0], 'body')
}

const LOCATION_NAMES = { params: 'path', querystring: 'query string', body: 'body' } as const

/**
 * Refuses text no PostgreSQL column can hold before any handler sees it: a NUL character or a lone
 * UTF-16 surrogate in a path parameter, a query parameter, or anywhere in a JSON or form body
 * (member names included), with a 400 validation_failed naming each field as schema violations are
 * named. A body nested deeper than MAX_JSON_DEPTH is refused too, without recursion, before the
 * validator and the rest walk it. Locations are checked in the validator's order (path, body, query
 * string) and the first with a problem is reported, as the validator reports one location.
 */
export function unstorableTextError(req: Pick<FastifyRequest, 'params' | 'query' | 'body'>): AppError | undefined {
  for (const location of ['params', 'body', 'querystring'] as const) {
    // The query string and the path parameters are objects without Object.prototype (the query
    // parser's own prototype): copied into a plain object, which is what scanText walks.
    const value = location === 'body' ? req.body : { ...((location === 'params' ? req.params : req.query) as object) }
    // A text body (CSV) is one string; a Buffer body is bytes, which scanText leaves alone.
    if (typeof value !== 'string' && (value === null || typeof value !== 'object')) continue
    const scan = scanText(value)
    if (scan.tooDeep) {
      return platformErrors.create(
        'validation_failed',
        `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
        {
          errors: [
            {
              field: '(body)',
              code: 'too_deep',
              message: `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
            },
          ],
        },
      )
    }
    if (scan.findings.length === 0) continue
    const errors = validationFieldErrors(
      scan.findings.map((f) => ({
        instancePath: f.path.map((k) => `/${pointer(typeof k === 'string' ? printable(k) : k)}`).join(''),
        keyword: 'text',
        params: {},
        message:
          f.reason === 'nul'
            ? f.inKey
              ? 'has a name with the NUL character (U+0000), which cannot be stored'
              : 'must not contain the NUL character (U+0000)'
            : f.inKey
              ? 'has a name that is not well-formed Unicode (a lone surrogate)'
              : 'must be well-formed Unicode (no lone surrogate)',
      })),
      location,
    )
    const more = scan.truncated ? ' (the first 100 listed)' : ''
    return platformErrors.create(
      'validation_failed',
      `${errors.length} invalid field(s) in the ${LOCATION_NAMES[location]}${more}: ${errors.map((e) => e.field).join(', ')}`,
      { errors },
    )
  }
  return undefined
}
