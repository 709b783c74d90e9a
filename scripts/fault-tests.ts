// Fault tests on a real PostgreSQL server, which this script stops, restarts and kills under load.
// Run inside scripts/with-postgres.sh (it provides the throwaway cluster and the pg_ctl to drive it):
//
//   bash scripts/with-postgres.sh npm run test:faults
//
// 1. kill -9 of every PostgreSQL process under a create/finalize load, then a restart (crash
//    recovery): every acknowledged write is present, resending every request with its
//    Idempotency-Key converges to exactly one contract and one finalization each, the ledger balances.
// 2. pg_ctl stop -m fast under load, held down, then started; and a pg_ctl restart -m fast under
//    load: the service process stays up, answers 503 database_unavailable with Retry-After (and
//    /health/ready 503) while the database is away, recovers by itself, and loses nothing.
// 3. The invalidation bus connections terminated (pg_terminate_backend): the next write answers
//    2xx, and a second instance sees the change (a cached setting that changes what it quotes).
//
// Real service processes (node src/main.ts) are driven over HTTP. Every wait is bounded and fails
// with what it waited for; every process started here is killed on every way out.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { generateSecretsKey } from '../src/platform/secrets.ts'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PG_CTL = process.env.WITH_POSTGRES_CTL
const PGDATA = process.env.WITH_POSTGRES_PGDATA
const DATABASE_URL = process.env.DATABASE_URL
const RUN = Date.now().toString(36)

class FaultTestFailure extends Error {}
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new FaultTestFailure(message)
}

// ---------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------

const children = new Set<ChildProcess>()
const servers: Server[] = []

function killChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

type Server = {
  name: string
  child: ChildProcess
  baseUrl: string
  tail: string[]
  demo?: { apiKey: string; adminEmail: string; adminPassword: string }
}

/**
 * With commits acknowledged only once durable: scripts/with-postgres.sh runs the cluster with
 * synchronous_commit=off for test speed, under which a killed server may lose the last
 * acknowledged commits, which is not what phase 1 is about. A per-session setting, so no superuser.
 */
function durableUrl(url: string): string {
  const u = new URL(url)
  u.searchParams.set('options', '-c synchronous_commit=on')
  return u.toString()
}

async function startServer(name: string, env: Record<string, string>, seeded: boolean): Promise<Server> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  const server: Server = { name, child, baseUrl: '', tail: [] }
  servers.push(server)
  const text: string[] = []
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue
      server.tail.push(line)
      if (server.tail.length > 200) server.tail.shift()
      if (!server.baseUrl) {
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)
        if (m) server.baseUrl = m[1]!
      }
      if (seeded) text.push(line)
    }
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  await waitFor(`${name} to listen`, 90, () => {
    check(child.exitCode === null, `${name} exited while starting:\n${server.tail.join('\n')}`)
    return server.baseUrl !== '' && (!seeded || text.some((l) => /admin password:/.test(l)))
  })
  if (seeded) {
    const all = text.join('\n')
    const field = (label: string) => {
      const m = new RegExp(`${label}:\\s+(\\S+)`).exec(all)
      check(m, `${name} printed no "${label}" for the demo tenant`)
      return m[1]!
    }
    server.demo = { apiKey: field('API key'), adminEmail: field('admin email'), adminPassword: field('admin password') }
  }
  return server
}

function assertAlive(server: Server): void {
  check(
    server.child.exitCode === null && server.child.signalCode === null,
    `${server.name} exited (code ${server.child.exitCode}, signal ${server.child.signalCode}); its last output:\n${server.tail.slice(-40).join('\n')}`,
  )
}

function pgCtl(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(PG_CTL!, args, { timeout: 90_000 }, (err, stdout, stderr) => {
      if (err) reject(new FaultTestFailure(`pg_ctl ${args.join(' ')} failed: ${err.message}\n${stdout}${stderr}`))
      else resolve(stdout)
    })
  })
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Every process whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === pid) found.push(Number(entry))
    } catch {
      // Gone meanwhile.
    }
  }
  return found
}

