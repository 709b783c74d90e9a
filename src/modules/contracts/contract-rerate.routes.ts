// Rerate routes (issue 16; docs/contracts.md "Rerating"): the spec's POST
// /contracts/{contractId}/rerateRequests and, beyond it, the list of a contract's rerates. Handlers
// translate; contract-rerate.service.ts decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { Paged, problemResponses } from '../../platform/http/schemas.ts'
import { ContractIdParams } from './contract.schemas.ts'
import type { ContractRerates } from './contract-rerate.service.ts'
import { ContractRerateSchema, RerateListQuery, RerateRequestBody } from './contract-rerate.schemas.ts'

const TAGS = ['Contracts']
const rerateRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractRerate#' })

export const contractRerateRoutes: FastifyPluginAsyncTypebox<{ rerates: ContractRerates }> = async (
  app,
  { rerates },
) => {
  app.addSchema(ContractRerateSchema)

  app.post(
    '/api/contracts/:contractId/rerateRequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'createContractRerateRequest',
        summary: 'Rerate a contract with corrected facts',
        description:
          "Prices the contract's rate again at its own rate-book version and sale date (no sale-date look-back, no quote lifetime) with the corrected facts: sale odometer, vehicle (a corrected VIN is decoded afresh), another term or deductible of its plan, its options. " +
          'A PENDING contract gets its new pricing; a FINALIZED or ACTIVE one also posts only the difference (CONTRACT_RERATED: its lines and the sales tax the administrator collects, per account holder, purpose and code), has its earnings resynced and its final document produced again. ' +
          'CANCELLED, EXPIRED or VOIDED: 409 contract_state_conflict. Facts the rate is not offered for: 422 rerate_ineligible naming each rule that excludes it (errors[].field = product, program, plan, term, deductible or selectedOptionIds/i; code = the reason, such as CRITERIA). ' +
          'A retail price that no longer fits the rate, an unknown term or deductible, a bad VIN: 422 contract_invalid. dryRun=true answers 200 with the same result and writes nothing. Audited (contract.rerated); event contract.rerated.',
        params: ContractIdParams,
        body: RerateRequestBody,
        response: { 200: rerateRef, 201: rerateRef, ...problemResponses(404, 409, 415, 422, 423) },
      },
      config: { permission: 'contracts:finalize' },
    },
    async (req, reply) => {
      const { created, view } = await rerates.rerate(authenticatedContext(req), req.params.contractId, req.body)
      if (created) reply.code(201).header('location', `/api/contracts/${view.contractId}/rerateRequests`)
      return view
    },
  )

  app.get(
    '/api/contracts/:contractId/rerateRequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractRerateRequests',
        summary: 'List the rerates of a contract',
        description:
          'The rerates applied to the contract (dry runs are not kept), oldest first, paged; visible as the contract is.',
        params: ContractIdParams,
        querystring: RerateListQuery,
        response: { 200: Paged(rerateRef, 'ContractRerateRequests'), ...problemResponses(404) },
      },
      config: { permission: 'contracts:read' },
    },
    async (req) => {
      const window = pageWindow(req.query)
      const result = await rerates.list(authenticatedContext(req), req.params.contractId, window)
      return toPage(result.items, result.totalCount, window)
    },
  )
}
