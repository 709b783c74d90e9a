// Writing large JSON replies in pieces (the rate quote: 100-200 KB). The tree's leaves are cached,
// already-encoded pieces; the reply is assembled once into one Buffer. No level is re-serialized or
// re-joined, and no reply-sized string is made (it would live in V8's large-object space and be
// encoded to UTF-8 again on every write). The reply buffers themselves come from a small pool and
// go back to it once the response is done: a fresh 150 KB buffer per request counts as external
// memory, and at a few thousand requests a second that alone set off a full collection every
// quarter second.

/** Size of a pooled reply buffer; larger replies get a buffer of their own. */
const POOLED_SIZE = 512 * 1024
/** Buffers kept for reuse (about one per concurrent reply in flight). */
const MAX_POOLED = 64
const pool: Buffer[] = []

/** An encoded reply and how to give its buffer back once the response is finished (or aborted). */
export type EncodedReply = { bytes: Buffer; release(): void }

/** The opening text of `head` (never empty) followed by an array member `key`, its elements to follow. */
export function openArrayPrefix(head: Record<string, unknown>, key: string): string {
  return `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(key)}:[`
}

/**
 * `text` encoded into a buffer of its own. Buffer.from puts small strings in slices of shared 8 KB
 * slabs, so a cached piece would keep a whole slab alive, and a cache's byte bound would lie.
 */
export function ownedBuffer(text: string): Buffer {
  const out = Buffer.allocUnsafeSlow(Buffer.byteLength(text))
  out.write(text)
  return out
}

/**
 * Writes a tree of JSON objects, each a small head plus one array of children, as pieces joined
 * once at the end. A node that ends up with no children is taken back out.
 */
export class TreeWriter {
  private readonly parts: Array<string | Buffer> = []
  /** For each open node: no child written yet. */
  private readonly empty: boolean[] = []

  /** Opens a node in the current array: `head` with its array member `key` left open. */
  open(head: Record<string, unknown>, key: string): { at: number; parentWasEmpty: boolean } {
    return this.openPrefix(openArrayPrefix(head, key))
  }

  /** Opens a node whose opening text (see openArrayPrefix) was made beforehand. */
  openPrefix(prefix: string): { at: number; parentWasEmpty: boolean } {
    const mark = { at: this.parts.length, parentWasEmpty: this.empty[this.empty.length - 1] ?? true }
    this.separate()
    this.parts.push(prefix)
    this.empty.push(true)
    return mark
  }

  /** Children already serialized (one element, or several separated by commas). */
  raw(json: string | Buffer): void {
    this.separate()
    this.parts.push(json)
  }

  /** One child made of an encoded piece and the text that completes it. */
  element(piece: Buffer, rest: string): void {
    this.separate()
    this.parts.push(piece, rest)
  }

  /** Closes the node; without children it is removed and false is returned. */
  close(mark: { at: number; parentWasEmpty: boolean }): boolean {
    if (this.empty.pop()) {
      this.parts.length = mark.at
      if (this.empty.length > 0) this.empty[this.empty.length - 1] = mark.parentWasEmpty
      return false
    }
    this.parts.push(']}')
    return true
  }

  get hasContent(): boolean {
    return this.parts.length > 0
  }

  /**
   * The JSON of `head` with one more member `key`: an array of the top-level nodes written. Runs of
   * text are encoded together; encoded pieces are copied once.
   */
  toReply(head: Record<string, unknown>, key: string): EncodedReply {
    const prefix = openArrayPrefix(head, key)
    // Encoded pieces are copied, text is encoded in place. UTF-8 takes at most 3 bytes per UTF-16
    // unit, so the bound holds; the unused tail is not sent.
    let capacity = (prefix.length + 2) * 3
    for (const part of this.parts) capacity += typeof part === 'string' ? part.length * 3 : part.length
    const pooled = capacity <= POOLED_SIZE
    const out = pooled ? (pool.pop() ?? Buffer.allocUnsafeSlow(POOLED_SIZE)) : Buffer.allocUnsafe(capacity)
    let at = out.write(prefix, 0)
    for (const part of this.parts) {
      if (typeof part === 'string') at += out.write(part, at)
      else {
        out.set(part, at)
        at += part.length
      }
    }
    at += out.write(']}', at)
    let released = !pooled
    return {
      bytes: out.subarray(0, at),
      // Called when the response is over: its bytes are with the kernel, or the connection is gone.
      release() {
        if (released) return
        released = true
        if (pool.length < MAX_POOLED) pool.push(out)
      },
    }
  }

  private separate(): void {
    const top = this.empty.length - 1
    if (top >= 0 && this.empty[top]) this.empty[top] = false
    else if (this.parts.length > 0) this.parts.push(',')
  }
}
