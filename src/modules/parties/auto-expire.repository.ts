// Auto-expire: the account holders a bulk expiry considers, selected with the caller's dealer-side
// visibility and, for a real run, locked (FOR UPDATE) so that the verdict and the update see the
// same rows. Executor first, tenant always.
import { sql, type Expression, type SqlBool, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { visibleTo, type Visibility } from './account-holder.repository.ts'
import { EXPIRABLE_KINDS, startOfDayUtc, type AutoExpireRule } from './auto-expire.rules.ts'

const COLUMNS = [
  'ah.id',
  'ah.kind',
  'ah.business_key',
  'ah.legal_name',
  'ah.status',
  'ah.expired_date',
  'ah.last_contract_date',
  'ah.created_at',
] as const

function candidates(db: Executor, tenantId: number, visibility: Visibility) {
  return db
    .selectFrom('account_holder as ah')
    .where('ah.tenant_id', '=', tenantId)
    .where((eb) => visibleTo(eb, tenantId, visibility))
}

export type CandidateRow = Awaited<ReturnType<typeof findByIds>>[number]

/** The account holders among `ids` the caller may see; locked when `lock`. */
export async function findByIds(db: Executor, tenantId: number, ids: number[], visibility: Visibility, lock: boolean) {
  if (ids.length === 0) return []
  const q = candidates(db, tenantId, visibility).select(COLUMNS).where('ah.id', 'in', ids).orderBy('ah.id')
  return (lock ? q.forUpdate() : q).execute()
}

/** Matches the rule (mirrors matchesRule) and would still be active at `expiredDate`. */
function ruleQuery(db: Executor, tenantId: number, rule: AutoExpireRule, visibility: Visibility, expiredDate: Date) {
  return candidates(db, tenantId, visibility).where((eb) => {
    const c: Array<Expression<SqlBool>> = [
      eb.or([eb('ah.expired_date', 'is', null), eb('ah.expired_date', '>', expiredDate)]),
    ]
    if (rule.type === 'DEALERS_WITHOUT_CONTRACTS_SINCE') {
      c.push(eb('ah.kind', '=', 'DEALER'))
      c.push(
        eb.or([
          eb(sql<string>`ah.last_contract_date`, '<', sql<string>`${rule.since}::date`),
          eb.and([eb('ah.last_contract_date', 'is', null), eb('ah.created_at', '<', startOfDayUtc(rule.since))]),
        ]),
      )
    } else {
      c.push(eb('ah.status', '=', 'INACTIVE'))
      c.push(eb('ah.kind', 'in', rule.kinds ?? [...EXPIRABLE_KINDS]))
    }
    return eb.and(c)
  })
}

/** The first `limit` matches by id; locked when `lock`. */
export async function findRuleMatches(
  db: Executor,
  tenantId: number,
  rule: AutoExpireRule,
  visibility: Visibility,
  expiredDate: Date,
  limit: number,
  lock: boolean,
): Promise<CandidateRow[]> {
  const q = ruleQuery(db, tenantId, rule, visibility, expiredDate).select(COLUMNS).orderBy('ah.id').limit(limit)
  return (lock ? q.forUpdate() : q).execute()
}

export async function countRuleMatches(
  db: Executor,
  tenantId: number,
  rule: AutoExpireRule,
  visibility: Visibility,
  expiredDate: Date,
): Promise<number> {
  const row = await ruleQuery(db, tenantId, rule, visibility, expiredDate)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function setExpiredDate(
  tx: Transaction<DB>,
  tenantId: number,
  ids: number[],
  expiredDate: Date,
  now: Date,
): Promise<void> {
  if (ids.length === 0) return
  await tx
    .updateTable('account_holder')
    .set({ expired_date: expiredDate, updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute()
}
