// npm run bench: throughput and latency of the user routes, the rate quote, the contract routes,
// the cancellations (quotes, processed cancels, the earnings run), the claims (the index, intake,
// the flow to a payment request), the ledger views, and the automatic processes (an EXPIRY run,
// webhook delivery: scripts/bench/processes.ts), the risk-bearer reports (statements, loss ratios, a
// month of statements: scripts/bench/reporting.ts) against same-run ceilings, on the embedded database and, when
// DATABASE_URL is set, on PostgreSQL too (docs/benchmarks.md).
//
//   npm run bench -- [--duration 10] [--warmup 3] [--connections 32] [--users 10000]
//                    [--rates 100000] [--dealers 2000] [--deals 20000]
//                    [--only users|quote|contracts|cancellations|claims|ledgers|processes|reporting] [--templates 20]
//                    [--quote-contracts 2000] [--cancel-contracts 7800] [--earnings-contracts 100000]
//                    [--claims 200000] [--expiry-contracts 100000] [--webhook-rate 1000]
//                    [--webhook-seconds 10] [--webhook-burst 10000]
//                    [--reporting-contracts 1000000] [--reporting-claims 200000] [--reporting-dealers 1000]
//                    [--reporting-companies 50] [--reporting-samples 20]
//                    [--json results.json] [--database pglite|postgres] [--cpu-prof <dir>]
//
// For each database: a server child process (scripts/bench/server.ts) with a freshly seeded tenant;
// the load generator (autocannon) runs here, so it never shares the server's event loop. Besides
// req/s, every row has the server process's CPU time per request over the measured window, and each
// route that against its ceiling's: throughput ratios swing with whatever else shares the cores, the
// CPU a request costs far less. Exits 1
// when the benchmark itself is broken (a route answered non-2xx, a connection failed, a server did
// not start); a missed performance target is reported, not an error.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { startServer, stopAllServers, type BenchServer, type DatabaseKind } from './bench/child.ts'
import { measurePdfRendering, PDF_MEDIAN_TARGET_MS } from './bench-pdf.ts'
import {
  cancelBody,
  cancelDate,
  cloneContracts,
  contractSource,
  measureEarningsRun,
  sellTemplates,
  type SeededContract,
} from './bench/cancellations.ts'
import {
  claimBody,
  CLAIM_FLOW_TARGET,
  CLAIMS_INDEX_TARGET,
  indexAnswers,
  indexPath,
  intakeContract,
  measureFlows,
  prepareClaims,
  type ClaimsSetup,
} from './bench/claims.ts'
import {
  LEDGER_CONTRACTS,
  LEDGER_VIEW_TARGET,
  CASH_APPLY_ITEMS,
  CASH_APPLY_TARGET_SECONDS,
  measureCashApply,
  prepareLedgers,
  type CashApplyResult,
  summaryAnswers,
  summaryPath,
  unpaidAnswers,
  unpaidPath,
  type LedgersSetup,
} from './bench/ledgers.ts'
import { measureStatements, STATEMENT_LINES, statementVerdict, type StatementResult } from './bench/statements.ts'
import {
  EXPIRY_TARGET_SECONDS,
  measureExpiry,
  measureWebhooks,
  WEBHOOK_TARGET,
  type ExpiryResult,
  type WebhookResult,
} from './bench/processes.ts'
import {
  measureReporting,
  REPORTING_SIZES,
  REPORTING_TARGET,
  reportingVerdicts,
  type ReportingResult,
} from './bench/reporting.ts'
import { createdId, dealSource, prepareDeals } from './bench/contracts.ts'
import { measure, stopLoad, type LoadRequest, type Measurement } from './bench/load.ts'
import {
  CANCEL_PROCESS_TARGET,
  CANCEL_QUOTE_TARGET,
  CONTRACT_CREATE_TARGET,
  EARNINGS_RUN_MAX_HEAP_GROWTH_MB,
  EARNINGS_RUN_TARGET_SECONDS,
  earningsVerdict,
  QUOTE_TARGET,
  USER_ROUTE_TARGET,
  formatTable,
  pdfVerdict,
  toJson,
  verdicts,
  withRatios,
  type PdfResult,
  type EarningsRunRow,
  type RouteKind,
  type Target,
} from './bench/report.ts'

type Group = 'users' | 'quote' | 'contracts' | 'cancellations' | 'claims' | 'ledgers' | 'processes' | 'reporting'
const GROUPS: readonly Group[] = [
  'users',
  'quote',
  'contracts',
  'cancellations',
  'claims',
  'ledgers',
  'processes',
  'reporting',
]

/** What a route's requests work from, for one database: the server and what earlier routes left. */
type RouteRun = {
  server: BenchServer
  headers: Record<string, string>
  deals: number
  log: (line: string) => void
  /** Prepared deals for POST /api/contracts, and the ids of the contracts it created (warm-up included). */
  contracts: { source?: ReturnType<typeof dealSource>; ids: number[] }
  /** The cancellations group's contracts: finalized templates and the bulk copies each route uses. */
  cancellations: {
    sizes: { templates: number; quote: number; cancel: number }
    templateIds: number[]
    quotePool: SeededContract[]
    cancelSource?: ReturnType<typeof contractSource>
    /** The next copy's serial (copies are numbered per template, so serials never repeat in a run). */
    serial: number
    date: string
  }
  /** The claims group's set-up (scripts/bench/claims.ts), made by the index's prepare. */
  claims: { sizes: { templates: number; intakeContracts: number; claims: number }; setup?: ClaimsSetup }
  /** The ledgers group's set-up (scripts/bench/ledgers.ts). */
  ledgers: { sizes: { templates: number; contracts: number }; setup?: LedgersSetup }
}

/** What a route measured by its own load (`RouteSpec.load`) is given. */
type LoadOptions = {
  connections: number
  durationSeconds: number
  warmupSeconds: number
  serverCpu: () => Promise<number>
  log: (line: string) => void
}

