// Pure rules of the rate quote (docs/rate-quote.md): reading the query, the date rules, the facts
// criteria see, expiration, and pricing (factors, account-holder disbursements, markup limits).
import { addDays, addMonths } from '../../../platform/calendar.ts'
import type { FieldError } from '../../../platform/http/errors.ts'
import {
  Decimal,
  formatMoney,
  multiplyCents,
  parseDecimal,
  parseMoney,
  percentOfCents,
  toCents,
} from '../../../platform/money.ts'
import type { Facts } from '../criteria/index.ts'
import { isIsoDate } from '../../../platform/calendar.ts'
import {
  ASSET_TYPES,
  FINANCE_TYPES,
  PRODUCT_TYPES,
  VEHICLE_CONDITIONS,
  type Bucket,
  type IndexedFactorTable,
  type QuoteInput,
} from '../ratebook/index.ts'
import { validateVin } from '../vin/index.ts'

/** The quote's inputs after reading: what a quote id carries and what replaying it needs. */
export type QuoteInputs = {
  dealerNumber: string
  vin?: string
  vehicleYear?: number
  vehicleMake?: string
  vehicleModel?: string
  vehicleTrim?: string
  assetType: string
  vehicleCondition?: string
  odometer?: number
  saleDate: string
  inServiceDate?: string
  vehiclePurchasePrice?: string
  msrp?: string
  financeType?: string
  amountFinanced?: string
  financeTermMonths?: number
  apr?: string
  monthlyPayment?: string
  firstPaymentDate?: string
  productTypes?: string[]
  productIds?: number[]
  programIds?: number[]
  surcharges?: string[]
  customerState?: string
}

type Reader = (raw: string, field: string) => unknown
// Bounds what a quote id carries: with every input at its longest the id stays under MAX_QUOTE_ID_LENGTH.
const MAX_LIST = 20

const text =
  (max: number): Reader =>
  (raw, field) => {
    const v = raw.trim()
    if (v.length === 0 || v.length > max) throw problem(field, 'invalid_value', `must be 1 to ${max} characters`)
    return v
  }
const integer =
  (min: number, max: number): Reader =>
  (raw, field) => {
    if (!/^-?\d{1,10}$/.test(raw.trim())) throw problem(field, 'invalid_type', 'must be a whole number')
    const n = Number(raw.trim())
    if (n < min || n > max) throw problem(field, 'out_of_range', `must be between ${min} and ${max}`)
    return n
  }
const money: Reader = (raw, field) => {
  const d = parseMoney(raw.trim())
  if (!d) throw problem(field, 'invalid_type', 'must be an amount with at most two decimals, not negative')
  return formatMoney(d)
}
const date: Reader = (raw, field) => {
  if (!isIsoDate(raw.trim())) throw problem(field, 'invalid_format', 'must be a date YYYY-MM-DD')
  return raw.trim()
}
const oneOf =
  (values: readonly string[]): Reader =>
  (raw, field) => {
    const v = raw.trim().toUpperCase()
    if (!values.includes(v)) throw problem(field, 'invalid_value', `must be one of ${values.join(', ')}`)
    return v
  }
const codeList: Reader = (raw, field) => {
  const items = raw
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean)
  if (items.length === 0 || items.length > MAX_LIST || items.some((i) => !/^[A-Z0-9][A-Z0-9_.-]{0,39}$/.test(i))) {
    throw problem(field, 'invalid_value', `must be a comma-separated list of up to ${MAX_LIST} codes`)
  }
  return [...new Set(items)]
}
const idList: Reader = (raw, field) => {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (items.length === 0 || items.length > MAX_LIST || items.some((i) => !/^\d{1,15}$/.test(i))) {
    throw problem(field, 'invalid_value', `must be a comma-separated list of up to ${MAX_LIST} ids`)
  }
  return [...new Set(items.map(Number))]
}

class InputProblem extends Error {
  readonly error: FieldError
  constructor(error: FieldError) {
    super(error.message)
    this.error = error
  }
}
const problem = (field: string, code: string, message: string) => new InputProblem({ field, code, message })

