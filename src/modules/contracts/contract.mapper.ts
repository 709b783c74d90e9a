// Contract rows to the API's camelCase resource (payloads §5), in one place.
import { centsToNumber } from '../../platform/money.ts'
import type { ContractRow } from './contract.repository.ts'
import { currentStatus, HOLD_REASONS, type CustomFieldRule, type RetailBounds } from './contract.rules.ts'

/** The coverage snapshot stored with a contract: what was sold, as the rate book described it then. */
export type CoverageSnapshot = {
  rateBookVersion: number
  product: { id: number; code: string; name: string; type: string }
  program: { id: number; code: string; name: string }
  plan: { id: number; code: string; name: string; formNumber: string }
  term: { id: number; code: string; months: number; miles: number; milesBasis: string }
  deductible: { id: number; code: string; amountCents: number; type: string }
  coverageGroups: Array<{ code: string; name: string; components: Array<{ code: string; name: string }> }>
  ppmServices: Array<{
    code: string
    name: string
    intervalMonths?: number | null
    intervalMiles?: number | null
    count: number
  }>
  /** The plan's custom-field rules when sold: a PATCH is checked against them. */
  customFieldRules: CustomFieldRule[]
}
/** The pricing snapshot: every amount in whole cents (decision 0007), lines with their payees. */
export type PricingSnapshot = {
  retailCents: number
  optionsRetailCents: number
  dealerCostCents: number
  lines: Array<{
    code: string
    group: string
    label: string
    cents: number
    source: 'RATE' | 'ACCOUNT_HOLDER' | 'OPTION'
    optionCode: string | null
    payeeAccountHolderId: number
  }>
  options: Array<{
    id: number
    code: string
    name: string
    kind: string
    required: boolean
    dealerCostCents: number
    retailCents: number
  }>
  /** The rate's retail limits, for a retail price changed while pending. */
  retailBounds: RetailBounds
}
export type DealData = {
  dealer: { dealerNumber: string; name: string }
  dealNumber: string | null
  salesPerson: { firstName: string | null; lastName: string | null; code: string | null } | null
  financeManager: { name: string | null; code: string | null } | null
  taxExempt: boolean
}

export type ContractDocumentRef = {
  documentId: number
  kind: string
  draft: boolean
  currentVersion: number
  createdAt: string
}

const decimal = (v: unknown) => (v === null || v === undefined ? null : Number(v))

