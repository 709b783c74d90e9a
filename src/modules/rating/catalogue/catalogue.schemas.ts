// TypeBox schemas of the read-only rating catalogue (docs/rate-catalogue.md): the query parameters
// shared by every catalogue route (which rate-book version to read), the filters, and the replies.
import { Type } from 'typebox'
import { enumOf, IntegerId, ListQuery, nullable } from '../../../platform/http/schemas.ts'
import {
  ASSET_TYPES,
  CUSTOM_FIELD_TYPES,
  DEDUCTIBLE_TYPES,
  MILES_BASES,
  PRODUCT_TYPES,
  QUOTE_INPUTS,
  RATE_ID_PATTERN,
  VEHICLE_CONDITIONS,
} from '../ratebook/index.ts'

const IsoDate = Type.String({ format: 'date' })

// ---- query parameters -------------------------------------------------------------------------

/** Which rate-book version a catalogue route reads. */
export const BookQuery = {
  date: Type.Optional(
    Type.String({
      format: 'date',
      maxLength: 10,
      examples: ['2026-06-01'],
      description: "Read the rate book in force on this date (YYYY-MM-DD) instead of today's.",
    }),
  ),
  version: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      examples: [3],
      description:
        'Read this rate-book version, in force or not (404 rate_book_not_found when it does not exist). Not together with `date`.',
    }),
  ),
}

/** Vehicle filters compare case-insensitively; blanks around a value are ignored. */
const VehicleText = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 80, pattern: '\\S', description, examples: [example] })
const Make = VehicleText('Only this make (any case).', 'Honda')
const Model = VehicleText('Only this model (any case).', 'Accord')
const Year = Type.Integer({
  minimum: 1900,
  maximum: 2100,
  description: 'Only entries whose model years include this year (entries without years match every year).',
  examples: [2022],
})

export const BookOnlyQuery = Type.Object({ ...BookQuery }, { additionalProperties: false })
export const ListedQuery = Type.Object({ ...BookQuery, ...ListQuery }, { additionalProperties: false })

export const ProductListQuery = Type.Object(
  {
    ...BookQuery,
    type: Type.Optional(enumOf(PRODUCT_TYPES, 'Only products of this type (any case).')),
    assetType: Type.Optional(enumOf(ASSET_TYPES, 'Only products sold for this asset type (any case).')),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const ProgramListQuery = Type.Object(
  {
    ...BookQuery,
    productId: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Only programs of this product.', examples: [1] }),
    ),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const MakesQuery = Type.Object(
  { ...BookQuery, year: Type.Optional(Year), ...ListQuery },
  { additionalProperties: false },
)
export const ModelsQuery = Type.Object(
  { ...BookQuery, make: Type.Optional(Make), year: Type.Optional(Year), ...ListQuery },
  { additionalProperties: false },
)
export const VehicleDetailQuery = Type.Object(
  {
    ...BookQuery,
    make: Type.Optional(Make),
    model: Type.Optional(Model),
    year: Type.Optional(Year),
    ...ListQuery,
  },
  { additionalProperties: false },
)
export const SegmentationQuery = Type.Object(
  {
    ...BookQuery,
    make: Type.Optional(
      VehicleText('Classify this vehicle: its make (any case). Without it, every class is listed.', 'Ford'),
    ),
    model: Type.Optional(VehicleText('Its model (needs make).', 'F-150')),
    trim: Type.Optional(VehicleText('Its trim (needs make).', 'Raptor')),
    year: Type.Optional(
      Type.Integer({ minimum: 1900, maximum: 2100, description: 'Its model year (needs make).', examples: [2022] }),
    ),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const ProductIdParams = Type.Object({
  productId: IntegerId('Product id (a rating catalogue item of kind PRODUCT)'),
})
export const PlanIdParams = Type.Object({ planId: IntegerId('Plan id (a rating catalogue item of kind PLAN)') })
export const FactorTableIdParams = Type.Object({
  factorTableId: IntegerId('Factor table id (a rating catalogue item of kind FACTOR_TABLE)'),
})

// ---- replies ----------------------------------------------------------------------------------

const Ref = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() })

export const ASSET_TYPE_EXAMPLE = {
  code: 'AUTO',
  description: 'Cars, light trucks, vans and SUVs',
  products: [{ id: 1, code: 'VSC', name: 'Vehicle Service Contract' }],
}
export const AssetTypeSchema = Type.Object(
  {
    code: enumOf(ASSET_TYPES),
    description: Type.String(),
    products: Type.Array(Ref, {
      description: "Products of the rate book sold for this asset type, in the book's order.",
    }),
  },
  { examples: [ASSET_TYPE_EXAMPLE] },
)

export const PRODUCT_EXAMPLE = {
  id: 1,
  code: 'VSC',
  name: 'Vehicle Service Contract',
  type: 'VSC',
  assetTypes: ['AUTO'],
  requiredInputs: ['vehicle', 'vehicleCondition', 'odometer', 'inServiceDate'],
  effectiveFrom: null,
  effectiveTo: null,
  deductibleCount: 4,
  programCount: 3,
  factorTableIds: [14],
}
export const ProductSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    type: enumOf(PRODUCT_TYPES),
    assetTypes: Type.Array(enumOf(ASSET_TYPES)),
    requiredInputs: Type.Array(enumOf(QUOTE_INPUTS), {
      description: 'Rate-quote inputs without which the product is not rated.',
    }),
    effectiveFrom: nullable(IsoDate, "First sale date the product is sold; null: from the book's effective date."),
    effectiveTo: nullable(IsoDate, 'Last sale date the product is sold; null: open-ended.'),
    deductibleCount: Type.Integer(),
    programCount: Type.Integer(),
    factorTableIds: Type.Array(Type.Integer(), {
      description: "Factor tables applied to the product's prices (GET /api/factorTables/{id}).",
    }),
  },
  { examples: [PRODUCT_EXAMPLE] },
)

export const PROGRAM_EXAMPLE = {
  id: 2,
  code: 'PLAT',
  name: 'Platinum Exclusionary',
  product: { id: 1, code: 'VSC', name: 'Vehicle Service Contract', type: 'VSC' },
  plans: [
    { id: 3, code: 'PLAT-NEW', name: 'Platinum - New' },
    { id: 8, code: 'PLAT-USED', name: 'Platinum - Used' },
  ],
}
export const ProgramSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    product: Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String(), type: enumOf(PRODUCT_TYPES) }),
    plans: Type.Array(Ref),
  },
  { examples: [PROGRAM_EXAMPLE] },
)

