// Claims over HTTP (docs/claims.md "Claims: intake, read, index"): intake, read, the paged index.
// `/api/claims/:claimId` is an integer parameter beside the lookups' static `/api/claims/causes`
// and the like: find-my-way matches a static segment first, so both answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, pageWindow, sendList, toPageJson } from '../../platform/http/pagination.ts'
import { EmptyBody, Paged, noBodyIsEmpty, problemResponses } from '../../platform/http/schemas.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../platform/http/patch.ts'
import { Type } from 'typebox'
import {
  ClaimBodySchema,
  ClaimEditSchema,
  ClaimIdParams,
  ClaimIndexQuery,
  ClaimNoteBodySchema,
  ClaimNoteListQuery,
  ClaimNoteParams,
  ClaimNoteSchema,
  ClaimSchema,
  ClaimSummarySchema,
  ClaimBenefitSchema,
  ClaimLockSchema,
  ClaimPaymentRequestSchema,
  ClaimPaymentSchema,
  PaymentBodySchema,
  PaymentRequestBodySchema,
  PaymentRequestParams,
} from './claim.schemas.ts'
import type { ClaimService } from './claim.service.ts'
import type { ClaimPayments } from './claim-payments.service.ts'

const TAGS = ['Claims']
const READ = { permission: 'claims:read' }
const WRITE = { permission: 'claims:write' }
/** Authorizing, denying and paying claims (docs/permissions.md). */
const APPROVE = { permission: 'claims:approve' }
const claimRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Claim#' })
const summaryRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimSummary#' })
const noteRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimNote#' })

const INTAKE = [
  'Takes a claim against a contract at a repair facility: status OPEN, a number from claimNumberFormat, its jobs PENDING with what they ask (totals.requested; nothing is authorized yet).',
  "422 claim_invalid lists every refusal, each naming its field and rule, and nothing is written: the loss date (not a date, before the sale, in the future, before the effective date, after the expiration date, the contract not in force on that day by its status history, within the waiting period), the odometer (missing when the coverage reads miles, below the sale odometer or an earlier claim's, at or past the expiration odometer, within the waiting period in miles), the repair facility (unknown, inactive), the tax rate, a complaint, cause or correction that is not the tenant's (unknown_lookup) or no longer offered, a coverage component the contract's coverage does not have (not_covered), a quantity or hours not above 0 or with more than two places, a negative price or amount.",
  "404 for a contract the caller cannot see (another tenant's, a dealer-side user's other dealers').",
].join(' ')

