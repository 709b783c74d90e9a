// Compiles a criteria AST (criteria.parser.ts) once into a tree of closures, evaluated against a
// facts object. Three-valued logic (true / false / unknown) as in SQL: a comparison involving a
// missing or null fact is unknown; NOT, AND and OR follow Kleene's tables; the final answer is true
// only when the whole criteria is true (unknown counts as not satisfied). A fact whose type does not
// fit the literal it is compared with is an evaluation error naming the fact (docs/criteria.md).
import { isIsoDate } from '../../../platform/calendar.ts'
import { parseCriteria, type CriteriaNode, type Literal, type Operand } from './criteria.parser.ts'

export type FactValue = string | number | boolean | null
export type Facts = Readonly<Record<string, FactValue>>
/** true, false, or null for unknown. */
export type Truth = boolean | null

export type Explanation = { text: string; value: Truth; skipped?: true; children?: Explanation[] }

export class CriteriaEvaluationError extends Error {
  readonly fact: string
  constructor(fact: string, message: string) {
    super(message)
    this.name = 'CriteriaEvaluationError'
    this.fact = fact
  }
}

type Getter = (facts: Facts) => FactValue
type ValueType = 'string' | 'number' | 'boolean' | 'date'
type CompiledOperand = { get: Getter; name: string | undefined; literalType: ValueType | undefined }
type Test = (facts: Facts) => Truth

type Node = { text: string; test: Test; children: Node[] | undefined; combine: 'and' | 'or' | 'not' | undefined }

export type CompiledCriteria = {
  readonly source: string
  /** true when the criteria holds for these facts; unknown counts as false. */
  evaluate(facts: Facts): boolean
  /** The three-valued result. */
  evaluateTruth(facts: Facts): Truth
  /** The result with the value of every sub-expression evaluated (short-circuited ones are marked skipped). */
  explain(facts: Facts): { result: boolean; explanation: Explanation }
}

const hasOwn = Object.prototype.hasOwnProperty

function literalValue(lit: Literal): FactValue {
  return lit.value
}

function compileOperand(op: Operand): CompiledOperand {
  if (op.type === 'literal') {
    const value = literalValue(op.literal)
    return { get: () => value, name: undefined, literalType: op.literal.kind }
  }
  const name = op.name
  return { get: (facts) => (hasOwn.call(facts, name) ? (facts[name] ?? null) : null), name, literalType: undefined }
}

function typeName(v: FactValue): string {
  return v === null ? 'null' : typeof v
}

/**
 * Reads both sides as values of one type for an ordering or equality test; null when either is
 * null (unknown). A DATE literal on one side requires a 'YYYY-MM-DD' date string on the other.
 */
function checkedPair(a: CompiledOperand, b: CompiledOperand): (facts: Facts) => [FactValue, FactValue] | null {
  const dateMode = a.literalType === 'date' || b.literalType === 'date'
  const mismatch = (x: CompiledOperand, y: CompiledOperand, xv: FactValue, yv: FactValue): never => {
    const culprit = x.name ?? y.name ?? '(literal)'
    const expected = dateMode ? "a date ('YYYY-MM-DD')" : (y.literalType ?? typeName(yv))
    throw new CriteriaEvaluationError(
      culprit,
      `fact '${culprit}' is ${typeName(xv)} ${JSON.stringify(xv)}, but is compared with ${expected}`,
    )
  }
  return (facts) => {
    const av = a.get(facts)
    const bv = b.get(facts)
    if (av === null || bv === null) return null
    if (dateMode) {
      if (typeof av !== 'string' || !isIsoDate(av)) mismatch(a, b, av, bv)
      if (typeof bv !== 'string' || !isIsoDate(bv)) mismatch(b, a, bv, av)
      return [av, bv]
    }
    if (typeof av !== typeof bv) return a.name !== undefined ? mismatch(a, b, av, bv) : mismatch(b, a, bv, av)
    return [av, bv]
  }
}

function orderingAllowed(pair: [FactValue, FactValue], fact: string, operator: string) {
  if (typeof pair[0] === 'boolean')
    throw new CriteriaEvaluationError(fact, `booleans cannot be ordered ('${fact}' ${operator} ...): use = or <>`)
}

