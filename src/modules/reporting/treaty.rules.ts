// Reinsurance treaties as pure rules (docs/reporting.md): when two treaties conflict, which treaty
// cedes a sale, and what the cession is worth. No I/O; table-driven tests in treaty.rules.test.ts.
import type { FieldError } from '../../platform/http/errors.ts'
import { multiplyCentsByRatio } from '../../platform/money.ts'
import type { ContractCession } from '../contracts/index.ts'

/** 10000 basis points = 100 %. */
export const FULL_SHARE_BPS = 10000

/** What a treaty covers: dealers and/or dealer groups, products and/or programs (rating catalogue ids). */
export type TreatyScope = {
  dealerIds: readonly number[]
  dealerGroupIds: readonly number[]
  productIds: readonly number[]
  programIds: readonly number[]
}

export type Treaty = TreatyScope & {
  id: number
  reinsuranceCompanyId: number
  effectiveFrom: string
  /** Last day in force, inclusive; null: open-ended. */
  effectiveTo: string | null
  shareBps: number
  cedingFeeBps: number
  administratorFeeBps: number
}

/** The facts of a sale a treaty is chosen by. */
export type SaleFacts = {
  dealerId: number
  dealerGroupId: number | null
  productId: number
  programId: number
  saleDate: string
}

/** The cession a sale keeps (contracts' terms.cession), amounts in whole cents: the contracts module's type. */
export type Cession = ContractCession

/** True when the two periods (inclusive, null = open-ended) share a day. */
export function periodsOverlap(
  a: { effectiveFrom: string; effectiveTo: string | null },
  b: { effectiveFrom: string; effectiveTo: string | null },
): boolean {
  const aEndsBeforeB = a.effectiveTo !== null && a.effectiveTo < b.effectiveFrom
  const bEndsBeforeA = b.effectiveTo !== null && b.effectiveTo < a.effectiveFrom
  return !aEndsBeforeB && !bEndsBeforeA
}

const shared = (a: readonly number[], b: readonly number[]) => a.filter((x) => b.includes(x))

/** What two scopes have in common at the same level: the dealers, groups, products and programs both name. */
export type Clash = {
  treatyId: number
  effectiveFrom: string
  effectiveTo: string | null
  dealerIds: number[]
  dealerGroupIds: number[]
  productIds: number[]
  programIds: number[]
}

/**
 * The treaties among `others` (not `candidate` itself) that conflict with it: in force on a common day,
 * naming a common dealer or a common dealer group, and a common product or a common program. A dealer
 * carved out of its group's treaty, or a program out of its product's, is not a conflict: the more
 * specific treaty wins at the sale (treatyFor).
 */
export function conflicts(candidate: Treaty, others: readonly Treaty[]): Clash[] {
  const out: Clash[] = []
  for (const o of others) {
    if (o.id === candidate.id || !periodsOverlap(candidate, o)) continue
    const dealerIds = shared(candidate.dealerIds, o.dealerIds)
    const dealerGroupIds = shared(candidate.dealerGroupIds, o.dealerGroupIds)
    const productIds = shared(candidate.productIds, o.productIds)
    const programIds = shared(candidate.programIds, o.programIds)
    if (dealerIds.length + dealerGroupIds.length === 0 || productIds.length + programIds.length === 0) continue
    out.push({
      treatyId: o.id,
      effectiveFrom: o.effectiveFrom,
      effectiveTo: o.effectiveTo,
      dealerIds,
      dealerGroupIds,
      productIds,
      programIds,
    })
  }
  return out
}

/**
 * How specifically a treaty names a sale: 0 when it does not cover it; otherwise 1 + 2 when it names
 * the dealer itself (rather than its group) + 1 when it names the program (rather than the product).
 */