/** kill -9 of the postmaster and all its processes at once: a crash, with no shutdown of any kind. */
async function killPostgres(): Promise<number> {
  const postmaster = Number(fs.readFileSync(path.join(PGDATA!, 'postmaster.pid'), 'utf8').split('\n')[0])
  check(Number.isInteger(postmaster) && postmaster > 0, 'postmaster.pid names no process')
  const pids = [postmaster, ...childrenOf(postmaster)]
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
  await waitFor('every killed PostgreSQL process to be gone', 20, () => pids.every((pid) => !isAlive(pid)))
  return pids.length
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

type Reply = { status: number; body: unknown; text: string; headers: Headers } | { status: 0; error: string }

async function call(
  server: Server,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  try {
    const res = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      // A request may wait CONNECT_TIMEOUT_MS (5 s) for a connection while the database is away.
      signal: AbortSignal.timeout(30_000),
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // Not JSON: kept as text for the failure message.
    }
    return { status: res.status, body, text, headers: res.headers }
  } catch (err) {
    return { status: 0, error: String((err as Error).cause ?? err) }
  }
}

const describe = (r: Reply) =>
  'error' in r ? `no answer (${r.error})` : `${r.status} ${JSON.stringify(r.body).slice(0, 300)}`

async function waitFor(what: string, seconds: number, ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000
  for (;;) {
    if (await ready()) return
    if (Date.now() > deadline) throw new FaultTestFailure(`gave up after ${seconds} s waiting for ${what}`)
    await sleep(50)
  }
}

async function login(server: Server): Promise<Record<string, string>> {
  const demo = demoOf
  const res = await call(server, 'POST', '/api/auth/token', {
    headers: { 'x-api-key': demo.apiKey },
    body: { grant_type: 'password', username: demo.adminEmail, password: demo.adminPassword },
  })
  check(res.status === 200, `token on ${server.name}: ${describe(res)}`)
  return { 'x-api-key': demo.apiKey, authorization: `Bearer ${(res.body as { access_token: string }).access_token}` }
}

let demoOf: NonNullable<Server['demo']>

// ---------------------------------------------------------------------------------------------
// Contracts under load
// ---------------------------------------------------------------------------------------------

type QuoteReply = {
  quoteId: string
  products: Array<{
    productCode: string
    programs: Array<{
      plans: Array<{ terms: Array<{ deductibles: Array<{ rate: { rateId: string; suggestedRetail: number } }> }> }>
    }>
  }>
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10)
const HONDA = 'vin=1HGCV1F37LA012345&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01'
/** The check-digit rule below gives the demo's known-good VIN its own check digit. */
function assertVinRule(): void {
  check(withCheckDigit('1HGCV1F30LA012345') === '1HGCV1F37LA012345', 'the VIN check-digit rule of this script is wrong')
}

/** The check digit (position 9) of a North American VIN. */
function withCheckDigit(vin: string): string {
  const value = (c: string) =>
    /\d/.test(c)
      ? Number(c)
      : 'ABCDEFGH'.includes(c)
        ? c.charCodeAt(0) - 64
        : 'JKLMN'.includes(c)
          ? c.charCodeAt(0) - 73
          : c === 'P'
            ? 7
            : c === 'R'
              ? 9
              : c.charCodeAt(0) - 81
  const weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
  const sum = [...vin].reduce((acc, c, i) => acc + value(c) * weights[i]!, 0)
  const digit = sum % 11
  return `${vin.slice(0, 8)}${digit === 10 ? 'X' : String(digit)}${vin.slice(9)}`
}

/**
 * A quoted deal for its own vehicle: the service refuses the same dealer, VIN, plan and sale date
 * twice within minutes (duplicate_contract), and a contract's VIN must be the quote's.
 */
