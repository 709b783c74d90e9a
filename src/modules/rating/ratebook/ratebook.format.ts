// The rate-book exchange format (docs/rate-books.md): what an administrator writes and imports, and
// what export gives back. This is the structural schema only (shapes, enums, lengths); references
// between parts, money, dates and criteria are checked by ratebook.rules.ts, which reports every
// problem with its location.
import { Type, type Static } from 'typebox'
import { MONTH_COUNTING } from '../../../platform/calendar.ts'
import { enumOf } from '../../../platform/http/schemas.ts'

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

// The terms a contract is sold under (money.md; docs/rate-books.md, "After the sale"): all optional,
// with defaults applied when a contract's terms are resolved (ratebook.terms.ts), never stored.

/** The refund formulas of money.md ("Unearned fraction U of a cancel"). */
export const CANCEL_FORMULAS = [
  'PRO_RATA_DAYS',
  'PRO_RATA_MONTHS',
  'PRO_RATA_MILES',
  'PRO_RATA_LESSER_TIME_MILES',
  'PRO_RATA_GREATER_TIME_MILES',
  'RULE_OF_78',
  'MEAN_PR_R78',
  'SHORT_RATE',
  'FIXED_AMOUNT',
  'FULL',
  'NONE',
] as const
export type CancelFormula = (typeof CANCEL_FORMULAS)[number]
/** The time part of a formula that combines time with miles, or of a short rate. */
export const TIME_BASES = ['DAYS', 'MONTHS'] as const
export type TimeBasis = (typeof TIME_BASES)[number]
export const CANCEL_REQUESTERS = ['CUSTOMER', 'DEALER', 'LIENHOLDER', 'ADMIN'] as const
export type CancelRequester = (typeof CANCEL_REQUESTERS)[number]
/** AUTO: the lien holder while the lien is unreleased, else the customer (payloads §6). */
export const REFUND_PAYEES = ['AUTO', 'CUSTOMER', 'LIENHOLDER', 'DEALER'] as const
export type RefundPayee = (typeof REFUND_PAYEES)[number]
/** What ends a GAP contract. */
export const GAP_ENDINGS = ['PAYOFF', 'REFINANCE', 'SALE', 'REPOSSESSION', 'TOTAL_LOSS'] as const
export type GapEnding = (typeof GAP_ENDINGS)[number]
export const FEE_BASES = ['PRICE', 'REFUND'] as const
export type FeeBasis = (typeof FEE_BASES)[number]
/** Who keeps a cancel fee, who issues a refund. */
export const FEE_KEEPERS = ['ADMINISTRATOR', 'DEALER'] as const
export type FeeKeeper = (typeof FEE_KEEPERS)[number]
export const REFUND_ISSUERS = ['ADMINISTRATOR', 'DEALER'] as const
export type RefundIssuer = (typeof REFUND_ISSUERS)[number]
/** How a line of the price is earned over the term (money.md, "Earnings"). */
export const EARNINGS_METHODS = [
  'PRO_RATA_DAYS',
  'PRO_RATA_MONTHS',
  'RULE_OF_78',
  'REVERSE_RULE_OF_78',
  'IMMEDIATE',
  'CURVE',
] as const
export type EarningsMethod = (typeof EARNINGS_METHODS)[number]
export const LIABILITY_BASES = ['CONTRACT_PRICE', 'VEHICLE_PURCHASE_PRICE', 'AMOUNT', 'NONE'] as const
export type LiabilityBasis = (typeof LIABILITY_BASES)[number]
export const DEDUCTIBLE_APPLIES = ['PER_VISIT', 'PER_REPAIR'] as const
export type DeductibleApplies = (typeof DEDUCTIBLE_APPLIES)[number]
export const BENEFIT_TYPES = ['RENTAL', 'TOWING', 'TRIP_INTERRUPTION', 'ROADSIDE'] as const
export type BenefitType = (typeof BENEFIT_TYPES)[number]

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
/** A percentage or a fraction: a decimal string or a number (places and range checked by ratebook.rules.ts). */
const DecimalValue = (description: string) =>
  Type.Union([Type.String({ maxLength: 20 }), Type.Number()], { description })
const StateCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'A USPS state or territory code, e.g. TX.' })
const Buckets = Type.Record(Type.String({ pattern: CODE_PATTERN }), Money, {
  description: 'Amount per disbursement code.',
})

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
    earnings: Type.Optional(
      Type.Object(
        {
          method: enumOf(EARNINGS_METHODS),
          curve: Type.Optional(Code('An earnings curve of the book (method CURVE only).')),
          monthCounting: Type.Optional(
            enumOf(MONTH_COUNTING, 'How months elapsed are counted (month-based methods only); default COMPLETED.'),
          ),
        },
        {
          additionalProperties: false,
          description: "How the bucket's amount is earned over the term; default PRO_RATA_DAYS.",
        },
      ),
    ),
    refundable: Type.Optional(
      Type.Boolean({ description: "Whether the bucket's unearned share is refunded at a cancel; default true." }),
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
    claims: Type.Optional(
      Type.Object(
        {
          waitingPeriodDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
          waitingPeriodMiles: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
          limitOfLiability: Type.Optional(
            Type.Object(
              { basis: enumOf(LIABILITY_BASES), amount: Type.Optional(Money) },
              { additionalProperties: false, description: 'What all claims of a contract may add up to.' },
            ),
          ),
          perClaimLimit: Type.Optional(Money),
          deductibleApplies: Type.Optional(enumOf(DEDUCTIBLE_APPLIES)),
          benefits: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  type: enumOf(BENEFIT_TYPES),
                  perDay: Type.Optional(Money),
                  maxDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
                  perOccurrence: Type.Optional(Money),
                  maxAmount: Type.Optional(Money),
                },
                { additionalProperties: false },
              ),
              { maxItems: BENEFIT_TYPES.length },
            ),
          ),
        },
        { additionalProperties: false, description: "The plan's claim terms." },
      ),
    ),
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

export const CancelFeeSchema = Type.Object(
  {
    amount: Type.Optional(Money),
    percent: Type.Optional(DecimalValue('Per cent of `percentOf`, above 0 and at most 100, four places at most.')),
    percentOf: Type.Optional(enumOf(FEE_BASES)),
    max: Type.Optional(Money),
    keptBy: Type.Optional(enumOf(FEE_KEEPERS)),
  },
  {
    additionalProperties: false,
    description: 'A cancel fee: an amount, a percentage (capped by max), or the smaller of both.',
  },
)

export const CancellationRuleSchema = Type.Object(
  {
    reasons: Type.Optional(Type.Array(Code('Cancel reason code.'), { minItems: 1, maxItems: 100 })),
    states: Type.Optional(Type.Array(StateCode, { minItems: 1, maxItems: 60 })),
    requestedBy: Type.Optional(Type.Array(enumOf(CANCEL_REQUESTERS), { minItems: 1, maxItems: 4 })),
    method: Type.Optional(Code('Cancel method code.')),
    fee: Type.Optional(CancelFeeSchema),
    freeLookDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    deductClaims: Type.Optional(Type.Boolean()),
    refundIssuer: Type.Optional(enumOf(REFUND_ISSUERS)),
  },
  {
    additionalProperties: false,
    description: "Overrides for the cancels it matches (first match wins); an absent member keeps the product's.",
  },
)

export const CancellationSchema = Type.Object(
  {
    method: Type.Optional(Code('Cancel method code.')),
    fee: Type.Optional(CancelFeeSchema),
    freeLookDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    deductClaims: Type.Optional(Type.Boolean()),
    refundIssuer: Type.Optional(enumOf(REFUND_ISSUERS)),
    rules: Type.Optional(Type.Array(CancellationRuleSchema, { maxItems: 100 })),
  },
  { additionalProperties: false, description: "The product's cancellation terms." },
)

