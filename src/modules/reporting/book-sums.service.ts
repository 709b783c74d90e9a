// The reporting book's sums as of days (docs/reporting.md "How the figures are computed" and
// "Month-end sums"): what the statements and the loss ratios are the differences of. A day that is a
// month end the books have closed through (booksClosedThrough, before today) is read from its
// month-end sums (migration 0048), built once by the first report that needs them; any other day is
// reckoned contract by contract over the book (statement.repository bookCtes). Both give the same
// sums: the month-end sums are those very per-contract figures, summed by cell, and the database
// drops them when anything they read changes.
import { setTimeout as sleep } from 'node:timers/promises'
import { addDays } from '../../platform/calendar.ts'
import { localDate } from '../../platform/clock.ts'
import type { Executor } from '../../platform/db/database.ts'
import { isForeignKeyViolation } from '../../platform/db/errors.ts'
import type { EarningsTerms } from '../finance/index.ts'
import type { FreezeDeps } from './report-run.freeze.ts'
import * as repo from './statement.repository.ts'
import { shapeFractions, type DaySums, type Shape } from './statement.rules.ts'

/** A builder that started this long ago without finishing died: its claim may be taken over. */
const STALE_BUILD_SECONDS = 600
/** How long a builder waits for the transactions in progress at its claim; then it gives up. */
const WRITERS_WAIT_MS = 30_000

/** A date column as YYYY-MM-DD, whichever way the driver returns it. */
const dateOf = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10))

/** A shape row as the rules read it: the reserve lines' earnings terms, defaulted as the contract's are. */
function shapeOf(r: repo.ShapeRow): Shape {
  return {
    shape: r.shape,
    effectiveDate: dateOf(r.effective_date),
    expirationDate: dateOf(r.expiration_date),
    termMonths: Number(r.term_months),
    reserveLines: r.reserve_lines.map((l) => ({
      code: l.code,
      amountCents: Number(l.cents),
      terms: {
        method: l.earnings?.method ?? 'PRO_RATA_DAYS',
        curve: l.earnings?.curve ?? null,
        monthCounting: l.earnings?.monthCounting ?? null,
      } as EarningsTerms,
    })),
  }
}

/** A book query of the cumulative figures on `days`, with the earned fraction of every shape on each. */
export async function dayQuery(
  x: Executor,
  tenantId: number,
  scope: repo.BookScope,
  days: readonly string[],
  periods: repo.BookQuery['periods'] = [],
): Promise<repo.BookQuery> {
  const shapes = (await repo.shapesOf(x, tenantId, scope)).map(shapeOf)
  return { scope, days, periods, fractions: shapeFractions(shapes, days) }
}

/** A book query over `periods` (each from its first day, null: inception, through its last). */
export async function bookQuery(
  x: Executor,
  tenantId: number,
  scope: repo.BookScope,
  periods: ReadonlyArray<{ from: string | null; to: string }>,
): Promise<repo.BookQuery> {
  const days: string[] = []
  const at = (day: string) => {
    const i = days.indexOf(day)
    return i >= 0 ? i : days.push(day) - 1
  }
  const ps = periods.map((p) => ({ from: p.from === null ? null : at(addDays(p.from, -1)), to: at(p.to) }))
  return dayQuery(x, tenantId, scope, days, ps)
}

/** A group's sums on one day: `day` the index into the days asked for, `keys` its key values. */
export type GroupSums = { day: number; grouping: number; keys: Array<string | number | null>; sums: DaySums }

const n = (v: string | number | null | undefined) => Number(v ?? 0)

function groupSumsOf(r: repo.DaySumsRow, keyCount: number, days: readonly number[]): GroupSums {
  const written = n(r.written)
  const cancelled = n(r.cancelled)
  const earned = n(r.earned)
  const claimsPaid = n(r.paid)
  const claimsIncurred = n(r.inc)
  return {
    day: days[Number(r.t)]!,
    grouping: Number(r.g),
    keys: Array.from({ length: keyCount }, (_, i) => r[`k${i}`] ?? null),
    sums: {
      cumulative: {
        written,
        cancelled,
        netWritten: written - cancelled,
        earned,
        unearned: written - cancelled - earned,
        claimsPaid,
        claimsIncurred,
        claimsOutstanding: claimsIncurred - claimsPaid,
        cedingFee: n(r.ced),
        administratorFee: n(r.adm),
      },
      contracts: n(r.contracts),
      open: n(r.open),
      firstId: n(r.first_id),
    },
  }
}

