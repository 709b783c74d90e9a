// The claims' queries (docs/claims.md "Claims: intake, read, index"): plain Kysely functions, the
// executor and the tenant first; every statement names tenant_id (row-level security is the second
// line, not the first).
import { CompiledQuery, sql, type Insertable, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely'
import type { auditActor } from '../../platform/audit.ts'
import type { Executor } from '../../platform/db/database.ts'
import type { ClaimStatusColumn, ClaimTable } from '../../platform/db/schema.claims.ts'
import type { DB } from '../../platform/db/schema.ts'
import { precompile, type Precompiled } from '../../platform/db/precompiled.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'

export type ClaimRow = Selectable<ClaimTable>
export type ClaimInsert = Omit<Insertable<ClaimTable>, 'tenant_id' | 'id'>

/** Runs a statement whose text is fixed (built once at load, never compiled per call). */
async function runFixed<R>(x: Executor, text: string, parameters: readonly unknown[]): Promise<R[]> {
  return (await x.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))).rows
}

/** `$first, $first+1, …` for `n` parameters. */
const params = (first: number, n: number) => Array.from({ length: n }, (_, i) => `$${first + i}`)

/** The audit row's columns a statement writes beside its change (platform/audit.ts auditActor, and the record). */
export type AuditWrite = ReturnType<typeof auditActor> & { occurred_at: Date; action: string; changes: string }
const AUDIT_VALUES = (first: number, entityId: string) =>
  `$${first}::timestamptz, $${first + 1}::bigint, $${first + 2}::bigint, $${first + 3}::text, $${first + 4}::text, ` +
  `$${first + 5}::text, 'claim', ${entityId}`
const auditParameters = (a: AuditWrite) => [
  a.occurred_at,
  a.actor_user_id,
  a.actor_api_key_id,
  a.actor_label,
  a.request_id,
  a.action,
]
const AUDIT_COLUMNS =
  'tenant_id, occurred_at, actor_user_id, actor_api_key_id, actor_label, request_id, action, entity_type, entity_id, changes'

/** The columns intake writes (besides tenant_id and the number), in the order of INTAKE_SQL's parameters. */
const INTAKE_COLUMNS = [
  'contract_id',
  'contract_number',
  'dealer_id',
  'vin',
  'repair_facility_id',
  'repair_facility_name',
  'status',
  'loss_date',
  'odometer',
  'reported_at',
  'repair_order_number',
  'contact',
  'jobs',
  'benefits',
  'facility_labor_rate',
  'facility_tax_rate',
  'requested_total',
  'authorized_total',
  'tax_total',
  'deductible_total',
  'payable_total',
  'paid_total',
  'created_at',
  'created_by',
  'created_by_user_id',
  'updated_at',
  'updated_by',
] as const satisfies ReadonlyArray<keyof ClaimInsert>

export type IntakeValues = Pick<ClaimInsert, (typeof INTAKE_COLUMNS)[number]>

// $1 tenant, $2–$4 the number's text before the sequence, its width and the text after it, then
// the claim's columns, then the audit row's (its `after` gets the number), the event's payload and
// time (it gets the claim's id and number).
const INTAKE_FIRST = 5
const INTAKE_AUDIT = INTAKE_FIRST + INTAKE_COLUMNS.length
const INTAKE_SQL = `with n as (
    insert into claim_number_counter (tenant_id, last_value) values ($1, 1)
    on conflict (tenant_id) do update set last_value = claim_number_counter.last_value + 1
    returning last_value),
  c as (
    insert into claim (tenant_id, id, claim_number, ${INTAKE_COLUMNS.join(', ')}) overriding system value
    values ($1, $${INTAKE_AUDIT + 9}, $2::text || (select case when length(n.last_value::text) >= $3::int then n.last_value::text
                                         else lpad(n.last_value::text, $3::int, '0') end from n) || $4::text,
            ${params(INTAKE_FIRST, INTAKE_COLUMNS.length).join(', ')})
    returning *),
  a as (
    insert into audit_log (${AUDIT_COLUMNS})
    select $1::bigint, ${AUDIT_VALUES(INTAKE_AUDIT, 'c.id::text')},
           jsonb_set($${INTAKE_AUDIT + 6}::jsonb, '{after,claimNumber}', to_jsonb(c.claim_number)) from c),
  e as (
    insert into event_outbox (tenant_id, type, payload, created_at)
    select $1::bigint, 'claim.created',
           $${INTAKE_AUDIT + 7}::jsonb || jsonb_build_object('claimId', c.id, 'claimNumber', c.claim_number),
           $${INTAKE_AUDIT + 8}::timestamptz from c)
  select * from c`

