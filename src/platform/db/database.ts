// Database access for both engines: PGlite (embedded, default) through its node-postgres adapter,
// and PostgreSQL through pg. Kysely's PostgresDialect serves both, so SQL is identical.
//
// Tenancy: every tenant-owned table has row-level security FORCEd on `tenant_id =
// app_current_tenant()`, so the database itself refuses cross-tenant reads and writes. The
// tenant is bound per transaction, never per session: every unit of work (read or write) is one
// transaction whose `begin` and `set local app.tenant_id = …` travel with its first statement in
// one pipeline (BoundStatement), so the binding costs no round trip and ends with the transaction. A transaction-pooling proxy (PgBouncer) may give
// each transaction another server connection, and a session binding would then leak to, or be
// missing from, the next client's statements (docs/decisions/0011-tenant-binding-per-transaction.md).
// A statement run outside a unit of work has no tenant: every tenant-owned row is invisible to it.
import { AsyncLocalStorage } from 'node:async_hooks'
import fs from 'node:fs'
import path from 'node:path'
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type Transaction,
  type TransactionSettings,
} from 'kysely'
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
type UnitOfWork = {
  tenantId: number | null
  tx?: Transaction<DB>
  afterCommit?: AfterCommit[]
  /** A write joined this unit's transaction (its commit must then be awaited). */
  wrote?: boolean
  /** The connection this unit checked out (set at checkout, on the unit's outer store). */
  client?: PreparingClient
  /** A read that wrote nothing: its commit is sent with the connection's release, not awaited. */
  deferCommit?: boolean
}

/** The role the embedded database runs the application as: not a superuser, no BYPASSRLS. */
export const EMBEDDED_APP_ROLE = 'vpp_app'

