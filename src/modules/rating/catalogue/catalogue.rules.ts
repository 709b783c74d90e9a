// The read-only rating catalogue (docs/rate-catalogue.md), as pure functions of one rate-book
// version: the vehicle look-ups over the book's `vehicles` entries (filtered case-insensitively,
// sorted, de-duplicated) and the reply shapes of products, programs, plans, terms, deductibles and
// factor tables.
import { centsToNumber } from '../../../platform/money.ts'
import type { Window } from '../../../platform/http/pagination.ts'
import {
  ASSET_TYPES,
  VEHICLE_CONDITIONS,
  type CompiledRateBook,
  type DEDUCTIBLE_TYPES,
  type IndexedFactorTable,
  type IndexedPlan,
  type IndexedProduct,
  type IndexedProgram,
  type PRODUCT_TYPES,
  type RateBook,
} from '../ratebook/index.ts'

type VehicleEntry = RateBook['vehicles'][number]
/** The index keeps these as strings; the book's schema allowed only these values in. */
type ProductType = (typeof PRODUCT_TYPES)[number]
type DeductibleType = (typeof DEDUCTIBLE_TYPES)[number]

// ---- vehicles ---------------------------------------------------------------------------------

export const VEHICLE_LISTS = ['makes', 'models', 'series', 'trims', 'bodyStyles'] as const
export type VehicleList = (typeof VEHICLE_LISTS)[number]

/** Filters as the query gives them; text compares case-insensitively, blanks around it ignored. */
export type VehicleFilter = { make?: string | undefined; model?: string | undefined; year?: number | undefined }

/**
 * One candidate line of a vehicle list, before filtering: the make, the model (null for an entry that
 * names the make only) and the listed value (series, trim or body style; null for makes and models),
 * with the model years of the entry it comes from.
 */
export type VehicleRow = {
  make: string
  model: string | null
  value: string | null
  /** Upper-case make, model and value: what filters compare with and what de-duplicates. */
  key: readonly [string, string | null, string | null]
  yearFrom: number | null
  yearTo: number | null
}

const fold = (s: string) => s.trim().toUpperCase()

function row(v: VehicleEntry, model: string | null, value: string | null): VehicleRow {
  return {
    make: v.make,
    model,
    value,
    key: [fold(v.make), model === null ? null : fold(model), value === null ? null : fold(value)],
    yearFrom: v.yearFrom ?? null,
    yearTo: v.yearTo ?? null,
  }
}

const compareText = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1

/** Make, then model (make-only entries first), then value, compared upper-cased by code point. */
function compareRows(a: VehicleRow, b: VehicleRow): number {
  return compareText(a.key[0], b.key[0]) || compareText(a.key[1], b.key[1]) || compareText(a.key[2], b.key[2])
}

/**
 * Every candidate line of one list, sorted; duplicates kept (each with its own model years) until a
 * filter has chosen the lines that apply. Equal keys keep the book's order, so the first spelling
 * in the book is the one shown. Built once per book version and list (the routes keep it).
 */
export function vehicleRows(vehicles: readonly VehicleEntry[], list: VehicleList): VehicleRow[] {
  const rows: VehicleRow[] = []
  for (const v of vehicles) {
    const model = v.model ?? null
    switch (list) {
      case 'makes':
        rows.push(row(v, null, null))
        break
      case 'models':
        if (model !== null) rows.push(row(v, model, null))
        break
      case 'series':
        if (v.series !== undefined) rows.push(row(v, model, v.series))
        break
      case 'trims':
        for (const trim of v.trims ?? []) rows.push(row(v, model, trim))
        break
      case 'bodyStyles':
        for (const style of v.bodyStyles ?? []) rows.push(row(v, model, style))
        break
    }
  }
  return rows.toSorted(compareRows)
}

/** An entry without years applies to every year; one with yearFrom only, to that year and later. */
export function yearMatches(
  entry: { yearFrom?: number | null | undefined; yearTo?: number | null | undefined },
  year: number,
): boolean {
  return (entry.yearFrom == null || year >= entry.yearFrom) && (entry.yearTo == null || year <= entry.yearTo)
}

