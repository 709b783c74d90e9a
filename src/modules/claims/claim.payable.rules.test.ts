// What a claim pays, table by table: payloads.md §7's example to the cent, then the edge cases of
// issue 14 (a deductible above the subtotal, the limit of liability reached mid-claim, tax rounded
// once half up, per visit vs per repair, the disappearing deductible, benefit caps, the lesser of
// authorized and invoiced, the labor rate cap, the per-claim limit) and the refusals.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { BenefitTerms, ClaimTerms } from '../rating/index.ts'
import {
  claimPayable,
  limitOfLiabilityCents,
  type BenefitLine,
  type ClaimJob,
  type ClaimPayable,
  type PayableInput,
} from './claim.payable.rules.ts'

const RENTAL: BenefitTerms = { type: 'RENTAL', perDay: '40.00', maxDays: 5, perOccurrence: null, maxAmount: null }
const TOWING: BenefitTerms = { type: 'TOWING', perDay: null, maxDays: null, perOccurrence: '100.00', maxAmount: null }

// payloads.md §7: an ignition coil (1 × 118.40 authorized of 125.00 asked, taxable), 0.6 h at 145.00
// (87.00 authorized of 101.50 asked), a rental of 2 days at 40.00; tax 8.25 %; deductible 100.00.
const COIL_JOB: ClaimJob = {
  lineNumber: 1,
  status: 'AUTHORIZED',
  parts: [
    {
      partNumber: '30520-5A2-A01',
      quantity: 1,
      requestedUnitCents: 12_500,
      authorizedUnitCents: 11_840,
      taxable: true,
    },
  ],
  labor: [{ operationCode: 'IGN-COIL', hours: 0.6, rateCents: 14_500, requestedCents: 10_150, authorizedCents: 8_700 }],
  sublet: [],
}
const RENTAL_2_DAYS: BenefitLine = {
  type: 'RENTAL',
  status: 'AUTHORIZED',
  days: 2,
  dailyRateCents: 4_000,
  authorizedCents: 8_000,
}

function input(over: Partial<PayableInput> = {}, terms: Partial<PayableInput['terms']> = {}): PayableInput {
  return {
    jobs: [COIL_JOB],
    benefits: [RENTAL_2_DAYS],
    facility: { laborRateCents: 14_500, taxRate: 0.0825 },
    deductible: { amountCents: 10_000, type: 'STANDARD' },
    facilityLinkedToSellingDealer: false,
    liability: { limitCents: null, paidOnOtherClaimsCents: 0, authorizedUnpaidOnOtherClaimsCents: 0 },
    ...over,
    terms: { deductibleApplies: 'PER_VISIT', perClaimLimit: null, benefits: [RENTAL, TOWING], ...terms },
  }
}

function pay(over: Partial<PayableInput> = {}, terms: Partial<PayableInput['terms']> = {}): ClaimPayable {
  const r = claimPayable(input(over, terms))
  if (!r.ok) assert.fail(JSON.stringify(r.errors))
  // Whatever the case: the payable is what is left after the deductible, within every cap.
  assert.ok(r.payableCents >= 0)
  assert.ok(r.payableCents <= r.subtotalCents + r.taxCents)
  assert.equal(r.beforeLimitsCents, Math.max(0, r.subtotalCents + r.taxCents - r.deductibleCents))
  if (r.liability.leftCents !== null) assert.ok(r.payableCents <= r.liability.leftCents)
  if (r.perClaimLimitCents !== null) assert.ok(r.payableCents <= r.perClaimLimitCents)
  return r
}

const job = (status: ClaimJob['status'], cents: number, taxable = false): ClaimJob => ({
  status,
  parts: [{ quantity: 1, requestedUnitCents: cents, authorizedUnitCents: null, taxable }],
  labor: [],
  sublet: [],
})

