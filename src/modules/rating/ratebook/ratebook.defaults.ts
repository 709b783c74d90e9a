// The defaults of the after-sale members of a rate book (docs/rate-books.md, "After the sale"), and
// the resolved, JSON-ready shapes of cancel methods and reasons that the compiled book, the catalogue
// and a contract's terms snapshot share. A book is stored as written (the new members' defaults are
// never written into it, so a book that omits them keeps its checksum); the defaults apply here.
//
// The default codes are catalogue items (CANCEL_METHOD, CANCEL_REASON) of every version that omits
// the member. Migration 2026_11_26_0014 gave them ids for the versions imported before these members
// existed, from a copy of these lists: changing a default code needs a new migration that inserts it
// for every tenant with a rate book (ratebook.defaults.test.ts compares the two).
import { Decimal } from '../../../platform/money.ts'
import type { MonthCounting } from '../../../platform/calendar.ts'
import type {
  CancelFormula,
  CancelMethodInput,
  CancelReasonInput,
  CancelRequester,
  EarningsMethod,
  GapEnding,
  PRODUCT_TYPES,
  RefundPayee,
  TimeBasis,
} from './ratebook.format.ts'

type ProductType = (typeof PRODUCT_TYPES)[number]

/** A cancel method as every consumer reads it: every parameter explicit; money and percentages as decimal strings. */
export type CancelMethodTerms = {
  /** The catalogue id (`/cancelmethods/{id}`): the same in every version that has the code. */
  id: number
  code: string
  name: string
  formula: CancelFormula
  /**
   * The time the formula reads: DAYS or MONTHS (PRO_RATA_DAYS is DAYS; PRO_RATA_MONTHS, RULE_OF_78
   * and MEAN_PR_R78 are MONTHS; LESSER/GREATER and SHORT_RATE take the book's, default DAYS); null
   * for PRO_RATA_MILES, FIXED_AMOUNT, FULL and NONE.
   */
  timeBasis: TimeBasis | null
  /** How months elapsed are counted when the time basis is MONTHS (default COMPLETED); null otherwise. */
  monthCounting: MonthCounting | null
  /** SHORT_RATE: the per cent of the pro rata refund ("90"); null otherwise. */
  shortRatePercent: string | null
  /** FIXED_AMOUNT: the refund before the cap at the price ("25.00"); null otherwise. */
  fixedAmount: string | null
  /** Whether the formula reads miles (PRO_RATA_MILES, LESSER and GREATER of time and miles). */
  milesApply: boolean
}

export type CancelReasonTerms = {
  /** The catalogue id (`/cancelreasons/{id}`): the same in every version that has the code. */
  id: number
  code: string
  name: string
  requestedBy: CancelRequester[]
  forcesFullRefund: boolean
  waivesFee: boolean
  requiresPayoffDate: boolean
  requiredDocuments: string[]
  refundPayee: RefundPayee
  /** The product types the reason is for; null: every type. */
  productTypes: ProductType[] | null
  /** What of a GAP contract the reason ends; null: it does not end GAP coverage by itself. */
  endsGap: GapEnding | null
}

/** Formulas whose time part is fixed by the formula. */
const FIXED_TIME: Partial<Record<CancelFormula, TimeBasis>> = {
  PRO_RATA_DAYS: 'DAYS',
  PRO_RATA_MONTHS: 'MONTHS',
  RULE_OF_78: 'MONTHS',
  MEAN_PR_R78: 'MONTHS',
}
/** Formulas whose time part the book chooses (`timeBasis`, default DAYS). */
export const TIME_BASIS_FORMULAS: ReadonlySet<CancelFormula> = new Set([
  'PRO_RATA_LESSER_TIME_MILES',
  'PRO_RATA_GREATER_TIME_MILES',
  'SHORT_RATE',
])
export const MILES_FORMULAS: ReadonlySet<CancelFormula> = new Set([
  'PRO_RATA_MILES',
  'PRO_RATA_LESSER_TIME_MILES',
  'PRO_RATA_GREATER_TIME_MILES',
])

