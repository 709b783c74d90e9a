// The month close and report runs as pure rules, table by table (docs/reporting.md "Month close",
// "Report runs"): when a month is closed, the canonical digest of a report's inputs, a statement's
// inputs as of a day, the prior-period adjustment, a run's scope and its next risk bearer.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  adjustmentOf,
  canonicalJson,
  inputDigest,
  itdFigures,
  monthClosed,
  nextRiskBearer,
  runPeriodProblem,
  scopeOf,
  statementInputs,
} from './report-run.rules.ts'
import type { BookContract } from './statement.rules.ts'

const contract = (over: Partial<BookContract> = {}): BookContract => ({
  id: 1,
  saleDate: '2026-01-01',
  effectiveDate: '2026-01-01',
  expirationDate: '2027-01-01',
  termMonths: 12,
  shareBps: 7500,
  cedingFeeBps: 0,
  administratorFeeBps: 0,
  reserveLines: [
    { code: 'RES', amountCents: 36500, terms: { method: 'PRO_RATA_DAYS', curve: null, monthCounting: null } },
  ],
  written: [{ on: '2026-01-05', cents: 36500 }],
  cancelled: [],
  cancelEvents: [],
  claimsPaid: [],
  claimsIncurred: [],
  ...over,
})

describe('monthClosed', () => {
  const cases: Array<[string, string, string, string | null, boolean]> = [
    ['books never closed', '2026-08-31', '2026-09-10', null, false],
    ['closed through the last day', '2026-08-31', '2026-09-10', '2026-08-31', true],
    ['closed through a later day', '2026-08-31', '2026-09-10', '2026-09-05', true],
    ['closed through the day before the last', '2026-08-31', '2026-09-10', '2026-08-30', false],
    ['closed ahead of the month end, which has not come', '2026-09-30', '2026-09-10', '2026-12-31', false],
    ['the last day is today and closed', '2026-09-30', '2026-09-30', '2026-09-30', true],
  ]
  for (const [name, to, today, through, closed] of cases)
    test(name, () => assert.equal(monthClosed(to, today, through), closed))
})

describe('canonicalJson and inputDigest', () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'keys sorted at every level',
      { b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } },
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    ],
    ['undefined members left out', { a: undefined, b: 'x' }, '{"b":"x"}'],
    ['dates as ISO strings', { at: new Date('2026-08-31T00:00:00Z') }, '{"at":"2026-08-31T00:00:00.000Z"}'],
    ['scalars', [1, 'a', true, null], '[1,"a",true,null]'],
  ]
  for (const [name, value, json] of cases) test(name, () => assert.equal(canonicalJson(value), json))
  test('the digest is the sha256 of the canonical text: key order does not change it, a cent does', () => {
    assert.match(inputDigest({ a: 1 }), /^[0-9a-f]{64}$/)
    assert.equal(inputDigest({ a: 1, b: [2] }), inputDigest({ b: [2], a: 1 }))
    assert.notEqual(inputDigest({ a: 1 }), inputDigest({ a: 2 }))
  })
})

describe('statementInputs', () => {
  const sold = contract()
  const late = contract({ id: 2, saleDate: '2026-08-31', written: [{ on: '2026-08-31', cents: 36500 }] })
  const later = contract({ id: 3, written: [{ on: '2026-09-02', cents: 36500 }] })
  test('only contracts with a movement through the day, and only those movements', () => {
    const inputs = statementInputs(
      [later, contract({ claimsPaid: [{ on: '2026-09-01', cents: 100 }] }), late],
      '2026-08-31',
    )
    assert.deepEqual(
      inputs.map((c) => (c as { id: number }).id),
      [1, 2],
    )
    assert.deepEqual((inputs[0] as { claimsPaid: unknown[] }).claimsPaid, [])
  })
  const cases: Array<[string, BookContract[], BookContract[], boolean]> = [
    ['the same book in another order', [sold, late], [late, sold], true],
    ['a movement after the day', [sold], [sold, later], true],
    ['a late line dated in the month', [sold], [sold, late], false],
    ['another share', [sold], [contract({ shareBps: 5000 })], false],
    ['another cent', [sold], [contract({ written: [{ on: '2026-01-05', cents: 36501 }] })], false],
  ]
  for (const [name, a, b, same] of cases)
    test(`${name}: digest ${same ? 'unchanged' : 'changed'}`, () =>
      assert.equal(
        inputDigest(statementInputs(a, '2026-08-31')) === inputDigest(statementInputs(b, '2026-08-31')),
        same,
      ))
})

describe('adjustmentOf', () => {
  test('the ITD figures now less the frozen ones (money on the wire back to cents)', () => {
    const now = itdFigures(
      [contract(), contract({ id: 2, written: [{ on: '2026-08-31', cents: 61000 }] })],
      '2026-08-31',
    )
    const frozenNow = itdFigures([contract()], '2026-08-31')
    const frozen: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(frozenNow)) frozen[k] = v / 100
    const adj = adjustmentOf(now, frozen)
    assert.equal(adj.writtenPremium, 45750)
    assert.equal(adj.netWrittenPremium, 45750)
    assert.equal(adj.cancellations, 0)
    assert.equal(adj.earnedPremium + adj.unearnedPremium, 45750)
  })
  test('nothing changed: all zero', () => {
    const f = itdFigures([contract()], '2026-08-31')
    const frozen = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v / 100]))
    assert.ok(Object.values(adjustmentOf(f, frozen)).every((v) => v === 0))
  })
})

describe('scopeOf and nextRiskBearer', () => {
  const cases: Array<[string, number[], number[], string]> = [
    ['sorted', [43, 39, 42], [39, 42, 43], '39,42,43'],
    ['once each', [39, 39, 42], [39, 42], '39,42'],
    ['none', [], [], '-'],
  ]
  for (const [name, ids, sorted, key] of cases)
    test(`scope: ${name}`, () => assert.deepEqual(scopeOf(ids), { ids: sorted, key }))
  const next: Array<[number, number | undefined]> = [
    [0, 39],
    [39, 42],
    [40, 42],
    [43, undefined],
  ]
  for (const [cursor, id] of next)
    test(`after cursor ${cursor}: ${id ?? 'done'}`, () => assert.equal(nextRiskBearer([39, 42, 43], cursor), id))
})

describe('runPeriodProblem', () => {
  const cases: Array<[string, string | undefined]> = [
    ['2026-08', undefined],
    ['2026-09', undefined],
    ['2026-10', 'out_of_range'],
    ['2026-13', 'invalid_format'],
    ['August', 'invalid_format'],
  ]
  for (const [period, code] of cases)
    test(`${period}: ${code ?? 'ok'}`, () => assert.equal(runPeriodProblem(period, '2026-09-10')?.code, code))
})