describe("payloads.md §7's example: 285.40 + 9.77 − 100.00 = 195.17", () => {
  const r = pay()
  it('the totals', () => {
    assert.equal(r.requestedCents, 30_650)
    assert.equal(r.authorizedCents, 28_540)
    assert.equal(r.subtotalCents, 28_540)
    assert.equal(r.taxableCents, 11_840)
    assert.equal(r.taxCents, 977)
    assert.equal(r.deductibleCents, 10_000)
    assert.equal(r.beforeLimitsCents, 19_517)
    assert.equal(r.payableCents, 19_517)
    assert.deepEqual(r.cappedBy, [])
    assert.equal(r.deductibleWaived, null)
    assert.equal(r.deductibleAboveAmount, false)
  })
  it("the job's requested and authorized totals (226.50 and 205.40)", () => {
    const j = r.jobs[0]!
    assert.equal(j.requestedCents, 22_650)
    assert.equal(j.authorizedCents, 20_540)
    assert.equal(j.countedCents, 20_540)
    assert.equal(j.labor[0]!.allowedRateCents, 14_500)
    assert.equal(j.labor[0]!.rateCapped, false)
  })
  it('the rental (2 days × 40.00)', () => {
    assert.deepEqual(r.benefits[0], {
      type: 'RENTAL',
      status: 'AUTHORIZED',
      requestedCents: 8_000,
      authorizedCents: 8_000,
      invoicedCents: null,
      countedCents: 8_000,
      basis: 'AUTHORIZED',
      cappedBy: [],
    })
  })
})

describe('the deductible', () => {
  it('above the subtotal: the payable is 0, never negative', () => {
    const r = pay({
      jobs: [job('AUTHORIZED', 4_000)],
      benefits: [],
      deductible: { amountCents: 10_000, type: 'STANDARD' },
    })
    assert.equal(r.subtotalCents, 4_000)
    assert.equal(r.payableCents, 0)
    assert.equal(r.deductibleAboveAmount, true)
  })
  it('exactly the subtotal plus tax: 0', () => {
    const r = pay({
      jobs: [job('AUTHORIZED', 10_000, true)],
      benefits: [],
      facility: { laborRateCents: null, taxRate: '0.05' },
    })
    assert.equal(r.subtotalCents + r.taxCents, 10_500)
    const s = pay({
      jobs: [job('AUTHORIZED', 10_000, true)],
      benefits: [],
      facility: { laborRateCents: null, taxRate: '0.05' },
      deductible: { amountCents: 10_500, type: 'STANDARD' },
    })
    assert.equal(s.payableCents, 0)
    assert.equal(s.deductibleAboveAmount, true)
  })

  // Three jobs: two authorized (300.00, 200.00), one denied (150.00); a deductible of 50.00.
  const jobs = [job('AUTHORIZED', 30_000), job('AUTHORIZED', 20_000), job('DENIED', 15_000)]
  const rows: Array<[string, ClaimTerms['deductibleApplies'], number, number[]]> = [
    ['PER_VISIT: once a visit', 'PER_VISIT', 5_000, [0, 0, 0]],
    ['PER_REPAIR: once per authorized job', 'PER_REPAIR', 10_000, [5_000, 5_000, 0]],
  ]
  for (const [name, applies, deductible, perJob] of rows)
    it(name, () => {
      const r = pay(
        { jobs, benefits: [], deductible: { amountCents: 5_000, type: 'STANDARD' } },
        { deductibleApplies: applies },
      )
      assert.equal(r.deductibleApplies, applies)
      assert.equal(r.deductibleCents, deductible)
      assert.deepEqual(
        r.jobs.map((j) => j.deductibleCents),
        perJob,
      )
      assert.equal(r.subtotalCents, 50_000)
      assert.equal(r.payableCents, 50_000 - deductible)
    })

  it('a claim of benefits only takes none', () => {
    const r = pay({ jobs: [job('DENIED', 30_000)], benefits: [RENTAL_2_DAYS] }, { deductibleApplies: 'PER_VISIT' })
    assert.equal(r.deductibleCents, 0)
    assert.equal(r.payableCents, 8_000)
  })

  const disappearing: Array<[string, string, boolean, number, 'DISAPPEARING' | null]> = [
    ['DISAPPEARING at a facility linked to the selling dealer: none', 'DISAPPEARING', true, 0, 'DISAPPEARING'],
    ['DISAPPEARING elsewhere: taken', 'DISAPPEARING', false, 10_000, null],
    ['STANDARD at the selling dealer: taken', 'STANDARD', true, 10_000, null],
  ]
  for (const [name, type, linked, deductible, waived] of disappearing)
    it(name, () => {
      const r = pay({ deductible: { amountCents: 10_000, type }, facilityLinkedToSellingDealer: linked })
      assert.equal(r.deductibleCents, deductible)
      assert.equal(r.deductibleWaived, waived)
      assert.equal(r.payableCents, 29_517 - deductible)
    })
  it('a disappearing deductible disappears per repair too', () => {
    const r = pay(
      {
        jobs,
        benefits: [],
        deductible: { amountCents: 5_000, type: 'DISAPPEARING' },
        facilityLinkedToSellingDealer: true,
      },
      { deductibleApplies: 'PER_REPAIR' },
    )
    assert.equal(r.deductibleCents, 0)
    assert.deepEqual(
      r.jobs.map((j) => j.deductibleCents),
      [0, 0, 0],
    )
  })
})

