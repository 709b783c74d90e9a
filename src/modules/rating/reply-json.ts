// Writing large JSON replies in pieces: a reply tree whose leaves are already-serialized text
// (cached priced entries of a quote) is joined once, instead of re-serialized or re-joined per level.

/** The opening text of `head` (never empty) followed by an array member `key`, its elements to follow. */
export function openArrayPrefix(head: Record<string, unknown>, key: string): string {
  return `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(key)}:[`
}

/** JSON of `head` with one more member, an array of already-serialized elements. */
export function withArray(head: Record<string, unknown>, key: string, elements: string): string {
  return `${openArrayPrefix(head, key)}${elements}]}`
}

/**
 * Writes the products tree of a quote as JSON pieces joined once at the end (nested joins would
 * copy the ~150 KB reply at every level). Each node is its small head object plus one array of
 * children; a node that ends up with no children is taken back out.
 */
export class TreeWriter {
  private readonly parts: string[] = []
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

  /** A child already serialized. */
  raw(json: string): void {
    this.separate()
    this.parts.push(json)
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

  /** The top-level array's elements. */
  text(): string {
    return this.parts.join('')
  }

  get hasContent(): boolean {
    return this.parts.length > 0
  }

  private separate(): void {
    const top = this.empty.length - 1
    if (top >= 0 && this.empty[top]) this.empty[top] = false
    else if (this.parts.length > 0) this.parts.push(',')
  }
}

