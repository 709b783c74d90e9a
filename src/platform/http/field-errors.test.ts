import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FieldError } from './errors.ts'
import { mergeFieldErrors } from './field-errors.ts'

const e = (field: string, code: string): FieldError => ({ field, code, message: code })

test('schema and rule errors: the rule wins a field both judge; every other error is kept, in order', () => {
  const cases: Array<{ name: string; schema: FieldError[]; rules: FieldError[]; merged: FieldError[] }> = [
    { name: 'neither', schema: [], rules: [], merged: [] },
    {
      name: 'schema only',
      schema: [e('a', 'type'), e('b', 'pattern')],
      rules: [],
      merged: [e('a', 'type'), e('b', 'pattern')],
    },
    { name: 'rules only', schema: [], rules: [e('a', 'required')], merged: [e('a', 'required')] },
    {
      name: 'both judge one field: the rule replaces the schema, in its place',
      schema: [e('a', 'type'), e('routingNumber', 'pattern'), e('c', 'enum')],
      rules: [e('routingNumber', 'invalid_checksum')],
      merged: [e('a', 'type'), e('routingNumber', 'invalid_checksum'), e('c', 'enum')],
    },
    {
      name: 'several schema errors of the field: replaced once',
      schema: [e('a', 'pattern'), e('a', 'maxLength'), e('b', 'type')],
      rules: [e('a', 'invalid_value')],
      merged: [e('a', 'invalid_value'), e('b', 'type')],
    },
    {
      name: 'several rule errors of a field: all kept',
      schema: [e('amount', 'minimum')],
      rules: [e('amount', 'not_allowed'), e('amount', 'too_many_places')],
      merged: [e('amount', 'not_allowed'), e('amount', 'too_many_places')],
    },
    {
      name: 'fields only the rules judge come after, in the rules order',
      schema: [e('b', 'type')],
      rules: [e('z', 'required'), e('b', 'conflict'), e('a', 'not_allowed')],
      merged: [e('b', 'conflict'), e('z', 'required'), e('a', 'not_allowed')],
    },
  ]
  for (const c of cases) assert.deepEqual(mergeFieldErrors(c.schema, c.rules), c.merged, c.name)
})
