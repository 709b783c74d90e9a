// Portal visibility groups (docs/portal-visibility.md): the DEALER membership groups that decide
// which dealers a dealer-side user sees. Dealers are checked through the parties module's port;
// every change is audited in its transaction, and a change to who-sees-what drops the tenant's
// cached principals once it has committed.
import { createHash } from 'node:crypto'
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { portalVisibilityErrors as errors } from './portal-visibility.errors.ts'
import * as repo from './portal-visibility.repository.ts'
import {
  MAX_DEALERS_PER_GROUP,
  type BulkUpdateItem,
  type CreateGroupInput,
  type PortalVisibilityGroupDto,
} from './portal-visibility.schemas.ts'
import { PRINCIPAL_TOPIC } from './user.service.ts'

export type DealerSummary = {
  id: number
  dealerNumber: string | null
  legalName: string
  displayName: string
  status: 'ACTIVE' | 'INACTIVE'
  isActive: boolean
}

/** What identity needs to know about dealers; provided by the parties module (src/modules.ts). */
export type DealerDirectory = {
  /** Ids among `ids` a portal visibility group may list: dealers, repair facilities, inspection companies. */
  existingPortalMemberIds(tenantId: number, ids: number[]): Promise<ReadonlySet<number>>
  /** Summaries of the dealers among `ids`, ascending by id. */
  dealerSummaries(tenantId: number, ids: number[]): Promise<DealerSummary[]>
}

type Deps = { db: Database; clock: Clock; bus: InvalidationBus; dealers: DealerDirectory }

// Bind parameters of one existence check; the port is asked in slices of this size.
const CHECK_CHUNK = 1000
const GROUP_CODE_UQ = 'membership_group_tenant_id_code_key'

export function toGroupDto(row: repo.GroupRow): PortalVisibilityGroupDto {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    dealerIds: row.dealer_ids,
    dealerCount: row.dealer_ids.length,
    userCount: row.user_count,
    createdAt: row.created_at.toISOString(),
  }
}

/**
 * Strong ETag of a group's representation. Membership groups carry no row version, so the
 * validator is a digest of what the client sees (any change to it, userCount included, changes it).
 */
export function groupEtag(dto: PortalVisibilityGroupDto): string {
  return `"${createHash('sha256').update(JSON.stringify(dto)).digest('base64url').slice(0, 27)}"`
}

/** Members of a dealer-side caller's reads: only the groups it belongs to; staff read every group. */
function memberFilter(ctx: AuthenticatedContext): number | null {
  return ctx.principal.visibleAccountHolderIds === null ? null : ctx.principal.userId
}

/**
 * Groups decide what users see, so a dealer-side caller may not change them whatever its roles:
 * it could otherwise widen its own visibility.
 */
function assertStaff(ctx: AuthenticatedContext): void {
  if (ctx.principal.visibleAccountHolderIds !== null) {
    throw platformErrors.create('permission_denied', 'Dealer-side users cannot change portal visibility groups')
  }
}

type Planned = {
  index: number
  groupId: number
  before: repo.GroupRow
  code: string
  name: string
  description: string
  add: number[]
  remove: number[]
}

