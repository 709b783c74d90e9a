// Month close (docs/reporting.md "Month close"): a report of a closed month is produced once and
// frozen, the document it answered and the digest of its inputs stored (report_document); every later
// request or run of it answers the stored document. Used by the statement and bordereau services.
import { writeAudit } from '../../platform/audit.ts'
import { localDate, type Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { ReportKind } from '../../platform/db/schema.reporting.ts'
import { actorLabel, type AuthenticatedContext } from '../../platform/http/context.ts'
import * as repo from './report-run.repository.ts'
import { monthClosed } from './report-run.rules.ts'

export type FreezeDeps = {
  db: Database
  clock: Clock
  timeZone(tenantId: number): Promise<string>
  /** The tenant's booksClosedThrough (settings); absent: no month is ever closed. */
  booksClosedThrough?: ((tenantId: number) => Promise<string | null>) | undefined
}

/** A produced report: its document and the digest of the inputs it read. */
export type Produced<T> = { document: T; inputDigest: string }

export function createFreezer({ db, clock, timeZone, booksClosedThrough }: FreezeDeps) {
  return {
    /** Whether the month ending `monthTo` is closed for the tenant, so its reports are frozen. */
    async closed(tenantId: number, monthTo: string): Promise<boolean> {
      if (booksClosedThrough === undefined) return false
      const through = await booksClosedThrough(tenantId)
      if (through === null) return false
      return monthClosed(monthTo, localDate(clock.now(), await timeZone(tenantId)), through)
    },

    /** The frozen document, when there is one. */
    stored(tenantId: number, kind: ReportKind, riskBearerId: number, period: string) {
      return db.read(tenantId, (x) => repo.documentOf(x, tenantId, kind, riskBearerId, period))
    },

    /**
     * Stores a produced report unless one is stored already (a request or run that got there first:
     * the first wins), auditing `report_document.frozen`; answers the stored one.
     */
    async freeze<T>(
      ctx: AuthenticatedContext,
      kind: ReportKind,
      riskBearerId: number,
      period: string,
      produced: Produced<T>,
      reportRunId: number | null,
    ): Promise<{ document: T; row: repo.DocumentRow }> {
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const id = await repo.insertDocument(tx, ctx.tenantId, {
          kind,
          riskBearerId,
          period,
          reportRunId,
          document: produced.document as Record<string, unknown>,
          inputDigest: produced.inputDigest,
          createdAt: now,
          createdBy: actorLabel(ctx),
        })
        if (id !== undefined)
          await writeAudit(tx, ctx, now, {
            action: 'report_document.frozen',
            entityType: 'report_document',
            entityId: id,
            changes: { after: { kind, riskBearerId, period, reportRunId, inputDigest: produced.inputDigest } },
          })
        const row = await repo.documentOf(tx, ctx.tenantId, kind, riskBearerId, period)
        if (!row) throw new Error(`report_document ${kind} ${riskBearerId} ${period} not found after its insert`)
        return { document: row.document as T, row }
      })
    },
  }
}

export type Freezer = ReturnType<typeof createFreezer>
