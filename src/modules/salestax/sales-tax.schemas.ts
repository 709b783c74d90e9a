// Wire shapes of sales tax (docs/sales-tax.md). Amounts are JSON numbers of at most 2 decimals and
// rates fractions of at most 6; both are checked by the service (422 naming the field), not here, so
// that a too-precise value is named rather than refused as a bad type.
import { Type } from 'typebox'
import { DateTime, enumOf, IntegerId, ListQuery, nullable } from '../../platform/http/schemas.ts'
import { PRODUCT_TYPES } from '../rating/index.ts'
import { COLLECTORS, TAXABLE_BASES } from './sales-tax.rules.ts'

const DateOnly = (description: string) => Type.String({ format: 'date', description, examples: ['2026-01-01'] })
const State = Type.String({
  minLength: 2,
  maxLength: 2,
  pattern: '^[A-Za-z]{2}$',
  description: 'Two-letter state code.',
  examples: ['TX'],
})
const Place = (what: string) => Type.String({ minLength: 1, maxLength: 100, description: what })

export const SALES_TAX_RULE_EXAMPLE = {
  salesTaxRuleId: 7,
  state: 'TX',
  county: null,
  city: null,
  productType: 'VSC',
  rate: 0.0625,
  taxableBase: 'RETAIL_PRICE',
  collectedBy: 'DEALER',
  effectiveFrom: '2026-01-01',
  effectiveTo: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
}

const RuleFields = {
  state: State,
  county: nullable(Place('The county; null: a state or city rule.')),
  city: nullable(Place('The city; null: a state or county rule.')),
  productType: nullable(enumOf(PRODUCT_TYPES), 'The product type taxed; null: every product type.'),
  rate: Type.Number({
    description: 'A fraction of the base, at most 6 decimals (0.0625 is 6.25%).',
    examples: [0.0625],
  }),
  taxableBase: enumOf(TAXABLE_BASES, 'What the rate applies to; NONE: the product is exempt here.'),
  collectedBy: enumOf(COLLECTORS, 'Who collects and remits the tax.'),
  effectiveFrom: DateOnly('First day in force.'),
  effectiveTo: nullable(DateOnly('Last day in force (inclusive).'), 'Last day in force (inclusive); null: open-ended.'),
}

export const SalesTaxRuleSchema = Type.Object(
  {
    salesTaxRuleId: IntegerId('The rule.'),
    ...RuleFields,
    createdAt: DateTime('When created.'),
    updatedAt: DateTime('When last changed.'),
  },
  { $id: 'SalesTaxRule', title: 'SalesTaxRule', examples: [SALES_TAX_RULE_EXAMPLE] },
)

/**
 * What a PATCH must leave: the rule's fields, where a merge patch's null removes county, city,
 * productType or effectiveTo (RFC 7396), so absent reads as null.
 */
export const SalesTaxRuleEditable = Type.Object(
  {
    ...RuleFields,
    county: Type.Optional(RuleFields.county),
    city: Type.Optional(RuleFields.city),
    productType: Type.Optional(RuleFields.productType),
    effectiveTo: Type.Optional(RuleFields.effectiveTo),
  },
  { additionalProperties: false },
)

export const CreateSalesTaxRuleBody = Type.Object(
  {
    state: State,
    county: Type.Optional(RuleFields.county),
    city: Type.Optional(RuleFields.city),
    productType: Type.Optional(RuleFields.productType),
    rate: RuleFields.rate,
    taxableBase: RuleFields.taxableBase,
    collectedBy: RuleFields.collectedBy,
    effectiveFrom: RuleFields.effectiveFrom,
    effectiveTo: Type.Optional(RuleFields.effectiveTo),
  },
  {
    additionalProperties: false,
    examples: [
      {
        state: 'TX',
        productType: 'VSC',
        rate: 0.0625,
        taxableBase: 'RETAIL_PRICE',
        collectedBy: 'DEALER',
        effectiveFrom: '2026-01-01',
      },
    ],
  },
)

export const SalesTaxRuleParams = Type.Object({ salesTaxRuleId: IntegerId('The rule.') })