/** The time a method reads, after its defaults (null: none). */
export function timeBasisOf(m: Pick<CancelMethodInput, 'formula' | 'timeBasis'>): TimeBasis | null {
  if (TIME_BASIS_FORMULAS.has(m.formula)) return m.timeBasis ?? 'DAYS'
  return FIXED_TIME[m.formula] ?? null
}

/** A decimal of the stored book (a JSON number, or the input's string) as its plain decimal text: 90 → "90", 12.5 → "12.5". */
export const decimalText = (v: number | string): string => new Decimal(v).toFixed()
/** An amount of the stored book as a two-decimal string: 25 → "25.00". */
export const moneyText = (v: number | string): string => new Decimal(v).toFixed(2)

export function cancelMethodTerms(id: number, m: CancelMethodInput): CancelMethodTerms {
  const timeBasis = timeBasisOf(m)
  return {
    id,
    code: m.code,
    name: m.name,
    formula: m.formula,
    timeBasis,
    monthCounting: timeBasis === 'MONTHS' ? (m.monthCounting ?? 'COMPLETED') : null,
    shortRatePercent:
      m.formula === 'SHORT_RATE' && m.shortRatePercent !== undefined ? decimalText(m.shortRatePercent) : null,
    fixedAmount: m.formula === 'FIXED_AMOUNT' && m.fixedAmount !== undefined ? moneyText(m.fixedAmount) : null,
    milesApply: MILES_FORMULAS.has(m.formula),
  }
}

export function cancelReasonTerms(id: number, r: CancelReasonInput): CancelReasonTerms {
  const forcesFullRefund = r.forcesFullRefund ?? false
  return {
    id,
    code: r.code,
    name: r.name,
    requestedBy: [...r.requestedBy],
    forcesFullRefund,
    // A full refund has no fee (money.md, "Order"), so the flag follows unless the book sets it.
    waivesFee: r.waivesFee ?? forcesFullRefund,
    requiresPayoffDate: r.requiresPayoffDate ?? false,
    requiredDocuments: [...(r.requiredDocuments ?? [])],
    refundPayee: r.refundPayee ?? 'AUTO',
    productTypes: r.productTypes ? [...r.productTypes] : null,
    endsGap: r.endsGap ?? null,
  }
}

/**
 * The methods of a book without `cancelMethods`: one per formula, its code the formula's name.
 * FIXED_AMOUNT has none: its amount is the book's to choose.
 */
export const DEFAULT_CANCEL_METHODS: readonly CancelMethodInput[] = [
  { code: 'PRO_RATA_DAYS', name: 'Pro rata by days', formula: 'PRO_RATA_DAYS' },
  { code: 'PRO_RATA_MONTHS', name: 'Pro rata by months', formula: 'PRO_RATA_MONTHS' },
  { code: 'PRO_RATA_MILES', name: 'Pro rata by miles', formula: 'PRO_RATA_MILES' },
  {
    code: 'PRO_RATA_LESSER_TIME_MILES',
    name: 'Pro rata, the lesser of time (days) or miles',
    formula: 'PRO_RATA_LESSER_TIME_MILES',
  },
  {
    code: 'PRO_RATA_GREATER_TIME_MILES',
    name: 'Pro rata, the greater of time (days) or miles',
    formula: 'PRO_RATA_GREATER_TIME_MILES',
  },
  { code: 'RULE_OF_78', name: 'Rule of 78', formula: 'RULE_OF_78' },
  { code: 'MEAN_PR_R78', name: 'Mean of pro rata and Rule of 78', formula: 'MEAN_PR_R78' },
  { code: 'SHORT_RATE', name: 'Short rate, 90 % of pro rata by days', formula: 'SHORT_RATE', shortRatePercent: 90 },
  { code: 'FULL', name: 'Full refund', formula: 'FULL' },
  { code: 'NONE', name: 'No refund', formula: 'NONE' },
]

