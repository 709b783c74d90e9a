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
import { seedDemoParties } from './demo.ts'

export { KINDS } from './account-holder.kinds.ts'
export { isActiveAccountHolder } from './contact.rules.ts'

export type PartiesDeps = { db: Database; clock: Clock; bus: InvalidationBus }

export function createPartiesModule(deps: PartiesDeps) {
  const accountHolders = createAccountHolderService(deps)
  const initializeTenant: TenantInitializer = (tx, tenant, now) => accountHolders.initializeTenant(tx, tenant, now)
  return {
    accountHolders,
    initializeTenant,
    /** Fills a new demo tenant with realistic parties. */
    seedDemo: (tenantId: number) => seedDemoParties(deps, accountHolders, tenantId),
    async routes(app: FastifyInstance) {
      await app.register(accountHolderRoutes, { service: accountHolders, clock: deps.clock })
    },
  }
}

export type PartiesModule = ReturnType<typeof createPartiesModule>
