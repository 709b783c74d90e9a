// The processes group's workload (scripts/bench.ts --only processes, docs/benchmarks.md):
// - expiry: contracts copied in bulk (contract-seed.ts) with their dates moved past their expiration,
//   then one EXPIRY run started through POST /api/automatic-process-runs and worked at once by the
//   server (POST /bench/processes/work), timed from the start to the run's end;
// - webhook delivery: a receiver on 127.0.0.1 in this process, subscribed to every event; outbox
//   events appended in bulk by the server at a steady offered rate (POST /bench/outbox), delivered
//   by the server's deliverer; the delivered rate and each event's lag (its receipt minus its
//   `created`, both on this machine's clock), then a burst drained from a standing start.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BenchServer } from './child.ts'
import { sellTemplates } from './cancellations.ts'

export const EXPIRY_TARGET_SECONDS = 60
export const WEBHOOK_TARGET = { minEventsPerSecond: 500, maxP99LagMs: 2000 } as const

type Http = { baseUrl: string; headers: Record<string, string> }

async function call(h: Http, method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${h.baseUrl}${url}`, {
    method,
    headers: body === undefined ? h.headers : { ...h.headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`)
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) }
}

export type ExpiryResult = {
  contracts: number
  seedSeconds: number
  /** From the run's start (POST) to its end, worked by the server at once. */
  seconds: number
  examined: number
  changed: number
  failed: number
  status: string
  batchSize: number
}

/**
 * Sells `templates` contracts through the API and activates them, copies them `contracts` times with
 * their dates moved back past any term (10 years and more), then times one EXPIRY run over them all.
 */
export async function measureExpiry(
  server: BenchServer,
  headers: Record<string, string>,
  options: {
    templates: number
    contracts: number
    batchSize: number
    /** Batches at once (the server's processes.options.parallelBatches); undefined: the server's default. */
    parallelBatches: number | undefined
    log: (line: string) => void
  },
): Promise<ExpiryResult> {
  const api = { baseUrl: server.baseUrl, headers }
  const bench = { baseUrl: server.baseUrl, headers: {} }
  const templateIds = await sellTemplates(server, headers, options.templates)
  // Activated first, as the daily ACTIVATION leaves contracts long before they expire: the copies
  // are ACTIVE with their activation in their history.
  await call(api, 'POST', '/api/automatic-process-runs', { process: 'ACTIVATION' })
  await call(bench, 'POST', '/bench/processes/work', {})
  const seedStarted = performance.now()
  for (let done = 0; done < options.contracts; done += 20_000) {
    const count = Math.min(20_000, options.contracts - done)
    await call(bench, 'POST', '/bench/clone-contracts', {
      templateIds,
      count,
      firstSerial: 1 + done,
      spreadDays: 300,
      shiftDays: 3660,
      returnIds: false,
    })
    options.log(`seeded ${done + count} of ${options.contracts} contracts past their expiration, in bulk`)
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000
  const started = performance.now()
  const queued = (
    await call(api, 'POST', '/api/automatic-process-runs', {
      process: 'EXPIRY',
      parameters: { batchSize: options.batchSize },
    })
  ).body as { guid: string }
  await call(
    bench,
    'POST',
    '/bench/processes/work',
    options.parallelBatches === undefined ? {} : { parallelBatches: options.parallelBatches },
  )
  const seconds = (performance.now() - started) / 1000
  const run = (await call(api, 'GET', `/api/automatic-process-runs/${queued.guid}`)).body as {
    status: string
    examined: number
    changed: number
    failed: number
  }
  return {
    contracts: options.contracts,
    seedSeconds,
    seconds,
    examined: run.examined,
    changed: run.changed,
    failed: run.failed,
    status: run.status,
    batchSize: options.batchSize,
  }
}

export type WebhookPhase = {
  events: number
  delivered: number
  /** Delivered events per second: from the first event's append to the last one's receipt. */
  eventsPerSecond: number
  p50LagMs: number
  p99LagMs: number
  maxLagMs: number
  /** Receipts of an event already received (delivery is at least once). */
  duplicates: number
  /** Events of one contract received out of their order. */
  outOfOrder: number
}

export type WebhookResult = {
  /** The offered rate, events per second, for `seconds`. */
  sustained: WebhookPhase & { offeredPerSecond: number; seconds: number }
  /** `events` appended at once, drained. */
  burst: WebhookPhase
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** A receiver on 127.0.0.1 answering 204 and noting each event's receipt. */
async function startReceiver() {
  const received = new Map<number, { lagMs: number; at: number }>()
  const lastSeqOf = new Map<number, number>()
  const counts = { duplicates: 0, outOfOrder: 0 }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const at = Date.now()
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        created: string
        data: { contractId: number; seq: number }
      }
      const { seq, contractId } = event.data
      if (received.has(seq)) counts.duplicates++
      else received.set(seq, { lagMs: at - Date.parse(event.created), at })
      if ((lastSeqOf.get(contractId) ?? -1) > seq) counts.outOfOrder++
      lastSeqOf.set(contractId, Math.max(seq, lastSeqOf.get(contractId) ?? -1))
      res.writeHead(204).end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // The deliverer keeps its connections alive: close them, or close() waits for their timeout.
        server.closeAllConnections()
      }),
  }
}

