// Bulk expiry of account holders (POST /accountholders/autoexpirerequests): by explicit ids or by a
// rule, as a dry run (the default: read only) or for real (one transaction over locked rows: the
// expired date set, the version bumped, one audit record per account holder).
import { ACCOUNT_HOLDER_TOPIC } from './account-holder.service.ts'
import { writeAudit } from '../../platform/audit.ts'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../platform/http/errors.ts'
import { isStorableId } from '../../platform/ids.ts'
import { visibilityOf } from './account-holder.service.ts'
import { autoExpireErrors } from './auto-expire.errors.ts'
import * as repo from './auto-expire.repository.ts'
import {
  effectiveExpiredDate,
  MAX_AUTO_EXPIRE,
  matchesRule,
  todayUtc,
  verdict,
  type AutoExpireRule,
} from './auto-expire.rules.ts'
import type { AutoExpireRequest, AutoExpireResult } from './auto-expire.schemas.ts'

type Deps = { db: Database; clock: Clock; bus: InvalidationBus }

type Selection = { kind: 'ids'; ids: number[] } | { kind: 'rule'; rule: AutoExpireRule; limit: number }

function invalid(errors: FieldError[]): never {
  throw platformErrors.create(
    'validation_failed',
    `${errors.length} invalid field(s) in the body: ${errors.map((e) => e.field).join(', ')}`,
    { errors },
  )
}

/** Exactly one of accountHolderIds and rule; rule members only where they apply. */
function selectionOf(request: AutoExpireRequest, now: Date): Selection {
  const { accountHolderIds, rule } = request
  if ((accountHolderIds === undefined) === (rule === undefined)) {
    const message =
      rule === undefined
        ? 'one of accountHolderIds and rule is required'
        : 'accountHolderIds and rule cannot be combined'
    invalid(
      ['accountHolderIds', 'rule'].map((field) => ({
        field,
        code: rule === undefined ? 'required' : 'invalid_value',
        message,
      })),
    )
  }
  if (accountHolderIds !== undefined) {
    if (request.limit !== undefined)
      invalid([{ field: 'limit', code: 'not_allowed', message: 'applies only to a rule' }])
    return { kind: 'ids', ids: accountHolderIds }
  }
  const r = rule as NonNullable<typeof rule>
  const limit = request.limit ?? MAX_AUTO_EXPIRE
  if (r.type === 'INACTIVE_STATUS') {
    if (r.since !== undefined)
      invalid([
        { field: 'rule.since', code: 'not_allowed', message: 'applies only to DEALERS_WITHOUT_CONTRACTS_SINCE' },
      ])
    return { kind: 'rule', rule: r.kinds ? { type: r.type, kinds: r.kinds } : { type: r.type }, limit }
  }
  const errors: FieldError[] = []
  if (r.since === undefined)
    errors.push({ field: 'rule.since', code: 'required', message: 'is required by DEALERS_WITHOUT_CONTRACTS_SINCE' })
  if (r.kinds !== undefined)
    errors.push({ field: 'rule.kinds', code: 'not_allowed', message: 'applies only to INACTIVE_STATUS' })
  if (errors.length > 0) invalid(errors)
  const since = r.since as string
  if (since > todayUtc(now)) {
    throw autoExpireErrors.create('auto_expire_rule_invalid', `rule.since ${since} is after today (${todayUtc(now)})`, {
      errors: [{ field: 'rule.since', code: 'out_of_range', message: 'must not be after today' }],
    })
  }
  return { kind: 'rule', rule: { type: r.type, since }, limit }
}

export function createAutoExpireService({ db, clock, bus }: Deps) {
  /** Selects and judges; the caller decides whether to apply. */
  async function evaluate(
    x: Executor,
    ctx: AuthenticatedContext,
    selection: Selection,
    expiredDate: Date,
    now: Date,
    lock: boolean,
  ) {
    const visibility = visibilityOf(ctx)
    if (selection.kind === 'ids') {
      const ids = selection.ids.toSorted((a, b) => a - b)
      const rows = await repo.findByIds(x, ctx.tenantId, ids.filter(isStorableId), visibility, lock)
      const byId = new Map(rows.map((r) => [r.id, r]))
      return {
        matchedCount: ids.length,
        truncated: false,
        judged: ids.map((id) => ({ id, row: byId.get(id), verdict: verdict(null, byId.get(id), expiredDate, now) })),
      }
    }
    const { rule, limit } = selection
    const matchedCount = await repo.countRuleMatches(x, ctx.tenantId, rule, visibility, expiredDate)
    const rows = (await repo.findRuleMatches(x, ctx.tenantId, rule, visibility, expiredDate, limit, lock)).filter((r) =>
      matchesRule(rule, r),
    )
    return {
      matchedCount,
      truncated: matchedCount > rows.length,
      judged: rows.map((row) => ({ id: row.id, row, verdict: verdict(rule, row, expiredDate, now) })),
    }
  }

  return {
    async run(ctx: AuthenticatedContext, request: AutoExpireRequest): Promise<AutoExpireResult> {
      const now = clock.now()
      const selection = selectionOf(request, now)
      const expiredDate = effectiveExpiredDate(request.expiredDate ? new Date(request.expiredDate) : undefined, now)
      const dryRun = request.dryRun !== false

      const apply = async (x: Executor, lock: boolean) => {
        const { matchedCount, truncated, judged } = await evaluate(x, ctx, selection, expiredDate, now, lock)
        const result: AutoExpireResult = {
          dryRun,
          expiredDate: expiredDate.toISOString(),
          matchedCount,
          truncated,
          expired: [],
          skipped: [],
        }
        for (const { id, row, verdict: v } of judged) {
          if (v.expire && row) {
            result.expired.push({
              id,
              kind: row.kind,
              businessKey: row.business_key,
              legalName: row.legal_name,
              reason: v.reason,
              detail: v.detail,
              lastContractDate: row.last_contract_date,
              previousExpiredDate: row.expired_date ? row.expired_date.toISOString() : null,
            })
          } else if (!v.expire) {
            result.skipped.push({
              id,
              kind: row?.kind ?? null,
              businessKey: row?.business_key ?? null,
              reason: v.reason,
              detail: v.detail,
            })
          }
        }
        return result
      }

      if (dryRun) return db.read(ctx.tenantId, (x) => apply(x, false))
      const applied = await db.transaction(ctx.tenantId, async (tx) => {
        const result = await apply(tx, true)
        await repo.setExpiredDate(
          tx,
          ctx.tenantId,
          result.expired.map((e) => e.id),
          expiredDate,
          now,
        )
        for (const e of result.expired) {
          await writeAudit(tx, ctx, now, {
            action: `${e.kind.toLowerCase()}.expired`,
            entityType: 'account_holder',
            entityId: e.id,
            changes: {
              before: { expiredDate: e.previousExpiredDate },
              after: { expiredDate: result.expiredDate },
              reason: e.reason,
              detail: e.detail,
              ...(request.note ? { note: request.note } : {}),
            },
          })
        }
        return result
      })
      if (applied.expired.length > 0) await db.afterCommit(() => bus.publish(ACCOUNT_HOLDER_TOPIC, `${ctx.tenantId}:`))
      return applied
    },
  }
}

export type AutoExpireService = ReturnType<typeof createAutoExpireService>
