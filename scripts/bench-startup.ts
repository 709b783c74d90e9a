// npm run bench:startup: what it costs to build the service and to start it (docs/benchmarks.md).
//
//   npm run bench:startup -- [--apps 3] [--restarts 3] [--json results.json]
//
// - App build: buildApp() then ready() on an already-migrated in-memory embedded database, the first
//   time in the process (every schema compiled) and again (what each further app costs: the test
//   suite builds one per test file, tools build one per run).
// - Start: `node src/main.ts` as `npm start` runs it, from spawn to the first 200 of /health/ready:
//   on an empty data directory (creates the embedded database, migrates, seeds the demo tenant) and
//   then restarts on that directory (the median of --restarts).
// Wall-clock figures of this machine, for comparing two builds on the same machine; never asserted.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildApp } from '../src/app.ts'
import { createModules } from '../src/modules.ts'
import { createInvalidationBus } from '../src/platform/cache.ts'
import { createManualClock } from '../src/platform/clock.ts'
import { openPglite } from '../src/platform/db/database.ts'
import { migrateToLatest } from '../src/platform/db/migrate.ts'
import { createSecretBox, generateSecretsKey, parseSecretsKeys } from '../src/platform/secrets.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    apps: { type: 'string', default: '3' },
    restarts: { type: 'string', default: '3' },
    json: { type: 'string' },
  },
})
const appCount = Math.max(2, Number(values.apps))
const restartCount = Math.max(1, Number(values.restarts))

const CONFIG = {
  rateLimitPerMinute: 1_000_000,
  authFailureLimitPerMinute: 1_000_000,
  accessTokenTtlSeconds: 3600,
  bodyLimitBytes: 1_048_576,
  logLevel: 'silent',
  // Uploads go to the throwaway database; the directory is only where file-system versions would be read.
  documents: {
    storage: 'database' as const,
    dir: path.join(os.tmpdir(), 'vpp-bench-documents'),
    maxBytes: 25 * 1024 * 1024,
    linkTtlSeconds: 300,
  },
}

async function appBuildTimes(): Promise<number[]> {
  const db = await openPglite('memory://')
  try {
    await migrateToLatest(db)
    const times: number[] = []
    for (let i = 0; i < appCount; i++) {
      const started = performance.now()
      // A throwaway in-memory database: a throwaway secrets key.
      const secrets = createSecretBox(parseSecretsKeys(generateSecretsKey(), 'generated key'))
      const clock = createManualClock(new Date())
      const bus = await createInvalidationBus(undefined)
      const modules = createModules({ config: CONFIG, db, clock, bus, secrets })
      const app = await buildApp({ config: CONFIG, db, clock, bus, modules, logger: false })
      await app.ready()
      times.push(performance.now() - started)
      await app.close()
    }
    return times
  } finally {
    await db.close()
  }
}

/** Spawns the server on `dataDir` and returns the milliseconds until /health/ready answered 200; stops it. */
async function timeToReady(dataDir: string): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, [path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      DATABASE_LISTEN_URL: '',
      DATABASE_READ_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString()
  })
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
        if (m) resolve(m[1]!)
      })
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${out}`)))
    })
    for (;;) {
      const res = await fetch(`${baseUrl}/health/ready`)
      if (res.status === 200) return performance.now() - started
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  } finally {
    const gone = new Promise((resolve) => child.once('exit', resolve))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await gone
  }
}

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ms = (x: number) => `${Math.round(x)} ms`

const builds = await appBuildTimes()
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-bench-startup-'))
let firstStart: number
const restarts: number[] = []
try {
  const dataDir = path.join(workDir, 'data')
  firstStart = await timeToReady(dataDir)
  for (let i = 0; i < restartCount; i++) restarts.push(await timeToReady(dataDir))
} finally {
  fs.rmSync(workDir, { recursive: true, force: true })
}

const result = {
  appBuildFirstMs: Math.round(builds[0]!),
  appBuildAgainMs: Math.round(median(builds.slice(1))),
  firstStartMs: Math.round(firstStart),
  restartMs: Math.round(median(restarts)),
  restartsMs: restarts.map(Math.round),
}
process.stdout.write(
  [
    `app build, first in the process     ${ms(result.appBuildFirstMs)}`,
    `app build, again (median of ${appCount - 1})     ${ms(result.appBuildAgainMs)}`,
    `npm start to ready, empty data dir  ${ms(result.firstStartMs)}  (creates the database, migrates, seeds the demo tenant)`,
    `npm start to ready, restart         ${ms(result.restartMs)}  (median of ${restartCount}: ${result.restartsMs.map(ms).join(', ')})`,
    '',
  ].join('\n'),
)
if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`)
