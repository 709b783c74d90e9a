import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Decimal, decimalProblem, toStoredDecimal } from '../../../platform/money.ts'
import {
  changedFields,
  dateProblem,
  disbursementViolations,
  fingerprintOf,
  GROUP_DESCRIPTIONS,
  ruleApplies,
} from './disbursement.rules.ts'
import { DISBURSEMENT_GROUPS } from '../ratebook/index.ts'

// decimalProblem and toStoredDecimal live in the money module; the values checked here are the
// bounds disbursements and rate visibility use them with.
describe('decimalProblem', () => {
  const bounds = { places: 2, min: new Decimal(0), max: new Decimal('1000000'), minExclusive: true }
  const cases: Array<[unknown, string | undefined]> = [
    [150, undefined],
    ['150.00', undefined],
    [0.01, undefined],
    ['1000000.00', undefined],
    [99.9, undefined],
    [0, 'out_of_range'],
    ['0.00', 'out_of_range'],
    [-5, 'out_of_range'],
    ['1000000.01', 'out_of_range'],
    [1e21, 'invalid_format'],
    [1.005, 'too_precise'],
    ['12.345', 'too_precise'],
    ['1e3', 'invalid_format'],
    [' 1', 'invalid_format'],
    ['', 'invalid_format'],
    ['12.', 'invalid_format'],
    ['0150', 'invalid_format'],
    ['-0', 'out_of_range'],
    [Number.NaN, 'invalid_format'],
    [Number.POSITIVE_INFINITY, 'invalid_format'],
    [true, 'invalid_type'],
    [null, 'invalid_type'],
  ]
  for (const [value, expected] of cases) {
    test(`${JSON.stringify(value)} → ${expected ?? 'ok'}`, () =>
      assert.equal(decimalProblem(value, bounds)?.code, expected))
  }
  test('an inclusive minimum accepts it', () => {
    assert.equal(decimalProblem(0, { places: 4, min: new Decimal(0), max: new Decimal(1000) }), undefined)
    assert.equal(
      decimalProblem('-0.0001', { places: 4, min: new Decimal(0), max: new Decimal(1000) })?.code,
      'out_of_range',
    )
    assert.equal(decimalProblem('-0.00', { places: 2, min: new Decimal(0), max: new Decimal(1000) }), undefined)
  })
})

describe('dateProblem', () => {
  const cases: Array<[unknown, string | undefined]> = [
    ['2026-01-31', undefined],
    ['2028-02-29', undefined],
    ['1900-01-01', undefined],
    ['2999-12-31', undefined],
    ['2026-02-29', 'invalid_format'],
    ['2026-13-01', 'invalid_format'],
    ['2026-1-01', 'invalid_format'],
    ['20260101', 'invalid_format'],
    ['0000-01-01', 'out_of_range'],
    ['1899-12-31', 'out_of_range'],
    ['3000-01-01', 'out_of_range'],
    [20260101, 'invalid_type'],
  ]
  for (const [value, expected] of cases) {
    test(`${JSON.stringify(value)} → ${expected ?? 'ok'}`, () => assert.equal(dateProblem(value)?.code, expected))
  }
})

describe('disbursementViolations', () => {
  const base = { code: 'DLRPACK', effectiveFrom: '2026-01-01' }
  const cases: Array<[string, Record<string, unknown>, Array<[string, string]>]> = [
    ['amount basis with an amount', { ...base, basis: 'AMOUNT', amount: 150 }, []],
    ['percent basis with a percent string', { ...base, basis: 'PERCENT', percent: '2.5' }, []],
    ['null for the other member is fine', { ...base, basis: 'AMOUNT', amount: '150.00', percent: null }, []],
    ['amount basis without amount', { ...base, basis: 'AMOUNT' }, [['amount', 'required']]],
    ['amount basis with a percent', { ...base, basis: 'AMOUNT', amount: 1, percent: 2 }, [['percent', 'not_allowed']]],
    [
      'percent basis with an amount only',
      { ...base, basis: 'PERCENT', amount: 1 },
      [
        ['percent', 'required'],
        ['amount', 'not_allowed'],
      ],
    ],
    ['percent over 100', { ...base, basis: 'PERCENT', percent: 100.5 }, [['percent', 'out_of_range']]],
    ['percent of 5 places', { ...base, basis: 'PERCENT', percent: '1.00001' }, [['percent', 'too_precise']]],
    ['amount of 3 places', { ...base, basis: 'AMOUNT', amount: 1.234 }, [['amount', 'too_precise']]],
    ['zero amount', { ...base, basis: 'AMOUNT', amount: 0 }, [['amount', 'out_of_range']]],
    [
      'end before start',
      { ...base, basis: 'AMOUNT', amount: 1, effectiveTo: '2025-12-31' },
      [['effectiveTo', 'out_of_range']],
    ],
    ['end on start', { ...base, basis: 'AMOUNT', amount: 1, effectiveTo: '2026-01-01' }, []],
    [
      'bad calendar dates',
      { ...base, basis: 'AMOUNT', amount: 1, effectiveFrom: '2026-02-30', effectiveTo: '0000-01-01' },
      [
        ['effectiveFrom', 'invalid_format'],
        ['effectiveTo', 'out_of_range'],
      ],
    ],
    ['unknown basis leaves the values alone', { ...base, basis: 'OTHER', amount: 1 }, []],
  ]
  for (const [name, input, expected] of cases) {
    test(name, () =>
      assert.deepEqual(
        disbursementViolations(input).map((e) => [e.field, e.code]),
        expected,
      ),
    )
  }
})

