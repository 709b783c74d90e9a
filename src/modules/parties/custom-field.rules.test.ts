import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { CustomFieldType } from '../../platform/db/schema.ts'
import {
  checkCustomField,
  definitionProblems,
  FIELD_NAME_PATTERN,
  isCalendarDate,
  valueProblem,
  type DefinitionRules,
} from './custom-field.rules.ts'

test('values of each type, without a definition', () => {
  // [type, value, expected problem code or undefined]
  const cases: Array<[CustomFieldType, unknown, string | undefined]> = [
    ['STRING', 'CDK Global', undefined],
    ['STRING', 'line one\nline two\ttabbed', undefined],
    ['STRING', 'x'.repeat(1000), undefined],
    ['STRING', '😀'.repeat(1000), undefined],
    ['STRING', 'x'.repeat(1001), 'too_long'],
    ['STRING', '', 'too_short'],
    ['STRING', '   ', 'too_short'],
    ['STRING', 'bell\u0007', 'invalid_format'],
    ['STRING', 'del\u007f', 'invalid_format'],
    ['STRING', 12, 'invalid_type'],
    ['STRING', true, 'invalid_type'],
    ['INTEGER', 42, undefined],
    ['INTEGER', -7, undefined],
    ['INTEGER', 0, undefined],
    ['INTEGER', Number.MAX_SAFE_INTEGER, undefined],
    ['INTEGER', 2 ** 53, 'out_of_range'],
    ['INTEGER', 1.5, 'invalid_type'],
    ['INTEGER', '42', 'invalid_type'],
    ['INTEGER', Number.NaN, 'invalid_type'],
    ['DECIMAL', 25000.5, undefined],
    ['DECIMAL', 19.99, undefined],
    ['DECIMAL', -0.01, undefined],
    ['DECIMAL', 7, undefined],
    ['DECIMAL', 999999999999.99, undefined],
    ['DECIMAL', 1000000000000, 'out_of_range'],
    ['DECIMAL', -1000000000000, 'out_of_range'],
    ['DECIMAL', 1.005, 'too_precise'],
    ['DECIMAL', 0.1 + 0.2, 'too_precise'],
    ['DECIMAL', '19.99', 'invalid_type'],
    ['DECIMAL', Number.POSITIVE_INFINITY, 'invalid_type'],
    ['DATE', '2026-02-28', undefined],
    ['DATE', '2024-02-29', undefined],
    ['DATE', '2026-02-29', 'invalid_format'],
    ['DATE', '2026-13-01', 'invalid_format'],
    ['DATE', '2026-1-01', 'invalid_format'],
    ['DATE', '2026-01-01T00:00:00Z', 'invalid_format'],
    ['DATE', 20260101, 'invalid_type'],
    ['BOOLEAN', true, undefined],
    ['BOOLEAN', false, undefined],
    ['BOOLEAN', 'true', 'invalid_type'],
    ['BOOLEAN', 1, 'invalid_type'],
    ['LIST', 'West', 'not_allowed'],
    ['LIST', 3, 'invalid_type'],
  ]
  for (const [type, value, expected] of cases) {
    assert.equal(valueProblem(type, value)?.code, expected, `${type} ${JSON.stringify(value)}`)
  }
})

test("values under a definition's constraints", () => {
  const cases: Array<
    [CustomFieldType, Pick<DefinitionRules, 'allowedValues' | 'maxLength'>, unknown, string | undefined]
  > = [
    ['LIST', { allowedValues: ['East', 'West'], maxLength: null }, 'West', undefined],
    ['LIST', { allowedValues: ['East', 'West'], maxLength: null }, 'west', 'not_allowed'],
    ['LIST', { allowedValues: ['East', 'West'], maxLength: null }, 'North', 'not_allowed'],
    ['STRING', { allowedValues: null, maxLength: 5 }, 'abcde', undefined],
    ['STRING', { allowedValues: null, maxLength: 5 }, 'abcdef', 'too_long'],
    ['STRING', { allowedValues: null, maxLength: 5 }, 'ééééé', undefined],
    ['STRING', { allowedValues: null, maxLength: null }, 'x'.repeat(1000), undefined],
  ]
  for (const [type, rules, value, expected] of cases) {
    assert.equal(
      valueProblem(type, value, rules)?.code,
      expected,
      `${type} ${JSON.stringify(rules)} ${JSON.stringify(value)}`,
    )
  }
  const long = Array.from({ length: 30 }, (_, i) => `V${i}`)
  assert.match(
    valueProblem('LIST', 'nope', { allowedValues: long, maxLength: null })?.message ?? '',
    /V19, … \(30 values\)$/,
  )
})