describe('the limit of liability and the per-claim limit', () => {
  // The example's 195.17 before limits.
  const rows: Array<[string, PayableInput['liability'], string | null, number, number | null, string[]]> = [
    [
      'no limit',
      { limitCents: null, paidOnOtherClaimsCents: 0, authorizedUnpaidOnOtherClaimsCents: 0 },
      null,
      19_517,
      null,
      [],
    ],
    [
      'plenty left',
      { limitCents: 1_500_000, paidOnOtherClaimsCents: 300_000, authorizedUnpaidOnOtherClaimsCents: 0 },
      null,
      19_517,
      1_200_000,
      [],
    ],
    [
      'reached mid-claim: 1,000.00 − 700.00 paid − 150.00 authorized unpaid leaves 150.00',
      { limitCents: 100_000, paidOnOtherClaimsCents: 70_000, authorizedUnpaidOnOtherClaimsCents: 15_000 },
      null,
      15_000,
      15_000,
      ['LIMIT_OF_LIABILITY'],
    ],
    [
      'exactly what is left: not capped',
      { limitCents: 100_000, paidOnOtherClaimsCents: 80_483, authorizedUnpaidOnOtherClaimsCents: 0 },
      null,
      19_517,
      19_517,
      [],
    ],
    [
      'already used up (more than the limit): 0',
      { limitCents: 100_000, paidOnOtherClaimsCents: 90_000, authorizedUnpaidOnOtherClaimsCents: 20_000 },
      null,
      0,
      0,
      ['LIMIT_OF_LIABILITY'],
    ],
    [
      'the per-claim limit (a tire & wheel per-occurrence cap) binds',
      { limitCents: null, paidOnOtherClaimsCents: 0, authorizedUnpaidOnOtherClaimsCents: 0 },
      '150.00',
      15_000,
      null,
      ['PER_CLAIM_LIMIT'],
    ],
    [
      'both bind at the same amount: both named',
      { limitCents: 100_000, paidOnOtherClaimsCents: 85_000, authorizedUnpaidOnOtherClaimsCents: 0 },
      '150.00',
      15_000,
      15_000,
      ['LIMIT_OF_LIABILITY', 'PER_CLAIM_LIMIT'],
    ],
    [
      'the smaller binds',
      { limitCents: 100_000, paidOnOtherClaimsCents: 90_000, authorizedUnpaidOnOtherClaimsCents: 0 },
      '150.00',
      10_000,
      10_000,
      ['LIMIT_OF_LIABILITY'],
    ],
  ]
  for (const [name, liability, perClaim, payable, left, cappedBy] of rows)
    it(name, () => {
      const r = pay({ liability }, { perClaimLimit: perClaim })
      assert.equal(r.beforeLimitsCents, 19_517)
      assert.equal(r.payableCents, payable)
      assert.equal(r.liability.leftCents, left)
      assert.deepEqual(r.cappedBy, cappedBy)
    })
})