export function createPortalVisibilityService({ db, clock, bus, dealers }: Deps) {
  const notFound = (what: string) =>
    errors.create('portal_visibility_group_not_found', `Portal visibility group ${what} does not exist`)

  async function existingDealers(tenantId: number, ids: number[]): Promise<Set<number>> {
    const storable = [...new Set(ids.filter(isStorableId))]
    const found = new Set<number>()
    for (let i = 0; i < storable.length; i += CHECK_CHUNK) {
      for (const id of await dealers.existingPortalMemberIds(tenantId, storable.slice(i, i + CHECK_CHUNK)))
        found.add(id)
    }
    return found
  }

  async function byId(ctx: AuthenticatedContext, id: number): Promise<repo.GroupRow> {
    const row = isStorableId(id)
      ? await db.read(ctx.tenantId, (x) => repo.findGroupById(x, ctx.tenantId, id, memberFilter(ctx)))
      : undefined
    if (!row) throw notFound(String(id))
    return row
  }

  async function byCode(ctx: AuthenticatedContext, code: string): Promise<repo.GroupRow> {
    // PostgreSQL text cannot hold NUL, so no group has such a code.
    const row = code.includes('\0')
      ? undefined
      : await db.read(ctx.tenantId, (x) => repo.findGroupByCode(x, ctx.tenantId, code, memberFilter(ctx)))
    if (!row) throw notFound(`with code ${JSON.stringify(code)}`)
    return row
  }

  async function dealersOf(ctx: AuthenticatedContext, group: repo.GroupRow, window: Window) {
    const page = await db.read(ctx.tenantId, (x) => repo.dealerIdPage(x, ctx.tenantId, group.id, window))
    const items = page.ids.length > 0 ? await dealers.dealerSummaries(ctx.tenantId, page.ids) : []
    return { items, totalCount: page.total }
  }

  const codeTaken = (field: string, code: string): FieldError => ({
    field,
    code: 'taken',
    message: `code ${code} is already used by another membership group`,
  })

  const invalidatePrincipals = (tenantId: number) => bus.publish(PRINCIPAL_TOPIC, `${tenantId}:`)

  /**
   * Validates every item against the locked groups and the dealers of the tenant, collecting every
   * error (named by item index) before anything is written.
   */
  async function plan(tx: Transaction<DB>, ctx: AuthenticatedContext, items: BulkUpdateItem[]): Promise<Planned[]> {
    const fieldErrors: FieldError[] = []
    const invalid = (field: string, message: string) => fieldErrors.push({ field, code: 'invalid_value', message })
    items.forEach((item, i) => {
      if (item.id === undefined && item.code === undefined)
        fieldErrors.push({ field: `[${i}].id`, code: 'required', message: 'id or code is required' })
      if (item.dealerIds !== undefined && (item.addDealerIds !== undefined || item.removeDealerIds !== undefined)) {
        invalid(
          `[${i}].dealerIds`,
          'replaces the dealers, so it cannot be combined with addDealerIds or removeDealerIds',
        )
      }
      const adding = new Set(item.addDealerIds ?? [])
      ;(item.removeDealerIds ?? []).forEach((id, k) => {
        if (adding.has(id)) invalid(`[${i}].removeDealerIds[${k}]`, `dealer ${id} is also in addDealerIds`)
      })
    })

    const ids = items.flatMap((it) => (it.id !== undefined && isStorableId(it.id) ? [it.id] : []))
    const codes = items.flatMap((it) => (it.id === undefined && it.code !== undefined ? [it.code] : []))
    const locked = await repo.lockGroups(tx, ctx.tenantId, ids, codes)
    const current = new Map(
      (
        await repo.findGroupsByIds(
          tx,
          ctx.tenantId,
          locked.map((g) => g.id),
        )
      ).map((g) => [g.id, g]),
    )
    const idByCode = new Map(locked.map((g) => [g.code, g.id]))

    const targets = new Map<number, number>()
    const resolved: Array<repo.GroupRow | undefined> = items.map((item, i) => {
      if (item.id === undefined && item.code === undefined) return undefined
      const group = current.get(item.id ?? idByCode.get(item.code as string) ?? 0)
      if (!group) {
        const field = item.id !== undefined ? `[${i}].id` : `[${i}].code`
        fieldErrors.push({
          field,
          code: 'unknown_reference',
          message: `portal visibility group ${item.id ?? item.code} does not exist`,
        })
        return undefined
      }
      const earlier = targets.get(group.id)
      if (earlier !== undefined) {
        invalid(item.id !== undefined ? `[${i}].id` : `[${i}].code`, `selects the same group as item ${earlier}`)
        return undefined
      }
      targets.set(group.id, i)
      return group
    })

    // New codes: free in the tenant (whatever kind of group holds them) and not claimed twice.
    const renames = items.flatMap((item, i) => {
      const group = resolved[i]
      return group && item.id !== undefined && item.code !== undefined && item.code !== group.code
        ? [{ i, code: item.code }]
        : []
    })
    const holders = await repo.groupsHoldingCodes(
      tx,
      ctx.tenantId,
      renames.map((r) => r.code),
    )
    const claimed = new Map<string, number>()
    for (const r of renames) {
      if (holders.has(r.code)) fieldErrors.push(codeTaken(`[${r.i}].code`, r.code))
      else if (claimed.has(r.code))
        invalid(`[${r.i}].code`, `code ${r.code} is also given to item ${claimed.get(r.code)}`)
      else claimed.set(r.code, r.i)
    }

    const referenced = items.flatMap((item) => [...(item.dealerIds ?? []), ...(item.addDealerIds ?? [])])
    const known = await existingDealers(ctx.tenantId, referenced)
    items.forEach((item, i) => {
      for (const field of ['dealerIds', 'addDealerIds'] as const) {
        ;(item[field] ?? []).forEach((id, k) => {
          if (!known.has(id))
            fieldErrors.push({
              field: `[${i}].${field}[${k}]`,
              code: 'unknown_reference',
              message: `${id} is not a dealer, repair facility or inspection company of the tenant`,
            })
        })
      }
    })

    const planned: Planned[] = []
    items.forEach((item, i) => {
      const before = resolved[i]
      if (!before) return
      const had = new Set(before.dealer_ids)
      const wanted =
        item.dealerIds !== undefined
          ? new Set(item.dealerIds)
          : new Set([
              ...before.dealer_ids.filter((id) => !(item.removeDealerIds ?? []).includes(id)),
              ...(item.addDealerIds ?? []),
            ])
      if (wanted.size > MAX_DEALERS_PER_GROUP) {
        invalid(
          `[${i}].${item.dealerIds !== undefined ? 'dealerIds' : 'addDealerIds'}`,
          `a group holds at most ${MAX_DEALERS_PER_GROUP} dealers (this would make ${wanted.size})`,
        )
      }
      planned.push({
        index: i,
        groupId: before.id,
        before,
        code: item.id !== undefined && item.code !== undefined ? item.code : before.code,
        name: item.name?.trim() ?? before.name,
        description: item.description ?? before.description,
        add: [...wanted].filter((id) => !had.has(id)).toSorted((a, b) => a - b),
        remove: before.dealer_ids.filter((id) => !wanted.has(id)),
      })
    })

    if (fieldErrors.length > 0) throw bulkRefusal(fieldErrors)
    return planned
  }

  return {
    async list(ctx: AuthenticatedContext, filter: repo.GroupFilter, window: Window) {
      if (filter.dealerId !== undefined && !isStorableId(filter.dealerId)) return { items: [], totalCount: 0 }
      const result = await db.reportRead(ctx.tenantId, (x) =>
        repo.listGroups(x, ctx.tenantId, filter, memberFilter(ctx), window),
      )
      return { items: result.rows.map(toGroupDto), totalCount: result.total }
    },

    get: async (ctx: AuthenticatedContext, id: number) => toGroupDto(await byId(ctx, id)),
    getByCode: async (ctx: AuthenticatedContext, code: string) => toGroupDto(await byCode(ctx, code)),
    dealers: async (ctx: AuthenticatedContext, id: number, window: Window) =>
      dealersOf(ctx, await byId(ctx, id), window),
    dealersByCode: async (ctx: AuthenticatedContext, code: string, window: Window) =>
      dealersOf(ctx, await byCode(ctx, code), window),

    async create(ctx: AuthenticatedContext, input: CreateGroupInput): Promise<PortalVisibilityGroupDto> {
      assertStaff(ctx)
      const now = clock.now()
      const values = { code: input.code, name: input.name.trim(), description: input.description ?? '' }
      const dealerIds = input.dealerIds ?? []
      try {
        // A new group has no members yet, so no cached principal can depend on it.
        return await db.transaction(ctx.tenantId, async (tx) => {
          const fieldErrors: FieldError[] = []
          if ((await repo.groupsHoldingCodes(tx, ctx.tenantId, [values.code])).size > 0) {
            throw errors.create(
              'portal_visibility_group_code_taken',
              `A membership group with code ${values.code} already exists`,
              { errors: [codeTaken('code', values.code)] },
            )
          }
          const known = await existingDealers(ctx.tenantId, dealerIds)
          dealerIds.forEach((id, i) => {
            if (!known.has(id))
              fieldErrors.push({
                field: `dealerIds[${i}]`,
                code: 'unknown_reference',
                message: `${id} is not a dealer, repair facility or inspection company of the tenant`,
              })
          })
          if (fieldErrors.length > 0)
            throw errors.create('unknown_reference', fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; '), {
              errors: fieldErrors,
            })
          const id = await repo.insertGroup(tx, ctx.tenantId, values, now)
          await repo.addDealers(tx, ctx.tenantId, id, dealerIds)
          await writeAudit(tx, ctx, now, {
            action: 'portal_visibility_group.created',
            entityType: 'membership_group',
            entityId: id,
            changes: { after: { ...values, kind: 'DEALER', dealerIds: dealerIds.toSorted((a, b) => a - b) } },
          })
          return toGroupDto((await repo.findGroupById(tx, ctx.tenantId, id, null)) as repo.GroupRow)
        })
      } catch (err) {
        if (isUniqueViolation(err, GROUP_CODE_UQ)) {
          throw errors.create(
            'portal_visibility_group_code_taken',
            `A membership group with code ${values.code} already exists`,
            { errors: [codeTaken('code', values.code)] },
          )
        }
        throw err
      }
    },

    /** All items or none; the reply lists the groups as they are afterwards, in item order. */
    async bulkUpdate(ctx: AuthenticatedContext, items: BulkUpdateItem[]): Promise<PortalVisibilityGroupDto[]> {
      assertStaff(ctx)
      const now = clock.now()
      let applying: Planned | undefined
      let visibilityChanged = false
      let result: PortalVisibilityGroupDto[]
      try {
        result = await db.transaction(ctx.tenantId, async (tx) => {
          const planned = await plan(tx, ctx, items)
          for (const p of planned) {
            applying = p
            await repo.updateGroup(tx, ctx.tenantId, p.groupId, {
              code: p.code,
              name: p.name,
              description: p.description,
            })
            await repo.removeDealers(tx, ctx.tenantId, p.groupId, p.remove)
            await repo.addDealers(tx, ctx.tenantId, p.groupId, p.add)
            if (p.add.length > 0 || p.remove.length > 0) visibilityChanged = true
            const { before } = p
            await writeAudit(tx, ctx, now, {
              action: 'portal_visibility_group.updated',
              entityType: 'membership_group',
              entityId: p.groupId,
              changes: {
                before: {
                  code: before.code,
                  name: before.name,
                  description: before.description,
                  dealerCount: before.dealer_ids.length,
                },
                after: {
                  code: p.code,
                  name: p.name,
                  description: p.description,
                  dealerCount: before.dealer_ids.length + p.add.length - p.remove.length,
                },
                addedDealerIds: p.add,
                removedDealerIds: p.remove,
              },
            })
          }
          applying = undefined
          const after = new Map(
            (
              await repo.findGroupsByIds(
                tx,
                ctx.tenantId,
                planned.map((p) => p.groupId),
              )
            ).map((g) => [g.id, g]),
          )
          return planned.map((p) => toGroupDto(after.get(p.groupId) as repo.GroupRow))
        })
      } catch (err) {
        // A code taken by a concurrent request after the check.
        if (applying && isUniqueViolation(err, GROUP_CODE_UQ))
          throw bulkRefusal([codeTaken(`[${applying.index}].code`, applying.code)])
        throw err
      }
      if (visibilityChanged) await invalidatePrincipals(ctx.tenantId)
      return result
    },

    /**
     * Refused while users remain in the group: a user in no DEALER group is staff and sees every
     * dealer, so deleting the group under its members would widen what they see.
     */
    async remove(ctx: AuthenticatedContext, id: number, checkEtag: (etag: string) => void): Promise<void> {
      assertStaff(ctx)
      if (!isStorableId(id)) throw notFound(String(id))
      const now = clock.now()
      try {
        await db.transaction(ctx.tenantId, async (tx) => {
          const [locked] = await repo.lockGroups(tx, ctx.tenantId, [id], [])
          if (!locked) throw notFound(String(id))
          const group = (await repo.findGroupById(tx, ctx.tenantId, id, null)) as repo.GroupRow
          checkEtag(groupEtag(toGroupDto(group)))
          if (group.user_count > 0) throw inUse(id, group.user_count)
          await repo.deleteGroup(tx, ctx.tenantId, id)
          await writeAudit(tx, ctx, now, {
            action: 'portal_visibility_group.deleted',
            entityType: 'membership_group',
            entityId: id,
            changes: {
              before: {
                code: group.code,
                name: group.name,
                description: group.description,
                kind: 'DEALER',
                dealerIds: group.dealer_ids,
              },
            },
          })
        })
      } catch (err) {
        // A user joined between the check and the delete.
        if (isForeignKeyViolation(err)) throw inUse(id)
        throw err
      }
      await invalidatePrincipals(ctx.tenantId)
    },
  }
}

function inUse(id: number, userCount?: number) {
  const users = userCount === undefined ? 'users' : `${userCount} user(s)`
  return errors.create(
    'portal_visibility_group_in_use',
    `Portal visibility group ${id} still has ${users}; move them to another group first (PUT /api/v1/adminusers/{userId})`,
    userCount === undefined ? {} : { extensions: { userCount } },
  )
}

/** One refusal for a bulk update: 409 when every problem is a taken code, else 422. */
function bulkRefusal(fieldErrors: FieldError[]) {
  const detail = fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ')
  if (fieldErrors.every((e) => e.code === 'taken'))
    return errors.create('portal_visibility_group_code_taken', detail, { errors: fieldErrors })
  if (fieldErrors.every((e) => e.code === 'unknown_reference'))
    return errors.create('unknown_reference', detail, { errors: fieldErrors })
  return errors.create('portal_visibility_bulk_update_invalid', detail, { errors: fieldErrors })
}

export type PortalVisibilityService = ReturnType<typeof createPortalVisibilityService>
