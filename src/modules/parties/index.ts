// Parties: account holders of every kind (dealers, dealer groups, agents, customers, insurers, lien
// holders, repair facilities, inspection companies, claim payees, the administrator company) and
// what hangs off them. Other code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import { createTtlCache, type InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AccountHolderKind } from '../../platform/db/schema.ts'
import type { TenantInitializer } from '../../platform/tenancy.ts'
import { accountHolderRoutes } from './account-holder.routes.ts'
import {
  existingOfKind,
  findDealerByNumber,
  idsByBusinessKey,
  kindsOf,
  listAccountHolders,
} from './account-holder.repository.ts'
import { ACCOUNT_HOLDER_TOPIC, createAccountHolderService } from './account-holder.service.ts'
import { autoExpireRoutes } from './auto-expire.routes.ts'
import { createAutoExpireService } from './auto-expire.service.ts'
import { isActiveAccountHolder } from './contact.rules.ts'
import { seedDemoParties } from './demo.ts'
import { repairFacilityLinkRoutes } from './repair-facility-link.routes.ts'
import { createRepairFacilityLinkService } from './repair-facility-link.service.ts'
import { disbursementAccountRoutes } from './disbursement-account.routes.ts'
import { createDisbursementAccountService } from './disbursement-account.service.ts'
import { customFieldRoutes } from './custom-field.routes.ts'
import { createCustomFieldService } from './custom-field.service.ts'

export { KINDS } from './account-holder.kinds.ts'
export {
  createContractParties,
  customerLegalName,
  type ContractParties,
  type CustomerInput,
  type LienHolderInput,
  type LienHolderRecord,
  type PartyAddress,
} from './contract-parties.ts'
export { isActiveAccountHolder } from './contact.rules.ts'

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
    existingDealerIds: (tenantId: number, ids: number[]) =>
      db.read(tenantId, (x) => existingOfKind(x, tenantId, 'DEALER', ids)),
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
  }
}

export type DealerDirectory = ReturnType<typeof createDealerDirectory>

export type PartiesDeps = { db: Database; clock: Clock; bus: InvalidationBus }

export function createPartiesModule(deps: PartiesDeps) {
  const accountHolders = createAccountHolderService(deps)
  const repairFacilityLinks = createRepairFacilityLinkService(deps)
  const autoExpire = createAutoExpireService(deps)
  const disbursementAccounts = createDisbursementAccountService(deps)
  const customFields = createCustomFieldService({ ...deps, accountHolders })
  const initializeTenant: TenantInitializer = (tx, tenant, now) => accountHolders.initializeTenant(tx, tenant, now)
  return {
    accountHolders,
    initializeTenant,
    /** Fills a new demo tenant with realistic parties. */
    seedDemo: (tenantId: number) => seedDemoParties(deps, accountHolders, tenantId),
    async routes(app: FastifyInstance) {
      await app.register(accountHolderRoutes, { service: accountHolders, clock: deps.clock })
      await app.register(repairFacilityLinkRoutes, { service: repairFacilityLinks })
      await app.register(autoExpireRoutes, { service: autoExpire })
      await app.register(disbursementAccountRoutes, { service: disbursementAccounts })
      await app.register(customFieldRoutes, { service: customFields })
    },
  }
}

export type PartiesModule = ReturnType<typeof createPartiesModule>
