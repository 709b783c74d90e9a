// Contracts: digital retailing (a contract from a quote), the contract lifecycle, its documents
// and its postings (docs/contracts.md). Other code reaches this module only through this file.
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { DocumentsModule } from '../documents/index.ts'
import type { LedgerService } from '../finance/index.ts'
import type { ContractParties, DealerDirectory } from '../parties/index.ts'
import type { QuoteService } from '../rating/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { CONTRACT_DOCUMENT_KINDS, CONTRACT_OWNER, createContractLifecycle } from './contract-lifecycle.service.ts'
import { contractErrors } from './contract.errors.ts'
import type { CessionPort, TermsPorts } from './contract-terms.ts'
import { contractLedgerRoutes } from './contract-ledger.routes.ts'
import { createContractEarnings } from './contract-earnings.ts'
import { contractEarningsRoutes } from './contract-earnings.routes.ts'
import { contractRoutes } from './contract.routes.ts'
import { createContractCore } from './contract.service.ts'
import { createContractServicing } from './contract-servicing.service.ts'
import { createBatchTransitions } from './contract-servicing.batch.ts'
import { contractTransferRoutes } from './contract-transfer.routes.ts'
import { createContractTransfers } from './contract-transfer.service.ts'
import { contractRerateRoutes } from './contract-rerate.routes.ts'
import { createContractRerates } from './contract-rerate.service.ts'
import { createContractSequence } from './contract.repository.ts'
import { contractAutoProcessRoutes } from './contract-autoprocess.routes.ts'
import { createContractAutoProcess } from './contract-autoprocess.service.ts'
import { inForce } from './contract-autoprocess.repository.ts'
import type { TenantInitializer } from '../../platform/tenancy.ts'

export { CONTRACT_STATUSES, TRANSITIONS, transition, type ContractEvent } from './contract.rules.ts'
// The servicing port and the status history (docs/contracts.md "Servicing port").
export { inForceOn, statusOn, STATUS_EVENTS, type StatusEvent, type StatusHistoryPoint } from './contract.rules.ts'
export {
  SOURCE_TYPES,
  type ContractEventSource,
  type ContractSourceType,
  type StatusChange,
} from './contract-history.ts'
export type {
  AppliedTransition,
  ContractServicing,
  ServicedContract,
  ServicingEvent,
  TransitionRequest,
} from './contract-servicing.service.ts'
export type { ChangeFacts } from './contract.service.ts'
export type { BatchOutcome, BatchTransitionRequest, BatchTransitions } from './contract-servicing.batch.ts'
// Automatic expiry and voiding (docs/contracts.md "Automatic expiry and voiding").
export type { LastOdometer, OdometerReport } from './contract-servicing.service.ts'
export { expiryOf, type AutoChange } from './contract-autoprocess.service.ts'
export { EXPIRY_REASONS, ODOMETER_SOURCES, type ExpiryDue, type ExpiryReason } from './contract-autoprocess.rules.ts'
export type { ContractView } from './contract.mapper.ts'
export type { DealInput } from './contract.deal.ts'
export type { CessionPort, ContractCession } from './contract-terms.ts'

export type ContractsDeps = {
  db: Database
  clock: Clock
  settings: SettingsService
  quotes: QuoteService
  directory: DealerDirectory
  parties: ContractParties
  ledger: LedgerService
  documents: DocumentsModule
  /** The rating module's terms snapshot of a rate-book version (rating.saleTerms). */
  saleTerms: TermsPorts['saleTerms']
  /** The sales tax module's computation of a sale's tax (salesTax.service.ofSale). */
  salesTax: TermsPorts['salesTax']
  /** The reporting module's treaty of a sale (docs/reporting.md), fixed in terms.cession; absent: no cessions. */
  cession?: CessionPort
}

