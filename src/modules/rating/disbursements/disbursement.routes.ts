// Account-holder disbursements (docs/disbursements.md): list and create on an account holder, read
// and patch one, read the audit-log entry of a change, and the code/label/group look-ups of the
// active rate book. Reads need rates:read, changes rates:write.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../../platform/http/etag.ts'
import { listWindow, sendList } from '../../../platform/http/pagination.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../../platform/http/patch.ts'
import { problemResponses } from '../../../platform/http/schemas.ts'
import { validatedExcept } from '../../../platform/http/validation.ts'
import {
  AccountHolderIdParams,
  AuditLogIdParams,
  CreateDisbursementBody,
  DISBURSEMENT_EXAMPLE,
  DisbursementAuditEntrySchema,
  DisbursementCodeSchema,
  DisbursementGroupSchema,
  DisbursementIdParams,
  DisbursementLabelSchema,
  DisbursementListQuery,
  DisbursementSchema,
} from './disbursement.schemas.ts'
import type { DisbursementService } from './disbursement.service.ts'

const TAGS = ['Disbursements']
const BASE = '/api/Rates/Disbursements'
const READ = { permission: 'rates:read' }
const WRITE = { permission: 'rates:write' }

/**
 * The create body is checked by the service, schema and rules in one pass, so that every bad field
 * is listed at once; path parameters are validated (and coerced) as on every route.
 */
const bodyByService = validatedExcept('body')

