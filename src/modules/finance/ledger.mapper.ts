// Ledger rows → the views the service returns. Amounts are JSON numbers of whole cents, read from
// the numeric strings through Decimal (never parsed as floats and summed).
import { centsToNumber, Decimal, sumMoney, toCents } from '../../platform/money.ts'
import type { EntryRow, LineRow } from './ledger.repository.ts'
import type { AccountPurpose, EntryKind, EntrySource, SourceType } from './ledger.rules.ts'

export type JournalLineView = {
  lineNo: number
  accountHolderId: number
  purpose: AccountPurpose
  debit: number
  credit: number
  memo: string | null
  contractId: number | null
  disbursementCode: string | null
}

export type JournalEntryView = {
  entryId: number
  kind: EntryKind
  source: EntrySource
  effectiveDate: string
  /** ISO 8601, UTC */
  postedAt: string
  postedBy: string
  memo: string | null
  reversesEntryId: number | null
  lines: JournalLineView[]
  totalDebit: number
  totalCredit: number
}

export function moneyNumber(value: Decimal | string): number {
  return centsToNumber(toCents(new Decimal(value)))
}

export function toEntryView(entry: EntryRow, lines: readonly LineRow[]): JournalEntryView {
  return {
    entryId: entry.id,
    kind: entry.kind as EntryKind,
    source: { type: entry.source_type as SourceType, id: entry.source_id },
    effectiveDate: entry.effective_date,
    postedAt: entry.posted_at.toISOString(),
    postedBy: entry.posted_by,
    memo: entry.memo,
    reversesEntryId: entry.reverses_entry_id,
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      accountHolderId: l.account_holder_id,
      purpose: l.purpose as AccountPurpose,
      debit: moneyNumber(l.debit),
      credit: moneyNumber(l.credit),
      memo: l.memo,
      contractId: l.contract_id,
      disbursementCode: l.disbursement_code,
    })),
    totalDebit: moneyNumber(sumMoney(lines.map((l) => new Decimal(l.debit)))),
    totalCredit: moneyNumber(sumMoney(lines.map((l) => new Decimal(l.credit)))),
  }
}

/** Entries with their lines, in the order of `entries`. */
export function toEntryViews(entries: readonly EntryRow[], lines: readonly LineRow[]): JournalEntryView[] {
  const byEntry = Map.groupBy(lines, (l) => l.entry_id)
  return entries.map((e) => toEntryView(e, byEntry.get(e.id) ?? []))
}