const CustomField = Type.Object({
  key: Type.String(),
  label: Type.String(),
  type: enumOf(CUSTOM_FIELD_TYPES),
  required: Type.Boolean(),
  unique: Type.Boolean({ description: 'The value may be used by one contract of the tenant only.' }),
  order: Type.Integer(),
  level: enumOf(['PRODUCT', 'PLAN'] as const, 'Declared on the product (every plan) or on this plan.'),
  minLength: Type.Optional(Type.Integer()),
  maxLength: Type.Optional(Type.Integer()),
  pattern: Type.Optional(Type.String()),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  options: Type.Optional(Type.Array(Type.Object({ value: Type.String(), label: Type.String() }))),
})

export const PLAN_EXAMPLE = {
  id: 8,
  code: 'PLAT-USED',
  name: 'Platinum - Used',
  program: { id: 2, code: 'PLAT', name: 'Platinum Exclusionary' },
  conditions: ['USED', 'CERTIFIED'],
  formNumber: 'VSC-PLAT-U-0126',
  effectiveFrom: null,
  effectiveTo: null,
  coverageGroups: [
    {
      code: 'ENGINE',
      name: 'Engine',
      components: [
        { code: 'BLOCK', name: 'Cylinder block' },
        { code: 'HEADS', name: 'Cylinder heads' },
      ],
    },
  ],
  ppmServices: [],
  customFields: [
    {
      key: 'financeManagerCode',
      label: 'F&I manager code',
      type: 'STRING',
      required: true,
      unique: false,
      order: 1,
      level: 'PRODUCT',
      maxLength: 10,
    },
  ],
}
export const PlanSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    program: Ref,
    conditions: Type.Array(enumOf(VEHICLE_CONDITIONS), { description: 'Vehicle conditions the plan is sold for.' }),
    formNumber: Type.String(),
    effectiveFrom: nullable(IsoDate),
    effectiveTo: nullable(IsoDate),
    coverageGroups: Type.Array(
      Type.Object({
        code: Type.String(),
        name: Type.String(),
        components: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
      }),
    ),
    ppmServices: Type.Array(
      Type.Object({
        code: Type.String(),
        name: Type.String(),
        intervalMonths: nullable(Type.Integer()),
        intervalMiles: nullable(Type.Integer()),
        count: Type.Integer(),
      }),
      { description: 'Prepaid-maintenance services (PPM plans).' },
    ),
    customFields: Type.Array(CustomField, {
      description:
        "Contract fields the plan requires or accepts: the product's, then the plan's own, in display order.",
    }),
  },
  { examples: [PLAN_EXAMPLE] },
)

export const TERM_EXAMPLE = { id: 9, code: '48-48000', months: 48, miles: 48000, milesBasis: 'FROM_SALE_ODOMETER' }
export const TermSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    months: Type.Integer(),
    miles: Type.Integer({ description: '0: unlimited miles.' }),
    milesBasis: enumOf(MILES_BASES, 'Whether the expiration odometer counts from the sale odometer or from zero.'),
  },
  { examples: [TERM_EXAMPLE] },
)

