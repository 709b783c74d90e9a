// The VIN decoder for the rate quote: decodeVin (check digit, WMI table, model year) plus make,
// model and the rest from the NHTSA vPIC patterns (docs/vin.md). It follows vPIC's own decoding
// (spVinDecode): the WMI's VIN schemas for the model year, patterns matched against positions 4-8
// and 10-17, one value per element chosen by priority. Lookups are cached by the part of the VIN
// the patterns can read, so every car of one model, trim and year is decoded once.
import { decodeVin, type DecodedVin, type ModelYearBasis } from './vin.rules.ts'
import {
  DEFAULT_VIN_DATA_FILE,
  ELEMENT,
  loadVinData,
  matchesKey,
  type VinData,
  type VinDataSource,
  type WmiRecord,
} from './vin.data.ts'
import { WMI } from './vin.wmi.ts'

/** What the vPIC data adds to a decoded VIN. Each field is absent when the data does not say. */
export type VinVehicle = {
  /** As vPIC records it, for example 'Passenger Car', 'Truck', 'Multipurpose Passenger Vehicle (MPV)'. */
  vehicleType?: string
  model?: string
  series?: string
  trim?: string
  /** vPIC's body class, for example 'Sedan/Saloon', 'Pickup', 'Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)'. */
  bodyStyle?: string
  doors?: number
  /** For example 'AWD/All-Wheel Drive', '4WD/4-Wheel Drive/4x4'. */
  driveType?: string
  cylinders?: number
  displacementL?: number
  engineModel?: string
  /** Primary fuel, for example 'Gasoline', 'Diesel', 'Electric', 'Flexible Fuel Vehicle (FFV)'. */
  fuelType?: string
  /** A hybrid's second source, for example 'Electric'. */
  fuelTypeSecondary?: string
  /** Gross vehicle weight rating class, for example 'Class 2E: 6,001 - 7,000 lb (2,722 - 3,175 kg)'. */
  gvwr?: string
  turbo?: boolean
}

export type VehicleDecodedVin = DecodedVin & VinVehicle

export type VinDecoderOptions = {
  /** Most descriptor/year lookups kept (least recently used dropped first). Default 10,000. */
  cacheSize?: number
  /** The index file; defaults to the one in vin-data/. */
  dataFile?: string | URL
}

export type VinDecoderStats = { loaded: boolean; cached: number; hits: number; misses: number; parsedSchemas: number }

export type VinDecoder = {
  /**
   * Decodes a valid VIN; throws InvalidVinError otherwise (as decodeVin). The first call loads the
   * data (about 0.1 s) unless `load()` was called before.
   */
  decode(vin: string, options?: { referenceYear?: number }): VehicleDecodedVin
  /** Loads the data now, for example at start-up, so no request waits for it. */
  load(): void
  /** The data set in use (loads it). */
  source(): VinDataSource
  stats(): VinDecoderStats
}

// vPIC's priorities: a pattern counts with its schema's first model year (so a newer schema beats
// an older, broader one), a formula pattern with 100 and an engine model's own attributes with 50:
// the last two only fill elements no pattern decoded.
const FORMULA_PRIORITY = 100
const ENGINE_PRIORITY = 50

/** Data shared by every decoder reading the same file: it never changes once loaded. */
const loadedFiles = new Map<string, VinData>()

function sharedData(file: string | URL): VinData {
  const key = String(file)
  let data = loadedFiles.get(key)
  if (data === undefined) {
    data = loadVinData(file)
    loadedFiles.set(key, data)
  }
  return data
}

/** vPIC's WMI: positions 1-3, and for a small manufacturer (third character 9) positions 12-14 too. */
export function vpicWmi(vin: string): string {
  return vin.charAt(2) === '9' ? vin.slice(0, 3) + vin.slice(11, 14) : vin.slice(0, 3)
}

/** The string vPIC matches patterns against: positions 4-8, '|' in place of the check digit, positions 10-17. */
export function patternKey(vin: string): string {
  return `${vin.slice(3, 8)}|${vin.slice(9)}`
}

type Pick = { priority: number; order: number; value: string; make?: string }

