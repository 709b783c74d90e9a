// The refund of a cancel, table by table: every row of money.md's scenario (gross and net to the
// cent), its claims and FROM_ZERO checks, decision 0012's shares, then the edge cases of issue 13
// (leap day, month ends, unlimited miles, odometer past the term, zero and negative markup, claims
// above the refund, the free-look boundary day, fees and state caps, every formula) and refusals.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { MonthCounting } from '../../platform/calendar.ts'
import {
  cancellationTermsFor,
  type CancelFeeDecision,
  type CancelFormula,
  type CancelMethodTerms,
  type CancelReasonTerms,
  type SaleTerms,
} from '../rating/index.ts'
import {
  cancelFee,
  decimalRatio,
  displayFactor,
  quoteRefund,
  ratio,
  ratioText,
  unearnedFraction,
  type CancelFacts,
  type QuoteDecision,
  type RefundLine,
  type RefundQuote,
  type RefundQuoteInput,
} from './index.ts'

const MONTH_FORMULAS = new Set<CancelFormula>(['PRO_RATA_MONTHS', 'RULE_OF_78', 'MEAN_PR_R78'])

function method(
  formula: CancelFormula,
  extra: Partial<Pick<CancelMethodTerms, 'timeBasis' | 'monthCounting' | 'shortRatePercent' | 'fixedAmount'>> = {},
): CancelMethodTerms {
  const timeBasis =
    formula === 'PRO_RATA_DAYS'
      ? 'DAYS'
      : MONTH_FORMULAS.has(formula)
        ? 'MONTHS'
        : ['PRO_RATA_LESSER_TIME_MILES', 'PRO_RATA_GREATER_TIME_MILES', 'SHORT_RATE'].includes(formula)
          ? (extra.timeBasis ?? 'DAYS')
          : null
  return {
    id: 1,
    code: formula,
    name: formula,
    formula,
    timeBasis,
    monthCounting: timeBasis === 'MONTHS' ? (extra.monthCounting ?? 'COMPLETED') : null,
    shortRatePercent: extra.shortRatePercent ?? (formula === 'SHORT_RATE' ? '90' : null),
    fixedAmount: extra.fixedAmount ?? null,
    milesApply: formula.includes('MILES'),
  }
}

const fee = (f: Partial<CancelFeeDecision> = {}): CancelFeeDecision => ({
  amount: '50.00',
  percent: null,
  percentOf: null,
  max: null,
  keptBy: 'ADMINISTRATOR',
  capAmount: null,
  capPercentOfPrice: null,
  ...f,
})

// money.md's scenario: 1,800.00 = RES 640 + PRM 35 + ADM 175 + COM 150 + markup 800; 36 months /
// 36,000 miles from the sale odometer 20,000; sale = effective 2025-03-14; cancel 2025-09-30 at
// 31,000; fee 50.00; no claims.
const FACTS: CancelFacts = {
  effectiveDate: '2025-03-14',
  expirationDate: '2028-03-14',
  saleDate: '2025-03-14',
  cancelDate: '2025-09-30',
  termMonths: 36,
  termMiles: 36_000,
  milesBasis: 'FROM_SALE_ODOMETER',
  saleOdometer: 20_000,
  expirationOdometer: 56_000,
  cancelOdometer: 31_000,
}
const INSURER = 7
const ADMINISTRATOR = 1
const AGENT = 9
const LINES: RefundLine[] = [
  { code: 'RES', group: 'RESERVE', payeeAccountHolderId: INSURER, cents: 64_000, refundable: true },
  { code: 'PRM', group: 'PREMIUM', payeeAccountHolderId: INSURER, cents: 3_500, refundable: true },
  { code: 'ADM', group: 'ADMIN_FEE', payeeAccountHolderId: ADMINISTRATOR, cents: 17_500, refundable: true },
  { code: 'COM', group: 'COMMISSION', payeeAccountHolderId: AGENT, cents: 15_000, refundable: true },
]

function decision(d: Partial<QuoteDecision> = {}): QuoteDecision {
  return {
    method: method('PRO_RATA_LESSER_TIME_MILES'),
    fee: fee(),
    freeLookDays: 30,
    deductClaims: false,
    forcesFullRefund: false,
    waivesFee: false,
    refundPayee: 'AUTO',
    refundIssuer: 'ADMINISTRATOR',
    rule: { productRule: null, stateRule: null },
    reason: { code: 'CUSTOMER_REQUEST' },
    ...d,
  }
}

function input(
  over: Partial<Omit<RefundQuoteInput, 'decision' | 'facts'>> = {},
  d: Partial<QuoteDecision> = {},
  f: Partial<CancelFacts> = {},
): RefundQuoteInput {
  return {
    priceCents: 180_000,
    lines: LINES,
    claimsPaidCents: 0,
    claimPaid: false,
    ...over,
    decision: decision(d),
    facts: { ...FACTS, ...f },
  }
}