/** Readers per query parameter; anything else in the query is refused (a typo should not go unnoticed). */
const READERS: Record<string, Reader> = {
  vin: (raw, field) => {
    const vin = raw.trim().toUpperCase()
    const problems = validateVin(vin)
    if (problems.length > 0)
      throw problem(
        field,
        problems[0]!.code === 'check_digit' ? 'check_digit' : 'invalid_format',
        problems.map((p) => p.message).join('; '),
      )
    return vin
  },
  vehicleYear: integer(1900, 2100),
  vehicleMake: (raw, field) => (text(60)(raw, field) as string).toUpperCase(),
  vehicleModel: (raw, field) => (text(80)(raw, field) as string).toUpperCase(),
  vehicleTrim: (raw, field) => (text(80)(raw, field) as string).toUpperCase(),
  assetType: oneOf(ASSET_TYPES),
  vehicleCondition: oneOf(VEHICLE_CONDITIONS),
  odometer: integer(0, 2_000_000),
  saleDate: date,
  inServiceDate: date,
  vehiclePurchasePrice: money,
  msrp: money,
  financeType: oneOf(FINANCE_TYPES),
  amountFinanced: money,
  financeTermMonths: integer(1, 144),
  apr: (raw, field) => {
    const d = parseDecimal(raw.trim(), 3)
    if (!d || d.greaterThan(100))
      throw problem(field, 'invalid_value', 'must be a percentage from 0 to 100 with at most three decimals')
    return d.toString()
  },
  monthlyPayment: money,
  firstPaymentDate: date,
  productTypes: (raw, field) => {
    const types = codeList(raw, field) as string[]
    const unknown = types.filter((t) => !(PRODUCT_TYPES as readonly string[]).includes(t))
    if (unknown.length > 0)
      throw problem(field, 'invalid_value', `${unknown.join(', ')}: not a product type (${PRODUCT_TYPES.join(', ')})`)
    return types
  },
  productIds: idList,
  programIds: idList,
  surcharges: codeList,
  customerState: (raw, field) => {
    const v = raw.trim().toUpperCase()
    if (!/^[A-Z]{2}$/.test(v)) throw problem(field, 'invalid_format', 'must be a two-letter state code')
    return v
  },
}
export const QUOTE_QUERY_PARAMETERS = [...Object.keys(READERS), 'explain']

/**
 * Reads the query; every bad or unknown parameter is listed. `today` is the default sale date. A
 * parameter given twice is refused rather than guessed.
 */
export function readQuoteQuery(
  dealerNumber: string,
  query: Readonly<Record<string, unknown>>,
  today: string,
): { ok: true; inputs: QuoteInputs; explain: boolean } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = []
  const out: Record<string, unknown> = { dealerNumber, assetType: 'AUTO', saleDate: today }
  let explain = false
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') {
      errors.push({ field: name, code: 'invalid_value', message: 'must be given once' })
      continue
    }
    if (name === 'explain') {
      if (value !== 'true' && value !== 'false')
        errors.push({ field: name, code: 'invalid_type', message: 'must be true or false' })
      explain = value === 'true'
      continue
    }
    const read = Object.prototype.hasOwnProperty.call(READERS, name) ? READERS[name] : undefined
    if (!read) {
      errors.push({
        field: name,
        code: 'unknown_parameter',
        message: `is not a rate-quote parameter (${QUOTE_QUERY_PARAMETERS.join(', ')})`,
      })
      continue
    }
    try {
      out[name] = read(value, name)
    } catch (err) {
      if (!(err instanceof InputProblem)) throw err
      errors.push(err.error)
    }
  }
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, inputs: out as QuoteInputs, explain }
}