export const claimRoutes: FastifyPluginAsyncTypebox<{ service: ClaimService; payments: ClaimPayments }> = async (
  app,
  { service, payments },
) => {
  app.addSchema(ClaimPaymentSchema)
  app.addSchema(ClaimPaymentRequestSchema)
  app.addSchema(ClaimBenefitSchema)
  app.addSchema(ClaimLockSchema)
  app.addSchema(ClaimSchema)
  app.addSchema(ClaimSummarySchema)
  app.addSchema(ClaimNoteSchema)

  app.post(
    '/api/claims',
    {
      schema: {
        tags: TAGS,
        operationId: 'createClaim',
        summary: 'Take a claim',
        description: INTAKE,
        body: ClaimBodySchema,
        response: { 201: claimRef, ...problemResponses(404, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const created = await service.create(authenticatedContext(req), req.body)
      res.code(201)
      return created
    },
  )

  app.get(
    '/api/claims/:claimId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getClaim',
        summary: 'Read a claim',
        description:
          "The claim with its jobs and totals (payloads.md §7), and how many notes (those the caller may read) and documents it has. Holds, benefits, payment requests and inspection come with later parts of the claims issue: [] and null until then. 404 for another tenant's claim or one of a contract a dealer-side user cannot see.",
        params: ClaimIdParams,
        response: { 200: claimRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.get(authenticatedContext(req), req.params.claimId),
  )

  const EDIT = [
    "The jobs are checked as at intake (the tenant's three Cs, a component of the contract's coverage, the lines) and stored PENDING; the totals are recomputed. 422 claim_invalid lists every problem, nothing written.",
    'Only while OPEN, PENDING_INSPECTION or AUTHORIZED (409 claim_state_conflict). If-Match: 412 on a stale version; the reply carries the new ETag.',
    "423 claim_locked while another user holds the claim's edit lock. 404 for another tenant's claim or one a dealer-side user cannot see.",
  ].join(' ')

  app.put(
    '/api/claims/:claimId',
    {
      schema: {
        tags: TAGS,
        operationId: 'replaceClaim',
        summary: "Replace a claim's repair order, contact, tax rate and jobs",
        description: `Every member is required (400 lists the missing ones). ${EDIT}`,
        params: ClaimIdParams,
        body: ClaimEditSchema,
        response: { 200: claimRef, ...problemResponses(404, 409, 412, 422, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await service.update(
        authenticatedContext(req),
        req.params.claimId,
        req.body,
        expectedVersion(req),
      )
      setEtag(res, changed.version)
      return changed
    },
  )

  app.patch(
    '/api/claims/:claimId',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateClaim',
        summary: 'Change a claim',
        description:
          'JSON Patch (application/json-patch+json) or JSON Merge Patch (application/merge-patch+json; plain application/json is read as a merge patch) over { contractId, lossDate, odometer, repairFacilityId, repairOrderNumber, taxRate, contact, jobs } (a job as PUT takes it). contractId, lossDate, odometer and repairFacilityId cannot change (422 immutable_field). ' +
          EDIT,
        params: ClaimIdParams,
        body: PatchBody({ repairOrderNumber: 'RO-44822' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: claimRef, ...problemResponses(404, 409, 412, 422, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await service.patch(
        authenticatedContext(req),
        req.params.claimId,
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(res, changed.version)
      return changed
    },
  )

  app.get(
    '/api/claims',
    {
      schema: {
        tags: TAGS,
        operationId: 'listClaims',
        summary: 'Search claims (paged)',
        description:
          "Filters combine (AND): status, contract, VIN, dealer, repair facility, loss dates (inclusive), creation instants (from inclusive, to exclusive), adjuster. Newest first; a page: items, pageNumber, pageSize, totalCount, totalPages. A user who is not the administrator's staff sees the claims of its portal groups' dealers (their contracts) and repair facilities (repaired there) only.",
        querystring: ClaimIndexQuery,
        response: { 200: Paged(summaryRef, 'ClaimSearchResults'), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => {
      const window = pageWindow(req.query)
      const { pageNumber: _n, pageSize: _s, ...filter } = req.query
      const result = await service.list(authenticatedContext(req), filter, window)
      // The items are the database's JSON text in the reply's shape (claim.repository searchClaims):
      // a JSON string is sent as it is, past the schema's serializer (the typed reply wants the object).
      return res
        .type('application/json; charset=utf-8')
        .send(toPageJson(result.itemsJson, result.totalCount, window) as never)
    },
  )

  // Notes (docs/claims.md "Notes and documents"): append-only. The static `notes/all` is matched
  // before the integer `notes/:noteId` (find-my-way takes a static segment first).
  app.post(
    '/api/claims/:claimId/notes',
    {
      schema: {
        tags: TAGS,
        operationId: 'createClaimNote',
        summary: 'Add a note to a claim',
        description:
          "Appends a note (notes are never changed or removed; a correction is another note), audited claim_note.created. Any status takes notes. 422 claim_note_invalid for text of blanks only or a STAFF note from a dealer-side user; 400 for text missing, empty or over 4000 characters. 404 for another tenant's claim or one a dealer-side user cannot see.",
        params: ClaimIdParams,
        body: ClaimNoteBodySchema,
        response: { 201: noteRef, ...problemResponses(404, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const note = await service.addNote(authenticatedContext(req), req.params.claimId, req.body)
      res.code(201).header('location', `/api/claims/${req.params.claimId}/notes/${note.id}`)
      return note
    },
  )

  app.get(
    '/api/claims/:claimId/notes/all',
    {
      schema: {
        tags: TAGS,
        operationId: 'listClaimNotes',
        summary: "List a claim's notes",
        description:
          "Every note of the claim the caller may read (dealer-side users: ALL notes only), oldest first, as an array bounded by limit/offset, the whole count in X-Total-Count. 404 for another tenant's claim or one a dealer-side user cannot see.",
        params: ClaimIdParams,
        querystring: ClaimNoteListQuery,
        response: { 200: Type.Array(noteRef), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, reply) =>
      sendList(reply, await service.listNotes(authenticatedContext(req), req.params.claimId, listWindow(req.query))),
  )

  app.get(
    '/api/claims/:claimId/notes/:noteId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getClaimNote',
        summary: 'Read a note of a claim',
        description:
          "404 claim_note_not_found for a note of another claim, or a STAFF note to a dealer-side user; 404 claim_not_found for another tenant's claim or one a dealer-side user cannot see.",
        params: ClaimNoteParams,
        response: { 200: noteRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.getNote(authenticatedContext(req), req.params.claimId, req.params.noteId),
  )

  app.get(
    '/api/claims/:claimId/claimbenefits',
    {
      schema: {
        tags: TAGS,
        operationId: 'listClaimBenefits',
        summary: "List a claim's benefits",
        description:
          "The claim's benefit lines (rental, towing, trip interruption) in order: what was asked, the adjuster's decision and what each pays within the plan's caps (per day, days, per occurrence, per claim). They are set by PATCH /api/claims/{claimId} (`benefits`). 404 for a claim the caller cannot see.",
        params: ClaimIdParams,
        response: {
          200: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimBenefit#' })),
          ...problemResponses(404),
        },
      },
      config: READ,
    },
    async (req) => service.benefits(authenticatedContext(req), req.params.claimId),
  )

  // Payment requests and payments (docs/claims.md "Payment requests and payments").
  app.post(
    '/api/claims/:claimId/paymentrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'createClaimPaymentRequest',
        summary: 'Request the payment of a claim',
        description:
          "The payee's invoice against the authorization: the claim must be AUTHORIZED (409 claim_state_conflict), off hold (409 claim_on_hold), its authorization valid (409 claim_authorization_missing, claim_authorization_expired) and something payable (409 claim_nothing_payable). The amount is the lesser of the claim's payable and the invoiced total. One balanced entry CLAIM_APPROVED: Dr CLAIM_EXPENSE of the risk bearer (the payee of the contract's reserve line), Cr CLAIM_PAYABLE of the payee (the claim's payee; the repair facility when none was chosen). The claim goes PENDING_PAYMENT; audited claim.payment_requested. 422 claim_payment_invalid for an invoice date in the future or before the loss, an invoiced total with more than two places or negative. A PATCH setting the status back to AUTHORIZED withdraws the request (before any payment), reversing its entry.",
        params: ClaimIdParams,
        body: PaymentRequestBodySchema,
        response: {
          201: Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimPaymentRequest#' }),
          ...problemResponses(404, 409, 422, 423),
        },
      },
      config: APPROVE,
    },
    async (req, res) => {
      const created = await payments.request(authenticatedContext(req), req.params.claimId, req.body)
      res.code(201).header('location', `/api/claims/${req.params.claimId}`)
      return created
    },
  )

  app.post(
    '/api/claims/:claimId/paymentrequests/:paymentRequestId/payments',
    {
      schema: {
        tags: TAGS,
        operationId: 'createClaimPayment',
        summary: 'Record a payment of a claim',
        description:
          "Money paid on the claim's open payment request, more than 0 (422 claim_payment_not_positive) and at most what is left of it (422 claim_payment_above_payable); not while the claim is on hold (409 claim_on_hold). One balanced entry CLAIM_PAID: Dr CLAIM_PAYABLE of the payee, Cr CASH of the administrator company. The claim is PAID when the request is paid in full, else PARTIALLY_PAID; audited claim.paid, event claim.paid. 404 claim_payment_request_not_found for another claim's request; 409 for a request PAID or WITHDRAWN. Beyond the spec's list: the cash issue's disbursement runs record their payments the same way.",
        params: PaymentRequestParams,
        body: PaymentBodySchema,
        response: {
          201: Type.Object({
            ...ClaimPaymentSchema.properties,
            claimStatus: Type.String({ description: "The claim's status after the payment." }),
            claimPaidTotal: Type.Number({ description: 'Paid on the claim so far.' }),
          }),
          ...problemResponses(404, 409, 422, 423),
        },
      },
      config: APPROVE,
    },
    async (req, res) => {
      const created = await payments.pay(
        authenticatedContext(req),
        req.params.claimId,
        req.params.paymentRequestId,
        req.body,
      )
      res.code(201)
      return created
    },
  )

  // The adjuster's edit lock (as a contract's): while it is held, changes by any other user answer 423.
  const lockRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimLock#' })
  app.get(
    '/api/claims/:claimId/lock',
    {
      schema: {
        tags: TAGS,
        operationId: 'getClaimLock',
        summary: 'Read the edit lock of a claim',
        params: ClaimIdParams,
        response: { 200: lockRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.lockStatus(authenticatedContext(req), req.params.claimId),
  )

  app.post(
    '/api/claims/:claimId/lock',
    {
      schema: {
        tags: TAGS,
        operationId: 'createClaimLock',
        summary: 'Take or renew the edit lock of a claim',
        description:
          "The lock lasts 15 minutes unless renewed; while it is held, changes by any other user (PUT, PATCH, payment requests and payments) answer 423 claim_locked. 423 when another user holds it. Audited claim.locked. Beyond the spec's list, as contracts have it.",
        params: ClaimIdParams,
        body: Type.Optional(EmptyBody),
        response: { 200: lockRef, ...problemResponses(404, 423) },
      },
      preValidation: noBodyIsEmpty,
      config: WRITE,
    },
    async (req) => service.lock(authenticatedContext(req), req.params.claimId),
  )

  app.delete(
    '/api/claims/:claimId/lock',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteClaimLock',
        summary: 'Release the edit lock of a claim',
        description: '204 also when no lock is held. 423 when another user holds it. Audited claim.unlocked.',
        params: ClaimIdParams,
        response: { 204: Type.Null(), ...problemResponses(404, 423) },
      },
      config: WRITE,
    },
    async (req, res) => {
      await service.unlock(authenticatedContext(req), req.params.claimId)
      return res.code(204).send(null)
    },
  )
}