export const SalesTaxRuleListQuery = Type.Object(
  {
    state: Type.Optional(State),
    productType: Type.Optional(enumOf(PRODUCT_TYPES, 'Rules of this product type and of every product type (null).')),
    asOf: Type.Optional(DateOnly('Only the rules in force on this day.')),
    ...ListQuery,
  },
  { additionalProperties: false },
)

const JurisdictionSchema = Type.Object({
  level: enumOf(['STATE', 'COUNTY', 'CITY'] as const),
  state: Type.String(),
  county: nullable(Type.String()),
  city: nullable(Type.String()),
})

const TaxLineSchema = Type.Object({
  ruleId: Type.Integer({ description: 'The rule (GET /api/salestax/rules/{salesTaxRuleId}).' }),
  jurisdiction: JurisdictionSchema,
  rate: Type.Number({ description: 'The fraction applied.' }),
  taxableBase: enumOf(TAXABLE_BASES),
  base: Type.Number({ description: 'The amount the rate applied to.' }),
  tax: Type.Number({ description: 'base × rate, rounded half-up to the cent.' }),
  collectedBy: enumOf(COLLECTORS),
})

export const SALES_TAX_CALCULATION_EXAMPLE = {
  salesTax: 177.2,
  rules: [
    {
      ruleId: 7,
      jurisdiction: { level: 'STATE', state: 'TX', county: null, city: null },
      rate: 0.0625,
      taxableBase: 'RETAIL_PRICE',
      base: 2695,
      tax: 168.44,
      collectedBy: 'DEALER',
    },
    {
      ruleId: 9,
      jurisdiction: { level: 'CITY', state: 'TX', county: null, city: 'Austin' },
      rate: 0.01,
      taxableBase: 'DEALER_COST',
      base: 876.4,
      tax: 8.76,
      collectedBy: 'ADMINISTRATOR',
    },
  ],
}

export const SalesTaxCalculationSchema = Type.Object(
  {
    salesTax: Type.Number({ description: 'The sum of the rules’ taxes.' }),
    rules: Type.Array(TaxLineSchema, { description: 'State first, then county, then city.' }),
  },
  { $id: 'SalesTaxCalculation', title: 'SalesTaxCalculation', examples: [SALES_TAX_CALCULATION_EXAMPLE] },
)

export const SalesTaxCalculationBody = Type.Object(
  {
    state: State,
    county: Type.Optional(Place('The county of the sale (the customer’s address).')),
    city: Type.Optional(Place('The city of the sale (the customer’s address).')),
    productType: enumOf(PRODUCT_TYPES),
    date: Type.Optional(DateOnly('The day whose rules apply; default today in the tenant’s time zone.')),
    retailPrice: Type.Number({ minimum: 0, description: 'At most 2 decimals.', examples: [2695] }),
    dealerCost: Type.Optional(
      Type.Number({ minimum: 0, description: 'At most 2 decimals; needed when a rule taxes the dealer cost.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ state: 'TX', city: 'Austin', productType: 'VSC', retailPrice: 2695, dealerCost: 876.4 }],
  },
)

export const ContractSalesTaxSchema = Type.Object(
  {
    contractId: Type.Integer(),
    date: Type.String({ format: 'date', description: 'Today: the day whose rules were applied.' }),
    location: Type.Object({
      state: nullable(Type.String()),
      county: nullable(Type.String({ description: 'Contracts keep no county: county rules do not apply (null).' })),
      city: nullable(Type.String()),
    }),
    productType: Type.String(),
    retailPrice: Type.Number(),
    dealerCost: Type.Number(),
    recalculated: Type.Unsafe<Record<string, unknown>>({ $ref: 'SalesTaxCalculation#' }),
    stored: nullable(Type.Number(), 'The tax kept in the contract’s terms (terms.salesTax); null: none kept.'),
    difference: Type.Number({ description: 'recalculated.salesTax − (stored ?? 0).' }),
  },
  {
    $id: 'ContractSalesTaxRecalculation',
    title: 'ContractSalesTaxRecalculation',
    examples: [
      {
        contractId: 1042,
        date: '2026-11-26',
        location: { state: 'TX', county: null, city: 'Austin' },
        productType: 'VSC',
        retailPrice: 2695,
        dealerCost: 876.4,
        recalculated: SALES_TAX_CALCULATION_EXAMPLE,
        stored: null,
        difference: 177.2,
      },
    ],
  },
)
