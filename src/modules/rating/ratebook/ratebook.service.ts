// Rate-book use cases: import (checked as a whole, then stored as a new immutable version in one
// transaction, audited, announced on the bus), the version list, and export. Import is the same for
// the HTTP route and the operator CLI.
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { writeAudit } from '../../../platform/audit.ts'
import { canonicalJson } from '../../../platform/canonical-json.ts'
import type { Clock } from '../../../platform/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import type { AccountHolderKind } from '../../../platform/db/schema.ts'
import { actorLabel, type AuthenticatedContext } from '../../../platform/http/context.ts'
import type { DealerDirectory } from '../../parties/index.ts'
import { rateBookErrors } from './ratebook.errors.ts'
import { ensureCatalogueItems, insertRateBook, lockRateBooks, type RateBookVersionRow } from './ratebook.repository.ts'
import {
  catalogueItemsOf,
  checkRateBook,
  summarize,
  type RateBook,
  type RateBookProblem,
  type RateBookSources,
} from './ratebook.rules.ts'
import { versionInForce, type RateBookStore } from './ratebook.store.ts'

export type ImportResult = {
  dryRun: boolean
  /** True when the book is identical to the latest version, which is returned instead of a copy. */
  unchanged: boolean
  version: number | null
  id: number | null
  effectiveDate: string
  checksum: string
  summary: ReturnType<typeof summarize>
}

export class RateBookRefused extends Error {
  readonly problems: RateBookProblem[]
  constructor(problems: RateBookProblem[]) {
    super(`the rate book has ${problems.length} problem(s)`)
    this.name = 'RateBookRefused'
    this.problems = problems
  }
}

export type RateBookService = ReturnType<typeof createRateBookService>

export function createRateBookService({
  db,
  clock,
  store,
  directory,
  today,
}: {
  db: Database
  clock: Clock
  store: RateBookStore
  directory: DealerDirectory
  today: (tenantId: number) => Promise<string>
}) {
  /** Fixed payees must be account holders of the tenant; reported like every other problem. */
  async function payeeProblems(tenantId: number, book: RateBook, file: string): Promise<RateBookProblem[]> {
    const wanted = book.disbursementCodes.flatMap((c, i) =>
      c.payee?.role === 'ACCOUNT_HOLDER'
        ? [{ i, kind: c.payee.kind as AccountHolderKind, businessKey: c.payee.businessKey! }]
        : [],
    )
    if (wanted.length === 0) return []
    const found = await directory.idsByBusinessKey(tenantId, wanted)
    return wanted
      .filter((w) => !found.has(`${w.kind}/${w.businessKey.toLowerCase()}`))
      .map((w) => ({
        file,
        path: `/disbursementCodes/${w.i}/payee/businessKey`,
        code: 'unknown_reference',
        message: `no ${w.kind} with business key '${w.businessKey}' in this tenant`,
      }))
  }

  return {
    /**
     * Checks and (unless `dryRun`) stores the book as the tenant's next version. Throws
     * RateBookRefused listing every problem; nothing is stored then.
     */
    async importBook(
      ctx: AuthenticatedContext,
      input: unknown,
      options: { dryRun: boolean; sources?: RateBookSources },
    ): Promise<ImportResult> {
      const sources = options.sources ?? { file: 'body' }
      const checked = checkRateBook(input, sources)
      if (!checked.ok) throw new RateBookRefused(checked.problems)
      const book = checked.book
      const payees = await payeeProblems(ctx.tenantId, book, sources.file)
      if (payees.length > 0) throw new RateBookRefused(payees)
      const json = JSON.stringify(book)
      // Over the canonical form: the same book with its members in another order is the same book.
      const checksum = createHash('sha256').update(canonicalJson(book)).digest('hex')
      const summary = summarize(book)
      const base = { effectiveDate: book.effectiveDate, checksum, summary }
      if (options.dryRun) return { dryRun: true, unchanged: false, version: null, id: null, ...base }
      const document = gzipSync(json)
      const now = clock.now()
      const stored = await db.transaction(ctx.tenantId, async (tx) => {
        await lockRateBooks(tx, ctx.tenantId)
        const latest = await tx
          .selectFrom('rate_book')
          .select(['id', 'version', 'checksum', 'effective_date'])
          .where('tenant_id', '=', ctx.tenantId)
          .orderBy('version', 'desc')
          .limit(1)
          .executeTakeFirst()
        if (latest && latest.checksum === checksum) return { unchanged: true, version: latest.version, id: latest.id }
        const version = (latest?.version ?? 0) + 1
        await ensureCatalogueItems(tx, ctx.tenantId, catalogueItemsOf(book), version)
        const id = await insertRateBook(tx, ctx.tenantId, {
          version,
          effectiveDate: book.effectiveDate,
          description: book.description ?? null,
          checksum,
          document,
          summary,
          importedBy: actorLabel(ctx),
          now,
        })
        await writeAudit(tx, ctx, now, {
          action: 'rate_book.imported',
          entityType: 'rate_book',
          entityId: id,
          changes: { after: { version, effectiveDate: book.effectiveDate, checksum, summary } },
        })
        return { unchanged: false, version, id }
      })
      if (!stored.unchanged) await db.afterCommit(() => store.invalidate(ctx.tenantId))
      return { dryRun: false, ...stored, ...base }
    },

    /** The CLI's import: the problems come back as a value, audited as `ctx` (the operator's context). */
    async importForOperator(
      ctx: AuthenticatedContext,
      input: unknown,
      options: { dryRun: boolean; sources: RateBookSources },
    ): Promise<{ ok: true; result: ImportResult } | { ok: false; problems: RateBookProblem[] }> {
      try {
        return { ok: true, result: await this.importBook(ctx, input, options) }
      } catch (err) {
        if (err instanceof RateBookRefused) return { ok: false, problems: err.problems }
        throw err
      }
    },

    versions: (tenantId: number) => store.versions(tenantId),

    /** The version row for a number, or 'active' for the one in force today. */
    async version(tenantId: number, which: number | 'active'): Promise<{ row: RateBookVersionRow; active: boolean }> {
      const list = await store.versions(tenantId)
      const date = await today(tenantId)
      const activeRow = versionInForce(list, date)
      const row = which === 'active' ? activeRow : list.find((v) => v.version === which)
      if (!row)
        throw rateBookErrors.create(
          'rate_book_not_found',
          which === 'active' ? 'no rate book is in force today' : `rate book version ${which} does not exist`,
        )
      return { row, active: row === activeRow }
    },

    /** The stored book of a version, in the import format (re-importable as is). */
    async exportBook(tenantId: number, which: number | 'active'): Promise<RateBook> {
      const { row } = await this.version(tenantId, which)
      const index = await store.byId(tenantId, row.id)
      return index!.book
    },
  }
}
