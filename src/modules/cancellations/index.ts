// Cancellations (issue 13, docs/cancellations.md): the refund of a cancel as pure rules
// (cancellation.rules.ts: the unearned fraction of every method of money.md and the whole quote), and
// the flow built on them: quotes, cancel requests, processed cancels, their reversal and payments
// (cancellation.service.ts, cancellation.routes.ts). Other code reaches this module only through
// what is exported here.
import type { FastifyInstance } from 'fastify'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { DocumentsModule } from '../documents/index.ts'
import type { PayablePort } from '../finance/index.ts'
import { cancellationErrors } from './cancellation.errors.ts'
import { markRefundsPaid } from './cancellation.repository.ts'
import { cancellationRoutes } from './cancellation.routes.ts'
import { createCancellationService, type CancellationsDeps } from './cancellation.service.ts'
import { createGapAutoCancel } from './gap-autocancel.service.ts'

/** The documents of a cancel request (the documents module's owner type and kind). */
export const CANCEL_REQUEST_OWNER = 'CANCEL_REQUEST'
export const CANCEL_REQUEST_DOCUMENT = 'CANCEL_DOCUMENT'
/** Statuses a request still takes documents in. */
const OPEN_STATUSES: ReadonlySet<string> = new Set(['REQUESTED', 'PENDING_DOCUMENTS'])

export { gapTrigger, maturityReason, type GapTrigger, type GapTriggerChoice } from './gap-autocancel.rules.ts'
export type { GapAutoCancel, GapDueQuery } from './gap-autocancel.service.ts'
export {
  noClaims,
  type CancellationService,
  type CancellationsDeps,
  type ClaimsPort,
  type ContractReader,
  type ContractRecord,
} from './cancellation.service.ts'

export function createCancellationsModule(deps: CancellationsDeps & { documents: DocumentsModule }) {
  const service = createCancellationService({
    ...deps,
    async documentOwner(tenantId, documentId) {
      const view = await deps.documents.service.get(tenantId, documentId)
      return view && { ownerType: view.ownerType, ownerId: view.ownerId }
    },
  })
  // GAP auto-cancel: listed and processed here; the processes issue schedules it.
  const gap = createGapAutoCancel({ db: deps.db, contracts: deps.contracts, cancellations: service })
  // A payout run that pays a refund payable marks the cancel's PENDING refund PAID in its transaction
  // (docs/payouts.md, docs/cancellations.md "Cancel payments"); src/modules.ts registers it with finance.
  const payoutPort: PayablePort = {
    purpose: 'REFUND_PAYABLE',
    paid: (tx, tenantId, items) => markRefundsPaid(tx, tenantId, items, deps.clock.now()),
  }
  return {
    service,
    gap,
    payoutPort,
    async routes(app: FastifyInstance) {
      await app.register(cancellationRoutes, { service, gap })
      // A request's documents (odometer statement, payoff letter…): the documents module's collection.
      // SUBMIT_DOCUMENTS then names them with their type (docs/cancellations.md).
      await app.register(
        deps.documents.ownerFileRoutes({
          prefix: '/api/cancelrequests/:cancelRequestId',
          param: 'cancelRequestId',
          collectionPath: 'documents',
          itemParam: 'documentId',
          ownerType: CANCEL_REQUEST_OWNER,
          kind: CANCEL_REQUEST_DOCUMENT,
          tag: 'Cancellations',
          ownerLabel: 'cancel request',
          readPermission: 'cancellations:read',
          writePermission: 'cancellations:write',
          async resolveOwner(ctx, ownerId, access) {
            // Owner checks run on authenticated routes only; a signed link never reaches them.
            const request = await service.getRequest(ctx as AuthenticatedContext, ownerId)
            if (access === 'write' && !OPEN_STATUSES.has(request.status))
              throw cancellationErrors.create(
                'cancel_request_state_conflict',
                `cancel request ${request.requestNumber} is ${request.status}: it takes no more documents`,
              )
          },
        }),
      )
    },
  }
}

export type CancellationsModule = ReturnType<typeof createCancellationsModule>

export {
  cancelFactProblems,
  cancelFee,
  compareRatios,
  decimalRatio,
  displayFactor,
  ONE_RATIO,
  percentOfCentsExact,
  quoteRefund,
  ratio,
  ratioText,
  unearnedFraction,
  ZERO_RATIO,
  type CancelFacts,
  type DecidedBy,
  type FeeComputation,
  type FeeKeeper,
  type FractionMethod,
  type FractionParts,
  type LineRefund,
  type MilesBasis,
  type QuoteDecision,
  type Ratio,
  type RefundBasis,
  type RefundLine,
  type RefundQuote,
  type RefundQuoteInput,
  type RefundQuoteResult,
  type UnearnedFraction,
} from './cancellation.rules.ts'
