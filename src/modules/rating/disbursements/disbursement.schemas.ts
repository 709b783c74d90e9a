// TypeBox schemas of account-holder disbursements: the create body, the whole record a PATCH result
// must be, the reply, the audit-log entry, the code/label/group look-ups, path and query parameters.
import { Type, type Static } from 'typebox'
import { DateTime, IntegerId, ListQuery, nullable } from '../../../platform/http/schemas.ts'
import { BASES, HOLDER_KINDS } from './disbursement.rules.ts'
import { DISBURSEMENT_GROUPS } from '../ratebook/index.ts'

/** One of `values` (anyOf of constants in the document), typed as their union. */
export const literals = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { description },
    ),
  )

const Basis = literals(
  BASES,
  "AMOUNT: a fixed amount per contract (`amount`); PERCENT: a percentage of the rate's base dealer cost (`percent`).",
)
const HolderKind = literals(HOLDER_KINDS, 'Kind of the account holder: DEALER, DEALER_GROUP or AGENT.')
const Group = literals(DISBURSEMENT_GROUPS, 'Group of the disbursement code, from the rate book.')
const Code = Type.String({
  pattern: '^[A-Z0-9][A-Z0-9_.-]{0,39}$',
  description: 'A disbursement code of the active rate book (GET /api/Rates/Disbursements/DisbursementsCodes).',
})
/** Dates: the rules check the calendar and the range (1900 to 2999), so the schema only bounds the length. */
const DateValue = (description: string) => Type.String({ format: 'date', maxLength: 10, description })
const Amount = Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
  description:
    'Required when basis is AMOUNT, absent or null otherwise: greater than 0, at most 1000000, at most 2 decimal places; a JSON number or a decimal string.',
})
const Percent = Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
  description:
    "Required when basis is PERCENT, absent or null otherwise: per cent of the rate's base dealer cost, greater than 0, at most 100, at most 4 decimal places; a JSON number or a decimal string.",
})
const CatalogueId = (kind: string) =>
  nullable(
    Type.Integer({ minimum: 1 }),
    `Id of a ${kind} of the rate catalogue (rating catalogue item of kind ${kind}); absent or null: any.`,
  )

const TargetInput = Type.Object(
  {
    productId: Type.Optional(CatalogueId('PRODUCT')),
    programId: Type.Optional(CatalogueId('PROGRAM')),
    planId: Type.Optional(CatalogueId('PLAN')),
    termId: Type.Optional(CatalogueId('TERM')),
  },
  {
    additionalProperties: false,
    description:
      'What the disbursement applies to: a rate qualifies when each id given equals its own. No ids (or no target): every product.',
  },
)

const EffectiveFrom = DateValue('First sale date the disbursement applies to.')
const EffectiveTo = nullable(
  DateValue('Last sale date the disbursement applies to (inclusive).'),
  'Last sale date the disbursement applies to (inclusive); null or absent: open-ended. Ending a disbursement sets it (there is no DELETE).',
)

export const CREATE_EXAMPLE = {
  code: 'DLRPACK',
  basis: 'AMOUNT',
  amount: 150,
  target: { productId: 11, planId: 14 },
  effectiveFrom: '2026-01-01',
}

export const CreateDisbursementBody = Type.Object(
  {
    code: Code,
    basis: Basis,
    amount: Type.Optional(Type.Union([Amount, Type.Null()])),
    percent: Type.Optional(Type.Union([Percent, Type.Null()])),
    target: Type.Optional(TargetInput),
    effectiveFrom: EffectiveFrom,
    effectiveTo: Type.Optional(EffectiveTo),
  },
  {
    additionalProperties: false,
    examples: [
      CREATE_EXAMPLE,
      { code: 'AGTCOMM', basis: 'PERCENT', percent: 2.5, effectiveFrom: '2026-01-01', effectiveTo: '2026-12-31' },
    ],
  },
)

