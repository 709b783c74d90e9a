import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import {
  Decimal,
  allocate,
  centsToDecimal,
  centsToNumber,
  formatMoney,
  multiplyCents,
  multiplyCentsByRatio,
  parseDecimal,
  parseMoney,
  percentOf,
  percentOfCents,
  sumMoney,
  toCents,
} from './money.ts'

const d = (v: string) => new Decimal(v)

describe('parseMoney', () => {
  const cases: Array<[unknown, string | null, boolean?]> = [
    ['12.34', '12.34'],
    [12.34, '12.34'],
    [0, '0'],
    ['0.5', '0.5'],
    [1e21, null],
    ['12.345', null],
    ['-1.00', null],
    ['-1.00', '-1', true],
    ['1e3', null],
    [' 1', null],
    ['', null],
    [null, null],
    [Number.NaN, null],
    ['01.00', null],
    [true, null],
  ]
  for (const [input, expected, signed] of cases) {
    it(`${JSON.stringify(input)}${signed ? ' (signed)' : ''} → ${expected}`, () => {
      const parsed = parseMoney(input, { signed })
      assert.equal(parsed === null ? null : parsed.toString(), expected)
    })
  }
})

describe('money arithmetic', () => {
  it('formats with two decimals, rounding half-up', () => {
    assert.equal(formatMoney(d('2.005')), '2.01')
    assert.equal(formatMoney(d('2.004')), '2.00')
    assert.equal(formatMoney(d('-2.005')), '-2.01')
    assert.equal(formatMoney(d('1450')), '1450.00')
  })
  it('adds without binary floating-point error', () => {
    assert.equal(formatMoney(sumMoney([d('0.1'), d('0.2')])), '0.30')
    assert.equal(sumMoney([]).toString(), '0')
  })
  it('takes percentages rounded to cents', () => {
    assert.equal(percentOf(d('1450.00'), d('2.5')).toFixed(2), '36.25')
    assert.equal(percentOf(d('99.99'), d('33.3333')).toFixed(2), '33.33')
  })
  it('parses decimals with a given number of places', () => {
    assert.equal(parseDecimal('1.2345', 4)?.toString(), '1.2345')
    assert.equal(parseDecimal('1.23456', 4), null)
  })
})

describe('allocate', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['100.00', ['1', '1', '1'], ['33.34', '33.33', '33.33']],
    ['0.05', ['1', '1'], ['0.03', '0.02']],
    ['10.00', ['3', '1'], ['7.50', '2.50']],
    ['10.00', ['0', '0'], []],
    ['1.00', ['1', '2', '3'], ['0.17', '0.33', '0.50']],
    // money.md's check: PRM (35) and the last part have equal remainders; the earlier gets the cent.
    ['1250.00', ['640', '35', '175', '150', '800'], ['444.44', '24.31', '121.53', '104.17', '555.55']],
    // The same weights written with decimals split the same way.
    ['1250.00', ['640.00', '35.00', '175.00', '150.00', '800.00'], ['444.44', '24.31', '121.53', '104.17', '555.55']],
    ['-0.05', ['1', '1'], ['-0.03', '-0.02']],
    ['0.00', ['1', '2'], ['0.00', '0.00']],
  ]
  for (const [total, weights, expected] of cases) {
    it(`${total} over ${weights.join(':')}`, () => {
      const parts = allocate(d(total), weights.map(d))
      assert.deepEqual(
        parts.map((p) => p.toFixed(2)),
        expected,
      )
      if (parts.length > 0) assert.equal(sumMoney(parts).toFixed(2), d(total).toFixed(2))
    })
  }
})

