// SCIM filters and PATCH paths (RFC 7644 §3.4.2.2 and §3.5.2): a tokenizer and a recursive-descent
// parser for the whole grammar, so that anything outside what the service answers is refused with a
// reason rather than misread; then a planner that reduces a filter to the lookups the user store can
// answer. Attribute names and operators are case-insensitive (§3.4.2.2); so are userName and
// emails.value (RFC 7643 §4.1: caseExact false); externalId and id are compared exactly.
//
// Grammar (precedence: or < and < not, parentheses group):
//   FILTER    = OR
//   OR        = AND *("or" AND)
//   AND       = UNARY *("and" UNARY)
//   UNARY     = "(" FILTER ")" / "not" "(" FILTER ")" / ATTREXP
//   ATTREXP   = attrPath "pr" / attrPath compareOp compValue / attrPath "[" VALFILTER "]"
//   attrPath  = [URN ":"] ATTRNAME ["." ATTRNAME]
// Lenient extension: `emails[type eq "work"].value eq "x"` reads as `emails[type eq "work" and value eq "x"]`.
import { invalidFilter, invalidPath } from './scim.errors.ts'

export const SCIM_USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User'

export const MAX_FILTER_LENGTH = 2000
const MAX_DEPTH = 32
/** Cap on the or-branches a filter expands to; each is one indexed lookup. */
export const MAX_FILTER_BRANCHES = 50

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le'
const COMPARE_OPS: ReadonlySet<string> = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'])

export type CompValue = string | number | boolean | null

/** An attribute path as written; consumers compare names case-insensitively. */
export type AttrPath = { urn?: string; name: string; sub?: string }

export type Filter =
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  | { kind: 'compare'; path: AttrPath; op: CompareOp; value: CompValue }
  | { kind: 'present'; path: AttrPath }
  | { kind: 'valuePath'; path: AttrPath; filter: Filter }

/** A PATCH target: an attribute, optionally narrowed to the values matching a filter, then a sub-attribute. */
export type PatchPath = { path: AttrPath; filter?: Filter; sub?: string }

class SyntaxFault extends Error {}

type Token =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: '(' | ')' | '[' | ']' | 'end'; at: number }

const WORD_START = /[A-Za-z$.]/
const WORD_CHAR = /[A-Za-z0-9_.:$-]/
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i] as string
    if (c === ' ' || c === '\t') {
      i++
    } else if (c === '(' || c === ')' || c === '[' || c === ']') {
      tokens.push({ kind: c, at: i })
      i++
    } else if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      if (j >= text.length) throw new SyntaxFault(`unterminated string starting at position ${i + 1}`)
      let value: unknown
      try {
        value = JSON.parse(text.slice(i, j + 1))
      } catch {
        throw new SyntaxFault(`invalid string at position ${i + 1}`)
      }
      tokens.push({ kind: 'string', value: value as string, at: i })
      i = j + 1
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = NUMBER.exec(text.slice(i))
      if (!m) throw new SyntaxFault(`invalid number at position ${i + 1}`)
      tokens.push({ kind: 'number', value: Number(m[0]), at: i })
      i += m[0].length
    } else if (WORD_START.test(c)) {
      let j = i + 1
      while (j < text.length && WORD_CHAR.test(text[j] as string)) j++
      tokens.push({ kind: 'word', text: text.slice(i, j), at: i })
      i = j
    } else {
      throw new SyntaxFault(`unexpected character '${c}' at position ${i + 1}`)
    }
  }
  tokens.push({ kind: 'end', at: text.length })
  return tokens
}

const NAME = '[A-Za-z$][A-Za-z0-9_$-]*'
const ATTR = new RegExp(`^(${NAME})(?:\\.(${NAME}))?$`)

function toAttrPath(word: string): AttrPath {
  let urn: string | undefined
  let rest = word
  if (word.toLowerCase().startsWith('urn:')) {
    const cut = word.lastIndexOf(':')
    urn = word.slice(0, cut)
    rest = word.slice(cut + 1)
  }
  const m = ATTR.exec(rest)
  if (!m) throw new SyntaxFault(`'${word}' is not an attribute path`)
  return { ...(urn !== undefined ? { urn } : {}), name: m[1] as string, ...(m[2] !== undefined ? { sub: m[2] } : {}) }
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'end':
      return 'the end of the expression'
    case 'word':
      return `'${t.text}'`
    case 'string':
      return `the string ${JSON.stringify(t.value)}`
    case 'number':
      return `the number ${t.value}`
    default:
      return `'${t.kind}' at position ${t.at + 1}`
  }
}

class Parser {
  private readonly tokens: Token[]
  private pos = 0

