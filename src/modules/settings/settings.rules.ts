// Pure rules for settings: validating a JSON value against its definition, reading operator input,
// turning stored JSON into the typed value other modules use, durations, and contract numbers.
import { hasControlCharacter } from '../../platform/text.ts'
import { Decimal } from 'decimal.js'
import {
  SETTINGS,
  type DefinitionOf,
  type SettingDefinition,
  type SettingJson,
  type SettingKey,
  type StringFormat,
} from './settings.catalog.ts'

/** A duration as other modules use it: the ISO text and its exact length. */
export type SettingDuration = { readonly iso: string; readonly milliseconds: number }

type Nullable<D, T> = D extends { nullable: true } ? T | null : T

/** The typed value of a setting, as `getSetting` returns it. */
export type TypedValueOf<D> = Nullable<
  D,
  D extends { type: 'integer' }
    ? number
    : D extends { type: 'decimal' }
      ? Decimal
      : D extends { type: 'boolean' }
        ? boolean
        : D extends { type: 'string' }
          ? string
          : D extends { type: 'date' }
            ? string
            : D extends { type: 'duration' }
              ? SettingDuration
              : D extends { type: 'list'; allowedValues: readonly (infer V)[] }
                ? V
                : never
>

export type SettingValue<K extends SettingKey> = TypedValueOf<DefinitionOf<K>>

export type ValueProblem = { code: string; message: string }
export type Validated = { ok: true; value: SettingJson } | { ok: false; problem: ValueProblem }

const fail = (code: string, message: string): Validated => ({ ok: false, problem: { code, message } })
const pass = (value: SettingJson): Validated => ({ ok: true, value })

// ---------------------------------------------------------------------------------------------
// Catalogue lookups

const byId = new Map<number, SettingDefinition>(SETTINGS.map((s) => [s.id, s]))
const byKey = new Map<string, SettingDefinition>(SETTINGS.map((s) => [s.key.toLowerCase(), s]))

/** The definition named by an integer id ('4') or a key (matched ignoring case), if any. */
export function findDefinition(idOrKey: string | number): SettingDefinition | undefined {
  if (typeof idOrKey === 'number') return byId.get(idOrKey)
  const text = idOrKey.trim()
  if (/^[0-9]{1,9}$/.test(text)) return byId.get(Number(text))
  return byKey.get(text.toLowerCase())
}

export function definitionOf<K extends SettingKey>(key: K): DefinitionOf<K> {
  return byKey.get(key.toLowerCase()) as DefinitionOf<K>
}

// ---------------------------------------------------------------------------------------------
// Durations (ISO 8601 subset: weeks, or days/hours/minutes/seconds; a day is 24 hours)

const DURATION = /^P(?:(\d{1,6})W|(?:(\d{1,6})D)?(?:T(?:(\d{1,7})H)?(?:(\d{1,9})M)?(?:(\d{1,10})S)?)?)$/

export function parseDuration(text: string): SettingDuration | undefined {
  const iso = text.trim().toUpperCase()
  const m = DURATION.exec(iso)
  if (!m) return undefined
  const [, w, d, h, min, s] = m
  // "P" and "PT" alone name no length.
  if (w === undefined && d === undefined && h === undefined && min === undefined && s === undefined) return undefined
  if (iso.endsWith('T')) return undefined
  const n = (v: string | undefined) => (v === undefined ? 0 : Number(v))
  const milliseconds = ((((n(w) * 7 + n(d)) * 24 + n(h)) * 60 + n(min)) * 60 + n(s)) * 1000
  if (!Number.isSafeInteger(milliseconds)) return undefined
  return { iso, milliseconds }
}

// ---------------------------------------------------------------------------------------------
// Dates

export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}

// ---------------------------------------------------------------------------------------------
// String formats

let zones: Map<string, string> | undefined

/** The zone name if `text` is an IANA time zone the runtime knows (case fixed), else undefined. */
export function canonicalTimeZone(text: string): string | undefined {
  // Names only: fixed offsets such as +05:00 ignore daylight saving, which is the point of a zone.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(text)) return undefined
  zones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]))
  const known = zones.get(text.toLowerCase())
  if (known) return known
  try {
    // Aliases the list leaves out (UTC, US/Central, ...) are still valid zone names.
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone ? text : undefined
  } catch {
    return undefined
  }
}

