// The database going away is an ordinary event: connection failures are told apart from faults
// (503 database_unavailable with Retry-After, not 500), a connection dropped under a checked-out
// client does not end the process and never half-commits, readiness reports the database and the
// invalidation bus, work announced after a commit never fails the committed request, and the bus
// reconnects by itself, sends what it held and makes every cache forget what it may have missed.
// The PostgreSQL cases terminate real backends (pg_terminate_backend); scripts/fault-tests.ts
// restarts and kills the server itself.
import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import pg from 'pg'
import {
  cachesUnsynchronised,
  createInvalidationBus,
  createTtlCache,
  forgetAllCachedValues,
  type BusStatus,
  type InvalidationBus,
} from '../src/platform/cache.ts'
import { createManualClock } from '../src/platform/clock.ts'
import { isDatabaseUnavailable } from '../src/platform/db/connection-failure.ts'
import { openPostgres, type Database } from '../src/platform/db/database.ts'
import { closeAtEnd, createTenant, createTestApp, json, type TestApp, type TestTenant } from './harness.ts'

const DATABASE_URL = process.env.DATABASE_URL
/** The bus's session connection, as the service reads it (src/config.ts): past PgBouncer, when one is in front. */
const LISTEN_URL = process.env.DATABASE_LISTEN_URL || DATABASE_URL
const NEEDS_POSTGRES = DATABASE_URL
  ? false
  : 'needs DATABASE_URL: the embedded database runs in this process and has no connection to lose'

const POOL_NAME = `vpp-faults-test-${process.pid}`
const quiet = { info() {}, warn() {}, error() {} }

/** Waits until `check` holds, polling; fails naming `what` after `seconds`. */
async function eventually(what: string, check: () => boolean | Promise<boolean>, seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`still not true after ${seconds} s: ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** A TCP port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('connection failures are classified', () => {
  const error = (fields: Record<string, unknown>, message = 'x') => Object.assign(new Error(message), fields)
  const cases: Array<[string, unknown, boolean]> = [
    ['connection refused', error({ code: 'ECONNREFUSED' }, 'connect ECONNREFUSED 127.0.0.1:5432'), true],
    ['connection reset', error({ code: 'ECONNRESET' }), true],
    ['broken pipe', error({ code: 'EPIPE' }), true],
    ['name resolution during failover', error({ code: 'EAI_AGAIN' }), true],
    [
      'every address refused (AggregateError)',
      new AggregateError([error({ code: 'ECONNREFUSED' }), error({ code: 'ECONNREFUSED' })]),
      true,
    ],
    [
      '57P01 admin_shutdown (fast shutdown, pg_terminate_backend)',
      error({ code: '57P01' }, 'terminating connection due to administrator command'),
      true,
    ],
    ['57P02 crash_shutdown', error({ code: '57P02' }), true],
    [
      '57P03 cannot_connect_now (starting up, shutting down)',
      error({ code: '57P03' }, 'the database system is starting up'),
      true,
    ],
    ['53300 too_many_connections', error({ code: '53300' }), true],
    ['08006 connection_failure', error({ code: '08006' }), true],
    ['08001 sqlclient_unable_to_establish_sqlconnection', error({ code: '08001' }), true],
    ['pg: connection dropped under a query', new Error('Connection terminated unexpectedly'), true],
    ['pg: connection timeout', new Error('Connection terminated due to connection timeout'), true],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect'), true],
    [
      'pg: client broken by an earlier drop',
      new Error('Client has encountered a connection error and is not queryable'),
      true,
    ],
    ['wrapped in a cause', new Error('query failed', { cause: error({ code: 'ECONNRESET' }) }), true],
    ['23505 unique_violation', error({ code: '23505' }, 'duplicate key value violates unique constraint'), false],
    ['40001 serialization_failure', error({ code: '40001' }), false],
    ['57014 query_canceled', error({ code: '57014' }), false],
    ['42P01 undefined_table', error({ code: '42P01' }), false],
    ['a programming error', new TypeError('cannot read properties of undefined'), false],
    [
      'an AggregateError with one real fault',
      new AggregateError([error({ code: 'ECONNREFUSED' }), new TypeError('boom')]),
      false,
    ],
    ['not an error', 'Connection terminated', false],
    ['null', null, false],
  ]
  for (const [name, err, expected] of cases) {
    test(`${name}: ${expected ? 'database unavailable' : 'not a connection failure'}`, () => {
      assert.equal(isDatabaseUnavailable(err), expected)
    })
  }
})

/**
 * The test database until `goDown()`, then a pool pointed at a port nobody listens on: what every
 * request meets once PostgreSQL has gone away under a running service.
 */
async function databaseThatGoesAway(real: Database): Promise<{ db: Database; goDown(): void }> {
  const dead = await openPostgres(`postgres://vpp_app:vpp_app@127.0.0.1:${await closedPort()}/vpp`, 2, { log: quiet })
  closeAtEnd(() => dead.close())
  let down = false
  const current = () => (down ? dead : real)
  const db: Database = {
    engine: real.engine,
    get kysely() {
      return current().kysely
    },
    read: (tenantId, fn) => current().read(tenantId, fn),
    reportRead: (tenantId, fn) => current().reportRead(tenantId, fn),
    get hasReadReplica() {
      return current().hasReadReplica
    },
    transaction: (tenantId, fn) => current().transaction(tenantId, fn),
    withAmbient: (tenantId, tx, fn) => current().withAmbient(tenantId, tx, fn),
    afterCommit: (fn) => current().afterCommit(fn),
    ping: () => current().ping(),
    close: async () => {},
  }
  return {
    db,
    goDown: () => {
      down = true
    },
  }
}

