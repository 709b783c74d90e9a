// The terms a contract is sold under: resolveSaleTerms on a book without the after-sale members (the
// defaults and the tenant settings fill in everything) and on the demo book (every member), and
// cancellationTermsFor, one table row per precedence rule of money.md.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { demoRateBook } from './demo-ratebook.ts'
import { catalogueKey, compileRateBook, type CompiledRateBook } from './ratebook.compiled.ts'
import { DEFAULT_CANCEL_METHODS, DEFAULT_CANCEL_REASONS } from './ratebook.defaults.ts'
import type { RateBookInput } from './ratebook.format.ts'
import { catalogueItemsOf, checkRateBook } from './ratebook.rules.ts'
import {
  cancellationTermsFor,
  resolveSaleTerms,
  type CancelRequest,
  type CancellationDecision,
  type SaleTerms,
} from './ratebook.terms.ts'

function compiled(input: RateBookInput): { book: CompiledRateBook; id: (kind: string, code: string) => number } {
  const checked = checkRateBook(input, { file: 'body' })
  if (!checked.ok) assert.fail(JSON.stringify(checked.problems.slice(0, 5)))
  // Ids that are not positions, so a test cannot pass by confusing the two.
  const ids = new Map(catalogueItemsOf(checked.book).map((it, i) => [catalogueKey(it.kind, it.code), 100 + i * 3]))
  return {
    book: compileRateBook(42, 3, checked.book, ids),
    id: (kind, code) => ids.get(`${kind}:${code}`)!,
  }
}

const FALLBACK = { freeLookDays: 30, defaultCancelFee: 50, deductClaimsPaidFromRefund: false }

/** A book as written before the after-sale members existed. */
function oldBook(): RateBookInput {
  const product = (code: string, type: 'VSC' | 'GAP', plan: string) => ({
    code,
    name: code,
    type,
    assetTypes: ['AUTO' as const],
    requiredInputs: [],
    deductibles: [{ code: 'D0', amount: 0, type: 'STANDARD' as const }],
    programs: [
      {
        code: `${code}-PG`,
        name: 'Program',
        plans: [
          {
            code: plan,
            name: plan,
            conditions: ['USED' as const],
            formNumber: 'F',
            terms: [{ months: 36, miles: 36000 }],
          },
        ],
      },
    ],
  })
  return {
    formatVersion: 1,
    effectiveDate: '2025-01-01',
    disbursementCodes: [
      { code: 'RES', label: 'Reserve', group: 'RESERVE' },
      { code: 'ADM', label: 'Admin', group: 'ADMIN_FEE' },
    ],
    vehicleClasses: [{ code: 'A' }],
    vehicles: [],
    products: [product('VSC', 'VSC', 'V1'), product('GAP', 'GAP', 'G1')],
  }
}

