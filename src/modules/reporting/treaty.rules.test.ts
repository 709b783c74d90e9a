// The pure rules of treaties and bordereaux, table by table (docs/reporting.md).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { columnOf, groupPremiumLines, outstandingCents, premiumTotals, transactionOf } from './bordereau.rules.ts'
import {
  cessionOf,
  conflicts,
  monthPeriod,
  periodsOverlap,
  specificity,
  treatyFor,
  treatyProblems,
  type SaleFacts,
  type Treaty,
} from './treaty.rules.ts'

const treaty = (over: Partial<Treaty> & { id: number }): Treaty => ({
  reinsuranceCompanyId: 88,
  dealerIds: [],
  dealerGroupIds: [],
  productIds: [],
  programIds: [],
  effectiveFrom: '2026-01-01',
  effectiveTo: null,
  shareBps: 10000,
  cedingFeeBps: 0,
  administratorFeeBps: 0,
  ...over,
})

describe('periodsOverlap', () => {
  const cases: Array<[string, string | null, string, string | null, boolean]> = [
    ['2026-01-01', null, '2027-01-01', null, true],
    ['2026-01-01', '2026-12-31', '2027-01-01', null, false],
    ['2026-01-01', '2026-12-31', '2026-12-31', null, true],
    ['2027-01-01', null, '2026-01-01', '2026-12-31', false],
    ['2026-06-01', '2026-06-30', '2026-01-01', '2026-12-31', true],
  ]
  for (const [af, at, bf, bt, want] of cases)
    test(`${af}..${at ?? '∞'} and ${bf}..${bt ?? '∞'}: ${want}`, () => {
      assert.equal(periodsOverlap({ effectiveFrom: af, effectiveTo: at }, { effectiveFrom: bf, effectiveTo: bt }), want)
      assert.equal(periodsOverlap({ effectiveFrom: bf, effectiveTo: bt }, { effectiveFrom: af, effectiveTo: at }), want)
    })
})

describe('conflicts', () => {
  const stored = [
    treaty({ id: 1, dealerIds: [10], productIds: [301], effectiveTo: '2026-12-31' }),
    treaty({ id: 2, dealerGroupIds: [5], productIds: [301] }),
    treaty({ id: 3, dealerIds: [11], programIds: [401] }),
  ]
  const cases: Array<[string, Partial<Treaty>, number[]]> = [
    ['the same dealer and product on a common day', { dealerIds: [10], productIds: [301] }, [1]],
    [
      'the same dealer and product after the first ends',
      { dealerIds: [10], productIds: [301], effectiveFrom: '2027-01-01' },
      [],
    ],
    ['the same dealer, another product', { dealerIds: [10], productIds: [999] }, []],
    ['the same group and product', { dealerGroupIds: [5], productIds: [301, 302] }, [2]],
    [
      'a dealer carved out of its group (a dealer never clashes with a group)',
      { dealerIds: [12], productIds: [301] },
      [],
    ],
    ['the same dealer and program', { dealerIds: [11, 12], programIds: [401] }, [3]],
    ['a program carved out of its product', { dealerIds: [10], programIds: [401] }, []],
    ['several at once', { dealerIds: [10, 11], dealerGroupIds: [5], productIds: [301], programIds: [401] }, [1, 2, 3]],
  ]
  for (const [name, over, want] of cases)
    test(name, () => {
      assert.deepEqual(
        conflicts(treaty({ id: 0, ...over }), stored).map((c) => c.treatyId),
        want,
      )
    })
  test('a treaty never conflicts with itself (an update)', () => {
    assert.deepEqual(conflicts(stored[0]!, stored), [])
  })
  test('the clash names what is shared', () => {
    const [c] = conflicts(treaty({ id: 0, dealerIds: [10, 77], productIds: [301, 302] }), stored)
    assert.deepEqual([c!.dealerIds, c!.productIds, c!.effectiveTo], [[10], [301], '2026-12-31'])
  })
})