function quote(...args: Parameters<typeof input>): RefundQuote {
  const q = quoteRefund(input(...args))
  if (!q.ok) assert.fail(JSON.stringify(q.errors))
  // Whatever the case: the shares add up to the gross and the net is what is left.
  assert.equal(q.linesRefundCents + q.markupRefundCents, q.grossCents)
  assert.equal(q.netCents, q.grossCents - q.fee.cents - q.claimsDeductedCents)
  assert.ok(q.netCents >= 0)
  return q
}

const money = (cents: number) => (cents / 100).toFixed(2)

describe("money.md's scenario, every method", () => {
  const rows: Array<[string, CancelMethodTerms, string, string, string]> = [
    ['PRO_RATA_DAYS (896/1096)', method('PRO_RATA_DAYS'), '112/137', '1471.53', '1421.53'],
    ['PRO_RATA_MONTHS, k = 6', method('PRO_RATA_MONTHS'), '5/6', '1500.00', '1450.00'],
    ['PRO_RATA_LESSER_TIME_MILES (25/36)', method('PRO_RATA_LESSER_TIME_MILES'), '25/36', '1250.00', '1200.00'],
    ['RULE_OF_78, k = 6', method('RULE_OF_78'), '155/222', '1256.76', '1206.76'],
    ['MEAN_PR_R78, k = 6', method('MEAN_PR_R78'), '85/111', '1378.38', '1328.38'],
    ['SHORT_RATE 90 % of days', method('SHORT_RATE'), '504/685', '1324.38', '1274.38'],
    // Not rows of the table, but the same facts: the other miles formulas.
    ['PRO_RATA_GREATER_TIME_MILES (896/1096)', method('PRO_RATA_GREATER_TIME_MILES'), '112/137', '1471.53', '1421.53'],
    ['PRO_RATA_MILES (25/36)', method('PRO_RATA_MILES'), '25/36', '1250.00', '1200.00'],
  ]
  for (const [name, m, exact, gross, net] of rows) {
    it(`${name}: gross ${gross}, net ${net}`, () => {
      const q = quote({}, { method: m })
      assert.equal(ratioText(q.fraction), exact)
      assert.equal(money(q.grossCents), gross)
      assert.equal(money(q.fee.cents), '50.00')
      assert.equal(q.fee.keptBy, 'ADMINISTRATOR')
      assert.equal(money(q.netCents), net)
      assert.equal(q.decidedBy, 'METHOD')
      assert.equal(q.withinFreeLook, false)
    })
  }

  it('reads d, D, k, n and the miles as money.md counts them', () => {
    const days = quote({}, { method: method('PRO_RATA_DAYS') }).parts!
    assert.equal(days.daysInTerm, 1096)
    assert.equal(days.daysElapsed, 200)
    assert.equal(ratioText(days.time!), '112/137')
    const months = quote({}, { method: method('RULE_OF_78') }).parts!
    assert.deepEqual([months.termMonths, months.monthsElapsed, months.monthCounting], [36, 6, 'COMPLETED'])
    const lesser = quote({}, { method: method('PRO_RATA_LESSER_TIME_MILES') })
    assert.deepEqual(
      [lesser.parts!.milesApply, lesser.parts!.milesCovered, lesser.parts!.milesUsed, lesser.parts!.decidedBy],
      [true, 36_000, 11_000, 'MILES'],
    )
    assert.equal(lesser.factor, '0.694444')
    const greater = quote({}, { method: method('PRO_RATA_GREATER_TIME_MILES') })
    assert.equal(greater.parts!.decidedBy, 'TIME')
    assert.equal(ratioText(greater.parts!.miles!), '25/36')
    const shortRate = quote({}, { method: method('SHORT_RATE') }).parts!
    assert.equal(shortRate.shortRatePercent, '90')
    assert.equal(ratioText(shortRate.time!), '112/137')
  })

  it('shows the factor with six places, rounded half up, from the exact ratio', () => {
    assert.equal(displayFactor(ratio(896, 1096)), '0.817518')
    assert.equal(displayFactor(ratio(1, 1)), '1.000000')
    assert.equal(displayFactor(ratio(0, 7)), '0.000000')
    assert.equal(displayFactor(ratio(1, 8_000_000)), '0.000000')
    assert.equal(displayFactor(ratio(1, 2_000_000)), '0.000001')
  })

  it('splits the days gross as decision 0012 does: 523.21 / 28.61 / 143.07 / 122.63 / 654.01', () => {
    const q = quote({}, { method: method('PRO_RATA_DAYS') })
    assert.deepEqual(
      q.lines.map((l) => [l.code, money(l.refundCents)]),
      [
        ['RES', '523.21'],
        ['PRM', '28.61'],
        ['ADM', '143.07'],
        ['COM', '122.63'],
      ],
    )
    assert.equal(money(q.markupRefundCents), '654.01')
    assert.equal(q.markupCents, 80_000)
    assert.equal(money(q.linesRefundCents), '817.52')
    assert.equal(q.lines[2]!.payeeAccountHolderId, ADMINISTRATOR)
    assert.deepEqual(q.payees, [
      { payeeAccountHolderId: INSURER, refundCents: 55_182 },
      { payeeAccountHolderId: ADMINISTRATOR, refundCents: 14_307 },
      { payeeAccountHolderId: AGENT, refundCents: 12_263 },
    ])
  })
})

