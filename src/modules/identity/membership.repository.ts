import { sql, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { RoleTemplate } from './permissions.rules.ts'

export async function findRole(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('membership_role')
    .select(['id', 'code', 'name', 'description', 'permissions'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** One window of the tenant's roles by id, and how many there are. */
export async function listRoles(db: Executor, tenantId: number, window: Window) {
  const q = db.selectFrom('membership_role').where('tenant_id', '=', tenantId)
  const rows = await windowed(
    q.select(['id', 'code', 'name', 'description', 'permissions']).orderBy('id'),
    window,
  ).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
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

/** One window of the tenant's groups (STAFF and DEALER) by id, and how many there are. */
export async function listGroups(db: Executor, tenantId: number, window: Window) {
  const q = db.selectFrom('membership_group').where('tenant_id', '=', tenantId)
  const rows = await windowed(q.select(['id', 'code', 'name', 'description', 'kind']).orderBy('id'), window).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
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
  // The first `memberLimit` members of each group (a large group does not crowd out the next ones).
  const members = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('user_group as ug')
        .innerJoin('app_user as u', (j) => j.onRef('u.id', '=', 'ug.user_id').onRef('u.tenant_id', '=', 'ug.tenant_id'))
        .select([
          'ug.group_id',
          'u.id',
          'u.email_address',
          sql<number>`row_number() over (partition by ug.group_id order by u.id)`.as('n'),
        ])
        .where('ug.tenant_id', '=', tenantId)
        .where('ug.group_id', 'in', groupIds)
        .as('m'),
    )
    .select(['m.group_id', 'm.id', 'm.email_address'])
    .where('m.n', '<=', memberLimit)
    .orderBy('m.group_id')
    .orderBy('m.id')
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
