// Rate-quote request and reply shapes for the OpenAPI document (docs/rate-quote.md). The query is
// read by quote.rules.ts; these schemas describe it and the reply.
import { Type, type Static, type TSchema } from 'typebox'
import { ASSET_TYPES, FINANCE_TYPES, PRODUCT_TYPES, VEHICLE_CONDITIONS } from '../ratebook/index.ts'

// Each parameter is declared as what it is (integers, amounts, dates, enumerations, booleans), so a
// generated client passes `odometer: 42150`, not a string. The route reads the query itself
// (readQuoteQuery) and lists every bad parameter at once; these declarations document it.
const opt = <T extends TSchema>(schema: T) => Type.Optional(schema)
const Amount = (description: string, example: number) =>
  opt(
    Type.Number({
      minimum: 0,
      maximum: 999_999_999_999.99,
      description: `${description} An amount, not negative, at most two decimals.`,
      examples: [example],
    }),
  )
const QuoteDate = (description: string, example: string) =>
  opt(Type.String({ format: 'date', description: `${description} YYYY-MM-DD.`, examples: [example] }))
const OneOf = (values: readonly string[], description: string, example?: string) =>
  opt(
    Type.String({
      enum: [...values],
      description: `${description} Any case.`,
      ...(example === undefined ? {} : { examples: [example] }),
    }),
  )
const Text = (maxLength: number, description: string, example: string) =>
  opt(Type.String({ minLength: 1, maxLength, description, examples: [example] }))
/** A comma-separated list in one parameter (given twice, a parameter is refused). */
const CommaList = (item: string, description: string, example: string) =>
  opt(
    Type.String({
      pattern: `^\\s*${item}\\s*(,\\s*${item}\\s*){0,19}$`,
      description: `${description} Comma-separated, up to 20.`,
      examples: [example],
    }),
  )

export const RateQuoteQuery = Type.Object({
  vin: opt(
    Type.String({
      minLength: 17,
      maxLength: 17,
      pattern: '^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$',
      description:
        '17-character VIN, any case; check digit enforced. Decoded offline (model year, make, model, trim, drive, fuel).',
      examples: ['1HGCM82633A004352'],
    }),
  ),
  vehicleYear: opt(
    Type.Integer({
      minimum: 1900,
      maximum: 2100,
      description: 'Model year, when there is no VIN (or to disambiguate its year code).',
      examples: [2022],
    }),
  ),
  vehicleMake: Text(60, 'Make, when there is no VIN.', 'Honda'),
  vehicleModel: Text(80, 'Model, when there is no VIN.', 'Accord'),
  vehicleTrim: Text(80, 'Trim.', 'EX'),
  assetType: OneOf(ASSET_TYPES, 'Default AUTO.'),
  vehicleCondition: OneOf(VEHICLE_CONDITIONS, 'The vehicle condition.', 'USED'),
  odometer: opt(
    Type.Integer({ minimum: 0, maximum: 2_000_000, description: 'Odometer at sale, whole miles.', examples: [42150] }),
  ),
  saleDate: QuoteDate(
    'Default today. Not in the future, not older than the saleDateLookBackDays setting.',
    '2026-11-20',
  ),
  inServiceDate: QuoteDate('Not after the sale date.', '2023-05-01'),
  vehiclePurchasePrice: Amount('Vehicle purchase price.', 28500),
  msrp: Amount('Manufacturer suggested retail price.', 31200),
  financeType: OneOf(FINANCE_TYPES, 'How the vehicle is paid for.', 'RETAIL'),
  amountFinanced: Amount('Amount financed.', 24000),
  financeTermMonths: opt(
    Type.Integer({ minimum: 1, maximum: 144, description: 'Finance term, whole months.', examples: [72] }),
  ),
  apr: opt(
    Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Annual percentage rate, per cent, at most three decimals.',
      examples: [6.99],
    }),
  ),
  monthlyPayment: Amount('Monthly payment (recorded with the quote).', 420),
  firstPaymentDate: QuoteDate('Recorded with the quote.', '2026-12-20'),
  productTypes: CommaList(
    '[A-Za-z_]{1,40}',
    `Product types to quote, any case: ${PRODUCT_TYPES.join(', ')}.`,
    'VSC,GAP',
  ),
  productIds: CommaList('[0-9]{1,15}', 'Product ids to quote.', '1,3'),
  programIds: CommaList('[0-9]{1,15}', 'Program ids to quote.', '2'),
  surcharges: CommaList(
    '[A-Za-z0-9][A-Za-z0-9_.-]{0,39}',
    'Option codes to select, any case (required surcharges are selected anyway).',
    'COMMERCIAL_USE',
  ),
  customerState: opt(
    Type.String({
      pattern: '^[A-Za-z]{2}$',
      description: "Two-letter state, any case; defaults to the dealer's.",
      examples: ['TX'],
    }),
  ),
  explain: opt(Type.Boolean({ default: false, description: 'true: add `exclusions` (needs rates:explain).' })),
})

