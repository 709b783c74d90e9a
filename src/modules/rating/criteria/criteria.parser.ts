// The criteria language (docs/criteria.md): a hand-written lexer and recursive-descent parser
// producing a small AST. Bounded: the input length and the nesting depth are capped, so any
// string ends in an AST or a CriteriaSyntaxError, never a stack overflow or a hang.
import { isIsoDate } from '../../../platform/calendar.ts'

export const MAX_CRITERIA_LENGTH = 10_000
export const MAX_CRITERIA_DEPTH = 64

export type Position = { offset: number; line: number; column: number }

export class CriteriaSyntaxError extends Error {
  readonly position: Position
  readonly expected: string
  constructor(message: string, position: Position, expected: string) {
    super(`${message} at ${position.line}:${position.column}`)
    this.name = 'CriteriaSyntaxError'
    this.position = position
    this.expected = expected
  }
}

export type ComparisonOperator = '=' | '<>' | '<' | '<=' | '>' | '>='

export type Literal =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'date'; value: string }
  | { kind: 'boolean'; value: boolean }

export type Operand =
  | { type: 'fact'; name: string; start: number; end: number }
  | { type: 'literal'; literal: Literal; start: number; end: number }

type Span = { start: number; end: number }
export type CriteriaNode = Span &
  (
    | { type: 'and' | 'or'; operands: CriteriaNode[] }
    | { type: 'not'; operand: CriteriaNode }
    | { type: 'compare'; operator: ComparisonOperator; left: Operand; right: Operand }
    | { type: 'in'; negated: boolean; operand: Operand; values: Literal[] }
    | { type: 'between'; negated: boolean; operand: Operand; low: Operand; high: Operand }
    | { type: 'isNull'; negated: boolean; operand: Operand }
    | { type: 'truth'; operand: Operand }
  )

type TokenType = 'ident' | 'keyword' | 'number' | 'string' | 'op' | 'eof'
type Token = { type: TokenType; text: string; value: string; start: number; end: number }

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'IS', 'NULL', 'TRUE', 'FALSE', 'DATE'])

export function positionOf(source: string, offset: number): Position {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { offset, line, column: offset - lineStart + 1 }
}

const isDigit = (c: string) => c >= '0' && c <= '9'
const isIdentStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_'
const isIdentPart = (c: string) => isIdentStart(c) || isDigit(c) || c === '.'

