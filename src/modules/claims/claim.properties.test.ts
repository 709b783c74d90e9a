// Properties of the claim rules over random claims (issue 14): the payable is never negative, never
// above the limit of liability left nor the per-claim limit, never above subtotal + tax, and exactly
// the smallest of those bounds, `cappedBy` naming the bound that decided; per line what is counted is
// never above what was authorized, a benefit type never above its maxAmount, labor never above hours ×
// the capped rate; the tax is the taxable rounded once. And the state machine: whatever payments are
// recorded, their sum never passes the payable, and the claim is PAID exactly when they reach it.
// Amounts stay within a billion cents, so every product stays exact and every result within 2^53.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { Decimal, multiplyCentsByRatio, toCents } from '../../platform/money.ts'
import type { BenefitTerms } from '../rating/index.ts'
import {
  claimPayable,
  type BenefitLine,
  type BenefitType,
  type ClaimJob,
  type PayableInput,
} from './claim.payable.rules.ts'
import { JOB_STATUSES, transition, type ClaimFacts, type ClaimStatus } from './claim.rules.ts'

const BENEFIT_TYPES: BenefitType[] = ['RENTAL', 'TOWING', 'TRIP_INTERRUPTION', 'ROADSIDE']
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null })
const cents = (max: number) => fc.integer({ min: 0, max })
const moneyText = (c: number) => (c / 100).toFixed(2)
/** A decimal text of hundredths, more than 0 ("1.5", "12"). */
const hundredths = (max: number) =>
  fc.integer({ min: 1, max }).map((h) => (h % 100 === 0 ? String(h / 100) : (h / 100).toFixed(2)))