test('checkCustomField: type against the definition, LIST needs one', () => {
  const region: DefinitionRules = { name: 'region', type: 'LIST', allowedValues: ['East', 'West'], maxLength: null }
  const cases: Array<[CustomFieldType, unknown, DefinitionRules | undefined, Array<[string, string]> | 'ok']> = [
    ['LIST', 'East', region, 'ok'],
    ['LIST', 'North', region, [['value', 'not_allowed']]],
    ['STRING', 'East', region, [['type', 'mismatch']]],
    ['STRING', 12, region, [['type', 'mismatch']]],
    ['LIST', 'East', undefined, [['type', 'definition_required']]],
    ['STRING', 'anything', undefined, 'ok'],
    ['INTEGER', 'x', undefined, [['value', 'invalid_type']]],
  ]
  for (const [type, value, def, expected] of cases) {
    const checked = checkCustomField(type, value, def)
    const label = `${type} ${JSON.stringify(value)} ${def ? 'defined' : 'undefined'}`
    if (expected === 'ok') {
      assert.deepEqual(checked, { ok: true, value }, label)
    } else {
      assert.equal(checked.ok, false, label)
      if (!checked.ok)
        assert.deepEqual(
          checked.errors.map((e) => [e.field, e.code]),
          expected,
          label,
        )
    }
  }
})

test('definition coherence', () => {
  const cases: Array<[Parameters<typeof definitionProblems>[0], Array<[string, string]>]> = [
    [{ type: 'LIST', allowedValues: ['A'] }, []],
    [{ type: 'LIST' }, [['allowedValues', 'required']]],
    [{ type: 'LIST', allowedValues: null }, [['allowedValues', 'required']]],
    [{ type: 'LIST', allowedValues: [] }, [['allowedValues', 'required']]],
    [{ type: 'LIST', allowedValues: ['A'], maxLength: 4 }, [['maxLength', 'not_allowed']]],
    [
      { type: 'LIST', allowedValues: ['A', ' ', 'b\u0000'] },
      [
        ['allowedValues[1]', 'invalid_value'],
        ['allowedValues[2]', 'invalid_value'],
      ],
    ],
    [{ type: 'STRING', maxLength: 20 }, []],
    [{ type: 'STRING', maxLength: null, allowedValues: null }, []],
    [{ type: 'STRING', allowedValues: ['A'] }, [['allowedValues', 'not_allowed']]],
    [{ type: 'INTEGER', maxLength: 3 }, [['maxLength', 'not_allowed']]],
    [{ type: 'DATE' }, []],
    [
      { type: 'BOOLEAN', allowedValues: ['Y'], maxLength: 1 },
      [
        ['allowedValues', 'not_allowed'],
        ['maxLength', 'not_allowed'],
      ],
    ],
  ]
  for (const [def, expected] of cases) {
    assert.deepEqual(
      definitionProblems(def).map((e) => [e.field, e.code]),
      expected,
      JSON.stringify(def),
    )
  }
})

test('names and dates', () => {
  const name = new RegExp(FIELD_NAME_PATTERN)
  for (const [text, ok] of [
    ['region', true],
    ['Region Code', true],
    ['dms.provider-id_2', true],
    ['9lives', true],
    ['x', true],
    [' region', false],
    ['region ', false],
    ['', false],
    ['a,b', false],
    ['naïve', false],
    ['_x', false],
  ] as const) {
    assert.equal(name.test(text), ok, JSON.stringify(text))
  }
  for (const [text, ok] of [
    ['0001-01-01', true],
    ['0004-02-29', true],
    ['0100-02-29', false],
    ['0000-01-01', false],
    ['9999-12-31', true],
    ['2026-04-31', false],
  ] as const) {
    assert.equal(isCalendarDate(text), ok, text)
  }
})
