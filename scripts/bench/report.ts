// The benchmark's outputs: the JSON rows (`--json`), the printed table and the verdict on targets.
import type { DatabaseKind } from './child.ts'

export type RouteKind = 'ceiling' | 'db-ceiling' | 'measured'

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
}

/** A measured row and what the benchmark knows about it beyond the JSON shape. */
export type Row = { run: Run; kind: RouteKind; statusCodes: Record<string, number> }

/** Targets of the authenticated user routes (issue 2, section 7), per database. */
export const TARGET_RATIO_TO_DB_CEILING = 0.6
export const TARGET_P99_MS = 25

const round = (n: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** Fills in the ratios: each row against the ceiling and the database ceiling of the same database. */
export function withRatios(rows: Array<Omit<Row, 'run'> & { run: Omit<Run, 'ratioToCeiling' | 'ratioToDbCeiling'> }>): Row[] {
  return rows.map((row) => {
    const same = rows.filter((r) => r.run.database === row.run.database)
    const ceiling = same.find((r) => r.kind === 'ceiling')?.run.rps ?? Number.NaN
    const dbCeiling = same.find((r) => r.kind === 'db-ceiling')?.run.rps ?? Number.NaN
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
      },
    }
  })
}

export function formatTable(rows: Row[]): string {
  const header = ['route', 'database', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs ceiling', 'vs db ceiling']
  const pct = (r: number) => (Number.isFinite(r) ? `${(r * 100).toFixed(1)}%` : '-')
  const body = rows.map(({ run }) => [
    run.route, run.database, String(run.connections), run.rps.toFixed(0), run.p50Ms.toFixed(2), run.p99Ms.toFixed(2),
    String(run.errors), pct(run.ratioToCeiling), pct(run.ratioToDbCeiling),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] as string).length)))
  // Text columns left-aligned, numbers right-aligned.
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n')
}

/** One line per measured route and database: is it within the targets? */
export function verdicts(rows: Row[]): { lines: string[]; allMet: boolean } {
  const lines: string[] = []
  let allMet = true
  for (const { run, kind } of rows) {
    if (kind !== 'measured') continue
    const ratioOk = run.ratioToDbCeiling >= TARGET_RATIO_TO_DB_CEILING
    const p99Ok = run.p99Ms < TARGET_P99_MS
    const met = ratioOk && p99Ok
    allMet &&= met
    lines.push(`${met ? 'MET   ' : 'MISSED'} ${run.database.padEnd(8)} ${run.route}: ` +
      `${(run.ratioToDbCeiling * 100).toFixed(1)}% of the database ceiling (target >= ${TARGET_RATIO_TO_DB_CEILING * 100}%)${ratioOk ? '' : ' <-'}, ` +
      `p99 ${run.p99Ms.toFixed(2)} ms (target < ${TARGET_P99_MS} ms)${p99Ok ? '' : ' <-'}`)
  }
  return { lines, allMet }
}

export function toJson(rows: Row[]): string {
  return `${JSON.stringify({ runs: rows.map((r) => r.run) }, null, 2)}\n`
}
