// The criteria parser: what parses to what (precedence, IN, BETWEEN, NOT, literals), every syntax
// error with its position and what was expected, the limits, and a property test: any string,
// arbitrary or grammar-shaped, gives an AST or a CriteriaSyntaxError, never anything else.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import {
  CriteriaSyntaxError,
  MAX_CRITERIA_DEPTH,
  MAX_CRITERIA_LENGTH,
  parseCriteria,
  type CriteriaNode,
  type Operand,
} from './criteria.parser.ts'

/** A compact, fully parenthesised rendering of the AST, to compare shapes in one line. */
function show(n: CriteriaNode): string {
  const op = (o: Operand) =>
    o.type === 'fact' ? o.name : o.literal.kind === 'date' ? `D${o.literal.value}` : JSON.stringify(o.literal.value)
  switch (n.type) {
    case 'and':
    case 'or':
      return `(${n.operands.map(show).join(` ${n.type} `)})`
    case 'not':
      return `(not ${show(n.operand)})`
    case 'compare':
      return `${op(n.left)}${n.operator}${op(n.right)}`
    case 'in':
      return `${op(n.operand)} ${n.negated ? 'notin' : 'in'} [${n.values.map((v) => JSON.stringify(v.value)).join(',')}]`
    case 'between':
      return `${op(n.operand)} ${n.negated ? 'notbetween' : 'between'} ${op(n.low)}..${op(n.high)}`
    case 'isNull':
      return `${op(n.operand)} ${n.negated ? 'isnotnull' : 'isnull'}`
    case 'truth':
      return `?${op(n.operand)}`
  }
}

describe('valid criteria', () => {
  const cases: Array<[string, string]> = [
    [
      "vehicleAge <= 10 AND odometer < 125000 AND make NOT IN ('TESLA', 'FERRARI') AND condition = 'USED'",
      '(vehicleAge<=10 and odometer<125000 and make notin ["TESLA","FERRARI"] and condition="USED")',
    ],
    ['a = 1 OR b = 2 AND c = 3', '(a=1 or (b=2 and c=3))'],
    ['(a = 1 OR b = 2) AND c = 3', '((a=1 or b=2) and c=3)'],
    ['NOT a = 1 AND b = 2', '((not a=1) and b=2)'],
    ['NOT (a = 1 AND b = 2)', '(not (a=1 and b=2))'],
    ['NOT NOT a', '(not (not ?a))'],
    ['a = 1 OR b = 2 OR c = 3', '(a=1 or b=2 or c=3)'],
    ['x BETWEEN 1 AND 5 AND y = 2', '(x between 1..5 and y=2)'],
    ['x NOT BETWEEN -1.5 AND 2.25', 'x notbetween -1.5..2.25'],
    ["make IN ('A')", 'make in ["A"]'],
    ['n in (1, 2.5, -3)', 'n in [1,2.5,-3]'],
    ["s = 'it''s'", 's="it\'s"'],
    ["s = ''", 's=""'],
    ["inService >= DATE '2024-02-29'", 'inService>=D2024-02-29'],
    ["saleDate BETWEEN date '2024-01-01' and DATE '2024-12-31'", 'saleDate between D2024-01-01..D2024-12-31'],
    ['certified = TRUE or Flag = false', '(certified=true or Flag=false)'],
    ['certified', '?certified'],
    ['TRUE', '?true'],
    ['lienHolder IS NULL', 'lienHolder isnull'],
    ['lienHolder is not null', 'lienHolder isnotnull'],
    ["vehicle.make <> 'BMW'", 'vehicle.make<>"BMW"'],
    ['a != 1', 'a<>1'],
    ['a>1 AND b>=2 AND c<3', '(a>1 and b>=2 and c<3)'],
    ['  \n a\n=\t1  ', 'a=1'],
    ['10 > vehicleAge', '10>vehicleAge'],
    ['loanToValue <= maxLtv', 'loanToValue<=maxLtv'],
    ['_x1 = 0', '_x1=0'],
  ]
  for (const [source, expected] of cases) {
    test(source, () => assert.equal(show(parseCriteria(source)), expected))
  }

  test('spans cover the text of each sub-expression', () => {
    const source = "(a = 1) AND make IN ('X')"
    const ast = parseCriteria(source)
    assert.equal(ast.type, 'and')
    if (ast.type !== 'and') return
    assert.deepEqual(
      ast.operands.map((o) => source.slice(o.start, o.end)),
      ['(a = 1)', "make IN ('X')"],
    )
  })
})

