// Claim inspections over HTTP (docs/claims.md "Inspections"). The static `/api/claims/inspections…`
// segments live beside `/api/claims/:claimId` (an integer): find-my-way matches a static segment
// first, so both answer. An inspection's file upload is the documents module's store, behind a
// nested plugin whose body parsers (the documents' allow-listed types, as a stream) are its own.
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { Readable } from 'node:stream'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { platformErrors } from '../../platform/http/errors.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { Paged, problemResponses } from '../../platform/http/schemas.ts'
import { validatedExcept } from '../../platform/http/validation.ts'
import {
  ALLOWED_CONTENT_TYPES,
  defaultFileName,
  DocumentSchema,
  fileNameFromDisposition,
  normalizeContentType,
  StagedUpload,
  type DocumentService,
} from '../documents/index.ts'
import {
  ClaimInspectionClaimParams,
  ClaimInspectionParams,
  ClaimInspectionSchema,
  InspectionFileParams,
  InspectionIndexQuery,
  InspectionReplaceSchema,
  InspectionRequestSchema,
  InspectionUploadQuery,
  SyncPatchSchema,
  SyncPutSchema,
  TakeRejectParams,
  TakeRejectSchema,
} from './claim-inspections.schemas.ts'
import { INSPECTION_FILE, INSPECTION_OWNER, type ClaimInspectionService } from './claim-inspections.service.ts'

const TAGS = ['Claims']
const READ = { permission: 'claims:read' }
const WRITE = { permission: 'claims:write' }
const inspectionRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimInspection#' })

const COMPANY =
  "Only the company's own users (its account holder id among the caller's: a portal visibility group listing it) and the administrator's staff may; to anyone else the inspection is a 404 claim_inspection_not_found."
const REPORT_RULES =
  "A report's rules: REQUESTED → TAKEN or REJECTED, REQUESTED or TAKEN → COMPLETED; the same status again changes only the results given (409 claim_inspection_state_conflict otherwise). 422 claim_inspection_invalid lists every problem: a rejection without rejectReasonId or with one that is not the tenant's (unknown_lookup, inactive_lookup); results with another status than COMPLETED (not_allowed); a completion without findings or completedAt (required), findings of blanks, completedAt in the future, inspectedOn before the claim's loss date, inspectedOdometer below the claim's odometer. TAKEN and REJECTED need the claim PENDING_INSPECTION (409 claim_state_conflict otherwise); COMPLETED gives a claim PENDING_INSPECTION COMPLETE_INSPECTION → OPEN (a claim decided meanwhile keeps its status)."