describe('claims deducted', () => {
  const lesser = { method: method('PRO_RATA_LESSER_TIME_MILES'), deductClaims: true }
  it('claims of 300.00 leave a lesser-of net of 900.00', () => {
    const q = quote({ claimsPaidCents: 30_000, claimPaid: true }, lesser)
    assert.equal(money(q.claimsDeductedCents), '300.00')
    assert.equal(money(q.netCents), '900.00')
  })
  it('claims of 1,400.00 leave 0.00 (never below zero): 1,200.00 deducted', () => {
    const q = quote({ claimsPaidCents: 140_000, claimPaid: true }, lesser)
    assert.equal(money(q.claimsDeductedCents), '1200.00')
    assert.equal(money(q.netCents), '0.00')
  })
  it('are not deducted when the decision does not deduct them', () => {
    const q = quote({ claimsPaidCents: 30_000, claimPaid: true }, { ...lesser, deductClaims: false })
    assert.equal(q.claimsDeductedCents, 0)
    assert.equal(money(q.netCents), '1200.00')
  })
})

describe('miles', () => {
  it('a FROM_ZERO plan of 2,400.00 sold at 12 miles, cancelled at 9,012: 1,799.80 (not 1,799.20)', () => {
    const lines: RefundLine[] = [
      { code: 'RES', group: 'RESERVE', payeeAccountHolderId: INSURER, cents: 150_000, refundable: true },
    ]
    const facts = {
      milesBasis: 'FROM_ZERO' as const,
      saleOdometer: 12,
      expirationOdometer: 36_000,
      cancelOdometer: 9_012,
    }
    const miles = quote({ priceCents: 240_000, lines }, { method: method('PRO_RATA_MILES'), fee: null }, facts)
    assert.equal(money(miles.grossCents), '1799.80')
    assert.equal(ratioText(miles.fraction), ratioText(ratio(26_988, 35_988)))
    assert.deepEqual([miles.parts!.milesCovered, miles.parts!.milesUsed], [35_988, 9_000])
    // Lesser of time and miles, cancelled early in the term: the miles decide, the same amount.
    const lesser = quote(
      { priceCents: 240_000, lines },
      { method: method('PRO_RATA_LESSER_TIME_MILES'), fee: null, freeLookDays: 0 },
      { ...facts, cancelDate: '2025-03-20' },
    )
    assert.equal(money(lesser.grossCents), '1799.80')
    assert.equal(lesser.parts!.decidedBy, 'MILES')
    // FROM_ZERO reads the term's miles, whatever the stored expiration odometer says.
    const stored = quote(
      { priceCents: 240_000, lines },
      { method: method('PRO_RATA_MILES'), fee: null },
      { ...facts, expirationOdometer: null },
    )
    assert.equal(money(stored.grossCents), '1799.80')
  })

  it('unlimited miles (term miles 0): lesser and greater read the time alone; PRO_RATA_MILES reads days', () => {
    for (const formula of ['PRO_RATA_LESSER_TIME_MILES', 'PRO_RATA_GREATER_TIME_MILES', 'PRO_RATA_MILES'] as const) {
      const q = quote({}, { method: method(formula) }, { termMiles: 0, expirationOdometer: null })
      assert.equal(money(q.grossCents), '1471.53', formula)
      assert.equal(q.parts!.milesApply, false)
      assert.equal(q.parts!.miles, null)
      assert.equal(q.parts!.decidedBy, 'TIME')
    }
    // An unlimited-miles cancel needs no odometer.
    const q = quote(
      {},
      { method: method('PRO_RATA_LESSER_TIME_MILES') },
      { termMiles: 0, expirationOdometer: null, cancelOdometer: null },
    )
    assert.equal(money(q.grossCents), '1471.53')
  })

  it('miles do not apply with the sale odometer unknown, or a coverage of 0 or less', () => {
    const m = { method: method('PRO_RATA_LESSER_TIME_MILES') }
    assert.equal(quote({}, m, { saleOdometer: null }).parts!.milesApply, false)
    assert.equal(quote({}, m, { expirationOdometer: null }).parts!.milesApply, false)
    const past = quote({}, m, { milesBasis: 'FROM_ZERO', saleOdometer: 40_000, cancelOdometer: 41_000 })
    assert.equal(past.parts!.milesApply, false, 'a FROM_ZERO plan sold beyond its miles covers none')
    assert.equal(money(past.grossCents), '1471.53')
  })

  it('an odometer past the term: no miles unearned, the lesser-of refund is 0 and so is the fee', () => {
    const q = quote({}, { method: method('PRO_RATA_LESSER_TIME_MILES') }, { cancelOdometer: 70_000 })
    assert.deepEqual([q.parts!.milesUsed, q.grossCents, q.fee.cents, q.netCents], [36_000, 0, 0, 0])
    assert.equal(q.fee.limitedByGross, true)
    assert.equal(q.fee.keptBy, null)
    assert.deepEqual(
      q.lines.map((l) => l.refundCents),
      [0, 0, 0, 0],
    )
    const greater = quote({}, { method: method('PRO_RATA_GREATER_TIME_MILES') }, { cancelOdometer: 70_000 })
    assert.equal(money(greater.grossCents), '1471.53')
  })

  it('the odometer at the sale odometer: nothing used', () => {
    const q = quote({}, { method: method('PRO_RATA_MILES') }, { cancelOdometer: 20_000 })
    assert.equal(money(q.grossCents), '1800.00')
  })
})

