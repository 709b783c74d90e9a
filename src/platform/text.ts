// Text checks shared by every module.

/** Whether the text holds a C0 control character or DEL (a NUL above all cannot be stored). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}

/**
 * The deepest nesting of arrays and objects a request body may have. The deepest legitimate body
 * (a rate book: products → programs → plans → rates → …) nests about 10 levels; 64 leaves room for
 * any client while refusing the 10,000-level bodies that would exhaust the stack of whatever walks
 * them recursively next (validation, canonical JSON, the JSON Patch library).
 */
export const MAX_JSON_DEPTH = 64

/** Stop listing after this many unstorable strings: a 1 MiB body could otherwise hold a million. */
const MAX_FINDINGS = 100

/** Why a string cannot be stored: PostgreSQL text and jsonb hold neither NUL nor lone UTF-16 surrogates. */
export type UnstorableReason = 'nul' | 'lone_surrogate'

export type UnstorableText = {
  /** Path to the value, from the root: object keys and array indexes. */
  path: Array<string | number>
  /** The string at the path is an object key (the member's name), not its value. */
  inKey: boolean
  reason: UnstorableReason
}

export type TextScan = {
  findings: UnstorableText[]
  /** More findings exist than were listed (MAX_FINDINGS). */
  truncated: boolean
  /** The value nests deeper than the depth allowed; nothing below that depth was looked at. */
  tooDeep: boolean
}

function unstorable(text: string): UnstorableReason | undefined {
  if (text.includes('\u0000')) return 'nul'
  if (!text.isWellFormed()) return 'lone_surrogate'
  return undefined
}

type Frame = {
  value: unknown
  parent: Frame | undefined
  key: string | number
  depth: number
  keyReason: UnstorableReason | undefined
}

function pathOf(frame: Frame): Array<string | number> {
  const path: Array<string | number> = []
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) path.push(f.key)
  return path.toReversed()
}

/**
 * Finds every string (member names included) that holds a NUL or a lone surrogate in a parsed JSON
 * value, a query string or path parameters: valid JSON and valid percent-encoding, but text no
 * PostgreSQL column can hold. Walks plain objects and arrays only (a Buffer body is bytes, not text),
 * with an explicit stack rather than recursion, and no deeper than `maxDepth` nested containers.
 */
export function scanText(value: unknown, maxDepth = MAX_JSON_DEPTH): TextScan {
  const scan: TextScan = { findings: [], truncated: false, tooDeep: false }
  const note = (frame: Frame, inKey: boolean, reason: UnstorableReason) => {
    if (scan.findings.length >= MAX_FINDINGS) scan.truncated = true
    else scan.findings.push({ path: pathOf(frame), inKey, reason })
  }
  const stack: Frame[] = [{ value, parent: undefined, key: '', depth: 0, keyReason: undefined }]
  while (stack.length > 0) {
    const frame = stack.pop() as Frame
    if (frame.keyReason) note(frame, true, frame.keyReason)
    const v = frame.value
    if (typeof v === 'string') {
      const reason = unstorable(v)
      if (reason) note(frame, false, reason)
      continue
    }
    if (v === null || typeof v !== 'object') continue
    const isArray = Array.isArray(v)
    const proto: unknown = Object.getPrototypeOf(v)
    if (!isArray && proto !== Object.prototype && proto !== null) continue
    // A container at depth d is the (d+1)th level of nesting.
    if (frame.depth >= maxDepth) {
      scan.tooDeep = true
      continue
    }
    // Pushed in reverse so that findings come out in document order.
    if (isArray) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], parent: frame, key: i, depth: frame.depth + 1, keyReason: undefined })
    } else {
      const keys = Object.keys(v)
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string
        stack.push({
          value: (v as Record<string, unknown>)[key],
          parent: frame,
          key,
          depth: frame.depth + 1,
          keyReason: unstorable(key),
        })
      }
    }
  }
  return scan
}

/**
 * The text with NUL, other C0 controls and lone surrogates written as `\uXXXX`, for echoing a
 * refused member name in an error without carrying the refused character along.
 */
export function printable(text: string): string {
  let out = ''
  // By code point: a surrogate pair is one (well-formed) code point, a lone surrogate one of its own.
  for (const ch of text) {
    const c = ch.charCodeAt(0)
    out +=
      c < 0x20 || c === 0x7f || (ch.length === 1 && c >= 0xd800 && c <= 0xdfff)
        ? `\\u${c.toString(16).padStart(4, '0')}`
        : ch
  }
  return out
}