describe('tax: once per claim, on taxable parts counted, rounded half up', () => {
  const parts = (cents: number[], taxable = true): ClaimJob => ({
    status: 'AUTHORIZED',
    parts: cents.map((c) => ({ quantity: 1, requestedUnitCents: c, authorizedUnitCents: null, taxable })),
    labor: [],
    sublet: [],
  })
  const rows: Array<[string, ClaimJob[], string | number, number]> = [
    ['118.40 × 8.25 % = 9.768 → 9.77', [parts([11_840])], 0.0825, 977],
    ['10.00 × 8.25 % = 0.825 → 0.83 (half up)', [parts([1_000])], '0.0825', 83],
    ['1.00 × 6.5 % = 0.065 → 0.07 (half up)', [parts([100])], '0.065', 7],
    ['1.00 × 6.49 % = 0.0649 → 0.06', [parts([100])], '0.0649', 6],
    ['two lines of 0.10 at 5 %: 0.01 on the claim (per line it would be 0.02)', [parts([10, 10])], '0.05', 1],
    [
      'three jobs taxed together: 3 × 0.30 at 5 % = 0.045 → 0.05 (per job 0.06)',
      [parts([30]), parts([30]), parts([30])],
      0.05,
      5,
    ],
    ['untaxable parts: no tax', [parts([11_840], false)], 0.0825, 0],
    ['a zero rate', [parts([11_840])], 0, 0],
  ]
  for (const [name, jobs, taxRate, tax] of rows)
    it(name, () => {
      const r = pay({
        jobs,
        benefits: [],
        deductible: { amountCents: 0, type: 'STANDARD' },
        facility: { laborRateCents: null, taxRate },
      })
      assert.equal(r.taxCents, tax)
    })
  it('labor, sublet and benefits are not taxed; parts of a job not authorized are not either', () => {
    const r = pay({
      jobs: [
        { ...COIL_JOB, sublet: [{ requestedCents: 5_000, authorizedCents: null }] },
        { ...COIL_JOB, status: 'PENDING' },
      ],
    })
    assert.equal(r.taxableCents, 11_840)
    assert.equal(r.taxCents, 977)
  })
})

describe('per line, the lesser of authorized and invoiced', () => {
  it('an invoice below the authorization pays the invoice; above it, the authorization', () => {
    const r = pay({
      jobs: [
        {
          ...COIL_JOB,
          parts: [{ ...COIL_JOB.parts[0]!, invoicedCents: 11_000 }],
          labor: [{ ...COIL_JOB.labor[0]!, invoicedCents: 10_150 }],
          sublet: [{ requestedCents: 6_000, authorizedCents: 5_000, invoicedCents: 5_000 }],
        },
      ],
      benefits: [{ ...RENTAL_2_DAYS, invoicedCents: 7_500 }],
    })
    const j = r.jobs[0]!
    assert.deepEqual(
      [j.parts[0]!.countedCents, j.parts[0]!.basis, j.labor[0]!.countedCents, j.labor[0]!.basis],
      [11_000, 'INVOICED', 8_700, 'AUTHORIZED'],
    )
    assert.deepEqual([j.sublet[0]!.countedCents, j.sublet[0]!.basis], [5_000, 'AUTHORIZED'])
    assert.equal(r.benefits[0]!.countedCents, 7_500)
    assert.equal(r.authorizedCents, 28_540 + 5_000)
    assert.equal(r.subtotalCents, 11_000 + 8_700 + 5_000 + 7_500)
    // The tax reads the invoiced part: 110.00 × 8.25 % = 9.075 → 9.08.
    assert.equal(r.taxableCents, 11_000)
    assert.equal(r.taxCents, 908)
    assert.equal(r.payableCents, 32_200 + 908 - 10_000)
  })
  it("docs/claims.md's example: the coil invoiced at 110.00 gives 277.00 + 9.08 − 100.00 = 186.08", () => {
    const r = pay({ jobs: [{ ...COIL_JOB, parts: [{ ...COIL_JOB.parts[0]!, invoicedCents: 11_000 }] }] })
    assert.deepEqual([r.subtotalCents, r.taxCents, r.payableCents], [27_700, 908, 18_608])
  })
  it('no invoice yet: the authorization', () => {
    assert.equal(pay().jobs[0]!.parts[0]!.basis, 'AUTHORIZED')
  })
})