type RouteSpec = {
  route: string
  kind: RouteKind
  /** Which runs this route belongs to (--only); a ceiling belongs to every group measured against it. */
  groups: readonly Group[]
  /** The databases it is measured on (default: every database of the run). */
  databases?: readonly DatabaseKind[]
  target?: Target
  authenticated: boolean
  /** Work before the check and the warm-up (not measured), e.g. quotes for the contracts to create. */
  prepare?(run: RouteRun): Promise<void>
  /** A request generator: each call picks a random user, dealer or contract, or the next prepared deal. */
  requests?(run: RouteRun): () => LoadRequest
  /**
   * Instead of `requests` and autocannon: a load of its own (several dependent requests per unit,
   * e.g. a claim's flow), checked and measured by itself; its rps is units completed per second.
   */
  load?(run: RouteRun, options: LoadOptions): Promise<Measurement>
  /**
   * Paths requested once each before the warm-up, so the measurement sees the steady state (every
   * dealer's profile, visibility and disbursements cached) rather than 2,000 first requests.
   */
  prewarm?(server: BenchServer): string[]
  /** The status every answer must have (default 200). */
  status?: number
  /** Whether the body is the expected answer for `path` (checked once before measuring). */
  check?(body: unknown, path: string, server: BenchServer): boolean
  /** Sees every response (the check's too), e.g. to collect the ids of created contracts. */
  onResponse?(run: RouteRun): (status: number, headers: Record<string, string | string[] | undefined>) => void
  /** Throws when the measurement is not valid after all (e.g. the prepared deals ran out). */
  after?(run: RouteRun): void
}

const get = (nextPath: () => string) => (): LoadRequest => ({ method: 'GET', path: nextPath() })

const randomIndex = (n: number) => Math.floor(Math.random() * n)
const idOf = (body: unknown) => (body as { id?: unknown } | null)?.id
const lastSegment = (p: string) => Number(p.slice(p.lastIndexOf('/') + 1))