  constructor(text: string) {
    this.tokens = tokenize(text)
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)] as Token
  }

  private next(): Token {
    const t = this.peek()
    if (this.pos < this.tokens.length - 1) this.pos++
    return t
  }

  private isWord(t: Token, ...words: string[]): boolean {
    return t.kind === 'word' && words.includes(t.text.toLowerCase())
  }

  private expect(kind: ')' | ']' | 'end'): void {
    const t = this.next()
    if (t.kind !== kind)
      throw new SyntaxFault(
        `expected ${kind === 'end' ? 'the end of the expression' : `'${kind}'`} but found ${describe(t)}`,
      )
  }

  private word(what: string): string {
    const t = this.next()
    if (t.kind !== 'word') throw new SyntaxFault(`expected ${what} but found ${describe(t)}`)
    return t.text
  }

  filter(): Filter {
    const f = this.or(0, false)
    this.expect('end')
    return f
  }

  patchPath(): PatchPath {
    const path = toAttrPath(this.word('an attribute path'))
    if (this.peek().kind !== '[') {
      this.expect('end')
      return { path }
    }
    if (path.sub !== undefined) throw new SyntaxFault('a value filter follows an attribute, not a sub-attribute')
    this.next()
    const filter = this.or(1, true)
    this.expect(']')
    const after = this.peek()
    let sub: string | undefined
    if (after.kind === 'word' && after.text.startsWith('.')) {
      this.next()
      sub = this.subAttr(after.text)
    }
    this.expect('end')
    return { path, filter, ...(sub !== undefined ? { sub } : {}) }
  }

  private subAttr(dotted: string): string {
    const m = new RegExp(`^\\.(${NAME})$`).exec(dotted)
    if (!m) throw new SyntaxFault(`'${dotted}' is not a sub-attribute`)
    return m[1] as string
  }

  private or(depth: number, inValuePath: boolean): Filter {
    let left = this.and(depth, inValuePath)
    while (this.isWord(this.peek(), 'or')) {
      this.next()
      left = { kind: 'or', left, right: this.and(depth, inValuePath) }
    }
    return left
  }

  private and(depth: number, inValuePath: boolean): Filter {
    let left = this.unary(depth, inValuePath)
    while (this.isWord(this.peek(), 'and')) {
      this.next()
      left = { kind: 'and', left, right: this.unary(depth, inValuePath) }
    }
    return left
  }

  private unary(depth: number, inValuePath: boolean): Filter {
    if (depth > MAX_DEPTH) throw new SyntaxFault(`nested deeper than ${MAX_DEPTH} levels`)
    const t = this.peek()
    if (t.kind === '(') {
      this.next()
      const inner = this.or(depth + 1, inValuePath)
      this.expect(')')
      return inner
    }
    if (this.isWord(t, 'not') && this.peek(1).kind === '(') {
      this.next()
      this.next()
      const inner = this.or(depth + 1, inValuePath)
      this.expect(')')
      return { kind: 'not', filter: inner }
    }
    return this.attrExpression(depth, inValuePath)
  }

  private attrExpression(depth: number, inValuePath: boolean): Filter {
    const path = toAttrPath(this.word('an attribute path'))
    if (this.peek().kind === '[') {
      if (inValuePath) throw new SyntaxFault('value filters cannot be nested')
      if (path.sub !== undefined) throw new SyntaxFault('a value filter follows an attribute, not a sub-attribute')
      this.next()
      const inner = this.or(depth + 1, true)
      this.expect(']')
      const after = this.peek()
      if (after.kind === 'word' && after.text.startsWith('.')) {
        this.next()
        const sub = this.subAttr(after.text)
        const compared = this.comparison({ name: sub })
        return { kind: 'valuePath', path, filter: { kind: 'and', left: inner, right: compared } }
      }
      return { kind: 'valuePath', path, filter: inner }
    }
    return this.comparison(path)
  }

  private comparison(path: AttrPath): Filter {
    const op = this.word('an operator (eq, ne, co, sw, ew, gt, lt, ge, le, pr)').toLowerCase()
    if (op === 'pr') return { kind: 'present', path }
    if (!COMPARE_OPS.has(op)) throw new SyntaxFault(`'${op}' is not an operator`)
    const t = this.next()
    let value: CompValue
    if (t.kind === 'string' || t.kind === 'number') value = t.value
    else if (this.isWord(t, 'true')) value = true
    else if (this.isWord(t, 'false')) value = false
    else if (this.isWord(t, 'null')) value = null
    else throw new SyntaxFault(`expected a value (a string, number, true, false or null) but found ${describe(t)}`)
    return { kind: 'compare', path, op: op as CompareOp, value }
  }
}

