// Rerating a contract (issue 16; docs/contracts.md "Rerating"): the contract's rate priced again at its
// own rate-book version and sale date (the rating module's reratedRate: no look-back, no quote
// lifetime) with corrected facts: the sale odometer, the vehicle (a VIN decoded afresh), another term
// or deductible of its plan, its options. In one transaction under the contract's row lock:
// - PENDING: its pricing, coverage, dates, vehicle and terms (the sales tax of the sale date) are replaced;
// - FINALIZED / ACTIVE: the same, and only the difference of what its lines (and the sales tax the
//   administrator collects) call for is posted, as refinalize posts it (differenceLines), as its own kind
//   CONTRACT_RERATED; its sale postings are settled first (settleSalePostings), its earnings resynced
//   (the earnings sync) and its final document produced again;
// - any other status: 409 contract_state_conflict (the state machine's EDIT / REFINALIZE).
// Facts the rate is not offered for are a 422 rerate_ineligible naming each rule of the offer walk that
// excludes it. Each rerate is kept (contract_rerate_request), audited (contract.rerated) and announced
// (the outbox event contract.rerated). A dry run answers the same result and writes nothing.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import { addMonths } from '../../platform/calendar.ts'
import type { Database } from '../../platform/db/database.ts'
import type { RerateSideSnapshot } from '../../platform/db/schema.contracts.ts'
import type { DB, JsonValue } from '../../platform/db/schema.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { centsToDecimal, centsToNumber, formatCents } from '../../platform/money.ts'
import type { LedgerService } from '../finance/index.ts'
import type { ContractParties } from '../parties/index.ts'
import type { QuoteService } from '../rating/index.ts'
import { recordedContract } from './contract-history.ts'
import { contractErrors } from './contract.errors.ts'
import * as repo from './contract.repository.ts'
import { differenceLines, finalizationLines, salesTaxLines, type PostingLine } from './contract.rules.ts'
import type { ContractCore } from './contract.service.ts'
import type { ContractServicing } from './contract-servicing.service.ts'
import { saleTaxOf, type ContractSalesTax, type ContractTerms, type TermsPorts } from './contract-terms.ts'
import * as rerates from './contract-rerate.repository.ts'
import {
  ineligibilityErrors,
  rerateDifference,
  rerateEvent,
  rerateFacts,
  rerateInputProblems,
  rerateRetail,
  salesTaxCents,
  type RerateDifference,
  type RerateInput,
} from './contract-rerate.rules.ts'

type Deps = {
  db: Database
  core: Pick<ContractCore, 'lockRow' | 'judgeChange' | 'readRow' | 'termsOf' | 'ensureTerms' | 'recorder' | 'deals'>
  quotes: Pick<QuoteService, 'reratedRate'>
  parties: Pick<ContractParties, 'administratorId'>
  ledger: Pick<LedgerService, 'post' | 'postingDate'>
  servicing: Pick<ContractServicing, 'settleSalePostings'>
  /** The earnings sync of one contract in the caller's transaction (contract-earnings.ts syncWithin). */
  earnings: {
    syncWithin(tx: Transaction<DB>, ctx: AuthenticatedContext, contractId: number): Promise<{ entryId: number | null }>
  }
  /** Produces the contract's final document again (the lifecycle's produceDocument). */
  produceDocument(ctx: AuthenticatedContext, contractId: number): Promise<unknown>
  saleTerms: TermsPorts['saleTerms']
  salesTax: TermsPorts['salesTax']
}

/** A rerate as kept (or, for a dry run, as it would be): amounts in cents. */
type RerateRecord = {
  id: number | null
  contractId: number
  contractNumber: string
  contractStatus: 'PENDING' | 'FINALIZED' | 'ACTIVE'
  dryRun: boolean
  reason: string | null
  changed: string[]
  request: Record<string, JsonValue>
  before: RerateSideSnapshot
  after: RerateSideSnapshot
  difference: RerateDifference
  postedLines: PostingLine[]
  journalEntryId: number | null
  settlementEntryId: number | null
  earningsEntryId: number | null
  requestedAt: Date
  requestedBy: string
}

const money = (cents: number) => centsToNumber(cents)
const decimalNumber = (v: string | null) => (v === null ? null : Number(v))

