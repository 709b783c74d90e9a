// TypeBox schemas of disbursement accounts: the create body, the whole record a PATCH result must
// be, the (masked) reply, path and query parameters.
import { Type, type Static } from 'typebox'
import { DateTime, IntegerId, ListQuery, nullable } from '../../platform/http/schemas.ts'
import { ACCOUNT_NUMBER_PATTERN, ROUTING_NUMBER_PATTERN } from './disbursement-account.rules.ts'

const PaymentMethod = Type.Union([Type.Literal('ACH'), Type.Literal('WIRE'), Type.Literal('CHECK')], {
  description: 'ACH (NACHA credit), WIRE (Fedwire) or CHECK (printed check, no bank details).',
})
const AccountType = Type.Union([Type.Literal('CHECKING'), Type.Literal('SAVINGS')])
const Status = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')])

const AccountHolderId = Type.Integer({
  minimum: 1,
  description:
    'The account holder paid through this account; must exist in the tenant and be visible to the caller. Cannot change.',
})
const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: 'Label of the account, for example "Operating account".',
})
const BankName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })
const RoutingNumber = Type.String({
  pattern: ROUTING_NUMBER_PATTERN,
  description: 'ABA routing transit number: 9 digits with a valid check digit.',
})
const AccountNumber = Type.String({ pattern: ACCOUNT_NUMBER_PATTERN, description: '4 to 17 digits.' })

/** The editable fields, as a client writes them. */
const editable = {
  name: Name,
  paymentMethod: PaymentMethod,
  bankName: Type.Optional(nullable(BankName, 'Name of the bank. Required for ACH and WIRE; not accepted for CHECK.')),
  routingNumber: Type.Optional(
    nullable(
      RoutingNumber,
      'ABA routing transit number (9 digits, valid check digit). Required for ACH and WIRE; not accepted for CHECK. Masked in every reply.',
    ),
  ),
  accountNumber: Type.Optional(
    nullable(
      AccountNumber,
      'Bank account number, 4 to 17 digits. Required for ACH and WIRE; not accepted for CHECK. Masked in every reply.',
    ),
  ),
  accountType: Type.Optional(
    nullable(AccountType, 'CHECKING or SAVINGS. Required for ACH; optional for WIRE; not accepted for CHECK.'),
  ),
  isDefault: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'The account payments go to. Setting it unsets the previous default of the same account holder; an inactive account cannot be the default.',
    }),
  ),
  // Status's own members, not [Status]: a one-member anyOf around it says nothing (and linters flag it).
  status: Type.Optional(Type.Union(Status.anyOf, { default: 'ACTIVE', description: 'ACTIVE (default) or INACTIVE.' })),
}

export const CREATE_EXAMPLE = {
  accountHolderId: 77,
  name: 'Operating account',
  paymentMethod: 'ACH',
  bankName: 'First National Bank',
  routingNumber: '021000021',
  accountNumber: '000123456789',
  accountType: 'CHECKING',
  isDefault: true,
}

export const CreateDisbursementAccountBody = Type.Object(
  {
    accountHolderId: AccountHolderId,
    ...editable,
  },
  {
    additionalProperties: false,
    examples: [CREATE_EXAMPLE, { accountHolderId: 78, name: 'Mail a check', paymentMethod: 'CHECK' }],
  },
)

/** Read-only members of a reply: present in the representation a PATCH applies to, never changed by it. */
export const IMMUTABLE_FIELDS = ['id', 'accountHolderId', 'createdAt', 'updatedAt', 'version'] as const

/** What a PATCH result must be: the editable fields plus the read-only members of a reply. */
export const PatchedDisbursementAccountSchema = Type.Object(
  {
    id: Type.Integer(),
    accountHolderId: Type.Integer(),
    ...editable,
    createdAt: Type.String(),
    updatedAt: Type.Optional(Type.String()),
    version: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
)

export const DISBURSEMENT_ACCOUNT_EXAMPLE = {
  id: 1042,
  accountHolderId: 77,
  name: 'Operating account',
  paymentMethod: 'ACH',
  bankName: 'First National Bank',
  routingNumber: '*****0021',
  accountNumber: '*****6789',
  accountType: 'CHECKING',
  isDefault: true,
  status: 'ACTIVE',
  createdAt: '2026-01-02T15:04:05.000Z',
  updatedAt: '2026-01-02T15:04:05.000Z',
  version: 1,
}

export const DisbursementAccountSchema = Type.Object(
  {
    id: Type.Integer(),
    accountHolderId: Type.Integer(),
    name: Type.String(),
    paymentMethod: PaymentMethod,
    bankName: Type.Union([Type.String(), Type.Null()]),
    routingNumber: Type.Union([Type.String(), Type.Null()], {
      description:
        'Masked (*****0021) unless revealed: GET one account with reveal=true and permission bankdetails:read.',
    }),
    accountNumber: Type.Union([Type.String(), Type.Null()], {
      description: 'Masked (*****6789: at most the last four digits, never more than half) unless revealed.',
    }),
    accountType: Type.Union([AccountType, Type.Null()]),
    isDefault: Type.Boolean(),
    status: Status,
    createdAt: DateTime('When the account was recorded.'),
    updatedAt: DateTime('When the account last changed.'),
    version: Type.Integer({ description: 'Row version; the ETag.' }),
  },
  { $id: 'DisbursementAccount', examples: [DISBURSEMENT_ACCOUNT_EXAMPLE] },
)

export type DisbursementAccount = Static<typeof DisbursementAccountSchema>

export const DisbursementAccountIdParams = Type.Object({
  disbursementAccountId: IntegerId('Disbursement account id'),
})

export const DisbursementAccountReadQuery = Type.Object(
  {
    reveal: Type.Optional(
      Type.Boolean({
        description:
          'true: routingNumber and accountNumber in clear. Needs permission bankdetails:read (403 without it); every reveal is written to the audit trail.',
        examples: [true],
      }),
    ),
  },
  { additionalProperties: false },
)

export const DisbursementAccountListQuery = Type.Object(
  {
    accountHolderId: Type.Optional(Type.Integer({ minimum: 1, description: 'Accounts of this account holder.' })),
    paymentMethod: Type.Optional(PaymentMethod),
    status: Type.Optional(Status),
    isDefault: Type.Optional(Type.Boolean({ description: 'true: only default accounts.' })),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export type DisbursementAccountListInput = Static<typeof DisbursementAccountListQuery>
