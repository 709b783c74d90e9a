// TypeBox schemas of account holders, built per kind from the shared supertype and the kind's own
// fields (account-holder.kinds.ts): create body, reply, and the whole-record schema a PATCH result
// must satisfy.
import { Type, type TProperties } from 'typebox'
import { IdFilter, IntegerId, ListQuery, PagedQuery } from '../../platform/http/schemas.ts'
import { PHONE_PATTERN, TAX_ID_PATTERN, US_STATES, ZIP_PATTERN, type UsState } from './contact.rules.ts'
import type { AccountHolderKind } from '../../platform/db/schema.ts'
import type { KindDefinition } from './account-holder.kinds.ts'

const State = Type.Unsafe<UsState>({
  type: 'string',
  enum: [...US_STATES],
  description: 'USPS state or territory code.',
})

export const AddressSchema = Type.Object(
  {
    type: Type.Union(
      [Type.Literal('MAILING'), Type.Literal('PHYSICAL'), Type.Literal('BILLING'), Type.Literal('REMIT')],
      { default: 'MAILING' },
    ),
    line1: Type.String({ minLength: 1, maxLength: 100 }),
    line2: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    city: Type.String({ minLength: 1, maxLength: 60 }),
    state: State,
    postalCode: Type.String({ pattern: ZIP_PATTERN, description: 'ZIP or ZIP+4.' }),
    country: Type.Optional(Type.Literal('US', { description: 'Only US addresses are supported.' })),
  },
  { additionalProperties: false },
)

export const PhoneSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('OFFICE'), Type.Literal('MOBILE'), Type.Literal('FAX'), Type.Literal('TOLL_FREE')], {
      default: 'OFFICE',
    }),
    number: Type.String({
      pattern: PHONE_PATTERN,
      description: 'E.164 (+15125550100) or North American national form ((512) 555-0100).',
    }),
  },
  { additionalProperties: false },
)

export const EmailSchema = Type.Object(
  {
    type: Type.Union(
      [Type.Literal('PRIMARY'), Type.Literal('BILLING'), Type.Literal('CLAIMS'), Type.Literal('CONTRACTS')],
      { default: 'PRIMARY' },
    ),
    address: Type.String({ format: 'email', maxLength: 254 }),
  },
  { additionalProperties: false },
)

const Status = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')])

/** The supertype's editable fields. */
const commonInput = {
  legalName: Type.String({ minLength: 1, maxLength: 200, description: 'Legal (registered) name.' }),
  displayName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Name shown to people; defaults to the legal name.' }),
  ),
  // Status's own members, not [Status]: a one-member anyOf around it says nothing (and linters flag it).
  status: Type.Optional(Type.Union(Status.anyOf, { description: 'ACTIVE (default) or INACTIVE.' })),
  expiredDate: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'From this moment the account holder takes no new business.',
    }),
  ),
  taxId: Type.Optional(
    Type.Union([Type.String({ pattern: TAX_ID_PATTERN, description: 'EIN or SSN/ITIN.' }), Type.Null()]),
  ),
  w9OnFile: Type.Optional(Type.Boolean({ description: 'An IRS form W-9 has been received.' })),
  addresses: Type.Optional(Type.Array(AddressSchema, { maxItems: 10 })),
  phones: Type.Optional(Type.Array(PhoneSchema, { maxItems: 10 })),
  emails: Type.Optional(Type.Array(EmailSchema, { maxItems: 10 })),
}

/** Fields that hold references, by kind (validated against the tenant's data by the service). */
function referenceInput(def: KindDefinition): TProperties {
  if (def.kind !== 'DEALER') return {}
  return {
    dealerGroupId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description: 'The dealer group the dealer belongs to.',
      }),
    ),
    agentIds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        maxItems: 20,
        uniqueItems: true,
        description: 'Agents who signed the dealer.',
      }),
    ),
  }
}

function businessKey(def: KindDefinition, required: boolean): TProperties {
  if (!def.businessKeyField) return {}
  const schema = Type.String({
    minLength: 1,
    maxLength: 40,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
    description: def.businessKeyDescription ?? 'Business key.',
  })
  return { [def.businessKeyField]: required ? schema : Type.Optional(schema) }
}

export function createBodySchema(def: KindDefinition) {
  return Type.Object(
    {
      ...businessKey(def, true),
      ...commonInput,
      ...referenceInput(def),
      ...def.details,
    },
    { additionalProperties: false, examples: [def.example] },
  )
}

/** Read-only members of a reply; present in a patched representation, never changed by it. */
export const READ_ONLY_FIELDS = ['id', 'kind', 'isActive', 'createdAt', 'updatedAt', 'version'] as const

/** What a PATCH result must be: the create body plus the read-only members of a reply. */
export function patchedSchema(def: KindDefinition) {
  return Type.Object(
    {
      id: Type.Integer(),
      kind: Type.String(),
      isActive: Type.Optional(Type.Boolean()),
      createdAt: Type.String(),
      updatedAt: Type.Optional(Type.String()),
      version: Type.Optional(Type.Integer()),
      ...businessKey(def, true),
      ...commonInput,
      displayName: Type.String({ minLength: 1, maxLength: 200 }),
      ...referenceInput(def),
      ...def.details,
    },
    { additionalProperties: false },
  )
}

/** Component name of a kind's reply in the OpenAPI document: DEALER → Dealer, LIEN_HOLDER → LienHolder. */
export function replySchemaId(def: KindDefinition): string {
  return def.kind
    .split('_')
    .map((w) => w[0] + w.slice(1).toLowerCase())
    .join('')
}

