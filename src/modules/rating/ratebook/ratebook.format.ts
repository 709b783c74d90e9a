// The rate-book exchange format (docs/rate-books.md): what an administrator writes and imports, and
// what export gives back. This is the structural schema only (shapes, enums, lengths); references
// between parts, money, dates and criteria are checked by ratebook.rules.ts, which reports every
// problem with its location.
import { Type, type Static } from 'typebox'

export const RATE_BOOK_FORMAT_VERSION = 1

export const PRODUCT_TYPES = ['VSC', 'GAP', 'TIRE_WHEEL', 'PPM', 'KEY', 'DENT', 'APPEARANCE', 'THEFT', 'OTHER'] as const
export const ASSET_TYPES = ['AUTO', 'RV', 'MARINE', 'POWERSPORTS', 'OTHER'] as const
export const VEHICLE_CONDITIONS = ['NEW', 'USED', 'CERTIFIED'] as const
export const DEDUCTIBLE_TYPES = ['STANDARD', 'DISAPPEARING', 'REDUCED'] as const
export const MILES_BASES = ['FROM_SALE_ODOMETER', 'FROM_ZERO'] as const
export const OPTION_KINDS = ['SURCHARGE', 'OPTION'] as const
export const FINANCE_TYPES = ['CASH', 'RETAIL', 'LEASE', 'BALLOON'] as const
export const WARRANTY_TYPES = ['BASIC', 'POWERTRAIN'] as const
export const CUSTOM_FIELD_TYPES = ['STRING', 'INTEGER', 'DECIMAL', 'MONEY', 'DATE', 'BOOLEAN', 'LIST'] as const
export const DISBURSEMENT_GROUPS = [
  'RESERVE',
  'PREMIUM',
  'CLIP_PREMIUM',
  'ADMIN_FEE',
  'COMMISSION',
  'DEALER_PACK',
  'DEALER_PARTICIPATION',
  'TAX',
  'OTHER',
] as const
/** Who receives a disbursement bucket of a rate: a fixed account holder, or one found from the sale. */
export const PAYEE_ROLES = ['ADMINISTRATOR', 'SELLING_DEALER', 'DEALER_AGENT', 'ACCOUNT_HOLDER'] as const
/** Account-holder kinds a fixed payee may be. */
export const PAYEE_KINDS = ['INSURER', 'ADMIN_COMPANY', 'AGENT', 'DEALER', 'DEALER_GROUP', 'CLAIM_PAYEE'] as const

/**
 * Rate-quote inputs a product can require. `vehicle` is satisfied by a VIN or by year, make and
 * model; the others name the quote's query parameters.
 */
export const QUOTE_INPUTS = [
  'vehicle',
  'vehicleCondition',
  'odometer',
  'inServiceDate',
  'vehiclePurchasePrice',
  'msrp',
  'financeType',
  'amountFinanced',
  'financeTermMonths',
  'apr',
] as const
export type QuoteInput = (typeof QUOTE_INPUTS)[number]

const CODE_PATTERN = '^[A-Z0-9][A-Z0-9_.-]{0,39}$'
const Code = (description: string) =>
  Type.String({
    pattern: CODE_PATTERN,
    description: `${description} Upper-case letters, digits, '_', '.', '-'; at most 40.`,
  })
const Name = Type.String({ minLength: 1, maxLength: 200 })
/** Money as a decimal string ("2495.00") or a JSON number with at most two decimals. */
const Money = Type.Union([Type.String({ maxLength: 20 }), Type.Number()], {
  description: 'An amount: a decimal string such as "2495.00" or a number; at most two decimals, not negative.',
})
const IsoDate = Type.String({ maxLength: 10, description: 'A calendar date, YYYY-MM-DD.' })
const Criteria = Type.String({ maxLength: 10_000, description: 'Criteria in the rule language of docs/criteria.md.' })
const Buckets = Type.Record(Type.String({ pattern: CODE_PATTERN }), Money, {
  description: 'Amount per disbursement code.',
})
const enumOf = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) })

export const DisbursementCodeSchema = Type.Object(
  {
    code: Code('Bucket code, e.g. RES.'),
    label: Name,
    group: enumOf(DISBURSEMENT_GROUPS),
    payee: Type.Optional(
      Type.Object(
        {
          role: enumOf(PAYEE_ROLES),
          kind: Type.Optional(enumOf(PAYEE_KINDS)),
          businessKey: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
        },
        {
          additionalProperties: false,
          description:
            'Receiver of the bucket. ACCOUNT_HOLDER needs kind and businessKey; the default is ADMINISTRATOR.',
        },
      ),
    ),
  },
  { additionalProperties: false },
)

