import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  paymentMethodViolations,
  resolvePaymentMethod,
  type DisbursementAccountRef,
  type PaymentMethodRecord,
  type Resolution,
} from './payment-method.rules.ts'

const H = 'holder-1'
const OTHER = 'holder-2'
const account = (over: Partial<DisbursementAccountRef> = {}): DisbursementAccountRef => ({
  id: 'acct-ach',
  accountHolderId: H,
  paymentMethod: 'ACH',
  status: 'ACTIVE',
  isDefault: false,
  ...over,
})
const record = (over: Partial<PaymentMethodRecord> = {}): PaymentMethodRecord => ({
  accountHolderId: H,
  direction: 'PAY',
  paymentMethod: 'CHECK',
  disbursementAccountId: null,
  isDefault: true,
  ...over,
})

test('resolution: holder default → default disbursement account → tenant default → CHECK', () => {
  const cases: Array<{
    name: string
    direction?: 'PAY' | 'RECEIVE'
    records: PaymentMethodRecord[]
    accounts: DisbursementAccountRef[]
    expected: Resolution
  }> = [
    {
      name: 'nothing known',
      records: [],
      accounts: [],
      expected: { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' },
    },
    {
      name: "holder's default ACH record with its account",
      records: [record({ paymentMethod: 'ACH', disbursementAccountId: 'acct-ach' })],
      accounts: [account()],
      expected: { paymentMethod: 'ACH', disbursementAccountId: 'acct-ach', source: 'ACCOUNT_HOLDER' },
    },
    {
      name: 'a non-default holder record is not used',
      records: [record({ paymentMethod: 'WIRE', isDefault: false })],
      accounts: [],
      expected: { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' },
    },
    {
      name: "holder record whose account went inactive falls through to the tenant's",
      records: [
        record({ paymentMethod: 'ACH', disbursementAccountId: 'acct-ach' }),
        record({ accountHolderId: null, paymentMethod: 'CHECK' }),
      ],
      accounts: [account({ status: 'INACTIVE' })],
      expected: { paymentMethod: 'CHECK', source: 'TENANT' },
    },
    {
      name: "holder's default disbursement account",
      records: [record({ accountHolderId: null, paymentMethod: 'CHECK' })],
      accounts: [account({ id: 'acct-wire', paymentMethod: 'WIRE', isDefault: true })],
      expected: { paymentMethod: 'WIRE', disbursementAccountId: 'acct-wire', source: 'DISBURSEMENT_ACCOUNT_DEFAULT' },
    },
    {
      name: 'an inactive default account is skipped',
      records: [],
      accounts: [account({ isDefault: true, status: 'INACTIVE' })],
      expected: { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' },
    },
    {
      name: "another holder's default account is not this holder's",
      records: [],
      accounts: [account({ accountHolderId: OTHER, isDefault: true })],
      expected: { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' },
    },
    {
      name: 'RECEIVE does not use disbursement accounts',
      direction: 'RECEIVE',
      records: [record({ accountHolderId: null, direction: 'RECEIVE', paymentMethod: 'WIRE' })],
      accounts: [account({ isDefault: true })],
      expected: { paymentMethod: 'WIRE', source: 'TENANT' },
    },
    {
      name: "holder's RECEIVE record does not answer PAY",
      records: [record({ direction: 'RECEIVE', paymentMethod: 'ACH' })],
      accounts: [],
      expected: { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' },
    },
    {
      name: 'tenant ACH default with the holder holding an active ACH account',
      records: [record({ accountHolderId: null, paymentMethod: 'ACH' })],
      accounts: [account()],
      expected: { paymentMethod: 'ACH', disbursementAccountId: 'acct-ach', source: 'TENANT' },
    },
    {
      name: 'tenant ACH default without an account of the holder falls back to CHECK',
      records: [record({ accountHolderId: null, paymentMethod: 'ACH' })],
      accounts: [account({ accountHolderId: OTHER })],
      expected: { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' },
    },
  ]
  for (const c of cases) {
    const got = resolvePaymentMethod({
      accountHolderId: H,
      direction: c.direction ?? 'PAY',
      records: c.records,
      accounts: c.accounts,
    })
    assert.deepEqual(got, c.expected, c.name)
  }
})

test('record violations: PAY by ACH/WIRE needs an active account of the holder and of the same method', () => {
  const cases: Array<{
    name: string
    rec: Partial<PaymentMethodRecord>
    acct: DisbursementAccountRef | null
    codes: string[]
  }> = [
    { name: 'PAY by CHECK needs none', rec: {}, acct: null, codes: [] },
    { name: 'RECEIVE by ACH needs none', rec: { direction: 'RECEIVE', paymentMethod: 'ACH' }, acct: null, codes: [] },
    {
      name: 'tenant PAY by ACH names no account',
      rec: { accountHolderId: null, paymentMethod: 'ACH' },
      acct: null,
      codes: [],
    },
    {
      name: 'tenant rule naming an account',
      rec: { accountHolderId: null, paymentMethod: 'ACH', disbursementAccountId: 'acct-ach' },
      acct: account(),
      codes: ['not_allowed'],
    },
    {
      name: 'CHECK naming an account',
      rec: { disbursementAccountId: 'acct-ach' },
      acct: account(),
      codes: ['not_allowed'],
    },
    { name: 'ACH without account', rec: { paymentMethod: 'ACH' }, acct: null, codes: ['required'] },
    {
      name: 'ACH with an unknown account',
      rec: { paymentMethod: 'ACH', disbursementAccountId: 'nope' },
      acct: null,
      codes: ['not_found'],
    },
    {
      name: "ACH with another holder's account",
      rec: { paymentMethod: 'ACH', disbursementAccountId: 'acct-ach' },
      acct: account({ accountHolderId: OTHER }),
      codes: ['not_found'],
    },
    {
      name: 'ACH with an inactive account',
      rec: { paymentMethod: 'ACH', disbursementAccountId: 'acct-ach' },
      acct: account({ status: 'INACTIVE' }),
      codes: ['invalid_value'],
    },
    {
      name: 'WIRE with an ACH account',
      rec: { paymentMethod: 'WIRE', disbursementAccountId: 'acct-ach' },
      acct: account(),
      codes: ['invalid_value'],
    },
    {
      name: 'ACH with its active account',
      rec: { paymentMethod: 'ACH', disbursementAccountId: 'acct-ach' },
      acct: account(),
      codes: [],
    },
  ]
  for (const c of cases) {
    const errors = paymentMethodViolations(record(c.rec), c.acct)
    assert.deepEqual(
      errors.map((e) => e.code),
      c.codes,
      c.name,
    )
    for (const e of errors) assert.equal(e.field, 'disbursementAccountId', c.name)
  }
})
