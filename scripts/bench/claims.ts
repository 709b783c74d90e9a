// The claims group's workload (scripts/bench.ts, docs/benchmarks.md "Claims"): template contracts sold
// and finalized through the API and copied in bulk (as the cancellations group's), a repair facility,
// a template claim taken through the API, then claims copied from it in bulk by the server
// (scripts/bench/claim-seed.ts) for the index; a pool of copied contracts to take claims against;
// and the claim flow (intake, authorization, payment request), timed here flow by flow.
import http from 'node:http'
import { CLAIM_STATUSES } from '../../src/modules/claims/index.ts'
import type { BenchServer } from './child.ts'
import { cloneContracts, sellTemplates, type SeededContract } from './cancellations.ts'
import type { Measurement } from './load.ts'
import type { Target, ThroughputTarget } from './report.ts'
import { vacuumAfterBulkLoad } from './vacuum.ts'

/** Claims per contract copied for the index (each contract carries this many). */
export const CLAIMS_PER_CONTRACT = 4
/** Claims seeded per call of POST /bench/seed-claims: each call well within the server's request timeout. */
const SEED_CALL = 50_000

export type ClaimsSetup = {
  templateIds: number[]
  /** Contracts (finalized, ACTIVE, past their waiting period) claims are taken against. */
  intakePool: SeededContract[]
  facilityId: number
  lookups: { complaint: number; cause: number; correction: number }
  templateClaimId: number
  /** The dealers of the seeded claims (the templates'). */
  dealerIds: number[]
  claims: number
  /** Yesterday (UTC): a loss date after every copy's effective date and on or before today anywhere. */
  lossDate: string
}

type Reply = { status: number; text: string; headers: Record<string, string | string[] | undefined> }

async function send(
  baseUrl: string,
  headers: Record<string, string>,
  method: string,
  url: string,
  body?: unknown,
): Promise<Reply> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, text: await res.text(), headers: Object.fromEntries(res.headers) }
}

async function expect(reply: Promise<Reply>, status: number, what: string): Promise<unknown> {
  const r = await reply
  if (r.status !== status) throw new Error(`${what} answered ${r.status}: ${r.text.slice(0, 300)}`)
  return JSON.parse(r.text) as unknown
}

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)

/**
 * The body of a one-job claim against `contract`: a part and labor (342.50 asked, above any of the
 * synthetic book's deductibles, so the authorized claim has something payable), at 1,000 miles past
 * the sale odometer. The synthetic book's plans have no waiting period, and every copy took effect
 * 30 days back at least, so a loss yesterday is in force; the same odometer for every claim of a
 * contract is never below an earlier claim's.
 */
export function claimBody(
  setup: Pick<ClaimsSetup, 'lossDate' | 'facilityId' | 'lookups'>,
  contract: SeededContract,
  k: number,
): string {
  return JSON.stringify({
    contractId: contract.id,
    lossDate: setup.lossDate,
    odometer: contract.saleOdometer + 1000,
    repairFacilityId: setup.facilityId,
    repairOrderNumber: `RO-${k}`,
    taxRate: 0.0825,
    contact: { name: 'Service Advisor', phoneNumber: '+1-555-0199' },
    jobs: [
      {
        complaintId: setup.lookups.complaint,
        causeId: setup.lookups.cause,
        correctionId: setup.lookups.correction,
        parts: [
          { partNumber: '30520-5A2-A01', description: 'Ignition coil', quantity: 1, unitPrice: 125, taxable: true },
        ],
        labor: [{ operationCode: 'IGN-COIL', hours: 1.5, rate: 145 }],
      },
    ],
  })
}

/** What the invoice of a flow's claim totals: the part and labor asked, and the part's tax (125.00 × 8.25 %). */
const INVOICED_TOTAL = 352.81

/**
 * Everything the claims group's rows work from: templates sold and finalized through the API, the
 * intake pool copied from them, a repair facility and the tenant's first complaint, cause and
 * correction, a template claim taken through the API, and `claims` claims copied from it in bulk.
 */