export const disbursementRoutes: FastifyPluginAsyncTypebox<{ service: DisbursementService }> = async (
  app,
  { service },
) => {
  app.addSchema(DisbursementSchema)
  app.addSchema(DisbursementAuditEntrySchema)
  const ref = Type.Unsafe<Record<string, unknown>>({ $ref: 'RateDisbursement#' })

  app.get(
    `${BASE}/DisbursementsCodes`,
    {
      schema: {
        operationId: 'listDisbursementCodes',
        tags: TAGS,
        summary: 'List the disbursement codes of the active rate book',
        description:
          'Each code with its label and group, ordered by code. Empty while the tenant has no rate book in effect.',
        response: { 200: Type.Array(DisbursementCodeSchema), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => service.codes(authenticatedContext(req)),
  )

  app.get(
    `${BASE}/DisbursementsLabels`,
    {
      schema: {
        operationId: 'listDisbursementLabels',
        tags: TAGS,
        summary: 'List the disbursement labels of the active rate book',
        description:
          'Each distinct label with the codes that carry it, ordered by label. Empty while the tenant has no rate book in effect.',
        response: { 200: Type.Array(DisbursementLabelSchema), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => service.labels(authenticatedContext(req)),
  )

  app.get(
    `${BASE}/DisbursementsGroups`,
    {
      schema: {
        operationId: 'listDisbursementGroups',
        tags: TAGS,
        summary: 'List the groups of disbursement codes',
        description: 'The fixed groups every rate-book code belongs to, with what each stands for.',
        response: { 200: Type.Array(DisbursementGroupSchema), ...problemResponses() },
      },
      config: READ,
    },
    async () => service.groups(),
  )

  app.get(
    `${BASE}/AuditLog/:auditLogId`,
    {
      schema: {
        operationId: 'getDisbursementAuditLogEntry',
        tags: TAGS,
        summary: 'Read the audit-log entry of a disbursement change',
        description:
          'The entry named by `auditLogId` in a disbursement reply: who changed the disbursement, when, the members that changed, and the disbursement before and after. ' +
          'Entries that record anything else, or a disbursement the caller may not see, answer 404.',
        params: AuditLogIdParams,
        response: {
          200: Type.Unsafe<Record<string, unknown>>({ $ref: 'RateDisbursementAuditEntry#' }),
          ...problemResponses(404),
        },
      },
      config: READ,
    },
    async (req) => service.auditEntry(authenticatedContext(req), req.params.auditLogId),
  )

  app.get(
    `${BASE}/AccountHolder/:accountHolderId`,
    {
      schema: {
        tags: TAGS,
        operationId: 'listAccountHolderDisbursements',
        summary: 'List the disbursements of an account holder',
        description:
          'Ordered by id, bounded by limit/offset; the total is in X-Total-Count. effectiveOn keeps those that apply to sales of that date. ' +
          'The account holder must be a dealer, dealer group or agent (422 otherwise); dealer-side users see only their own dealers (404 otherwise).',
        params: AccountHolderIdParams,
        querystring: DisbursementListQuery,
        response: { 200: Type.Array(ref, { examples: [[DISBURSEMENT_EXAMPLE]] }), ...problemResponses(404, 422) },
      },
      config: READ,
    },
    async (req, res) => {
      const q = req.query
      const filter = {
        ...(q.effectiveOn !== undefined ? { effectiveOn: q.effectiveOn } : {}),
        ...(q.code !== undefined ? { code: q.code } : {}),
      }
      return sendList(
        res,
        await service.list(authenticatedContext(req), req.params.accountHolderId, filter, listWindow(q)),
      )
    },
  )

  app.post(
    `${BASE}/AccountHolder/:accountHolderId`,
    {
      schema: {
        tags: TAGS,
        operationId: 'createAccountHolderDisbursement',
        summary: 'Create a disbursement on an account holder',
        description:
          'Attaches a disbursement to a dealer, dealer group or agent (other kinds: 422 disbursement_holder_kind_not_allowed). ' +
          "basis AMOUNT needs amount (2 places); PERCENT needs percent (4 places, of the rate's base dealer cost). Every bad field is listed at once (400). " +
          '`code` must be a code of the active rate book, and target ids catalogue items of the right kind (422 unknown_reference naming each). ' +
          "The reply's auditLogId names the audit-log entry of the creation.",
        params: AccountHolderIdParams,
        body: CreateDisbursementBody,
        response: { 201: ref, ...problemResponses(404, 415, 422) },
      },
      validatorCompiler: bodyByService,
      config: WRITE,
    },
    async (req, res) => {
      const created = await service.create(authenticatedContext(req), req.params.accountHolderId, req.body as unknown)
      setEtag(res, created.version)
      res.code(201).header('location', `${BASE}/${created.id}`)
      return created
    },
  )

  app.get(
    `${BASE}/:disbursementId`,
    {
      schema: {
        tags: TAGS,
        operationId: 'getDisbursement',
        summary: 'Read a disbursement',
        description: 'auditLogId names the audit-log entry of its latest change.',
        params: DisbursementIdParams,
        response: { 200: ref, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const found = await service.get(authenticatedContext(req), req.params.disbursementId)
      setEtag(res, found.version)
      return found
    },
  )

  app.patch(
    `${BASE}/:disbursementId`,
    {
      schema: {
        tags: TAGS,
        operationId: 'updateDisbursement',
        summary: 'Change a disbursement',
        description:
          'JSON Patch (application/json-patch+json) or JSON Merge Patch (application/merge-patch+json; plain application/json is read as a merge patch), ' +
          'applied to the reply representation. id, accountHolderId, accountHolderKind, label and group (which follow the code), createdAt, updatedAt, version and auditLogId ' +
          'cannot change (422 naming them); the result is validated as a whole (422 listing every field). A changed code must be one of the active rate book. ' +
          'There is no DELETE: end a disbursement by setting effectiveTo (the last sale date it applies to). If-Match is honoured. ' +
          "The reply's auditLogId names the audit-log entry of this change.",
        params: DisbursementIdParams,
        body: PatchBody({ effectiveTo: '2026-12-31' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: ref, ...problemResponses(404, 412, 415, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const changed = await service.patch(
        authenticatedContext(req),
        req.params.disbursementId,
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(res, changed.version)
      return changed
    },
  )
}
