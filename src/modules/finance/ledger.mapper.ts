// Ledger rows → the views the service returns. Amounts are JSON numbers of whole cents, read from
// the numeric strings through Decimal (never parsed as floats and summed).
import { centsToNumber, Decimal, sumMoney, toCents } from '../../platform/money.ts'
import type { ContractLineRow, EntryRow, LineRow } from './ledger.repository.ts'
import type { AccountPurpose, EntryKind, EntrySource, Side, SourceType } from './ledger.rules.ts'

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

export function toLineView(l: LineRow): JournalLineView {
  return {
    lineNo: l.line_no,
    accountHolderId: l.account_holder_id,
    purpose: l.purpose as AccountPurpose,
    debit: moneyNumber(l.debit),
    credit: moneyNumber(l.credit),
    memo: l.memo,
    contractId: l.contract_id,
    disbursementCode: l.disbursement_code,
  }
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
    lines: lines.map(toLineView),
    totalDebit: moneyNumber(sumMoney(lines.map((l) => new Decimal(l.debit)))),
    totalCredit: moneyNumber(sumMoney(lines.map((l) => new Decimal(l.credit)))),
  }
}

/** Entries with their lines, in the order of `entries`. */
export function toEntryViews(entries: readonly EntryRow[], lines: readonly LineRow[]): JournalEntryView[] {
  const byEntry = Map.groupBy(lines, (l) => l.entry_id)
  return entries.map((e) => toEntryView(e, byEntry.get(e.id) ?? []))
}

/** A line of a contract's journal (GET /api/contracts/{id}/journalentries): one positive side. */
export type ContractJournalLineView = {
  lineNo: number
  contractId: number | null
  accountHolderId: number
  accountHolderName: string
  purpose: AccountPurpose
  side: Side
  amount: number
  disbursementCode: string | null
  memo: string | null
  /** The entry's source, repeated so that a line read on its own says what it records. */
  source: EntrySource
}

export type ContractJournalEntryView = {
  id: number
  kind: EntryKind
  source: EntrySource
  effectiveDate: string
  /** ISO 8601, UTC */
  postedAt: string
  postedBy: string
  memo: string | null
  reversesEntryId: number | null
  lines: ContractJournalLineView[]
}

/**
 * The contract's entries with their lines on the contract: an entry it is the source of keeps its
 * lines on no contract too; another entry (an earnings run, a cash application over many
 * contracts) shows only the contract's own lines.
 */
export function toContractEntryViews(
  contractId: number,
  entries: readonly EntryRow[],
  lines: readonly ContractLineRow[],
): ContractJournalEntryView[] {
  const byEntry = Map.groupBy(lines, (l) => l.entry_id)
  return entries.map((e) => {
    const source: EntrySource = { type: e.source_type as SourceType, id: e.source_id }
    const own = source.type === 'CONTRACT' && source.id === contractId
    return {
      id: e.id,
      kind: e.kind as EntryKind,
      source,
      effectiveDate: e.effective_date,
      postedAt: e.posted_at.toISOString(),
      postedBy: e.posted_by,
      memo: e.memo,
      reversesEntryId: e.reverses_entry_id,
      lines: (byEntry.get(e.id) ?? [])
        .filter((l) => own || l.contract_id === contractId)
        .map((l) => {
          const debit = new Decimal(l.debit)
          return {
            lineNo: l.line_no,
            contractId: l.contract_id,
            accountHolderId: l.account_holder_id,
            accountHolderName: l.account_holder_name,
            purpose: l.purpose as AccountPurpose,
            side: debit.isZero() ? 'CREDIT' : 'DEBIT',
            amount: moneyNumber(debit.isZero() ? l.credit : debit),
            disbursementCode: l.disbursement_code,
            memo: l.memo,
            source,
          }
        }),
    }
  })
}
