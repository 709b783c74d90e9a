// The reporting group's workload (scripts/bench.ts --only reporting, docs/benchmarks.md "Reporting"):
// - set-up through the API: `companies` reinsurance companies, a treaty each over its share of the
//   first `dealers` dealers, template contracts sold and finalized, one template claim taken from
//   intake to its payment (a contract copied 30 days back carries it);
// - the book copied in bulk by the server (POST /bench/reporting/seed, reporting-seed.ts): `contracts`
//   contracts over the dealers, ceded to the companies, sold over the last year, every fifth with a
//   claim (`claims` in all), three in four of them paid;
// - vacuumed (PostgreSQL) as autovacuum would after a bulk load;
// - the month close: the books closed through last month's end and its statements produced and frozen
//   by a report run over every company (total seconds, the month-end sums built by its first step);
// - measured, one request at a time: the reinsurance statement (JSON) of this month to date for the
//   companies in turn (p50/p99 of `samples`: the column starts read from the month-end sums, today
//   reckoned), the loss ratios by dealer and vintage over the last twelve closed months (the first
//   request, which builds the month end before them, apart; then p50/p99) and over a year of days that
//   are not month ends (three requests: every contract reckoned); the server's RSS and live heap
//   before and after, sampled throughout.
import type { BenchServer } from './child.ts'
import { cloneContracts, sellTemplates } from './cancellations.ts'
import { vacuumAfterBulkLoad } from './vacuum.ts'

export const REPORTING_TARGET = { statementP99Ms: 500, lossRatioP99Ms: 200, monthSeconds: 600 } as const
export const REPORTING_SIZES = { contracts: 1_000_000, claims: 200_000, dealers: 1000, companies: 50 } as const
const TEMPLATES = 10
/** Copies per POST /bench/reporting/seed: each call well within the server's request timeout. */
const SEED_CALL = 10_000

type Http = { baseUrl: string; headers: Record<string, string> }

async function call(h: Http, method: string, url: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${h.baseUrl}${url}`, {
    method,
    headers: body === undefined ? h.headers : { ...h.headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`)
  return text === '' ? undefined : (JSON.parse(text) as unknown)
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
}

/** Wall times of one request at a time, and the server process's CPU per request (microseconds). */
export type Timing = { samples: number; p50Ms: number; p99Ms: number; maxMs: number; cpuMicrosPerRequest?: number }
export type ReportingResult = {
  contracts: number
  claims: number
  paid: number
  dealers: number
  companies: number
  seedSeconds: number
  month: string
  statement: Timing & { contractsPerStatement: number }
  lossRatio: Timing & { groups: number }
  /** The same loss ratios over days that are not month ends (reckoned contract by contract). */
  lossRatioAnyDays: Timing
  /** The first of them, which builds the month-end sums of the day before the range. */
  firstLossRatioMs: number
  monthRun: { statements: number; seconds: number }
  memory: { rssBeforeMb: number; rssAfterMb: number; rssPeakMb: number; heapBeforeMb: number; heapAfterMb: number }
}

async function timed(n: number, f: (i: number) => Promise<void>): Promise<Timing> {
  const ms: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    await f(i)
    ms.push(performance.now() - started)
  }
  ms.sort((a, b) => a - b)
  const round = (x: number) => Math.round(x * 10) / 10
  return { samples: n, p50Ms: round(percentile(ms, 50)), p99Ms: round(percentile(ms, 99)), maxMs: round(ms.at(-1)!) }
}

async function cpuMicros(server: BenchServer): Promise<number> {
  return ((await call({ baseUrl: server.baseUrl, headers: {} }, 'GET', '/bench/cpu')) as { micros: number }).micros
}

/** timed(), with the server's CPU time over the samples divided by their count. */
async function timedWithCpu(server: BenchServer, n: number, f: (i: number) => Promise<void>): Promise<Timing> {
  const before = await cpuMicros(server)
  const t = await timed(n, f)
  return { ...t, cpuMicrosPerRequest: Math.round((await cpuMicros(server)) - before) / n }
}

/** The server's RSS and heap; after a full GC with `gc` (before and after, not while sampling: a forced
 * GC every 500 ms would add its CPU time to the requests measured). */
async function memory(server: BenchServer, gc = true): Promise<{ rss: number; heapUsed: number }> {
  return (await call({ baseUrl: server.baseUrl, headers: {} }, 'GET', `/bench/memory${gc ? '?gc=1' : ''}`)) as {
    rss: number
    heapUsed: number
  }
}

