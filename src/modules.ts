// The module graph: every bounded context, created once with its dependencies and wired to the
// others only through their index.ts. The process entry (src/server.ts) builds it once and both
// seeds the demo tenant and serves requests with it; the CLI builds it once per command; tests
// build it once per app (test/harness.ts), so what they arrange is what serves their requests.
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import { createIdentityModule } from './modules/identity/index.ts'
import { createCancellationsModule } from './modules/cancellations/index.ts'
import { createClaimsModule } from './modules/claims/index.ts'
import { createDocumentsModule } from './modules/documents/index.ts'
import { createFinanceModule } from './modules/finance/index.ts'
import { createPartiesModule } from './modules/parties/index.ts'
import { createContractsModule, expiryOf } from './modules/contracts/index.ts'
import { createRatingModule } from './modules/rating/index.ts'
import { createSettingsModule } from './modules/settings/index.ts'
import { createSalesTaxModule } from './modules/salestax/index.ts'
import { createWebhooksModule } from './modules/webhooks/index.ts'
import { createProcessesModule } from './modules/processes/index.ts'
import { createReportingModule } from './modules/reporting/index.ts'
import type { InvalidationBus } from './platform/cache.ts'
import type { Clock } from './platform/clock.ts'
import type { Database } from './platform/db/database.ts'
import type { SecretBox } from './platform/secrets.ts'

/** What of the configuration the modules read; a whole `Config` is one. */
export type ModulesConfig = Pick<Config, 'accessTokenTtlSeconds' | 'documents'> &
  Partial<Pick<Config, 'webhooksAllowPrivateReceivers'>>

export type ModuleDeps = {
  config: ModulesConfig
  db: Database
  clock: Clock
  bus: InvalidationBus
  /** Seals secrets stored in the database (platform/secrets.ts): loadSecretBox(config), or a test key. */
  secrets: SecretBox
}