/** The lines of a sorted row list that match the filter, de-duplicated (first spelling kept). */
export function selectVehicleRows(rows: readonly VehicleRow[], filter: VehicleFilter): VehicleRow[] {
  const make = filter.make === undefined ? undefined : fold(filter.make)
  const model = filter.model === undefined ? undefined : fold(filter.model)
  const out: VehicleRow[] = []
  let last: VehicleRow | undefined
  for (const r of rows) {
    if (make !== undefined && r.key[0] !== make) continue
    if (model !== undefined && r.key[1] !== model) continue
    if (filter.year !== undefined && !yearMatches(r, filter.year)) continue
    if (last && compareRows(last, r) === 0) continue
    out.push(r)
    last = r
  }
  return out
}

/** The reply line of each list. */
export function vehicleItem(list: VehicleList, r: VehicleRow): Record<string, string | null> {
  switch (list) {
    case 'makes':
      return { make: r.make }
    case 'models':
      return { make: r.make, model: r.model }
    case 'series':
      return { make: r.make, model: r.model, series: r.value }
    case 'trims':
      return { make: r.make, model: r.model, trim: r.value }
    case 'bodyStyles':
      return { make: r.make, model: r.model, bodyStyle: r.value }
  }
}

export type Segmentation = {
  vehicleClass: string
  description: string | null
  isDefault: boolean
  matchedBy?: 'ENTRY' | 'DEFAULT'
}

/** The book's vehicle classes, ordered by code. */
export function vehicleClasses(book: Pick<RateBook, 'vehicleClasses' | 'defaultVehicleClass'>): Segmentation[] {
  return book.vehicleClasses
    .map((c) => ({
      vehicleClass: c.code,
      description: c.description ?? null,
      isDefault: c.code === book.defaultVehicleClass,
    }))
    .toSorted((a, b) => compareText(a.vehicleClass, b.vehicleClass))
}

/**
 * The class of one vehicle, by the same rule quotes use (CompiledRateBook.classify: the most specific
 * matching entry, else the book's default class); empty when neither applies. Stored books hold
 * makes, models and trims upper-cased (ratebook.rules.ts), so upper-casing the query makes the
 * match case-insensitive.
 */
export function classifyVehicle(
  index: Pick<CompiledRateBook, 'classify' | 'book'>,
  vehicle: { make: string; model?: string | undefined; trim?: string | undefined; year?: number | undefined },
): Segmentation[] {
  const found = index.classify({
    make: fold(vehicle.make),
    ...(vehicle.model === undefined ? {} : { model: fold(vehicle.model) }),
    ...(vehicle.trim === undefined ? {} : { trim: fold(vehicle.trim) }),
    ...(vehicle.year === undefined ? {} : { year: vehicle.year }),
  })
  if (!found) return []
  const cls = vehicleClasses(index.book).find((c) => c.vehicleClass === found.vehicleClass)
  if (!cls) return []
  return [{ ...cls, matchedBy: found.entry ? 'ENTRY' : 'DEFAULT' }]
}

// ---- products and the rest of the catalogue ---------------------------------------------------

export const ASSET_TYPE_DESCRIPTIONS: Readonly<Record<(typeof ASSET_TYPES)[number], string>> = {
  AUTO: 'Cars, light trucks, vans and SUVs',
  RV: 'Recreational vehicles: motorhomes, travel trailers and campers',
  MARINE: 'Boats, personal watercraft and their motors',
  POWERSPORTS: 'Motorcycles, ATVs, side-by-sides and snowmobiles',
  OTHER: 'Any other covered asset',
}

const ref = (x: { id: number; code: string; name: string }) => ({ id: x.id, code: x.code, name: x.name })

