// Evaluating criteria: comparisons of each type, IN / NOT IN, BETWEEN, NOT, dates, three-valued
// logic with missing and null facts, type mismatches as errors naming the fact, explain mode, and
// the compiled-criteria cache.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import {
  compileCriteria,
  createCriteriaCache,
  CriteriaEvaluationError,
  type Facts,
  type Truth,
} from './criteria.evaluator.ts'
import { CriteriaSyntaxError } from './criteria.parser.ts'

const vehicle: Facts = {
  vehicleAge: 4,
  odometer: 48_000,
  make: 'TOYOTA',
  condition: 'USED',
  certified: false,
  'vehicle.state': 'TX',
  saleDate: '2026-05-15',
  inServiceDate: '2022-03-01',
  ltv: 1.25,
  lienHolder: null,
  "o'brien": 'x',
}

describe('evaluation', () => {
  // [criteria, three-valued result]
  const cases: Array<[string, Truth]> = [
    ["vehicleAge <= 10 AND odometer < 125000 AND make NOT IN ('TESLA', 'FERRARI') AND condition = 'USED'", true],
    ["vehicleAge <= 3 AND odometer < 125000 AND make NOT IN ('TESLA', 'FERRARI')", false],
    ["make NOT IN ('TESLA', 'TOYOTA')", false],
    ["make IN ('toyota')", false],
    ["make IN ('TOYOTA', 'LEXUS')", true],
    ['vehicleAge IN (1, 2, 4)', true],
    ['vehicleAge = 4', true],
    ['vehicleAge <> 4', false],
    ['vehicleAge != 5', true],
    ['vehicleAge < 4', false],
    ['vehicleAge <= 4', true],
    ['vehicleAge > 3', true],
    ['vehicleAge >= 5', false],
    ['4 = vehicleAge', true],
    ['ltv > 1.2', true],
    ['ltv <= -1', false],
    ["make > 'SUBARU'", true],
    ["make < 'SUBARU'", false],
    ['odometer BETWEEN 48000 AND 48000', true],
    ['odometer BETWEEN 0 AND 47999', false],
    ['odometer NOT BETWEEN 0 AND 10', true],
    ["saleDate BETWEEN DATE '2026-01-01' AND DATE '2026-12-31'", true],
    ["inServiceDate < DATE '2022-03-02'", true],
    ["inServiceDate = DATE '2022-03-01'", true],
    ["inServiceDate > DATE '2022-03-01'", false],
    ["saleDate IN (DATE '2026-05-15', DATE '2026-05-16')", true],
    ['inServiceDate < saleDate', true],
    ['certified', false],
    ['NOT certified', true],
    ['certified = FALSE', true],
    ['certified <> TRUE', true],
    ['TRUE', true],
    ["vehicle.state = 'TX'", true],
    // Precedence: NOT > AND > OR.
    ['vehicleAge = 1 OR vehicleAge = 4 AND odometer = 0', false],
    ['(vehicleAge = 1 OR vehicleAge = 4) AND odometer = 48000', true],
    ['NOT vehicleAge = 1 AND odometer = 48000', true],
    ['NOT (vehicleAge = 4 AND odometer = 0)', true],
    // Three-valued logic: a missing or null fact makes its comparison unknown.
    ['missing = 1', null],
    ['lienHolder = 1', null],
    ['NOT missing = 1', null],
    ["missing <> 'x'", null],
    ['missing IN (1, 2)', null],
    ['missing NOT IN (1, 2)', null],
    ['missing BETWEEN 1 AND 2', null],
    ['missing', null],
    ['missing = 1 AND vehicleAge = 4', null],
    ['missing = 1 AND vehicleAge = 5', false],
    ['missing = 1 OR vehicleAge = 4', true],
    ['missing = 1 OR vehicleAge = 5', null],
    ['missing IS NULL', true],
    ['lienHolder IS NULL', true],
    ['lienHolder IS NOT NULL', false],
    ['make IS NOT NULL', true],
    ['constructor IS NULL', true],
    ['__proto__ IS NULL', true],
    ['toString IS NULL', true],
  ]
  for (const [source, expected] of cases) {
    test(source, () => {
      const c = compileCriteria(source)
      assert.equal(c.evaluateTruth(vehicle), expected)
      assert.equal(c.evaluate(vehicle), expected === true)
      assert.equal(c.explain(vehicle).result, expected === true)
    })
  }
})

