// Portal visibility groups are the membership groups of kind DEALER; their dealers are the rows of
// membership_group_account_holder. Executor first, tenant always. `memberUserId` narrows reads to
// the groups that user belongs to (what a dealer-side caller may see); null reads every group.
import { sql, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type GroupRow = {
  id: number
  code: string
  name: string
  description: string
  created_at: Date
  dealer_ids: number[]
  user_count: number
}

export type GroupFilter = { name?: string; dealerId?: number }

function selectGroups(db: Executor, tenantId: number, memberUserId: number | null) {
  let q = db
    .selectFrom('membership_group as g')
    .select([
      'g.id',
      'g.code',
      'g.name',
      'g.description',
      'g.created_at',
      sql<Array<number | string>>`coalesce((select array_agg(gah.account_holder_id order by gah.account_holder_id)
        from membership_group_account_holder gah where gah.tenant_id = g.tenant_id and gah.group_id = g.id), '{}')`.as(
        'dealer_ids',
      ),
      sql<number>`(select count(*) from user_group ug where ug.tenant_id = g.tenant_id and ug.group_id = g.id)`.as(
        'user_count',
      ),
    ])
    .where('g.tenant_id', '=', tenantId)
    .where('g.kind', '=', 'DEALER')
  if (memberUserId !== null) {
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('user_group as m')
          .select('m.group_id')
          .whereRef('m.tenant_id', '=', 'g.tenant_id')
          .whereRef('m.group_id', '=', 'g.id')
          .where('m.user_id', '=', memberUserId),
      ),
    )
  }
  return q
}

// int8[] arrives as strings from both drivers (only scalar int8 has a parser).
function normalise(row: Omit<GroupRow, 'dealer_ids'> & { dealer_ids: Array<number | string> }): GroupRow {
  return { ...row, dealer_ids: row.dealer_ids.map(Number), user_count: Number(row.user_count) }
}

export async function findGroupById(
  db: Executor,
  tenantId: number,
  id: number,
  memberUserId: number | null,
): Promise<GroupRow | undefined> {
  const row = await selectGroups(db, tenantId, memberUserId).where('g.id', '=', id).executeTakeFirst()
  return row && normalise(row)
}

export async function findGroupByCode(
  db: Executor,
  tenantId: number,
  code: string,
  memberUserId: number | null,
): Promise<GroupRow | undefined> {
  const row = await selectGroups(db, tenantId, memberUserId).where('g.code', '=', code).executeTakeFirst()
  return row && normalise(row)
}

export async function findGroupsByIds(db: Executor, tenantId: number, ids: number[]): Promise<GroupRow[]> {
  if (ids.length === 0) return []
  const rows = await selectGroups(db, tenantId, null).where('g.id', 'in', ids).orderBy('g.id').execute()
  return rows.map(normalise)
}

export async function listGroups(
  db: Executor,
  tenantId: number,
  filter: GroupFilter,
  memberUserId: number | null,
  window: Window,
): Promise<{ rows: GroupRow[]; total: number }> {
  let q = selectGroups(db, tenantId, memberUserId)
  if (filter.name !== undefined) {
    const pattern = `%${filter.name.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`
    q = q.where(sql<string>`lower(g.name)`, 'like', pattern)
  }
  if (filter.dealerId !== undefined) {
    const dealerId = filter.dealerId
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('membership_group_account_holder as f')
          .select('f.group_id')
          .whereRef('f.tenant_id', '=', 'g.tenant_id')
          .whereRef('f.group_id', '=', 'g.id')
          .where('f.account_holder_id', '=', dealerId),
      ),
    )
  }
  const rows = (await windowed(q.orderBy('g.id'), window).execute()).map(normalise)
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await db
    .selectFrom(q.clearSelect().select('g.id').as('c'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

/** One page of a group's dealer ids, ascending, and how many it has. */
export async function dealerIdPage(
  db: Executor,
  tenantId: number,
  groupId: number,
  window: Window,
): Promise<{ ids: number[]; total: number }> {
  const rows = await windowed(
    db
      .selectFrom('membership_group_account_holder')
      .select('account_holder_id')
      .where('tenant_id', '=', tenantId)
      .where('group_id', '=', groupId)
      .orderBy('account_holder_id'),
    window,
  ).execute()
  const ids = rows.map((r) => Number(r.account_holder_id))
  if (window.offset === 0 && ids.length < window.limit) return { ids, total: ids.length }
  const count = await db
    .selectFrom('membership_group_account_holder')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow()
  return { ids, total: Number(count.n) }
}

/**
 * Locks the DEALER groups named by id or code, in id order (concurrent bulk updates touching the
 * same groups then wait for each other instead of deadlocking).
 */
export async function lockGroups(
  tx: Transaction<DB>,
  tenantId: number,
  ids: number[],
  codes: string[],
): Promise<Array<{ id: number; code: string }>> {
  if (ids.length === 0 && codes.length === 0) return []
  return tx
    .selectFrom('membership_group')
    .select(['id', 'code'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'DEALER')
    .where((eb) =>
      eb.or([...(ids.length > 0 ? [eb('id', 'in', ids)] : []), ...(codes.length > 0 ? [eb('code', 'in', codes)] : [])]),
    )
    .orderBy('id')
    .forUpdate()
    .execute()
}

/** Codes among `codes` used by any membership group of the tenant (either kind), with the group holding each. */
export async function groupsHoldingCodes(
  db: Executor,
  tenantId: number,
  codes: string[],
): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map()
  const rows = await db
    .selectFrom('membership_group')
    .select(['id', 'code'])
    .where('tenant_id', '=', tenantId)
    .where('code', 'in', codes)
    .execute()
  return new Map(rows.map((r) => [r.code, r.id]))
}

export async function insertGroup(
  tx: Transaction<DB>,
  tenantId: number,
  values: { code: string; name: string; description: string },
  now: Date,
): Promise<number> {
  const row = await tx
    .insertInto('membership_group')
    .values({ tenant_id: tenantId, kind: 'DEALER', created_at: now, ...values })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateGroup(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: { code: string; name: string; description: string },
): Promise<void> {
  await tx
    .updateTable('membership_group')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('kind', '=', 'DEALER')
    .execute()
}

// 3 parameters a row: stays far below PostgreSQL's 65,535 bind parameters per statement.
const INSERT_CHUNK = 1000

export async function addDealers(
  tx: Transaction<DB>,
  tenantId: number,
  groupId: number,
  dealerIds: number[],
): Promise<void> {
  for (let i = 0; i < dealerIds.length; i += INSERT_CHUNK) {
    await tx
      .insertInto('membership_group_account_holder')
      .values(
        dealerIds
          .slice(i, i + INSERT_CHUNK)
          .map((account_holder_id) => ({ tenant_id: tenantId, group_id: groupId, account_holder_id })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

export async function removeDealers(
  tx: Transaction<DB>,
  tenantId: number,
  groupId: number,
  dealerIds: number[],
): Promise<void> {
  for (let i = 0; i < dealerIds.length; i += INSERT_CHUNK) {
    await tx
      .deleteFrom('membership_group_account_holder')
      .where('tenant_id', '=', tenantId)
      .where('group_id', '=', groupId)
      .where('account_holder_id', 'in', dealerIds.slice(i, i + INSERT_CHUNK))
      .execute()
  }
}

/** Deletes the group and its dealer rows (they cascade). The caller has checked it has no users. */
export async function deleteGroup(tx: Transaction<DB>, tenantId: number, id: number): Promise<void> {
  await tx
    .deleteFrom('membership_group')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('kind', '=', 'DEALER')
    .execute()
}
