// Account holders. Executor first, tenant always. Dealer-side visibility is a predicate every read
// applies (visibleTo), so a dealer user can neither list nor fetch what its groups do not grant.
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { AccountHolderKind, AccountHolderTable, DB } from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'

export type AccountHolderRow = Selectable<AccountHolderTable> & { agent_ids: number[] }

/** null: every account holder (staff); a set: the dealers a dealer-side user may see. */
export type Visibility = ReadonlySet<number> | null

type Eb = ExpressionBuilder<DB & { ah: AccountHolderTable }, 'ah'>

/**
 * What a dealer-side user sees: its dealers; their dealer groups, agents and customers; repair
 * facilities linked to them or their groups; and the kinds that are reference data to every dealer
 * (insurers, lien holders, inspection companies, claim payees, the administrator company).
 */
export function visibleTo(eb: Eb, tenantId: number, visibility: Visibility): Expression<SqlBool> {
  if (visibility === null) return eb.val(true)
  const ids = [...visibility]
  if (ids.length === 0)
    return eb('ah.kind', 'in', ['INSURER', 'LIEN_HOLDER', 'INSPECTION_COMPANY', 'CLAIM_PAYEE', 'ADMIN_COMPANY'])
  const dealerGroups = eb
    .selectFrom('account_holder as d')
    .select('d.dealer_group_id')
    .where('d.tenant_id', '=', tenantId)
    .where('d.id', 'in', ids)
    .where('d.dealer_group_id', 'is not', null)
  return eb.or([
    eb('ah.kind', 'in', ['INSURER', 'LIEN_HOLDER', 'INSPECTION_COMPANY', 'CLAIM_PAYEE', 'ADMIN_COMPANY']),
    eb.and([eb('ah.kind', '=', 'DEALER'), eb('ah.id', 'in', ids)]),
    eb.and([eb('ah.kind', '=', 'DEALER_GROUP'), eb('ah.id', 'in', dealerGroups)]),
    eb.and([
      eb('ah.kind', '=', 'AGENT'),
      eb(
        'ah.id',
        'in',
        eb
          .selectFrom('dealer_agent as da')
          .select('da.agent_id')
          .where('da.tenant_id', '=', tenantId)
          .where('da.dealer_id', 'in', ids),
      ),
    ]),
    eb.and([eb('ah.kind', '=', 'CUSTOMER'), eb(sql<number>`(ah.details->>'dealerId')::bigint`, 'in', ids)]),
    eb.and([
      eb('ah.kind', '=', 'REPAIR_FACILITY'),
      eb(
        'ah.id',
        'in',
        eb
          .selectFrom('repair_facility_link as l')
          .select('l.repair_facility_id')
          .where('l.tenant_id', '=', tenantId)
          .where((w) => w.or([w('l.linked_id', 'in', ids), w('l.linked_id', 'in', dealerGroups)])),
      ),
    ]),
  ])
}

function selectAccountHolders(db: Executor, tenantId: number) {
  return db
    .selectFrom('account_holder as ah')
    .selectAll('ah')
    .select(
      sql<
        number[]
      >`case when ah.kind = 'DEALER' then coalesce((select array_agg(da.agent_id order by da.agent_id) from dealer_agent da
      where da.tenant_id = ah.tenant_id and da.dealer_id = ah.id), '{}') else '{}' end`.as('agent_ids'),
    )
    .where('ah.tenant_id', '=', tenantId)
}

export async function findAccountHolder(
  db: Executor,
  tenantId: number,
  kind: AccountHolderKind | null,
  id: number,
  visibility: Visibility,
): Promise<AccountHolderRow | undefined> {
  let q = selectAccountHolders(db, tenantId)
    .where('ah.id', '=', id)
    .where((eb) => visibleTo(eb, tenantId, visibility))
  if (kind) q = q.where('ah.kind', '=', kind)
  return q.executeTakeFirst()
}

export type AccountHolderFilter = {
  kind?: AccountHolderKind
  name?: string
  businessKey?: string
  state?: string
  status?: 'ACTIVE' | 'INACTIVE' | 'EXPIRED'
  dealerGroupId?: number
  agentId?: number
}

