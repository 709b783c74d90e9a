// The vPIC VIN-pattern index (vin-data/vpic.ndjson.gz, built by scripts/vin-data/build.ts; format
// described there). Loading reads and unzips the whole file but parses only the header: a VIN
// schema's line is parsed the first time a VIN needs it, so start-up stays short and
// memory grows only with the makes and years actually seen.
import fs from 'node:fs'
import zlib from 'node:zlib'

export const DEFAULT_VIN_DATA_FILE = new URL('./vin-data/vpic.ndjson.gz', import.meta.url)

/** The decoded fields, in the file's element numbering. */
export const VIN_ELEMENTS = [
  'model',
  'series',
  'trim',
  'bodyStyle',
  'doors',
  'driveType',
  'cylinders',
  'displacementL',
  'engineModel',
  'fuelType',
  'fuelTypeSecondary',
  'gvwr',
  'turbo',
] as const
export type VinElement = (typeof VIN_ELEMENTS)[number]
export const ELEMENT = Object.fromEntries(VIN_ELEMENTS.map((name, i) => [name, i])) as {
  readonly [K in VinElement]: number
}

export type SchemaLink = { readonly schema: number; readonly yearFrom: number; readonly yearTo: number }

export type WmiRecord = {
  readonly manufacturer: string
  readonly makes: readonly string[]
  readonly country: string
  readonly vehicleType: string
  /** How many characters of the pattern key (VIN positions 4-8, '|', 10-17) any of its patterns reads. */
  readonly reach: number
  readonly schemas: readonly SchemaLink[]
}

/**
 * One value a pattern gives an element: [element, value, order, make?]. `order` ranks patterns of
 * equal priority (lower wins); `make` comes with a model. A null value marks a formula pattern,
 * whose value is the VIN's digits under its '#'.
 */
export type PatternItem = readonly [element: number, value: string | null, order: number, make?: string]

/**
 * A pattern's keys (vPIC's syntax: '*' any character, '[A-D5]' a class, '#' a digit, anything else
 * itself; trailing wildcards dropped) and what it gives. Kept as parsed from the file: a schema's
 * thousands of patterns then cost no objects beyond JSON.parse's own.
 */
export type PatternGroup = readonly [keys: string, items: readonly PatternItem[]]

export type VinSchema = { readonly groups: readonly PatternGroup[] }

export type VinDataSource = { readonly package: string; readonly integrity: string; readonly vpicLatestChange: string }

export type VinData = {
  readonly source: VinDataSource
  wmi(code: string): WmiRecord | undefined
  schema(index: number): VinSchema
  /** Engine attributes vPIC records per engine model (lower-cased, trimmed), best first. */
  engine(model: string): ReadonlyArray<readonly [number, string]> | undefined
  /** How many schemas have been parsed so far. */
  readonly parsedSchemas: number
}

type Header = {
  format: number
  source: VinDataSource
  elements: string[]
  wmis: Record<string, [string, string[], string, string, number, Array<[number, number, number | null]>]>
  engines: Record<string, Array<[number, string]>>
}

const OPEN_ENDED_YEAR = 2999

const DIGIT_0 = 48
const DIGIT_9 = 57

/**
 * Whether a pattern's keys match the start of `key` (vPIC matches `LIKE keys || '%'`). Walks the
 * keys as they are stored; compiling them first would cost more memory than the walk costs time.
 */
export function matchesKey(keys: string, key: string): boolean {
  let k = 0
  for (let i = 0; i < keys.length; i++, k++) {
    if (k >= key.length) return false
    const want = keys.charCodeAt(i)
    const have = key.charCodeAt(k)
    if (want === 42 /* * */) continue
    if (want === 35 /* # */) {
      if (have < DIGIT_0 || have > DIGIT_9) return false
    } else if (want === 91 /* [ */) {
      const end = keys.indexOf(']', i)
      if (end < 0) return false
      let found = false
      for (let j = i + 1; j < end && !found; j++) {
        const from = keys.charCodeAt(j)
        if (keys.charCodeAt(j + 1) === 45 /* - */ && j + 2 < end) {
          found = have >= from && have <= keys.charCodeAt(j + 2)
          j += 2
        } else {
          found = have === from
        }
      }
      if (!found) return false
      i = end
    } else if (want !== have) {
      return false
    }
  }
  return true
}

export function loadVinData(file: string | URL = DEFAULT_VIN_DATA_FILE): VinData {
  const text = zlib.gunzipSync(fs.readFileSync(file))
  const lineStarts: number[] = []
  let at = text.indexOf(10)
  if (at < 0) throw new Error('VIN data: no header line')
  const header = JSON.parse(text.toString('utf8', 0, at)) as Header
  if (header.format !== 1) throw new Error(`VIN data: format ${header.format} is not supported`)
  if (header.elements.join() !== VIN_ELEMENTS.join())
    throw new Error("VIN data: its elements differ from the decoder's; rebuild it with scripts/vin-data/build.ts")
  while (at + 1 < text.length) {
    lineStarts.push(at + 1)
    at = text.indexOf(10, at + 1)
    if (at < 0) at = text.length
  }
  // One past the last line's end, so that line i always spans lineStarts[i] to lineStarts[i + 1] - 1.
  lineStarts.push(at + 1)

  const wmis = new Map<string, WmiRecord>()
  for (const [code, [manufacturer, makes, country, vehicleType, reach, links]] of Object.entries(header.wmis)) {
    wmis.set(code, {
      manufacturer,
      makes,
      country,
      vehicleType,
      reach,
      schemas: links.map(([schema, yearFrom, yearTo]) => ({ schema, yearFrom, yearTo: yearTo ?? OPEN_ENDED_YEAR })),
    })
  }
  const engines = new Map(Object.entries(header.engines))
  const schemas: Array<VinSchema | undefined> = []
  let parsed = 0

  return {
    source: header.source,
    wmi: (code) => wmis.get(code),
    schema(index) {
      let schema = schemas[index]
      if (schema === undefined) {
        const start = lineStarts[index]
        const next = lineStarts[index + 1]
        if (start === undefined || next === undefined) throw new RangeError(`VIN data: no schema ${index}`)
        schema = { groups: JSON.parse(text.toString('utf8', start, next - 1)) as PatternGroup[] }
        schemas[index] = schema
        parsed++
      }
      return schema
    },
    engine: (model) => engines.get(model),
    get parsedSchemas() {
      return parsed
    },
  }
}
