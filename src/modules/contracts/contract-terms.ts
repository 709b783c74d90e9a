// The terms a contract is sold under (docs/contracts.md "Terms"): the rating module's snapshot of its
// own rate-book version (cancellation, earnings of each priced line, claims, transfer) plus what the
// sale itself decides: the governing state, the lien, and a slot for sales tax. Taken when the
// contract is created; a contract created before snapshots existed gets its terms resolved on first
// use (the servicing port writes them back) and shown resolved, unwritten, until then.
import type { SaleTerms, SaleTermsFallback, SaleTermsInput } from '../rating/index.ts'
import type { ContractRow } from './contract.repository.ts'

export type ContractTerms = SaleTerms & {
  /** The customer's state the quote priced for, else the dealer's: whose state rules apply. null: neither was known. */
  governingState: string | null
  /** The sales tax on the sale, computed from the tenant's rules on the sale date (docs/sales-tax.md); null: none applied. */
  salesTax: ContractSalesTax | null
  /** The lien on the vehicle: a refund goes to the lien holder while it is unreleased (money.md). null: no lien holder. */
  lien: { lienHolderId: number; released: boolean; releasedOn: string | null } | null
  /** When the snapshot was taken: at the sale, or on first use for a contract sold before snapshots existed. */
  resolved: { at: string; on: 'SALE' | 'FIRST_USE' }
  /**
   * The reinsurance cession fixed at the sale (docs/reporting.md): the treaty in force on the sale date
   * for the dealer (or its group) and the product (or program), found through the reporting module's
   * port. null or absent: none (the reserve stays with the plan's insurer). Never rewritten.
   */
  cession?: ContractCession | null
}

/** A cession as kept in the terms: the treaty's figures on the sale date, amounts in whole cents. */
export type ContractCession = {
  treatyId: number
  reinsuranceCompanyId: number
  /** The ceded share of the reserve, basis points (10000 = 100 %). */
  shareBps: number
  /** The contract's RESERVE lines (options included). */
  reserveCents: number
  /** round(reserve × share / 10000), half up, once. */
  cededReserveCents: number
  cedingFeeBps: number
  /** round(ceded reserve × ceding fee bps / 10000), half up, once. */
  cedingFeeCents: number
  administratorFeeBps: number
  administratorFeeCents: number
}

/** What finds a sale's cession: the reporting module's port (src/modules.ts); null when no treaty is in force. */
export type CessionPort = (
  tenantId: number,
  sale: {
    dealerId: number
    dealerGroupId: number | null
    productId: number
    programId: number
    saleDate: string
    reserveCents: number
  },
) => Promise<ContractCession | null>

/**
 * The sales tax kept in the terms (docs/sales-tax.md "At sale"): amounts are exact decimal strings, as the
 * rest of the snapshot keeps them. `collectedBy` is the rules' common collector, MIXED when they differ;
 * each rule line names its own, and only ADMINISTRATOR lines are posted at finalize.
 */
export type ContractSalesTax = {
  amount: string
  collectedBy: 'DEALER' | 'ADMINISTRATOR' | 'MIXED'
  date: string
  rules: Array<{
    ruleId: number
    jurisdiction: { level: 'STATE' | 'COUNTY' | 'CITY'; state: string; county: string | null; city: string | null }
    rate: string
    taxableBase: 'RETAIL_PRICE' | 'DEALER_COST' | 'NONE'
    base: string
    tax: string
    collectedBy: 'DEALER' | 'ADMINISTRATOR'
  }>
}

/** The facts of a sale its sales tax is computed from. */
export type SaleTaxFacts = {
  state: string
  city: string | null
  productType: string
  /** The sale date (YYYY-MM-DD): the rules in force that day apply. */
  date: string
  retailCents: number
  dealerCostCents: number
}

/** What resolving needs from rating and settings. */
export type TermsPorts = {
  /** The sales tax module's computation for a sale; null when no rule applies (the sales tax port, src/modules.ts). */
  salesTax(tenantId: number, sale: SaleTaxFacts): Promise<ContractSalesTax | null>
  saleTerms(tenantId: number, bookId: number, input: SaleTermsInput): Promise<SaleTerms | undefined>
  quotedState(tenantId: number, quoteId: string): Promise<string | null | undefined>
  fallback(tenantId: number): Promise<SaleTermsFallback>
}

/** The facts of a contract its terms are resolved from. */
export type TermsSubject = {
  contractId: number | null
  rateBookId: number
  quoteId: string
  productCode: string
  planCode: string
  termCode: string
  /** The disbursement codes of its priced lines. */
  lineCodes: readonly string[]
  /** The contract holder's address state, the last resort for the governing state. */
  customerState: string | null
  lienHolderId: number | null
}

export function termsSubjectOf(row: ContractRow): TermsSubject {
  return {
    contractId: row.id,
    rateBookId: Number(row.rate_book_id),
    quoteId: row.quote_id,
    productCode: row.coverage.product.code,
    planCode: row.coverage.plan.code,
    termCode: row.coverage.term.code,
    lineCodes: row.pricing.lines.map((l) => l.code),
    customerState: row.customer.address?.state ?? null,
    lienHolderId: row.lien_holder_id === null ? null : Number(row.lien_holder_id),
  }
}

/**
 * The terms of a contract resolved from its own rate-book version. `state` is the governing state when
 * the caller knows it (the quote it creates from); otherwise the quote id's state, else the customer's.
 */
