// Disbursement accounts (spec §4.3): where an account holder is paid. List, create, read (masked;
// reveal=true for holders of bankdetails:read, audited), JSON Patch and merge patch.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifySchemaCompiler } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { PATCH_MEDIA_TYPES, PatchBody } from '../../platform/http/patch.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import type { DisbursementAccountFilter } from './disbursement-account.repository.ts'
import {
  CreateDisbursementAccountBody,
  DISBURSEMENT_ACCOUNT_EXAMPLE,
  DisbursementAccountIdParams,
  DisbursementAccountListQuery,
  DisbursementAccountReadQuery,
  DisbursementAccountSchema,
} from './disbursement-account.schemas.ts'
import type { DisbursementAccountService } from './disbursement-account.service.ts'

const TAGS = ['Disbursement accounts']
const COLLECTION = '/api/disbursementaccounts'
const ONE = `${COLLECTION}/:disbursementAccountId`

/**
 * The create body is checked by the service, schema and business rules in one pass, so that a
 * request with a malformed field and a bad check digit hears about both at once. The schema stays
 * on the route for the OpenAPI document.
 */
const validatedByService: FastifySchemaCompiler<unknown> = () => () => true

export const disbursementAccountRoutes: FastifyPluginAsyncTypebox<{ service: DisbursementAccountService }> = async (
  app,
  { service },
) => {
  app.addSchema(DisbursementAccountSchema)
  const ref = Type.Unsafe<Record<string, unknown>>({ $ref: 'DisbursementAccount#' })

  app.get(
    COLLECTION,
    {
      schema: {
        tags: TAGS,
        operationId: 'listDisbursementAccounts',
        summary: 'List disbursement accounts',
        description:
          'Filtered, ordered by id, bounded by limit/offset; the total is in X-Total-Count. Bank numbers are always masked here. ' +
          'Dealer-side users see only the accounts of account holders their groups grant.',
        querystring: DisbursementAccountListQuery,
        response: { 200: Type.Array(ref, { examples: [[DISBURSEMENT_ACCOUNT_EXAMPLE]] }), ...problemResponses() },
      },
      config: { permission: 'accountholders:read' },
    },
    async (req, res) => {
      const q = req.query
      const filter: DisbursementAccountFilter = {
        ...(q.accountHolderId !== undefined ? { accountHolderId: q.accountHolderId } : {}),
        ...(q.paymentMethod !== undefined ? { paymentMethod: q.paymentMethod } : {}),
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.isDefault !== undefined ? { isDefault: q.isDefault } : {}),
      }
      return sendList(res, await service.list(authenticatedContext(req), filter, listWindow(q)))
    },
  )

  app.post(
    COLLECTION,
    {
      schema: {
        tags: TAGS,
        operationId: 'createDisbursementAccount',
        summary: 'Create a disbursement account',
        description:
          'ACH needs bankName, routingNumber, accountNumber and accountType; WIRE the same but accountType is optional; CHECK accepts none of them. ' +
          'Every bad field is listed at once (400), check-digit failures included. accountHolderId must exist and be visible (422 naming it). ' +
          "isDefault: true unsets the holder's previous default in the same transaction. Bank numbers are masked in the reply.",
        body: CreateDisbursementAccountBody,
        response: { 201: ref, ...problemResponses(415, 422) },
      },
      validatorCompiler: validatedByService,
      config: { permission: 'accountholders:write' },
    },
    async (req, res) => {
      const account = await service.create(authenticatedContext(req), req.body as unknown)
      setEtag(res, account.version)
      res.code(201).header('location', `${COLLECTION}/${account.id}`)
      return account
    },
  )

  app.get(
    ONE,
    {
      schema: {
        tags: TAGS,
        operationId: 'getDisbursementAccount',
        summary: 'Read a disbursement account',
        description:
          'Bank numbers are masked unless reveal=true, which needs permission bankdetails:read (403 without it), is answered with Cache-Control: no-store, ' +
          "and is written to the audit trail (who saw which account's bank details).",
        params: DisbursementAccountIdParams,
        querystring: DisbursementAccountReadQuery,
        response: { 200: ref, ...problemResponses(404) },
      },
      config: { permission: 'accountholders:read' },
    },
    async (req, res) => {
      const id = req.params.disbursementAccountId
      if (req.query.reveal !== true) {
        const account = await service.get(authenticatedContext(req), id)
        setEtag(res, account.version)
        return account
      }
      const account = await service.reveal(authenticatedContext(req), id)
      setEtag(res, account.version)
      res.header('cache-control', 'no-store')
      return account
    },
  )

  app.patch(
    ONE,
    {
      schema: {
        tags: TAGS,
        operationId: 'updateDisbursementAccount',
        summary: 'Change a disbursement account',
        description:
          'JSON Patch (application/json-patch+json) or JSON Merge Patch (application/merge-patch+json; plain application/json is read as a merge patch), ' +
          'applied to the masked representation: a masked number left as it is keeps the stored number; to change one, send the full new number. ' +
          'id, accountHolderId, createdAt, updatedAt and version cannot change (422 naming them); the result is validated as a whole (422 listing every field). ' +
          'Switching to CHECK requires the bank fields to be removed (null). If-Match is honoured.',
        params: DisbursementAccountIdParams,
        body: PatchBody({ name: 'Payables account' }),
        consumes: [...PATCH_MEDIA_TYPES],
        response: { 200: ref, ...problemResponses(404, 412, 415, 422) },
      },
      config: { permission: 'accountholders:write' },
    },
    async (req, res) => {
      const account = await service.patch(
        authenticatedContext(req),
        req.params.disbursementAccountId,
        req.body,
        req.headers['content-type'],
        expectedVersion(req),
      )
      setEtag(res, account.version)
      return account
    },
  )
}