export type Database = {
  readonly engine: 'pglite' | 'postgres'
  readonly kysely: Kysely<DB>
  /**
   * Runs `fn` with an executor bound to `tenantId` (null: no tenant, so every tenant-owned row is
   * invisible): one transaction, so the binding holds for every statement of `fn` and for no
   * other. Joins the ambient transaction of the same tenant when there is one.
   */
  read<T>(tenantId: number | null, fn: (db: Executor) => Promise<T>): Promise<T>
  /**
   * A report-style read (lists, statements, summaries, exports) that may run on the read replica
   * (DATABASE_READ_URL) and so may not yet see the latest commits (docs/scale-out.md). Without a
   * replica, and inside a unit of work (a caller that must see its own writes), it is `read`.
   */
  reportRead<T>(tenantId: number | null, fn: (db: Executor) => Promise<T>): Promise<T>
  /** Whether reportRead goes to a replica. */
  readonly hasReadReplica: boolean
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

type PreparingClient = pg.PoolClient & {
  __prepares?: boolean
  /** A transaction's begin and tenant binding, not sent yet: they travel with its first statement. */
  __pendingBegin?: readonly string[]
  /** The commit of the read this connection last served, not sent yet (commitOnRelease). */
  __owedCommit?: boolean
  __checkedOut?: boolean
}

/** The parts of pg's wire connection a statement sends its messages through. */
type WireConnection = {
  parse(message: { text: string; name?: string }): void
  bind(message: { portal?: string; statement?: string; values?: unknown[] }): void
  execute(message: { portal?: string; rows?: number }): void
}
type QueryInternals = {
  prepare(connection: WireConnection): void
  handleCommandComplete(message: unknown, connection: WireConnection): void
}
const PgQuery = pg.Query as unknown as new (
  config: { text: string; name?: string; values: unknown[] },
  values: undefined,
  callback: (err: Error | undefined, result: pg.QueryResult) => void,
) => QueryInternals

/**
 * A statement sent with its transaction's `begin` and tenant binding in one write, as one pipeline
 * of the extended protocol (Parse/Bind/Execute of each prefix statement, then the statement's own
 * Parse/Bind/Describe/Execute, then Sync): the binding costs no round trip. The prefix answers
 * with a CommandComplete each, which are not part of the statement's result. If the statement
 * fails, the transaction is already open (in its failed state) and is rolled back as any other.
 */
class BoundStatement extends PgQuery {
  readonly #prefix: readonly string[]
  #prefixAnswers: number
  constructor(
    prefix: readonly string[],
    config: { text: string; name?: string; values: unknown[] },
    callback: (err: Error | undefined, result: pg.QueryResult) => void,
  ) {
    super(config, undefined, callback)
    this.#prefix = prefix
    this.#prefixAnswers = prefix.length
  }
  override prepare(connection: WireConnection): void {
    for (const text of this.#prefix) {
      connection.parse({ text })
      connection.bind({})
      connection.execute({})
    }
    super.prepare(connection)
  }
  override handleCommandComplete(message: unknown, connection: WireConnection): void {
    if (this.#prefixAnswers > 0) {
      this.#prefixAnswers--
      return
    }
    super.handleCommandComplete(message, connection)
  }
}

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

/**
 * DATABASE_STATEMENT_LOG=<dir>: every distinct statement text this process sends is appended once,
 * as a JSON line, to `<dir>/<pid>.jsonl`, for the check that every statement on a tenant table names
 * tenant_id (scripts/check-tenant-routing.ts, docs/scale-out.md). Off unless set.
 */
function createStatementLog(dir: string | undefined): ((text: string) => void) | undefined {
  if (!dir) return undefined
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${process.pid}.jsonl`)
  const seen = new Set<string>()
  return (text) => {
    if (seen.has(text)) return
    seen.add(text)
    fs.appendFileSync(file, `${JSON.stringify({ sql: text })}\n`)
  }
}

function instrumentClient(
  client: PreparingClient,
  nameFor: ((text: string) => string | undefined) | undefined,
  logStatement: ((text: string) => void) | undefined,
): void {
  if (client.__prepares) return
  client.__prepares = true
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
  ;(client as unknown as { query: (...args: unknown[]) => unknown }).query = (
    text: unknown,
    values?: unknown,
    callback?: unknown,
  ) => {
    if (typeof text === 'string') logStatement?.(text)
    const pending = client.__pendingBegin
    const owed = client.__owedCommit === true
    if ((pending || owed) && typeof text === 'string' && callback === undefined) {
      client.__pendingBegin = undefined
      // Nothing ran in the transaction: it was never begun, so there is nothing to end (a commit
      // owed by the read before stays owed).
      if (pending && /^(commit|rollback)$/i.test(text)) {
        return Promise.resolve({ command: text.toUpperCase(), rowCount: null, rows: [], fields: [] })
      }
      client.__owedCommit = false
      const prefix = owed ? ['commit', ...(pending ?? [])] : (pending ?? [])
      if (Array.isArray(values) && values.length > 0) {
        const name = nameFor?.(text)
        return new Promise((resolve, reject) => {
          void query(
            new BoundStatement(prefix, name ? { name, text, values } : { text, values }, (err, result) =>
              err ? reject(err) : resolve(result),
            ),
          )
        })
      }
      // A statement without parameters goes by the simple protocol: what is owed goes first.
      return query(prefix.join('; ')).then(() => (values === undefined ? query(text) : query(text, values)))
    }
    if (pending || owed) {
      // Any other form of call (a config object, a callback): what is owed goes first, on its own.
      client.__pendingBegin = undefined
      client.__owedCommit = false
      void query((owed ? ['commit', ...(pending ?? [])] : (pending ?? [])).join('; ')).catch(() => {})
    }
    if (nameFor && typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
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

/**
 * A read's commit is not awaited (TenantBindingDriver.commitTransaction) and not even sent on its
 * own if it can travel with the next statement on the connection: at release the connection owes
 * it, and the next statement sent on it (the next unit's, usually at once under load, since the
 * pool hands a released connection straight to a waiting request) carries it at the head of its
 * pipeline (BoundStatement). A connection nobody takes before the event loop turns sends it alone,
 * so a read's transaction stays open for no longer than that (PgBouncer keeps the server
 * connection for it meanwhile). Either way pg sends a connection's messages in order, so nothing
 * of the next user's runs inside the read's transaction. Wrapped at every checkout, since pg-pool
 * gives the client a new `release` each time.
 */
function commitOnRelease(client: PreparingClient, deferredCommitFailed: (err: unknown) => void): void {
  const release = client.release
  client.__checkedOut = true
  client.release = (err?: Error | boolean) => {
    // A begin that never met a statement was never sent; the next user starts clean.
    client.__pendingBegin = undefined
    client.__checkedOut = false
    if (client.__owedCommit) {
      // A connection being discarded takes its transaction with it.
      if (err) client.__owedCommit = false
      else
        setImmediate(() => {
          if (!client.__owedCommit || client.__checkedOut) return
          client.__owedCommit = false
          client.query('commit').catch(deferredCommitFailed)
        })
    }
    release(err)
  }
}

function createInstrumentedPool(
  pool: pg.Pool,
  prepare: boolean,
  checkedOut: (client: PreparingClient) => void,
  log: DatabaseLog,
) {
  const nameFor = prepare ? createStatementNamer() : undefined
  const logStatement = createStatementLog(process.env.DATABASE_STATEMENT_LOG)
  const deferredCommitFailed = (err: unknown) => {
    // Closing the pool ends connections whose read commits are still queued: nothing was lost.
    if ((pool as { ending?: boolean }).ending) return
    log.warn({ err }, "a read's commit failed after its result was served; the connection is dropped")
  }
  // Kysely only calls connect() and end(). No session state is set here: the tenant is bound by
  // the transaction that runs the unit of work (TenantBindingDriver).
  return {
    async connect(): Promise<pg.PoolClient> {
      const client = (await pool.connect()) as PreparingClient
      instrumentClient(client, nameFor, logStatement)
      commitOnRelease(client, deferredCommitFailed)
      checkedOut(client)
      return client
    },
    end: () => pool.end(),
  }
}

/**
 * The `begin` of every transaction and the binding of the unit of work's tenant for that transaction
 * only (the tenant id is an integer checked here, so inlining it is safe). They are sent with the
 * transaction's first statement (BoundStatement). `SET LOCAL` is undone at commit or rollback; it is
 * also the form Citus forwards to the workers a transaction touches
 * (`citus.propagate_set_commands = 'local'`), where a `set_config()` call would not be
 * (docs/scale-out.md).
 */
export function beginBoundStatement(tenantId: number | null, settings: TransactionSettings = {}): string {
  return beginBoundStatements(tenantId, settings).join('; ')
}

/** The same two statements, apart: the driver sends them ahead of the transaction's first statement. */
function beginBoundStatements(tenantId: number | null, settings: TransactionSettings = {}): readonly string[] {
  if (tenantId !== null && !(Number.isSafeInteger(tenantId) && tenantId > 0)) {
    throw new Error(`not a tenant id: ${String(tenantId)}`)
  }
  let begin = 'begin'
  if (settings.isolationLevel || settings.accessMode) {
    begin = 'start transaction'
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`
    if (settings.accessMode) begin += ` ${settings.accessMode}`
  }
  return [begin, `set local app.tenant_id = '${tenantId ?? ''}'`]
}

