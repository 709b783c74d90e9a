// TypeBox schemas of the SCIM 2.0 routes (RFC 7643 resources, RFC 7644 messages). Input schemas let
// unknown attributes through (RFC 7644 §3.3: attributes the service does not hold are ignored);
// output schemas list every attribute the service returns.
import { Type, type Static, type TSchema } from 'typebox'
import { problemResponse } from '../../platform/http/schemas.ts'
import { SCIM_ERROR_URN } from './scim.errors.ts'
import { MAX_FILTER_LENGTH, SCIM_USER_URN } from './scim.filter.ts'

export { SCIM_USER_URN }
export const SCIM_LIST_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const SCIM_PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const SCIM_SPC_URN = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'
export const SCIM_RESOURCE_TYPE_URN = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType'
export const SCIM_SCHEMA_URN = 'urn:ietf:params:scim:schemas:core:2.0:Schema'

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8'
/** What the SCIM routes accept, for the OpenAPI document. */
export const SCIM_MEDIA_TYPES = ['application/scim+json', 'application/json']
/** What they answer with, whatever the request's media type: SCIM JSON only. */
export const SCIM_REPLY_MEDIA_TYPES = ['application/scim+json']

export const SCIM_DEFAULT_COUNT = 100
export const SCIM_MAX_COUNT = 1000

// ---------------------------------------------------------------------------------------------
// Errors

export const ScimErrorSchema = Type.Object(
  {
    schemas: Type.Array(Type.String(), { examples: [[SCIM_ERROR_URN]] }),
    status: Type.String({ description: 'The HTTP status code, as a string.' }),
    scimType: Type.Optional(
      Type.String({
        description:
          'RFC 7644 Table 9: invalidFilter, uniqueness, mutability, invalidSyntax, invalidPath, noTarget, invalidValue, ...',
      }),
    ),
    detail: Type.String(),
  },
  {
    $id: 'ScimError',
    description: 'SCIM error (RFC 7644 §3.12), sent as application/scim+json.',
    examples: [
      {
        schemas: [SCIM_ERROR_URN],
        status: '400',
        scimType: 'invalidFilter',
        detail: "The operator 'co' is not supported",
      },
    ],
  },
)

const errorRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ScimError#' })

/** The SCIM error replies of an authenticated route (application/scim+json), for the OpenAPI document and serialization. */
export function scimErrorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {}
  for (const s of [400, 401, 403, 429, ...statuses]) out[s] = problemResponse(s, 'application/scim+json', errorRef)
  return out
}

// ---------------------------------------------------------------------------------------------
// The User resource, as returned

const MultiValueOut = Type.Object({
  value: Type.String(),
  type: Type.String({ examples: ['work'] }),
  primary: Type.Boolean(),
})

const MetaOut = Type.Object({
  resourceType: Type.String({ examples: ['User'] }),
  created: Type.String({ format: 'date-time' }),
  lastModified: Type.String({ format: 'date-time' }),
  location: Type.String({ description: 'URI of the resource.' }),
  version: Type.String({ description: 'Weak entity tag, as in the ETag header.', examples: ['W/"3"'] }),
})

const userExample = {
  schemas: [SCIM_USER_URN],
  id: '1042',
  externalId: '5f8a7c2e-1d3b-4e6f-9a0b-2c4d6e8f0a1b',
  userName: 'jane.doe@admin.example',
  name: { givenName: 'Jane', familyName: 'Doe' },
  active: true,
  emails: [{ value: 'jane.doe@admin.example', type: 'work', primary: true }],
  phoneNumbers: [{ value: '+15555550100', type: 'work', primary: true }],
  meta: {
    resourceType: 'User',
    created: '2026-01-02T15:04:05.000Z',
    lastModified: '2026-01-02T15:04:05.000Z',
    location: 'https://admin.example/api/v2/Users/1042',
    version: 'W/"1"',
  },
}

export const ScimUserSchema = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String({ description: 'The user id (the v1 integer id, as a string).' }),
    externalId: Type.Optional(
      Type.String({ description: "The External Identity: the user's identifier at the identity provider." }),
    ),
    userName: Type.String({ description: 'The email address; unique in the tenant, compared case-insensitively.' }),
    name: Type.Optional(
      Type.Object({
        givenName: Type.Optional(Type.String()),
        familyName: Type.Optional(Type.String()),
      }),
    ),
    active: Type.Boolean({ description: "false once the user's expiredDate has passed." }),
    emails: Type.Array(MultiValueOut, { description: 'Exactly one: the work email, which is the userName.' }),
    phoneNumbers: Type.Optional(Type.Array(MultiValueOut, { description: 'At most one: the work phone.' })),
    meta: MetaOut,
  },
  { $id: 'ScimUser', description: 'A user as a SCIM 2.0 User resource (RFC 7643 §4.1).', examples: [userExample] },
)
export type ScimUserDto = Static<typeof ScimUserSchema>

export const scimUserRef = Type.Unsafe<ScimUserDto>({ $ref: 'ScimUser#' })

