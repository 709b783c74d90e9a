// Automatic expiry and voiding over HTTP (spec §4.3; docs/contracts.md "Automatic expiry and
// voiding"): the contracts due to expire or to be voided (contracts:read, a dealer-side user sees
// its dealers' only) and the change of one now (processes:run, the permission that starts the EXPIRY
// and VOID processes doing the same). The static segments live beside /contracts/{contractId}.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { EmptyBody, noBodyIsEmpty, problemResponses } from '../../platform/http/schemas.ts'
import {
  AutoChangeSchema,
  ExpiryDueQuerySchema,
  ExpiryDueSchema,
  VoidableQuerySchema,
  VoidableSchema,
} from './contract-autoprocess.schemas.ts'
import type { ContractAutoProcess } from './contract-autoprocess.service.ts'
import { ContractIdParams } from './contract.schemas.ts'

const TAGS = ['Contracts']
const READ = { permission: 'contracts:read' } as const
const RUN = { permission: 'processes:run' } as const
const dueRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractExpiryDue#' })
const voidableRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractVoidable#' })
const changeRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractAutoChange#' })

export const contractAutoProcessRoutes: FastifyPluginAsyncTypebox<{ auto: ContractAutoProcess }> = async (
  app,
  { auto },
) => {
  app.addSchema(ExpiryDueSchema)
  app.addSchema(VoidableSchema)
  app.addSchema(AutoChangeSchema)

  app.get(
    '/api/contracts/autoexpire',
    {
      schema: {
        tags: TAGS,
        operationId: 'listContractsDueToExpire',
        summary: 'List the contracts due to expire, by date or by mileage',
        description: [
          'Contracts in force (FINALIZED or ACTIVE) due to expire as of `asOf` (default today): past their expiration date (DATE), or with a latest known odometer at or past their expiration odometer (MILEAGE: a claim reported it, read on or before asOf).',
          'Each with the reason that ends it first, every reason that applies, the day it is EXPIRED from and the figures of its mileage limit. By contract id; limit/offset, the total in X-Total-Count. A dealer-side user sees its dealers only. The EXPIRY process (docs/processes.md) expires the same contracts.',
        ].join(' '),
        querystring: ExpiryDueQuerySchema,
        response: { 200: Type.Array(dueRef), ...problemResponses(422) },
      },
      config: READ,
    },
    async (req, res) => {
      const { asOf, reason, dealerId, productType } = req.query
      return sendList(
        res,
        await auto.expiryDue(authenticatedContext(req), { asOf, reason, dealerId, productType }, listWindow(req.query)),
      )
    },
  )

  app.post(
    '/api/contracts/autoexpire/:contractId',
    {
      schema: {
        tags: TAGS,
        operationId: 'expireContract',
        summary: 'Expire a contract that is due to expire, now',
        description: [
          'What the EXPIRY process does for one contract, under its row lock: the contract EXPIRED from the day after its expiration date (DATE) or from the day of the odometer reading at or past its expiration odometer (MILEAGE), whichever comes first;',
          'its status history row (source CONTRACT), the audit record contract.expired with the reason and the figures, the event contract.expired (a finalized contract in effect gets its activation recorded first).',
          '409 contract_not_expired naming the expiration date, the mileage limit and the latest reading when it is not due today; 409 contract_state_conflict when it is not in force (already EXPIRED, CANCELLED, PENDING, VOIDED); 423 contract_locked; 404 for a contract the caller cannot see.',
        ].join(' '),
        params: ContractIdParams,
        body: EmptyBody,
        response: { 200: changeRef, ...problemResponses(404, 409, 415, 423) },
      },
      preValidation: noBodyIsEmpty,
      config: RUN,
    },
    async (req) => auto.expire(authenticatedContext(req), req.params.contractId),
  )

  app.get(
    '/api/contracts/autovoidable',
    {
      schema: {
        tags: TAGS,
        operationId: 'listVoidableContracts',
        summary: 'List the pending contracts old enough to be voided',
        description:
          'Contracts still PENDING (never finalized) that were written more than `pendingContractVoidAfterDays` (setting 7) days ago, with their age. By contract id; limit/offset, the total in X-Total-Count. A dealer-side user sees its dealers only. The VOID process (docs/processes.md) voids the same contracts.',
        querystring: VoidableQuerySchema,
        response: { 200: Type.Array(voidableRef), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => {
      const { dealerId, productType } = req.query
      return sendList(
        res,
        await auto.voidable(authenticatedContext(req), { dealerId, productType }, listWindow(req.query)),
      )
    },
  )

  app.post(
    '/api/contracts/autovoidable/:contractId',
    {
      schema: {
        tags: TAGS,
        operationId: 'voidContract',
        summary: 'Void a pending contract that is old enough, now',
        description: [
          'What the VOID process does for one contract, under its row lock: VOIDED from today, its status history row (source CONTRACT), the audit record contract.voided (reason PENDING_TOO_LONG) and the event contract.voided; the dealer and contract holder get their last contract date recomputed.',
          '409 contract_not_voidable when it was written less than pendingContractVoidAfterDays ago (the message gives the instant it may be voided from); 409 contract_state_conflict when it is not PENDING; 423 contract_locked; 404 for a contract the caller cannot see.',
        ].join(' '),
        params: ContractIdParams,
        body: EmptyBody,
        response: { 200: changeRef, ...problemResponses(404, 409, 415, 423) },
      },
      preValidation: noBodyIsEmpty,
      config: RUN,
    },
    async (req) => auto.void(authenticatedContext(req), req.params.contractId),
  )
}
