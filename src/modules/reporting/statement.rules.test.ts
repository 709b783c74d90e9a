// The statement figures as pure rules, table by table, on small books (docs/reporting.md
// "Reinsurance statements"), and a property over random books: the months of a quarter add up to the
// quarter, earned + unearned = written − cancelled at every month end, the totals equal plain sums of
// the movements.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import {
  addFigures,
  columnPeriods,
  contractFigures,
  cumulativeAt,
  FIGURES,
  lossRatio,
  reserveFraction,
  shapeFractions,
  vintageOf,
  zeroFigures,
  type BookContract,
  type Figures,
} from './statement.rules.ts'

/** 365 days pro rata by day from 2026-01-01: 36,500 cents earn 100 a day; 75 % ceded, 2.5 % ceding fee. */
const contract = (over: Partial<BookContract> = {}): BookContract => ({
  id: 1,
  saleDate: '2026-01-01',
  effectiveDate: '2026-01-01',
  expirationDate: '2027-01-01',
  termMonths: 12,
  shareBps: 7500,
  cedingFeeBps: 250,
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

const pick = (f: Figures, keys: ReadonlyArray<keyof Figures>) => Object.fromEntries(keys.map((k) => [k, f[k]]))
const PREMIUM = ['writtenPremium', 'cancellations', 'netWrittenPremium', 'earnedPremium', 'unearnedPremium'] as const

describe('statement figures of one contract', () => {
  const cases: Array<[string, BookContract, string, string | null, string, Partial<Figures>]> = [
    [
      'a sale in the month: 75 % of 365.00; 30 of 365 days earned',
      contract(),
      'January',
      '2026-01-01',
      '2026-01-31',
      {
        writtenPremium: 27375,
        cancellations: 0,
        netWrittenPremium: 27375,
        earnedPremium: 2250,
        unearnedPremium: 25125,
      },
    ],
    [
      'a cancel in the month: what is not refunded is earned, nothing unearned',
      // 14 days used: 351/365 refunded = 351.00 → 75 %: 263.25
      contract({
        cancelled: [{ on: '2026-01-20', cents: 35100 }],
        cancelEvents: [{ on: '2026-01-20', cents: 1 }],
      }),
      'January',
      '2026-01-01',
      '2026-01-31',
      { writtenPremium: 27375, cancellations: 26325, netWrittenPremium: 1050, earnedPremium: 1050, unearnedPremium: 0 },
    ],
    [
      "a cancel of a prior month's sale: the month's earned is what was left unearned less the refund",
      // January earned 2,250; February 10: 40 days used, 325/365 refunded = 325.00 → 243.75
      contract({
        cancelled: [{ on: '2026-02-10', cents: 32500 }],
        cancelEvents: [{ on: '2026-02-10', cents: 1 }],
      }),
      'February',
      '2026-02-01',
      '2026-02-28',
      { writtenPremium: 0, cancellations: 24375, netWrittenPremium: -24375, earnedPremium: 750, unearnedPremium: 0 },
    ],
    [
      'a reinstatement: the cancel reversed gives back the refund; earning resumes where time stands',
      // March end: 89 days of 365 → 27,375 × 89/365 = 6,675; February end had earned 3,000 (all of it)
      contract({
        cancelled: [
          { on: '2026-02-10', cents: 32500 },
          { on: '2026-03-05', cents: -32500 },
        ],
        cancelEvents: [
          { on: '2026-02-10', cents: 1 },
          { on: '2026-03-05', cents: -1 },
        ],
      }),
      'March',
      '2026-03-01',
      '2026-03-31',
      {
        writtenPremium: 0,
        cancellations: -24375,
        netWrittenPremium: 24375,
        earnedPremium: 3675,
        unearnedPremium: 20700,
      },
    ],
  ]
  for (const [name, c, , from, to, want] of cases)
    test(name, () => {
      const f = contractFigures(c, from, to)
      assert.deepEqual(pick(f, PREMIUM), pick({ ...zeroFigures(), ...want } as Figures, PREMIUM))
    })

  test('a claim paid and one authorized-unpaid: incurred = paid + the change in outstanding, ceded 75 %', () => {
    const c = contract({
      claimsIncurred: [
        { on: '2026-02-03', cents: 30000 },
        { on: '2026-02-04', cents: 30000 },
      ],
      claimsPaid: [{ on: '2026-02-10', cents: 30000 }],
    })
    const feb = contractFigures(c, '2026-02-01', '2026-02-28')
    assert.deepEqual(pick(feb, ['claimsPaid', 'claimsOutstanding', 'claimsIncurred']), {
      claimsPaid: 22500,
      claimsOutstanding: 22500,
      claimsIncurred: 45000,
    })
    // February earns 28 days: 27,375 × 58/365 − 2,250 = 4,350 − 2,250 = 2,100; no fee (written in January).
    assert.equal(feb.earnedPremium, 2100)
    assert.equal(feb.cedingFee, 0)
    assert.equal(feb.underwritingResult, 2100 - 45000)
    assert.equal(lossRatio(feb.claimsIncurred, feb.earnedPremium), '21.4286')
    const jan = contractFigures(c, '2026-01-01', '2026-01-31')
    // 2.5 % of 273.75 = 6.84375 → 6.84
    assert.equal(jan.cedingFee, 684)
    assert.equal(jan.underwritingResult, 2250 - 684)
  })

  test('a cancel returns exactly what the sale ceded (cumulative rounding): 75 % of 0.01-odd amounts', () => {
    const c = contract({
      reserveLines: [
        { code: 'RES', amountCents: 61001, terms: { method: 'PRO_RATA_DAYS', curve: null, monthCounting: null } },
      ],
      written: [{ on: '2026-01-05', cents: 61001 }],
      cancelled: [{ on: '2026-01-06', cents: 61001 }],
      cancelEvents: [{ on: '2026-01-06', cents: 1 }],
    })
    const end = cumulativeAt(c, '2026-01-31')
    assert.equal(end.written, 45751)
    assert.equal(end.cancelled, 45751)
    assert.equal(end.netWritten, 0)
    assert.equal(end.earned + end.unearned, 0)
  })

  test('before the sale is posted: nothing', () => {
    assert.deepEqual(contractFigures(contract(), '2025-12-01', '2025-12-31'), zeroFigures())
  })
})

describe('loss ratio, vintage, columns', () => {
  const ratios: Array<[number, number, string | null]> = [
    [45000, 2100, '21.4286'],
    [1, 3, '0.3333'],
    [2, 3, '0.6667'],
    [1, 8, '0.1250'],
    [0, 500, '0.0000'],
    [500, 0, null],
    [-100, 300, '-0.3333'],
    [100, -300, '-0.3333'],
  ]
  for (const [inc, earned, want] of ratios)
    test(`${inc} / ${earned} = ${want}`, () => assert.equal(lossRatio(inc, earned), want))

  for (const [day, want] of [
    ['2026-01-01', '2026Q1'],
    ['2026-03-31', '2026Q1'],
    ['2026-08-14', '2026Q3'],
    ['2026-12-31', '2026Q4'],
  ] as const)
    test(`vintage of ${day}: ${want}`, () => assert.equal(vintageOf(day), want))

  test('columns of November 2026', () => {
    assert.deepEqual(columnPeriods('2026-11-01', '2026-11-30'), {
      mtd: { from: '2026-11-01', to: '2026-11-30' },
      qtd: { from: '2026-10-01', to: '2026-11-30' },
      ytd: { from: '2026-01-01', to: '2026-11-30' },
      itd: { from: null, to: '2026-11-30' },
    })
  })
})

describe('property: random books', () => {
  const DAYS = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10))
  const day = fc.integer({ min: 0, max: 364 }).map((i) => DAYS[i]!)
  const monthEnds = Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(2026, m + 1, 0)).toISOString().slice(0, 10))
  const arbContract = fc
    .record({
      sale: fc.integer({ min: 0, max: 300 }),
      amount: fc.integer({ min: 1, max: 200000 }),
      share: fc.integer({ min: 0, max: 10000 }),
      fee: fc.integer({ min: 0, max: 1000 }),
      method: fc.constantFrom('PRO_RATA_DAYS', 'PRO_RATA_MONTHS', 'RULE_OF_78', 'IMMEDIATE' as const),
      cancel: fc.option(
        fc.record({
          after: fc.integer({ min: 0, max: 60 }),
          refund: fc.integer({ min: 0, max: 10000 }),
          reverse: fc.boolean(),
        }),
      ),
      claims: fc.array(fc.record({ on: day, cents: fc.integer({ min: 1, max: 100000 }), paid: fc.boolean() }), {
        maxLength: 3,
      }),
    })
    .map((r): BookContract => {
      const sale = DAYS[r.sale]!
      const cancelled: BookContract['cancelled'][number][] = []
      const cancelEvents: BookContract['cancelEvents'][number][] = []
      if (r.cancel) {
        const on = DAYS[Math.min(364, r.sale + r.cancel.after)]!
        const refund = Math.floor((r.amount * r.cancel.refund) / 10000)
        cancelled.push({ on, cents: refund })
        cancelEvents.push({ on, cents: 1 })
        if (r.cancel.reverse) {
          const back = DAYS[Math.min(364, r.sale + r.cancel.after + 10)]!
          cancelled.push({ on: back, cents: -refund })
          cancelEvents.push({ on: back, cents: -1 })
        }
      }
      return {
        id: 1,
        saleDate: sale,
        effectiveDate: sale,
        expirationDate: `${Number(sale.slice(0, 4)) + 2}${sale.slice(4)}`,
        termMonths: 24,
        shareBps: r.share,
        cedingFeeBps: r.fee,
        administratorFeeBps: 0,
        reserveLines: [
          { code: 'RES', amountCents: r.amount, terms: { method: r.method, curve: null, monthCounting: null } },
        ],
        written: [{ on: sale, cents: r.amount }],
        cancelled,
        cancelEvents,
        claimsIncurred: r.claims.map((c) => ({ on: c.on, cents: c.cents })),
        claimsPaid: r.claims.filter((c) => c.paid).map((c) => ({ on: c.on, cents: c.cents })),
      }
    })

  test('months add up to quarters and the year; earned + unearned = written − cancelled at every month end', () => {
    fc.assert(
      fc.property(fc.array(arbContract, { minLength: 1, maxLength: 6 }), (book) => {
        const month = (m: number) => {
          const from = `2026-${String(m + 1).padStart(2, '0')}-01`
          const cols = columnPeriods(from, monthEnds[m]!)
          const total = { mtd: zeroFigures(), qtd: zeroFigures(), ytd: zeroFigures(), itd: zeroFigures() }
          for (const c of book)
            for (const k of ['mtd', 'qtd', 'ytd', 'itd'] as const)
              addFigures(total[k], contractFigures(c, cols[k].from, cols[k].to))
          return total
        }
        const months = monthEnds.map((_, m) => month(m))
        const flows = FIGURES.filter((f) => f !== 'unearnedPremium' && f !== 'claimsOutstanding')
        for (let q = 0; q < 4; q++) {
          const sum = zeroFigures()
          for (let m = q * 3; m < q * 3 + 3; m++) addFigures(sum, months[m]!.mtd)
          for (const f of flows) assert.equal(sum[f], months[q * 3 + 2]!.qtd[f], `Q${q + 1} ${f}`)
        }
        const year = zeroFigures()
        for (const m of months) addFigures(year, m.mtd)
        for (const f of flows) assert.equal(year[f], months[11]!.ytd[f], f)
        for (const m of months) {
          assert.equal(m.itd.earnedPremium + m.itd.unearnedPremium, m.itd.writtenPremium - m.itd.cancellations)
          assert.equal(m.itd.claimsIncurred, m.itd.claimsPaid + m.itd.claimsOutstanding)
        }
        // Inception to date at the year's end: the share of the plain sums of the movements, per contract.
        const share = (cents: number, bps: number) => Math.floor((cents * bps + 5000) / 10000)
        const sum = (ms: BookContract['written']) => ms.reduce((n, x) => n + x.cents, 0)
        assert.equal(
          months[11]!.itd.writtenPremium,
          book.reduce((n, c) => n + share(sum(c.written), c.shareBps), 0),
        )
        assert.equal(
          months[11]!.itd.claimsPaid,
          book.reduce((n, c) => n + share(sum(c.claimsPaid), c.shareBps), 0),
        )
      }),
      { numRuns: 60 },
    )
  })
})

