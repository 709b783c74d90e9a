import type { Database } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { identityErrors } from './identity.errors.ts'
import * as repo from './membership.repository.ts'
import { findUserById } from './user.repository.ts'

const MEMBER_LIMIT = 1000

export function createMembershipService({ db }: { db: Database }) {
  async function detailed(
    ctx: AuthenticatedContext,
    groups: Array<{ id: number; code: string; name: string; description: string; kind: 'STAFF' | 'DEALER' }>,
  ) {
    const { members, accountHolders } = await db.read(ctx.tenantId, (x) =>
      repo.groupDetails(
        x,
        ctx.tenantId,
        groups.map((g) => g.id),
        MEMBER_LIMIT,
      ),
    )
    return groups.map((g) => ({
      ...g,
      users: members
        .filter((m) => m.group_id === g.id)
        .slice(0, MEMBER_LIMIT)
        .map((m) => ({ id: m.id, emailAddress: m.email_address })),
      accountHolderIds: accountHolders.filter((a) => a.group_id === g.id).map((a) => Number(a.account_holder_id)),
    }))
  }
  async function assertUser(ctx: AuthenticatedContext, userId: number) {
    const user = isStorableId(userId)
      ? await db.read(ctx.tenantId, (x) => findUserById(x, ctx.tenantId, userId))
      : undefined
    if (!user) throw identityErrors.create('user_not_found', `User ${userId} does not exist`)
  }
  return {
    /** The tenant's roles with their permissions, by id. */
    async roles(ctx: AuthenticatedContext, window: Window) {
      const { rows, total } = await db.read(ctx.tenantId, (x) => repo.listRoles(x, ctx.tenantId, window))
      return { items: rows, totalCount: total }
    },
    /** The tenant's groups with their members and visible account holders, by id. */
    async groups(ctx: AuthenticatedContext, window: Window) {
      const { rows, total } = await db.read(ctx.tenantId, (x) => repo.listGroups(x, ctx.tenantId, window))
      return { items: await detailed(ctx, rows), totalCount: total }
    },
    async role(ctx: AuthenticatedContext, id: number) {
      const role = isStorableId(id) ? await db.read(ctx.tenantId, (x) => repo.findRole(x, ctx.tenantId, id)) : undefined
      if (!role) throw identityErrors.create('membership_role_not_found', `Membership role ${id} does not exist`)
      return role
    },
    async rolesOfUser(ctx: AuthenticatedContext, userId: number) {
      await assertUser(ctx, userId)
      return db.read(ctx.tenantId, (x) => repo.rolesOfUser(x, ctx.tenantId, userId))
    },
    async group(ctx: AuthenticatedContext, id: number) {
      const group = isStorableId(id)
        ? await db.read(ctx.tenantId, (x) => repo.findGroup(x, ctx.tenantId, id))
        : undefined
      if (!group) throw identityErrors.create('membership_group_not_found', `Membership group ${id} does not exist`)
      return (await detailed(ctx, [group]))[0]
    },
    async groupsOfUser(ctx: AuthenticatedContext, userId: number) {
      await assertUser(ctx, userId)
      const groups = await db.read(ctx.tenantId, (x) => repo.groupsOfUser(x, ctx.tenantId, userId))
      return detailed(ctx, groups)
    },
  }
}

export type MembershipService = ReturnType<typeof createMembershipService>
