// HTTP shapes of payout runs (docs/payouts.md).
import { Type } from 'typebox'
import { DateTime, enumOf, IdFilter, IntegerId, nullable, PagedQuery } from '../../platform/http/schemas.ts'
import { PAYMENT_METHODS } from './payment-method.rules.ts'
import { PAYOUT_PURPOSES } from './payout.rules.ts'

export const PayoutRunIdParams = Type.Object({ payoutRunId: IntegerId('Payout run id') })

export const PayoutRunBodySchema = Type.Object(
  {
    asOf: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Pay what was due on this date (YYYY-MM-DD), on or before today; default today.',
      }),
    ),
    // Checked by the service, so an unknown purpose is a 422 naming the field.
    purposes: Type.Optional(
      Type.Array(Type.String({ maxLength: 40 }), {
        maxItems: 10,
        description:
          'A non-empty subset of REFUND_PAYABLE, DISBURSEMENT_PAYABLE, CLAIM_PAYABLE (open claim payment requests); default all three.',
      }),
    ),
    payeeIds: Type.Optional(
      Type.Array(IdFilter('An account holder of the tenant.'), { maxItems: 1000, description: 'Only these payees.' }),
    ),
    dryRun: Type.Optional(Type.Boolean({ description: 'Compute and answer the run; write nothing.' })),
  },
  {
    additionalProperties: false,
    examples: [
      { asOf: '2026-11-26', purposes: ['REFUND_PAYABLE'], dryRun: true },
      { purposes: ['CLAIM_PAYABLE'], payeeIds: [7001] },
      {},
    ],
  },
)

export const PayoutRunQuerySchema = Type.Object(
  {
    ...PagedQuery,
    payeeId: Type.Optional(IdFilter('Only runs that paid this payee.')),
    asOfFrom: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: 'asOf on or after.' })),
    asOfTo: Type.Optional(Type.String({ format: 'date', maxLength: 10, description: 'asOf on or before.' })),
  },
  { additionalProperties: false },
)

const PayoutSchema = Type.Object({
  id: nullable(Type.Integer({ description: 'null in a dry run.' })),
  payeeId: Type.Integer(),
  paymentMethod: enumOf(PAYMENT_METHODS),
  disbursementAccountId: nullable(Type.Integer()),
  amount: Type.Number({ description: 'The net paid: what is paid less what is netted.' }),
  entryId: nullable(Type.Integer({ description: 'The CASH_DISBURSED entry; null in a dry run.' })),
  items: Type.Array(
    Type.Object({
      purpose: enumOf(PAYOUT_PURPOSES),
      contractId: Type.Integer({ description: '0: the lines without a contract.' }),
      paymentRequestId: nullable(
        Type.Integer({
          description: 'CLAIM_PAYABLE: the claim payment request paid (its payment recorded); else null.',
        }),
      ),
      amount: Type.Number({ description: '> 0 paid (debited); < 0 netted (credited: the payee owed it back).' }),
    }),
  ),
})

export const PayoutRunSchema = Type.Object(
  {
    id: nullable(Type.Integer({ description: 'null in a dry run.' })),
    asOf: Type.String({ format: 'date' }),
    accountingDate: Type.String({ format: 'date', description: 'The posting date of the entries.' }),
    purposes: Type.Array(enumOf(PAYOUT_PURPOSES)),
    payeeIds: nullable(Type.Array(Type.Integer())),
    dryRun: Type.Boolean(),
    payoutCount: Type.Integer(),
    total: Type.Number(),
    payouts: Type.Array(PayoutSchema),
    skipped: Type.Optional(
      Type.Array(Type.Object({ payeeId: Type.Integer(), net: Type.Number() }), {
        description: 'Payees that net to 0 or less: nothing paid, their items stay open (POST only).',
      }),
    ),
    createdAt: DateTime('When run.'),
    createdBy: Type.String(),
  },
  {
    $id: 'PayoutRun',
    examples: [
      {
        id: 4,
        asOf: '2026-11-26',
        accountingDate: '2026-11-26',
        purposes: ['REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE', 'CLAIM_PAYABLE'],
        payeeIds: null,
        dryRun: false,
        payoutCount: 2,
        total: 1681.7,
        payouts: [
          {
            id: 9,
            payeeId: 41,
            paymentMethod: 'CHECK',
            disbursementAccountId: null,
            amount: 1486.53,
            entryId: 512,
            items: [{ purpose: 'REFUND_PAYABLE', contractId: 5001, paymentRequestId: null, amount: 1486.53 }],
          },
          {
            id: 10,
            payeeId: 7001,
            paymentMethod: 'ACH',
            disbursementAccountId: 3,
            amount: 195.17,
            entryId: 513,
            items: [{ purpose: 'CLAIM_PAYABLE', contractId: 5002, paymentRequestId: 8801, amount: 195.17 }],
          },
        ],
        createdAt: '2026-11-26T10:00:00.000Z',
        createdBy: 'user:7',
      },
    ],
  },
)
