// The test suite's check that the service answers as its OpenAPI document says. Every response an
// app of the test process gives through `inject` is matched against the document that same app
// serves (/api/openapi.json): the status must be declared for the operation, the content type must
// be one the status declares (a status declaring none: no body), a JSON body must match the declared
// schema, and headers declared required must be present. A mismatch rejects the `inject` call, so
// the test that sent the request fails, with the operation, the status and the first schema error.
//
// It is installed for every Fastify instance the process creates (Fastify announces each one on the
// `fastify.initialization` diagnostics channel), so apps that test files build themselves with
// buildApp are checked like those of createTestApp. On by default; OPENAPI_CONFORMANCE=0 turns it off.
//
// Cost: a document is compiled once per process (apps serving the same document share it), and each
// operation × status × media type's validator once, on first use. The number of responses checked is
// written to stderr when the process exits and, when OPENAPI_CONFORMANCE_REPORT names a file,
// appended to it as one JSON line per test file, for a run's total.
//
// Not checked: responses written to a real socket (the few tests that listen), and hidden routes
// (the document itself, the reference page), which the document does not describe.
import { createHash } from 'node:crypto'
import diagnostics from 'node:diagnostics_channel'
import fs from 'node:fs'
import path from 'node:path'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import FindMyWay from 'find-my-way'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

export const CONFORMANCE_ENABLED = process.env.OPENAPI_CONFORMANCE !== '0'

type Schema = Record<string, unknown>
type MediaObject = { schema?: Schema }
type HeaderObject = { required?: boolean; schema?: Schema; description?: string }
type ResponseObject = {
  description?: string
  content?: Record<string, MediaObject>
  headers?: Record<string, HeaderObject>
}
type Operation = { responses?: Record<string, ResponseObject> }
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

/** A response as the check sees it: what `inject` returns, or a raw answer read from a socket. */
export type CheckedResponse = {
  statusCode: number
  headers: Record<string, string | string[] | number | undefined>
  rawPayload: Buffer
}

/** One compiled document: its operations by path and its validators, compiled on first use. */
export type Conformance = {
  doc: OpenApiDocument
  /** The mismatch, or undefined when the response is what the document says. */
  check(method: string, url: string, res: CheckedResponse): string | undefined
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/

const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, validateFormats: true })
addFormats(ajv)

const stats = { validated: 0, notInDocument: 0 }
/** Responses checked in this process so far, and those of paths the document does not describe. */
export function conformanceStats(): { validated: number; notInDocument: number } {
  return { ...stats }
}

const compiledByHash = new Map<string, Conformance>()

/** JSON Pointer segment (RFC 6901). */
const segment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')

function mediaTypeOf(contentType: unknown): string | undefined {
  if (typeof contentType !== 'string' || contentType === '') return undefined
  return contentType.split(';', 1)[0]!.trim().toLowerCase()
}

function declaredMedia(content: Record<string, MediaObject>, media: string): string | undefined {
  if (content[media]) return media
  const [type] = media.split('/')
  if (content[`${type}/*`]) return `${type}/*`
  return content['*/*'] ? '*/*' : undefined
}

