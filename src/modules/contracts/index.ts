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
import { contractRoutes } from './contract.routes.ts'
import { createContractCore } from './contract.service.ts'
import { createContractSequence } from './contract.repository.ts'
import type { TenantInitializer } from '../../platform/tenancy.ts'

export { CONTRACT_STATUSES, TRANSITIONS, transition, type ContractEvent } from './contract.rules.ts'
export type { ContractView } from './contract.mapper.ts'
export type { DealInput } from './contract.deal.ts'

export type ContractsDeps = {
  db: Database
  clock: Clock
  settings: SettingsService
  quotes: QuoteService
  directory: DealerDirectory
  parties: ContractParties
  ledger: LedgerService
  documents: DocumentsModule
}

export function createContractsModule(deps: ContractsDeps) {
  const docs = deps.documents.service
  const core = createContractCore({
    ...deps,
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
  return {
    core,
    lifecycle,
    /** Work done when a tenant is created: its contract-number sequence. */
    initializeTenant: ((tx, tenant) => createContractSequence(tx, tenant.id)) satisfies TenantInitializer,
    async routes(app: FastifyInstance) {
      await app.register(contractRoutes, { core, lifecycle })
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