export async function prepareClaims(
  server: BenchServer,
  headers: Record<string, string>,
  options: { templates: number; intakeContracts: number; claims: number; log: (line: string) => void },
): Promise<ClaimsSetup> {
  const { baseUrl } = server
  let started = Date.now()
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1)
  const templateIds = await sellTemplates(server, headers, options.templates)
  options.log(`sold and finalized ${templateIds.length} template contracts in ${seconds()} s`)
  started = Date.now()
  let serial = 0
  const intakePool = await cloneContracts(server, {
    templateIds,
    count: options.intakeContracts,
    firstSerial: serial,
    returnIds: true,
  })
  serial += options.intakeContracts
  options.log(`copied ${intakePool.length} contracts to take claims against in ${seconds()} s`)

  const facility = (await expect(
    send(baseUrl, headers, 'POST', '/api/repairfacilities', {
      facilityCode: 'RF-BENCH',
      legalName: 'Bench Auto Repair LLC',
      displayName: 'Bench Auto Repair',
      facilityType: 'INDEPENDENT',
      laborRate: 145,
    }),
    201,
    'POST /api/repairfacilities',
  )) as { id: number }
  const first = async (url: string) =>
    ((await expect(send(baseUrl, headers, 'GET', `${url}?limit=1`), 200, `GET ${url}`)) as Array<{ id: number }>)[0]!.id
  const lookups = {
    complaint: await first('/api/claims/complaints'),
    cause: await first('/api/claims/causes'),
    correction: await first('/api/claims/corrections'),
  }
  const lossDate = yesterday()
  const partial = { templateIds, intakePool, facilityId: facility.id, lookups, lossDate }
  const template = (await expect(
    send(baseUrl, headers, 'POST', '/api/claims', JSON.parse(claimBody(partial, intakePool[0]!, 0))),
    201,
    'POST /api/claims (the template claim)',
  )) as { id: number }

  started = Date.now()
  let dealerIds: number[] = []
  for (let done = 0; done < options.claims; done += SEED_CALL) {
    const claims = Math.min(SEED_CALL, options.claims - done)
    const contracts = Math.ceil(claims / CLAIMS_PER_CONTRACT)
    const reply = (await expect(
      send(baseUrl, {}, 'POST', '/bench/seed-claims', {
        templateIds,
        templateClaimId: template.id,
        contracts,
        claims,
        firstSerial: serial,
      }),
      200,
      'POST /bench/seed-claims',
    )) as { dealerIds: number[] }
    serial += contracts
    dealerIds = reply.dealerIds
    options.log(`seeded ${done + claims} of ${options.claims} claims in bulk (${seconds()} s)`)
  }
  // The visibility map autovacuum would have set (the index's count reads the index alone).
  if (server.database === 'postgres') await vacuumAfterBulkLoad(['claim'])
  options.log(
    `${options.claims} claims on ${Math.ceil(options.claims / CLAIMS_PER_CONTRACT)} contracts, ` +
      `${dealerIds.length} dealers × ${CLAIM_STATUSES.length} statuses, seeded in ${seconds()} s`,
  )
  return { ...partial, templateClaimId: template.id, dealerIds, claims: options.claims }
}

/** A random index path of the claims index: a seeded dealer and a claim status. */
export function indexPath(setup: ClaimsSetup): string {
  const dealer = setup.dealerIds[Math.floor(Math.random() * setup.dealerIds.length)]
  const status = CLAIM_STATUSES[Math.floor(Math.random() * CLAIM_STATUSES.length)]
  return `/api/claims?dealerId=${dealer}&status=${status}`
}

/** Whether an index page answers `path`: items, every one of the dealer and status asked. */
export function indexAnswers(body: unknown, path: string): boolean {
  const q = new URL(path, 'http://x').searchParams
  const page = body as { items?: Array<{ dealerId?: unknown; status?: unknown }>; totalCount?: unknown } | null
  return (
    Array.isArray(page?.items) &&
    page.items.length > 0 &&
    typeof page.totalCount === 'number' &&
    page.items.every((c) => String(c.dealerId) === q.get('dealerId') && c.status === q.get('status'))
  )
}

/** A random contract of the intake pool. */
export const intakeContract = (setup: ClaimsSetup) =>
  setup.intakePool[Math.floor(Math.random() * setup.intakePool.length)]!

// The authorization of a flow's claim: its one job and the claim, as a JSON Patch (claims-api.md).
const AUTHORIZE = JSON.stringify([
  { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
  { op: 'add', path: '/status', value: 'AUTHORIZED' },
])

type FlowClient = {
  request(method: string, path: string, body: string, contentType: string): Promise<{ status: number; text: string }>
}

function flowClient(baseUrl: string, headers: Record<string, string>, agent: http.Agent): FlowClient {
  const { hostname, port } = new URL(baseUrl)
  return {
    request: (method, path, body, contentType) =>
      new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent,
            hostname,
            port,
            method,
            path,
            headers: { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
            res.on('error', reject)
          },
        )
        req.on('error', reject)
        req.end(body)
      }),
  }
}

/** A step that did not answer as expected: the flow failed there. */
class StepError extends Error {
  readonly step: string
  readonly status: number
  constructor(step: string, status: number, text: string) {
    super(`${step} answered ${status}: ${text.slice(0, 300)}`)
    this.step = step
    this.status = status
  }
}

