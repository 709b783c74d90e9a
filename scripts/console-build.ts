// Builds the staff console (console/ → console/dist, docs/console.md) with Vite, then writes a
// gzipped copy of every text file (served to clients that accept gzip) and the hash of the sources
// the build was made from (console/dist/.source-hash).
//
//   npm run console:build               build
//   node scripts/console-build.ts --if-stale   build only when the build is missing or stale
//                                       (what `npm install` and `npm start` run)
//
// Without Vite (an install that omitted the dev dependencies) it says so and exits 0: the service
// runs, and /console answers 503 until the console is built.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import {
  CONSOLE_DIST,
  CONSOLE_ROOT,
  consoleBuildState,
  consoleSourceHash,
  SOURCE_HASH_FILE,
} from '../src/platform/http/console.ts'

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt'])

/** The gzipped size of each JavaScript file of the build, largest first. */
export function gzippedScripts(dist = CONSOLE_DIST): Array<{ file: string; bytes: number; gzipped: number }> {
  const dir = path.join(dist, 'assets')
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const body = fs.readFileSync(path.join(dir, f))
      return { file: `assets/${f}`, bytes: body.length, gzipped: zlib.gzipSync(body, { level: 9 }).length }
    })
    .toSorted((a, b) => b.gzipped - a.gzipped)
}

export async function buildConsole({ quiet = false } = {}): Promise<boolean> {
  let vite: typeof import('vite')
  try {
    vite = await import('vite')
  } catch {
    process.stderr.write('console: Vite is not installed (dev dependencies omitted); /console stays unbuilt\n')
    return false
  }
  const hash = consoleSourceHash()
  // Built beside console/dist and then swapped in, so that two builds at once (two servers started
  // on a stale build) never mix their files, and a running service never serves half a build.
  const staging = `${CONSOLE_DIST}.${process.pid}-${Date.now()}`
  try {
    await vite.build({
      configFile: path.join(CONSOLE_ROOT, 'vite.config.ts'),
      logLevel: quiet ? 'warn' : 'info',
      build: { outDir: staging, emptyOutDir: true },
    })
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    for (const file of walk(staging)) {
      if (!COMPRESSIBLE.has(path.extname(file))) continue
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(fs.readFileSync(file), { level: 9 }))
    }
    fs.writeFileSync(path.join(staging, SOURCE_HASH_FILE), `${hash}\n`)
    const old = `${staging}.old`
    if (fs.existsSync(CONSOLE_DIST)) fs.renameSync(CONSOLE_DIST, old)
    fs.renameSync(staging, CONSOLE_DIST)
    fs.rmSync(old, { recursive: true, force: true })
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
  }
  return true
}

async function main() {
  const ifStale = process.argv.includes('--if-stale')
  if (ifStale) {
    const state = consoleBuildState()
    if (state === 'current') return
    process.stderr.write(`console: the build is ${state}; building it (a few seconds)\n`)
  }
  if (await buildConsole({ quiet: ifStale })) {
    const scripts = gzippedScripts()
    const total = scripts.reduce((sum, s) => sum + s.gzipped, 0)
    process.stderr.write(
      `console: built ${CONSOLE_DIST} (${scripts.length} scripts, ${(total / 1024).toFixed(1)} KiB gzipped in all)\n`,
    )
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`console build failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exit(1)
  })
}
