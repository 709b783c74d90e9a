// The operator CLI (docs/cli.md) on the configured database: the embedded one in a fresh DATA_DIR,
// or PostgreSQL when DATABASE_URL is set, as in CI's second pass. One data directory serves the
// whole file and the steps build on each other.
// A few runs are real processes (`npm run admin -- …` and node src/cli/admin.ts), which prove the
// binary: its exit status, and a stdout that carries nothing but the reply. The rest call runCli in
// this process, as admin.ts does, on one database this file opens once: a process pays seconds to
// load the service and open the embedded database, which was most of what these tests cost (about
// three minutes). `own: true` makes a run open the configured database itself, as the binary does.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { runCli } from '../src/cli/run.ts'
import { readSecretLine } from '../src/cli/stdio.ts'
import { createInvalidationBus } from '../src/platform/cache.ts'
import type { Database } from '../src/platform/db/database.ts'
import { migrations } from '../src/platform/db/migrations/index.ts'
import { openConfiguredDatabase } from '../src/platform/db/open.ts'
import { generateSecretsKey, loadSecretBox, secretsKeyId } from '../src/platform/secrets.ts'
import { createTestApp, killAtEnd, loginHeaders } from './harness.ts'

const ADMIN = fileURLToPath(new URL('../src/cli/admin.ts', import.meta.url))
const databaseUrl = process.env.DATABASE_URL || undefined
const embedded = databaseUrl === undefined

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-cli-'))
after(async () => {
  await closeShared()
  fs.rmSync(root, { recursive: true, force: true })
})
/** The data directory of this file's CLI runs; it does not exist before the first one. */
const dataDir = path.join(root, 'data')

type Run = { status: number | null; stdout: string; stderr: string }
type RunOptions = { dir?: string; input?: string; env?: Record<string, string> }