/**
 * The book's sums on each of `days` grouped by `keys` (expressions over the contract or cell `c` and
 * `joins`, the same for both) in each of `sets`: the days in `monthEnds` (READY month-end sums) read
 * from them, the others reckoned contract by contract. Groups with no contract moved by a day have
 * no row for it.
 */
export async function bookSums(
  x: Executor,
  tenantId: number,
  scope: repo.BookScope,
  days: readonly string[],
  monthEnds: ReadonlySet<string>,
  keys: readonly string[],
  sets: ReadonlyArray<readonly number[]>,
  joins?: Parameters<typeof repo.daySums>[5],
): Promise<GroupSums[]> {
  const out: GroupSums[] = []
  // The month ends first, in one snapshot with their readiness: one not READY there is reckoned live.
  const months = days.map((_, i) => i).filter((i) => monthEnds.has(days[i]!))
  const read = await repo.monthDaySums(
    x,
    tenantId,
    scope,
    months.map((i) => days[i]!),
    keys,
    sets,
    joins,
  )
  for (const r of read.rows) out.push(groupSumsOf(r, keys.length, months))
  const live = days.map((_, i) => i).filter((i) => !read.ready.includes(days[i]!))
  if (live.length > 0) {
    const q = await dayQuery(
      x,
      tenantId,
      scope,
      live.map((i) => days[i]!),
    )
    for (const r of await repo.daySums(x, tenantId, q, keys, sets, joins)) out.push(groupSumsOf(r, keys.length, live))
  }
  return out
}

const isMonthEnd = (day: string) => addDays(day, 1).endsWith('-01')

/** The month-end sums: which of a report's days can be read from them, built when first needed. */
export function createMonthSums({ db, clock, timeZone, booksClosedThrough }: FreezeDeps) {
  /** Waits for the transactions in progress now (a change made before a claim was visible commits). */
  async function waitForWriters(tenantId: number): Promise<boolean> {
    let pending = await db.read(tenantId, (x) => repo.writersInProgress(x))
    const until = Date.now() + WRITERS_WAIT_MS
    while (pending.length > 0) {
      if (Date.now() > until) return false
      await sleep(50)
      const left = pending
      pending = await db.read(tenantId, (x) => repo.stillInProgress(x, left))
    }
    return true
  }

  return {
    /**
     * The days among `days` whose month-end sums are READY, after building those due: month ends
     * on or before booksClosedThrough and before today. A month end another builder is working on,
     * or whose build could not finish, is left out: the caller reckons it contract by contract.
     */
    async readyMonthEnds(tenantId: number, days: readonly string[]): Promise<Set<string>> {
      const through = booksClosedThrough ? await booksClosedThrough(tenantId) : null
      if (through === null) return new Set()
      const today = localDate(clock.now(), await timeZone(tenantId))
      const due = [...new Set(days)].filter((d) => isMonthEnd(d) && d <= through && d < today)
      if (due.length === 0) return new Set()
      const states = await db.read(tenantId, (x) => repo.monthStates(x, tenantId, due))
      const ready = new Set(states.filter((s) => s.status === 'READY').map((s) => s.monthEnd))
      const todo = due.filter((d) => !ready.has(d))
      if (todo.length === 0) return ready
      const claimed = await db.transaction(tenantId, (x) => repo.claimMonths(x, tenantId, todo, STALE_BUILD_SECONDS))
      if (claimed.length === 0) return ready
      try {
        // A change committed after this snapshot drops the claimed rows itself; one in flight now
        // may not have seen them, so the build reads only once every such transaction has ended.
        if (!(await waitForWriters(tenantId))) {
          await db.transaction(tenantId, (x) => repo.releaseMonths(x, tenantId, claimed))
          return ready
        }
        const built = await db.transaction(tenantId, async (x) => {
          const gross = await dayQuery(x, tenantId, { gross: true }, claimed)
          const ceded = await dayQuery(x, tenantId, { ceded: true }, claimed)
          await repo.insertMonthCells(x, tenantId, gross, ceded)
          await repo.insertMonthDigests(x, tenantId, claimed)
          return repo.markMonthsReady(x, tenantId, claimed)
        })
        for (const d of built) ready.add(d)
        return ready
      } catch (err) {
        await db.transaction(tenantId, (x) => repo.releaseMonths(x, tenantId, claimed)).catch(() => undefined)
        // A change dropped a claimed month while its cells were written: it is reckoned live instead.
        if (isForeignKeyViolation(err)) return ready
        throw err
      }
    },
  }
}