describe('lines', () => {
  it('only AUTHORIZED jobs count; requested sums them all', () => {
    const r = pay({ jobs: [job('AUTHORIZED', 10_000), job('PENDING', 20_000), job('DENIED', 40_000)], benefits: [] })
    assert.equal(r.requestedCents, 70_000)
    assert.equal(r.authorizedCents, 10_000)
    assert.equal(r.subtotalCents, 10_000)
    assert.deepEqual(
      r.jobs.map((j) => [j.authorizedCents, j.countedCents]),
      [
        [10_000, 10_000],
        [0, 0],
        [0, 0],
      ],
    )
  })
  it('a part authorized as asked (null), reduced, or denied (0); a decimal quantity rounds once', () => {
    const r = pay({
      benefits: [],
      jobs: [
        {
          status: 'AUTHORIZED',
          parts: [
            { quantity: '4.5', requestedUnitCents: 799, authorizedUnitCents: null, taxable: false },
            { quantity: 2, requestedUnitCents: 5_000, authorizedUnitCents: 4_000, taxable: false },
            { quantity: 1, requestedUnitCents: 9_000, authorizedUnitCents: 0, taxable: false },
          ],
          labor: [],
          sublet: [],
        },
      ],
    })
    assert.deepEqual(
      r.jobs[0]!.parts.map((p) => [p.requestedCents, p.authorizedCents]),
      [
        [3_596, 3_596], // 4.5 × 7.99 = 35.955 → 35.96
        [10_000, 8_000],
        [9_000, 0],
      ],
    )
  })
  const labor: Array<[string, Partial<PayableInput>, number | null, number, number, boolean]> = [
    // [name, over, authorized given, allowed rate, authorized, rateCapped]: 1.5 h asked at 160.00.
    ['the facility rate (145.00) caps the rate by default', {}, null, 14_500, 21_750, false],
    ['an authorization above hours × the capped rate is held to it', {}, 24_000, 14_500, 21_750, true],
    ['an authorization below it stands', {}, 20_000, 14_500, 20_000, false],
    ['another cap given', { laborRateCapCents: 17_000 }, null, 16_000, 24_000, false],
    ['no cap', { laborRateCapCents: null }, 24_000, 16_000, 24_000, false],
    [
      'no facility rate on file: no default cap',
      { facility: { laborRateCents: null, taxRate: 0 } },
      null,
      16_000,
      24_000,
      false,
    ],
  ]
  for (const [name, over, given, rate, authorized, capped] of labor)
    it(`labor: ${name}`, () => {
      const r = pay({
        ...over,
        benefits: [],
        jobs: [
          {
            status: 'AUTHORIZED',
            parts: [],
            sublet: [],
            labor: [{ hours: '1.5', rateCents: 16_000, authorizedCents: given }],
          },
        ],
      })
      const l = r.jobs[0]!.labor[0]!
      assert.equal(l.requestedCents, 24_000)
      assert.equal(l.allowedRateCents, rate)
      assert.equal(l.authorizedCents, authorized)
      assert.equal(l.rateCapped, capped)
    })
})

