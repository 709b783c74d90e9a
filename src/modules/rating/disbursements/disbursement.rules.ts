// Pure rules of account-holder disbursements (docs/disbursements.md): what a disbursement's values
// must be beyond their JSON shape, which sales a rule applies to, what changed between two versions,
// how a stored audit snapshot reads, and the fingerprint the rate quote keys its own caches with.
// Decimal values are checked by the money module's decimalProblem. No I/O.
import { createHash } from 'node:crypto'
import type { FieldError } from '../../../platform/http/errors.ts'
import { Decimal, decimalProblem } from '../../../platform/money.ts'
import { DISBURSEMENT_GROUPS } from '../ratebook/index.ts'

/** Account-holder kinds a disbursement may be attached to. */
export const HOLDER_KINDS = ['DEALER', 'DEALER_GROUP', 'AGENT'] as const
export type HolderKind = (typeof HOLDER_KINDS)[number]

export const BASES = ['AMOUNT', 'PERCENT'] as const
export type Basis = (typeof BASES)[number]

export type DisbursementGroup = (typeof DISBURSEMENT_GROUPS)[number]

/** What each group of disbursement codes stands for (GET /api/Rates/Disbursements/DisbursementsGroups). */
export const GROUP_DESCRIPTIONS: Readonly<Record<DisbursementGroup, string>> = {
  RESERVE: 'Claims reserve: held to pay the claims of the contract.',
  PREMIUM: 'Insurance premium paid to the insurer that backs the contracts.',
  CLIP_PREMIUM: "Contractual liability insurance policy (CLIP) premium, insuring the administrator's obligation.",
  ADMIN_FEE: 'Administration fee kept by the administrator.',
  COMMISSION: 'Commission paid to an agent or a dealer group for the sale.',
  DEALER_PACK: 'Dealer pack: an amount added to the dealer cost that the dealer keeps.',
  DEALER_PARTICIPATION:
    "Dealer participation: the dealer's share held for it (reinsurance or retrospective programme).",
  TAX: 'Premium taxes and fees collected with the contract.',
  OTHER: 'Anything else the rate book names.',
}

/** Bounds of a disbursement's value (the columns are numeric(12,2) and numeric(9,4)). */
export const AMOUNT_PLACES = 2
export const PERCENT_PLACES = 4
export const MAX_AMOUNT = new Decimal('1000000.00')
export const MAX_PERCENT = new Decimal('100')

export type ValueProblem = { code: string; message: string }

/** A calendar date YYYY-MM-DD between the years 1900 and 2999. */
export function dateProblem(value: unknown): ValueProblem | undefined {
  if (typeof value !== 'string') return { code: 'invalid_type', message: 'must be a date string YYYY-MM-DD' }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return { code: 'invalid_format', message: 'must be a calendar date YYYY-MM-DD' }
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as written.
  const date = new Date(0)
  date.setUTCFullYear(y, mo - 1, d)
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
    return { code: 'invalid_format', message: 'must be a calendar date YYYY-MM-DD' }
  if (y < 1900 || y > 2999) return { code: 'out_of_range', message: 'must be between 1900-01-01 and 2999-12-31' }
  return undefined
}

const present = (v: unknown) => v !== undefined && v !== null

/**
 * Violations of the rules a disbursement's values obey beyond its JSON shape, one per field:
 * the basis says which of amount (2 places, > 0, ≤ 1,000,000) and percent (4 places, > 0, ≤ 100)
 * is required and which is not allowed; dates are calendar dates; effectiveTo is not before
 * effectiveFrom. Members of the wrong JSON type are left to the schema.
 */