function headerValue(headers: CheckedResponse['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()]
  if (v === undefined) return undefined
  return Array.isArray(v) ? v.join(', ') : String(v)
}

/** Compiles (once per process) the document an app serves. */
export function conformanceFor(doc: OpenApiDocument): Conformance {
  // What the validators need, at the same JSON pointers: the response schemas and the components
  // they refer to (a third of the document; Ajv reads it in a sixth of the time).
  const paths: Record<string, Record<string, Operation>> = {}
  for (const [p, item] of Object.entries(doc.paths))
    for (const [m, op] of Object.entries(item)) {
      const responses: Record<string, ResponseObject> = {}
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const content: Record<string, MediaObject> = {}
        for (const [media, c] of Object.entries(r.content ?? {})) content[media] = { schema: c.schema }
        responses[status] = { content, headers: r.headers }
      }
      ;(paths[p] ??= {})[m] = { responses }
    }
  const text = JSON.stringify({ paths, components: { schemas: doc.components?.schemas ?? {} } })
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16)
  const known = compiledByHash.get(hash)
  if (known) return known

  const key = `openapi-${hash}`
  ajv.addSchema(JSON.parse(text) as Schema, key)
  // Matched as the service matches: case-insensitive, trailing slash ignored.
  const router = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 5000 })
  for (const [p, item] of Object.entries(doc.paths)) {
    const route = p.replace(/\{([^}]+)\}/g, ':$1')
    for (const m of METHODS) if (item[m]) router.on(m.toUpperCase() as 'GET', route, () => {}, { path: p })
  }
  const validators = new Map<string, ValidateFunction>()
  const validator = (pointer: string) => {
    let v = validators.get(pointer)
    if (!v) {
      v = ajv.compile({ $ref: `${key}#${pointer}` })
      validators.set(pointer, v)
    }
    return v
  }
  const problem = '/components/schemas/Problem'
  const scimError = '/components/schemas/ScimError'

  function checkBody(where: string, pointer: string, media: string, body: Buffer): string | undefined {
    if (!JSON_MEDIA.test(media)) return undefined
    let value: unknown
    try {
      value = JSON.parse(body.toString('utf8'))
    } catch {
      return `${where}: the body is not JSON although the content type is ${media}`
    }
    const validate = validator(pointer)
    if (validate(value)) return undefined
    const first = validate.errors?.[0]
    const at = first?.instancePath || '(body)'
    return `${where}: the body does not match the declared schema: ${at} ${first?.message ?? 'is invalid'} (${first?.schemaPath ?? ''})`
  }

  function check(method: string, url: string, res: CheckedResponse): string | undefined {
    const requestPath = url.split('?', 1)[0] ?? url
    const upper = method.toUpperCase()
    const status = res.statusCode
    const media = mediaTypeOf(headerValue(res.headers, 'content-type'))
    const body = res.rawPayload
    const found = router.find(upper === 'HEAD' ? 'GET' : (upper as 'GET'), requestPath)
    if (!found) {
      // No operation has this method and path (unknown route, a method the path lacks, a hidden
      // route): an error of the API is still problem+json, or SCIM's error on the SCIM paths.
      if (!/^\/(api|health)(\/|$)/i.test(requestPath) || status < 400) {
        stats.notInDocument++
        return undefined
      }
      stats.validated++
      const where = `${upper} ${requestPath} (no such operation) answered ${status}`
      if (media === 'application/problem+json') return checkBody(where, problem, media, body)
      if (media === 'application/scim+json' && doc.components?.schemas?.ScimError)
        return checkBody(where, scimError, media, body)
      return `${where} with content type ${media ?? '(none)'}, not application/problem+json`
    }
    const docPath = (found.store as { path: string }).path
    const opMethod = upper === 'HEAD' ? 'get' : upper.toLowerCase()
    const responses = doc.paths[docPath]?.[opMethod]?.responses ?? {}
    const where = `${upper} ${docPath} answered ${status}`
    stats.validated++
    const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k])
    if (!statusKey)
      return `${where}, which the document does not declare (declared: ${Object.keys(responses).join(', ')})`
    const declared = responses[statusKey]!
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const value = headerValue(res.headers, name)
      if (value === undefined) {
        if (header.required) return `${where} without the header ${name}, which the document declares required`
        continue
      }
      if (header.schema?.type === 'integer' && !/^-?\d+$/.test(value))
        return `${where} with header ${name}: ${JSON.stringify(value)}, not the declared integer`
    }
    const content = declared.content ?? {}
    if (Object.keys(content).length === 0) {
      // A Content-Type on an empty answer (a 304 keeps the representation's) describes no body.
      if (body.length > 0)
        return `${where} with a body (${media ?? 'no content type'}, ${body.length} bytes), but the document declares none`
      return undefined
    }
    if (upper === 'HEAD') return undefined
    if (media === undefined)
      return `${where} without a content type, but the document declares ${Object.keys(content).join(', ')}`
    const declaredMediaType = declaredMedia(content, media)
    if (!declaredMediaType)
      return `${where} with content type ${media}, but the document declares ${Object.keys(content).join(', ')}`
    if (!content[declaredMediaType]?.schema) return undefined
    const pointer = `/paths/${segment(docPath)}/${opMethod}/responses/${statusKey}/content/${segment(declaredMediaType)}/schema`
    return checkBody(where, pointer, media, body)
  }

  const conformance = { doc, check }
  compiledByHash.set(hash, conformance)
  return conformance
}

export class ConformanceError extends Error {
  constructor(message: string) {
    super(`The response is not what the OpenAPI document says: ${message}`)
    this.name = 'ConformanceError'
  }
}

const checkedApps = new WeakSet<FastifyInstance>()

/** Wraps `app.inject` so that every response it returns is checked against the app's own document. */
export function checkResponsesOf(app: FastifyInstance): void {
  if (checkedApps.has(app)) return
  checkedApps.add(app)
  const original = app.inject.bind(app) as (opts?: InjectOptions | string, cb?: unknown) => unknown
  let conformance: Conformance | undefined
  const wrapped = (opts?: InjectOptions | string, cb?: unknown) => {
    // The chained form (app.inject().get(...)) and callbacks are not used by the suite; left as they are.
    if (opts === undefined || cb !== undefined) return original(opts, cb)
    const options = typeof opts === 'string' ? { url: opts } : opts
    return (original(opts) as Promise<LightMyRequestResponse>).then((res) => {
      // An instance without the OpenAPI plugin (none of the service's) has no document to answer to.
      if (typeof app.swagger !== 'function') return res
      conformance ??= conformanceFor(app.swagger() as unknown as OpenApiDocument)
      // The URL as the app received it (light-my-request resolves dot segments, as a client would).
      const url = (res.raw.req as { url?: string }).url ?? String(options.url ?? options.path ?? '/')
      const mismatch = conformance.check(options.method ?? 'GET', url, res)
      if (mismatch)
        throw new ConformanceError(
          `${mismatch}\n  request: ${options.method ?? 'GET'} ${url}\n  body: ${res.body.slice(0, 500)}`,
        )
      return res
    })
  }
  ;(app as unknown as { inject: typeof wrapped }).inject = wrapped
}

let installed = false

/** Checks every app this process creates from now on (a no-op with OPENAPI_CONFORMANCE=0). */
export function installOpenApiConformance(): void {
  if (installed || !CONFORMANCE_ENABLED) return
  installed = true
  diagnostics.subscribe('fastify.initialization', (message) => {
    checkResponsesOf((message as { fastify: FastifyInstance }).fastify)
  })
  process.once('exit', () => {
    if (stats.validated === 0 && stats.notInDocument === 0) return
    const file = path.relative(process.cwd(), process.argv[1] ?? '') || '(unknown)'
    fs.writeSync(
      2,
      `openapi conformance: ${stats.validated} responses validated against the served document (${file}; ${stats.notInDocument} of routes it does not describe, such as /docs, not checked)\n`,
    )
    const report = process.env.OPENAPI_CONFORMANCE_REPORT
    if (report) fs.appendFileSync(report, `${JSON.stringify({ file, ...stats })}\n`)
  })
}