const ROUTES: RouteSpec[] = [
  {
    route: 'GET /bench/ceiling',
    kind: 'ceiling',
    groups: ['users', 'cancellations', 'claims', 'ledgers'],
    authenticated: false,
    requests: () => get(() => '/bench/ceiling'),
    check: (body) => typeof idOf(body) === 'number',
  },
  {
    route: 'GET /bench/db-ceiling/{id}',
    kind: 'db-ceiling',
    // The write route's and the contract read's ceiling too, and the cancellations' and claims'.
    groups: ['users', 'contracts', 'cancellations', 'claims', 'ledgers'],
    authenticated: false,
    requests: ({ server: { users } }) => get(() => `/bench/db-ceiling/${users.ids[randomIndex(users.ids.length)]}`),
    check: (body, p) => idOf(body) === lastSegment(p),
  },
  {
    route: 'GET /api/v1/adminusers/{userId}',
    kind: 'measured',
    groups: ['users'],
    target: USER_ROUTE_TARGET,
    authenticated: true,
    requests: ({ server: { users } }) => get(() => `/api/v1/adminusers/${users.ids[randomIndex(users.ids.length)]}`),
    check: (body, p) => idOf(body) === lastSegment(p),
  },
  {
    route: 'GET /api/v1/adminusers?searchData.emailAddress={email}',
    kind: 'measured',
    groups: ['users'],
    target: USER_ROUTE_TARGET,
    authenticated: true,
    requests: ({ server: { users } }) =>
      get(
        () =>
          `/api/v1/adminusers?searchData.emailAddress=${encodeURIComponent(users.emails[randomIndex(users.emails.length)] as string)}`,
      ),
    check: (body, p) => {
      const email = new URL(p, 'http://x').searchParams.get('searchData.emailAddress')
      return (
        Array.isArray(body) &&
        body.length === 1 &&
        String((body[0] as { emailAddress?: unknown }).emailAddress).toLowerCase() === email?.toLowerCase()
      )
    },
  },
  {
    route: 'GET /bench/quote-ceiling',
    kind: 'quote-ceiling',
    groups: ['quote'],
    authenticated: false,
    requests: () => get(() => '/bench/quote-ceiling'),
    check: (body) => typeof (body as { quoteId?: unknown } | null)?.quoteId === 'string',
  },
  {
    route: 'GET /api/Rates/rateQuote/{dealerNumber}',
    kind: 'measured',
    groups: ['quote'],
    target: QUOTE_TARGET,
    authenticated: true,
    // A random dealer of the 2,000, a random VIN, a random odometer: every request a different quote.
    requests: ({ server: { quote } }) =>
      get(
        () =>
          `/api/Rates/rateQuote/${quote.dealerNumbers[randomIndex(quote.dealerNumbers.length)]}` +
          `?vin=${quote.vins[randomIndex(quote.vins.length)]}&vehicleCondition=USED&odometer=${5000 + randomIndex(140_000)}`,
      ),
    prewarm: ({ quote }) =>
      quote.dealerNumbers.map(
        (n) => `/api/Rates/rateQuote/${n}?vin=${quote.vins[0]}&vehicleCondition=USED&odometer=42150`,
      ),
    check: (body) => {
      const reply = body as { quoteId?: unknown; products?: unknown[] } | null
      return typeof reply?.quoteId === 'string' && Array.isArray(reply.products) && reply.products.length > 0
    },
  },
  {
    route: 'POST /api/contracts',
    kind: 'measured',
    groups: ['contracts'],
    target: CONTRACT_CREATE_TARGET,
    authenticated: true,
    // Every request a deal of its own: its own quote, rate, VIN and buyer (scripts/bench/contracts.ts).
    async prepare(run) {
      const started = Date.now()
      const { quote } = run.server
      const deals = await prepareDeals({
        baseUrl: run.server.baseUrl,
        headers: run.headers,
        dealerNumbers: quote.dealerNumbers,
        dealerProducts: quote.dealerProducts,
        vins: quote.vins,
        count: run.deals,
      })
      run.contracts.source = dealSource(deals)
      run.log(`prepared ${deals.length} deals, a quote each, in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    },
    requests:
      ({ contracts }) =>
      () => ({ method: 'POST', path: '/api/contracts', body: contracts.source!.next().body }),
    status: 201,
    check: (body) => typeof idOf(body) === 'number' && (body as { status?: unknown }).status === 'PENDING',
    onResponse:
      ({ contracts }) =>
      (status, headers) => {
        const id = status === 201 ? createdId(headers) : undefined
        if (id !== undefined) contracts.ids.push(id)
      },
    after: ({ contracts, deals }) => {
      if (contracts.source?.exhausted) {
        throw new Error(
          `POST /api/contracts used up the ${deals} prepared deals (${contracts.source.used} requests): run again with a larger --deals`,
        )
      }
    },
  },
  {
    route: 'GET /api/contracts/{id}',
    kind: 'measured',
    groups: ['contracts'],
    authenticated: true,
    // The contracts POST /api/contracts just created (a run of this group always creates them first).
    requests: ({ contracts: { ids } }) => {
      if (ids.length === 0)
        throw new Error('GET /api/contracts/{id} needs the contracts of POST /api/contracts, and none were created')
      return get(() => `/api/contracts/${ids[randomIndex(ids.length)]}`)
    },
    check: (body, p) => idOf(body) === lastSegment(p),
  },
  {
    route: 'POST /api/contracts/{id}/cancelrequests?quoteOnly=true',
    kind: 'measured',
    groups: ['cancellations'],
    target: CANCEL_QUOTE_TARGET,
    authenticated: true,
    // Templates sold and finalized through the API, then copied in bulk: a pool to quote (a quote
    // writes nothing, so each is quoted again and again) and, on PostgreSQL, one to cancel.
    async prepare(run) {
      const c = run.cancellations
      let started = Date.now()
      c.templateIds = await sellTemplates(run.server, run.headers, c.sizes.templates)
      run.log(
        `sold and finalized ${c.templateIds.length} template contracts in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
      started = Date.now()
      c.quotePool = await cloneContracts(run.server, {
        templateIds: c.templateIds,
        count: c.sizes.quote,
        firstSerial: c.serial,
        returnIds: true,
      })
      c.serial += c.sizes.quote
      run.log(`copied ${c.quotePool.length} contracts to quote in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    },
    requests:
      ({ cancellations: c }) =>
      () => {
        const contract = c.quotePool[randomIndex(c.quotePool.length)]!
        return {
          method: 'POST',
          path: `/api/contracts/${contract.id}/cancelrequests?quoteOnly=true`,
          body: cancelBody(contract, c.date),
        }
      },
    check: (body) => {
      const quote = body as { status?: unknown; calculation?: { netCustomerRefund?: unknown } } | null
      return quote?.status === 'QUOTED' && typeof quote.calculation?.netCustomerRefund === 'number'
    },
  },
  {
    route: 'POST /api/contracts/{id}/cancels',
    kind: 'measured',
    groups: ['cancellations'],
    databases: ['postgres'],
    target: CANCEL_PROCESS_TARGET,
    authenticated: true,
    async prepare(run) {
      const c = run.cancellations
      const started = Date.now()
      const pool = await cloneContracts(run.server, {
        templateIds: c.templateIds,
        count: c.sizes.cancel,
        firstSerial: c.serial,
        returnIds: true,
      })
      c.serial += c.sizes.cancel
      c.cancelSource = contractSource(pool)
      run.log(`copied ${pool.length} contracts to cancel in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    },
    // Every request cancels another contract (one processed cancel per contract).
    requests:
      ({ cancellations: c }) =>
      () => {
        const contract = c.cancelSource!.next()
        return { method: 'POST', path: `/api/contracts/${contract.id}/cancels`, body: cancelBody(contract, c.date) }
      },
    status: 201,
    check: (body) =>
      typeof idOf(body) === 'number' && typeof (body as { journalEntryId?: unknown }).journalEntryId === 'number',
    after: ({ cancellations: c }) => {
      if (c.cancelSource?.exhausted) {
        throw new Error(
          `POST /api/contracts/{id}/cancels used up the ${c.sizes.cancel} contracts seeded to cancel ` +
            `(${c.cancelSource.used} requests): run again with a larger --cancel-contracts`,
        )
      }
    },
  },
  {
    route: 'GET /api/ledgerSummary?accountHolderId={dealer}',
    kind: 'measured',
    groups: ['ledgers'],
    target: LEDGER_VIEW_TARGET,
    authenticated: true,
    // Templates sold through the API, then contracts copied in bulk with their journal lines.
    async prepare(run) {
      run.ledgers.setup = await prepareLedgers(run.server, run.headers, { ...run.ledgers.sizes, log: run.log })
    },
    requests:
      ({ ledgers }) =>
      () => ({ method: 'GET', path: summaryPath(ledgers.setup!) }),
    check: (body) => summaryAnswers(body),
  },
  {
    route: 'GET /api/ledgers/unpaidLedgersProducts?dealerId={dealer}',
    kind: 'measured',
    groups: ['ledgers'],
    target: LEDGER_VIEW_TARGET,
    authenticated: true,
    // The first page (100 oldest open items) and the count of a random seeded dealer.
    requests:
      ({ ledgers }) =>
      () => ({ method: 'GET', path: unpaidPath(ledgers.setup!) }),
    check: (body) => unpaidAnswers(body),
  },
  {
    route: 'GET /api/claims?dealerId={d}&status={s}',
    kind: 'measured',
    groups: ['claims'],
    target: CLAIMS_INDEX_TARGET,
    authenticated: true,
    // Templates sold through the API, a template claim taken through it, then --claims claims copied
    // from it in bulk onto contracts copied in bulk (scripts/bench/claims.ts, claim-seed.ts).
    async prepare(run) {
      run.claims.setup = await prepareClaims(run.server, run.headers, { ...run.claims.sizes, log: run.log })
    },
    // A random seeded dealer and a random claim status: the first page (100) and the count.
    requests:
      ({ claims }) =>
      () => ({ method: 'GET', path: indexPath(claims.setup!) }),
    check: (body, p) => indexAnswers(body, p),
  },
  {
    route: 'POST /api/claims',
    kind: 'measured',
    groups: ['claims'],
    databases: ['postgres'],
    authenticated: true,
    // A one-job claim against a random contract of the intake pool (finalized copies, in force).
    requests: ({ claims }) => {
      let k = 1_000_000
      return () => ({
        method: 'POST',
        path: '/api/claims',
        body: claimBody(claims.setup!, intakeContract(claims.setup!), k++),
      })
    },
    status: 201,
    check: (body) => typeof idOf(body) === 'number' && (body as { status?: unknown }).status === 'OPEN',
  },
  {
    route: 'claim flow: POST /api/claims, PATCH (authorize), POST …/paymentrequests',
    kind: 'measured',
    groups: ['claims'],
    databases: ['postgres'],
    target: CLAIM_FLOW_TARGET,
    authenticated: true,
    // Complete flows per second, each claim taken, authorized and its payment requested.
    load: (run, o) => measureFlows({ server: run.server, headers: run.headers, setup: run.claims.setup!, ...o }),
  },
]

/**
 * Deals prepared per second of POST /api/contracts (warm-up and measurement): well above the rate
 * either database reaches here, since a run that uses them all up is invalid (and says so).
 */
const DEALS_PER_SECOND = 1500

/** Contracts seeded to cancel per second of POST /api/contracts/{id}/cancels (warm-up and measurement). */
const CANCELS_PER_SECOND = 600
/** Contracts of the earnings run by default: the issue's 100,000 on PostgreSQL, fewer on the embedded database. */
const EARNINGS_CONTRACTS: Record<DatabaseKind, number> = { postgres: 100_000, pglite: 5_000 }

/** Contracts past their expiration for the EXPIRY run by default: the issue's 100,000 on PostgreSQL, fewer on the embedded database. */
const EXPIRY_CONTRACTS: Record<DatabaseKind, number> = { postgres: 100_000, pglite: 10_000 }
/** Template contracts the expiry's copies are made from. */
const EXPIRY_TEMPLATES = 5
/** Items per batch of the EXPIRY run (the largest a run takes). */
const EXPIRY_BATCH_SIZE = 1000
/** Contracts the webhook events name in turn (deliveries are ordered per contract). */
const WEBHOOK_CONTRACTS = 2000

/** Claims seeded in bulk for the claims index by default: the issue's 200,000 on PostgreSQL, fewer on the embedded database. */
const CLAIMS: Record<DatabaseKind, number> = { postgres: 200_000, pglite: 20_000 }
/**
 * Contracts copied for claims to be taken against (intake and the claim flow pick one at random);
 * on PGlite, which measures neither, only the template claim's.
 */
const INTAKE_CONTRACTS: Record<DatabaseKind, number> = { postgres: 2000, pglite: 1 }

/** Draft PDFs rendered for the contracts group's PDF figure. */
const PDF_DOCUMENTS = 200
const CONTRACT_CREATE_TARGET_TEXT = Object.entries(CONTRACT_CREATE_TARGET.minRps)
  .map(([db, rps]) => `${rps}/s on ${db}`)
  .join(', ')

/** Importing the 100,000-rate book (issue 4, section 5). */
const IMPORT_TARGET_SECONDS = 60

const log = (line: string) => process.stderr.write(`${line}\n`)

/** A 1-minute load average above this, before the benchmark starts anything, means a busy machine. */
const BUSY_LOAD_AVERAGE = 1

function positiveInt(name: string, raw: string, min: number): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min} (got "${raw}")`)
  return n
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      users: { type: 'string', default: '10000' },
      rates: { type: 'string', default: '100000' },
      dealers: { type: 'string', default: '2000' },
      deals: { type: 'string' },
      templates: { type: 'string', default: '20' },
      'quote-contracts': { type: 'string', default: '2000' },
      'cancel-contracts': { type: 'string' },
      'earnings-contracts': { type: 'string' },
      claims: { type: 'string' },
      'expiry-contracts': { type: 'string' },
      'process-batches': { type: 'string' },
      'webhook-rate': { type: 'string', default: '1000' },
      'webhook-seconds': { type: 'string', default: '10' },
      'webhook-burst': { type: 'string', default: '10000' },
      'reporting-contracts': { type: 'string', default: String(REPORTING_SIZES.contracts) },
      'reporting-claims': { type: 'string' },
      'reporting-dealers': { type: 'string', default: String(REPORTING_SIZES.dealers) },
      'reporting-companies': { type: 'string', default: String(REPORTING_SIZES.companies) },
      'reporting-samples': { type: 'string', default: '20' },
      'statement-lines': { type: 'string', default: String(STATEMENT_LINES) },
      only: { type: 'string' },
      json: { type: 'string' },
      database: { type: 'string' },
      'cpu-prof': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) {
    process.stdout.write(
      [
        'Usage: npm run bench -- [options]',
        '  --duration <s>      measured seconds per route (default 10)',
        '  --warmup <s>        unmeasured warm-up seconds before each route (default 3; 0 for none)',
        '  --connections <n>   concurrent connections (default 32)',
        '  --users <n>         users seeded in the benchmark tenant (default 10000)',
        '  --rates <n>         rates in the synthetic rate book (default 100000)',
        '  --dealers <n>       dealers quoting from it (default 2000)',
        `  --deals <n>         deals (a quote each) prepared for POST /api/contracts (default ${DEALS_PER_SECOND} per warm-up and measured second)`,
        '  --only <group>      only the user routes (users), the rate quote (quote), the contract routes (contracts),',
        '                      the cancel quote, processed cancels and earnings run (cancellations)',
        '                      the claims index, intake and claim flow (claims)',
        "                      a dealer's ledger summary and unpaid items, a receipt applied, a statement (ledgers)",
        `  --statement-lines <n>     lines of the ledgers group's dealer statement, CSV and PDF (default ${STATEMENT_LINES})`,
        '                      the EXPIRY process run and webhook delivery (processes)',
        '                      or reinsurance statements, loss ratios and a month of statements (reporting)',
        '  --templates <n>     contracts sold and finalized through the API, copied in bulk for cancellations (default 20)',
        '  --quote-contracts <n>     contracts copied for cancel quotes (default 2000)',
        `  --cancel-contracts <n>    contracts copied for processed cancels (default ${CANCELS_PER_SECOND} per warm-up and measured second)`,
        `  --earnings-contracts <n>  contracts copied for the earnings run (default ${EARNINGS_CONTRACTS.postgres} on postgres, ${EARNINGS_CONTRACTS.pglite} on pglite)`,
        `  --claims <n>        claims seeded in bulk for the claims index (default ${CLAIMS.postgres} on postgres, ${CLAIMS.pglite} on pglite)`,
        `  --expiry-contracts <n>    contracts past their expiration for the EXPIRY run (default ${EXPIRY_CONTRACTS.postgres} on postgres, ${EXPIRY_CONTRACTS.pglite} on pglite)`,
        "  --process-batches <n>     EXPIRY batches worked at once (default: the server's, 4 on postgres, 1 on pglite)",
        '  --webhook-rate <n>  webhook events offered per second (default 1000), for --webhook-seconds (default 10)',
        '  --webhook-burst <n> webhook events appended at once, then drained (default 10000)',
        `  --reporting-contracts <n> contracts copied for reporting (default ${REPORTING_SIZES.contracts}), with`,
        '                      --reporting-claims <n> claims (default one per five contracts) over --reporting-dealers <n>',
        `                      dealers (default ${REPORTING_SIZES.dealers}) and --reporting-companies <n> reinsurance companies (default ${REPORTING_SIZES.companies});`,
        '                      --reporting-samples <n> requests timed per report (default 20)',
        '  --json <file>       also write the results as {"runs":[...]}',
        '  --database <db>     only pglite or only postgres (default: pglite, plus postgres when DATABASE_URL is set)',
        "  --cpu-prof <dir>    write a CPU profile of each server's serving phase to <dir>/server-<db>.cpuprofile",
        '',
      ].join('\n'),
    )
    process.exit(0)
  }
  let databases: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
  if (values.database !== undefined) {
    if (values.database !== 'pglite' && values.database !== 'postgres')
      throw new Error('--database must be pglite or postgres')
    if (values.database === 'postgres' && !process.env.DATABASE_URL)
      throw new Error('--database postgres needs DATABASE_URL (try scripts/with-postgres.sh npm run bench)')
    databases = [values.database]
  }
  const durationSeconds = positiveInt('duration', values.duration, 1)
  const warmupSeconds = positiveInt('warmup', values.warmup, 0)
  return {
    durationSeconds,
    warmupSeconds,
    connections: positiveInt('connections', values.connections, 1),
    users: positiveInt('users', values.users, 1),
    rates: positiveInt('rates', values.rates, 1),
    dealers: positiveInt('dealers', values.dealers, 1),
    deals:
      values.deals === undefined
        ? DEALS_PER_SECOND * (warmupSeconds + durationSeconds)
        : positiveInt('deals', values.deals, 1),
    templates: positiveInt('templates', values.templates, 1),
    quoteContracts: positiveInt('quote-contracts', values['quote-contracts'], 1),
    cancelContracts:
      values['cancel-contracts'] === undefined
        ? CANCELS_PER_SECOND * (warmupSeconds + durationSeconds)
        : positiveInt('cancel-contracts', values['cancel-contracts'], 1),
    earningsContracts:
      values['earnings-contracts'] === undefined
        ? undefined
        : positiveInt('earnings-contracts', values['earnings-contracts'], 1),
    claims: values.claims === undefined ? undefined : positiveInt('claims', values.claims, 1),
    expiryContracts:
      values['expiry-contracts'] === undefined
        ? undefined
        : positiveInt('expiry-contracts', values['expiry-contracts'], 1),
    processBatches:
      values['process-batches'] === undefined
        ? undefined
        : positiveInt('process-batches', values['process-batches'], 1),
    webhookRate: positiveInt('webhook-rate', values['webhook-rate'], 10),
    webhookSeconds: positiveInt('webhook-seconds', values['webhook-seconds'], 1),
    webhookBurst: positiveInt('webhook-burst', values['webhook-burst'], 1),
    reporting: {
      contracts: positiveInt('reporting-contracts', values['reporting-contracts'], 1),
      claims:
        values['reporting-claims'] === undefined
          ? Math.floor(positiveInt('reporting-contracts', values['reporting-contracts'], 1) / 5)
          : positiveInt('reporting-claims', values['reporting-claims'], 1),
      dealers: positiveInt('reporting-dealers', values['reporting-dealers'], 1),
      companies: positiveInt('reporting-companies', values['reporting-companies'], 1),
      samples: positiveInt('reporting-samples', values['reporting-samples'], 1),
    },
    statementLines: positiveInt('statement-lines', values['statement-lines'], 1),
    only: parseOnly(values.only),
    json: values.json,
    databases,
    cpuProfDir: values['cpu-prof'],
  }
}

