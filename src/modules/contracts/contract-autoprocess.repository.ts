// Automatic expiry and voiding (docs/contracts.md "Automatic expiry and voiding"): the contracts due
// to expire or void, and a contract's latest known odometer. Plain Kysely functions taking the
// executor and the tenant id first. The expiry selection is the rules' expiryDue in SQL: in force
// (FINALIZED or ACTIVE), and past the expiration date or with a reading at or past the expiration
// odometer; the in-force set is written as literals so the partial index of migration 0038 serves it.
import { sql, type Expression, type ExpressionBuilder, type SqlBool, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { ExpiryReason, OdometerReading } from './contract-autoprocess.rules.ts'

/** The contracts in force, as the partial index contract_in_force_expiry_idx states them. */
export const inForce = (alias: 'c' | 'contract') =>
  sql<SqlBool>`${sql.ref(`${alias}.status`)} in ('FINALIZED', 'ACTIVE')`

/** Past the expiration date, or a reading at or past the expiration odometer (either, or the one `reason` names). */
export function dueToExpire(
  eb: ExpressionBuilder<DB & { c: DB['contract'] }, 'c'>,
  asOf: string,
  reason: ExpiryReason | null,
): Expression<SqlBool> {
  const byDate = eb('c.expiration_date', '<', asOf)
  const byMiles = eb.and([
    eb('c.last_odometer', '>=', eb.ref('c.expiration_odometer')),
    eb('c.last_odometer_on', '<=', asOf),
  ])
  return reason === 'DATE' ? byDate : reason === 'MILEAGE' ? byMiles : eb.or([byDate, byMiles])
}

export type ExpirySelection = {
  asOf: string
  reason: ExpiryReason | null
  dealerId: number | null
  productType: string | null
  /** A dealer-side user's dealers; null: every dealer. */
  visible: ReadonlySet<number> | null
}

export type ExpiryDueRow = {
  id: number
  contract_number: string
  dealer_id: number
  product_type: string
  status: ContractStatus
  sale_date: string
  effective_date: string
  expiration_date: string
  sale_odometer: number | null
  expiration_odometer: number | null
  term_miles: number | null
  miles_basis: string | null
  last_odometer: number | null
  last_odometer_on: string | null
  last_odometer_source: string | null
  last_odometer_source_id: number | null
}

function expiryQuery(db: Executor, tenantId: number, s: ExpirySelection) {
  let q = db
    .selectFrom('contract as c')
    .where('c.tenant_id', '=', tenantId)
    .where(inForce('c'))
    .where((eb) => dueToExpire(eb, s.asOf, s.reason))
  if (s.dealerId !== null) q = q.where('c.dealer_id', '=', s.dealerId)
  if (s.productType !== null) q = q.where('c.product_type', '=', s.productType)
  if (s.visible) q = q.where('c.dealer_id', 'in', s.visible.size > 0 ? [...s.visible] : [0])
  return q
}

/** The contracts due to expire as of `asOf`, by contract id. */
export async function listExpiryDue(
  db: Executor,
  tenantId: number,
  s: ExpirySelection,
  window: Window,
): Promise<ExpiryDueRow[]> {
  const rows = await windowed(
    expiryQuery(db, tenantId, s)
      .select([
        'c.id',
        'c.contract_number',
        'c.dealer_id',
        'c.product_type',
        'c.status',
        'c.sale_date',
        'c.effective_date',
        'c.expiration_date',
        'c.sale_odometer',
        'c.expiration_odometer',
        sql<string | null>`c.coverage -> 'term' ->> 'miles'`.as('term_miles'),
        sql<string | null>`c.coverage -> 'term' ->> 'milesBasis'`.as('miles_basis'),
        'c.last_odometer',
        'c.last_odometer_on',
        'c.last_odometer_source',
        'c.last_odometer_source_id',
      ])
      .orderBy('c.id'),
    window,
  ).execute()
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    dealer_id: Number(r.dealer_id),
    term_miles: r.term_miles === null ? null : Number(r.term_miles),
    last_odometer_source_id: r.last_odometer_source_id === null ? null : Number(r.last_odometer_source_id),
  }))
}