async function quotedDeal(
  server: Server,
  headers: Record<string, string>,
  n: string,
  serial: number,
): Promise<{ body: unknown } | { failure: Reply }> {
  // Yesterday in UTC: never in the future in the service's time zone, and well inside the look-back.
  const saleDate = isoDate(new Date(Date.now() - 86_400_000))
  const vin = withCheckDigit(`1HGCV1F30LA${String(serial).padStart(6, '0')}`)
  const quote = await call(
    server,
    'GET',
    `/api/Rates/rateQuote/10001?vin=${vin}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&saleDate=${saleDate}&productTypes=VSC`,
    { headers },
  )
  if (quote.status !== 200) return { failure: quote }
  const reply = (quote as { body: QuoteReply }).body
  const rate = reply.products[0]?.programs[0]?.plans[0]?.terms[0]?.deductibles[0]?.rate
  check(rate, `the demo quote for ${vin} offers a VSC rate`)
  return {
    body: {
      quoteId: reply.quoteId,
      rateId: rate.rateId,
      selectedOptionIds: [],
      retailPrice: rate.suggestedRetail,
      saleDate,
      saleOdometer: 42150,
      vehicle: { vin, condition: 'USED' },
      // The run and the attempt in the holder's name, to count the contracts each attempt left.
      customer: {
        firstName: 'Fault',
        lastName: `R${RUN}K${n}`,
        address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
      },
      customFields: { financeManagerCode: 'FM7' },
    },
  }
}

type Attempt = {
  n: string
  body: unknown
  createAcked?: number
  finalizeAcked: boolean
  finalizeTried: boolean
  /** The bytes of the acknowledged answers: a resend with the same Idempotency-Key must replay them exactly. */
  createdText?: string
  finalizedText?: string
}

type Load = {
  attempts: Attempt[]
  acked: number
  unavailable: number
  retryAfterMissing: number
  unexpected: string[]
  noAnswer: number
  stop(): Promise<void>
}

/** `workers` loops, each creating a contract and finalizing it, each POST with its Idempotency-Key. */
function contractLoad(
  server: Server,
  headers: Record<string, string>,
  prefix: string,
  serialBase: number,
  workers: number,
): Load {
  // An object, not a local: the loops read it across awaits while stop() sets it.
  const control = { stopping: false }
  let next = 0
  const load: Load = {
    attempts: [],
    acked: 0,
    unavailable: 0,
    retryAfterMissing: 0,
    unexpected: [],
    noAnswer: 0,
    async stop() {
      control.stopping = true
      await Promise.all(loops)
    },
  }
  const classify = (r: Reply, what: string): 'ok' | 'retry' => {
    if (r.status >= 200 && r.status < 300) {
      load.acked++
      return 'ok'
    }
    if (r.status === 503 && (r.body as { code?: string }).code === 'database_unavailable') {
      load.unavailable++
      if (!r.headers.get('retry-after')) load.retryAfterMissing++
    } else if (r.status === 0) {
      load.noAnswer++
    } else {
      load.unexpected.push(`${what}: ${describe(r)}`)
    }
    return 'retry'
  }
  const loop = async () => {
    while (!control.stopping) {
      const i = next++
      const n = `${prefix}${i}`
      const deal = await quotedDeal(server, headers, n, serialBase + i)
      if ('failure' in deal) {
        // A read: counted like the writes, the attempt number is simply skipped.
        classify(deal.failure, `quote ${n}`)
        await sleep(100)
        continue
      }
      const attempt: Attempt = { n, body: deal.body, finalizeAcked: false, finalizeTried: false }
      load.attempts.push(attempt)
      const created = await call(server, 'POST', '/api/contracts', {
        headers: { ...headers, 'idempotency-key': `c-${RUN}-${n}` },
        body: attempt.body,
      })
      if (classify(created, `create ${n}`) !== 'ok') {
        await sleep(100)
        continue
      }
      attempt.createAcked = (created as { body: { id: number } }).body.id
      attempt.createdText = (created as { text: string }).text
      attempt.finalizeTried = true
      const finalized = await call(server, 'POST', `/api/contracts/${attempt.createAcked}/finalize`, {
        headers: { ...headers, 'idempotency-key': `f-${RUN}-${n}` },
        body: {},
      })
      if (classify(finalized, `finalize ${n}`) === 'ok') {
        attempt.finalizeAcked = true
        attempt.finalizedText = (finalized as { text: string }).text
      } else await sleep(100)
    }
  }
  const loops = Array.from({ length: workers }, loop)
  return load
}