describe('resolveSaleTerms', () => {
  test('a book without the after-sale members: the default methods and reasons (with ids), the settings, the documented defaults', () => {
    const { book, id } = compiled(oldBook())
    const terms = resolveSaleTerms(book, {
      productCode: 'VSC',
      planCode: 'V1',
      termCode: '36-36000',
      lineCodes: ['RES', 'ADM', 'RES'],
      fallback: FALLBACK,
    })
    const lesser = {
      id: id('CANCEL_METHOD', 'PRO_RATA_LESSER_TIME_MILES'),
      code: 'PRO_RATA_LESSER_TIME_MILES',
      name: 'Pro rata, the lesser of time (days) or miles',
      formula: 'PRO_RATA_LESSER_TIME_MILES',
      timeBasis: 'DAYS',
      monthCounting: null,
      shortRatePercent: null,
      fixedAmount: null,
      milesApply: true,
    }
    assert.deepEqual(terms, {
      format: 1,
      rateBookVersion: 3,
      rateBookId: 42,
      product: { id: id('PRODUCT', 'VSC'), code: 'VSC', type: 'VSC' },
      plan: { id: id('PLAN', 'V1'), code: 'V1' },
      term: { id: id('TERM', 'V1/36-36000'), code: '36-36000', months: 36, miles: 36000 },
      cancellation: {
        method: lesser,
        fee: { amount: '50.00', percent: null, percentOf: null, max: null, keptBy: 'ADMINISTRATOR' },
        freeLookDays: 30,
        deductClaims: false,
        refundIssuer: 'ADMINISTRATOR',
        rules: [],
        sources: { method: 'DEFAULT', fee: 'SETTING', freeLookDays: 'SETTING', deductClaims: 'SETTING' },
      },
      cancelMethods: book.cancelMethods,
      cancelReasons: book.cancelReasons,
      stateRules: [],
      earnings: {
        RES: { group: 'RESERVE', method: 'PRO_RATA_DAYS', curve: null, monthCounting: null, refundable: true },
        ADM: { group: 'ADMIN_FEE', method: 'PRO_RATA_DAYS', curve: null, monthCounting: null, refundable: true },
      },
      claims: {
        waitingPeriodDays: 0,
        waitingPeriodMiles: 0,
        limitOfLiability: { basis: 'NONE', amount: null },
        perClaimLimit: null,
        deductibleApplies: 'PER_VISIT',
        benefits: [],
      },
      transfer: { allowed: true, fee: null, withinDays: null, dealerMayOwn: false },
    })
    assert.deepEqual(
      terms.cancelMethods.map((m) => [m.id, m.code]),
      DEFAULT_CANCEL_METHODS.map((m) => [id('CANCEL_METHOD', m.code), m.code]),
    )
    assert.deepEqual(
      terms.cancelReasons.map((r) => [r.id, r.code]),
      DEFAULT_CANCEL_REASONS.map((r) => [id('CANCEL_REASON', r.code), r.code]),
    )
    // JSON as it is: what is stored as jsonb reads back equal.
    assert.deepEqual(JSON.parse(JSON.stringify(terms)), terms)
    // A copy: changing the snapshot changes nothing the compiled book holds.
    terms.cancellation.method.name = 'changed'
    terms.cancelMethods[0]!.name = 'changed'
    terms.cancelReasons[0]!.requestedBy.push('ADMIN')
    assert.equal(book.cancelMethodByCode.get('PRO_RATA_LESSER_TIME_MILES')!.name, lesser.name)
    assert.equal(book.cancelMethods[0]!.name, 'Pro rata by days')
    assert.deepEqual(book.cancelReasons[0]!.requestedBy, ['CUSTOMER', 'DEALER', 'ADMIN'])
  })

  test('a product other than VSC defaults to pro rata by days; a default short rate is 90 % of days', () => {
    const { book } = compiled(oldBook())
    const terms = resolveSaleTerms(book, {
      productCode: 'GAP',
      planCode: 'G1',
      termCode: '36-36000',
      lineCodes: [],
      fallback: { freeLookDays: 0, defaultCancelFee: '12.5', deductClaimsPaidFromRefund: true },
    })
    assert.equal(terms.cancellation.method.code, 'PRO_RATA_DAYS')
    assert.equal(terms.cancellation.fee.amount, '12.50')
    assert.equal(terms.cancellation.freeLookDays, 0)
    assert.equal(terms.cancellation.deductClaims, true)
    assert.deepEqual(terms.earnings, {})
    const shortRate = terms.cancelMethods.find((m) => m.code === 'SHORT_RATE')!
    assert.deepEqual([shortRate.formula, shortRate.timeBasis, shortRate.shortRatePercent], ['SHORT_RATE', 'DAYS', '90'])
    const months = terms.cancelMethods.find((m) => m.code === 'RULE_OF_78')!
    assert.deepEqual([months.timeBasis, months.monthCounting, months.milesApply], ['MONTHS', 'COMPLETED', false])
  })

  test('the demo book: its own methods and reasons, rules with their methods, state rules, earnings with a curve, claims, transfer', () => {
    const { book, id } = compiled(demoRateBook('2025-01-01'))
    const terms = resolveSaleTerms(book, {
      productCode: 'VSC',
      planCode: 'PLAT-USED',
      termCode: '36-36000',
      lineCodes: ['RES', 'PRM', 'ADM', 'COM', 'PCK', 'OVR'],
      fallback: FALLBACK,
    })
    const c = terms.cancellation
    assert.equal(c.method.code, 'PRO_RATA_LESSER_TIME_MILES')
    assert.deepEqual(c.fee, { amount: '50.00', percent: null, percentOf: null, max: null, keptBy: 'ADMINISTRATOR' })
    assert.deepEqual([c.freeLookDays, c.deductClaims, c.refundIssuer], [60, true, 'ADMINISTRATOR'])
    assert.deepEqual(c.sources, { method: 'BOOK', fee: 'BOOK', freeLookDays: 'BOOK', deductClaims: 'BOOK' })
    assert.deepEqual(c.rules[0], {
      reasons: ['REPOSSESSION'],
      states: null,
      requestedBy: null,
      method: {
        id: id('CANCEL_METHOD', 'SHORT_RATE_90'),
        code: 'SHORT_RATE_90',
        name: 'Short rate, 90 % of pro rata by days',
        formula: 'SHORT_RATE',
        timeBasis: 'DAYS',
        monthCounting: null,
        shortRatePercent: '90',
        fixedAmount: null,
        milesApply: false,
      },
      fee: { amount: null, percent: '10', percentOf: 'REFUND', max: '75.00', keptBy: 'DEALER' },
      freeLookDays: null,
      deductClaims: null,
      refundIssuer: null,
    })
    assert.deepEqual(
      c.rules.map((r) => [r.states, r.requestedBy, r.method?.code ?? null, r.refundIssuer]),
      [
        [null, null, 'SHORT_RATE_90', null],
        [['NY'], null, 'PRO_RATA_DAYS', null],
        [null, ['DEALER'], null, 'DEALER'],
      ],
    )
    // Every method; the reasons for VSC (GAP_REFINANCE is for GAP only).
    assert.deepEqual(
      terms.cancelMethods.map((m) => m.code),
      book.cancelMethods.map((m) => m.code),
    )
    assert.deepEqual(
      terms.cancelReasons.map((r) => r.code),
      ['CUSTOMER_REQUEST', 'TRADE_IN', 'EARLY_PAYOFF', 'REPOSSESSION', 'TOTAL_LOSS', 'SALE_UNWOUND'],
    )
    assert.deepEqual(
      terms.cancelReasons.find((r) => r.code === 'SALE_UNWOUND'),
      {
        id: id('CANCEL_REASON', 'SALE_UNWOUND'),
        code: 'SALE_UNWOUND',
        name: 'Sale unwound',
        requestedBy: ['DEALER', 'ADMIN'],
        forcesFullRefund: true,
        waivesFee: true,
        requiresPayoffDate: false,
        requiredDocuments: [],
        refundPayee: 'DEALER',
        productTypes: null,
        endsGap: null,
      },
    )
    assert.deepEqual(terms.stateRules, [
      { state: 'CA', freeLookDays: 60, cancelFeeMax: '50.00', cancelFeeMaxPercent: '10', claimsDeductible: null },
      { state: 'NY', freeLookDays: null, cancelFeeMax: '50.00', cancelFeeMaxPercent: null, claimsDeductible: false },
      { state: 'FL', freeLookDays: 30, cancelFeeMax: null, cancelFeeMaxPercent: '10', claimsDeductible: false },
    ])
    assert.deepEqual(terms.earnings, {
      RES: { group: 'RESERVE', method: 'PRO_RATA_DAYS', curve: null, monthCounting: null, refundable: true },
      PRM: { group: 'CLIP_PREMIUM', method: 'IMMEDIATE', curve: null, monthCounting: null, refundable: false },
      ADM: { group: 'ADMIN_FEE', method: 'PRO_RATA_DAYS', curve: null, monthCounting: null, refundable: true },
      COM: { group: 'COMMISSION', method: 'IMMEDIATE', curve: null, monthCounting: null, refundable: true },
      PCK: { group: 'DEALER_PACK', method: 'PRO_RATA_DAYS', curve: null, monthCounting: null, refundable: true },
      OVR: { group: 'COMMISSION', method: 'IMMEDIATE', curve: null, monthCounting: null, refundable: true },
    })
    assert.deepEqual(terms.claims, {
      waitingPeriodDays: 30,
      waitingPeriodMiles: 1000,
      limitOfLiability: { basis: 'VEHICLE_PURCHASE_PRICE', amount: null },
      perClaimLimit: null,
      deductibleApplies: 'PER_VISIT',
      benefits: [
        { type: 'RENTAL', perDay: '40.00', maxDays: 5, perOccurrence: null, maxAmount: null },
        { type: 'TOWING', perDay: null, maxDays: null, perOccurrence: '100.00', maxAmount: null },
        { type: 'TRIP_INTERRUPTION', perDay: '100.00', maxDays: 3, perOccurrence: null, maxAmount: '300.00' },
      ],
    })
    assert.deepEqual(terms.transfer, { allowed: true, fee: '50.00', withinDays: 30, dealerMayOwn: false })
    assert.deepEqual(JSON.parse(JSON.stringify(terms)), terms)
  })

  test('the demo book elsewhere: a curve (exact decimal strings), reverse Rule of 78, a month counting; GAP transfer refused; a dealer-refunded PPM', () => {
    const { book } = compiled(demoRateBook('2025-01-01'))
    const ppm = resolveSaleTerms(book, {
      productCode: 'PPM',
      planCode: 'PPM-NEW',
      termCode: '24-30000',
      lineCodes: ['PMR', 'ADM'],
      fallback: FALLBACK,
    })
    const curve = ppm.earnings.PMR!.curve!
    assert.deepEqual([ppm.earnings.PMR!.method, ppm.earnings.PMR!.monthCounting], ['CURVE', 'COMPLETED'])
    assert.equal(curve.cumulative.length, 36)
    assert.deepEqual(curve.cumulative.slice(4, 13), [
      '0',
      '0.166667',
      '0.166667',
      '0.166667',
      '0.166667',
      '0.166667',
      '0.166667',
      '0.333333',
      '0.333333',
    ])
    assert.equal(curve.cumulative.at(-1), '1')
    assert.deepEqual(
      [ppm.cancellation.method.code, ppm.cancellation.method.timeBasis, ppm.cancellation.method.monthCounting],
      ['PRO_RATA_LESSER_MONTHS_MILES', 'MONTHS', 'COMPLETED'],
    )
    assert.equal(ppm.cancellation.refundIssuer, 'DEALER')
    // No fee in the product: the setting's.
    assert.equal(ppm.cancellation.sources.fee, 'SETTING')
    assert.deepEqual(ppm.claims.benefits, [])
    assert.deepEqual(ppm.transfer, { allowed: true, fee: null, withinDays: null, dealerMayOwn: false })

    const gap = resolveSaleTerms(book, {
      productCode: 'GAP',
      planCode: 'GAP-STD',
      termCode: '60',
      lineCodes: ['GRS'],
      fallback: FALLBACK,
    })
    assert.deepEqual(gap.earnings.GRS, {
      group: 'RESERVE',
      method: 'RULE_OF_78',
      curve: null,
      monthCounting: 'STARTED',
      refundable: true,
    })
    assert.deepEqual(gap.transfer, { allowed: false, fee: null, withinDays: null, dealerMayOwn: false })
    assert.ok(gap.cancelReasons.some((r) => r.code === 'GAP_REFINANCE'))

    const tw = resolveSaleTerms(book, {
      productCode: 'TW',
      planCode: 'TW-STD',
      termCode: '60-0',
      lineCodes: ['TWR'],
      fallback: FALLBACK,
    })
    assert.deepEqual(tw.earnings.TWR!.method, 'REVERSE_RULE_OF_78')
    assert.equal(tw.earnings.TWR!.monthCounting, 'COMPLETED')
    assert.deepEqual(tw.cancellation.fee, {
      amount: '25.00',
      percent: '10',
      percentOf: 'PRICE',
      max: null,
      keptBy: 'ADMINISTRATOR',
    })
    assert.deepEqual(tw.transfer, { allowed: true, fee: '25.00', withinDays: null, dealerMayOwn: true })
  })

  test('a product, plan or term the version does not have is a caller mistake (it throws); an unknown line code gets the default terms', () => {
    const { book } = compiled(oldBook())
    const input = { productCode: 'VSC', planCode: 'V1', termCode: '36-36000', lineCodes: ['RES'], fallback: FALLBACK }
    assert.throws(() => resolveSaleTerms(book, { ...input, productCode: 'NOPE' }), /no product NOPE/)
    assert.throws(() => resolveSaleTerms(book, { ...input, planCode: 'G1' }), /no plan G1 in product VSC/)
    assert.throws(() => resolveSaleTerms(book, { ...input, termCode: '12-0' }), /no term 12-0/)
    assert.deepEqual(resolveSaleTerms(book, { ...input, lineCodes: ['XYZ'] }).earnings, {
      XYZ: { group: 'OTHER', method: 'PRO_RATA_DAYS', curve: null, monthCounting: null, refundable: true },
    })
  })
})

