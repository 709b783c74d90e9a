// The claim inspections' queries (docs/claims.md "Inspections"): plain Kysely functions, the executor
// and the tenant first; every statement names tenant_id. An inspection is read with the few members
// of its claim that its view, its visibility and its checks need (one join). Inspection companies and
// the repair facility's state are read from the account holders' table (the parties module's),
// read-only, as claim intake reads repair facilities.
import { sql, type Insertable, type Selectable, type Transaction, type Updateable } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { ClaimInspectionStatusColumn, ClaimInspectionTable } from '../../platform/db/schema.claims.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'

export type InspectionRecord = Selectable<ClaimInspectionTable>
export type InspectionInsert = Omit<Insertable<ClaimInspectionTable>, 'tenant_id' | 'id'>

/** An inspection with what it shows and checks of its claim. */
export type InspectionRow = InspectionRecord & {
  claim_number: string
  claim_status: string
  dealer_id: number
  vin: string | null
  loss_date: string
  claim_odometer: number | null
  repair_facility_id: number
  repair_facility_name: string
}

function joined(db: Executor, tenantId: number) {
  return db
    .selectFrom('claim_inspection as i')
    .innerJoin('claim as c', (j) => j.onRef('c.tenant_id', '=', 'i.tenant_id').onRef('c.id', '=', 'i.claim_id'))
    .selectAll('i')
    .select([
      'c.claim_number',
      'c.status as claim_status',
      'c.dealer_id',
      'c.vin',
      'c.loss_date',
      'c.odometer as claim_odometer',
      'c.repair_facility_id',
      'c.repair_facility_name',
    ])
    .where('i.tenant_id', '=', tenantId)
}

export async function insertInspection(
  tx: Transaction<DB>,
  tenantId: number,
  values: InspectionInsert,
): Promise<InspectionRecord> {
  return tx
    .insertInto('claim_inspection')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The inspection with its claim's members; undefined for an id no row can have. */
export async function findInspection(db: Executor, tenantId: number, id: number): Promise<InspectionRow | undefined> {
  if (!isStorableId(id)) return undefined
  return joined(db, tenantId).where('i.id', '=', id).executeTakeFirst() as Promise<InspectionRow | undefined>
}

/** The claim's latest inspection (any status); undefined: none. */
export async function latestInspection(
  db: Executor,
  tenantId: number,
  claimId: number,
): Promise<InspectionRow | undefined> {
  if (!isStorableId(claimId)) return undefined
  return joined(db, tenantId)
    .where('i.claim_id', '=', claimId)
    .orderBy('i.id', 'desc')
    .limit(1)
    .executeTakeFirst() as Promise<InspectionRow | undefined>
}

/** The inspection's row locked until `tx` ends (the caller has locked its claim first). */
export async function lockInspection(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
): Promise<InspectionRecord | undefined> {
  if (!isStorableId(id)) return undefined
  return tx
    .selectFrom('claim_inspection')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/** Writes the changes and the next version; the changed row. */
export async function updateInspection(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: Omit<Updateable<ClaimInspectionTable>, 'tenant_id' | 'id' | 'claim_id' | 'version'>,
): Promise<InspectionRecord> {
  return tx
    .updateTable('claim_inspection')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export type InspectionFilter = {
  status?: ClaimInspectionStatusColumn | undefined
  inspectionCompanyId?: number | undefined
  claimId?: number | undefined
  requestedFrom?: string | undefined
  requestedTo?: string | undefined
  updatedFrom?: string | undefined
}

/**
 * Inspections matching every filter, newest first (by id), with the total. `visible` (a non-staff
 * caller's account holders): the inspections of those inspection companies or of claims of those dealers.
 */
export async function searchInspections(
  db: Executor,
  tenantId: number,
  f: InspectionFilter,
  visible: ReadonlySet<number> | null,
  window: Window,
): Promise<{ rows: InspectionRow[]; totalCount: number }> {
  let q = joined(db, tenantId)
  if (visible) {
    const ids = visible.size > 0 ? [...visible] : [0]
    q = q.where((eb) => eb.or([eb('i.inspection_company_id', 'in', ids), eb('c.dealer_id', 'in', ids)]))
  }
  if (f.status !== undefined) q = q.where('i.status', '=', f.status)
  if (f.inspectionCompanyId !== undefined) q = q.where('i.inspection_company_id', '=', f.inspectionCompanyId)
  if (f.claimId !== undefined) q = q.where('i.claim_id', '=', f.claimId)
  if (f.requestedFrom !== undefined) q = q.where('i.requested_at', '>=', new Date(f.requestedFrom))
  if (f.requestedTo !== undefined) q = q.where('i.requested_at', '<', new Date(f.requestedTo))
  if (f.updatedFrom !== undefined) q = q.where('i.updated_at', '>=', new Date(f.updatedFrom))
  const [rows, count] = await Promise.all([
    windowed(q.orderBy('i.id', 'desc'), window).execute(),
    q
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: rows as InspectionRow[], totalCount: Number(count.n) }
}

/** The tenant's claim lookup entry: its kind and whether it is offered; undefined when unknown. */
export async function lookupEntry(
  db: Executor,
  tenantId: number,
  id: number,
): Promise<{ kind: string; name: string; active: boolean } | undefined> {
  if (!isStorableId(id)) return undefined
  return db
    .selectFrom('claim_lookup')
    .select(['kind', 'name', 'active'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export type InspectionCompanyRow = {
  id: number
  display_name: string
  status: 'ACTIVE' | 'INACTIVE'
  expired_date: Date | null
  details: Record<string, unknown>
}

/** The inspection company (an account holder of kind INSPECTION_COMPANY); undefined when none has the id. */
export async function inspectionCompany(
  db: Executor,
  tenantId: number,
  id: number,
): Promise<InspectionCompanyRow | undefined> {
  if (!isStorableId(id)) return undefined
  return db
    .selectFrom('account_holder')
    .select(['id', 'display_name', 'status', 'expired_date', 'details'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('kind', '=', 'INSPECTION_COMPANY')
    .executeTakeFirst() as Promise<InspectionCompanyRow | undefined>
}

/** The active inspection company serving `state` (its serviceStates) with the lowest id; undefined: none. */
export async function companyServing(
  db: Executor,
  tenantId: number,
  state: string,
  now: Date,
): Promise<InspectionCompanyRow | undefined> {
  return db
    .selectFrom('account_holder')
    .select(['id', 'display_name', 'status', 'expired_date', 'details'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'INSPECTION_COMPANY')
    .where('status', '=', 'ACTIVE')
    .where((eb) => eb.or([eb('expired_date', 'is', null), eb('expired_date', '>', now)]))
    .where(sql<boolean>`details -> 'serviceStates' ? ${state}`)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst() as Promise<InspectionCompanyRow | undefined>
}

/** The state of an account holder's first address (a repair facility's); null: none. */
export async function primaryStateOf(db: Executor, tenantId: number, id: number): Promise<string | null> {
  const row = await db
    .selectFrom('account_holder')
    .select('primary_state')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row?.primary_state ?? null
}
