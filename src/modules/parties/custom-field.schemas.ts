// TypeBox schemas of custom fields (on agents, dealer groups and dealers) and of the per-tenant
// definitions that constrain them: bodies, replies, list queries, and the whole-record schemas a
// PATCH result must satisfy. Cross-member rules live in custom-field.rules.ts.
import { Type, type Static } from 'typebox'
import type { CustomFieldType } from '../../platform/db/schema.ts'
import { DateTime, IntegerId, ListQuery } from '../../platform/http/schemas.ts'
import type { KindDefinition } from './account-holder.kinds.ts'
import {
  CUSTOM_FIELD_KINDS,
  CUSTOM_FIELD_TYPES,
  FIELD_NAME_MAX_LENGTH,
  FIELD_NAME_PATTERN,
  STRING_MAX_LENGTH,
  type CustomFieldKind,
} from './custom-field.rules.ts'

const FieldType = Type.Unsafe<CustomFieldType>({
  type: 'string',
  enum: [...CUSTOM_FIELD_TYPES],
  description:
    "STRING, INTEGER, DECIMAL (at most 2 decimals), DATE (YYYY-MM-DD), BOOLEAN or LIST (one of the definition's allowed values).",
})

const AppliesTo = Type.Unsafe<CustomFieldKind>({
  type: 'string',
  enum: [...CUSTOM_FIELD_KINDS],
  description: 'What carries the fields the definition governs: agents, dealer groups, dealers or cash transactions.',
})

const FieldName = Type.String({
  minLength: 1,
  maxLength: FIELD_NAME_MAX_LENGTH,
  pattern: FIELD_NAME_PATTERN,
  description: 'Letters, digits, space, _ . -; unique per account holder ignoring case.',
})

const Value = Type.Union([Type.String(), Type.Number(), Type.Boolean()], {
  description: 'Typed by `type`: STRING, DATE and LIST a string; INTEGER and DECIMAL a number; BOOLEAN true or false.',
})

const Label = Type.String({ minLength: 1, maxLength: 200, description: 'Name shown to people.' })
const AllowedValues = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  minItems: 1,
  maxItems: 200,
  uniqueItems: true,
  description: 'LIST only: the values accepted, exact case.',
})
const MaxLength = Type.Integer({
  minimum: 1,
  maximum: STRING_MAX_LENGTH,
  description: `STRING only: most characters (without a definition: ${STRING_MAX_LENGTH}).`,
})

// ---------------------------------------------------------------------------------------------
// Fields

export const CUSTOM_FIELD_EXAMPLE = {
  id: 311,
  name: 'region',
  type: 'LIST',
  value: 'West',
  label: 'Sales region',
  createdAt: '2026-01-02T15:04:05.000Z',
  updatedAt: '2026-01-05T09:30:00.000Z',
  version: 2,
}

export const CustomFieldSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'As added, or as the definition spells it when one exists.' }),
    type: FieldType,
    value: Value,
    label: Type.Optional(
      Type.String({ description: "The definition's label; absent when no definition governs the name." }),
    ),
    createdAt: DateTime('When the field was added.'),
    updatedAt: DateTime('When the value last changed.'),
    version: Type.Integer({ description: 'Row version, also the ETag.' }),
  },
  { $id: 'CustomField', examples: [CUSTOM_FIELD_EXAMPLE] },
)

export const AddCustomFieldBody = Type.Object(
  {
    name: FieldName,
    type: FieldType,
    value: Value,
  },
  {
    additionalProperties: false,
    examples: [
      { name: 'region', type: 'LIST', value: 'West' },
      { name: 'dmsProvider', type: 'STRING', value: 'CDK' },
      { name: 'creditLimit', type: 'DECIMAL', value: 25000.5 },
    ],
  },
)
export type AddCustomFieldInput = Static<typeof AddCustomFieldBody>

/** What a PATCH result must be: the reply's members, `value` present; whether it fits its type is a rule. */
export const PatchedCustomFieldSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    type: Type.String(),
    value: Value,
    label: Type.Optional(Type.String()),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    version: Type.Integer(),
  },
  { additionalProperties: false },
)

/** Everything but `value` is fixed: to rename or retype a field, delete it and add another. */
export const CUSTOM_FIELD_READ_ONLY = ['id', 'name', 'type', 'label', 'createdAt', 'updatedAt', 'version'] as const

