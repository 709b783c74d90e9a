import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addMonths, type MonthCounting } from '../../platform/calendar.ts'
import {
  earnedFraction,
  earnedToDate,
  earningsAsOf,
  earningsAtCancel,
  earningsDue,
  earningsSchedule,
  fractionFactor,
  type EarningsDates,
  type EarningsTerms,
} from './earnings.rules.ts'

const terms = (
  method: EarningsTerms['method'],
  extra: { cumulative?: string[]; monthCounting?: MonthCounting } = {},
): EarningsTerms => ({
  method,
  curve: extra.cumulative ? { code: 'C', name: 'curve', cumulative: extra.cumulative } : null,
  monthCounting: extra.monthCounting ?? null,
})
const term = (effectiveDate: string, termMonths: number): EarningsDates => ({
  effectiveDate,
  expirationDate: addMonths(effectiveDate, termMonths),
  termMonths,
})
/** Equal as ratios. */
const sameRatio = (a: { num: number; den: number }, num: number, den: number) =>
  assert.equal(a.num * den, num * a.den, `${a.num}/${a.den} is not ${num}/${den}`)

// Decision 0012's scenario: ADM 175.00 earned by days over 36 months from 2025-03-14 (D = 1,096).
const adm = term('2025-03-14', 36)

describe('earnedFraction: the methods of money.md', () => {
  it('PRO_RATA_DAYS: d/D with D = 1,096 for 36 months from 2025-03-14', () => {
    assert.deepEqual(earnedFraction(terms('PRO_RATA_DAYS'), { ...adm, asOf: '2025-03-31' }), { num: 17, den: 1096 })
    assert.deepEqual(earnedFraction(terms('PRO_RATA_DAYS'), { ...adm, asOf: '2025-09-30' }), { num: 200, den: 1096 })
  })
  it('the 72-month reverse Rule of 78 earns 156, 600, 1332, 2352, 3660 of 5256 at 12 … 60 months', () => {
    const dates = term('2025-03-14', 72)
    const expected = [156, 600, 1332, 2352, 3660]
    expected.forEach((num, i) => {
      const asOf = addMonths(dates.effectiveDate, 12 * (i + 1))
      assert.deepEqual(earnedFraction(terms('REVERSE_RULE_OF_78'), { ...dates, asOf }), { num, den: 5256 })
    })
    // The published 3 / 11 / 25 / 45 / 70 % table, rounded.
    assert.deepEqual(
      expected.map((num) => Math.round((100 * num) / 5256)),
      [3, 11, 25, 45, 70],
    )
  })
  it('RULE_OF_78 is front-loaded: 12/78, 23/78, 33/78 … of a 12-month term, and 1 − U of the cancel formula', () => {
    const dates = term('2025-01-15', 12)
    for (let k = 0; k <= 12; k++) {
      const asOf = addMonths(dates.effectiveDate, k)
      const f = earnedFraction(terms('RULE_OF_78'), { ...dates, asOf })
      assert.equal(f.den, 156)
      // Earned k(2n − k + 1) = n(n + 1) − (n − k)(n − k + 1): exactly what a Rule of 78 cancel does not refund.
      assert.equal(f.num, 156 - (12 - k) * (13 - k))
      // At least pro rata by months, more in between.
      assert.ok(f.num * 12 >= k * 156)
      if (k > 0 && k < 12) assert.ok(f.num * 12 > k * 156)
    }
    sameRatio(earnedFraction(terms('RULE_OF_78'), { ...dates, asOf: '2025-02-15' }), 12, 78)
    sameRatio(earnedFraction(terms('RULE_OF_78'), { ...dates, asOf: '2025-03-15' }), 23, 78)
    sameRatio(earnedFraction(terms('RULE_OF_78'), { ...dates, asOf: '2025-04-15' }), 33, 78)
  })
  it('REVERSE_RULE_OF_78 is back-loaded: never more than pro rata by months', () => {
    const dates = term('2025-01-15', 24)
    for (let k = 0; k <= 24; k++) {
      const f = earnedFraction(terms('REVERSE_RULE_OF_78'), { ...dates, asOf: addMonths(dates.effectiveDate, k) })
      assert.ok(f.num * 24 <= k * f.den)
    }
  })
  it('PRO_RATA_MONTHS from a month end counts anniversaries from E, never chained', () => {
    const dates = term('2025-01-31', 3)
    const cases: Array<[string, number]> = [
      ['2025-01-31', 0],
      ['2025-02-27', 0],
      ['2025-02-28', 1],
      ['2025-03-30', 1],
      ['2025-03-31', 2],
      ['2025-04-29', 2],
      ['2025-04-30', 3],
    ]
    for (const [asOf, k] of cases)
      assert.deepEqual(earnedFraction(terms('PRO_RATA_MONTHS'), { ...dates, asOf }), { num: k, den: 3 }, asOf)
  })
  it('month counting: COMPLETED (default), STARTED, NEAREST_15', () => {
    const dates = term('2025-01-15', 12)
    const cases: Array<[string, MonthCounting | undefined, number]> = [
      ['2025-02-15', undefined, 1],
      ['2025-02-15', 'STARTED', 1],
      ['2025-02-15', 'NEAREST_15', 1],
      ['2025-02-16', undefined, 1],
      ['2025-02-16', 'COMPLETED', 1],
      ['2025-02-16', 'STARTED', 2],
      ['2025-02-16', 'NEAREST_15', 1],
      ['2025-03-01', 'NEAREST_15', 1],
      ['2025-03-02', 'NEAREST_15', 2],
      ['2025-01-16', 'STARTED', 1],
      ['2025-01-15', 'STARTED', 0],
      // The last month begun: never more than n.
      ['2026-01-14', 'STARTED', 12],
      ['2026-01-14', 'COMPLETED', 11],
    ]
    for (const [asOf, monthCounting, k] of cases) {
      const f = earnedFraction(terms('PRO_RATA_MONTHS', monthCounting ? { monthCounting } : {}), { ...dates, asOf })
      assert.deepEqual(f, { num: k, den: 12 }, `${asOf} ${monthCounting ?? 'default'}`)
    }
  })
  it('IMMEDIATE: 0 before E, 1 from E', () => {
    const dates = term('2025-03-14', 36)
    assert.deepEqual(earnedFraction(terms('IMMEDIATE'), { ...dates, asOf: '2025-03-13' }), { num: 0, den: 1 })
    assert.deepEqual(earnedFraction(terms('IMMEDIATE'), { ...dates, asOf: '2025-03-14' }), { num: 1, den: 1 })
    assert.deepEqual(earnedFraction(terms('IMMEDIATE'), { ...dates, asOf: '2030-01-01' }), { num: 1, den: 1 })
  })
  it('CURVE: month k earns cumulative[k − 1] over 10^6, the term’s end earns 1', () => {
    const cumulative = ['0.1', '0.25', '0.4', '0.5', '0.6', '0.7', '0.8', '0.85', '0.9', '0.95', '0.99', '1']
    const dates = term('2025-01-15', 12)
    const at = (asOf: string) => earnedFraction(terms('CURVE', { cumulative }), { ...dates, asOf })
    assert.deepEqual(at('2025-01-15'), { num: 0, den: 1_000_000 })
    assert.deepEqual(at('2025-02-14'), { num: 0, den: 1_000_000 })
    assert.deepEqual(at('2025-02-15'), { num: 100_000, den: 1_000_000 })
    assert.deepEqual(at('2025-12-15'), { num: 990_000, den: 1_000_000 })
    assert.deepEqual(at('2026-01-15'), { num: 1_000_000, den: 1_000_000 })
    // Six places, exactly.
    const sixth = earnedFraction(terms('CURVE', { cumulative: ['0.166667', '1'] }), {
      ...term('2025-01-15', 2),
      asOf: '2025-02-15',
    })
    assert.deepEqual(sixth, { num: 166_667, den: 1_000_000 })
  })
  it('CURVE shorter than the term: fully earned at month L, held there', () => {
    const cumulative = ['0.5', '0.75', '1']
    const dates = term('2025-01-15', 6)
    const nums = [0, 1, 2, 3, 4, 5, 6].map(
      (k) => earnedFraction(terms('CURVE', { cumulative }), { ...dates, asOf: addMonths('2025-01-15', k) }).num,
    )
    assert.deepEqual(nums, [0, 500_000, 750_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000])
  })
  it('CURVE longer than the term: the rest is earned at the term’s end', () => {
    const cumulative = ['0.2', '0.4', '0.6', '0.8', '1']
    const dates = term('2025-01-15', 3)
    const nums = [0, 1, 2, 3].map(
      (k) => earnedFraction(terms('CURVE', { cumulative }), { ...dates, asOf: addMonths('2025-01-15', k) }).num,
    )
    assert.deepEqual(nums, [0, 200_000, 400_000, 1_000_000])
    // Month n earns 1 even when the stored expiration is a little later.
    const later = { ...dates, expirationDate: addMonths('2025-01-15', 3).replace(/15$/, '17') }
    assert.deepEqual(earnedFraction(terms('CURVE', { cumulative }), { ...later, asOf: '2025-04-15' }), {
      num: 1_000_000,
      den: 1_000_000,
    })
  })
  it('every method: 0 before E, 1 on and after X, with the method’s own denominator', () => {
    const dates = term('2025-03-14', 36)
    const all: EarningsTerms[] = [
      terms('PRO_RATA_DAYS'),
      terms('PRO_RATA_MONTHS'),
      terms('RULE_OF_78'),
      terms('REVERSE_RULE_OF_78'),
      terms('IMMEDIATE'),
      terms('CURVE', { cumulative: ['0.5', '1'] }),
    ]
    const dens = [1096, 36, 1332, 1332, 1, 1_000_000]
    all.forEach((t, i) => {
      const den = dens[i]!
      assert.deepEqual(earnedFraction(t, { ...dates, asOf: '2025-03-13' }), { num: 0, den }, t.method)
      assert.deepEqual(earnedFraction(t, { ...dates, asOf: '2028-03-14' }), { num: den, den }, t.method)
      assert.deepEqual(earnedFraction(t, { ...dates, asOf: '2031-01-01' }), { num: den, den }, t.method)
    })
  })
  it('a stored expiration before the last anniversary is fully earned at it', () => {
    const dates = { effectiveDate: '2025-03-14', expirationDate: '2028-03-13', termMonths: 36 }
    assert.deepEqual(earnedFraction(terms('PRO_RATA_MONTHS'), { ...dates, asOf: '2028-03-12' }), { num: 35, den: 36 })
    assert.deepEqual(earnedFraction(terms('PRO_RATA_MONTHS'), { ...dates, asOf: '2028-03-13' }), { num: 36, den: 36 })
  })
  it('leap years: D counts February 29th', () => {
    const fromLeapDay = term('2024-02-29', 12)
    assert.equal(fromLeapDay.expirationDate, '2025-02-28')
    assert.deepEqual(earnedFraction(terms('PRO_RATA_DAYS'), { ...fromLeapDay, asOf: '2024-03-31' }), {
      num: 31,
      den: 365,
    })
    const overLeapDay = term('2023-03-01', 12)
    assert.deepEqual(earnedFraction(terms('PRO_RATA_DAYS'), { ...overLeapDay, asOf: '2024-02-29' }), {
      num: 365,
      den: 366,
    })
    // From a leap day the anniversaries are the 28th, or the 29th in a leap year.
    const months = term('2024-02-29', 48)
    assert.equal(earnedFraction(terms('PRO_RATA_MONTHS'), { ...months, asOf: '2025-02-27' }).num, 11)
    assert.equal(earnedFraction(terms('PRO_RATA_MONTHS'), { ...months, asOf: '2025-02-28' }).num, 12)
    assert.equal(earnedFraction(terms('PRO_RATA_MONTHS'), { ...months, asOf: '2028-02-28' }).num, 47)
    assert.equal(earnedFraction(terms('PRO_RATA_MONTHS'), { ...months, asOf: '2028-02-29' }).num, 48)
  })
  it('a six-place display factor, half up', () => {
    assert.equal(fractionFactor({ num: 200, den: 1096 }), '0.182482')
    assert.equal(fractionFactor({ num: 1, den: 3 }), '0.333333')
    assert.equal(fractionFactor({ num: 2, den: 3 }), '0.666667')
    assert.equal(fractionFactor({ num: 1, den: 1 }), '1.000000')
  })
})