/** A book made to exercise each precedence rule of a cancel. */
function precedenceBook(): RateBookInput {
  const b = oldBook()
  b.cancelMethods = [
    // GAP names no method: the default for its type, which must be among the book's own.
    { code: 'PRO_RATA_DAYS', name: 'Pro rata', formula: 'PRO_RATA_DAYS' },
    { code: 'R78', name: 'Rule of 78', formula: 'RULE_OF_78' },
    { code: 'SR', name: 'Short rate', formula: 'SHORT_RATE', shortRatePercent: 80 },
    { code: 'FULL', name: 'Full', formula: 'FULL' },
  ]
  b.cancelReasons = [
    { code: 'ASKED', name: 'Asked', requestedBy: ['CUSTOMER', 'DEALER', 'ADMIN'] },
    { code: 'REPO', name: 'Repossession', requestedBy: ['LIENHOLDER', 'ADMIN'], refundPayee: 'LIENHOLDER' },
    {
      code: 'UNWIND',
      name: 'Unwound',
      requestedBy: ['DEALER', 'ADMIN'],
      forcesFullRefund: true,
      refundPayee: 'DEALER',
    },
    { code: 'FREE', name: 'Fee waived', requestedBy: ['CUSTOMER'], waivesFee: true },
    { code: 'GAP_ONLY', name: 'GAP only', requestedBy: ['CUSTOMER'], productTypes: ['GAP'], endsGap: 'PAYOFF' },
  ]
  b.stateRules = [
    { state: 'CA', freeLookDays: 60, cancelFeeMax: '25.00', cancelFeeMaxPercent: '10' },
    { state: 'NY', freeLookDays: 10, claimsDeductible: false },
    { state: 'TX', claimsDeductible: true },
  ]
  b.products[0]!.cancellation = {
    method: 'PRO_RATA_DAYS',
    fee: { amount: '75.00', keptBy: 'DEALER' },
    freeLookDays: 30,
    deductClaims: true,
    refundIssuer: 'ADMINISTRATOR',
    rules: [
      { reasons: ['REPO'], method: 'SR', fee: { percent: '10', percentOf: 'REFUND', max: '100' } },
      { states: ['TX'], requestedBy: ['DEALER'], method: 'R78', refundIssuer: 'DEALER' },
      { states: ['TX', 'NY'], freeLookDays: 45, deductClaims: false },
      { reasons: ['REPO'], method: 'FULL' },
    ],
  }
  // GAP keeps the settings' fee, free look and deduction.
  return b
}

