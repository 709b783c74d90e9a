// Properties of the refund rules over random contracts, methods, fees, claims and cancels (issue 13):
// 0 ≤ net ≤ gross ≤ price; the shares add up to the gross exactly, each within a cent of its exact
// part; the fee is never more than the gross; claims deducted never more than the claims paid; U in
// [0, 1], and the lesser of time and miles never above either, the greater never below. Amounts stay
// within a billion cents, so every product the helpers see stays exact and every result within 2^53
// (money.test.ts: multiplyCentsByRatio refuses a result beyond that).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { addDays, addMonths, MONTH_COUNTING } from '../../platform/calendar.ts'
import type { CancelFeeDecision, CancelFormula, CancelMethodTerms } from '../rating/index.ts'
import {
  compareRatios,
  quoteRefund,
  ratio,
  unearnedFraction,
  type CancelFacts,
  type QuoteDecision,
  type Ratio,
  type RefundLine,
  type RefundQuote,
} from './index.ts'

const FORMULAS: CancelFormula[] = [
  'PRO_RATA_DAYS',
  'PRO_RATA_MONTHS',
  'PRO_RATA_MILES',
  'PRO_RATA_LESSER_TIME_MILES',
  'PRO_RATA_GREATER_TIME_MILES',
  'RULE_OF_78',
  'MEAN_PR_R78',
  'SHORT_RATE',
  'FIXED_AMOUNT',
  'FULL',
  'NONE',
]

