// A dealer's statement of >= STATEMENT_LINES lines, as CSV and as PDF, over HTTP (issue 15: "a
// 10,000-line statement as CSV streams with server memory growth < 50 MB and as PDF in under 5 s";
// docs/statements.md). Part of the ledgers group (scripts/bench.ts --only ledgers), after its seed:
// the dealer with the most journal lines is taken; when it has fewer than the size asked for, more
// copies of one template contract are made (POST /bench/clone-contracts), all that template's
// dealer's. Then, per format: POST .../statementrequests over every account of the dealer and a
// period covering all its lines, poll the request (GET) until COMPLETED when it is 202, download the
// document from its signed link; the wall time is from the POST to the last byte downloaded, the
// server's RSS is sampled every 100 ms from before the POST to the end of the download.
import type { BenchServer } from './child.ts'
import { cloneContracts } from './cancellations.ts'
import { countLines, type LedgersSetup } from './ledgers.ts'

export const STATEMENT_LINES = 10_000
export const STATEMENT_CSV_MAX_GROWTH_MB = 50
export const STATEMENT_PDF_TARGET_SECONDS = 5

export type StatementRun = {
  format: 'CSV' | 'PDF'
  /** 201 (made in the request) or 202 (made in the background, polled). */
  status: number
  finalStatus: string
  lineCount: number
  bytes: number
  /** CSV only: rows in the downloaded file (header, opening and closing rows included). */
  rows: number | null
  seconds: number
  polls: number
  rssMb: { before: number; peak: number; after: number }
  failureReason: string | null
}

export type StatementResult = { dealerId: number; holderLines: number; seedSeconds: number; runs: StatementRun[] }

async function rss(server: BenchServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/bench/memory`)
  return ((await res.json()) as { rss: number }).rss / 1024 / 1024
}

type RequestBody = {
  id: number
  status: string
  lineCount: number | null
  downloadUrl: string | null
  failureReason: string | null
}

export async function measureStatements(
  server: BenchServer,
  headers: Record<string, string>,
  setup: LedgersSetup,
  options: { lines: number; log: (line: string) => void },
): Promise<StatementResult> {
  const counts = await Promise.all(
    setup.dealerIds.map(async (id) => ({ id, lines: await countLines(server, headers, id) })),
  )
  let best = counts.reduce((a, b) => (b.lines > a.lines ? b : a))
  const seedStarted = performance.now()
  let copied = 0
  // Every copy of a template adds a line on its dealer's receivable: copies of one template, until
  // the dealer with most lines has enough (after the first round, that is the template's dealer).
  for (let round = 0; best.lines < options.lines && round < 3; round++) {
    const missing = options.lines - best.lines
    options.log(
      `statements: the dealer with most lines has ${best.lines}; copying ${missing} contracts of one template`,
    )
    for (let done = 0; done < missing; done += 20_000) {
      await cloneContracts(server, {
        templateIds: [setup.templateIds[0]!],
        count: Math.min(20_000, missing - done),
        firstSerial: setup.contracts + 1_000_000 + copied,
        returnIds: false,
      })
      copied += Math.min(20_000, missing - done)
    }
    const again = await Promise.all(
      setup.dealerIds.map(async (id) => ({ id, lines: await countLines(server, headers, id) })),
    )
    best = again.reduce((a, b) => (b.lines > a.lines ? b : a))
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000
  options.log(`statements: dealer ${best.id} has ${best.lines} journal lines`)
  const runs: StatementRun[] = []
  for (const format of ['CSV', 'PDF'] as const) {
    runs.push(await measureOne(server, headers, best.id, format))
    const r = runs.at(-1)!
    options.log(
      `statements: ${format} ${r.finalStatus} (${r.status}), ${r.lineCount} lines, ${r.bytes} bytes in ${r.seconds.toFixed(2)} s; ` +
        `RSS ${r.rssMb.before.toFixed(0)} before, peak ${r.rssMb.peak.toFixed(0)}, ${r.rssMb.after.toFixed(0)} MB after`,
    )
  }
  return { dealerId: best.id, holderLines: best.lines, seedSeconds, runs }
}

async function measureOne(
  server: BenchServer,
  headers: Record<string, string>,
  dealerId: number,
  format: 'CSV' | 'PDF',
): Promise<StatementRun> {
  // Settle earlier garbage before the baseline.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const before = await rss(server)
  const samples: number[] = []
  const state = { running: true }
  const sampler = (async () => {
    while (state.running) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      if (!state.running) break
      samples.push(await rss(server))
    }
  })()
  const to = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
  const started = performance.now()
  let polls = 0
  let bytes = 0
  let rows: number | null = null
  let status = 0
  let body: RequestBody
  try {
    const res = await fetch(`${server.baseUrl}/api/accountholders/${dealerId}/statementrequests`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ from: '2000-01-01', to, format }),
    })
    status = res.status
    body = (await res.json()) as RequestBody
    if (status !== 201 && status !== 202)
      throw new Error(`POST statementrequests answered ${status}: ${JSON.stringify(body)}`)
    while (body.status === 'QUEUED' || body.status === 'RUNNING') {
      await new Promise((resolve) => setTimeout(resolve, 100))
      polls++
      const poll = await fetch(`${server.baseUrl}/api/accountholders/${dealerId}/statementrequests/${body.id}`, {
        headers,
      })
      body = (await poll.json()) as RequestBody
    }
    if (body.status === 'COMPLETED' && body.downloadUrl) {
      const download = await fetch(new URL(body.downloadUrl, server.baseUrl))
      if (download.status !== 200 || !download.body) throw new Error(`the download answered ${download.status}`)
      let newlines = 0
      for await (const chunk of download.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength
        if (format === 'CSV') for (const b of chunk) if (b === 10) newlines++
      }
      if (format === 'CSV') rows = newlines
    }
  } finally {
    state.running = false
  }
  const seconds = (performance.now() - started) / 1000
  await sampler
  const after = await rss(server)
  return {
    format,
    status,
    finalStatus: body.status,
    lineCount: body.lineCount ?? 0,
    bytes,
    rows,
    seconds,
    polls,
    rssMb: { before, peak: Math.max(before, after, ...samples), after },
    failureReason: body.failureReason,
  }
}

/** The verdict of one format: CSV on the RSS growth, PDF on the wall time; both need >= `lines` lines. */
export function statementVerdict(database: string, lines: number, r: StatementRun): { met: boolean; line: string } {
  const growth = r.rssMb.peak - r.rssMb.before
  const done = r.finalStatus === 'COMPLETED' && r.lineCount >= lines && r.bytes > 0
  const met =
    done && (r.format === 'CSV' ? growth < STATEMENT_CSV_MAX_GROWTH_MB : r.seconds < STATEMENT_PDF_TARGET_SECONDS)
  const target =
    r.format === 'CSV' ? `server RSS growth < ${STATEMENT_CSV_MAX_GROWTH_MB} MB` : `< ${STATEMENT_PDF_TARGET_SECONDS} s`
  return {
    met,
    line:
      `${met ? 'MET   ' : 'MISSED'} ${database.padEnd(8)} ${r.format} statement of ${r.lineCount} lines ` +
      `(${r.finalStatus}, ${r.status}, ${(r.bytes / 1024).toFixed(0)} KiB): ${r.seconds.toFixed(2)} s, server RSS +${growth.toFixed(0)} MB ` +
      `(${r.rssMb.before.toFixed(0)} -> peak ${r.rssMb.peak.toFixed(0)} MB) (target ${lines} lines, ${target})`,
  }
}
