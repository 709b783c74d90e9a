// A contract's journal entries over HTTP (docs/ledger.md "Reading over HTTP"): the ledger's entries
// of one contract, for integrators reconciling their books. A route of the contracts module because
// the contract decides who may see it (tenant, dealer-side visibility); the ledger supplies the entries.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext, hasPermission } from '../../platform/http/context.ts'
import { platformErrors } from '../../platform/http/errors.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { ListQuery, problemResponses } from '../../platform/http/schemas.ts'
import { JournalEntrySchema, type LedgerService } from '../finance/index.ts'
import { ContractIdParams } from './contract.schemas.ts'
import type { ContractCore } from './contract.service.ts'

/**
 * Ledgers are finance data (finance:read, "Read cash transactions and ledgers"), and the contract
 * must be readable too (contracts:read): the route declares the stricter one and checks the other.
 */
const PERMISSION = 'finance:read'
const ALSO_REQUIRED = 'contracts:read'

const EntriesQuery = Type.Object({ ...ListQuery }, { additionalProperties: false })

export const contractLedgerRoutes: FastifyPluginAsyncTypebox<{
  core: Pick<ContractCore, 'readRow'>
  ledger: Pick<LedgerService, 'entriesForContract'>
}> = async (app, { core, ledger }) => {
  app.addSchema(JournalEntrySchema)

  app.get(
    '/api/contracts/:contractId/journalentries',
    {
      schema: {
        tags: ['Contracts'],
        operationId: 'listContractJournalEntries',
        summary: 'List the journal entries of a contract',
        description: [
          'Oldest first: the entries the contract is the source of (finalization, refinalization, rerate) and every entry with a line on the contract (its cancel, claims, earnings, cash applications, reversals).',
          "Each entry carries its lines on the contract: account holder, purpose, side and amount, disbursement code, and the entry's source. Bounded by limit/offset; the total is in X-Total-Count.",
          `Also requires \`${ALSO_REQUIRED}\`. 404 for a contract the caller cannot see (another tenant's, or a dealer-side user's other dealers').`,
        ].join(' '),
        params: ContractIdParams,
        querystring: EntriesQuery,
        response: {
          200: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'JournalEntry#' })),
          ...problemResponses(404),
        },
      },
      config: { permission: PERMISSION },
    },
    async (req, res) => {
      const ctx = authenticatedContext(req)
      if (!hasPermission(ctx.principal.permissions, ALSO_REQUIRED))
        throw platformErrors.create('permission_denied', `This operation also requires the ${ALSO_REQUIRED} permission`)
      const contract = await core.readRow(ctx, req.params.contractId)
      return sendList(res, await ledger.entriesForContract(ctx.tenantId, contract.id, listWindow(req.query)))
    },
  )
}