describe('type mismatches are errors naming the fact', () => {
  // [criteria, fact named]
  const cases: Array<[string, string]> = [
    ["vehicleAge = '4'", 'vehicleAge'],
    ['make > 3', 'make'],
    ["odometer IN ('A', 'B')", 'odometer'],
    ['make BETWEEN 1 AND 2', 'make'],
    ["vehicleAge < DATE '2020-01-01'", 'vehicleAge'],
    ["make = DATE '2020-01-01'", 'make'],
    ["make IN (DATE '2020-01-01')", 'make'],
    ['certified < TRUE', 'certified'],
    ['make', 'make'],
    ['NOT odometer', 'odometer'],
    ['certified = 1', 'certified'],
    ["ltv = 'x'", 'ltv'],
  ]
  for (const [source, fact] of cases) {
    test(source, () => {
      const c = compileCriteria(source)
      assert.throws(
        () => c.evaluate(vehicle),
        (err: unknown) =>
          err instanceof CriteriaEvaluationError && err.fact === fact && err.message.includes(`'${fact}'`),
      )
      assert.throws(() => c.explain(vehicle), CriteriaEvaluationError)
    })
  }

  test('a fact that is never reached is not checked (left-to-right short circuit)', () => {
    assert.equal(compileCriteria('vehicleAge = 5 AND make > 3').evaluate(vehicle), false)
    assert.equal(compileCriteria('vehicleAge = 4 OR make > 3').evaluate(vehicle), true)
  })
})

describe('explain', () => {
  test('gives the value of every evaluated sub-expression, and marks the skipped ones', () => {
    const c = compileCriteria("vehicleAge <= 10 AND (make IN ('TESLA') OR missing = 1) AND odometer < 1000")
    const { result, explanation } = c.explain(vehicle)
    assert.equal(result, false)
    assert.deepEqual(explanation, {
      text: "vehicleAge <= 10 AND (make IN ('TESLA') OR missing = 1) AND odometer < 1000",
      value: false,
      children: [
        { text: 'vehicleAge <= 10', value: true },
        {
          text: "(make IN ('TESLA') OR missing = 1)",
          value: null,
          children: [
            { text: "make IN ('TESLA')", value: false },
            { text: 'missing = 1', value: null },
          ],
        },
        { text: 'odometer < 1000', value: false },
      ],
    })
    const short = compileCriteria('vehicleAge = 1 AND odometer = 2 AND NOT certified').explain(vehicle).explanation
    assert.deepEqual(short.children, [
      { text: 'vehicleAge = 1', value: false },
      { text: 'odometer = 2', value: null, skipped: true },
      { text: 'NOT certified', value: null, skipped: true },
    ])
    assert.deepEqual(compileCriteria('NOT certified').explain(vehicle).explanation, {
      text: 'NOT certified',
      value: true,
      children: [{ text: 'certified', value: false }],
    })
  })

  test('explain agrees with evaluate on generated facts', () => {
    const c = compileCriteria("(a > 1 OR b = 'x') AND NOT (c IS NULL OR a BETWEEN 5 AND 9) OR b IN ('y', 'z')")
    const value = fc.option(fc.integer({ min: 0, max: 10 }), { nil: null })
    const str = fc.option(fc.constantFrom('x', 'y', 'z', 'w'), { nil: null })
    fc.assert(
      fc.property(value, str, value, (a, b, cv) => {
        const facts = { a, b, c: cv }
        assert.equal(c.explain(facts).result, c.evaluate(facts))
        assert.equal(c.explain(facts).explanation.value, c.evaluateTruth(facts))
      }),
      { numRuns: 500 },
    )
  })
})

describe('compiled-criteria cache', () => {
  test('compiles once per text, keeps at most its bound, least recently used first out', () => {
    const cache = createCriteriaCache(2)
    const a = cache.get('a = 1')
    assert.equal(cache.get('a = 1'), a)
    cache.get('b = 1')
    cache.get('a = 1')
    cache.get('c = 1')
    assert.equal(cache.size, 2)
    assert.equal(cache.get('a = 1'), a, 'recently used entry kept')
    assert.throws(() => cache.get('a ='), CriteriaSyntaxError)
    assert.equal(cache.size, 2, 'invalid criteria are not cached')
  })
})
