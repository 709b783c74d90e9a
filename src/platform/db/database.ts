// Database access for both engines: PGlite (embedded, default) through its node-postgres adapter,
// and PostgreSQL through pg. Kysely's PostgresDialect serves both, so SQL is identical.
//
// Tenancy: every tenant-owned table has row-level security FORCEd on `tenant_id =
// app_current_tenant()`, so the database itself refuses cross-tenant reads and writes. The
// tenant is bound to a connection when it is checked out: the pool wrapper reads the tenant of the
// current unit of work (AsyncLocalStorage) and sets `app.tenant_id` only when the connection was
// last used for another tenant, so steady-state requests pay no extra round trip
// (docs/decisions/0002-tenant-binding.md).
import { AsyncLocalStorage } from 'node:async_hooks'
import fs from 'node:fs'
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely'
import pg from 'pg'
import type { DB } from './schema.ts'

// int8 ids and counts are well within 2^53; numeric stays a string (money is decimal, never float).
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v))
// timestamptz as Date is pg's default; date columns stay 'YYYY-MM-DD' strings (no time-zone shifts).
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v)

export type Executor = Kysely<DB> | Transaction<DB>

type AfterCommit = () => Promise<void> | void

/** Where the database layer reports what happens beside any request (connections lost, after-commit work that failed). */
export type DatabaseLog = {
  warn(obj: Record<string, unknown>, msg: string): void
  error(obj: Record<string, unknown>, msg: string): void
}
type UnitOfWork = { tenantId: number | null; tx?: Transaction<DB>; afterCommit?: AfterCommit[] }

/** The role the embedded database runs the application as: not a superuser, no BYPASSRLS. */
export const EMBEDDED_APP_ROLE = 'vpp_app'

export type Database = {
  readonly engine: 'pglite' | 'postgres'
  readonly kysely: Kysely<DB>
  /**
   * Runs `fn` with an executor bound to `tenantId` (null: no tenant, so every tenant-owned row is
   * invisible). Joins the ambient transaction of the same tenant when there is one.
   */
  read<T>(tenantId: number | null, fn: (db: Executor) => Promise<T>): Promise<T>
  /** Runs `fn` in a transaction bound to `tenantId`; joins an ambient transaction of that tenant. */
  transaction<T>(tenantId: number | null, fn: (tx: Transaction<DB>) => Promise<T>): Promise<T>
  /** Runs `fn` with `tx` as the ambient transaction, so nested read/transaction calls join it. */
  withAmbient<T>(tenantId: number | null, tx: Transaction<DB>, fn: () => Promise<T>): Promise<T>
  /**
   * Runs `fn` once the outermost transaction around the caller has committed (at once when there
   * is none). For announcing a change (cache invalidation) that other readers must not see before
   * the change itself: a service's own transaction may be joined into a request's (Idempotency-Key).
   * Not run when the transaction rolls back. A failure of `fn` is logged, never thrown: the change
   * is committed, so the request that made it must not answer as though it failed.
   */
  afterCommit(fn: AfterCommit): Promise<void>
  ping(): Promise<void>
  close(): Promise<void>
  /**
   * The embedded database's files as one archive, which `openPglite(…, { from })` opens as a copy
   * (the test suite migrates once and gives each test file its own copy). Absent on PostgreSQL.
   */
  snapshot?(): Promise<Blob>
}

type TenantBoundClient = pg.PoolClient & { __boundTenant?: string; __prepares?: boolean }

/** Distinct statement texts that get a prepared-statement name; beyond it statements run unnamed. */
const MAX_NAMED_STATEMENTS = 5000
const MAX_NAMED_STATEMENT_LENGTH = 20_000

/**
 * Names parameterised statements so that each connection parses and plans a statement once and
 * then only binds and executes it: planning cost more than running the hot lookups. The name is
 * stable per text (a map, not a hash per call) and the map is bounded.
 */
function createStatementNamer() {
  const names = new Map<string, string>()
  return (text: string): string | undefined => {
    let name = names.get(text)
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS && text.length <= MAX_NAMED_STATEMENT_LENGTH) {
      name = `vpp_${names.size}`
      names.set(text, name)
    }
    return name
  }
}

function usePreparedStatements(client: TenantBoundClient, nameFor: (text: string) => string | undefined): void {
  if (client.__prepares) return
  client.__prepares = true
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  ;(client as unknown as { query: (...args: unknown[]) => unknown }).query = (
    text: unknown,
    values?: unknown,
    callback?: unknown,
  ) => {
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
      const name = nameFor(text)
      if (name) return query({ name, text, values })
    }
    return callback === undefined
      ? values === undefined
        ? query(text)
        : query(text, values)
      : query(text, values, callback)
  }
}

function createBindingPool(pool: pg.Pool, als: AsyncLocalStorage<UnitOfWork>, prepare: boolean) {
  const nameFor = createStatementNamer()
  // Kysely only calls connect() and end(); each checkout re-asserts the tenant of the unit of work.
  return {
    async connect(): Promise<pg.PoolClient> {
      const want = String(als.getStore()?.tenantId ?? '')
      const client = (await pool.connect()) as TenantBoundClient
      if (prepare) usePreparedStatements(client, nameFor)
      if (client.__boundTenant !== want) {
        try {
          await client.query("select set_config('app.tenant_id', $1, false)", [want])
        } catch (err) {
          client.release(err as Error)
          throw err
        }
        client.__boundTenant = want
      }
      return client
    },
    end: () => pool.end(),
  }
}