describe('time', () => {
  it('a term over the leap day 2028-02-29 counts it', () => {
    const facts = { effectiveDate: '2027-03-01', saleDate: '2027-03-01', expirationDate: '2028-03-01', termMonths: 12 }
    const f = unearnedFraction(method('PRO_RATA_DAYS'), { ...FACTS, ...facts, cancelDate: '2028-02-29' })
    assert.ok(f.ok)
    assert.deepEqual([f.parts.daysInTerm, f.parts.daysElapsed, ratioText(f.ratio!)], [366, 365, '1/366'])
    // money.md: a 36-month term from 2025-03-14 has 1,096 days.
    const g = unearnedFraction(method('PRO_RATA_DAYS'), FACTS)
    assert.ok(g.ok)
    assert.equal(g.parts.daysInTerm, 1096)
  })

  it('month ends: from 2025-01-31 the anniversaries are 02-28, 03-31, 04-30 (never chained)', () => {
    const base = { effectiveDate: '2025-01-31', saleDate: '2025-01-31', expirationDate: '2026-01-31', termMonths: 12 }
    const cases: Array<[string, number]> = [
      ['2025-02-27', 0],
      ['2025-02-28', 1],
      ['2025-03-30', 1],
      ['2025-03-31', 2],
      ['2025-04-29', 2],
      ['2025-04-30', 3],
    ]
    for (const [cancelDate, k] of cases) {
      const f = unearnedFraction(method('PRO_RATA_MONTHS'), { ...FACTS, ...base, cancelDate })
      assert.ok(f.ok)
      assert.equal(f.parts.monthsElapsed, k, cancelDate)
      assert.equal(ratioText(f.ratio!), ratioText(ratio(12 - k, 12)))
    }
  })

  it('months counted STARTED and NEAREST_15', () => {
    // 2025-09-20 is 6 days past the 6th anniversary (09-14); 2025-09-30 is 16 days past it.
    const cases: Array<[MonthCounting, string, number, string]> = [
      ['COMPLETED', '2025-09-20', 6, '1500.00'],
      ['STARTED', '2025-09-20', 7, '1450.00'],
      ['STARTED', '2025-09-14', 6, '1500.00'],
      ['NEAREST_15', '2025-09-20', 6, '1500.00'],
      ['NEAREST_15', '2025-09-28', 6, '1500.00'],
      ['NEAREST_15', '2025-09-29', 7, '1450.00'],
      ['NEAREST_15', '2025-09-30', 7, '1450.00'],
    ]
    for (const [counting, cancelDate, k, gross] of cases) {
      const q = quote({}, { method: method('PRO_RATA_MONTHS', { monthCounting: counting }) }, { cancelDate })
      assert.equal(q.parts!.monthsElapsed, k, `${counting} ${cancelDate}`)
      assert.equal(q.parts!.monthCounting, counting)
      assert.equal(money(q.grossCents), gross, `${counting} ${cancelDate}`)
    }
    // A lesser-of by months reads the method's counting too.
    const lesser = quote(
      {},
      { method: method('PRO_RATA_LESSER_TIME_MILES', { timeBasis: 'MONTHS', monthCounting: 'STARTED' }) },
      { cancelOdometer: 21_000 },
    )
    assert.deepEqual(
      [lesser.parts!.timeBasis, lesser.parts!.monthsElapsed, lesser.parts!.decidedBy],
      ['MONTHS', 7, 'TIME'],
    )
    assert.equal(ratioText(lesser.fraction), '29/36')
  })

  it('a short rate of months: 90 % of (n − k)/n', () => {
    const q = quote({}, { method: method('SHORT_RATE', { timeBasis: 'MONTHS' }) })
    assert.equal(ratioText(q.fraction), '3/4')
    assert.equal(money(q.grossCents), '1350.00')
  })

  it('a cancel date after expiration: d = D and k = n, nothing unearned', () => {
    for (const formula of ['PRO_RATA_DAYS', 'PRO_RATA_MONTHS', 'RULE_OF_78', 'MEAN_PR_R78', 'SHORT_RATE'] as const) {
      const q = quote({}, { method: method(formula) }, { cancelDate: '2028-06-01' })
      assert.equal(q.grossCents, 0, formula)
      assert.equal(q.netCents, 0, formula)
    }
    const days = quote({}, { method: method('PRO_RATA_DAYS') }, { cancelDate: '2028-06-01' }).parts!
    assert.equal(days.daysElapsed, 1096)
    const months = quote({}, { method: method('RULE_OF_78') }, { cancelDate: '2028-06-01' }).parts!
    assert.equal(months.monthsElapsed, 36)
  })

  it('a cancel before the effective date (sold ahead of it): nothing elapsed, U = 1', () => {
    const facts = { saleDate: '2025-03-01', cancelDate: '2025-03-10' }
    const q = quote({}, { method: method('PRO_RATA_DAYS'), freeLookDays: 0 }, facts)
    assert.equal(q.parts!.daysElapsed, 0)
    assert.equal(money(q.grossCents), '1800.00')
    assert.equal(money(q.netCents), '1750.00')
  })

  it('rule of 78 and its mean at the start and the end of the term', () => {
    for (const [cancelDate, r78, mean] of [
      ['2025-03-14', '1/1', '1/1'],
      ['2028-02-14', '1/666', '1/36'],
    ] as const) {
      const a = quote({}, { method: method('RULE_OF_78'), freeLookDays: 0 }, { cancelDate })
      const b = quote({}, { method: method('MEAN_PR_R78'), freeLookDays: 0 }, { cancelDate })
      assert.equal(ratioText(a.fraction), r78, cancelDate)
      // k = 35: Rule of 78 1·2/(36·37); the mean (n − k)(2n − k + 2)/(2n(n + 1)) = 39/2664.
      assert.equal(ratioText(b.fraction), cancelDate === '2025-03-14' ? mean : '13/888', cancelDate)
    }
  })
})

