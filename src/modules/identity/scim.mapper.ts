// Users as SCIM User resources, and back. The SCIM view of a user (RFC 7643 §4.1):
//   id ↔ id (as a string)             userName ↔ emailAddress (also the one work email)
//   externalId ↔ externalIdentity     name.givenName/familyName ↔ firstName/lastName
//   phoneNumbers (one, work) ↔ phoneNumber
//   active ↔ expiredDate: false expires an active user now; true reactivates an expired one.
// Roles, groups, account holder and password are not part of the SCIM view and are kept as they are.
import { Type } from 'typebox'
import { validationFieldErrors } from '../../platform/http/error-handler.ts'
import { buildValidator } from '../../platform/http/validation.ts'
import { isStorableId } from '../../platform/ids.ts'
import { invalidValue } from './scim.errors.ts'
import { SCIM_USER_URN, type ScimUserDto, type ScimUserInput } from './scim.schemas.ts'
import type { UserRow } from './user.repository.ts'
import { isActive } from './user.rules.ts'
import { ReplaceUserBody } from './user.schemas.ts'
import type { UserInput } from './user.service.ts'

/** The attributes SCIM can change, in SCIM terms. */
export type ScimUserState = {
  userName: string
  externalId: string | null
  givenName: string | null
  familyName: string | null
  phoneNumber: string | null
  /** undefined: not stated, so the user's activity stays as it is. */
  active: boolean | undefined
}

export function weakEtag(version: number): string {
  return `W/"${version}"`
}

export function userLocation(baseUrl: string, id: number): string {
  return `${baseUrl}/api/v2/Users/${id}`
}

export function toScimUser(row: UserRow, now: Date, baseUrl: string): ScimUserDto {
  const name = {
    ...(row.first_name !== null ? { givenName: row.first_name } : {}),
    ...(row.last_name !== null ? { familyName: row.last_name } : {}),
  }
  return {
    schemas: [SCIM_USER_URN],
    id: String(row.id),
    ...(row.external_identity !== null ? { externalId: row.external_identity } : {}),
    userName: row.email_address,
    ...(Object.keys(name).length > 0 ? { name } : {}),
    active: isActive(row.expired_date, now),
    emails: [{ value: row.email_address, type: 'work', primary: true }],
    ...(row.phone_number !== null ? { phoneNumbers: [{ value: row.phone_number, type: 'work', primary: true }] } : {}),
    meta: {
      resourceType: 'User',
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location: userLocation(baseUrl, row.id),
      version: weakEtag(row.version),
    },
  }
}

/** The user id a SCIM id names: its canonical decimal form only, within the column's range. */
export function parseScimId(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,18}$/.test(text)) return undefined
  const id = Number(text)
  return isStorableId(id) && String(id) === text ? id : undefined
}

export function stateOfRow(row: UserRow): ScimUserState {
  return {
    userName: row.email_address,
    externalId: row.external_identity,
    givenName: row.first_name,
    familyName: row.last_name,
    phoneNumber: row.phone_number,
    active: undefined,
  }
}

/** true/false, or the strings "True"/"False" in any case (Entra ID). */
export function parseScimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true'
  throw invalidValue(`${attribute} must be true or false`)
}

/** Empty strings mean "no value" for optional attributes. */
export function optionalString(value: unknown, attribute: string): string | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value !== 'string') throw invalidValue(`${attribute} must be a string`)
  return value
}

type MultiValueInput = { value?: unknown; type?: unknown; primary?: unknown }

const isPrimary = (e: MultiValueInput) =>
  e.primary === true || (typeof e.primary === 'string' && e.primary.toLowerCase() === 'true')

/**
 * The value of a multi-valued attribute that the service stores: the primary one, else the one of
 * type "work", else one without a type. Others (home, mobile, ...) are not held.
 */
export function storedValueOf(entries: readonly unknown[]): MultiValueInput | undefined {
  const values = entries.filter((e): e is MultiValueInput => typeof e === 'object' && e !== null && !Array.isArray(e))
  return (
    values.find(isPrimary) ??
    values.find((e) => typeof e.type === 'string' && e.type.toLowerCase() === 'work') ??
    values.find((e) => e.type === undefined || e.type === null || e.type === '')
  )
}

