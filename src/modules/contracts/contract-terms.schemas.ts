// The `terms` member of a contract (contract-terms.ts toTermsView; docs/contracts.md "Terms"): the
// terms it is sold under, from its own rate-book version. Amounts, percentages and curve points are
// JSON numbers here; the stored snapshot keeps them as exact decimal strings.
import { Type } from 'typebox'
import { MONTH_COUNTING } from '../../platform/calendar.ts'
import {
  BENEFIT_TYPES,
  CANCEL_FORMULAS,
  CANCEL_REQUESTERS,
  DEDUCTIBLE_APPLIES,
  EARNINGS_METHODS,
  FEE_BASES,
  FEE_KEEPERS,
  GAP_ENDINGS,
  LIABILITY_BASES,
  REFUND_ISSUERS,
  REFUND_PAYEES,
  TIME_BASES,
} from '../rating/index.ts'
import { enumOf, nullable } from '../../platform/http/schemas.ts'

const Amount = (description?: string) => nullable(Type.Number(), description)
const TERM_SOURCES = ['BOOK', 'DEFAULT', 'SETTING'] as const

const CancelMethod = Type.Object({
  id: Type.Integer({ description: 'Catalogue id (`/cancelmethods/{id}`), the same in every version.' }),
  code: Type.String(),
  name: Type.String(),
  formula: enumOf(CANCEL_FORMULAS),
  timeBasis: nullable(enumOf(TIME_BASES)),
  monthCounting: nullable(enumOf(MONTH_COUNTING)),
  shortRatePercent: Amount('SHORT_RATE: per cent of the pro rata refund.'),
  fixedAmount: Amount('FIXED_AMOUNT: the refund before the cap at the price.'),
  milesApply: Type.Boolean(),
})

const CancelFee = Type.Object({
  amount: Amount(),
  percent: Amount('Per cent of percentOf; with an amount too, the smaller applies.'),
  percentOf: nullable(enumOf(FEE_BASES)),
  max: Amount('The largest a percent fee may be.'),
  keptBy: enumOf(FEE_KEEPERS),
})

const CancelReason = Type.Object({
  id: Type.Integer({ description: 'Catalogue id (`/cancelreasons/{id}`), the same in every version.' }),
  code: Type.String(),
  name: Type.String(),
  requestedBy: Type.Array(enumOf(CANCEL_REQUESTERS)),
  forcesFullRefund: Type.Boolean(),
  waivesFee: Type.Boolean(),
  requiresPayoffDate: Type.Boolean(),
  requiredDocuments: Type.Array(Type.String()),
  refundPayee: enumOf(REFUND_PAYEES),
  productTypes: nullable(Type.Array(Type.String())),
  endsGap: nullable(enumOf(GAP_ENDINGS)),
})