function describe(token: Token): string {
  if (token.type === 'eof') return 'the end of the criteria'
  if (token.type === 'string') return 'a string'
  if (token.type === 'number') return `the number ${token.text}`
  const shown = token.text.length > 40 ? `${token.text.slice(0, 40)}…` : token.text
  return `'${shown}'`
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  const fail = (message: string, offset: number, expected: string): never => {
    throw new CriteriaSyntaxError(message, positionOf(source, offset), expected)
  }
  let i = 0
  const n = source.length
  while (i < n) {
    const c = source[i]!
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++
      continue
    }
    const start = i
    if (isIdentStart(c)) {
      while (i < n && isIdentPart(source[i]!)) i++
      const text = source.slice(start, i)
      if (text.endsWith('.') || text.includes('..'))
        fail(
          `invalid fact name '${text}'`,
          start,
          'a fact name (letters, digits, underscores, single dots between parts)',
        )
      const upper = text.toUpperCase()
      tokens.push(
        KEYWORDS.has(upper)
          ? { type: 'keyword', text, value: upper, start, end: i }
          : { type: 'ident', text, value: text, start, end: i },
      )
      continue
    }
    if (isDigit(c) || (c === '-' && i + 1 < n && isDigit(source[i + 1]!))) {
      i++
      while (i < n && isDigit(source[i]!)) i++
      if (source[i] === '.') {
        i++
        if (i >= n || !isDigit(source[i]!)) fail('expected digits after the decimal point', i, 'a digit')
        while (i < n && isDigit(source[i]!)) i++
      }
      if (i < n && isIdentPart(source[i]!))
        fail(`unexpected '${source[i]}' after a number`, i, 'a space, an operator or a parenthesis')
      const text = source.slice(start, i)
      if (!Number.isFinite(Number(text))) fail('number out of range', start, 'a finite number')
      tokens.push({ type: 'number', text, value: text, start, end: i })
      continue
    }
    if (c === "'") {
      i++
      let value = ''
      for (;;) {
        if (i >= n) fail('unterminated string', start, "a closing quote (')")
        const ch = source[i]!
        if (ch === "'") {
          if (source[i + 1] === "'") {
            value += "'"
            i += 2
            continue
          }
          i++
          break
        }
        value += ch
        i++
      }
      tokens.push({ type: 'string', text: source.slice(start, i), value, start, end: i })
      continue
    }
    const two = source.slice(i, i + 2)
    if (two === '<=' || two === '>=' || two === '<>' || two === '!=') {
      i += 2
      tokens.push({ type: 'op', text: two, value: two === '!=' ? '<>' : two, start, end: i })
      continue
    }
    if (c === '=' || c === '<' || c === '>' || c === '(' || c === ')' || c === ',') {
      i++
      tokens.push({ type: 'op', text: c, value: c, start, end: i })
      continue
    }
    const code = source.codePointAt(i)!
    const shown =
      code >= 0x20 && code < 0x7f ? `'${c}'` : `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    fail(`unexpected ${shown}`, start, 'a fact name, a literal, an operator or a parenthesis')
  }
  tokens.push({ type: 'eof', text: '', value: '', start: n, end: n })
  return tokens
}

/** Parses a criteria string; throws CriteriaSyntaxError (and nothing else) when it is not valid. */
export function parseCriteria(source: string): CriteriaNode {
  if (typeof source !== 'string')
    throw new CriteriaSyntaxError('criteria must be a string', { offset: 0, line: 1, column: 1 }, 'a string')
  if (source.length > MAX_CRITERIA_LENGTH) {
    throw new CriteriaSyntaxError(
      `criteria longer than ${MAX_CRITERIA_LENGTH} characters`,
      positionOf(source, MAX_CRITERIA_LENGTH),
      `at most ${MAX_CRITERIA_LENGTH} characters`,
    )
  }
  const tokens = tokenize(source)
  let pos = 0
  let depth = 0
  const peek = () => tokens[pos]!
  const next = () => tokens[pos++]!
  const isKeyword = (t: Token, kw: string) => t.type === 'keyword' && t.value === kw
  const isOp = (t: Token, op: string) => t.type === 'op' && t.value === op
  const fail = (expected: string, token: Token, after?: Token): never => {
    const where = after ? ` after ${describe(after)}` : ''
    const found = token.type === 'eof' ? '' : `, found ${describe(token)}`
    throw new CriteriaSyntaxError(`expected ${expected}${where}${found}`, positionOf(source, token.start), expected)
  }
  const expectKeyword = (kw: string, after: Token) => {
    const t = peek()
    if (!isKeyword(t, kw)) fail(`'${kw}'`, t, after)
    return next()
  }
  const expectOp = (op: string, after: Token) => {
    const t = peek()
    if (!isOp(t, op)) fail(`'${op}'`, t, after)
    return next()
  }
  const enter = (token: Token) => {
    if (++depth > MAX_CRITERIA_DEPTH) {
      throw new CriteriaSyntaxError(
        `nesting deeper than ${MAX_CRITERIA_DEPTH} levels`,
        positionOf(source, token.start),
        `at most ${MAX_CRITERIA_DEPTH} levels of parentheses and NOT`,
      )
    }
  }

  function literal(after: Token): Literal & Span {
    const t = peek()
    if (t.type === 'string') {
      next()
      return { kind: 'string', value: t.value, start: t.start, end: t.end }
    }
    if (t.type === 'number') {
      next()
      return { kind: 'number', value: Number(t.value), start: t.start, end: t.end }
    }
    if (isKeyword(t, 'TRUE') || isKeyword(t, 'FALSE')) {
      next()
      return { kind: 'boolean', value: t.value === 'TRUE', start: t.start, end: t.end }
    }
    if (isKeyword(t, 'DATE')) {
      next()
      const s = peek()
      if (s.type !== 'string') fail("a date in quotes ('YYYY-MM-DD')", s, t)
      if (!isIsoDate(s.value))
        throw new CriteriaSyntaxError(
          `invalid date ${s.text}`,
          positionOf(source, s.start),
          "a real date written 'YYYY-MM-DD'",
        )
      next()
      return { kind: 'date', value: s.value, start: t.start, end: s.end }
    }
    if (isKeyword(t, 'NULL')) fail('a value (NULL is only allowed in IS NULL / IS NOT NULL)', t, after)
    return fail('a value', t, after)
  }

  function operand(after: Token): Operand {
    const t = peek()
    if (t.type === 'ident') {
      next()
      return { type: 'fact', name: t.value, start: t.start, end: t.end }
    }
    const lit = literal(after)
    const { start, end, ...rest } = lit
    return { type: 'literal', literal: rest as Literal, start, end }
  }

  function orExpr(): CriteriaNode {
    const first = andExpr()
    if (!isKeyword(peek(), 'OR')) return first
    const operands = [first]
    while (isKeyword(peek(), 'OR')) {
      next()
      operands.push(andExpr())
    }
    return { type: 'or', operands, start: first.start, end: operands[operands.length - 1]!.end }
  }

  function andExpr(): CriteriaNode {
    const first = notExpr()
    if (!isKeyword(peek(), 'AND')) return first
    const operands = [first]
    while (isKeyword(peek(), 'AND')) {
      next()
      operands.push(notExpr())
    }
    return { type: 'and', operands, start: first.start, end: operands[operands.length - 1]!.end }
  }

  function notExpr(): CriteriaNode {
    const t = peek()
    if (isKeyword(t, 'NOT')) {
      enter(t)
      next()
      const negatedNode = notExpr()
      depth--
      return { type: 'not', operand: negatedNode, start: t.start, end: negatedNode.end }
    }
    return predicate()
  }

  function predicate(): CriteriaNode {
    const t = peek()
    if (isOp(t, '(')) {
      enter(t)
      next()
      const inner = orExpr()
      const close = peek()
      if (!isOp(close, ')')) fail("')' or AND / OR", close)
      next()
      depth--
      return { ...inner, start: t.start, end: close.end }
    }
    if (
      t.type === 'eof' ||
      isOp(t, ')') ||
      isOp(t, ',') ||
      (t.type === 'keyword' && ['AND', 'OR', 'IN', 'BETWEEN', 'IS'].includes(t.value)) ||
      (t.type === 'op' && t.value !== '(')
    ) {
      const prev = pos > 0 ? tokens[pos - 1] : undefined
      fail('a condition (a fact name, NOT or a parenthesis)', t, prev)
    }
    const left = operand(t)
    const op = peek()
    if (op.type === 'op' && ['=', '<>', '<', '<=', '>', '>='].includes(op.value)) {
      next()
      const right = operand(op)
      return {
        type: 'compare',
        operator: op.value as ComparisonOperator,
        left,
        right,
        start: left.start,
        end: right.end,
      }
    }
    let negated = false
    if (isKeyword(op, 'NOT')) {
      next()
      negated = true
      const kw = peek()
      if (!isKeyword(kw, 'IN') && !isKeyword(kw, 'BETWEEN')) fail("'IN' or 'BETWEEN'", kw, op)
    }
    const kw = peek()
    if (isKeyword(kw, 'IN')) {
      next()
      const open = expectOp('(', kw)
      const values: Literal[] = []
      let last = open
      for (;;) {
        const { start: _s, end: _e, ...lit } = literal(last)
        values.push(lit as Literal)
        const sep = peek()
        if (isOp(sep, ',')) {
          last = next()
          continue
        }
        if (isOp(sep, ')')) {
          next()
          return { type: 'in', negated, operand: left, values, start: left.start, end: sep.end }
        }
        fail("',' or ')'", sep, tokens[pos - 1])
      }
    }
    if (isKeyword(kw, 'BETWEEN')) {
      next()
      const low = operand(kw)
      const and = expectKeyword('AND', tokens[pos - 1]!)
      const high = operand(and)
      return { type: 'between', negated, operand: left, low, high, start: left.start, end: high.end }
    }
    if (isKeyword(kw, 'IS')) {
      next()
      let isNegated = false
      if (isKeyword(peek(), 'NOT')) {
        next()
        isNegated = true
      }
      const nul = expectKeyword('NULL', tokens[pos - 1]!)
      return { type: 'isNull', negated: isNegated, operand: left, start: left.start, end: nul.end }
    }
    if (left.type === 'fact' || left.literal.kind === 'boolean')
      return { type: 'truth', operand: left, start: left.start, end: left.end }
    return fail('a comparison operator, IN, BETWEEN or IS', kw, tokens[pos - 1])
  }

  const root = orExpr()
  const end = peek()
  if (end.type !== 'eof') {
    if (isOp(end, ')')) fail("AND, OR or the end of the criteria (unbalanced ')')", end)
    fail('AND, OR or the end of the criteria', end, tokens[pos - 1])
  }
  return root
}
