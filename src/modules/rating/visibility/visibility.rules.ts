// Pure rules of dealer rate visibility (docs/rate-visibility.md): what a dealer's entries must be,
// and which entry, if any, lets the dealer sell a given plan. No I/O.
import type { FieldError } from '../../../platform/http/errors.ts'
import { Decimal, decimalProblem } from '../../../platform/money.ts'

/** Most entries one dealer may have (the PUT body's bound, and so the per-dealer GET's). */
export const MAX_ENTRIES = 1000
export const MAX_MARKUP_AMOUNT = new Decimal('1000000.00')
export const MAX_MARKUP_PERCENT = new Decimal('1000')

export type VisibilityKey = { productId: number; programId: number | null; planId: number | null }

const keyOf = (e: VisibilityKey) => `${e.productId}/${e.programId ?? '*'}/${e.planId ?? '*'}`

/**
 * Violations beyond the JSON shape, each named by item (`[2].maxMarkupAmount`): markup limits are
 * decimals of at most 2 (amount, ≤ 1,000,000) or 4 (percent, ≤ 1000) places, not negative; no two
 * entries name the same product, program and plan. Items of the wrong shape are left to the schema.
 */
export function visibilityViolations(entries: unknown): FieldError[] {
  if (!Array.isArray(entries)) return []
  const errors: FieldError[] = []
  const firstOf = new Map<string, number>()
  entries.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return
    const e = item as Record<string, unknown>
    for (const [member, places, max] of [
      ['maxMarkupAmount', 2, MAX_MARKUP_AMOUNT],
      ['maxMarkupPercent', 4, MAX_MARKUP_PERCENT],
    ] as const) {
      const value = e[member]
      if (typeof value !== 'number' && typeof value !== 'string') continue
      const problem = decimalProblem(value, { places, min: new Decimal(0), max })
      if (problem) errors.push({ field: `[${i}].${member}`, ...problem })
    }
    if (typeof e.productId !== 'number') return
    const key = keyOf({
      productId: e.productId,
      programId: typeof e.programId === 'number' ? e.programId : null,
      planId: typeof e.planId === 'number' ? e.planId : null,
    })
    const first = firstOf.get(key)
    if (first === undefined) firstOf.set(key, i)
    else
      errors.push({
        field: `[${i}]`,
        code: 'conflict',
        message: `names the same productId, programId and planId as [${first}]`,
      })
  })
  return errors
}

/**
 * The entry that lets a dealer sell a plan, or undefined (not visible: a dealer with no entries
 * sells nothing). An entry covers the plan when its product is the plan's and its program and plan,
 * where given, are the plan's; of several, the most specific wins (a plan beats a program, which
 * beats the whole product), and its markup limits apply.
 */
export function visibleEntry<E extends VisibilityKey>(
  entries: readonly E[],
  plan: { productId: number; programId: number; planId: number },
): E | undefined {
  let best: E | undefined
  let bestScore = -1
  for (const e of entries) {
    if (e.productId !== plan.productId) continue
    if (e.programId !== null && e.programId !== plan.programId) continue
    if (e.planId !== null && e.planId !== plan.planId) continue
    const score = (e.planId !== null ? 2 : 0) + (e.programId !== null ? 1 : 0)
    if (score > bestScore) {
      best = e
      bestScore = score
    }
  }
  return best
}