export const DEDUCTIBLE_EXAMPLE = { id: 5, code: 'D100', amount: 100, type: 'STANDARD' }
export const DeductibleSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    amount: Type.Number({
      description:
        'Amount the contract holder pays per claim: a JSON number with at most 2 decimal places (100, 62.5).',
    }),
    type: enumOf(DEDUCTIBLE_TYPES),
  },
  { examples: [DEDUCTIBLE_EXAMPLE] },
)

export const FACTOR_TABLE_EXAMPLE = {
  id: 14,
  code: 'STATE_RESERVE',
  name: 'State reserve factor',
  fact: 'customerState',
  defaultFactor: 1,
  entries: { FL: 1.1, NY: 1.08, CA: 1.05 },
}
export const FactorTableSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    fact: Type.String({ description: 'The quote fact whose value selects the entry.' }),
    defaultFactor: Type.Number({
      description: 'Factor for a value no entry names: a JSON number with at most 6 decimal places.',
    }),
    entries: Type.Record(Type.String(), Type.Number(), {
      description: "Factor (a JSON number with at most 6 decimal places) per fact value, in the book's order.",
    }),
  },
  { examples: [FACTOR_TABLE_EXAMPLE] },
)

const VehicleMake = Type.String({ description: 'As the rate book stores it (upper case).' })
const VehicleModel = nullable(Type.String(), 'Null for an entry that names the make only.')
export const MakeSchema = Type.Object({ make: VehicleMake }, { examples: [{ make: 'HONDA' }] })
export const ModelSchema = Type.Object(
  { make: VehicleMake, model: Type.String() },
  { examples: [{ make: 'HONDA', model: 'ACCORD' }] },
)
export const SeriesSchema = Type.Object(
  { make: VehicleMake, model: VehicleModel, series: Type.String() },
  { examples: [{ make: 'FORD', model: 'F-150', series: 'F-SERIES' }] },
)
export const TrimSchema = Type.Object(
  { make: VehicleMake, model: VehicleModel, trim: Type.String() },
  { examples: [{ make: 'HONDA', model: 'ACCORD', trim: 'EX' }] },
)
export const BodyStyleSchema = Type.Object(
  { make: VehicleMake, model: VehicleModel, bodyStyle: Type.String() },
  { examples: [{ make: 'HONDA', model: 'CIVIC', bodyStyle: 'Hatchback' }] },
)
export const SegmentationSchema = Type.Object(
  {
    vehicleClass: Type.String(),
    description: nullable(Type.String()),
    isDefault: Type.Boolean({ description: "The book's class for vehicles no entry matches." }),
    matchedBy: Type.Optional(
      enumOf(
        ['ENTRY', 'DEFAULT'] as const,
        "With make: whether a vehicle entry classed the vehicle, or the book's default class.",
      ),
    ),
  },
  { examples: [{ vehicleClass: 'C', description: 'Premium and luxury', isDefault: false, matchedBy: 'ENTRY' }] },
)

export const CustomFieldsQuery = Type.Object(
  {
    ...BookQuery,
    planId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: "The plan: its own fields are added to the product's.",
        examples: [8],
      }),
    ),
    rateId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: RATE_ID_PATTERN,
        description: "A rate of a quote (`rateId` in the quote reply): the plan is the rate's.",
        examples: ['r.8.11.6.42'],
      }),
    ),
    quoteId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4800,
        description:
          'A quote id: the fields are read from the rate-book version the quote used, which is the version POST /contracts checks against. Not together with `date` or `version`.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const CUSTOM_FIELDS_EXAMPLE = {
  productId: 1,
  productCode: 'VSC',
  planId: 8,
  planCode: 'PLAT-USED',
  rateBookVersion: 3,
  fields: [
    {
      key: 'financeManagerCode',
      label: 'F&I manager code',
      type: 'STRING',
      required: true,
      unique: false,
      order: 1,
      level: 'PRODUCT',
      maxLength: 10,
    },
    {
      key: 'keyCount',
      label: 'Number of keys',
      type: 'INTEGER',
      required: true,
      unique: false,
      order: 2,
      level: 'PLAN',
      min: 1,
      max: 4,
    },
  ],
}
export const CustomFieldsSchema = Type.Object(
  {
    productId: Type.Integer(),
    productCode: Type.String(),
    planId: nullable(Type.Integer(), "The plan whose fields are included; null: the product's fields only."),
    planCode: nullable(Type.String()),
    rateBookVersion: Type.Integer({ description: 'The rate-book version the fields were read from.' }),
    fields: Type.Array(CustomField, {
      description:
        'In display order. A contract for this plan must carry every required field, each value valid for its type and limits; unique values may be used by one contract of the tenant only.',
    }),
  },
  { examples: [CUSTOM_FIELDS_EXAMPLE] },
)
