// Which dealers and dealer groups a repair facility serves: list, add or replace, remove; and the
// facilities that serve a dealer, directly or through its group. Every change is one transaction
// holding the facility's row lock (so the per-kind limit holds under concurrent changes), audited.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { KINDS } from './account-holder.kinds.ts'
import { toReply, toSummary } from './account-holder.mapper.ts'
import { findAccountHolder, lockAccountHolder } from './account-holder.repository.ts'
import { mayRevealSensitive, visibilityOf } from './account-holder.service.ts'
import { partiesErrors } from './parties.errors.ts'
import * as repo from './repair-facility-link.repository.ts'
import { repairFacilityLinkErrors } from './repair-facility-link.errors.ts'
import { MAX_LINKS_PER_KIND, type LinkChange, type LinkedAccountHolder } from './repair-facility-link.schemas.ts'

type Deps = { db: Database; clock: Clock }

export type LinkKind = repo.LinkKind

const NOUN: Record<LinkKind, string> = { DEALER: 'dealer', DEALER_GROUP: 'dealer group' }

/** Every link fits in one list window, so change results always show the whole set. */
const WHOLE_SET: Window = { limit: MAX_LINKS_PER_KIND, offset: 0 }

function toLinked(row: repo.LinkedRow, now: Date): LinkedAccountHolder {
  return { ...toSummary(row, now), kind: row.kind as LinkKind, linkedAt: row.linked_at.toISOString() }
}

const unique = (ids: number[]) => [...new Set(ids)]

