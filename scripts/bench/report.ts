// The benchmark's outputs: the JSON rows (`--json`), the printed table and the verdict on targets.
import type { DatabaseKind } from './child.ts'

export type RouteKind = 'ceiling' | 'db-ceiling' | 'quote-ceiling' | 'measured'

/** One row of the JSON file; later issues add rows of the same shape. */
export type Run = {
  route: string
  database: DatabaseKind
  connections: number
  rps: number
  p50Ms: number
  p99Ms: number
  errors: number
  ratioToCeiling: number
  ratioToDbCeiling: number
  /** Against the stored copy of a quote reply (the rate quote's own ceiling); other rows leave it out. */
  ratioToQuoteCeiling?: number
  /** The server process's CPU time per request over the measured window, microseconds (process.cpuUsage()). */
  cpuUsPerRequest: number
  /** The ceiling this row's CPU is compared with: its target's, else the database ceiling (a ceiling: itself). */
  cpuCeiling: Exclude<RouteKind, 'measured'>
  /** cpuUsPerRequest over the cpuCeiling row's: how many times a ceiling request's CPU this route's costs. */
  cpuRatio: number
}

/** What a measured route must reach: a share of one ceiling's req/s, and a p99 bound. */
export type RatioTarget = { against: Exclude<RouteKind, 'measured'>; minRatio: number; maxP99Ms: number }
/** An absolute rate per database, with no errors at all. */
export type ThroughputTarget = { minRps: Record<DatabaseKind, number> }
export type Target = RatioTarget | ThroughputTarget

/** A measured row and what the benchmark knows about it beyond the JSON shape. */
export type Row = { run: Run; kind: RouteKind; statusCodes: Record<string, number>; target?: Target }

/** Targets of the authenticated user routes (issue 2, section 7), per database. */
export const USER_ROUTE_TARGET: Target = { against: 'db-ceiling', minRatio: 0.6, maxP99Ms: 25 }
/** Targets of the rate quote (issue 4, section 5), per database. */
export const QUOTE_TARGET: Target = { against: 'quote-ceiling', minRatio: 0.5, maxP99Ms: 50 }
/** Contract creation from stored quotes (issue 5): contracts per second on each database, no errors. */
export const CONTRACT_CREATE_TARGET: ThroughputTarget = { minRps: { pglite: 150, postgres: 300 } }

/** Cancel quotes (issue 13): p99 under 25 ms at 32 connections on each database; the ratio is reported, not targeted. */
export const CANCEL_QUOTE_TARGET: Target = { against: 'db-ceiling', minRatio: 0, maxP99Ms: 25 }
/** Processed cancels (issue 13): at least 200 per second on PostgreSQL (measured there only), no errors. */
export const CANCEL_PROCESS_TARGET: ThroughputTarget = { minRps: { pglite: 0, postgres: 200 } }
/** updateEarnings over 100,000 contracts on PostgreSQL (issue 13), seconds. */
export const EARNINGS_RUN_TARGET_SECONDS = 60
/**
 * The earnings run's memory is flat when the server's live heap (after a full collection, sampled
 * every 5 s) never exceeds its level before the run by this much: a run that kept what it read would
 * grow with the contracts done (100,000 contracts' rows are hundreds of MB); one round of batches
 * at a time is a few MB. RSS is reported beside it: V8 lets it grow to a working size first.
 */
export const EARNINGS_RUN_MAX_HEAP_GROWTH_MB = 50

/** Draft contract PDF rendering (scripts/bench-pdf.ts), once per run: not per database. */
export type PdfResult = { documents: number; medianMs: number; p95Ms: number }