export const VehicleClassSchema = Type.Object(
  { code: Code('Vehicle class, e.g. A.'), description: Type.Optional(Name) },
  { additionalProperties: false },
)

export const VehicleEntrySchema = Type.Object(
  {
    make: Type.String({ minLength: 1, maxLength: 60 }),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    series: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
    trims: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 100 })),
    bodyStyles: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 50 })),
    yearFrom: Type.Optional(Type.Integer({ minimum: 1900, maximum: 2100 })),
    yearTo: Type.Optional(Type.Integer({ minimum: 1900, maximum: 2100 })),
    vehicleClass: Code('The class this vehicle rates in.'),
  },
  {
    additionalProperties: false,
    description:
      'A catalogue entry and classing rule: the most specific entry matching make, model, trim and year gives the class.',
  },
)

export const WarrantySchema = Type.Object(
  {
    make: Type.String({ minLength: 1, maxLength: 60 }),
    type: enumOf(WARRANTY_TYPES),
    months: Type.Integer({ minimum: 0, maximum: 240 }),
    miles: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  },
  { additionalProperties: false },
)

export const FactorTableSchema = Type.Object(
  {
    code: Code('Factor table code.'),
    name: Name,
    fact: Type.String({
      minLength: 1,
      maxLength: 60,
      description: 'The quote fact whose value selects the entry, e.g. customerState.',
    }),
    defaultFactor: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Number()])),
    entries: Type.Array(
      Type.Object(
        {
          key: Type.Union([Type.String({ minLength: 1, maxLength: 80 }), Type.Number()]),
          factor: Type.Union([Type.String({ maxLength: 20 }), Type.Number()]),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10_000 },
    ),
  },
  {
    additionalProperties: false,
    description: 'A multiplier per fact value, applied to every bucket and retail of the products that list it.',
  },
)

export const CustomFieldSchema = Type.Object(
  {
    key: Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9_]{0,39}$' }),
    label: Name,
    type: enumOf(CUSTOM_FIELD_TYPES),
    required: Type.Optional(Type.Boolean()),
    unique: Type.Optional(Type.Boolean({ description: 'The value may be used by one contract of the tenant only.' })),
    minLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    pattern: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    options: Type.Optional(
      Type.Array(
        Type.Object(
          { value: Type.String({ minLength: 1, maxLength: 80 }), label: Name },
          { additionalProperties: false },
        ),
        { maxItems: 200 },
      ),
    ),
    order: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  },
  { additionalProperties: false },
)

export const TermSchema = Type.Object(
  {
    code: Type.Optional(Code('Term code within its plan; defaults to "<months>-<miles>".')),
    months: Type.Integer({ minimum: 1, maximum: 240 }),
    miles: Type.Integer({ minimum: 0, maximum: 1_000_000, description: '0 for unlimited miles.' }),
    milesBasis: Type.Optional(
      enumOf(MILES_BASES, 'Whether the expiration odometer counts from the sale odometer (default) or from zero.'),
    ),
    criteria: Type.Optional(Criteria),
  },
  { additionalProperties: false },
)

