// Starts scripts/bench/server.ts as a child process and stops it. Every child started here is
// tracked, so whatever way the benchmark ends (done, failure, Ctrl-C, SIGTERM) it is stopped with
// SIGTERM and its temporary directory removed.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'

export type DatabaseKind = 'pglite' | 'postgres'

export type Ready = {
  port: number
  database: DatabaseKind
  tenantId: number
  apiKey: string
  adminEmail: string
  adminPassword: string
  /** The rate-quote set-up: dealers with visible products (their codes), VINs to quote, and the timed import. */
  quote: {
    dealerNumbers: string[]
    dealerProducts: string[][]
    vins: string[]
    importSeconds: number
    rates: number
    ceilingBytes: number
  }
}

export type BenchServer = Ready & {
  users: { ids: number[]; emails: string[] }
  baseUrl: string
  stop(): Promise<void>
}

const SERVER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.ts')
const READY_TIMEOUT_MS = 300_000
const STOP_TIMEOUT_MS = 20_000

type Live = { child: ChildProcess; workDir: string; stopping: boolean }
const live = new Set<Live>()

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

async function stopLive(entry: Live): Promise<void> {
  entry.stopping = true
  if (!exited(entry.child)) {
    entry.child.kill('SIGTERM')
    if (!(await waitForExit(entry.child, STOP_TIMEOUT_MS))) {
      process.stderr.write(
        `bench: server ${entry.child.pid} did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; killing it\n`,
      )
      entry.child.kill('SIGKILL')
      await waitForExit(entry.child, 5_000)
    }
  }
  fs.rmSync(entry.workDir, { recursive: true, force: true })
  live.delete(entry)
}

/** Stops every server still running (SIGTERM, then SIGKILL after a grace period). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...live].map(stopLive))
}

// Last resort when the process exits without having awaited the stops: signal and clean up synchronously.
process.on('exit', () => {
  for (const entry of live) {
    if (!exited(entry.child)) entry.child.kill('SIGTERM')
    fs.rmSync(entry.workDir, { recursive: true, force: true })
  }
})

export async function startServer(options: {
  database: DatabaseKind
  users: number
  rates: number
  dealers: number
  cpuProfile?: string
  log: (line: string) => void
}): Promise<BenchServer> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `vpp-bench-${options.database}-`))
  const manifest = path.join(workDir, 'users.json')
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_EXIT_WITH_PARENT: '1' }
  if (options.database === 'pglite') {
    // A fresh embedded database in the work directory; never ./data, never a DATABASE_URL (nor the
    // URLs that only go with one: scripts/with-pgbouncer.sh sets DATABASE_LISTEN_URL).
    delete env.DATABASE_URL
    delete env.DATABASE_LISTEN_URL
    delete env.DATABASE_READ_URL
    env.DATA_DIR = path.join(workDir, 'data')
  } else if (!env.DATABASE_URL) {
    throw new Error('DATABASE_URL is required to benchmark PostgreSQL')
  }
  // The child deletes the work directory too, so it goes even if this process is killed outright.
  // --expose-gc: the earnings run's memory figure collects garbage before reading the live heap
  // (GET /bench/memory?gc=1); nothing else calls it, so it changes nothing for the other groups.
  const args = [
    '--expose-gc',
    SERVER_SCRIPT,
    '--users',
    String(options.users),
    '--rates',
    String(options.rates),
    '--dealers',
    String(options.dealers),
    '--manifest',
    manifest,
    '--remove-on-exit',
    workDir,
  ]
  if (options.cpuProfile) args.push('--cpu-prof', options.cpuProfile)
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'inherit'] })
  const entry: Live = { child, workDir, stopping: false }
  live.add(entry)

  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the ${options.database} server was not ready within ${READY_TIMEOUT_MS / 1000} s`)),
        READY_TIMEOUT_MS,
      )
      const onExit = (code: number | null, signal: string | null) => {
        clearTimeout(timer)
        reject(
          new Error(`the ${options.database} server exited before it was ready (${signal ?? `exit code ${code}`})`),
        )
      }
      child.once('exit', onExit)
      child.once('error', (err) => {
        clearTimeout(timer)
        reject(err)
      })
      readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        let message: ({ event?: string } & Ready) | undefined
        try {
          message = JSON.parse(line) as { event?: string } & Ready
        } catch {
          message = undefined
        }
        if (message?.event === 'ready') {
          clearTimeout(timer)
          child.off('exit', onExit)
          child.once('exit', (code, signal) => {
            if (!entry.stopping) options.log(`server exited unexpectedly (${signal ?? `exit code ${code}`})`)
          })
          resolve(message)
        } else {
          options.log(`server: ${line}`)
        }
      })
    })
    const users = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { ids: number[]; emails: string[] }
    return { ...ready, users, baseUrl: `http://127.0.0.1:${ready.port}`, stop: () => stopLive(entry) }
  } catch (err) {
    await stopLive(entry)
    throw err
  }
}