/** Every asset type, each with the products of the book sold for it (none without a book). */
export function assetTypes(products: readonly IndexedProduct[]) {
  return ASSET_TYPES.map((code) => ({
    code,
    description: ASSET_TYPE_DESCRIPTIONS[code],
    products: products.filter((p) => p.assetTypes.has(code)).map(ref),
  }))
}

export function productFilter(filter: { type?: string | undefined; assetType?: string | undefined }) {
  return (p: IndexedProduct) =>
    (filter.type === undefined || p.type === filter.type) &&
    (filter.assetType === undefined || p.assetTypes.has(filter.assetType))
}

export function productItem(p: IndexedProduct) {
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    type: p.type as ProductType,
    assetTypes: ASSET_TYPES.filter((a) => p.assetTypes.has(a)),
    requiredInputs: [...p.requiredInputs],
    effectiveFrom: p.effectiveFrom,
    effectiveTo: p.effectiveTo,
    deductibleCount: p.deductibles.length,
    programCount: p.programs.length,
    factorTableIds: p.factorTables.map((t) => t.id),
  }
}

export function programItem(g: IndexedProgram) {
  return { ...ref(g), product: { ...ref(g.product), type: g.product.type as ProductType }, plans: g.plans.map(ref) }
}

export function planItem(pl: IndexedPlan) {
  return {
    ...ref(pl),
    program: ref(pl.program),
    conditions: VEHICLE_CONDITIONS.filter((c) => pl.conditions.has(c)),
    formNumber: pl.formNumber,
    effectiveFrom: pl.effectiveFrom,
    effectiveTo: pl.effectiveTo,
    coverageGroups: (pl.coverageGroups ?? []).map((g) => ({
      code: g.code,
      name: g.name,
      components: g.components.map((c) => ({ code: c.code, name: c.name })),
    })),
    ppmServices: (pl.ppmServices ?? []).map((s) => ({
      code: s.code,
      name: s.name,
      intervalMonths: s.intervalMonths ?? null,
      intervalMiles: s.intervalMiles ?? null,
      count: s.count,
    })),
    customFields: pl.customFields.map(customFieldItem),
  }
}

/** A contract custom field as the catalogue shows it: the rules POST /contracts enforces. */
export function customFieldItem(f: IndexedPlan['customFields'][number]) {
  return {
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required,
    unique: f.unique,
    order: f.order,
    level: f.level,
    ...(f.minLength === undefined ? {} : { minLength: f.minLength }),
    ...(f.maxLength === undefined ? {} : { maxLength: f.maxLength }),
    ...(f.pattern === undefined ? {} : { pattern: f.pattern }),
    ...(f.min === undefined ? {} : { min: f.min }),
    ...(f.max === undefined ? {} : { max: f.max }),
    ...(f.options === undefined ? {} : { options: f.options.map((o) => ({ value: o.value, label: o.label })) }),
  }
}

export function termItems(pl: IndexedPlan) {
  return pl.terms.map((t) => ({ id: t.id, code: t.code, months: t.months, miles: t.miles, milesBasis: t.milesBasis }))
}

/** Amounts as JSON numbers, from whole cents (exact, as the rate quote writes them). */
export function deductibleItems(p: IndexedProduct) {
  return p.deductibles.map((d) => ({
    id: d.id,
    code: d.code,
    amount: centsToNumber(d.amountCents),
    type: d.type as DeductibleType,
  }))
}

/**
 * Factors as JSON numbers. The book's checks keep a factor to at most six places and its stored form
 * is already a JSON number (ratebook.rules.ts), so toNumber gives back that same number.
 */
export function factorTableItem(t: IndexedFactorTable) {
  return {
    ...ref(t),
    fact: t.fact,
    defaultFactor: t.defaultFactor.toNumber(),
    entries: Object.fromEntries([...t.factors].map(([key, factor]) => [key, factor.toNumber()])),
  }
}

/** One window of an in-memory list, with the total for X-Total-Count. */
export function windowOf<T>(items: readonly T[], window: Window): { items: T[]; totalCount: number } {
  return { items: items.slice(window.offset, window.offset + window.limit), totalCount: items.length }
}