describe('earnedFraction: refusals', () => {
  const dates = term('2025-03-14', 36)
  const cases: Array<[string, () => unknown, RegExp]> = [
    [
      'an as-of date that is no date',
      () => earnedFraction(terms('IMMEDIATE'), { ...dates, asOf: '2025-02-30' }),
      /as-of date/,
    ],
    [
      'an expiration not after the effective date',
      () =>
        earnedFraction(terms('PRO_RATA_DAYS'), { ...dates, expirationDate: dates.effectiveDate, asOf: '2025-04-01' }),
      /not after/,
    ],
    [
      'a term of no months',
      () => earnedFraction(terms('PRO_RATA_MONTHS'), { ...dates, termMonths: 0, asOf: '2025-04-01' }),
      /term months/,
    ],
    ['CURVE without a curve', () => earnedFraction(terms('CURVE'), { ...dates, asOf: '2025-05-01' }), /no curve/],
    [
      'a curve point of seven places',
      () =>
        earnedFraction(terms('CURVE', { cumulative: ['0.1234567', '1'] }), {
          ...term('2025-03-14', 2),
          asOf: '2025-04-14',
        }),
      /curve point 1/,
    ],
    [
      'a curve point above 1',
      () =>
        earnedFraction(terms('CURVE', { cumulative: ['1.5', '1'] }), { ...term('2025-03-14', 2), asOf: '2025-04-14' }),
      /more than 1/,
    ],
    ['a negative amount', () => earnedToDate(-1, terms('IMMEDIATE'), dates, '2025-04-01'), /amount -1/],
    ['an amount in part cents', () => earnedToDate(1.5, terms('IMMEDIATE'), dates, '2025-04-01'), /amount 1.5/],
    [
      'a refunded share above the line',
      () => earningsAtCancel(100, terms('IMMEDIATE'), dates, '2025-04-01', 101, 0),
      /refunded share 101/,
    ],
    [
      'a negative amount already earned',
      () => earningsDue(100, terms('IMMEDIATE'), dates, '2025-04-01', -1),
      /already earned/,
    ],
  ]
  for (const [name, call, message] of cases) it(name, () => assert.throws(call, message))
})

