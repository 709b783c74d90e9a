// The cancel catalogue's pure rules: every formula's family and miles, reply lines from resolved terms
// (numbers from the terms' decimal strings), the filters, and what a v2 identifier names.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  CANCEL_FORMULAS,
  type CancelFormula,
  type CancelMethodTerms,
  type CancelReasonTerms,
} from '../ratebook/index.ts'
import {
  cancelMethodFilter,
  cancelMethodItem,
  cancelReasonFilter,
  cancelReasonItem,
  formulaFamily,
  parseIdentifier,
} from './cancel-catalogue.rules.ts'

const MILES: ReadonlySet<CancelFormula> = new Set([
  'PRO_RATA_MILES',
  'PRO_RATA_LESSER_TIME_MILES',
  'PRO_RATA_GREATER_TIME_MILES',
])
/** Terms as the compiled book resolves them (ratebook.defaults.ts), one per formula. */
const method = (formula: CancelFormula, extra: Partial<CancelMethodTerms> = {}): CancelMethodTerms => ({
  id: CANCEL_FORMULAS.indexOf(formula) + 1,
  code: formula,
  name: formula,
  formula,
  timeBasis: null,
  monthCounting: null,
  shortRatePercent: null,
  fixedAmount: null,
  milesApply: MILES.has(formula),
  ...extra,
})
const methods = CANCEL_FORMULAS.map((f) => method(f))
const reason = (code: string, extra: Partial<CancelReasonTerms> = {}): CancelReasonTerms => ({
  id: 100,
  code,
  name: code,
  requestedBy: ['CUSTOMER', 'DEALER', 'ADMIN'],
  forcesFullRefund: false,
  waivesFee: false,
  requiresPayoffDate: false,
  requiredDocuments: [],
  refundPayee: 'AUTO',
  productTypes: null,
  endsGap: null,
  ...extra,
})

test('every formula has a family (the five pro rata ones are PRO_RATA) and says how miles combine', () => {
  assert.deepEqual(
    methods.map(cancelMethodItem).map((m) => [m.calculation, m.formula, m.mileageBasis, m.milesCombination]),
    [
      ['PRO_RATA_DAYS', 'PRO_RATA', false, null],
      ['PRO_RATA_MONTHS', 'PRO_RATA', false, null],
      ['PRO_RATA_MILES', 'PRO_RATA', true, 'MILES_ONLY'],
      ['PRO_RATA_LESSER_TIME_MILES', 'PRO_RATA', true, 'LESSER'],
      ['PRO_RATA_GREATER_TIME_MILES', 'PRO_RATA', true, 'GREATER'],
      ['RULE_OF_78', 'RULE_OF_78', false, null],
      ['MEAN_PR_R78', 'MEAN_PR_R78', false, null],
      ['SHORT_RATE', 'SHORT_RATE', false, null],
      ['FIXED_AMOUNT', 'FIXED_AMOUNT', false, null],
      ['FULL', 'FULL', false, null],
      ['NONE', 'NONE', false, null],
    ],
  )
  assert.equal(formulaFamily('PRO_RATA_GREATER_TIME_MILES'), 'PRO_RATA')
})

test('a method line: every member; percentages and amounts as JSON numbers', () => {
  const lesser = method('PRO_RATA_LESSER_TIME_MILES', { timeBasis: 'MONTHS', monthCounting: 'NEAREST_15' })
  assert.deepEqual(cancelMethodItem(lesser), {
    id: 4,
    code: 'PRO_RATA_LESSER_TIME_MILES',
    name: 'PRO_RATA_LESSER_TIME_MILES',
    formula: 'PRO_RATA',
    calculation: 'PRO_RATA_LESSER_TIME_MILES',
    timeBasis: 'MONTHS',
    mileageBasis: true,
    milesCombination: 'LESSER',
    monthCounting: 'NEAREST_15',
    shortRatePercent: null,
    fixedAmount: null,
  })
  assert.equal(cancelMethodItem(method('SHORT_RATE', { shortRatePercent: '87.125' })).shortRatePercent, 87.125)
  assert.equal(cancelMethodItem(method('SHORT_RATE', { shortRatePercent: '90' })).shortRatePercent, 90)
  assert.equal(cancelMethodItem(method('FIXED_AMOUNT', { fixedAmount: '62.50' })).fixedAmount, 62.5)
  assert.equal(cancelMethodItem(method('FIXED_AMOUNT', { fixedAmount: '100.00' })).fixedAmount, 100)
})

