// Dealer rate visibility use cases: read a dealer's entries, list every dealer's, replace a dealer's
// whole set (audited, If-Match on the set's version), and forQuote, the rate quote's cached read.
// Visibility fails closed: a dealer without entries sees nothing.
import { writeAudit } from '../../../platform/audit.ts'
import { createTtlCache, type InvalidationBus } from '../../../platform/cache.ts'
import type { Clock } from '../../../platform/clock.ts'
import type { Database } from '../../../platform/db/database.ts'
import { isForeignKeyViolation } from '../../../platform/db/errors.ts'
import type { AuthenticatedContext } from '../../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../../platform/http/errors.ts'
import { mergeFieldErrors } from '../../../platform/http/field-errors.ts'
import type { Window } from '../../../platform/http/pagination.ts'
import { compileSchemaValidator } from '../../../platform/http/validation.ts'
import { isStorableId } from '../../../platform/ids.ts'
import { toStoredDecimal } from '../../../platform/money.ts'
import { visibilityErrors } from './visibility.errors.ts'
import { catalogueKinds } from '../ratebook/index.ts'
import * as repo from './visibility.repository.ts'
import { visibilityViolations } from './visibility.rules.ts'
import { ReplaceVisibilityBody, type VisibilityReply } from './visibility.schemas.ts'

/**
 * One entry of a dealer's visibility, as the rate quote applies it (docs/rate-visibility.md). The
 * markup limits are the `numeric` columns' decimal strings ("400.00"), which the quote's Decimal
 * arithmetic reads; replies carry them as JSON numbers (toReply).
 */
export type VisibilityEntry = {
  productId: number
  programId: number | null
  planId: number | null
  maxMarkupAmount: string | null
  maxMarkupPercent: string | null
}

/** Bus topic; the key is `<tenantId>:<dealerId>`, the dealer whose visibility changed. */
export const VISIBILITY_TOPIC = 'rating.visibility'

/** The audit-log entity type of visibility changes (entity id: the dealer). */
export const VISIBILITY_AUDIT_ENTITY = 'dealer_rate_visibility'

/** Parties' look-up of account-holder kinds: a path's dealer id must be a dealer. */
type DealerKinds = { accountHolderKinds(tenantId: number, ids: number[]): Promise<ReadonlyMap<number, string>> }

type Deps = { db: Database; clock: Clock; bus: InvalidationBus; directory: DealerKinds }

type Input = Record<string, unknown>

const validateBody = compileSchemaValidator(ReplaceVisibilityBody)

const REFERENCES = [
  { member: 'productId', kind: 'PRODUCT' },
  { member: 'programId', kind: 'PROGRAM' },
  { member: 'planId', kind: 'PLAN' },
] as const

function toEntry(row: repo.EntryRow): VisibilityEntry {
  return Object.freeze({
    productId: row.product_id,
    programId: row.program_id,
    planId: row.plan_id,
    maxMarkupAmount: row.max_markup_amount,
    maxMarkupPercent: row.max_markup_percent,
  })
}

/**
 * The reply form of a row: numeric(12,2) and numeric(9,4) as JSON numbers. Number() of a decimal of
 * at most 15 digits is the double whose shortest rendering is that decimal, so the reply writes it exactly.
 */
const toReply = (row: repo.EntryRow): VisibilityReply => ({
  dealerId: row.dealer_id,
  productId: row.product_id,
  programId: row.program_id,
  planId: row.plan_id,
  maxMarkupAmount: row.max_markup_amount === null ? null : Number(row.max_markup_amount),
  maxMarkupPercent: row.max_markup_percent === null ? null : Number(row.max_markup_percent),
})

function toWrite(item: Input): repo.EntryWrite {
  const id = (v: unknown) => (typeof v === 'number' ? v : null)
  const decimal = (v: unknown, places: number) =>
    typeof v === 'number' || typeof v === 'string' ? toStoredDecimal(v, places) : null
  return {
    product_id: item.productId as number,
    program_id: id(item.programId),
    plan_id: id(item.planId),
    max_markup_amount: decimal(item.maxMarkupAmount, 2),
    max_markup_percent: decimal(item.maxMarkupPercent, 4),
  }
}