describe('allocate: properties', () => {
  it('parts add up, each within a cent of its exact share, leftover cents to the largest remainders, ties to the earlier', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        (cents, weights) => {
          const sum = weights.reduce((a, b) => a + b, 0)
          const parts = allocate(
            new Decimal(cents).dividedBy(100),
            weights.map((w) => new Decimal(w)),
          )
          if (sum === 0) return parts.length === 0
          const partCents = parts.map((p) => toCents(p))
          assert.equal(
            partCents.reduce((a, b) => a + b, 0),
            cents,
          )
          const amount = BigInt(Math.abs(cents))
          const floors = weights.map((w) => (amount * BigInt(w)) / BigInt(sum))
          const rests = weights.map((w) => (amount * BigInt(w)) % BigInt(sum))
          const extra = partCents.map((p, i) => BigInt(Math.abs(p)) - floors[i]!)
          for (const e of extra) assert.ok(e === 0n || e === 1n, 'each part is its floor or one cent more')
          // Whoever got the extra cent has a remainder no smaller than anyone who did not, and on a
          // tie comes earlier.
          for (let i = 0; i < weights.length; i++) {
            for (let j = 0; j < weights.length; j++) {
              if (extra[i] === 1n && extra[j] === 0n) {
                assert.ok(rests[i]! > rests[j]! || (rests[i] === rests[j] && i < j), `part ${i} before part ${j}`)
              }
            }
          }
          return true
        },
      ),
    )
  })
  it('refuses a negative weight', () => {
    assert.throws(() => allocate(d('1.00'), [d('1'), d('-1')]), RangeError)
  })
})

describe('multiplyCentsByRatio: exact, rounded once, half up', () => {
  const cases: Array<[number, number, number, number]> = [
    // money.md: 1,000.05 × 30/36 = 83,337.5 cents exactly → 833.38 (a 40-digit factor gives 833.37).
    [100_005, 30, 36, 83_338],
    [100_000, 1, 3, 33_333],
    [100_000, 2, 3, 66_667],
    [1, 1, 2, 1],
    [1, 1, 3, 0],
    [-100_005, 30, 36, -83_337],
    [-1, 1, 2, 0],
    [0, 5, 7, 0],
    [123_456, 1096, 1096, 123_456],
    [123_456, 0, 1096, 0],
  ]
  for (const [cents, num, den, expected] of cases) {
    it(`${cents} × ${num}/${den} = ${expected}`, () => assert.equal(multiplyCentsByRatio(cents, num, den), expected))
  }
  it('refuses a denominator that is not positive, and a result beyond 2^53 cents', () => {
    assert.throws(() => multiplyCentsByRatio(100, 1, 0), RangeError)
    assert.throws(() => multiplyCentsByRatio(100, 1, -3), RangeError)
    assert.throws(() => multiplyCentsByRatio(Number.MAX_SAFE_INTEGER, 2, 1), RangeError)
  })
  it('agrees with the exact rational rounded half up', () => {
    // Amounts up to ten billion and ratios up to 100: every result stays within 2^53 cents.
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 100, max: 10_000 }),
        (cents, num, den) => {
          const exact = new Decimal(cents).times(num).dividedBy(den)
          const expected = exact.toDecimalPlaces(0, Decimal.ROUND_HALF_CEIL).toNumber()
          return multiplyCentsByRatio(cents, num, den) === expected
        },
      ),
    )
  })
})

describe('integer cents', () => {
  it('converts amounts to cents and back exactly', () => {
    assert.equal(toCents(d('1450.05')), 145005)
    assert.equal(centsToNumber(145005), 1450.05)
    assert.equal(String(centsToNumber(10)), '0.1')
    assert.equal(String(centsToNumber(30)), '0.3')
    assert.throws(() => toCents(d('1.005')), RangeError)
  })
  const products: Array<[number, string, number]> = [
    [61000, '1.10', 67100],
    [1005, '1.5', 1508],
    [-1005, '1.5', -1508],
    [12345, '1', 12345],
    [999, '0.333333', 333],
  ]
  for (const [cents, factor, expected] of products) {
    it(`${cents} × ${factor} = ${expected}`, () => assert.equal(multiplyCents(cents, d(factor)), expected))
  }
  const percents: Array<[number, string, number]> = [
    [145000, '2.5', 3625],
    [9999, '33.3333', 3333],
    [101, '50', 51],
  ]
  for (const [cents, pct, expected] of percents) {
    it(`${pct}% of ${cents} = ${expected}`, () => assert.equal(percentOfCents(cents, d(pct)), expected))
  }
})

describe('centsToDecimal', () => {
  const cases: Array<[number, string]> = [
    [0, '0.00'],
    [5, '0.05'],
    [145005, '1450.05'],
    [-1234, '-12.34'],
    [900719925474099, '9007199254740.99'],
  ]
  for (const [cents, stored] of cases)
    it(`${cents} cents → ${stored}`, () => assert.equal(centsToDecimal(cents).toFixed(2), stored))
})
