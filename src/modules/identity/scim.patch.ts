// PATCH (RFC 7644 §3.5.2) on the SCIM view of a user, as Entra ID and Okta send it: op in any case,
// with a path (`active`, `name.givenName`, `emails[type eq "work"].value`, ...) or without one (the
// value is then an object of attributes, whose keys may themselves be paths), booleans also as the
// strings "True"/"False". Pure: the current state in, the requested state out, or a ScimError.
//
// The service holds one email (the userName) and one phone number, both of type "work". A value
// filter is matched against that one value; a filter that does not match it (type eq "home") targets
// a value the service does not hold, and the operation is ignored, as are attributes it does not
// hold (displayName, title, addresses, extension attributes, ...).
import { invalidPath, invalidValue, ScimError } from './scim.errors.ts'
import {
  isCoreAttribute,
  matchesValue,
  parsePatchPath,
  SCIM_USER_URN,
  type MultiValue,
  type PatchPath,
} from './scim.filter.ts'
import { optionalString, parseScimBoolean, sameAddress, storedValueOf, type ScimUserState } from './scim.mapper.ts'

export type PatchOperation = { op: string; path?: string; value?: unknown }

type Op = 'add' | 'replace' | 'remove'

type Draft = ScimUserState & {
  /** The work email, which must end up equal to the userName. */
  email: string
  userNameSet: boolean
  emailSet: boolean
}

// Attributes that clients read but never write; an explicit path to them is a mutability error.
const READ_ONLY = new Set(['id', 'meta', 'groups', 'schemas'])

const mutability = (attribute: string) => new ScimError(400, 'mutability', `${attribute} is read-only`)

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The member of an object whose name matches case-insensitively (attribute names are, RFC 7643 §2.1). */
function member(value: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(value).find((k) => k.toLowerCase() === name.toLowerCase())
  return key === undefined ? undefined : value[key]
}

function requiredString(value: unknown, attribute: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidValue(`${attribute} must be a non-empty string`)
  return value.trim()
}

function setEmail(d: Draft, value: unknown, attribute: string): void {
  d.email = requiredString(value, attribute)
  d.emailSet = true
}

function removeEmail(): never {
  throw invalidValue('The work email is the userName and cannot be removed')
}

function setPhone(d: Draft, value: unknown, attribute: string): void {
  d.phoneNumber = optionalString(value, attribute)
}

type MultiTarget = {
  label: string
  current: (d: Draft) => string | null
  set: (d: Draft, value: unknown, attribute: string) => void
  remove: (d: Draft) => void
  same: (a: string, b: string) => boolean
}

const EMAILS: MultiTarget = {
  label: 'emails',
  current: (d) => d.email,
  set: setEmail,
  remove: removeEmail,
  same: sameAddress,
}

const PHONES: MultiTarget = {
  label: 'phoneNumbers',
  current: (d) => d.phoneNumber,
  set: setPhone,
  remove: (d) => {
    d.phoneNumber = null
  },
  same: (a, b) => a.replace(/[^0-9+]/g, '') === b.replace(/[^0-9+]/g, ''),
}

function applyMultiValued(d: Draft, op: Op, target: PatchPath, value: unknown, t: MultiTarget): void {
  const held: MultiValue = { value: t.current(d), type: 'work', primary: true }
  const sub = target.filter ? target.sub : target.path.sub
  if (target.filter && !matchesValue(target.filter, held)) return
  if (sub !== undefined) {
    if (sub.toLowerCase() !== 'value') return // type, primary, display: fixed or not held
    if (op === 'remove') t.remove(d)
    else t.set(d, value, `${t.label}.value`)
    return
  }
  if (target.filter) {
    // emails[type eq "work"] with a value object: its "value" member is the new value.
    if (op === 'remove') {
      t.remove(d)
      return
    }
    if (!isObject(value)) throw invalidValue(`The value for ${t.label}[...] must be an object`)
    const v = member(value, 'value')
    if (v !== undefined) t.set(d, v, `${t.label}.value`)
    return
  }
  // The whole attribute: a list of values (a single object is read as a list of one).
  if (op === 'remove') {
    if (value === undefined) {
      t.remove(d)
      return
    }
    const current = t.current(d)
    const listed = (Array.isArray(value) ? value : [value]).filter(isObject).map((e) => member(e, 'value'))
    if (current !== null && listed.some((v) => typeof v === 'string' && t.same(v, current))) t.remove(d)
    return
  }
  if (value !== null && !Array.isArray(value) && !isObject(value))
    throw invalidValue(`The value for ${t.label} must be a list of values`)
  const stored = storedValueOf(value === null ? [] : Array.isArray(value) ? value : [value])
  if (stored) t.set(d, stored.value, `${t.label}.value`)
  else if (op === 'replace') t.remove(d) // replace drops every value, the held one included
}