export const PlanSchema = Type.Object(
  {
    code: Code('Plan code, unique in the book.'),
    name: Name,
    conditions: Type.Array(enumOf(VEHICLE_CONDITIONS), {
      minItems: 1,
      maxItems: 3,
      description: 'The vehicle conditions this plan is sold for.',
    }),
    formNumber: Type.String({ minLength: 1, maxLength: 60 }),
    criteria: Type.Optional(Criteria),
    effectiveFrom: Type.Optional(IsoDate),
    effectiveTo: Type.Optional(IsoDate),
    coverageGroups: Type.Optional(
      Type.Array(
        Type.Object(
          {
            code: Code('Coverage group code.'),
            name: Name,
            components: Type.Array(
              Type.Object({ code: Code('Component code.'), name: Name }, { additionalProperties: false }),
              { maxItems: 500 },
            ),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
    ppmServices: Type.Optional(
      Type.Array(
        Type.Object(
          {
            code: Code('Service code.'),
            name: Name,
            intervalMonths: Type.Optional(Type.Integer({ minimum: 1, maximum: 120 })),
            intervalMiles: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
            count: Type.Integer({ minimum: 1, maximum: 100 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
    customFields: Type.Optional(Type.Array(CustomFieldSchema, { maxItems: 100 })),
    terms: Type.Array(TermSchema, { minItems: 1, maxItems: 200 }),
  },
  { additionalProperties: false },
)

export const ProgramSchema = Type.Object(
  {
    code: Code('Program code, unique in the book.'),
    name: Name,
    criteria: Type.Optional(Criteria),
    plans: Type.Array(PlanSchema, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
)

export const OptionSchema = Type.Object(
  {
    code: Code('Option code, unique within the product.'),
    name: Name,
    kind: enumOf(OPTION_KINDS),
    requiredWhen: Type.Optional(Criteria),
    criteria: Type.Optional(Criteria),
    plans: Type.Optional(
      Type.Array(Code('Plan code.'), {
        maxItems: 500,
        description: "Plans the option applies to; all of the product's when absent.",
      }),
    ),
    buckets: Buckets,
    suggestedRetail: Type.Optional(Money),
  },
  { additionalProperties: false },
)

export const ProductSchema = Type.Object(
  {
    code: Code('Product code, unique in the book.'),
    name: Name,
    type: enumOf(PRODUCT_TYPES),
    assetTypes: Type.Array(enumOf(ASSET_TYPES), { minItems: 1, maxItems: 5 }),
    requiredInputs: Type.Array(enumOf(QUOTE_INPUTS), { maxItems: QUOTE_INPUTS.length }),
    criteria: Type.Optional(Criteria),
    effectiveFrom: Type.Optional(IsoDate),
    effectiveTo: Type.Optional(IsoDate),
    factorTables: Type.Optional(Type.Array(Code('Factor table code.'), { maxItems: 10 })),
    deductibles: Type.Array(
      Type.Object(
        {
          code: Code('Deductible code, unique within the product.'),
          amount: Money,
          type: enumOf(DEDUCTIBLE_TYPES),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
    options: Type.Optional(Type.Array(OptionSchema, { maxItems: 200 })),
    customFields: Type.Optional(Type.Array(CustomFieldSchema, { maxItems: 100 })),
    programs: Type.Array(ProgramSchema, { minItems: 1, maxItems: 200 }),
  },
  { additionalProperties: false },
)

export const RateSchema = Type.Object(
  {
    plan: Code('Plan code.'),
    term: Code('Term code within the plan.'),
    deductible: Code('Deductible code within the product.'),
    vehicleClass: Type.String({
      pattern: '^(\\*|[A-Z0-9][A-Z0-9_.-]{0,39})$',
      description: 'Vehicle class code, or * for every class.',
    }),
    odometerFrom: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    odometerTo: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    state: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    criteria: Type.Optional(Criteria),
    buckets: Buckets,
    suggestedRetail: Money,
    minRetail: Type.Optional(Money),
    maxRetail: Type.Optional(Money),
    retailLocked: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

export const RateBookSchema = Type.Object(
  {
    formatVersion: Type.Literal(RATE_BOOK_FORMAT_VERSION),
    effectiveDate: IsoDate,
    description: Type.Optional(Type.String({ maxLength: 500 })),
    disbursementCodes: Type.Array(DisbursementCodeSchema, { minItems: 1, maxItems: 100 }),
    vehicleClasses: Type.Array(VehicleClassSchema, { minItems: 1, maxItems: 100 }),
    defaultVehicleClass: Type.Optional(
      Code('Class of a vehicle no entry matches; such vehicles are not rated when absent.'),
    ),
    vehicles: Type.Array(VehicleEntrySchema, { maxItems: 50_000 }),
    warranties: Type.Optional(Type.Array(WarrantySchema, { maxItems: 1000 })),
    factorTables: Type.Optional(Type.Array(FactorTableSchema, { maxItems: 100 })),
    products: Type.Array(ProductSchema, { minItems: 1, maxItems: 200 }),
    rates: Type.Optional(Type.Array(RateSchema, { maxItems: 1_000_000 })),
    ratesCsv: Type.Optional(Type.String({ description: 'Rates as CSV text (docs/rate-books.md); added to `rates`.' })),
  },
  { additionalProperties: false },
)

export type RateBookInput = Static<typeof RateBookSchema>
export type RateInput = Static<typeof RateSchema>
export type ProductInput = Static<typeof ProductSchema>
export type CustomFieldInput = Static<typeof CustomFieldSchema>