export async function countExpiryDue(db: Executor, tenantId: number, s: ExpirySelection): Promise<number> {
  const row = await expiryQuery(db, tenantId, s)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export type VoidableSelection = {
  /** Created before this instant (now − pendingContractVoidAfterDays). */
  createdBefore: Date
  dealerId: number | null
  productType: string | null
  visible: ReadonlySet<number> | null
}

export type VoidableRow = {
  id: number
  contract_number: string
  dealer_id: number
  product_type: string
  sale_date: string
  effective_date: string
  created_at: Date
  created_by: string
}

function voidableQuery(db: Executor, tenantId: number, s: VoidableSelection) {
  let q = db
    .selectFrom('contract as c')
    .where('c.tenant_id', '=', tenantId)
    .where('c.status', '=', 'PENDING')
    .where('c.created_at', '<', s.createdBefore)
  if (s.dealerId !== null) q = q.where('c.dealer_id', '=', s.dealerId)
  if (s.productType !== null) q = q.where('c.product_type', '=', s.productType)
  if (s.visible) q = q.where('c.dealer_id', 'in', s.visible.size > 0 ? [...s.visible] : [0])
  return q
}

/** The PENDING contracts created before `createdBefore`, by contract id. */
export async function listVoidable(
  db: Executor,
  tenantId: number,
  s: VoidableSelection,
  window: Window,
): Promise<VoidableRow[]> {
  const rows = await windowed(
    voidableQuery(db, tenantId, s)
      .select([
        'c.id',
        'c.contract_number',
        'c.dealer_id',
        'c.product_type',
        'c.sale_date',
        'c.effective_date',
        'c.created_at',
        'c.created_by',
      ])
      .orderBy('c.id'),
    window,
  ).execute()
  return rows.map((r) => ({ ...r, id: Number(r.id), dealer_id: Number(r.dealer_id) }))
}

export async function countVoidable(db: Executor, tenantId: number, s: VoidableSelection): Promise<number> {
  const row = await voidableQuery(db, tenantId, s)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export type OdometerRow = {
  id: number
  contract_number: string
  status: ContractStatus
  effective_date: string
  last_odometer: number | null
  last_odometer_on: string | null
  last_odometer_source: string | null
  last_odometer_source_id: number | null
}

/** What a reading is judged against, under the contract's row lock; undefined when unknown or not visible. */
export async function lockOdometer(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  visible: ReadonlySet<number> | null,
): Promise<OdometerRow | undefined> {
  let q = tx
    .selectFrom('contract as c')
    .select([
      'c.id',
      'c.contract_number',
      'c.status',
      'c.effective_date',
      'c.last_odometer',
      'c.last_odometer_on',
      'c.last_odometer_source',
      'c.last_odometer_source_id',
    ])
    .where('c.tenant_id', '=', tenantId)
    .where('c.id', '=', id)
  if (visible) q = q.where('c.dealer_id', 'in', visible.size > 0 ? [...visible] : [0])
  const row = await q.forUpdate('c').executeTakeFirst()
  return row && { ...row, id: Number(row.id), last_odometer_source_id: toId(row.last_odometer_source_id) }
}

/** Keeps a reading as the contract's latest known odometer; not a change of the contract (no new version). */
export async function writeOdometer(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  reading: OdometerReading & { source: string; sourceId: number | null },
): Promise<void> {
  await tx
    .updateTable('contract')
    .set({
      last_odometer: reading.odometer,
      last_odometer_on: reading.readOn,
      last_odometer_source: reading.source,
      last_odometer_source_id: reading.sourceId,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

const toId = (v: number | string | null) => (v === null ? null : Number(v))

export type ExpiryFiguresRow = {
  contract_number: string
  expiration_date: string
  expiration_odometer: number | null
  last_odometer: number | null
  last_odometer_on: string | null
  last_odometer_source: string | null
  last_odometer_source_id: number | null
}

/** What decides a contract's expiry, for the refusal of one the caller has already locked (and so may see). */
export async function expiryFigures(db: Executor, tenantId: number, id: number): Promise<ExpiryFiguresRow | undefined> {
  const row = await db
    .selectFrom('contract')
    .select([
      'contract_number',
      'expiration_date',
      'expiration_odometer',
      'last_odometer',
      'last_odometer_on',
      'last_odometer_source',
      'last_odometer_source_id',
    ])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row && { ...row, last_odometer_source_id: toId(row.last_odometer_source_id) }
}
