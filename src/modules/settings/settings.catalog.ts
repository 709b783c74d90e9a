// The catalogue of general settings: every setting a tenant can have, with its stable id, type,
// default and constraints. The database stores only the values a tenant has changed; everything
// else is the default declared here. Ids and keys are part of the API: never renumber or rename a
// setting (retire it instead and add a new one). docs/settings.md describes each entry.

export const SETTING_TYPES = ['integer', 'decimal', 'boolean', 'string', 'date', 'list', 'duration'] as const
export type SettingType = (typeof SETTING_TYPES)[number]

/** What a value looks like in JSON: what the API returns and accepts. */
export type SettingJson = number | boolean | string | null

export const SETTING_GROUPS = [
  { id: 1, code: 'GENERAL', name: 'General', description: 'How the tenant works as a whole: its time zone and units.' },
  {
    id: 2,
    code: 'RATING',
    name: 'Rating',
    description: 'Rate quotes: which sale dates are accepted and how long a quote holds.',
  },
  {
    id: 3,
    code: 'CONTRACTS',
    name: 'Contracts',
    description: 'Contract numbering, the free-look period and the automatic voiding of pending contracts.',
  },
  {
    id: 4,
    code: 'CANCELLATIONS',
    name: 'Cancellations',
    description: 'Cancellation fees and how refunds are computed.',
  },
  { id: 5, code: 'FINANCE', name: 'Finance', description: 'Ledgers and accounting periods.' },
  { id: 6, code: 'CLAIMS', name: 'Claims', description: 'Claim numbering and how long an authorization stays valid.' },
] as const

export type SettingGroupCode = (typeof SETTING_GROUPS)[number]['code']

/** Named checks on string settings beyond their length. */
export type StringFormat = 'ianaTimeZone' | 'contractNumberFormat'

type Base = {
  /** Stable integer id (the v1 path id). */
  id: number
  /** Stable camelCase key; unique ignoring case. */
  key: string
  name: string
  group: SettingGroupCode
  description: string
  /** When true, null is a valid value ("not set"). */
  nullable?: boolean
}

// Defaults are written in the JSON representation, as the API shows them; a unit test checks that
// every default satisfies its own constraints.
export type IntegerSetting = Base & { type: 'integer'; default: number | null; minimum: number; maximum: number }
/** Decimal values are JSON numbers with at most 2 decimal places (money). */
export type DecimalSetting = Base & { type: 'decimal'; default: number | null; minimum: number; maximum: number }
export type BooleanSetting = Base & { type: 'boolean'; default: boolean | null }
export type StringSetting = Base & {
  type: 'string'
  default: string | null
  minLength: number
  maxLength: number
  format?: StringFormat
}
/** Dates are 'YYYY-MM-DD' strings; minimum and maximum are inclusive. */
export type DateSetting = Base & { type: 'date'; default: string | null; minimum?: string; maximum?: string }
export type ListSetting = Base & { type: 'list'; default: string | null; allowedValues: readonly string[] }
/** Durations are ISO 8601 strings of weeks, days, hours, minutes and seconds; bounds inclusive. */
export type DurationSetting = Base & { type: 'duration'; default: string | null; minimum?: string; maximum?: string }

export type SettingDefinition =
  IntegerSetting | DecimalSetting | BooleanSetting | StringSetting | DateSetting | ListSetting | DurationSetting

