// Contract transfer routes (issue 16, docs/contracts.md "Transfers"): the spec's
// POST /contracts/{contractId}/transferrequest, and beyond it the requests' list, read and decision.
// Handlers translate; contract-transfer.service.ts decides.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { Paged, problemResponses } from '../../platform/http/schemas.ts'
import { ContractIdParams } from './contract.schemas.ts'
import type { ContractTransfers } from './contract-transfer.service.ts'
import {
  ContractTransferSchema,
  TransferDecisionBody,
  TransferListQuery,
  TransferParams,
  TransferRequestBody,
} from './contract-transfer.schemas.ts'

const TAGS = ['Contracts']
const transferRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractTransfer#' })
const RULES =
  "Only an ACTIVE contract (409 contract_state_conflict); only when the product's transfer terms allow it (422 transfer_not_allowed, also for a dealer as new owner when no dealer may own it); " +
  "transferDate on or after the sale, not in the future, not after the expiration (422 transfer_invalid naming transferDate), and within the product's window of days since the vehicle's sale to the new owner (422 transfer_window_closed)."

export const contractTransferRoutes: FastifyPluginAsyncTypebox<{ transfers: ContractTransfers }> = async (
  app,
  { transfers },
) => {
  app.addSchema(ContractTransferSchema)

  app.post(
    '/api/contracts/:contractId/transferrequest',
    {
      schema: {
        tags: TAGS,
        operationId: 'createContractTransferRequest',
        summary: 'Ask to transfer a contract to a new owner',
        description:
          `The request waits for a decision (PATCH …/transferrequests/{id}); the contract changes only then. ${RULES} ` +
          "One request at a time per contract (409 transfer_pending). The fee is the product terms' transfer fee. Audited (contract.transfer_requested).",
        params: ContractIdParams,
        body: TransferRequestBody,
        response: { 201: transferRef, ...problemResponses(404, 409, 415, 422) },
      },
      config: { permission: 'contracts:write' },
    },
    async (req, reply) => {
      const view = await transfers.request(authenticatedContext(req), req.params.contractId, req.body)
      setEtag(reply, view.version)
      reply.code(201).header('location', `/api/contracts/${view.contractId}/transferrequests/${view.id}`)
      return view
    },
  )

  app.get(
    '/api/contracts/:contractId/transferrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractTransferRequests',
        summary: 'List the transfer requests of a contract',
        description: 'Oldest first, paged; visible as the contract is.',
        params: ContractIdParams,
        querystring: TransferListQuery,
        response: { 200: Paged(transferRef, 'ContractTransferRequests'), ...problemResponses(404) },
      },
      config: { permission: 'contracts:read' },
    },
    async (req) => {
      const window = pageWindow(req.query)
      const result = await transfers.list(authenticatedContext(req), req.params.contractId, window)
      return toPage(result.items, result.totalCount, window)
    },
  )

  app.get(
    '/api/contracts/:contractId/transferrequests/:transferRequestId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getContractTransferRequest',
        summary: 'Read a transfer request',
        description: 'A request of another contract is 404 transfer_not_found.',
        params: TransferParams,
        response: { 200: transferRef, ...problemResponses(404) },
      },
      config: { permission: 'contracts:read' },
    },
    async (req, reply) => {
      const view = await transfers.get(authenticatedContext(req), req.params.contractId, req.params.transferRequestId)
      setEtag(reply, view.version)
      return view
    },
  )

  app.patch(
    '/api/contracts/:contractId/transferrequests/:transferRequestId',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateContractTransferRequest',
        summary: 'Approve or reject a transfer request',
        description:
          `APPROVED checks the rules again as of today (${RULES}), matches or creates the new owner's customer record, makes it the contract's holder (the vehicle and coverage stay), ` +
          "posts the transfer fee (TRANSFER_FEE: Dr the selling dealer's receivable, Cr administrator revenue) and emits contract.transferred; the free-look does not pass to the new owner. " +
          'REJECTED only closes the request. A decided request is 409 transfer_already_decided. If-Match is honoured (412). Audited.',
        params: TransferParams,
        body: TransferDecisionBody,
        consumes: ['application/json', 'application/merge-patch+json'],
        response: { 200: transferRef, ...problemResponses(404, 409, 412, 415, 422) },
      },
      config: { permission: 'contracts:finalize' },
    },
    async (req, reply) => {
      const view = await transfers.decide(
        authenticatedContext(req),
        req.params.contractId,
        req.params.transferRequestId,
        req.body,
        expectedVersion(req),
      )
      setEtag(reply, view.version)
      return view
    },
  )
}