test("toStoredDecimal gives the column's scale", () => {
  assert.equal(toStoredDecimal(150, 2), '150.00')
  assert.equal(toStoredDecimal('2.5', 4), '2.5000')
  assert.equal(toStoredDecimal(0.1, 2), '0.10')
  assert.equal(toStoredDecimal('-0.00', 2), '0.00')
  assert.throws(() => toStoredDecimal('1.234', 2))
  assert.throws(() => toStoredDecimal('x', 2))
})

describe('ruleApplies', () => {
  type Rule = {
    productId: number | null
    programId: number | null
    planId: number | null
    termId: number | null
    effectiveFrom: string
    effectiveTo: string | null
  }
  const rule: Rule = {
    productId: 2,
    programId: null,
    planId: 19,
    termId: null,
    effectiveFrom: '2026-01-01',
    effectiveTo: '2026-06-30',
  }
  const sale = { saleDate: '2026-03-01', productId: 2, programId: 13, planId: 19, termId: 22 }
  const cases: Array<[string, Partial<Rule>, Partial<typeof sale>, boolean]> = [
    ['matching product and plan, in dates', {}, {}, true],
    ['first day', {}, { saleDate: '2026-01-01' }, true],
    ['last day (effectiveTo is inclusive)', {}, { saleDate: '2026-06-30' }, true],
    ['before it starts', {}, { saleDate: '2025-12-31' }, false],
    ['after it ends', {}, { saleDate: '2026-07-01' }, false],
    ['open-ended', { effectiveTo: null }, { saleDate: '2099-01-01' }, true],
    ['another plan', {}, { planId: 25 }, false],
    ['another product', {}, { productId: 36 }, false],
    ['no target: every product', { productId: null, planId: null }, { productId: 36, planId: 39 }, true],
    ['a term target', { termId: 22 }, {}, true],
    ['a term target, another term', { termId: 23 }, {}, false],
    ['a program target', { programId: 24, planId: null }, {}, false],
  ]
  for (const [name, r, s, expected] of cases) {
    test(name, () => assert.equal(ruleApplies({ ...rule, ...r }, { ...sale, ...s }), expected))
  }
})

describe('changedFields', () => {
  const before = {
    id: 1,
    amount: 150,
    target: { productId: 2, planId: null },
    effectiveTo: null,
    version: 1,
    updatedAt: 'a',
  }
  test('names changed members, target members by path, ignoring bookkeeping', () => {
    assert.deepEqual(
      changedFields(before, {
        ...before,
        amount: 175.5,
        target: { productId: 2, planId: 19 },
        version: 2,
        updatedAt: 'b',
      }),
      ['amount', 'target.planId'],
    )
  })
  test('a creation changes every member', () => {
    assert.deepEqual(changedFields(null, { id: 1, amount: 1, target: { productId: null } }), [
      'amount',
      'id',
      'target.productId',
    ])
  })
  test('nothing changed', () => assert.deepEqual(changedFields(before, { ...before, version: 3 }), []))
})

describe('fingerprintOf', () => {
  test('short, stable, and sensitive to ids, versions and order', () => {
    const a = fingerprintOf([
      { id: 1, version: 1 },
      { id: 2, version: 1 },
    ])
    assert.equal(a.length, 16)
    assert.equal(
      a,
      fingerprintOf([
        { id: 1, version: 1 },
        { id: 2, version: 1 },
      ]),
    )
    assert.notEqual(
      a,
      fingerprintOf([
        { id: 1, version: 2 },
        { id: 2, version: 1 },
      ]),
    )
    assert.notEqual(a, fingerprintOf([{ id: 1, version: 1 }]))
    assert.notEqual(
      a,
      fingerprintOf([
        { id: 2, version: 1 },
        { id: 1, version: 1 },
      ]),
    )
    assert.notEqual(fingerprintOf([{ id: 11, version: 1 }]), fingerprintOf([{ id: 1, version: 11 }]))
  })
})

test('every group of the rate-book format has a description', () => {
  assert.deepEqual(Object.keys(GROUP_DESCRIPTIONS), [...DISBURSEMENT_GROUPS])
})