function sideView(s: RerateSideSnapshot) {
  return {
    rateId: s.rateId,
    term: s.term,
    deductible: s.deductible,
    saleOdometer: s.saleOdometer,
    expirationDate: s.expirationDate,
    expirationOdometer: s.expirationOdometer,
    vehicle: {
      vin: s.vehicle.vin,
      year: s.vehicle.year,
      make: s.vehicle.make,
      model: s.vehicle.model,
      trim: s.vehicle.trim,
      condition: s.vehicle.condition,
      inServiceDate: s.vehicle.inServiceDate,
      purchasePrice: decimalNumber(s.vehicle.purchasePrice),
      msrp: decimalNumber(s.vehicle.msrp),
      vehicleClass: s.vehicle.vehicleClass,
    },
    retailPrice: money(s.retailCents),
    optionsRetail: money(s.optionsRetailCents),
    totalPrice: money(s.retailCents + s.optionsRetailCents),
    dealerCost: money(s.dealerCostCents),
    salesTax: money(s.salesTaxCents),
    lines: s.lines.map((l) => ({
      code: l.code,
      group: l.group,
      label: l.label,
      amount: money(l.cents),
      source: l.source,
      optionCode: l.optionCode,
      payeeAccountHolderId: l.payeeAccountHolderId,
    })),
    options: s.options.map((o) => ({
      id: o.id,
      code: o.code,
      name: o.name,
      kind: o.kind,
      required: o.required,
      dealerCost: money(o.dealerCostCents),
      retail: money(o.retailCents),
    })),
  }
}

export function toRerateView(r: RerateRecord) {
  return {
    id: r.id,
    contractId: r.contractId,
    contractNumber: r.contractNumber,
    contractStatus: r.contractStatus,
    dryRun: r.dryRun,
    reason: r.reason,
    changed: r.changed,
    request: r.request,
    before: sideView(r.before),
    after: sideView(r.after),
    difference: r.difference,
    postedLines: r.postedLines.map((l) => ({
      accountHolderId: l.accountHolderId,
      purpose: l.purpose,
      side: l.side,
      amount: money(l.cents),
      disbursementCode: l.disbursementCode ?? null,
    })),
    journalEntryId: r.journalEntryId,
    settlementEntryId: r.settlementEntryId,
    earningsEntryId: r.earningsEntryId,
    requestedAt: r.requestedAt.toISOString(),
    requestedBy: r.requestedBy,
  }
}

export type RerateView = ReturnType<typeof toRerateView>

function fromRow(row: rerates.RerateRow, contractNumber: string): RerateRecord {
  const changes = row.changes as { changed?: string[]; request?: Record<string, JsonValue> }
  const before = row.before as RerateSideSnapshot
  const after = row.after as RerateSideSnapshot
  return {
    id: row.id,
    contractId: row.contract_id,
    contractNumber,
    contractStatus: row.contract_status,
    dryRun: false,
    reason: row.reason,
    changed: changes.changed ?? [],
    request: changes.request ?? {},
    before,
    after,
    difference: rerateDifference(before, after),
    postedLines: row.posted_lines as unknown as PostingLine[],
    journalEntryId: row.journal_entry_id,
    settlementEntryId: row.settlement_entry_id,
    earningsEntryId: row.earnings_entry_id,
    requestedAt: row.requested_at,
    requestedBy: row.requested_by,
  }
}

/** What the contract's lines and kept sales tax call for on the books (what finalize posts, refinalize compares). */
function wantedLines(
  parties: { dealerId: number; administratorId: number },
  lines: RerateSideSnapshot['lines'],
  tax: ContractSalesTax | null,
): PostingLine[] {
  return [
    ...finalizationLines(parties, lines),
    ...salesTaxLines(
      parties,
      (tax?.rules ?? []).map((r) => ({ collectedBy: r.collectedBy, taxCents: salesTaxCents({ amount: r.tax }) })),
    ),
  ]
}