describe('shapeFractions: the earned fraction the database multiplies by', () => {
  const days = ['2025-12-31', '2026-01-01', '2026-03-15', '2026-12-31', '2027-01-01']
  const rows: Array<[string, BookContract['reserveLines']]> = [
    ['one pro rata line', contract().reserveLines],
    [
      'one Rule of 78 line',
      [{ code: 'RES', amountCents: 36500, terms: { method: 'RULE_OF_78', curve: null, monthCounting: null } }],
    ],
    [
      'two lines of two methods, weighted by their amounts',
      [
        { code: 'RES', amountCents: 36500, terms: { method: 'PRO_RATA_DAYS', curve: null, monthCounting: null } },
        { code: 'RSV', amountCents: 12345, terms: { method: 'PRO_RATA_MONTHS', curve: null, monthCounting: null } },
      ],
    ],
    [
      'one line of 0 and one of a Rule of 78',
      [
        { code: 'RES', amountCents: 0, terms: { method: 'PRO_RATA_DAYS', curve: null, monthCounting: null } },
        { code: 'RSV', amountCents: 50000, terms: { method: 'RULE_OF_78', curve: null, monthCounting: null } },
      ],
    ],
    ['no reserve line', []],
  ]
  for (const [name, reserveLines] of rows)
    test(name, () => {
      const c = contract({ reserveLines })
      const out = shapeFractions([{ ...c, shape: 'S' }], days)
      assert.equal(out.S!.length, days.length)
      days.forEach((day, t) => {
        const [num, den, size] = out.S![t]!
        const f = reserveFraction(c, day)
        // The same value as the rules' fraction, reduced.
        assert.equal(BigInt(num) * f.den, f.num * BigInt(den), `${day}: ${num}/${den}`)
        assert.equal(size, BigInt(num) < 2n ** 31n && BigInt(den) < 2n ** 31n ? 'small' : 'large')
        for (let p = 2n; p < 50n; p++) assert.ok(BigInt(num) % p !== 0n || BigInt(den) % p !== 0n, `reduced by ${p}`)
      })
    })
})