test('method filters: family, exact calculation, both', () => {
  const pick = (f: Parameters<typeof cancelMethodFilter>[0]) => methods.filter(cancelMethodFilter(f)).map((m) => m.code)
  assert.equal(pick({}).length, 11)
  assert.equal(pick({ formula: 'PRO_RATA' }).length, 5)
  assert.deepEqual(pick({ calculation: 'PRO_RATA_MILES' }), ['PRO_RATA_MILES'])
  assert.deepEqual(pick({ formula: 'PRO_RATA', calculation: 'PRO_RATA_MILES' }), ['PRO_RATA_MILES'])
  assert.deepEqual(pick({ formula: 'RULE_OF_78', calculation: 'PRO_RATA_MILES' }), [])
})

test("a reason line: payloads.md's names first, then the rest of the terms (copies, not the terms' arrays)", () => {
  const terms = reason('GAP_PAYOFF', {
    requiresPayoffDate: true,
    requiredDocuments: ['PAYOFF_LETTER'],
    productTypes: ['GAP'],
    endsGap: 'PAYOFF',
  })
  const item = cancelReasonItem(terms)
  assert.deepEqual(Object.keys(item), [
    'id',
    'code',
    'name',
    'requiresPayoffDate',
    'requiresDocuments',
    'forcesFullRefund',
    'waivesFee',
    'requestedBy',
    'refundPayee',
    'productTypes',
    'endsGap',
  ])
  assert.deepEqual(item.requiresDocuments, ['PAYOFF_LETTER'])
  assert.notEqual(item.requiresDocuments, terms.requiredDocuments)
  assert.notEqual(item.productTypes, terms.productTypes)
  assert.deepEqual([item.productTypes, item.endsGap], [['GAP'], 'PAYOFF'])
})

test('reason filters: a reason without product types is for every type', () => {
  const all = reason('ANY')
  const gapOnly = reason('GAP_ONLY', { productTypes: ['GAP'], requestedBy: ['LIENHOLDER'] })
  const pick = (f: Parameters<typeof cancelReasonFilter>[0]) =>
    [all, gapOnly].filter(cancelReasonFilter(f)).map((r) => r.code)
  assert.deepEqual(pick({}), ['ANY', 'GAP_ONLY'])
  assert.deepEqual(pick({ productType: 'VSC' }), ['ANY'])
  assert.deepEqual(pick({ productType: 'GAP' }), ['ANY', 'GAP_ONLY'])
  assert.deepEqual(pick({ requestedBy: 'LIENHOLDER' }), ['GAP_ONLY'])
  assert.deepEqual(pick({ requestedBy: 'DEALER', productType: 'GAP' }), ['ANY'])
})

test('a v2 identifier: digits are an id and a code; other text a code, upper-cased', () => {
  assert.deepEqual(parseIdentifier('42'), { id: 42, code: '42' })
  assert.deepEqual(parseIdentifier('pro_rata_days'), { id: undefined, code: 'PRO_RATA_DAYS' })
  assert.deepEqual(parseIdentifier('1E5'), { id: undefined, code: '1E5' })
  // Beyond what the id column holds (or a JS number exactly): a code only.
  assert.deepEqual(parseIdentifier('9999999999999999'), { id: undefined, code: '9999999999999999' })
  assert.deepEqual(parseIdentifier('99999999999999999999'), { id: undefined, code: '99999999999999999999' })
})