/** A decimal text with up to four places, from ten-thousandths. */
const decimalText = (tenThousandths: number) => {
  const whole = Math.floor(tenThousandths / 10_000)
  const rest = tenThousandths % 10_000
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(4, '0').replace(/0+$/, '')}`
}
const moneyText = (cents: number) => (cents / 100).toFixed(2)

const methodArb: fc.Arbitrary<CancelMethodTerms> = fc
  .record({
    formula: fc.constantFrom(...FORMULAS),
    timeBasis: fc.constantFrom('DAYS' as const, 'MONTHS' as const),
    monthCounting: fc.constantFrom(...MONTH_COUNTING),
    shortRate: fc.integer({ min: 1, max: 1_000_000 }),
    fixedCents: fc.integer({ min: 0, max: 50_000_000 }),
  })
  .map(({ formula, timeBasis, monthCounting, shortRate, fixedCents }) => {
    const basis =
      formula === 'PRO_RATA_DAYS'
        ? 'DAYS'
        : ['PRO_RATA_MONTHS', 'RULE_OF_78', 'MEAN_PR_R78'].includes(formula)
          ? 'MONTHS'
          : ['PRO_RATA_LESSER_TIME_MILES', 'PRO_RATA_GREATER_TIME_MILES', 'SHORT_RATE'].includes(formula)
            ? timeBasis
            : null
    return {
      id: 1,
      code: formula,
      name: formula,
      formula,
      timeBasis: basis,
      monthCounting: basis === 'MONTHS' ? monthCounting : null,
      shortRatePercent: formula === 'SHORT_RATE' ? decimalText(shortRate) : null,
      fixedAmount: formula === 'FIXED_AMOUNT' ? moneyText(fixedCents) : null,
      milesApply: formula.includes('MILES'),
    }
  })

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null })

const feeArb: fc.Arbitrary<CancelFeeDecision | null> = optional(
  fc.record({
    amount: optional(fc.integer({ min: 0, max: 20_000_000 }).map(moneyText)),
    percent: optional(fc.integer({ min: 1, max: 1_000_000 }).map(decimalText)),
    percentOf: optional(fc.constantFrom('PRICE' as const, 'REFUND' as const)),
    max: optional(fc.integer({ min: 0, max: 10_000_000 }).map(moneyText)),
    keptBy: fc.constantFrom('ADMINISTRATOR' as const, 'DEALER' as const),
    capAmount: optional(fc.integer({ min: 0, max: 10_000_000 }).map(moneyText)),
    capPercentOfPrice: optional(fc.integer({ min: 0, max: 1_000_000 }).map(decimalText)),
  }),
)

const factsArb: fc.Arbitrary<CancelFacts> = fc
  .record({
    effective: fc.integer({ min: 0, max: 3_650 }),
    soldBefore: fc.integer({ min: 0, max: 30 }),
    months: fc.integer({ min: 1, max: 120 }),
    cancelAfterSale: fc.integer({ min: 0, max: 4_000 }),
    miles: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200_000 })),
    fromZero: fc.boolean(),
    saleOdometer: optional(fc.integer({ min: 0, max: 300_000 })),
    driven: fc.integer({ min: 0, max: 250_000 }),
  })
  .map((r) => {
    const effectiveDate = addDays('2020-01-01', r.effective)
    const saleDate = addDays(effectiveDate, -r.soldBefore)
    const os = r.saleOdometer
    const ox = r.miles === 0 ? null : r.fromZero ? r.miles : os === null ? null : os + r.miles
    return {
      effectiveDate,
      expirationDate: addMonths(effectiveDate, r.months),
      saleDate,
      cancelDate: addDays(saleDate, r.cancelAfterSale),
      termMonths: r.months,
      termMiles: r.miles,
      milesBasis: r.fromZero ? ('FROM_ZERO' as const) : ('FROM_SALE_ODOMETER' as const),
      saleOdometer: os,
      expirationOdometer: ox,
      cancelOdometer: os === null ? r.driven : os + r.driven,
    }
  })

const linesArb = (minMarkup: number, maxMarkup: number) =>
  fc
    .record({
      lines: fc.array(fc.record({ cents: fc.integer({ min: 0, max: 10_000_000 }), refundable: fc.boolean() }), {
        maxLength: 6,
      }),
      markup: fc.integer({ min: minMarkup, max: maxMarkup }),
    })
    .map(({ lines, markup }) => {
      const refundLines: RefundLine[] = lines.map((l, i) => ({
        code: `L${i}`,
        group: 'RESERVE',
        payeeAccountHolderId: 100 + i,
        cents: l.cents,
        refundable: l.refundable,
      }))
      const cost = refundLines.reduce((n, l) => n + l.cents, 0)
      return { lines: refundLines, priceCents: Math.max(0, cost + markup) }
    })

const decisionArb: fc.Arbitrary<QuoteDecision> = fc
  .record({
    method: methodArb,
    fee: feeArb,
    freeLookDays: fc.integer({ min: 0, max: 90 }),
    deductClaims: fc.boolean(),
    forcesFullRefund: fc.boolean(),
    waivesFee: fc.boolean(),
  })
  .map((d) => ({
    ...d,
    refundPayee: 'AUTO' as const,
    refundIssuer: 'ADMINISTRATOR' as const,
    rule: { productRule: null, stateRule: null },
    reason: { code: 'CUSTOMER_REQUEST' },
  }))

const claimsArb = fc.record({
  claimsPaidCents: fc.integer({ min: 0, max: 100_000_000 }),
  claimPaid: fc.boolean(),
})

/** |share − amount·w/total| < 1 cent, exactly: |share·total − amount·w| < total. */
function withinACent(share: number, amount: number, w: number, total: number): boolean {
  const diff = BigInt(share) * BigInt(total) - BigInt(amount) * BigInt(w)
  return (diff < 0n ? -diff : diff) < BigInt(total)
}

function assertQuote(q: RefundQuote, claimsPaidCents: number) {
  const { grossCents: gross, netCents: net, priceCents: P } = q
  assert.ok(0 <= net && net <= gross && gross <= q.refundableCents && q.refundableCents <= P, 'ordering')
  assert.ok(q.fee.cents >= 0 && q.fee.cents <= gross, 'fee within the gross')
  assert.ok(q.claimsDeductedCents >= 0 && q.claimsDeductedCents <= claimsPaidCents, 'claims within those paid')
  assert.equal(net, gross - q.fee.cents - q.claimsDeductedCents)
  assert.equal(q.linesRefundCents + q.markupRefundCents, gross, 'the shares add up to the gross')
  assert.equal(
    q.lines.reduce((n, l) => n + l.refundCents, 0),
    q.linesRefundCents,
  )
  assert.equal(
    q.payees.reduce((n, p) => n + p.refundCents, 0),
    q.linesRefundCents,
  )
  assert.ok(compareRatios(q.fraction, ratio(0, 1)) >= 0 && compareRatios(q.fraction, ratio(1, 1)) <= 0, 'U in [0, 1]')
  for (const l of q.lines) if (!l.refundable) assert.equal(l.refundCents, 0, 'a non-refundable line refunds 0')
}

describe('quoteRefund: properties', () => {
  it('0 ≤ net ≤ gross ≤ price; fee ≤ gross; claims ≤ paid; shares add to the gross, each within a cent of exact', () => {
    fc.assert(
      fc.property(linesArb(0, 20_000_000), decisionArb, claimsArb, factsArb, (priced, decision, claims, facts) => {
        const q = quoteRefund({ ...priced, ...claims, decision, facts })
        if (!q.ok) return assert.fail(JSON.stringify(q.errors))
        assertQuote(q, claims.claimsPaidCents)
        // money.md's allocation: each share within a cent of gross·wᵢ/B (wᵢ 0 for a non-refundable line).
        const B = q.refundableCents
        if (B > 0) {
          for (const l of q.lines)
            assert.ok(withinACent(l.refundCents, q.grossCents, l.refundable ? l.cents : 0, B), `line ${l.code}`)
          assert.ok(withinACent(q.markupRefundCents, q.grossCents, q.markupCents, B), 'markup')
        }
        // The gross is B·U rounded once, within half a cent (FIXED_AMOUNT's U is gross/B, exactly):
        // |2·gross·den − 2·B·num| ≤ den.
        const { num, den } = q.fraction
        const off = 2n * BigInt(q.grossCents) * den - 2n * BigInt(B) * num
        assert.ok((off < 0n ? -off : off) <= den, 'gross = round(B·U)')
        return true
      }),
      { numRuns: 2_000 },
    )
  })

  it('a negative markup: the shares still add up, each line within a cent and a half of its exact part', () => {
    fc.assert(
      fc.property(linesArb(-5_000_000, -1), decisionArb, claimsArb, factsArb, (priced, decision, claims, facts) => {
        const q = quoteRefund({ ...priced, ...claims, decision, facts })
        if (!q.ok) return assert.fail(JSON.stringify(q.errors))
        assertQuote(q, claims.claimsPaidCents)
        const U: Ratio = q.fraction
        for (const l of q.lines) {
          const w = l.refundable ? l.cents : 0
          // |share − w·U| ≤ 1.5: |2·share·den − 2·w·num| ≤ 3·den.
          const diff = 2n * BigInt(l.refundCents) * U.den - 2n * BigInt(w) * U.num
          assert.ok((diff < 0n ? -diff : diff) <= 3n * U.den, `line ${l.code}`)
        }
        return true
      }),
      { numRuns: 500 },
    )
  })

  it('refuses, never throws, a cancel before the sale or below the sale odometer', () => {
    fc.assert(
      fc.property(
        linesArb(0, 1_000_000),
        decisionArb,
        factsArb,
        fc.integer({ min: 1, max: 400 }),
        (priced, decision, facts, back) => {
          const early = { ...facts, cancelDate: addDays(facts.saleDate, -back) }
          const q = quoteRefund({ ...priced, claimsPaidCents: 0, claimPaid: false, decision, facts: early })
          assert.ok(!q.ok && q.errors.some((e) => e.field === 'cancelDate' && e.code === 'before_sale_date'))
          if (facts.saleOdometer !== null && facts.saleOdometer >= back) {
            const low = { ...facts, cancelOdometer: facts.saleOdometer - back }
            const r = quoteRefund({ ...priced, claimsPaidCents: 0, claimPaid: false, decision, facts: low })
            assert.ok(!r.ok && r.errors.some((e) => e.field === 'cancelOdometer' && e.code === 'below_sale_odometer'))
          }
          return true
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('unearnedFraction: properties', () => {
  const m = (formula: CancelFormula, timeBasis: 'DAYS' | 'MONTHS'): CancelMethodTerms => ({
    id: 1,
    code: formula,
    name: formula,
    formula,
    timeBasis,
    monthCounting: timeBasis === 'MONTHS' ? 'COMPLETED' : null,
    shortRatePercent: null,
    fixedAmount: null,
    milesApply: true,
  })

  it('the lesser of time and miles is never above either, the greater never below', () => {
    fc.assert(
      fc.property(factsArb, fc.constantFrom('DAYS' as const, 'MONTHS' as const), (facts, basis) => {
        const lesser = unearnedFraction(m('PRO_RATA_LESSER_TIME_MILES', basis), facts)
        const greater = unearnedFraction(m('PRO_RATA_GREATER_TIME_MILES', basis), facts)
        assert.ok(lesser.ok && greater.ok)
        const time = lesser.parts.time!
        assert.ok(compareRatios(lesser.ratio!, time) <= 0 && compareRatios(greater.ratio!, time) >= 0)
        if (lesser.parts.miles !== null) {
          assert.ok(compareRatios(lesser.ratio!, lesser.parts.miles) <= 0)
          assert.ok(compareRatios(greater.ratio!, lesser.parts.miles) >= 0)
        }
        assert.ok(compareRatios(lesser.ratio!, greater.ratio!) <= 0)
        return true
      }),
      { numRuns: 1_000 },
    )
  })

  it('every time formula is non-increasing as the cancel date moves later, and Rule of 78 ≤ mean ≤ pro rata months', () => {
    fc.assert(
      fc.property(factsArb, fc.integer({ min: 1, max: 400 }), (facts, later) => {
        const next = { ...facts, cancelDate: addDays(facts.cancelDate, later) }
        const formulas: CancelFormula[] = ['PRO_RATA_DAYS', 'PRO_RATA_MONTHS', 'RULE_OF_78', 'MEAN_PR_R78']
        const at = (f: CancelFormula, fa: CancelFacts) => {
          const u = unearnedFraction(m(f, f === 'PRO_RATA_DAYS' ? 'DAYS' : 'MONTHS'), fa)
          assert.ok(u.ok && u.ratio !== null)
          return u.ratio
        }
        for (const f of formulas) assert.ok(compareRatios(at(f, next), at(f, facts)) <= 0, f)
        const r78 = at('RULE_OF_78', facts)
        const mean = at('MEAN_PR_R78', facts)
        const months = at('PRO_RATA_MONTHS', facts)
        assert.ok(compareRatios(r78, mean) <= 0 && compareRatios(mean, months) <= 0)
        return true
      }),
      { numRuns: 500 },
    )
  })
})
