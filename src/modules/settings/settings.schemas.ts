import { Type, type Static } from 'typebox'
import { ListQuery } from '../../platform/http/schemas.ts'

const JsonValue = (description: string) =>
  Type.Union([Type.Number(), Type.Boolean(), Type.String(), Type.Null()], { description })

const Constraints = Type.Object({
  nullable: Type.Boolean({ description: 'Whether null is a valid value.' }),
  minimum: Type.Optional(
    Type.Union([Type.Number(), Type.String()], {
      description: 'Inclusive lower bound: a number (integer, decimal), a date or an ISO 8601 duration.',
    }),
  ),
  maximum: Type.Optional(
    Type.Union([Type.Number(), Type.String()], { description: 'Inclusive upper bound, like minimum.' }),
  ),
  minLength: Type.Optional(Type.Integer({ description: 'Strings: fewest characters.' })),
  maxLength: Type.Optional(Type.Integer({ description: 'Strings: most characters.' })),
  format: Type.Optional(Type.String({ description: 'Strings: named grammar (ianaTimeZone, contractNumberFormat).' })),
  allowedValues: Type.Optional(Type.Array(Type.String(), { description: 'Lists: the values accepted, exact case.' })),
})

export const GeneralSettingSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Stable id of the setting.' }),
    key: Type.String({ description: 'Stable camelCase key; accepted in the path in place of the id.' }),
    name: Type.String(),
    group: Type.String({ description: 'Code of the setting group.' }),
    groupId: Type.Integer(),
    type: Type.String({
      description:
        'Setting type: integer, decimal, boolean, string, date, list or duration (see /api/generalsettings/settingtypes).',
    }),
    description: Type.String({ description: 'What the setting means.' }),
    value: JsonValue('The value in effect for the tenant: its own, or the default.'),
    defaultValue: JsonValue('The catalogue default.'),
    isDefault: Type.Boolean({ description: 'True when the tenant has not set a value of its own.' }),
    constraints: Constraints,
    updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: "When the tenant's value was set; null while the default applies.",
    }),
    updatedBy: Type.Union([Type.String(), Type.Null()], {
      description: 'Who set it (user email, API key or operator); null while the default applies.',
    }),
    version: Type.Integer({ description: 'Row version, also the ETag; 0 while the default applies.' }),
  },
  {
    $id: 'GeneralSetting',
    examples: [
      {
        id: 3,
        key: 'saleDateLookBackDays',
        name: 'Sale date look-back days',
        group: 'RATING',
        groupId: 2,
        type: 'integer',
        description: 'How many days before today a vehicle sale date may lie for a rate quote or a new contract.',
        value: 75,
        defaultValue: 60,
        isDefault: false,
        constraints: { nullable: false, minimum: 0, maximum: 365 },
        updatedAt: '2026-03-02T15:04:05.000Z',
        updatedBy: 'jane.doe@admin.example',
        version: 2,
      },
    ],
  },
)

export const SettingGroupSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    description: Type.String(),
    settingIds: Type.Array(Type.Integer(), { description: 'Ids of the settings in the group, in id order.' }),
  },
  {
    $id: 'SettingGroup',
    examples: [
      {
        id: 2,
        code: 'RATING',
        name: 'Rating',
        description: 'Rate quotes: which sale dates are accepted and how long a quote holds.',
        settingIds: [3, 4],
      },
    ],
  },
)

export const SettingTypeSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String({ description: 'The type as settings name it in `type`.' }),
    name: Type.String(),
    description: Type.String(),
    jsonType: Type.String({
      description: 'JSON type of values in requests and replies: integer, number, boolean or string.',
    }),
    format: Type.Optional(
      Type.String({ description: 'Grammar of string values: date (YYYY-MM-DD) or duration (ISO 8601).' }),
    ),
    constraints: Type.Array(Type.String(), {
      description: "Members of a setting's `constraints` that apply to this type.",
    }),
    rules: Type.Array(Type.String(), { description: 'Every check a value goes through.' }),
    example: JsonValue('A valid JSON value of this type.'),
    operatorExample: Type.String({ description: 'How the operator CLI writes such a value.' }),
  },
  {
    $id: 'SettingType',
    examples: [
      {
        id: 7,
        code: 'duration',
        name: 'Duration',
        jsonType: 'string',
        format: 'duration',
        description: 'An ISO 8601 duration of weeks or of days, hours, minutes and seconds, e.g. PT15M, PT24H, P30D.',
        constraints: ['minimum', 'maximum', 'nullable'],
        rules: ['must be a JSON string in the form PnW or PnDTnHnMnS with whole numbers'],
        example: 'PT30M',
        operatorExample: 'PT30M',
      },
    ],
  },
)

export const GeneralSettingParams = Type.Object({
  generalSettingId: Type.String({
    pattern: '^([0-9]{1,9}|[A-Za-z][A-Za-z0-9]{0,63})$',
    description: "The setting's integer id or its key (matched ignoring case).",
    examples: ['3', 'saleDateLookBackDays'],
  }),
})

export const GeneralSettingListQuery = Type.Object(
  {
    group: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'Only settings of this group: its code (ignoring case) or id. An unknown group lists nothing.',
        examples: ['RATING'],
      }),
    ),
    ...ListQuery,
  },
  { additionalProperties: false },
)

const ReadOnly = (description = 'Read-only; ignored.') => Type.Optional(Type.Unknown({ description }))

// The only writable member is `value`. A GET reply with a new value is accepted as it is: its
// read-only members are ignored, except id and key, which must name the setting in the path.
export const UpdateGeneralSettingBody = Type.Object(
  {
    value: Type.Unknown({
      description:
        'The new value, in the JSON type of the setting\'s type (integer 75, decimal 49.99, boolean true, string, date "2026-12-31", list value, duration "PT30M"; null only when the setting is nullable). A value of the wrong JSON type or outside the constraints is 422.',
      examples: [75],
    }),
    id: Type.Optional(
      Type.Integer({ description: 'Read-only; when given it must be the id of the setting in the path.' }),
    ),
    key: Type.Optional(
      Type.String({ description: 'Read-only; when given it must be the key of the setting in the path.' }),
    ),
    name: ReadOnly(),
    group: ReadOnly(),
    groupId: ReadOnly(),
    type: ReadOnly(),
    description: ReadOnly(),
    defaultValue: ReadOnly(),
    isDefault: ReadOnly(),
    constraints: ReadOnly(),
    updatedAt: ReadOnly(),
    updatedBy: ReadOnly(),
    version: ReadOnly('Read-only; ignored (use If-Match).'),
  },
  { additionalProperties: false, examples: [{ value: 75 }] },
)
export type UpdateGeneralSettingInput = Static<typeof UpdateGeneralSettingBody>