describe('syntax errors carry the position and what was expected', () => {
  // [criteria, message, offset]
  const cases: Array<[string, string, number]> = [
    ['vehicleAge <= ', "expected a value after '<=' at 1:15", 14],
    ['vehicleAge <= AND x = 1', "expected a value after '<=', found 'AND' at 1:15", 14],
    ['', 'expected a condition (a fact name, NOT or a parenthesis) at 1:1', 0],
    ['   ', 'expected a condition (a fact name, NOT or a parenthesis) at 1:4', 3],
    ['a = 1 AND', "expected a condition (a fact name, NOT or a parenthesis) after 'AND' at 1:10", 9],
    ['(a = 1', "expected ')' or AND / OR at 1:7", 6],
    ['a = 1)', "expected AND, OR or the end of the criteria (unbalanced ')'), found ')' at 1:6", 5],
    ['a = 1 b = 2', "expected AND, OR or the end of the criteria after the number 1, found 'b' at 1:7", 6],
    ["a = 'open", 'unterminated string at 1:5', 4],
    ['a IN ()', "expected a value after '(', found ')' at 1:7", 6],
    ['a IN (1, 2', "expected ',' or ')' after the number 2 at 1:11", 10],
    ['a IN 1', "expected '(' after 'IN', found the number 1 at 1:6", 5],
    ['a NOT = 1', "expected 'IN' or 'BETWEEN' after 'NOT', found '=' at 1:7", 6],
    ['a BETWEEN 1 OR 2', "expected 'AND' after the number 1, found 'OR' at 1:13", 12],
    ['a = NULL', "expected a value (NULL is only allowed in IS NULL / IS NOT NULL) after '=', found 'NULL' at 1:5", 4],
    ['a IS 1', "expected 'NULL' after 'IS', found the number 1 at 1:6", 5],
    ["d = DATE '2024-02-30'", "invalid date '2024-02-30' at 1:10", 9],
    ['d = DATE 2024', "expected a date in quotes ('YYYY-MM-DD') after 'DATE', found the number 2024 at 1:10", 9],
    ['a = 1.', 'expected digits after the decimal point at 1:7', 6],
    ['a = 12abc', "unexpected 'a' after a number at 1:7", 6],
    ['a = 1 &', "unexpected '&' at 1:7", 6],
    ['a = 1\nAND b ~ 2', "unexpected '~' at 2:7", 12],
    ['a = 1\u0000', 'unexpected character U+0000 at 1:6', 5],
    ['a. = 1', "invalid fact name 'a.' at 1:1", 0],
    ['42', 'expected a comparison operator, IN, BETWEEN or IS after the number 42 at 1:3', 2],
    ["'x'", 'expected a comparison operator, IN, BETWEEN or IS after a string at 1:4', 3],
    ['= 1', "expected a condition (a fact name, NOT or a parenthesis), found '=' at 1:1", 0],
    [`n = 1${'0'.repeat(400)}`, 'number out of range at 1:5', 4],
  ]
  for (const [source, message, offset] of cases) {
    test(JSON.stringify(source), () => {
      assert.throws(
        () => parseCriteria(source),
        (err: unknown) => {
          assert.ok(err instanceof CriteriaSyntaxError, String(err))
          assert.equal(err.message, message)
          assert.equal(err.position.offset, offset)
          assert.ok(err.expected.length > 0)
          return true
        },
      )
    })
  }

  test('line and column count from 1 across lines', () => {
    try {
      parseCriteria('a = 1 AND\n  b IN (1,\n    )')
      assert.fail('should throw')
    } catch (err) {
      assert.ok(err instanceof CriteriaSyntaxError)
      assert.deepEqual(err.position, { offset: 25, line: 3, column: 5 })
    }
  })
})

describe('limits', () => {
  test(`at most ${MAX_CRITERIA_LENGTH} characters`, () => {
    const atLimit = `a = '${'x'.repeat(MAX_CRITERIA_LENGTH - 6)}'`
    assert.equal(atLimit.length, MAX_CRITERIA_LENGTH)
    assert.equal(parseCriteria(atLimit).type, 'compare')
    assert.throws(
      () => parseCriteria(`${atLimit} `),
      (e: unknown) => e instanceof CriteriaSyntaxError && /longer than 10000/.test(e.message),
    )
  })

  test(`at most ${MAX_CRITERIA_DEPTH} levels of nesting, whether parentheses or NOT`, () => {
    const nested = (d: number) => `${'('.repeat(d)}a = 1${')'.repeat(d)}`
    assert.equal(parseCriteria(nested(MAX_CRITERIA_DEPTH)).type, 'compare')
    assert.throws(
      () => parseCriteria(nested(MAX_CRITERIA_DEPTH + 1)),
      (e: unknown) =>
        e instanceof CriteriaSyntaxError &&
        /nesting deeper than 64/.test(e.message) &&
        e.position.offset === MAX_CRITERIA_DEPTH,
    )
    assert.throws(() => parseCriteria(`${'NOT '.repeat(MAX_CRITERIA_DEPTH + 1)}a`), CriteriaSyntaxError)
    assert.throws(() => parseCriteria('('.repeat(5000)), CriteriaSyntaxError)
  })

  test('long flat chains stay shallow (n-ary AND / OR)', () => {
    const chain = Array.from({ length: 900 }, (_, i) => `f${i} = ${i}`)
      .join(' AND ')
      .slice(0, MAX_CRITERIA_LENGTH)
    const ast = parseCriteria(chain.slice(0, chain.lastIndexOf(' AND ')))
    assert.equal(ast.type, 'and')
  })
})