export const SETTINGS = [
  {
    id: 1,
    key: 'timeZone',
    name: 'Time zone',
    group: 'GENERAL',
    type: 'string',
    default: 'America/Chicago',
    minLength: 1,
    maxLength: 64,
    format: 'ianaTimeZone',
    description:
      'IANA time zone of the tenant\'s business day. Calendar dates that depend on "today" (the sale-date look-back, the free-look period, the age of pending contracts, the month in a contract number) are reckoned in this zone.',
  },
  {
    id: 2,
    key: 'distanceUnit',
    name: 'Distance unit',
    group: 'GENERAL',
    type: 'list',
    default: 'MILES',
    allowedValues: ['MILES', 'KILOMETERS'],
    description:
      "Unit of odometer readings and term distances in the tenant's rate books, contracts and claims. Numbers are never converted: this names the unit they are in, for documents and messages.",
  },
  {
    id: 3,
    key: 'saleDateLookBackDays',
    name: 'Sale date look-back days',
    group: 'RATING',
    type: 'integer',
    default: 60,
    minimum: 0,
    maximum: 365,
    description:
      'How many days before today a vehicle sale date may lie for a rate quote or a new contract. 0 accepts only today; sale dates in the future are always refused.',
  },
  {
    id: 4,
    key: 'quoteLifetime',
    name: 'Quote lifetime',
    group: 'RATING',
    type: 'duration',
    default: 'PT24H',
    minimum: 'PT1M',
    maximum: 'P30D',
    description:
      'How long a rate quote can be turned into a contract after it was produced. Afterwards the contract must be quoted again.',
  },
  {
    id: 5,
    key: 'contractNumberFormat',
    name: 'Contract number format',
    group: 'CONTRACTS',
    type: 'string',
    default: '{formPrefix}-{sequence:8}',
    minLength: 1,
    maxLength: 40,
    format: 'contractNumberFormat',
    description:
      "Template of the number a contract receives. Placeholders: {formPrefix} (the prefix of the contract form), {sequence} or {sequence:N} (the tenant's next contract sequence number, zero-padded to N digits, 1 to 12; exactly one is required), {yyyy}, {yy} and {mm} (year and month of the day the number is assigned, in the tenant's time zone). Other characters are kept as written: letters, digits and - _ / . only.",
  },
  {
    id: 6,
    key: 'freeLookDays',
    name: 'Free-look days',
    group: 'CONTRACTS',
    type: 'integer',
    default: 30,
    minimum: 0,
    maximum: 365,
    description:
      'Days after the sale date during which a contract cancelled with no claim paid is refunded in full. 0 means no free-look period.',
  },
  {
    id: 7,
    key: 'pendingContractVoidAfterDays',
    name: 'Void pending contracts after days',
    group: 'CONTRACTS',
    type: 'integer',
    default: 90,
    minimum: 1,
    maximum: 3650,
    description:
      'Age in days after which a contract still PENDING (never finalized) is listed as auto-voidable and voided by the auto-void process.',
  },
  {
    id: 8,
    key: 'defaultCancelFee',
    name: 'Default cancel fee',
    group: 'CANCELLATIONS',
    type: 'decimal',
    default: 50,
    minimum: 0,
    maximum: 1000,
    description:
      "Cancellation fee, in the tenant's currency, subtracted from a refund when the product names no fee of its own. Not charged within the free-look period or when the administrator cancels; state caps still apply.",
  },
  {
    id: 9,
    key: 'deductClaimsPaidFromRefund',
    name: 'Deduct claims paid from refund',
    group: 'CANCELLATIONS',
    type: 'boolean',
    default: false,
    description:
      'When true, claims paid on a contract are subtracted from its cancellation refund, except in states that forbid it.',
  },
  {
    id: 10,
    key: 'booksClosedThrough',
    name: 'Books closed through',
    group: 'FINANCE',
    type: 'date',
    default: null,
    nullable: true,
    minimum: '2000-01-01',
    maximum: '2999-12-31',
    description:
      'Last day of the closed accounting period: no journal entry may be dated on or before it; corrections post in the open period. null means no period is closed.',
  },
  {
    id: 11,
    key: 'claimNumberFormat',
    name: 'Claim number format',
    group: 'CLAIMS',
    type: 'string',
    default: '{formPrefix}-{yyyy}{mm}-{sequence:6}',
    minLength: 1,
    maxLength: 40,
    format: 'contractNumberFormat',
    description:
      "Template of the number a claim receives when it is taken. Placeholders as in contractNumberFormat: {formPrefix} (always CLM here), {sequence} or {sequence:N} (the tenant's next claim sequence number, zero-padded to N digits, 1 to 12; exactly one is required), {yyyy}, {yy} and {mm} (year and month of the day the number is assigned, in the tenant's time zone).",
  },
  {
    id: 12,
    key: 'claimAuthorizationValidDays',
    name: 'Claim authorization valid days',
    group: 'CLAIMS',
    type: 'integer',
    default: 180,
    minimum: 1,
    maximum: 3650,
    description:
      'Days a claim authorization stays valid, counted from the day it is given (that day included): a payment is requested before it runs out, or the claim is authorized again.',
  },
  {
    id: 13,
    key: 'cancelNumberFormat',
    name: 'Cancel request number format',
    group: 'CANCELLATIONS',
    type: 'string',
    default: '{formPrefix}-{yyyy}{mm}-{sequence:6}',
    minLength: 1,
    maxLength: 40,
    format: 'contractNumberFormat',
    description:
      "Template of the number a cancel request (and the cancel it becomes) receives. Placeholders as in contractNumberFormat: {formPrefix} (always CXL here), {sequence} or {sequence:N} (the tenant's next cancel sequence number, zero-padded to N digits, 1 to 12; exactly one is required), {yyyy}, {yy} and {mm} (year and month of the day the number is assigned, in the tenant's time zone).",
  },
  {
    id: 14,
    key: 'refundDueDays',
    name: 'Refund due days',
    group: 'CANCELLATIONS',
    type: 'integer',
    default: 30,
    minimum: 0,
    maximum: 365,
    description:
      'Days after a cancel is processed within which its refund is due (the due date of the refund payment).',
  },
  {
    id: 16,
    key: 'activationProcessTime',
    name: 'Activation process time',
    group: 'CONTRACTS',
    type: 'duration',
    nullable: true,
    default: 'PT1H',
    minimum: 'PT0S',
    maximum: 'PT23H59M',
    description:
      "Time of day (a duration from midnight in the tenant's time zone) at which the ACTIVATION process runs daily: finalized contracts whose effective date has come become ACTIVE. null: the process is not scheduled (it can still be started on demand). docs/processes.md.",
  },
  {
    id: 17,
    key: 'expiryProcessTime',
    name: 'Expiry process time',
    group: 'CONTRACTS',
    type: 'duration',
    nullable: true,
    default: 'PT1H15M',
    minimum: 'PT0S',
    maximum: 'PT23H59M',
    description:
      "Time of day (a duration from midnight in the tenant's time zone) at which the EXPIRY process runs daily: ACTIVE contracts past their expiration date become EXPIRED. null: not scheduled. docs/processes.md.",
  },
  {
    id: 18,
    key: 'voidProcessTime',
    name: 'Pending contract void process time',
    group: 'CONTRACTS',
    type: 'duration',
    nullable: true,
    default: 'PT1H30M',
    minimum: 'PT0S',
    maximum: 'PT23H59M',
    description:
      "Time of day (a duration from midnight in the tenant's time zone) at which the VOID process runs daily: contracts still PENDING pendingContractVoidAfterDays after they were created are VOIDED. null: not scheduled. docs/processes.md.",
  },
  {
    id: 19,
    key: 'earningsProcessTime',
    name: 'Earnings process time',
    group: 'FINANCE',
    type: 'duration',
    nullable: true,
    default: 'PT2H',
    minimum: 'PT0S',
    maximum: 'PT23H59M',
    description:
      "Time of day (a duration from midnight in the tenant's time zone) at which the monthly EARNINGS process runs: on the first day of a month at that time (or the first pass after it, later in the month), every sold contract's earnings are synced as of the last day of the month before. null: not scheduled (it can still be started on demand). docs/processes.md.",
  },
  {
    id: 20,
    key: 'gapAutoCancelProcessTime',
    name: 'GAP auto-cancel process time',
    group: 'CANCELLATIONS',
    type: 'duration',
    nullable: true,
    default: 'PT2H15M',
    minimum: 'PT0S',
    maximum: 'PT23H59M',
    description:
      "Time of day (a duration from midnight in the tenant's time zone) at which the GAP_AUTO_CANCEL process runs daily: GAP contracts that a reported payoff, refinance, sale, repossession or total loss, or a matured loan, ended are cancelled with their GAP reason. null: not scheduled. docs/processes.md.",
  },
  {
    id: 21,
    key: 'claimsDenialProcessTime',
    name: 'Claims denial process time',
    group: 'CLAIMS',
    type: 'duration',
    nullable: true,
    default: 'PT2H30M',
    minimum: 'PT0S',
    maximum: 'PT23H59M',
    description:
      "Time of day (a duration from midnight in the tenant's time zone) at which the CLAIMS_DENIAL process runs daily: the claims still being decided of cancelled or expired contracts, whose loss the coverage did not reach, are denied (CONTRACT_NOT_IN_FORCE). null: not scheduled. docs/processes.md.",
  },
  {
    id: 22,
    key: 'monthlyStatementsProcessTime',
    name: 'Monthly statements process time',
    group: 'FINANCE',
    type: 'duration',
    nullable: true,
    default: 'PT3H',
    minimum: 'PT0S',
    maximum: 'PT23H59M',
    description:
      "Time of day (a duration from midnight in the tenant's time zone) at which the monthly MONTHLY_STATEMENTS process runs: on the first day of a month at that time (or the first pass after it, later in the month), every dealer with ledger activity gets its statement of the month before. null: not scheduled. docs/processes.md.",
  },
  {
    id: 25,
    key: 'webhookRetryLimit',
    name: 'Webhook retry limit',
    group: 'GENERAL',
    type: 'integer',
    default: 8,
    minimum: 1,
    maximum: 20,
    description:
      'Delivery attempts of an event to a webhook subscription before it is given up (FAILED). Attempts are spaced by exponential backoff with jitter (docs/webhooks.md); a redelivery starts a new count.',
  },
] as const satisfies readonly SettingDefinition[]

