// What a contract document says (contract.pdf.ts decides how it looks): from a stored contract,
// or from a checked deal that is not a contract yet (a draft for the customer to read).
import { centsToNumber } from '../../platform/money.ts'
import type { PartyAddress } from '../parties/index.ts'
import type { CheckedDeal, DealInput } from './contract.deal.ts'
import type { ContractView } from './contract.mapper.ts'
import type { ContractDocument, Person } from './contract.pdf.ts'

export type DocumentParties = {
  administrator: { name: string; address: PartyAddress | null; phoneNumber: string | null }
  dealerAddress: PartyAddress | null
  distanceUnit: 'MILES' | 'KILOMETERS'
  issuedOn: string
}

const fieldText = (v: string | number | boolean) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v))

export function documentFromContract(
  c: ContractView,
  labels: Record<string, string>,
  coverage: Array<{ group: string; components: string[] }>,
  parties: DocumentParties,
  draft: boolean,
): ContractDocument {
  return {
    draft,
    reference: { label: 'Contract number', value: c.contractNumber },
    formNumber: c.plan.formNumber,
    issuedOn: parties.issuedOn,
    administrator: parties.administrator,
    dealer: { dealerNumber: c.dealer.dealerNumber, name: c.dealer.name, address: parties.dealerAddress },
    customer: c.customer,
    coBuyer: c.coBuyer,
    lienHolder: c.lienHolder
      ? { name: c.lienHolder.name, address: c.lienHolder.address, phoneNumber: c.lienHolder.phoneNumber }
      : null,
    vehicle: { ...c.vehicle, odometer: c.saleOdometer, purchasePrice: c.vehicle.purchasePrice },
    product: { code: c.product.productCode, name: c.product.name, type: c.product.productType },
    program: { code: c.program.code, name: c.program.name },
    plan: { code: c.plan.code, name: c.plan.name },
    term: { months: c.term.months, miles: c.term.miles === 0 ? null : c.term.miles },
    deductible: { amount: c.deductible.amount, type: c.deductible.type },
    options: c.options.map((o) => ({ code: o.code, name: o.name, retail: o.retail })),
    saleDate: c.saleDate,
    effectiveDate: c.effectiveDate,
    expiration: { date: c.expirationDate, odometer: c.expirationOdometer },
    price: { retailPrice: c.pricing.retailPrice, total: c.pricing.totalPrice },
    finance: c.finance
      ? {
          financeType: c.finance.financeType,
          amountFinanced: c.finance.amountFinanced,
          termMonths: c.finance.termMonths,
          apr: c.finance.apr,
        }
      : null,
    customFields: Object.entries(c.customFields).map(([key, value]) => ({
      label: labels[key] ?? key,
      value: fieldText(value),
    })),
    coverage,
    distanceUnit: parties.distanceUnit,
  }
}

/** A draft of the contract a deal would make, before it is submitted: it carries the quote as its reference. */
export function documentFromDeal(deal: CheckedDeal, body: DealInput, parties: DocumentParties): ContractDocument {
  const q = deal.quoted
  const v = deal.vehicle
  const labels = Object.fromEntries(q.plan.customFields.map((f) => [f.key, f.label]))
  const person = (p: DealInput['customer']): Person => ({
    firstName: p.firstName ?? null,
    lastName: p.lastName ?? null,
    companyName: p.companyName ?? null,
    address: p.address ?? null,
    emailAddress: p.emailAddress ?? null,
    phoneNumber: p.phoneNumber ?? null,
  })
  const f = deal.finance
  return {
    draft: true,
    // The quote id is long; its signature part is enough to find it again in a conversation.
    reference: { label: 'Quote', value: q.quoteId.length > 40 ? `…${q.quoteId.slice(-24)}` : q.quoteId },
    formNumber: q.plan.formNumber,
    issuedOn: parties.issuedOn,
    administrator: parties.administrator,
    dealer: { dealerNumber: q.dealer.dealerNumber, name: q.dealer.name, address: parties.dealerAddress },
    customer: person(body.customer),
    coBuyer: body.coBuyer ? person(body.coBuyer) : null,
    lienHolder: body.lienHolder
      ? {
          name: body.lienHolder.name,
          address: body.lienHolder.address ?? null,
          phoneNumber: body.lienHolder.phoneNumber ?? null,
        }
      : null,
    vehicle: {
      vin: v.vin,
      year: v.year,
      make: v.make,
      model: v.model,
      trim: v.trim,
      condition: v.condition,
      odometer: q.inputs.odometer ?? null,
      inServiceDate: v.inServiceDate,
      purchasePrice: v.purchasePrice === null ? null : Number(v.purchasePrice),
    },
    product: { code: q.product.code, name: q.product.name, type: q.product.type },
    program: { code: q.program.code, name: q.program.name },
    plan: { code: q.plan.code, name: q.plan.name },
    term: { months: q.term.months, miles: q.term.miles === 0 ? null : q.term.miles },
    deductible: { amount: centsToNumber(q.deductible.amountCents), type: q.deductible.type },
    options: q.options.map((o) => ({ code: o.code, name: o.name, retail: centsToNumber(o.retailCents) })),
    saleDate: deal.saleDate,
    effectiveDate: deal.effectiveDate,
    expiration: { date: deal.expirationDate, odometer: deal.expirationOdometer },
    price: {
      retailPrice: centsToNumber(deal.retailCents),
      total: centsToNumber(deal.retailCents + deal.optionsRetailCents),
    },
    finance: f
      ? {
          financeType: f.financeType,
          amountFinanced: f.amountFinanced === null ? null : Number(f.amountFinanced),
          termMonths: f.termMonths,
          apr: f.apr === null ? null : Number(f.apr),
        }
      : null,
    customFields: Object.entries(deal.customFields).map(([key, value]) => ({
      label: labels[key] ?? key,
      value: fieldText(value),
    })),
    coverage: (q.plan.coverageGroups ?? []).map((g) => ({
      group: g.name,
      components: g.components.map((x) => x.name),
    })),
    distanceUnit: parties.distanceUnit,
  }
}