export const claimInspectionRoutes: FastifyPluginAsyncTypebox<{
  inspections: ClaimInspectionService
  documents: Pick<DocumentService, 'stage' | 'store' | 'maxBytes'>
}> = async (app, { inspections, documents }) => {
  app.addSchema(ClaimInspectionSchema)

  app.post(
    '/api/claims/:claimId/inspections',
    {
      schema: {
        tags: TAGS,
        operationId: 'createClaimInspection',
        summary: 'Request an inspection of a claim',
        description:
          "Asks an inspection company to inspect the claim's vehicle for a reason, with the company's inspectionFee copied: the inspection is REQUESTED and the claim PENDING_INSPECTION (REQUEST_INSPECTION, from OPEN, or from PENDING_INSPECTION after a rejection). Without inspectionCompanyId the company is the active one with the lowest id serving the repair facility's state (serviceStates); none: 422 inspectionCompanyId required. 409 claim_state_conflict for a claim in another status, claim_inspection_outstanding while one is REQUESTED or TAKEN. 422 claim_inspection_invalid: the reason not the tenant's inspection reason (unknown_lookup) or no longer offered, the company unknown (not_found) or inactive, a note of blanks. 404 for another tenant's claim or one a dealer-side user cannot see. Audited claim_inspection.requested; event claim.inspection_requested.",
        params: ClaimInspectionClaimParams,
        body: InspectionRequestSchema,
        response: { 201: inspectionRef, ...problemResponses(404, 409, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const created = await inspections.request(authenticatedContext(req), req.params.claimId, req.body)
      res.code(201).header('location', `/api/claims/inspections/${created.inspectionId}`)
      setEtag(res, created.version)
      return created
    },
  )

  app.put(
    '/api/claims/:claimId/inspections',
    {
      schema: {
        tags: TAGS,
        operationId: 'replaceClaimInspection',
        summary: "Replace a claim's inspection: change, complete or cancel it",
        description:
          "Replaces the claim's latest inspection; every member is required (400 lists the missing ones; null for none). With its current status: its reason, note and (while REQUESTED) company change. COMPLETED with findings and completedAt (the claim COMPLETE_INSPECTION → OPEN); CANCELLED (the claim CANCEL_INSPECTION → OPEN), also of a REJECTED inspection the claim still waits on. TAKEN and REJECTED are the company's to report (422 status not_allowed); a company change of a TAKEN inspection is 422 not_allowed. 404 claim_inspection_not_found when the claim has none; 409 claim_inspection_state_conflict once it is COMPLETED or CANCELLED (request another), or for a REJECTED one not cancelled. If-Match against the inspection's version (412). " +
          REPORT_RULES,
        params: ClaimInspectionClaimParams,
        body: InspectionReplaceSchema,
        response: { 200: inspectionRef, ...problemResponses(404, 409, 412, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await inspections.replace(
        authenticatedContext(req),
        req.params.claimId,
        req.body,
        expectedVersion(req),
      )
      setEtag(res, changed.version)
      return changed
    },
  )

  app.post(
    '/api/claims/:claimId/inspections/takereject/:claimInspectionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'actOnClaimInspection',
        summary: 'Take or reject an inspection (the inspection company)',
        description: `{ "action": "TAKE" } takes a REQUESTED inspection (TAKEN); { "action": "REJECT", "rejectReasonId": n, "note": "…" } rejects it (REJECTED; the claim stays PENDING_INSPECTION until the adjuster asks another company or cancels). Taking a TAKEN one again changes nothing. ${COMPANY} ${REPORT_RULES} Audited claim_inspection.taken or claim_inspection.rejected.`,
        params: TakeRejectParams,
        body: TakeRejectSchema,
        response: { 200: inspectionRef, ...problemResponses(404, 409, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await inspections.takeReject(
        authenticatedContext(req),
        req.params.claimId,
        req.params.claimInspectionId,
        req.body,
      )
      setEtag(res, changed.version)
      return changed
    },
  )

  app.get(
    '/api/claims/inspections',
    {
      schema: {
        tags: TAGS,
        operationId: 'listClaimInspections',
        summary: 'Search claim inspections (paged): the inspection companies’ work queue',
        description:
          "Filters combine (AND): status, inspection company, claim, requested instants (from inclusive, to exclusive), changed since (updatedFrom). Newest first; a page: items (without files), pageNumber, pageSize, totalCount, totalPages. The administrator's staff see every inspection; any other caller those of its inspection companies and of its dealers' claims.",
        querystring: InspectionIndexQuery,
        response: { 200: Paged(inspectionRef, 'ClaimInspectionSearchResults'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const window = pageWindow(req.query)
      const { pageNumber: _n, pageSize: _s, ...filter } = req.query
      const result = await inspections.list(authenticatedContext(req), filter, window)
      return toPage(result.items, result.totalCount, window)
    },
  )

  app.get(
    '/api/claims/inspections/:claimInspectionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getClaimInspection',
        summary: 'Read a claim inspection',
        description:
          "The inspection with its files. 404 claim_inspection_not_found for another tenant's, or one the caller does not see (neither its company's nor its claim's dealer's user, nor staff).",
        params: ClaimInspectionParams,
        response: { 200: inspectionRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const found = await inspections.get(authenticatedContext(req), req.params.claimInspectionId)
      setEtag(res, found.version)
      return found
    },
  )

  app.patch(
    '/api/claims/inspections/syncinspection',
    {
      schema: {
        tags: TAGS,
        operationId: 'syncClaimInspectionStatus',
        summary: "The inspection company's system reports an inspection's status",
        description: `Reports TAKEN, REJECTED (rejectReasonId) or COMPLETED (findings, completedAt; inspectedOdometer, inspectedOn) of the inspection claimInspectionId (JSON; application/merge-patch+json is read the same). Members left out keep their stored values. ${COMPANY} ${REPORT_RULES}`,
        body: SyncPatchSchema,
        response: { 200: inspectionRef, ...problemResponses(404, 409, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await inspections.sync(authenticatedContext(req), req.body, false)
      setEtag(res, changed.version)
      return changed
    },
  )

  app.put(
    '/api/claims/inspections/syncpostputinspection',
    {
      schema: {
        tags: TAGS,
        operationId: 'syncClaimInspectionReport',
        summary: "The inspection company's system replaces an inspection's report",
        description: `Every member required (400 lists the missing ones; null for none): the status and results of the inspection claimInspectionId as the company's system holds them. ${COMPANY} ${REPORT_RULES}`,
        body: SyncPutSchema,
        response: { 200: inspectionRef, ...problemResponses(404, 409, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await inspections.sync(authenticatedContext(req), req.body, true)
      setEtag(res, changed.version)
      return changed
    },
  )

  // The upload: its own scope, so that its body parsers (a stream of an allowed type) stay its own.
  await app.register(async (scope) => {
    const files = scope.withTypeProvider<TypeBoxTypeProvider>()
    files.removeAllContentTypeParsers()
    files.addContentTypeParser([...ALLOWED_CONTENT_TYPES], (_req, payload, done) => done(null, payload))
    files.addContentTypeParser('*', (req, _payload, done) => {
      try {
        normalizeContentType(req.headers['content-type'])
        done(null, undefined)
      } catch (err) {
        done(err as Error, undefined)
      }
    })
    files.post(
      '/api/claims/:claimId/inspectionfiles/:inspectionId',
      {
        schema: {
          tags: TAGS,
          operationId: 'uploadClaimInspectionFile',
          summary: 'Upload a file (a photo, the report) to a claim inspection',
          description: `The request body is the file itself, with its Content-Type: ${ALLOWED_CONTENT_TYPES.join(', ')} (anything else, or bytes that are not of the type, 415). At most ${documents.maxBytes} bytes (413); an empty body is 400. The file name comes from ?fileName=, else the Content-Disposition header's filename, else document.<ext>. Stored by the documents module (owner type ${INSPECTION_OWNER}, kind ${INSPECTION_FILE}), audited document.created; read with the inspection, or GET /api/documents/{documentId}. The caller must see the inspection (its company's or its claim's dealer's user, or staff; 404 otherwise, as for an inspection of another claim); 409 once the inspection is REJECTED or CANCELLED or the claim VOIDED. Answers 201 with the document, Location naming it.`,
          params: InspectionFileParams,
          querystring: InspectionUploadQuery,
          body: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: "The file's bytes." }),
          consumes: [...ALLOWED_CONTENT_TYPES],
          response: { 201: DocumentSchema, ...problemResponses(404, 409, 413, 415) },
        },
        // The body is a stream, checked while it is staged; the schema documents it.
        validatorCompiler: validatedExcept('body'),
        config: WRITE,
        // Checks the inspection, then stages the body, before the handler (and an Idempotency-Key's hash) sees it.
        preHandler: async (req, reply) => {
          try {
            const { claimId, inspectionId } = req.params
            await inspections.filesOwner(req.ctx, inspectionId, 'write', claimId)
            if (Number(req.headers['content-length']) > documents.maxBytes)
              throw platformErrors.create('payload_too_large', `The file is larger than ${documents.maxBytes} bytes`, {
                extensions: { maxBytes: documents.maxBytes },
              })
            if (req.body === undefined)
              throw platformErrors.create(
                'validation_failed',
                'The request has no body: send the file as the body, with its Content-Type',
                { errors: [{ field: 'body', code: 'required', message: 'is empty' }] },
              )
            req.body = await documents.stage(req.body as Readable, req.headers['content-type'] ?? '')
          } catch (err) {
            // The body may be partly unread; the connection cannot carry another request.
            reply.header('connection', 'close')
            throw err
          }
        },
        onResponse: async (req) => discardStaged(req),
        onRequestAbort: async (req) => discardStaged(req),
      },
      async (req, reply) => {
        const staged = req.body as unknown as StagedUpload
        const { claimId, inspectionId } = req.params
        const fileName =
          req.query.fileName ??
          fileNameFromDisposition(req.headers['content-disposition']) ??
          defaultFileName(normalizeContentType(staged.contentType).type)
        const view = await documents.store(req.ctx, {
          ownerType: INSPECTION_OWNER,
          ownerId: inspectionId,
          kind: INSPECTION_FILE,
          fileName,
          contentType: staged.contentType,
          content: staged,
          ...(req.query.title !== undefined ? { title: req.query.title } : {}),
          // Checked again inside the storing transaction.
          guard: () => inspections.filesOwner(req.ctx, inspectionId, 'write', claimId),
        })
        reply.code(201).header('location', `/api/documents/${view.documentId}`)
        return view
      },
    )
  })
}

async function discardStaged(req: FastifyRequest): Promise<void> {
  if (req.body instanceof StagedUpload) await req.body.discard()
}