describe('benefits and their caps', () => {
  const benefit = (b: Partial<BenefitLine> & Pick<BenefitLine, 'type'>): BenefitLine => ({
    status: 'AUTHORIZED',
    authorizedCents: null,
    ...b,
  })
  const rows: Array<[string, BenefitTerms[], BenefitLine[], number[], string[][]]> = [
    [
      'rental: 7 days at 50.00, plan 40.00 a day for 5 days → 200.00',
      [RENTAL],
      [benefit({ type: 'RENTAL', days: 7, dailyRateCents: 5_000 })],
      [20_000],
      [['PER_DAY', 'MAX_DAYS']],
    ],
    [
      'rental within the caps: as asked',
      [RENTAL],
      [benefit({ type: 'RENTAL', days: 3, dailyRateCents: 3_500 })],
      [10_500],
      [[]],
    ],
    [
      'rental with a maxAmount of 150.00',
      [{ ...RENTAL, maxAmount: '150.00' }],
      [benefit({ type: 'RENTAL', days: 5, dailyRateCents: 4_000 })],
      [15_000],
      [['MAX_AMOUNT']],
    ],
    [
      'towing 180.00, plan 100.00 an occurrence',
      [TOWING],
      [benefit({ type: 'TOWING', requestedCents: 18_000 })],
      [10_000],
      [['PER_OCCURRENCE']],
    ],
    [
      'two tows, 100.00 each, at most 150.00 together: 100.00 + 50.00',
      [{ ...TOWING, maxAmount: '150.00' }],
      [benefit({ type: 'TOWING', requestedCents: 12_000 }), benefit({ type: 'TOWING', requestedCents: 9_000 })],
      [10_000, 5_000],
      [['PER_OCCURRENCE'], ['MAX_AMOUNT']],
    ],
    [
      'trip interruption: per day and per occurrence',
      [{ type: 'TRIP_INTERRUPTION', perDay: '100.00', maxDays: 3, perOccurrence: '250.00', maxAmount: null }],
      [benefit({ type: 'TRIP_INTERRUPTION', days: 3, dailyRateCents: 9_000 })],
      [25_000],
      [['PER_OCCURRENCE']],
    ],
    [
      'an authorization above the caps is held to them',
      [TOWING],
      [benefit({ type: 'TOWING', requestedCents: 18_000, authorizedCents: 15_000 })],
      [10_000],
      [['PER_OCCURRENCE']],
    ],
    [
      'a pending or denied benefit pays nothing and uses none of the maxAmount',
      [{ ...TOWING, maxAmount: '100.00' }],
      [
        benefit({ type: 'TOWING', requestedCents: 8_000, status: 'PENDING' }),
        benefit({ type: 'TOWING', requestedCents: 8_000, status: 'DENIED' }),
        benefit({ type: 'TOWING', requestedCents: 8_000 }),
      ],
      [0, 0, 8_000],
      [[], [], []],
    ],
  ]
  for (const [name, terms, benefits, counted, capped] of rows)
    it(name, () => {
      const r = pay({ jobs: [], benefits }, { benefits: terms })
      assert.deepEqual(
        r.benefits.map((b) => b.countedCents),
        counted,
      )
      assert.deepEqual(
        r.benefits.map((b) => b.cappedBy),
        capped,
      )
      assert.equal(
        r.subtotalCents,
        counted.reduce((a, b) => a + b, 0),
      )
      assert.equal(r.payableCents, r.subtotalCents)
    })
  it("maxAmount reads what was counted: an invoice below an earlier line's authorization leaves room for the next", () => {
    const r = pay(
      {
        jobs: [],
        benefits: [
          benefit({ type: 'TOWING', requestedCents: 8_000, invoicedCents: 5_000 }),
          benefit({ type: 'TOWING', requestedCents: 6_000 }),
        ],
      },
      { benefits: [{ ...TOWING, maxAmount: '100.00' }] },
    )
    assert.deepEqual(
      r.benefits.map((b) => [b.authorizedCents, b.countedCents]),
      [
        [8_000, 5_000],
        [2_000, 5_000],
      ],
    )
    assert.equal(r.authorizedCents, 10_000)
    assert.equal(r.subtotalCents, 10_000)
  })
})