describe('while the database cannot be reached', () => {
  let t: TestApp
  let tenant: TestTenant
  let app: FastifyInstance
  before(async () => {
    t = await createTestApp()
    tenant = await createTenant(t, 'Database away')
    const away = await databaseThatGoesAway(t.db)
    app = (await createTestApp({ db: away.db, clock: t.clock, bus: t.bus })).app
    // Warm: the API key and the principal are cached, as on a busy instance.
    const warm = await app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: tenant.headers })
    assert.equal(warm.statusCode, 200, warm.body)
    away.goDown()
  })
  after(() => t.close())

  const assertDatabaseUnavailable = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
    assert.equal(res.statusCode, 503, res.body)
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
    const body = JSON.parse(res.body) as { code: string; retryAfterSeconds: number }
    assert.equal(body.code, 'database_unavailable')
    assert.ok(Number(res.headers['retry-after']) >= 1)
    assert.equal(body.retryAfterSeconds, Number(res.headers['retry-after']))
  }

  test('a request past warm caches answers 503 database_unavailable with Retry-After, not 500', async () => {
    assertDatabaseUnavailable(await app.inject({ method: 'GET', url: '/api/v1/adminusers', headers: tenant.headers }))
  })

  test('so does one whose credentials must be looked up', async () => {
    assertDatabaseUnavailable(
      await app.inject({
        method: 'GET',
        url: '/api/v1/adminusers',
        headers: { 'x-api-key': `vpk_${tenant.tenantId}_${'a'.repeat(43)}`, authorization: 'Bearer x.y.z' },
      }),
    )
  })

  test('readiness answers 503 naming the database; liveness stays 200', async () => {
    const ready = await app.inject({ method: 'GET', url: '/health/ready' })
    assert.equal(ready.statusCode, 503, ready.body)
    const body = json<{ code: string; checks: Record<string, string> }>(ready)
    assert.equal(body.code, 'service_unavailable')
    assert.deepEqual(body.checks, { database: 'down', invalidationBus: 'up' })
    assert.equal((await app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200)
  })
})