export const CustomFieldListQuery = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: FIELD_NAME_MAX_LENGTH, description: 'Exact name, ignoring case.' }),
    ),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export function parentParams(def: Pick<KindDefinition, 'idParam' | 'noun'>) {
  return Type.Object({ [def.idParam]: IntegerId(`${def.noun} id`) })
}

export function fieldParams(def: Pick<KindDefinition, 'idParam' | 'noun'>) {
  return Type.Object({ [def.idParam]: IntegerId(`${def.noun} id`), fieldId: IntegerId('custom field id') })
}

// ---------------------------------------------------------------------------------------------
// Definitions

export const CUSTOM_FIELD_DEFINITION_EXAMPLE = {
  id: 12,
  appliesTo: 'DEALER',
  name: 'region',
  label: 'Sales region',
  type: 'LIST',
  required: true,
  allowedValues: ['East', 'West', 'Central'],
  maxLength: null,
  createdAt: '2026-01-02T15:04:05.000Z',
  updatedAt: '2026-01-02T15:04:05.000Z',
  version: 1,
}

export const CustomFieldDefinitionSchema = Type.Object(
  {
    id: Type.Integer(),
    appliesTo: AppliesTo,
    name: Type.String({ description: 'The field name it governs, ignoring case; unique per appliesTo.' }),
    label: Type.String(),
    type: FieldType,
    required: Type.Boolean({
      description: 'Fields of this name cannot be deleted; lists report account holders without one.',
    }),
    allowedValues: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'LIST only: the values accepted, exact case.',
    }),
    maxLength: Type.Union([Type.Integer(), Type.Null()], { description: 'STRING only: most characters.' }),
    createdAt: DateTime('When the definition was created.'),
    updatedAt: DateTime('When it last changed.'),
    version: Type.Integer({ description: 'Row version, also the ETag.' }),
  },
  { $id: 'CustomFieldDefinition', examples: [CUSTOM_FIELD_DEFINITION_EXAMPLE] },
)

export const CreateCustomFieldDefinitionBody = Type.Object(
  {
    appliesTo: AppliesTo,
    name: FieldName,
    label: Type.Optional(Label),
    type: FieldType,
    required: Type.Optional(Type.Boolean({ default: false, description: 'Default false.' })),
    allowedValues: Type.Optional(Type.Union([AllowedValues, Type.Null()])),
    maxLength: Type.Optional(Type.Union([MaxLength, Type.Null()])),
  },
  {
    additionalProperties: false,
    examples: [
      {
        appliesTo: 'DEALER',
        name: 'region',
        label: 'Sales region',
        type: 'LIST',
        required: true,
        allowedValues: ['East', 'West', 'Central'],
      },
      { appliesTo: 'AGENT', name: 'licenseTier', label: 'Licence tier', type: 'STRING', maxLength: 20 },
    ],
  },
)
export type CreateCustomFieldDefinitionInput = Static<typeof CreateCustomFieldDefinitionBody>

/** What a PATCH result must be. A merge patch's null removes a member, so allowedValues and maxLength may be absent. */
export const PatchedCustomFieldDefinitionSchema = Type.Object(
  {
    id: Type.Integer(),
    appliesTo: Type.String(),
    name: Type.String(),
    label: Label,
    type: Type.String(),
    required: Type.Boolean(),
    allowedValues: Type.Optional(Type.Union([AllowedValues, Type.Null()])),
    maxLength: Type.Optional(Type.Union([MaxLength, Type.Null()])),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    version: Type.Integer(),
  },
  { additionalProperties: false },
)

/** appliesTo, name and type bind stored fields to the definition, so they never change. */
export const CUSTOM_FIELD_DEFINITION_READ_ONLY = [
  'id',
  'appliesTo',
  'name',
  'type',
  'createdAt',
  'updatedAt',
  'version',
] as const

export const CustomFieldDefinitionListQuery = Type.Object(
  {
    appliesTo: Type.Optional(AppliesTo),
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: FIELD_NAME_MAX_LENGTH, description: 'Exact name, ignoring case.' }),
    ),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const CustomFieldDefinitionParams = Type.Object({ definitionId: IntegerId('custom field definition id') })