const round = (n: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** The ceiling a row's CPU per request is compared with (see Run.cpuCeiling). */
function cpuCeilingOf(row: { kind: RouteKind; target?: Target }): Exclude<RouteKind, 'measured'> {
  if (row.kind !== 'measured') return row.kind
  return row.target !== undefined && 'against' in row.target ? row.target.against : 'db-ceiling'
}

/**
 * Fills in the ratios: each row against the ceiling and the database ceiling of the same database,
 * and its CPU per request against its CPU ceiling's.
 */
export function withRatios(
  rows: Array<Omit<Row, 'run'> & { run: Omit<Run, 'ratioToCeiling' | 'ratioToDbCeiling' | 'cpuCeiling' | 'cpuRatio'> }>,
): Row[] {
  return rows.map((row) => {
    const same = rows.filter((r) => r.run.database === row.run.database)
    const ceiling = same.find((r) => r.kind === 'ceiling')?.run.rps ?? Number.NaN
    const dbCeiling = same.find((r) => r.kind === 'db-ceiling')?.run.rps ?? Number.NaN
    const quoteCeiling = same.find((r) => r.kind === 'quote-ceiling')?.run.rps
    const cpuCeiling = cpuCeilingOf(row)
    const ceilingCpu = same.find((r) => r.kind === cpuCeiling)?.run.cpuUsPerRequest ?? Number.NaN
    const usesQuoteCeiling =
      row.kind === 'quote-ceiling' ||
      (row.target !== undefined && 'against' in row.target && row.target.against === 'quote-ceiling')
    return {
      ...row,
      run: {
        route: row.run.route,
        database: row.run.database,
        connections: row.run.connections,
        rps: round(row.run.rps, 1),
        p50Ms: round(row.run.p50Ms, 2),
        p99Ms: round(row.run.p99Ms, 2),
        errors: row.run.errors,
        ratioToCeiling: round(row.run.rps / ceiling, 3),
        ratioToDbCeiling: round(row.run.rps / dbCeiling, 3),
        ...(usesQuoteCeiling && quoteCeiling !== undefined
          ? { ratioToQuoteCeiling: round(row.run.rps / quoteCeiling, 3) }
          : {}),
        cpuUsPerRequest: round(row.run.cpuUsPerRequest, 1),
        cpuCeiling,
        cpuRatio: round(row.run.cpuUsPerRequest / ceilingCpu, 3),
      },
    }
  })
}

export function formatTable(rows: Row[]): string {
  const header = [
    'route',
    'database',
    'conn',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'vs ceiling',
    'vs db ceiling',
    'vs quote ceiling',
    'cpu µs/req',
    'cpu vs ceiling',
  ]
  const pct = (r: number) => (Number.isFinite(r) ? `${(r * 100).toFixed(1)}%` : '-')
  const body = rows.map(({ run }) => [
    run.route,
    run.database,
    String(run.connections),
    run.rps.toFixed(0),
    run.p50Ms.toFixed(2),
    run.p99Ms.toFixed(2),
    String(run.errors),
    pct(run.ratioToCeiling),
    pct(run.ratioToDbCeiling),
    pct(run.ratioToQuoteCeiling ?? Number.NaN),
    Number.isFinite(run.cpuUsPerRequest) ? run.cpuUsPerRequest.toFixed(0) : '-',
    Number.isFinite(run.cpuRatio) ? `${run.cpuRatio.toFixed(2)}× ${run.cpuCeiling}` : '-',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] as string).length)))
  // Text columns left-aligned, numbers right-aligned.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n')
}

/** One line per measured route and database: is it within its targets? */
export function verdicts(rows: Row[]): { lines: string[]; allMet: boolean } {
  const lines: string[] = []
  let allMet = true
  for (const { run, kind, target } of rows) {
    if (kind !== 'measured' || !target) continue
    if (!('against' in target)) {
      const min = target.minRps[run.database]
      const rpsOk = run.rps >= min
      const errorsOk = run.errors === 0
      allMet &&= rpsOk && errorsOk
      lines.push(
        `${rpsOk && errorsOk ? 'MET   ' : 'MISSED'} ${run.database.padEnd(8)} ${run.route}: ` +
          `${run.rps.toFixed(0)} req/s (target >= ${min})${rpsOk ? '' : ' <-'}, ${run.errors} errors (target 0)${errorsOk ? '' : ' <-'}, ` +
          `${(run.ratioToDbCeiling * 100).toFixed(1)}% of the db-ceiling, p99 ${run.p99Ms.toFixed(2)} ms`,
      )
      continue
    }
    const ratio =
      target.against === 'db-ceiling'
        ? run.ratioToDbCeiling
        : target.against === 'quote-ceiling'
          ? (run.ratioToQuoteCeiling ?? Number.NaN)
          : run.ratioToCeiling
    const ratioOk = ratio >= target.minRatio
    const p99Ok = run.p99Ms < target.maxP99Ms
    const met = ratioOk && p99Ok
    allMet &&= met
    const ratioTarget = target.minRatio > 0 ? ` (target >= ${target.minRatio * 100}%)${ratioOk ? '' : ' <-'}` : ''
    lines.push(
      `${met ? 'MET   ' : 'MISSED'} ${run.database.padEnd(8)} ${run.route}: ` +
        `${(ratio * 100).toFixed(1)}% of the ${target.against}${ratioTarget}, ` +
        `p99 ${run.p99Ms.toFixed(2)} ms (target < ${target.maxP99Ms} ms)${p99Ok ? '' : ' <-'}; ` +
        `server CPU ${run.cpuUsPerRequest.toFixed(0)} µs/request, ${run.cpuRatio.toFixed(2)}× the ${run.cpuCeiling}'s`,
    )
  }
  return { lines, allMet }
}