/** vPIC's decoding of one VIN for one model year. */
export function lookupVehicle(
  data: VinData,
  wmi: WmiRecord,
  key: string,
  modelYear: number,
): { vehicle: VinVehicle; make?: string } {
  const picks: Array<Pick | undefined> = []
  const consider = (element: number, pick: Pick) => {
    const best = picks[element]
    if (
      best === undefined ||
      pick.priority > best.priority ||
      (pick.priority === best.priority && pick.order < best.order)
    )
      picks[element] = pick
  }

  // A schema may be linked twice for overlapping years; its patterns count once, at the higher priority.
  const priorities = new Map<number, number>()
  for (const link of wmi.schemas) {
    if (modelYear < link.yearFrom || modelYear > link.yearTo) continue
    priorities.set(link.schema, Math.max(priorities.get(link.schema) ?? 0, link.yearFrom))
  }
  for (const [index, priority] of priorities) {
    for (const [keys, items] of data.schema(index).groups) {
      if (!matchesKey(keys, key)) continue
      for (const [element, value, order, make] of items) {
        if (value !== null) {
          consider(element, make === undefined ? { priority, order, value } : { priority, order, value, make })
        } else {
          // A formula's value is what the VIN holds under the pattern's '#' characters.
          consider(element, {
            priority: FORMULA_PRIORITY,
            order,
            value: key.slice(keys.indexOf('#'), keys.lastIndexOf('#') + 1),
          })
        }
      }
    }
  }

  // vPIC looks the engine up under a pick of its own (newest pattern id first) that can differ from
  // the engine model it reports when several match at one priority; the reported one serves both here.
  const engineModel = picks[ELEMENT.engineModel]
  const engine = engineModel === undefined ? undefined : data.engine(engineModel.value.trim().toLowerCase())
  if (engine !== undefined) {
    engine.forEach(([element, value], order) => consider(element, { priority: ENGINE_PRIORITY, order, value }))
  }

  const text = (element: number) => picks[element]?.value
  const vehicle: VinVehicle = {}
  const set = <K extends keyof VinVehicle>(field: K, value: VinVehicle[K] | undefined) => {
    if (value !== undefined) vehicle[field] = value
  }
  set('vehicleType', wmi.vehicleType === '' ? undefined : wmi.vehicleType)
  set('model', text(ELEMENT.model))
  set('series', text(ELEMENT.series))
  set('trim', text(ELEMENT.trim))
  set('bodyStyle', text(ELEMENT.bodyStyle))
  set('doors', integer(text(ELEMENT.doors)))
  set('driveType', text(ELEMENT.driveType))
  set('cylinders', integer(text(ELEMENT.cylinders)))
  set('displacementL', decimal(text(ELEMENT.displacementL)))
  set('engineModel', text(ELEMENT.engineModel))
  set('fuelType', text(ELEMENT.fuelType))
  set('fuelTypeSecondary', text(ELEMENT.fuelTypeSecondary))
  set('gvwr', text(ELEMENT.gvwr))
  const turbo = text(ELEMENT.turbo)
  set('turbo', turbo === 'Yes' ? true : turbo === 'No' ? false : undefined)

  // The model names its make; without a model vPIC takes the WMI's make when it has only one.
  const make = picks[ELEMENT.model]?.make ?? (wmi.makes.length === 1 ? wmi.makes[0] : undefined)
  return make === undefined ? { vehicle } : { vehicle, make }
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined
  const n = Number(value)
  return n > 0 ? n : undefined
}

function decimal(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined
  const n = Number(value)
  return n > 0 ? n : undefined
}

type Found = {
  readonly vehicle: VinVehicle
  readonly make?: string
  readonly manufacturer: string
  readonly country: string
}

