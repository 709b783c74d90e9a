// The cancel flow over HTTP (docs/cancellations.md): quotes and requests on a contract, request
// actions, processed cancels and their reversal, cancel payments. Visibility is the contract's: a
// request, cancel or payment of a contract the caller cannot see (another tenant's, a dealer-side
// user's other dealers') is a 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, pageWindow, sendList, toPage } from '../../platform/http/pagination.ts'
import { IntegerId, ListQuery, PagedQuery, Paged, problemResponses } from '../../platform/http/schemas.ts'
import {
  CancelActionSchema,
  CancelBodySchema,
  CancelIdParams,
  CancelPaymentSchema,
  CancelRequestIdParams,
  CancelRequestSchema,
  CancelRequestSearchQuery,
  CancelSchema,
  ContractIdentifierParams,
  QuoteOnlyQuery,
  RequestActionSchema,
  RequestIdentifierParams,
} from './cancellation.schemas.ts'
import type { CancelBody, CancellationService } from './cancellation.service.ts'
import { gapAutoCancelRoutes } from './gap-autocancel.routes.ts'
import type { GapAutoCancel } from './gap-autocancel.service.ts'

const TAGS = ['Cancellations']
const READ = { permission: 'cancellations:read' }
const WRITE = { permission: 'cancellations:write' }
const APPROVE = { permission: 'cancellations:approve' }
const ContractIdParams = Type.Object({ contractId: IntegerId('Contract id') })

const requestRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'CancelRequest#' })
const cancelRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Cancel#' })
const paymentRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'CancelPayment#' })
const ListQ = Type.Object({ ...ListQuery }, { additionalProperties: false })
const PageQ = Type.Object({ ...PagedQuery }, { additionalProperties: false })

const QUOTE_OR_REQUEST = [
  "With `quoteOnly=true`: the quote (status QUOTED), nothing written: method, exact unearned fraction and its display factor, gross, fee, claims deducted, net, who gets the refund, each disbursement's share, the dealer's markup share, the payments it would create, and the rules that decided.",
  'Without: the request is stored with a number (cancelNumberFormat), REQUESTED, or PENDING_DOCUMENTS when the reason requires documents not supplied (201).',
  '422 cancel_request_invalid lists every problem of the input (cancel date not a date, before the sale or after tomorrow; odometer below the sale odometer; unknown reason, or one not for this product or requester; payee LIENHOLDER without a lien holder). 409 cancel_not_allowed for a PENDING (void it instead), VOIDED or CANCELLED contract; 409 claims_open; 403 for a method override without cancellations:approve; 404 for a contract the caller cannot see.',
].join(' ')

