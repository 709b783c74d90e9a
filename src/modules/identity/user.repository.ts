// Users, their roles and groups. Executor first, tenant always.
import { sql, type Transaction } from 'kysely'
import { jsonArrayFrom } from 'kysely/helpers/postgres'
import type { Executor } from '../../platform/db/database.ts'
import { precompile } from '../../platform/db/precompiled.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type UserCriteria = { id?: number; emailAddress?: string; externalIdentity?: string }

export type UserRow = {
  id: number
  email_address: string
  external_identity: string | null
  first_name: string | null
  last_name: string | null
  phone_number: string | null
  expired_date: Date | null
  account_holder_id: number | null
  created_at: Date
  updated_at: Date
  version: number
  roles: Array<{ id: number; name: string }>
  groups: Array<{ id: number; name: string }>
}

/** The user lookup, with roles and groups, in one statement (also the benchmark's database ceiling). */
export function selectUsers(db: Executor, tenantId: number) {
  return db
    .selectFrom('app_user as u')
    .select((eb) => [
      'u.id',
      'u.email_address',
      'u.external_identity',
      'u.first_name',
      'u.last_name',
      'u.phone_number',
      'u.expired_date',
      'u.account_holder_id',
      'u.created_at',
      'u.updated_at',
      'u.version',
      jsonArrayFrom(
        eb
          .selectFrom('user_role as ur')
          .innerJoin('membership_role as r', (j) =>
            j.onRef('r.id', '=', 'ur.role_id').onRef('r.tenant_id', '=', 'ur.tenant_id'),
          )
          .select(['r.id', 'r.name'])
          .whereRef('ur.user_id', '=', 'u.id')
          .where('ur.tenant_id', '=', tenantId)
          .orderBy('r.id'),
      ).as('roles'),
      jsonArrayFrom(
        eb
          .selectFrom('user_group as ug')
          .innerJoin('membership_group as g', (j) =>
            j.onRef('g.id', '=', 'ug.group_id').onRef('g.tenant_id', '=', 'ug.tenant_id'),
          )
          .select(['g.id', 'g.name'])
          .whereRef('ug.user_id', '=', 'u.id')
          .where('ug.tenant_id', '=', tenantId)
          .orderBy('g.id'),
      ).as('groups'),
    ])
    .where('u.tenant_id', '=', tenantId)
}

// The user lookups are the hottest queries of the identity routes: compiled once (precompile).
const userById = precompile(2, (db, tenantId: number, id: number) => selectUsers(db, tenantId).where('u.id', '=', id))

export async function findUserById(db: Executor, tenantId: number, id: number): Promise<UserRow | undefined> {
  return (await userById(db, tenantId, id))[0]
}

type SearchShape = (db: Executor, tenantId: number, ...values: Array<string | number>) => Promise<UserRow[]>
const searchShapes = new Map<string, SearchShape>()
const MAX_SEARCH_SHAPES = 200

/** The search for this combination of criteria and window, compiled once (bounded cache). */
function searchShape(c: UserCriteria, window: Window): SearchShape {
  const key = `${c.id !== undefined}|${c.emailAddress !== undefined}|${c.externalIdentity !== undefined}|${window.limit}|${window.offset}`
  let shape = searchShapes.get(key)
  if (!shape) {
    const arity = 1 + [c.id, c.emailAddress, c.externalIdentity].filter((v) => v !== undefined).length
    shape = precompile(arity, (db, tenantId: number, ...values: Array<string | number>) => {
      let q = selectUsers(db, tenantId)
      let next = 0
      if (c.id !== undefined) q = q.where('u.id', '=', values[next++] as number)
      if (c.emailAddress !== undefined) q = q.where('u.email_address_key', '=', values[next++] as string)
      if (c.externalIdentity !== undefined) q = q.where('u.external_identity', '=', values[next++] as string)
      return windowed(q.orderBy('u.id'), window)
    }) as SearchShape
    if (searchShapes.size < MAX_SEARCH_SHAPES) searchShapes.set(key, shape)
  }
  return shape
}

