import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Decimal } from 'decimal.js'
import {
  SETTING_GROUPS,
  SETTING_TYPE_INFO,
  SETTING_TYPES,
  SETTINGS,
  RESERVED_SETTINGS,
  type SettingDefinition,
} from './settings.catalog.ts'
import {
  canonicalTimeZone,
  contractNumberFormatProblem,
  effectiveJson,
  findDefinition,
  formatContractNumber,
  isCalendarDate,
  parseDuration,
  parseOperatorInput,
  toTypedValue,
  validateSettingValue,
  type SettingValue,
} from './settings.rules.ts'

// Definitions of every type, independent of the catalogue, so the rules are tested on their own.
const integer: SettingDefinition = {
  id: 901,
  key: 'anInteger',
  name: 'i',
  group: 'GENERAL',
  description: '',
  type: 'integer',
  default: 60,
  minimum: 0,
  maximum: 365,
}
const decimal: SettingDefinition = {
  id: 902,
  key: 'aDecimal',
  name: 'd',
  group: 'GENERAL',
  description: '',
  type: 'decimal',
  default: 50,
  minimum: 0,
  maximum: 1000,
}
const boolean: SettingDefinition = {
  id: 903,
  key: 'aBoolean',
  name: 'b',
  group: 'GENERAL',
  description: '',
  type: 'boolean',
  default: false,
}
const string: SettingDefinition = {
  id: 904,
  key: 'aString',
  name: 's',
  group: 'GENERAL',
  description: '',
  type: 'string',
  default: 'x',
  minLength: 1,
  maxLength: 5,
}
const timeZoneSetting: SettingDefinition = {
  id: 905,
  key: 'aZone',
  name: 'z',
  group: 'GENERAL',
  description: '',
  type: 'string',
  default: 'UTC',
  minLength: 1,
  maxLength: 64,
  format: 'ianaTimeZone',
}
const numberFormat: SettingDefinition = {
  id: 906,
  key: 'aFormat',
  name: 'f',
  group: 'GENERAL',
  description: '',
  type: 'string',
  default: '{sequence}',
  minLength: 1,
  maxLength: 40,
  format: 'contractNumberFormat',
}
const date: SettingDefinition = {
  id: 907,
  key: 'aDate',
  name: 'dt',
  group: 'GENERAL',
  description: '',
  type: 'date',
  default: null,
  nullable: true,
  minimum: '2000-01-01',
  maximum: '2999-12-31',
}
const list: SettingDefinition = {
  id: 908,
  key: 'aList',
  name: 'l',
  group: 'GENERAL',
  description: '',
  type: 'list',
  default: 'MILES',
  allowedValues: ['MILES', 'KILOMETERS'],
}
const duration: SettingDefinition = {
  id: 909,
  key: 'aDuration',
  name: 'du',
  group: 'GENERAL',
  description: '',
  type: 'duration',
  default: 'PT24H',
  minimum: 'PT1M',
  maximum: 'P30D',
}

type Case = [SettingDefinition, unknown, { value: unknown } | { code: string }]