describe('free-look and forced full refunds', () => {
  // The scenario's cancel is 200 days after the sale.
  it('the boundary day is inside (days = freeLookDays), the next is outside', () => {
    const inside = quote({}, { freeLookDays: 200 })
    assert.deepEqual([inside.decidedBy, inside.withinFreeLook, inside.parts], ['FREE_LOOK', true, null])
    assert.deepEqual([money(inside.grossCents), inside.fee.cents, money(inside.netCents)], ['1800.00', 0, '1800.00'])
    assert.equal(inside.factor, '1.000000')
    assert.deepEqual(
      inside.lines.map((l) => l.refundCents),
      [64_000, 3_500, 17_500, 15_000],
    )
    assert.equal(inside.markupRefundCents, 80_000)
    const outside = quote({}, { freeLookDays: 199 })
    assert.deepEqual([outside.decidedBy, outside.withinFreeLook, money(outside.netCents)], ['METHOD', false, '1200.00'])
    assert.equal(outside.freeLook.daysSinceSale, 200)
  })

  it('0 free-look days means none, even on the day of sale', () => {
    const q = quote({}, { freeLookDays: 0, method: method('PRO_RATA_DAYS') }, { cancelDate: '2025-03-14' })
    assert.equal(q.decidedBy, 'METHOD')
    assert.equal(money(q.netCents), '1750.00')
  })

  it('a transferred contract has no free-look: the new owner is refunded by the method', () => {
    const q = quote({ transferred: true }, { freeLookDays: 200 })
    assert.deepEqual(
      [q.decidedBy, q.withinFreeLook, q.freeLook.lostToTransfer, q.freeLook.lostToClaim],
      ['METHOD', false, true, false],
    )
    const kept = quote({ transferred: false }, { freeLookDays: 200 })
    assert.deepEqual([kept.decidedBy, kept.freeLook.lostToTransfer], ['FREE_LOOK', false])
    // Outside the window the transfer loses nothing.
    assert.equal(quote({ transferred: true }, { freeLookDays: 199 }).freeLook.lostToTransfer, false)
  })

  it('a claim paid inside the free-look loses it: the method, the fee and the deduction apply', () => {
    const q = quote({ claimsPaidCents: 10_000, claimPaid: true }, { freeLookDays: 200, deductClaims: true })
    assert.deepEqual([q.decidedBy, q.withinFreeLook, q.freeLook.lostToClaim], ['METHOD', false, true])
    assert.equal(money(q.netCents), '1100.00')
    // A claim paid at 0.00 loses it too.
    const zero = quote({ claimPaid: true }, { freeLookDays: 200 })
    assert.equal(zero.decidedBy, 'METHOD')
  })

  it('a reason forcing a full refund: U = 1, no fee, no claims deducted, even after a claim and outside the free-look', () => {
    const q = quote(
      { claimsPaidCents: 30_000, claimPaid: true },
      { forcesFullRefund: true, waivesFee: true, deductClaims: true, fee: fee(), refundPayee: 'DEALER' },
    )
    assert.deepEqual(
      [q.decidedBy, money(q.grossCents), q.fee.cents, q.claimsDeductedCents],
      ['REASON', '1800.00', 0, 0],
    )
    assert.equal(q.refundPayee, 'DEALER')
  })

  it('a GAP total loss with its benefit paid refunds nothing: U = 0, no fee, no deduction, whatever else applies', () => {
    // Inside the free-look, a reason forcing the full refund, claims to deduct: the benefit paid decides first.
    const q = quote(
      { claimsPaidCents: 900_000, claimPaid: true, benefitPaid: true },
      { freeLookDays: 365, forcesFullRefund: true, deductClaims: true, method: method('RULE_OF_78') },
    )
    assert.deepEqual(
      [q.decidedBy, q.factor, q.grossCents, q.fee.cents, q.claimsDeductedCents, q.netCents, q.withinFreeLook],
      ['BENEFIT_PAID', '0.000000', 0, 0, 0, 0, false],
    )
    assert.deepEqual([q.lines.map((l) => l.refundCents), q.markupRefundCents, q.parts], [[0, 0, 0, 0], 0, null])
    // Without the benefit paid the same total loss is refunded by the method.
    assert.equal(quote({}, { method: method('RULE_OF_78') }).decidedBy, 'METHOD')
  })

  it('a reason waiving the fee: the method, no fee', () => {
    const q = quote({}, { waivesFee: true })
    assert.deepEqual([money(q.grossCents), q.fee.cents, money(q.netCents)], ['1250.00', 0, '1250.00'])
  })
})