export function createContractRerates(deps: Deps) {
  const { db, core } = deps

  function invalid(errors: Array<{ field: string; code: string; message: string }>) {
    return contractErrors.create(
      'contract_invalid',
      `${errors.length} problem(s): ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      { errors },
    )
  }

  return {
    /**
     * POST /api/contracts/{contractId}/rerateRequests. The rerate applied (created: true), or with
     * dryRun the same result computed and nothing written (created: false).
     */
    async rerate(
      ctx: AuthenticatedContext,
      contractId: number,
      input: RerateInput,
    ): Promise<{ created: boolean; view: RerateView }> {
      const problems = rerateInputProblems(input)
      if (problems.length > 0) throw invalid(problems)
      const dryRun = input.dryRun === true
      const { dryRun: _dryRun, ...request } = input
      return db.transaction(ctx.tenantId, async (tx) => {
        const locked = await core.lockRow(tx, ctx, contractId)
        const { row, from, now } = await core.judgeChange(tx, ctx, locked, rerateEvent(locked.status))
        const status = from as RerateRecord['contractStatus']
        const sold = row.status !== 'PENDING'
        // A dry run writes nothing, not even the terms of a contract sold before snapshots.
        const terms: ContractTerms = dryRun
          ? await core.termsOf(ctx.tenantId, row)
          : await core.ensureTerms(tx, ctx.tenantId, row)
        const { facts, changed } = rerateFacts({ saleOdometer: row.sale_odometer, vehicle: row.vehicle }, input)
        const ownOptions = row.pricing.options.filter((o) => !o.required).map((o) => o.id)
        const optionIds = input.selectedOptionIds ?? ownOptions
        const termId = input.termId ?? Number(row.term_id)
        const deductibleId = input.deductibleId ?? Number(row.deductible_id)
        if (termId !== Number(row.term_id)) changed.push('termId')
        if (deductibleId !== Number(row.deductible_id)) changed.push('deductibleId')
        if (
          JSON.stringify(optionIds.toSorted((a, b) => a - b)) !== JSON.stringify(ownOptions.toSorted((a, b) => a - b))
        )
          changed.push('selectedOptionIds')

        const outcome = await deps.quotes.reratedRate(ctx, {
          quoteId: row.quote_id,
          bookId: Number(row.rate_book_id),
          planId: Number(row.plan_id),
          termId,
          deductibleId,
          optionIds,
          facts,
        })
        if (!outcome.eligible) {
          const unknown = outcome.problems.filter((p) => p.code === 'unknown_reference')
          if (unknown.length > 0) throw invalid(unknown.map((p) => ({ field: p.field, code: p.code, message: p.text })))
          const errors = ineligibilityErrors(outcome.exclusions, outcome.problems)
          throw contractErrors.create(
            'rerate_ineligible',
            `contract ${row.contract_number} cannot be priced with these facts: ${errors.map((e) => e.message).join('; ')}`,
            {
              errors,
              extensions: {
                exclusions: outcome.exclusions.map((e) => ({
                  level: e.level,
                  productCode: e.productCode,
                  programCode: e.programCode ?? null,
                  planCode: e.planCode ?? null,
                  termCode: e.termCode ?? null,
                  deductibleCode: e.deductibleCode ?? null,
                  reason: e.reason,
                  text: e.text,
                  criteria: e.criteria?.text ?? null,
                })),
              },
            },
          )
        }
        const rated = outcome.rate
        const lines = await core.deals.payees(ctx, rated)
        const dealerCostCents = lines.reduce((n, l) => n + l.cents, 0)
        const optionsRetailCents = rated.options.reduce((n, o) => n + o.retailCents, 0)
        const retailBounds = {
          suggestedRetailCents: rated.price.suggestedRetailCents,
          minRetailCents: rated.price.minRetailCents,
          maxRetailCents: rated.price.maxRetailCents,
          retailLocked: rated.price.retailLocked,
        }
        const retail = rerateRetail(row.pricing.retailCents, retailBounds, input.retailPrice)
        if (!retail.ok) throw invalid([retail.error])
        const retailCents = retail.retailCents
        if (retailCents !== row.pricing.retailCents) changed.push('retailPrice')

        // The terms follow the new term and lines (from the same version; what the sale decided stays),
        // and the sales tax its new base under the rules of the sale date.
        let newTerms: ContractTerms = terms
        const codes = [...new Set(lines.map((l) => l.code))]
        if (rated.term.code !== terms.term.code || codes.some((c) => !Object.hasOwn(terms.earnings, c))) {
          const resolved = await deps.saleTerms(ctx.tenantId, Number(row.rate_book_id), {
            productCode: row.coverage.product.code,
            planCode: row.coverage.plan.code,
            termCode: rated.term.code,
            lineCodes: codes,
            fallback: {
              freeLookDays: terms.cancellation.freeLookDays,
              defaultCancelFee: terms.cancellation.fee.amount ?? '0',
              deductClaimsPaidFromRefund: terms.cancellation.deductClaims,
            },
          })
          if (resolved)
            newTerms = { ...terms, term: resolved.term, earnings: { ...terms.earnings, ...resolved.earnings } }
        }
        if (retailCents !== row.pricing.retailCents || dealerCostCents !== row.pricing.dealerCostCents) {
          const salesTax = await saleTaxOf({ salesTax: deps.salesTax }, ctx.tenantId, {
            address: row.customer.address,
            taxExempt: row.deal_data.taxExempt,
            productType: row.product_type,
            date: row.sale_date,
            retailCents,
            dealerCostCents,
          })
          newTerms = { ...newTerms, salesTax }
        }

        const before: RerateSideSnapshot = {
          rateId: row.rate_id,
          term: {
            id: row.coverage.term.id,
            code: row.coverage.term.code,
            months: row.coverage.term.months,
            miles: row.coverage.term.miles,
          },
          deductible: { id: row.coverage.deductible.id, code: row.coverage.deductible.code },
          saleOdometer: row.sale_odometer,
          expirationDate: row.expiration_date,
          expirationOdometer: row.expiration_odometer,
          vehicle: row.vehicle,
          retailCents: row.pricing.retailCents,
          optionsRetailCents: row.pricing.optionsRetailCents,
          dealerCostCents: row.pricing.dealerCostCents,
          salesTaxCents: salesTaxCents(terms.salesTax),
          lines: row.pricing.lines,
          options: row.pricing.options,
        }
        const q = rated.inputs
        const after: RerateSideSnapshot = {
          rateId: rated.rateId,
          term: { id: rated.term.id, code: rated.term.code, months: rated.term.months, miles: rated.term.miles },
          deductible: { id: rated.deductible.id, code: rated.deductible.code },
          saleOdometer: q.odometer ?? null,
          expirationDate: addMonths(row.effective_date, rated.term.months),
          expirationOdometer: rated.expirationOdometer,
          vehicle: {
            vin: q.vin ?? null,
            year: rated.vehicle.year,
            make: rated.vehicle.make,
            model: rated.vehicle.model,
            trim: rated.vehicle.trim,
            condition: q.vehicleCondition ?? null,
            inServiceDate: q.inServiceDate ?? null,
            purchasePrice: q.vehiclePurchasePrice ?? null,
            msrp: q.msrp ?? null,
            assetType: q.assetType,
            vehicleClass: rated.vehicle.vehicleClass,
          },
          retailCents,
          optionsRetailCents,
          dealerCostCents,
          salesTaxCents: salesTaxCents(newTerms.salesTax),
          lines,
          options: rated.options.map((o) => ({
            id: o.id,
            code: o.code,
            name: o.name,
            kind: o.kind,
            required: o.required,
            dealerCostCents: o.dealerCostCents,
            retailCents: o.retailCents,
          })),
        }
        const difference = rerateDifference(before, after)

        // Sold: what the new lines call for minus what the old ones did. Once the sale postings are
        // settled (the entries hold what the old lines call for) that is exactly refinalize's difference.
        let postedLines: PostingLine[] = []
        if (sold) {
          const parties = { dealerId: row.dealer_id, administratorId: await deps.parties.administratorId(ctx.tenantId) }
          postedLines = differenceLines(
            wantedLines(parties, after.lines, newTerms.salesTax),
            wantedLines(parties, before.lines, terms.salesTax),
          )
        }
        const record: RerateRecord = {
          id: null,
          contractId: row.id,
          contractNumber: row.contract_number,
          contractStatus: status,
          dryRun,
          reason: input.reason?.trim() || null,
          changed,
          request: request as Record<string, JsonValue>,
          before,
          after,
          difference,
          postedLines,
          journalEntryId: null,
          settlementEntryId: null,
          earningsEntryId: null,
          requestedAt: now,
          requestedBy: ctx.principal.emailAddress,
        }
        if (dryRun) return { created: false, view: toRerateView(record) }

        if (sold) record.settlementEntryId = await deps.servicing.settleSalePostings(tx, ctx, row.id)
        if (postedLines.length > 0) {
          const entry = await deps.ledger.post(ctx, {
            kind: 'CONTRACT_RERATED',
            source: { type: 'CONTRACT', id: row.id },
            effectiveDate: await deps.ledger.postingDate(ctx.tenantId),
            memo: `Rerated contract ${row.contract_number}`,
            lines: postedLines.map((l) => ({
              accountHolderId: l.accountHolderId,
              purpose: l.purpose,
              side: l.side,
              amount: centsToDecimal(l.cents),
              contractId: row.id,
              ...(l.disbursementCode === undefined ? {} : { disbursementCode: l.disbursementCode }),
            })),
          })
          record.journalEntryId = entry.entryId
        }
        // The entries the settlement may have added are on the row as it now stands.
        const current = (await repo.findContract(tx, ctx.tenantId, row.id, null))!
        const activating = row.status !== from
        await repo.updateContract(
          tx,
          ctx.tenantId,
          row.id,
          {
            rate_id: after.rateId,
            term_id: after.term.id,
            deductible_id: after.deductible.id,
            vin: after.vehicle.vin,
            sale_odometer: after.saleOdometer,
            expiration_date: after.expirationDate,
            expiration_odometer: after.expirationOdometer,
            dealer_cost: formatCents(dealerCostCents),
            retail_price: formatCents(retailCents),
            vehicle: JSON.stringify(after.vehicle),
            coverage: JSON.stringify({
              ...row.coverage,
              term: { ...rated.term },
              deductible: { ...rated.deductible },
            }),
            pricing: JSON.stringify({
              retailCents,
              optionsRetailCents,
              dealerCostCents,
              lines,
              options: after.options,
              retailBounds,
            }),
            ...(record.journalEntryId === null
              ? {}
              : { journal_entry_ids: JSON.stringify([...current.journal_entry_ids, record.journalEntryId]) }),
            ...(activating ? { status: from } : {}),
          },
          now,
        )
        if (newTerms !== terms) await rerates.writeRerateTerms(tx, ctx.tenantId, row.id, JSON.stringify(newTerms))
        // A finalized contract in effect reads ACTIVE: this write records its activation (as refinalize does).
        if (activating)
          await core.recorder.record(tx, ctx, {
            contract: recordedContract(row),
            event: 'ACTIVATE',
            from: row.status,
            to: from,
            effectiveDate: row.effective_date,
            source: { type: 'CONTRACT' },
            at: now,
          })
        if (sold) {
          record.earningsEntryId = (await deps.earnings.syncWithin(tx, ctx, row.id)).entryId
          await deps.produceDocument(ctx, row.id)
        }
        const stored = await rerates.insertRerate(tx, ctx.tenantId, {
          contract_id: row.id,
          contract_status: status,
          reason: record.reason,
          changes: JSON.stringify({ changed, request }),
          before: JSON.stringify(before),
          after: JSON.stringify(after),
          dealer_cost_difference: formatCents(difference.dealerCostCents),
          retail_price_difference: formatCents(difference.retailPriceCents),
          sales_tax_difference: formatCents(difference.salesTaxCents),
          posted_lines: JSON.stringify(postedLines),
          journal_entry_id: record.journalEntryId,
          settlement_entry_id: record.settlementEntryId,
          earnings_entry_id: record.earningsEntryId,
          requested_at: now,
          requested_by: ctx.principal.emailAddress,
        })
        record.id = stored.id
        await writeAudit(tx, ctx, now, {
          action: 'contract.rerated',
          entityType: 'contract',
          entityId: row.id,
          changes: {
            rerateRequestId: stored.id,
            status,
            changed,
            rateId: { before: before.rateId, after: after.rateId },
            difference,
            journalEntryId: record.journalEntryId,
            earningsEntryId: record.earningsEntryId,
          },
        })
        await appendEvent(tx, ctx.tenantId, now, {
          type: 'contract.rerated',
          payload: {
            contractId: row.id,
            contractNumber: row.contract_number,
            rerateRequestId: stored.id,
            status,
            changed,
            dealerCost: { before: money(before.dealerCostCents), after: money(after.dealerCostCents) },
            dealerCostDifferenceCents: difference.dealerCostCents,
            salesTaxDifferenceCents: difference.salesTaxCents,
            journalEntryId: record.journalEntryId,
          },
        })
        return { created: true, view: toRerateView(record) }
      })
    },

    /** GET /api/contracts/{contractId}/rerateRequests: the rerates applied to the contract, oldest first. */
    async list(ctx: AuthenticatedContext, contractId: number, window: Window) {
      const row = await core.readRow(ctx, contractId)
      const { rows, totalCount } = await db.read(ctx.tenantId, (x) =>
        rerates.listRerates(x, ctx.tenantId, row.id, window),
      )
      return { items: rows.map((r) => toRerateView(fromRow(r, row.contract_number))), totalCount }
    },
  }
}

export type ContractRerates = ReturnType<typeof createContractRerates>
