// HTTP shapes of payment methods (docs/payment-methods.md).
import { Type } from 'typebox'
import { DateTime, enumOf, IdFilter, IntegerId, ListQuery, nullable } from '../../platform/http/schemas.ts'
import { PAYMENT_DIRECTIONS, PAYMENT_METHODS, RESOLUTION_SOURCES } from './payment-method.rules.ts'

export const PaymentMethodIdParams = Type.Object({
  availablePaymentMethodId: IntegerId('Payment method record id'),
})

const Direction = enumOf(
  PAYMENT_DIRECTIONS,
  'PAY: how the administrator pays the holder. RECEIVE: how it accepts money from it.',
)
const Method = enumOf(PAYMENT_METHODS, 'CHECK, ACH or WIRE.')

export const PaymentMethodSchema = Type.Object(
  {
    id: Type.Integer(),
    accountHolderId: nullable(Type.Integer(), "The account holder; null for the tenant's own rule."),
    direction: Direction,
    paymentMethod: Method,
    disbursementAccountId: nullable(Type.Integer(), 'For PAY by ACH or WIRE: the holder’s disbursement account.'),
    isDefault: Type.Boolean({ description: 'The default for this holder (or the tenant) and direction.' }),
    createdAt: DateTime('When the record was created.'),
  },
  {
    $id: 'AvailablePaymentMethod',
    title: 'AvailablePaymentMethod',
    examples: [
      {
        id: 7,
        accountHolderId: 1042,
        direction: 'PAY',
        paymentMethod: 'ACH',
        disbursementAccountId: 31,
        isDefault: true,
        createdAt: '2026-11-26T10:00:00.000Z',
      },
    ],
  },
)

export const PaymentMethodBodySchema = Type.Object(
  {
    accountHolderId: Type.Optional(
      nullable(
        IdFilter('The account holder, visible to the caller.'),
        "Absent or null: the tenant's own rule (staff only).",
      ),
    ),
    direction: Direction,
    paymentMethod: Method,
    disbursementAccountId: Type.Optional(
      nullable(
        IdFilter('Required for PAY by ACH or WIRE: an ACTIVE account of the holder with the same method.'),
        'Not accepted otherwise.',
      ),
    ),
    isDefault: Type.Optional(
      Type.Boolean({ description: 'Makes it the default; the previous default stops being one.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { accountHolderId: 1042, direction: 'PAY', paymentMethod: 'ACH', disbursementAccountId: 31, isDefault: true },
    ],
  },
)

export const PaymentMethodListQuerySchema = Type.Object(
  {
    ...ListQuery,
    accountHolderId: Type.Optional(IdFilter('Only this account holder’s records.')),
    direction: Type.Optional(Direction),
    paymentMethod: Type.Optional(Method),
  },
  { additionalProperties: false },
)

export const ResolveBodySchema = Type.Object(
  {
    accountHolderId: IdFilter('The account holder paid or paying, visible to the caller.'),
    direction: Direction,
  },
  { additionalProperties: false, examples: [{ accountHolderId: 1042, direction: 'PAY' }] },
)

export const ResolutionSchema = Type.Object(
  {
    paymentMethod: Method,
    disbursementAccountId: Type.Optional(Type.Integer({ description: 'For ACH or WIRE when paying: where to.' })),
    source: enumOf(RESOLUTION_SOURCES, 'Which rule decided.'),
  },
  {
    title: 'PaymentMethodResolution',
    examples: [{ paymentMethod: 'ACH', disbursementAccountId: 31, source: 'ACCOUNT_HOLDER' }],
  },
)