const jobArb: fc.Arbitrary<ClaimJob> = fc.record({
  status: fc.constantFrom(...JOB_STATUSES),
  parts: fc.array(
    fc.record({
      quantity: hundredths(10_000),
      requestedUnitCents: cents(1_000_000),
      authorizedUnitCents: optional(cents(1_000_000)),
      invoicedCents: optional(cents(50_000_000)),
      taxable: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  labor: fc.array(
    fc.record({
      hours: hundredths(4_000),
      rateCents: cents(50_000),
      requestedCents: optional(cents(5_000_000)),
      authorizedCents: optional(cents(5_000_000)),
      invoicedCents: optional(cents(5_000_000)),
    }),
    { maxLength: 2 },
  ),
  sublet: fc.array(
    fc.record({
      requestedCents: cents(1_000_000),
      authorizedCents: optional(cents(1_000_000)),
      invoicedCents: optional(cents(1_000_000)),
    }),
    { maxLength: 2 },
  ),
})

const benefitTermsArb: fc.Arbitrary<BenefitTerms[]> = fc.subarray(BENEFIT_TYPES, { minLength: 1 }).chain((types) =>
  fc.tuple(
    ...types.map((type) =>
      fc.record({
        type: fc.constant(type),
        perDay: optional(cents(50_000).map(moneyText)),
        maxDays: optional(fc.integer({ min: 1, max: 30 })),
        perOccurrence: optional(cents(100_000).map(moneyText)),
        maxAmount: optional(cents(200_000).map(moneyText)),
      }),
    ),
  ),
)

const benefitArb = (types: BenefitType[]): fc.Arbitrary<BenefitLine> =>
  fc.record({
    type: fc.constantFrom(...types),
    status: fc.constantFrom(...JOB_STATUSES),
    days: optional(fc.integer({ min: 0, max: 60 })),
    dailyRateCents: optional(cents(30_000)),
    requestedCents: optional(cents(200_000)),
    authorizedCents: optional(cents(200_000)),
    invoicedCents: optional(cents(200_000)),
  })

const inputArb: fc.Arbitrary<PayableInput> = benefitTermsArb.chain((benefitTerms) =>
  fc.record({
    jobs: fc.array(jobArb, { maxLength: 4 }),
    benefits: fc.array(benefitArb(benefitTerms.map((b) => b.type)), { maxLength: 4 }),
    facility: fc.record({
      laborRateCents: optional(cents(30_000)),
      taxRate: fc.integer({ min: 0, max: 999_999 }).map((m) => (m / 1_000_000).toFixed(6)),
    }),
    laborRateCapCents: fc.option(optional(cents(30_000)), { nil: undefined }),
    deductible: fc.record({
      amountCents: cents(100_000),
      type: fc.constantFrom('STANDARD', 'DISAPPEARING', 'REDUCED'),
    }),
    facilityLinkedToSellingDealer: fc.boolean(),
    terms: fc.record({
      deductibleApplies: fc.constantFrom('PER_VISIT' as const, 'PER_REPAIR' as const),
      perClaimLimit: optional(cents(10_000_000).map(moneyText)),
      benefits: fc.constant(benefitTerms),
    }),
    liability: fc.record({
      limitCents: optional(cents(100_000_000)),
      paidOnOtherClaimsCents: cents(100_000_000),
      authorizedUnpaidOnOtherClaimsCents: cents(100_000_000),
    }),
  }),
)

const exact = (text: string) => {
  const [whole, fraction = ''] = text.split('.')
  return { num: BigInt(`${whole}${fraction}`), den: 10n ** BigInt(fraction.length) }
}

describe('the payable', () => {
  it('is never negative, never above the limit left, the per-claim limit, or subtotal + tax: the smallest of them', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = claimPayable(input)
        assert.ok(r.ok, JSON.stringify(!r.ok && r.errors))
        assert.ok(Number.isSafeInteger(r.payableCents))
        assert.ok(r.payableCents >= 0)
        assert.ok(r.payableCents <= r.subtotalCents + r.taxCents)
        assert.equal(r.beforeLimitsCents, Math.max(0, r.subtotalCents + r.taxCents - r.deductibleCents))
        const { limitCents, paidOnOtherClaimsCents: paid, authorizedUnpaidOnOtherClaimsCents: unpaid } = input.liability
        const left = limitCents === null ? null : Math.max(0, limitCents - paid - unpaid)
        assert.equal(r.liability.leftCents, left)
        if (left !== null) assert.ok(r.payableCents <= left)
        if (r.perClaimLimitCents !== null) assert.ok(r.payableCents <= r.perClaimLimitCents)
        const bounds = [r.beforeLimitsCents, left ?? Infinity, r.perClaimLimitCents ?? Infinity]
        assert.equal(r.payableCents, Math.min(...bounds))
        assert.equal(r.cappedBy.length > 0, r.payableCents < r.beforeLimitsCents)
      }),
      { numRuns: 2_000 },
    )
  })

  it('counts per line no more than authorized, holds labor to the capped rate and benefits to maxAmount', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = claimPayable(input)
        assert.ok(r.ok)
        const rateCap = input.laborRateCapCents === undefined ? input.facility.laborRateCents : input.laborRateCapCents
        r.jobs.forEach((job, j) => {
          for (const line of [...job.parts, ...job.labor, ...job.sublet]) {
            assert.ok(line.countedCents <= line.authorizedCents)
            if (line.invoicedCents !== null) assert.ok(line.countedCents <= line.invoicedCents)
            if (job.status !== 'AUTHORIZED') assert.equal(line.countedCents, 0)
          }
          job.labor.forEach((l, i) => {
            const given = input.jobs[j]!.labor[i]!
            const rate = rateCap === null ? given.rateCents : Math.min(given.rateCents, rateCap)
            const h = exact(String(given.hours))
            assert.ok(l.authorizedCents <= multiplyCentsByRatio(rate, h.num, h.den))
          })
        })
        for (const type of BENEFIT_TYPES) {
          const plan = input.terms.benefits.find((b) => b.type === type)
          const counted = r.benefits.filter((b) => b.type === type).reduce((n, b) => n + b.countedCents, 0)
          if (plan !== undefined && plan.maxAmount !== null) assert.ok(counted <= toCents(new Decimal(plan.maxAmount)))
        }
        assert.ok(r.subtotalCents <= r.authorizedCents)
        const rate = exact(String(input.facility.taxRate))
        assert.equal(r.taxCents, multiplyCentsByRatio(r.taxableCents, rate.num, rate.den))
        assert.ok(r.taxCents <= r.taxableCents)
        const authorizedJobs = r.jobs.filter((j) => j.status === 'AUTHORIZED').length
        const waived = input.deductible.type === 'DISAPPEARING' && input.facilityLinkedToSellingDealer
        const each = waived ? 0 : input.deductible.amountCents
        assert.equal(
          r.deductibleCents,
          input.terms.deductibleApplies === 'PER_REPAIR' ? each * authorizedJobs : authorizedJobs > 0 ? each : 0,
        )
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('payments', () => {
  it('never add up to more than the payable; the claim is PAID exactly when they reach it', () => {
    fc.assert(
      fc.property(
        cents(10_000_000).filter((p) => p > 0),
        fc.array(cents(5_000_000), { minLength: 1, maxLength: 12 }),
        (payable, attempts) => {
          let status: ClaimStatus = 'PENDING_PAYMENT'
          let paid = 0
          for (const payment of attempts) {
            const facts: ClaimFacts = {
              openHolds: 0,
              today: '2026-03-01',
              authorization: { authorizedOn: '2026-02-03', validDays: 180 },
              hasAuthorizedLines: true,
              hasDeniedReason: false,
              payableCents: payable,
              paidCents: paid,
              paymentCents: payment,
            }
            const t = transition(status, 'RECORD_PAYMENT', facts)
            if (t.ok) {
              paid += payment
              status = t.to
            } else {
              assert.ok(
                ['claim_payment_above_payable', 'claim_payment_not_positive', 'claim_state_conflict'].includes(t.code),
              )
            }
            assert.ok(paid <= payable)
            assert.equal(status === 'PAID', paid === payable)
          }
        },
      ),
      { numRuns: 2_000 },
    )
  })
})
