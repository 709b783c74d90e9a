// The tenant's claim lookups (docs/claims.md "Lookups"): plain Kysely functions taking the executor and
// the tenant id first. Every statement pins tenant_id, joins included, so that each routes to one
// shard when tenant tables are distributed (docs/scale-out.md).
import type { Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { ClaimLookupKindColumn } from '../../platform/db/schema.claims.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { ClaimCombinationDefault, ClaimLookupDefault } from './claim-lookups.defaults.ts'

export type ClaimLookupRow = {
  id: number
  kind: ClaimLookupKindColumn
  code: string
  name: string
  type_code: string | null
  active: boolean
  sort_order: number
}

export type LookupFilter = {
  kind: ClaimLookupKindColumn
  /** A TYPE code, any case (complaints, causes and corrections only). */
  type?: string
  active?: boolean
}

function lookupQuery(db: Executor, tenantId: number, f: LookupFilter) {
  let q = db.selectFrom('claim_lookup').where('tenant_id', '=', tenantId).where('kind', '=', f.kind)
  if (f.type !== undefined) q = q.where('type_code', '=', f.type.toUpperCase())
  if (f.active !== undefined) q = q.where('active', '=', f.active)
  return q
}

export async function listLookups(
  db: Executor,
  tenantId: number,
  f: LookupFilter,
  window: Window,
): Promise<ClaimLookupRow[]> {
  return windowed(
    lookupQuery(db, tenantId, f)
      .select(['id', 'kind', 'code', 'name', 'type_code', 'active', 'sort_order'])
      .orderBy('sort_order')
      .orderBy('id'),
    window,
  ).execute()
}

export async function countLookups(db: Executor, tenantId: number, f: LookupFilter): Promise<number> {
  const row = await lookupQuery(db, tenantId, f)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export type CombinationFilter = {
  complaintId?: number
  causeId?: number
  correctionId?: number
  /** The complaint's TYPE code, any case. */
  type?: string
  active?: boolean
}

export type CombinationRow = {
  id: number
  active: boolean
  sort_order: number
  complaint_id: number
  complaint_code: string
  complaint_name: string
  type_code: string | null
  cause_id: number
  cause_code: string
  cause_name: string
  correction_id: number
  correction_code: string
  correction_name: string
}

function combinationQuery(db: Executor, tenantId: number, f: CombinationFilter) {
  let q = db
    .selectFrom('claim_lookup_combination as m')
    .innerJoin('claim_lookup as a', (j) => j.onRef('a.id', '=', 'm.complaint_id').on('a.tenant_id', '=', tenantId))
    .innerJoin('claim_lookup as b', (j) => j.onRef('b.id', '=', 'm.cause_id').on('b.tenant_id', '=', tenantId))
    .innerJoin('claim_lookup as c', (j) => j.onRef('c.id', '=', 'm.correction_id').on('c.tenant_id', '=', tenantId))
    .where('m.tenant_id', '=', tenantId)
  if (f.complaintId !== undefined) q = q.where('m.complaint_id', '=', f.complaintId)
  if (f.causeId !== undefined) q = q.where('m.cause_id', '=', f.causeId)
  if (f.correctionId !== undefined) q = q.where('m.correction_id', '=', f.correctionId)
  if (f.type !== undefined) q = q.where('a.type_code', '=', f.type.toUpperCase())
  if (f.active !== undefined) q = q.where('m.active', '=', f.active)
  return q
}

export async function listCombinations(
  db: Executor,
  tenantId: number,
  f: CombinationFilter,
  window: Window,
): Promise<CombinationRow[]> {
  return windowed(
    combinationQuery(db, tenantId, f)
      .select([
        'm.id',
        'm.active',
        'm.sort_order',
        'm.complaint_id',
        'a.code as complaint_code',
        'a.name as complaint_name',
        'a.type_code',
        'm.cause_id',
        'b.code as cause_code',
        'b.name as cause_name',
        'm.correction_id',
        'c.code as correction_code',
        'c.name as correction_name',
      ])
      .orderBy('m.sort_order')
      .orderBy('m.id'),
    window,
  ).execute()
}

export async function countCombinations(db: Executor, tenantId: number, f: CombinationFilter): Promise<number> {
  const row = await combinationQuery(db, tenantId, f)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Inserts the default lookups and combinations of a new tenant (inside its creating transaction, bound
 * to it). The sort order is the position within the kind, from 1, as migration 0020 gave it.
 */
export async function insertDefaults(
  tx: Transaction<DB>,
  tenantId: number,
  now: Date,
  lookups: readonly ClaimLookupDefault[],
  combinations: readonly ClaimCombinationDefault[],
): Promise<void> {
  const seen = new Map<string, number>()
  const rows = lookups.map((l) => {
    const order = (seen.get(l.kind) ?? 0) + 1
    seen.set(l.kind, order)
    return {
      tenant_id: tenantId,
      kind: l.kind,
      code: l.code,
      name: l.name,
      type_code: l.type,
      sort_order: order,
      created_at: now,
      updated_at: now,
    }
  })
  const inserted = await tx.insertInto('claim_lookup').values(rows).returning(['id', 'kind', 'code']).execute()
  if (combinations.length === 0) return
  const idOf = new Map(inserted.map((r) => [`${r.kind}:${r.code}`, r.id]))
  const id = (kind: string, code: string) => {
    const found = idOf.get(`${kind}:${code}`)
    if (found === undefined) throw new Error(`default claim combination names an unknown ${kind} ${code}`)
    return found
  }
  await tx
    .insertInto('claim_lookup_combination')
    .values(
      combinations.map((c, i) => ({
        tenant_id: tenantId,
        complaint_id: id('COMPLAINT', c.complaint),
        cause_id: id('CAUSE', c.cause),
        correction_id: id('CORRECTION', c.correction),
        sort_order: i + 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute()
}