describe('fees', () => {
  const lesser = method('PRO_RATA_LESSER_TIME_MILES') // gross 1,250.00
  const cases: Array<[string, Partial<CancelFeeDecision>, string]> = [
    ['an amount', {}, '50.00'],
    ['10 % of the refund', { amount: null, percent: '10', percentOf: 'REFUND' }, '125.00'],
    ['10 % of the refund, max 75.00', { amount: null, percent: '10', percentOf: 'REFUND', max: '75.00' }, '75.00'],
    ['12.5 % of the price', { amount: null, percent: '12.5', percentOf: 'PRICE' }, '225.00'],
    ['a percent without its basis is of the price', { amount: null, percent: '5' }, '90.00'],
    ['the smaller of amount and percent', { amount: '100.00', percent: '5', percentOf: 'REFUND' }, '62.50'],
    ['the smaller of amount and percent (the amount)', { amount: '40.00', percent: '5', percentOf: 'REFUND' }, '40.00'],
    ['a state cap amount', { amount: '100.00', capAmount: '60.00' }, '60.00'],
    ['a state cap of 2 % of the price', { amount: '100.00', capPercentOfPrice: '2' }, '36.00'],
    ['both state caps: the smaller', { amount: '100.00', capAmount: '30.00', capPercentOfPrice: '2' }, '30.00'],
    ['a cap above the fee changes nothing', { amount: '50.00', capAmount: '75.00', capPercentOfPrice: '10' }, '50.00'],
    ['an amount of 0 is no fee', { amount: '0.00' }, '0.00'],
    ['a fee above the gross is the gross', { amount: '2000.00' }, '1250.00'],
  ]
  for (const [name, f, expected] of cases) {
    it(`${name}: ${expected}`, () => {
      const q = quote({}, { method: lesser, fee: fee(f) })
      assert.equal(money(q.fee.cents), expected)
      assert.equal(q.netCents, 125_000 - q.fee.cents)
    })
  }

  it('rounds a percentage once, half up, from the exact amount', () => {
    // 7.5 % of 1,471.53 = 110.36475 → 110.36; 0.05 % of 1,000.10 = 0.50005 → 0.50; 1/3 % … exact.
    assert.equal(cancelFee(fee({ amount: null, percent: '7.5', percentOf: 'REFUND' }), 180_000, 147_153).cents, 11_036)
    assert.equal(cancelFee(fee({ amount: null, percent: '0.05', percentOf: 'PRICE' }), 100_010, 100_010).cents, 50)
    assert.equal(cancelFee(fee({ amount: null, percent: '50', percentOf: 'PRICE' }), 101, 101).cents, 51)
  })

  it('the fee is kept by whom the terms say, and by no one when it is 0', () => {
    assert.equal(quote({}, { fee: fee({ keptBy: 'DEALER' }) }).fee.keptBy, 'DEALER')
    assert.equal(quote({}, { fee: null }).fee.keptBy, null)
  })
})

describe('the other formulas', () => {
  it('FIXED_AMOUNT above the price refunds the price; below, its amount', () => {
    const above = quote({}, { method: method('FIXED_AMOUNT', { fixedAmount: '2500.00' }) })
    assert.deepEqual(
      [money(above.grossCents), money(above.netCents), ratioText(above.fraction)],
      ['1800.00', '1750.00', '1/1'],
    )
    assert.equal(above.parts!.decidedBy, 'FORMULA')
    const below = quote({}, { method: method('FIXED_AMOUNT', { fixedAmount: '100.00' }) })
    assert.deepEqual(
      [money(below.grossCents), money(below.netCents), ratioText(below.fraction)],
      ['100.00', '50.00', '1/18'],
    )
    assert.equal(below.factor, '0.055556')
  })

  it('FULL refunds the price (a method: the fee applies); NONE refunds nothing', () => {
    const full = quote({}, { method: method('FULL') })
    assert.deepEqual([money(full.grossCents), money(full.netCents)], ['1800.00', '1750.00'])
    const none = quote({ claimsPaidCents: 5_000, claimPaid: true }, { method: method('NONE'), deductClaims: true })
    assert.deepEqual([none.grossCents, none.fee.cents, none.claimsDeductedCents, none.netCents], [0, 0, 0, 0])
  })
})

