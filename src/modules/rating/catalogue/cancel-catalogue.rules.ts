// Cancel methods and reasons as the catalogue shows them (docs/rate-catalogue.md, "Cancel methods and
// reasons"), as pure functions of the resolved terms of one rate-book version (ratebook.defaults.ts):
// the reply lines, the list filters and how a v2 identifier names an item.
import { isStorableId } from '../../../platform/ids.ts'
import type { CancelFormula, CancelMethodTerms, CancelReasonTerms } from '../ratebook/index.ts'

/**
 * The formula families of the API (payloads.md §6): the book's five pro rata formulas are PRO_RATA,
 * told apart by the time basis and the miles; the others are their own family.
 */
export const CANCEL_FORMULA_FAMILIES = [
  'PRO_RATA',
  'RULE_OF_78',
  'MEAN_PR_R78',
  'SHORT_RATE',
  'FIXED_AMOUNT',
  'FULL',
  'NONE',
] as const
export type CancelFormulaFamily = (typeof CANCEL_FORMULA_FAMILIES)[number]

/** How a method that reads miles combines them with the time: miles alone, or the lesser or greater of the two. */
export const MILES_COMBINATIONS = ['MILES_ONLY', 'LESSER', 'GREATER'] as const
export type MilesCombination = (typeof MILES_COMBINATIONS)[number]

const MILES_COMBINATION: Partial<Record<CancelFormula, MilesCombination>> = {
  PRO_RATA_MILES: 'MILES_ONLY',
  PRO_RATA_LESSER_TIME_MILES: 'LESSER',
  PRO_RATA_GREATER_TIME_MILES: 'GREATER',
}

export const formulaFamily = (formula: CancelFormula): CancelFormulaFamily =>
  formula.startsWith('PRO_RATA_') ? 'PRO_RATA' : (formula as CancelFormulaFamily)

/**
 * A method's reply line. Percentages and amounts are the terms' decimal strings as JSON numbers: a
 * book keeps a percentage to four places and an amount to two, so the number is that decimal.
 */
export function cancelMethodItem(m: CancelMethodTerms) {
  return {
    id: m.id,
    code: m.code,
    name: m.name,
    formula: formulaFamily(m.formula),
    calculation: m.formula,
    timeBasis: m.timeBasis,
    mileageBasis: m.milesApply,
    milesCombination: MILES_COMBINATION[m.formula] ?? null,
    monthCounting: m.monthCounting,
    shortRatePercent: m.shortRatePercent === null ? null : Number(m.shortRatePercent),
    fixedAmount: m.fixedAmount === null ? null : Number(m.fixedAmount),
  }
}

/** A reason's reply line: payloads.md's names first (`requiresDocuments` is the book's `requiredDocuments`), then the rest of the terms. */
export function cancelReasonItem(r: CancelReasonTerms) {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    requiresPayoffDate: r.requiresPayoffDate,
    requiresDocuments: [...r.requiredDocuments],
    forcesFullRefund: r.forcesFullRefund,
    waivesFee: r.waivesFee,
    requestedBy: [...r.requestedBy],
    refundPayee: r.refundPayee,
    productTypes: r.productTypes === null ? null : [...r.productTypes],
    endsGap: r.endsGap,
  }
}

/** Filters of the method lists, upper-cased already (the routes do it). */
export function cancelMethodFilter(filter: { formula?: string | undefined; calculation?: string | undefined }) {
  return (m: CancelMethodTerms) =>
    (filter.formula === undefined || formulaFamily(m.formula) === filter.formula) &&
    (filter.calculation === undefined || m.formula === filter.calculation)
}

/** Filters of the reason lists: a reason without product types is for every type. */
export function cancelReasonFilter(filter: { productType?: string | undefined; requestedBy?: string | undefined }) {
  return (r: CancelReasonTerms) =>
    (filter.productType === undefined ||
      r.productTypes === null ||
      (r.productTypes as readonly string[]).includes(filter.productType)) &&
    (filter.requestedBy === undefined || (r.requestedBy as readonly string[]).includes(filter.requestedBy))
}

/**
 * What a v2 `{identifier}` names: an id when it is all digits (and an id the database can hold), and
 * always a code, upper-cased (book codes are upper case), which is tried after the id.
 */
export function parseIdentifier(identifier: string): { id: number | undefined; code: string } {
  const id = /^\d{1,16}$/.test(identifier) ? Number(identifier) : undefined
  return { id: id !== undefined && isStorableId(id) ? id : undefined, code: identifier.toUpperCase() }
}