/**
 * Intake's write in one statement: the tenant's next claim number (the counter row, whose lock
 * serializes numbering until `tx` ends: taken here, with the write, intake's last statement, so it
 * is held from this statement to the commit only), the claim, its `claim.created` audit row and event. `number`: the
 * number's text around the sequence (claim.rules.ts claimNumberParts); `audit.changes` and
 * `eventPayload` are JSON without the number and id, which the statement adds.
 */
export async function insertNumberedClaim(
  tx: Transaction<DB>,
  tenantId: number,
  number: { prefix: string; width: number; suffix: string },
  /** Drawn by intakeClaimReads. */
  id: number,
  values: IntakeValues,
  audit: AuditWrite,
  eventPayload: string,
): Promise<ClaimRow> {
  const rows = await runFixed<ClaimRow>(tx, INTAKE_SQL, [
    tenantId,
    number.prefix,
    number.width,
    number.suffix,
    ...INTAKE_COLUMNS.map((c) => values[c]),
    ...auditParameters(audit),
    audit.changes,
    eventPayload,
    audit.occurred_at,
    id,
  ])
  return rows[0]!
}

// The claim reads and lookups of intake and of every change are compiled once (precompile): building
// and compiling a Kysely query costs about as much as running these.
const claimById = precompile(2, (db, tenantId: number, id: number) =>
  db.selectFrom('claim').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id),
)
const lockedClaimById = precompile(2, (db, tenantId: number, id: number) =>
  db.selectFrom('claim').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).forUpdate(),
)

/** The claim; undefined for an id no row can have. */
export async function findClaim(db: Executor, tenantId: number, id: number): Promise<ClaimRow | undefined> {
  if (!isStorableId(id)) return undefined
  return (await claimById(db, tenantId, id))[0]
}

/**
 * What intake reads of the claims: the highest odometer of the contract's claims (not voided) with
 * a loss on or before `lossDate` (null: none), and the id the new claim will have, drawn from the
 * claim's identity now (an intake refused later leaves a gap in ids, never in numbers), so that
 * what intake records under that id before the claim's own write (the contract's odometer) needs
 * no round trip between that write and the commit.
 */
export async function intakeClaimReads(
  db: Executor,
  tenantId: number,
  contractId: number,
  lossDate: string,
): Promise<{ earlierMaxOdometer: number | null; claimId: number }> {
  const [row] = await runFixed<{ n: number | null; next_id: number }>(db, INTAKE_READS_SQL, [
    tenantId,
    contractId,
    lossDate,
  ])
  return { earlierMaxOdometer: row!.n === null ? null : Number(row!.n), claimId: Number(row!.next_id) }
}

const INTAKE_READS_SQL = `select
    (select max(odometer) from claim
      where tenant_id = $1 and contract_id = $2 and loss_date <= $3 and status <> 'VOIDED') as n,
    nextval(pg_get_serial_sequence('claim', 'id')) as next_id`

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
  const rows = await threeCs(db, tenantId, storable)
  return new Map(rows.map((r) => [Number(r.id), { kind: r.kind, name: r.name, active: r.active }]))
}