function parseOnly(value: string | undefined): Group | undefined {
  if (value === undefined) return undefined
  const group = GROUPS.find((g) => g === value)
  if (!group) throw new Error(`--only must be ${GROUPS.join(', ')}`)
  return group
}

/** The server process's CPU time so far, in microseconds (its hidden /bench/cpu route). */
async function serverCpu(server: BenchServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/bench/cpu`)
  const body = (await res.json()) as { micros?: unknown }
  if (res.status !== 200 || typeof body.micros !== 'number')
    throw new Error(`GET /bench/cpu answered ${res.status}: ${JSON.stringify(body)}`)
  return body.micros
}

async function fetchToken(server: BenchServer): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
    body: JSON.stringify({ grant_type: 'password', username: server.adminEmail, password: server.adminPassword }),
  })
  const body = await res.text()
  if (res.status !== 200) throw new Error(`POST /api/auth/token answered ${res.status}: ${body}`)
  return (JSON.parse(body) as { access_token: string }).access_token
}

/** One request before the load: a route that does not answer as expected makes the numbers meaningless. */
async function checkRoute(spec: RouteSpec, run: RouteRun, request: LoadRequest): Promise<void> {
  const { server } = run
  const headers = spec.authenticated ? run.headers : {}
  const res = await fetch(`${server.baseUrl}${request.path}`, {
    method: request.method,
    headers: request.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(request.body === undefined ? {} : { body: request.body }),
  })
  const text = await res.text()
  spec.onResponse?.(run)(res.status, Object.fromEntries(res.headers))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (res.status !== (spec.status ?? 200) || !(spec.check?.(body, request.path, server) ?? true)) {
    throw new Error(
      `${spec.route} on ${server.database}: ${request.method} ${request.path} answered ${res.status} ${text.slice(0, 300)}`,
    )
  }
}

async function prewarm(
  server: BenchServer,
  headers: Record<string, string>,
  paths: string[],
  report: (line: string) => void,
): Promise<void> {
  const started = Date.now()
  let next = 0
  const worker = async () => {
    for (let i = next++; i < paths.length; i = next++) {
      const res = await fetch(`${server.baseUrl}${paths[i]}`, { headers })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`pre-warming GET ${paths[i]} answered ${res.status}`)
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  report(`pre-warmed ${paths.length} paths in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

async function main(): Promise<number> {
  const options = parseOptions()
  const runs = (group: Group) => options.only === undefined || options.only === group
  if (options.cpuProfDir) fs.mkdirSync(options.cpuProfDir, { recursive: true })
  log(
    `bench: ${options.databases.join(' + ')}, ${options.users} users, ${options.connections} connections, ` +
      `${options.durationSeconds} s per route after ${options.warmupSeconds} s warm-up`,
  )
  // Server, database and load generator share this machine's cores; anything else running skews them.
  const [load] = os.loadavg()
  if (load !== undefined && load > BUSY_LOAD_AVERAGE) {
    log(
      `bench: WARNING: load average ${load.toFixed(2)} on ${os.availableParallelism()} cores before starting: ` +
        'other processes are using the CPU, so the figures will be low and noisy',
    )
  }

  const measured = []
  const imports: Array<{ database: DatabaseKind; rates: number; seconds: number }> = []
  const earnings: EarningsRunRow[] = []
  const cashApply: Array<CashApplyResult & { database: DatabaseKind }> = []
  const statementRuns: Array<StatementResult & { database: DatabaseKind }> = []
  const expiries: Array<ExpiryResult & { database: DatabaseKind }> = []
  const webhookRuns: Array<WebhookResult & { database: DatabaseKind }> = []
  const reportingRuns: Array<ReportingResult & { database: DatabaseKind }> = []
  for (const database of options.databases) {
    log(`[${database}] starting the server and seeding ${options.users} users…`)
    const startedAt = Date.now()
    const server = await startServer({
      database,
      users: options.users,
      rates: options.rates,
      dealers: options.dealers,
      ...(options.cpuProfDir ? { cpuProfile: path.resolve(options.cpuProfDir, `server-${database}.cpuprofile`) } : {}),
      log: (line) => log(`[${database}] ${line}`),
    })
    try {
      log(
        `[${database}] ready on ${server.baseUrl} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (tenant ${server.tenantId})`,
      )
      log(
        `[${database}] rate book of ${server.quote.rates} rates imported in ${server.quote.importSeconds.toFixed(1)} s; ` +
          `${server.quote.dealerNumbers.length} dealers; a sample quote reply is ${server.quote.ceilingBytes} bytes`,
      )
      imports.push({ database, rates: server.quote.rates, seconds: Math.round(server.quote.importSeconds * 100) / 100 })
      const token = await fetchToken(server)
      const authHeaders = { 'x-api-key': server.apiKey, authorization: `Bearer ${token}` }
      const run: RouteRun = {
        server,
        headers: authHeaders,
        deals: options.deals,
        log: (line) => log(`[${database}] ${line}`),
        contracts: { ids: [] },
        cancellations: {
          sizes: { templates: options.templates, quote: options.quoteContracts, cancel: options.cancelContracts },
          templateIds: [],
          quotePool: [],
          serial: 0,
          date: cancelDate(),
        },
        claims: {
          sizes: {
            templates: options.templates,
            intakeContracts: INTAKE_CONTRACTS[database],
            claims: options.claims ?? CLAIMS[database],
          },
        },
        ledgers: { sizes: { templates: options.templates, contracts: LEDGER_CONTRACTS[database] } },
      }
      const specs = ROUTES.filter(
        (r) =>
          (options.only === undefined || r.groups.includes(options.only)) &&
          (r.databases === undefined || r.databases.includes(database)),
      )
      for (const spec of specs) {
        const headers = spec.authenticated ? authHeaders : {}
        const routeLog = (line: string) => log(`[${database}] ${spec.route}: ${line}`)
        if (spec.prepare) await spec.prepare({ ...run, log: routeLog })
        let m: Measurement
        if (spec.load) {
          log(`[${database}] ${spec.route}: ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s…`)
          m = await spec.load(run, {
            connections: options.connections,
            durationSeconds: options.durationSeconds,
            warmupSeconds: options.warmupSeconds,
            serverCpu: () => serverCpu(server),
            log: routeLog,
          })
        } else {
          if (!spec.requests) throw new Error(`${spec.route} has neither requests nor a load`)
          const next = spec.requests(run)
          await checkRoute(spec, run, next())
          if (spec.prewarm) await prewarm(server, headers, spec.prewarm(server), routeLog)
          log(`[${database}] ${spec.route}: ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s…`)
          m = await measure({
            baseUrl: server.baseUrl,
            connections: options.connections,
            durationSeconds: options.durationSeconds,
            warmupSeconds: options.warmupSeconds,
            headers,
            next,
            ...(spec.onResponse ? { onResponse: spec.onResponse(run) } : {}),
            serverCpu: () => serverCpu(server),
          })
        }
        spec.after?.(run)
        const cpuUsPerRequest =
          m.serverCpuMicros === undefined || m.requests === 0 ? Number.NaN : m.serverCpuMicros / m.requests
        log(
          `[${database}] ${spec.route}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms, ` +
            `server CPU ${cpuUsPerRequest.toFixed(0)} µs/request, ${m.errors} errors, status codes ${JSON.stringify(m.statusCodes)}`,
        )
        measured.push({
          kind: spec.kind,
          ...(spec.target ? { target: spec.target } : {}),
          statusCodes: m.statusCodes,
          run: {
            route: spec.route,
            database,
            connections: options.connections,
            rps: m.rps,
            p50Ms: m.p50Ms,
            p99Ms: m.p99Ms,
            errors: m.errors,
            cpuUsPerRequest,
          },
        })
      }
      if (runs('ledgers') && run.ledgers.setup) {
        log(`[${database}] cash: one receipt applied to a dealer's ${CASH_APPLY_ITEMS} oldest open items…`)
        const c = await measureCashApply(server, authHeaders, run.ledgers.setup)
        log(`[${database}] cash: ${c.applied} applications in ${c.seconds.toFixed(3)} s (status ${c.status})`)
        cashApply.push({ database, ...c })
        log(`[${database}] statements: a dealer's statement of ${options.statementLines} lines, CSV then PDF…`)
        const st = await measureStatements(server, authHeaders, run.ledgers.setup, {
          lines: options.statementLines,
          log: (line) => log(`[${database}] ${line}`),
        })
        statementRuns.push({ database, ...st })
      }
      if (runs('cancellations')) {
        const contracts = options.earningsContracts ?? EARNINGS_CONTRACTS[database]
        log(`[${database}] updateEarnings: seeding ${contracts} finalized contracts in bulk…`)
        const e = await measureEarningsRun(server, authHeaders, {
          templateIds: run.cancellations.templateIds,
          contracts,
          firstSerial: run.cancellations.serial,
          log: (line) => log(`[${database}] updateEarnings: ${line}`),
        })
        log(
          `[${database}] updateEarnings: ${e.examined} contracts in ${e.seconds.toFixed(1)} s (${e.posted} posted, ` +
            `${e.nothingDue} nothing due, ${e.failed} failed); live heap every 5 s ` +
            `${e.liveHeapMb.map((m) => m.toFixed(0)).join(' ')} MB; RSS ${e.rssMb.before.toFixed(0)} before, ` +
            `peak ${e.rssMb.peak.toFixed(0)}, ${e.rssMb.after.toFixed(0)} MB after (${e.samples} samples)`,
        )
        earnings.push({
          database,
          contracts: e.contracts,
          seedSeconds: Math.round(e.seedSeconds * 10) / 10,
          seconds: Math.round(e.seconds * 100) / 100,
          examined: e.examined,
          posted: e.posted,
          failed: e.failed,
          rssMb: {
            before: Math.round(e.rssMb.before),
            peak: Math.round(e.rssMb.peak),
            after: Math.round(e.rssMb.after),
          },
          liveHeapMb: e.liveHeapMb.map((m) => Math.round(m)),
          cpuSeconds: {
            server: Math.round(e.cpuSeconds.server * 10) / 10,
            postgres: e.cpuSeconds.postgres === null ? null : Math.round(e.cpuSeconds.postgres * 10) / 10,
          },
        })
      }
      if (runs('processes')) {
        const contracts = options.expiryContracts ?? EXPIRY_CONTRACTS[database]
        const plog = (line: string) => log(`[${database}] processes: ${line}`)
        plog(`EXPIRY over ${contracts} contracts past their expiration…`)
        const x = await measureExpiry(server, authHeaders, {
          templates: EXPIRY_TEMPLATES,
          contracts,
          batchSize: EXPIRY_BATCH_SIZE,
          parallelBatches: options.processBatches,
          log: plog,
        })
        plog(
          `EXPIRY ${x.status}: ${x.examined} examined, ${x.changed} expired, ${x.failed} failed in ${x.seconds.toFixed(1)} s ` +
            `(${(x.changed / x.seconds).toFixed(0)}/s; seeded in ${x.seedSeconds.toFixed(1)} s)`,
        )
        expiries.push({ database, ...x })
        plog(
          `webhooks: ${options.webhookRate}/s for ${options.webhookSeconds} s, then a burst of ${options.webhookBurst}…`,
        )
        const w = await measureWebhooks(server, authHeaders, {
          rate: options.webhookRate,
          seconds: options.webhookSeconds,
          burst: options.webhookBurst,
          contracts: WEBHOOK_CONTRACTS,
          log: plog,
        })
        webhookRuns.push({ database, ...w })
      }
      if (runs('reporting')) {
        const rlog = (line: string) => log(`[${database}] reporting: ${line}`)
        const r = options.reporting
        rlog(`${r.contracts} contracts and ${r.claims} claims over ${r.dealers} dealers and ${r.companies} companies…`)
        reportingRuns.push({ database, ...(await measureReporting(server, authHeaders, { ...r, log: rlog })) })
      }
    } finally {
      await server.stop()
    }
  }

  // The PDF renders in this process, once the servers are gone, so nothing else shares the cores.
  let pdf: PdfResult | undefined
  if (runs('contracts')) {
    log(`bench: rendering ${PDF_DOCUMENTS} draft contract PDFs…`)
    pdf = { documents: PDF_DOCUMENTS, ...(await measurePdfRendering(PDF_DOCUMENTS)) }
  }

  const rows = withRatios(measured)
  process.stdout.write(`\n${formatTable(rows)}\n\n`)
  const verdict = verdicts(rows)
  const targets = [
    ...(runs('users') ? ["authenticated user routes >= 60% of the database ceiling's req/s with p99 < 25 ms"] : []),
    ...(runs('quote') ? ["the rate quote >= 50% of the quote ceiling's with p99 < 50 ms"] : []),
    ...(runs('contracts')
      ? [
          `contract creation >= ${CONTRACT_CREATE_TARGET_TEXT} with no errors; draft PDF median < ${PDF_MEDIAN_TARGET_MS} ms`,
        ]
      : []),
    ...(runs('cancellations')
      ? [
          `cancel quotes p99 < ${(CANCEL_QUOTE_TARGET as { maxP99Ms: number }).maxP99Ms} ms; processed cancels >= ` +
            `${CANCEL_PROCESS_TARGET.minRps.postgres}/s on postgres with no errors; updateEarnings over ` +
            `${EARNINGS_CONTRACTS.postgres} contracts < ${EARNINGS_RUN_TARGET_SECONDS} s on postgres, ` +
            `server live heap growth < ${EARNINGS_RUN_MAX_HEAP_GROWTH_MB} MB`,
        ]
      : []),
    ...(runs('ledgers')
      ? [`a dealer's ledgerSummary and unpaidLedgersProducts p99 < 50 ms over ${LEDGER_CONTRACTS.postgres} contracts`]
      : []),
    ...(runs('processes')
      ? [
          `EXPIRY over ${EXPIRY_CONTRACTS.postgres} contracts < ${EXPIRY_TARGET_SECONDS} s on postgres; webhook delivery ` +
            `>= ${WEBHOOK_TARGET.minEventsPerSecond} events/s with p99 lag < ${WEBHOOK_TARGET.maxP99LagMs} ms`,
        ]
      : []),
    ...(runs('reporting')
      ? [
          `a reinsurance statement p99 < ${REPORTING_TARGET.statementP99Ms} ms, loss ratios by dealer and vintage p99 < ` +
            `${REPORTING_TARGET.lossRatioP99Ms} ms, all statements of a month < ${REPORTING_TARGET.monthSeconds} s, over ` +
            `${REPORTING_SIZES.contracts} contracts and ${REPORTING_SIZES.claims} claims (MET*: met on a scaled-down book)`,
        ]
      : []),
    ...(runs('claims')
      ? [
          `the claims index by dealer and status p99 < ${(CLAIMS_INDEX_TARGET as { maxP99Ms: number }).maxP99Ms} ms ` +
            `over ${CLAIMS.postgres} claims on postgres; claims from intake through their payment request >= ` +
            `${CLAIM_FLOW_TARGET.minRps.postgres}/s on postgres with no errors`,
        ]
      : []),
  ]
  process.stdout.write(`Targets: ${targets.join('; ')}; each database.\n`)
  process.stdout.write(`${verdict.lines.join('\n')}\n`)
  if (pdf) {
    const p = pdfVerdict(pdf, PDF_MEDIAN_TARGET_MS)
    verdict.allMet &&= p.met
    process.stdout.write(`${p.line}\n`)
  }
  for (const e of earnings) {
    const v = earningsVerdict(e)
    verdict.allMet &&= v.met
    process.stdout.write(`${v.line}\n`)
  }
  for (const i of imports) {
    const met = i.seconds < IMPORT_TARGET_SECONDS
    verdict.allMet &&= met
    process.stdout.write(
      `${met ? 'MET   ' : 'MISSED'} ${i.database.padEnd(8)} rate-book import of ${i.rates} rates: ${i.seconds.toFixed(1)} s (target < ${IMPORT_TARGET_SECONDS} s)\n`,
    )
  }
  for (const st of statementRuns) {
    for (const r of st.runs) {
      const v = statementVerdict(st.database, options.statementLines, r)
      verdict.allMet &&= v.met
      process.stdout.write(`${v.line}\n`)
    }
  }
  for (const c of cashApply) {
    const met =
      c.status === 201 && c.applied === c.items && c.items === CASH_APPLY_ITEMS && c.seconds < CASH_APPLY_TARGET_SECONDS
    verdict.allMet &&= met
    process.stdout.write(
      `${met ? 'MET   ' : 'MISSED'} ${c.database.padEnd(8)} one receipt applied to ${c.applied} of ${c.items} open items ` +
        `(status ${c.status}): ${c.seconds.toFixed(3)} s (target ${CASH_APPLY_ITEMS} items < ${CASH_APPLY_TARGET_SECONDS} s)\n`,
    )
  }
  for (const x of expiries) {
    const counted = x.database === 'postgres' ? x.contracts >= EXPIRY_CONTRACTS.postgres : true
    const met = x.status === 'SUCCEEDED' && x.changed === x.contracts && x.seconds < EXPIRY_TARGET_SECONDS && counted
    verdict.allMet &&= met
    process.stdout.write(
      `${met ? 'MET   ' : 'MISSED'} ${x.database.padEnd(8)} EXPIRY run over ${x.contracts} due contracts: ${x.changed} expired, ` +
        `${x.failed} failed, ${x.seconds.toFixed(1)} s (${(x.changed / x.seconds).toFixed(0)}/s; target < ${EXPIRY_TARGET_SECONDS} s` +
        `${x.database === 'postgres' ? ` over ${EXPIRY_CONTRACTS.postgres}` : ''})\n`,
    )
  }
  for (const w of webhookRuns) {
    for (const [name, p] of [
      ['sustained', w.sustained],
      ['burst', w.burst],
    ] as const) {
      const met =
        p.delivered === p.events &&
        p.outOfOrder === 0 &&
        p.eventsPerSecond >= WEBHOOK_TARGET.minEventsPerSecond &&
        (name === 'burst' || p.p99LagMs < WEBHOOK_TARGET.maxP99LagMs)
      verdict.allMet &&= met
      process.stdout.write(
        `${met ? 'MET   ' : 'MISSED'} ${w.database.padEnd(8)} webhooks ${name === 'sustained' ? `offered ${w.sustained.offeredPerSecond}/s for ${w.sustained.seconds} s` : `burst of ${p.events}`}: ` +
          `${p.delivered} of ${p.events} delivered at ${p.eventsPerSecond.toFixed(0)}/s, lag p50 ${p.p50LagMs} ms, p99 ${p.p99LagMs} ms, ` +
          `max ${p.maxLagMs} ms, ${p.duplicates} duplicates, ${p.outOfOrder} out of order per contract ` +
          `(target >= ${WEBHOOK_TARGET.minEventsPerSecond}/s${name === 'sustained' ? `, p99 lag < ${WEBHOOK_TARGET.maxP99LagMs} ms` : ''})\n`,
      )
    }
  }
  for (const r of reportingRuns) {
    for (const v of reportingVerdicts(r)) {
      verdict.allMet &&= v.met
      process.stdout.write(`${v.line}\n`)
    }
  }
  process.stdout.write(
    verdict.allMet
      ? 'All targets met.\n'
      : 'Some targets missed (reported only; the benchmark does not fail on them).\n',
  )
  if (options.json) {
    fs.writeFileSync(options.json, toJson(rows, imports, pdf, earnings, cashApply))
    log(`bench: wrote ${options.json}`)
  }

  const broken = rows.filter((r) => r.run.errors > 0)
  for (const r of broken) {
    log(
      `bench: BROKEN: ${r.run.route} on ${r.run.database} had ${r.run.errors} errors (status codes ${JSON.stringify(r.statusCodes)})`,
    )
  }
  return broken.length > 0 ? 1 : 0
}

let interrupted = false
const interrupt = (signal: NodeJS.Signals, code: number) => {
  if (interrupted) return
  interrupted = true
  log(`bench: ${signal}: stopping`)
  stopLoad()
  void stopAllServers().finally(() => process.exit(code))
}
process.on('SIGINT', () => interrupt('SIGINT', 130))
process.on('SIGTERM', () => interrupt('SIGTERM', 143))

main().then(
  async (code) => {
    await stopAllServers()
    process.exit(code)
  },
  async (err: unknown) => {
    // After a signal, failures are the interruption's echo; interrupt() reports and exits.
    if (interrupted) return
    log(`bench failed: ${err instanceof Error ? err.message : String(err)}`)
    await stopAllServers()
    process.exit(1)
  },
)
