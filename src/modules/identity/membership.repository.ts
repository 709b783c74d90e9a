import type { Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { RoleTemplate } from './permissions.rules.ts'

export async function findRole(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('membership_role')
    .select(['id', 'code', 'name', 'description', 'permissions'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function rolesOfUser(db: Executor, tenantId: number, userId: number) {
  return db
    .selectFrom('membership_role as r')
    .innerJoin('user_role as ur', (j) => j.onRef('ur.role_id', '=', 'r.id').onRef('ur.tenant_id', '=', 'r.tenant_id'))
    .select(['r.id', 'r.code', 'r.name', 'r.description', 'r.permissions'])
    .where('r.tenant_id', '=', tenantId)
    .where('ur.user_id', '=', userId)
    .orderBy('r.id')
    .execute()
}

export async function findGroup(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('membership_group')
    .select(['id', 'code', 'name', 'description', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function groupsOfUser(db: Executor, tenantId: number, userId: number) {
  return db
    .selectFrom('membership_group as g')
    .innerJoin('user_group as ug', (j) => j.onRef('ug.group_id', '=', 'g.id').onRef('ug.tenant_id', '=', 'g.tenant_id'))
    .select(['g.id', 'g.code', 'g.name', 'g.description', 'g.kind'])
    .where('g.tenant_id', '=', tenantId)
    .where('ug.user_id', '=', userId)
    .orderBy('g.id')
    .execute()
}

/** Members (bounded) and visible account holders of the given groups. */
export async function groupDetails(db: Executor, tenantId: number, groupIds: number[], memberLimit: number) {
  if (groupIds.length === 0) return { members: [], accountHolders: [] }
  const members = await db
    .selectFrom('user_group as ug')
    .innerJoin('app_user as u', (j) => j.onRef('u.id', '=', 'ug.user_id').onRef('u.tenant_id', '=', 'ug.tenant_id'))
    .select(['ug.group_id', 'u.id', 'u.email_address'])
    .where('ug.tenant_id', '=', tenantId)
    .where('ug.group_id', 'in', groupIds)
    .orderBy('ug.group_id')
    .orderBy('u.id')
    .limit(memberLimit * groupIds.length)
    .execute()
  const accountHolders = await db
    .selectFrom('membership_group_account_holder')
    .select(['group_id', 'account_holder_id'])
    .where('tenant_id', '=', tenantId)
    .where('group_id', 'in', groupIds)
    .orderBy('group_id')
    .orderBy('account_holder_id')
    .execute()
  return { members, accountHolders }
}

export async function insertRoles(tx: Transaction<DB>, tenantId: number, roles: readonly RoleTemplate[]) {
  return tx
    .insertInto('membership_role')
    .values(
      roles.map((r) => ({
        tenant_id: tenantId,
        code: r.code,
        name: r.name,
        description: r.description,
        permissions: [...r.permissions],
      })),
    )
    .returning(['id', 'code'])
    .execute()
}

export async function insertGroups(
  tx: Transaction<DB>,
  tenantId: number,
  groups: ReadonlyArray<{ code: string; name: string; description: string; kind: 'STAFF' | 'DEALER' }>,
) {
  return tx
    .insertInto('membership_group')
    .values(groups.map((g) => ({ tenant_id: tenantId, ...g })))
    .returning(['id', 'code'])
    .execute()
}