describe('earnedToDate: rounded once, half up', () => {
  it('the administrator fee of decision 0012, earned by days, at month ends', () => {
    const expected: Array<[string, number]> = [
      ['2025-03-13', 0],
      ['2025-03-14', 0],
      ['2025-03-31', 271],
      ['2025-04-30', 750],
      ['2025-05-31', 1245],
      ['2025-06-30', 1724],
      ['2025-07-31', 2219],
      ['2025-08-31', 2714],
      ['2025-09-30', 3193],
      ['2028-03-14', 17500],
    ]
    for (const [asOf, cents] of expected)
      assert.equal(earnedToDate(17500, terms('PRO_RATA_DAYS'), adm, asOf), cents, asOf)
  })
  it('through an exact ratio, never a rounded factor: 1,000.05 × 30/36 is 833.38', () => {
    // 30 of 36 months earned: 100,005 × 30/36 = 83,337.5 cents exactly.
    const dates = term('2025-01-15', 36)
    assert.equal(earnedToDate(100005, terms('PRO_RATA_MONTHS'), dates, addMonths('2025-01-15', 30)), 83338)
  })
  it('a line of nothing earns nothing', () => {
    assert.equal(earnedToDate(0, terms('IMMEDIATE'), adm, '2026-01-01'), 0)
  })
})

