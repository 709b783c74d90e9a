// The service under measurement, in its own process so the load generator never shares its event
// loop. Opens the database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR or a fresh
// temporary directory), seeds a benchmark tenant, builds the production app with a system clock,
// adds the ceiling routes, /bench/cpu, /bench/memory, /bench/clone-contracts, /bench/seed-claims,
// /bench/processes/work, /bench/webhooks/start, /bench/outbox and /bench/reporting/seed (they exist only here), listens on 127.0.0.1, and prints one line:
//   {"event":"ready","port":…,"database":"pglite|postgres","tenantId":…,"apiKey":…,…}
// SIGTERM/SIGINT (or, with BENCH_EXIT_WITH_PARENT=1, stdin closing) close everything and exit 0.
//
//   node scripts/bench/server.ts [--users 10000] [--rates 100000] [--dealers 2000] [--port 0]
//                                [--manifest users.json] [--cpu-prof file] [--remove-on-exit dir]
//
// --manifest writes {"ids":[…],"emails":[…]} of the seeded users; --cpu-prof records a CPU profile
// of the serving phase only (from ready to shutdown, seeding excluded); --remove-on-exit names a
// directory (the parent's work directory) to delete on the way out, whoever goes first.
import fs from 'node:fs'
import { Session } from 'node:inspector/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { createModules } from '../../src/modules.ts'
import { findUserById } from '../../src/modules/identity/index.ts'
import { createInvalidationBus } from '../../src/platform/cache.ts'
import { systemClock } from '../../src/platform/clock.ts'
import { openConfiguredDatabase } from '../../src/platform/db/open.ts'
import { loadSecretBox } from '../../src/platform/secrets.ts'
import { seedClaims, type SeedClaimsOptions } from './claim-seed.ts'
import { cloneContracts, type CloneOptions } from './contract-seed.ts'
import { appendBenchEvents, type BenchEventsOptions } from './processes-seed.ts'
import { seedReportingBook, type ReportingSeedOptions } from './reporting-seed.ts'
import { seedBenchRating } from './rating-seed.ts'
import { seedBenchTenant } from './seed.ts'

/** Real VINs (valid check digits) of makes the synthetic book classes; quotes pick one at random. */
export const BENCH_VINS = [
  '1HGCV1F37LA012345',
  '1FTFW1E57MFA12345',
  '4T1B11HK8KU123456',
  '1GCUYDED2LZ123456',
  '5XYZU3LB2FG123456',
]

async function sampleQuote(
  app: Awaited<ReturnType<typeof buildApp>>,
  seeded: { apiKey: string; adminEmail: string; adminPassword: string },
  dealerNumber: string,
): Promise<string> {
  const token = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'x-api-key': seeded.apiKey },
    payload: { grant_type: 'password', username: seeded.adminEmail, password: seeded.adminPassword },
  })
  const headers = {
    'x-api-key': seeded.apiKey,
    authorization: `Bearer ${(token.json() as { access_token: string }).access_token}`,
  }
  const res = await app.inject({
    method: 'GET',
    url: `/api/Rates/rateQuote/${dealerNumber}?vin=${BENCH_VINS[0]}&vehicleCondition=USED&odometer=42150`,
    headers,
  })
  if (res.statusCode !== 200) throw new Error(`the sample quote answered ${res.statusCode}: ${res.body.slice(0, 300)}`)
  return res.body
}

/** What GET /bench/ceiling answers: shaped and sized like one user of GET /api/v1/adminusers/{id}. */
const CEILING_BODY = Object.freeze({
  id: 104200,
  userName: 'Grace.Hansen.4242@bench-0a1b2c3d.example',
  emailAddress: 'Grace.Hansen.4242@bench-0a1b2c3d.example',
  firstName: 'Grace',
  lastName: 'Hansen',
  phoneNumber: '+15550004242',
  externalIdentity: 'bench|0a1b2c3d|4242',
  expiredDate: null,
  isActive: true,
  accountHolderId: null,
  roles: [{ id: 3, name: 'Contract administrator' }],
  groups: [{ id: 1, name: 'Administrator staff' }],
  createdAt: '2026-01-02T15:04:05.000Z',
  updatedAt: '2026-01-02T15:04:05.000Z',
  version: 1,
})

