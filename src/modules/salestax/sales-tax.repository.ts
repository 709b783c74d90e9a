// Sales tax rules in the database (migration 0029). Every statement names the tenant.
import type { Selectable } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { SalesTaxRuleTable } from '../../platform/db/schema.salestax.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type SalesTaxRuleRow = Selectable<SalesTaxRuleTable>
export type RuleValues = Omit<SalesTaxRuleRow, 'tenant_id' | 'id' | 'version' | 'created_at' | 'updated_at'>
export type RuleFilter = { state?: string; productType?: string; asOf?: string }

function filtered(x: Executor, tenantId: number, f: RuleFilter) {
  let q = x.selectFrom('sales_tax_rule').where('tenant_id', '=', tenantId)
  if (f.state !== undefined) q = q.where('state', '=', f.state)
  if (f.productType !== undefined)
    q = q.where((eb) => eb.or([eb('product_type', '=', f.productType as string), eb('product_type', 'is', null)]))
  if (f.asOf !== undefined) {
    const asOf = f.asOf
    q = q
      .where('effective_from', '<=', asOf)
      .where((eb) => eb.or([eb('effective_to', 'is', null), eb('effective_to', '>=', asOf)]))
  }
  return q
}

export function listRules(x: Executor, tenantId: number, f: RuleFilter, window: Window): Promise<SalesTaxRuleRow[]> {
  return windowed(
    filtered(x, tenantId, f).selectAll().orderBy('state').orderBy('effective_from').orderBy('id'),
    window,
  ).execute()
}

export async function countRules(x: Executor, tenantId: number, f: RuleFilter): Promise<number> {
  const r = await filtered(x, tenantId, f)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** Every rule of a state (a state holds a handful): what the overlap check and the computation read. */
export function rulesOfState(x: Executor, tenantId: number, state: string): Promise<SalesTaxRuleRow[]> {
  return x
    .selectFrom('sales_tax_rule')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('state', '=', state)
    .orderBy('id')
    .execute()
}

export function findRule(x: Executor, tenantId: number, id: number, forUpdate = false) {
  const q = x.selectFrom('sales_tax_rule').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id)
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst()
}

export function insertRule(x: Executor, tenantId: number, v: RuleValues, now: Date): Promise<SalesTaxRuleRow> {
  return x
    .insertInto('sales_tax_rule')
    .values({ tenant_id: tenantId, ...v, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function updateRule(
  x: Executor,
  tenantId: number,
  id: number,
  v: RuleValues,
  now: Date,
): Promise<SalesTaxRuleRow> {
  return x
    .updateTable('sales_tax_rule')
    .set((eb) => ({ ...v, updated_at: now, version: eb('version', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteRule(x: Executor, tenantId: number, id: number): Promise<void> {
  await x.deleteFrom('sales_tax_rule').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}