export const CancelMethodSchema = Type.Object(
  {
    code: Code('Cancel method code, unique in the book.'),
    name: Name,
    formula: enumOf(CANCEL_FORMULAS),
    timeBasis: Type.Optional(enumOf(TIME_BASES, 'LESSER/GREATER of time and miles and SHORT_RATE; default DAYS.')),
    monthCounting: Type.Optional(enumOf(MONTH_COUNTING, 'When months are counted; default COMPLETED.')),
    shortRatePercent: Type.Optional(DecimalValue('SHORT_RATE only: the per cent of the pro rata refund.')),
    fixedAmount: Type.Optional(Money),
  },
  { additionalProperties: false },
)

export const CancelReasonSchema = Type.Object(
  {
    code: Code('Cancel reason code, unique in the book.'),
    name: Name,
    requestedBy: Type.Array(enumOf(CANCEL_REQUESTERS), { minItems: 1, maxItems: 4 }),
    forcesFullRefund: Type.Optional(Type.Boolean()),
    waivesFee: Type.Optional(Type.Boolean()),
    requiresPayoffDate: Type.Optional(Type.Boolean()),
    requiredDocuments: Type.Optional(Type.Array(Code('Document type code.'), { maxItems: 20 })),
    refundPayee: Type.Optional(enumOf(REFUND_PAYEES)),
    productTypes: Type.Optional(Type.Array(enumOf(PRODUCT_TYPES), { minItems: 1, maxItems: PRODUCT_TYPES.length })),
    endsGap: Type.Optional(enumOf(GAP_ENDINGS)),
  },
  { additionalProperties: false },
)

export const StateRuleSchema = Type.Object(
  {
    state: StateCode,
    freeLookDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    cancelFeeMax: Type.Optional(Money),
    cancelFeeMaxPercent: Type.Optional(DecimalValue('The largest fee as per cent of the price, 0 to 100.')),
    claimsDeductible: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)

export const EarningsCurveSchema = Type.Object(
  {
    code: Code('Earnings curve code, unique in the book.'),
    name: Name,
    cumulative: Type.Array(DecimalValue('The fraction earned by the end of the month: 0 to 1, six places at most.'), {
      minItems: 1,
      maxItems: 240,
    }),
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
    cancellation: Type.Optional(CancellationSchema),
    transfer: Type.Optional(
      Type.Object(
        {
          allowed: Type.Boolean(),
          fee: Type.Optional(Money),
          withinDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
          dealerMayOwn: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false, description: 'Whether and how a contract passes to a new owner.' },
      ),
    ),
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
    cancelMethods: Type.Optional(Type.Array(CancelMethodSchema, { minItems: 1, maxItems: 100 })),
    cancelReasons: Type.Optional(Type.Array(CancelReasonSchema, { minItems: 1, maxItems: 100 })),
    stateRules: Type.Optional(Type.Array(StateRuleSchema, { maxItems: 60 })),
    earningsCurves: Type.Optional(Type.Array(EarningsCurveSchema, { maxItems: 100 })),
  },
  { additionalProperties: false },
)

export type RateBookInput = Static<typeof RateBookSchema>
export type RateInput = Static<typeof RateSchema>
export type ProductInput = Static<typeof ProductSchema>
export type CustomFieldInput = Static<typeof CustomFieldSchema>
export type CancelMethodInput = Static<typeof CancelMethodSchema>
export type CancelReasonInput = Static<typeof CancelReasonSchema>
export type CancelFeeInput = Static<typeof CancelFeeSchema>
export type CancellationInput = Static<typeof CancellationSchema>
export type StateRuleInput = Static<typeof StateRuleSchema>
export type EarningsCurveInput = Static<typeof EarningsCurveSchema>
export type DisbursementCodeInput = Static<typeof DisbursementCodeSchema>
export type PlanInput = Static<typeof PlanSchema>