/** Waits until every seq in [first, first + count) is received (or `timeoutMs` passes). */
async function waitFor(received: ReadonlyMap<number, unknown>, first: number, count: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let all = true
    for (let s = first; s < first + count; s++)
      if (!received.has(s)) {
        all = false
        break
      }
    if (all || Date.now() > deadline) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function phase(
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  first: number,
  count: number,
  startedAt: number,
  before: { duplicates: number; outOfOrder: number },
): WebhookPhase {
  const lags: number[] = []
  let last = startedAt
  for (let s = first; s < first + count; s++) {
    const r = receiver.received.get(s)
    if (!r) continue
    lags.push(r.lagMs)
    last = Math.max(last, r.at)
  }
  lags.sort((a, b) => a - b)
  return {
    events: count,
    delivered: lags.length,
    eventsPerSecond: lags.length / Math.max(0.001, (last - startedAt) / 1000),
    p50LagMs: percentile(lags, 50),
    p99LagMs: percentile(lags, 99),
    maxLagMs: lags.at(-1) ?? Number.NaN,
    duplicates: receiver.counts.duplicates - before.duplicates,
    outOfOrder: receiver.counts.outOfOrder - before.outOfOrder,
  }
}

/**
 * Subscribes a local receiver to every event, then offers `rate` events a second for `seconds`
 * (appended every 100 ms) over `contracts` contracts, and then appends `burst` events at once.
 */
export async function measureWebhooks(
  server: BenchServer,
  headers: Record<string, string>,
  options: { rate: number; seconds: number; burst: number; contracts: number; log: (line: string) => void },
): Promise<WebhookResult> {
  const api = { baseUrl: server.baseUrl, headers }
  const bench = { baseUrl: server.baseUrl, headers: {} }
  const receiver = await startReceiver()
  try {
    await call(bench, 'POST', '/bench/webhooks/start', {})
    await call(api, 'POST', '/api/webhooks/subscriptions', {
      url: receiver.url,
      eventTypes: ['*'],
      description: 'bench receiver',
    })
    let seq = 1
    const timeoutMs = 120_000

    // Sustained: rate/10 events every 100 ms.
    const perTick = Math.max(1, Math.round(options.rate / 10))
    const ticks = options.seconds * 10
    const firstSustained = seq
    const sustainedStart = Date.now()
    for (let k = 0; k < ticks; k++) {
      const due = sustainedStart + k * 100
      const wait = due - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      await call(bench, 'POST', '/bench/outbox', { count: perTick, contracts: options.contracts, firstSeq: seq })
      seq += perTick
    }
    const sustainedCount = seq - firstSustained
    await waitFor(receiver.received, firstSustained, sustainedCount, timeoutMs)
    const sustained = {
      ...phase(receiver, firstSustained, sustainedCount, sustainedStart, { duplicates: 0, outOfOrder: 0 }),
      offeredPerSecond: options.rate,
      seconds: options.seconds,
    }
    options.log(
      `sustained ${options.rate}/s for ${options.seconds} s: ${sustained.delivered} of ${sustained.events} delivered, ` +
        `${sustained.eventsPerSecond.toFixed(0)}/s, lag p50 ${sustained.p50LagMs} ms, p99 ${sustained.p99LagMs} ms`,
    )

    // Burst: everything at once (in appends of at most 5,000), drained.
    const before = { ...receiver.counts }
    const firstBurst = seq
    const burstStart = Date.now()
    for (let done = 0; done < options.burst; done += 5000) {
      const count = Math.min(5000, options.burst - done)
      await call(bench, 'POST', '/bench/outbox', { count, contracts: options.contracts, firstSeq: seq })
      seq += count
    }
    await waitFor(receiver.received, firstBurst, options.burst, timeoutMs)
    const burst = phase(receiver, firstBurst, options.burst, burstStart, before)
    options.log(
      `burst of ${options.burst}: ${burst.delivered} delivered, ${burst.eventsPerSecond.toFixed(0)}/s, ` +
        `lag p50 ${burst.p50LagMs} ms, p99 ${burst.p99LagMs} ms`,
    )
    return { sustained, burst }
  } finally {
    await receiver.close()
  }
}