function wrap(
  engine: 'pglite' | 'postgres',
  pool: pg.Pool,
  onClose: () => Promise<void>,
  prepare: boolean,
  log: DatabaseLog,
): Database {
  const als = new AsyncLocalStorage<UnitOfWork>()
  const kysely = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: createBindingPool(pool, als, prepare) as unknown as pg.Pool }),
  })
  const ambient = (tenantId: number | null): Transaction<DB> | undefined => {
    const store = als.getStore()
    if (!store?.tx) return undefined
    // Inside a unit of work all access goes through its transaction (the embedded database has a
    // single connection, so anything else would wait forever); another tenant there is a bug.
    if (store.tenantId !== tenantId) throw new Error('database access for another tenant inside a unit of work')
    return store.tx
  }
  return {
    engine,
    kysely,
    read(tenantId, fn) {
      const tx = ambient(tenantId)
      if (tx) return fn(tx)
      return als.run({ tenantId }, () => fn(kysely))
    },
    transaction(tenantId, fn) {
      const tx = ambient(tenantId)
      if (tx) return fn(tx)
      return als.run({ tenantId }, async () => {
        const afterCommit: AfterCommit[] = []
        const result = await kysely
          .transaction()
          .execute((trx) => als.run({ tenantId, tx: trx, afterCommit }, () => fn(trx)))
        for (const run of afterCommit) {
          try {
            await run()
          } catch (err) {
            log.error({ err }, 'work announced after a commit failed; the change itself is committed')
          }
        }
        return result
      })
    },
    withAmbient(tenantId, tx, fn) {
      const current = als.getStore()
      return als.run(
        { tenantId, tx, ...(current?.tx === tx && current.afterCommit ? { afterCommit: current.afterCommit } : {}) },
        fn,
      )
    },
    async afterCommit(fn) {
      const pending = als.getStore()?.afterCommit
      if (pending) {
        pending.push(fn)
        return
      }
      try {
        await fn()
      } catch (err) {
        log.error({ err }, 'work announced after a commit failed; the change itself is committed')
      }
    },
    async ping() {
      await als.run({ tenantId: null }, () => sql`select 1`.execute(kysely))
    },
    async close() {
      await kysely.destroy()
      await onClose()
    },
  }
}

/** How long a request waits for a connection (a free one from the pool, or a new one) before it is refused with 503. */
export const CONNECT_TIMEOUT_MS = 5_000

const consoleLog: DatabaseLog = {
  warn: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj, errorFields)}\n`),
  error: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj, errorFields)}\n`),
}
function errorFields(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message, code: (value as { code?: unknown }).code } : value
}

export type PostgresOptions = {
  /**
   * false for deployments behind a transaction-pooling proxy (PgBouncer in transaction mode), where
   * a statement prepared on one server connection is unknown on the next.
   */
  preparedStatements?: boolean
  log?: DatabaseLog
  connectTimeoutMs?: number
}

/**
 * A restart, failover or network reset of the database is an ordinary event here: every client the
 * pool creates gets an 'error' listener for its whole life, because pg emits 'error' on a client
 * whose connection drops and pg-pool listens only while the client is idle in the pool; an 'error'
 * on a checked-out client with no listener would end the process. The query that was running fails
 * (a connection failure, answered 503), the transaction it belonged to is gone with its backend
 * (never half-committed), the broken client is discarded when released (pg-pool drops clients that
 * are no longer queryable), and the next checkout opens a new connection.
 */
export async function openPostgres(url: string, poolSize: number, options: PostgresOptions = {}): Promise<Database> {
  const log = options.log ?? consoleLog
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    // While the database is away a request fails after this long instead of queueing forever.
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    // Notices a silently dropped connection (a network reset with no FIN) instead of waiting on it for hours.
    keepAlive: true,
    allowExitOnIdle: true,
  })
  // Lost connections come in bursts (every pooled connection at once on a restart): one line per burst.
  let lastWarnedAt = 0
  const lost = (err: Error) => {
    const now = Date.now()
    if (now - lastWarnedAt < 1_000) return
    lastWarnedAt = now
    log.warn({ err }, 'database connection lost; the pool reconnects on demand')
  }
  pool.on('connect', (client) => {
    client.on('error', lost)
  })
  pool.on('error', (err) => {
    // An idle client lost its connection; pg-pool has already removed it.
    lost(err)
  })
  return wrap('postgres', pool, async () => {}, options.preparedStatements ?? true, log)
}

/**
 * Opens (creating if needed) the embedded database in `dataDir` ('memory://' for a throwaway one).
 * The application runs as EMBEDDED_APP_ROLE so row-level security binds it as on PostgreSQL.
 */
export async function openPglite(dataDir: string, options: { from?: Blob } = {}): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres')
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true })
  const pglite = await PGlite.create(dataDir, options.from ? { loadDataDir: options.from } : {})
  await pglite.exec(`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${EMBEDDED_APP_ROLE}') then
        create role ${EMBEDDED_APP_ROLE} nosuperuser nobypassrls nologin;
      end if;
    end $$;
    grant create, usage on schema public to ${EMBEDDED_APP_ROLE};
    set role ${EMBEDDED_APP_ROLE};
  `)
  const pool = new pg.Pool({ ...(createPgConfig(pglite) as unknown as pg.PoolConfig), allowExitOnIdle: true })
  const db = wrap(
    'pglite',
    pool,
    async () => {
      await pglite.close()
    },
    true,
    consoleLog,
  )
  return { ...db, snapshot: () => pglite.dumpDataDir('none') }
}
