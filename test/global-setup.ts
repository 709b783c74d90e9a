// Run once by the test runner (--test-global-setup), in its own process, before any test file starts:
// migrates the test database once, so that each test file's process (one per file, two at a time)
// starts from a migrated database instead of creating and migrating its own.
// - Embedded database: the migrated files are archived to a temporary file that harness.ts opens a
//   private in-memory copy of (about 0.5 s instead of 3 s to create and migrate).
// - PostgreSQL (DATABASE_URL): the one database is migrated here; the test files share it, each test
//   in a tenant of its own.
// It also bounds the whole run. A test that stops making progress fails by itself after the runner's
// --test-timeout; but a file whose process something left open, or a run where every test hangs (a
// database that stopped answering), would take forever or tests × timeout. (--test-force-exit is
// not the answer: it exits before a file's results reach the runner, and loses them.) Past VPP_TEST_DEADLINE_MINUTES (default 40; the suite takes about
// 4 minutes on 2 cores, and much longer only on a machine busy with other work) the run is stopped: every test file's process is killed, the runner exits 1.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openPglite, openPostgres } from '../src/platform/db/database.ts'
import { migrateToLatest } from '../src/platform/db/migrate.ts'

/** Where harness.ts finds the migrated embedded database (set here, inherited by every test file's process). */
export const TEMPLATE_ENV = 'VPP_TEST_DATABASE_TEMPLATE'

let templateDir: string | undefined

/** The pids of every process below `pid`, from /proc (Linux; elsewhere none are found). */
function descendants(pid: number): number[] {
  let entries: string[]
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return []
  }
  const children = new Map<number, number[]>()
  for (const name of entries) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)])
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = []
  const walk = (p: number) => {
    for (const child of children.get(p) ?? []) {
      found.push(child)
      walk(child)
    }
  }
  walk(pid)
  return found
}

function startDeadline(): void {
  const minutes = Number(process.env.VPP_TEST_DEADLINE_MINUTES ?? 40)
  const timer = setTimeout(() => {
    process.stderr.write(
      `\ntest run stopped: not finished after ${minutes} minutes (VPP_TEST_DEADLINE_MINUTES); killing the test processes\n`,
    )
    for (const pid of descendants(process.pid)) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    process.exit(1)
  }, minutes * 60_000)
  timer.unref() // never what keeps the runner alive
}

/** Where each test file's process appends how many responses it checked against the OpenAPI document. */
let conformanceReport: string | undefined

function startConformanceReport(): void {
  if (process.env.OPENAPI_CONFORMANCE_REPORT) return // the caller collects it
  conformanceReport = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-conformance-')), 'report.ndjson')
  process.env.OPENAPI_CONFORMANCE_REPORT = conformanceReport
}

/** One line for the whole run: the responses test/openapi-conformance.ts validated, over every file. */
function printConformanceTotal(): void {
  if (!conformanceReport) return
  let validated = 0
  let files = 0
  try {
    for (const line of fs.readFileSync(conformanceReport, 'utf8').split('\n')) {
      if (line === '') continue
      validated += (JSON.parse(line) as { validated: number }).validated
      files++
    }
  } catch {
    return // no file checked a response (OPENAPI_CONFORMANCE=0)
  } finally {
    fs.rmSync(path.dirname(conformanceReport), { recursive: true, force: true })
  }
  process.stderr.write(
    `openapi conformance: ${validated} responses of this run validated against the served document, in ${files} test files\n`,
  )
}

/**
 * Every test file's process (and every process a test starts: the CLI, the server) compiles the
 * same few hundred modules, TypeScript stripped then compiled by V8: 1.5 to 2 s of CPU each. With
 * Node's module compile cache on disk they are compiled once per change of a module, which saves
 * about a third to a half of that. Set here, before the runner starts the files, which inherit it:
 * the directory `npm start` uses (src/main.ts), unless NODE_COMPILE_CACHE names another.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
function useCompileCache(): void {
  process.env.NODE_COMPILE_CACHE ||= path.join(os.tmpdir(), 'node-compile-cache')
}

export async function globalSetup(): Promise<void> {
  startDeadline()
  useCompileCache()
  startConformanceReport()
  // Migrations over a session connection: behind PgBouncer that is DATABASE_LISTEN_URL (platform/db/open.ts).
  const url = process.env.DATABASE_LISTEN_URL || process.env.DATABASE_URL
  if (url) {
    const db = await openPostgres(url, 2, {
      preparedStatements: !/^(0|false|no)$/i.test(process.env.DATABASE_PREPARED_STATEMENTS ?? ''),
    })
    try {
      await migrateToLatest(db)
    } finally {
      await db.close()
    }
    return
  }
  const db = await openPglite('memory://')
  try {
    await migrateToLatest(db)
    templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-test-template-'))
    const file = path.join(templateDir, 'migrated.tar')
    fs.writeFileSync(file, Buffer.from(await (await db.snapshot!()).arrayBuffer()))
    process.env[TEMPLATE_ENV] = file
  } finally {
    await db.close()
  }
}

export async function globalTeardown(): Promise<void> {
  printConformanceTotal()
  if (templateDir) fs.rmSync(templateDir, { recursive: true, force: true })
}