export function specificity(t: Treaty, sale: SaleFacts): number {
  if (sale.saleDate < t.effectiveFrom || (t.effectiveTo !== null && sale.saleDate > t.effectiveTo)) return 0
  const byDealer = t.dealerIds.includes(sale.dealerId)
  const byGroup = sale.dealerGroupId !== null && t.dealerGroupIds.includes(sale.dealerGroupId)
  const byProgram = t.programIds.includes(sale.programId)
  const byProduct = t.productIds.includes(sale.productId)
  if (!(byDealer || byGroup) || !(byProgram || byProduct)) return 0
  return 1 + (byDealer ? 2 : 0) + (byProgram ? 1 : 0)
}

/**
 * The treaty that cedes a sale: of those in force on the sale date covering its dealer (or the
 * dealer's group) and its product (or program), the most specific; ties (which the no-overlap rule
 * prevents) go to the lowest id, so the answer is always the same.
 */
export function treatyFor<T extends Treaty>(treaties: readonly T[], sale: SaleFacts): T | undefined {
  let best: T | undefined
  let bestScore = 0
  for (const t of treaties) {
    const score = specificity(t, sale)
    if (score > bestScore || (score > 0 && score === bestScore && best !== undefined && t.id < best.id)) {
      best = t
      bestScore = score
    }
  }
  return best
}

/** The cession of a sale's reserve under a treaty: each amount rounded half up once (money.md). */
export function cessionOf(t: Treaty, reserveCents: number): Cession {
  const ceded = multiplyCentsByRatio(reserveCents, t.shareBps, FULL_SHARE_BPS)
  return {
    treatyId: t.id,
    reinsuranceCompanyId: t.reinsuranceCompanyId,
    shareBps: t.shareBps,
    reserveCents,
    cededReserveCents: ceded,
    cedingFeeBps: t.cedingFeeBps,
    cedingFeeCents: multiplyCentsByRatio(ceded, t.cedingFeeBps, FULL_SHARE_BPS),
    administratorFeeBps: t.administratorFeeBps,
    administratorFeeCents: multiplyCentsByRatio(ceded, t.administratorFeeBps, FULL_SHARE_BPS),
  }
}

/** The problems of a treaty's own values (references are checked against the database by the service). */
export function treatyProblems(t: Omit<Treaty, 'id'> & { name: string }): FieldError[] {
  const errors: FieldError[] = []
  for (const field of ['shareBps', 'cedingFeeBps', 'administratorFeeBps'] as const) {
    const v = t[field]
    if (!Number.isInteger(v) || v < 0 || v > FULL_SHARE_BPS)
      errors.push({
        field,
        code: 'out_of_range',
        message: `must be a whole number of basis points from 0 to 10000 (0 to 100 %), not ${v}`,
      })
  }
  if (t.name.trim() === '') errors.push({ field: 'name', code: 'required', message: 'must name the treaty' })
  if (t.effectiveTo !== null && t.effectiveTo < t.effectiveFrom)
    errors.push({
      field: 'effectiveTo',
      code: 'out_of_range',
      message: `must not be before effectiveFrom (${t.effectiveFrom})`,
    })
  if (t.dealerIds.length + t.dealerGroupIds.length === 0)
    errors.push({ field: 'dealerIds', code: 'required', message: 'name at least one dealer or dealer group' })
  if (t.productIds.length + t.programIds.length === 0)
    errors.push({ field: 'productIds', code: 'required', message: 'name at least one product or program' })
  return errors
}

/** The first and last day of a report month (YYYY-MM) that has begun by `today`; else the field's problem. */
export function monthPeriod(month: string, today: string): { from: string; to: string } | FieldError {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month)
  if (!m) return { field: 'month', code: 'invalid_format', message: `must be a month YYYY-MM, not ${month}` }
  const year = Number(m[1])
  const mm = Number(m[2])
  const from = `${month}-01`
  if (from > today)
    return { field: 'month', code: 'out_of_range', message: `${month} has not begun (today is ${today})` }
  const last = new Date(Date.UTC(year, mm, 0)).getUTCDate()
  return { from, to: `${month}-${String(last).padStart(2, '0')}` }
}