/** Members of the representation that a PATCH cannot change (label and group follow the code). */
export const IMMUTABLE_FIELDS = [
  'id',
  'accountHolderId',
  'accountHolderKind',
  'label',
  'group',
  'createdAt',
  'updatedAt',
  'version',
  'auditLogId',
] as const

/** What a PATCH result must be: the editable members plus the read-only members of a reply. */
export const PatchedDisbursementSchema = Type.Object(
  {
    ...CreateDisbursementBody.properties,
    id: Type.Integer(),
    accountHolderId: Type.Integer(),
    accountHolderKind: Type.String(),
    label: Type.String(),
    group: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.Optional(Type.String()),
    version: Type.Optional(Type.Integer()),
    auditLogId: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  },
  { additionalProperties: false },
)

export const DISBURSEMENT_EXAMPLE = {
  id: 3107,
  accountHolderId: 77,
  accountHolderKind: 'DEALER',
  code: 'DLRPACK',
  label: 'Dealer pack',
  group: 'DEALER_PACK',
  basis: 'AMOUNT',
  amount: 150,
  percent: null,
  target: { productId: 11, programId: null, planId: 14, termId: null },
  effectiveFrom: '2026-01-01',
  effectiveTo: null,
  createdAt: '2026-01-02T15:04:05.000Z',
  updatedAt: '2026-01-02T15:04:05.000Z',
  version: 1,
  auditLogId: 90211,
}

const TargetReply = Type.Object(
  {
    productId: Type.Union([Type.Integer(), Type.Null()]),
    programId: Type.Union([Type.Integer(), Type.Null()]),
    planId: Type.Union([Type.Integer(), Type.Null()]),
    termId: Type.Union([Type.Integer(), Type.Null()]),
  },
  { description: 'Catalogue ids the disbursement is limited to; null: any.' },
)

const replyMembers = {
  id: Type.Integer(),
  accountHolderId: Type.Integer({
    description: 'The dealer, dealer group or agent the disbursement is attached to. Cannot change.',
  }),
  accountHolderKind: HolderKind,
  code: Type.String({ description: 'Disbursement code of the rate book.' }),
  label: Type.String({
    description: "The code's label in the rate book when the code was set. Follows the code; cannot be patched.",
  }),
  group: Group,
  basis: Basis,
  amount: Type.Union([Type.Number(), Type.Null()], {
    description: 'Amount per contract, a JSON number with at most 2 decimal places (150, 150.5); null for PERCENT.',
  }),
  percent: Type.Union([Type.Number(), Type.Null()], {
    description:
      'Per cent of the base dealer cost, a JSON number with at most 4 decimal places (2.5); null for AMOUNT.',
  }),
  target: TargetReply,
  effectiveFrom: Type.String({ format: 'date' }),
  effectiveTo: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'Last sale date it applies to (inclusive); null: open-ended.',
  }),
  createdAt: DateTime('When the disbursement was created.'),
  updatedAt: DateTime('When it last changed.'),
  version: Type.Integer({ description: 'Row version; the ETag.' }),
}

export const DisbursementSchema = Type.Object(
  {
    ...replyMembers,
    auditLogId: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The audit-log entry of the latest change (GET /api/Rates/Disbursements/AuditLog/{auditLogId}).',
    }),
  },
  { $id: 'RateDisbursement', examples: [DISBURSEMENT_EXAMPLE] },
)

export type Disbursement = Static<typeof DisbursementSchema>

/** The disbursement as an audit entry keeps it: the reply without updatedAt and auditLogId. */
const SnapshotSchema = Type.Object(
  Object.fromEntries(Object.entries(replyMembers).map(([k, v]) => [k, Type.Optional(v)])),
  {
    additionalProperties: true,
    description: 'The disbursement as it was (before) or became (after) the change.',
  },
)

const { updatedAt: _updatedAt, auditLogId: _auditLogId, ...SNAPSHOT_EXAMPLE } = DISBURSEMENT_EXAMPLE