/**
 * Ids and keys promised to the issues that will read them (issue 12 §6), so that they can land in any
 * order without renumbering: a reserved id is never given to another setting, and each is defined
 * (moved into SETTINGS with this id and key) by the issue that first reads it; ids 16-24 are the
 * automatic process schedules, whose keys the processes issue chooses. Until then the id is
 * unknown to the API (404 `setting_not_found`), as any id nothing defines.
 */
export const RESERVED_SETTINGS: ReadonlyArray<{ id: number; key: string | null; for: string }> = [
  // 11 and 12 defined (SETTINGS) by the claims issue, 13 and 14 by the cancellations issue; kept here so
  // that the reserved range stays whole.
  { id: 11, key: 'claimNumberFormat', for: 'claims: the claim number pattern' },
  { id: 12, key: 'claimAuthorizationValidDays', for: 'claims: days an authorization stays valid (default 180)' },
  { id: 13, key: 'cancelNumberFormat', for: 'cancellations: the cancel request number pattern' },
  { id: 14, key: 'refundDueDays', for: 'cancellations: days within which a refund is due (default 30)' },
  { id: 15, key: 'statementDay', for: 'cash and ledgers: the day of the month statements are made' },
  {
    id: 16,
    key: 'activationProcessTime',
    for: 'automatic processes: the activation schedule (time of day, null: off)',
  },
  { id: 17, key: 'expiryProcessTime', for: 'automatic processes: the expiry schedule (time of day, null: off)' },
  { id: 18, key: 'voidProcessTime', for: 'automatic processes: the void schedule (time of day, null: off)' },
  {
    id: 19,
    key: 'earningsProcessTime',
    for: 'automatic processes: the monthly earnings schedule (time of day, null: off)',
  },
  {
    id: 20,
    key: 'gapAutoCancelProcessTime',
    for: 'automatic processes: the GAP auto-cancel schedule (time of day, null: off)',
  },
  {
    id: 21,
    key: 'claimsDenialProcessTime',
    for: 'automatic processes: the claims denial schedule (time of day, null: off)',
  },
  {
    id: 22,
    key: 'monthlyStatementsProcessTime',
    for: 'automatic processes: the monthly statements schedule (time of day, null: off)',
  },
  { id: 23, key: null, for: 'automatic processes: a schedule (enabled, time of day); the processes issue names it' },
  { id: 24, key: null, for: 'automatic processes: a schedule (enabled, time of day); the processes issue names it' },
  { id: 25, key: 'webhookRetryLimit', for: 'webhooks: delivery attempts before an event is given up' },
]

