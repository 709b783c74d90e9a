import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  isActiveAccountHolder,
  maskTaxId,
  PHONE_PATTERN,
  phoneToE164,
  TAX_ID_PATTERN,
  US_STATES,
  ZIP_PATTERN,
} from './contact.rules.ts'

test('phone numbers', () => {
  const re = new RegExp(PHONE_PATTERN)
  const cases: Array<[string, boolean, string?]> = [
    ['+15125550100', true, '+15125550100'],
    ['+442071838750', true, '+442071838750'],
    ['512-555-0100', true, '+15125550100'],
    ['(512) 555-0100', true, '+15125550100'],
    ['512.555.0100', true, '+15125550100'],
    ['1 512 555 0100', true, '+15125550100'],
    ['5125550100', true, '+15125550100'],
    ['555-0100', false],
    ['012-555-0100', false],
    ['512-055-0100', false],
    ['+0123456789', false],
    ['phone', false],
    ['', false],
  ]
  for (const [input, ok, e164] of cases) {
    assert.equal(re.test(input), ok, input)
    if (e164) assert.equal(phoneToE164(input), e164, input)
  }
})

test('ZIP codes, tax ids and states', () => {
  const zip = new RegExp(ZIP_PATTERN)
  for (const [input, ok] of [
    ['78701', true],
    ['78701-1234', true],
    ['7870', false],
    ['787011234', false],
    ['ABCDE', false],
  ] as const) {
    assert.equal(zip.test(input), ok, input)
  }
  const tax = new RegExp(TAX_ID_PATTERN)
  for (const [input, ok] of [
    ['12-3456789', true],
    ['123456789', true],
    ['123-45-6789', true],
    ['12-345678', false],
    ['1234-5-6789', false],
    ['AB-CDEFGHI', false],
  ] as const) {
    assert.equal(tax.test(input), ok, input)
  }
  assert.equal(US_STATES.length, 56)
  assert.ok(US_STATES.includes('TX') && US_STATES.includes('DC') && US_STATES.includes('PR'))
  assert.equal(maskTaxId('12-3456789'), '*****6789')
  assert.equal(maskTaxId(null), null)
})

test('isActiveAccountHolder', () => {
  const now = new Date('2026-06-01T00:00:00Z')
  const cases: Array<['ACTIVE' | 'INACTIVE', Date | null, boolean]> = [
    ['ACTIVE', null, true],
    ['ACTIVE', new Date('2026-07-01T00:00:00Z'), true],
    ['ACTIVE', now, false],
    ['ACTIVE', new Date('2026-01-01T00:00:00Z'), false],
    ['INACTIVE', null, false],
  ]
  for (const [status, expired, expected] of cases)
    assert.equal(isActiveAccountHolder({ status, expired_date: expired }, now), expected, `${status} ${expired}`)
})
