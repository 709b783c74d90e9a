// What the SCIM endpoint supports, as RFC 7643 §5-7 describe it to clients: ServiceProviderConfig,
// the User schema (only the attributes the service holds) and the User resource type. Keep these in
// step with scim.mapper.ts, scim.patch.ts and scim.filter.ts: they are the promise those keep.
import { MAX_FILTER_BRANCHES } from './scim.filter.ts'
import {
  SCIM_MAX_COUNT,
  SCIM_RESOURCE_TYPE_URN,
  SCIM_SCHEMA_URN,
  SCIM_SPC_URN,
  SCIM_USER_URN,
  type AttributeDto,
  type ResourceSchemaDto,
  type ResourceTypeDto,
  type ServiceProviderConfigDto,
} from './scim.schemas.ts'

const scimBase = (baseUrl: string) => `${baseUrl}/api/v2`

export function serviceProviderConfig(baseUrl: string): ServiceProviderConfigDto {
  return {
    schemas: [SCIM_SPC_URN],
    documentationUri: `${baseUrl}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: `Authorization: Bearer <access token> (from POST ${baseUrl}/api/auth/token or the tenant's identity provider), together with the tenant's X-Api-Key header. Filters: eq on userName, externalId, emails.value and id, with and/or (at most ${MAX_FILTER_BRANCHES} alternatives).`,
        specUri: 'https://www.rfc-editor.org/info/rfc6750',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${scimBase(baseUrl)}/ServiceProviderConfig` },
  }
}

type Characteristics = Omit<AttributeDto, 'name' | 'type' | 'description' | 'subAttributes'>

const READ_WRITE: Characteristics = {
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
}

const attribute = (
  name: string,
  type: string,
  description: string,
  more: Partial<AttributeDto> = {},
): AttributeDto => ({ name, type, description, ...READ_WRITE, ...more })

const multiValued = (name: string, description: string): AttributeDto =>
  attribute(name, 'complex', description, {
    multiValued: true,
    subAttributes: [
      attribute('value', 'string', `The ${name === 'emails' ? 'email address' : 'phone number'}.`),
      attribute('type', 'string', 'Always "work": the one value held.', { canonicalValues: ['work'] }),
      attribute('primary', 'boolean', 'Always true: the one value held.'),
    ],
  })

const USER_ATTRIBUTES: AttributeDto[] = [
  attribute('id', 'string', 'The user id, assigned by the service.', {
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  }),
  attribute(
    'externalId',
    'string',
    "The External Identity: the user's identifier at the identity provider, matched when it signs the user in. Unique in the tenant.",
    {
      caseExact: true,
      uniqueness: 'server',
    },
  ),
  attribute('userName', 'string', "The user's email address; unique in the tenant, compared case-insensitively.", {
    required: true,
    uniqueness: 'server',
  }),
  attribute('name', 'complex', "The user's name.", {
    subAttributes: [attribute('givenName', 'string', 'Given name.'), attribute('familyName', 'string', 'Family name.')],
  }),
  attribute(
    'active',
    'boolean',
    'false once the user has expired. Setting false expires the user now; true reactivates an expired user (a later expiry set through v1 is kept while the user is still active).',
  ),
  multiValued(
    'emails',
    'One email: the userName, of type "work". A different work email than the userName is refused; other emails are not held.',
  ),
  multiValued('phoneNumbers', 'At most one phone number, the primary or work one; others are not held.'),
]

export function userSchema(baseUrl: string): ResourceSchemaDto {
  return {
    schemas: [SCIM_SCHEMA_URN],
    id: SCIM_USER_URN,
    name: 'User',
    description: 'User account. Roles and groups are managed through /api/v1/adminusers and are kept by SCIM writes.',
    attributes: USER_ATTRIBUTES,
    meta: { resourceType: 'Schema', location: `${scimBase(baseUrl)}/Schemas/${SCIM_USER_URN}` },
  }
}

export function userResourceType(baseUrl: string): ResourceTypeDto {
  return {
    schemas: [SCIM_RESOURCE_TYPE_URN],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'User account',
    schema: SCIM_USER_URN,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${scimBase(baseUrl)}/ResourceTypes/User` },
  }
}