const Money = Type.Number({ description: 'An amount: a JSON number with at most two decimals.', examples: [1450] })
const Message = Type.Object({
  severity: Type.String({ enum: ['INFO', 'WARNING'] }),
  code: Type.String(),
  text: Type.String(),
  productCode: Type.Optional(Type.String()),
})
const CustomField = Type.Object({
  key: Type.String(),
  label: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
  unique: Type.Boolean(),
  order: Type.Integer(),
  minLength: Type.Optional(Type.Integer()),
  maxLength: Type.Optional(Type.Integer()),
  pattern: Type.Optional(Type.String()),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  options: Type.Optional(Type.Array(Type.Object({ value: Type.String(), label: Type.String() }))),
})
const Disbursement = Type.Object({
  code: Type.String(),
  group: Type.String(),
  label: Type.String(),
  amount: Money,
  source: Type.String({
    enum: ['RATE', 'ACCOUNT_HOLDER'],
    description: 'A bucket of the rate, or a disbursement of the dealer, its group or its agent.',
  }),
  accountHolderId: Type.Optional(Type.Integer()),
})
const Option = Type.Object({
  optionId: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  kind: Type.String({ enum: ['SURCHARGE', 'OPTION'] }),
  required: Type.Boolean({ description: 'A surcharge whose requiredWhen criteria hold for this vehicle.' }),
  selected: Type.Boolean(),
  dealerCost: Money,
  suggestedRetail: Money,
  disbursements: Type.Array(Type.Object({ code: Type.String(), amount: Money })),
})
const Rate = Type.Object({
  rateId: Type.String({ description: "Identifies the rate within the quote's rate-book version." }),
  dealerCost: Money,
  suggestedRetail: Money,
  minRetail: Money,
  maxRetail: Money,
  retailLocked: Type.Boolean(),
  disbursements: Type.Array(Disbursement, { description: 'Lines adding up exactly to dealerCost.' }),
})
const Deductible = Type.Object({
  deductibleId: Type.Integer(),
  code: Type.String(),
  amount: Money,
  type: Type.String(),
  rate: Rate,
  options: Type.Array(Option),
})
const Term = Type.Object({
  termId: Type.Integer(),
  termCode: Type.String(),
  termMonths: Type.Integer(),
  termMiles: Type.Integer({ description: '0: unlimited miles.' }),
  milesBasis: Type.String({ enum: ['FROM_SALE_ODOMETER', 'FROM_ZERO'] }),
  expirationDate: Type.String({ format: 'date' }),
  expirationOdometer: Type.Union([Type.Integer(), Type.Null()]),
  deductibles: Type.Array(Deductible),
})
const Plan = Type.Object({
  planId: Type.Integer(),
  planCode: Type.String(),
  planName: Type.String(),
  formNumber: Type.String(),
  requiresCustomFields: Type.Boolean(),
  customFields: Type.Array(CustomField),
  terms: Type.Array(Term),
})
const Program = Type.Object({
  programId: Type.Integer(),
  programCode: Type.String(),
  programName: Type.String(),
  plans: Type.Array(Plan),
})
const Product = Type.Object({
  productId: Type.Integer(),
  productCode: Type.String(),
  productName: Type.String(),
  productType: Type.String(),
  programs: Type.Array(Program),
})
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) =>
  Type.Union([t, Type.Null()])
const Vehicle = Type.Object({
  vin: Nullable(Type.String()),
  year: Nullable(Type.Integer()),
  make: Nullable(Type.String()),
  model: Nullable(Type.String()),
  trim: Nullable(Type.String()),
  series: Nullable(Type.String()),
  bodyStyle: Nullable(Type.String()),
  driveType: Nullable(Type.String()),
  fuelType: Nullable(Type.String()),
  cylinders: Nullable(Type.Integer()),
  manufacturer: Nullable(Type.String()),
  condition: Nullable(Type.String()),
  odometer: Nullable(Type.Integer()),
  inServiceDate: Nullable(Type.String()),
  vehicleClass: Nullable(Type.String()),
  manufacturerWarranties: Type.Array(
    Type.Object({ type: Type.String(), months: Type.Integer(), miles: Type.Integer() }),
  ),
})
const Exclusion = Type.Object({
  level: Type.String({ enum: ['PRODUCT', 'PROGRAM', 'PLAN', 'TERM', 'DEDUCTIBLE'] }),
  productCode: Type.String(),
  programCode: Type.Optional(Type.String()),
  planCode: Type.Optional(Type.String()),
  termCode: Type.Optional(Type.String()),
  deductibleCode: Type.Optional(Type.String()),
  reason: Type.String({
    description:
      'NOT_VISIBLE, ASSET_TYPE, NOT_EFFECTIVE, INPUTS_MISSING, CRITERIA, CONDITION, NO_VEHICLE_CLASS or NO_RATE.',
  }),
  text: Type.String(),
  criteria: Type.Optional(
    Type.Object({
      text: Type.String(),
      result: Type.Boolean(),
      explanation: Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        additionalProperties: true,
        description: 'The value of every sub-expression, as POST /Rates/criteria/evaluate explains it.',
      }),
    }),
  ),
})