describe('refusals: bad input a user can send', () => {
  const refused = (over: Partial<PayableInput>, terms: Partial<PayableInput['terms']> = {}) => {
    const r = claimPayable(input(over, terms))
    assert.ok(!r.ok, 'should be refused')
    return r.errors.map((e) => `${e.field} ${e.code}`)
  }
  it('lists every problem, each naming its field', () => {
    const errors = refused({
      jobs: [
        {
          status: 'AUTHORIZED',
          parts: [
            { quantity: -1, requestedUnitCents: 100, authorizedUnitCents: null, taxable: true },
            { quantity: '1.234', requestedUnitCents: -5, authorizedUnitCents: 1.5, taxable: true },
            { quantity: 0, requestedUnitCents: 100, authorizedUnitCents: null, invoicedCents: -1, taxable: true },
          ],
          labor: [{ hours: '0', rateCents: 14_500, authorizedCents: null }],
          sublet: [{ requestedCents: -100, authorizedCents: null }],
        },
      ],
      benefits: [{ type: 'ROADSIDE', status: 'AUTHORIZED', requestedCents: 5_000, authorizedCents: null, days: 1.5 }],
      facility: { laborRateCents: 14_500, taxRate: '8.25' },
    })
    assert.deepEqual(errors, [
      'jobs[0].parts[0].quantity out_of_range',
      'jobs[0].parts[1].quantity invalid_format',
      'jobs[0].parts[1].requestedUnitPrice out_of_range',
      'jobs[0].parts[1].authorizedUnitPrice out_of_range',
      'jobs[0].parts[2].quantity out_of_range',
      'jobs[0].parts[2].invoicedAmount out_of_range',
      'jobs[0].labor[0].hours out_of_range',
      'jobs[0].sublet[0].requestedAmount out_of_range',
      'benefits[0].type not_covered',
      'benefits[0].days out_of_range',
      'repairFacility.taxRate invalid_format',
    ])
  })
  it("a caller's mistake throws", () => {
    assert.throws(() => claimPayable(input({ deductible: { amountCents: -1, type: 'STANDARD' } })), RangeError)
    assert.throws(
      () =>
        claimPayable(
          input({ liability: { limitCents: 10.5, paidOnOtherClaimsCents: 0, authorizedUnpaidOnOtherClaimsCents: 0 } }),
        ),
      RangeError,
    )
  })
})

describe('the limit of liability of a plan', () => {
  const prices = { contractPriceCents: 249_500, vehiclePurchasePriceCents: 2_850_000 }
  const rows: Array<[ClaimTerms['limitOfLiability'], number | null]> = [
    [{ basis: 'NONE', amount: null }, null],
    [{ basis: 'AMOUNT', amount: '15000.00' }, 1_500_000],
    [{ basis: 'CONTRACT_PRICE', amount: null }, 249_500],
    [{ basis: 'VEHICLE_PURCHASE_PRICE', amount: null }, 2_850_000],
  ]
  for (const [limit, cents] of rows)
    it(`${limit.basis}: ${cents}`, () => assert.deepEqual(limitOfLiabilityCents(limit, prices), { ok: true, cents }))
  it('the vehicle purchase price unknown: refused, not read as no limit', () => {
    const r = limitOfLiabilityCents(
      { basis: 'VEHICLE_PURCHASE_PRICE', amount: null },
      { ...prices, vehiclePurchasePriceCents: null },
    )
    assert.ok(!r.ok)
    assert.equal(r.errors[0]!.code, 'required')
  })
  it('AMOUNT without its amount is a mistake of the terms', () => {
    assert.throws(() => limitOfLiabilityCents({ basis: 'AMOUNT', amount: null }, prices), RangeError)
  })
})
