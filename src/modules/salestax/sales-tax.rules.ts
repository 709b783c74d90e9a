// Sales tax, pure (docs/sales-tax.md): which rules are in force on a date for a location and a
// product type, and the tax they give. Rules stack: the state's, the county's and the city's each
// apply their own rate to their own base, because each is a separate levy remitted to its own
// jurisdiction; a more specific rule never replaces a less specific one. Within one jurisdiction a
// rule for the product type replaces the rule for every product type (null), so a state can exempt
// or rate one product type differently. Each rule's tax is rounded half-up to the cent once
// (money.md "Arithmetic"); the total is the sum of the rounded taxes.
import { Decimal } from '../../platform/money.ts'

export const TAXABLE_BASES = ['RETAIL_PRICE', 'DEALER_COST', 'NONE'] as const
export type TaxableBase = (typeof TAXABLE_BASES)[number]
export const COLLECTORS = ['DEALER', 'ADMINISTRATOR'] as const
export type Collector = (typeof COLLECTORS)[number]
export type JurisdictionLevel = 'STATE' | 'COUNTY' | 'CITY'

/** A rule as the computation reads it: rate a decimal string fraction, dates YYYY-MM-DD, effectiveTo inclusive. */
export type TaxRule = {
  id: number
  state: string
  county: string | null
  city: string | null
  productType: string | null
  rate: string
  taxableBase: TaxableBase
  collectedBy: Collector
  effectiveFrom: string
  effectiveTo: string | null
}

export type TaxLocation = { state: string; county?: string | null; city?: string | null }

export type TaxLine = {
  ruleId: number
  jurisdiction: { level: JurisdictionLevel; state: string; county: string | null; city: string | null }
  rate: string
  taxableBase: TaxableBase
  /** Cents. */
  baseCents: number
  /** Cents, rounded half-up once. */
  taxCents: number
  collectedBy: Collector
}

/** Names compared ignoring case and surrounding spaces ("Travis", " travis "). */
const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase()

export function levelOf(rule: Pick<TaxRule, 'county' | 'city'>): JurisdictionLevel {
  return rule.city !== null ? 'CITY' : rule.county !== null ? 'COUNTY' : 'STATE'
}

/** The key no two rules of overlapping periods may share: jurisdiction × product type. */
export function jurisdictionKey(rule: Pick<TaxRule, 'state' | 'county' | 'city' | 'productType'>): string {
  const norm = (v: string | null) => (v === null ? '' : v.trim().toLowerCase())
  return JSON.stringify([rule.state, norm(rule.county), norm(rule.city), rule.productType])
}

export function inForce(rule: Pick<TaxRule, 'effectiveFrom' | 'effectiveTo'>, date: string): boolean {
  return rule.effectiveFrom <= date && (rule.effectiveTo === null || date <= rule.effectiveTo)
}

/** Whether two periods (effectiveTo inclusive, null open) share a day. */
export function periodsOverlap(
  a: Pick<TaxRule, 'effectiveFrom' | 'effectiveTo'>,
  b: Pick<TaxRule, 'effectiveFrom' | 'effectiveTo'>,
): boolean {
  return (
    (a.effectiveTo === null || b.effectiveFrom <= a.effectiveTo) &&
    (b.effectiveTo === null || a.effectiveFrom <= b.effectiveTo)
  )
}

/** The rules `rule` would overlap among `others` (itself excluded by id). */
export function overlapping<T extends TaxRule>(rule: TaxRule, others: readonly T[]): T[] {
  const key = jurisdictionKey(rule)
  return others.filter((o) => o.id !== rule.id && jurisdictionKey(o) === key && periodsOverlap(rule, o))
}

/** Whether a rule's jurisdiction contains the location: its state, and its county and city when it names them. */
function covers(rule: TaxRule, at: TaxLocation): boolean {
  return (
    rule.state === at.state.toUpperCase() &&
    (rule.county === null || same(rule.county, at.county)) &&
    (rule.city === null || same(rule.city, at.city))
  )
}

const LEVEL_ORDER: Record<JurisdictionLevel, number> = { STATE: 0, COUNTY: 1, CITY: 2 }

/**
 * The rules in force on `date` for the location and product type, one per jurisdiction (the
 * product type's rule over the all-products rule), state first, then county, then city.
 */
export function rulesInForce(rules: readonly TaxRule[], at: TaxLocation, productType: string, date: string): TaxRule[] {
  const byJurisdiction = new Map<string, TaxRule>()
  for (const r of rules) {
    if (!covers(r, at) || !inForce(r, date)) continue
    if (r.productType !== null && r.productType !== productType) continue
    const key = jurisdictionKey({ ...r, productType: null })
    const held = byJurisdiction.get(key)
    if (held === undefined || (held.productType === null && r.productType !== null)) byJurisdiction.set(key, r)
  }
  return [...byJurisdiction.values()].toSorted(
    (a, b) =>
      LEVEL_ORDER[levelOf(a)] - LEVEL_ORDER[levelOf(b)] ||
      (a.county ?? '').localeCompare(b.county ?? '') ||
      a.id - b.id,
  )
}

/** Thrown when a rule taxes the dealer cost and none was given. */
export class DealerCostRequired extends Error {
  readonly ruleId: number
  constructor(ruleId: number) {
    super(`rule ${ruleId} taxes the dealer cost`)
    this.ruleId = ruleId
  }
}

/** The tax of each rule and the total, amounts in cents. */
export function computeSalesTax(
  rules: readonly TaxRule[],
  amounts: { retailCents: number; dealerCostCents: number | null },
): { totalCents: number; lines: TaxLine[] } {
  const lines = rules.map((r): TaxLine => {
    let baseCents = 0
    if (r.taxableBase === 'RETAIL_PRICE') baseCents = amounts.retailCents
    else if (r.taxableBase === 'DEALER_COST') {
      if (amounts.dealerCostCents === null) throw new DealerCostRequired(r.id)
      baseCents = amounts.dealerCostCents
    }
    const taxCents = new Decimal(baseCents).times(r.rate).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber()
    return {
      ruleId: r.id,
      jurisdiction: { level: levelOf(r), state: r.state, county: r.county, city: r.city },
      rate: r.rate,
      taxableBase: r.taxableBase,
      baseCents,
      taxCents,
      collectedBy: r.collectedBy,
    }
  })
  return { totalCents: lines.reduce((s, l) => s + l.taxCents, 0), lines }
}
