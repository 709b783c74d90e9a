// Claims over HTTP (docs/claims.md "Claims: intake, read, index"): intake, read, the paged index.
// `/api/claims/:claimId` is an integer parameter beside the lookups' static `/api/claims/causes`
// and the like: find-my-way matches a static segment first, so both answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, pageWindow, sendList, toPage } from '../../platform/http/pagination.ts'
import { Paged, problemResponses } from '../../platform/http/schemas.ts'
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
} from './claim.schemas.ts'
import type { ClaimService } from './claim.service.ts'

const TAGS = ['Claims']
const READ = { permission: 'claims:read' }
const WRITE = { permission: 'claims:write' }
const claimRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'Claim#' })
const summaryRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimSummary#' })
const noteRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimNote#' })

const INTAKE = [
  'Takes a claim against a contract at a repair facility: status OPEN, a number from claimNumberFormat, its jobs PENDING with what they ask (totals.requested; nothing is authorized yet).',
  "422 claim_invalid lists every refusal, each naming its field and rule, and nothing is written: the loss date (not a date, before the sale, in the future, before the effective date, after the expiration date, the contract not in force on that day by its status history, within the waiting period), the odometer (missing when the coverage reads miles, below the sale odometer or an earlier claim's, at or past the expiration odometer, within the waiting period in miles), the repair facility (unknown, inactive), the tax rate, a complaint, cause or correction that is not the tenant's (unknown_lookup) or no longer offered, a coverage component the contract's coverage does not have (not_covered), a quantity or hours not above 0 or with more than two places, a negative price or amount.",
  "404 for a contract the caller cannot see (another tenant's, a dealer-side user's other dealers').",
].join(' ')

export const claimRoutes: FastifyPluginAsyncTypebox<{ service: ClaimService }> = async (app, { service }) => {
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
          "Filters combine (AND): status, contract, VIN, dealer, repair facility, loss dates (inclusive), creation instants (from inclusive, to exclusive), adjuster. Newest first; a page: items, pageNumber, pageSize, totalCount, totalPages. Dealer-side users see their dealers' claims only.",
        querystring: ClaimIndexQuery,
        response: { 200: Paged(summaryRef, 'ClaimSearchResults'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const window = pageWindow(req.query)
      const { pageNumber: _n, pageSize: _s, ...filter } = req.query
      const result = await service.list(authenticatedContext(req), filter, window)
      return toPage(result.items, result.totalCount, window)
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
}
