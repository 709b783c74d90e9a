import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { addDays, addMonths, daysBetween, MONTH_COUNTING } from '../../platform/calendar.ts'
import { EARNINGS_METHODS } from '../rating/index.ts'
import {
  earnedFraction,
  earnedToDate,
  earningsAsOf,
  earningsAtCancel,
  earningsDue,
  earningsSchedule,
  type EarningsDates,
  type EarningsTerms,
} from './earnings.rules.ts'

/** A non-decreasing curve of L points ending at exactly 1, written with six places or fewer. */
const curveArb = (maxLength: number) =>
  fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength }).map((steps) => {
    const total = steps.reduce((a, b) => a + b, 0) + 1
    let sum = 0
    return steps.map((s, i) => {
      sum += s
      const millionths = i === steps.length - 1 ? 1_000_000 : Math.floor((sum * 1_000_000) / total)
      return millionths === 1_000_000 ? '1' : `0.${String(millionths).padStart(6, '0')}`.replace(/\.?0+$/, '')
    })
  })

/** A line's terms and the contract's dates: any method, counting, curve (shorter or longer than the term), stored X. */
const caseArb = fc
  .record({
    start: fc.nat({ max: 365 * 12 }),
    termMonths: fc.integer({ min: 1, max: 120 }),
    // X as stored: normally addMonths(E, n); a few days either way must change nothing of the invariants.
    shift: fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 3 })),
    method: fc.constantFrom(...EARNINGS_METHODS),
    counting: fc.option(fc.constantFrom(...MONTH_COUNTING)),
    amountCents: fc.oneof(fc.integer({ min: 0, max: 100_000_00 }), fc.integer({ min: 0, max: 1e12 })),
  })
  .chain((c) => fc.record({ c: fc.constant(c), cumulative: curveArb(c.termMonths + 6) }))
  .map(({ c, cumulative }) => {
    const effectiveDate = addDays('2020-01-01', c.start)
    const dates: EarningsDates = {
      effectiveDate,
      expirationDate: addDays(addMonths(effectiveDate, c.termMonths), c.shift),
      termMonths: c.termMonths,
    }
    const terms: EarningsTerms = {
      method: c.method,
      curve: c.method === 'CURVE' ? { code: 'C', name: 'curve', cumulative } : null,
      monthCounting: c.counting,
    }
    return { dates, terms, amountCents: c.amountCents }
  })

/** Where a date lies, from 40 days before E (0) to 40 days after X (PLACES): see dateAt. */
const PLACES = 1_000_000
const offsetArb = fc.integer({ min: 0, max: PLACES })
const offsetOf = (dates: EarningsDates, place: number) =>
  Math.round((place * (daysBetween(dates.effectiveDate, dates.expirationDate) + 80)) / PLACES) - 40
const dateAt = (dates: EarningsDates, place: number) => addDays(dates.effectiveDate, offsetOf(dates, place))