export const ContractTermsSchema = Type.Object(
  {
    rateBookVersion: Type.Integer(),
    product: Type.Object({ id: Type.Integer(), code: Type.String(), type: Type.String() }),
    plan: Type.Object({ id: Type.Integer(), code: Type.String() }),
    term: Type.Object({ id: Type.Integer(), code: Type.String(), months: Type.Integer(), miles: Type.Integer() }),
    governingState: nullable(
      Type.String(),
      "The state whose rules apply: the customer's state the quote priced for, else the dealer's.",
    ),
    cancellation: Type.Object(
      {
        method: CancelMethod,
        fee: CancelFee,
        freeLookDays: Type.Integer(),
        deductClaims: Type.Boolean(),
        refundIssuer: enumOf(REFUND_ISSUERS),
        rules: Type.Array(
          Type.Object({
            reasons: nullable(Type.Array(Type.String())),
            states: nullable(Type.Array(Type.String())),
            requestedBy: nullable(Type.Array(enumOf(CANCEL_REQUESTERS))),
            method: nullable(CancelMethod),
            fee: nullable(CancelFee),
            freeLookDays: nullable(Type.Integer()),
            deductClaims: nullable(Type.Boolean()),
            refundIssuer: nullable(enumOf(REFUND_ISSUERS)),
          }),
          {
            description: "The product's rules by reason, state and requester; the first that matches a cancel applies.",
          },
        ),
        sources: Type.Object(
          {
            method: enumOf(TERM_SOURCES),
            fee: enumOf(TERM_SOURCES),
            freeLookDays: enumOf(TERM_SOURCES),
            deductClaims: enumOf(TERM_SOURCES),
          },
          { description: 'Where each product term came from: the book, the default, or a tenant setting at the sale.' },
        ),
      },
      { description: "The product's cancellation terms (money.md: state rule > product rule > tenant setting)." },
    ),
    cancelMethods: Type.Array(CancelMethod),
    cancelReasons: Type.Array(CancelReason, { description: "The version's cancel reasons for the product's type." }),
    stateRules: Type.Array(
      Type.Object({
        state: Type.String(),
        freeLookDays: nullable(Type.Integer()),
        cancelFeeMax: Amount(),
        cancelFeeMaxPercent: Amount('Per cent of the contract price.'),
        claimsDeductible: nullable(Type.Boolean()),
      }),
    ),
    earnings: Type.Record(
      Type.String(),
      Type.Object({
        group: Type.String(),
        method: enumOf(EARNINGS_METHODS),
        curve: nullable(
          Type.Object({ code: Type.String(), name: Type.String(), cumulative: Type.Array(Type.Number()) }),
        ),
        monthCounting: nullable(enumOf(MONTH_COUNTING)),
        refundable: Type.Boolean(),
      }),
      { description: 'By disbursement code, each priced line: how it is earned and whether a cancel refunds it.' },
    ),
    claims: Type.Object({
      waitingPeriodDays: Type.Integer(),
      waitingPeriodMiles: Type.Integer(),
      limitOfLiability: Type.Object({ basis: enumOf(LIABILITY_BASES), amount: Amount() }),
      perClaimLimit: Amount(),
      deductibleApplies: enumOf(DEDUCTIBLE_APPLIES),
      benefits: Type.Array(
        Type.Object({
          type: enumOf(BENEFIT_TYPES),
          perDay: Amount(),
          maxDays: nullable(Type.Integer()),
          perOccurrence: Amount(),
          maxAmount: Amount(),
        }),
      ),
    }),
    transfer: Type.Object({
      allowed: Type.Boolean(),
      fee: Amount(),
      withinDays: nullable(Type.Integer()),
      dealerMayOwn: Type.Boolean(),
    }),
    salesTax: nullable(
      Type.Object({
        amount: Type.Number({ description: "The tax of the sale: the sum of its rules' taxes, each rounded once." }),
        collectedBy: enumOf(
          ['DEALER', 'ADMINISTRATOR', 'MIXED'] as const,
          'Who collects it: ADMINISTRATOR lines are posted at finalize (SALES_TAX_PAYABLE); DEALER lines the dealer remits. MIXED: the rules differ.',
        ),
        date: Type.String({ format: 'date', description: 'The sale date: the rules in force that day applied.' }),
        rules: Type.Array(
          Type.Object({
            ruleId: Type.Integer(),
            jurisdiction: Type.Object({
              level: enumOf(['STATE', 'COUNTY', 'CITY'] as const),
              state: Type.String(),
              county: nullable(Type.String()),
              city: nullable(Type.String()),
            }),
            rate: Type.Number({ description: 'A fraction: 0.0625 is 6.25%.' }),
            taxableBase: enumOf(['RETAIL_PRICE', 'DEALER_COST', 'NONE'] as const),
            base: Type.Number(),
            tax: Type.Number(),
            collectedBy: enumOf(['DEALER', 'ADMINISTRATOR'] as const),
          }),
        ),
      }),
      "The sales tax of the sale, kept at the sale (and on a reprice while PENDING) from the rules for the customer's state and city, the product type and the sale date (docs/sales-tax.md). null: tax exempt, no address, or no rule applied.",
    ),
    lien: nullable(
      Type.Object({
        lienHolderId: Type.Integer(),
        released: Type.Boolean(),
        releasedOn: nullable(Type.String({ format: 'date' })),
      }),
      'The lien: a refund goes to the lien holder while it is unreleased. null: no lien holder.',
    ),
    resolved: Type.Object({
      at: Type.String({ description: 'When the snapshot was taken.' }),
      on: Type.Unsafe<'SALE' | 'FIRST_USE'>({
        type: 'string',
        enum: ['SALE', 'FIRST_USE'],
        description: 'SALE: at creation; FIRST_USE: a contract sold before snapshots, resolved when first needed.',
      }),
    }),
    cession: nullable(
      Type.Object({
        treatyId: Type.Integer({ description: 'The reinsurance treaty in force on the sale date.' }),
        reinsuranceCompanyId: Type.Integer({ description: 'The reinsurance company it cedes to.' }),
        shareBps: Type.Integer({ description: 'The ceded share of the reserve, basis points (10000 = 100 %).' }),
        reserve: Type.Number({ description: "The contract's RESERVE lines." }),
        cededReserve: Type.Number({ description: 'reserve × shareBps / 10000, rounded half up once.' }),
        cedingFeeBps: Type.Integer(),
        cedingFee: Type.Number({ description: 'cededReserve × cedingFeeBps / 10000, rounded half up once.' }),
        administratorFeeBps: Type.Integer(),
        administratorFee: Type.Number({
          description: 'cededReserve × administratorFeeBps / 10000, rounded half up once.',
        }),
      }),
      "The reinsurance cession fixed at the sale (docs/reporting.md); later treaty changes never rewrite it. null: no treaty was in force (the reserve stays with the plan's insurer).",
    ),
  },
  { description: 'The terms the contract is sold under, from its own rate-book version (docs/contracts.md "Terms").' },
)