export function disbursementViolations(input: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = []
  const add = (field: string, p: ValueProblem | undefined) => {
    if (p) errors.push({ field, ...p })
  }
  const valued = { AMOUNT: 'amount', PERCENT: 'percent' } as const
  const basis = input.basis
  if (basis === 'AMOUNT' || basis === 'PERCENT') {
    const required = valued[basis]
    const other = basis === 'AMOUNT' ? 'percent' : 'amount'
    if (!present(input[required])) add(required, { code: 'required', message: `is required when basis is ${basis}` })
    if (present(input[other]))
      add(other, { code: 'not_allowed', message: `must be absent or null when basis is ${basis}` })
  }
  if (present(input.amount) && (typeof input.amount === 'number' || typeof input.amount === 'string')) {
    add(
      'amount',
      decimalProblem(input.amount, { places: AMOUNT_PLACES, min: new Decimal(0), max: MAX_AMOUNT, minExclusive: true }),
    )
  }
  if (present(input.percent) && (typeof input.percent === 'number' || typeof input.percent === 'string')) {
    add(
      'percent',
      decimalProblem(input.percent, {
        places: PERCENT_PLACES,
        min: new Decimal(0),
        max: MAX_PERCENT,
        minExclusive: true,
      }),
    )
  }
  const fromProblem = typeof input.effectiveFrom === 'string' ? dateProblem(input.effectiveFrom) : undefined
  const toProblem = typeof input.effectiveTo === 'string' ? dateProblem(input.effectiveTo) : undefined
  add('effectiveFrom', fromProblem)
  add('effectiveTo', toProblem)
  if (
    typeof input.effectiveFrom === 'string' &&
    typeof input.effectiveTo === 'string' &&
    !fromProblem &&
    !toProblem &&
    input.effectiveTo < input.effectiveFrom
  ) {
    add('effectiveTo', { code: 'out_of_range', message: 'must not be before effectiveFrom' })
  }
  return errors
}

/** What a rule targets: every id given must match the sale; none given targets every product. */
export type Target = {
  productId: number | null
  programId: number | null
  planId: number | null
  termId: number | null
}

/** A priced sale, as far as disbursement rules care. */
export type SaleScope = { saleDate: string; productId: number; programId: number; planId: number; termId: number }

/**
 * True when a rule applies to the sale: its dates include the sale date (effectiveTo is the last
 * day, inclusive) and each id of its target equals the sale's.
 */
export function ruleApplies(
  rule: Target & { effectiveFrom: string; effectiveTo: string | null },
  sale: SaleScope,
): boolean {
  if (sale.saleDate < rule.effectiveFrom) return false
  if (rule.effectiveTo !== null && sale.saleDate > rule.effectiveTo) return false
  return (
    (rule.productId === null || rule.productId === sale.productId) &&
    (rule.programId === null || rule.programId === sale.programId) &&
    (rule.planId === null || rule.planId === sale.planId) &&
    (rule.termId === null || rule.termId === sale.termId)
  )
}

/**
 * Names of the members that differ between two representations (target members as
 * `target.productId`), sorted; bookkeeping members (version, updatedAt) are left out.
 */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown>): string[] {
  const flat = (rep: Record<string, unknown> | null): Map<string, string> => {
    const out = new Map<string, string>()
    if (!rep) return out
    for (const [key, value] of Object.entries(rep)) {
      if (key === 'version' || key === 'updatedAt') continue
      if (key === 'target' && value !== null && typeof value === 'object') {
        for (const [k, v] of Object.entries(value as Record<string, unknown>))
          out.set(`target.${k}`, JSON.stringify(v ?? null))
      } else {
        out.set(key, JSON.stringify(value ?? null))
      }
    }
    return out
  }
  const a = flat(before)
  const b = flat(after)
  const keys = new Set([...a.keys(), ...b.keys()])
  return [...keys].filter((k) => a.get(k) !== b.get(k)).toSorted()
}

/** Numeric members of a disbursement (numeric columns, JSON numbers in replies). */
/**
 * A short stable string that changes whenever any of the rules (by id and row version) does: 16
 * base64url characters of a SHA-256 over the ids and versions in the order given.
 */
export function fingerprintOf(rules: ReadonlyArray<{ id: number; version: number }>): string {
  const text = rules.map((r) => `${r.id}.${r.version}`).join(',')
  return createHash('sha256').update(text).digest('base64url').slice(0, 16)
}