describe('readiness and the invalidation bus', () => {
  let t: TestApp
  let app: FastifyInstance
  let busState: BusStatus['state'] = 'listening'
  before(async () => {
    t = await createTestApp()
    // A bus whose state the test sets: the real reconnection is exercised on PostgreSQL below.
    const real = await createInvalidationBus(undefined)
    const bus: InvalidationBus = { ...real, status: () => ({ ...real.status(), mode: 'postgres', state: busState }) }
    app = (await createTestApp({ db: t.db, clock: t.clock, bus })).app
  })
  after(() => t.close())

  test('ready while the database answers and the bus listens', async () => {
    busState = 'listening'
    const res = await app.inject({ method: 'GET', url: '/health/ready' })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(json(res), { status: 'ready' })
  })

  test('not ready while the bus is reconnecting', async () => {
    busState = 'reconnecting'
    const res = await app.inject({ method: 'GET', url: '/health/ready' })
    assert.equal(res.statusCode, 503, res.body)
    assert.deepEqual(json<{ checks: unknown }>(res).checks, { database: 'up', invalidationBus: 'down' })
  })

  test("the embedded database's in-process bus is always listening", async () => {
    const bus = await createInvalidationBus(undefined)
    assert.equal(bus.status().mode, 'local')
    assert.equal(bus.status().state, 'listening')
    let seen = ''
    bus.subscribe('topic', (key) => {
      seen = key
    })
    await bus.publish('topic', '1:')
    assert.equal(seen, '1:')
  })
})

describe('work announced after a commit', () => {
  let t: TestApp
  let tenant: TestTenant
  before(async () => {
    t = await createTestApp()
    tenant = await createTenant(t, 'After-commit failure')
  })
  after(() => t.close())

  test('a failing announcement does not fail the committed transaction', async () => {
    const result = await t.db.transaction(tenant.tenantId, async (tx) => {
      await sql`update tenant set name = 'After-commit failure 2' where id = ${tenant.tenantId}`.execute(tx)
      await t.db.afterCommit(() => {
        throw new Error('announcement failed')
      })
      return 'done'
    })
    assert.equal(result, 'done')
    const row = await t.db.read(null, (x) =>
      x.selectFrom('tenant').select('name').where('id', '=', tenant.tenantId).executeTakeFirstOrThrow(),
    )
    assert.equal(row.name, 'After-commit failure 2')
  })

  test('nor does one outside any transaction', async () => {
    await t.db.afterCommit(() => Promise.reject(new Error('announcement failed')))
  })
})

test('forgetAllCachedValues empties every cache of the process', async () => {
  const clock = createManualClock(new Date())
  const a = createTtlCache<number>({ ttlMs: 60_000, maxEntries: 10, clock })
  const b = createTtlCache<string>({ ttlMs: 60_000, maxEntries: 10, clock })
  a.set('1:x', 1)
  b.set('2:y', 'y')
  forgetAllCachedValues()
  assert.equal(a.get('1:x'), undefined)
  assert.equal(b.get('2:y'), undefined)
  // A load that started before the flush does not put its (possibly stale) value back.
  let release: (v: number) => void = () => {}
  const loading = a.getOrLoad(
    '1:x',
    () =>
      new Promise<number>((r) => {
        release = r
      }),
  )
  forgetAllCachedValues()
  release(7)
  assert.equal(await loading, 7)
  assert.equal(a.get('1:x'), undefined)
})

