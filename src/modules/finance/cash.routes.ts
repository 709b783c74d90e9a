// Cash over HTTP (docs/cash.md): in-process receipts, cash transactions, applications, returns.
// Reads finance:read, writes finance:write; dealer-side users reach only their account holders' cash.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { listWindow, pageWindow, sendList, toPage } from '../../platform/http/pagination.ts'
import { EmptyBody, noBodyIsEmpty, Paged, problemResponses } from '../../platform/http/schemas.ts'
import {
  CashBodySchema,
  CashIdParams,
  CashListQuerySchema,
  CashPagedQuerySchema,
  CashPatchSchema,
  CashTransactionSchema,
  InProcessCashSchema,
  InProcessIdParams,
} from './cash.schemas.ts'
import type { CashService } from './cash.service.ts'

const TAGS = ['Cash']
const READ = { permission: 'finance:read' } as const
const WRITE = { permission: 'finance:write' } as const
const cashRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'CashTransaction#' })
const inProcessRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'InProcessCashTransaction#' })
const BAD_INPUT =
  '422 cash_invalid names each bad field: amount not > 0 or with more than 2 decimals, receivedDate, payerId unknown or not visible (unknown_reference), applications[i].contractId not an open item of the payer, applications[i].amount over its open amount, applications over the unapplied balance. 409 ledger_period_closed for a posting date in the closed period.'

