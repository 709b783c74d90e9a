// Request validation. Bodies are validated strictly (no type coercion: "12" is not an integer);
// path and query values arrive as text and are coerced. Every error is reported, not just the first.
// Installed as Fastify's validator builder so that every plugin context (including those that add
// shared schemas) uses it.
import { Ajv, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { validationFieldErrors } from './error-handler.ts'
import type { FieldError } from './errors.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

function createAjv(options: Options, externalSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options })
  addFormats(ajv)
  for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema as object)
  return ajv
}

export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const bodyAjv = createAjv({ coerceTypes: false }, externalSchemas)
  const textAjv = createAjv({ coerceTypes: 'array' }, externalSchemas)
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object)
}

const standalone = createAjv({ coerceTypes: false }, {})
const standaloneText = createAjv({ coerceTypes: 'array' }, {})

/**
 * A route validator that leaves one part to the route's own code, which reads it whole and lists
 * every problem at once (a rate book body, the rate quote's query); the other parts are validated
 * as usual. The schema stays on the route for the OpenAPI document.
 */
export function validatedExcept(part: 'body' | 'querystring'): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => (httpPart === part ? () => true : (httpPart === 'body' ? standalone : standaloneText).compile(schema as object))
}

/** A strict validator for values built in code (for example a patched resource): every error listed. */
export function compileSchemaValidator(schema: TSchema): (value: unknown) => FieldError[] {
  const validate = standalone.compile(schema as object)
  return (value) => (validate(value) ? [] : validationFieldErrors(validate.errors as Parameters<typeof validationFieldErrors>[0], 'body'))
}
