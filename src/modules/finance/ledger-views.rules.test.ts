import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ageInDays, agingBucket, agingTotals, dayNumber, netOwed, normalBalance } from './ledger-views.rules.ts'

test('aging buckets: boundaries 30/31, 60/61, 90/91', () => {
  const cases: Array<[number, string]> = [
    [0, '0-30'],
    [1, '0-30'],
    [30, '0-30'],
    [31, '31-60'],
    [60, '31-60'],
    [61, '61-90'],
    [90, '61-90'],
    [91, '90+'],
    [3650, '90+'],
  ]
  for (const [age, bucket] of cases) assert.equal(agingBucket(age), bucket, `age ${age}`)
  for (const bad of [-1, 1.5, Number.NaN, Infinity]) assert.throws(() => agingBucket(bad), RangeError, `age ${bad}`)
})

test('age in days: calendar days between accounting dates', () => {
  const cases: Array<[string, string, number]> = [
    ['2026-11-26', '2026-11-26', 0],
    ['2026-11-25', '2026-11-26', 1],
    ['2026-02-28', '2026-03-01', 1],
    ['2028-02-28', '2028-03-01', 2], // leap year
    ['2025-12-31', '2026-01-01', 1],
    ['2026-01-01', '2026-12-31', 364],
    ['2026-03-08', '2026-03-09', 1], // no DST in accounting dates
  ]
  for (const [from, asOf, days] of cases) assert.equal(ageInDays(from, asOf), days, `${from} → ${asOf}`)
  assert.throws(() => ageInDays('2026-11-27', '2026-11-26'), RangeError)
  assert.throws(() => ageInDays('2026-02-30', '2026-03-26'), RangeError)
  assert.equal(dayNumber('2026-13-01'), null)
  assert.equal(dayNumber('26-11-01'), null)
  assert.equal(dayNumber('1970-01-02'), 1)
})

test('aging totals: exact cents per bucket, closed items (≤ 0) left out', () => {
  const totals = agingTotals([
    { openCents: 10, ageDays: 0 },
    { openCents: 20, ageDays: 30 },
    { openCents: 1, ageDays: 31 },
    { openCents: 99_999_999, ageDays: 75 },
    { openCents: 0, ageDays: 200 },
    { openCents: -500, ageDays: 5 },
    { openCents: 7, ageDays: 120 },
  ])
  assert.deepEqual(totals, { '0-30': 30, '31-60': 1, '61-90': 99_999_999, '90+': 7 })
  // 0.1 + 0.2 in cents stays exact.
  assert.equal(
    agingTotals([
      { openCents: 10, ageDays: 1 },
      { openCents: 20, ageDays: 2 },
    ])['0-30'],
    30,
  )
})

test('normal balances follow the purpose side; net owed = receivable − payables − unapplied cash', () => {
  const cases: Array<[Parameters<typeof normalBalance>[0], number, number, number]> = [
    ['DEALER_RECEIVABLE', 100_00, 40_00, 60_00],
    ['DEALER_RECEIVABLE', 0, 10, -10],
    ['DISBURSEMENT_PAYABLE', 5, 105, 100],
    ['REFUND_PAYABLE', 0, 2_50, 2_50],
    ['CLAIM_PAYABLE', 300, 100, -200],
    ['UNAPPLIED_CASH', 0, 1_000, 1_000],
  ]
  for (const [purpose, debit, credit, balance] of cases)
    assert.equal(normalBalance(purpose, debit, credit), balance, `${purpose} ${debit}/${credit}`)
  assert.equal(
    netOwed({
      receivableCents: 1_000_00,
      disbursementPayableCents: 200_00,
      refundPayableCents: 50_00,
      claimPayableCents: 25_01,
      unappliedCashCents: 10_00,
    }),
    714_99,
  )
})