const PLACEHOLDER = /\{([^{}]*)\}/g
const LITERAL = /^[A-Za-z0-9\-_/.]*$/

/** Why a contract number format is unusable, or undefined when it is fine. */
export function contractNumberFormatProblem(format: string): string | undefined {
  let sequences = 0
  for (const m of format.matchAll(PLACEHOLDER)) {
    const name = m[1] ?? ''
    const seq = /^sequence(?::(\d{1,2}))?$/.exec(name)
    if (seq) {
      const width = seq[1] === undefined ? undefined : Number(seq[1])
      if (width !== undefined && (width < 1 || width > 12)) return `{${name}}: the width must be 1 to 12`
      sequences++
    } else if (!['formPrefix', 'yyyy', 'yy', 'mm'].includes(name)) {
      return `unknown placeholder {${name}}; use {formPrefix}, {sequence}, {sequence:N}, {yyyy}, {yy} or {mm}`
    }
  }
  if (sequences !== 1)
    return 'must contain exactly one {sequence} or {sequence:N} placeholder, so that numbers are unique'
  const literal = format.replace(PLACEHOLDER, '')
  if (!LITERAL.test(literal)) return 'characters outside placeholders must be letters, digits, -, _, / or .'
  return undefined
}

/**
 * Builds a contract number from a valid format. `date` is the day the number is assigned
 * (YYYY-MM-DD, in the tenant's time zone). A sequence longer than its width is written in full.
 */
export function formatContractNumber(
  format: string,
  parts: { formPrefix: string; sequence: number; date: string },
): string {
  return format.replace(PLACEHOLDER, (_all, name: string) => {
    if (name === 'formPrefix') return parts.formPrefix
    if (name === 'yyyy') return parts.date.slice(0, 4)
    if (name === 'yy') return parts.date.slice(2, 4)
    if (name === 'mm') return parts.date.slice(5, 7)
    const width = Number(name.split(':')[1] ?? 0)
    return String(parts.sequence).padStart(width, '0')
  })
}

function formatProblem(format: StringFormat, value: string): { problem?: string; value: string } {
  if (format === 'ianaTimeZone') {
    const zone = canonicalTimeZone(value)
    return zone ? { value: zone } : { value, problem: 'must be an IANA time zone name such as America/Chicago' }
  }
  const problem = contractNumberFormatProblem(value)
  return problem ? { value, problem } : { value }
}

// ---------------------------------------------------------------------------------------------
// Validation of JSON values (the API and, after parsing, the CLI)

/**
 * Checks a JSON value against a setting's type and constraints and returns its canonical form
 * (durations upper-cased, time zones in their IANA case). Never throws.
 */
