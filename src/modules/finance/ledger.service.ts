// The ledger's use cases: post a balanced entry, reverse one, read entries by source or contract,
// balances by account holder, and the posting date. post and reverse run in the caller's
// transaction when there is one (contracts post inside finalize), so the entry commits or rolls
// back with the change it records. An entry is checked in full before anything is written, and
// refused when dated in a closed period (booksClosedThrough); the database checks balance again at
// commit.
import { writeAudits } from '../../platform/audit.ts'
import { localDate, type Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { actorLabel } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { Decimal, sumMoney, ZERO } from '../../platform/money.ts'
import type { Transaction } from 'kysely'
import type { SettingsService } from '../settings/index.ts'
import { ledgerErrors } from './ledger.errors.ts'
import {
  moneyNumber,
  toContractEntryViews,
  toEntryView,
  toLineView,
  toEntryViews,
  type ContractJournalEntryView,
  type JournalEntryView,
  type JournalLineView,
} from './ledger.mapper.ts'
import * as repo from './ledger.repository.ts'
import {
  ACCOUNT_PURPOSES,
  MAX_MEMO_LENGTH,
  balanceOf,
  checkEntry,
  isAccountPurpose,
  isCalendarDate,
  reversalLines,
  type AccountPurpose,
  type CheckedLine,
  type EntryKind,
  type EntrySource,
  type PostEntryInput,
  type Side,
} from './ledger.rules.ts'

/** Audit-log entity type of ledger postings. */
export const AUDIT_ENTITY = 'journal_entry'

export type AccountBalance = {
  purpose: AccountPurpose
  normalSide: Side
  debit: number
  credit: number
  /** On the account's normal side: positive when it holds what its purpose says. */
  balance: number
}

type Header = {
  kind: EntryKind
  source: EntrySource
  effectiveDate: string
  memo: string | null
  reversesEntryId: number | null
}

const accountKey = (accountHolderId: number, purpose: string) => `${accountHolderId}/${purpose}`

/** What a source's entries posted to one account and disbursement code (netsBySource). */
export type SourceNet = {
  accountHolderId: number
  purpose: string
  disbursementCode: string | null
  /** Debit − credit, in cents: positive on the debit side. */
  netCents: number
}

export type LedgerDeps = {
  db: Database
  clock: Clock
  /** timeZone (the posting date) and booksClosedThrough (the closed period). */
  settings: Pick<SettingsService, 'get'>
}

export function createLedgerService({ db, clock, settings }: LedgerDeps) {
  /**
   * Refuses an entry dated on or before booksClosedThrough (409 ledger_period_closed). Read from the
   * settings as in force when the entry is posted: closing a period is an operator's act once its
   * work is done, so a posting racing the close may land in it, like one committed just before.
   */
  async function assertOpen(tenantId: number, effectiveDate: string): Promise<void> {
    const closedThrough = await settings.get(tenantId, 'booksClosedThrough')
    if (closedThrough === null || effectiveDate > closedThrough) return
    throw ledgerErrors.create(
      'ledger_period_closed',
      `An entry dated ${effectiveDate} falls in the closed period: the books are closed through ${closedThrough}`,
      { extensions: { effectiveDate, booksClosedThrough: closedThrough } },
    )
  }

  /** The account id of every line, creating the accounts used for the first time. */
  async function accountsOf(
    tx: Transaction<DB>,
    tenantId: number,
    lines: readonly CheckedLine[],
  ): Promise<Map<string, number>> {
    const keys = [
      ...new Map(
        lines.map((l) => [
          accountKey(l.accountHolderId, l.purpose),
          { accountHolderId: l.accountHolderId, purpose: l.purpose },
        ]),
      ).values(),
    ]
    const ids = new Map<string, number>()
    const collect = (rows: repo.AccountRow[]) => {
      for (const r of rows) ids.set(accountKey(r.account_holder_id, r.purpose), r.id)
    }
    collect(await repo.findAccounts(tx, tenantId, keys))
    const missing = keys.filter((k) => !ids.has(accountKey(k.accountHolderId, k.purpose)))
    if (missing.length === 0) return ids
    // Checked before the insert, whose foreign-key failure would abort the caller's transaction.
    const holders = await repo.existingAccountHolders(tx, tenantId, [...new Set(missing.map((k) => k.accountHolderId))])
    const unknown: FieldError[] = lines
      .filter((l) => !holders.has(l.accountHolderId) && !ids.has(accountKey(l.accountHolderId, l.purpose)))
      .map((l) => ({
        field: `lines[${l.index}].accountHolderId`,
        code: 'unknown_reference',
        message: `account holder ${l.accountHolderId} does not exist`,
      }))
    if (unknown.length > 0) {
      throw ledgerErrors.create(
        'ledger_entry_invalid',
        `Invalid ledger entry: ${unknown.map((e) => e.message).join('; ')}`,
        { errors: unknown },
      )
    }
    await repo.createAccounts(tx, tenantId, missing)
    collect(await repo.findAccounts(tx, tenantId, missing))
    return ids
  }

  /**
   * Writes the entry, its lines and its audit record (`audit`, given what the entry will be) in one
   * statement (repo.insertPostedEntry): one round trip, the rows of insertEntry, insertLines and
   * writeAudit.
   */
  async function write(
    tx: Transaction<DB>,
    ctx: RequestContext,
    header: Header,
    lines: readonly CheckedLine[],
    audit: (entry: { kind: string; source: EntrySource; effectiveDate: string; total: number; lineCount: number }) => {
      action: string
      changes: Record<string, unknown>
    },
  ): Promise<JournalEntryView> {
    const accounts = await accountsOf(tx, ctx.tenantId, lines)
    const now = clock.now()
    const rows = lines.map((l) => ({
      line_no: l.lineNo,
      account_id: accounts.get(accountKey(l.accountHolderId, l.purpose))!,
      debit: (l.side === 'DEBIT' ? l.amount : ZERO).toFixed(2),
      credit: (l.side === 'CREDIT' ? l.amount : ZERO).toFixed(2),
      contract_id: l.contractId,
      disbursement_code: l.disbursementCode,
      memo: l.memo,
    }))
    const record = audit({
      kind: header.kind,
      source: header.source,
      effectiveDate: header.effectiveDate,
      total: moneyNumber(sumMoney(rows.map((r) => new Decimal(r.debit)))),
      lineCount: rows.length,
    })
    const entry = await repo.insertPostedEntry(
      tx,
      ctx.tenantId,
      {
        kind: header.kind,
        source_type: header.source.type,
        source_id: header.source.id,
        effective_date: header.effectiveDate,
        posted_at: now,
        posted_by: actorLabel(ctx),
        memo: header.memo,
        reverses_entry_id: header.reversesEntryId,
      },
      rows,
      {
        occurredAt: now,
        actorUserId: ctx.principal && ctx.principal.userId > 0 ? ctx.principal.userId : null,
        actorApiKeyId: ctx.apiKeyId > 0 ? ctx.apiKeyId : null,
        actorLabel: actorLabel(ctx),
        requestId: ctx.requestId,
        action: record.action,
        entityType: AUDIT_ENTITY,
        changes: record.changes,
      },
    )
    return toEntryView(
      entry,
      rows.map((r, i) => ({
        ...r,
        entry_id: entry.id,
        account_holder_id: lines[i]!.accountHolderId,
        purpose: lines[i]!.purpose,
      })),
    )
  }

  return {
    /**
     * The date a money event posts under (money.md "Postings"): today in the tenant's time zone.
     * Never the sale or effective date, which may lie in a closed period; when the books are closed
     * through today or later, post refuses the entry rather than dating it elsewhere.
     */
    async postingDate(tenantId: number): Promise<string> {
      return localDate(clock.now(), await settings.get(tenantId, 'timeZone'))
    },

    /**
     * Posts a balanced entry (docs/ledger.md). Throws ledger_entry_invalid (malformed lines, unknown
     * account holder) or ledger_unbalanced, and ledger_period_closed (409) for a date on or before
     * booksClosedThrough, before anything is written.
     */
    async post(ctx: RequestContext, input: PostEntryInput): Promise<JournalEntryView> {
      const check = checkEntry(input)
      if (!check.ok)
        throw ledgerErrors.create(
          check.reason === 'invalid' ? 'ledger_entry_invalid' : 'ledger_unbalanced',
          check.detail,
          { errors: check.errors },
        )
      await assertOpen(ctx.tenantId, input.effectiveDate)
      return db.transaction(ctx.tenantId, async (tx) => {
        const view = await write(
          tx,
          ctx,
          {
            kind: input.kind,
            source: input.source,
            effectiveDate: input.effectiveDate,
            memo: input.memo ?? null,
            reversesEntryId: null,
          },
          check.lines,
          (e) => ({
            action: 'journal_entry.posted',
            changes: {
              after: {
                kind: e.kind,
                source: e.source,
                effectiveDate: e.effectiveDate,
                total: e.total,
                lineCount: e.lineCount,
              },
            },
          }),
        )
        return view
      })
    },

    /**
     * Posts several balanced entries at once (a batch of a process, e.g. an earnings run): each is
     * checked and audited as `post` does, and they are written in a few statements, in one
     * transaction (the caller's when there is one): all of them or none. Their ids, in the order given.
     */
    async postMany(ctx: RequestContext, inputs: readonly PostEntryInput[]): Promise<number[]> {
      if (inputs.length === 0) return []
      const checked = inputs.map((input) => {
        const check = checkEntry(input)
        if (!check.ok)
          throw ledgerErrors.create(
            check.reason === 'invalid' ? 'ledger_entry_invalid' : 'ledger_unbalanced',
            check.detail,
            { errors: check.errors },
          )
        return { input, lines: check.lines, total: check.total }
      })
      for (const date of new Set(inputs.map((i) => i.effectiveDate))) await assertOpen(ctx.tenantId, date)
      return db.transaction(ctx.tenantId, async (tx) => {
        const accounts = await accountsOf(
          tx,
          ctx.tenantId,
          checked.flatMap((c) => c.lines),
        )
        const now = clock.now()
        const postedBy = actorLabel(ctx)
        const entries = await repo.insertEntries(
          tx,
          ctx.tenantId,
          checked.map(({ input }) => ({
            kind: input.kind,
            source_type: input.source.type,
            source_id: input.source.id,
            effective_date: input.effectiveDate,
            posted_at: now,
            posted_by: postedBy,
            memo: input.memo ?? null,
            reverses_entry_id: null,
          })),
        )
        if (entries.length !== checked.length || entries.some((e, i) => e.memo !== (checked[i]!.input.memo ?? null)))
          throw new Error('postMany: the inserted entries do not line up with the inputs')
        // Lines often share one amount (an earnings entry's two lines of a code): its text is made once.
        const texts = new Map<Decimal, string>()
        const text = (amount: Decimal) => {
          let t = texts.get(amount)
          if (t === undefined) texts.set(amount, (t = amount.toFixed(2)))
          return t
        }
        const rows = checked.flatMap(({ lines }, i) =>
          lines.map((l) => ({
            entry_id: entries[i]!.id,
            line_no: l.lineNo,
            account_id: accounts.get(accountKey(l.accountHolderId, l.purpose))!,
            debit: l.side === 'DEBIT' ? text(l.amount) : '0',
            credit: l.side === 'CREDIT' ? text(l.amount) : '0',
            contract_id: l.contractId,
            disbursement_code: l.disbursementCode,
            memo: l.memo,
          })),
        )
        await repo.insertEntriesLines(tx, ctx.tenantId, rows)
        await writeAudits(
          tx,
          ctx,
          now,
          checked.map(({ input, lines, total }, i) => ({
            action: 'journal_entry.posted',
            entityType: AUDIT_ENTITY,
            entityId: entries[i]!.id,
            changes: {
              after: {
                kind: input.kind,
                source: input.source,
                effectiveDate: input.effectiveDate,
                total: moneyNumber(total),
                lineCount: lines.length,
              },
            },
          })),
        )
        return entries.map((e) => e.id)
      })
    },

    /**
     * Posts the entry that undoes `entryId`: the same lines on the other side, for the same source,
     * linked by reversesEntryId. An entry is reversed at most once (ledger_entry_already_reversed),
     * and a reversal is not itself reversed (ledger_entry_not_reversible): a correction is a new entry.
     * The reversal is dated in the open period (ledger_period_closed otherwise), whatever the date of
     * the entry it reverses.
     */
    async reverse(
      ctx: RequestContext,
      entryId: number,
      input: { effectiveDate: string; memo?: string },
    ): Promise<JournalEntryView> {
      const errors: FieldError[] = []
      if (!isCalendarDate(input.effectiveDate))
        errors.push({ field: 'effectiveDate', code: 'invalid_format', message: 'must be a date YYYY-MM-DD' })
      if (input.memo !== undefined && (typeof input.memo !== 'string' || input.memo.length > MAX_MEMO_LENGTH)) {
        errors.push({
          field: 'memo',
          code: 'too_long',
          message: `must be a string of at most ${MAX_MEMO_LENGTH} characters`,
        })
      }
      if (errors.length > 0)
        throw ledgerErrors.create(
          'ledger_entry_invalid',
          `Invalid reversal: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
          { errors },
        )
      const notFound = () => ledgerErrors.create('ledger_entry_not_found', `No ledger entry with id ${entryId}`)
      if (!isStorableId(entryId)) throw notFound()
      return db.transaction(ctx.tenantId, async (tx) => {
        const original = await repo.lockEntry(tx, ctx.tenantId, entryId)
        if (!original) throw notFound()
        if (original.kind === 'REVERSAL') {
          throw ledgerErrors.create(
            'ledger_entry_not_reversible',
            `Ledger entry ${entryId} is a reversal; post a new entry to correct it`,
          )
        }
        const existing = await repo.findReversalOf(tx, ctx.tenantId, entryId)
        if (existing !== undefined) {
          throw ledgerErrors.create(
            'ledger_entry_already_reversed',
            `Ledger entry ${entryId} was already reversed by entry ${existing}`,
            { extensions: { reversalEntryId: existing } },
          )
        }
        if (input.effectiveDate < original.effective_date) {
          throw ledgerErrors.create(
            'ledger_entry_invalid',
            `A reversal cannot be dated before the entry it reverses (${original.effective_date})`,
            {
              errors: [
                {
                  field: 'effectiveDate',
                  code: 'out_of_range',
                  message: `must be on or after ${original.effective_date}`,
                },
              ],
            },
          )
        }
        await assertOpen(ctx.tenantId, input.effectiveDate)
        const lines = await repo.linesOf(tx, ctx.tenantId, [entryId])
        const checked: CheckedLine[] = reversalLines(
          lines.map((l, index) => {
            const debit = new Decimal(l.debit)
            return {
              index,
              lineNo: l.line_no,
              accountHolderId: l.account_holder_id,
              purpose: l.purpose as AccountPurpose,
              side: debit.isZero() ? 'CREDIT' : 'DEBIT',
              amount: debit.isZero() ? new Decimal(l.credit) : debit,
              memo: l.memo,
              contractId: l.contract_id,
              disbursementCode: l.disbursement_code,
            } satisfies CheckedLine
          }),
        )
        const view = await write(
          tx,
          ctx,
          {
            kind: 'REVERSAL',
            source: { type: original.source_type as EntrySource['type'], id: original.source_id },
            effectiveDate: input.effectiveDate,
            memo: input.memo ?? `Reversal of entry ${entryId}`,
            reversesEntryId: entryId,
          },
          checked,
          (e) => ({
            action: 'journal_entry.reversed',
            changes: {
              after: { reversesEntryId: entryId, source: e.source, effectiveDate: e.effectiveDate, total: e.total },
            },
          }),
        )
        return view
      })
    },

    /** The entry with its lines; undefined when the tenant has none with this id. */
    async entry(tenantId: number, entryId: number): Promise<JournalEntryView | undefined> {
      if (!isStorableId(entryId)) return undefined
      return db.read(tenantId, async (x) => {
        const entries = await repo.entriesById(x, tenantId, [entryId])
        return toEntryViews(
          entries,
          await repo.linesOf(
            x,
            tenantId,
            entries.map((e) => e.id),
          ),
        )[0]
      })
    },

    /** Every entry of a source (reversals included), with its lines, oldest first. */
    async entriesForSource(tenantId: number, source: EntrySource): Promise<JournalEntryView[]> {
      if (!isStorableId(source.id)) return []
      return db.read(tenantId, async (x) => {
        const entries = await repo.entriesBySource(x, tenantId, source.type, source.id)
        return toEntryViews(
          entries,
          await repo.linesOf(
            x,
            tenantId,
            entries.map((e) => e.id),
          ),
        )
      })
    },

    /**
     * The lines of every entry of a source (reversals included), oldest entry first, each in line
     * order: the lines of entriesForSource, in one statement.
     */
    async linesForSource(tenantId: number, source: EntrySource): Promise<JournalLineView[]> {
      if (!isStorableId(source.id)) return []
      const rows = await db.read(tenantId, (x) => repo.linesOfSource(x, tenantId, source.type, source.id))
      return rows.map(toLineView)
    },

    /**
     * A window of the contract's entries, oldest first: those it is the source of and any with a
     * line on it, each with its lines on the contract (toContractEntryViews). The caller checks that
     * the contract exists and is visible.
     */
    async entriesForContract(
      tenantId: number,
      contractId: number,
      window: Window,
    ): Promise<{ items: ContractJournalEntryView[]; totalCount: number }> {
      if (!isStorableId(contractId)) return { items: [], totalCount: 0 }
      return db.read(tenantId, async (x) => {
        const entries = await repo.entriesOfContract(x, tenantId, contractId, window)
        const lines = await repo.contractLinesOf(
          x,
          tenantId,
          contractId,
          entries.map((e) => e.id),
        )
        const totalCount =
          window.offset === 0 && entries.length < window.limit
            ? entries.length
            : await repo.countEntriesOfContract(x, tenantId, contractId)
        return { items: toContractEntryViews(contractId, entries, lines), totalCount }
      })
    },

    /**
     * What the earnings runs have recognized on a contract so far, in cents per disbursement code:
     * the net ADMINISTRATOR_REVENUE of its EARNINGS_RECOGNIZED entries (decision 0012). Read in the
     * caller's transaction when there is one, so a sync or a cancel under the contract's row lock sees
     * every earlier run.
     */
    async earnedByCode(tenantId: number, contractId: number): Promise<Map<string, number>> {
      if (!isStorableId(contractId)) return new Map()
      const rows = await db.read(tenantId, (x) =>
        repo.contractPurposeTotals(x, tenantId, contractId, 'ADMINISTRATOR_REVENUE', ['EARNINGS_RECOGNIZED']),
      )
      return new Map(rows.filter((r) => r.code !== null).map((r) => [r.code!, Math.round(Number(r.net_cents))]))
    },

    /** earnedByCode of several contracts in one read: contract id → code → cents (contracts without postings absent). */
    async earnedByCodeOf(tenantId: number, contractIds: readonly number[]): Promise<Map<number, Map<string, number>>> {
      const ids = [...new Set(contractIds.filter(isStorableId))]
      const rows = await db.read(tenantId, (x) =>
        repo.contractsPurposeTotals(x, tenantId, ids, 'ADMINISTRATOR_REVENUE', ['EARNINGS_RECOGNIZED']),
      )
      const out = new Map<number, Map<string, number>>()
      for (const r of rows) {
        if (r.code === null) continue
        let byCode = out.get(r.contract_id)
        if (!byCode) out.set(r.contract_id, (byCode = new Map()))
        byCode.set(r.code, Math.round(Number(r.net_cents)))
      }
      return out
    },

    /**
     * What the entries of several sources of one type (reversals included) have posted, by source id:
     * the net per account holder, purpose and disbursement code, in cents (debit − credit; zero nets
     * left out), summed by the database; in the caller's transaction when there is one.
     */
    async netsBySource(
      tenantId: number,
      sourceType: EntrySource['type'],
      sourceIds: readonly number[],
    ): Promise<Map<number, SourceNet[]>> {
      const ids = [...new Set(sourceIds.filter(isStorableId))]
      const rows = await db.read(tenantId, (x) => repo.sourceNets(x, tenantId, sourceType, ids))
      const out = new Map<number, SourceNet[]>()
      for (const r of rows) {
        let nets = out.get(r.source_id)
        if (!nets) out.set(r.source_id, (nets = []))
        nets.push({
          accountHolderId: r.account_holder_id,
          purpose: r.purpose,
          disbursementCode: r.disbursement_code,
          netCents: r.net_cents,
        })
      }
      return out
    },

    /** The totals and balance of each account of the account holder, by purpose. */
    async balances(tenantId: number, accountHolderId: number): Promise<AccountBalance[]> {
      if (!isStorableId(accountHolderId)) return []
      const rows = await db.reportRead(tenantId, (x) => repo.accountTotals(x, tenantId, accountHolderId))
      return rows
        .filter((r) => isAccountPurpose(r.purpose))
        .map((r) => {
          const purpose = r.purpose as AccountPurpose
          const debit = new Decimal(r.debit)
          const credit = new Decimal(r.credit)
          return {
            purpose,
            normalSide: ACCOUNT_PURPOSES[purpose].normalSide,
            debit: moneyNumber(debit),
            credit: moneyNumber(credit),
            balance: moneyNumber(balanceOf(purpose, debit, credit)),
          }
        })
    },
  }
}

export type LedgerService = ReturnType<typeof createLedgerService>