export function createVinDecoder(options: VinDecoderOptions = {}): VinDecoder {
  const capacity = options.cacheSize ?? 10_000
  if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError('cacheSize must be a non-negative integer')
  const file = options.dataFile ?? DEFAULT_VIN_DATA_FILE
  let data: VinData | undefined
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  const cache = new Map<string, Found>()
  let hits = 0
  let misses = 0

  const ensure = (): VinData => (data ??= sharedData(file))

  function find(vin: string, modelYear: number): Found | undefined {
    const code = vpicWmi(vin)
    const d = ensure()
    const wmi = d.wmi(code)
    if (wmi === undefined) return undefined
    const key = patternKey(vin)
    // Only the characters some pattern of this WMI can read decide the answer (for nearly every
    // WMI: positions 4-8, 10 and 11); the serial number does not, so it stays out of the key.
    const cacheKey = `${code}${key.slice(0, wmi.reach)}@${modelYear}`
    const cached = cache.get(cacheKey)
    if (cached !== undefined) {
      hits++
      cache.delete(cacheKey)
      cache.set(cacheKey, cached)
      return cached
    }
    misses++
    const { vehicle, make } = lookupVehicle(d, wmi, key, modelYear)
    const found: Found = Object.freeze({
      vehicle: Object.freeze(vehicle),
      manufacturer: wmi.manufacturer,
      country: wmi.country,
      ...(make === undefined ? {} : { make }),
    })
    if (capacity > 0) {
      if (cache.size >= capacity) cache.delete(cache.keys().next().value as string)
      cache.set(cacheKey, found)
    }
    return found
  }

  return {
    decode(input, decodeOptions = {}) {
      const base = decodeVin(input, decodeOptions)
      let modelYear = base.modelYear
      let basis: ModelYearBasis | undefined = base.modelYearBasis
      let found = modelYear === undefined ? undefined : find(base.vin, modelYear)
      // Position 10 alone leaves two years open outside North America. When the manufacturer's
      // schemas name a model for only one of them, that year is the one.
      if (
        modelYear === undefined &&
        decodeOptions.referenceYear === undefined &&
        base.modelYearCandidates.length === 2
      ) {
        const withModel = base.modelYearCandidates.flatMap((year) => {
          const candidate = find(base.vin, year)
          return candidate?.vehicle.model === undefined ? [] : [{ year, candidate }]
        })
        if (withModel.length === 1 && withModel[0] !== undefined) {
          ;({ year: modelYear, candidate: found } = withModel[0])
          basis = 'vin-data'
        }
      }
      return merge(base, modelYear, basis, found)
    },
    load() {
      ensure()
    },
    source: () => ensure().source,
    stats: () => ({
      loaded: data !== undefined,
      cached: cache.size,
      hits,
      misses,
      parsedSchemas: data?.parsedSchemas ?? 0,
    }),
  }
}

function merge(
  base: DecodedVin,
  modelYear: number | undefined,
  basis: ModelYearBasis | undefined,
  found: Found | undefined,
): VehicleDecodedVin {
  if (found === undefined && modelYear === base.modelYear) return base
  const table = WMI.get(base.wmi)
  // The hand-kept table's spelling wins for the same make ('Rivian', not vPIC's 'RIVIAN'); the
  // make vPIC derives from the model wins otherwise, since a shared WMI (1C4: Chrysler, Dodge,
  // Jeep) leaves the table without one.
  const vpicMake = found?.make
  const make =
    vpicMake === undefined
      ? base.make
      : base.make !== undefined && base.make.toLowerCase() === vpicMake.toLowerCase()
        ? base.make
        : vpicMake
  const manufacturer = table?.manufacturer ?? (found?.manufacturer === '' ? undefined : found?.manufacturer)
  const country = base.country ?? (found?.country === '' ? undefined : found?.country)
  return {
    vin: base.vin,
    wmi: base.wmi,
    vds: base.vds,
    ...(manufacturer === undefined ? {} : { manufacturer }),
    ...(make === undefined ? {} : { make }),
    ...(country === undefined ? {} : { country }),
    region: base.region,
    ...(modelYear === undefined ? {} : { modelYear, ...(basis === undefined ? {} : { modelYearBasis: basis }) }),
    modelYearCandidates: base.modelYearCandidates,
    plantCode: base.plantCode,
    serialNumber: base.serialNumber,
    ...found?.vehicle,
  }
}
