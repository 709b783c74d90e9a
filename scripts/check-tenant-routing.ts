// Checks that every statement the service sent to PostgreSQL routes to one shard on a cluster
// distributed by tenant_id (issue 19 point 3; the rule is in scripts/tenant-routing.ts).
//
//   DATABASE_STATEMENT_LOG=<dir> … run the suite on PostgreSQL …
//   node scripts/check-tenant-routing.ts <dir>          (npm run check:routing -- <dir>)
// e.g. bash scripts/with-postgres.sh bash -c \
//        'DATABASE_STATEMENT_LOG=/tmp/sql npm test && npm run check:routing -- /tmp/sql'
//
// <dir> holds one <pid>.jsonl per process, one `{"sql": "…"}` line per distinct statement text
// (src/platform/db/database.ts writes them when DATABASE_STATEMENT_LOG is set). The tenant tables
// are read from the migrated database of DATABASE_URL: the tables of the public schema with a
// tenant_id column. Allowed cross-tenant statements are listed, each with its reason, in
// scripts/tenant-routing.exceptions.json (or the file given with --exceptions <file>).
// Exit status: 0 when every statement on a tenant table routes or is allowed, 1 otherwise, 2 on
// a usage or input error.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { analyzeSql, formatSummary, loadParser, parseExceptions, summarize } from './tenant-routing.ts'

export const EXCEPTIONS_FILE = fileURLToPath(new URL('./tenant-routing.exceptions.json', import.meta.url))

class InputError extends Error {}

/** The distinct statement texts of every *.jsonl file in `dir`; a torn last line (a killed process) is skipped. */
export function readStatementLog(dir: string): { texts: string[]; files: number; skipped: number } {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError(`${dir}: not a directory`)
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))
  const texts = new Set<string>()
  let skipped = 0
  for (const file of files) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue
      try {
        const entry = JSON.parse(line) as { sql?: unknown }
        if (typeof entry.sql !== 'string') throw new Error('no "sql" string')
        texts.add(entry.sql)
      } catch {
        skipped++
      }
    }
  }
  return { texts: [...texts], files: files.length, skipped }
}

async function tenantTables(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ table_name: string }>(
      `select distinct table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'tenant_id' order by table_name`,
    )
    return new Set(rows.map((r) => r.table_name))
  } finally {
    await client.end()
  }
}

async function main(argv: string[]): Promise<number> {
  let exceptionsFile = EXCEPTIONS_FILE
  const dirs: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--exceptions') exceptionsFile = argv[++i] ?? ''
    else if (arg !== undefined) dirs.push(arg)
  }
  const [dir] = dirs
  if (dirs.length !== 1 || !dir || !exceptionsFile) {
    throw new InputError('usage: node scripts/check-tenant-routing.ts [--exceptions <file>] <statement-log-dir>')
  }
  const url = process.env.DATABASE_URL
  if (!url) throw new InputError('DATABASE_URL is not set: the tenant tables are read from the migrated database')

  const log = readStatementLog(dir)
  if (log.texts.length === 0) {
    throw new InputError(`${dir}: no statements logged (${log.files} .jsonl files); was DATABASE_STATEMENT_LOG set?`)
  }
  const tables = await tenantTables(url)
  if (tables.size === 0) {
    throw new InputError('no table of the public schema has tenant_id: migrate the database first (npm run db:migrate)')
  }
  let exceptions
  try {
    exceptions = parseExceptions(JSON.parse(fs.readFileSync(exceptionsFile, 'utf8')))
  } catch (error) {
    throw new InputError(`${exceptionsFile}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }

  await loadParser()
  const reports = log.texts.map((sql) => analyzeSql(sql, tables))
  const summary = summarize(reports, exceptions)
  console.log(`${log.files} statement logs, ${tables.size} tenant tables`)
  if (log.skipped > 0) console.log(`warning: ${log.skipped} unreadable lines skipped`)
  console.log(formatSummary(summary))
  return summary.violations.length + summary.unparseable.length > 0 ? 1 : 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2))
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    console.error(`check-tenant-routing: ${error.message}`)
    process.exitCode = 2
  }
}