/**
 * Resends every attempt's requests with their Idempotency-Keys until each answers 2xx: a create
 * that committed is replayed (same contract), one that did not runs now; the same for finalize.
 */
async function resendAll(
  server: Server,
  headers: Record<string, string>,
  attempts: Attempt[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  for (const a of attempts) {
    let created: Reply | undefined
    await waitFor(
      `the resent create ${a.n} to answer 2xx (last: ${created ? describe(created) : 'none'})`,
      30,
      async () => {
        created = await call(server, 'POST', '/api/contracts', {
          headers: { ...headers, 'idempotency-key': `c-${RUN}-${a.n}` },
          body: a.body,
        })
        return created.status === 201
      },
    )
    const id = (created as { body: { id: number } }).body.id
    if (a.createAcked !== undefined)
      check(id === a.createAcked, `resent create ${a.n} answered contract ${id}, not the acknowledged ${a.createAcked}`)
    if (a.createdText !== undefined)
      check(
        (created as { text: string }).text === a.createdText,
        `resent create ${a.n} did not replay the acknowledged answer byte for byte`,
      )
    ids.set(a.n, id)
    let finalized: Reply | undefined
    await waitFor(
      `the resent finalize ${a.n} to answer 200 (last: ${finalized ? describe(finalized) : 'none'})`,
      30,
      async () => {
        finalized = await call(server, 'POST', `/api/contracts/${id}/finalize`, {
          headers: { ...headers, 'idempotency-key': `f-${RUN}-${a.n}` },
          body: {},
        })
        return finalized.status === 200
      },
    )
    if (a.finalizedText !== undefined)
      check(
        (finalized as { text: string }).text === a.finalizedText,
        `resent finalize ${a.n} did not replay the acknowledged answer byte for byte`,
      )
  }
  return ids
}

/** What the database holds for this run's contracts: one per attempt, each finalized once, the ledger balanced. */
async function verifyDatabase(
  tenantId: number,
  prefix: string,
  attempts: Attempt[],
  ids: Map<string, number>,
): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    await client.query("select set_config('app.tenant_id', $1, false)", [String(tenantId)])
    const rows = (
      await client.query<{ id: number; customer_name: string; status: string }>(
        'select id::int, customer_name, status from contract where customer_name like $1',
        [`fault r${RUN.toLowerCase()}k${prefix}%`],
      )
    ).rows
    const byName = new Map<string, typeof rows>()
    for (const r of rows) byName.set(r.customer_name, [...(byName.get(r.customer_name) ?? []), r])
    for (const a of attempts) {
      const found = byName.get(`fault r${RUN.toLowerCase()}k${a.n.toLowerCase()}`) ?? []
      check(
        found.length === 1,
        `attempt ${a.n} left ${found.length} contracts (${found.map((r) => r.id).join(', ')}), not exactly one`,
      )
      check(
        found[0]!.id === ids.get(a.n),
        `attempt ${a.n}: contract ${found[0]!.id} in the database, ${ids.get(a.n)} answered`,
      )
      check(
        found[0]!.status !== 'PENDING',
        `contract ${found[0]!.id} (attempt ${a.n}) is still PENDING after its finalize answered 200`,
      )
    }
    check(rows.length === attempts.length, `${rows.length} contracts for ${attempts.length} attempts`)
    const entries = (
      await client.query<{ source_id: number; n: number }>(
        "select source_id::int, count(*)::int as n from journal_entry where source_type = 'CONTRACT' and source_id = any($1) group by source_id",
        [rows.map((r) => r.id)],
      )
    ).rows
    check(
      entries.length === rows.length && entries.every((e) => e.n === 1),
      `finalized contracts and their journal entries differ: ${rows.length} contracts, entries ${JSON.stringify(entries.filter((e) => e.n !== 1))}`,
    )
    const unbalanced = (
      await client.query('select entry_id from journal_line group by entry_id having sum(debit) <> sum(credit)')
    ).rows
    check(unbalanced.length === 0, `unbalanced journal entries: ${JSON.stringify(unbalanced)}`)
  } finally {
    await client.end()
  }
}