export const cashRoutes: FastifyPluginAsyncTypebox<{ service: CashService }> = async (app, { service }) => {
  app.addSchema(CashTransactionSchema)
  app.addSchema(InProcessCashSchema)

  app.get(
    '/api/inprocesscashtransactions',
    {
      schema: {
        tags: TAGS,
        operationId: 'listInProcessCashTransactions',
        summary: 'List in-process (recorded, not yet processed or processed) receipts (paged)',
        description:
          'Filters: payerId, status (PENDING, PROCESSED), receivedFrom/receivedTo (inclusive). Oldest first.',
        querystring: CashPagedQuerySchema,
        response: { 200: Paged(inProcessRef, 'InProcessCashTransactions'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const { pageNumber, pageSize, receivedFrom, receivedTo, payerId, status } = req.query
      const window = pageWindow({ pageNumber, pageSize })
      const r = await service.inProcess.list(
        authenticatedContext(req),
        { payerId, status, receivedFrom, receivedTo },
        window,
      )
      return toPage(r.items, r.totalCount, window)
    },
  )

  app.post(
    '/api/inprocesscashtransactions',
    {
      schema: {
        tags: TAGS,
        operationId: 'createInProcessCashTransaction',
        summary: 'Record a receipt to process later',
        description: `Nothing is posted until processed. ${BAD_INPUT}`,
        body: CashBodySchema,
        response: { 201: inProcessRef, ...problemResponses(422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const row = await service.inProcess.create(authenticatedContext(req), req.body)
      res.code(201).header('location', `/api/inprocesscashtransactions/${row.id}`)
      return row
    },
  )

  app.get(
    '/api/inprocesscashtransactions/:inProcessCashTransactionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getInProcessCashTransaction',
        summary: 'Read an in-process receipt',
        params: InProcessIdParams,
        response: { 200: inProcessRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.inProcess.get(authenticatedContext(req), req.params.inProcessCashTransactionId),
  )

  app.delete(
    '/api/inprocesscashtransactions/:inProcessCashTransactionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteInProcessCashTransaction',
        summary: 'Delete an in-process receipt not yet processed',
        description: '409 cash_already_processed once processed (nothing is written).',
        params: InProcessIdParams,
        response: { 204: Type.Null(), ...problemResponses(404, 409) },
      },
      config: WRITE,
    },
    async (req, res) => {
      await service.inProcess.remove(authenticatedContext(req), req.params.inProcessCashTransactionId)
      res.code(204)
    },
  )

  app.post(
    '/api/inprocesscashtransactions/:inProcessCashTransactionId/processrequests',
    {
      schema: {
        tags: TAGS,
        operationId: 'createInProcessCashTransactionProcessRequest',
        summary: 'Process an in-process receipt: post it and apply it',
        description: `In one transaction: the cash transaction, CASH_RECEIVED, then CASH_APPLIED to the given applications or the open items oldest first. 201 with the cash transaction. 409 cash_already_processed the second time. ${BAD_INPUT}`,
        params: InProcessIdParams,
        body: EmptyBody,
        response: { 201: cashRef, ...problemResponses(404, 409, 422) },
      },
      preValidation: noBodyIsEmpty,
      config: WRITE,
    },
    async (req, res) => {
      const cash = await service.inProcess.process(authenticatedContext(req), req.params.inProcessCashTransactionId)
      res.code(201).header('location', `/api/cashtransactions/${cash.id}`)
      setEtag(res, cash.version)
      return cash
    },
  )

  app.get(
    '/api/cashtransactions',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCashTransactions',
        summary: 'List cash transactions',
        description:
          'Filters: payerId, status (POSTED, RETURNED), receivedFrom/receivedTo (inclusive). limit/offset; the total in X-Total-Count.',
        querystring: CashListQuerySchema,
        response: { 200: Type.Array(cashRef), ...problemResponses() },
      },
      config: READ,
    },
    async (req, res) => {
      const { limit, offset, receivedFrom, receivedTo, payerId, status } = req.query
      const r = await service.list(
        authenticatedContext(req),
        { payerId, status, receivedFrom, receivedTo },
        listWindow({ limit, offset }),
      )
      return sendList(res, r)
    },
  )

  app.get(
    '/api/v2/cashtransactions',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCashTransactionsV2',
        summary: 'List cash transactions (paged)',
        description: 'As listCashTransactions, as a page: items, pageNumber, pageSize, totalCount, totalPages.',
        querystring: CashPagedQuerySchema,
        response: { 200: Paged(cashRef, 'CashTransactions'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const { pageNumber, pageSize, receivedFrom, receivedTo, payerId, status } = req.query
      const window = pageWindow({ pageNumber, pageSize })
      const r = await service.list(authenticatedContext(req), { payerId, status, receivedFrom, receivedTo }, window)
      return toPage(r.items, r.totalCount, window)
    },
  )

  app.post(
    '/api/cashtransactions',
    {
      schema: {
        tags: TAGS,
        operationId: 'createCashTransaction',
        summary: 'Record and process a receipt in one step',
        description: `As processing an in-process receipt. ${BAD_INPUT}`,
        body: CashBodySchema,
        response: { 201: cashRef, ...problemResponses(409, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const cash = await service.receive(authenticatedContext(req), req.body)
      res.code(201).header('location', `/api/cashtransactions/${cash.id}`)
      setEtag(res, cash.version)
      return cash
    },
  )

  app.get(
    '/api/cashtransactions/:cashTransactionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'getCashTransaction',
        summary: 'Read a cash transaction with its applications',
        params: CashIdParams,
        response: { 200: cashRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req, res) => {
      const cash = await service.get(authenticatedContext(req), req.params.cashTransactionId)
      setEtag(res, cash.version)
      return cash
    },
  )

  app.patch(
    '/api/cashtransactions/:cashTransactionId',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateCashTransaction',
        summary: 'Change memo or reference, apply more of the unapplied balance, or return the payment (NSF)',
        description: `JSON Merge Patch; If-Match optional (412 on a stale version). applications: appended, of the unapplied balance. status RETURNED with returnReason: every CASH_APPLIED entry and the CASH_RECEIVED entry reversed (dated the posting date), the items reopen; 409 cash_already_returned the second time. ${BAD_INPUT}`,
        params: CashIdParams,
        body: CashPatchSchema,
        consumes: ['application/merge-patch+json', 'application/json'],
        response: { 200: cashRef, ...problemResponses(404, 409, 412, 422) },
      },
      config: WRITE,
    },
    async (req, res) => {
      const cash = await service.patch(
        authenticatedContext(req),
        req.params.cashTransactionId,
        req.body,
        expectedVersion(req),
      )
      setEtag(res, cash.version)
      return cash
    },
  )
}