/** The date rules (422): sale date not in the future nor older than the look-back; in service not after sale. */
export function quoteDateProblems(inputs: QuoteInputs, today: string, lookBackDays: number): FieldError[] {
  const errors: FieldError[] = []
  if (inputs.saleDate > today)
    errors.push({
      field: 'saleDate',
      code: 'out_of_range',
      message: `sale date ${inputs.saleDate} is in the future (today is ${today})`,
    })
  else {
    const earliest = addDays(today, -lookBackDays)
    if (inputs.saleDate < earliest)
      errors.push({
        field: 'saleDate',
        code: 'out_of_range',
        message: `sale date ${inputs.saleDate} is more than ${lookBackDays} days ago (earliest ${earliest})`,
      })
  }
  if (inputs.inServiceDate && inputs.inServiceDate > inputs.saleDate) {
    errors.push({
      field: 'inServiceDate',
      code: 'out_of_range',
      message: `in-service date ${inputs.inServiceDate} is after the sale date ${inputs.saleDate}`,
    })
  }
  return errors
}

/** Whole months from `from` to `to` (both YYYY-MM-DD), never negative. */
export function wholeMonthsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number]
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number]
  const months = (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0)
  return Math.max(0, months)
}

/** Which of a product's required inputs the quote lacks. */
export function missingInputs(
  required: readonly QuoteInput[],
  inputs: QuoteInputs,
  vehicleKnown: boolean,
): QuoteInput[] {
  return required.filter((r) => (r === 'vehicle' ? !vehicleKnown : inputs[r] === undefined))
}

export type Vehicle = {
  vin: string | null
  year: number | null
  make: string | null
  model: string | null
  trim: string | null
  series: string | null
  bodyStyle: string | null
  driveType: string | null
  fuelType: string | null
  cylinders: number | null
  manufacturer: string | null
}

/** vPIC's drive type ('4WD/4-Wheel Drive/4x4') to the short code criteria use (4WD). */
export function shortDriveType(driveType: string | undefined): string | null {
  if (!driveType) return null
  const head = driveType.split('/')[0]!.trim().toUpperCase()
  return head || null
}