test('validateSettingValue: every type, valid and invalid', () => {
  const cases: Case[] = [
    [integer, 0, { value: 0 }],
    [integer, 365, { value: 365 }],
    [integer, 75, { value: 75 }],
    [integer, -1, { code: 'out_of_range' }],
    [integer, 366, { code: 'out_of_range' }],
    [integer, 60.5, { code: 'invalid_type' }],
    [integer, '60', { code: 'invalid_type' }],
    [integer, true, { code: 'invalid_type' }],
    [integer, 2 ** 60, { code: 'invalid_type' }],
    [integer, null, { code: 'null_not_allowed' }],
    [integer, [60], { code: 'invalid_type' }],
    [decimal, 49.99, { value: 49.99 }],
    [decimal, 50, { value: 50 }],
    [decimal, 0.1, { value: 0.1 }],
    [decimal, 1000, { value: 1000 }],
    [decimal, 49.999, { code: 'too_precise' }],
    [decimal, 1000.01, { code: 'out_of_range' }],
    [decimal, -0.01, { code: 'out_of_range' }],
    [decimal, '49.99', { code: 'invalid_type' }],
    [decimal, Number.NaN, { code: 'invalid_type' }],
    [boolean, true, { value: true }],
    [boolean, false, { value: false }],
    [boolean, 'true', { code: 'invalid_type' }],
    [boolean, 1, { code: 'invalid_type' }],
    [string, 'abc', { value: 'abc' }],
    [string, 'ééééé', { value: 'ééééé' }],
    [string, '', { code: 'too_short' }],
    [string, 'abcdef', { code: 'too_long' }],
    [string, 'a\nb', { code: 'invalid_format' }],
    [string, 5, { code: 'invalid_type' }],
    [timeZoneSetting, 'America/Chicago', { value: 'America/Chicago' }],
    [timeZoneSetting, 'america/new_york', { value: 'America/New_York' }],
    [timeZoneSetting, 'UTC', { value: 'UTC' }],
    [timeZoneSetting, 'Mars/Olympus_Mons', { code: 'invalid_format' }],
    [timeZoneSetting, '+05:00', { code: 'invalid_format' }],
    [numberFormat, '{formPrefix}-{sequence:8}', { value: '{formPrefix}-{sequence:8}' }],
    [numberFormat, 'VSC{yy}{mm}/{sequence}', { value: 'VSC{yy}{mm}/{sequence}' }],
    [numberFormat, '{formPrefix}', { code: 'invalid_format' }],
    [numberFormat, '{sequence}{sequence:2}', { code: 'invalid_format' }],
    [numberFormat, '{sequence:0}', { code: 'invalid_format' }],
    [numberFormat, '{sequence:13}', { code: 'invalid_format' }],
    [numberFormat, '{dealer}-{sequence}', { code: 'invalid_format' }],
    [numberFormat, 'A B-{sequence}', { code: 'invalid_format' }],
    [date, '2026-12-31', { value: '2026-12-31' }],
    [date, '2024-02-29', { value: '2024-02-29' }],
    [date, null, { value: null }],
    [date, '2025-02-29', { code: 'invalid_format' }],
    [date, '2026-1-5', { code: 'invalid_format' }],
    [date, '2026-12-31T00:00:00Z', { code: 'invalid_format' }],
    [date, '1999-12-31', { code: 'out_of_range' }],
    [date, 20261231, { code: 'invalid_type' }],
    [list, 'KILOMETERS', { value: 'KILOMETERS' }],
    [list, 'kilometers', { code: 'not_allowed' }],
    [list, 'FURLONGS', { code: 'not_allowed' }],
    [list, 1, { code: 'invalid_type' }],
    [duration, 'PT30M', { value: 'PT30M' }],
    [duration, 'pt30m', { value: 'PT30M' }],
    [duration, 'P30D', { value: 'P30D' }],
    [duration, 'P1DT12H', { value: 'P1DT12H' }],
    [duration, 'P2W', { value: 'P2W' }],
    [duration, 'PT59S', { code: 'out_of_range' }],
    [duration, 'P31D', { code: 'out_of_range' }],
    [duration, 'P5W', { code: 'out_of_range' }],
    [duration, 'P1M', { code: 'invalid_format' }],
    [duration, 'P1Y', { code: 'invalid_format' }],
    [duration, 'PT', { code: 'invalid_format' }],
    [duration, 'P', { code: 'invalid_format' }],
    [duration, 'P1DT', { code: 'invalid_format' }],
    [duration, 'PT1.5H', { code: 'invalid_format' }],
    [duration, 30, { code: 'invalid_type' }],
  ]
  for (const [def, input, expected] of cases) {
    const got = validateSettingValue(def, input)
    const label = `${def.key} ${JSON.stringify(input)}`
    if ('value' in expected) assert.deepEqual(got, { ok: true, value: expected.value }, label)
    else assert.equal(got.ok ? 'ok' : got.problem.code, expected.code, label)
  }
})

