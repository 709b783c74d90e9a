// TypeBox schemas of the cancel method and cancel reason routes (docs/rate-catalogue.md, "Cancel
// methods and reasons"): their filters, the v2 identifier, and the replies with examples.
import { Type, type TSchema } from 'typebox'
import { MONTH_COUNTING } from '../../../platform/calendar.ts'
import { enumOf, IntegerId, ListQuery, nullable, PagedQuery } from '../../../platform/http/schemas.ts'
import {
  CANCEL_FORMULAS,
  CANCEL_REQUESTERS,
  GAP_ENDINGS,
  PRODUCT_TYPES,
  REFUND_PAYEES,
  TIME_BASES,
} from '../ratebook/index.ts'
import { BookQuery } from './catalogue.schemas.ts'
import { CANCEL_FORMULA_FAMILIES, MILES_COMBINATIONS } from './cancel-catalogue.rules.ts'

// ---- query parameters and path parameters -----------------------------------------------------

const MethodFilters = {
  formula: Type.Optional(
    enumOf(CANCEL_FORMULA_FAMILIES, 'Only methods of this formula family (any case); PRO_RATA covers every pro rata.'),
  ),
  calculation: Type.Optional(
    enumOf(CANCEL_FORMULAS, "Only methods of this exact calculation (the book's formula, any case)."),
  ),
}
const ReasonFilters = {
  productType: Type.Optional(
    enumOf(PRODUCT_TYPES, 'Only reasons for this product type (any case); reasons for every type included.'),
  ),
  requestedBy: Type.Optional(enumOf(CANCEL_REQUESTERS, 'Only reasons this requester may give (any case).')),
}

export const CancelMethodListQuery = Type.Object(
  { ...BookQuery, ...MethodFilters, ...ListQuery },
  { additionalProperties: false },
)
export const CancelMethodPageQuery = Type.Object(
  { ...BookQuery, ...MethodFilters, ...PagedQuery },
  { additionalProperties: false },
)
export const CancelReasonListQuery = Type.Object(
  { ...BookQuery, ...ReasonFilters, ...ListQuery },
  { additionalProperties: false },
)
export const CancelReasonPageQuery = Type.Object(
  { ...BookQuery, ...ReasonFilters, ...PagedQuery },
  { additionalProperties: false },
)

export const CancelMethodIdParams = Type.Object({
  cancelMethodId: IntegerId('Cancel method id (a rating catalogue item of kind CANCEL_METHOD)'),
})
export const CancelReasonIdParams = Type.Object({
  cancelReasonId: IntegerId('Cancel reason id (a rating catalogue item of kind CANCEL_REASON)'),
})
/** Book codes are at most 40 characters; ids are at most 16 digits. */
export const IdentifierParams = (what: string, example: string) =>
  Type.Object({
    identifier: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
      description: `${what} id (digits), or its code in any case.`,
      examples: [example],
    }),
  })

// ---- replies ----------------------------------------------------------------------------------

const methodMembers = {
  id: Type.Integer({ description: 'Catalogue id: the same in every rate-book version that has the code.' }),
  code: Type.String(),
  name: Type.String(),
  formula: enumOf(
    CANCEL_FORMULA_FAMILIES,
    'The formula family; `calculation`, `timeBasis` and `milesCombination` say which pro rata.',
  ),
  calculation: enumOf(CANCEL_FORMULAS, "The exact calculation (the rate book's formula, as money.md names it)."),
  timeBasis: nullable(enumOf(TIME_BASES), 'The time the calculation reads; null when it reads none.'),
  mileageBasis: Type.Boolean({ description: 'Whether the calculation reads miles.' }),
  milesCombination: nullable(
    enumOf(MILES_COMBINATIONS),
    'With miles: miles alone, or the lesser or greater of the time and miles fractions; null without miles.',
  ),
  monthCounting: nullable(
    enumOf(MONTH_COUNTING),
    'How months elapsed are counted when the time basis is MONTHS; null otherwise.',
  ),
  shortRatePercent: nullable(
    Type.Number({ description: 'SHORT_RATE: the per cent of the pro rata refund (at most 4 decimal places).' }),
  ),
  fixedAmount: nullable(
    Type.Number({ description: 'FIXED_AMOUNT: the refund before the cap at the price (at most 2 decimal places).' }),
  ),
}

