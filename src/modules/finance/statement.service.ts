// Account-holder statements (docs/statements.md): per holder and period of accounting dates, the
// opening balance, the period's journal lines with a running balance, and the closing balance,
// derived from journal lines only, stored as a document with a signed link.
//
// How a statement is made: its lines are counted first. Up to `syncLineLimit` lines it is made in
// the request: the content is written (read in pages, outside any transaction, into the documents
// module's staging file), then one transaction inserts the request, stores the document and writes
// the audit record and the event, so a failure leaves nothing. Beyond it the request is inserted
// QUEUED (with its audit record) and answered 202; a background task of this process marks it
// RUNNING, writes the content a page at a time (CSV rows straight into the staging file, memory
// flat; a PDF drawn page by page), then stores the document and marks it COMPLETED with the event
// in one transaction, or FAILED with the reason. Every page moves heartbeat_at: a request still
// QUEUED or RUNNING whose heartbeat is older than `staleAfterMs` and that no task of this process
// is making (the process that was making it stopped) is marked FAILED when next read; nothing
// resumes it, the caller requests it again (docs/statements.md "Restarts").
import { appendEvent } from '../../platform/events/outbox.ts'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import { localDate } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { actorLabel, type AuthenticatedContext, type RequestContext } from '../../platform/http/context.ts'
import { AppError } from '../../platform/http/errors.ts'
import { isStorableId } from '../../platform/ids.ts'
import { centsOf, formatCents } from '../../platform/money.ts'
import type { DocumentService } from '../documents/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { csvBalanceRow, csvHeaderRow, csvLineRow, type StatementLine } from './statement.csv.ts'
import { statementErrors } from './statement.errors.ts'
import { StatementPdf } from './statement.pdf.ts'
import * as repo from './statement.repository.ts'
import {
  checkStatementRequest,
  DEFAULT_SYNC_LINE_LIMIT,
  isSmall,
  PAGE_SIZE,
  runningBalances,
  type CheckedRequest,
  type StatementRequestInput,
  type StatementStatus,
} from './statement.rules.ts'

/** The documents module's owner type of stored statements, and their kind. */
export const STATEMENT_OWNER = 'STATEMENT_REQUEST'
export const STATEMENT_KIND = 'STATEMENT'
export const AUDIT_ENTITY = 'statement_request'

export type StatementRequestView = {
  id: number
  status: StatementStatus
  accountHolderId: number
  purpose: string | null
  from: string
  to: string
  format: 'PDF' | 'CSV'
  openingBalance: number | null
  closingBalance: number | null
  lineCount: number | null
  documentId: number | null
  fileId: number | null
  downloadUrl: string | null
  downloadUrlExpiresAt: string | null
  failureReason: string | null
  createdAt: string
  completedAt: string | null
}

export type StatementDeps = {
  db: Database
  clock: Clock
  settings: Pick<SettingsService, 'get'>
  documents: Pick<DocumentService, 'stage' | 'store' | 'get' | 'registerOwner'>
  /** Largest statement (in lines) made in the request; larger ones run in the background. Default 2,000. */
  syncLineLimit?: number
  /** Lines read per page. Default 1,000. */
  pageSize?: number
  /** A QUEUED or RUNNING request whose heartbeat is older than this, and that no task here makes, is FAILED. Default 5 min. */
  staleAfterMs?: number
}

type Made = {
  staged: Awaited<ReturnType<DocumentService['stage']>>
  openingCents: number
  closingCents: number
  lineCount: number
}

type Spec = CheckedRequest & { accountHolderId: number }

const CONTENT_TYPES = { CSV: 'text/plain; charset=utf-8', PDF: 'application/pdf' } as const

const money = (cents: number | null) => (cents === null ? null : cents / 100)