/** What the driver asks of the unit of work it runs in. */
type UnitHooks = {
  tenantOf(): number | null
  /** The unit's connection, where its begin waits for the first statement. */
  clientOf(): PreparingClient | undefined
  /** True when the unit is a read that wrote nothing: its commit then goes with the release. */
  deferCommit(): boolean
}

class TenantBindingDriver extends PostgresDriver {
  readonly #unit: UnitHooks
  constructor(config: PostgresDialectConfig, unit: UnitHooks) {
    super(config)
    this.#unit = unit
  }
  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const statements = beginBoundStatements(this.#unit.tenantOf(), settings)
    const client = this.#unit.clientOf()
    // Sent with the transaction's first statement (BoundStatement), or on its own when none is known.
    if (client) client.__pendingBegin = statements
    else await connection.executeQuery(CompiledQuery.raw(statements.join('; ')))
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A read has nothing to commit that could fail; awaiting its commit would only hold the
    // connection one round trip longer. The connection owes it, and sends it with its next statement (commitOnRelease).
    if (this.#unit.deferCommit()) return
    await super.commitTransaction(connection)
  }
}

class TenantBindingDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig
  readonly #unit: UnitHooks
  constructor(config: PostgresDialectConfig, unit: UnitHooks) {
    super(config)
    this.#config = config
    this.#unit = unit
  }
  override createDriver(): Driver {
    return new TenantBindingDriver(this.#config, this.#unit)
  }
}

function wrap(
  engine: 'pglite' | 'postgres',
  pool: pg.Pool,
  onClose: () => Promise<void>,
  prepare: boolean,
  log: DatabaseLog,
  replicaPool?: pg.Pool,
): Database {
  const als = new AsyncLocalStorage<UnitOfWork>()
  const hooks: UnitHooks = {
    tenantOf: () => als.getStore()?.tenantId ?? null,
    clientOf: () => als.getStore()?.client,
    deferCommit() {
      const unit = als.getStore()
      if (!unit?.deferCommit || !unit.client) return false
      unit.client.__owedCommit = true
      return true
    },
  }
  const checkedOut = (client: PreparingClient) => {
    const unit = als.getStore()
    if (unit) unit.client = client
  }
  const open = (p: pg.Pool) =>
    new Kysely<DB>({
      dialect: new TenantBindingDialect(
        { pool: createInstrumentedPool(p, prepare, checkedOut, log) as unknown as pg.Pool },
        hooks,
      ),
    })
  const kysely = open(pool)
  const replica = replicaPool ? open(replicaPool) : undefined
  const ambient = (tenantId: number | null): Transaction<DB> | undefined => {
    const store = als.getStore()
    if (!store?.tx) return undefined
    // Inside a unit of work all access goes through its transaction (the embedded database has a
    // single connection, so anything else would wait forever); another tenant there is a bug.
    if (store.tenantId !== tenantId) throw new Error('database access for another tenant inside a unit of work')
    return store.tx
  }
  /**
   * One unit of work: a transaction bound to `tenantId` at its `begin`, the ambient one for what
   * `fn` calls. A read's commit is not awaited unless a write joined it or left work for after it.
   */
  const unitOfWork = <T>(
    on: Kysely<DB>,
    tenantId: number | null,
    kind: 'read' | 'write',
    fn: (tx: Transaction<DB>) => Promise<T>,
  ) => {
    // The outer store: where the checkout records its connection and the commit looks for it.
    const unit: UnitOfWork = { tenantId }
    return als.run(unit, async () => {
      const afterCommit: AfterCommit[] = []
      const result = await on.transaction().execute(async (trx) => {
        const inner: UnitOfWork = { tenantId, tx: trx, afterCommit }
        const value = await als.run(inner, () => fn(trx))
        unit.deferCommit = kind === 'read' && !inner.wrote && afterCommit.length === 0
        return value
      })
      for (const run of afterCommit) {
        try {
          await run()
        } catch (err) {
          log.error({ err }, 'work announced after a commit failed; the change itself is committed')
        }
      }
      return result
    })
  }
  return {
    engine,
    kysely,
    hasReadReplica: replica !== undefined,
    read(tenantId, fn) {
      const tx = ambient(tenantId)
      if (tx) return fn(tx)
      return unitOfWork(kysely, tenantId, 'read', fn)
    },
    reportRead(tenantId, fn) {
      const tx = ambient(tenantId)
      if (tx) return fn(tx)
      return unitOfWork(replica ?? kysely, tenantId, 'read', fn)
    },
    transaction(tenantId, fn) {
      const tx = ambient(tenantId)
      if (tx) {
        // A write inside a read: the read's commit is then awaited, and its failure reported.
        als.getStore()!.wrote = true
        return fn(tx)
      }
      return unitOfWork(kysely, tenantId, 'write', fn)
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
      await sql`select 1`.execute(kysely)
    },
    async close() {
      await kysely.destroy()
      await replica?.destroy()
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
  /** A read replica for reportRead (DATABASE_READ_URL); a pool of the same size. */
  readUrl?: string
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
  const pool = createPool(url, poolSize, options, log, 'database')
  const replica = options.readUrl ? createPool(options.readUrl, poolSize, options, log, 'read replica') : undefined
  return wrap('postgres', pool, async () => {}, options.preparedStatements ?? true, log, replica)
}

function createPool(url: string, poolSize: number, options: PostgresOptions, log: DatabaseLog, what: string): pg.Pool {
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
    log.warn({ err }, `${what} connection lost; the pool reconnects on demand`)
  }
  pool.on('connect', (client) => {
    client.on('error', lost)
  })
  pool.on('error', (err) => {
    // An idle client lost its connection; pg-pool has already removed it.
    lost(err)
  })
  return pool
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
