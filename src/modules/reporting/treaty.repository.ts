// Reinsurance treaties in the database (migration 0042), and the two read-only questions they ask of
// other modules' tables: which catalogue ids are products or programs, and whether a contract was
// ceded by a treaty. Every statement names the tenant.
import { sql, type Selectable } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { ReinsuranceTreatyTable } from '../../platform/db/schema.reporting.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { Treaty } from './treaty.rules.ts'

export type TreatyRow = Selectable<ReinsuranceTreatyTable>
export type TreatyValues = {
  reinsurance_company_id: number
  name: string
  dealer_ids: number[]
  dealer_group_ids: number[]
  product_ids: number[]
  program_ids: number[]
  effective_from: string
  effective_to: string | null
  share_bps: number
  ceding_fee_bps: number
  administrator_fee_bps: number
}
export type TreatyFilter = {
  reinsuranceCompanyId?: number
  dealerId?: number
  dealerGroupId?: number
  productId?: number
  programId?: number
  asOf?: string
}

const ids = (v: ReadonlyArray<number | string>) => v.map(Number)

/** The rules' view of a row (bigint[] normalised to numbers). */
export function treatyOf(r: TreatyRow): Treaty & { name: string; version: number } {
  return {
    id: Number(r.id),
    reinsuranceCompanyId: Number(r.reinsurance_company_id),
    name: r.name,
    dealerIds: ids(r.dealer_ids),
    dealerGroupIds: ids(r.dealer_group_ids),
    productIds: ids(r.product_ids),
    programIds: ids(r.program_ids),
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    shareBps: r.share_bps,
    cedingFeeBps: r.ceding_fee_bps,
    administratorFeeBps: r.administrator_fee_bps,
    version: r.version,
  }
}

const has = (column: string, id: number) => sql<boolean>`${sql.ref(column)} @> array[${id}]::bigint[]`

function filtered(x: Executor, tenantId: number, f: TreatyFilter) {
  let q = x.selectFrom('reinsurance_treaty').where('tenant_id', '=', tenantId)
  if (f.reinsuranceCompanyId !== undefined) q = q.where('reinsurance_company_id', '=', f.reinsuranceCompanyId)
  if (f.dealerId !== undefined) q = q.where(has('dealer_ids', f.dealerId))
  if (f.dealerGroupId !== undefined) q = q.where(has('dealer_group_ids', f.dealerGroupId))
  if (f.productId !== undefined) q = q.where(has('product_ids', f.productId))
  if (f.programId !== undefined) q = q.where(has('program_ids', f.programId))
  if (f.asOf !== undefined) {
    const asOf = f.asOf
    q = q
      .where('effective_from', '<=', asOf)
      .where((eb) => eb.or([eb('effective_to', 'is', null), eb('effective_to', '>=', asOf)]))
  }
  return q
}

export function listTreaties(x: Executor, tenantId: number, f: TreatyFilter, window: Window): Promise<TreatyRow[]> {
  return windowed(filtered(x, tenantId, f).selectAll().orderBy('id'), window).execute()
}

export async function countTreaties(x: Executor, tenantId: number, f: TreatyFilter): Promise<number> {
  const r = await filtered(x, tenantId, f)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** The treaties in force on a day (a tenant holds tens or hundreds): what a sale's cession is chosen from. */
export function treatiesInForce(x: Executor, tenantId: number, day: string): Promise<TreatyRow[]> {
  return filtered(x, tenantId, { asOf: day }).selectAll().orderBy('id').execute()
}

/** Every treaty of the tenant: what the overlap check compares a write with. */
export function allTreaties(x: Executor, tenantId: number): Promise<TreatyRow[]> {
  return x.selectFrom('reinsurance_treaty').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute()
}

export function findTreaty(x: Executor, tenantId: number, id: number, forUpdate = false) {
  const q = x.selectFrom('reinsurance_treaty').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id)
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst()
}

export function insertTreaty(x: Executor, tenantId: number, v: TreatyValues, now: Date): Promise<TreatyRow> {
  return x
    .insertInto('reinsurance_treaty')
    .values({ tenant_id: tenantId, ...v, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function updateTreaty(x: Executor, tenantId: number, id: number, v: TreatyValues, now: Date) {
  return x
    .updateTable('reinsurance_treaty')
    .set((eb) => ({ ...v, updated_at: now, version: eb('version', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteTreaty(x: Executor, tenantId: number, id: number): Promise<void> {
  await x.deleteFrom('reinsurance_treaty').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

/** How many contracts keep this treaty in their terms.cession (the partial index of migration 0042). */
export async function contractsCededBy(x: Executor, tenantId: number, treatyId: number): Promise<number> {
  const r = await x
    .selectFrom('contract')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where(sql`(terms -> 'cession' ->> 'treatyId')`, 'is not', null)
    .where(sql`(terms -> 'cession' ->> 'treatyId')::bigint`, '=', treatyId)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** The catalogue ids among `ids` that are items of `kind` (PRODUCT or PROGRAM) of the tenant's rate books. */
export async function catalogueIdsOfKind(
  x: Executor,
  tenantId: number,
  kind: 'PRODUCT' | 'PROGRAM',
  wanted: readonly number[],
): Promise<Set<number>> {
  if (wanted.length === 0) return new Set()
  const rows = await x
    .selectFrom('rating_catalogue_item')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('id', 'in', [...wanted])
    .execute()
  return new Set(rows.map((r) => Number(r.id)))
}
