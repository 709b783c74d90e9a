// The default cancel methods and reasons: the copy migration 0014 gave ids to is this list (changing
// a default code needs a migration); written into a book as its own, they pass every check; the
// reasons' flags are the documented table's.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  DEFAULT_CANCEL_METHOD_CODES,
  DEFAULT_CANCEL_REASON_CODES,
} from '../../../platform/db/migrations/2026_11_26_0014_cancel_catalogue_kinds.ts'
import { demoRateBook } from './demo-ratebook.ts'
import {
  cancelMethodTerms,
  cancelReasonTerms,
  DEFAULT_CANCEL_METHODS,
  DEFAULT_CANCEL_REASONS,
  defaultCancelMethodCode,
} from './ratebook.defaults.ts'
import { CANCEL_FORMULAS, PRODUCT_TYPES } from './ratebook.format.ts'
import { checkRateBook } from './ratebook.rules.ts'

test('the default codes are the ones migration 0014 gave ids to (a new default code needs a new migration)', () => {
  assert.deepEqual(
    DEFAULT_CANCEL_METHODS.map((m) => m.code),
    [...DEFAULT_CANCEL_METHOD_CODES],
  )
  assert.deepEqual(
    DEFAULT_CANCEL_REASONS.map((r) => r.code),
    [...DEFAULT_CANCEL_REASON_CODES],
  )
})

test("one default method per formula, its code the formula, except FIXED_AMOUNT (its amount is the book's)", () => {
  assert.deepEqual(
    DEFAULT_CANCEL_METHODS.map((m) => [m.code, m.formula]),
    CANCEL_FORMULAS.filter((f) => f !== 'FIXED_AMOUNT').map((f) => [f, f]),
  )
  for (const type of PRODUCT_TYPES)
    assert.ok(
      DEFAULT_CANCEL_METHODS.some((m) => m.code === defaultCancelMethodCode(type)),
      type,
    )
})

test('the defaults written into a book as its own pass every check', () => {
  const book = demoRateBook('2026-01-01')
  book.cancelMethods = [...DEFAULT_CANCEL_METHODS]
  book.cancelReasons = [...DEFAULT_CANCEL_REASONS]
  for (const p of book.products) delete p.cancellation
  const checked = checkRateBook(book, { file: 'body' })
  assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.problems))
})

test('the default reasons, as the table of docs/rate-books.md gives them', () => {
  const row = (code: string) => {
    const r = cancelReasonTerms(
      0,
      DEFAULT_CANCEL_REASONS.find((x) => x.code === code)!,
    )
    return [
      r.requestedBy.join(' '),
      r.forcesFullRefund,
      r.waivesFee,
      r.requiresPayoffDate,
      r.requiredDocuments.join(' '),
      r.refundPayee,
      r.productTypes,
      r.endsGap,
    ]
  }
  assert.deepEqual(Object.fromEntries(DEFAULT_CANCEL_REASONS.map((r) => [r.code, row(r.code)])), {
    CUSTOMER_REQUEST: ['CUSTOMER DEALER ADMIN', false, false, false, '', 'AUTO', null, null],
    TRADE_IN: ['CUSTOMER DEALER ADMIN', false, false, false, 'ODOMETER_STATEMENT', 'AUTO', null, 'SALE'],
    VEHICLE_SOLD: ['CUSTOMER DEALER LIENHOLDER ADMIN', false, false, false, 'ODOMETER_STATEMENT', 'AUTO', null, 'SALE'],
    EARLY_PAYOFF: ['CUSTOMER LIENHOLDER ADMIN', false, false, true, 'PAYOFF_LETTER', 'AUTO', null, 'PAYOFF'],
    REFINANCE: ['CUSTOMER LIENHOLDER ADMIN', false, false, true, 'PAYOFF_LETTER', 'AUTO', null, 'REFINANCE'],
    REPOSSESSION: [
      'LIENHOLDER DEALER ADMIN',
      false,
      false,
      false,
      'REPOSSESSION_NOTICE',
      'LIENHOLDER',
      null,
      'REPOSSESSION',
    ],
    TOTAL_LOSS: [
      'CUSTOMER DEALER LIENHOLDER ADMIN',
      false,
      false,
      false,
      'TOTAL_LOSS_STATEMENT',
      'AUTO',
      null,
      'TOTAL_LOSS',
    ],
    SALE_UNWOUND: ['DEALER ADMIN', true, true, false, '', 'DEALER', null, null],
    NON_PAYMENT: ['DEALER LIENHOLDER ADMIN', false, false, false, '', 'AUTO', null, null],
    FRAUD: ['ADMIN', false, false, false, '', 'AUTO', null, null],
    DUPLICATE: ['DEALER ADMIN', true, true, false, '', 'DEALER', null, null],
    DEATH: ['CUSTOMER DEALER LIENHOLDER ADMIN', false, false, false, 'DEATH_CERTIFICATE', 'AUTO', null, null],
  })
})

test('a method resolves every parameter: the time it reads, its month counting, miles', () => {
  const cases: Array<[Parameters<typeof cancelMethodTerms>[1], unknown[]]> = [
    [{ code: 'A', name: 'A', formula: 'PRO_RATA_DAYS' }, ['DAYS', null, null, null, false]],
    [
      { code: 'B', name: 'B', formula: 'PRO_RATA_MONTHS', monthCounting: 'NEAREST_15' },
      ['MONTHS', 'NEAREST_15', null, null, false],
    ],
    [{ code: 'C', name: 'C', formula: 'PRO_RATA_MILES' }, [null, null, null, null, true]],
    [{ code: 'D', name: 'D', formula: 'PRO_RATA_LESSER_TIME_MILES' }, ['DAYS', null, null, null, true]],
    [
      { code: 'E', name: 'E', formula: 'PRO_RATA_GREATER_TIME_MILES', timeBasis: 'MONTHS' },
      ['MONTHS', 'COMPLETED', null, null, true],
    ],
    [{ code: 'F', name: 'F', formula: 'MEAN_PR_R78' }, ['MONTHS', 'COMPLETED', null, null, false]],
    [{ code: 'G', name: 'G', formula: 'SHORT_RATE', shortRatePercent: 92.5 }, ['DAYS', null, '92.5', null, false]],
    [{ code: 'H', name: 'H', formula: 'FIXED_AMOUNT', fixedAmount: 100 }, [null, null, null, '100.00', false]],
    [{ code: 'I', name: 'I', formula: 'FULL' }, [null, null, null, null, false]],
  ]
  for (const [input, expected] of cases) {
    const m = cancelMethodTerms(7, input)
    assert.deepEqual(
      [m.timeBasis, m.monthCounting, m.shortRatePercent, m.fixedAmount, m.milesApply],
      expected,
      input.code,
    )
    assert.deepEqual([m.id, m.code, m.formula], [7, input.code, input.formula])
  }
})
