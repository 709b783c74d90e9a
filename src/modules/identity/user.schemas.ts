import { Type, type Static } from 'typebox'
import { DateTime, IntegerId } from '../../platform/http/schemas.ts'

const Ref = Type.Object(
  {
    id: Type.Integer({ description: 'Authoritative on input.' }),
    name: Type.Optional(Type.String({ description: 'Ignored on input.' })),
  },
  { additionalProperties: true },
)

const RefOut = Type.Object({ id: Type.Integer(), name: Type.String() })

const Email = Type.String({ format: 'email', maxLength: 254, examples: ['jane.doe@admin.example'] })
const Name = (d: string) => Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], { description: d })
const Phone = Type.Union([
  Type.String({
    pattern: '^\\+?[0-9][0-9 ().-]{6,19}$',
    description: 'E.164 (+15555550100) or a national form with spaces, dots, dashes or parentheses.',
  }),
  Type.Null(),
])
const ExternalIdentity = Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()], {
  description: "The External Identity: the user's subject at the identity provider.",
})
const ExpiredDate = Type.Union([
  DateTime('Moment from which the user is no longer active. Earlier than now is stored as now; null reactivates.'),
  Type.Null(),
])
const Password = Type.String({
  minLength: 12,
  maxLength: 200,
  writeOnly: true,
  description: 'Write-only. For users who sign in through POST /api/auth/token; never returned.',
})
const AccountHolderId = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
  description: 'The account holder (for example a dealer) the user works for, if any.',
})

export const USER_EXAMPLE = {
  id: 1042,
  userName: 'jane.doe@admin.example',
  emailAddress: 'jane.doe@admin.example',
  firstName: 'Jane',
  lastName: 'Doe',
  phoneNumber: '+15555550100',
  externalIdentity: 'auth0|6512f0c9a1b2',
  expiredDate: null,
  isActive: true,
  accountHolderId: null,
  roles: [{ id: 3, name: 'Contract administrator' }],
  groups: [{ id: 1, name: 'Administrator staff' }],
  createdAt: '2026-01-02T15:04:05.000Z',
  updatedAt: '2026-01-02T15:04:05.000Z',
  version: 1,
}

export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    userName: Type.String({ description: 'Same as emailAddress.' }),
    emailAddress: Type.String(),
    firstName: Type.Union([Type.String(), Type.Null()]),
    lastName: Type.Union([Type.String(), Type.Null()]),
    phoneNumber: Type.Union([Type.String(), Type.Null()]),
    externalIdentity: Type.Union([Type.String(), Type.Null()]),
    expiredDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    isActive: Type.Boolean({ description: 'Derived: expiredDate is null or later than now.' }),
    accountHolderId: Type.Union([Type.Integer(), Type.Null()]),
    roles: Type.Array(RefOut),
    groups: Type.Array(RefOut),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    version: Type.Integer(),
  },
  {
    $id: 'User',
    examples: [USER_EXAMPLE],
  },
)
export type UserDto = Static<typeof UserSchema>

export const CreateUserBody = Type.Object(
  {
    emailAddress: Email,
    externalIdentity: Type.Optional(ExternalIdentity),
    firstName: Type.Optional(Name('Given name')),
    lastName: Type.Optional(Name('Family name')),
    phoneNumber: Type.Optional(Phone),
    expiredDate: Type.Optional(ExpiredDate),
    accountHolderId: Type.Optional(AccountHolderId),
    roles: Type.Optional(Type.Array(Ref, { maxItems: 100, description: 'Roles by id; defaults to none.' })),
    groups: Type.Optional(Type.Array(Ref, { maxItems: 100, description: 'Groups by id; defaults to none.' })),
    password: Type.Optional(Password),
  },
  {
    additionalProperties: false,
    examples: [
      {
        emailAddress: 'jane.doe@admin.example',
        firstName: 'Jane',
        lastName: 'Doe',
        phoneNumber: '+15555550100',
        externalIdentity: 'auth0|6512f0c9a1b2',
        expiredDate: null,
        roles: [{ id: 3 }],
        groups: [{ id: 1 }],
      },
    ],
  },
)
export type CreateUserInput = Static<typeof CreateUserBody>

// PUT is a full replacement: every field is required. A GET reply with changes is accepted as is:
// its read-only members are allowed and ignored.
export const ReplaceUserBody = Type.Object(
  {
    id: Type.Optional(Type.Integer({ description: 'Read-only; must equal the path id when given.' })),
    userName: Type.Optional(Type.String({ description: 'Read-only; ignored.' })),
    isActive: Type.Optional(Type.Boolean({ description: 'Read-only; ignored (set expiredDate instead).' })),
    createdAt: Type.Optional(Type.String({ description: 'Read-only; ignored.' })),
    updatedAt: Type.Optional(Type.String({ description: 'Read-only; ignored.' })),
    version: Type.Optional(Type.Integer({ description: 'Read-only; ignored (use If-Match).' })),
    emailAddress: Email,
    externalIdentity: ExternalIdentity,
    firstName: Name('Given name'),
    lastName: Name('Family name'),
    phoneNumber: Phone,
    expiredDate: ExpiredDate,
    accountHolderId: AccountHolderId,
    roles: Type.Array(Ref, { maxItems: 100 }),
    groups: Type.Array(Ref, { maxItems: 100 }),
    password: Type.Optional(Password),
  },
  {
    additionalProperties: false,
    examples: [
      {
        emailAddress: 'jane.doe@admin.example',
        firstName: 'Jane',
        lastName: 'Doe',
        phoneNumber: '+15555550100',
        externalIdentity: 'auth0|6512f0c9a1b2',
        expiredDate: '2026-12-31T23:59:59Z',
        accountHolderId: null,
        roles: [{ id: 3 }],
        groups: [],
      },
    ],
  },
)
export type ReplaceUserInput = Static<typeof ReplaceUserBody>

export const UserSearchQuery = Type.Object(
  {
    'searchData.id': Type.Optional(Type.Integer({ description: 'Exact user id.' })),
    'searchData.emailAddress': Type.Optional(
      Type.String({ maxLength: 254, description: 'Exact email address (compared case-insensitively).' }),
    ),
    'searchData.externalIdentity': Type.Optional(
      Type.String({ maxLength: 255, description: 'Exact External Identity.' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 100, max 1000).' }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Rows to skip.' })),
  },
  { additionalProperties: false },
)

export const UserIdParams = Type.Object({ userId: IntegerId('User id') })
