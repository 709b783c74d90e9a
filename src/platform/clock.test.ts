import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { localDate } from './clock.ts'

describe('localDate', () => {
  const cases: Array<[string, string, string]> = [
    ['2026-11-23T03:00:00Z', 'America/Chicago', '2026-11-22'],
    ['2026-11-23T06:00:00Z', 'America/Chicago', '2026-11-23'],
    ['2026-11-23T05:59:59Z', 'America/Chicago', '2026-11-22'],
    ['2026-07-01T04:59:00Z', 'America/Chicago', '2026-06-30'], // daylight time: UTC-5
    ['2026-07-01T05:00:00Z', 'America/Chicago', '2026-07-01'],
    ['2026-11-22T23:30:00Z', 'UTC', '2026-11-22'],
    ['2026-11-22T23:30:00Z', 'Asia/Kolkata', '2026-11-23'], // UTC+5:30
    ['2026-11-22T10:15:00Z', 'Pacific/Honolulu', '2026-11-22'],
  ]
  for (const [instant, zone, expected] of cases) {
    it(`${instant} in ${zone} is ${expected}`, () => assert.equal(localDate(new Date(instant), zone), expected))
  }
  it('follows the instant across a day boundary in one zone (the kept minute is per zone)', () => {
    assert.equal(localDate(new Date('2026-11-23T05:59:00Z'), 'America/Chicago'), '2026-11-22')
    assert.equal(localDate(new Date('2026-11-23T06:00:00Z'), 'America/Chicago'), '2026-11-23')
    assert.equal(localDate(new Date('2026-11-23T05:59:00Z'), 'America/Chicago'), '2026-11-22')
  })
})