describe('earnings: properties', () => {
  it('the schedule runs from E to X by month ends, and its periods add up to A exactly', () => {
    fc.assert(
      fc.property(caseArb, ({ dates, terms, amountCents }) => {
        const schedule = earningsSchedule(amountCents, terms, dates)
        assert.equal(schedule[0]?.periodStart, dates.effectiveDate)
        assert.equal(schedule.at(-1)?.periodEnd, dates.expirationDate)
        assert.equal(schedule.at(-1)?.earnedToDateCents, amountCents)
        assert.equal(
          schedule.reduce((s, p) => s + p.earnedThisPeriodCents, 0),
          amountCents,
        )
        schedule.forEach((p, i) => {
          assert.ok(p.earnedThisPeriodCents >= 0)
          assert.equal(p.earnedToDateCents, earnedToDate(amountCents, terms, dates, p.periodEnd))
          assert.equal(p.unearnedCents, amountCents - p.earnedToDateCents)
          if (i > 0) assert.equal(p.periodStart, addDays(schedule[i - 1]!.periodEnd, 1))
          // Each period ends at its month's end, except the last, at X.
          if (i < schedule.length - 1) assert.equal(addDays(p.periodEnd, 1).slice(8), '01')
          assert.equal(p.periodStart.slice(0, 7), p.periodEnd.slice(0, 7))
        })
      }),
      { numRuns: 200 },
    )
  })
  it('earned to date: 0 ≤ earned ≤ A, 0 before E, A from X, never decreasing as the date moves on', () => {
    fc.assert(
      fc.property(caseArb, offsetArb, offsetArb, ({ dates, terms, amountCents }, o1, o2) => {
        const [a, b] = [dateAt(dates, Math.min(o1, o2)), dateAt(dates, Math.max(o1, o2))]
        const fa = earnedFraction(terms, { ...dates, asOf: a })
        assert.ok(fa.num >= 0 && fa.num <= fa.den && fa.den > 0)
        const ea = earnedToDate(amountCents, terms, dates, a)
        const eb = earnedToDate(amountCents, terms, dates, b)
        assert.ok(ea >= 0 && eb <= amountCents)
        assert.ok(ea <= eb, `${a}: ${ea} > ${b}: ${eb}`)
        if (a < dates.effectiveDate) assert.equal(ea, 0)
        if (b >= dates.expirationDate) assert.equal(eb, amountCents)
      }),
      { numRuns: 500 },
    )
  })
  it('at a cancel: earned to date + earned at cancel + refunded = A; nothing is left to earn when both methods agree', () => {
    fc.assert(
      fc.property(caseArb, offsetArb, offsetArb, fc.nat(), ({ dates, terms, amountCents }, o1, o2, share) => {
        const [posted, cancel] = [dateAt(dates, Math.min(o1, o2)), dateAt(dates, Math.max(o1, o2))]
        const earnedPosted = earnedToDate(amountCents, terms, dates, posted)
        const refunded = amountCents === 0 ? 0 : share % (amountCents + 1)
        const c = earningsAtCancel(amountCents, terms, dates, cancel, refunded, earnedPosted)
        assert.equal(c.earnedToDateCents + c.earnedAtCancelCents + c.refundedShareCents, amountCents)
        assert.equal(c.remainingCents, amountCents - earnedPosted)
        assert.equal(c.earnedByMethodCents, earnedToDate(amountCents, terms, dates, cancel))
        // A refund of what the line's own method left unearned: earned at cancel is the catch-up alone.
        const same = earningsAtCancel(
          amountCents,
          terms,
          dates,
          cancel,
          amountCents - c.earnedByMethodCents,
          earnedPosted,
        )
        assert.equal(same.earnedAtCancelCents, c.earnedByMethodCents - earnedPosted)
      }),
      { numRuns: 300 },
    )
  })
  it('syncs: each run posts what is due, a repeated run posts nothing, and the runs add up to the earned to date', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.array(offsetArb, { minLength: 1, maxLength: 8 }),
        ({ dates, terms, amountCents }, offsets) => {
          let posted = 0
          for (const offset of offsets.toSorted((x, y) => x - y)) {
            const asOf = dateAt(dates, offset)
            const due = earningsDue(amountCents, terms, dates, asOf, posted)
            assert.ok(due.dueCents >= 0)
            posted += due.dueCents
            assert.equal(earningsDue(amountCents, terms, dates, asOf, posted).dueCents, 0)
          }
          const last = dateAt(dates, Math.max(...offsets))
          assert.equal(posted, earnedToDate(amountCents, terms, dates, last))
        },
      ),
      { numRuns: 200 },
    )
  })
  it('earningsAsOf: each line as earnedToDate, totals the sums of the lines', () => {
    fc.assert(
      fc.property(fc.array(caseArb, { minLength: 1, maxLength: 5 }), offsetArb, (cases, offset) => {
        // The lines of one contract share its dates.
        const dates = cases[0]!.dates
        const asOf = dateAt(dates, offset)
        const lines = cases.map((c, i) => ({ code: `L${i}`, amountCents: c.amountCents, terms: c.terms }))
        const result = earningsAsOf(lines, dates, asOf)
        let earned = 0
        result.lines.forEach((l, i) => {
          assert.equal(l.earnedToDateCents, earnedToDate(lines[i]!.amountCents, lines[i]!.terms, dates, asOf))
          assert.equal(l.earnedToDateCents + l.unearnedCents, l.amountCents)
          earned += l.earnedToDateCents
        })
        assert.equal(result.totals.earnedToDateCents, earned)
        assert.equal(result.totals.earnedToDateCents + result.totals.unearnedCents, result.totals.amountCents)
      }),
      { numRuns: 100 },
    )
  })
})