describe('on PostgreSQL', { skip: NEEDS_POSTGRES }, () => {
  let t: TestApp
  let tenant: TestTenant
  let admin: pg.Client
  let db: Database
  const terminate = async (pid: number) => {
    const res = await admin.query<{ ok: boolean }>('select pg_terminate_backend($1) as ok', [pid])
    assert.equal(res.rows[0]?.ok, true, `backend ${pid} was terminated`)
  }

  before(async () => {
    t = await createTestApp()
    tenant = await createTenant(t, 'Database faults')
    // Terminating a backend of the same role needs no superuser (pg_signal_backend rules).
    admin = new pg.Client({ connectionString: DATABASE_URL })
    await admin.connect()
    closeAtEnd(() => admin.end())
    // Its own application_name, so that terminating "every connection of the pool" touches no
    // connection of another test process sharing the database.
    const url = new URL(DATABASE_URL!)
    url.searchParams.set('application_name', POOL_NAME)
    db = await openPostgres(url.toString(), 2, { log: quiet })
    closeAtEnd(() => db.close())
  })
  after(() => t.close())

  test('a connection dropped inside a transaction: the process lives, nothing is committed, the pool reconnects', async () => {
    const name = `faults-${Date.now()}`
    let pid = 0
    const failed = await db
      .transaction(tenant.tenantId, async (tx) => {
        await sql`update tenant set name = ${name} where id = ${tenant.tenantId}`.execute(tx)
        pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)).rows[0]!.pid
        // Killed while idle in the transaction, checked out of the pool: pg emits 'error' on the
        // client with no query to hand it to, which ended the process when nothing listened.
        await terminate(pid)
        await eventually(
          'the terminated backend is gone',
          async () => (await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount === 0,
        )
        await sql`select 1`.execute(tx)
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      )
    assert.ok(failed, 'the transaction failed')
    assert.equal(isDatabaseUnavailable(failed), true, `classified as a connection failure: ${String(failed)}`)
    const row = await db.read(null, (x) =>
      x.selectFrom('tenant').select('name').where('id', '=', tenant.tenantId).executeTakeFirstOrThrow(),
    )
    assert.notEqual(row.name, name, 'the interrupted transaction left nothing behind')
    const now = await db.read(
      null,
      async (x) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(x)).rows[0]!.pid,
    )
    assert.notEqual(now, pid, 'served by a new connection')
  })

  test('every pooled connection terminated: the next queries open new ones', async () => {
    await Promise.all([1, 2].map(() => db.read(null, (x) => sql`select pg_sleep(0.05)`.execute(x))))
    const pids = (
      await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [POOL_NAME])
    ).rows.map((r) => r.pid)
    for (const pid of pids) await admin.query('select pg_terminate_backend($1)', [pid])
    // Idle connections may be found dead at checkout; a request then fails once at most (503) and
    // the pool has replaced them by the following one.
    await db
      .read(null, (x) => sql`select 1`.execute(x))
      .catch((err: unknown) => assert.equal(isDatabaseUnavailable(err), true, String(err)))
    await db
      .read(null, (x) => sql`select 1`.execute(x))
      .catch((err: unknown) => assert.equal(isDatabaseUnavailable(err), true, String(err)))
    await eventually('a query succeeds again', () =>
      db
        .read(null, (x) => sql`select 1`.execute(x))
        .then(
          () => true,
          () => false,
        ),
    )
  })

  test('the bus connection terminated: publishing does not fail, the bus reconnects, the other instance hears it, caches are flushed', async () => {
    const a = await createInvalidationBus(LISTEN_URL, { log: quiet })
    const b = await createInvalidationBus(LISTEN_URL, { log: quiet })
    closeAtEnd(() => a.close())
    closeAtEnd(() => b.close())
    const heard: string[] = []
    b.subscribe('faults.test', (key) => heard.push(key))
    const cache = createTtlCache<number>({ ttlMs: 60_000, maxEntries: 10, clock: createManualClock(new Date()) })
    cache.set('1:cached-before', 1)

    const pid = a.status().backendPid
    assert.ok(pid, 'the bus reports its backend')
    await terminate(pid)
    // Whether or not the loss has been noticed yet, publishing resolves: the change is committed.
    await a.publish('faults.test', '1:during')
    await eventually('bus A is listening again', () => a.status().state === 'listening' && a.status().reconnects >= 1)
    assert.notEqual(a.status().backendPid, pid)
    await eventually('the other instance heard the announcement made while the bus was away', () =>
      heard.includes('1:during'),
    )
    assert.equal(cache.get('1:cached-before'), undefined, 'what was cached before the loss was forgotten')
    assert.equal(a.status().pendingPublishes, 0)

    await a.publish('faults.test', '1:after')
    await eventually('the other instance hears announcements after the reconnection', () => heard.includes('1:after'))
  })

  test('while the bus is reconnecting: readiness says so and caches keep values only briefly', async () => {
    // A slow first retry, so the reconnecting state lasts long enough to be looked at.
    const bus = await createInvalidationBus(LISTEN_URL, { log: quiet, reconnectInitialMs: 3_000 })
    closeAtEnd(() => bus.close())
    const { app } = await createTestApp({ db: t.db, clock: t.clock, bus })
    assert.equal((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200)

    await terminate(bus.status().backendPid!)
    await eventually('the bus noticed the loss', () => bus.status().state === 'reconnecting')
    const res = await app.inject({ method: 'GET', url: '/health/ready' })
    assert.equal(res.statusCode, 503, res.body)
    assert.deepEqual(json<{ checks: unknown }>(res).checks, { database: 'up', invalidationBus: 'down' })
    assert.equal(cachesUnsynchronised(), true)

    await eventually('the bus reconnected', () => bus.status().state === 'listening')
    assert.equal((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200)
  })
})