const PRO_RATA_LESSER = {
  id: 41,
  code: 'PRO_RATA_LESSER_TIME_MILES',
  name: 'Pro rata, lesser of time and miles',
  formula: 'PRO_RATA_LESSER_TIME_MILES',
  timeBasis: 'DAYS',
  monthCounting: null,
  shortRatePercent: null,
  fixedAmount: null,
  milesApply: true,
} as const

export const CONTRACT_TERMS_EXAMPLE = {
  rateBookVersion: 3,
  product: { id: 11, code: 'VSC', type: 'VSC' },
  plan: { id: 14, code: 'PLAT-USED' },
  term: { id: 15, code: '48-48000', months: 48, miles: 48000 },
  governingState: 'TX',
  cancellation: {
    method: PRO_RATA_LESSER,
    fee: { amount: 50, percent: 10, percentOf: 'REFUND', max: null, keptBy: 'ADMINISTRATOR' },
    freeLookDays: 30,
    deductClaims: true,
    refundIssuer: 'ADMINISTRATOR',
    rules: [
      {
        reasons: ['TOTAL_LOSS'],
        states: null,
        requestedBy: null,
        method: null,
        fee: null,
        freeLookDays: null,
        deductClaims: false,
        refundIssuer: null,
      },
    ],
    sources: { method: 'BOOK', fee: 'BOOK', freeLookDays: 'BOOK', deductClaims: 'BOOK' },
  },
  cancelMethods: [PRO_RATA_LESSER],
  cancelReasons: [
    {
      id: 52,
      code: 'TRADE_IN',
      name: 'Trade in',
      requestedBy: ['CUSTOMER', 'DEALER', 'ADMIN'],
      forcesFullRefund: false,
      waivesFee: false,
      requiresPayoffDate: false,
      requiredDocuments: ['ODOMETER_STATEMENT'],
      refundPayee: 'AUTO',
      productTypes: null,
      endsGap: null,
    },
  ],
  stateRules: [{ state: 'TX', freeLookDays: 60, cancelFeeMax: 50, cancelFeeMaxPercent: 10, claimsDeductible: false }],
  earnings: {
    RES: { group: 'RESERVE', method: 'REVERSE_RULE_OF_78', curve: null, monthCounting: 'COMPLETED', refundable: true },
    ADM: { group: 'ADMIN_FEE', method: 'PRO_RATA_DAYS', curve: null, monthCounting: null, refundable: true },
    COM: { group: 'COMMISSION', method: 'IMMEDIATE', curve: null, monthCounting: null, refundable: true },
  },
  claims: {
    waitingPeriodDays: 30,
    waitingPeriodMiles: 1000,
    limitOfLiability: { basis: 'VEHICLE_PURCHASE_PRICE', amount: null },
    perClaimLimit: 5000,
    deductibleApplies: 'PER_VISIT',
    benefits: [{ type: 'RENTAL', perDay: 40, maxDays: 5, perOccurrence: null, maxAmount: 200 }],
  },
  transfer: { allowed: true, fee: 50, withinDays: null, dealerMayOwn: false },
  salesTax: {
    amount: 168.44,
    collectedBy: 'ADMINISTRATOR',
    date: '2026-11-21',
    rules: [
      {
        ruleId: 3,
        jurisdiction: { level: 'STATE', state: 'TX', county: null, city: null },
        rate: 0.0625,
        taxableBase: 'RETAIL_PRICE',
        base: 2695,
        tax: 168.44,
        collectedBy: 'ADMINISTRATOR',
      },
    ],
  },
  lien: { lienHolderId: 512, released: false, releasedOn: null },
  resolved: { at: '2026-11-21T16:01:59.000Z', on: 'SALE' },
  cession: {
    treatyId: 4,
    reinsuranceCompanyId: 88,
    shareBps: 10000,
    reserve: 640,
    cededReserve: 640,
    cedingFeeBps: 250,
    cedingFee: 16,
    administratorFeeBps: 0,
    administratorFee: 0,
  },
}
