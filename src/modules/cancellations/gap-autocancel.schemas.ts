// HTTP shapes of GAP auto-cancel (docs/cancellations.md "GAP"): a due GAP contract, the list's query
// and the POST body. The POST answers the cancel (the `Cancel` schema of cancellation.schemas.ts).
import { Type } from 'typebox'
import { enumOf, IdFilter, ListQuery, nullable } from '../../platform/http/schemas.ts'
import { GAP_ENDINGS } from '../rating/index.ts'

const DateText = (description: string) => Type.String({ maxLength: 40, description })

export const GapDueQuerySchema = Type.Object(
  {
    asOf: Type.Optional(DateText("YYYY-MM-DD, default today in the tenant's time zone; not after today.")),
    dealerId: Type.Optional(IdFilter("Only this dealer's contracts.")),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const GapCancelBodySchema = Type.Object(
  {
    asOf: Type.Optional(DateText('YYYY-MM-DD, default today; the date the contract must be due by (not after today).')),
    notes: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: "The cancel's notes (a matured loan: a note saying so by default).",
      }),
    ),
  },
  { additionalProperties: false, examples: [{}, { notes: 'Lender payoff file of 2026-11-25' }] },
)

const GAP_DUE_EXAMPLE = {
  contractId: 31,
  contractNumber: 'GAP-STD-0126-00000031',
  dealerId: 5,
  status: 'ACTIVE',
  saleDate: '2025-06-02',
  effectiveDate: '2025-06-02',
  expirationDate: '2030-06-02',
  trigger: 'PAYOFF',
  source: 'CANCEL_REQUEST',
  cancelDate: '2026-11-02',
  reason: { id: 71, code: 'EARLY_PAYOFF', name: 'Loan paid off early' },
  cancelRequestId: 4402,
  requestNumber: 'CXL-202611-000014',
  loan: { termMonths: 54, firstPaymentDate: '2025-07-02', maturityDate: '2029-12-02' },
}

export const GapDueSchema = Type.Object(
  {
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    dealerId: Type.Integer(),
    status: enumOf(['FINALIZED', 'ACTIVE'] as const),
    saleDate: Type.String({ description: 'YYYY-MM-DD.' }),
    effectiveDate: Type.String({ description: 'YYYY-MM-DD.' }),
    expirationDate: Type.String({ description: 'YYYY-MM-DD.' }),
    trigger: enumOf(
      [...GAP_ENDINGS, 'LOAN_MATURED'] as const,
      "What ends the coverage: a reported ending (the request's reason's endsGap) or the loan's maturity.",
    ),
    source: enumOf(
      ['CANCEL_REQUEST', 'LOAN_TERMS'] as const,
      'CANCEL_REQUEST: a request reporting the ending waits for a decision; LOAN_TERMS: the maturity from the finance terms.',
    ),
    cancelDate: Type.String({ description: "The date it is cancelled on: the request's, or the loan's maturity." }),
    reason: nullable(
      Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() }),
      "The cancel reason: the request's, or for a matured loan the book's first reason ending GAP by PAYOFF that the administrator may give (null: none, the POST answers 409).",
    ),
    cancelRequestId: nullable(Type.Integer()),
    requestNumber: nullable(Type.String()),
    loan: nullable(
      Type.Object({
        termMonths: Type.Integer(),
        firstPaymentDate: nullable(Type.String()),
        maturityDate: nullable(
          Type.String({ description: 'The last payment: first payment + (term − 1) months, else sale date + term.' }),
        ),
      }),
      "The deal's loan (null: no loan term on the deal).",
    ),
  },
  { $id: 'GapCancelDue', examples: [GAP_DUE_EXAMPLE] },
)
