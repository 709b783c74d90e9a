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
import serializerSelector from '@fastify/fast-json-stringify-compiler'
import { Ajv, type Options, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { validationFieldErrors } from './error-handler.ts'
import type { FieldError } from './errors.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

type CachingAjv = { ajv: Ajv; compiled: Map<string, ValidateFunction> }

function createAjv(options: Options): CachingAjv {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options })
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

/** Compiles a schema once per process (keyed by its JSON text; Ajv ignores the symbols TypeBox adds). */
function compileOnce(target: CachingAjv, schema: object): ValidateFunction {
  const key = JSON.stringify(schema)
  let validate = target.compiled.get(key)
  if (validate === undefined) {
    validate = target.ajv.compile(schema)
    target.compiled.set(key, validate)
  }
  return validate
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
export function buildSerializer(externalSchemas: Record<string, unknown> = {}, serializerOptions?: unknown): FastifySerializerCompiler<unknown> {
  const contextKey = JSON.stringify([externalSchemas, serializerOptions ?? null])
  let compiled = serializers.get(contextKey)
  if (compiled === undefined) {
    compiled = new Map()
    serializers.set(contextKey, compiled)
  }
  const compile = buildUncachedSerializer(externalSchemas as never, serializerOptions as never) as unknown as (route: { schema: unknown }) => (data: unknown) => string
  const cache = compiled
  return (route) => {
    const key = JSON.stringify(route.schema)
    let serialize = cache.get(key)
    if (serialize === undefined) {
      serialize = compile(route)
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
  return ({ schema, httpPart }) => (httpPart === part ? () => true : compileOnce(httpPart === 'body' ? validators().bodies : validators().texts, schema as object))
}

/** A strict validator for values built in code (for example a patched resource): every error listed. */
export function compileSchemaValidator(schema: TSchema): (value: unknown) => FieldError[] {
  const validate = compileOnce(validators().bodies, schema as object)
  return (value) => (validate(value) ? [] : validationFieldErrors(validate.errors as Parameters<typeof validationFieldErrors>[0], 'body'))
}
