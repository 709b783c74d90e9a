// SCIM errors (RFC 7644 §3.12). SCIM routes answer every failure with the SCIM error schema instead
// of problem+json: `status` is a string and `scimType` names the SCIM error kind. ScimError carries
// the failures only the SCIM protocol has (bad filter, bad PATCH path, ...); everything else (AppError
// from services, authentication, Fastify's parser and validator) is translated by toScimError.
import type { FastifyError } from 'fastify'
import { toAppError } from '../../platform/http/error-handler.ts'
import type { FieldError } from '../../platform/http/errors.ts'

export const SCIM_ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error'

/** RFC 7644 Table 9. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive'

export class ScimError extends Error {
  readonly status: number
  readonly scimType: ScimType | undefined

  constructor(status: number, scimType: ScimType | undefined, detail: string) {
    super(detail)
    this.name = 'ScimError'
    this.status = status
    this.scimType = scimType
  }
}

export const invalidFilter = (detail: string) => new ScimError(400, 'invalidFilter', detail)
export const invalidPath = (detail: string) => new ScimError(400, 'invalidPath', detail)
export const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail)

export type ScimErrorBody = { schemas: string[]; status: string; scimType?: ScimType; detail: string }

export type ScimFailure = {
  status: number
  scimType: ScimType | undefined
  detail: string
  headers: Record<string, string> | undefined
  /** A fault of the service rather than of the request: logged, and its details never shown. */
  unexpected: boolean
}

// Service error codes with a SCIM meaning; other codes keep their status and carry no scimType.
const SCIM_TYPE_OF_CODE: Record<string, ScimType> = {
  email_address_taken: 'uniqueness',
  external_identity_taken: 'uniqueness',
  validation_failed: 'invalidValue',
  id_mismatch: 'invalidValue',
  invalid_idempotency_key: 'invalidValue',
  malformed_json: 'invalidSyntax',
}

// v1 field names in service errors, as the SCIM attributes they are.
const SCIM_FIELD: Record<string, string> = { emailAddress: 'userName', externalIdentity: 'externalId' }

function describeFields(errors: FieldError[]): string {
  return errors.map((e) => `${SCIM_FIELD[e.field] ?? e.field} ${e.message}`).join('; ')
}

const failure = (
  status: number,
  scimType: ScimType | undefined,
  detail: string,
  headers?: Record<string, string>,
): ScimFailure => ({ status, scimType, detail, headers, unexpected: false })

export function toScimFailure(err: unknown): ScimFailure {
  if (err instanceof ScimError) return failure(err.status, err.scimType, err.message)
  // Everything else means what the platform says it means; only the wording and scimType are SCIM's.
  const app = toAppError(err as FastifyError)
  if (!app)
    return {
      status: 500,
      scimType: undefined,
      detail: 'An unexpected error occurred',
      headers: undefined,
      unexpected: true,
    }
  if (app.code === 'validation_failed' && app.errors) {
    // `name: {givenName: 5}` fails both the object branch (name.givenName) and the null branch (name);
    // the more specific error is the one that helps.
    const all = app.errors
    const errors = all.filter(
      (x) => !all.some((y) => y.field.startsWith(`${x.field}.`) || y.field.startsWith(`${x.field}[`)),
    )
    return failure(400, 'invalidValue', `Invalid value: ${describeFields(errors)}`)
  }
  const uniqueness = SCIM_TYPE_OF_CODE[app.code] === 'uniqueness'
  // A uniqueness detail names the attribute in SCIM terms; the service's message speaks v1.
  const detail = uniqueness && app.errors ? describeFields(app.errors) : app.message
  return failure(app.status, SCIM_TYPE_OF_CODE[app.code], detail, app.headers)
}

export function scimErrorBody(f: Pick<ScimFailure, 'status' | 'scimType' | 'detail'>): ScimErrorBody {
  return {
    schemas: [SCIM_ERROR_URN],
    status: String(f.status),
    ...(f.scimType ? { scimType: f.scimType } : {}),
    detail: f.detail,
  }
}
