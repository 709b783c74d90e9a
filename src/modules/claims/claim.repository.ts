// The claims' queries (docs/claims.md "Claims: intake, read, index"): plain Kysely functions, the
// executor and the tenant first; every statement names tenant_id (row-level security is the second
// line, not the first).
import { sql, type Insertable, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { ClaimStatusColumn, ClaimTable } from '../../platform/db/schema.claims.ts'
import type { DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'

export type ClaimRow = Selectable<ClaimTable>
export type ClaimInsert = Omit<Insertable<ClaimTable>, 'tenant_id' | 'id'>

/** The tenant's next claim sequence number; the counter row's lock serializes numbering until `tx` ends. */
export async function nextClaimSequence(tx: Transaction<DB>, tenantId: number): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`
      insert into claim_number_counter (tenant_id, last_value) values (${tenantId}, 1)
      on conflict (tenant_id) do update set last_value = claim_number_counter.last_value + 1
      returning last_value as n`.execute(tx)
  return Number(rows[0]!.n)
}

export async function insertClaim(tx: Transaction<DB>, tenantId: number, values: ClaimInsert): Promise<ClaimRow> {
  return tx
    .insertInto('claim')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The claim; undefined for an id no row can have. */
export async function findClaim(db: Executor, tenantId: number, id: number): Promise<ClaimRow | undefined> {
  if (!isStorableId(id)) return undefined
  return db.selectFrom('claim').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()
}

/** The highest odometer of the contract's claims (not voided) with a loss on or before `lossDate`; null: none. */
export async function earlierClaimsMaxOdometer(
  db: Executor,
  tenantId: number,
  contractId: number,
  lossDate: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('claim')
    .select((eb) => eb.fn.max('odometer').as('n'))
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('loss_date', '<=', lossDate)
    .where('status', '!=', 'VOIDED')
    .executeTakeFirst()
  return row?.n === null || row?.n === undefined ? null : Number(row.n)
}

/** Statuses of a claim still to be decided or paid: they block a cancel (cancellations' `claims_open`). */
export const UNSETTLED_STATUSES = [
  'OPEN',
  'PENDING_INSPECTION',
  'AUTHORIZED',
  'PENDING_PAYMENT',
  'PARTIALLY_PAID',
] as const

/** A contract's claims as a cancel reads them: how many are unsettled, what was paid and whether any payment was made. */
export async function contractClaimsSummary(
  db: Executor,
  tenantId: number,
  contractId: number,
): Promise<{ unsettled: number; paidCents: number; paidClaims: number }> {
  const row = await db
    .selectFrom('claim')
    .select((eb) => [
      eb.fn
        .countAll<string>()
        .filterWhere('status', 'in', [...UNSETTLED_STATUSES])
        .as('unsettled'),
      eb.fn.coalesce(eb.fn.sum<string>('paid_total'), sql<string>`0`).as('paid'),
      eb.fn.countAll<string>().filterWhere('paid_total', '>', '0').as('paid_claims'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('status', '!=', 'VOIDED')
    .executeTakeFirstOrThrow()
  return {
    unsettled: Number(row.unsettled),
    paidCents: Math.round(Number(row.paid) * 100),
    paidClaims: Number(row.paid_claims),
  }
}

export type LookupKindForJob = 'COMPLAINT' | 'CAUSE' | 'CORRECTION'

/** The tenant's complaint, cause and correction entries among `ids` (active or not), by id. */
export async function threeCsByIds(
  db: Executor,
  tenantId: number,
  ids: readonly number[],
): Promise<Map<number, { kind: string; name: string; active: boolean }>> {
  const storable = [...new Set(ids)].filter(isStorableId)
  if (storable.length === 0) return new Map()
  const rows = await db
    .selectFrom('claim_lookup')
    .select(['id', 'kind', 'name', 'active'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', storable)
    .where('kind', 'in', ['COMPLAINT', 'CAUSE', 'CORRECTION'])
    .execute()
  return new Map(rows.map((r) => [Number(r.id), { kind: r.kind, name: r.name, active: r.active }]))
}

export type ClaimFilter = {
  status?: ClaimStatusColumn | undefined
  contractId?: number | undefined
  vin?: string | undefined
  dealerId?: number | undefined
  repairFacilityId?: number | undefined
  lossDateFrom?: string | undefined
  lossDateTo?: string | undefined
  createdFrom?: string | undefined
  createdTo?: string | undefined
  adjusterUserId?: number | undefined
}

/**
 * What the index shows of a claim: no jobs, benefits or contact (the jsonb columns are most of a
 * row's bytes and parsing them most of a page's cost: docs/benchmarks.md "Claims").
 */
export const CLAIM_SUMMARY_COLUMNS = [
  'id',
  'claim_number',
  'contract_id',
  'contract_number',
  'dealer_id',
  'vin',
  'status',
  'loss_date',
  'odometer',
  'repair_facility_id',
  'repair_facility_name',
  'repair_order_number',
  'adjuster_user_id',
  'requested_total',
  'authorized_total',
  'tax_total',
  'deductible_total',
  'payable_total',
  'paid_total',
  'reported_at',
  'created_at',
  'updated_at',
  'version',
] as const

export type ClaimSummaryRow = Pick<ClaimRow, (typeof CLAIM_SUMMARY_COLUMNS)[number]>

/** Claims matching every filter, newest first (by id), with the total; `visible`: the account holders a non-staff caller sees. */
export async function searchClaims(
  db: Executor,
  tenantId: number,
  f: ClaimFilter,
  visible: ReadonlySet<number> | null,
  window: Window,
): Promise<{ rows: ClaimSummaryRow[]; totalCount: number }> {
  let q = db.selectFrom('claim').where('tenant_id', '=', tenantId)
  if (visible) {
    // A non-staff caller sees its dealers' claims and its repair facilities' (claim.service visibleTo).
    const ids = visible.size > 0 ? [...visible] : [0]
    q = q.where((eb) => eb.or([eb('dealer_id', 'in', ids), eb('repair_facility_id', 'in', ids)]))
  }
  if (f.status !== undefined) q = q.where('status', '=', f.status)
  if (f.contractId !== undefined) q = q.where('contract_id', '=', f.contractId)
  if (f.vin !== undefined) q = q.where('vin', '=', f.vin.toUpperCase())
  if (f.dealerId !== undefined) q = q.where('dealer_id', '=', f.dealerId)
  if (f.repairFacilityId !== undefined) q = q.where('repair_facility_id', '=', f.repairFacilityId)
  if (f.lossDateFrom !== undefined) q = q.where('loss_date', '>=', f.lossDateFrom)
  if (f.lossDateTo !== undefined) q = q.where('loss_date', '<=', f.lossDateTo)
  if (f.createdFrom !== undefined) q = q.where('created_at', '>=', new Date(f.createdFrom))
  if (f.createdTo !== undefined) q = q.where('created_at', '<', new Date(f.createdTo))
  if (f.adjusterUserId !== undefined) q = q.where('adjuster_user_id', '=', f.adjusterUserId)
  const [rows, count] = await Promise.all([
    windowed(q.select(CLAIM_SUMMARY_COLUMNS).orderBy('id', 'desc'), window).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, totalCount: count.n }
}

/** The claim, its row locked until `tx` ends; undefined for an id no row can have. */
export async function lockClaim(tx: Transaction<DB>, tenantId: number, id: number): Promise<ClaimRow | undefined> {
  if (!isStorableId(id)) return undefined
  return tx
    .selectFrom('claim')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export type ClaimUpdate = Partial<Omit<ClaimInsert, 'claim_number' | 'contract_id'>>

/** Writes the changes and the next version; the changed row. */
export async function updateClaim(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: ClaimUpdate,
): Promise<ClaimRow> {
  return tx
    .updateTable('claim')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export type ClaimNoteRow = Selectable<DB['claim_note']>

export async function insertClaimNote(
  tx: Transaction<DB>,
  tenantId: number,
  values: Omit<Insertable<DB['claim_note']>, 'tenant_id' | 'id'>,
): Promise<ClaimNoteRow> {
  return tx
    .insertInto('claim_note')
    .values({ ...values, tenant_id: tenantId })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The claim's note; undefined for an id no row can have or another claim's note. `staff`: STAFF notes too. */
export async function findClaimNote(
  db: Executor,
  tenantId: number,
  claimId: number,
  noteId: number,
  staff: boolean,
): Promise<ClaimNoteRow | undefined> {
  if (!isStorableId(noteId)) return undefined
  let q = db
    .selectFrom('claim_note')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('claim_id', '=', claimId)
    .where('id', '=', noteId)
  if (!staff) q = q.where('visibility', '=', 'ALL')
  return q.executeTakeFirst()
}

/** The claim's notes the caller may read, oldest first (by id), within the window, with their count. */
export async function listClaimNotes(
  db: Executor,
  tenantId: number,
  claimId: number,
  staff: boolean,
  window: Window,
): Promise<{ rows: ClaimNoteRow[]; totalCount: number }> {
  let q = db.selectFrom('claim_note').where('tenant_id', '=', tenantId).where('claim_id', '=', claimId)
  if (!staff) q = q.where('visibility', '=', 'ALL')
  const rows = await windowed(q.selectAll().orderBy('id'), window).execute()
  return { rows, totalCount: await countClaimNotes(db, tenantId, claimId, staff) }
}

/** How many notes of the claim the caller may read. */
export async function countClaimNotes(
  db: Executor,
  tenantId: number,
  claimId: number,
  staff: boolean,
): Promise<number> {
  let q = db.selectFrom('claim_note').where('tenant_id', '=', tenantId).where('claim_id', '=', claimId)
  if (!staff) q = q.where('visibility', '=', 'ALL')
  const row = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

export type ClaimHoldRow = Selectable<DB['claim_hold']>

/** The claim's holds, open ones first then released, each in the order placed. */
export async function claimHolds(db: Executor, tenantId: number, claimId: number): Promise<ClaimHoldRow[]> {
  return db
    .selectFrom('claim_hold')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('claim_id', '=', claimId)
    .orderBy(sql`released_at is not null`)
    .orderBy('id')
    .execute()
}

export async function insertClaimHolds(
  tx: Transaction<DB>,
  tenantId: number,
  values: ReadonlyArray<Omit<Insertable<DB['claim_hold']>, 'tenant_id' | 'id'>>,
): Promise<void> {
  if (values.length === 0) return
  await tx
    .insertInto('claim_hold')
    .values(values.map((v) => ({ ...v, tenant_id: tenantId })))
    .execute()
}

/** Releases the claim's open holds among `ids`. */
export async function releaseClaimHolds(
  tx: Transaction<DB>,
  tenantId: number,
  claimId: number,
  ids: readonly number[],
  at: Date,
  by: string,
): Promise<void> {
  if (ids.length === 0) return
  await tx
    .updateTable('claim_hold')
    .set({ released_at: at, released_by: by })
    .where('tenant_id', '=', tenantId)
    .where('claim_id', '=', claimId)
    .where('id', 'in', [...ids])
    .where('released_at', 'is', null)
    .execute()
}

/** The tenant's lookup entries of `kind` among `ids`, by id (active or not). */
export async function lookupsOfKind(
  db: Executor,
  tenantId: number,
  kind: 'DENIED_REASON' | 'HOLD_REASON',
  ids: readonly number[],
): Promise<Map<number, { code: string; name: string; active: boolean }>> {
  const storable = [...new Set(ids)].filter(isStorableId)
  if (storable.length === 0) return new Map()
  const rows = await db
    .selectFrom('claim_lookup')
    .select(['id', 'code', 'name', 'active'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('id', 'in', storable)
    .execute()
  return new Map(rows.map((r) => [Number(r.id), { code: r.code, name: r.name, active: r.active }]))
}

/**
 * What the contract's other claims (not `claimId`, not voided) hold against its limit of liability:
 * paid, and authorized but not yet paid (the payable of claims AUTHORIZED, PENDING_PAYMENT or
 * PARTIALLY_PAID less what they were paid), in cents.
 */
export async function otherClaimsLiability(
  db: Executor,
  tenantId: number,
  contractId: number,
  claimId: number,
): Promise<{ paidCents: number; authorizedUnpaidCents: number }> {
  const row = await db
    .selectFrom('claim')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<string>('paid_total'), sql<string>`0`).as('paid'),
      eb.fn
        .coalesce(
          eb.fn
            .sum<string>(sql`payable_total - paid_total`)
            .filterWhere('status', 'in', ['AUTHORIZED', 'PENDING_PAYMENT', 'PARTIALLY_PAID']),
          sql<string>`0`,
        )
        .as('unpaid'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('contract_id', '=', contractId)
    .where('id', '!=', claimId)
    .where('status', '!=', 'VOIDED')
    .executeTakeFirstOrThrow()
  const cents = (v: string) => Math.round(Number(v) * 100)
  return { paidCents: cents(row.paid), authorizedUnpaidCents: Math.max(0, cents(row.unpaid)) }
}

/** Sets or clears the claim's edit lock; not a change of the claim (its version stays). */
export async function setClaimLock(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  lock: { lock_user_id: number | null; lock_user_label: string | null; lock_expires_at: Date | null },
): Promise<void> {
  await tx.updateTable('claim').set(lock).where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}
