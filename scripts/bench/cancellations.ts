// The cancellations group's workload (scripts/bench.ts, docs/benchmarks.md): template contracts sold
// and finalized through the API, copied in bulk by the server (scripts/bench/contract-seed.ts) into
// a pool for cancel quotes, a pool for processed cancels (each contract cancelled once) and the
// contracts of the earnings run; the run itself, timed, with the server's memory sampled throughout.
import fs from 'node:fs'
import path from 'node:path'
import type { BenchServer } from './child.ts'
import { createdId, dealSource, prepareDeals } from './contracts.ts'

/** A seeded contract a cancel names: its id and sale odometer (the cancel's odometer is above it). */
export type SeededContract = { id: number; saleOdometer: number }

type Http = { baseUrl: string; headers: Record<string, string> }

async function post(http: Http, url: string, body: unknown, headers = http.headers): Promise<unknown> {
  const res = await fetch(`${http.baseUrl}${url}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 300)}`)
  return { body: JSON.parse(text) as unknown, headers: Object.fromEntries(res.headers) }
}

/**
 * `count` contracts sold through the API (a quote each, POST /api/contracts) and finalized (POST
 * /api/contracts/{id}/finalize): the templates the bulk copies are made from. Sold today; the
 * copies' dates move back.
 */
export async function sellTemplates(server: BenchServer, headers: Record<string, string>, count: number) {
  const http = { baseUrl: server.baseUrl, headers }
  const deals = await prepareDeals({
    baseUrl: server.baseUrl,
    headers,
    dealerNumbers: server.quote.dealerNumbers,
    dealerProducts: server.quote.dealerProducts,
    vins: server.quote.vins,
    count,
  })
  const source = dealSource(deals)
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    const created = (await post(http, '/api/contracts', source.next().body)) as {
      headers: Record<string, string>
    }
    const id = createdId(created.headers)
    if (id === undefined) throw new Error('POST /api/contracts answered no Location')
    await post(http, `/api/contracts/${id}/finalize`, {})
    ids.push(id)
  }
  return ids
}

/** Copies of the templates made by the server (POST /bench/clone-contracts, no authentication). */
export async function cloneContracts(
  server: BenchServer,
  options: { templateIds: number[]; count: number; firstSerial: number; returnIds: boolean },
): Promise<SeededContract[]> {
  const reply = (await post({ baseUrl: server.baseUrl, headers: {} }, '/bench/clone-contracts', {
    ...options,
    spreadDays: 300,
  })) as { body: { contracts: SeededContract[] } }
  return reply.body.contracts
}

/**
 * The date cancels name: yesterday (UTC), on or before today in any tenant time zone, and after
 * every copy's sale date (30 days back at least).
 */
export function cancelDate(): string {
  return new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
}

/** A cancel request's body for `c` (CancelBody, docs/cancellations.md): the customer's request. */
export function cancelBody(c: SeededContract, date: string): string {
  return JSON.stringify({
    cancelDate: date,
    cancelOdometer: c.saleOdometer + 1000,
    cancelReasonCode: 'CUSTOMER_REQUEST',
  })
}

/** Hands out each contract of the pool once; past the end it repeats the last (a 409: the run needs more). */
export function contractSource(pool: readonly SeededContract[]) {
  let used = 0
  return {
    next(): SeededContract {
      const c = pool[Math.min(used, pool.length - 1)]
      used++
      if (!c) throw new Error('no contracts were seeded')
      return c
    },
    get used() {
      return used
    },
    get exhausted() {
      return used > pool.length
    },
  }
}