test('parseOperatorInput: CLI text into JSON values', () => {
  const cases: Case[] = [
    [integer, '75', { value: 75 }],
    [integer, ' 75 ', { value: 75 }],
    [integer, '+7', { value: 7 }],
    [integer, '7.5', { code: 'invalid_type' }],
    [integer, 'abc', { code: 'invalid_type' }],
    [integer, '', { code: 'invalid_type' }],
    [integer, '400', { code: 'out_of_range' }],
    [decimal, '49.99', { value: 49.99 }],
    [decimal, '50', { value: 50 }],
    [decimal, '49.990', { value: 49.99 }],
    [decimal, '49.999', { code: 'too_precise' }],
    [decimal, '$50', { code: 'invalid_type' }],
    [decimal, '1e3', { code: 'invalid_type' }],
    [boolean, 'true', { value: true }],
    [boolean, 'FALSE', { value: false }],
    [boolean, 'yes', { code: 'invalid_type' }],
    [string, 'abc', { value: 'abc' }],
    [timeZoneSetting, 'America/Denver', { value: 'America/Denver' }],
    [date, '2026-01-01', { value: '2026-01-01' }],
    [date, 'null', { value: null }],
    [date, '', { value: null }],
    [date, '01/01/2026', { code: 'invalid_format' }],
    [list, 'kilometers', { value: 'KILOMETERS' }],
    [list, 'miles', { value: 'MILES' }],
    [list, 'leagues', { code: 'not_allowed' }],
    [duration, 'PT30M', { value: 'PT30M' }],
    [duration, '30m', { code: 'invalid_format' }],
  ]
  for (const [def, input, expected] of cases) {
    const got = parseOperatorInput(def, input as string)
    const label = `${def.key} ${JSON.stringify(input)}`
    if ('value' in expected) assert.deepEqual(got, { ok: true, value: expected.value }, label)
    else assert.equal(got.ok ? 'ok' : got.problem.code, expected.code, label)
  }
})

test('parseDuration', () => {
  const cases: Array<[string, number | undefined]> = [
    ['PT15M', 15 * 60_000],
    ['PT24H', 86_400_000],
    ['P1D', 86_400_000],
    ['P30D', 30 * 86_400_000],
    ['P1W', 7 * 86_400_000],
    ['P1DT1H1M1S', 90_061_000],
    ['PT0S', 0],
    ['PT90M', 5_400_000],
    ['P1M', undefined],
    ['P1W1D', undefined],
    ['-PT1M', undefined],
    ['PT1M ', 60_000],
    ['', undefined],
  ]
  for (const [text, ms] of cases) assert.equal(parseDuration(text)?.milliseconds, ms, text)
})

test('isCalendarDate', () => {
  const cases: Array<[string, boolean]> = [
    ['2026-01-01', true],
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2026-13-01', false],
    ['2026-04-31', false],
    ['2026-00-10', false],
    ['26-01-01', false],
    ['2026-01-01 ', false],
  ]
  for (const [text, ok] of cases) assert.equal(isCalendarDate(text), ok, text)
})

test('canonicalTimeZone', () => {
  const cases: Array<[string, string | undefined]> = [
    ['America/Chicago', 'America/Chicago'],
    ['AMERICA/CHICAGO', 'America/Chicago'],
    ['UTC', 'UTC'],
    ['US/Central', 'US/Central'],
    ['Nowhere/Special', undefined],
    ['+05:00', undefined],
    ['', undefined],
    ['../etc/passwd', undefined],
  ]
  for (const [text, zone] of cases) assert.equal(canonicalTimeZone(text), zone, text)
})

test('contract numbers', () => {
  const cases: Array<[string, { formPrefix: string; sequence: number; date: string }, string]> = [
    ['{formPrefix}-{sequence:8}', { formPrefix: 'VSC', sequence: 42, date: '2026-03-15' }, 'VSC-00000042'],
    ['{formPrefix}{yyyy}{mm}-{sequence:4}', { formPrefix: 'GAP', sequence: 7, date: '2026-03-15' }, 'GAP202603-0007'],
    ['{yy}/{sequence}', { formPrefix: 'X', sequence: 123456, date: '2026-03-15' }, '26/123456'],
    ['{formPrefix}-{sequence:2}', { formPrefix: 'TW', sequence: 12345, date: '2026-03-15' }, 'TW-12345'],
  ]
  for (const [format, parts, expected] of cases) {
    assert.equal(contractNumberFormatProblem(format), undefined, format)
    assert.equal(formatContractNumber(format, parts), expected, format)
  }
})

test('effectiveJson: stored value, default, and stored values the catalogue no longer accepts', () => {
  assert.deepEqual(effectiveJson(integer, undefined), { value: 60, isDefault: true })
  assert.deepEqual(effectiveJson(integer, { value: 75 }), { value: 75, isDefault: false })
  assert.deepEqual(effectiveJson(integer, { value: 9999 }), { value: 60, isDefault: true })
  assert.deepEqual(effectiveJson(date, undefined), { value: null, isDefault: true })
})