export function createRateVisibilityService({ db, clock, bus, directory }: Deps) {
  // Each dealer's entries, for the rate quote; the bus drops a dealer's entry on every instance
  // when its visibility changes, the TTL only bounds staleness should a notification be lost.
  const cache = createTtlCache<readonly VisibilityEntry[]>({ ttlMs: 5 * 60_000, maxEntries: 100_000, clock })
  bus.subscribe(VISIBILITY_TOPIC, (key) => cache.delete(key))
  const cacheKey = (tenantId: number, dealerId: number) => `${tenantId}:${dealerId}`

  /** The dealer of a path id: 404 unless it is a dealer of the tenant the caller may see. */
  async function dealerFor(ctx: AuthenticatedContext, dealerId: number): Promise<number> {
    const kind = isStorableId(dealerId)
      ? (await directory.accountHolderKinds(ctx.tenantId, [dealerId])).get(dealerId)
      : undefined
    const visible = ctx.principal.visibleAccountHolderIds
    if (kind !== 'DEALER' || (visible !== null && !visible.has(dealerId))) {
      throw visibilityErrors.create('account_holder_not_found', `No dealer with id ${dealerId}`)
    }
    return dealerId
  }

  /** Every entry's catalogue ids must be items of the tenant of the right kind (422 naming each). */
  async function assertReferences(ctx: AuthenticatedContext, items: Input[]): Promise<void> {
    const ids = new Set<number>()
    for (const item of items)
      for (const r of REFERENCES)
        if (typeof item[r.member] === 'number' && isStorableId(item[r.member] as number))
          ids.add(item[r.member] as number)
    const kinds = await db.read(ctx.tenantId, (x) => catalogueKinds(x, ctx.tenantId, [...ids]))
    const errors: FieldError[] = []
    items.forEach((item, i) => {
      for (const r of REFERENCES) {
        const id = item[r.member]
        if (typeof id !== 'number') continue
        const kind = isStorableId(id) ? kinds.get(id) : undefined
        if (kind === undefined)
          errors.push({
            field: `[${i}].${r.member}`,
            code: 'unknown_reference',
            message: `catalogue item ${id} does not exist`,
          })
        else if (kind !== r.kind)
          errors.push({
            field: `[${i}].${r.member}`,
            code: 'unknown_reference',
            message: `catalogue item ${id} is a ${kind}, not a ${r.kind}`,
          })
      }
    })
    if (errors.length > 0)
      throw visibilityErrors.create(
        'unknown_reference',
        `${errors.length} unknown reference(s): ${errors.map((e) => e.field).join(', ')}`,
        { errors },
      )
  }

  return {
    /** A dealer's entries (at most MAX_ENTRIES) and the set's version (0 when never written). */
    async forDealer(
      ctx: AuthenticatedContext,
      dealerId: number,
    ): Promise<{ entries: VisibilityReply[]; version: number }> {
      await dealerFor(ctx, dealerId)
      return db.read(ctx.tenantId, async (x) => {
        const [entries, version] = await Promise.all([
          repo.entriesOf(x, ctx.tenantId, dealerId),
          repo.setVersion(x, ctx.tenantId, dealerId),
        ])
        return { entries: entries.map(toReply), version }
      })
    },

    async list(ctx: AuthenticatedContext, filter: repo.VisibilityFilter, window: Window) {
      if (
        (filter.dealerId !== undefined && !isStorableId(filter.dealerId)) ||
        (filter.productId !== undefined && !isStorableId(filter.productId))
      ) {
        return { items: [], totalCount: 0 }
      }
      const result = await db.reportRead(ctx.tenantId, (x) =>
        repo.listEntries(x, ctx.tenantId, filter, ctx.principal.visibleAccountHolderIds, window),
      )
      return { items: result.rows.map(toReply), totalCount: result.total }
    },

    /**
     * Replaces a dealer's whole set from an unvalidated body: shape and rules checked together (400
     * listing every item's fields), then references (422). Audited; the new version is the ETag.
     */
    async replace(
      ctx: AuthenticatedContext,
      dealerId: number,
      body: unknown,
      checkVersion: (v: number) => void,
    ): Promise<{ entries: VisibilityReply[]; version: number }> {
      const errors = mergeFieldErrors(validateBody(body), visibilityViolations(body))
      if (errors.length > 0) {
        throw platformErrors.create(
          'validation_failed',
          `${errors.length} invalid field(s) in the body: ${errors.map((e) => e.field).join(', ')}`,
          { errors },
        )
      }
      await dealerFor(ctx, dealerId)
      const items = body as Input[]
      await assertReferences(ctx, items)
      const now = clock.now()
      let result: { entries: VisibilityReply[]; version: number }
      try {
        result = await db.transaction(ctx.tenantId, async (tx) => {
          checkVersion(await repo.lockSet(tx, ctx.tenantId, dealerId, now))
          const before = await repo.entriesOf(tx, ctx.tenantId, dealerId)
          const version = await repo.replaceEntries(tx, ctx.tenantId, dealerId, items.map(toWrite), now)
          const after = await repo.entriesOf(tx, ctx.tenantId, dealerId)
          await writeAudit(tx, ctx, now, {
            action: `${VISIBILITY_AUDIT_ENTITY}.replaced`,
            entityType: VISIBILITY_AUDIT_ENTITY,
            entityId: dealerId,
            changes: { version, before: before.map(toEntry), after: after.map(toEntry) },
          })
          return { entries: after.map(toReply), version }
        })
      } catch (err) {
        if (isForeignKeyViolation(err)) {
          throw visibilityErrors.create('unknown_reference', 'A referenced catalogue item does not exist', {
            errors: [{ field: '[]', code: 'unknown_reference', message: 'a referenced catalogue item does not exist' }],
          })
        }
        throw err
      }
      await db.afterCommit(() => bus.publish(VISIBILITY_TOPIC, cacheKey(ctx.tenantId, dealerId)))
      return result
    },

    /**
     * The dealer's entries for the rate quote, ordered by product, program and plan; empty when the
     * dealer has none (it may sell nothing). Served from memory; every change invalidates it on
     * every instance.
     */
    async forQuote(tenantId: number, dealerId: number): Promise<VisibilityEntry[]> {
      if (!isStorableId(dealerId)) return []
      const entries = await cache.getOrLoad(cacheKey(tenantId, dealerId), async () =>
        Object.freeze((await db.read(tenantId, (x) => repo.entriesOf(x, tenantId, dealerId))).map(toEntry)),
      )
      return [...(entries ?? [])]
    },
  }
}

export type RateVisibilityService = ReturnType<typeof createRateVisibilityService>