export async function measureReporting(
  server: BenchServer,
  headers: Record<string, string>,
  options: {
    contracts: number
    claims: number
    dealers: number
    companies: number
    samples: number
    log: (line: string) => void
  },
): Promise<ReportingResult> {
  const h = { baseUrl: server.baseUrl, headers }
  const { log } = options
  let started = Date.now()
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1)

  // The dealers (the first `dealers` of the tenant) and the products they sell.
  const dealerIds: number[] = []
  for (let offset = 0; dealerIds.length < options.dealers; offset += 500) {
    const page = (await call(h, 'GET', `/api/dealers?limit=500&offset=${offset}`)) as Array<{ id: number }>
    if (page.length === 0) break
    dealerIds.push(...page.map((d) => d.id))
  }
  dealerIds.length = Math.min(dealerIds.length, options.dealers)
  const productIds = ((await call(h, 'GET', '/api/Rates/Products')) as Array<{ id: number }>).map((p) => p.id)
  const companyIds: number[] = []
  const treatyIds: number[] = []
  for (let i = 0; i < options.companies; i++) {
    const code = `BRE${String(i + 1).padStart(3, '0')}`
    const company = (await call(h, 'POST', '/api/reinsurancecompanies', {
      companyCode: code,
      legalName: `Bench Dealer Reinsurance ${i + 1}, Ltd.`,
      domicile: 'Turks and Caicos Islands',
    })) as { id: number }
    companyIds.push(company.id)
    const treaty = (await call(h, 'POST', '/api/reinsurance/treaties', {
      reinsuranceCompanyId: company.id,
      name: `${code} quota share`,
      dealerIds: dealerIds.filter((_, k) => k % options.companies === i),
      productIds,
      effectiveFrom: day(-400),
      shareBps: 7500,
      cedingFeeBps: 250,
      administratorFeeBps: 100,
    })) as { id: number }
    treatyIds.push(treaty.id)
  }
  log(`${options.companies} reinsurance companies and treaties over ${dealerIds.length} dealers in ${seconds()} s`)

  started = Date.now()
  const templateIds = await sellTemplates(server, headers, TEMPLATES)
  // The template claim: on a copy taken effect 30 days back, from intake to its payment.
  const [carrier] = await cloneContracts(server, { templateIds, count: 1, firstSerial: 900_000_000, returnIds: true })
  const facility = (await call(h, 'POST', '/api/repairfacilities', {
    facilityCode: 'RF-REPORTING',
    legalName: 'Reporting Bench Repair LLC',
    facilityType: 'INDEPENDENT',
    laborRate: 145,
  })) as { id: number }
  const first = async (url: string) => ((await call(h, 'GET', `${url}?limit=1`)) as Array<{ id: number }>)[0]!.id
  const claim = (await call(h, 'POST', '/api/claims', {
    contractId: carrier!.id,
    lossDate: day(-1),
    odometer: carrier!.saleOdometer + 1000,
    repairFacilityId: facility.id,
    taxRate: 0,
    jobs: [
      {
        complaintId: await first('/api/claims/complaints'),
        causeId: await first('/api/claims/causes'),
        correctionId: await first('/api/claims/corrections'),
        parts: [{ partNumber: 'P-1', description: 'Water pump', quantity: 1, unitPrice: 250, taxable: false }],
        labor: [{ operationCode: 'WP', hours: 1, rate: 100 }],
      },
    ],
  })) as { id: number }
  const patch = await fetch(`${server.baseUrl}/api/claims/${claim.id}`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json-patch+json' },
    body: JSON.stringify([
      { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
      { op: 'add', path: '/status', value: 'AUTHORIZED' },
    ]),
  })
  if (patch.status !== 200) throw new Error(`PATCH /api/claims/${claim.id} answered ${patch.status}`)
  const request = (await call(h, 'POST', `/api/claims/${claim.id}/paymentrequests`, {
    invoiceNumber: 'INV-REPORTING',
    invoiceDate: day(-1),
    invoicedTotal: 350,
  })) as { id: number; amount: number }
  await call(h, 'POST', `/api/claims/${claim.id}/paymentrequests/${request.id}/payments`, {
    method: 'CHECK',
    amount: request.amount,
    paidAt: day(-1),
    reference: 'CHK REPORTING',
  })
  log(`${TEMPLATES} template contracts and a template claim through the API in ${seconds()} s`)

  started = Date.now()
  const claimEvery = Math.max(1, Math.round(options.contracts / Math.max(1, options.claims)))
  let claims = 0
  let paid = 0
  const seedSteps: Record<string, number> = {}
  for (let done = 0; done < options.contracts; done += SEED_CALL) {
    const count = Math.min(SEED_CALL, options.contracts - done)
    const made = (await call({ baseUrl: server.baseUrl, headers: {} }, 'POST', '/bench/reporting/seed', {
      templateIds,
      claimContractId: carrier!.id,
      dealerIds,
      companyIds,
      treatyIds,
      count,
      firstSerial: done,
      claimEvery,
      unpaidEvery: 4,
      shareBps: 7500,
      cedingFeeBps: 250,
      administratorFeeBps: 100,
      // Statistics after the first call, every 100,000 contracts and the last: the plans need them,
      // and one ANALYZE costs seconds.
      analyze: done === 0 || done + count >= options.contracts || (done + count) % 100_000 === 0,
    })) as { claims: number; paid: number; steps?: Record<string, number> }
    claims += made.claims
    paid += made.paid
    for (const [k, ms] of Object.entries(made.steps ?? {})) seedSteps[k] = (seedSteps[k] ?? 0) + ms
    log(`seeded ${done + count} of ${options.contracts} contracts, ${claims} claims in bulk (${seconds()} s)`)
  }
  const seedSeconds = (Date.now() - started) / 1000
  // The visibility map autovacuum would have set: a company's book is read by index-only scans.
  if (server.database === 'postgres') {
    const vacuumStarted = Date.now()
    await vacuumAfterBulkLoad(['reporting_contract', 'reporting_movement'])
    log(`reporting book vacuumed in ${((Date.now() - vacuumStarted) / 1000).toFixed(1)} s`)
  }
  log(
    `seeding time by statement: ${Object.entries(seedSteps)
      .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}`,
  )

  // The month close: the books closed through last month's end, the month's statements produced and
  // frozen by a report run (its first statement builds the month-end sums the statements read).
  const now = new Date()
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
  const month = monthStart.toISOString().slice(0, 7)
  const lastMonthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10)
  const thisMonth = now.toISOString().slice(0, 7)
  const yearAgo = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1)).toISOString().slice(0, 10)
  const before = await memory(server)
  let peak = before.rss
  const sampler = setInterval(() => {
    memory(server, false).then(
      (m) => {
        peak = Math.max(peak, m.rss)
      },
      () => {},
    )
  }, 500)
  try {
    await call(h, 'PUT', '/api/GeneralSettings/booksClosedThrough', { value: lastMonthEnd })
    log(
      `books closed through ${lastMonthEnd}; the statements of ${month}, a report run over ${companyIds.length} companies…`,
    )
    const monthStarted = performance.now()
    const run = (await call(h, 'POST', '/api/reports/runs', { kind: 'REINSURANCE_STATEMENT', period: month })) as {
      id: number
    }
    for (;;) {
      const r = (await call(h, 'GET', `/api/reports/runs/${run.id}`)) as {
        status: string
        progress: { done: number; total: number }
        error: unknown
      }
      if (r.status === 'SUCCEEDED') break
      if (r.status === 'FAILED') throw new Error(`report run ${run.id} failed: ${JSON.stringify(r.error)}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const monthSeconds = (performance.now() - monthStarted) / 1000
    log(`all ${companyIds.length} statements of ${month} produced and frozen in ${monthSeconds.toFixed(1)} s`)

    let contractsPerStatement = 0
    log(`statements of ${thisMonth} to date, ${options.samples} one at a time…`)
    const statement = await timedWithCpu(server, options.samples, async (i) => {
      const s = (await call(
        h,
        'GET',
        `/api/reports/reinsurancecompanies/${companyIds[i % companyIds.length]}/statement?month=${thisMonth}`,
      )) as { contracts: number }
      contractsPerStatement = s.contracts
    })
    log(
      `statement p50 ${statement.p50Ms} ms, p99 ${statement.p99Ms} ms, server cpu ${statement.cpuMicrosPerRequest} µs/req (${contractsPerStatement} contracts each)`,
    )
    let groups = 0
    const lossRatioUrl = (from: string, to: string) =>
      `/api/reports/lossratios?groupBy=dealer,vintage&from=${from}&to=${to}&pageSize=100`
    // The month close's other month end (the day before the range), built by the first request.
    const firstStarted = performance.now()
    await call(h, 'GET', lossRatioUrl(yearAgo, lastMonthEnd))
    const firstLossRatioMs = Math.round(performance.now() - firstStarted)
    log(`the first loss ratios (month-end sums of ${yearAgo} built) in ${firstLossRatioMs} ms`)
    log(`loss ratios by dealer and vintage, ${yearAgo} to ${lastMonthEnd}, ${options.samples} one at a time…`)
    const lossRatio = await timedWithCpu(server, options.samples, async () => {
      groups = ((await call(h, 'GET', lossRatioUrl(yearAgo, lastMonthEnd))) as { totalCount: number }).totalCount
    })
    log(
      `loss ratios p50 ${lossRatio.p50Ms} ms, p99 ${lossRatio.p99Ms} ms, server cpu ${lossRatio.cpuMicrosPerRequest} µs/req (${groups} groups)`,
    )
    // A range whose days are not month ends: every contract reckoned on both days.
    const anyDays = Math.min(3, options.samples)
    log(`loss ratios by dealer and vintage, ${day(-365)} to ${day(-1)}, ${anyDays} one at a time…`)
    const lossRatioAnyDays = await timed(anyDays, async () => {
      await call(h, 'GET', lossRatioUrl(day(-365), day(-1)))
    })
    log(`loss ratios over any days p50 ${lossRatioAnyDays.p50Ms} ms, p99 ${lossRatioAnyDays.p99Ms} ms`)
    const after = await memory(server)
    peak = Math.max(peak, after.rss)
    const mb = (b: number) => Math.round(b / 1048576)
    return {
      contracts: options.contracts,
      claims,
      paid,
      dealers: dealerIds.length,
      companies: companyIds.length,
      seedSeconds,
      month,
      statement: { ...statement, contractsPerStatement },
      lossRatio: { ...lossRatio, groups },
      lossRatioAnyDays,
      firstLossRatioMs,
      monthRun: { statements: companyIds.length, seconds: Math.round(monthSeconds * 10) / 10 },
      memory: {
        rssBeforeMb: mb(before.rss),
        rssAfterMb: mb(after.rss),
        rssPeakMb: mb(peak),
        heapBeforeMb: mb(before.heapUsed),
        heapAfterMb: mb(after.heapUsed),
      },
    }
  } finally {
    clearInterval(sampler)
  }
}

export function reportingVerdicts(r: ReportingResult & { database: string }): Array<{ line: string; met: boolean }> {
  const full = r.contracts >= REPORTING_SIZES.contracts
  const scale = `${r.contracts} contracts, ${r.claims} claims, ${r.dealers} dealers, ${r.companies} companies${full ? '' : ' (scaled down)'}`
  const v = (met: boolean, what: string) => ({
    line: `${met && full ? 'MET   ' : met ? 'MET*  ' : 'MISSED'} ${r.database.padEnd(8)} ${what} over ${scale}`,
    met,
  })
  return [
    v(
      r.statement.p99Ms < REPORTING_TARGET.statementP99Ms,
      `reinsurance statement of the month to date (JSON, ${r.statement.contractsPerStatement} contracts) p99 ${r.statement.p99Ms} ms (target < ${REPORTING_TARGET.statementP99Ms} ms)`,
    ),
    v(
      r.lossRatio.p99Ms < REPORTING_TARGET.lossRatioP99Ms,
      `loss ratios by dealer and vintage over the last 12 closed months (${r.lossRatio.groups} groups) p99 ${r.lossRatio.p99Ms} ms (target < ${REPORTING_TARGET.lossRatioP99Ms} ms)`,
    ),
    {
      line: `INFO   ${r.database.padEnd(8)} loss ratios: the first request (building a month end's sums) ${r.firstLossRatioMs} ms; over days that are not month ends (reckoned contract by contract) p50 ${r.lossRatioAnyDays.p50Ms} ms, p99 ${r.lossRatioAnyDays.p99Ms} ms`,
      met: true,
    },
    v(
      r.monthRun.seconds < REPORTING_TARGET.monthSeconds,
      `all ${r.monthRun.statements} statements of ${r.month} (a report run, month-end sums built): ${r.monthRun.seconds} s (target < ${REPORTING_TARGET.monthSeconds} s)`,
    ),
    {
      line: `INFO   ${r.database.padEnd(8)} server RSS ${r.memory.rssBeforeMb} MB before, ${r.memory.rssPeakMb} MB peak, ${r.memory.rssAfterMb} MB after; live heap ${r.memory.heapBeforeMb} -> ${r.memory.heapAfterMb} MB; seeded in ${r.seedSeconds.toFixed(1)} s`,
      met: true,
    },
  ]
}