/** Parses a filter; anything malformed is a 400 invalidFilter. */
export function parseFilter(text: string): Filter {
  if (text.trim() === '') throw invalidFilter('The filter is empty')
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters`)
  try {
    return new Parser(text).filter()
  } catch (err) {
    if (err instanceof SyntaxFault) throw invalidFilter(`The filter is malformed: ${err.message}`)
    throw err
  }
}

/** Parses a PATCH path (RFC 7644 §3.5.2 PATH); anything malformed is a 400 invalidPath. */
export function parsePatchPath(text: string): PatchPath {
  if (text.trim() === '') throw invalidPath('The path is empty')
  if (text.length > MAX_FILTER_LENGTH) throw invalidPath(`The path is longer than ${MAX_FILTER_LENGTH} characters`)
  try {
    return new Parser(text).patchPath()
  } catch (err) {
    if (err instanceof SyntaxFault) throw invalidPath(`The path '${text}' is malformed: ${err.message}`)
    throw err
  }
}

/** True when the path names an attribute of the core User schema (with or without its URN). */
export function isCoreAttribute(path: AttrPath): boolean {
  return path.urn === undefined || path.urn.toLowerCase() === SCIM_USER_URN.toLowerCase()
}

// ---------------------------------------------------------------------------------------------
// Planning: a filter becomes either "every user" or a list of exact lookups (an OR of ANDs), each
// answered by the user store's exact-match search.

/** One lookup: the criteria of one or-branch, combined with AND. Values are as written. */
export type UserLookup = { id?: string; userName?: string; externalId?: string }

export type FilterPlan = { kind: 'all' } | { kind: 'lookups'; lookups: UserLookup[] }

type Term = { attr: 'id' | 'userName' | 'externalId'; value: string }
/** Disjunctive normal form: an OR of ANDs. [] is false; [[]] is true. */
type Dnf = Term[][]

const TRUE: Dnf = [[]]
const FALSE: Dnf = []

const SUPPORTED =
  'userName, externalId, emails.value (also emails[type eq "work"] and emails[value eq "..."]) and id, with eq, and, or and parentheses'

function or(a: Dnf, b: Dnf): Dnf {
  const out = [...a, ...b]
  if (out.length > MAX_FILTER_BRANCHES)
    throw invalidFilter(`The filter expands to more than ${MAX_FILTER_BRANCHES} alternatives`)
  return out
}

function and(a: Dnf, b: Dnf): Dnf {
  if (a.length * b.length > MAX_FILTER_BRANCHES)
    throw invalidFilter(`The filter expands to more than ${MAX_FILTER_BRANCHES} alternatives`)
  return a.flatMap((x) => b.map((y) => [...x, ...y]))
}

function pathText(p: AttrPath): string {
  return `${p.urn ? `${p.urn}:` : ''}${p.name}${p.sub ? `.${p.sub}` : ''}`
}

function stringOperand(path: AttrPath, value: CompValue): string {
  if (typeof value !== 'string') throw invalidFilter(`${pathText(path)} is compared with a string`)
  return value
}

/**
 * A comparison on a sub-attribute of `emails`. Every user has exactly one email, of type "work",
 * primary, whose value is the userName (RFC 7643 §4.1.2 multi-valued attribute, one value held).
 */
function emailCondition(sub: string, path: AttrPath, value: CompValue): Dnf {
  switch (sub.toLowerCase()) {
    case 'value':
      return [[{ attr: 'userName', value: stringOperand(path, value) }]]
    case 'type':
      return stringOperand(path, value).toLowerCase() === 'work' ? TRUE : FALSE
    case 'primary':
      if (typeof value !== 'boolean') throw invalidFilter(`${pathText(path)} is compared with true or false`)
      return value ? TRUE : FALSE
    default:
      throw invalidFilter(`Filtering on emails.${sub} is not supported; supported: ${SUPPORTED}`)
  }
}

function emailValueFilterDnf(f: Filter): Dnf {
  switch (f.kind) {
    case 'and':
      return and(emailValueFilterDnf(f.left), emailValueFilterDnf(f.right))
    case 'or':
      return or(emailValueFilterDnf(f.left), emailValueFilterDnf(f.right))
    case 'compare':
      if (f.op !== 'eq') throw invalidFilter(`The operator '${f.op}' is not supported; supported: ${SUPPORTED}`)
      if (f.path.urn !== undefined || f.path.sub !== undefined)
        throw invalidFilter(`'${pathText(f.path)}' is not a sub-attribute of emails`)
      return emailCondition(f.path.name, f.path, f.value)
    case 'not':
      throw invalidFilter(`'not' is not supported; supported: ${SUPPORTED}`)
    case 'present':
      throw invalidFilter(`'pr' is not supported; supported: ${SUPPORTED}`)
    case 'valuePath':
      throw invalidFilter('Value filters cannot be nested')
  }
}

function dnf(f: Filter): Dnf {
  switch (f.kind) {
    case 'and':
      return and(dnf(f.left), dnf(f.right))
    case 'or':
      return or(dnf(f.left), dnf(f.right))
    case 'not':
      throw invalidFilter(`'not' is not supported; supported: ${SUPPORTED}`)
    case 'present':
      throw invalidFilter(`'pr' is not supported; supported: ${SUPPORTED}`)
    case 'valuePath': {
      if (!isCoreAttribute(f.path) || f.path.name.toLowerCase() !== 'emails') {
        throw invalidFilter(`Filtering on ${pathText(f.path)}[...] is not supported; supported: ${SUPPORTED}`)
      }
      return emailValueFilterDnf(f.filter)
    }
    case 'compare': {
      if (f.op !== 'eq') throw invalidFilter(`The operator '${f.op}' is not supported; supported: ${SUPPORTED}`)
      const name = isCoreAttribute(f.path) ? f.path.name.toLowerCase() : undefined
      const sub = f.path.sub
      if (name === 'username' && sub === undefined)
        return [[{ attr: 'userName', value: stringOperand(f.path, f.value) }]]
      if (name === 'externalid' && sub === undefined)
        return [[{ attr: 'externalId', value: stringOperand(f.path, f.value) }]]
      if (name === 'id' && sub === undefined) return [[{ attr: 'id', value: stringOperand(f.path, f.value) }]]
      // A multi-valued attribute without a sub-attribute compares its "value" (RFC 7644 §3.4.2.2).
      if (name === 'emails') return emailCondition(sub ?? 'value', f.path, f.value)
      throw invalidFilter(`Filtering on ${pathText(f.path)} is not supported; supported: ${SUPPORTED}`)
    }
  }
}

/** One or-branch as a lookup, or undefined when it contradicts itself (two different userNames...). */
function toLookup(terms: Term[]): UserLookup | undefined {
  const lookup: UserLookup = {}
  for (const t of terms) {
    const existing = lookup[t.attr]
    if (existing === undefined) lookup[t.attr] = t.value
    else if (t.attr === 'userName' ? existing.toLowerCase() !== t.value.toLowerCase() : existing !== t.value)
      return undefined
  }
  return lookup
}

export function planFilter(filter: Filter): FilterPlan {
  const branches = dnf(filter)
  if (branches.some((b) => b.length === 0)) return { kind: 'all' }
  const seen = new Set<string>()
  const lookups: UserLookup[] = []
  for (const b of branches) {
    const l = toLookup(b)
    if (!l) continue
    const key = JSON.stringify([l.id, l.userName?.toLowerCase(), l.externalId])
    if (seen.has(key)) continue
    seen.add(key)
    lookups.push(l)
  }
  return { kind: 'lookups', lookups }
}

// ---------------------------------------------------------------------------------------------
// Matching a value filter against one value of a multi-valued attribute (PATCH targets such as
// emails[type eq "work"]). Sub-attribute names and string comparisons are case-insensitive.

export type MultiValue = { value: string | null; type: string; primary: boolean }

function compareString(actual: string, op: CompareOp, expected: string): boolean {
  const a = actual.toLowerCase()
  const e = expected.toLowerCase()
  switch (op) {
    case 'eq':
      return a === e
    case 'ne':
      return a !== e
    case 'co':
      return a.includes(e)
    case 'sw':
      return a.startsWith(e)
    case 'ew':
      return a.endsWith(e)
    case 'gt':
      return a > e
    case 'lt':
      return a < e
    case 'ge':
      return a >= e
    case 'le':
      return a <= e
  }
}

export function matchesValue(filter: Filter, entry: MultiValue): boolean {
  switch (filter.kind) {
    case 'and':
      return matchesValue(filter.left, entry) && matchesValue(filter.right, entry)
    case 'or':
      return matchesValue(filter.left, entry) || matchesValue(filter.right, entry)
    case 'not':
      return !matchesValue(filter.filter, entry)
    case 'valuePath':
      throw invalidPath('Value filters cannot be nested')
    case 'present':
    case 'compare': {
      const p = filter.path
      if (p.urn !== undefined || p.sub !== undefined) throw invalidPath(`'${pathText(p)}' is not a sub-attribute`)
      const name = p.name.toLowerCase()
      const actual =
        name === 'value' ? entry.value : name === 'type' ? entry.type : name === 'primary' ? entry.primary : null
      if (filter.kind === 'present') return actual !== null && actual !== ''
      const { op, value } = filter
      if (value === null) return op === 'eq' ? actual === null : op === 'ne' ? actual !== null : false
      if (actual === null) return op === 'ne'
      if (typeof actual === 'boolean' || typeof value === 'boolean') {
        if (op !== 'eq' && op !== 'ne') throw invalidPath(`'${op}' cannot compare ${name}`)
        return (actual === value) === (op === 'eq')
      }
      if (typeof value !== 'string') throw invalidPath(`${name} is compared with a string`)
      return compareString(actual, op, value)
    }
  }
}
