// Text checks shared by every module.

/** Whether the text holds a C0 control character or DEL (a NUL above all cannot be stored). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}
