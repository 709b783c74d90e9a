// The account-holder look-ups other modules use (identity's portal visibility groups, rating's
// quotes and disbursements, contracts): a narrow port, handed to them by src/modules.ts as the
// parties module's `directory`.
import { createTtlCache, type InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import { isStorableId } from '../../platform/ids.ts'
import type { AccountHolderKind } from '../../platform/db/schema.ts'
import { findDealerByNumber, idsByBusinessKey, kindsOf, listAccountHolders } from './account-holder.repository.ts'
import { ACCOUNT_HOLDER_TOPIC } from './account-holder.service.ts'
import { isActiveAccountHolder } from './contact.rules.ts'

const PORTAL_MEMBER_KINDS: ReadonlySet<string> = new Set(['DEALER', 'REPAIR_FACILITY', 'INSPECTION_COMPANY'])

/** What a rate quote needs of its dealer (see createDealerDirectory.dealerByNumber). */
export type DealerProfile = {
  id: number
  dealerNumber: string
  name: string
  state: string | null
  status: 'ACTIVE' | 'INACTIVE'
  expiredDate: Date | null
  dealerGroupId: number | null
  agentIds: number[]
}

/**
 * Account-holder look-ups for other modules (identity's portal visibility groups, rating's quotes
 * and disbursements). They join the caller's transaction when there is one and see every account
 * holder of the tenant, whoever the caller is: the caller applies its own visibility.
 */
export function createDealerDirectory({ db, clock, bus }: { db: Database; clock: Clock; bus: InvalidationBus }) {
  // Dealer profiles are read by every rate quote; any account-holder change drops the tenant's entries.
  const profiles = createTtlCache<DealerProfile>({ ttlMs: 5 * 60_000, maxEntries: 100_000, clock })
  bus.subscribe(ACCOUNT_HOLDER_TOPIC, (tenantPrefix) => profiles.deletePrefix(tenantPrefix))
  return {
    /** The dealer with this number (any case), from a cache kept true through the invalidation bus; undefined when unknown. */
    dealerByNumber(tenantId: number, dealerNumber: string): Promise<DealerProfile | undefined> {
      return profiles.getOrLoad(`${tenantId}:${dealerNumber.toLowerCase()}`, async () => {
        const row = await db.read(tenantId, (x) => findDealerByNumber(x, tenantId, dealerNumber))
        return (
          row && {
            id: row.id,
            dealerNumber: row.business_key ?? dealerNumber,
            name: row.display_name,
            state: row.primary_state,
            status: row.status,
            expiredDate: row.expired_date,
            dealerGroupId: row.dealer_group_id,
            agentIds: row.agent_ids.map(Number),
          }
        )
      })
    },
    /**
     * The ids among `ids` that a portal visibility group may list: dealers (their users see their
     * contracts), repair facilities (their claims) and inspection companies (their inspections).
     */
    existingPortalMemberIds: async (tenantId: number, ids: number[]) => {
      const kinds = await db.read(tenantId, (x) => kindsOf(x, tenantId, ids))
      return new Set([...kinds].filter(([, kind]) => PORTAL_MEMBER_KINDS.has(kind)).map(([id]) => id))
    },
    /** Ids of account holders by kind and business key, keyed `KIND/lower-case key`; unknown ones are absent. */
    idsByBusinessKey: (tenantId: number, keys: Array<{ kind: AccountHolderKind; businessKey: string }>) =>
      db.read(tenantId, (x) => idsByBusinessKey(x, tenantId, keys)),
    /** The kind of each id that is an account holder of the tenant (absent: no such account holder). */
    accountHolderKinds: (tenantId: number, ids: number[]) => db.read(tenantId, (x) => kindsOf(x, tenantId, ids)),
    async dealerSummaries(tenantId: number, ids: number[]) {
      const now = clock.now()
      // Exactly these dealers: the ids act as the visible set of the list query.
      const { rows } = await db.read(tenantId, (x) =>
        listAccountHolders(x, tenantId, { kind: 'DEALER' }, new Set(ids), now, {
          limit: Math.max(ids.length, 1),
          offset: 0,
        }),
      )
      return rows.map((r) => ({
        id: r.id,
        dealerNumber: r.business_key,
        legalName: r.legal_name,
        displayName: r.display_name,
        status: r.status,
        isActive: isActiveAccountHolder(r, now),
      }))
    },
    /**
     * A repair facility as a claim reads it (claims intake): its name, whether it is active, its
     * posted labor rate (details.laborRate, null when none) and whether it is linked to the dealer or
     * to the dealer's group (the disappearing deductible). Undefined when no repair facility has the id.
     */
    repairFacility(tenantId: number, facilityId: number, dealerId: number) {
      return db.read(tenantId, (x) => repairFacilityForClaim(x, tenantId, facilityId, dealerId, clock.now()))
    },
  }
}

export type RepairFacilityForClaim = {
  id: number
  name: string
  isActive: boolean
  laborRate: number | null
  linkedToDealer: boolean
}

async function repairFacilityForClaim(
  x: Executor,
  tenantId: number,
  facilityId: number,
  dealerId: number,
  now: Date,
): Promise<RepairFacilityForClaim | undefined> {
  if (!isStorableId(facilityId)) return undefined
  const row = await x
    .selectFrom('account_holder as ah')
    .select(['ah.id', 'ah.display_name', 'ah.status', 'ah.expired_date', 'ah.details'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('repair_facility_link as l')
            .select('l.linked_id')
            .where('l.tenant_id', '=', tenantId)
            .where('l.repair_facility_id', '=', facilityId)
            .where((w) =>
              w.or([
                w('l.linked_id', '=', dealerId),
                w(
                  'l.linked_id',
                  '=',
                  w
                    .selectFrom('account_holder as d')
                    .select('d.dealer_group_id')
                    .where('d.tenant_id', '=', tenantId)
                    .where('d.id', '=', dealerId),
                ),
              ]),
            ),
        )
        .as('linked'),
    )
    .where('ah.tenant_id', '=', tenantId)
    .where('ah.id', '=', facilityId)
    .where('ah.kind', '=', 'REPAIR_FACILITY')
    .executeTakeFirst()
  if (!row) return undefined
  const rate = (row.details as Record<string, unknown>).laborRate
  return {
    id: row.id,
    name: row.display_name,
    isActive: isActiveAccountHolder(row, now),
    laborRate: typeof rate === 'number' && Number.isFinite(rate) ? rate : null,
    linkedToDealer: Boolean(row.linked),
  }
}

export type DealerDirectory = ReturnType<typeof createDealerDirectory>