export function validateSettingValue(def: SettingDefinition, value: unknown): Validated {
  if (value === null) return def.nullable ? pass(null) : fail('null_not_allowed', 'must not be null')
  switch (def.type) {
    case 'integer': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return fail('invalid_type', 'must be an integer')
      if (value < def.minimum || value > def.maximum)
        return fail('out_of_range', `must be between ${def.minimum} and ${def.maximum}`)
      return pass(value)
    }
    case 'decimal': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('invalid_type', 'must be a number')
      const d = new Decimal(value)
      if (d.decimalPlaces() > 2) return fail('too_precise', 'must have at most 2 decimal places')
      if (d.lessThan(def.minimum) || d.greaterThan(def.maximum)) {
        return fail(
          'out_of_range',
          `must be between ${new Decimal(def.minimum).toFixed(2)} and ${new Decimal(def.maximum).toFixed(2)}`,
        )
      }
      return pass(d.toNumber())
    }
    case 'boolean':
      return typeof value === 'boolean' ? pass(value) : fail('invalid_type', 'must be true or false')
    case 'string': {
      if (typeof value !== 'string') return fail('invalid_type', 'must be a string')
      const length = [...value].length
      if (length < def.minLength) return fail('too_short', `must be at least ${def.minLength} character(s)`)
      if (length > def.maxLength) return fail('too_long', `must be at most ${def.maxLength} characters`)
      if (hasControlCharacter(value)) return fail('invalid_format', 'must not contain control characters')
      if (def.format) {
        const checked = formatProblem(def.format, value)
        if (checked.problem) return fail('invalid_format', checked.problem)
        return pass(checked.value)
      }
      return pass(value)
    }
    case 'date': {
      if (typeof value !== 'string') return fail('invalid_type', 'must be a date string YYYY-MM-DD')
      if (!isCalendarDate(value)) return fail('invalid_format', 'must be a calendar date YYYY-MM-DD')
      // YYYY-MM-DD strings compare like the dates they name.
      if ((def.minimum !== undefined && value < def.minimum) || (def.maximum !== undefined && value > def.maximum)) {
        return fail('out_of_range', `must be between ${def.minimum ?? 'any date'} and ${def.maximum ?? 'any date'}`)
      }
      return pass(value)
    }
    case 'list': {
      if (typeof value !== 'string') return fail('invalid_type', 'must be a string')
      if (!def.allowedValues.includes(value))
        return fail('not_allowed', `must be one of ${def.allowedValues.join(', ')}`)
      return pass(value)
    }
    case 'duration': {
      if (typeof value !== 'string') return fail('invalid_type', 'must be an ISO 8601 duration string such as PT30M')
      const d = parseDuration(value)
      if (!d)
        return fail(
          'invalid_format',
          'must be an ISO 8601 duration of weeks (P2W) or days, hours, minutes and seconds (P1DT12H, PT30M); years and months are not accepted',
        )
      const min = def.minimum === undefined ? undefined : parseDuration(def.minimum)
      const max = def.maximum === undefined ? undefined : parseDuration(def.maximum)
      if ((min && d.milliseconds < min.milliseconds) || (max && d.milliseconds > max.milliseconds)) {
        return fail('out_of_range', `must be between ${def.minimum ?? 'PT0S'} and ${def.maximum ?? 'any length'}`)
      }
      return pass(d.iso)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Operator (CLI) input: text in, JSON value out, then validateSettingValue as for the API.

export function parseOperatorInput(def: SettingDefinition, raw: string): Validated {
  const text = raw.trim()
  if (def.nullable && def.type !== 'string' && (text === '' || text.toLowerCase() === 'null')) return pass(null)
  switch (def.type) {
    case 'integer':
      if (!/^[+-]?\d{1,15}$/.test(text)) return fail('invalid_type', `'${raw}' is not an integer`)
      return validateSettingValue(def, Number(text))
    case 'decimal': {
      if (!/^[+-]?\d{1,15}(\.\d+)?$/.test(text))
        return fail('invalid_type', `'${raw}' is not a decimal number such as 49.99`)
      const d = new Decimal(text)
      if (d.decimalPlaces() > 2) return fail('too_precise', 'must have at most 2 decimal places')
      return validateSettingValue(def, d.toNumber())
    }
    case 'boolean': {
      const lower = text.toLowerCase()
      if (lower !== 'true' && lower !== 'false') return fail('invalid_type', `'${raw}' is not true or false`)
      return pass(lower === 'true')
    }
    case 'string':
      // Strings are taken exactly as given: the shell has already done the quoting.
      return validateSettingValue(def, raw)
    case 'date':
      return validateSettingValue(def, text)
    case 'list': {
      const match = def.allowedValues.find((v) => v.toLowerCase() === text.toLowerCase())
      return validateSettingValue(def, match ?? text)
    }
    case 'duration':
      return validateSettingValue(def, text)
  }
}

// ---------------------------------------------------------------------------------------------
// Effective and typed values

/**
 * The value in effect: the stored one when there is one and it still satisfies the catalogue
 * (a later release may tighten a constraint), otherwise the default.
 */
export function effectiveJson(
  def: SettingDefinition,
  stored: { value: unknown } | undefined,
): { value: SettingJson; isDefault: boolean } {
  if (stored !== undefined) {
    const checked = validateSettingValue(def, stored.value)
    if (checked.ok) return { value: checked.value, isDefault: false }
  }
  return { value: def.default, isDefault: true }
}

/** Converts a valid JSON value into the typed value other modules read. */
export function toTypedValue(def: SettingDefinition, value: SettingJson): unknown {
  if (value === null) return null
  switch (def.type) {
    case 'decimal':
      return new Decimal(value as number).toDecimalPlaces(2)
    case 'duration':
      return Object.freeze(parseDuration(value as string))
    default:
      return value
  }
}