async function tenantIdOf(apiKey: string): Promise<number> {
  const m = /^vpk_(\d+)_/.exec(apiKey)
  check(m, 'the demo API key names its tenant')
  return Number(m[1])
}

/** Stops a wait at the first answer that is neither 2xx nor 503 database_unavailable. */
function healthy(load: Load): boolean {
  check(load.unexpected.length === 0, `unexpected answer under load: ${load.unexpected[0]}`)
  return true
}

function reportLoad(label: string, load: Load): void {
  console.log(
    `  ${label}: ${load.attempts.length} contracts attempted, ${load.acked} writes acknowledged, ${load.unavailable} answered 503 database_unavailable, ${load.noAnswer} without an answer, ${load.unexpected.length} unexpected`,
  )
  check(load.unexpected.length === 0, `unexpected answers under ${label}:\n${load.unexpected.slice(0, 10).join('\n')}`)
  check(
    load.noAnswer === 0,
    `${load.noAnswer} requests got no answer under ${label}: the service must answer, 503 at worst`,
  )
  check(load.retryAfterMissing === 0, `${load.retryAfterMissing} 503 answers without Retry-After under ${label}`)
}

// ---------------------------------------------------------------------------------------------
// The phases
// ---------------------------------------------------------------------------------------------

async function phaseServiceKill(env: Record<string, string>, tenantId: number): Promise<void> {
  console.log('phase 0: kill -9 of the service under a create/finalize load')
  const victim = await startServer('instance K', env, false)
  const load = contractLoad(victim, await login(victim), 'p', 300_000, 6)
  await waitFor('some writes acknowledged before the kill', 60, () => healthy(load) && load.acked >= 12)
  victim.child.kill('SIGKILL')
  const ackedAtKill = load.acked
  // Its requests in flight get no answer; the loops then stop.
  await load.stop()
  check(load.unexpected.length === 0, `unexpected answers before the kill:\n${load.unexpected.slice(0, 10).join('\n')}`)
  const restarted = await startServer('instance K restarted', env, false)
  const ids = await resendAll(restarted, await login(restarted), load.attempts)
  await verifyDatabase(tenantId, 'p', load.attempts, ids)
  const unacked = load.attempts.filter((x) => x.createAcked === undefined || !x.finalizeAcked).length
  console.log(
    `  killed after ${ackedAtKill} acknowledged writes; ${load.attempts.length} attempts resent to a new process (${unacked} unacknowledged): acknowledged answers replayed byte for byte, one contract each, each finalized once, ledger balanced`,
  )
  restarted.child.kill('SIGTERM')
}

async function phaseKill(a: Server, headers: Record<string, string>, tenantId: number): Promise<void> {
  console.log('phase 1: kill -9 of PostgreSQL under a create/finalize load')
  const load = contractLoad(a, headers, 'k', 100_000, 6)
  await waitFor('some writes acknowledged before the kill', 60, () => healthy(load) && load.acked >= 12)
  const killed = await killPostgres()
  const killedAt = Date.now()
  console.log(`  killed ${killed} PostgreSQL processes after ${load.acked} acknowledged writes`)
  await waitFor('503 answers while PostgreSQL is dead', 30, () => load.unavailable >= 3)
  assertAlive(a)
  await pgCtl('start')
  const startedAt = Date.now()
  const ackedAtStart = load.acked
  await waitFor('writes acknowledged again after the restart', 60, () => healthy(load) && load.acked > ackedAtStart + 6)
  console.log(
    `  PostgreSQL down ${((startedAt - killedAt) / 1000).toFixed(1)} s; service writing again ${((Date.now() - startedAt) / 1000).toFixed(1)} s after it was back`,
  )
  await load.stop()
  assertAlive(a)
  reportLoad('phase 1', load)
  const ids = await resendAll(a, headers, load.attempts)
  await verifyDatabase(tenantId, 'k', load.attempts, ids)
  const unacked = load.attempts.filter((x) => x.createAcked === undefined || !x.finalizeAcked).length
  console.log(
    `  resent all ${load.attempts.length} attempts (${unacked} unacknowledged): one contract each, each finalized once, ledger balanced`,
  )
}