export type EarningsRunResult = {
  contracts: number
  seedSeconds: number
  seconds: number
  examined: number
  posted: number
  nothingDue: number
  failed: number
  /** The server's resident set size, MB: before the run, the highest sampled during it (every 250 ms), after it. */
  rssMb: { before: number; peak: number; after: number }
  /**
   * The server's live heap (MB, after a full garbage collection), every 5 s of the run: flat when
   * the run keeps one round of batches at a time, whatever the number of contracts done.
   */
  liveHeapMb: number[]
  samples: number
  /**
   * CPU seconds spent over the run by the service (its process) and by PostgreSQL (the cluster of
   * scripts/with-postgres.sh, from /proc; null otherwise, and on PGlite, which runs inside the
   * service): what the run costs whatever else shares the machine.
   */
  cpuSeconds: { server: number; postgres: number | null }
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100

/**
 * CPU seconds (user + system) so far of this run's PostgreSQL cluster: its postmaster (the first
 * line of postmaster.pid in WITH_POSTGRES_PGDATA, which scripts/with-postgres.sh exports) and its
 * children, from /proc. Null when that is not known (another DATABASE_URL, no /proc). Only processes
 * alive at the reading count: the service's pool keeps its connections, so its backends are.
 */
function postgresCpuSeconds(): number | null {
  const pgdata = process.env.WITH_POSTGRES_PGDATA
  if (!pgdata || !fs.existsSync('/proc/self/stat')) return null
  let postmaster: string
  try {
    postmaster = fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim()
  } catch {
    return null
  }
  let ticks = 0
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue
    }
    // pid (comm) state ppid … utime(14) stime(15): fields after the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (pid !== postmaster && fields[1] !== postmaster) continue
    ticks += Number(fields[11]) + Number(fields[12])
  }
  return ticks / USER_HZ
}

async function serverCpuSeconds(server: BenchServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/bench/cpu`)
  return ((await res.json()) as { micros: number }).micros / 1e6
}

async function rss(server: BenchServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/bench/memory`)
  return ((await res.json()) as { rss: number }).rss / 1024 / 1024
}

/** The server's live heap in MB: its heap used after a full collection (GET /bench/memory?gc=1). */
async function liveHeap(server: BenchServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/bench/memory?gc=1`)
  const { heapUsed } = (await res.json()) as { heapUsed?: number }
  if (heapUsed === undefined) throw new Error('the bench server cannot collect garbage (started without --expose-gc)')
  return heapUsed / 1024 / 1024
}

/**
 * Seeds `contracts` finalized contracts in bulk, then times POST /api/contracts/updateEarnings over
 * every contract of the tenant (as of today), sampling the server's RSS every 250 ms while it runs.
 */
export async function measureEarningsRun(
  server: BenchServer,
  headers: Record<string, string>,
  options: { templateIds: number[]; contracts: number; firstSerial: number; log: (line: string) => void },
): Promise<EarningsRunResult> {
  const seedStarted = performance.now()
  for (let done = 0; done < options.contracts; done += 20_000) {
    const count = Math.min(20_000, options.contracts - done)
    await cloneContracts(server, {
      templateIds: options.templateIds,
      count,
      firstSerial: options.firstSerial + done,
      returnIds: false,
    })
    options.log(`seeded ${done + count} of ${options.contracts} contracts in bulk`)
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000
  // Settle the seeding's garbage before the baseline.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const before = await rss(server)
  const samples: number[] = []
  const live = [await liveHeap(server)]
  const state = { running: true }
  const cpuBefore = { server: await serverCpuSeconds(server), postgres: postgresCpuSeconds() }
  const started = performance.now()
  const sampler = (async () => {
    for (let k = 1; state.running; k++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      if (!state.running) break
      // A full collection every 5 s (20 samples): a pause of the server's, a small share of the run.
      if (k % 20 === 0) live.push(await liveHeap(server))
      samples.push(await rss(server))
    }
  })()
  let reply: { examined: number; posted: number; nothingDue: number; failed: number; status: string }
  try {
    reply = (
      (await post({ baseUrl: server.baseUrl, headers }, '/api/contracts/updateEarnings', {})) as {
        body: typeof reply
      }
    ).body
  } finally {
    state.running = false
  }
  const seconds = (performance.now() - started) / 1000
  const serverCpu = (await serverCpuSeconds(server)) - cpuBefore.server
  const postgresCpu = postgresCpuSeconds()
  await sampler
  const after = await rss(server)
  live.push(await liveHeap(server))
  if (reply.status !== 'COMPLETED') throw new Error(`the earnings run ended ${reply.status}`)
  return {
    contracts: options.contracts,
    seedSeconds,
    seconds,
    examined: reply.examined,
    posted: reply.posted,
    nothingDue: reply.nothingDue,
    failed: reply.failed,
    rssMb: { before, peak: Math.max(before, after, ...samples), after },
    liveHeapMb: live,
    cpuSeconds: {
      server: serverCpu,
      postgres:
        server.database === 'postgres' && postgresCpu !== null && cpuBefore.postgres !== null
          ? postgresCpu - cpuBefore.postgres
          : null,
    },
    samples: samples.length,
  }
}
