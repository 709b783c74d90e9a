// JSON with object keys sorted (members whose value is undefined left out, as JSON.stringify does),
// so that equal values serialise, and hash, equally whatever their key order.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value ?? null)
}

/**
 * Whether two JSON values are equal as JSON: object members in any order, members whose value is
 * undefined absent, arrays in order. For change detection (`JSON.stringify(a) === JSON.stringify(b)`
 * would call an object with its members reordered changed).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b)
}