describe('earningsSchedule: calendar month ends, cumulative rounding', () => {
  it('ADM 175.00 by days: 2.71, 4.79, 4.95, 4.79, 4.95, 4.95 … adding up to 175.00 over 37 periods', () => {
    const schedule = earningsSchedule(17500, terms('PRO_RATA_DAYS'), adm)
    assert.equal(schedule.length, 37)
    assert.deepEqual(
      schedule.slice(0, 6).map((p) => [p.periodStart, p.periodEnd, p.earnedThisPeriodCents, p.earnedToDateCents]),
      [
        ['2025-03-14', '2025-03-31', 271, 271],
        ['2025-04-01', '2025-04-30', 479, 750],
        ['2025-05-01', '2025-05-31', 495, 1245],
        ['2025-06-01', '2025-06-30', 479, 1724],
        ['2025-07-01', '2025-07-31', 495, 2219],
        ['2025-08-01', '2025-08-31', 495, 2714],
      ],
    )
    assert.deepEqual(schedule.at(-2)?.periodEnd, '2028-02-29')
    assert.deepEqual(schedule.at(-1), {
      periodStart: '2028-03-01',
      periodEnd: '2028-03-14',
      earnedThisPeriodCents: 17500 - schedule.at(-2)!.earnedToDateCents,
      earnedToDateCents: 17500,
      unearnedCents: 0,
    })
    assert.equal(
      schedule.reduce((s, p) => s + p.earnedThisPeriodCents, 0),
      17500,
    )
    assert.ok(schedule.every((p) => p.unearnedCents === 17500 - p.earnedToDateCents))
  })
  it('1,000.00 pro rata over 36 months: 27.78, 27.78, 27.77 … exactly 1,000.00 (rounding each period gives 1,000.08)', () => {
    // From a month end, every anniversary is a month end: one month earned per period after the first.
    const dates = term('2025-01-31', 36)
    const schedule = earningsSchedule(100000, terms('PRO_RATA_MONTHS'), dates)
    assert.equal(schedule.length, 37)
    assert.deepEqual(schedule[0], {
      periodStart: '2025-01-31',
      periodEnd: '2025-01-31',
      earnedThisPeriodCents: 0,
      earnedToDateCents: 0,
      unearnedCents: 100000,
    })
    const monthly = schedule.slice(1).map((p) => p.earnedThisPeriodCents)
    // 1,000.00/36 = 25,000/9 cents: every nine months earn exactly 250.00, with the same pattern.
    const nine = [2778, 2778, 2777, 2778, 2778, 2778, 2777, 2778, 2778]
    assert.deepEqual(monthly, [...nine, ...nine, ...nine, ...nine])
    assert.equal(
      monthly.reduce((s, c) => s + c, 0),
      100000,
    )
    const naive = 36 * Math.round(100000 / 36)
    assert.equal(naive, 100008)
  })
  it('RULE_OF_78 over 12 months: 12.00, 11.00, 10.00 … 1.00 of 78.00', () => {
    const schedule = earningsSchedule(7800, terms('RULE_OF_78'), term('2025-01-31', 12))
    assert.deepEqual(
      schedule.map((p) => p.earnedThisPeriodCents),
      [0, 1200, 1100, 1000, 900, 800, 700, 600, 500, 400, 300, 200, 100],
    )
  })
  it('IMMEDIATE: everything in the first period', () => {
    const schedule = earningsSchedule(15000, terms('IMMEDIATE'), adm)
    assert.deepEqual(schedule[0]?.earnedThisPeriodCents, 15000)
    assert.ok(schedule.slice(1).every((p) => p.earnedThisPeriodCents === 0 && p.unearnedCents === 0))
  })
  it('through: the periods ending on or before it', () => {
    const all = earningsSchedule(17500, terms('PRO_RATA_DAYS'), adm)
    assert.deepEqual(earningsSchedule(17500, terms('PRO_RATA_DAYS'), adm, { through: '2025-08-31' }), all.slice(0, 6))
    assert.deepEqual(earningsSchedule(17500, terms('PRO_RATA_DAYS'), adm, { through: '2025-09-29' }), all.slice(0, 6))
    assert.deepEqual(earningsSchedule(17500, terms('PRO_RATA_DAYS'), adm, { through: '2025-03-30' }), [])
    assert.deepEqual(earningsSchedule(17500, terms('PRO_RATA_DAYS'), adm, { through: '2040-01-01' }), all)
  })
  it('an effective date on the first of a month: the last period is X alone', () => {
    const schedule = earningsSchedule(1200, terms('PRO_RATA_MONTHS'), term('2025-01-01', 12))
    assert.equal(schedule.length, 13)
    assert.deepEqual(
      schedule.map((p) => p.earnedThisPeriodCents),
      [0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
    )
    assert.deepEqual(schedule.at(-1)?.periodStart, '2026-01-01')
    assert.deepEqual(schedule.at(-1)?.periodEnd, '2026-01-01')
  })
})

describe('earningsAsOf: what earningdetails shows', () => {
  const lines = [
    { code: 'ADM', amountCents: 17500, terms: terms('PRO_RATA_DAYS') },
    { code: 'COM', amountCents: 15000, terms: terms('IMMEDIATE') },
    { code: 'RES', amountCents: 64000, terms: terms('RULE_OF_78', { monthCounting: 'COMPLETED' }) },
  ]
  it('per line, in order, with totals; plain JSON', () => {
    const result = earningsAsOf(lines, adm, '2025-09-30')
    assert.deepEqual(result, {
      asOf: '2025-09-30',
      lines: [
        {
          code: 'ADM',
          method: 'PRO_RATA_DAYS',
          amountCents: 17500,
          earnedToDateCents: 3193,
          unearnedCents: 14307,
          earnedFraction: { num: 200, den: 1096 },
          earnedFactor: '0.182482',
        },
        {
          code: 'COM',
          method: 'IMMEDIATE',
          amountCents: 15000,
          earnedToDateCents: 15000,
          unearnedCents: 0,
          earnedFraction: { num: 1, den: 1 },
          earnedFactor: '1.000000',
        },
        {
          // k = 6 of 36: 6 × 67 / 1332 = 402/1332; 64,000.00 cents × 402/1332 = 19,315.315… → 193.15.
          code: 'RES',
          method: 'RULE_OF_78',
          amountCents: 64000,
          earnedToDateCents: 19315,
          unearnedCents: 44685,
          earnedFraction: { num: 402, den: 1332 },
          earnedFactor: '0.301802',
        },
      ],
      totals: { amountCents: 96500, earnedToDateCents: 37508, unearnedCents: 58992 },
    })
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result)
  })
  it('before E nothing is earned, after X everything', () => {
    assert.equal(earningsAsOf(lines, adm, '2025-01-01').totals.earnedToDateCents, 0)
    assert.equal(earningsAsOf(lines, adm, '2029-01-01').totals.unearnedCents, 0)
    assert.deepEqual(earningsAsOf([], adm, '2025-09-30').totals, {
      amountCents: 0,
      earnedToDateCents: 0,
      unearnedCents: 0,
    })
  })
})