// Directories this process deletes when it ends: a data directory it made itself, and the one
// named by --remove-on-exit.
const removeOnExit: string[] = []
const removeDirs = () => {
  for (const dir of removeOnExit) fs.rmSync(dir, { recursive: true, force: true })
}
// Until the server is up a signal just ends the process (after removing a data directory of ours).
let stop = async (_reason: string): Promise<void> => {
  removeDirs()
  process.exit(1)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      users: { type: 'string', default: '10000' },
      rates: { type: 'string', default: '100000' },
      dealers: { type: 'string', default: '2000' },
      port: { type: 'string', default: '0' },
      manifest: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'remove-on-exit': { type: 'string' },
    },
  })
  if (args['remove-on-exit']) removeOnExit.push(path.resolve(args['remove-on-exit']))
  const userCount = Number(args.users)
  if (!Number.isInteger(userCount) || userCount < 1) throw new Error('--users must be a positive integer')

  // The benchmark never touches ./data: without DATA_DIR it makes (and later removes) its own.
  const ownDataDir =
    process.env.DATABASE_URL || process.env.DATA_DIR ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-bench-'))
  if (ownDataDir) removeOnExit.push(ownDataDir)
  const config = loadConfig({
    ...process.env,
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    RATE_LIMIT_PER_MINUTE: '100000000',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  })
  // As the server opens it: behind PgBouncer, prepared statements off and migrations over DATABASE_LISTEN_URL.
  const db = await openConfiguredDatabase(config, 'bench')
  const bus = await createInvalidationBus(config.databaseListenUrl)
  const clock = systemClock
  const secrets = loadSecretBox(config)
  // One module graph: it seeds, then serves.
  const modules = createModules({ config, db, clock, bus, secrets })
  const seeded = await seedBenchTenant({ db, clock, modules }, userCount)
  const tenantId = seeded.tenantId
  const rating = await seedBenchRating({ db, modules }, tenantId, {
    rates: Number(args.rates),
    dealers: Number(args.dealers),
  })

  const app = await buildApp({ config, db, clock, bus, modules, logger: false })
  // The ceiling: the HTTP stack and the platform hooks, no authentication, no database.
  app.get('/bench/ceiling', { schema: { hide: true }, config: { auth: 'none' } }, async () => CEILING_BODY)
  // The database ceiling: the user lookup statement of GET /api/v1/adminusers/{userId} for the
  // seeded tenant, with no authentication, validation or mapping.
  app.get('/bench/db-ceiling/:id', { schema: { hide: true }, config: { auth: 'none' } }, async (req, reply) => {
    const id = Number((req.params as { id: string }).id)
    const row = await db.read(tenantId, (x) => findUserById(x, tenantId, id))
    if (!row) return reply.code(404).send({ id })
    return row
  })
  // The rate quote's ceiling: the bytes of a real quote reply, stored, served with no auth and no work,
  // so the quote's ratio measures our own work rather than the size of its JSON.
  // Kept encoded, as the fastest way to send those bytes, so the ceiling is as high as it can be.
  let quoteCeiling = Buffer.alloc(0)
  app.get('/bench/quote-ceiling', { schema: { hide: true }, config: { auth: 'none' } }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(quoteCeiling),
  )
  // This process's CPU time so far (user + system, microseconds): read before and after each
  // measured window, it gives the CPU per request, which moves far less than req/s with whatever
  // else shares the machine.
  app.get('/bench/cpu', { schema: { hide: true }, config: { auth: 'none' } }, async () => {
    const { user, system } = process.cpuUsage()
    return { micros: user + system }
  })
  // The server's resident set size and, with ?gc=1, its live heap after a full garbage collection
  // (the child runs with --expose-gc), in bytes: the earnings run's memory figures.
  app.get('/bench/memory', { schema: { hide: true }, config: { auth: 'none' } }, async (req) => {
    const collect = (req.query as { gc?: string }).gc === '1' ? (globalThis as { gc?: () => void }).gc : undefined
    collect?.()
    return { rss: process.memoryUsage.rss(), ...(collect ? { heapUsed: process.memoryUsage().heapUsed } : {}) }
  })
  // Copies of finalized template contracts, made in bulk by SQL (scripts/bench/contract-seed.ts).
  app.post('/bench/clone-contracts', { schema: { hide: true }, config: { auth: 'none' } }, async (req) =>
    cloneContracts(db, tenantId, req.body as CloneOptions),
  )
  // Claims copied in bulk from a template claim onto contracts copied in bulk (scripts/bench/claim-seed.ts).
  app.post('/bench/seed-claims', { schema: { hide: true }, config: { auth: 'none' } }, async (req) =>
    seedClaims(db, tenantId, req.body as SeedClaimsOptions),
  )
  // The reporting group's book, copied in bulk (scripts/bench/reporting-seed.ts).
  app.post('/bench/reporting/seed', { schema: { hide: true }, config: { auth: 'none' } }, async (req) =>
    seedReportingBook(db, tenantId, req.body as ReportingSeedOptions),
  )
  // The processes group (scripts/bench/processes.ts): works the tenant's queued process runs now.
  app.post('/bench/processes/work', { schema: { hide: true }, config: { auth: 'none' } }, async (req) => {
    const parallel = (req.body as { parallelBatches?: unknown } | undefined)?.parallelBatches
    if (typeof parallel === 'number' && Number.isInteger(parallel) && parallel >= 1)
      modules.processes.options.parallelBatches = parallel
    const started = performance.now()
    const taken = await modules.processes.service.work(tenantId)
    return { taken, seconds: (performance.now() - started) / 1000 }
  })
  // Webhook delivery to the bench's own receiver on 127.0.0.1: allowed here, and the deliverer started.
  app.post('/bench/webhooks/start', { schema: { hide: true }, config: { auth: 'none' } }, async () => {
    modules.webhooks.options.allowPrivateReceivers = true
    modules.webhooks.deliverer.start({
      onError: (err) => process.stderr.write(`bench server: webhook pass failed: ${String(err)}\n`),
    })
    return { started: true }
  })
  // Outbox events appended in bulk (one statement), as changes would append them: `count` events of
  // `contracts` contracts in turn, created now.
  app.post('/bench/outbox', { schema: { hide: true }, config: { auth: 'none' } }, async (req) =>
    appendBenchEvents(db, tenantId, clock.now(), req.body as BenchEventsOptions),
  )
  quoteCeiling = Buffer.from(await sampleQuote(app, seeded, rating.dealerNumbers[0]!))
  // Report runs are worked as the service works them (the reporting group's month of statements).
  modules.reporting.runLoop.start({
    onError: (err) => process.stderr.write(`bench server: report run pass failed: ${String(err)}\n`),
  })
  await app.listen({ host: '127.0.0.1', port: Number(args.port) })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : Number(args.port)

  if (args.manifest) fs.writeFileSync(args.manifest, JSON.stringify(seeded.users))

  let profiler: Session | undefined
  if (args['cpu-prof']) {
    profiler = new Session()
    profiler.connect()
    await profiler.post('Profiler.enable')
    await profiler.post('Profiler.start')
  }

  let closing = false
  stop = async (reason: string) => {
    if (closing) return
    closing = true
    let code = 0
    try {
      if (profiler && args['cpu-prof']) {
        const { profile } = await profiler.post('Profiler.stop')
        fs.writeFileSync(args['cpu-prof'], JSON.stringify(profile))
        profiler.disconnect()
      }
      await app.close()
      await bus.close()
      await db.close()
    } catch (err) {
      process.stderr.write(
        `bench server: shutdown after ${reason} failed: ${err instanceof Error ? err.message : String(err)}\n`,
      )
      code = 1
    }
    removeDirs()
    process.exit(code)
  }
  if (process.env.BENCH_EXIT_WITH_PARENT === '1') {
    // The parent holds our stdin open; if it dies without stopping us, the pipe closes.
    process.stdin.on('end', () => void stop('parent gone'))
    process.stdin.resume()
  }

  process.stdout.write(
    `${JSON.stringify({
      event: 'ready',
      port,
      database: db.engine,
      tenantId,
      apiKey: seeded.apiKey,
      adminEmail: seeded.adminEmail,
      adminPassword: seeded.adminPassword,
      users: seeded.users.ids.length,
      sampleUserId: seeded.users.ids[0],
      sampleEmail: seeded.users.emails[0],
      quote: {
        dealerNumbers: rating.dealerNumbers,
        dealerProducts: rating.dealerProducts,
        vins: BENCH_VINS,
        importSeconds: rating.importSeconds,
        rates: rating.rates,
        ceilingBytes: quoteCeiling.length,
      },
    })}\n`,
  )
}

main().catch((err: unknown) => {
  process.stderr.write(`bench server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  removeDirs()
  process.exit(1)
})