export async function searchUsers(
  db: Executor,
  tenantId: number,
  c: UserCriteria,
  window: Window,
): Promise<{ rows: UserRow[]; total: number }> {
  const values = [c.id, c.emailAddress?.toLowerCase(), c.externalIdentity].filter(
    (v): v is string | number => v !== undefined,
  )
  const rows = await searchShape(c, window)(db, tenantId, ...values)
  // The count is only needed when the page may not hold everything.
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  let cq = db
    .selectFrom('app_user as u')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('u.tenant_id', '=', tenantId)
  if (c.id !== undefined) cq = cq.where('u.id', '=', c.id)
  if (c.emailAddress !== undefined) cq = cq.where('u.email_address_key', '=', c.emailAddress.toLowerCase())
  if (c.externalIdentity !== undefined) cq = cq.where('u.external_identity', '=', c.externalIdentity)
  const count = await cq.executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

export type UserWrite = {
  email_address: string
  external_identity: string | null
  first_name: string | null
  last_name: string | null
  phone_number: string | null
  expired_date: Date | null
  account_holder_id: number | null
}

export async function insertUser(
  tx: Transaction<DB>,
  tenantId: number,
  values: UserWrite & { password_hash: string | null },
  now: Date,
): Promise<number> {
  const row = await tx
    .insertInto('app_user')
    .values({ ...values, tenant_id: tenantId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateUser(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: UserWrite & { password_hash?: string | null },
  now: Date,
): Promise<void> {
  await tx
    .updateTable('app_user')
    .set({ ...values, updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

/** Locks the user row for the rest of the transaction (concurrent PUTs apply one after another). */
export async function lockUser(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
): Promise<{ version: number; password_hash: string | null } | undefined> {
  return tx
    .selectFrom('app_user')
    .select(['version', 'password_hash'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export async function replaceUserMemberships(
  tx: Transaction<DB>,
  tenantId: number,
  userId: number,
  roleIds: number[],
  groupIds: number[],
): Promise<void> {
  await tx.deleteFrom('user_role').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute()
  await tx.deleteFrom('user_group').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute()
  if (roleIds.length > 0) {
    await tx
      .insertInto('user_role')
      .values(roleIds.map((role_id) => ({ tenant_id: tenantId, user_id: userId, role_id })))
      .execute()
  }
  if (groupIds.length > 0) {
    await tx
      .insertInto('user_group')
      .values(groupIds.map((group_id) => ({ tenant_id: tenantId, user_id: userId, group_id })))
      .execute()
  }
}

export async function findCredentialsByEmail(db: Executor, tenantId: number, email: string) {
  return db
    .selectFrom('app_user')
    .select(['id', 'password_hash', 'expired_date'])
    .where('tenant_id', '=', tenantId)
    .where('email_address_key', '=', email.toLowerCase())
    .executeTakeFirst()
}

export async function findCredentialsById(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('app_user')
    .select(['id', 'password_hash', 'expired_date'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** What authentication needs to know about a user: status, permissions and visible dealers. */
export async function findPrincipalRow(
  db: Executor,
  tenantId: number,
  by: { id: number } | { externalIdentity: string },
) {
  const q = db
    .selectFrom('app_user as u')
    .select([
      'u.id',
      'u.email_address',
      'u.expired_date',
      sql<string[]>`(select coalesce(array_agg(distinct p.perm), '{}') from user_role ur
        join membership_role r on r.tenant_id = ur.tenant_id and r.id = ur.role_id
        cross join lateral unnest(r.permissions) as p(perm)
        where ur.tenant_id = u.tenant_id and ur.user_id = u.id)`.as('permissions'),
      sql<boolean>`exists (select 1 from user_group ug join membership_group g on g.tenant_id = ug.tenant_id and g.id = ug.group_id
        where ug.tenant_id = u.tenant_id and ug.user_id = u.id and g.kind = 'STAFF')`.as('staff_member'),
      sql<number[]>`(select coalesce(array_agg(distinct gah.account_holder_id), '{}') from user_group ug
        join membership_group_account_holder gah on gah.tenant_id = ug.tenant_id and gah.group_id = ug.group_id
        where ug.tenant_id = u.tenant_id and ug.user_id = u.id)`.as('account_holder_ids'),
    ])
    .where('u.tenant_id', '=', tenantId)
  return (
    'id' in by ? q.where('u.id', '=', by.id) : q.where('u.external_identity', '=', by.externalIdentity)
  ).executeTakeFirst()
}

export async function existingIds(
  db: Executor,
  tenantId: number,
  table: 'membership_role' | 'membership_group',
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute()
  return new Set(rows.map((r) => r.id))
}

export async function permissionsOfRoles(db: Executor, tenantId: number, roleIds: number[]): Promise<string[]> {
  if (roleIds.length === 0) return []
  const rows = await db
    .selectFrom('membership_role')
    .select('permissions')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', roleIds)
    .execute()
  return rows.flatMap((r) => r.permissions)
}

export async function groupIdsOfUser(db: Executor, tenantId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_group')
    .select('group_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute()
  return rows.map((r) => r.group_id)
}
