// Contract routes (spec §4.3 "Contracts", docs/contracts.md): create from a quote, read and search
// (v1 and v2), PATCH while pending, holds, the edit lock, the co-buyer, finalize and refinalize,
// documents, coverage, the status history; and the draft PDF of a deal before it is a contract.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, pageWindow, sendList, toPage } from '../../platform/http/pagination.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../platform/http/patch.ts'
import { Paged, noBodyIsEmpty, problemResponses } from '../../platform/http/schemas.ts'
import { DocumentSchema } from '../documents/index.ts'
import type { ContractLifecycle } from './contract-lifecycle.service.ts'
import type { ContractServicingService } from './contract-servicing.service.ts'
import type { DealInput } from './contract.deal.ts'
import { HOLD_REASONS } from './contract.rules.ts'
import {
  CoBuyerBody,
  ContractIdParams,
  ContractSchema,
  ContractSummarySchema,
  CoverageComponentSchema,
  CoverageGroupSchema,
  CreateContractBody,
  CreateHoldBody,
  DraftDocumentBody,
  EmptyBody,
  HoldParams,
  HoldReasonSchema,
  HoldSchema,
  IdentifierParams,
  LockSchema,
  PagedSearchQuery,
  PostingSchema,
  ResolutionSchema,
  ResolveHoldBody,
  SearchQuery,
  StatusChangeSchema,
  StatusHistoryQuery,
} from './contract.schemas.ts'
import type { ContractCore } from './contract.service.ts'

const TAGS = ['Contracts']
const READ = { permission: 'contracts:read' }
const WRITE = { permission: 'contracts:write' }
const FINALIZE = { permission: 'contracts:finalize' }
const contractRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Contract#' })
const holdRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractHold#' })
const summaryRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractSummary#' })
const statusChangeRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractStatusChange#' })
const LOCKED = 'Changes by another user while that user holds the edit lock: 423 contract_locked.'