/** Runs the CLI as a process: directly, or (`viaNpm`) exactly as operators and later checks do: `npm run admin -- …`. */
function spawnAdmin(args: string[], options: RunOptions & { viaNpm?: boolean } = {}): Promise<Run> {
  const [command, commandArgs] = options.viaNpm
    ? ['npm', ['run', 'admin', '--', ...args]]
    : [process.execPath, [ADMIN, ...args]]
  const child = spawn(command, commandArgs, {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, DATA_DIR: options.dir ?? dataDir, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  killAtEnd(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  child.stdin.end(options.input ?? '')
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

/** The database in-process runs share (opened at the first, after the first process created it). */
let shared: Promise<Database> | undefined

function sharedDatabase(): Promise<Database> {
  shared ??= openConfiguredDatabase({ dataDir, databaseUrl, databasePoolSize: 2 }, 'cli-test')
  return shared
}

/** Closes the shared database: an embedded one must be closed before anything else opens its directory. */
async function closeShared(): Promise<void> {
  const db = shared
  shared = undefined
  if (db) await (await db).close()
}

/** A stdin that is a pipe holding `input` (not a terminal). */
function stdin(input: string): NodeJS.ReadStream {
  return Readable.from([input]) as unknown as NodeJS.ReadStream
}

/** One in-process run at a time: each sets process.env (DATA_DIR, `env`) for its duration, as a process's own would be. */
let queue: Promise<unknown> = Promise.resolve()

/**
 * Runs the CLI in this process, as admin.ts does: runCli with stdout (the reply) and stderr
 * captured, `input` as stdin, the environment of a process started with DATA_DIR and `env`.
 * On the shared database, or (`own`) on the configured one, opened and closed by the run itself.
 */
function admin(args: string[], options: RunOptions & { own?: boolean } = {}): Promise<Run> {
  const run = queue.then(async () => {
    const dir = options.dir ?? dataDir
    // Opening a data directory this process already holds open would go unrefused (the lock is by pid).
    if (options.own && dir === dataDir) await closeShared()
    const env: Record<string, string> = { DATA_DIR: dir, ...options.env }
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
    Object.assign(process.env, env)
    let stdout = ''
    let stderr = ''
    let status: number
    try {
      status = await runCli(
        args,
        {
          reply: async (text) => {
            stdout += text
          },
          diagnostic: (text) => {
            stderr += text
          },
          readSecretLine: (prompt) => readSecretLine(stdin(options.input ?? ''), prompt),
        },
        options.own ? {} : { database: await sharedDatabase() },
      )
    } catch (err) {
      // What admin.ts does with a failure runCli lets through.
      stderr += `error: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`
      status = 1
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
    return { status, stdout, stderr }
  })
  queue = run.catch(() => {})
  return run
}

/** Runs a command expected to succeed with --json and returns its parsed stdout. */
async function adminJson<T>(args: string[], input?: string): Promise<T> {
  const run = await admin([...args, '--json'], { input })
  assert.equal(run.status, 0, `${args.join(' ')} failed: ${run.stderr}`)
  return JSON.parse(run.stdout) as T
}

/** An expected failure: exit 1, nothing on stdout, one line on stderr, no stack trace. */
function assertOneLineFailure(run: Run, message: RegExp) {
  assert.equal(run.status, 1, run.stderr)
  assert.equal(run.stdout, '')
  assert.match(run.stderr, /^error: [^\n]+\n$/)
  assert.match(run.stderr, message)
}

test('command-line mistakes exit 2 with usage on stderr; help exits 0; neither touches a database', async () => {
  const mistakes = [
    [],
    ['frobnicate'],
    ['--json'],
    ['tenant'],
    ['tenant', 'frobnicate'],
    ['tenant', 'create', '--bogus'],
    ['tenant', 'create', '--name', 'Acme', '--admin-email', 'a@acme.example'],
    [
      'tenant',
      'create',
      '--name',
      'Acme',
      '--admin-email',
      'a@acme.example',
      '--admin-password',
      'correct horse battery',
      '--admin-password-stdin',
    ],
    ['apikey', 'list'],
    ['apikey', 'list', '--tenant'],
    ['apikey', 'list', '--tenant', '1', 'extra'],
    ['apikey', 'revoke', '--tenant', '1', '--id', '2', '--json=yes'],
  ]
  // `own`: were a run to get as far as opening the database, it would create the data directory.
  const [runs, topHelp, createHelp, badId] = await Promise.all([
    Promise.all(mistakes.map((args) => admin(args, { own: true }))),
    admin(['--help'], { own: true }),
    admin(['tenant', 'create', '--help'], { own: true }),
    admin(['apikey', 'list', '--tenant', 'abc'], { own: true }),
  ])
  // The binary answers exactly so, with each exit status: 2, 0 and 1.
  const binary = await Promise.all([[], ['--help'], ['apikey', 'list', '--tenant', 'abc']].map((a) => spawnAdmin(a)))
  assert.deepEqual(binary, [runs[0], topHelp, badId])
  runs.forEach((run, i) => {
    const args = mistakes[i]!.join(' ')
    assert.equal(run.status, 2, `${args}: ${run.stderr}`)
    assert.equal(run.stdout, '', args)
    assert.match(run.stderr, /^error: .+/, args)
    assert.match(run.stderr, /usage: npm run admin --/, args)
    assert.doesNotMatch(run.stderr, /\n\s+at /, args)
  })

  assert.equal(topHelp.status, 0)
  for (const command of [
    'tenant create',
    'tenant list',
    'apikey create',
    'apikey list',
    'apikey rotate',
    'apikey revoke',
    'signingkey rotate',
    'token issue',
    'idp set',
    'idp list',
    'idp remove',
    'settings list',
    'settings set',
    'settings reset',
    'secrets reseal',
    'db migrate',
    'db distribute',
  ]) {
    assert.match(topHelp.stdout, new RegExp(`^  ${command} `, 'm'))
  }
  assert.equal(createHelp.status, 0)
  assert.match(createHelp.stdout, /--admin-password-stdin/)

  // A well-formed command line with an unacceptable value is a failure (1), found before opening anything.
  assertOneLineFailure(badId, /--tenant must be a positive integer/)
  assert.equal(fs.existsSync(dataDir), false)
})

type Created = { tenantId: number; apiKey: string; adminUserId: number }
let acme: Created
const ACME_ADMIN = { email: 'admin@acme.example', password: 'correct horse battery' }

test('`npm run admin -- tenant create … --json` prints exactly one JSON object, on a data directory that did not exist', async () => {
  const run = await spawnAdmin(
    [
      'tenant',
      'create',
      '--name',
      'Acme',
      '--admin-email',
      ACME_ADMIN.email,
      '--admin-password',
      ACME_ADMIN.password,
      '--json',
    ],
    { viaNpm: true },
  )
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /^\{[^\n]*\}\n$/)
  acme = JSON.parse(run.stdout) as Created
  assert.deepEqual(Object.keys(acme).toSorted(), ['adminUserId', 'apiKey', 'tenantId'])
  assert.ok(Number.isInteger(acme.tenantId) && acme.tenantId > 0)
  assert.ok(Number.isInteger(acme.adminUserId) && acme.adminUserId > 0)
  assert.match(acme.apiKey, new RegExp(`^vpk_${acme.tenantId}_`))
  // The password was given, never echoed.
  assert.doesNotMatch(run.stderr, /correct horse/)
  if (embedded) {
    assert.ok(fs.existsSync(path.join(dataDir, 'PG_VERSION')), 'the embedded database was created')
    assert.equal(fs.existsSync(path.join(dataDir, 'owner.lock')), false, 'the data directory was released')
  } else {
    assert.equal(fs.existsSync(dataDir), false, 'with DATABASE_URL the data directory is not used')
  }
})

test('tenant list shows the tenant', async () => {
  const tenants = await adminJson<Array<{ id: number; name: string; createdAt: string }>>(['tenant', 'list'])
  assert.equal(tenants.find((t) => t.id === acme.tenantId)?.name, 'Acme')
})

let revokedKey: string
let replacedKey: string

test('apikey create, rotate, revoke and list (never showing a secret); a second revoke fails with one line', async () => {
  const tenant = String(acme.tenantId)
  const created = await adminJson<{ id: number; name: string; apiKey: string }>([
    'apikey',
    'create',
    '--tenant',
    tenant,
    '--name',
    'billing',
  ])
  assert.equal(created.name, 'billing')
  assert.match(created.apiKey, /^vpk_/)
  const rotated = await adminJson<{ id: number; name: string; apiKey: string; replaced: number }>([
    'apikey',
    'rotate',
    '--tenant',
    tenant,
    '--id',
    String(created.id),
  ])
  assert.equal(rotated.replaced, created.id)
  assert.equal(rotated.name, 'billing')
  assert.notEqual(rotated.apiKey, created.apiKey)
  const revoked = await adminJson<{ id: number; revokedAt: string }>([
    'apikey',
    'revoke',
    '--tenant',
    tenant,
    '--id',
    String(rotated.id),
  ])
  assert.equal(revoked.id, rotated.id)
  replacedKey = created.apiKey
  revokedKey = rotated.apiKey

  const list = await admin(['apikey', 'list', '--tenant', tenant])
  assert.equal(list.status, 0, list.stderr)
  const [header, ...rows] = list.stdout.trimEnd().split('\n')
  assert.match(header ?? '', /^ID\s+NAME\s+PREFIX\s+CREATED\s+REVOKED$/)
  // id, name, prefix, created, revoked ('-' while the key works)
  assert.deepEqual(
    rows
      .map((r) => r.split(/\s+/))
      .map(([, name, prefix, , revokedAt]) => [name, prefix?.slice(0, 4), revokedAt === '-']),
    [
      ['default', 'vpk_', true],
      ['billing', 'vpk_', false],
      ['billing', 'vpk_', false],
    ],
  )
  for (const secret of [acme.apiKey, created.apiKey, rotated.apiKey]) assert.ok(!list.stdout.includes(secret))

  assertOneLineFailure(
    await admin(['apikey', 'revoke', '--tenant', tenant, '--id', String(rotated.id)]),
    /already revoked/,
  )
})

test('settings set checks the value against the setting type; settings list shows it', async () => {
  const tenant = String(acme.tenantId)
  const saved = await adminJson<{ key: string; value: unknown; isDefault: boolean }>([
    'settings',
    'set',
    '--tenant',
    tenant,
    '--key',
    'freeLookDays',
    '--value',
    '45',
  ])
  assert.deepEqual([saved.key, saved.value, saved.isDefault], ['freeLookDays', 45, false])
  const all = await adminJson<Array<{ key: string; value: unknown; updatedBy: string | null }>>([
    'settings',
    'list',
    '--tenant',
    tenant,
  ])
  const freeLook = all.find((s) => s.key === 'freeLookDays')
  assert.equal(freeLook?.value, 45)
  assert.match(freeLook?.updatedBy ?? '', /^cli/)
  assertOneLineFailure(
    await admin(['settings', 'set', '--tenant', tenant, '--key', 'freeLookDays', '--value', 'soon']),
    /freeLookDays/,
  )
})

test('ratebook import (file and --rates CSV, dry run, refused with every problem), list and export; an unknown tenant is one line', async () => {
  const tenant = String(acme.tenantId)
  const { demoRateBook } = await import('../src/modules/rating/index.ts')
  const book = demoRateBook('2025-01-01') as unknown as Record<string, unknown>
  // The fixed payees are demo insurers this tenant does not have.
  book.disbursementCodes = (book.disbursementCodes as Array<Record<string, unknown>>).map((c) => ({
    ...c,
    payee: { role: 'ADMINISTRATOR' },
  }))
  const rates = book.rates as Array<Record<string, unknown>>
  delete book.rates
  const codes = ['RES', 'PRM', 'ADM', 'COM', 'GRS', 'TWR', 'PMR']
  const csv = [
    [
      'plan',
      'term',
      'deductible',
      'vehicleClass',
      'odometerFrom',
      'odometerTo',
      'state',
      'suggestedRetail',
      'minRetail',
      'maxRetail',
      'retailLocked',
      ...codes,
    ].join(','),
  ]
  for (const r of rates) {
    const buckets = r.buckets as Record<string, string>
    csv.push(
      [
        r.plan,
        r.term,
        r.deductible,
        r.vehicleClass,
        r.odometerFrom ?? '',
        r.odometerTo ?? '',
        r.state ?? '',
        r.suggestedRetail,
        r.minRetail ?? '',
        r.maxRetail ?? '',
        r.retailLocked ?? '',
        ...codes.map((c) => buckets[c] ?? ''),
      ].join(','),
    )
  }
  const bookFile = path.join(root, 'book.json')
  const csvFile = path.join(root, 'rates.csv')
  fs.writeFileSync(bookFile, JSON.stringify(book))
  fs.writeFileSync(csvFile, `${csv.join('\n')}\n`)

  const dry = await adminJson<{ dryRun: boolean; version: number | null; summary: { rates: number } }>([
    'ratebook',
    'import',
    bookFile,
    '--tenant',
    tenant,
    '--rates',
    csvFile,
    '--dry-run',
  ])
  assert.deepEqual([dry.dryRun, dry.version, dry.summary.rates], [true, null, rates.length])
  assert.deepEqual(await adminJson<unknown[]>(['ratebook', 'list', '--tenant', tenant]), [], 'a dry run stores nothing')
  const stored = await adminJson<{ version: number; unchanged: boolean }>([
    'ratebook',
    'import',
    bookFile,
    '--tenant',
    tenant,
    '--rates',
    csvFile,
  ])
  assert.deepEqual([stored.version, stored.unchanged], [1, false])
  const list = await adminJson<Array<{ version: number; effectiveDate: string }>>([
    'ratebook',
    'list',
    '--tenant',
    tenant,
  ])
  assert.deepEqual(
    list.map((v) => [v.version, v.effectiveDate]),
    [[1, '2025-01-01']],
  )
  const exported = await adminJson<{ rates: unknown[] }>(['ratebook', 'export', '--tenant', tenant])
  assert.equal(exported.rates.length, rates.length)

  // A bad cell and a bad criteria: both reported, with where they are; nothing stored.
  fs.writeFileSync(
    csvFile,
    `${csv[0]}\n${csv.find((l) => l.startsWith('PPM-NEW'))!.replace(/,([0-9.]+)$/, ',1.234')}\n`,
  )
  const bad = {
    ...book,
    products: (book.products as Array<Record<string, unknown>>).map((p, i) =>
      i === 0 ? { ...p, criteria: 'vehicleAg <= 3' } : p,
    ),
  }
  fs.writeFileSync(bookFile, JSON.stringify(bad))
  const refused = await admin(['ratebook', 'import', bookFile, '--tenant', tenant, '--rates', csvFile])
  assert.equal(refused.status, 1, refused.stderr)
  assert.match(refused.stderr, /refused \(2 problem\(s\)\)/)
  assert.match(refused.stderr, /rates\.csv row 2 PMR: .*\[invalid_money\]/)
  assert.match(refused.stderr, /book\.json \/products\/0\/criteria: .*\[unknown_fact\]/)
  assert.equal((await adminJson<unknown[]>(['ratebook', 'list', '--tenant', tenant])).length, 1)

  assertOneLineFailure(await admin(['ratebook', 'list', '--tenant', '987654321']), /tenant 987654321 does not exist/)
  assertOneLineFailure(
    await admin(['ratebook', 'import', bookFile, '--tenant', '987654321']),
    /tenant 987654321 does not exist/,
  )
  const missing = await admin(['ratebook', 'import', '--tenant', tenant])
  assert.equal(missing.status, 2, 'the file argument is required')
  assert.match(missing.stderr, /missing required option <file>/)
})

test('idp set, list and remove; signingkey rotate', async () => {
  const tenant = String(acme.tenantId)
  const issuer = 'https://login.acme.example/'
  const set = await adminJson<{ issuer: string; identityClaim: string; algorithms: string[] }>([
    'idp',
    'set',
    '--tenant',
    tenant,
    '--issuer',
    issuer,
    '--audience',
    'api://vpp',
    '--jwks-url',
    'https://login.acme.example/keys',
    '--claim',
    'oid',
    '--algorithms',
    'RS256,ES256',
  ])
  assert.deepEqual(
    { issuer: set.issuer, claim: set.identityClaim, algorithms: set.algorithms },
    { issuer, claim: 'oid', algorithms: ['RS256', 'ES256'] },
  )
  const list = await admin(['idp', 'list', '--tenant', tenant])
  assert.equal(list.status, 0, list.stderr)
  assert.match(
    list.stdout,
    new RegExp(`^\\d+\\s+${issuer}\\s+api://vpp\\s+oid\\s+RS256,ES256\\s+https://login.acme.example/keys$`, 'm'),
  )
  assert.deepEqual(await adminJson(['idp', 'remove', '--tenant', tenant, '--issuer', issuer]), {
    issuer,
    removed: true,
  })

  const rotated = await adminJson<{ kid: string }>(['signingkey', 'rotate', '--tenant', tenant])
  assert.equal(typeof rotated.kid, 'string')

  const issued = await adminJson<{ token: string; userId: number; expiresAt: string }>([
    'token',
    'issue',
    '--tenant',
    tenant,
    '--user',
    String(acme.adminUserId),
    '--days',
    '30',
  ])
  provisioningToken = issued.token
  assert.equal(issued.userId, acme.adminUserId)
  const header = JSON.parse(Buffer.from(issued.token.split('.')[0]!, 'base64url').toString()) as { kid: string }
  assert.equal(header.kid, rotated.kid, 'signed with the current key')
  const days = (new Date(issued.expiresAt).getTime() - Date.now()) / 86_400_000
  assert.ok(days > 29.9 && days <= 30, String(days))
  const tooLong = await admin([
    'token',
    'issue',
    '--tenant',
    tenant,
    '--user',
    String(acme.adminUserId),
    '--days',
    '9999',
  ])
  assert.equal(tooLong.status, 1)
  assert.match(tooLong.stderr, /--days/)
})

let provisioningToken: string

test('db migrate reports every migration as applied', async () => {
  // Opening the configured database itself, as every run of the binary does (and migrating it then).
  const run = await admin(['db', 'migrate', '--json'], { own: true })
  assert.equal(run.status, 0, run.stderr)
  const report = JSON.parse(run.stdout) as {
    engine: string
    applied: string[]
    migrations: Array<{ name: string; executedAt: string | null }>
  }
  assert.equal(report.engine, embedded ? 'pglite' : 'postgres')
  // The data directory was migrated by tenant create, so nothing is left to apply now.
  assert.deepEqual(report.applied, [])
  assert.deepEqual(
    report.migrations.map((m) => m.name),
    Object.keys(migrations),
  )
  assert.ok(report.migrations.every((m) => m.executedAt !== null))
})

test('db distribute --print prints the Citus statements from the catalog; without --print it is a usage error', async () => {
  const run = await admin(['db', 'distribute', '--print'])
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /^-- Citus: /)
  assert.match(run.stdout, /^select create_reference_table\('tenant'\);$/m)
  assert.match(run.stdout, /^select create_distributed_table\('contract', 'tenant_id', colocate_with => '[a-z_]+'\);$/m)
  // Reference tables first: tenant tables keep their foreign keys to them.
  assert.ok(run.stdout.indexOf("create_reference_table('tenant')") < run.stdout.indexOf('create_distributed_table('))
  assert.doesNotMatch(run.stdout, /kysely_migration'/)
  const plan = await adminJson<{ statements: string[]; distributedTables: string[] }>(['db', 'distribute', '--print'])
  assert.ok(plan.distributedTables.includes('contract'))
  assert.equal(plan.statements.length, plan.distributedTables.length + 1)

  const usage = await admin(['db', 'distribute'])
  assert.equal(usage.status, 2)
  assert.match(usage.stderr, /missing required option --print/)
})

if (embedded) {
  // Only on the embedded database: this file's own data directory. On PostgreSQL the database is
  // shared with the other test files, which must never see the bad table.
  test('db distribute --print refuses, naming every problem on stderr, when a table breaks the distribution rules', async () => {
    const change = async (statement: string) => {
      await sql.raw(statement).execute((await sharedDatabase()).kysely)
    }
    await change('create table zz_cli_bad (tenant_id bigint references tenant (id), id bigint primary key)')
    try {
      const run = await admin(['db', 'distribute', '--print'])
      assert.equal(run.status, 1, run.stderr)
      assert.equal(run.stdout, '')
      assert.match(run.stderr, /^error: the schema cannot be distributed by tenant_id: 2 problems\n/)
      assert.match(run.stderr, /^ {2}- zz_cli_bad: column tenant_id is nullable$/m)
      assert.match(run.stderr, /^ {2}- zz_cli_bad\.zz_cli_bad_pkey: primary key \(id\) does not contain tenant_id$/m)
    } finally {
      await change('drop table zz_cli_bad')
    }
  })
}

let beta: Created
const BETA_ADMIN = { email: 'admin@beta.example', password: 'another correct horse' }

test('tenant create --admin-password-stdin reads the password from stdin', async () => {
  beta = await adminJson<Created>(
    ['tenant', 'create', '--name', 'Beta', '--admin-email', BETA_ADMIN.email, '--admin-password-stdin'],
    `${BETA_ADMIN.password}\n`,
  )
  assert.notEqual(beta.tenantId, acme.tenantId)
})

test('the credentials the CLI printed work against the service; revoked and replaced keys do not', async () => {
  const db = await sharedDatabase()
  const bus = await createInvalidationBus(undefined)
  // The keys the CLI sealed with: the data directory's key file, or SECRETS_KEY on PostgreSQL.
  const secrets = loadSecretBox({ dataDir, databaseUrl, secretsKey: process.env.SECRETS_KEY || undefined })
  const t = await createTestApp({ db, bus, secrets })
  const { app } = t
  try {
    const token = (apiKey: string, user: { email: string; password: string }) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'x-api-key': apiKey },
        payload: { grant_type: 'password', username: user.email, password: user.password },
      })
    const me = await app.inject({
      url: `/api/v1/adminusers/${acme.adminUserId}`,
      headers: await loginHeaders(t, acme.apiKey, ACME_ADMIN.email, ACME_ADMIN.password),
    })
    assert.equal(me.statusCode, 200, me.body)
    assert.equal((me.json() as { emailAddress: string }).emailAddress, ACME_ADMIN.email)

    assert.equal((await token(beta.apiKey, BETA_ADMIN)).statusCode, 200)
    const scim = await app.inject({
      url: '/api/v2/Users?count=1',
      headers: { authorization: `Bearer ${provisioningToken}` },
    })
    assert.equal(scim.statusCode, 200, scim.body)
    assert.equal((await token(revokedKey, ACME_ADMIN)).statusCode, 401)
    assert.equal((await token(replacedKey, ACME_ADMIN)).statusCode, 401)
  } finally {
    await t.close()
    await bus.close()
  }
})

if (embedded) {
  test('the CLI refuses a data directory that another live process owns, and leaves it untouched', async () => {
    const busyDir = path.join(root, 'busy')
    fs.mkdirSync(busyDir)
    const owner = spawn('sleep', ['30'], { stdio: 'ignore' })
    killAtEnd(owner)
    try {
      const lock = JSON.stringify({ pid: owner.pid, role: 'server' })
      fs.writeFileSync(path.join(busyDir, 'owner.lock'), lock)
      const run = await admin(
        [
          'tenant',
          'create',
          '--name',
          'Acme',
          '--admin-email',
          ACME_ADMIN.email,
          '--admin-password',
          ACME_ADMIN.password,
          '--json',
        ],
        { dir: busyDir, own: true },
      )
      assertOneLineFailure(run, new RegExp(`in use by process ${owner.pid} \\(server\\)`))
      assert.deepEqual(fs.readdirSync(busyDir), ['owner.lock'])
      assert.equal(fs.readFileSync(path.join(busyDir, 'owner.lock'), 'utf8'), lock)
    } finally {
      owner.kill()
    }
  })
}

if (embedded) {
  // Last in the file: it changes the key the data directory's secrets are sealed under.
  test('secrets reseal rotates the secrets key: new key first, re-seal, old key dropped; a wrong key is a clear error', async () => {
    const keyFile = path.join(dataDir, 'secrets.key')
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600, 'made on first start, readable by its owner only')
    const oldKey = fs.readFileSync(keyFile, 'utf8').trim()
    const newKey = generateSecretsKey()
    const both = { SECRETS_KEY: `${newKey},${oldKey}` }
    const resealed = await admin(['secrets', 'reseal', '--json'], { env: both })
    assert.equal(resealed.status, 0, resealed.stderr)
    const report = JSON.parse(resealed.stdout) as {
      keyId: string
      tenants: number
      resealed: number
      unchanged: number
      tables: Record<string, { resealed: number; unchanged: number }>
    }
    assert.equal(report.keyId, secretsKeyId(Buffer.from(newKey, 'base64')))
    assert.ok(report.tenants >= 2 && report.resealed >= 3 && report.unchanged === 0, resealed.stdout)
    // Every tenant has a quote-signing and a download-link key, each counted by its table (webhook
    // subscription secrets: none here).
    assert.deepEqual(Object.keys(report.tables), [
      'tenant_signing_key',
      'rate_quote_key',
      'document_link_key',
      'webhook_subscription',
    ])
    assert.deepEqual(
      [report.tables.rate_quote_key, report.tables.document_link_key],
      [
        { resealed: report.tenants, unchanged: 0 },
        { resealed: report.tenants, unchanged: 0 },
      ],
    )
    assert.equal(
      report.resealed,
      Object.values(report.tables).reduce((n, count) => n + count.resealed, 0),
    )
    const text = await admin(['secrets', 'reseal'], { env: both })
    assert.equal(text.status, 0, text.stderr)
    assert.match(
      text.stdout,
      new RegExp(
        `^Every stored secret is now sealed under secrets key ${report.keyId}\\.\n  ${report.tenants} tenant\\(s\\); 0 secret\\(s\\) re-sealed, ${report.resealed} already under that key\\.`,
      ),
    )
    assert.match(
      text.stdout,
      new RegExp(
        `\n    rate_quote_key: 0 re-sealed, ${report.tenants} already under that key\\.\n    document_link_key: 0 re-sealed, ${report.tenants} already under that key\\.\n    webhook_subscription: 0 re-sealed, 0 already under that key\\.\n`,
      ),
    )

    // The new key alone signs; the old key (the key file) no longer opens anything.
    const issued = await admin(
      [
        'token',
        'issue',
        '--tenant',
        String(acme.tenantId),
        '--user',
        String(acme.adminUserId),
        '--days',
        '1',
        '--json',
      ],
      { env: { SECRETS_KEY: newKey } },
    )
    assert.equal(issued.status, 0, issued.stderr)
    const stale = await admin([
      'token',
      'issue',
      '--tenant',
      String(acme.tenantId),
      '--user',
      String(acme.adminUserId),
      '--days',
      '1',
    ])
    assertOneLineFailure(
      stale,
      new RegExp(`sealed under secrets key ${report.keyId}, which is not configured.*SECRETS_KEY`),
    )
    const malformed = await admin(['tenant', 'list'], { env: { SECRETS_KEY: 'not-a-key' } })
    assert.equal(malformed.status, 1)
    assert.match(malformed.stderr, /^error: Invalid configuration:\n  - SECRETS_KEY: key 1 is not 32 bytes/)
  })
}