describe('treatyFor: the most specific treaty in force on the sale date', () => {
  const group = treaty({ id: 1, dealerGroupIds: [5], productIds: [301] })
  const dealer = treaty({ id: 2, dealerIds: [10], productIds: [301] })
  const groupProgram = treaty({ id: 3, dealerGroupIds: [5], programIds: [401] })
  const later = treaty({ id: 4, dealerIds: [20], productIds: [301], effectiveFrom: '2026-07-01' })
  const all = [group, dealer, groupProgram, later]
  const sale: SaleFacts = { dealerId: 10, dealerGroupId: 5, productId: 301, programId: 401, saleDate: '2026-03-01' }
  const cases: Array<[string, Partial<SaleFacts>, number | undefined]> = [
    ["the dealer's own treaty beats its group's", {}, 2],
    ["the group's program treaty beats the group's product treaty", { dealerId: 11 }, 3],
    ["the group's product treaty for another program", { dealerId: 11, programId: 402 }, 1],
    ['no group, no dealer treaty: none', { dealerId: 11, dealerGroupId: null }, undefined],
    ['another product: none', { dealerId: 11, productId: 999, programId: 999 }, undefined],
    ['before the treaty starts: none', { dealerId: 20, dealerGroupId: null, saleDate: '2026-06-30' }, undefined],
    ['on its first day', { dealerId: 20, dealerGroupId: null, saleDate: '2026-07-01' }, 4],
  ]
  for (const [name, over, want] of cases)
    test(name, () => {
      assert.equal(treatyFor(all, { ...sale, ...over })?.id, want)
    })
  test('specificity: 1 + 2 for the dealer + 1 for the program', () => {
    assert.deepEqual(
      [group, dealer, groupProgram].map((t) => specificity(t, sale)),
      [1, 3, 2],
    )
  })
})

describe('cessionOf: each amount rounded half up once', () => {
  const cases: Array<[number, number, number, number, [number, number, number]]> = [
    // reserve cents, share, ceding fee, admin fee → ceded, ceding fee, admin fee cents
    [64000, 10000, 250, 0, [64000, 1600, 0]],
    [64001, 5000, 0, 0, [32001, 0, 0]],
    [64003, 3333, 100, 150, [21332, 213, 320]],
    [0, 10000, 250, 250, [0, 0, 0]],
    [12345, 0, 250, 0, [0, 0, 0]],
  ]
  for (const [reserve, share, ceding, admin, want] of cases)
    test(`${reserve} at ${share} bps`, () => {
      const c = cessionOf(treaty({ id: 9, shareBps: share, cedingFeeBps: ceding, administratorFeeBps: admin }), reserve)
      assert.deepEqual([c.cededReserveCents, c.cedingFeeCents, c.administratorFeeCents], want)
      assert.deepEqual([c.treatyId, c.reinsuranceCompanyId, c.reserveCents, c.shareBps], [9, 88, reserve, share])
    })
})

describe('treatyProblems', () => {
  const ok = { ...treaty({ id: 0, dealerIds: [1], productIds: [2] }), name: 'QS' }
  const cases: Array<[string, Partial<typeof ok>, string[]]> = [
    ['valid', {}, []],
    ['share above 100 %', { shareBps: 10001 }, ['shareBps out_of_range']],
    ['negative share', { shareBps: -1 }, ['shareBps out_of_range']],
    [
      'fees outside',
      { cedingFeeBps: 20000, administratorFeeBps: -5 },
      ['cedingFeeBps out_of_range', 'administratorFeeBps out_of_range'],
    ],
    ['ends before it starts', { effectiveTo: '2025-12-31' }, ['effectiveTo out_of_range']],
    ['covers nobody and nothing', { dealerIds: [], productIds: [] }, ['dealerIds required', 'productIds required']],
    ['a blank name', { name: '  ' }, ['name required']],
  ]
  for (const [name, over, want] of cases)
    test(name, () => {
      assert.deepEqual(
        treatyProblems({ ...ok, ...over }).map((e) => `${e.field} ${e.code}`),
        want,
      )
    })
})