export async function resolveContractTerms(
  ports: TermsPorts,
  tenantId: number,
  subject: TermsSubject,
  at: Date,
  on: ContractTerms['resolved']['on'],
  state?: string | null,
): Promise<ContractTerms> {
  const [fallback, quoted] = await Promise.all([
    ports.fallback(tenantId),
    state === undefined ? ports.quotedState(tenantId, subject.quoteId) : Promise.resolve(state),
  ])
  const terms = await ports.saleTerms(tenantId, subject.rateBookId, {
    productCode: subject.productCode,
    planCode: subject.planCode,
    termCode: subject.termCode,
    lineCodes: [...new Set(subject.lineCodes)],
    fallback,
  })
  // A contract's rate_book_id is a foreign key to a version, and versions are never deleted.
  if (terms === undefined) throw new Error(`contract ${subject.contractId}: rate book ${subject.rateBookId} not found`)
  return {
    ...terms,
    governingState: quoted ?? subject.customerState,
    salesTax: null,
    lien:
      subject.lienHolderId === null ? null : { lienHolderId: subject.lienHolderId, released: false, releasedOn: null },
    resolved: { at: at.toISOString(), on },
  }
}

// ---- the view ---------------------------------------------------------------------------------

const num = (v: string | null) => (v === null ? null : Number(v))

/**
 * The terms as GET /contracts/{id} shows them: the snapshot with its amounts, percentages and curve
 * points as JSON numbers (the API's money convention); the stored snapshot keeps them as exact
 * decimal strings, which is what computations read.
 */
export function toTermsView(t: ContractTerms) {
  const method = (m: SaleTerms['cancelMethods'][number]) => ({
    ...m,
    shortRatePercent: num(m.shortRatePercent),
    fixedAmount: num(m.fixedAmount),
  })
  const fee = (f: SaleTerms['cancellation']['fee']) => ({
    ...f,
    amount: num(f.amount),
    percent: num(f.percent),
    max: num(f.max),
  })
  return {
    rateBookVersion: t.rateBookVersion,
    product: t.product,
    plan: t.plan,
    term: t.term,
    governingState: t.governingState,
    cancellation: {
      ...t.cancellation,
      method: method(t.cancellation.method),
      fee: fee(t.cancellation.fee),
      rules: t.cancellation.rules.map((r) => ({
        ...r,
        method: r.method === null ? null : method(r.method),
        fee: r.fee === null ? null : fee(r.fee),
      })),
    },
    cancelMethods: t.cancelMethods.map(method),
    cancelReasons: t.cancelReasons,
    stateRules: t.stateRules.map((s) => ({
      ...s,
      cancelFeeMax: num(s.cancelFeeMax),
      cancelFeeMaxPercent: num(s.cancelFeeMaxPercent),
    })),
    earnings: Object.fromEntries(
      Object.entries(t.earnings).map(([code, e]) => [
        code,
        { ...e, curve: e.curve === null ? null : { ...e.curve, cumulative: e.curve.cumulative.map(Number) } },
      ]),
    ),
    claims: {
      ...t.claims,
      limitOfLiability: { ...t.claims.limitOfLiability, amount: num(t.claims.limitOfLiability.amount) },
      perClaimLimit: num(t.claims.perClaimLimit),
      benefits: t.claims.benefits.map((b) => ({
        ...b,
        perDay: num(b.perDay),
        perOccurrence: num(b.perOccurrence),
        maxAmount: num(b.maxAmount),
      })),
    },
    transfer: { ...t.transfer, fee: num(t.transfer.fee) },
    salesTax: t.salesTax === null ? null : toSalesTaxView(t.salesTax),
    lien: t.lien,
    resolved: t.resolved,
    cession: t.cession ? toCessionView(t.cession) : null,
  }
}

/** The kept cession with its amounts as JSON numbers. */
export function toCessionView(c: ContractCession) {
  return {
    treatyId: c.treatyId,
    reinsuranceCompanyId: c.reinsuranceCompanyId,
    shareBps: c.shareBps,
    reserve: c.reserveCents / 100,
    cededReserve: c.cededReserveCents / 100,
    cedingFeeBps: c.cedingFeeBps,
    cedingFee: c.cedingFeeCents / 100,
    administratorFeeBps: c.administratorFeeBps,
    administratorFee: c.administratorFeeCents / 100,
  }
}

export type ContractTermsView = ReturnType<typeof toTermsView>

/** The kept sales tax with its amounts and rates as JSON numbers. Terms written before it existed hold null. */
export function toSalesTaxView(s: ContractSalesTax) {
  return {
    amount: Number(s.amount),
    collectedBy: s.collectedBy,
    date: s.date,
    rules: s.rules.map((r) => ({ ...r, rate: Number(r.rate), base: Number(r.base), tax: Number(r.tax) })),
  }
}

/**
 * The sales tax of a sale, or null when it has none to keep: tax exempt, no customer state, or no
 * rule in force (the tax module then returns null too).
 */
export async function saleTaxOf(
  ports: Pick<TermsPorts, 'salesTax'>,
  tenantId: number,
  sale: Omit<SaleTaxFacts, 'state' | 'city'> & {
    address: { state?: string | null; city?: string | null } | null | undefined
    taxExempt: boolean
  },
): Promise<ContractSalesTax | null> {
  const state = sale.address?.state?.trim()
  if (sale.taxExempt || !state) return null
  return ports.salesTax(tenantId, {
    state,
    city: sale.address?.city ?? null,
    productType: sale.productType,
    date: sale.date,
    retailCents: sale.retailCents,
    dealerCostCents: sale.dealerCostCents,
  })
}