export function createContractsModule(deps: ContractsDeps) {
  const docs = deps.documents.service
  const core = createContractCore({
    ...deps,
    terms: {
      saleTerms: deps.saleTerms,
      salesTax: deps.salesTax,
      quotedState: (tenantId, quoteId) => deps.quotes.quotedState(tenantId, quoteId),
      async fallback(tenantId) {
        const [freeLookDays, fee, deduct] = await Promise.all([
          deps.settings.get(tenantId, 'freeLookDays'),
          deps.settings.get(tenantId, 'defaultCancelFee'),
          deps.settings.get(tenantId, 'deductClaimsPaidFromRefund'),
        ])
        return { freeLookDays, defaultCancelFee: fee.toFixed(2), deductClaimsPaidFromRefund: deduct }
      },
    },
    async documentsOf(tenantId, contractId) {
      const list = await docs.summariesForOwner(tenantId, CONTRACT_OWNER, contractId, CONTRACT_DOCUMENT_KINDS)
      return list.map((d) => ({
        documentId: d.documentId,
        kind: d.kind,
        currentVersion: d.currentVersion,
        createdAt: d.createdAt,
        draft: d.currentMetadata.draft === true,
      }))
    },
  })
  const lifecycle = createContractLifecycle({ ...deps, core, documents: docs })
  const servicing = createContractServicing({
    db: deps.db,
    clock: deps.clock,
    core,
    settle: lifecycle.settleSalePostings,
  })
  const earnings = createContractEarnings({
    db: deps.db,
    clock: deps.clock,
    core,
    ledger: deps.ledger,
    parties: deps.parties,
    servicing: servicing.port,
  })
  // Rerates (docs/contracts.md "Rerating"): the rate priced again by the rating module, the difference posted.
  const rerates = createContractRerates({
    db: deps.db,
    core,
    quotes: deps.quotes,
    parties: deps.parties,
    ledger: deps.ledger,
    servicing: servicing.port,
    earnings,
    produceDocument: (ctx, contractId) => lifecycle.produceDocument(ctx, contractId),
    saleTerms: deps.saleTerms,
    salesTax: deps.salesTax,
  })
  const transfers = createContractTransfers({
    db: deps.db,
    clock: deps.clock,
    core,
    parties: deps.parties,
    directory: deps.directory,
    ledger: deps.ledger,
  })
  const autoProcess = createContractAutoProcess({
    db: deps.db,
    clock: deps.clock,
    settings: deps.settings,
    servicing: servicing.port,
    today: core.today,
  })
  return {
    core,
    lifecycle,
    /** GET/POST /contracts/autoexpire and /contracts/autovoidable: what the EXPIRY and VOID processes would change, one at a time. */
    autoProcess,
    /** Transfers to a new owner (docs/contracts.md "Transfers"). */
    transfers,
    /** Rerates with corrected facts (docs/contracts.md "Rerating"). */
    rerates,
    /** The servicing port for modules that change a contract after the sale (cancellations, claims, processes). */
    servicing: servicing.port,
    /** ACTIVATE or EXPIRE many contracts set-based (the automatic processes' batches, docs/processes.md). */
    batchTransitions: createBatchTransitions({ core }),
    /** The earnings sync (docs/earnings.md): one contract, or a run over many (the processes issue schedules it). */
    earnings,
    /**
     * Ids of contracts due for an automatic process (docs/processes.md), ascending after `afterId`:
     * ACTIVATE finalized ones in effect on `today`, EXPIRE those in force past their expiration date
     * or with a latest known odometer at or past their expiration odometer (one walk of the partial
     * index of migration 0038), VOID pending ones created before `createdBefore`. The port's
     * lockForEvent checks each again; `expiryOf` gives an expiry's reason and effective date.
     */
    async dueForProcess(
      tenantId: number,
      q: { event: 'ACTIVATE' | 'EXPIRE' | 'VOID'; today: string; createdBefore?: Date; afterId: number; limit: number },
    ): Promise<number[]> {
      const rows = await deps.db.read(tenantId, (x) => {
        let query = x.selectFrom('contract').select('id').where('tenant_id', '=', tenantId).where('id', '>', q.afterId)
        if (q.event === 'ACTIVATE')
          query = query.where('status', '=', 'FINALIZED').where('effective_date', '<=', q.today)
        else if (q.event === 'EXPIRE')
          query = query
            .where(inForce('contract'))
            .where((eb) =>
              eb.or([eb('expiration_date', '<', q.today), eb('last_odometer', '>=', eb.ref('expiration_odometer'))]),
            )
        else query = query.where('status', '=', 'PENDING').where('created_at', '<', q.createdBefore ?? new Date(0))
        return query.orderBy('id').limit(q.limit).execute()
      })
      return rows.map((r) => Number(r.id))
    },
    /** Work done when a tenant is created: its contract-number sequence. */
    initializeTenant: ((tx, tenant) => createContractSequence(tx, tenant.id)) satisfies TenantInitializer,
    async routes(app: FastifyInstance) {
      await app.register(contractRoutes, { core, lifecycle, servicing })
      // The contract's journal entries (docs/ledger.md): visibility from the core, entries from the ledger.
      await app.register(contractLedgerRoutes, { core, ledger: deps.ledger })
      await app.register(contractEarningsRoutes, { earnings })
      await app.register(contractTransferRoutes, { transfers })
      await app.register(contractRerateRoutes, { rerates })
      await app.register(contractAutoProcessRoutes, { auto: autoProcess })
      // Uploaded files (signed contracts, bills of sale, photos): the documents module's collection.
      await app.register(
        deps.documents.ownerFileRoutes({
          prefix: '/api/contracts/:contractId',
          param: 'contractId',
          collectionPath: 'files',
          itemParam: 'contractFileId',
          ownerType: CONTRACT_OWNER,
          kind: 'CONTRACT_FILE',
          listKinds: ['CONTRACT_FILE'],
          tag: 'Contracts',
          ownerLabel: 'contract',
          readPermission: 'contracts:read',
          writePermission: 'documents:write',
          async resolveOwner(ctx, ownerId, access) {
            // Owner checks run on authenticated routes only; a signed link never reaches them.
            const contract = await core.readRow(ctx as AuthenticatedContext, ownerId)
            if (access === 'write' && contract.status === 'VOIDED')
              throw contractErrors.create('contract_state_conflict', `contract ${contract.contract_number} is voided`)
          },
        }),
      )
    },
  }
}

export type ContractsModule = ReturnType<typeof createContractsModule>