describe('monthPeriod', () => {
  const cases: Array<[string, string, string]> = [
    ['2026-11', '2026-11-27', '2026-11-01..2026-11-30'],
    ['2026-02', '2026-11-27', '2026-02-01..2026-02-28'],
    ['2028-02', '2028-03-01', '2028-02-01..2028-02-29'],
    ['2026-12', '2026-11-27', 'month out_of_range'],
    ['2026-13', '2026-11-27', 'month invalid_format'],
    ['2026-1', '2026-11-27', 'month invalid_format'],
    ['november', '2026-11-27', 'month invalid_format'],
  ]
  for (const [month, today, want] of cases)
    test(`${month} on ${today}`, () => {
      const p = monthPeriod(month, today)
      assert.equal('field' in p ? `${p.field} ${p.code}` : `${p.from}..${p.to}`, want)
    })
})

describe('bordereau lines and totals', () => {
  test('entry kinds and groups', () => {
    assert.deepEqual(
      ['CONTRACT_FINALIZED', 'CONTRACT_CANCELLED', 'CANCEL_REVERSED', 'CONTRACT_REFINALIZED', 'CONTRACT_RERATED'].map(
        transactionOf,
      ),
      ['WRITTEN', 'CANCELLED', 'REINSTATED', 'ADJUSTED', 'ADJUSTED'],
    )
    assert.deepEqual(['RESERVE', 'PREMIUM', 'CLIP_PREMIUM', 'ADMIN_FEE', undefined].map(columnOf), [
      'reserve',
      'premium',
      'premium',
      'other',
      'other',
    ])
  })

  test('one line per entry and contract; totals are the plain sums', () => {
    const groups = new Map([
      ['RES', 'RESERVE'],
      ['PRM', 'CLIP_PREMIUM'],
    ])
    const lines = [
      { entryId: 1, kind: 'CONTRACT_FINALIZED', contractId: 7, disbursementCode: 'RES', cents: 64000 },
      { entryId: 1, kind: 'CONTRACT_FINALIZED', contractId: 7, disbursementCode: 'PRM', cents: 3500 },
      { entryId: 2, kind: 'CONTRACT_CANCELLED', contractId: 8, disbursementCode: 'RES', cents: -44444 },
      { entryId: 2, kind: 'CONTRACT_CANCELLED', contractId: 8, disbursementCode: 'PRM', cents: -2431 },
      { entryId: 2, kind: 'CONTRACT_CANCELLED', contractId: 8, disbursementCode: null, cents: 30000 },
      { entryId: 3, kind: 'CANCEL_REVERSED', contractId: 8, disbursementCode: 'RES', cents: 44444 },
    ]
    const grouped = groupPremiumLines(lines, (_c, code) => (code === null ? undefined : groups.get(code)))
    assert.deepEqual(
      grouped.map((g) => [
        g.transaction,
        g.amounts.premiumCents,
        g.amounts.reserveCents,
        g.amounts.otherCents,
        g.amounts.totalCents,
      ]),
      [
        ['WRITTEN', 3500, 64000, 0, 67500],
        ['CANCELLED', -2431, -44444, 30000, -16875],
        ['REINSTATED', 0, 44444, 0, 44444],
      ],
    )
    const t = premiumTotals(grouped)
    assert.deepEqual(
      [t.net.count, t.net.totalCents, t.WRITTEN.count, t.CANCELLED.reserveCents, t.ADJUSTED.count],
      [3, 67500 - 16875 + 44444, 1, -44444, 0],
    )
  })

  test('outstanding is never negative', () => {
    assert.deepEqual(
      [
        { amountCents: 30000, paidCents: 10000, releasedCents: 0 },
        { amountCents: 30000, paidCents: 10000, releasedCents: 20000 },
        { amountCents: 30000, paidCents: 0, releasedCents: 30000 },
      ].map(outstandingCents),
      [20000, 0, 0],
    )
  })
})
