import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addMonths, daysBetween, monthsElapsed, type MonthCounting } from './calendar.ts'

describe('daysBetween: actual days, leap days included', () => {
  const cases: Array<[string, string, number]> = [
    ['2025-03-14', '2025-03-14', 0],
    ['2025-03-14', '2025-03-15', 1],
    ['2025-03-15', '2025-03-14', -1],
    // money.md: a 36-month term from 2025-03-14 has 1,096 days (2028-02-29 is in it).
    ['2025-03-14', addMonths('2025-03-14', 36), 1096],
    ['2024-02-28', '2024-03-01', 2],
    ['2023-02-28', '2023-03-01', 1],
    ['2024-01-01', '2025-01-01', 366],
    ['2025-01-01', '2026-01-01', 365],
    ['2025-12-31', '2026-01-01', 1],
  ]
  for (const [from, to, days] of cases) it(`${from} → ${to}: ${days}`, () => assert.equal(daysBetween(from, to), days))
})

describe('monthsElapsed: counted from the effective date, never chained', () => {
  const cases: Array<[string, string, number, MonthCounting, number]> = [
    // From 2025-01-31 the anniversaries are 02-28, 03-31, 04-30 (money.md).
    ['2025-01-31', '2025-02-27', 12, 'COMPLETED', 0],
    ['2025-01-31', '2025-02-28', 12, 'COMPLETED', 1],
    ['2025-01-31', '2025-03-30', 12, 'COMPLETED', 1],
    ['2025-01-31', '2025-03-31', 12, 'COMPLETED', 2],
    ['2025-01-31', '2025-04-30', 12, 'COMPLETED', 3],
    ['2025-01-31', '2025-04-29', 12, 'COMPLETED', 2],
    // A leap year's February.
    ['2024-01-31', '2024-02-29', 12, 'COMPLETED', 1],
    ['2024-01-31', '2024-02-28', 12, 'COMPLETED', 0],
    ['2024-02-29', '2025-02-28', 24, 'COMPLETED', 12],
    // Modes: on the anniversary nothing more is begun; a day past it STARTED counts the month.
    ['2025-03-14', '2025-05-14', 36, 'STARTED', 2],
    ['2025-03-14', '2025-05-15', 36, 'STARTED', 3],
    ['2025-03-14', '2025-05-28', 36, 'NEAREST_15', 2],
    ['2025-03-14', '2025-05-29', 36, 'NEAREST_15', 3],
    ['2025-03-14', '2025-05-29', 36, 'COMPLETED', 2],
    // Bounds: before the effective date nothing; never more than the term.
    ['2025-03-14', '2025-03-13', 36, 'STARTED', 0],
    ['2025-03-14', '2025-03-14', 36, 'STARTED', 0],
    ['2025-03-14', '2030-01-01', 36, 'COMPLETED', 36],
    ['2025-03-14', '2028-03-13', 36, 'STARTED', 36],
    ['2025-03-14', '2028-03-13', 36, 'COMPLETED', 35],
  ]
  for (const [effective, asOf, term, counting, expected] of cases) {
    it(`${effective} → ${asOf} (${term} months, ${counting}): ${expected}`, () =>
      assert.equal(monthsElapsed(effective, asOf, term, counting), expected))
  }
  it('agrees with counting anniversaries one by one', () => {
    for (const effective of ['2024-01-31', '2024-02-29', '2025-08-30', '2025-12-31']) {
      for (let offset = -3; offset < 800; offset += 7) {
        const asOf = new Date(Date.parse(`${effective}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10)
        let k = 0
        while (k < 24 && addMonths(effective, k + 1) <= asOf) k++
        assert.equal(monthsElapsed(effective, asOf, 24), asOf < effective ? 0 : k, `${effective} → ${asOf}`)
      }
    }
  })
})