describe('cancellationTermsFor: the precedence of money.md', () => {
  const { book } = compiled(precedenceBook())
  const vsc = resolveSaleTerms(book, {
    productCode: 'VSC',
    planCode: 'V1',
    termCode: '36-36000',
    lineCodes: ['RES'],
    fallback: FALLBACK,
  })
  const gap = resolveSaleTerms(book, {
    productCode: 'GAP',
    planCode: 'G1',
    termCode: '36-36000',
    lineCodes: ['RES'],
    fallback: { freeLookDays: 30, defaultCancelFee: 50, deductClaimsPaidFromRefund: true },
  })
  const productFee = { amount: '75.00', percent: null, percentOf: null, max: null, keptBy: 'DEALER' }
  const noCaps = { capAmount: null, capPercentOfPrice: null }

  type Expect = Partial<{
    method: string
    fee: Record<string, unknown> | null
    freeLookDays: number
    deductClaims: boolean
    refundIssuer: string
    forcesFullRefund: boolean
    waivesFee: boolean
    refundPayee: string
    rule: { productRule: number | null; stateRule: string | null }
  }>
  const cases: Array<[string, SaleTerms, CancelRequest, Expect]> = [
    [
      'no rule and no state rule: the product terms',
      vsc,
      { state: null, reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      {
        method: 'PRO_RATA_DAYS',
        fee: { ...productFee, ...noCaps },
        freeLookDays: 30,
        deductClaims: true,
        refundIssuer: 'ADMINISTRATOR',
        forcesFullRefund: false,
        waivesFee: false,
        refundPayee: 'AUTO',
        rule: { productRule: null, stateRule: null },
      },
    ],
    [
      'a state without a rule of its own is no state rule',
      vsc,
      { state: 'OH', reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      { method: 'PRO_RATA_DAYS', freeLookDays: 30, deductClaims: true, rule: { productRule: null, stateRule: null } },
    ],
    [
      "a rule by reason: its method and its fee (the whole fee), the rest the product's; the first match wins over a later one",
      vsc,
      { state: null, reasonCode: 'REPO', requestedBy: 'LIENHOLDER' },
      {
        method: 'SR',
        fee: { amount: null, percent: '10', percentOf: 'REFUND', max: '100.00', keptBy: 'ADMINISTRATOR', ...noCaps },
        freeLookDays: 30,
        deductClaims: true,
        refundIssuer: 'ADMINISTRATOR',
        refundPayee: 'LIENHOLDER',
        rule: { productRule: 0, stateRule: null },
      },
    ],
    [
      'a rule by state and requester: both must match',
      vsc,
      { state: 'TX', reasonCode: 'ASKED', requestedBy: 'DEALER' },
      {
        method: 'R78',
        refundIssuer: 'DEALER',
        freeLookDays: 30,
        deductClaims: true,
        rule: { productRule: 1, stateRule: 'TX' },
      },
    ],
    [
      'the same state, another requester: the next rule that matches',
      vsc,
      { state: 'TX', reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      {
        method: 'PRO_RATA_DAYS',
        refundIssuer: 'ADMINISTRATOR',
        freeLookDays: 45,
        deductClaims: false,
        rule: { productRule: 2, stateRule: 'TX' },
      },
    ],
    [
      'an unknown state matches no rule by state',
      vsc,
      { state: null, reasonCode: 'ASKED', requestedBy: 'DEALER' },
      { method: 'PRO_RATA_DAYS', refundIssuer: 'ADMINISTRATOR', rule: { productRule: null, stateRule: null } },
    ],
    [
      "free look: the state's when longer than the product's",
      vsc,
      { state: 'CA', reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      { freeLookDays: 60, rule: { productRule: null, stateRule: 'CA' } },
    ],
    [
      "free look: the rule's when longer than the state's",
      vsc,
      { state: 'NY', reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      { freeLookDays: 45, rule: { productRule: 2, stateRule: 'NY' } },
    ],
    [
      "fee: the product's with the state's caps (amount and per cent of price), nothing computed",
      vsc,
      { state: 'CA', reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      { fee: { ...productFee, capAmount: '25.00', capPercentOfPrice: '10' } },
    ],
    [
      'claims: the product deducts, the state forbids',
      vsc,
      { state: 'NY', reasonCode: 'REPO', requestedBy: 'ADMIN' },
      { method: 'SR', deductClaims: false, rule: { productRule: 0, stateRule: 'NY' } },
    ],
    [
      'claims: the state allows, the rule does not deduct',
      vsc,
      { state: 'TX', reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      { deductClaims: false },
    ],
    [
      'a reason that forces a full refund: no fee, no claims deducted, whatever the product says',
      vsc,
      { state: 'CA', reasonCode: 'UNWIND', requestedBy: 'DEALER' },
      { fee: null, deductClaims: false, forcesFullRefund: true, waivesFee: true, refundPayee: 'DEALER' },
    ],
    [
      'a reason that waives the fee: no fee, claims as the product says',
      vsc,
      { state: null, reasonCode: 'FREE', requestedBy: 'CUSTOMER' },
      { fee: null, deductClaims: true, forcesFullRefund: false, waivesFee: true },
    ],
    [
      "the product's own fee is charged when the administrator cancels",
      vsc,
      { state: null, reasonCode: 'ASKED', requestedBy: 'ADMIN' },
      { fee: { ...productFee, ...noCaps } },
    ],
    [
      'the setting fee, free look and deduction stand in for a product without them',
      gap,
      { state: 'CA', reasonCode: 'ASKED', requestedBy: 'CUSTOMER' },
      {
        method: 'PRO_RATA_DAYS',
        fee: {
          amount: '50.00',
          percent: null,
          percentOf: null,
          max: null,
          keptBy: 'ADMINISTRATOR',
          capAmount: '25.00',
          capPercentOfPrice: '10',
        },
        freeLookDays: 60,
        deductClaims: true,
      },
    ],
    [
      'the setting fee is not charged when the administrator cancels (docs/settings.md)',
      gap,
      { state: null, reasonCode: 'ASKED', requestedBy: 'ADMIN' },
      { fee: null, waivesFee: false, deductClaims: true },
    ],
  ]
  for (const [name, terms, request, expected] of cases)
    test(name, () => {
      const got = cancellationTermsFor(terms, request)
      assert.ok(got.ok, JSON.stringify(got))
      const shown = { ...got, method: got.method.code } as Record<string, unknown>
      assert.deepEqual(Object.fromEntries(Object.keys(expected).map((k) => [k, shown[k]])), expected)
      assert.equal(got.reason.code, request.reasonCode)
    })

  const refusals: Array<[string, SaleTerms, CancelRequest, CancellationDecision]> = [
    [
      'a reason that is not for the product type',
      vsc,
      { state: null, reasonCode: 'GAP_ONLY', requestedBy: 'CUSTOMER' },
      {
        ok: false,
        code: 'reason_not_applicable',
        message: "'GAP_ONLY' is not a cancel reason of this contract's terms (rate book version 3, VSC products)",
      },
    ],
    [
      'a reason the book does not have',
      gap,
      { state: null, reasonCode: 'NOPE', requestedBy: 'CUSTOMER' },
      {
        ok: false,
        code: 'reason_not_applicable',
        message: "'NOPE' is not a cancel reason of this contract's terms (rate book version 3, GAP products)",
      },
    ],
    [
      'a requester the reason does not allow',
      vsc,
      { state: null, reasonCode: 'REPO', requestedBy: 'CUSTOMER' },
      {
        ok: false,
        code: 'requester_not_allowed',
        message: 'a cancel for REPO may be asked for by LIENHOLDER, ADMIN, not CUSTOMER',
      },
    ],
  ]
  for (const [name, terms, request, expected] of refusals)
    test(`refused, as a value: ${name}`, () => assert.deepEqual(cancellationTermsFor(terms, request), expected))

  test('a reason for GAP applies to the GAP contract', () => {
    const got = cancellationTermsFor(gap, { state: null, reasonCode: 'GAP_ONLY', requestedBy: 'CUSTOMER' })
    assert.ok(got.ok)
    assert.equal(got.reason.endsGap, 'PAYOFF')
  })

  test('works on the snapshot as stored (after a JSON round trip)', () => {
    const stored = JSON.parse(JSON.stringify(vsc)) as SaleTerms
    const request: CancelRequest = { state: 'TX', reasonCode: 'ASKED', requestedBy: 'DEALER' }
    assert.deepEqual(cancellationTermsFor(stored, request), cancellationTermsFor(vsc, request))
  })
})