async function phaseRestart(a: Server, headers: Record<string, string>, tenantId: number): Promise<void> {
  console.log('phase 2: pg_ctl stop -m fast / start, then pg_ctl restart -m fast, under load')
  const load = contractLoad(a, headers, 's', 200_000, 4)
  await waitFor('some writes acknowledged before the stop', 60, () => healthy(load) && load.acked >= 8)
  await pgCtl('stop', '-m', 'fast')
  const stoppedAt = Date.now()
  // While it is away: reads and writes answer 503 with Retry-After, readiness says not ready, liveness stays up.
  const read = await call(a, 'GET', '/api/v1/adminusers', { headers })
  check(
    read.status === 503 &&
      (read.body as { code?: string }).code === 'database_unavailable' &&
      read.headers.get('retry-after'),
    `a read while PostgreSQL is stopped: ${describe(read)}`,
  )
  const ready = await call(a, 'GET', '/health/ready')
  check(ready.status === 503, `/health/ready while PostgreSQL is stopped: ${describe(ready)}`)
  const live = await call(a, 'GET', '/health/live')
  check(live.status === 200, `/health/live while PostgreSQL is stopped: ${describe(live)}`)
  await waitFor('503 answers to the load while PostgreSQL is stopped', 30, () => load.unavailable >= 3)
  await sleep(1_500)
  assertAlive(a)
  await pgCtl('start')
  const startedAt = Date.now()
  await waitFor(
    '/health/ready 200 after PostgreSQL is back',
    60,
    async () => (await call(a, 'GET', '/health/ready')).status === 200,
  )
  const readyAfter = Date.now() - startedAt
  const ackedAtStart = load.acked
  await waitFor('writes acknowledged again after the start', 60, () => load.acked > ackedAtStart + 4)
  const writingAfter = Date.now() - startedAt
  console.log(
    `  stopped ${((startedAt - stoppedAt) / 1000).toFixed(1)} s; ready ${(readyAfter / 1000).toFixed(2)} s and writing ${(writingAfter / 1000).toFixed(2)} s after PostgreSQL was back`,
  )

  const beforeRestart = load.acked
  await pgCtl('restart', '-m', 'fast')
  const restartedAt = Date.now()
  await waitFor('writes acknowledged after pg_ctl restart -m fast', 60, () => load.acked > beforeRestart + 4)
  console.log(
    `  pg_ctl restart -m fast: writing again ${((Date.now() - restartedAt) / 1000).toFixed(2)} s after it returned`,
  )
  await load.stop()
  assertAlive(a)
  reportLoad('phase 2', load)
  const ids = await resendAll(a, headers, load.attempts)
  await verifyDatabase(tenantId, 's', load.attempts, ids)
  console.log(`  nothing lost: all ${load.attempts.length} attempts present once, finalized once, ledger balanced`)
}

