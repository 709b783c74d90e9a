// Contract rows to the API's camelCase resource (payloads §5), in one place.
import type {
  CoverageSnapshot,
  DealData,
  FinanceSnapshot,
  LienHolderSnapshot,
  PersonSnapshot,
} from '../../platform/db/schema.contracts.ts'
import { centsToDecimal, centsToNumber, Decimal } from '../../platform/money.ts'
import { customerLegalName, type CustomerInput, type LienHolderRecord } from '../parties/index.ts'
import { personSnapshot } from './contract.deal.ts'
import type { ContractInsert, ContractRow } from './contract.repository.ts'
import { currentStatus, HOLD_REASONS, type AcceptedEdit, type ContractEdit } from './contract.rules.ts'
import type { ContractTermsView } from './contract-terms.ts'

export type {
  CoverageSnapshot,
  DealData,
  FinanceSnapshot,
  LienHolderSnapshot,
  PersonSnapshot,
  PricingSnapshot,
  VehicleSnapshot,
} from '../../platform/db/schema.contracts.ts'

export type ContractDocumentRef = {
  documentId: number
  kind: string
  draft: boolean
  currentVersion: number
  createdAt: string
}

const decimal = (v: unknown) => (v === null || v === undefined ? null : Number(v))

export function toContractView(
  row: ContractRow,
  today: string,
  now: Date,
  documents: ContractDocumentRef[],
  terms: ContractTermsView,
) {
  const { coverage, pricing, deal_data: deal, vehicle, finance } = row
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
      vin: vehicle.vin ?? null,
      year: vehicle.year ?? null,
      make: vehicle.make ?? null,
      model: vehicle.model ?? null,
      trim: vehicle.trim ?? null,
      condition: vehicle.condition ?? null,
      inServiceDate: vehicle.inServiceDate ?? null,
      purchasePrice: decimal(vehicle.purchasePrice),
      msrp: decimal(vehicle.msrp),
      assetType: String(vehicle.assetType),
      vehicleClass: vehicle.vehicleClass ?? null,
    },
    customer: { customerId: row.customer_id, ...row.customer },
    coBuyer: row.co_buyer ?? null,
    lienHolder: row.lien_holder ?? null,
    finance: finance
      ? {
          financeType: finance.financeType ?? null,
          amountFinanced: decimal(finance.amountFinanced),
          termMonths: finance.termMonths ?? null,
          apr: decimal(finance.apr),
          monthlyPayment: decimal(finance.monthlyPayment),
          firstPaymentDate: finance.firstPaymentDate ?? null,
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
    customFields: row.custom_fields,
    remittance: {
      finalizedAt: row.finalized_at?.toISOString() ?? null,
      finalizedBy: row.finalized_by,
      journalEntryIds: row.journal_entry_ids,
    },
    documents,
    terms,
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
    customer: PersonSnapshot
    coverage: CoverageSnapshot
    sale_date: string
    effective_date: string
    expiration_date: string
    dealer_cost: string
    retail_price: string
    created_at: Date | string
  },
  today: string,
) {
  const { coverage, customer: c } = row
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

// ---- stored snapshots and the PATCH representation ---------------------------------------------

/** The stored name key of a contract holder: its legal name, lower case (searches and matching). */
export const customerNameKey = (c: CustomerInput) => customerLegalName(c).toLowerCase()

/** The lien holder as the contract keeps it. */
export function lienHolderSnapshot(l: LienHolderRecord | null): LienHolderSnapshot | null {
  return l ? { lienHolderId: l.id, name: l.name, address: l.address, phoneNumber: l.phoneNumber } : null
}

/** Without its null members: what a merge patch leaves of them. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as T
}

/** A pending contract's editable representation, which a PATCH applies to. */
export function toContractEdit(row: ContractRow): ContractEdit {
  const { deal_data: deal, pricing, lien_holder: lien, finance } = row
  return {
    contractNumber: row.contract_number,
    status: row.status,
    quoteId: row.quote_id,
    rateId: row.rate_id,
    saleDate: row.sale_date,
    saleOdometer: row.sale_odometer,
    vin: row.vin,
    dealerNumber: deal.dealer.dealerNumber,
    effectiveDate: row.effective_date,
    retailPrice: pricing.retailCents / 100,
    customer: compact(row.customer),
    coBuyer: row.co_buyer === null ? null : compact(row.co_buyer),
    lienHolderId: lien?.lienHolderId ?? null,
    lienHolder: lien ? compact({ name: lien.name, address: lien.address, phoneNumber: lien.phoneNumber }) : null,
    finance: finance
      ? compact({
          monthlyPayment: finance.monthlyPayment ?? null,
          firstPaymentDate: finance.firstPaymentDate ?? null,
          balloonAmount: finance.balloonAmount ?? null,
          residualValue: finance.residualValue ?? null,
        })
      : null,
    dealNumber: deal.dealNumber,
    salesPerson: deal.salesPerson,
    financeManager: deal.financeManager,
    customFields: row.custom_fields,
    taxExempt: deal.taxExempt,
  }
}

/**
 * The row values an accepted edit writes: the parties' snapshots (and the customer matched again,
 * the lien holder when the edit changed it), dates and price, custom fields, the deal's
 * particulars; finance amounts only of a contract sold with finance terms.
 */
export function toContractUpdate(
  row: ContractRow,
  edit: ContractEdit,
  accepted: AcceptedEdit,
  parties: { customerId: number; lienHolder?: LienHolderRecord | null },
): Partial<Omit<ContractInsert, 'id'>> {
  const text = (v: string | null | undefined) => (v?.trim() ? v.trim() : null)
  const money = (v: number | string | null | undefined) =>
    v === undefined || v === null ? null : new Decimal(v).toFixed(2)
  const deal: DealData = {
    ...row.deal_data,
    dealNumber: text(edit.dealNumber),
    taxExempt: edit.taxExempt,
    salesPerson: edit.salesPerson
      ? {
          firstName: text(edit.salesPerson.firstName),
          lastName: text(edit.salesPerson.lastName),
          code: text(edit.salesPerson.code),
        }
      : null,
    financeManager: edit.financeManager
      ? { name: text(edit.financeManager.name), code: text(edit.financeManager.code) }
      : null,
  }
  const finance: FinanceSnapshot | null = row.finance && {
    ...row.finance,
    monthlyPayment: money(edit.finance?.monthlyPayment),
    firstPaymentDate: edit.finance?.firstPaymentDate ?? null,
    balloonAmount: money(edit.finance?.balloonAmount),
    residualValue: money(edit.finance?.residualValue),
  }
  const lien = parties.lienHolder
  return {
    customer_id: parties.customerId,
    customer: JSON.stringify(personSnapshot(edit.customer)),
    customer_name: customerNameKey(edit.customer),
    co_buyer: edit.coBuyer ? JSON.stringify(personSnapshot(edit.coBuyer)) : null,
    ...(lien === undefined
      ? {}
      : { lien_holder_id: lien?.id ?? null, lien_holder: lien ? JSON.stringify(lienHolderSnapshot(lien)) : null }),
    effective_date: edit.effectiveDate,
    expiration_date: accepted.expirationDate,
    retail_price: centsToDecimal(accepted.retailCents).toFixed(2),
    pricing: JSON.stringify({ ...row.pricing, retailCents: accepted.retailCents }),
    custom_fields: JSON.stringify(accepted.customFields),
    deal_data: JSON.stringify(deal),
    ...(finance ? { finance: JSON.stringify(finance) } : {}),
  }
}