/** The reasons of a book without `cancelReasons` (docs/rate-books.md has the table). */
export const DEFAULT_CANCEL_REASONS: readonly CancelReasonInput[] = [
  { code: 'CUSTOMER_REQUEST', name: 'Customer request', requestedBy: ['CUSTOMER', 'DEALER', 'ADMIN'] },
  {
    code: 'TRADE_IN',
    name: 'Vehicle traded in',
    requestedBy: ['CUSTOMER', 'DEALER', 'ADMIN'],
    requiredDocuments: ['ODOMETER_STATEMENT'],
    endsGap: 'SALE',
  },
  {
    code: 'VEHICLE_SOLD',
    name: 'Vehicle sold',
    requestedBy: ['CUSTOMER', 'DEALER', 'LIENHOLDER', 'ADMIN'],
    requiredDocuments: ['ODOMETER_STATEMENT'],
    endsGap: 'SALE',
  },
  {
    code: 'EARLY_PAYOFF',
    name: 'Loan paid off early',
    requestedBy: ['CUSTOMER', 'LIENHOLDER', 'ADMIN'],
    requiresPayoffDate: true,
    requiredDocuments: ['PAYOFF_LETTER'],
    endsGap: 'PAYOFF',
  },
  {
    code: 'REFINANCE',
    name: 'Loan refinanced',
    requestedBy: ['CUSTOMER', 'LIENHOLDER', 'ADMIN'],
    requiresPayoffDate: true,
    requiredDocuments: ['PAYOFF_LETTER'],
    endsGap: 'REFINANCE',
  },
  {
    code: 'REPOSSESSION',
    name: 'Repossession',
    requestedBy: ['LIENHOLDER', 'DEALER', 'ADMIN'],
    requiredDocuments: ['REPOSSESSION_NOTICE'],
    refundPayee: 'LIENHOLDER',
    endsGap: 'REPOSSESSION',
  },
  {
    code: 'TOTAL_LOSS',
    name: 'Total loss',
    requestedBy: ['CUSTOMER', 'DEALER', 'LIENHOLDER', 'ADMIN'],
    requiredDocuments: ['TOTAL_LOSS_STATEMENT'],
    endsGap: 'TOTAL_LOSS',
  },
  {
    code: 'SALE_UNWOUND',
    name: 'Sale unwound',
    requestedBy: ['DEALER', 'ADMIN'],
    forcesFullRefund: true,
    waivesFee: true,
    refundPayee: 'DEALER',
  },
  { code: 'NON_PAYMENT', name: 'Non-payment', requestedBy: ['DEALER', 'LIENHOLDER', 'ADMIN'] },
  { code: 'FRAUD', name: 'Fraud or misrepresentation', requestedBy: ['ADMIN'] },
  {
    code: 'DUPLICATE',
    name: 'Duplicate contract',
    requestedBy: ['DEALER', 'ADMIN'],
    forcesFullRefund: true,
    waivesFee: true,
    refundPayee: 'DEALER',
  },
  {
    code: 'DEATH',
    name: 'Death of the contract holder',
    requestedBy: ['CUSTOMER', 'DEALER', 'LIENHOLDER', 'ADMIN'],
    requiredDocuments: ['DEATH_CERTIFICATE'],
  },
]

/** The cancel methods a book offers: its own, or the defaults when it has none. */
export const cancelMethodsOf = (book: { cancelMethods?: readonly CancelMethodInput[] }): readonly CancelMethodInput[] =>
  book.cancelMethods ?? DEFAULT_CANCEL_METHODS
/** The cancel reasons a book offers: its own, or the defaults when it has none. */
export const cancelReasonsOf = (book: { cancelReasons?: readonly CancelReasonInput[] }): readonly CancelReasonInput[] =>
  book.cancelReasons ?? DEFAULT_CANCEL_REASONS

/** The method code of a product that names none: lesser of time and miles for a VSC, pro rata by days otherwise. */
export const defaultCancelMethodCode = (productType: string): string =>
  productType === 'VSC' ? 'PRO_RATA_LESSER_TIME_MILES' : 'PRO_RATA_DAYS'

/** Earnings methods that count months (and so take a month counting, default COMPLETED). */
export const MONTH_EARNINGS: ReadonlySet<EarningsMethod> = new Set([
  'PRO_RATA_MONTHS',
  'RULE_OF_78',
  'REVERSE_RULE_OF_78',
  'CURVE',
])

/** Whether a reason applies to a product type (a reason without productTypes applies to all). */
export const reasonApplies = (reason: { productTypes?: readonly string[] | null }, productType: string): boolean =>
  !reason.productTypes || reason.productTypes.includes(productType)