describe('earningsAtCancel: earned to date + earned at cancel + refunded = A', () => {
  it('decision 0012: ADM earned 27.14, remaining 147.86, refunded 143.07, earned at cancel 4.79', () => {
    const c = earningsAtCancel(17500, terms('PRO_RATA_DAYS'), adm, '2025-09-30', 14307, 2714)
    assert.deepEqual(c, {
      amountCents: 17500,
      earnedToDateCents: 2714,
      remainingCents: 14786,
      refundedShareCents: 14307,
      earnedAtCancelCents: 479,
      // By days to 09-30 the line has earned 31.93: the catch-up 4.79, and the days refund matches the days earnings.
      earnedByMethodCents: 3193,
    })
    assert.equal(c.earnedToDateCents + c.earnedAtCancelCents + c.refundedShareCents, c.amountCents)
  })
  it('an IMMEDIATE commission refunded: earned at cancel is negative', () => {
    const c = earningsAtCancel(15000, terms('IMMEDIATE'), adm, '2025-09-30', 12263, 15000)
    assert.equal(c.remainingCents, 0)
    assert.equal(c.earnedAtCancelCents, -12263)
    assert.equal(c.earnedToDateCents + c.earnedAtCancelCents + c.refundedShareCents, 15000)
  })
  it('a flat cancel before any run: all refunded, nothing earned', () => {
    const c = earningsAtCancel(17500, terms('PRO_RATA_DAYS'), adm, '2025-03-14', 17500, 0)
    assert.equal(c.earnedAtCancelCents, 0)
    assert.equal(c.earnedByMethodCents, 0)
  })
})