export async function listAccountHolders(
  db: Executor,
  tenantId: number,
  filter: AccountHolderFilter,
  visibility: Visibility,
  now: Date,
  window: Window,
) {
  const where = (eb: Eb) => {
    const c: Array<Expression<SqlBool>> = [visibleTo(eb, tenantId, visibility)]
    if (filter.kind) c.push(eb('ah.kind', '=', filter.kind))
    if (filter.name) {
      const pattern = `%${filter.name.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`
      c.push(
        eb.or([
          eb(sql<string>`lower(ah.legal_name)`, 'like', pattern),
          eb(sql<string>`lower(ah.display_name)`, 'like', pattern),
        ]),
      )
    }
    if (filter.businessKey) c.push(eb('ah.business_key_key', '=', filter.businessKey.toLowerCase()))
    if (filter.state) c.push(eb('ah.primary_state', '=', filter.state))
    if (filter.status === 'ACTIVE')
      c.push(
        eb.and([
          eb('ah.status', '=', 'ACTIVE'),
          eb.or([eb('ah.expired_date', 'is', null), eb('ah.expired_date', '>', now)]),
        ]),
      )
    if (filter.status === 'INACTIVE') c.push(eb('ah.status', '=', 'INACTIVE'))
    if (filter.status === 'EXPIRED') c.push(eb('ah.expired_date', '<=', now))
    if (filter.dealerGroupId !== undefined) c.push(eb('ah.dealer_group_id', '=', filter.dealerGroupId))
    if (filter.agentId !== undefined) {
      c.push(
        eb(
          'ah.id',
          'in',
          eb
            .selectFrom('dealer_agent as da')
            .select('da.dealer_id')
            .where('da.tenant_id', '=', tenantId)
            .where('da.agent_id', '=', filter.agentId),
        ),
      )
    }
    return eb.and(c)
  }
  const rows = await windowed(selectAccountHolders(db, tenantId).where(where).orderBy('ah.id'), window).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await db
    .selectFrom('account_holder as ah')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ah.tenant_id', '=', tenantId)
    .where(where)
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

export type AccountHolderWrite = {
  business_key: string | null
  legal_name: string
  display_name: string
  status: 'ACTIVE' | 'INACTIVE'
  expired_date: Date | null
  tax_id: string | null
  w9_on_file: boolean
  addresses: string
  phones: string
  emails: string
  primary_state: string | null
  details: string
  dealer_group_id: number | null
}

export async function insertAccountHolder(
  tx: Transaction<DB>,
  tenantId: number,
  kind: AccountHolderKind,
  values: AccountHolderWrite,
  now: Date,
): Promise<number> {
  const row = await tx
    .insertInto('account_holder')
    .values({ ...values, tenant_id: tenantId, kind, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateAccountHolder(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: AccountHolderWrite,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('account_holder')
    .set({ ...values, updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

export async function lockAccountHolder(
  tx: Transaction<DB>,
  tenantId: number,
  kind: AccountHolderKind,
  id: number,
  visibility: Visibility,
) {
  return tx
    .selectFrom('account_holder as ah')
    .select(['ah.id', 'ah.version'])
    .where('ah.tenant_id', '=', tenantId)
    .where('ah.kind', '=', kind)
    .where('ah.id', '=', id)
    .where((eb) => visibleTo(eb, tenantId, visibility))
    .forUpdate()
    .executeTakeFirst()
}

export async function replaceDealerAgents(
  tx: Transaction<DB>,
  tenantId: number,
  dealerId: number,
  agentIds: number[],
): Promise<void> {
  await tx.deleteFrom('dealer_agent').where('tenant_id', '=', tenantId).where('dealer_id', '=', dealerId).execute()
  if (agentIds.length > 0) {
    await tx
      .insertInto('dealer_agent')
      .values(agentIds.map((agent_id) => ({ tenant_id: tenantId, dealer_id: dealerId, agent_id })))
      .execute()
  }
}

/** Ids among `ids` that are account holders of `kind` (any kind when null) in the tenant. */
export async function existingOfKind(
  db: Executor,
  tenantId: number,
  kind: AccountHolderKind | null,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  let q = db.selectFrom('account_holder').select('id').where('tenant_id', '=', tenantId).where('id', 'in', ids)
  if (kind) q = q.where('kind', '=', kind)
  return new Set((await q.execute()).map((r) => r.id))
}

/** The kind of each of `ids` that exists in the tenant; ids that do not exist are absent. */
export async function kindsOf(db: Executor, tenantId: number, ids: number[]): Promise<Map<number, AccountHolderKind>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('account_holder')
    .select(['id', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map((r) => [r.id, r.kind as AccountHolderKind]))
}

/** The dealer with this dealer number (any case), with its group and agents: what a rate quote needs. */
export async function findDealerByNumber(db: Executor, tenantId: number, dealerNumber: string) {
  return db
    .selectFrom('account_holder as ah')
    .select([
      'ah.id',
      'ah.business_key',
      'ah.legal_name',
      'ah.display_name',
      'ah.status',
      'ah.expired_date',
      'ah.primary_state',
      'ah.dealer_group_id',
    ])
    .select(
      sql<number[]>`coalesce((select array_agg(da.agent_id order by da.agent_id) from dealer_agent da
      where da.tenant_id = ah.tenant_id and da.dealer_id = ah.id), '{}')`.as('agent_ids'),
    )
    .where('ah.tenant_id', '=', tenantId)
    .where('ah.kind', '=', 'DEALER')
    .where('ah.business_key_key', '=', dealerNumber.toLowerCase())
    .executeTakeFirst()
}

/** Ids of the account holders with these kinds and business keys (any case), keyed `KIND/lower(key)`. */
export async function idsByBusinessKey(
  db: Executor,
  tenantId: number,
  keys: Array<{ kind: AccountHolderKind; businessKey: string }>,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map()
  const rows = await db
    .selectFrom('account_holder')
    .select(['id', 'kind', 'business_key_key'])
    .where('tenant_id', '=', tenantId)
    .where(
      'business_key_key',
      'in',
      keys.map((k) => k.businessKey.toLowerCase()),
    )
    .execute()
  return new Map(rows.map((r) => [`${r.kind}/${r.business_key_key}`, r.id]))
}
