// Pure rules of custom fields (docs/custom-fields.md): what a value of each type must look like, what
// a per-tenant definition adds (type, allowed values, maximum length), and which definitions are
// coherent. No I/O; every failure is a FieldError naming `value` or `type` (fields) or the
// definition's own member (definitions).
import { Decimal } from 'decimal.js'
import type { CustomFieldType } from '../../platform/db/schema.ts'
import type { FieldError } from '../../platform/http/errors.ts'

export const CUSTOM_FIELD_TYPES = [
  'STRING',
  'INTEGER',
  'DECIMAL',
  'DATE',
  'BOOLEAN',
  'LIST',
] as const satisfies readonly CustomFieldType[]

/** What carries custom fields: three account-holder kinds, and cash transactions (finance). */
export const CUSTOM_FIELD_KINDS = ['AGENT', 'DEALER_GROUP', 'DEALER', 'CASH_TRANSACTION'] as const
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number]
/** The account-holder kinds among them: their fields are in account_holder_custom_field. */
export type AccountHolderFieldKind = Exclude<CustomFieldKind, 'CASH_TRANSACTION'>

/**
 * Field names: letters, digits, space, `_`, `.` and `-`, starting with a letter or digit and not
 * ending with a space. Compared ignoring case (ASCII only, so JavaScript and SQL lower-case alike).
 */
export const FIELD_NAME_PATTERN = '^[A-Za-z0-9]([A-Za-z0-9 _.-]*[A-Za-z0-9_.-])?$'
export const FIELD_NAME_MAX_LENGTH = 100

/** Longest STRING value without a definition; also the largest maxLength a definition may set. */
export const STRING_MAX_LENGTH = 1000

/** Largest magnitude of a DECIMAL: below it, two decimals survive a JSON (binary) number exactly. */
export const DECIMAL_LIMIT = new Decimal('999999999999.99')

export type CustomFieldValue = string | number | boolean

/** What a per-tenant definition constrains. */
export type DefinitionRules = {
  name: string
  type: CustomFieldType
  allowedValues: readonly string[] | null
  maxLength: number | null
}

export type ValueProblem = { code: string; message: string }

export type Checked = { ok: true; value: CustomFieldValue } | { ok: false; errors: FieldError[] }

export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // setUTCFullYear, unlike Date.UTC, keeps years 1-99 as written.
  const date = new Date(0)
  date.setUTCFullYear(y, mo - 1, d)
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}

/** Tab, line feed and carriage return are text; other control characters are not. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true
  }
  return false
}

function listing(values: readonly string[]): string {
  const shown = values.slice(0, 20).join(', ')
  return values.length > 20 ? `${shown}, … (${values.length} values)` : shown
}

/**
 * The problem with `value` as a value of `type`, or undefined when it is fine. `rules` are the
 * definition's constraints (of the same type); LIST values need them, since only a definition
 * lists the allowed values.
 */
export function valueProblem(
  type: CustomFieldType,
  value: unknown,
  rules?: Pick<DefinitionRules, 'allowedValues' | 'maxLength'>,
): ValueProblem | undefined {
  switch (type) {
    case 'STRING': {
      if (typeof value !== 'string') return { code: 'invalid_type', message: 'must be a string' }
      if (value.trim() === '') return { code: 'too_short', message: 'must not be empty or blank' }
      const max = rules?.maxLength ?? STRING_MAX_LENGTH
      if ([...value].length > max) return { code: 'too_long', message: `must be at most ${max} characters` }
      if (hasControlCharacter(value)) return { code: 'invalid_format', message: 'must not contain control characters' }
      return undefined
    }
    case 'INTEGER':
      if (typeof value !== 'number' || !Number.isInteger(value))
        return { code: 'invalid_type', message: 'must be an integer' }
      if (!Number.isSafeInteger(value))
        return {
          code: 'out_of_range',
          message: `must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
        }
      return undefined
    case 'DECIMAL': {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return { code: 'invalid_type', message: 'must be a number' }
      const d = new Decimal(value)
      if (d.decimalPlaces() > 2) return { code: 'too_precise', message: 'must have at most 2 decimal places' }
      if (d.abs().greaterThan(DECIMAL_LIMIT))
        return {
          code: 'out_of_range',
          message: `must be between -${DECIMAL_LIMIT.toFixed(2)} and ${DECIMAL_LIMIT.toFixed(2)}`,
        }
      return undefined
    }
    case 'DATE':
      if (typeof value !== 'string') return { code: 'invalid_type', message: 'must be a date string YYYY-MM-DD' }
      if (!isCalendarDate(value)) return { code: 'invalid_format', message: 'must be a calendar date YYYY-MM-DD' }
      return undefined
    case 'BOOLEAN':
      return typeof value === 'boolean' ? undefined : { code: 'invalid_type', message: 'must be true or false' }
    case 'LIST': {
      if (typeof value !== 'string') return { code: 'invalid_type', message: 'must be a string' }
      const allowed = rules?.allowedValues ?? []
      if (!allowed.includes(value)) return { code: 'not_allowed', message: `must be one of ${listing(allowed)}` }
      return undefined
    }
  }
}

/**
 * Checks a field (its type and value) against the tenant's definition of its name, if any. With a
 * definition the type must be the definition's (a mismatch is reported alone) and the value must
 * satisfy its constraints; without one the type's own rules apply, and LIST is refused because
 * nothing lists its values.
 */
export function checkCustomField(
  type: CustomFieldType,
  value: unknown,
  definition: DefinitionRules | undefined,
): Checked {
  if (definition && definition.type !== type) {
    return {
      ok: false,
      errors: [
        {
          field: 'type',
          code: 'mismatch',
          message: `must be ${definition.type}, as the definition of ${definition.name} says`,
        },
      ],
    }
  }
  if (!definition && type === 'LIST') {
    return {
      ok: false,
      errors: [
        {
          field: 'type',
          code: 'definition_required',
          message: 'LIST fields need a definition that lists the allowed values',
        },
      ],
    }
  }
  const problem = valueProblem(type, value, definition)
  if (problem) return { ok: false, errors: [{ field: 'value', ...problem }] }
  return { ok: true, value: value as CustomFieldValue }
}

export type DefinitionShape = {
  type: CustomFieldType
  allowedValues?: readonly string[] | null | undefined
  maxLength?: number | null | undefined
}

/** Coherence of a definition: allowed values belong to LIST (which needs them), maxLength to STRING. */
export function definitionProblems(def: DefinitionShape): FieldError[] {
  const errors: FieldError[] = []
  const hasValues = def.allowedValues !== undefined && def.allowedValues !== null
  if (def.type === 'LIST' && (!hasValues || def.allowedValues?.length === 0)) {
    errors.push({ field: 'allowedValues', code: 'required', message: 'a LIST definition lists its allowed values' })
  }
  if (def.type !== 'LIST' && hasValues) {
    errors.push({ field: 'allowedValues', code: 'not_allowed', message: 'only LIST definitions have allowed values' })
  }
  if (def.type !== 'STRING' && def.maxLength !== undefined && def.maxLength !== null) {
    errors.push({ field: 'maxLength', code: 'not_allowed', message: 'only STRING definitions have a maximum length' })
  }
  def.allowedValues?.forEach((v, i) => {
    if (v.trim() === '' || hasControlCharacter(v))
      errors.push({
        field: `allowedValues[${i}]`,
        code: 'invalid_value',
        message: 'must be non-blank text without control characters',
      })
  })
  return errors
}