export const AUDIT_ENTRY_EXAMPLE = {
  id: 90212,
  disbursementId: 3107,
  accountHolderId: 77,
  action: 'UPDATED',
  occurredAt: '2026-03-01T09:30:00.000Z',
  actor: { userId: 12, label: 'pat.admin@acme.example' },
  requestId: '5f0c6f1e-8f1a-4c53-9a55-2b8f6c0e9d1a',
  changedFields: ['effectiveTo'],
  before: SNAPSHOT_EXAMPLE,
  after: { ...SNAPSHOT_EXAMPLE, effectiveTo: '2026-02-28', version: 2 },
}

export const DisbursementAuditEntrySchema = Type.Object(
  {
    id: Type.Integer({ description: 'Audit-log entry id.' }),
    disbursementId: Type.Integer(),
    accountHolderId: Type.Integer(),
    action: literals(['CREATED', 'UPDATED'] as const, 'What happened to the disbursement.'),
    occurredAt: DateTime('When the change was made.'),
    actor: Type.Object({
      userId: Type.Union([Type.Integer(), Type.Null()], {
        description: 'The user who made the change; null for operators and the system.',
      }),
      label: Type.String({ description: "The user's email address, or who else made the change." }),
    }),
    requestId: Type.Union([Type.String(), Type.Null()], {
      description: 'X-Request-Id of the request that made the change.',
    }),
    changedFields: Type.Array(Type.String(), {
      description: 'Members that differ between before and after (target members as target.productId).',
    }),
    before: Type.Union([SnapshotSchema, Type.Null()], {
      description: 'The disbursement before the change; null when it was created.',
    }),
    after: SnapshotSchema,
  },
  { $id: 'RateDisbursementAuditEntry', examples: [AUDIT_ENTRY_EXAMPLE] },
)

/** The entry; before and after are the stored snapshots, whatever members they held when written. */
export type DisbursementAuditEntry = Omit<Static<typeof DisbursementAuditEntrySchema>, 'before' | 'after'> & {
  before: Record<string, unknown> | null
  after: Record<string, unknown>
}

export const DisbursementCodeSchema = Type.Object(
  {
    code: Type.String(),
    label: Type.String(),
    group: Group,
  },
  { examples: [{ code: 'DLRPACK', label: 'Dealer pack', group: 'DEALER_PACK' }] },
)

export const DisbursementLabelSchema = Type.Object(
  {
    label: Type.String(),
    codes: Type.Array(Type.String(), { description: 'The codes carrying this label.' }),
  },
  { examples: [{ label: 'Dealer pack', codes: ['DLRPACK'] }] },
)

export const DisbursementGroupSchema = Type.Object(
  {
    group: Group,
    description: Type.String(),
  },
  {
    examples: [
      { group: 'DEALER_PACK', description: 'Dealer pack: an amount added to the dealer cost that the dealer keeps.' },
    ],
  },
)

export const DisbursementIdParams = Type.Object({ disbursementId: IntegerId('Disbursement id') })
export const AccountHolderIdParams = Type.Object({
  accountHolderId: IntegerId('Account holder id (a dealer, dealer group or agent)'),
})
export const AuditLogIdParams = Type.Object({
  auditLogId: IntegerId('Audit-log entry id (auditLogId of a disbursement reply)'),
})

/** A date query parameter; the pattern keeps it within the years PostgreSQL and the rules accept. */
const DateQuery = (description: string) =>
  Type.String({
    format: 'date',
    pattern: '^(19|2[0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}$',
    description,
    examples: ['2026-06-30'],
  })

export const DisbursementListQuery = Type.Object(
  {
    effectiveOn: Type.Optional(DateQuery('Only disbursements that apply to sales of this date.')),
    code: Type.Optional(
      Type.String({ pattern: '^[A-Z0-9][A-Z0-9_.-]{0,39}$', description: 'Only disbursements with this code.' }),
    ),
    ...ListQuery,
  },
  { additionalProperties: false },
)