export function createModules({ config, ...deps }: ModuleDeps) {
  const settings = createSettingsModule(deps)
  const parties = createPartiesModule(deps)
  const { directory } = parties
  const rating = createRatingModule({ ...deps, directory, settings: settings.service })
  const documents = createDocumentsModule({ ...deps, documents: config.documents })
  const finance = createFinanceModule({
    ...deps,
    settings: settings.service,
    documents: documents.service,
    administratorId: (tenantId) => parties.contractParties.administratorId(tenantId),
  })
  // Cash transactions carry custom fields: the parties module's, found through finance (docs/cash.md).
  parties.customFields.registerCashTransactions((ctx, id) => finance.cash.assertVisible(ctx, id))
  // Risk-bearer reporting (docs/reporting.md): treaties, the cession of a sale, insurer bordereaux.
  const reporting = createReportingModule({
    ...deps,
    parties: { accountHolderKinds: (tenantId, ids) => directory.accountHolderKinds(tenantId, ids) },
    timeZone: (tenantId) => settings.service.get(tenantId, 'timeZone'),
    // Month close: the reports of a month through booksClosedThrough are frozen.
    booksClosedThrough: (tenantId) => settings.service.get(tenantId, 'booksClosedThrough'),
  })
  const contracts = createContractsModule({
    ...deps,
    settings: settings.service,
    quotes: rating.quotes,
    directory,
    parties: parties.contractParties,
    ledger: finance.ledger,
    documents,
    saleTerms: rating.saleTerms,
    // Called at sale only, after every module is built (salesTax is created below: it reads contracts).
    salesTax: (tenantId, sale) => salesTax.service.ofSale(tenantId, sale),
    // The treaty in force on the sale date, fixed in terms.cession (the contracts module never imports reporting).
    cession: (tenantId, sale) => reporting.cessionAtSale(tenantId, sale),
  })
  const claims = createClaimsModule({
    ...deps,
    settings: settings.service,
    facilities: directory,
    documents,
    ledger: finance.ledger,
    administratorId: (tenantId) => parties.contractParties.administratorId(tenantId),
    contracts: {
      readRow: (ctx, id) => contracts.core.readRow(ctx, id),
      claimTermsOf: async (tenantId, row) =>
        (await contracts.core.termsOf(tenantId, row as Parameters<typeof contracts.core.termsOf>[1])).claims,
      historyOf: (tenantId, contractId) => contracts.servicing.historyOf(tenantId, contractId),
      today: (tenantId) => contracts.core.today(tenantId),
      // A claim's odometer is the contract's latest known one (expiry by mileage).
      reportOdometer: (tx, ctx, contractId, reading) =>
        contracts.servicing.reportOdometer(tx, ctx, contractId, reading),
    },
  })
  const cancellations = createCancellationsModule({
    ...deps,
    settings: settings.service,
    servicing: contracts.servicing,
    ledger: finance.ledger,
    documents,
    administratorId: (tenantId) => parties.contractParties.administratorId(tenantId),
    earnings: contracts.earnings,
    claims: claims.cancellationsPort,
    contracts: {
      readRow: (ctx, id) => contracts.core.readRow(ctx, id),
      termsOf: (tenantId, row) => contracts.core.termsOf(tenantId, row as Parameters<typeof contracts.core.termsOf>[1]),
      idOf: async (ctx, identifier) => (await contracts.core.getByIdentifier(ctx, identifier)).id,
      today: (tenantId) => contracts.core.today(tenantId),
    },
  })
  // Finance is built first: cancellations hands it the port that marks refunds PAID when a payout run pays them.
  finance.payouts.registerPayablePort(cancellations.payoutPort)
  // And claims the port that records a claim payment for each open payment request a run pays.
  finance.payouts.registerItemizedPort(claims.payoutPort)
  const salesTax = createSalesTaxModule({
    ...deps,
    contracts: {
      saleOf: async (ctx, id) => {
        const row = await contracts.core.readRow(ctx, id)
        const address = row.customer.address
        return {
          id: row.id,
          productType: row.product_type,
          retailPrice: row.retail_price,
          dealerCost: row.dealer_cost,
          address: address ? { state: address.state, city: address.city } : null,
          storedSalesTax: (await contracts.core.termsOf(ctx.tenantId, row)).salesTax,
        }
      },
      today: (tenantId) => contracts.core.today(tenantId),
    },
  })
  const webhooks = createWebhooksModule({
    ...deps,
    settings: settings.service,
    allowPrivateReceivers: config.webhooksAllowPrivateReceivers,
  })
  // Automatic processes (docs/processes.md): the contract transitions through the servicing port, the
  // earnings sync, GAP auto-cancel, the denial of ended contracts' claims and the dealers' statements.
  const processes = createProcessesModule({
    ...deps,
    settings: settings.service,
    contracts: {
      dueForProcess: contracts.dueForProcess,
      servicing: contracts.servicing,
      batchTransitions: contracts.batchTransitions,
      expiryOf,
    },
    earnings: contracts.earnings.process,
    gap: cancellations.gap,
    claims: claims.deny,
    statements: finance.statements,
  })
  const identity = createIdentityModule({
    ...deps,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    tenantInitializers: [
      parties.initializeTenant,
      rating.initializeTenant,
      documents.initializeTenant,
      contracts.initializeTenant,
      claims.initializeTenant,
    ],
    dealers: directory,
    tenantSecrets: [rating.tenantSecrets, documents.tenantSecrets, webhooks.tenantSecrets],
  })
  return {
    identity,
    settings,
    parties,
    rating,
    finance,
    documents,
    contracts,
    cancellations,
    claims,
    salesTax,
    webhooks,
    processes,
    reporting,
    /** Route plugins, in registration order. */
    routes: [
      identity.routes,
      settings.routes,
      parties.routes,
      rating.routes,
      finance.routes,
      documents.routes,
      contracts.routes,
      cancellations.routes,
      claims.routes,
      salesTax.routes,
      webhooks.routes,
      processes.routes,
      reporting.routes,
    ] as Array<(app: FastifyInstance) => Promise<void>>,
  }
}

export type Modules = ReturnType<typeof createModules>