// The ids bound as one array, so that one shape serves any number of them.
const threeCs = precompile(2, (db, tenantId: number, ids: number[]) =>
  db
    .selectFrom('claim_lookup')
    .select(['id', 'kind', 'name', 'active'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`id = any(${ids}::bigint[])`)
    .where(sql<boolean>`kind in ('COMPLAINT', 'CAUSE', 'CORRECTION')`),
)

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
 * A claim of the index as the reply shows it (schema ClaimSummary), built by the database: no jobs,
 * benefits or contact (the jsonb columns are most of a row's bytes), and no row to parse or object
 * to serialize in the service, which passes the page's text on (docs/benchmarks.md "Claims"). The
 * instants are the text Date.toISOString writes (UTC, milliseconds, Z); a date is JSON's ISO date;
 * amounts are the stored decimals, written as JSON numbers.
 */
const claimSummaryJson = sql<string>`json_build_object(
  'id', id,
  'claimNumber', claim_number,
  'contractId', contract_id,
  'contractNumber', contract_number,
  'dealerId', dealer_id,
  'vin', vin,
  'status', status,
  'lossDate', loss_date,
  'odometer', odometer,
  'repairFacility', json_build_object('accountHolderId', repair_facility_id, 'name', repair_facility_name),
  'repairOrderNumber', repair_order_number,
  'adjusterUserId', adjuster_user_id,
  'totals', json_build_object(
    'requested', requested_total,
    'authorized', authorized_total,
    'tax', tax_total,
    'deductible', deductible_total,
    'payable', payable_total,
    'paid', paid_total
  ),
  'reportedAt', to_char(reported_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'createdAt', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updatedAt', to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'version', version
)`

/** How each filter narrows the index (its value bound as a parameter), in a fixed order. */
const INDEX_FILTERS: ReadonlyArray<{
  name: keyof ClaimFilter
  value: (f: ClaimFilter) => unknown
  where: (q: WhereClaim, value: unknown) => WhereClaim
}> = [
  { name: 'status', value: (f) => f.status, where: (q, v) => q.where('status', '=', v as ClaimStatusColumn) },
  { name: 'contractId', value: (f) => f.contractId, where: (q, v) => q.where('contract_id', '=', v as number) },
  { name: 'vin', value: (f) => f.vin?.toUpperCase(), where: (q, v) => q.where('vin', '=', v as string) },
  { name: 'dealerId', value: (f) => f.dealerId, where: (q, v) => q.where('dealer_id', '=', v as number) },
  {
    name: 'repairFacilityId',
    value: (f) => f.repairFacilityId,
    where: (q, v) => q.where('repair_facility_id', '=', v as number),
  },
  { name: 'lossDateFrom', value: (f) => f.lossDateFrom, where: (q, v) => q.where('loss_date', '>=', v as string) },
  { name: 'lossDateTo', value: (f) => f.lossDateTo, where: (q, v) => q.where('loss_date', '<=', v as string) },
  // The instants go as their ISO text, which PostgreSQL reads as timestamptz.
  {
    name: 'createdFrom',
    value: (f) => f.createdFrom,
    where: (q, v) => q.where('created_at', '>=', sql<Date>`${v}::timestamptz`),
  },
  {
    name: 'createdTo',
    value: (f) => f.createdTo,
    where: (q, v) => q.where('created_at', '<', sql<Date>`${v}::timestamptz`),
  },
  {
    name: 'adjusterUserId',
    value: (f) => f.adjusterUserId,
    where: (q, v) => q.where('adjuster_user_id', '=', v as number),
  },
]
type WhereClaim = SelectQueryBuilder<DB, 'claim', object>

type IndexPage = { items: string | null; total_count: number | null }
/** The index's statement per shape (the filters given, the visible set's size, the window): compiled once each. */
const indexShapes = new Map<string, Precompiled<unknown[], IndexPage>>()
const MAX_INDEX_SHAPES = 500

/**
 * The index's statement for one shape: the page as a subquery (its summaries aggregated in its
 * order) and the total as another (run once); placeholders stand for the tenant, each filter's
 * value and each visible account holder, in that order.
 */
function indexStatement(
  filters: readonly (typeof INDEX_FILTERS)[number][],
  visibleCount: number | null,
  window: Window,
) {
  return precompile(1 + filters.length + (visibleCount ?? 0), (k, tenantId: unknown, ...values: unknown[]) => {
    const matching = () => {
      let q = k.selectFrom('claim').where('tenant_id', '=', tenantId as number) as WhereClaim
      if (visibleCount !== null) {
        // A non-staff caller sees its dealers' claims and its repair facilities' (claim.service visibleTo).
        const ids = visibleCount > 0 ? (values.slice(filters.length) as number[]) : [0]
        q = q.where((eb) => eb.or([eb('dealer_id', 'in', ids), eb('repair_facility_id', 'in', ids)]))
      }
      filters.forEach((filter, i) => {
        q = filter.where(q, values[i])
      })
      return q
    }
    const page = windowed(
      matching()
        .select(['id', claimSummaryJson.as('item')])
        .orderBy('id', 'desc'),
      window,
    )
    return k.selectNoFrom((eb) => [
      eb
        .selectFrom(page.as('p'))
        .select(sql<string>`coalesce(json_agg(p.item order by p.id desc), '[]')::text`.as('items'))
        .as('items'),
      matching()
        .select(sql<number>`count(*)::int`.as('n'))
        .as('total_count'),
    ])
  })
}

/**
 * Claims matching every filter, newest first (by id): the page's items as JSON text (an array of
 * ClaimSummary, in order) and the total; `visible`: the account holders a non-staff caller sees.
 * One statement, compiled once per shape (which filters, how many visible holders, the window):
 * a request binds its values only.
 */
export async function searchClaims(
  db: Executor,
  tenantId: number,
  f: ClaimFilter,
  visible: ReadonlySet<number> | null,
  window: Window,
): Promise<{ itemsJson: string; totalCount: number }> {
  const filters = INDEX_FILTERS.filter((filter) => filter.value(f) !== undefined)
  const visibleIds = visible ? [...visible] : null
  const key = `${filters.map((filter) => filter.name).join(',')}|${visibleIds?.length ?? '-'}|${window.limit}|${window.offset}`
  let run = indexShapes.get(key)
  if (!run) {
    run = indexStatement(filters, visibleIds?.length ?? null, window)
    if (indexShapes.size < MAX_INDEX_SHAPES) indexShapes.set(key, run)
  }
  const [row] = await run(db, tenantId, ...filters.map((filter) => filter.value(f)), ...(visibleIds ?? []))
  return { itemsJson: row?.items ?? '[]', totalCount: Number(row?.total_count ?? 0) }
}

/** The claim, its row locked until `tx` ends; undefined for an id no row can have. */
export async function lockClaim(tx: Transaction<DB>, tenantId: number, id: number): Promise<ClaimRow | undefined> {
  if (!isStorableId(id)) return undefined
  return (await lockedClaimById(tx, tenantId, id))[0]
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
  return holdsOf(db, tenantId, claimId)
}

const holdsOf = precompile(2, (db, tenantId: number, claimId: number) =>
  db
    .selectFrom('claim_hold')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('claim_id', '=', claimId)
    .orderBy(sql`released_at is not null`)
    .orderBy('id'),
)

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
  const rows = await lookupsOf(db, tenantId, kind, storable)
  return new Map(rows.map((r) => [Number(r.id), { code: r.code, name: r.name, active: r.active }]))
}

const lookupsOf = precompile(3, (db, tenantId: number, kind: 'DENIED_REASON' | 'HOLD_REASON', ids: number[]) =>
  db
    .selectFrom('claim_lookup')
    .select(['id', 'code', 'name', 'active'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where(sql<boolean>`id = any(${ids}::bigint[])`),
)

/** Sets or clears the claim's edit lock; not a change of the claim (its version stays). */
export async function setClaimLock(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  lock: { lock_user_id: number | null; lock_user_label: string | null; lock_expires_at: Date | null },
): Promise<void> {
  await tx.updateTable('claim').set(lock).where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

/**
 * What a change of the claim reads besides its row, in one statement once the row is locked (so it
 * sees whatever the transactions that held the lock before committed): how many holds, payment
 * requests, inspections and notes (all, and those every user reads) the claim has, and what the
 * contract's other claims (not voided) hold against its limit of liability: paid, and authorized
 * but not yet paid (the payable of claims AUTHORIZED, PENDING_PAYMENT or PARTIALLY_PAID less what
 * they were paid), in cents.
 * A count of 0 spares the read of those rows for the reply.
 */
const CLAIM_FACTS_SQL = `select
    (select count(*)::int from claim_hold h where h.tenant_id = $1 and h.claim_id = $2) as holds,
    (select count(*)::int from claim_payment_request r where r.tenant_id = $1 and r.claim_id = $2) as payment_requests,
    (select count(*)::int from claim_inspection i where i.tenant_id = $1 and i.claim_id = $2) as inspections,
    (select count(*)::int from claim_note n where n.tenant_id = $1 and n.claim_id = $2) as notes,
    (select count(*)::int from claim_note n where n.tenant_id = $1 and n.claim_id = $2 and n.visibility = 'ALL') as shared_notes,
    o.paid, o.unpaid
  from (select coalesce(sum(o.paid_total), 0) as paid,
               coalesce(sum(o.payable_total - o.paid_total)
                          filter (where o.status in ('AUTHORIZED', 'PENDING_PAYMENT', 'PARTIALLY_PAID')), 0) as unpaid
          from claim o
         where o.tenant_id = $1 and o.contract_id = $3 and o.id <> $2 and o.status <> 'VOIDED') o`

export type ClaimFacts = {
  holds: number
  paymentRequests: number
  inspections: number
  /** Notes a staff user reads (all), and a dealer-side user (visibility ALL). */
  notes: { staff: number; shared: number }
  others: { paidCents: number; authorizedUnpaidCents: number }
}

export async function claimFacts(
  tx: Transaction<DB>,
  tenantId: number,
  claimId: number,
  contractId: number,
): Promise<ClaimFacts> {
  const [row] = await runFixed<{
    holds: number
    payment_requests: number
    inspections: number
    notes: number
    shared_notes: number
    paid: string
    unpaid: string
  }>(tx, CLAIM_FACTS_SQL, [tenantId, claimId, contractId])
  const cents = (v: string) => Math.round(Number(v) * 100)
  return {
    holds: row!.holds,
    paymentRequests: row!.payment_requests,
    inspections: row!.inspections,
    notes: { staff: row!.notes, shared: row!.shared_notes },
    others: { paidCents: cents(row!.paid), authorizedUnpaidCents: Math.max(0, cents(row!.unpaid)) },
  }
}

/** The columns a change (PUT, PATCH) writes, in the order of CHANGE_SQL's parameters after the tenant and id. */
const CHANGE_COLUMNS = [
  'repair_order_number',
  'contact',
  'jobs',
  'benefits',
  'facility_tax_rate',
  'requested_total',
  'authorized_total',
  'tax_total',
  'deductible_total',
  'payable_total',
  'status',
  'denied_reason_id',
  'payee_type',
  'payee_account_holder_id',
  'adjuster_user_id',
  'authorization_number',
  'authorized_at',
  'authorized_by',
  'authorization_expires_on',
  'authorization_count',
  'updated_at',
  'updated_by',
] as const satisfies ReadonlyArray<keyof ClaimInsert>

export type ChangeValues = { [K in (typeof CHANGE_COLUMNS)[number]]: ClaimInsert[K] | null }

const CHANGE_AUDIT = 3 + CHANGE_COLUMNS.length
const changeSql = (withEvent: boolean) => `with u as (
    update claim set ${CHANGE_COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ')}, version = version + 1
     where tenant_id = $1 and id = $2
    returning *),
  a as (
    insert into audit_log (${AUDIT_COLUMNS})
    select $1::bigint, ${AUDIT_VALUES(CHANGE_AUDIT, 'u.id::text')}, $${CHANGE_AUDIT + 6}::jsonb from u)${
      withEvent
        ? `,
  e as (
    insert into event_outbox (tenant_id, type, payload, created_at)
    select $1::bigint, $${CHANGE_AUDIT + 7}::text, $${CHANGE_AUDIT + 8}::jsonb, $${CHANGE_AUDIT}::timestamptz from u)`
        : ''
    }
  select * from u`
const CHANGE_SQL = changeSql(false)
const CHANGE_WITH_EVENT_SQL = changeSql(true)

/**
 * A change's write in one statement: the claim's columns and next version, its audit row and, when
 * given, its event (claim.authorized, claim.denied). The changed row.
 */
export async function writeClaimChange(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: ChangeValues,
  audit: AuditWrite,
  event: { type: string; payload: string } | null,
): Promise<ClaimRow> {
  const parameters = [
    tenantId,
    id,
    ...CHANGE_COLUMNS.map((c) => values[c]),
    ...auditParameters(audit),
    audit.changes,
    ...(event ? [event.type, event.payload] : []),
  ]
  const rows = await runFixed<ClaimRow>(tx, event ? CHANGE_WITH_EVENT_SQL : CHANGE_SQL, parameters)
  return rows[0]!
}

const OPEN_HOLDS_SQL =
  'select count(*)::int as n from claim_hold where tenant_id = $1 and claim_id = $2 and released_at is null'

/** How many holds of the claim are open. */
export async function openHoldCount(db: Executor, tenantId: number, claimId: number): Promise<number> {
  const [row] = await runFixed<{ n: number }>(db, OPEN_HOLDS_SQL, [tenantId, claimId])
  return row!.n
}
