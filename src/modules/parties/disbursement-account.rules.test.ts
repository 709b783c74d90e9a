import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  disbursementAccountViolations,
  isValidAccountNumber,
  maskBankNumber,
  routingNumberProblem,
  type DisbursementAccountFields,
} from './disbursement-account.rules.ts'

describe('ABA routing numbers', () => {
  const cases: Array<[string, ReturnType<typeof routingNumberProblem>]> = [
    ['021000021', null], // JPMorgan Chase, New York
    ['011000015', null], // Federal Reserve Bank of Boston
    ['122105278', null], // Wells Fargo, California
    ['026009593', null], // Bank of America, New York
    ['111000025', null], // Bank of America, Texas
    ['322271627', null], // Chase, California (thrift range)
    ['021000020', 'invalid_checksum'],
    ['021000012', 'invalid_checksum'], // two digits swapped
    ['122105287', 'invalid_checksum'],
    ['130000006', 'invalid_prefix'], // check digit right, prefix 13 unassigned
    ['500000005', 'invalid_prefix'],
    ['990000000', 'invalid_prefix'],
    ['000000000', 'invalid_prefix'],
    ['02100002', 'invalid_format'],
    ['0210000211', 'invalid_format'],
    ['02100002a', 'invalid_format'],
    ['021 000 021', 'invalid_format'],
    ['', 'invalid_format'],
    ['*****0021', 'invalid_format'],
  ]
  for (const [value, problem] of cases) {
    test(`${JSON.stringify(value)} → ${problem ?? 'valid'}`, () => assert.equal(routingNumberProblem(value), problem))
  }
})

describe('account numbers', () => {
  const cases: Array<[string, boolean]> = [
    ['1234', true],
    ['12345678901234567', true],
    ['000123456789', true],
    ['123', false],
    ['123456789012345678', false],
    ['1234-5678', false],
    ['12345678x', false],
    ['', false],
  ]
  for (const [value, valid] of cases) {
    test(`${JSON.stringify(value)} → ${valid}`, () => assert.equal(isValidAccountNumber(value), valid))
  }
})

describe('masking', () => {
  const cases: Array<[string | null, string | null]> = [
    ['021000021', '*****0021'],
    ['000123456789', '*****6789'],
    ['12345678901234567', '*****4567'],
    ['12345678', '*****5678'],
    ['1234567', '*****567'], // never more than half of the digits
    ['123456', '*****456'],
    ['1234', '*****34'],
    ['1', '*****'],
    [null, null],
  ]
  for (const [value, masked] of cases) {
    test(`${JSON.stringify(value)} → ${JSON.stringify(masked)}`, () => assert.equal(maskBankNumber(value), masked))
  }
})

describe('an account as a whole', () => {
  const ach = {
    paymentMethod: 'ACH',
    bankName: 'First Bank',
    routingNumber: '021000021',
    accountNumber: '000123456789',
    accountType: 'CHECKING',
  }
  const cases: Array<[string, DisbursementAccountFields, Array<[string, string]>]> = [
    ['a complete ACH account', ach, []],
    ['a WIRE account without account type', { ...ach, paymentMethod: 'WIRE', accountType: undefined }, []],
    ['a CHECK account without bank fields', { paymentMethod: 'CHECK' }, []],
    [
      'a CHECK account with null bank fields',
      { paymentMethod: 'CHECK', bankName: null, routingNumber: null, accountNumber: null, accountType: null },
      [],
    ],
    [
      'ACH without any bank field',
      { paymentMethod: 'ACH' },
      [
        ['bankName', 'required'],
        ['routingNumber', 'required'],
        ['accountNumber', 'required'],
        ['accountType', 'required'],
      ],
    ],
    [
      'WIRE without bank fields',
      { paymentMethod: 'WIRE', bankName: null },
      [
        ['bankName', 'required'],
        ['routingNumber', 'required'],
        ['accountNumber', 'required'],
      ],
    ],
    [
      'CHECK with bank fields',
      { ...ach, paymentMethod: 'CHECK' },
      [
        ['bankName', 'not_allowed'],
        ['routingNumber', 'not_allowed'],
        ['accountNumber', 'not_allowed'],
        ['accountType', 'not_allowed'],
      ],
    ],
    [
      'a bad check digit and a short account number',
      { ...ach, routingNumber: '021000020', accountNumber: '12' },
      [
        ['routingNumber', 'invalid_value'],
        ['accountNumber', 'invalid_format'],
      ],
    ],
    ['a routing number of 8 digits', { ...ach, routingNumber: '02100002' }, [['routingNumber', 'invalid_format']]],
    ['an inactive default', { ...ach, isDefault: true, status: 'INACTIVE' }, [['isDefault', 'not_allowed']]],
    ['an inactive account that is not the default', { ...ach, isDefault: false, status: 'INACTIVE' }, []],
    [
      'missing and malformed together',
      { paymentMethod: 'ACH', routingNumber: '123456789', accountNumber: 'abcd' },
      [
        ['bankName', 'required'],
        ['accountType', 'required'],
        ['routingNumber', 'invalid_value'],
        ['accountNumber', 'invalid_format'],
      ],
    ],
    ['values of the wrong type are left to the schema', { ...ach, routingNumber: 21000021, accountNumber: ['1'] }, []],
    ['an unknown payment method is left to the schema', { paymentMethod: 'CASH', routingNumber: '021000021' }, []],
  ]
  for (const [name, input, expected] of cases) {
    test(name, () => {
      const errors = disbursementAccountViolations(input)
      assert.deepEqual(
        errors.map((e) => [e.field, e.code]),
        expected,
      )
    })
  }

  test('messages never repeat the numbers they judge', () => {
    const errors = disbursementAccountViolations({
      paymentMethod: 'CHECK',
      bankName: 'First Bank',
      routingNumber: '021000020',
      accountNumber: '98765432101',
    })
    const all = JSON.stringify(errors)
    assert.doesNotMatch(all, /021000020|98765432101/)
  })
})
