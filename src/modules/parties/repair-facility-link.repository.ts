// Links between repair facilities and the dealers and dealer groups they serve. One table for both
// kinds: the kind of a link is the kind of the linked account holder. Executor first, tenant always;
// reads apply the caller's dealer-side visibility (visibleTo).
import { sql, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { AccountHolderTable, DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { visibleTo, type Visibility } from './account-holder.repository.ts'

export type LinkKind = 'DEALER' | 'DEALER_GROUP'

export type LinkedRow = Selectable<AccountHolderTable> & { linked_at: Date }

function linksOf(db: Executor, tenantId: number, facilityId: number) {
  return db
    .selectFrom('repair_facility_link as l')
    .select('l.linked_id')
    .where('l.tenant_id', '=', tenantId)
    .where('l.repair_facility_id', '=', facilityId)
}

/** The linked account holders of `kind` the caller may see, ordered by id. */
export async function listLinked(
  db: Executor,
  tenantId: number,
  facilityId: number,
  kind: LinkKind,
  visibility: Visibility,
  window: Window,
) {
  const base = () =>
    db
      .selectFrom('account_holder as ah')
      .where('ah.tenant_id', '=', tenantId)
      .where('ah.kind', '=', kind)
      .where('ah.id', 'in', linksOf(db, tenantId, facilityId))
      .where((eb) => visibleTo(eb, tenantId, visibility))
  const rows: LinkedRow[] = await windowed(
    base()
      .selectAll('ah')
      .select(
        sql<Date>`(select l2.created_at from repair_facility_link l2
      where l2.tenant_id = ah.tenant_id and l2.repair_facility_id = ${facilityId} and l2.linked_id = ah.id)`.as(
          'linked_at',
        ),
      )
      .orderBy('ah.id'),
    window,
  ).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await base()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

/** How many account holders of `kind` are linked, whoever may see them (for the per-kind limit). */
export async function countLinks(
  tx: Transaction<DB>,
  tenantId: number,
  facilityId: number,
  kind: LinkKind,
): Promise<number> {
  const row = await tx
    .selectFrom('repair_facility_link as l')
    .innerJoin('account_holder as ah', (j) =>
      j.onRef('ah.tenant_id', '=', 'l.tenant_id').onRef('ah.id', '=', 'l.linked_id'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('l.tenant_id', '=', tenantId)
    .where('l.repair_facility_id', '=', facilityId)
    .where('ah.kind', '=', kind)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Ids of the linked account holders of `kind` the caller may see: what a replace may remove. */
export async function visibleLinkedIds(
  tx: Transaction<DB>,
  tenantId: number,
  facilityId: number,
  kind: LinkKind,
  visibility: Visibility,
): Promise<number[]> {
  const rows = await tx
    .selectFrom('account_holder as ah')
    .select('ah.id')
    .where('ah.tenant_id', '=', tenantId)
    .where('ah.kind', '=', kind)
    .where('ah.id', 'in', linksOf(tx, tenantId, facilityId))
    .where((eb) => visibleTo(eb, tenantId, visibility))
    .orderBy('ah.id')
    .execute()
  return rows.map((r) => r.id)
}

/** Kinds of those of `ids` that exist in the tenant and that the caller may see. */
export async function visibleKinds(
  db: Executor,
  tenantId: number,
  ids: number[],
  visibility: Visibility,
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('account_holder as ah')
    .select(['ah.id', 'ah.kind'])
    .where('ah.tenant_id', '=', tenantId)
    .where('ah.id', 'in', ids)
    .where((eb) => visibleTo(eb, tenantId, visibility))
    .execute()
  return new Map(rows.map((r) => [r.id, r.kind]))
}

/** Links `ids` (already checked); existing links keep their date. Returns the ids newly linked. */
export async function insertLinks(
  tx: Transaction<DB>,
  tenantId: number,
  facilityId: number,
  ids: number[],
  now: Date,
): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await tx
    .insertInto('repair_facility_link')
    .values(
      ids.map((linked_id) => ({ tenant_id: tenantId, repair_facility_id: facilityId, linked_id, created_at: now })),
    )
    .onConflict((oc) => oc.columns(['tenant_id', 'repair_facility_id', 'linked_id']).doNothing())
    .returning('linked_id')
    .execute()
  return rows.map((r) => r.linked_id).toSorted((a, b) => a - b)
}

/** Removes the links to those of `ids` that have the given kind. Returns the ids unlinked. */
export async function deleteLinks(
  tx: Transaction<DB>,
  tenantId: number,
  facilityId: number,
  kind: LinkKind,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await tx
    .deleteFrom('repair_facility_link')
    .where('tenant_id', '=', tenantId)
    .where('repair_facility_id', '=', facilityId)
    .where('linked_id', 'in', ids)
    .where('linked_id', 'in', (eb) =>
      eb.selectFrom('account_holder').select('id').where('tenant_id', '=', tenantId).where('kind', '=', kind),
    )
    .returning('linked_id')
    .execute()
  return rows.map((r) => r.linked_id).toSorted((a, b) => a - b)
}

export type FacilityOfDealerRow = Selectable<AccountHolderTable> & { via: LinkKind }

/**
 * Repair facilities linked to the dealer or to its dealer group, the caller may see, ordered by
 * id; one row per facility, `via` DEALER when a direct link exists.
 */
export async function facilitiesOfDealer(
  db: Executor,
  tenantId: number,
  dealerId: number,
  dealerGroupId: number | null,
  visibility: Visibility,
  window: Window,
) {
  const linkedTo = dealerGroupId === null ? [dealerId] : [dealerId, dealerGroupId]
  const base = () =>
    db
      .selectFrom('account_holder as ah')
      .where('ah.tenant_id', '=', tenantId)
      .where('ah.kind', '=', 'REPAIR_FACILITY')
      .where('ah.id', 'in', (eb) =>
        eb
          .selectFrom('repair_facility_link as l')
          .select('l.repair_facility_id')
          .where('l.tenant_id', '=', tenantId)
          .where('l.linked_id', 'in', linkedTo),
      )
      .where((eb) => visibleTo(eb, tenantId, visibility))
  const rows: FacilityOfDealerRow[] = await windowed(
    base()
      .selectAll('ah')
      .select(
        sql<LinkKind>`case when exists (select 1 from repair_facility_link d where d.tenant_id = ah.tenant_id
      and d.repair_facility_id = ah.id and d.linked_id = ${dealerId}) then 'DEALER' else 'DEALER_GROUP' end`.as('via'),
      )
      .orderBy('ah.id'),
    window,
  ).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await base()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}