export const QUOTE_EXAMPLE = {
  quoteId: 'q1.WzEsNywxMiwxNzk0MTk3ODAwLDE3OTQyODQyMDAsIjAiLHsiZGVhbGVyTnVtYmVyIjoiMTAwMDEifV0.Xy3k2mQ0bS1lNWZ2YQ',
  quoteExpiresAt: '2026-11-23T02:10:00.000Z',
  quotedAt: '2026-11-22T02:10:00.000Z',
  dealerNumber: '10001',
  saleDate: '2026-11-22',
  rateBook: { version: 1, effectiveDate: '2026-01-01' },
  vehicle: {
    vin: '1HGCV1F37LA012345',
    year: 2020,
    make: 'HONDA',
    model: 'ACCORD',
    trim: 'SPORT',
    series: null,
    bodyStyle: 'Sedan/Saloon',
    driveType: 'FWD',
    fuelType: 'GASOLINE',
    cylinders: 4,
    manufacturer: 'American Honda Motor Co., Inc.',
    condition: 'USED',
    odometer: 42150,
    inServiceDate: '2020-05-01',
    vehicleClass: 'A',
    manufacturerWarranties: [
      { type: 'BASIC', months: 36, miles: 36000 },
      { type: 'POWERTRAIN', months: 60, miles: 60000 },
    ],
  },
  products: [
    {
      productId: 1,
      productCode: 'VSC',
      productName: 'Vehicle Service Contract',
      productType: 'VSC',
      programs: [
        {
          programId: 2,
          programCode: 'PLAT',
          programName: 'Platinum Exclusionary',
          plans: [
            {
              planId: 4,
              planCode: 'PLAT-USED',
              planName: 'Platinum - Used',
              formNumber: 'VSC-PLAT-U-0126',
              requiresCustomFields: true,
              customFields: [
                {
                  key: 'financeManagerCode',
                  label: 'F&I manager code',
                  type: 'STRING',
                  required: true,
                  unique: false,
                  order: 1,
                  maxLength: 10,
                },
              ],
              terms: [
                {
                  termId: 9,
                  termCode: '48-48000',
                  termMonths: 48,
                  termMiles: 48000,
                  milesBasis: 'FROM_SALE_ODOMETER',
                  expirationDate: '2030-11-22',
                  expirationOdometer: 90150,
                  deductibles: [
                    {
                      deductibleId: 3,
                      code: 'D100',
                      amount: 100,
                      type: 'STANDARD',
                      rate: {
                        rateId: 'r.4.9.3.57',
                        dealerCost: 1450,
                        suggestedRetail: 2540,
                        minRetail: 1450,
                        maxRetail: 4065,
                        retailLocked: false,
                        disbursements: [
                          { code: 'RES', group: 'RESERVE', label: 'Claims reserve', amount: 1061, source: 'RATE' },
                          { code: 'PRM', group: 'CLIP_PREMIUM', label: 'CLIP premium', amount: 64, source: 'RATE' },
                          { code: 'ADM', group: 'ADMIN_FEE', label: 'Admin fee', amount: 175, source: 'RATE' },
                          { code: 'COM', group: 'COMMISSION', label: 'Agent commission', amount: 150, source: 'RATE' },
                        ],
                      },
                      options: [
                        {
                          optionId: 30,
                          code: 'ROADSIDE',
                          name: 'Roadside assistance',
                          kind: 'OPTION',
                          required: false,
                          selected: false,
                          dealerCost: 35,
                          suggestedRetail: 99,
                          disbursements: [{ code: 'ADM', amount: 35 }],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
  messages: [
    {
      severity: 'INFO',
      code: 'PRODUCT_INPUTS_MISSING',
      text: 'GAP not rated: vehiclePurchasePrice, financeType, amountFinanced, financeTermMonths, apr required',
      productCode: 'GAP',
    },
  ],
}

export const RateQuoteSchema = Type.Object(
  {
    quoteId: Type.String({ description: 'Signed, self-describing quote id; give it to POST /contracts.' }),
    quoteExpiresAt: Type.String({ format: 'date-time' }),
    quotedAt: Type.String({ format: 'date-time' }),
    dealerNumber: Type.String(),
    saleDate: Type.String({ format: 'date' }),
    rateBook: Type.Union([
      Type.Object({ version: Type.Integer(), effectiveDate: Type.String({ format: 'date' }) }),
      Type.Null(),
    ]),
    vehicle: Vehicle,
    products: Type.Array(Product),
    messages: Type.Array(Message),
    exclusions: Type.Optional(Type.Array(Exclusion, { description: 'With explain=true only.' })),
    expired: Type.Optional(
      Type.Boolean({ description: 'GET /Rates/quotes/{quoteId} only: the quote can no longer be contracted.' }),
    ),
  },
  { $id: 'RateQuote', examples: [QUOTE_EXAMPLE] },
)

/** A quote reply, as the published schema says (tests read replies with it). */
export type RateQuote = Static<typeof RateQuoteSchema>