/**
 * One claim from intake to its payment request: POST /api/claims (a one-job claim against a random
 * contract of the pool), PATCH it authorized (the job and the claim, a JSON Patch), POST its payment
 * request. Replies the claim's id; `steps` counts each step's status codes.
 */
export async function claimFlow(
  client: FlowClient,
  setup: ClaimsSetup,
  k: number,
  steps: Record<string, number>,
): Promise<number> {
  const step = async (name: string, method: string, path: string, body: string, type: string, want: number) => {
    const r = await client.request(method, path, body, type)
    const key = `${name} ${r.status}`
    steps[key] = (steps[key] ?? 0) + 1
    if (r.status !== want) throw new StepError(name, r.status, r.text)
    return r.text
  }
  const created = JSON.parse(
    await step('intake', 'POST', '/api/claims', claimBody(setup, intakeContract(setup), k), 'application/json', 201),
  ) as { id: number }
  await step('authorize', 'PATCH', `/api/claims/${created.id}`, AUTHORIZE, 'application/json-patch+json', 200)
  await step(
    'payment request',
    'POST',
    `/api/claims/${created.id}/paymentrequests`,
    JSON.stringify({ invoiceNumber: `INV-${k}`, invoiceDate: setup.lossDate, invoicedTotal: INVOICED_TOTAL }),
    'application/json',
    201,
  )
  return created.id
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number
}

/**
 * Complete claim flows per second with `connections` flows in flight (each on a keep-alive
 * connection of its own), after a warm-up: one flow is checked first (the claim then reads
 * PENDING_PAYMENT), then every worker runs flow after flow. A flow counts in the window it completes
 * in; its time is from its first request to its last answer. A failed flow is an error (its step and
 * status in statusCodes), and the first failure is logged.
 */
export async function measureFlows(options: {
  server: BenchServer
  headers: Record<string, string>
  setup: ClaimsSetup
  connections: number
  durationSeconds: number
  warmupSeconds: number
  serverCpu: () => Promise<number>
  log: (line: string) => void
}): Promise<Measurement> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections })
  const client = flowClient(options.server.baseUrl, options.headers, agent)
  const steps: Record<string, number> = {}
  try {
    const id = await claimFlow(client, options.setup, 0, {})
    const claim = (await expect(
      send(options.server.baseUrl, options.headers, 'GET', `/api/claims/${id}`),
      200,
      `GET /api/claims/${id}`,
    )) as { status?: unknown }
    if (claim.status !== 'PENDING_PAYMENT')
      throw new Error(`after its payment request, claim ${id} is ${String(claim.status)}, not PENDING_PAYMENT`)

    let k = 1
    const times: number[] = []
    let errors = 0
    let firstFailure: string | undefined
    const warmEnd = performance.now() + options.warmupSeconds * 1000
    const end = warmEnd + options.durationSeconds * 1000
    // The server's CPU time as the measured window opens and closes (flows still running at its
    // end finish afterwards, uncounted).
    const at = (t: number) =>
      new Promise<number>((resolve, reject) => {
        setTimeout(() => options.serverCpu().then(resolve, reject), Math.max(0, t - performance.now()))
      })
    const cpuAtStart = at(warmEnd)
    const cpuAtEnd = at(end)
    const worker = async () => {
      for (let now = performance.now(); now < end; now = performance.now()) {
        const started = now
        try {
          await claimFlow(client, options.setup, k++, steps)
          const done = performance.now()
          if (done >= warmEnd && done <= end) times.push(done - started)
        } catch (err) {
          const done = performance.now()
          if (done >= warmEnd && done <= end) errors++
          firstFailure ??= err instanceof Error ? err.message : String(err)
          if (!(err instanceof StepError)) {
            const key = `connection error`
            steps[key] = (steps[key] ?? 0) + 1
          }
        }
      }
    }
    await Promise.all(Array.from({ length: options.connections }, worker))
    if (firstFailure) options.log(`first failed flow: ${firstFailure}`)
    const sorted = Float64Array.from(times).toSorted()
    return {
      rps: times.length / options.durationSeconds,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      errors,
      statusCodes: steps,
      requests: times.length,
      serverCpuMicros: (await cpuAtEnd) - (await cpuAtStart),
    }
  } finally {
    agent.destroy()
  }
}

/** The claims index (issue 14): p99 under 50 ms at 32 connections; the ratio to the database ceiling is reported, not judged. */
export const CLAIMS_INDEX_TARGET: Target = { against: 'db-ceiling', minRatio: 0, maxP99Ms: 50 }
/** Claims from intake through their payment request (issue 14): at least 150 complete flows per second on PostgreSQL, no errors. */
export const CLAIM_FLOW_TARGET: ThroughputTarget = { minRps: { pglite: 0, postgres: 150 } }