describe('shares', () => {
  it('zero markup: the payees return the whole gross', () => {
    const q = quote({ priceCents: 100_000 }, { method: method('PRO_RATA_DAYS') })
    assert.equal(q.markupCents, 0)
    assert.equal(q.markupRefundCents, 0)
    assert.equal(q.linesRefundCents, q.grossCents)
    assert.equal(money(q.grossCents), '817.52')
  })

  it('a non-refundable line refunds 0, and its part of the price is not refunded, in every path', () => {
    const lines = LINES.map((l) => (l.code === 'PRM' ? { ...l, refundable: false } : l))
    const q = quote({ lines }, { method: method('PRO_RATA_DAYS') })
    assert.equal(q.refundableCents, 176_500)
    assert.equal(q.grossCents, 144_292) // round(176,500 × 112/137) = 144,291.97…
    assert.equal(q.lines[1]!.refundCents, 0)
    assert.equal(q.markupCents, 80_000)
    const free = quote({ lines }, { freeLookDays: 365 })
    assert.deepEqual([free.grossCents, free.lines[1]!.refundCents, free.netCents], [176_500, 0, 176_500])
    const forced = quote({ lines }, { forcesFullRefund: true, waivesFee: true })
    assert.equal(forced.grossCents, 176_500)
    const fixed = quote({ lines }, { method: method('FIXED_AMOUNT', { fixedAmount: '5000.00' }), fee: null })
    assert.equal(fixed.grossCents, 176_500)
  })

  it('a negative markup: the lines share their own unearned part, the dealer gets the rest back', () => {
    // A locked retail of 900.00 below a dealer cost of 1,000.00.
    const q = quote({ priceCents: 90_000 }, { method: method('PRO_RATA_DAYS'), fee: null })
    assert.equal(q.markupCents, -10_000)
    assert.equal(q.grossCents, 73_577) // round(90,000 × 112/137) = 73,576.64…
    assert.equal(q.linesRefundCents, 81_752) // round(100,000 × 112/137) = 81,751.82…
    assert.equal(q.markupRefundCents, -8_175)
    assert.deepEqual(
      q.lines.map((l) => l.refundCents),
      [52_321, 2_861, 14_307, 12_263],
    )
  })

  it('nothing to refund: every share is 0', () => {
    const q = quote({}, { method: method('NONE') })
    assert.deepEqual([...q.lines.map((l) => l.refundCents), q.markupRefundCents], [0, 0, 0, 0, 0])
    const empty = quote({ priceCents: 0, lines: [] }, { method: method('FULL') })
    assert.deepEqual([empty.grossCents, empty.markupRefundCents, empty.lines.length], [0, 0, 0])
  })
})

describe('refusals', () => {
  it('a cancel date before the sale date names cancelDate', () => {
    const q = quoteRefund(input({}, {}, { cancelDate: '2025-03-13' }))
    assert.deepEqual(q, {
      ok: false,
      errors: [
        { field: 'cancelDate', code: 'before_sale_date', message: 'must be on or after the sale date 2025-03-14' },
      ],
    })
  })

  it('an odometer below the sale odometer names cancelOdometer, whatever the method', () => {
    for (const m of [method('PRO_RATA_LESSER_TIME_MILES'), method('PRO_RATA_DAYS')]) {
      const q = quoteRefund(input({}, { method: m }, { cancelOdometer: 19_999 }))
      assert.ok(!q.ok)
      assert.deepEqual(
        q.errors.map((e) => [e.field, e.code]),
        [['cancelOdometer', 'below_sale_odometer']],
      )
    }
  })

  it('every problem is listed; a date that is not one is refused', () => {
    const q = quoteRefund(input({}, {}, { cancelDate: '2025-02-30', cancelOdometer: -1 }))
    assert.ok(!q.ok)
    assert.deepEqual(
      q.errors.map((e) => [e.field, e.code]),
      [
        ['cancelDate', 'invalid_format'],
        ['cancelOdometer', 'out_of_range'],
      ],
    )
  })

  it('a method reading miles needs the cancel odometer when miles apply; the others do not', () => {
    const q = quoteRefund(input({}, {}, { cancelOdometer: null }))
    assert.ok(!q.ok)
    assert.deepEqual(
      q.errors.map((e) => [e.field, e.code]),
      [['cancelOdometer', 'required']],
    )
    assert.equal(quote({}, { method: method('PRO_RATA_DAYS') }, { cancelOdometer: null }).grossCents, 147_153)
    // A full refund by the free-look reads no method, so no odometer either.
    assert.equal(quote({}, { freeLookDays: 365 }, { cancelOdometer: null }).grossCents, 180_000)
  })

  it("a caller's mistakes throw: negative cents, a method without its parameters", () => {
    assert.throws(() => quoteRefund(input({ priceCents: -1 })), RangeError)
    assert.throws(
      () => quoteRefund(input({}, { method: { ...method('SHORT_RATE'), shortRatePercent: null } })),
      RangeError,
    )
    assert.throws(() => quoteRefund(input({}, { method: method('FIXED_AMOUNT') })), RangeError)
    assert.throws(() => decimalRatio('1e3'), RangeError)
  })
})

