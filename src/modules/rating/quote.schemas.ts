// Rate-quote request and reply shapes for the OpenAPI document (docs/rate-quote.md). The query is
// read by quote.rules.ts; these schemas describe it and the reply.
import { Type } from 'typebox'
import { ASSET_TYPES, FINANCE_TYPES, VEHICLE_CONDITIONS } from './ratebook.schema.ts'

const S = (description: string, examples?: unknown[]) =>
  Type.Optional(Type.String({ description, ...(examples ? { examples } : {}) }))

export const RateQuoteQuery = Type.Object({
  vin: S('17-character VIN; check digit enforced. Decoded offline (model year, make, model, trim, drive, fuel).', [
    '1HGCM82633A004352',
  ]),
  vehicleYear: S('Model year, when there is no VIN (or to disambiguate its year code).', ['2022']),
  vehicleMake: S('Make, when there is no VIN.', ['Honda']),
  vehicleModel: S('Model, when there is no VIN.', ['Accord']),
  vehicleTrim: S('Trim.', ['EX']),
  assetType: S(`One of ${ASSET_TYPES.join(', ')}; default AUTO.`),
  vehicleCondition: S(`One of ${VEHICLE_CONDITIONS.join(', ')}.`, ['USED']),
  odometer: S('Odometer at sale, whole miles, not negative.', ['42150']),
  saleDate: S('YYYY-MM-DD; default today. Not in the future, not older than the saleDateLookBackDays setting.', [
    '2026-11-20',
  ]),
  inServiceDate: S('YYYY-MM-DD; not after the sale date.', ['2023-05-01']),
  vehiclePurchasePrice: S('Amount.', ['28500.00']),
  msrp: S('Amount.', ['31200.00']),
  financeType: S(`One of ${FINANCE_TYPES.join(', ')}.`, ['RETAIL']),
  amountFinanced: S('Amount.', ['24000.00']),
  financeTermMonths: S('Whole months, 1 to 144.', ['72']),
  apr: S('Per cent, up to three decimals.', ['6.99']),
  monthlyPayment: S('Amount (recorded with the quote).'),
  firstPaymentDate: S('YYYY-MM-DD (recorded with the quote).'),
  productTypes: S('Comma list of product types to quote (VSC, GAP, TIRE_WHEEL, PPM, ...).', ['VSC,GAP']),
  productIds: S('Comma list of product ids.'),
  programIds: S('Comma list of program ids.'),
  surcharges: S('Comma list of option codes to select (required surcharges are selected anyway).', ['COMMERCIAL_USE']),
  customerState: S("Two-letter state; defaults to the dealer's.", ['TX']),
  explain: S('true: add `exclusions` (needs rates:explain).', ['false']),
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
