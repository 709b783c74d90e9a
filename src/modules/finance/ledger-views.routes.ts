// Ledger views over HTTP (docs/ledgers.md). Read only, finance:read; dealer-side users see only
// their account holders (filtered in SQL; an explicit one they may not see is 404).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { Paged, problemResponses } from '../../platform/http/schemas.ts'
import {
  LedgerLineSchema,
  LedgerLinesPageSchema,
  LedgerLinesQuerySchema,
  PayReceiveQuerySchema,
  PayReceiveSchema,
  SummaryQuerySchema,
  SummarySchema,
  UnpaidItemSchema,
  UnpaidPageSchema,
  UnpaidQuerySchema,
} from './ledger-views.schemas.ts'
import type { LedgerViewsService } from './ledger-views.service.ts'

const TAGS = ['Ledgers']
const READ = { permission: 'finance:read' } as const
const HOLDER_404 =
  '404 account_holder_not_found for an account holder that is not in the tenant or not visible to the caller.'

export const ledgerViewRoutes: FastifyPluginAsyncTypebox<{ service: LedgerViewsService }> = async (
  app,
  { service },
) => {
  app.addSchema(LedgerLineSchema)
  app.addSchema(PayReceiveSchema)
  app.addSchema(UnpaidItemSchema)
  app.addSchema(SummarySchema)

  app.get(
    '/api/ledgers',
    {
      schema: {
        tags: TAGS,
        operationId: 'listLedgers',
        summary: "An account holder's journal lines (paged)",
        description: `Ordered by accounting date, entry, line. Filters: purpose, from/to (accounting dates, inclusive), contractId. With from: openingBalance. No running balance (see docs/ledgers.md). ${HOLDER_404}`,
        querystring: LedgerLinesQuerySchema,
        response: { 200: LedgerLinesPageSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => {
      const { pageNumber, pageSize, ...filter } = req.query
      const window = pageWindow({ pageNumber, pageSize })
      const r = await service.lines(authenticatedContext(req), filter, window)
      return { ...toPage(r.items, r.totalCount, window), openingBalance: r.openingBalance }
    },
  )

  app.get(
    '/api/ledgers/payReceiveLedgers',
    {
      schema: {
        tags: TAGS,
        operationId: 'listPayReceiveLedgers',
        summary: 'What each account holder owes and is owed as of a date (paged)',
        description: `One item per account holder with lines on or before asOf. Filters: accountHolderId, kind, asOf (default today). ${HOLDER_404}`,
        querystring: PayReceiveQuerySchema,
        response: {
          200: Paged(Type.Unsafe<Record<string, unknown>>({ $ref: 'PayReceiveLedger#' }), 'PayReceiveLedgers'),
          ...problemResponses(404),
        },
      },
      config: READ,
    },
    async (req) => {
      const { pageNumber, pageSize, ...filter } = req.query
      const window = pageWindow({ pageNumber, pageSize })
      const r = await service.payReceive(authenticatedContext(req), filter, window)
      return toPage(r.items, r.totalCount, window)
    },
  )

  app.get(
    '/api/ledgers/unpaidLedgersProducts',
    {
      schema: {
        tags: TAGS,
        operationId: 'listUnpaidLedgersProducts',
        summary: 'Open receivable items per contract, aged (paged)',
        description: `Contracts whose DEALER_RECEIVABLE nets positive as of asOf (default today), oldest first, with age and aging bucket (0-30, 31-60, 61-90, 90+). Filters: dealerId (default every dealer the caller sees), minAge (days). ${HOLDER_404}`,
        querystring: UnpaidQuerySchema,
        response: { 200: UnpaidPageSchema, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => {
      const { pageNumber, pageSize, ...filter } = req.query
      const window = pageWindow({ pageNumber, pageSize })
      const r = await service.unpaid(authenticatedContext(req), filter, window)
      return { ...toPage(r.items, r.totalCount, window), asOf: r.asOf }
    },
  )

  app.get(
    '/api/ledgerSummary',
    {
      schema: {
        tags: TAGS,
        operationId: 'getLedgerSummary',
        summary: 'Balances by purpose and account holder as of a date, with receivable aging',
        description: `Filters: accountHolderId, purpose, asOf (default today). Totals per purpose; receivableAging sums open contract items by age of their first posting. ${HOLDER_404}`,
        querystring: SummaryQuerySchema,
        response: { 200: Type.Unsafe<Record<string, unknown>>({ $ref: 'LedgerSummary#' }), ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.summary(authenticatedContext(req), req.query),
  )
}