export function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase()
}

/**
 * The state a POST (no current user) or PUT (full replacement) asks for. On PUT, externalId and
 * active left out keep their values: the first is how the user signs in through the identity
 * provider, the second whether they may; RFC 7644 §3.5.1 lets the service choose the default.
 */
export function stateOfResource(body: ScimUserInput, current: ScimUserState | undefined): ScimUserState {
  const userName = body.userName.trim()
  const email = storedValueOf(body.emails ?? [])
  if (email && typeof email.value === 'string' && email.value !== '' && !sameAddress(email.value, userName)) {
    throw invalidValue(
      `The work email ${email.value} differs from userName ${userName}: the service holds one email address, which is the userName`,
    )
  }
  return {
    userName,
    externalId:
      body.externalId === undefined ? (current?.externalId ?? null) : optionalString(body.externalId, 'externalId'),
    givenName: optionalString(body.name?.givenName, 'name.givenName'),
    familyName: optionalString(body.name?.familyName, 'name.familyName'),
    phoneNumber: optionalString(storedValueOf(body.phoneNumbers ?? [])?.value, 'phoneNumbers.value'),
    active: body.active === undefined || body.active === null ? undefined : parseScimBoolean(body.active, 'active'),
  }
}

/** The expiredDate that makes the user's activity what SCIM asked for, keeping it when it already is. */
export function nextExpiredDate(current: Date | null, active: boolean | undefined, now: Date): Date | null {
  if (active === undefined) return current
  const activeNow = isActive(current, now)
  if (active) return activeNow ? current : null
  return activeNow ? now : current
}

export function toUserInput(state: ScimUserState, current: UserRow | undefined, now: Date): UserInput {
  return {
    emailAddress: state.userName,
    externalIdentity: state.externalId,
    firstName: state.givenName,
    lastName: state.familyName,
    phoneNumber: state.phoneNumber,
    expiredDate: nextExpiredDate(current?.expired_date ?? null, state.active, now),
    accountHolderId: current?.account_holder_id ?? null,
    // roleIds, groupIds and password stay undefined: the service keeps the current ones.
  }
}

/** True when writing `input` would change nothing (so no new version, no audit record). */
export function unchanged(row: UserRow, input: UserInput): boolean {
  return (
    row.email_address === input.emailAddress.trim() &&
    row.external_identity === input.externalIdentity &&
    row.first_name === input.firstName &&
    row.last_name === input.lastName &&
    row.phone_number === input.phoneNumber &&
    (row.expired_date?.getTime() ?? null) === (input.expiredDate?.getTime() ?? null) &&
    row.account_holder_id === input.accountHolderId
  )
}

// The same rules as v1 (user.schemas.ts), so a user written through SCIM is a valid v1 PUT body.
const StorableUser = Type.Object({
  userName: ReplaceUserBody.properties.emailAddress,
  externalId: ReplaceUserBody.properties.externalIdentity,
  'name.givenName': ReplaceUserBody.properties.firstName,
  'name.familyName': ReplaceUserBody.properties.lastName,
  'phoneNumbers.value': ReplaceUserBody.properties.phoneNumber,
})

type Validate = ((data: unknown) => boolean) & { errors?: Parameters<typeof validationFieldErrors>[0] | null }
const validateStorable = buildValidator()({
  schema: StorableUser,
  httpPart: 'body',
  method: 'PUT',
  url: '/api/v2/Users/:id',
}) as Validate

/** Refuses a state the user store would not accept, naming every offending attribute (400 invalidValue). */
export function assertStorable(state: ScimUserState): void {
  const candidate = {
    userName: state.userName,
    externalId: state.externalId,
    'name.givenName': state.givenName,
    'name.familyName': state.familyName,
    'phoneNumbers.value': state.phoneNumber,
  }
  if (validateStorable(candidate)) return
  const errors = validationFieldErrors(validateStorable.errors ?? [], 'body')
  throw invalidValue(`Invalid attribute: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`)
}
