import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  Decimal,
  allocate,
  centsToDecimal,
  centsToNumber,
  formatMoney,
  multiplyCents,
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
