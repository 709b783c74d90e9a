// PATCH (engineering guide §3): JSON Patch (RFC 6902, application/json-patch+json) and JSON Merge
// Patch (RFC 7396, application/merge-patch+json; plain application/json is read as merge patch).
// The patch is applied to the resource's editable representation; fields that must not change are
// refused by name; the result is then validated as a whole by the caller's schema.
import fjp, { type Operation } from 'fast-json-patch'
import { Type, type TSchema } from 'typebox'
import { jsonEqual } from '../canonical-json.ts'
import { defineErrors, type FieldError } from './errors.ts'
import { compileSchemaValidator } from './validation.ts'

export const patchErrors = defineErrors({
  invalid_patch: { status: 422, title: 'The patch cannot be applied' },
  immutable_field: { status: 422, title: 'The patch changes fields that cannot change' },
  patched_resource_invalid: { status: 422, title: 'The patched resource is not valid' },
})

export const PATCH_MEDIA_TYPES = [
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/json',
] as const

const JsonPatchOperation = Type.Object({
  op: Type.Union(['add', 'remove', 'replace', 'move', 'copy', 'test'].map((op) => Type.Literal(op))),
  path: Type.String({ maxLength: 500 }),
  from: Type.Optional(Type.String({ maxLength: 500 })),
  value: Type.Optional(Type.Unknown()),
})

/** Body schema of PATCH routes: a JSON Patch document (array) or a merge patch (object). */
export const PatchBody = (mergeExample: Record<string, unknown>) =>
  Type.Union(
    [
      Type.Array(JsonPatchOperation, {
        maxItems: 200,
        description: 'RFC 6902 JSON Patch (Content-Type: application/json-patch+json).',
      }),
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'RFC 7396 JSON Merge Patch (Content-Type: application/merge-patch+json or application/json).',
        },
      ),
    ],
    {
      examples: [
        mergeExample,
        [
          {
            op: 'replace',
            path: `/${Object.keys(mergeExample)[0] ?? 'name'}`,
            value: Object.values(mergeExample)[0] ?? null,
          },
        ],
      ],
    },
  )

/** RFC 7396: objects merge recursively, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch
  const result: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {}
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete result[key]
    else result[key] = mergePatch(result[key], value)
  }
  return result
}

function isJsonPatch(contentType: string | undefined, body: unknown): body is Operation[] {
  return (contentType ?? '').toLowerCase().startsWith('application/json-patch+json') || Array.isArray(body)
}

/**
 * Applies a PATCH body to `current` (the resource's editable representation). Changing any of
 * `immutable` (top-level names) is refused by name, whatever the patch format.
 */
export function applyPatch<T extends Record<string, unknown>>(
  current: T,
  body: unknown,
  contentType: string | undefined,
  immutable: readonly string[],
): Record<string, unknown> {
  let next: unknown
  if (isJsonPatch(contentType, body)) {
    if (!Array.isArray(body))
      throw patchErrors.create('invalid_patch', 'A JSON Patch document must be an array of operations')
    try {
      next = fjp.applyPatch(structuredClone(current), body, true, false).newDocument
    } catch (err) {
      const e = err as { name?: string; index?: number; message?: string }
      const index = typeof e.index === 'number' ? e.index : 0
      const reason =
        e.name === 'TEST_OPERATION_FAILED'
          ? 'the test operation failed'
          : e.name === 'OPERATION_PATH_UNRESOLVABLE'
            ? 'its path does not exist'
            : e.name === 'OPERATION_FROM_UNRESOLVABLE'
              ? 'its from path does not exist'
              : e.name === 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX' || e.name === 'OPERATION_VALUE_OUT_OF_BOUNDS'
                ? 'its array index is not valid'
                : 'it is not a valid operation'
      throw patchErrors.create('invalid_patch', `Operation ${index} cannot be applied: ${reason}`, {
        errors: [{ field: `[${index}]`, code: 'invalid_patch', message: reason }],
      })
    }
  } else {
    if (body === null || typeof body !== 'object')
      throw patchErrors.create('invalid_patch', 'A merge patch must be a JSON object')
    next = mergePatch(current, body)
  }
  if (next === null || typeof next !== 'object' || Array.isArray(next)) {
    throw patchErrors.create('invalid_patch', 'The patch must leave an object')
  }
  const result = next as Record<string, unknown>
  const changed = immutable.filter((f) => !jsonEqual(result[f], current[f]))
  if (changed.length > 0) {
    throw patchErrors.create('immutable_field', `These fields cannot be changed: ${changed.join(', ')}`, {
      errors: changed.map((field) => ({ field, code: 'immutable', message: 'cannot be changed' })),
    })
  }
  return result
}

/** Validates a patched representation as a whole; every problem is listed. */
export function createPatchedValidator(schema: TSchema): (value: unknown) => void {
  const validate = compileSchemaValidator(schema)
  return (value) => {
    const errors: FieldError[] = validate(value)
    if (errors.length > 0) {
      throw patchErrors.create(
        'patched_resource_invalid',
        `The patched resource has ${errors.length} invalid field(s): ${errors.map((e) => e.field).join(', ')}`,
        { errors },
      )
    }
  }
}
