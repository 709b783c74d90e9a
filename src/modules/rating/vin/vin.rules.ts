// VIN validation and offline decoding (docs/vin.md). Pure functions. The input is upper-cased first;
// nothing else is normalised (surrounding spaces are invalid characters, not trimmed away). The
// check digit (position 9, 49 CFR 565.15) is enforced for every VIN, not only North American ones:
// this service rates US-market vehicles, for which it is mandatory, and a VIN that fails it is a 400.
import { WMI, regionOf } from './vin.wmi.ts'

export const VIN_LENGTH = 17

/** Every character a VIN may hold: A-Z and 0-9 except I, O and Q. */
export const VIN_ALPHABET = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ'

export type VinProblem =
  | { code: 'length'; message: string; actual: number }
  | { code: 'invalid_character'; message: string; position: number; character: string }
  | { code: 'check_digit'; message: string; expected: string; actual: string }

/** 'vin-data': only one candidate year has a model in the manufacturer's vPIC schemas (createVinDecoder). */
export type ModelYearBasis = 'position-7' | 'reference-year' | 'vin-data'

export type DecodedVin = {
  vin: string
  /** Positions 1-3. */
  wmi: string
  /** Positions 4-8, the vehicle descriptor section (decoded by createVinDecoder, not here). */
  vds: string
  manufacturer?: string
  /** Absent when the WMI is unknown or shared by several makes. */
  make?: string
  country?: string
  region: string
  /** The chosen model year; absent when position 10 is not a year code or the year stays ambiguous. */
  modelYear?: number
  /** How modelYear was chosen. */
  modelYearBasis?: ModelYearBasis
  /** The years position 10 can stand for in the 1980-2039 range, earliest first. */
  modelYearCandidates: number[]
  /** Position 11. */
  plantCode: string
  /** Positions 12-17. */
  serialNumber: string
}

export class InvalidVinError extends Error {
  readonly problems: VinProblem[]
  constructor(problems: VinProblem[]) {
    super(`Invalid VIN: ${problems.map((p) => p.message).join('; ')}`)
    this.name = 'InvalidVinError'
    this.problems = problems
  }
}

// Transliteration table of 49 CFR 565.15: digits are themselves, letters count 1-9 in runs
// (A-H = 1-8, J-R = 1-9 without O and Q, S-Z = 2-9).
const VALUES: Readonly<Record<string, number>> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
  0: 0,
  1: 1,
  2: 2,
  3: 3,
  4: 4,
  5: 5,
  6: 6,
  7: 7,
  8: 8,
  9: 9,
}
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const

/** The transliterated value of one VIN character, or undefined for a character a VIN may not hold. */
export function vinCharValue(ch: string): number | undefined {
  return Object.hasOwn(VALUES, ch) ? VALUES[ch] : undefined
}

/**
 * The check digit ('0'-'9' or 'X') for a 17-character VIN made only of allowed characters; position 9
 * itself carries weight 0, so whatever it holds does not matter.
 */
export function vinCheckDigit(vin: string): string {
  let sum = 0
  for (let i = 0; i < VIN_LENGTH; i++) {
    const value = vinCharValue(vin.charAt(i))
    if (value === undefined) throw new RangeError(`not a VIN character at position ${i + 1}`)
    sum += value * (WEIGHTS[i] ?? 0)
  }
  const remainder = sum % 11
  return remainder === 10 ? 'X' : String(remainder)
}

