// The module list: every bounded context, created once with its dependencies and wired to the
// others only through their index.ts. The app, the process entry, the CLI and the tests all
// compose the service through this one function.
import type { FastifyInstance } from 'fastify'
import { createIdentityModule } from './modules/identity/index.ts'
import { createDocumentsModule } from './modules/documents/index.ts'
import { createFinanceModule } from './modules/finance/index.ts'
import { createContractParties, createDealerDirectory, createPartiesModule } from './modules/parties/index.ts'
import { createContractsModule } from './modules/contracts/index.ts'
import { createRatingModule } from './modules/rating/index.ts'
import { createSettingsModule } from './modules/settings/index.ts'
import type { InvalidationBus } from './platform/cache.ts'
import type { Clock } from './platform/clock.ts'
import type { Database } from './platform/db/database.ts'
import type { SecretBox } from './platform/secrets.ts'

export type ModuleDeps = {
  db: Database
  clock: Clock
  bus: InvalidationBus
  accessTokenTtlSeconds: number
  /** Seals secrets stored in the database (platform/secrets.ts): loadSecretBox(config), or a test key. */
  secrets: SecretBox
  /** Document storage (config.documents); the documents module's defaults when absent. */
  documents?: Parameters<typeof createDocumentsModule>[0]['documents']
}

export function createModules(deps: ModuleDeps) {
  const settings = createSettingsModule(deps)
  const parties = createPartiesModule(deps)
  const directory = createDealerDirectory(deps)
  const rating = createRatingModule({ ...deps, directory, settings: settings.service })
  const finance = createFinanceModule(deps)
  const documents = createDocumentsModule(deps)
  const contracts = createContractsModule({
    ...deps,
    settings: settings.service,
    quotes: rating.quotes,
    directory,
    parties: createContractParties(deps),
    ledger: finance.ledger,
    documents,
  })
  const identity = createIdentityModule({
    ...deps,
    tenantInitializers: [
      parties.initializeTenant,
      rating.initializeTenant,
      documents.initializeTenant,
      contracts.initializeTenant,
    ],
    dealers: directory,
    tenantSecrets: [rating.tenantSecrets, documents.tenantSecrets],
  })
  return {
    identity,
    settings,
    parties,
    rating,
    finance,
    documents,
    contracts,
    /** Route plugins, in registration order. */
    routes: [
      identity.routes,
      settings.routes,
      parties.routes,
      rating.routes,
      finance.routes,
      documents.routes,
      contracts.routes,
    ] as Array<(app: FastifyInstance) => Promise<void>>,
  }
}

export type Modules = ReturnType<typeof createModules>