/** The business key as a reply has it: null on records created without one (businessKeyNullable). */
function replyBusinessKey(def: KindDefinition): TProperties {
  const key = businessKey(def, true)
  if (!def.businessKeyField || !def.businessKeyNullable) return key
  const schema = key[def.businessKeyField]!
  return {
    [def.businessKeyField]: Type.Union([schema, Type.Null()], {
      description: `${def.businessKeyDescription ?? 'Business key.'} Null on a ${def.noun} recorded from a contract without one.`,
    }),
  }
}

export function replySchema(def: KindDefinition) {
  const details: TProperties = {}
  for (const [k, v] of Object.entries(def.details)) details[k] = v
  const id = replySchemaId(def)
  return Type.Object(
    {
      id: Type.Integer(),
      kind: Type.Literal(def.kind),
      ...replyBusinessKey(def),
      legalName: Type.String(),
      displayName: Type.String(),
      status: Status,
      expiredDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      isActive: Type.Boolean({ description: 'ACTIVE and not past expiredDate: may take new business.' }),
      taxId: Type.Union([Type.String(), Type.Null()], {
        description: 'Masked to the last four digits unless the caller holds bankdetails:read.',
      }),
      w9OnFile: Type.Boolean(),
      addresses: Type.Array(AddressSchema),
      phones: Type.Array(PhoneSchema),
      emails: Type.Array(EmailSchema),
      ...(def.kind === 'DEALER'
        ? {
            dealerGroupId: Type.Union([Type.Integer(), Type.Null()]),
            agentIds: Type.Array(Type.Integer()),
          }
        : {}),
      ...details,
      createdAt: Type.String({ format: 'date-time' }),
      updatedAt: Type.String({ format: 'date-time' }),
      version: Type.Integer(),
    },
    {
      $id: id,
      examples: [
        {
          id: 77,
          kind: def.kind,
          legalName: 'Example',
          displayName: 'Example',
          status: 'ACTIVE',
          expiredDate: null,
          isActive: true,
          taxId: '*****6789',
          w9OnFile: true,
          addresses: [
            { type: 'MAILING', line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
          ],
          phones: [{ type: 'OFFICE', number: '+15125550100' }],
          emails: [{ type: 'PRIMARY', address: 'office@example.com' }],
          ...(def.kind === 'DEALER' ? { dealerGroupId: 12, agentIds: [91] } : {}),
          ...def.example,
          createdAt: '2026-01-02T15:04:05.000Z',
          updatedAt: '2026-01-02T15:04:05.000Z',
          version: 1,
        },
      ],
    },
  )
}

export function idParams(def: KindDefinition) {
  return Type.Object({ [def.idParam]: IntegerId(`${def.noun} id`) })
}

export const StatusFilter = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE'), Type.Literal('EXPIRED')], {
  description: 'ACTIVE: may take new business; INACTIVE: status set inactive; EXPIRED: past its expired date.',
})

export function listQuery(def: KindDefinition) {
  return Type.Object(
    {
      name: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Part of the legal or display name (case-insensitive).',
        }),
      ),
      ...(def.businessKeyField
        ? {
            [def.businessKeyField]: Type.Optional(
              Type.String({ maxLength: 40, description: 'Exact business key (case-insensitive).' }),
            ),
          }
        : {}),
      state: Type.Optional(State),
      status: Type.Optional(StatusFilter),
      ...(def.kind === 'DEALER'
        ? {
            dealerGroupId: Type.Optional(IdFilter('Dealers of this dealer group.')),
            agentId: Type.Optional(IdFilter('Dealers of this agent.')),
          }
        : {}),
      ...ListQuery,
    },
    { additionalProperties: false },
  )
}

export const KindFilter = Type.Unsafe<AccountHolderKind>({
  type: 'string',
  enum: [
    'ADMIN_COMPANY',
    'DEALER',
    'DEALER_GROUP',
    'AGENT',
    'CUSTOMER',
    'INSURER',
    'LIEN_HOLDER',
    'REPAIR_FACILITY',
    'INSPECTION_COMPANY',
    'CLAIM_PAYEE',
    'REINSURANCE_COMPANY',
  ],
})

export const AccountHolderSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    kind: KindFilter,
    businessKey: Type.Union([Type.String(), Type.Null()]),
    legalName: Type.String(),
    displayName: Type.String(),
    status: Status,
    expiredDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    isActive: Type.Boolean(),
    state: Type.Union([Type.String(), Type.Null()], { description: 'State of the first address.' }),
  },
  {
    $id: 'AccountHolderSummary',
    examples: [
      {
        id: 77,
        kind: 'DEALER',
        businessKey: '10045',
        legalName: 'Main Street Motors LLC',
        displayName: 'Main St Honda',
        status: 'ACTIVE',
        expiredDate: null,
        isActive: true,
        state: 'TX',
      },
    ],
  },
)

export const AccountHolderSearchQuery = Type.Object(
  {
    kind: Type.Optional(KindFilter),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Part of the legal or display name (case-insensitive).',
      }),
    ),
    businessKey: Type.Optional(Type.String({ maxLength: 40, description: 'Exact business key (case-insensitive).' })),
    state: Type.Optional(State),
    status: Type.Optional(StatusFilter),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const PagedLienHolderQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    lienHolderCode: Type.Optional(Type.String({ maxLength: 40 })),
    state: Type.Optional(State),
    status: Type.Optional(StatusFilter),
    ...PagedQuery,
  },
  { additionalProperties: false },
)
