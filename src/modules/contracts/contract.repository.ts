// Contract persistence: plain Kysely functions taking the executor and the tenant id first.
import { sql, type Insertable, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { ContractStatus, ContractTable } from '../../platform/db/schema.contracts.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type ContractRow = Selectable<ContractTable> & { open_holds: number }
export type ContractInsert = Omit<Insertable<ContractTable>, 'tenant_id'>

const withOpenHolds = (tenantId: number) => sql<number>`(select count(*)::int from contract_hold h where h.tenant_id = ${tenantId} and h.contract_id = c.id and h.resolved_at is null)`

export async function findContract(db: Executor, tenantId: number, id: number, visible: ReadonlySet<number> | null): Promise<ContractRow | undefined> {
  let q = db.selectFrom('contract as c').selectAll('c').select(withOpenHolds(tenantId).as('open_holds'))
    .where('c.tenant_id', '=', tenantId).where('c.id', '=', id)
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  return q.executeTakeFirst()
}

export async function findContractByNumber(db: Executor, tenantId: number, contractNumber: string, visible: ReadonlySet<number> | null): Promise<ContractRow | undefined> {
  let q = db.selectFrom('contract as c').selectAll('c').select(withOpenHolds(tenantId).as('open_holds'))
    .where('c.tenant_id', '=', tenantId).where(sql<string>`upper(c.contract_number)`, '=', contractNumber.toUpperCase())
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  return q.executeTakeFirst()
}

/** The contract row locked for a change; the caller's transaction holds the lock until it ends. */
export async function lockContract(tx: Transaction<DB>, tenantId: number, id: number, visible: ReadonlySet<number> | null): Promise<ContractRow | undefined> {
  let q = tx.selectFrom('contract as c').selectAll('c').select(withOpenHolds(tenantId).as('open_holds'))
    .where('c.tenant_id', '=', tenantId).where('c.id', '=', id)
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  return q.forUpdate('c').executeTakeFirst()
}

export async function insertContract(tx: Transaction<DB>, tenantId: number, values: ContractInsert): Promise<number> {
  const row = await tx.insertInto('contract').values({ ...values, tenant_id: tenantId }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateContract(tx: Transaction<DB>, tenantId: number, id: number, values: Partial<Omit<ContractInsert, 'id'>>, now: Date, bumpVersion = true): Promise<void> {
  await tx.updateTable('contract').set({ ...values, updated_at: now, ...(bumpVersion ? { version: sql<number>`version + 1` } : {}) })
    .where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

/** The tenant's next contract sequence number. The row lock serializes numbering within a tenant only. */
export async function nextContractSequence(tx: Transaction<DB>, tenantId: number): Promise<number> {
  const row = await tx.insertInto('contract_number_sequence').values({ tenant_id: tenantId, last_value: 1 })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ last_value: sql<number>`contract_number_sequence.last_value + 1` }))
    .returning('last_value').executeTakeFirstOrThrow()
  return Number(row.last_value)
}

/** A contract of the same dealer, VIN, plan and sale date created since `since` and not voided. */
export async function findRecentDuplicate(tx: Executor, tenantId: number, key: { dealerId: number; vin: string; planId: number; saleDate: string }, since: Date) {
  return tx.selectFrom('contract').select(['id', 'contract_number'])
    .where('tenant_id', '=', tenantId).where('dealer_id', '=', key.dealerId).where('vin', '=', key.vin)
    .where('plan_id', '=', key.planId).where('sale_date', '=', key.saleDate)
    .where('created_at', '>=', since).where('status', '!=', 'VOIDED')
    .orderBy('id').limit(1).executeTakeFirst()
}

/** Serializes submissions of the same deal within a tenant for the rest of the transaction. */
export async function lockDeal(tx: Transaction<DB>, tenantId: number, dealKey: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${tenantId}::int, hashtext(${dealKey}))`.execute(tx)
}

/** Claims unique custom-field values for a contract; the values already claimed by another contract are returned, nothing is claimed then. */
export async function claimUniqueValues(tx: Transaction<DB>, tenantId: number, contractId: number, values: ReadonlyArray<{ key: string; value: string }>): Promise<Array<{ key: string; value: string; contractId: number }>> {
  if (values.length === 0) return []
  const taken = await tx.selectFrom('contract_unique_value').select(['field_key', 'value', 'contract_id'])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or(values.map((v) => eb.and([eb('field_key', '=', v.key), eb('value', '=', v.value)]))))
    .execute()
  const others = taken.filter((t) => t.contract_id !== contractId)
  if (others.length > 0) return others.map((t) => ({ key: t.field_key, value: t.value, contractId: t.contract_id }))
  const fresh = values.filter((v) => !taken.some((t) => t.field_key === v.key && t.value === v.value))
  if (fresh.length > 0) {
    await tx.insertInto('contract_unique_value').values(fresh.map((v) => ({ tenant_id: tenantId, field_key: v.key, value: v.value, contract_id: contractId }))).execute()
  }
  return []
}

/** Releases a contract's claims on values it no longer carries. */
export async function releaseUniqueValues(tx: Transaction<DB>, tenantId: number, contractId: number, keep: ReadonlyArray<{ key: string; value: string }>): Promise<void> {
  let q = tx.deleteFrom('contract_unique_value').where('tenant_id', '=', tenantId).where('contract_id', '=', contractId)
  if (keep.length > 0) q = q.where((eb) => eb.not(eb.or(keep.map((v) => eb.and([eb('field_key', '=', v.key), eb('value', '=', v.value)])))))
  await q.execute()
}

export type ContractFilter = {
  contractNumber?: string | undefined; vin?: string | undefined; customerName?: string | undefined
  dealerId?: number | undefined; dealerIds?: readonly number[] | undefined; status?: ContractStatus | undefined
  saleDateFrom?: string | undefined; saleDateTo?: string | undefined; createdFrom?: string | undefined; createdTo?: string | undefined
}

/** Contracts matching every filter, newest first (id breaks ties), with the total. */
export async function searchContracts(db: Executor, tenantId: number, f: ContractFilter, visible: ReadonlySet<number> | null, window: Window) {
  let q = db.selectFrom('contract as c').where('c.tenant_id', '=', tenantId)
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  if (f.contractNumber !== undefined) q = q.where(sql<string>`upper(c.contract_number)`, '=', f.contractNumber.toUpperCase())
  if (f.vin !== undefined) {
    const vin = f.vin.toUpperCase()
    q = vin.length === 17 ? q.where('c.vin', '=', vin) : q.where('c.vin', 'like', `%${escapeLike(vin)}`)
  }
  if (f.customerName !== undefined) {
    const name = escapeLike(f.customerName.trim().toLowerCase())
    q = q.where((eb) => eb.or([eb('c.customer_name', 'like', `${name}%`), eb('c.customer_name', 'like', `% ${name}%`)]))
  }
  if (f.dealerId !== undefined) q = q.where('c.dealer_id', '=', f.dealerId)
  if (f.dealerIds !== undefined) q = q.where('c.dealer_id', 'in', f.dealerIds.length > 0 ? [...f.dealerIds] : [0])
  if (f.status !== undefined) q = q.where('c.status', '=', f.status)
  if (f.saleDateFrom !== undefined) q = q.where('c.sale_date', '>=', f.saleDateFrom)
  if (f.saleDateTo !== undefined) q = q.where('c.sale_date', '<=', f.saleDateTo)
  if (f.createdFrom !== undefined) q = q.where('c.created_at', '>=', new Date(f.createdFrom))
  if (f.createdTo !== undefined) q = q.where('c.created_at', '<', new Date(f.createdTo))
  const [rows, count] = await Promise.all([
    windowed(q.select(['c.id', 'c.contract_number', 'c.status', 'c.dealer_id', 'c.vin', 'c.customer_name', 'c.customer', 'c.coverage', 'c.sale_date', 'c.effective_date', 'c.expiration_date', 'c.dealer_cost', 'c.retail_price', 'c.created_at'])
      .orderBy('c.id', 'desc'), window).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: count.n }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

// ---- holds -------------------------------------------------------------------------------------

export async function listHolds(db: Executor, tenantId: number, contractId: number) {
  return db.selectFrom('contract_hold').selectAll().where('tenant_id', '=', tenantId).where('contract_id', '=', contractId).orderBy('id').execute()
}

export async function findHold(db: Executor, tenantId: number, contractId: number, holdId: number) {
  return db.selectFrom('contract_hold').selectAll().where('tenant_id', '=', tenantId).where('contract_id', '=', contractId).where('id', '=', holdId).executeTakeFirst()
}

export async function insertHold(tx: Transaction<DB>, tenantId: number, values: { contract_id: number; reason_code: string; note: string | null; created_at: Date; created_by: string }) {
  return tx.insertInto('contract_hold').values({ ...values, tenant_id: tenantId }).returningAll().executeTakeFirstOrThrow()
}

export async function resolveHold(tx: Transaction<DB>, tenantId: number, holdId: number, values: { resolved_at: Date; resolved_by: string; resolution_note: string | null }) {
  return tx.updateTable('contract_hold').set(values).where('tenant_id', '=', tenantId).where('id', '=', holdId).where('resolved_at', 'is', null)
    .returningAll().executeTakeFirst()
}