export const cancellationRoutes: FastifyPluginAsyncTypebox<{
  service: CancellationService
  gap: GapAutoCancel
}> = async (app, { service, gap }) => {
  app.addSchema(CancelRequestSchema)
  app.addSchema(CancelSchema)
  app.addSchema(CancelPaymentSchema)
  // GAP auto-cancel answers a Cancel: registered inside, where the schema is known.
  await app.register(gapAutoCancelRoutes, { gap })

  const quoteOrRequest = async (
    ctx: ReturnType<typeof authenticatedContext>,
    contractId: number,
    quoteOnly: boolean | undefined,
    body: CancelBody,
    res: { code(n: number): unknown },
  ) => {
    if (quoteOnly) return service.quote(ctx, contractId, body)
    const created = await service.request(ctx, contractId, body)
    res.code(201)
    return created
  }

  // ---- requests on a contract -------------------------------------------------------------------

  app.post(
    '/api/contracts/:contractId/cancelrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'createCancelRequest',
        summary: 'Quote a cancel, or request one',
        description: QUOTE_OR_REQUEST,
        params: ContractIdParams,
        querystring: QuoteOnlyQuery,
        body: CancelBodySchema,
        response: { 200: requestRef, 201: requestRef, ...problemResponses(404, 409, 422) },
      },
      config: WRITE,
    },
    async (req, res) =>
      quoteOrRequest(authenticatedContext(req), req.params.contractId, req.query.quoteOnly, req.body, res),
  )

  app.post(
    '/api/v2/contracts/:identifier/cancelrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'createCancelRequestV2',
        summary: 'Quote a cancel, or request one (contract by id or number)',
        description: QUOTE_OR_REQUEST,
        params: ContractIdentifierParams,
        querystring: QuoteOnlyQuery,
        body: CancelBodySchema,
        response: { 200: requestRef, 201: requestRef, ...problemResponses(404, 409, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const ctx = authenticatedContext(req)
      const id = await service.contractIdOf(ctx, req.params.identifier)
      return quoteOrRequest(ctx, id, req.query.quoteOnly, req.body, res)
    },
  )

  app.get(
    '/api/contracts/:contractId/cancelrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCancelRequests',
        summary: "List a contract's cancel requests",
        description:
          'Oldest first; bounded by limit/offset, the total in X-Total-Count. 404 for a contract the caller cannot see.',
        params: ContractIdParams,
        querystring: ListQ,
        response: { 200: Type.Array(requestRef), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) =>
      sendList(
        res,
        await service.listRequests(authenticatedContext(req), req.params.contractId, listWindow(req.query)),
      ),
  )

  app.get(
    '/api/v2/contracts/:identifier/cancelrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCancelRequestsV2',
        summary: "List a contract's cancel requests, paged (contract by id or number)",
        params: ContractIdentifierParams,
        querystring: PageQ,
        response: { 200: Paged(requestRef, 'CancelRequestPage'), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => {
      const ctx = authenticatedContext(req)
      const w = pageWindow(req.query)
      const r = await service.listRequests(ctx, await service.contractIdOf(ctx, req.params.identifier), w)
      return toPage(r.items, r.totalCount, w)
    },
  )

  app.get(
    '/api/v2/cancelrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'listTenantCancelRequestsV2',
        summary: 'Search cancel requests across contracts (paged)',
        description:
          "The tenant's cancel requests, newest first, each as GET /api/cancelrequests/{id} answers it: by status, or `open=true` for those still waiting for documents, approval or processing; by the contract's dealer and by cancel date. Dealer-side users see their dealers' contracts' requests only.",
        querystring: CancelRequestSearchQuery,
        response: { 200: Paged(requestRef, 'CancelRequestPage'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const w = pageWindow(req.query)
      const r = await service.searchRequests(authenticatedContext(req), req.query, w)
      return toPage(r.items, r.totalCount, w)
    },
  )

  // ---- one request ------------------------------------------------------------------------------

  app.get(
    '/api/cancelrequests/:cancelRequestId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getCancelRequest',
        summary: 'Read a cancel request',
        params: CancelRequestIdParams,
        response: { 200: requestRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.getRequest(authenticatedContext(req), req.params.cancelRequestId),
  )

  app.get(
    '/api/v2/cancelrequests/:identifier',
    {
      schema: {
        tags: TAGS,
        operationId: 'getCancelRequestV2',
        summary: 'Read a cancel request by id or request number',
        params: RequestIdentifierParams,
        response: { 200: requestRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.getRequestByIdentifier(authenticatedContext(req), req.params.identifier),
  )

  const ACTION_DESCRIPTION = [
    "SUBMIT_DOCUMENTS adds documents (PENDING_DOCUMENTS → REQUESTED once the reason's documents are all there); APPROVE (cancellations:approve) processes the cancel in the same transaction (see POST /contracts/{contractId}/cancels) and marks the request PROCESSED; REJECT (cancellations:approve, with a reason); WITHDRAW.",
    '409 cancel_request_state_conflict for an action the status does not allow; 409 contract_already_cancelled when the contract was cancelled meanwhile (two approvals at once: one cancel).',
  ].join(' ')

  app.post(
    '/api/cancelrequests/:cancelRequestId',
    {
      schema: {
        tags: TAGS,
        operationId: 'actOnCancelRequest',
        summary: 'Submit documents for, approve, reject or withdraw a cancel request',
        description: ACTION_DESCRIPTION,
        params: CancelRequestIdParams,
        body: RequestActionSchema,
        response: { 200: requestRef, ...problemResponses(404, 409, 422, 423) },
      },
      config: WRITE,
    },
    async (req) => service.act(authenticatedContext(req), req.params.cancelRequestId, req.body),
  )

  app.post(
    '/api/v2/cancelrequests/:identifier',
    {
      schema: {
        tags: TAGS,
        operationId: 'actOnCancelRequestV2',
        summary: 'Act on a cancel request by id or request number',
        description: ACTION_DESCRIPTION,
        params: RequestIdentifierParams,
        body: RequestActionSchema,
        response: { 200: requestRef, ...problemResponses(404, 409, 422, 423) },
      },
      config: WRITE,
    },
    async (req) => {
      const ctx = authenticatedContext(req)
      return service.act(ctx, await service.requestIdOf(ctx, req.params.identifier), req.body)
    },
  )

  // ---- cancels ----------------------------------------------------------------------------------

  app.post(
    '/api/contracts/:contractId/cancels',
    {
      schema: {
        tags: TAGS,
        operationId: 'createCancel',
        summary: 'Process a cancel directly (staff)',
        description: [
          "In one transaction: the contract locked, the quote recomputed, the sale postings settled, one CONTRACT_CANCELLED journal entry (decision 0012), the contract CANCELLED effective the cancel date, the cancel and its payments (the refund due in refundDueDays, the dealer's chargeback, each payee's recovery).",
          'Bad input as for a quote (422, 409, 404); 409 contract_already_cancelled when the contract has a processed cancel; 409 ledger_period_closed when the books are closed through today.',
        ].join(' '),
        params: ContractIdParams,
        body: CancelBodySchema,
        response: { 201: cancelRef, ...problemResponses(404, 409, 422, 423) },
      },
      config: APPROVE,
    },
    async (req, res) => {
      const c = await service.process(authenticatedContext(req), req.params.contractId, req.body)
      res.code(201)
      return c
    },
  )

  app.get(
    '/api/contracts/:contractId/cancels',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCancels',
        summary: "List a contract's cancels (reversed ones included)",
        params: ContractIdParams,
        querystring: ListQ,
        response: { 200: Type.Array(cancelRef), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) =>
      sendList(res, await service.listCancels(authenticatedContext(req), req.params.contractId, listWindow(req.query))),
  )

  app.get(
    '/api/cancels/:cancelId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getCancel',
        summary: 'Read a cancel',
        params: CancelIdParams,
        response: { 200: cancelRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.getCancel(authenticatedContext(req), req.params.cancelId),
  )

  app.post(
    '/api/cancels/:cancelId',
    {
      schema: {
        tags: TAGS,
        operationId: 'reverseCancel',
        summary: 'Reverse a cancel (reinstate the contract)',
        description:
          "While no payment of the cancel is PAID: the cancel entry's lines posted on the other side (CANCEL_REVERSED), the contract reinstated, the payments VOID. Exactly once: 409 cancel_already_reversed after; 409 cancel_refund_paid when a payment was paid.",
        params: CancelIdParams,
        body: CancelActionSchema,
        response: { 200: cancelRef, ...problemResponses(404, 409, 422, 423) },
      },
      config: APPROVE,
    },
    async (req) => service.reverse(authenticatedContext(req), req.params.cancelId, req.body),
  )

  // ---- cancel payments --------------------------------------------------------------------------

  const PAYMENTS = Type.Array(paymentRef)
  app.get(
    '/api/cancelrequests/:cancelRequestId/cancelpayments',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCancelRequestPayments',
        summary: "A cancel request's payments",
        description:
          "Once processed, its cancel's payments; before, the preview stored with the request (id and cancelId null).",
        params: CancelRequestIdParams,
        response: { 200: PAYMENTS, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.paymentsOfRequest(authenticatedContext(req), req.params.cancelRequestId),
  )

  app.get(
    '/api/v2/cancelrequests/:identifier/cancelpayments',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCancelRequestPaymentsV2',
        summary: "A cancel request's payments (request by id or number)",
        params: RequestIdentifierParams,
        response: { 200: PAYMENTS, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => {
      const ctx = authenticatedContext(req)
      return service.paymentsOfRequest(ctx, await service.requestIdOf(ctx, req.params.identifier))
    },
  )

  app.get(
    '/api/cancels/:cancelId/cancelpayments',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCancelPayments',
        summary: "A cancel's payments",
        params: CancelIdParams,
        response: { 200: PAYMENTS, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.paymentsOfCancel(authenticatedContext(req), req.params.cancelId),
  )

  app.get(
    '/api/contracts/:contractId/cancelpayments',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractCancelPayments',
        summary: "Every cancel payment of a contract (reversed cancels' VOID ones included)",
        params: ContractIdParams,
        response: { 200: PAYMENTS, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.paymentsOfContract(authenticatedContext(req), req.params.contractId),
  )

  app.get(
    '/api/v2/contracts/:identifier/cancelpayments',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractCancelPaymentsV2',
        summary: 'Every cancel payment of a contract (contract by id or number)',
        params: ContractIdentifierParams,
        response: { 200: PAYMENTS, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => {
      const ctx = authenticatedContext(req)
      return service.paymentsOfContract(ctx, await service.contractIdOf(ctx, req.params.identifier))
    },
  )
}