// ---- property test ----

const factName = fc.constantFrom(
  'vehicleAge',
  'odometer',
  'make',
  'condition',
  'vehicle.make',
  'ltv',
  'saleDate',
  'certified',
  'x_1',
)
const literalText = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((d) => d.toFixed(2)),
  fc.string({ maxLength: 8 }).map((s) => `'${s.replaceAll("'", "''")}'`),
  fc
    .date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true })
    .map((d) => `DATE '${d.toISOString().slice(0, 10)}'`),
  fc.constantFrom('TRUE', 'FALSE', 'true', 'False'),
)
const operandText = fc.oneof({ weight: 3, arbitrary: factName }, { weight: 2, arbitrary: literalText })
const predicateText = fc.oneof(
  fc
    .tuple(operandText, fc.constantFrom('=', '<>', '!=', '<', '<=', '>', '>='), operandText)
    .map(([a, o, b]) => `${a} ${o} ${b}`),
  fc
    .tuple(factName, fc.boolean(), fc.array(literalText, { minLength: 1, maxLength: 4 }))
    .map(([f, n, vs]) => `${f} ${n ? 'NOT IN' : 'IN'} (${vs.join(', ')})`),
  fc
    .tuple(factName, fc.boolean(), operandText, operandText)
    .map(([f, n, a, b]) => `${f} ${n ? 'NOT BETWEEN' : 'BETWEEN'} ${a} AND ${b}`),
  fc.tuple(factName, fc.boolean()).map(([f, n]) => `${f} IS ${n ? 'NOT ' : ''}NULL`),
  factName,
)
const criteriaText: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    predicateText,
    fc.tuple(tie('expr'), fc.constantFrom('AND', 'OR', 'and', 'or'), tie('expr')).map(([a, o, b]) => `${a} ${o} ${b}`),
    tie('expr').map((e) => `NOT ${e}`),
    tie('expr').map((e) => `(${e})`),
  ),
})).expr

/** Damages a mostly-valid criteria: deletes, duplicates or inserts a slice, or cuts it short. */
const mutated = fc
  .tuple(
    criteriaText,
    fc.nat(),
    fc.nat(),
    fc.constantFrom('delete', 'duplicate', 'insert', 'truncate', 'deepen'),
    fc.constantFrom('(', ')', "'", ',', 'AND', 'NOT', 'DATE', '-', '.', '\u0000', '😀', ' IS ', '<'),
  )
  .map(([s, a, b, how, piece]) => {
    const i = s.length === 0 ? 0 : a % s.length
    const j = s.length === 0 ? 0 : b % s.length
    const [lo, hi] = i <= j ? [i, j] : [j, i]
    switch (how) {
      case 'delete':
        return s.slice(0, lo) + s.slice(hi)
      case 'duplicate':
        return s.slice(0, hi) + s.slice(lo, hi) + s.slice(hi)
      case 'insert':
        return s.slice(0, i) + piece + s.slice(i)
      case 'truncate':
        return s.slice(0, i)
      case 'deepen':
        return `${'('.repeat(b % 100)}${s}${')'.repeat(a % 100)}`
    }
  })

const anyString = fc.oneof(
  { weight: 3, arbitrary: criteriaText },
  { weight: 3, arbitrary: mutated },
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom('(', ')', 'NOT ', 'a', ' = ', '1', "'", ' AND ', ' OR ', ' IN ', ','),
      maxLength: 300,
    }),
  },
  { weight: 1, arbitrary: fc.nat({ max: 12_000 }).map((n) => '('.repeat(n)) },
)

test('any string parses to an AST or throws CriteriaSyntaxError, nothing else (12,000 runs)', () => {
  let valid = 0
  fc.assert(
    fc.property(anyString, (source) => {
      try {
        const ast = parseCriteria(source)
        assert.ok(ast.start >= 0 && ast.end <= source.length)
        valid++
      } catch (err) {
        if (!(err instanceof CriteriaSyntaxError)) throw err
        assert.ok(err.position.offset >= 0 && err.position.offset <= source.length)
        assert.ok(err.position.line >= 1 && err.position.column >= 1)
      }
    }),
    { numRuns: 12_000 },
  )
  assert.ok(valid > 1000, `only ${valid} generated strings were valid criteria`)
})

test('grammar-shaped criteria always parse (5,000 runs)', () => {
  fc.assert(
    fc.property(criteriaText, (source) => {
      fc.pre(source.length <= MAX_CRITERIA_LENGTH)
      try {
        parseCriteria(source)
      } catch (err) {
        // The only legitimate refusal of generated text: nesting too deep.
        assert.ok(
          err instanceof CriteriaSyntaxError && /nesting deeper/.test(err.message),
          `${String(err)} for ${source}`,
        )
      }
    }),
    { numRuns: 5_000 },
  )
})