const reasonMembers = {
  id: Type.Integer({ description: 'Catalogue id: the same in every rate-book version that has the code.' }),
  code: Type.String(),
  name: Type.String(),
  requiresPayoffDate: Type.Boolean({ description: "A cancel for this reason must give the loan's payoff date." }),
  requiresDocuments: Type.Array(Type.String(), { description: 'Document type codes a cancel for this reason needs.' }),
  forcesFullRefund: Type.Boolean({ description: 'The whole price is refunded, with no fee and no claims deducted.' }),
  waivesFee: Type.Boolean({ description: 'No cancel fee is charged.' }),
  requestedBy: Type.Array(enumOf(CANCEL_REQUESTERS), { description: 'Who may ask for a cancel for this reason.' }),
  refundPayee: enumOf(
    REFUND_PAYEES,
    'Who gets the refund; AUTO: the lien holder while the lien is unreleased, else the customer.',
  ),
  productTypes: nullable(Type.Array(enumOf(PRODUCT_TYPES)), 'The product types the reason is for; null: every type.'),
  endsGap: nullable(enumOf(GAP_ENDINGS), 'What of a GAP contract the reason ends; null: none by itself.'),
}

const retiredMembers = {
  retired: Type.Boolean({
    description:
      'True when the rate-book version read no longer has the item: it is answered from `lastVersion`, the newest earlier version that has it.',
  }),
  lastVersion: nullable(Type.Integer(), 'The version a retired item was read from; null when not retired.'),
}

export const CANCEL_METHOD_EXAMPLE = {
  id: 31,
  code: 'PRO_RATA_LESSER_MONTHS_MILES',
  name: 'Pro rata, the lesser of months or miles',
  formula: 'PRO_RATA',
  calculation: 'PRO_RATA_LESSER_TIME_MILES',
  timeBasis: 'MONTHS',
  mileageBasis: true,
  milesCombination: 'LESSER',
  monthCounting: 'COMPLETED',
  shortRatePercent: null,
  fixedAmount: null,
}
export const CancelMethodSchema = Type.Object(methodMembers, { examples: [CANCEL_METHOD_EXAMPLE] })
export const CancelMethodDetailSchema = Type.Object(
  { ...methodMembers, ...retiredMembers },
  {
    examples: [
      {
        id: 35,
        code: 'SHORT_RATE_90',
        name: 'Short rate, 90 % of pro rata by days',
        formula: 'SHORT_RATE',
        calculation: 'SHORT_RATE',
        timeBasis: 'DAYS',
        mileageBasis: false,
        milesCombination: null,
        monthCounting: null,
        shortRatePercent: 90,
        fixedAmount: null,
        retired: true,
        lastVersion: 2,
      },
    ],
  },
)

export const CANCEL_REASON_EXAMPLE = {
  id: 41,
  code: 'EARLY_PAYOFF',
  name: 'Loan paid off early',
  requiresPayoffDate: true,
  requiresDocuments: ['PAYOFF_LETTER'],
  forcesFullRefund: false,
  waivesFee: false,
  requestedBy: ['CUSTOMER', 'LIENHOLDER', 'ADMIN'],
  refundPayee: 'AUTO',
  productTypes: null,
  endsGap: 'PAYOFF',
}
export const CancelReasonSchema = Type.Object(reasonMembers, { examples: [CANCEL_REASON_EXAMPLE] })
export const CancelReasonDetailSchema = Type.Object(
  { ...reasonMembers, ...retiredMembers },
  { examples: [{ ...CANCEL_REASON_EXAMPLE, retired: false, lastVersion: null }] },
)

/** The platform's page shape (platform/http/schemas.ts Paged), with an example. */
function page<T extends TSchema>(item: T, title: string, example: unknown) {
  return Type.Object(
    {
      items: Type.Array(item),
      pageNumber: Type.Integer(),
      pageSize: Type.Integer(),
      totalCount: Type.Integer(),
      totalPages: Type.Integer(),
    },
    { title, examples: [{ items: [example], pageNumber: 1, pageSize: 100, totalCount: 1, totalPages: 1 }] },
  )
}
export const CancelMethodPageSchema = page(CancelMethodSchema, 'PagedCancelMethods', CANCEL_METHOD_EXAMPLE)
export const CancelReasonPageSchema = page(CancelReasonSchema, 'PagedCancelReasons', CANCEL_REASON_EXAMPLE)
