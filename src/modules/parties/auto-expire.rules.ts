// Auto-expire: which account holders a bulk expiry takes, which it skips, and why. Pure functions;
// the repository selects with the same predicates in SQL, the service re-checks every row here.
import type { AccountHolderKind } from '../../platform/db/schema.ts'

/** The most account holders one request expires (explicit ids, or rule matches per request). */
export const MAX_AUTO_EXPIRE = 1000

export type AutoExpireRule =
  { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE'; since: string } | { type: 'INACTIVE_STATUS'; kinds?: AccountHolderKind[] }

export type ExpiryCandidate = {
  kind: AccountHolderKind
  status: 'ACTIVE' | 'INACTIVE'
  expired_date: Date | null
  last_contract_date: string | null
  created_at: Date
}

export type ExpireReason = 'REQUESTED' | 'NO_CONTRACTS_SINCE' | 'INACTIVE_STATUS'
export type SkipReason = 'NOT_FOUND' | 'ALREADY_EXPIRED' | 'ALREADY_SCHEDULED' | 'NOT_EXPIRABLE'

export type Verdict =
  { expire: true; reason: ExpireReason; detail: string } | { expire: false; reason: SkipReason; detail: string }

/** Kinds a rule or a caller may expire: every kind but the tenant's own administrator company. */
export const EXPIRABLE_KINDS: readonly AccountHolderKind[] = [
  'DEALER',
  'DEALER_GROUP',
  'AGENT',
  'CUSTOMER',
  'INSURER',
  'LIEN_HOLDER',
  'REPAIR_FACILITY',
  'INSPECTION_COMPANY',
  'CLAIM_PAYEE',
  'REINSURANCE_COMPANY',
]

/** The expired date a request sets: the one asked for, or now when none is given or it has passed. */
export function effectiveExpiredDate(requested: Date | undefined, now: Date): Date {
  return requested && requested.getTime() > now.getTime() ? requested : now
}

/** Start of `date` (YYYY-MM-DD) in UTC: rule dates are calendar days in UTC. */
export function startOfDayUtc(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`)
}

/** Today's calendar date in UTC. */
export function todayUtc(now: Date): string {
  return now.toISOString().slice(0, 10)
}

/**
 * A dealer without contracts since `since`: its latest contract was sold before that day, or it
 * has never sold one and already existed before that day (a dealer signed up after `since` has
 * not had the whole period to sell, so it is not taken).
 */
export function hasNoContractsSince(
  row: Pick<ExpiryCandidate, 'kind' | 'last_contract_date' | 'created_at'>,
  since: string,
): boolean {
  if (row.kind !== 'DEALER') return false
  if (row.last_contract_date !== null) return row.last_contract_date < since
  return row.created_at.getTime() < startOfDayUtc(since).getTime()
}

export function matchesRule(rule: AutoExpireRule, row: ExpiryCandidate): boolean {
  switch (rule.type) {
    case 'DEALERS_WITHOUT_CONTRACTS_SINCE':
      return hasNoContractsSince(row, rule.since)
    case 'INACTIVE_STATUS':
      return (
        row.status === 'INACTIVE' &&
        EXPIRABLE_KINDS.includes(row.kind) &&
        (!rule.kinds || rule.kinds.includes(row.kind))
      )
  }
}

/** Why a row that can be expired is: the rule that took it, or the caller's explicit request. */
function expireReason(rule: AutoExpireRule | null, row: ExpiryCandidate): { reason: ExpireReason; detail: string } {
  if (!rule) return { reason: 'REQUESTED', detail: 'named in accountHolderIds' }
  if (rule.type === 'INACTIVE_STATUS') return { reason: 'INACTIVE_STATUS', detail: `status INACTIVE (${row.kind})` }
  return {
    reason: 'NO_CONTRACTS_SINCE',
    detail:
      row.last_contract_date !== null
        ? `last contract sold ${row.last_contract_date}, before ${rule.since}`
        : `no contract ever sold; created ${todayUtc(row.created_at)}, before ${rule.since}`,
  }
}

/**
 * What happens to one account holder. An expiry never moves an expired date later: an account holder
 * already expired, or already due to expire by the requested date, is skipped.
 */
export function verdict(
  rule: AutoExpireRule | null,
  row: ExpiryCandidate | undefined,
  expiredDate: Date,
  now: Date,
): Verdict {
  if (!row) return { expire: false, reason: 'NOT_FOUND', detail: 'no account holder with this id' }
  if (!EXPIRABLE_KINDS.includes(row.kind))
    return { expire: false, reason: 'NOT_EXPIRABLE', detail: `a ${row.kind} cannot be expired` }
  if (row.expired_date && row.expired_date.getTime() <= now.getTime()) {
    return { expire: false, reason: 'ALREADY_EXPIRED', detail: `expired ${row.expired_date.toISOString()}` }
  }
  if (row.expired_date && row.expired_date.getTime() <= expiredDate.getTime()) {
    return { expire: false, reason: 'ALREADY_SCHEDULED', detail: `already expires ${row.expired_date.toISOString()}` }
  }
  return { expire: true, ...expireReason(rule, row) }
}