export const ScimUserListSchema = Type.Object(
  {
    schemas: Type.Array(Type.String(), { examples: [[SCIM_LIST_URN]] }),
    totalResults: Type.Integer({ minimum: 0 }),
    startIndex: Type.Integer({ minimum: 1 }),
    itemsPerPage: Type.Integer({ minimum: 0 }),
    Resources: Type.Array(scimUserRef),
  },
  {
    description: 'ListResponse (RFC 7644 §3.4.2).',
    examples: [{ schemas: [SCIM_LIST_URN], totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [userExample] }],
  },
)

// ---------------------------------------------------------------------------------------------
// The User resource, as written (POST, PUT)

/** Entra ID sends booleans as the strings "True" and "False". */
export const ScimBoolean = Type.Union(
  [Type.Boolean(), Type.String({ pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$' })],
  { description: 'true or false (also the strings "True" and "False", as Entra ID sends them).' },
)

const NameIn = Type.Union([Type.String({ maxLength: 100 }), Type.Null()])

const MultiValueIn = Type.Object(
  {
    value: Type.Optional(Type.Union([Type.String({ maxLength: 254 }), Type.Null()])),
    type: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
    primary: Type.Optional(ScimBoolean),
  },
  { additionalProperties: true },
)

export const ScimUserBody = Type.Object(
  {
    schemas: Type.Optional(Type.Array(Type.String(), { maxItems: 20 })),
    userName: Type.String({ format: 'email', maxLength: 254, description: 'The email address.' }),
    externalId: Type.Optional(
      Type.Union([Type.String({ maxLength: 255 }), Type.Null()], {
        description: 'The External Identity. On PUT, leaving it out keeps the current value; null clears it.',
      }),
    ),
    name: Type.Optional(
      Type.Union([
        Type.Object(
          {
            givenName: Type.Optional(NameIn),
            familyName: Type.Optional(NameIn),
          },
          { additionalProperties: true },
        ),
        Type.Null(),
      ]),
    ),
    active: Type.Optional(
      Type.Union([ScimBoolean, Type.Null()], {
        description:
          'false expires the user now; true reactivates an expired user. Left out: true on POST, unchanged on PUT.',
      }),
    ),
    emails: Type.Optional(
      Type.Union([Type.Array(MultiValueIn, { maxItems: 20 }), Type.Null()], {
        description:
          'The primary (else the work, else the untyped) email must be the userName; other emails are not stored.',
      }),
    ),
    phoneNumbers: Type.Optional(
      Type.Union([Type.Array(MultiValueIn, { maxItems: 20 }), Type.Null()], {
        description: 'The primary (else the work, else the untyped) phone number is stored; others are not.',
      }),
    ),
  },
  {
    additionalProperties: true,
    description:
      'A SCIM User. Read-only attributes (id, meta, groups) and attributes the service does not hold (displayName, title, addresses, extensions, ...) are ignored.',
    examples: [
      {
        schemas: [SCIM_USER_URN],
        userName: 'jane.doe@admin.example',
        externalId: '5f8a7c2e-1d3b-4e6f-9a0b-2c4d6e8f0a1b',
        name: { givenName: 'Jane', familyName: 'Doe' },
        active: true,
        emails: [{ value: 'jane.doe@admin.example', type: 'work', primary: true }],
        phoneNumbers: [{ value: '+15555550100', type: 'work' }],
      },
    ],
  },
)
export type ScimUserInput = Static<typeof ScimUserBody>

// ---------------------------------------------------------------------------------------------
// PATCH (RFC 7644 §3.5.2)

export const ScimPatchBody = Type.Object(
  {
    schemas: Type.Optional(Type.Array(Type.String(), { maxItems: 20, examples: [[SCIM_PATCH_URN]] })),
    Operations: Type.Array(
      Type.Object(
        {
          op: Type.String({
            pattern: '^([Aa][Dd][Dd]|[Rr][Ee][Pp][Ll][Aa][Cc][Ee]|[Rr][Ee][Mm][Oo][Vv][Ee])$',
            description: 'add, replace or remove, in any case (Entra ID sends "Add", "Replace", "Remove").',
          }),
          path: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: MAX_FILTER_LENGTH,
              examples: ['name.givenName', 'emails[type eq "work"].value'],
            }),
          ),
          value: Type.Optional(Type.Unknown()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  {
    additionalProperties: true,
    examples: [
      { schemas: [SCIM_PATCH_URN], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
      { schemas: [SCIM_PATCH_URN], Operations: [{ op: 'replace', value: { active: false } }] },
      {
        schemas: [SCIM_PATCH_URN],
        Operations: [
          { op: 'Replace', path: 'name.givenName', value: 'Janet' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'janet.doe@admin.example' },
          { op: 'Add', path: 'externalId', value: '5f8a7c2e-1d3b-4e6f-9a0b-2c4d6e8f0a1b' },
        ],
      },
    ],
  },
)
export type ScimPatchInput = Static<typeof ScimPatchBody>

// ---------------------------------------------------------------------------------------------
// Parameters

export const ScimIdParams = Type.Object({
  id: Type.String({
    description: 'User id. Anything that is not the id of a user of the tenant is 404.',
    examples: ['1042'],
  }),
})

export const ScimListQuery = Type.Object(
  {
    filter: Type.Optional(
      Type.String({
        maxLength: MAX_FILTER_LENGTH,
        description:
          'eq on userName (case-insensitive), externalId, emails.value (also emails[type eq "work" and value eq "..."]) and id, combined with and, or and parentheses; anything else is 400 invalidFilter.',
        examples: ['userName eq "jane.doe@admin.example"'],
      }),
    ),
    startIndex: Type.Optional(
      Type.Integer({
        maximum: 2_147_483_647,
        description: '1-based index of the first result; less than 1 is read as 1.',
      }),
    ),
    count: Type.Optional(
      Type.Integer({
        description: `Page size (default ${SCIM_DEFAULT_COUNT}, at most ${SCIM_MAX_COUNT}); negative is read as 0, which returns only totalResults.`,
      }),
    ),
  },
  {
    additionalProperties: true,
    description:
      'Other parameters (sortBy, attributes, ...) are ignored: results are ordered by id and returned whole.',
  },
)
export type ScimListQueryInput = Static<typeof ScimListQuery>

export const DiscoveryQuery = Type.Object(
  {
    filter: Type.Optional(
      Type.String({
        maxLength: MAX_FILTER_LENGTH,
        description: 'Not supported here: any filter is 403 (RFC 7644 §4).',
      }),
    ),
  },
  { additionalProperties: true },
)

export const DiscoveryIdParams = Type.Object({
  // Schema URNs and resource type names are short; the bound keeps a request with a filter within
  // the request-head limit (platform/http/error-handler.ts MAX_REQUEST_HEAD_BYTES).
  id: Type.String({ maxLength: 200, examples: [SCIM_USER_URN] }),
})

// ---------------------------------------------------------------------------------------------
// Discovery (RFC 7643 §5-7)

const DiscoveryMeta = Type.Object({ resourceType: Type.String(), location: Type.String() })

export const ServiceProviderConfigSchema = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    documentationUri: Type.String(),
    patch: Type.Object({ supported: Type.Boolean() }),
    bulk: Type.Object({ supported: Type.Boolean(), maxOperations: Type.Integer(), maxPayloadSize: Type.Integer() }),
    filter: Type.Object({ supported: Type.Boolean(), maxResults: Type.Integer() }),
    changePassword: Type.Object({ supported: Type.Boolean() }),
    sort: Type.Object({ supported: Type.Boolean() }),
    etag: Type.Object({ supported: Type.Boolean() }),
    authenticationSchemes: Type.Array(
      Type.Object({
        type: Type.String(),
        name: Type.String(),
        description: Type.String(),
        specUri: Type.String(),
        primary: Type.Boolean(),
      }),
    ),
    meta: DiscoveryMeta,
  },
  { description: 'ServiceProviderConfig (RFC 7643 §5).' },
)
export type ServiceProviderConfigDto = Static<typeof ServiceProviderConfigSchema>

const attributeFields = {
  name: Type.String(),
  type: Type.String({ examples: ['string', 'boolean', 'complex'] }),
  multiValued: Type.Boolean(),
  description: Type.String(),
  required: Type.Boolean(),
  caseExact: Type.Boolean(),
  mutability: Type.String({ examples: ['readWrite', 'readOnly'] }),
  returned: Type.String({ examples: ['default', 'always'] }),
  uniqueness: Type.String({ examples: ['none', 'server'] }),
  canonicalValues: Type.Optional(Type.Array(Type.String())),
}

const SubAttributeSchema = Type.Object(attributeFields)
const AttributeSchema = Type.Object({
  ...attributeFields,
  subAttributes: Type.Optional(Type.Array(SubAttributeSchema)),
})
export type AttributeDto = Static<typeof AttributeSchema>

export const ResourceSchemaSchema = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    attributes: Type.Array(AttributeSchema),
    meta: DiscoveryMeta,
  },
  { description: 'A resource schema (RFC 7643 §7).' },
)
export type ResourceSchemaDto = Static<typeof ResourceSchemaSchema>

export const ResourceTypeSchema = Type.Object(
  {
    schemas: Type.Array(Type.String()),
    id: Type.String(),
    name: Type.String(),
    endpoint: Type.String(),
    description: Type.String(),
    schema: Type.String(),
    schemaExtensions: Type.Array(Type.Object({ schema: Type.String(), required: Type.Boolean() })),
    meta: DiscoveryMeta,
  },
  { description: 'A resource type (RFC 7643 §6).' },
)
export type ResourceTypeDto = Static<typeof ResourceTypeSchema>

export function ListOf<T extends TSchema>(item: T, description: string) {
  return Type.Object(
    {
      schemas: Type.Array(Type.String()),
      totalResults: Type.Integer(),
      startIndex: Type.Integer(),
      itemsPerPage: Type.Integer(),
      Resources: Type.Array(item),
    },
    { description },
  )
}
