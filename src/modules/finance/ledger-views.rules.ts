// Pure rules of the ledger views (docs/ledgers.md, issue 15 "Views"): aging of open receivable items,
// normal-side balances and the pay/receive net. Money is integer cents throughout: every sum is exact.
import { ACCOUNT_PURPOSES, type AccountPurpose } from './ledger.rules.ts'

export const AGING_BUCKETS = ['0-30', '31-60', '61-90', '90+'] as const
export type AgingBucket = (typeof AGING_BUCKETS)[number]

const DAY_MS = 86_400_000
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Days since epoch of an accounting date (YYYY-MM-DD, calendar-checked); null when it is not one. */
export function dayNumber(date: string): number | null {
  const m = ISO_DATE.exec(date)
  if (!m) return null
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  // Date.UTC rolls 2026-02-30 over to March: a rolled date is not the date given.
  if (new Date(ms).toISOString().slice(0, 10) !== date) return null
  return ms / DAY_MS
}

/**
 * Whole days from the item's first posting to asOf. An item posted after asOf is not open as of
 * asOf (the views never see it), so a negative age is a caller's bug, not a bucket.
 */
export function ageInDays(firstPostedDate: string, asOf: string): number {
  const from = dayNumber(firstPostedDate)
  const to = dayNumber(asOf)
  if (from === null || to === null) throw new RangeError(`not a date: ${from === null ? firstPostedDate : asOf}`)
  const age = to - from
  if (age < 0) throw new RangeError(`posted ${firstPostedDate} after as-of ${asOf}`)
  return age
}

/** Buckets by age in days: 0–30, 31–60, 61–90, over 90. Day 30 is still current; day 91 is 90+. */
export function agingBucket(ageDays: number): AgingBucket {
  if (!Number.isSafeInteger(ageDays) || ageDays < 0) throw new RangeError(`bad age ${ageDays}`)
  if (ageDays <= 30) return '0-30'
  if (ageDays <= 60) return '31-60'
  if (ageDays <= 90) return '61-90'
  return '90+'
}

export type AgingTotals = Record<AgingBucket, number>

/** Sums open amounts (cents) per bucket; only positive open amounts are open items. */
export function agingTotals(items: Iterable<{ openCents: number; ageDays: number }>): AgingTotals {
  const totals: AgingTotals = { '0-30': 0, '31-60': 0, '61-90': 0, '90+': 0 }
  for (const item of items) {
    if (item.openCents <= 0) continue
    totals[agingBucket(item.ageDays)] += item.openCents
  }
  return totals
}

/** A balance on its normal side (ACCOUNT_PURPOSES): debits − credits when debit-normal, credits − debits otherwise. */
export function normalBalance(purpose: AccountPurpose, debitCents: number, creditCents: number): number {
  return ACCOUNT_PURPOSES[purpose].normalSide === 'CREDIT' ? creditCents - debitCents : debitCents - creditCents
}

export type PayReceive = {
  receivableCents: number
  disbursementPayableCents: number
  refundPayableCents: number
  claimPayableCents: number
  unappliedCashCents: number
}

/**
 * What the holder owes the administrator minus what the administrator owes the holder: the receivable
 * less every payable and the holder's unapplied cash (money received but not yet set against an item).
 */
export function netOwed(p: PayReceive): number {
  return (
    p.receivableCents - p.disbursementPayableCents - p.refundPayableCents - p.claimPayableCents - p.unappliedCashCents
  )
}