async function phaseBus(
  a: Server,
  b: Server,
  headersA: Record<string, string>,
  headersB: Record<string, string>,
): Promise<void> {
  console.log('phase 3: the invalidation bus connections terminated')
  // A sale date 10 days back quotes while saleDateLookBackDays (setting 3, default 60) allows it;
  // instance B caches the setting, so what B quotes shows whether it heard the change.
  const old = isoDate(new Date(Date.now() - 10 * 86_400_000))
  const quoteOnB = () =>
    call(b, 'GET', `/api/Rates/rateQuote/10001?${HONDA}&saleDate=${old}&productTypes=VSC`, { headers: headersB })
  const setLookBack = (value: number) =>
    call(a, 'PUT', '/api/generalsettings/3', { headers: headersA, body: { value } })
  const warm = await quoteOnB()
  check(warm.status === 200, `quote on B before the change: ${describe(warm)}`)

  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    const terminated =
      (
        await client.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'vpp-invalidation-bus'",
        )
      ).rowCount ?? 0
    check(terminated >= 2, `terminated ${terminated} bus connections, expected one per instance (2)`)
  } finally {
    await client.end()
  }
  const changed = await setLookBack(5)
  check(
    changed.status >= 200 && changed.status < 300,
    `the write right after the bus connections were terminated: ${describe(changed)}`,
  )
  const changedAt = Date.now()
  let last: Reply | undefined
  await waitFor('instance B to refuse a sale date outside the new look-back', 5, async () => {
    last = await quoteOnB()
    return last.status === 422
  }).catch((err: unknown) => {
    throw new FaultTestFailure(`${(err as Error).message}; last answer ${last ? describe(last) : 'none'}`)
  })
  console.log(`  the write answered ${changed.status}; instance B saw it ${Date.now() - changedAt} ms later`)

  // Both buses listening again: a change on A reaches B by announcement.
  await waitFor(
    'both instances ready again',
    30,
    async () =>
      (await call(a, 'GET', '/health/ready')).status === 200 && (await call(b, 'GET', '/health/ready')).status === 200,
  )
  const restored = await setLookBack(60)
  check(restored.status >= 200 && restored.status < 300, `restoring the setting: ${describe(restored)}`)
  const restoredAt = Date.now()
  await waitFor('instance B to quote the old sale date again', 5, async () => (await quoteOnB()).status === 200)
  console.log(`  after the reconnection a change on A reached B in ${Date.now() - restoredAt} ms`)
}

async function main(): Promise<void> {
  check(
    DATABASE_URL && PG_CTL && PGDATA,
    'run inside scripts/with-postgres.sh: DATABASE_URL, WITH_POSTGRES_CTL and WITH_POSTGRES_PGDATA must be set',
  )
  const began = Date.now()
  assertVinRule()
  const env = {
    DATABASE_URL: durableUrl(DATABASE_URL),
    SECRETS_KEY: process.env.SECRETS_KEY || generateSecretsKey(),
    SEED_DEMO: 'true',
  }
  const a = await startServer('instance A', env, true)
  demoOf = a.demo!
  const tenantId = await tenantIdOf(demoOf.apiKey)
  const headersA = await login(a)

  await phaseServiceKill(env, tenantId)
  await phaseKill(a, headersA, tenantId)
  await phaseRestart(a, headersA, tenantId)

  const b = await startServer('instance B', env, false)
  const headersB = await login(b)
  await phaseBus(a, b, headersA, headersB)
  assertAlive(a)
  assertAlive(b)
  console.log(`fault tests passed in ${((Date.now() - began) / 1000).toFixed(0)} s`)
}

let exiting = false
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (exiting) return
    exiting = true
    killChildren()
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1))
  })
}
process.on('exit', killChildren)

// The whole run is bounded: a hang anywhere fails instead of holding CI.
const deadline = setTimeout(() => {
  console.error('fault tests: gave up after 5 minutes')
  killChildren()
  process.exit(1)
}, 5 * 60_000)
deadline.unref()

main().then(
  () => {
    killChildren()
    process.exit(0)
  },
  (err: unknown) => {
    console.error(
      `fault tests FAILED: ${err instanceof FaultTestFailure ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    )
    for (const server of servers)
      console.error(`\n--- last output of ${server.name} ---\n${server.tail.slice(-30).join('\n')}`)
    killChildren()
    process.exit(1)
  },
)
