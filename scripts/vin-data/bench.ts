// Timings of the vPIC VIN decoder (docs/vin.md): loading the data, a VIN whose schemas are not yet
// parsed, an uncached VIN whose schemas are, a cached VIN, and the memory of parsing every schema.
//
//   node --expose-gc scripts/vin-data/bench.ts [--rounds 200000]
//
// The VINs are synthesised from the data: for each of the WMIs most sold in the US, patterns of its
// schemas filled in with allowed characters, a year in the schema's range and a valid check digit.
import { parseArgs } from 'node:util'
import { createVinDecoder } from '../../src/modules/rating/vin/vin.decoder.ts'
import { loadVinData } from '../../src/modules/rating/vin/vin.data.ts'
import { VIN_ALPHABET, vinCheckDigit } from '../../src/modules/rating/vin/vin.rules.ts'
import { WMI } from '../../src/modules/rating/vin/vin.wmi.ts'

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '200000' } } })
const rounds = Number(args.rounds)

// The same sequence on every run, so runs compare.
let seed = 42
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789'

/** The VIN characters each position of a pattern's keys allows. */
function allowedChars(keys: string): string[][] {
  const out: string[][] = []
  for (let i = 0; i < keys.length; i++) {
    let set = keys.charAt(i)
    if (set === '[') {
      const end = keys.indexOf(']', i)
      set = keys
        .slice(i + 1, end)
        .replace(/(.)-(.)/g, (_range, a: string, b: string) =>
          String.fromCharCode(
            ...Array.from({ length: b.charCodeAt(0) - a.charCodeAt(0) + 1 }, (_none, n) => a.charCodeAt(0) + n),
          ),
        )
      i = end
    }
    out.push(
      [...(set === '*' ? VIN_ALPHABET : set === '#' ? '0123456789' : set)].filter((c) => VIN_ALPHABET.includes(c)),
    )
  }
  return out
}

function synthesise(): string[] {
  const data = loadVinData()
  const vins: string[] = []
  for (const code of WMI.keys()) {
    const wmi = data.wmi(code)
    if (wmi === undefined) continue
    const recent = wmi.schemas.filter((s) => s.yearFrom >= 2010 && s.yearFrom <= 2026)
    for (let n = 0; n < 20 && recent.length > 0; n++) {
      const link = pick(recent)
      const year = link.yearFrom + Math.floor(random() * (Math.min(link.yearTo, 2026) - link.yearFrom + 1))
      const groups = data
        .schema(link.schema)
        .groups.map(([keys]) => allowedChars(keys))
        .filter((sets) => sets.length <= 5)
      if (groups.length === 0) continue
      const chars = pick(groups).map((set) => pick(set) ?? '0')
      while (chars.length < 5) chars.push(pick([...VIN_ALPHABET]))
      const serial = Array.from({ length: 6 }, () => pick([...'0123456789'])).join('')
      // Position 7 must be a letter for 2010-2039 under the North American rule.
      if (/^[1-5]/.test(code) && /\d/.test(chars[3] ?? '')) chars[3] = 'A'
      const draft = `${code}${chars.join('')}0${YEAR_CODES.charAt((year - 1980) % 30)}${pick([...VIN_ALPHABET])}${serial}`
      vins.push(draft.slice(0, 8) + vinCheckDigit(draft) + draft.slice(9))
    }
  }
  return vins
}

function time(label: string, count: number, run: () => void) {
  const start = process.hrtime.bigint()
  run()
  const ns = Number(process.hrtime.bigint() - start)
  console.log(
    `${label.padEnd(44)} ${(ns / count / 1000).toFixed(2).padStart(9)} µs/VIN  (${count} VINs, ${(ns / 1e6).toFixed(1)} ms)`,
  )
}

/** Times each VIN on its own, for the spread: a WMI with many schemas costs more than the mean. */
function spread(label: string, decode: (vin: string) => unknown, list: readonly string[]) {
  const times = list
    .map((v) => {
      const start = process.hrtime.bigint()
      decode(v)
      return Number(process.hrtime.bigint() - start) / 1000
    })
    .toSorted((a, b) => a - b)
  const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1)
  console.log(`${label.padEnd(44)} p50 ${at(0.5)} µs, p99 ${at(0.99)} µs, max ${at(1)} µs`)
}

const vins = synthesise()
console.log(`${vins.length} VINs from ${new Set(vins.map((v) => v.slice(0, 3))).size} WMIs`)

// The first decoder made loads the shared data; synthesise() used a separate copy.
const cold = createVinDecoder()
time('load (read, gunzip, header)', 1, () => cold.load())
spread('first VIN of a WMI/year (parses schemas)', (v) => cold.decode(v), vins)
console.log(`  schemas parsed: ${cold.stats().parsedSchemas}`)

const uncached = createVinDecoder({ cacheSize: 0 })
uncached.load()
for (const v of vins) uncached.decode(v)
time('uncached (schemas parsed, no result cache)', vins.length * 5, () => {
  for (let i = 0; i < 5; i++) for (const v of vins) uncached.decode(v)
})
spread('uncached, each VIN', (v) => uncached.decode(v), vins)

const cached = createVinDecoder()
for (const v of vins) cached.decode(v)
const sample = Array.from({ length: rounds }, () => pick(vins))
time('cached', rounds, () => {
  for (const v of sample) cached.decode(v)
})
console.log(`  cache: ${JSON.stringify(cached.stats())}`)

const gc = (globalThis as { gc?: () => void }).gc
if (gc !== undefined) {
  gc()
  const before = process.memoryUsage()
  const all = loadVinData()
  for (let i = 0; ; i++) {
    try {
      all.schema(i)
    } catch {
      break
    }
  }
  gc()
  const after = process.memoryUsage()
  console.log(
    `every schema parsed: ${all.parsedSchemas} schemas, +${((after.heapUsed - before.heapUsed) / 2 ** 20).toFixed(0)} MiB heap, +${((after.arrayBuffers - before.arrayBuffers) / 2 ** 20).toFixed(0)} MiB buffers`,
  )
}
