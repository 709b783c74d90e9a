// HTTP shapes of cash (docs/cash.md): the receipt body, the cash transaction, the in-process receipt.
import { Type } from 'typebox'
import { DateTime, enumOf, IdFilter, IntegerId, ListQuery, nullable, PagedQuery } from '../../platform/http/schemas.ts'

export const PAYMENT_METHODS = ['CHECK', 'ACH', 'WIRE'] as const
// Amounts are checked by the service (> 0, at most 2 decimals), so a bad one is a 422 naming the field.
const Amount = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 40 })], { description, examples: [1250.5] })

export const CashIdParams = Type.Object({ cashTransactionId: IntegerId('Cash transaction id') })
export const InProcessIdParams = Type.Object({
  inProcessCashTransactionId: IntegerId('In-process cash transaction id'),
})

const ApplicationBody = Type.Object(
  {
    contractId: IdFilter('A contract with an open receivable item of the payer.'),
    amount: Amount('What to apply to it: more than 0, at most its open amount, at most 2 decimals.'),
  },
  { additionalProperties: false },
)

export const CashBodySchema = Type.Object(
  {
    payerId: IdFilter('The account holder paying (a dealer), visible to the caller.'),
    paymentMethod: enumOf(PAYMENT_METHODS, 'CHECK, ACH or WIRE.'),
    amount: Amount('Received: more than 0, at most 2 decimals.'),
    reference: Type.String({ minLength: 1, maxLength: 100, description: 'Check number or trace id.' }),
    receivedDate: Type.String({ maxLength: 40, description: 'The day the money was received, YYYY-MM-DD.' }),
    memo: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
    applications: Type.Optional(
      Type.Array(ApplicationBody, {
        maxItems: 10_000,
        description: 'What to apply when processed; when absent, the open items oldest first.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        payerId: 1042,
        paymentMethod: 'CHECK',
        amount: 1250.5,
        reference: '100234',
        receivedDate: '2026-11-25',
        applications: [{ contractId: 5001, amount: 1250.5 }],
      },
    ],
  },
)

export const CashPatchSchema = Type.Object(
  {
    memo: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    applications: Type.Optional(
      Type.Array(ApplicationBody, { maxItems: 10_000, description: 'More applications of the unapplied balance.' }),
    ),
    status: Type.Optional(enumOf(['RETURNED'] as const, 'RETURNED: the payment came back (NSF).')),
    returnReason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  },
  {
    additionalProperties: false,
    description: 'RFC 7396 JSON Merge Patch (application/merge-patch+json or application/json).',
    examples: [{ status: 'RETURNED', returnReason: 'NSF' }, { applications: [{ contractId: 5001, amount: 100 }] }],
  },
)

export const CashListQuerySchema = Type.Object(
  {
    ...ListQuery,
    payerId: Type.Optional(IdFilter('Only this payer.')),
    status: Type.Optional(Type.String({ maxLength: 20 })),
    receivedFrom: Type.Optional(Type.String({ format: 'date', description: 'Received on or after.' })),
    receivedTo: Type.Optional(Type.String({ format: 'date', description: 'Received on or before.' })),
  },
  { additionalProperties: false },
)
export const CashPagedQuerySchema = Type.Object(
  {
    ...PagedQuery,
    payerId: Type.Optional(IdFilter('Only this payer.')),
    status: Type.Optional(Type.String({ maxLength: 20 })),
    receivedFrom: Type.Optional(Type.String({ format: 'date', description: 'Received on or after.' })),
    receivedTo: Type.Optional(Type.String({ format: 'date', description: 'Received on or before.' })),
  },
  { additionalProperties: false },
)

export const CashTransactionSchema = Type.Object(
  {
    id: Type.Integer(),
    payerId: Type.Integer(),
    paymentMethod: enumOf(PAYMENT_METHODS),
    amount: Type.Number(),
    appliedAmount: Type.Number(),
    unappliedAmount: Type.Number(),
    reference: Type.String(),
    memo: nullable(Type.String()),
    receivedDate: Type.String({ format: 'date' }),
    accountingDate: Type.String({ format: 'date', description: 'The posting date of the receipt.' }),
    status: enumOf(['POSTED', 'RETURNED'] as const),
    returnReason: nullable(Type.String()),
    applications: Type.Array(
      Type.Object({
        contractId: Type.Integer(),
        contractNumber: Type.Optional(Type.String()),
        amount: Type.Number(),
        appliedAt: DateTime('When applied.'),
        reversed: Type.Boolean({ description: 'Reversed by a returned payment.' }),
      }),
    ),
    entryIds: Type.Array(Type.Integer(), { description: 'The journal entries posted (receipt, applications).' }),
    createdAt: DateTime('When recorded.'),
    version: Type.Integer(),
  },
  {
    $id: 'CashTransaction',
    examples: [
      {
        id: 7,
        payerId: 1042,
        paymentMethod: 'CHECK',
        amount: 1250.5,
        appliedAmount: 1000,
        unappliedAmount: 250.5,
        reference: '100234',
        memo: null,
        receivedDate: '2026-11-25',
        accountingDate: '2026-11-26',
        status: 'POSTED',
        returnReason: null,
        applications: [
          {
            contractId: 5001,
            contractNumber: 'C-000501',
            amount: 1000,
            appliedAt: '2026-11-26T10:00:00.000Z',
            reversed: false,
          },
        ],
        entryIds: [310, 311],
        createdAt: '2026-11-26T10:00:00.000Z',
        version: 2,
      },
    ],
  },
)

export const InProcessCashSchema = Type.Object(
  {
    id: Type.Integer(),
    payerId: Type.Integer(),
    paymentMethod: enumOf(PAYMENT_METHODS),
    amount: Type.Number(),
    reference: Type.String(),
    receivedDate: Type.String({ format: 'date' }),
    memo: nullable(Type.String()),
    applications: Type.Array(Type.Object({ contractId: Type.Integer(), amount: Type.Number() })),
    status: enumOf(['PENDING', 'PROCESSED'] as const),
    cashTransactionId: nullable(Type.Integer()),
    createdAt: DateTime('When recorded.'),
  },
  {
    $id: 'InProcessCashTransaction',
    examples: [
      {
        id: 3,
        payerId: 1042,
        paymentMethod: 'ACH',
        amount: 500,
        reference: 'TRACE-99812',
        receivedDate: '2026-11-25',
        memo: null,
        applications: [],
        status: 'PENDING',
        cashTransactionId: null,
        createdAt: '2026-11-26T10:00:00.000Z',
      },
    ],
  },
)
