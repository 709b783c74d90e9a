// A submitted deal checked against its quote (docs/contracts.md "Creating a contract"): the rate is
// priced again by the rating module from the signed quote, every fact the deal restates must be the
// quote's, the retail price must fit the rate, custom fields must satisfy the plan; every problem
// is reported at once. The result is everything a contract row or a draft document needs.
import { addDays, addMonths } from '../../platform/calendar.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { decimalProblem, Decimal, toCents } from '../../platform/money.ts'
import type { AccountHolderKind } from '../../platform/db/schema.ts'
import type { FinanceSnapshot, PersonSnapshot, VehicleSnapshot } from '../../platform/db/schema.contracts.ts'
import type { CustomerInput, DealerDirectory, LienHolderInput, PartyAddress } from '../parties/index.ts'
import type { QuotedLine, QuotedRate, QuoteService } from '../rating/index.ts'
import { contractErrors } from './contract.errors.ts'
import {
  checkCustomFields,
  effectiveDateProblem,
  nameProblem,
  quoteDisagreements,
  retailProblem,
  uniqueClaims,
  type CustomFieldValue,
} from './contract.rules.ts'

/** The body of POST /api/contracts (and of a draft document), as the schema admits it. */
export type DealInput = {
  quoteId: string
  rateId: string
  dealerNumber?: string
  selectedOptionIds?: number[]
  retailPrice: number | string
  saleDate?: string
  effectiveDate?: string
  saleOdometer?: number | null
  vehicle: {
    vin: string
    year?: number | null
    make?: string | null
    model?: string | null
    trim?: string | null
    condition?: string | null
    inServiceDate?: string | null
    purchasePrice?: number | string | null
    msrp?: number | string | null
    assetType?: string | null
  }
  customer: CustomerInput
  coBuyer?: CustomerInput | null
  finance?: {
    financeType?: string | null
    amountFinanced?: number | string | null
    termMonths?: number | null
    apr?: number | string | null
    monthlyPayment?: number | string | null
    firstPaymentDate?: string | null
    balloonAmount?: number | string | null
    residualValue?: number | string | null
  } | null
  lienHolderId?: number | null
  lienHolder?: LienHolderInput | null
  dealNumber?: string | null
  salesPerson?: { firstName?: string | null; lastName?: string | null; code?: string | null } | null
  financeManager?: { name?: string | null; code?: string | null } | null
  customFields?: Record<string, unknown>
  taxExempt?: boolean
}

/** A priced line of the contract, with the account holder it is paid to. */
export type ContractLine = {
  code: string
  group: string
  label: string
  cents: number
  source: 'RATE' | 'ACCOUNT_HOLDER' | 'OPTION'
  optionCode: string | null
  payeeAccountHolderId: number
}

export type CheckedDeal = {
  quoted: QuotedRate
  saleDate: string
  effectiveDate: string
  expirationDate: string
  expirationOdometer: number | null
  retailCents: number
  optionsRetailCents: number
  dealerCostCents: number
  lines: ContractLine[]
  customFields: Record<string, CustomFieldValue>
  /** Unique custom-field values, as claimed (uniqueValueKey). */
  uniqueValues: Array<{ key: string; value: string }>
  vehicle: VehicleSnapshot
  finance: FinanceSnapshot | null
}

type Ports = {
  quotes: Pick<QuoteService, 'quotedRate'>
  directory: Pick<DealerDirectory, 'idsByBusinessKey'>
  administratorId(tenantId: number): Promise<number>
  lookBackDays(tenantId: number): Promise<number>
  today(tenantId: number): Promise<string>
}

const MONEY_BOUNDS = { places: 2, min: new Decimal(0), max: new Decimal('99999999.99') }
const APR_BOUNDS = { places: 4, min: new Decimal(0), max: new Decimal(100) }