describe("with cancellationTermsFor's decision", () => {
  const reason = (code: string, over: Partial<CancelReasonTerms> = {}): CancelReasonTerms => ({
    id: 10,
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
    ...over,
  })
  const terms: SaleTerms = {
    format: 1,
    rateBookVersion: 3,
    rateBookId: 42,
    product: { id: 1, code: 'VSC1', type: 'VSC' },
    plan: { id: 2, code: 'GOLD' },
    term: { id: 3, code: '36/36000', months: 36, miles: 36_000 },
    cancellation: {
      method: method('PRO_RATA_LESSER_TIME_MILES'),
      fee: { amount: '75.00', percent: null, percentOf: null, max: null, keptBy: 'ADMINISTRATOR' },
      freeLookDays: 30,
      deductClaims: true,
      refundIssuer: 'ADMINISTRATOR',
      rules: [
        {
          reasons: ['REPOSSESSION'],
          states: null,
          requestedBy: null,
          method: method('SHORT_RATE'),
          fee: { amount: null, percent: '10', percentOf: 'REFUND', max: '75.00', keptBy: 'DEALER' },
          freeLookDays: null,
          deductClaims: null,
          refundIssuer: null,
        },
      ],
      sources: { method: 'BOOK', fee: 'BOOK', freeLookDays: 'BOOK', deductClaims: 'BOOK' },
    },
    cancelMethods: [],
    cancelReasons: [
      reason('CUSTOMER_REQUEST'),
      reason('REPOSSESSION', { requestedBy: ['LIENHOLDER'], refundPayee: 'LIENHOLDER' }),
      reason('SALE_UNWOUND', { forcesFullRefund: true, waivesFee: true, refundPayee: 'DEALER' }),
    ],
    stateRules: [
      { state: 'CA', freeLookDays: 60, cancelFeeMax: '50.00', cancelFeeMaxPercent: '2', claimsDeductible: null },
      { state: 'NY', freeLookDays: null, cancelFeeMax: null, cancelFeeMaxPercent: null, claimsDeductible: false },
    ],
    earnings: {},
    claims: {
      waitingPeriodDays: 0,
      waitingPeriodMiles: 0,
      limitOfLiability: { basis: 'NONE', amount: null },
      perClaimLimit: null,
      deductibleApplies: 'PER_VISIT',
      benefits: [],
    },
    transfer: { allowed: true, fee: null, withinDays: null, dealerMayOwn: false },
  }
  const decide = (state: string | null, reasonCode: string, requestedBy: 'CUSTOMER' | 'LIENHOLDER' | 'DEALER') => {
    const d = cancellationTermsFor(terms, { state, reasonCode, requestedBy })
    if (!d.ok) assert.fail(d.message)
    return d
  }
  const claims = { claimsPaidCents: 30_000, claimPaid: true }

  it('the product: lesser of time and miles, fee 75.00, claims deducted', () => {
    const q = quote(claims, decide('TX', 'CUSTOMER_REQUEST', 'CUSTOMER'))
    assert.deepEqual(
      [money(q.grossCents), money(q.fee.cents), money(q.claimsDeductedCents), money(q.netCents)],
      ['1250.00', '75.00', '300.00', '875.00'],
    )
    assert.deepEqual(q.rule, {
      productRule: null,
      stateRule: null,
      reason: 'CUSTOMER_REQUEST',
      method: 'PRO_RATA_LESSER_TIME_MILES',
    })
  })

  it('CA caps the fee (the smaller of 50.00 and 2 % of the price: 36.00); NY forbids the deduction', () => {
    const ca = quote(claims, decide('CA', 'CUSTOMER_REQUEST', 'CUSTOMER'))
    assert.deepEqual([money(ca.fee.cents), money(ca.netCents), ca.rule.stateRule], ['36.00', '914.00', 'CA'])
    const ny = quote(claims, decide('NY', 'CUSTOMER_REQUEST', 'CUSTOMER'))
    assert.deepEqual([ny.claimsDeductedCents, money(ny.netCents)], [0, '1175.00'])
  })

  it('the repossession rule: short rate, 10 % of the refund up to 75.00, kept by the dealer, to the lien holder', () => {
    const q = quote({}, decide(null, 'REPOSSESSION', 'LIENHOLDER'))
    assert.deepEqual(
      [money(q.grossCents), money(q.fee.cents), q.fee.keptBy, q.refundPayee, q.rule.productRule, q.rule.method],
      ['1324.38', '75.00', 'DEALER', 'LIENHOLDER', 0, 'SHORT_RATE'],
    )
  })

  it('sale unwound forces the full refund to the dealer, no fee, no claims deducted', () => {
    const q = quote(claims, decide('CA', 'SALE_UNWOUND', 'DEALER'))
    assert.deepEqual([q.decidedBy, money(q.netCents), q.refundPayee], ['REASON', '1800.00', 'DEALER'])
  })

  it("CA's 60 free-look days are the longer: a cancel on day 60 is inside, day 61 outside", () => {
    const d = decide('CA', 'CUSTOMER_REQUEST', 'CUSTOMER')
    assert.equal(quote({}, d, { cancelDate: '2025-05-13' }).withinFreeLook, true)
    assert.equal(quote({}, d, { cancelDate: '2025-05-14' }).withinFreeLook, false)
  })
})
