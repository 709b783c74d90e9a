// Parties: account holders of every kind (dealers, dealer groups, agents, customers, insurers, lien
// holders, repair facilities, inspection companies, claim payees, the administrator company) and
// what hangs off them. Other code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { TenantInitializer } from '../../platform/tenancy.ts'
import { accountHolderRoutes } from './account-holder.routes.ts'
import { createAccountHolderService } from './account-holder.service.ts'
import { autoExpireRoutes } from './auto-expire.routes.ts'
import { createAutoExpireService } from './auto-expire.service.ts'
import { createContractParties } from './contract-parties.ts'
import { createDealerDirectory } from './dealer-directory.ts'
import { seedDemoParties } from './demo.ts'
import { repairFacilityLinkRoutes } from './repair-facility-link.routes.ts'
import { createRepairFacilityLinkService } from './repair-facility-link.service.ts'
import { disbursementAccountRoutes } from './disbursement-account.routes.ts'
import { createDisbursementAccountService } from './disbursement-account.service.ts'
import { customFieldRoutes } from './custom-field.routes.ts'
import { createCustomFieldService } from './custom-field.service.ts'

export { KINDS } from './account-holder.kinds.ts'
export {
  customerLegalName,
  type ContractParties,
  type CustomerInput,
  type LienHolderInput,
  type LienHolderRecord,
  type PartyAddress,
} from './contract-parties.ts'
export { isActiveAccountHolder, US_STATES } from './contact.rules.ts'
export type { DealerDirectory, DealerProfile, RepairFacilityForClaim } from './dealer-directory.ts'

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
    /** Custom fields and their definitions; other modules register their records' kinds (registerCashTransactions). */
    customFields,
    /** Account-holder look-ups for other modules (identity, rating, contracts); see dealer-directory.ts. */
    directory: createDealerDirectory(deps),
    /** The parties of a contract, for the contracts module inside its own transactions. */
    contractParties: createContractParties(deps),
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