test('toTypedValue', () => {
  const fee = toTypedValue(decimal, 49.99)
  assert.ok(fee instanceof Decimal)
  assert.equal((fee as Decimal).toFixed(2), '49.99')
  assert.deepEqual(toTypedValue(duration, 'PT30M'), { iso: 'PT30M', milliseconds: 1_800_000 })
  assert.equal(toTypedValue(integer, 60), 60)
  assert.equal(toTypedValue(date, null), null)
  assert.equal(toTypedValue(list, 'MILES'), 'MILES')
})

test('reserved ids and keys stay free for the issues that define them, or are defined with exactly that id and key', () => {
  const reservedIds = RESERVED_SETTINGS.map((r) => r.id)
  assert.equal(new Set(reservedIds).size, reservedIds.length, 'reserved ids are unique')
  assert.deepEqual(
    reservedIds,
    Array.from({ length: 15 }, (_, i) => 11 + i),
    'ids 11-25 are reserved, in order',
  )
  for (const r of RESERVED_SETTINGS) {
    const byId = SETTINGS.find((s) => s.id === r.id)
    if (r.key !== null) {
      const key = r.key.toLowerCase()
      const byKey = SETTINGS.find((s) => s.key.toLowerCase() === key)
      assert.equal(
        byId?.key,
        byKey?.key,
        `setting ${r.id} / ${r.key}: the id and the key are defined together or not at all`,
      )
    }
    if (byId === undefined) assert.equal(findDefinition(String(r.id)), undefined, `${r.id} is unknown until defined`)
  }
})

test('the catalogue is well formed', () => {
  const ids = SETTINGS.map((s) => s.id)
  assert.equal(new Set(ids).size, ids.length, 'ids are unique')
  assert.equal(new Set(SETTINGS.map((s) => s.key.toLowerCase())).size, SETTINGS.length, 'keys are unique ignoring case')
  const groups = new Set<string>(SETTING_GROUPS.map((g) => g.code))
  for (const s of SETTINGS) {
    assert.match(s.key, /^[a-z][A-Za-z0-9]*$/, `${s.key} is camelCase`)
    assert.ok(groups.has(s.group), `${s.key} has a known group`)
    assert.ok(s.description.length > 20, `${s.key} is described`)
    const checked = validateSettingValue(s, s.default)
    assert.deepEqual(checked, { ok: true, value: s.default }, `${s.key}: the default satisfies its own constraints`)
    assert.equal(findDefinition(s.key), s)
    assert.equal(findDefinition(String(s.id)), s)
    assert.equal(findDefinition(s.key.toUpperCase()), s)
  }
  assert.deepEqual(
    SETTING_TYPE_INFO.map((t) => t.code),
    [...SETTING_TYPES],
    'every type is described, in order',
  )
  assert.equal(new Set(SETTING_TYPE_INFO.map((t) => t.id)).size, SETTING_TYPE_INFO.length, 'type ids are unique')
  assert.equal(findDefinition('noSuchSetting'), undefined)
  assert.equal(findDefinition('0'), undefined)
})

test('SettingValue maps each key to its type', () => {
  // Compile-time checks: a wrong mapping fails `npm run typecheck`.
  const lookBack: SettingValue<'saleDateLookBackDays'> = 60
  const fee: SettingValue<'defaultCancelFee'> = new Decimal('50.00')
  const unit: SettingValue<'distanceUnit'> = 'KILOMETERS'
  const closed: SettingValue<'booksClosedThrough'> = null
  const lifetime: SettingValue<'quoteLifetime'> = { iso: 'PT24H', milliseconds: 86_400_000 }
  const deduct: SettingValue<'deductClaimsPaidFromRefund'> = true
  // @ts-expect-error: a list value outside the allowed values is not assignable
  const wrong: SettingValue<'distanceUnit'> = 'FURLONGS'
  // @ts-expect-error: an integer setting is a number
  const text: SettingValue<'saleDateLookBackDays'> = '60'
  // @ts-expect-error: only nullable settings can be null
  const none: SettingValue<'freeLookDays'> = null
  assert.equal([lookBack, fee, unit, closed, lifetime, deduct, wrong, text, none].length, 9)
})
