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
 * Whether a parsed JSON value holds a string with a lone UTF-16 surrogate ("\ud800"): valid JSON,
 * but not text PostgreSQL can store (jsonb refuses it). Walks plain objects and arrays only.
 */
export function hasIllFormedString(value: unknown): boolean {
  if (typeof value === 'string') return !value.isWellFormed()
  if (Array.isArray(value)) return value.some(hasIllFormedString)
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, v] of Object.entries(value)) if (!key.isWellFormed() || hasIllFormedString(v)) return true
  }
  return false
}