/** vPIC's fuel type to one upper-case word criteria can compare: GASOLINE, DIESEL, ELECTRIC, ... */
export function shortFuelType(fuelType: string | undefined): string | null {
  if (!fuelType) return null
  const f = fuelType.toUpperCase()
  if (f.includes('DIESEL')) return 'DIESEL'
  if (f.startsWith('ELECTRIC')) return 'ELECTRIC'
  if (f.includes('FLEX')) return 'FLEX'
  if (f.includes('GASOLINE')) return 'GASOLINE'
  return f.split(/[\s/(]/)[0] || null
}

/** The facts every criteria of the quote sees (docs/criteria.md "Quote facts"); term and rate facts are set per term. */
export function quoteFacts(
  inputs: QuoteInputs,
  vehicle: Vehicle,
  vehicleClass: string | null,
  dealer: { number: string; state: string | null },
  warranties: ReadonlyArray<{ type: string; months: number; miles: number }>,
): Record<string, string | number | boolean | null> {
  const num = (v: string | undefined) => (v === undefined ? null : Number(v))
  const age = vehicle.year === null ? null : Math.max(0, Number(inputs.saleDate.slice(0, 4)) - vehicle.year)
  const monthsInService = inputs.inServiceDate ? wholeMonthsBetween(inputs.inServiceDate, inputs.saleDate) : null
  const valueBase = inputs.msrp ?? inputs.vehiclePurchasePrice
  const loanToValue =
    inputs.amountFinanced !== undefined && valueBase !== undefined && Number(valueBase) > 0
      ? new Decimal(inputs.amountFinanced).dividedBy(valueBase).toDecimalPlaces(4).toNumber()
      : null
  const remaining = (type: string) => {
    const w = warranties.find((x) => x.type === type)
    if (!w) return { months: null, miles: null }
    const months = monthsInService === null ? null : Math.max(0, w.months - monthsInService)
    const miles = inputs.odometer === undefined ? null : Math.max(0, w.miles - inputs.odometer)
    // A warranty ends at whichever limit comes first.
    return months === 0 || miles === 0 ? { months: 0, miles: 0 } : { months, miles }
  }
  const basic = remaining('BASIC')
  const powertrain = remaining('POWERTRAIN')
  return {
    assetType: inputs.assetType,
    condition: inputs.vehicleCondition ?? null,
    vin: vehicle.vin,
    vehicleYear: vehicle.year,
    make: vehicle.make,
    model: vehicle.model,
    trim: vehicle.trim,
    vehicleClass,
    fuelType: vehicle.fuelType,
    driveType: vehicle.driveType,
    cylinders: vehicle.cylinders,
    vehicleAge: age,
    odometer: inputs.odometer ?? null,
    saleDate: inputs.saleDate,
    inServiceDate: inputs.inServiceDate ?? null,
    monthsInService,
    purchasePrice: num(inputs.vehiclePurchasePrice),
    msrp: num(inputs.msrp),
    financeType: inputs.financeType ?? null,
    amountFinanced: num(inputs.amountFinanced),
    financeTermMonths: inputs.financeTermMonths ?? null,
    apr: num(inputs.apr),
    loanToValue,
    customerState: inputs.customerState ?? dealer.state,
    dealerState: dealer.state,
    dealerNumber: dealer.number,
    basicWarrantyMonthsRemaining: basic.months,
    basicWarrantyMilesRemaining: basic.miles,
    powertrainWarrantyMonthsRemaining: powertrain.months,
    powertrainWarrantyMilesRemaining: powertrain.miles,
    termMonths: null,
    termMiles: null,
    deductible: null,
  }
}

/** The product's multiplier: the product of its factor tables' entries for the quote's facts. */
const NO_FACTOR = new Decimal(1)

export function productFactor(tables: readonly IndexedFactorTable[], facts: Facts): Decimal {
  // Most products have no factor table: the shared 1 spares a Decimal per product and quote.
  let factor = NO_FACTOR
  for (const t of tables) {
    const value = facts[t.fact]
    factor = factor.times(
      (value === null || value === undefined ? undefined : t.factors.get(String(value))) ?? t.defaultFactor,
    )
  }
  return factor
}

const expirationDates = new Map<string, string>()

/** The odometer a term expires at: miles from the sale odometer or from zero; null for unlimited miles, or no odometer given. */
export function expirationOdometer(
  odometer: number | undefined,
  term: { miles: number; milesBasis: 'FROM_SALE_ODOMETER' | 'FROM_ZERO' },
): number | null {
  return term.miles === 0
    ? null
    : term.milesBasis === 'FROM_ZERO'
      ? term.miles
      : odometer === undefined
        ? null
        : odometer + term.miles
}

/** Expiration of a term from the sale: date by months, odometer by miles (see expirationOdometer). */
export function expiration(
  saleDate: string,
  odometer: number | undefined,
  term: { months: number; miles: number; milesBasis: 'FROM_SALE_ODOMETER' | 'FROM_ZERO' },
) {
  // Every quote of a day asks for the same few dates: kept, with a bound on the map.
  const key = `${saleDate}+${term.months}`
  let expirationDate = expirationDates.get(key)
  if (expirationDate === undefined) {
    if (expirationDates.size >= 10_000) expirationDates.clear()
    expirationDate = addMonths(saleDate, term.months)
    expirationDates.set(key, expirationDate)
  }
  return { expirationDate, expirationOdometer: expirationOdometer(odometer, term) }
}

/** An account-holder disbursement (dealer pack, agent commission...) as the quote applies it. */
export type HolderDisbursement = {
  id: number
  accountHolderId: number
  code: string
  label: string
  group: string
  basis: 'AMOUNT' | 'PERCENT'
  amount: string | null
  percent: string | null
  productId: number | null
  programId: number | null
  planId: number | null
  termId: number | null
  effectiveFrom: string
  effectiveTo: string | null
}

export type PricedLine = {
  code: string
  group: string
  label: string
  cents: number
  source: 'RATE' | 'ACCOUNT_HOLDER'
  accountHolderId?: number
}
/** A priced rate; every amount in whole cents. */
export type Price = {
  dealerCostCents: number
  suggestedRetailCents: number
  minRetailCents: number
  maxRetailCents: number
  retailLocked: boolean
  lines: PricedLine[]
}

const ONE = new Decimal(1)

/**
 * Prices a rate: each bucket times the product factor (rounded half-up to the cent, bucket by
 * bucket), plus the applicable account-holder disbursements (an amount, or a percentage of the
 * rate's own factored cost, rounded the same way); retail moves by the same factor and the same
 * additions unless it is locked; a dealer markup limit caps the maximum (and the suggested) retail.
 * Dealer cost is exactly the sum of the lines. Whole cents throughout, so sums are exact.
 */
export function priceRate(
  rate: {
    buckets: readonly Bucket[]
    suggestedRetailCents: number
    minRetailCents: number
    maxRetailCents: number
    retailLocked: boolean
  },
  factor: Decimal,
  codes: ReadonlyMap<string, { label: string; group: string }>,
  holderDisbursements: readonly HolderDisbursement[],
  markup: { maxMarkupAmount: string | null; maxMarkupPercent: string | null } | null,
): Price {
  const scale = factor.equals(ONE) ? (c: number) => c : (c: number) => multiplyCents(c, factor)
  let base = 0
  const lines: PricedLine[] = rate.buckets.map((b) => {
    const c = codes.get(b.code)
    const cents = scale(b.cents)
    base += cents
    return { code: b.code, group: c?.group ?? 'OTHER', label: c?.label ?? b.code, cents, source: 'RATE' as const }
  })
  let added = 0
  for (const d of holderDisbursements) {
    const cents =
      d.basis === 'AMOUNT' ? toCents(new Decimal(d.amount ?? 0)) : percentOfCents(base, new Decimal(d.percent ?? 0))
    added += cents
    lines.push({
      code: d.code,
      group: d.group,
      label: d.label,
      cents,
      source: 'ACCOUNT_HOLDER',
      accountHolderId: d.accountHolderId,
    })
  }
  const dealerCostCents = base + added
  // A locked retail is the filed price: it moves with the product factor (as the buckets do) but not
  // with the dealer's own additions, which come out of the dealer's margin.
  let suggestedRetailCents = rate.retailLocked
    ? scale(rate.suggestedRetailCents)
    : scale(rate.suggestedRetailCents) + added
  let minRetailCents = rate.retailLocked ? suggestedRetailCents : scale(rate.minRetailCents) + added
  let maxRetailCents = rate.retailLocked ? suggestedRetailCents : scale(rate.maxRetailCents) + added
  if (!rate.retailLocked) {
    // The factor rounds each bucket but a retail once, so a minimum filed at cost can come out a cent
    // or two under the factored cost; an unlocked retail is never below cost (the import's rule).
    suggestedRetailCents = Math.max(suggestedRetailCents, dealerCostCents)
    minRetailCents = Math.max(minRetailCents, dealerCostCents)
    maxRetailCents = Math.max(maxRetailCents, dealerCostCents)
  }
  if (markup && !rate.retailLocked) {
    if (markup.maxMarkupAmount !== null)
      maxRetailCents = Math.min(maxRetailCents, dealerCostCents + toCents(new Decimal(markup.maxMarkupAmount)))
    if (markup.maxMarkupPercent !== null)
      maxRetailCents = Math.min(
        maxRetailCents,
        dealerCostCents + percentOfCents(dealerCostCents, new Decimal(markup.maxMarkupPercent)),
      )
    if (maxRetailCents < minRetailCents) minRetailCents = maxRetailCents
    if (suggestedRetailCents > maxRetailCents) suggestedRetailCents = maxRetailCents
  }
  return {
    dealerCostCents,
    suggestedRetailCents,
    minRetailCents,
    maxRetailCents,
    retailLocked: rate.retailLocked,
    lines,
  }
}

/** An option's dealer cost and retail in cents: its buckets times the product factor; retail defaults to cost. */
export function priceOption(
  option: { buckets: readonly Bucket[]; suggestedRetailCents: number | null },
  factor: Decimal,
) {
  const scale = factor.equals(ONE) ? (c: number) => c : (c: number) => multiplyCents(c, factor)
  const lines = option.buckets.map((b) => ({ code: b.code, cents: scale(b.cents) }))
  const dealerCostCents = lines.reduce((n, l) => n + l.cents, 0)
  const suggestedRetailCents =
    option.suggestedRetailCents === null ? dealerCostCents : scale(option.suggestedRetailCents)
  return { dealerCostCents, suggestedRetailCents, lines }
}