export function createStatementService(deps: StatementDeps) {
  const { db, clock, documents } = deps
  /** Tunable after creation by tests and benches (a small limit exercises the background path). */
  const options = {
    syncLineLimit: deps.syncLineLimit ?? DEFAULT_SYNC_LINE_LIMIT,
    pageSize: deps.pageSize ?? PAGE_SIZE,
    staleAfterMs: deps.staleAfterMs ?? 5 * 60_000,
  }
  /** Background tasks of this process, by `${tenantId}/${requestId}`. */
  const tasks = new Map<string, Promise<void>>()

  const notFound = (id: number) => statementErrors.create('statement_request_not_found', `No statement request ${id}`)
  const holderNotFound = (id: number) => statementErrors.create('account_holder_not_found', `No account holder ${id}`)

  /** The holder, when it exists and the caller may see it (dealer-side users: their account holders only). */
  async function visibleHolder(ctx: RequestContext, accountHolderId: number): Promise<repo.HolderRow> {
    const visible = ctx.principal?.visibleAccountHolderIds
    if (!isStorableId(accountHolderId) || (visible && !visible.has(accountHolderId)))
      throw holderNotFound(accountHolderId)
    const holder = await db.read(ctx.tenantId, (x) => repo.findAccountHolder(x, ctx.tenantId, accountHolderId))
    if (!holder) throw holderNotFound(accountHolderId)
    return holder
  }

  /**
   * Writes the statement into the documents module's staging file, reading the lines in pages by
   * the keyset cursor, each page in a read of its own; `onPage` runs after each (the heartbeat).
   */
  async function make(
    tenantId: number,
    spec: Spec,
    holder: repo.HolderRow,
    onPage: () => Promise<void> = async () => {},
  ): Promise<Made> {
    const accounts = await db.read(tenantId, (x) => repo.accountIds(x, tenantId, spec.accountHolderId, spec.purpose))
    const openingCents = centsOf(await db.read(tenantId, (x) => repo.balanceBefore(x, tenantId, accounts, spec.from)))
    let balance = openingCents
    let lineCount = 0
    async function* pages(): AsyncGenerator<StatementLine[]> {
      let cursor: repo.Cursor | null = null
      for (;;) {
        const rows = await db.read(tenantId, (x) =>
          repo.linesPage(x, tenantId, accounts, spec, cursor, options.pageSize),
        )
        if (rows.length === 0) return
        const lines = rows.map((r) => ({
          effectiveDate: r.effective_date,
          kind: r.kind,
          sourceType: r.source_type,
          sourceId: r.source_id,
          entryId: r.entry_id,
          lineNo: r.line_no,
          purpose: r.purpose,
          contractNumber: r.contract_number,
          disbursementCode: r.disbursement_code,
          memo: r.memo,
          debitCents: centsOf(r.debit),
          creditCents: centsOf(r.credit),
          balanceCents: 0,
        }))
        const { balances, closingCents } = runningBalances(balance, lines)
        lines.forEach((l, i) => (l.balanceCents = balances[i]!))
        balance = closingCents
        lineCount += lines.length
        yield lines
        await onPage()
        if (rows.length < options.pageSize) return
        const last = rows[rows.length - 1]!
        cursor = { effectiveDate: last.effective_date, entryId: last.entry_id, lineNo: last.line_no }
      }
    }
    let staged: Made['staged']
    if (spec.format === 'CSV') {
      const encoder = new TextEncoder()
      async function* csv(): AsyncGenerator<Uint8Array> {
        yield encoder.encode(csvHeaderRow() + csvBalanceRow('OPENING_BALANCE', spec.from, openingCents))
        for await (const lines of pages()) yield encoder.encode(lines.map(csvLineRow).join(''))
        yield encoder.encode(csvBalanceRow('CLOSING_BALANCE', spec.to, balance))
      }
      staged = await documents.stage(csv(), CONTENT_TYPES.CSV)
    } else {
      const [administrator, timeZone] = await Promise.all([
        db.read(tenantId, (x) => repo.administratorName(x, tenantId)),
        deps.settings.get(tenantId, 'timeZone'),
      ])
      const pdf = await StatementPdf.begin({
        administratorName: administrator ?? 'Administrator',
        accountHolder: { id: holder.id, name: holder.display_name, kind: holder.kind },
        purpose: spec.purpose,
        from: spec.from,
        to: spec.to,
        issuedOn: localDate(clock.now(), timeZone),
        openingCents,
      })
      for await (const lines of pages()) pdf.addLines(lines)
      staged = await documents.stage(await pdf.finish(balance, lineCount), CONTENT_TYPES.PDF)
    }
    return { staged, openingCents, closingCents: balance, lineCount }
  }

  /** Stores the made statement for request `id` and marks it COMPLETED, with the event; in the caller's transaction. */
  async function complete(ctx: RequestContext, id: number, spec: Spec, made: Made, fromStatuses: readonly string[]) {
    return db.transaction(ctx.tenantId, async (tx) => {
      const doc = await documents.store(ctx, {
        ownerType: STATEMENT_OWNER,
        ownerId: id,
        kind: STATEMENT_KIND,
        fileName: `statement-${spec.accountHolderId}-${spec.from}-${spec.to}.${spec.format === 'CSV' ? 'csv' : 'pdf'}`,
        title: `Statement of account holder ${spec.accountHolderId}, ${spec.from} to ${spec.to}`,
        contentType: made.staged.contentType,
        content: made.staged,
        metadata: { format: spec.format, purpose: spec.purpose, from: spec.from, to: spec.to },
      })
      const now = clock.now()
      const row = await repo.updateRequest(
        tx,
        ctx.tenantId,
        id,
        {
          status: 'COMPLETED',
          opening_balance: formatCents(made.openingCents),
          closing_balance: formatCents(made.closingCents),
          line_count: made.lineCount,
          document_id: doc.documentId,
          heartbeat_at: now,
          completed_at: now,
        },
        fromStatuses,
      )
      if (!row) throw new Error(`statement request ${id} is no longer ${fromStatuses.join(' or ')}`)
      await appendEvent(tx, ctx.tenantId, now, {
        type: 'statement.completed',
        payload: {
          statementRequestId: id,
          accountHolderId: spec.accountHolderId,
          purpose: spec.purpose,
          from: spec.from,
          to: spec.to,
          format: spec.format,
          openingBalance: formatCents(made.openingCents),
          closingBalance: formatCents(made.closingCents),
          lineCount: made.lineCount,
          documentId: doc.documentId,
        },
      })
      return row
    })
  }

  const auditRequested = (spec: Spec, status: StatementStatus, lineCount: number) => ({
    action: 'statement.requested',
    entityType: AUDIT_ENTITY,
    changes: {
      after: {
        accountHolderId: spec.accountHolderId,
        purpose: spec.purpose,
        from: spec.from,
        to: spec.to,
        format: spec.format,
        status,
        lineCount,
      },
    },
  })

  /** The background run of a QUEUED request; never throws (a failure is recorded on the request). */
  async function run(ctx: RequestContext, id: number, spec: Spec, holder: repo.HolderRow): Promise<void> {
    const tenantId = ctx.tenantId
    let made: Made | undefined
    try {
      const started = await db.transaction(tenantId, (tx) =>
        repo.updateRequest(tx, tenantId, id, { status: 'RUNNING', heartbeat_at: clock.now() }, ['QUEUED']),
      )
      if (!started) return
      made = await make(tenantId, spec, holder, async () => {
        await db.transaction(tenantId, (tx) =>
          repo.updateRequest(tx, tenantId, id, { heartbeat_at: clock.now() }, ['RUNNING']),
        )
      })
      await complete(ctx, id, spec, made, ['RUNNING'])
    } catch (err) {
      const reason =
        err instanceof AppError ? `${err.code}: ${err.message}` : 'The statement could not be made (internal error)'
      await db
        .transaction(tenantId, (tx) =>
          repo.updateRequest(
            tx,
            tenantId,
            id,
            { status: 'FAILED', failure_reason: reason.slice(0, 1000), heartbeat_at: clock.now() },
            ['QUEUED', 'RUNNING'],
          ),
        )
        .catch(() => {})
    } finally {
      await made?.staged.discard()
    }
  }

  async function view(tenantId: number, row: repo.RequestRow): Promise<StatementRequestView> {
    const doc = row.document_id === null ? undefined : await documents.get(tenantId, Number(row.document_id))
    const file = doc?.versions[doc.versions.length - 1]
    return {
      id: Number(row.id),
      status: row.status,
      accountHolderId: Number(row.account_holder_id),
      purpose: row.purpose,
      from: repo.dateText(row.from_date),
      to: repo.dateText(row.to_date),
      format: row.format,
      openingBalance: money(row.opening_balance === null ? null : centsOf(row.opening_balance)),
      closingBalance: money(row.closing_balance === null ? null : centsOf(row.closing_balance)),
      lineCount: row.line_count,
      documentId: row.document_id === null ? null : Number(row.document_id),
      fileId: file?.fileId ?? null,
      downloadUrl: file?.downloadUrl ?? null,
      downloadUrlExpiresAt: file?.downloadUrlExpiresAt ?? null,
      failureReason: row.failure_reason,
      createdAt: row.created_at.toISOString(),
      completedAt: row.completed_at ? row.completed_at.toISOString() : null,
    }
  }

  /** The request of a visible holder, a stopped background run marked FAILED first. */
  async function readRequest(ctx: RequestContext, accountHolderId: number, id: number): Promise<repo.RequestRow> {
    await visibleHolder(ctx, accountHolderId)
    if (!isStorableId(id)) throw notFound(id)
    let row = await db.read(ctx.tenantId, (x) => repo.findRequest(x, ctx.tenantId, id))
    if (!row || Number(row.account_holder_id) !== accountHolderId) throw notFound(id)
    const open = row.status === 'QUEUED' || row.status === 'RUNNING'
    const stale = clock.now().getTime() - row.heartbeat_at.getTime() > options.staleAfterMs
    if (open && stale && !tasks.has(`${ctx.tenantId}/${id}`)) {
      const failed = await db.transaction(ctx.tenantId, (tx) =>
        repo.updateRequest(
          tx,
          ctx.tenantId,
          id,
          {
            status: 'FAILED',
            failure_reason: 'The process making the statement stopped before it was done; request it again',
            heartbeat_at: clock.now(),
          },
          ['QUEUED', 'RUNNING'],
        ),
      )
      row = failed ?? (await db.read(ctx.tenantId, (x) => repo.findRequest(x, ctx.tenantId, id)))!
    }
    return row
  }

  const service = {
    options,

    /**
     * Requests a statement: made at once when small (status COMPLETED), else queued and made in
     * the background (QUEUED; `queued` true: the route answers 202 with a Location).
     */
    async request(
      ctx: AuthenticatedContext,
      accountHolderId: number,
      input: StatementRequestInput,
      /** inline: made in the call whatever its length (the MONTHLY_STATEMENTS process, in its batch's transaction). */
      how: { inline?: boolean } = {},
    ): Promise<{ queued: boolean; request: StatementRequestView }> {
      const holder = await visibleHolder(ctx, accountHolderId)
      const checked = checkStatementRequest(input)
      if (!checked.ok) {
        throw statementErrors.create(
          'statement_request_invalid',
          `Invalid statement request: ${checked.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
          { errors: checked.errors },
        )
      }
      const spec: Spec = { ...checked.value, accountHolderId }
      const tenantId = ctx.tenantId
      const accounts = await db.read(tenantId, (x) => repo.accountIds(x, tenantId, accountHolderId, spec.purpose))
      const { count } = await db.read(tenantId, (x) => repo.periodTotals(x, tenantId, accounts, spec.from, spec.to))
      const base = {
        account_holder_id: accountHolderId,
        purpose: spec.purpose,
        from_date: spec.from,
        to_date: spec.to,
        format: spec.format,
        opening_balance: null,
        closing_balance: null,
        line_count: null,
        document_id: null,
        failure_reason: null,
        requested_by: actorLabel(ctx),
      }
      if (how.inline === true || isSmall(count, options.syncLineLimit)) {
        const made = await make(tenantId, spec, holder)
        try {
          const row = await db.transaction(tenantId, async (tx) => {
            const now = clock.now()
            const inserted = await repo.insertRequest(tx, tenantId, {
              ...base,
              status: 'RUNNING',
              created_at: now,
              heartbeat_at: now,
              completed_at: null,
            })
            const id = Number(inserted.id)
            await writeAudit(tx, ctx, now, { ...auditRequested(spec, 'COMPLETED', made.lineCount), entityId: id })
            return complete(ctx, id, spec, made, ['RUNNING'])
          })
          return { queued: false, request: await view(tenantId, row) }
        } finally {
          await made.staged.discard()
        }
      }
      const row = await db.transaction(tenantId, async (tx) => {
        const now = clock.now()
        const inserted = await repo.insertRequest(tx, tenantId, {
          ...base,
          status: 'QUEUED',
          created_at: now,
          heartbeat_at: now,
          completed_at: null,
        })
        await writeAudit(tx, ctx, now, { ...auditRequested(spec, 'QUEUED', count), entityId: Number(inserted.id) })
        return inserted
      })
      const id = Number(row.id)
      const key = `${tenantId}/${id}`
      // Started after the commit, outside the request's unit of work (its transaction is over).
      const task = run(ctx, id, spec, holder).finally(() => tasks.delete(key))
      tasks.set(key, task)
      return { queued: true, request: await view(tenantId, row) }
    },

    /**
     * The dealers whose statement of `from`..`to` (all their accounts) is still to be made, after
     * `afterId`, ascending: the MONTHLY_STATEMENTS process's items (docs/processes.md).
     */
    async dealersDue(tenantId: number, period: { from: string; to: string }, afterId: number, limit: number) {
      return db.read(tenantId, (x) => repo.dealersWithoutStatement(x, tenantId, { ...period, afterId, limit }))
    },

    /** A statement request of a visible holder: 404 for another holder's, another tenant's or an unknown id. */
    async get(ctx: RequestContext, accountHolderId: number, id: number): Promise<StatementRequestView> {
      return view(ctx.tenantId, await readRequest(ctx, accountHolderId, id))
    },

    /** Waits for this process's background runs (tests, benches, shutdown). */
    async idle(): Promise<void> {
      while (tasks.size > 0) await Promise.allSettled(tasks.values())
    },
  }

  // Reads of a stored statement by document or file id need the caller to see the holder.
  documents.registerOwner(STATEMENT_OWNER, async (ctx, ownerId) => {
    const row = isStorableId(ownerId)
      ? await db.read(ctx.tenantId, (x) => repo.findRequest(x, ctx.tenantId, ownerId))
      : undefined
    if (!row) throw notFound(ownerId)
    const visible = ctx.principal?.visibleAccountHolderIds
    if (visible && !visible.has(Number(row.account_holder_id))) throw notFound(ownerId)
  })

  return service
}

export type StatementService = ReturnType<typeof createStatementService>
