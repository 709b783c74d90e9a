// Payment methods over HTTP (docs/payment-methods.md). Reads finance:read, writes finance:write.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import {
  PaymentMethodBodySchema,
  PaymentMethodIdParams,
  PaymentMethodListQuerySchema,
  PaymentMethodSchema,
  ResolutionSchema,
  ResolveBodySchema,
} from './payment-method.schemas.ts'
import type { PaymentMethodService } from './payment-method.service.ts'

const TAGS = ['Payment methods']
const READ = { permission: 'finance:read' } as const
const WRITE = { permission: 'finance:write' } as const
const ref = Type.Unsafe<Record<string, unknown>>({ $ref: 'AvailablePaymentMethod#' })

export const paymentMethodRoutes: FastifyPluginAsyncTypebox<{ service: PaymentMethodService }> = async (
  app,
  { service },
) => {
  app.addSchema(PaymentMethodSchema)

  app.get(
    '/api/availablePaymentMethods',
    {
      schema: {
        tags: TAGS,
        operationId: 'listAvailablePaymentMethods',
        summary: 'List payment-method records of the tenant and account holders',
        description:
          "Filters: accountHolderId, direction, paymentMethod. Dealer-side users see their holders' records and the tenant's. limit/offset; the total in X-Total-Count.",
        querystring: PaymentMethodListQuerySchema,
        response: { 200: Type.Array(ref), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => {
      const { limit, offset, accountHolderId, direction, paymentMethod } = req.query
      const r = await service.list(
        authenticatedContext(req),
        { accountHolderId, direction, paymentMethod },
        listWindow({ limit, offset }),
      )
      return sendList(res, r)
    },
  )

  app.post(
    '/api/availablePaymentMethods',
    {
      schema: {
        tags: TAGS,
        operationId: 'createAvailablePaymentMethod',
        summary: 'Add a payment-method record',
        description:
          "422 payment_method_invalid names the field: accountHolderId unknown or not visible (or absent for a dealer-side user), disbursementAccountId required for PAY by ACH/WIRE, not the holder's, not ACTIVE, of another method, or given where none is accepted.",
        body: PaymentMethodBodySchema,
        response: { 201: ref, ...problemResponses(422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const row = await service.create(authenticatedContext(req), req.body)
      res.code(201)
      return row
    },
  )

  app.delete(
    '/api/availablePaymentMethods/:availablePaymentMethodId',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteAvailablePaymentMethod',
        summary: 'Remove a payment-method record',
        description: 'The record leaves the list; its last state stays in the audit log.',
        params: PaymentMethodIdParams,
        response: { 204: Type.Null(), ...problemResponses(404) },
      },
      config: WRITE,
    },
    async (req, res) => {
      await service.remove(authenticatedContext(req), req.params.availablePaymentMethodId)
      res.code(204)
    },
  )

  app.post(
    '/api/availablePaymentMethods/paymentMethod',
    {
      schema: {
        tags: TAGS,
        operationId: 'resolveAvailablePaymentMethod',
        summary: 'Which method (and account) a payment to or from a holder uses',
        description:
          "The holder's default record → the holder's default active disbursement account → the tenant's default → CHECK. Writes nothing. 422 payment_method_invalid when accountHolderId is unknown or not visible.",
        body: ResolveBodySchema,
        response: { 200: ResolutionSchema, ...problemResponses(422) },
      },
      config: READ,
    },
    async (req) => service.resolve(authenticatedContext(req), req.body),
  )
}