/** The PDF line of the verdict. */
export function pdfVerdict(pdf: PdfResult, targetMs: number): { line: string; met: boolean } {
  const met = pdf.medianMs < targetMs
  return {
    met,
    line:
      `${met ? 'MET   ' : 'MISSED'} draft contract PDF: median ${pdf.medianMs.toFixed(2)} ms per document (target < ${targetMs} ms)${met ? '' : ' <-'}, ` +
      `p95 ${pdf.p95Ms.toFixed(2)} ms, ${pdf.documents} documents`,
  }
}

/** One earnings run of the cancellations group (scripts/bench/cancellations.ts). */
export type EarningsRunRow = {
  database: DatabaseKind
  contracts: number
  seedSeconds: number
  seconds: number
  examined: number
  posted: number
  failed: number
  rssMb: { before: number; peak: number; after: number }
  /** Live heap after a full collection, MB: before the run, every 5 s of it, after it. */
  liveHeapMb: number[]
  /** CPU seconds of the run: the service's, PostgreSQL's (null when not measured). */
  cpuSeconds: { server: number; postgres: number | null }
}

/** The earnings run's line of the verdict: the time target on PostgreSQL, flat memory on each database. */
export function earningsVerdict(e: EarningsRunRow): { line: string; met: boolean } {
  const timed = e.database === 'postgres'
  const timeOk = !timed || e.seconds < EARNINGS_RUN_TARGET_SECONDS
  const [first = 0, ...rest] = e.liveHeapMb
  const growth = Math.max(first, ...rest) - first
  const flat = growth < EARNINGS_RUN_MAX_HEAP_GROWTH_MB
  const met = timeOk && flat
  return {
    met,
    line:
      `${met ? 'MET   ' : 'MISSED'} ${e.database.padEnd(8)} updateEarnings over ${e.examined} contracts ` +
      `(${e.posted} posted, ${e.failed} failed): ${e.seconds.toFixed(1)} s` +
      `${timed ? ` (target < ${EARNINGS_RUN_TARGET_SECONDS} s)${timeOk ? '' : ' <-'}` : ''}, ` +
      `${((e.examined / e.seconds) | 0).toString()} contracts/s; server live heap ${first.toFixed(0)} MB before, ` +
      `at most ${Math.max(first, ...rest).toFixed(0)} MB (target: growth < ${EARNINGS_RUN_MAX_HEAP_GROWTH_MB} MB)${flat ? '' : ' <-'}; ` +
      `RSS ${e.rssMb.before.toFixed(0)} MB before, ${e.rssMb.peak.toFixed(0)} MB peak, ${e.rssMb.after.toFixed(0)} MB after; ` +
      `CPU ${e.cpuSeconds.server.toFixed(1)} s service` +
      `${e.cpuSeconds.postgres === null ? '' : ` + ${e.cpuSeconds.postgres.toFixed(1)} s PostgreSQL`}; ` +
      `seeded in ${e.seedSeconds.toFixed(1)} s`,
  }
}

export function toJson(
  rows: Row[],
  imports: Array<{ database: DatabaseKind; rates: number; seconds: number }> = [],
  pdf?: PdfResult,
  earnings: EarningsRunRow[] = [],
  cashApply: Array<{ database: DatabaseKind; items: number; applied: number; seconds: number; status: number }> = [],
): string {
  return `${JSON.stringify(
    {
      runs: rows.map((r) => r.run),
      imports,
      ...(pdf ? { pdf } : {}),
      ...(earnings.length > 0 ? { earnings } : {}),
      ...(cashApply.length > 0 ? { cashApply } : {}),
    },
    null,
    2,
  )}\n`
}