export function createRepairFacilityLinkService({ db, clock }: Deps) {
  const facilityNotFound = (id: number) =>
    partiesErrors.create('account_holder_not_found', `No repair facility with id ${id}`)

  async function assertFacility(x: Executor, ctx: AuthenticatedContext, facilityId: number): Promise<void> {
    const found =
      isStorableId(facilityId) &&
      (await findAccountHolder(x, ctx.tenantId, 'REPAIR_FACILITY', facilityId, visibilityOf(ctx)))
    if (!found) throw facilityNotFound(facilityId)
  }

  async function lockFacility(tx: Transaction<DB>, ctx: AuthenticatedContext, facilityId: number): Promise<void> {
    const locked =
      isStorableId(facilityId) &&
      (await lockAccountHolder(tx, ctx.tenantId, 'REPAIR_FACILITY', facilityId, visibilityOf(ctx)))
    if (!locked) throw facilityNotFound(facilityId)
  }

  /** Every id must be an account holder of `kind` the caller may see: 422 naming each bad one. */
  async function assertLinkable(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    kind: LinkKind,
    field: string,
    ids: number[],
  ): Promise<void> {
    const kinds = await repo.visibleKinds(tx, ctx.tenantId, unique(ids.filter(isStorableId)), visibilityOf(ctx))
    const errors: FieldError[] = []
    ids.forEach((id, i) => {
      const found = kinds.get(id)
      if (found === kind) return
      const message = found
        ? `account holder ${id} is a ${found}, not a ${NOUN[kind]}`
        : `${NOUN[kind]} ${id} does not exist`
      errors.push({ field: `${field}[${i}]`, code: 'unknown_reference', message })
    })
    if (errors.length > 0)
      throw partiesErrors.create('unknown_reference', errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
        errors,
      })
  }

  async function audit(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    now: Date,
    facilityId: number,
    kind: LinkKind,
    added: number[],
    removed: number[],
  ) {
    if (added.length === 0 && removed.length === 0) return
    await writeAudit(tx, ctx, now, {
      action: 'repair_facility.links_changed',
      entityType: 'account_holder',
      entityId: facilityId,
      changes: { kind, added, removed },
    })
  }

  async function currentLinks(
    x: Executor,
    ctx: AuthenticatedContext,
    facilityId: number,
    kind: LinkKind,
    window: Window,
    now: Date,
  ) {
    const result = await repo.listLinked(x, ctx.tenantId, facilityId, kind, visibilityOf(ctx), window)
    return { items: result.rows.map((r) => toLinked(r, now)), totalCount: result.total }
  }

  return {
    async list(ctx: AuthenticatedContext, facilityId: number, kind: LinkKind, window: Window) {
      return db.read(ctx.tenantId, async (x) => {
        await assertFacility(x, ctx, facilityId)
        return currentLinks(x, ctx, facilityId, kind, window, clock.now())
      })
    },

    /**
     * Adds links, or replaces the set of links of `kind` (exactly one of the two). A dealer-side
     * caller's replace leaves the links to account holders it cannot see in place.
     */
    async change(ctx: AuthenticatedContext, facilityId: number, kind: LinkKind, body: LinkChange) {
      const given = (['add', 'replace'] as const).filter((k) => body[k] !== undefined)
      if (given.length !== 1) {
        const message = given.length === 0 ? 'one of add and replace is required' : 'add and replace cannot be combined'
        throw platformErrors.create('validation_failed', `Invalid link change: ${message}`, {
          errors: (given.length === 0 ? ['add', 'replace'] : given).map((field) => ({
            field,
            code: given.length === 0 ? 'required' : 'invalid_value',
            message,
          })),
        })
      }
      const op = given[0] as 'add' | 'replace'
      const ids = body[op] as number[]
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        await lockFacility(tx, ctx, facilityId)
        await assertLinkable(tx, ctx, kind, op, ids)
        const wanted = unique(ids)
        let removed: number[] = []
        if (op === 'replace') {
          const keep = new Set(wanted)
          const current = await repo.visibleLinkedIds(tx, ctx.tenantId, facilityId, kind, visibilityOf(ctx))
          removed = await repo.deleteLinks(
            tx,
            ctx.tenantId,
            facilityId,
            kind,
            current.filter((id) => !keep.has(id)),
          )
        }
        const added = await repo.insertLinks(tx, ctx.tenantId, facilityId, wanted, now)
        const total = await repo.countLinks(tx, ctx.tenantId, facilityId, kind)
        if (total > MAX_LINKS_PER_KIND) {
          throw repairFacilityLinkErrors.create(
            'repair_facility_link_limit',
            `A repair facility links at most ${MAX_LINKS_PER_KIND} ${NOUN[kind]}s; this change would make ${total}`,
          )
        }
        await audit(tx, ctx, now, facilityId, kind, added, removed)
        return currentLinks(tx, ctx, facilityId, kind, WHOLE_SET, now)
      })
    },

    /** Unlinks `ids`; ids that are not linked (or not visible to the caller) are ignored. */
    async remove(ctx: AuthenticatedContext, facilityId: number, kind: LinkKind, ids: number[]) {
      if (ids.length > MAX_LINKS_PER_KIND) {
        throw platformErrors.create('validation_failed', `At most ${MAX_LINKS_PER_KIND} ids per request`, {
          errors: [{ field: 'ids', code: 'invalid_value', message: `must name at most ${MAX_LINKS_PER_KIND} ids` }],
        })
      }
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        await lockFacility(tx, ctx, facilityId)
        const asked = new Set(ids.filter(isStorableId))
        const current = await repo.visibleLinkedIds(tx, ctx.tenantId, facilityId, kind, visibilityOf(ctx))
        const removed = await repo.deleteLinks(
          tx,
          ctx.tenantId,
          facilityId,
          kind,
          current.filter((id) => asked.has(id)),
        )
        await audit(tx, ctx, now, facilityId, kind, [], removed)
        return currentLinks(tx, ctx, facilityId, kind, WHOLE_SET, now)
      })
    },

    /** The repair facilities that serve a dealer: linked to it or to its dealer group. */
    async facilitiesOfDealer(ctx: AuthenticatedContext, dealerId: number, window: Window) {
      return db.read(ctx.tenantId, async (x) => {
        const dealer = isStorableId(dealerId)
          ? await findAccountHolder(x, ctx.tenantId, 'DEALER', dealerId, visibilityOf(ctx))
          : undefined
        if (!dealer) throw partiesErrors.create('account_holder_not_found', `No dealer with id ${dealerId}`)
        const result = await repo.facilitiesOfDealer(
          x,
          ctx.tenantId,
          dealer.id,
          dealer.dealer_group_id,
          visibilityOf(ctx),
          window,
        )
        const now = clock.now()
        const reveal = mayRevealSensitive(ctx)
        return {
          items: result.rows.map(({ via, ...row }) => ({
            ...toReply(KINDS.REPAIR_FACILITY, { ...row, agent_ids: [] }, now, reveal),
            via,
          })),
          totalCount: result.total,
        }
      })
    },
  }
}

export type RepairFacilityLinkService = ReturnType<typeof createRepairFacilityLinkService>