function compileNode(node: CriteriaNode, source: string): Node {
  const text = source.slice(node.start, node.end)
  const leaf = (test: Test): Node => ({ text, test, children: undefined, combine: undefined })
  switch (node.type) {
    case 'and': {
      const children = node.operands.map((n) => compileNode(n, source))
      const tests = children.map((c) => c.test)
      return {
        text,
        children,
        combine: 'and',
        test: (facts) => {
          let result: Truth = true
          for (const t of tests) {
            const v = t(facts)
            if (v === false) return false
            if (v === null) result = null
          }
          return result
        },
      }
    }
    case 'or': {
      const children = node.operands.map((n) => compileNode(n, source))
      const tests = children.map((c) => c.test)
      return {
        text,
        children,
        combine: 'or',
        test: (facts) => {
          let result: Truth = false
          for (const t of tests) {
            const v = t(facts)
            if (v === true) return true
            if (v === null) result = null
          }
          return result
        },
      }
    }
    case 'not': {
      const child = compileNode(node.operand, source)
      const inner = child.test
      return {
        text,
        children: [child],
        combine: 'not',
        test: (facts) => {
          const v = inner(facts)
          return v === null ? null : !v
        },
      }
    }
    case 'compare': {
      const left = compileOperand(node.left)
      const right = compileOperand(node.right)
      const pairOf = checkedPair(left, right)
      const fact = left.name ?? right.name ?? '(literal)'
      const op = node.operator
      if (op === '=' || op === '<>') {
        const equal = op === '='
        return leaf((facts) => {
          const p = pairOf(facts)
          return p === null ? null : (p[0] === p[1]) === equal
        })
      }
      const cmp: (a: string | number, b: string | number) => boolean =
        op === '<' ? (a, b) => a < b : op === '<=' ? (a, b) => a <= b : op === '>' ? (a, b) => a > b : (a, b) => a >= b
      return leaf((facts) => {
        const p = pairOf(facts)
        if (p === null) return null
        orderingAllowed(p, fact, op)
        return cmp(p[0] as string | number, p[1] as string | number)
      })
    }
    case 'in': {
      const operand = compileOperand(node.operand)
      const fact = operand.name ?? '(literal)'
      const kinds = new Set(node.values.map((v) => v.kind))
      const values = new Set<FactValue>(node.values.map(literalValue))
      const negated = node.negated
      return leaf((facts) => {
        const v = operand.get(facts)
        if (v === null) return null
        const kind = typeof v === 'string' && kinds.has('date') ? 'date' : typeof v
        if (!kinds.has(kind as Literal['kind'])) {
          throw new CriteriaEvaluationError(
            fact,
            `fact '${fact}' is ${typeName(v)} ${JSON.stringify(v)}, but the IN list holds ${[...kinds].join(', ')} values`,
          )
        }
        if (kind === 'date' && !isIsoDate(v as string))
          throw new CriteriaEvaluationError(fact, `fact '${fact}' is ${JSON.stringify(v)}, not a date ('YYYY-MM-DD')`)
        return values.has(v) !== negated
      })
    }
    case 'between': {
      const operand = compileOperand(node.operand)
      const low = checkedPair(operand, compileOperand(node.low))
      const high = checkedPair(operand, compileOperand(node.high))
      const fact = operand.name ?? '(literal)'
      const negated = node.negated
      return leaf((facts) => {
        const lo = low(facts)
        const hi = high(facts)
        if (lo === null || hi === null) return null
        orderingAllowed(lo, fact, 'BETWEEN')
        orderingAllowed(hi, fact, 'BETWEEN')
        const inside =
          (lo[0] as string | number) >= (lo[1] as string | number) &&
          (hi[0] as string | number) <= (hi[1] as string | number)
        return inside !== negated
      })
    }
    case 'isNull': {
      const operand = compileOperand(node.operand)
      const negated = node.negated
      return leaf((facts) => (operand.get(facts) === null) !== negated)
    }
    case 'truth': {
      const operand = compileOperand(node.operand)
      const fact = operand.name ?? '(literal)'
      return leaf((facts) => {
        const v = operand.get(facts)
        if (v === null) return null
        if (typeof v !== 'boolean')
          throw new CriteriaEvaluationError(
            fact,
            `fact '${fact}' is used as a condition but is ${typeName(v)} ${JSON.stringify(v)}, not boolean`,
          )
        return v
      })
    }
  }
}

function explainNode(node: Node, facts: Facts): Explanation {
  if (!node.children) return { text: node.text, value: node.test(facts) }
  const children: Explanation[] = []
  let value: Truth
  if (node.combine === 'not') {
    const child = explainNode(node.children[0]!, facts)
    children.push(child)
    value = child.value === null ? null : !child.value
  } else {
    const decisive = node.combine === 'or'
    value = !decisive
    let done = false
    for (const c of node.children) {
      if (done) {
        children.push({ text: c.text, value: null, skipped: true })
        continue
      }
      const e = explainNode(c, facts)
      children.push(e)
      if (e.value === decisive) {
        value = decisive
        done = true
      } else if (e.value === null) value = null
    }
  }
  return { text: node.text, value, children }
}

/** Compiles an AST (of `source`) into an evaluator. */
export function compileAst(ast: CriteriaNode, source: string): CompiledCriteria {
  const root = compileNode(ast, source)
  const test = root.test
  return {
    source,
    evaluate: (facts) => test(facts) === true,
    evaluateTruth: test,
    explain(facts) {
      const explanation = explainNode(root, facts)
      return { result: explanation.value === true, explanation }
    },
  }
}

/** Parses and compiles; throws CriteriaSyntaxError when the text is not valid criteria. */
export function compileCriteria(source: string): CompiledCriteria {
  return compileAst(parseCriteria(source), source)
}

/** A bounded cache from criteria text to its compiled form (least recently used entries leave first). */
export function createCriteriaCache(maxEntries = 1000) {
  const entries = new Map<string, CompiledCriteria>()
  return {
    get(source: string): CompiledCriteria {
      const hit = entries.get(source)
      if (hit) {
        entries.delete(source)
        entries.set(source, hit)
        return hit
      }
      const compiled = compileCriteria(source)
      entries.set(source, compiled)
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
      return compiled
    },
    get size() {
      return entries.size
    },
    clear() {
      entries.clear()
    },
  }
}
