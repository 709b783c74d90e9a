import assert from 'node:assert/strict'
import { test } from 'node:test'
import { centsOf, formatCents } from '../../platform/money.ts'
import {
  checkStatementRequest,
  isSmall,
  reconciles,
  runningBalances,
  type StatementRequestInput,
} from './statement.rules.ts'

const line = (debit: number, credit: number) => ({ debitCents: debit, creditCents: credit })

test('running balances and closing: opening + lines = closing', () => {
  const cases: Array<{ name: string; opening: number; lines: ReturnType<typeof line>[]; balances: number[] }> = [
    { name: 'no lines', opening: 12_345, lines: [], balances: [] },
    { name: 'a sale', opening: 0, lines: [line(100_000, 0)], balances: [100_000] },
    {
      name: 'sale then payment',
      opening: 500,
      lines: [line(100_000, 0), line(0, 60_050)],
      balances: [100_500, 40_450],
    },
    { name: 'a cancel turns it negative', opening: -1, lines: [line(0, 99)], balances: [-100] },
    { name: 'cents never drift', opening: 0, lines: Array.from({ length: 10 }, () => line(10, 0)), balances: [] },
  ]
  for (const c of cases) {
    const { balances, closingCents } = runningBalances(c.opening, c.lines)
    if (c.balances.length > 0) assert.deepEqual(balances, c.balances, c.name)
    const sum = c.lines.reduce((n, l) => n + l.debitCents - l.creditCents, 0)
    assert.equal(closingCents, c.opening + sum, c.name)
    assert.ok(reconciles(c.opening, c.lines, c.opening + sum), c.name)
    assert.ok(!reconciles(c.opening, c.lines, c.opening + sum + 1), c.name)
  }
})

test('a fold over pages gives the same balances as one pass', () => {
  const lines = Array.from({ length: 25 }, (_, i) => line(i % 3 === 0 ? 1001 * i : 0, i % 3 === 0 ? 0 : 333 * i))
  const whole = runningBalances(777, lines)
  let opening = 777
  const paged: number[] = []
  for (let i = 0; i < lines.length; i += 7) {
    const page = runningBalances(opening, lines.slice(i, i + 7))
    paged.push(...page.balances)
    opening = page.closingCents
  }
  assert.deepEqual(paged, whole.balances)
  assert.equal(opening, whole.closingCents)
})

test('request checks: dates, period, purpose, defaults', () => {
  const cases: Array<{ input: StatementRequestInput; fields?: string[]; format?: string; purpose?: string | null }> = [
    { input: { from: '2026-01-01', to: '2026-01-31' }, format: 'PDF', purpose: null },
    { input: { from: '2026-01-01', to: '2026-01-01', format: 'CSV', purpose: 'DEALER_RECEIVABLE' }, format: 'CSV' },
    { input: { from: '2026-02-30', to: '2026-03-01' }, fields: ['from'] },
    { input: { from: '2026-01-01', to: '01/31/2026' }, fields: ['to'] },
    { input: { from: 'x', to: 'y' }, fields: ['from', 'to'] },
    { input: { from: '2026-02-01', to: '2026-01-31' }, fields: ['to'] },
    { input: { from: '2026-01-01', to: '2026-01-31', purpose: 'NOPE' as never }, fields: ['purpose'] },
  ]
  for (const c of cases) {
    const r = checkStatementRequest(c.input)
    if (c.fields) {
      assert.ok(!r.ok, JSON.stringify(c.input))
      assert.deepEqual(
        r.errors.map((e) => e.field),
        c.fields,
      )
    } else {
      assert.ok(r.ok, JSON.stringify(c.input))
      assert.equal(r.value.format, c.format)
      if (c.purpose !== undefined) assert.equal(r.value.purpose, c.purpose)
    }
  }
})

test('cents of numeric text and back', () => {
  const cases: Array<[string | number, number, string]> = [
    ['0', 0, '0.00'],
    ['0.00', 0, '0.00'],
    ['1234.5', 123_450, '1234.50'],
    ['-0.25', -25, '-0.25'],
    ['99999999999.99', 9_999_999_999_999, '99999999999.99'],
    [12.3, 1230, '12.30'],
  ]
  for (const [text, cents, formatted] of cases) {
    assert.equal(centsOf(text), cents, String(text))
    assert.equal(formatCents(cents), formatted)
  }
  assert.throws(() => centsOf('1.234'), RangeError)
  assert.throws(() => centsOf('abc'), RangeError)
})

test('small statements are made in the request', () => {
  assert.ok(isSmall(0, 2000))
  assert.ok(isSmall(2000, 2000))
  assert.ok(!isSmall(2001, 2000))
})