function applyName(d: Draft, op: Op, sub: string | undefined, value: unknown): void {
  if (sub === undefined) {
    if (op === 'remove' || value === null) {
      d.givenName = null
      d.familyName = null
      return
    }
    if (!isObject(value)) throw invalidValue('The value for name must be an object')
    // Sub-attributes left out stay as they are (RFC 7644 §3.5.2.3, complex attributes).
    const given = member(value, 'givenName')
    const family = member(value, 'familyName')
    if (given !== undefined) d.givenName = optionalString(given, 'name.givenName')
    if (family !== undefined) d.familyName = optionalString(family, 'name.familyName')
    return
  }
  const which = sub.toLowerCase()
  if (which !== 'givenname' && which !== 'familyname') return // formatted, middleName, honorifics: not held
  const next = op === 'remove' ? null : optionalString(value, `name.${sub}`)
  if (which === 'givenname') d.givenName = next
  else d.familyName = next
}

function applyPath(d: Draft, op: Op, pathText: string, value: unknown, fromValueObject: boolean): void {
  const target = parsePatchPath(pathText)
  if (!isCoreAttribute(target.path)) return // extension schemas (enterprise User, ...) are not held
  const name = target.path.name.toLowerCase()
  const single = target.filter === undefined && target.path.sub === undefined
  const singleOnly = () => {
    if (!single) throw invalidPath(`${target.path.name} has no sub-attributes or values to select`)
  }
  switch (name) {
    case 'username':
      singleOnly()
      if (op === 'remove') throw invalidValue('userName is required and cannot be removed')
      d.userName = requiredString(value, 'userName')
      d.userNameSet = true
      return
    case 'externalid':
      singleOnly()
      d.externalId = op === 'remove' ? null : optionalString(value, 'externalId')
      return
    case 'active':
      singleOnly()
      if (op === 'remove') throw invalidValue('active cannot be removed; set it to true or false')
      d.active = parseScimBoolean(value, 'active')
      return
    case 'name':
      if (target.filter) throw invalidPath('name is not multi-valued')
      applyName(d, op, target.path.sub, value)
      return
    case 'emails':
      applyMultiValued(d, op, target, value, EMAILS)
      return
    case 'phonenumbers':
      applyMultiValued(d, op, target, value, PHONES)
      return
    default:
      if (READ_ONLY.has(name) && !fromValueObject) throw mutability(target.path.name)
  }
}

function applyOperation(d: Draft, operation: PatchOperation): void {
  const op = operation.op.toLowerCase() as Op
  if (operation.path !== undefined) {
    applyPath(d, op, operation.path, operation.value, false)
    return
  }
  if (op === 'remove') throw new ScimError(400, 'noTarget', 'A remove operation needs a path')
  if (!isObject(operation.value))
    throw invalidValue(`An ${op} operation without a path needs an object of attributes as its value`)
  applyAttributes(d, op, operation.value)
}

function applyAttributes(d: Draft, op: Op, attributes: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (key.toLowerCase() === SCIM_USER_URN.toLowerCase()) {
      if (!isObject(value)) throw invalidValue(`The value of ${key} must be an object of attributes`)
      applyAttributes(d, op, value)
    } else {
      applyPath(d, op, key, value, true)
    }
  }
}

/**
 * Applies the operations in order to `current`. userName and the work email name the same stored
 * address: changing either changes both; changing both to different addresses is refused.
 */
export function applyPatch(current: ScimUserState, operations: readonly PatchOperation[]): ScimUserState {
  const d: Draft = { ...current, email: current.userName, userNameSet: false, emailSet: false }
  for (const operation of operations) applyOperation(d, operation)
  let userName = d.userName
  if (d.emailSet) {
    if (d.userNameSet && !sameAddress(d.email, d.userName)) {
      throw invalidValue(
        `The work email ${d.email} differs from userName ${d.userName}: the service holds one email address, which is the userName`,
      )
    }
    if (!d.userNameSet) userName = d.email
  }
  return {
    userName,
    externalId: d.externalId,
    givenName: d.givenName,
    familyName: d.familyName,
    phoneNumber: d.phoneNumber,
    active: d.active,
  }
}