export function createDealChecker(ports: Ports) {
  /** Who receives each line: the rate book's payee role resolved for this sale. */
  async function payees(ctx: AuthenticatedContext, quoted: QuotedRate): Promise<ContractLine[]> {
    const administrator = await ports.administratorId(ctx.tenantId)
    const all: Array<{ line: QuotedLine; optionCode: string | null }> = [
      ...quoted.price.lines.map((line) => ({ line, optionCode: null })),
      ...quoted.options.flatMap((o) => o.lines.map((line) => ({ line, optionCode: o.code }))),
    ]
    const keys = all.flatMap(({ line }) =>
      line.payee?.role === 'ACCOUNT_HOLDER' && line.payee.kind && line.payee.businessKey
        ? [{ kind: line.payee.kind as AccountHolderKind, businessKey: line.payee.businessKey }]
        : [],
    )
    const byKey =
      keys.length > 0 ? await ports.directory.idsByBusinessKey(ctx.tenantId, keys) : new Map<string, number>()
    return all.map(({ line, optionCode }) => {
      let payee = administrator
      if (line.source === 'ACCOUNT_HOLDER' && line.accountHolderId !== undefined) payee = line.accountHolderId
      else if (line.payee?.role === 'SELLING_DEALER') payee = quoted.dealer.id
      // A dealer without an agent: the agent's share stays with the administrator (a house account).
      else if (line.payee?.role === 'DEALER_AGENT') payee = quoted.dealer.agentIds[0] ?? administrator
      else if (line.payee?.role === 'ACCOUNT_HOLDER')
        payee = byKey.get(`${line.payee.kind}/${(line.payee.businessKey ?? '').toLowerCase()}`) ?? administrator
      return {
        code: line.code,
        group: line.group,
        label: line.label,
        cents: line.cents,
        source: optionCode === null ? line.source : 'OPTION',
        optionCode,
        payeeAccountHolderId: payee,
      }
    })
  }

  return {
    /** Who receives each line of a priced rate (a rerate prices one again: contract-rerate.service.ts). */
    payees,
    /** Checks a deal against its quote; 422 (with every problem) or the priced, checked deal. */
    async check(ctx: AuthenticatedContext, deal: DealInput): Promise<CheckedDeal> {
      const quoted = await ports.quotes.quotedRate(ctx, {
        quoteId: deal.quoteId,
        rateId: deal.rateId,
        optionIds: deal.selectedOptionIds ?? [],
      })
      const errors: FieldError[] = []
      const q = quoted.inputs
      if (
        deal.dealerNumber !== undefined &&
        deal.dealerNumber.toUpperCase() !== quoted.dealer.dealerNumber.toUpperCase()
      ) {
        errors.push({
          field: 'dealerNumber',
          code: 'differs_from_quote',
          message: `dealer ${deal.dealerNumber} is not the quote's dealer ${quoted.dealer.dealerNumber}`,
        })
      }
      const money = (field: string, value: unknown, bounds = MONEY_BOUNDS) => {
        if (value === undefined || value === null) return
        const problem = decimalProblem(value, bounds)
        if (problem) errors.push({ field, code: problem.code, message: `${field} ${problem.message}` })
      }
      money('retailPrice', deal.retailPrice)
      money('vehicle/purchasePrice', deal.vehicle.purchasePrice)
      money('vehicle/msrp', deal.vehicle.msrp)
      for (const f of ['amountFinanced', 'monthlyPayment', 'balloonAmount', 'residualValue'] as const)
        money(`finance/${f}`, deal.finance?.[f])
      money('finance/apr', deal.finance?.apr, APR_BOUNDS)
      const moneyOk = errors.length === 0
      if (moneyOk) {
        errors.push(
          ...quoteDisagreements(q, {
            vin: deal.vehicle.vin,
            saleOdometer: deal.saleOdometer,
            saleDate: deal.saleDate,
            inServiceDate: deal.vehicle.inServiceDate,
            condition: deal.vehicle.condition,
            assetType: deal.vehicle.assetType,
            purchasePrice: deal.vehicle.purchasePrice,
            msrp: deal.vehicle.msrp,
            financeType: deal.finance?.financeType,
            amountFinanced: deal.finance?.amountFinanced,
            termMonths: deal.finance?.termMonths,
            apr: deal.finance?.apr,
          }),
        )
      }
      // A contract needs a VIN; the quote must have been priced for it.
      if (q.vin === undefined && !errors.some((e) => e.field === 'vehicle/vin')) {
        errors.push({
          field: 'vehicle/vin',
          code: 'not_quoted',
          message: 'the quote was priced without a VIN; quote again with it',
        })
      }
      const saleDate = q.saleDate
      const [lookBack, today] = await Promise.all([ports.lookBackDays(ctx.tenantId), ports.today(ctx.tenantId)])
      if (saleDate < addDays(today, -lookBack)) {
        errors.push({
          field: 'saleDate',
          code: 'out_of_range',
          message: `sale date ${saleDate} is more than ${lookBack} days before today (${today})`,
        })
      }
      const effectiveDate = deal.effectiveDate ?? saleDate
      const dateProblem = effectiveDateProblem(saleDate, effectiveDate)
      if (dateProblem) errors.push(dateProblem)
      for (const problem of [
        nameProblem(deal.customer, 'customer'),
        deal.coBuyer ? nameProblem(deal.coBuyer, 'coBuyer') : undefined,
      ])
        if (problem) errors.push(problem)
      if (deal.lienHolderId != null && deal.lienHolder != null) {
        errors.push({ field: 'lienHolder', code: 'conflict', message: 'give lienHolderId or lienHolder, not both' })
      }
      const retailCents = moneyOk ? toCents(new Decimal(deal.retailPrice)) : 0
      const retail = moneyOk ? retailProblem(retailCents, quoted.price) : undefined
      if (retail) errors.push(retail)
      const fields = checkCustomFields(quoted.plan.customFields, deal.customFields ?? {})
      errors.push(...fields.errors)
      if (errors.length > 0) {
        throw contractErrors.create(
          'contract_invalid',
          `${errors.length} problem(s): ${errors.map((e) => e.message).join('; ')}`,
          { errors },
        )
      }
      const lines = await payees(ctx, quoted)
      const optionsRetailCents = quoted.options.reduce((n, o) => n + o.retailCents, 0)
      const decimalOrNull = (v: number | string | null | undefined, fallback?: string) =>
        v === undefined || v === null ? (fallback ?? null) : new Decimal(v).toFixed(2)
      return {
        quoted,
        saleDate,
        effectiveDate,
        expirationDate: addMonths(effectiveDate, quoted.term.months),
        expirationOdometer: quoted.expirationOdometer,
        retailCents,
        optionsRetailCents,
        dealerCostCents: lines.reduce((n, l) => n + l.cents, 0),
        lines,
        customFields: fields.values,
        uniqueValues: uniqueClaims(quoted.plan.customFields, fields.values),
        vehicle: {
          vin: q.vin ?? deal.vehicle.vin.toUpperCase(),
          year: quoted.vehicle.year ?? deal.vehicle.year ?? null,
          make: quoted.vehicle.make ?? deal.vehicle.make ?? null,
          model: quoted.vehicle.model ?? deal.vehicle.model ?? null,
          trim: quoted.vehicle.trim ?? deal.vehicle.trim ?? null,
          condition: q.vehicleCondition ?? null,
          inServiceDate: q.inServiceDate ?? null,
          purchasePrice: decimalOrNull(deal.vehicle.purchasePrice, q.vehiclePurchasePrice),
          msrp: decimalOrNull(deal.vehicle.msrp, q.msrp),
          assetType: q.assetType,
          vehicleClass: quoted.vehicle.vehicleClass,
        },
        finance:
          deal.finance || q.financeType
            ? {
                financeType: q.financeType ?? deal.finance?.financeType ?? null,
                amountFinanced: decimalOrNull(deal.finance?.amountFinanced, q.amountFinanced),
                termMonths: q.financeTermMonths ?? deal.finance?.termMonths ?? null,
                apr: q.apr ?? (deal.finance?.apr == null ? null : new Decimal(deal.finance.apr).toString()),
                monthlyPayment: decimalOrNull(deal.finance?.monthlyPayment, q.monthlyPayment),
                firstPaymentDate: deal.finance?.firstPaymentDate ?? q.firstPaymentDate ?? null,
                balloonAmount: decimalOrNull(deal.finance?.balloonAmount),
                residualValue: decimalOrNull(deal.finance?.residualValue),
              }
            : null,
      }
    },
  }
}

export type DealChecker = ReturnType<typeof createDealChecker>

/** A person as stored on the contract: trimmed, with empty values as null. */
export function personSnapshot(p: CustomerInput): PersonSnapshot {
  const t = (v: string | null | undefined) => (v?.trim() ? v.trim() : null)
  const a: PartyAddress | null | undefined = p.address
  return {
    firstName: t(p.firstName),
    middleInitial: t(p.middleInitial),
    lastName: t(p.lastName),
    companyName: t(p.companyName),
    emailAddress: t(p.emailAddress),
    phoneNumber: t(p.phoneNumber),
    address: a
      ? {
          line1: a.line1.trim(),
          line2: t(a.line2),
          city: a.city.trim(),
          state: a.state,
          postalCode: a.postalCode,
          country: 'US',
        }
      : null,
  }
}