export function toContractView(row: ContractRow, today: string, now: Date, documents: ContractDocumentRef[]) {
  const coverage = row.coverage as CoverageSnapshot
  const pricing = row.pricing as PricingSnapshot
  const deal = row.deal_data as DealData
  const vehicle = row.vehicle as Record<string, unknown>
  const finance = row.finance as Record<string, unknown> | null
  const lockActive = row.lock_user_id !== null && row.lock_expires_at !== null && row.lock_expires_at > now
  const totalCents = pricing.retailCents + pricing.optionsRetailCents
  return {
    id: row.id,
    contractNumber: row.contract_number,
    status: currentStatus(row.status, row.effective_date, today),
    holdStatus: { onHold: row.open_holds > 0, openHoldCount: row.open_holds },
    locked: lockActive,
    lock: lockActive
      ? { userId: row.lock_user_id!, user: row.lock_user_label ?? '', expiresAt: row.lock_expires_at!.toISOString() }
      : null,
    dealer: { accountHolderId: row.dealer_id, dealerNumber: deal.dealer.dealerNumber, name: deal.dealer.name },
    product: {
      productId: coverage.product.id,
      productCode: coverage.product.code,
      productType: coverage.product.type,
      name: coverage.product.name,
    },
    program: { programId: coverage.program.id, code: coverage.program.code, name: coverage.program.name },
    plan: {
      planId: coverage.plan.id,
      code: coverage.plan.code,
      name: coverage.plan.name,
      formNumber: coverage.plan.formNumber,
    },
    term: {
      termId: coverage.term.id,
      code: coverage.term.code,
      months: coverage.term.months,
      miles: coverage.term.miles,
    },
    deductible: {
      deductibleId: coverage.deductible.id,
      code: coverage.deductible.code,
      amount: centsToNumber(coverage.deductible.amountCents),
      type: coverage.deductible.type,
    },
    options: pricing.options.map((o) => ({
      optionId: o.id,
      code: o.code,
      name: o.name,
      kind: o.kind,
      required: o.required,
      dealerCost: centsToNumber(o.dealerCostCents),
      retail: centsToNumber(o.retailCents),
    })),
    saleDate: row.sale_date,
    effectiveDate: row.effective_date,
    expirationDate: row.expiration_date,
    saleOdometer: row.sale_odometer,
    expirationOdometer: row.expiration_odometer,
    vehicle: {
      vin: (vehicle.vin as string | null) ?? null,
      year: (vehicle.year as number | null) ?? null,
      make: (vehicle.make as string | null) ?? null,
      model: (vehicle.model as string | null) ?? null,
      trim: (vehicle.trim as string | null) ?? null,
      condition: (vehicle.condition as string | null) ?? null,
      inServiceDate: (vehicle.inServiceDate as string | null) ?? null,
      purchasePrice: decimal(vehicle.purchasePrice),
      msrp: decimal(vehicle.msrp),
      assetType: String(vehicle.assetType),
      vehicleClass: (vehicle.vehicleClass as string | null) ?? null,
    },
    customer: { customerId: row.customer_id, ...(row.customer as Record<string, unknown>) },
    coBuyer: (row.co_buyer as Record<string, unknown> | null) ?? null,
    lienHolder: (row.lien_holder as Record<string, unknown> | null) ?? null,
    finance: finance
      ? {
          financeType: (finance.financeType as string | null) ?? null,
          amountFinanced: decimal(finance.amountFinanced),
          termMonths: (finance.termMonths as number | null) ?? null,
          apr: decimal(finance.apr),
          monthlyPayment: decimal(finance.monthlyPayment),
          firstPaymentDate: (finance.firstPaymentDate as string | null) ?? null,
          balloonAmount: decimal(finance.balloonAmount),
          residualValue: decimal(finance.residualValue),
        }
      : null,
    pricing: {
      quoteId: row.quote_id,
      rateId: row.rate_id,
      rateBookVersion: coverage.rateBookVersion,
      dealerCost: centsToNumber(pricing.dealerCostCents),
      retailPrice: centsToNumber(pricing.retailCents),
      optionsRetail: centsToNumber(pricing.optionsRetailCents),
      totalPrice: centsToNumber(totalCents),
      dealerMarkup: centsToNumber(totalCents - pricing.dealerCostCents),
      lines: pricing.lines.map((l) => ({
        code: l.code,
        group: l.group,
        label: l.label,
        amount: centsToNumber(l.cents),
        source: l.source,
        optionCode: l.optionCode,
        payeeAccountHolderId: l.payeeAccountHolderId,
      })),
    },
    customFields: row.custom_fields as Record<string, string | number | boolean>,
    remittance: {
      finalizedAt: row.finalized_at?.toISOString() ?? null,
      finalizedBy: row.finalized_by,
      journalEntryIds: row.journal_entry_ids,
    },
    documents,
    dealNumber: deal.dealNumber,
    salesPerson: deal.salesPerson,
    financeManager: deal.financeManager,
    taxExempt: deal.taxExempt,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    createdBy: row.created_by,
    version: row.version,
  }
}

export type ContractView = ReturnType<typeof toContractView>

export function toSummary(
  row: {
    id: number
    contract_number: string
    status: ContractRow['status']
    dealer_id: number
    vin: string | null
    customer: unknown
    coverage: unknown
    sale_date: string
    effective_date: string
    expiration_date: string
    dealer_cost: string
    retail_price: string
    created_at: Date | string
  },
  today: string,
) {
  const coverage = row.coverage as CoverageSnapshot
  const c = row.customer as {
    firstName: string | null
    middleInitial: string | null
    lastName: string | null
    companyName: string | null
  }
  return {
    id: row.id,
    contractNumber: row.contract_number,
    status: currentStatus(row.status, row.effective_date, today),
    dealerId: row.dealer_id,
    productCode: coverage.product.code,
    planCode: coverage.plan.code,
    vin: row.vin,
    customerName: c.companyName ?? [c.firstName, c.middleInitial, c.lastName].filter(Boolean).join(' '),
    saleDate: row.sale_date,
    effectiveDate: row.effective_date,
    expirationDate: row.expiration_date,
    dealerCost: Number(row.dealer_cost),
    retailPrice: Number(row.retail_price),
    createdAt: new Date(row.created_at).toISOString(),
  }
}

export function toHoldView(h: {
  id: number
  contract_id: number
  reason_code: string
  note: string | null
  created_at: Date | string
  created_by: string
  resolved_at: Date | null
  resolved_by: string | null
  resolution_note: string | null
}) {
  return {
    holdId: h.id,
    contractId: h.contract_id,
    reasonCode: h.reason_code as (typeof HOLD_REASONS)[number]['code'],
    reason: HOLD_REASONS.find((r) => r.code === h.reason_code)?.name ?? h.reason_code,
    note: h.note,
    createdAt: new Date(h.created_at).toISOString(),
    createdBy: h.created_by,
    resolved: h.resolved_at !== null,
    resolvedAt: h.resolved_at?.toISOString() ?? null,
    resolvedBy: h.resolved_by,
    resolutionNote: h.resolution_note,
  }
}