/** Every problem with a VIN; an empty list means it is valid. The check digit is verified only when length and characters are right. */
export function validateVin(input: string): VinProblem[] {
  const vin = input.toUpperCase()
  const problems: VinProblem[] = []
  const chars = [...vin]
  if (chars.length !== VIN_LENGTH) {
    problems.push({
      code: 'length',
      message: `A VIN has ${VIN_LENGTH} characters, not ${chars.length}`,
      actual: chars.length,
    })
  }
  chars.forEach((ch, i) => {
    if (vinCharValue(ch) === undefined) {
      const why = ch === 'I' || ch === 'O' || ch === 'Q' ? ' (I, O and Q are never used)' : ''
      problems.push({
        code: 'invalid_character',
        message: `Character ${JSON.stringify(ch)} at position ${i + 1} is not allowed in a VIN${why}`,
        position: i + 1,
        character: ch,
      })
    }
  })
  if (problems.length > 0) return problems
  const expected = vinCheckDigit(vin)
  const actual = vin.charAt(8)
  if (actual !== expected) {
    problems.push({
      code: 'check_digit',
      message: `Check digit (position 9) is ${actual}, expected ${expected}`,
      expected,
      actual,
    })
  }
  return problems
}

// Position 10 year codes, first 30-year cycle (1980-2009); the second cycle (2010-2039) adds 30.
// I, O, Q, U, Z and 0 are never year codes.
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789'
const FIRST_CYCLE_START = 1980
const CYCLE = 30

/** The years a position 10 code stands for in 1980-2039, earliest first; [] for a character that is not a year code. */
export function modelYearCandidates(code: string): number[] {
  const index = code.length === 1 ? YEAR_CODES.indexOf(code) : -1
  if (index < 0) return []
  const first = FIRST_CYCLE_START + index
  return [first, first + CYCLE]
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9'
}

const NORTH_AMERICA = new Set(['United States', 'Canada', 'Mexico'])

/**
 * Decodes a valid VIN; throws InvalidVinError otherwise. Model year (docs/vin.md):
 * - North American VINs (first character 1-5, or a WMI listed as built in the US, Canada or Mexico):
 *   position 7 numeric means the 1980-2009 cycle, a letter the 2010-2039 cycle (49 CFR 565.15 for
 *   passenger vehicles, MPVs and light trucks).
 * - With a `referenceYear` (for example the sale year) a candidate later than referenceYear + 1 is not
 *   plausible: a model year runs at most one year ahead of the calendar. The position 7 choice stands
 *   when it is plausible; otherwise the latest plausible candidate is taken.
 * - Otherwise the year stays open: modelYear is absent and the candidates are listed.
 */
export function decodeVin(input: string, options: { referenceYear?: number } = {}): DecodedVin {
  const problems = validateVin(input)
  if (problems.length > 0) throw new InvalidVinError(problems)
  const vin = input.toUpperCase()
  const wmi = vin.slice(0, 3)
  const entry = WMI.get(wmi)
  const area = regionOf(vin.charAt(0))
  const country = entry?.country ?? area.country
  const candidates = modelYearCandidates(vin.charAt(9))

  const northAmerican = /^[1-5]/.test(vin) || (country !== undefined && NORTH_AMERICA.has(country))
  const byPosition7 = northAmerican && candidates.length === 2 ? candidates[isDigit(vin.charAt(6)) ? 0 : 1] : undefined
  let modelYear: number | undefined
  let basis: ModelYearBasis | undefined
  const { referenceYear } = options
  if (referenceYear === undefined) {
    if (byPosition7 !== undefined) [modelYear, basis] = [byPosition7, 'position-7']
  } else {
    const plausible = candidates.filter((y) => y <= referenceYear + 1)
    if (byPosition7 !== undefined && plausible.includes(byPosition7)) [modelYear, basis] = [byPosition7, 'position-7']
    else if (plausible.length > 0) [modelYear, basis] = [plausible[plausible.length - 1], 'reference-year']
  }

  return {
    vin,
    wmi,
    vds: vin.slice(3, 8),
    ...(entry === undefined ? {} : { manufacturer: entry.manufacturer }),
    ...(entry?.make === undefined ? {} : { make: entry.make }),
    ...(country === undefined ? {} : { country }),
    region: area.region,
    ...(modelYear === undefined ? {} : { modelYear, modelYearBasis: basis }),
    modelYearCandidates: candidates,
    plantCode: vin.charAt(10),
    serialNumber: vin.slice(11),
  }
}