export const contractRoutes: FastifyPluginAsyncTypebox<{
  core: ContractCore
  lifecycle: ContractLifecycle
  servicing: ContractServicingService
}> = async (app, { core, lifecycle, servicing }) => {
  app.addSchema(ContractSchema)
  app.addSchema(HoldSchema)
  app.addSchema(ContractSummarySchema)
  app.addSchema(StatusChangeSchema)

  app.post(
    '/api/contracts',
    {
      schema: {
        tags: TAGS,
        operationId: 'createContract',
        summary: 'Create a contract from a quote',
        description:
          'Digital retailing step 3. The price comes from the quote named by `quoteId` and `rateId` (priced again on the server), never from the request. ' +
          "422 contract_invalid lists every problem: facts that differ from the quote, a retail price outside the rate's limits (or not the locked retail), each missing or invalid custom field, dates. " +
          '422 quote_unknown / quote_expired / quote_outdated / rate_not_in_quote when the quote cannot be used. 409 custom_field_value_taken for a unique custom field already used in the tenant; ' +
          '409 duplicate_contract (with Location of the existing contract) for the same dealer, VIN, plan and sale date within 10 minutes. With an Idempotency-Key a retried submission replays the first reply.',
        body: CreateContractBody,
        response: { 201: contractRef, ...problemResponses(404, 409, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const created = await core.create(authenticatedContext(req), req.body as DealInput)
      setEtag(res, created.version)
      res.code(201).header('location', `/api/contracts/${created.id}`)
      return created
    },
  )

  app.post(
    '/api/contracts/draftdocument',
    {
      schema: {
        tags: TAGS,
        operationId: 'renderDraftDocument',
        summary: 'Produce a draft contract PDF for a deal, without creating a contract',
        description:
          'Digital retailing: the deal as it would be sent to POST /api/contracts, checked the same way (the same 422s), answered with a PDF marked DRAFT on every page. Nothing is stored.',
        body: DraftDocumentBody,
        response: {
          200: {
            description: 'The draft PDF',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...problemResponses(404, 422),
        },
      },
      // Nothing is stored, so a retry simply renders again; an idempotency record could not hold the PDF.
      config: { ...WRITE, idempotent: false },
    },
    async (req, typedReply) => {
      // The reply is PDF bytes, which the typed reply of a binary schema does not model.
      const reply = typedReply as FastifyReply
      const pdf = await lifecycle.draftForDeal(authenticatedContext(req), req.body as DealInput)
      reply.type('application/pdf').header('content-disposition', 'inline; filename="contract-draft.pdf"')
      return reply.send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength))
    },
  )

  app.get(
    '/api/contracts',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContracts',
        summary: 'Search contracts',
        description:
          "Filters combine (AND): contract number, VIN (whole or its last characters), the start of the holder's name or of a word of it, dealer, status, sale and creation dates. Newest first unless `sort` orders otherwise (ties by id); bounded by limit/offset; the total is in X-Total-Count. Dealer-side users see their dealers' contracts only.",
        querystring: SearchQuery,
        response: { 200: Type.Array(summaryRef), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => sendList(res, await core.search(authenticatedContext(req), req.query, listWindow(req.query))),
  )

  app.get(
    '/api/v2/contracts',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractsV2',
        summary: 'Search contracts (paged)',
        description:
          'The same filters as GET /api/contracts, answered as a page: items, pageNumber, pageSize, totalCount, totalPages.',
        querystring: PagedSearchQuery,
        response: { 200: Paged(summaryRef, 'ContractSearchResults'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const window = pageWindow(req.query)
      const result = await core.search(authenticatedContext(req), req.query, window)
      return toPage(result.items, result.totalCount, window)
    },
  )

  app.get(
    '/api/v2/contracts/:identifier',
    {
      schema: {
        tags: TAGS,
        operationId: 'getContractV2',
        summary: 'Read a contract by id or contract number',
        params: IdentifierParams,
        response: { 200: contractRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const c = await core.getByIdentifier(authenticatedContext(req), req.params.identifier)
      setEtag(res, c.version)
      return c
    },
  )

  app.get(
    '/api/contracts/holdreasons',
    {
      schema: {
        tags: TAGS,
        operationId: 'listHoldReasons',
        summary: 'List the reasons a contract can be put on hold',
        response: { 200: Type.Array(HoldReasonSchema), ...problemResponses() },
      },
      config: READ,
    },
    async () => HOLD_REASONS.map((r) => ({ code: r.code, name: r.name, description: r.description })),
  )

  app.get(
    '/api/contracts/:contractId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getContract',
        summary: 'Read a contract',
        params: ContractIdParams,
        response: { 200: contractRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const c = await core.get(authenticatedContext(req), req.params.contractId)
      setEtag(res, c.version)
      return c
    },
  )

  app.patch(
    '/api/contracts/:contractId',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateContract',
        summary: 'Change a pending contract',
        description:
          'JSON Patch (application/json-patch+json) or JSON Merge Patch (application/merge-patch+json; plain application/json is read as a merge patch) over the editable representation: ' +
          'effectiveDate, retailPrice, customer, coBuyer, lienHolderId / lienHolder, finance (monthlyPayment, firstPaymentDate, balloonAmount, residualValue), dealNumber, salesPerson, financeManager, customFields, taxExempt. ' +
          'contractNumber, status, quoteId, rateId, saleDate, saleOdometer, vin and dealerNumber cannot change (422 immutable_field): a different price needs a new quote. ' +
          'Only while PENDING (409 contract_state_conflict). If-Match: 412 on a stale version. ' +
          LOCKED,
        params: ContractIdParams,
        body: PatchBody({ dealNumber: 'D-88124' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: contractRef, ...problemResponses(404, 409, 412, 422, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await core.patch(
        authenticatedContext(req),
        req.params.contractId,
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(res, changed.version)
      return changed
    },
  )

  app.post(
    '/api/contracts/:contractId/finalize',
    {
      schema: {
        tags: TAGS,
        operationId: 'finalizeContract',
        summary: 'Finalize a pending contract',
        description:
          "Posts the contract's money as one balanced journal entry (a receivable from the dealer for the dealer cost; a payable to each line's payee), produces the final contract PDF, " +
          'and makes the contract ACTIVE at once when its effective date has come (FINALIZED until then). 409 contract_on_hold while holds are unresolved; 409 contract_state_conflict unless PENDING. ' +
          LOCKED,
        params: ContractIdParams,
        body: Type.Optional(EmptyBody),
        response: { 200: PostingSchema, ...problemResponses(404, 409, 423) },
      },
      preValidation: noBodyIsEmpty,
      config: FINALIZE,
    },
    async (req) => lifecycle.finalize(authenticatedContext(req), req.params.contractId),
  )

  app.post(
    '/api/contracts/:contractId/refinalize',
    {
      schema: {
        tags: TAGS,
        operationId: 'refinalizeContract',
        summary: 'Post a finalized contract again after a correction',
        description:
          "Posts only the difference between what the contract's lines call for now and what its journal entries already hold (journalEntry is null when there is none), and produces the final PDF again. " +
          'Only FINALIZED or ACTIVE contracts (409 contract_state_conflict). ' +
          LOCKED,
        params: ContractIdParams,
        body: Type.Optional(EmptyBody),
        response: { 200: PostingSchema, ...problemResponses(404, 409, 423) },
      },
      preValidation: noBodyIsEmpty,
      config: FINALIZE,
    },
    async (req) => lifecycle.refinalize(authenticatedContext(req), req.params.contractId),
  )

  app.get(
    '/api/contracts/:contractId/holds',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractHolds',
        summary: 'List the holds of a contract',
        description: 'Resolved and open, oldest first.',
        params: ContractIdParams,
        response: { 200: Type.Array(holdRef), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => lifecycle.holds(authenticatedContext(req), req.params.contractId),
  )

  app.post(
    '/api/contracts/:contractId/holds',
    {
      schema: {
        tags: TAGS,
        operationId: 'createContractHold',
        summary: 'Put a pending contract on hold',
        description: 'A hold blocks finalization until it is resolved. Only while PENDING (409). ' + LOCKED,
        params: ContractIdParams,
        body: CreateHoldBody,
        response: { 201: holdRef, ...problemResponses(404, 409, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const hold = await lifecycle.placeHold(authenticatedContext(req), req.params.contractId, req.body)
      res.code(201).header('location', `/api/contracts/${req.params.contractId}/holds/${hold.holdId}/resolves`)
      return hold
    },
  )

  app.get(
    '/api/contracts/:contractId/holds/:holdId/resolves',
    {
      schema: {
        tags: TAGS,
        operationId: 'getContractHoldResolution',
        summary: 'Read the resolution of a hold',
        description: 'Empty while the hold is open.',
        params: HoldParams,
        response: { 200: Type.Array(ResolutionSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => lifecycle.resolutions(authenticatedContext(req), req.params.contractId, req.params.holdId),
  )

  app.post(
    '/api/contracts/:contractId/holds/:holdId/resolves',
    {
      schema: {
        tags: TAGS,
        operationId: 'resolveContractHold',
        summary: 'Resolve a hold',
        description: '409 hold_already_resolved when it was resolved before. Only while PENDING. ' + LOCKED,
        params: HoldParams,
        body: Type.Optional(ResolveHoldBody),
        response: { 201: ResolutionSchema, ...problemResponses(404, 409, 423) },
      },
      preValidation: noBodyIsEmpty,
      config: WRITE,
    },
    async (req, res) => {
      res.code(201)
      return lifecycle.resolveHold(authenticatedContext(req), req.params.contractId, req.params.holdId, req.body ?? {})
    },
  )

  app.get(
    '/api/contracts/:contractId/lock',
    {
      schema: {
        tags: TAGS,
        operationId: 'getContractLock',
        summary: 'Read the edit lock of a contract',
        params: ContractIdParams,
        response: { 200: LockSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => lifecycle.lockStatus(authenticatedContext(req), req.params.contractId),
  )

  app.post(
    '/api/contracts/:contractId/lock',
    {
      schema: {
        tags: TAGS,
        operationId: 'createContractLock',
        summary: 'Take or renew the edit lock',
        description:
          'The lock lasts 15 minutes unless renewed; while it is held, changes by any other user answer 423 contract_locked. 423 when another user holds it.',
        params: ContractIdParams,
        body: Type.Optional(EmptyBody),
        response: { 200: LockSchema, ...problemResponses(404, 423) },
      },
      preValidation: noBodyIsEmpty,
      config: WRITE,
    },
    async (req) => lifecycle.lock(authenticatedContext(req), req.params.contractId),
  )

  app.delete(
    '/api/contracts/:contractId/lock',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteContractLock',
        summary: 'Release the edit lock',
        description: '204 also when no lock is held. 423 when another user holds it.',
        params: ContractIdParams,
        response: { 204: Type.Null(), ...problemResponses(404, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      await lifecycle.unlock(authenticatedContext(req), req.params.contractId)
      return res.code(204).send(null)
    },
  )

  app.post(
    '/api/contracts/:contractId/cobuyer',
    {
      schema: {
        tags: TAGS,
        operationId: 'setContractCoBuyer',
        summary: 'Set the co-buyer of a pending contract',
        description: 'Replaces any co-buyer. Only while PENDING. ' + LOCKED,
        params: ContractIdParams,
        body: CoBuyerBody,
        response: { 200: contractRef, ...problemResponses(404, 409, 422, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const c = await lifecycle.setCoBuyer(authenticatedContext(req), req.params.contractId, req.body)
      setEtag(res, c.version)
      return c
    },
  )

  app.delete(
    '/api/contracts/:contractId/cobuyer',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteContractCoBuyer',
        summary: 'Remove the co-buyer of a pending contract',
        description: '204 also when there is none. Only while PENDING. ' + LOCKED,
        params: ContractIdParams,
        response: { 204: Type.Null(), ...problemResponses(404, 409, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      await lifecycle.removeCoBuyer(authenticatedContext(req), req.params.contractId)
      return res.code(204).send(null)
    },
  )

  app.get(
    '/api/contracts/:contractId/documents',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractDocuments',
        summary: "List the contract's documents",
        description:
          'The contract PDF document with its versions (drafts while pending, the final document from finalization), each with a signed download link. Uploaded files are under /files.',
        params: ContractIdParams,
        response: { 200: Type.Array(DocumentSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => lifecycle.documentsOf(authenticatedContext(req), req.params.contractId),
  )

  app.post(
    '/api/contracts/:contractId/documents',
    {
      schema: {
        tags: TAGS,
        operationId: 'createContractDocument',
        summary: 'Produce the contract PDF now',
        description:
          "A new version of the contract's PDF document: a draft (marked DRAFT on every page) while PENDING, the final document once finalized. 409 for a voided contract.",
        params: ContractIdParams,
        body: Type.Optional(EmptyBody),
        response: { 201: DocumentSchema, ...problemResponses(404, 409) },
      },
      preValidation: noBodyIsEmpty,
      config: WRITE,
    },
    async (req, res) => {
      const doc = await lifecycle.produceDocument(authenticatedContext(req), req.params.contractId)
      res.code(201).header('location', `/api/documents/${doc.documentId}`)
      return doc
    },
  )

  app.get(
    '/api/contracts/:contractId/coveragegroups',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractCoverageGroups',
        summary: 'List the coverage groups of a contract',
        description: 'As the plan described them when the contract was sold.',
        params: ContractIdParams,
        response: { 200: Type.Array(CoverageGroupSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => lifecycle.coverageGroups(authenticatedContext(req), req.params.contractId),
  )

  app.get(
    '/api/contracts/:contractId/coveragecomponents',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractCoverageComponents',
        summary: 'List the covered components of a contract',
        description: 'Every component of every coverage group, with its group.',
        params: ContractIdParams,
        response: { 200: Type.Array(CoverageComponentSchema), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => lifecycle.coverageComponents(authenticatedContext(req), req.params.contractId),
  )

  app.get(
    '/api/contracts/:contractId/statushistory',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractStatusHistory',
        summary: 'List the status changes of a contract',
        description:
          'Every change of status, oldest first: the creation, finalization, activation, and what servicing applies (void, expiry, cancellation, reinstatement), each with the day it takes effect, what made it (source) and who recorded it. ' +
          'Contracts sold before the history existed show changes rebuilt from their dates (source BACKFILL). Paged; visible as the contract is.',
        params: ContractIdParams,
        querystring: StatusHistoryQuery,
        response: { 200: Paged(statusChangeRef, 'ContractStatusHistory'), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => {
      const window = pageWindow(req.query)
      const result = await servicing.statusHistory(authenticatedContext(req), req.params.contractId, window)
      return toPage(result.items, result.totalCount, window)
    },
  )
}