describe('earningsDue: what a sync posts, idempotent', () => {
  it('posts the difference, then nothing', () => {
    const first = earningsDue(17500, terms('PRO_RATA_DAYS'), adm, '2025-08-31', 0)
    assert.deepEqual(first, { earnedToDateCents: 2714, alreadyEarnedCents: 0, dueCents: 2714 })
    const again = earningsDue(17500, terms('PRO_RATA_DAYS'), adm, '2025-08-31', first.earnedToDateCents)
    assert.equal(again.dueCents, 0)
    const next = earningsDue(17500, terms('PRO_RATA_DAYS'), adm, '2025-09-30', 2714)
    assert.equal(next.dueCents, 479)
  })
  it('catches up after a price change: the new A is earned to date, less or more', () => {
    // 175.00 → 150.00 after 27.14 was posted: as of 08-31 150.00 has earned 23.27 (170/1096), so 3.87 goes back.
    assert.deepEqual(earningsDue(15000, terms('PRO_RATA_DAYS'), adm, '2025-08-31', 2714), {
      earnedToDateCents: 2327,
      alreadyEarnedCents: 2714,
      dueCents: -387,
    })
    // 175.00 → 200.00: 31.02 is due by 08-31, 3.88 more than was posted.
    assert.equal(earningsDue(20000, terms('PRO_RATA_DAYS'), adm, '2025-08-31', 2714).dueCents, 388)
  })
  it('IMMEDIATE: everything on the first run on or after E', () => {
    assert.equal(earningsDue(15000, terms('IMMEDIATE'), adm, '2025-03-13', 0).dueCents, 0)
    assert.equal(earningsDue(15000, terms('IMMEDIATE'), adm, '2025-03-14', 0).dueCents, 15000)
    assert.equal(earningsDue(15000, terms('IMMEDIATE'), adm, '2025-04-30', 15000).dueCents, 0)
  })
})