export type SettingCatalog = typeof SETTINGS
export type SettingKey = SettingCatalog[number]['key']
export type SettingId = SettingCatalog[number]['id']
export type DefinitionOf<K extends SettingKey> = Extract<SettingCatalog[number], { key: K }>

export type SettingTypeInfo = {
  id: number
  code: SettingType
  name: string
  description: string
  /** JSON type of the value in requests and replies. */
  jsonType: 'integer' | 'number' | 'boolean' | 'string'
  /** Named string format, when the JSON type is a string with a fixed grammar. */
  format?: 'date' | 'duration'
  /** Constraint members (of a setting's `constraints`) that apply to this type. */
  constraints: readonly string[]
  /** Every check a value of this type goes through, in words. */
  rules: readonly string[]
  example: SettingJson
  /** How the operator CLI writes a value of this type. */
  operatorExample: string
}

export const SETTING_TYPE_INFO: readonly SettingTypeInfo[] = [
  {
    id: 1,
    code: 'integer',
    name: 'Integer',
    jsonType: 'integer',
    description: 'A whole number.',
    constraints: ['minimum', 'maximum', 'nullable'],
    rules: ['must be a JSON integer (60, not "60" or 60.5)', 'must lie between minimum and maximum, inclusive'],
    example: 60,
    operatorExample: '75',
  },
  {
    id: 2,
    code: 'decimal',
    name: 'Decimal',
    jsonType: 'number',
    description:
      'A decimal amount such as money, as a JSON number with at most 2 decimal places; computed with decimal arithmetic, never binary floats.',
    constraints: ['minimum', 'maximum', 'nullable'],
    rules: [
      'must be a JSON number (49.99, not "49.99")',
      'at most 2 decimal places',
      'must lie between minimum and maximum, inclusive',
    ],
    example: 49.99,
    operatorExample: '49.99',
  },
  {
    id: 3,
    code: 'boolean',
    name: 'Boolean',
    jsonType: 'boolean',
    description: 'true or false.',
    constraints: ['nullable'],
    rules: ['must be a JSON boolean (true, not "true")'],
    example: true,
    operatorExample: 'true',
  },
  {
    id: 4,
    code: 'string',
    name: 'String',
    jsonType: 'string',
    description: 'Text, possibly with a grammar named by its format.',
    constraints: ['minLength', 'maxLength', 'format', 'nullable'],
    rules: [
      'must be a JSON string',
      'length (in characters) between minLength and maxLength',
      'no control characters',
      'format ianaTimeZone: an IANA time zone name such as America/Chicago',
      'format contractNumberFormat: see the contractNumberFormat setting',
    ],
    example: 'America/Chicago',
    operatorExample: 'America/New_York',
  },
  {
    id: 5,
    code: 'date',
    name: 'Date',
    jsonType: 'string',
    format: 'date',
    description: 'A calendar date, YYYY-MM-DD.',
    constraints: ['minimum', 'maximum', 'nullable'],
    rules: [
      'must be a JSON string YYYY-MM-DD naming a real calendar date',
      'must lie between minimum and maximum, inclusive',
    ],
    example: '2026-12-31',
    operatorExample: '2026-12-31 (or null when nullable)',
  },
  {
    id: 6,
    code: 'list',
    name: 'List',
    jsonType: 'string',
    description: 'One value chosen from a fixed list.',
    constraints: ['allowedValues', 'nullable'],
    rules: ['must be a JSON string equal to one of allowedValues (exact case)'],
    example: 'MILES',
    operatorExample: 'kilometers (matched ignoring case)',
  },
  {
    id: 7,
    code: 'duration',
    name: 'Duration',
    jsonType: 'string',
    format: 'duration',
    description:
      'An ISO 8601 duration of weeks (PnW) or of days, hours, minutes and seconds (PnDTnHnMnS), e.g. PT15M, PT24H, P30D. A day is exactly 24 hours. Years and months are refused: their length varies.',
    constraints: ['minimum', 'maximum', 'nullable'],
    rules: [
      'must be a JSON string in the form PnW or PnDTnHnMnS with whole numbers',
      'must lie between minimum and maximum, inclusive (compared by length)',
    ],
    example: 'PT30M',
    operatorExample: 'PT30M',
  },
]
