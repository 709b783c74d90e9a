// Cancellations (docs/cancellations.md, issue 13): the quote (nothing written), the cancel request
// and its actions, the processed cancel (one transaction: the contract's row lock, the sale postings
// settled, one CONTRACT_CANCELLED entry per decision 0012, the contract CANCELLED through the
// servicing port, the cancel and its payments), its reversal, and the cancel payments. The arithmetic
// is cancellation.rules.ts's (quoteRefund); this file gathers the facts and writes.
import type { Transaction } from 'kysely'
import { addDays, isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { CancelPayeeType, CancelPaymentKind, CancelRequestStatus } from '../../platform/db/schema.cancellations.ts'
import type { ContractStatus, CoverageSnapshot, PricingSnapshot } from '../../platform/db/schema.contracts.ts'
import type { DB, JsonValue } from '../../platform/db/schema.ts'
import { writeAudit } from '../../platform/audit.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import { actorLabel, hasPermission, type AuthenticatedContext } from '../../platform/http/context.ts'
import { platformErrors, type FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { centsToDecimal, centsToNumber, Decimal, toCents } from '../../platform/money.ts'
import type { ContractServicing, ServicedContract } from '../contracts/index.ts'
import { reversalLines, type LedgerLineInput, type LedgerService } from '../finance/index.ts'
import { cancellationTermsFor, type CancelRequester } from '../rating/index.ts'
import { formatContractNumber, type SettingsService } from '../settings/index.ts'
import { cancellationErrors } from './cancellation.errors.ts'
import { cancelPostingLines } from './cancellation.postings.ts'
import * as repo from './cancellation.repository.ts'
import type { CancelRequestRow, CancelRow } from './cancellation.repository.ts'
import { OPEN_CANCEL_REQUEST_STATUSES } from './cancellation.schemas.ts'
import {
  cancelFactProblems,
  displayFactor,
  quoteRefund,
  ratioText,
  salesTaxRefundCents,
  type RefundQuote,
} from './cancellation.rules.ts'

export type ContractTerms = NonNullable<ServicedContract['terms']>

/** What of a contract row the quote reads (the contracts module's row is one). */
export type ContractRecord = {
  id: number
  contract_number: string
  status: ContractStatus
  dealer_id: number
  customer_id: number
  sale_date: string
  effective_date: string
  expiration_date: string
  sale_odometer: number | null
  expiration_odometer: number | null
  coverage: CoverageSnapshot
  pricing: PricingSnapshot
  /** The day of its latest transfer to a new owner, or null (the free-look is the first buyer's only). */
  transferred_on: string | null
}

/** The contracts module as this one reads it (visibility included: 404 for a contract the caller cannot see). */
export type ContractReader = {
  readRow(ctx: AuthenticatedContext, id: number): Promise<ContractRecord>
  /** The contract's terms, resolved unwritten for a contract sold before snapshots. */
  termsOf(tenantId: number, row: ContractRecord): Promise<ContractTerms>
  /** The contract id of an id or contract number the caller may see; 404 otherwise. */
  idOf(ctx: AuthenticatedContext, identifier: string): Promise<number>
  today(tenantId: number): Promise<string>
}

/**
 * What the claims of a contract mean to a cancel. No claims module exists yet (the claims issue
 * after issue 13): `noClaims` is the honest answer until then, and the claims module replaces it.
 */
export type ClaimsPort = {
  onContract(
    tenantId: number,
    contractId: number,
  ): Promise<{ paidCents: number; claimPaid: boolean; openCount: number; riskBearerId: number | null }>
}
export const noClaims: ClaimsPort = {
  async onContract() {
    return { paidCents: 0, claimPaid: false, openCount: 0, riskBearerId: null }
  },
}

export type CancelBody = {
  cancelDate?: string | undefined
  cancelOdometer?: number | null | undefined
  cancelReasonId?: number | null | undefined
  cancelReasonCode?: string | null | undefined
  cancelMethodId?: number | null | undefined
  requestedBy?: CancelRequester | undefined
  payoffDate?: string | null | undefined
  refundPayee?: 'AUTO' | 'CUSTOMER' | 'LIENHOLDER' | 'DEALER' | undefined
  notes?: string | null | undefined
  documents?: Array<{ documentId: number; type?: string | null | undefined }> | undefined
  includeOpenClaims?: boolean | undefined
  claimsInLast60Days?: boolean | undefined
}

export type RequestAction = 'SUBMIT_DOCUMENTS' | 'APPROVE' | 'REJECT' | 'WITHDRAW'

export type CancellationsDeps = {
  db: Database
  clock: Clock
  settings: Pick<SettingsService, 'get'>
  contracts: ContractReader
  servicing: ContractServicing
  ledger: LedgerService
  administratorId(tenantId: number): Promise<number>
  claims?: ClaimsPort
  /** The contracts module's earnings sync: a reversal resyncs the reinstated contract in its transaction. */
  earnings?: {
    syncWithin(tx: Transaction<DB>, ctx: AuthenticatedContext, contractId: number): Promise<{ entryId: number | null }>
  }
  /** Who owns a document of the documents module (undefined: no such document in the tenant). */
  documentOwner?(tenantId: number, documentId: number): Promise<{ ownerType: string; ownerId: number } | undefined>
}

/** The documents module's owner types a request's documents may come from. */
const CONTRACT_OWNER = 'CONTRACT'
const REQUEST_OWNER = 'CANCEL_REQUEST'

/** The quote of one cancel with everything the reply and the posting read. */
type Computed = {
  contract: ContractRecord
  terms: ContractTerms
  body: Required<Pick<CancelBody, 'cancelDate'>> & CancelBody
  requestedBy: CancelRequester
  reason: ContractTerms['cancelReasons'][number]
  method: ContractTerms['cancelMethods'][number]
  quote: RefundQuote
  refundPayee: { type: 'CUSTOMER' | 'LIENHOLDER' | 'DEALER'; accountHolderId: number }
  administratorId: number
  missingDocuments: string[]
  riskBearerId: number | null
  /** The unearned share of the sales tax the administrator holds (salesTaxRefundCents), refunded with the net. */
  salesTaxRefundCents: number
}

type PaymentPreview = {
  payeeType: CancelPayeeType
  accountHolderId: number
  kind: CancelPaymentKind
  amount: number
  status: 'PENDING' | 'PAID' | 'VOID'
  dueDate: string | null
}

const ADMIN_STAFF = (ctx: AuthenticatedContext) => ctx.principal.visibleAccountHolderIds === null

/** The one sequence placeholder of a number format (settings.rules.ts contractNumberFormatProblem). */
const SEQUENCE_PLACEHOLDER = /\{sequence(?::(\d{1,2}))?\}/

/** What a contract record of a quote is made of, from the contract as the servicing port locked it. */
function recordOf(locked: ServicedContract): ContractRecord {
  return {
    id: locked.id,
    contract_number: locked.contractNumber,
    // The status the event is judged from: ACTIVE for a finalized contract in effect.
    status: locked.status,
    dealer_id: locked.dealerId,
    customer_id: locked.customerId,
    sale_date: locked.saleDate,
    effective_date: locked.effectiveDate,
    expiration_date: locked.expirationDate,
    sale_odometer: locked.saleOdometer,
    expiration_odometer: locked.expirationOdometer,
    coverage: locked.coverage,
    pricing: locked.pricing,
    transferred_on: locked.transferredOn,
  }
}

export function createCancellationService(deps: CancellationsDeps) {
  const { db, clock, settings, contracts, servicing, ledger } = deps
  const claims = deps.claims ?? noClaims

  const invalid = (errors: FieldError[]) =>
    cancellationErrors.create(
      'cancel_request_invalid',
      `Invalid cancel: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      { errors },
    )

  /** 409 for a contract whose status allows no cancel (money.md: a PENDING contract is voided, not cancelled). */
  function assertCancellable(c: ContractRecord, cancelDate: string | null) {
    const no = (why: string) => cancellationErrors.create('cancel_not_allowed', `contract ${c.contract_number}: ${why}`)
    if (c.status === 'PENDING')
      throw no(
        'a PENDING contract is voided, not cancelled (rule: only a finalized contract is cancelled; void it instead)',
      )
    if (c.status === 'VOIDED') throw no('a VOIDED contract was never sold and cannot be cancelled')
    if (c.status === 'CANCELLED') throw no('the contract is already CANCELLED')
    if (c.status === 'EXPIRED' && cancelDate !== null && cancelDate > c.expiration_date)
      throw no(
        `an EXPIRED contract is cancelled only as of a date on or before its expiration date ${c.expiration_date}`,
      )
  }

  /** Validates the body and computes the quote; every problem of the input listed at once (422). */
  async function compute(
    ctx: AuthenticatedContext,
    contract: ContractRecord,
    body: CancelBody,
    locked?: ContractTerms,
  ): Promise<Computed> {
    const errors: FieldError[] = []
    const today = await contracts.today(ctx.tenantId)
    const cancelDate = typeof body.cancelDate === 'string' ? body.cancelDate : ''
    if (!isIsoDate(cancelDate))
      errors.push({ field: 'cancelDate', code: 'invalid_format', message: 'must be a date written YYYY-MM-DD' })
    else if (cancelDate > addDays(today, 1))
      errors.push({
        field: 'cancelDate',
        code: 'too_late',
        message: `must be no later than tomorrow (${addDays(today, 1)}, in the tenant's time zone)`,
      })
    assertCancellable(contract, isIsoDate(cancelDate) ? cancelDate : null)

    // Under a cancel's lock, the terms the servicing port holds (written back for a contract sold
    // before snapshots); for a quote, as stored, or resolved unwritten.
    const terms = locked ?? (await contracts.termsOf(ctx.tenantId, contract))
    const requestedBy: CancelRequester = body.requestedBy ?? (ADMIN_STAFF(ctx) ? 'ADMIN' : 'DEALER')
    const reasonCode = body.cancelReasonCode?.trim().toUpperCase()
    const reasonField = body.cancelReasonId != null ? 'cancelReasonId' : 'cancelReasonCode'
    const reason =
      body.cancelReasonId != null
        ? terms.cancelReasons.find((r) => r.id === body.cancelReasonId)
        : reasonCode
          ? terms.cancelReasons.find((r) => r.code === reasonCode)
          : undefined
    if (body.cancelReasonId == null && !reasonCode)
      errors.push({ field: 'cancelReasonId', code: 'required', message: 'a cancel reason (id or code) is required' })
    else if (!reason)
      errors.push({
        field: reasonField,
        code: 'reason_not_applicable',
        message: `${body.cancelReasonId ?? reasonCode} is not a cancel reason of this contract's terms (${terms.product.type} products, rate book version ${terms.rateBookVersion})`,
      })

    let decision = reason
      ? cancellationTermsFor(terms, { state: terms.governingState, reasonCode: reason.code, requestedBy })
      : null
    if (decision && !decision.ok) {
      errors.push({
        field: decision.code === 'requester_not_allowed' ? 'requestedBy' : reasonField,
        code: decision.code,
        message: decision.message,
      })
      decision = null
    }
    let method = decision?.ok ? decision.method : undefined
    if (body.cancelMethodId != null) {
      if (!ADMIN_STAFF(ctx) || !hasPermission(ctx.principal.permissions, 'cancellations:approve'))
        throw platformErrors.create(
          'permission_denied',
          'Only staff with cancellations:approve may choose the cancel method (cancelMethodId)',
        )
      method = terms.cancelMethods.find((m) => m.id === body.cancelMethodId)
      if (!method)
        errors.push({
          field: 'cancelMethodId',
          code: 'unknown_reference',
          message: `no cancel method ${body.cancelMethodId} in the contract's rate book version`,
        })
    }
    if (reason?.requiresPayoffDate && (body.payoffDate == null || body.payoffDate === ''))
      errors.push({ field: 'payoffDate', code: 'required', message: `the reason ${reason.code} needs the payoff date` })
    if (body.payoffDate != null && !isIsoDate(body.payoffDate))
      errors.push({ field: 'payoffDate', code: 'invalid_format', message: 'must be a date written YYYY-MM-DD' })
    // A GAP contract ended by its loan's payoff or refinance is cancelled on the payoff date (issue 13):
    // the coverage ends with the loan.
    const gap = terms.product.type === 'GAP'
    if (
      gap &&
      (reason?.endsGap === 'PAYOFF' || reason?.endsGap === 'REFINANCE') &&
      isIsoDate(cancelDate) &&
      body.payoffDate != null &&
      isIsoDate(body.payoffDate) &&
      body.payoffDate !== cancelDate
    )
      errors.push({
        field: 'cancelDate',
        code: 'not_payoff_date',
        message: `a GAP contract ended by ${reason.code} is cancelled on the payoff date ${body.payoffDate}`,
      })

    // The refund payee: the body's choice, else the reason's; AUTO is the lien holder while the lien is unreleased.
    const lien = terms.lien
    const wanted = body.refundPayee && body.refundPayee !== 'AUTO' ? body.refundPayee : (reason?.refundPayee ?? 'AUTO')
    let refundPayee: Computed['refundPayee'] = { type: 'CUSTOMER', accountHolderId: contract.customer_id }
    if (wanted === 'LIENHOLDER' || (wanted === 'AUTO' && lien !== null && !lien.released)) {
      if (lien === null)
        errors.push({ field: 'refundPayee', code: 'no_lien_holder', message: 'the contract has no lien holder' })
      else refundPayee = { type: 'LIENHOLDER', accountHolderId: lien.lienHolderId }
    } else if (wanted === 'DEALER') refundPayee = { type: 'DEALER', accountHolderId: contract.dealer_id }

    const claimFacts = await claims.onContract(ctx.tenantId, contract.id)
    const facts = {
      effectiveDate: contract.effective_date,
      expirationDate: contract.expiration_date,
      saleDate: contract.sale_date,
      cancelDate,
      termMonths: contract.coverage.term.months,
      termMiles: contract.coverage.term.miles,
      milesBasis:
        contract.coverage.term.milesBasis === 'FROM_ZERO' ? ('FROM_ZERO' as const) : ('FROM_SALE_ODOMETER' as const),
      saleOdometer: contract.sale_odometer,
      expirationOdometer: contract.expiration_odometer,
      cancelOdometer: body.cancelOdometer ?? null,
    }
    let quote: RefundQuote | null = null
    if (isIsoDate(cancelDate) && decision?.ok && method) {
      const result = quoteRefund({
        priceCents: contract.pricing.retailCents + contract.pricing.optionsRetailCents,
        lines: contract.pricing.lines.map((l) => ({
          code: l.code,
          group: l.group,
          payeeAccountHolderId: l.payeeAccountHolderId,
          cents: l.cents,
          refundable: terms.earnings[l.code]?.refundable !== false,
        })),
        decision: { ...decision, method },
        claimsPaidCents: claimFacts.paidCents,
        claimPaid: claimFacts.claimPaid,
        transferred: Boolean(contract.transferred_on),
        // A GAP total loss whose benefit was paid refunds nothing (the claims module reports the claim paid).
        benefitPaid: gap && reason?.endsGap === 'TOTAL_LOSS' && claimFacts.claimPaid,
        facts,
      })
      if (!result.ok) errors.push(...result.errors)
      else quote = result
    } else if (isIsoDate(cancelDate)) {
      // The facts' own problems are listed with the others even when the reason was refused.
      errors.push(...cancelFactProblems(facts))
    }
    if (errors.length > 0) throw invalid(errors)
    if (claimFacts.openCount > 0 && !body.includeOpenClaims)
      throw cancellationErrors.create(
        'claims_open',
        `contract ${contract.contract_number} has ${claimFacts.openCount} open or authorized unpaid claims: send includeOpenClaims to cancel anyway`,
      )
    const supplied = new Set((body.documents ?? []).map((d) => d.type ?? ''))
    return {
      contract,
      terms,
      body: { ...body, cancelDate },
      requestedBy,
      reason: reason!,
      method: method!,
      quote: quote!,
      refundPayee,
      administratorId: await deps.administratorId(ctx.tenantId),
      missingDocuments: reason!.requiredDocuments.filter((d) => !supplied.has(d)),
      riskBearerId: claimFacts.riskBearerId,
      salesTaxRefundCents: salesTaxRefundCents(
        (terms.salesTax?.rules ?? []).map((r) => ({
          collectedBy: r.collectedBy,
          taxCents: toCents(new Decimal(r.tax)),
        })),
        quote!.fraction,
      ),
    }
  }

  async function paymentsPreview(tenantId: number, c: Computed): Promise<PaymentPreview[]> {
    const q = c.quote
    const dueDays = Number(await settings.get(tenantId, 'refundDueDays'))
    const today = await contracts.today(tenantId)
    const out: PaymentPreview[] = []
    // The refund payee gets the net and the refunded sales tax in one payment.
    const refundCents = q.netCents + c.salesTaxRefundCents
    if (refundCents > 0)
      out.push({
        payeeType: c.refundPayee.type,
        accountHolderId: c.refundPayee.accountHolderId,
        kind: 'REFUND',
        amount: centsToNumber(refundCents),
        status: 'PENDING',
        dueDate: addDays(today, dueDays),
      })
    // The dealer returns its markup share, less the fee when the dealer keeps it.
    const chargeback = q.markupRefundCents - (q.fee.keptBy === 'DEALER' ? q.fee.cents : 0)
    if (chargeback > 0)
      out.push({
        payeeType: 'DEALER',
        accountHolderId: c.contract.dealer_id,
        kind: 'CHARGEBACK',
        amount: centsToNumber(chargeback),
        status: 'PENDING',
        dueDate: null,
      })
    for (const p of q.payees) {
      if (p.payeeAccountHolderId === c.administratorId || p.refundCents <= 0) continue
      out.push({
        payeeType: 'PAYEE',
        accountHolderId: p.payeeAccountHolderId,
        kind: 'RECOVERY',
        amount: centsToNumber(p.refundCents),
        status: 'PENDING',
        dueDate: null,
      })
    }
    return out
  }

  /** The reply's calculation, funding and rules (payloads.md §6), as stored with a request or a cancel. */
  function calculationView(c: Computed) {
    const q = c.quote
    const p = q.parts
    const adminLines = q.lines.filter((l) => l.payeeAccountHolderId === c.administratorId)
    return {
      reason: { id: c.reason.id, code: c.reason.code, name: c.reason.name },
      method: { id: c.method.id, code: c.method.code, name: c.method.name, formula: c.method.formula },
      withinFreeLook: q.withinFreeLook,
      calculation: {
        basis: 'RETAIL',
        decidedBy: q.decidedBy,
        purchasePrice: centsToNumber(q.priceCents),
        refundableAmount: centsToNumber(q.refundableCents),
        daysElapsed: p?.daysElapsed ?? null,
        daysInTerm: p?.daysInTerm ?? null,
        monthsElapsed: p?.monthsElapsed ?? null,
        termMonths: p?.termMonths ?? null,
        timeUnearnedFactor: p?.time ? Number(displayFactor(p.time)) : null,
        milesUsed: p?.milesUsed ?? null,
        milesInTerm: p?.milesCovered ?? null,
        mileageUnearnedFactor: p?.miles ? Number(displayFactor(p.miles)) : null,
        appliedUnearnedFactor: Number(q.factor),
        unearnedRatio: ratioText(q.fraction),
        grossRefund: centsToNumber(q.grossCents),
        cancelFee: centsToNumber(q.fee.cents),
        claimsDeducted: centsToNumber(q.claimsDeductedCents),
        salesTaxRefund: centsToNumber(c.salesTaxRefundCents),
        // What the refund payee is paid: the net of the price plus the refunded sales tax.
        netCustomerRefund: centsToNumber(q.netCents + c.salesTaxRefundCents),
      },
      funding: {
        dealerChargeback: centsToNumber(q.markupRefundCents),
        adminRefund: centsToNumber(q.linesRefundCents),
        administratorShare: centsToNumber(adminLines.reduce((n, l) => n + l.refundCents, 0)),
        feeRetained:
          q.fee.cents > 0 && q.fee.keptBy !== null
            ? { amount: centsToNumber(q.fee.cents), retainedBy: q.fee.keptBy === 'ADMINISTRATOR' ? 'ADMIN' : 'DEALER' }
            : null,
        byDisbursement: q.lines.map((l) => ({
          code: l.code,
          group: l.group,
          payeeAccountHolderId: l.payeeAccountHolderId,
          refundable: l.refundable,
          amount: centsToNumber(l.cents),
          refund: centsToNumber(l.refundCents),
        })),
      },
      freeLook: q.freeLook,
      refundPayee: c.refundPayee,
      rules: {
        productRule: q.rule.productRule,
        stateRule: q.rule.stateRule,
        governingState: c.terms.governingState,
        reason: q.rule.reason,
        method: q.rule.method,
        methodOverridden: c.body.cancelMethodId != null,
        requestedBy: c.requestedBy,
        rateBookVersion: c.terms.rateBookVersion,
      },
    }
  }

  type Stored = ReturnType<typeof calculationView> & { payments: PaymentPreview[] }

  async function stored(tenantId: number, c: Computed): Promise<Stored> {
    return { ...calculationView(c), payments: await paymentsPreview(tenantId, c) }
  }

  /** The reply of a quote (status QUOTED, nothing stored). */
  async function quoteView(ctx: AuthenticatedContext, contract: ContractRecord, body: CancelBody, c: Computed) {
    return {
      id: null,
      requestNumber: null,
      contractId: contract.id,
      contractNumber: contract.contract_number,
      status: 'QUOTED' as const,
      cancelDate: c.body.cancelDate,
      cancelOdometer: body.cancelOdometer ?? null,
      ...(await stored(ctx.tenantId, c)),
      requestedBy: c.requestedBy,
      missingDocuments: c.missingDocuments,
      requestedAt: null,
      processedAt: null,
      messages: [] as string[],
    }
  }

  // ---- numbers --------------------------------------------------------------------------------

  async function nextNumber(tx: Transaction<DB>, tenantId: number): Promise<string> {
    const sequence = await repo.nextCancelSequence(tx, tenantId)
    const format = String(await settings.get(tenantId, 'cancelNumberFormat'))
    return formatContractNumber(format, {
      formPrefix: 'CXL',
      sequence,
      date: await contracts.today(tenantId),
    })
  }

  /**
   * A new number as the parts the last statement of a direct cancel assembles around the counter's
   * next value (repo.finishCancel): what the format makes of everything but its one {sequence}
   * placeholder (settings guarantee exactly one), and the sequence's width. The same number as
   * formatContractNumber's: a sequence longer than its width is written in full.
   */
  async function numberParts(tenantId: number): Promise<repo.NumberParts> {
    const format = String(await settings.get(tenantId, 'cancelNumberFormat'))
    const parts = { formPrefix: 'CXL', sequence: 0, date: await contracts.today(tenantId) }
    const m = SEQUENCE_PLACEHOLDER.exec(format)
    if (!m) throw new Error(`cancelNumberFormat ${JSON.stringify(format)} has no {sequence} placeholder`)
    return {
      prefix: formatContractNumber(format.slice(0, m.index), parts),
      width: Number(m[1] ?? 0),
      suffix: formatContractNumber(format.slice(m.index + m[0].length), parts),
    }
  }

  // ---- views ----------------------------------------------------------------------------------

  function requestView(row: CancelRequestRow, contract: { contract_number: string }, cancelId: number | null) {
    const q = row.quote as unknown as Stored
    return {
      id: row.id,
      requestNumber: row.request_number,
      contractId: row.contract_id,
      contractNumber: contract.contract_number,
      status: row.status,
      cancelDate: row.cancel_date,
      cancelOdometer: row.cancel_odometer,
      ...q,
      requestedBy: row.requested_by,
      refundPayeeRequested: row.refund_payee,
      payoffDate: row.payoff_date,
      notes: row.notes,
      documents: row.documents,
      includeOpenClaims: row.include_open_claims,
      requestedAt: row.created_at.toISOString(),
      requestedByUser: row.created_by,
      decidedAt: row.decided_at ? row.decided_at.toISOString() : null,
      decidedBy: row.decided_by,
      decisionNote: row.decision_note,
      cancelId,
      processedAt: null as string | null,
      version: row.version,
      messages: [] as string[],
    }
  }

  function cancelView(row: CancelRow, contractNumber: string, payments: PaymentPreview[]) {
    const q = row.calculation as unknown as Stored
    return {
      id: row.id,
      cancelNumber: row.cancel_number,
      contractId: row.contract_id,
      contractNumber,
      requestId: row.request_id,
      status: row.reversed_at ? 'REVERSED' : 'PROCESSED',
      cancelDate: row.cancel_date,
      cancelOdometer: row.cancel_odometer,
      ...q,
      payments,
      journalEntryId: row.journal_entry_id,
      processedAt: row.processed_at.toISOString(),
      processedBy: row.processed_by,
      reversedAt: row.reversed_at ? row.reversed_at.toISOString() : null,
      reversedBy: row.reversed_by,
      reversalReason: row.reversal_reason,
      reversalEntryId: row.reversal_entry_id,
    }
  }

  const paymentView = (p: {
    id: number
    cancel_id: number
    contract_id: number
    payee_type: CancelPayeeType
    account_holder_id: number
    kind: CancelPaymentKind
    amount: string
    status: 'PENDING' | 'PAID' | 'VOID'
    due_date: string | null
  }) => ({
    id: p.id as number | null,
    cancelId: p.cancel_id as number | null,
    contractId: p.contract_id,
    payeeType: p.payee_type,
    accountHolderId: p.account_holder_id,
    kind: p.kind,
    amount: Number(p.amount),
    status: p.status,
    dueDate: p.due_date,
  })

  const requestNotFound = (id: number | string) =>
    cancellationErrors.create('cancel_request_not_found', `no cancel request ${id}`)
  const cancelNotFound = (id: number | string) => cancellationErrors.create('cancel_not_found', `no cancel ${id}`)

  /** The request and its contract, as the caller may see it (404 otherwise). */
  async function visibleRequest(ctx: AuthenticatedContext, id: number) {
    const row = await db.read(ctx.tenantId, (x) => repo.findRequest(x, ctx.tenantId, id))
    if (!row) throw requestNotFound(id)
    try {
      return { row, contract: await contracts.readRow(ctx, row.contract_id) }
    } catch {
      throw requestNotFound(id)
    }
  }

  async function visibleCancel(ctx: AuthenticatedContext, id: number) {
    const row = await db.read(ctx.tenantId, (x) => repo.findCancel(x, ctx.tenantId, id))
    if (!row) throw cancelNotFound(id)
    try {
      return { row, contract: await contracts.readRow(ctx, row.contract_id) }
    } catch {
      throw cancelNotFound(id)
    }
  }

  async function requestByIdentifier(ctx: AuthenticatedContext, identifier: string) {
    const t = identifier.trim()
    const row = await db.read(ctx.tenantId, async (x) =>
      /^\d{1,15}$/.test(t) && isStorableId(Number(t))
        ? ((await repo.findRequest(x, ctx.tenantId, Number(t))) ?? repo.findRequestByNumber(x, ctx.tenantId, t))
        : repo.findRequestByNumber(x, ctx.tenantId, t),
    )
    if (!row) throw requestNotFound(identifier)
    return row.id
  }

  async function cancelIdOfRequest(tenantId: number, requestId: number, x?: Executor) {
    const read = (e: Executor) => repo.cancelIdOfRequest(e, tenantId, requestId)
    return x ? await read(x) : await db.read(tenantId, read)
  }

  async function paymentsOfCancel(x: Executor, tenantId: number, cancelId: number) {
    const rows = await repo.paymentsOfCancel(x, tenantId, cancelId)
    return rows.map(paymentView)
  }

  // ---- processing -----------------------------------------------------------------------------

  /**
   * The contract locked for CANCEL (404 for one the caller cannot see: the lock's visibility filter
   * locks nothing else). The second of two cancels at once waits here, then finds the contract
   * CANCELLED: the state machine's refusal is named as this module's rule. `statusFirst` (a direct
   * cancel): a contract whose status allows no cancel is refused as such (409) even when another
   * user holds its edit lock, as a look at it before locking would have.
   */
  async function lockForCancel(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contractId: number,
    cancelDate: string | null | undefined,
    statusFirst = false,
  ) {
    try {
      return await servicing.lockForEvent(tx, ctx, contractId, 'CANCEL', {
        effectiveDate: cancelDate && isIsoDate(cancelDate) ? cancelDate : undefined,
      })
    } catch (e) {
      const code = (e as { code?: string }).code
      if (code === 'contract_state_conflict' || (statusFirst && code === 'contract_locked')) {
        const now = await contracts.readRow(ctx, contractId)
        if (now.status === 'CANCELLED')
          throw cancellationErrors.create(
            'contract_already_cancelled',
            `contract ${now.contract_number} is already cancelled`,
          )
        assertCancellable(now, null)
      }
      throw e
    }
  }

  /** The entry of a cancel, per decision 0012's cancel table. */
  async function cancelLines(tenantId: number, c: Computed): Promise<LedgerLineInput[]> {
    return cancelPostingLines({
      quote: c.quote,
      contractId: c.contract.id,
      administratorId: c.administratorId,
      dealerId: c.contract.dealer_id,
      refundPayeeId: c.refundPayee.accountHolderId,
      riskBearerId: c.riskBearerId,
      earnedByCode: await ledger.earnedByCode(tenantId, c.contract.id),
      earnings: c.terms.earnings,
      dates: {
        effectiveDate: c.contract.effective_date,
        expirationDate: c.contract.expiration_date,
        termMonths: c.contract.coverage.term.months,
      },
      cancelDate: c.body.cancelDate,
      salesTaxRefundCents: c.salesTaxRefundCents,
    })
  }

  /**
   * Processes a cancel in the caller's transaction: the contract locked for CANCEL (once: the
   * servicing port's handle serves every later step), the quote recomputed, the sale postings
   * settled, the entry posted, the contract CANCELLED, the cancel and its payments written. Two at
   * once: the second waits on the row lock, then finds the contract CANCELLED (409); the partial
   * unique index is the last guard. A direct cancel takes its number from the tenant's counter in the
   * last statement before the commit (finishCancel), so that concurrent cancels of other contracts
   * wait on the counter's row lock for one statement and the commit, not for the whole cancel; the
   * numbers stay gapless (a rolled-back cancel returns its number with the counter's update).
   * The reply is built from what was written.
   */
  async function processIn(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    contract: { locked: ServicedContract } | { id: number },
    body: CancelBody,
    request: { id: number; number: string } | null,
  ) {
    const now = clock.now()
    const locked =
      'locked' in contract ? contract.locked : await lockForCancel(tx, ctx, contract.id, body.cancelDate, true)
    // The terms under the lock, written back for a contract sold before snapshots.
    const terms = await servicing.termsOf(tx, ctx, locked)
    const c = await compute(ctx, recordOf(locked), body, terms)
    await servicing.settleSalePostings(tx, ctx, locked)
    const [calc, parts, postingDate] = await Promise.all([
      stored(ctx.tenantId, c),
      request ? null : numberParts(ctx.tenantId),
      ledger.postingDate(ctx.tenantId),
    ])
    const inserted = await repo
      .insertCancel(tx, ctx.tenantId, {
        contract_id: locked.id,
        request_id: request?.id ?? null,
        // A direct cancel's number is set by finishCancel, last; until then the row is this
        // transaction's own.
        cancel_number: request?.number ?? repo.UNNUMBERED,
        cancel_date: c.body.cancelDate,
        cancel_odometer: body.cancelOdometer ?? null,
        reason_id: c.reason.id,
        reason_code: c.reason.code,
        method_id: c.method.id,
        method_code: c.method.code,
        calculation: JSON.stringify(calc),
        journal_entry_id: null,
        processed_at: now,
        processed_by: actorLabel(ctx),
        processed_by_user_id: ctx.principal.userId > 0 ? ctx.principal.userId : null,
      })
      .catch((e: unknown) => {
        if ((e as { code?: string }).code === '23505')
          throw cancellationErrors.create(
            'contract_already_cancelled',
            `contract ${locked.contractNumber} already has a processed cancel`,
          )
        throw e
      })
    const cancelId = Number(inserted.id)
    const entry = await ledger.post(ctx, {
      kind: 'CONTRACT_CANCELLED',
      source: { type: 'CANCELLATION', id: cancelId },
      effectiveDate: postingDate,
      // The cancel's number may not be taken yet: the source names the cancel.
      memo: `cancel of contract ${locked.contractNumber}`,
      lines: await cancelLines(ctx.tenantId, c),
    })
    await servicing.applyTransition(tx, ctx, locked, {
      event: 'CANCEL',
      effectiveDate: c.body.cancelDate,
      source: { type: 'CANCELLATION', id: cancelId },
      details: { cancelId, netRefund: calc.calculation.netCustomerRefund },
    })
    // Last: the number (a direct cancel's, from the counter), the entry on the cancel, the payments,
    // the audit record and the event, in one statement.
    const { number, payments } = await repo.finishCancel(tx, ctx.tenantId, {
      cancelId,
      journalEntryId: entry.entryId,
      number: request ? { given: request.number } : parts!,
      audit: {
        occurredAt: now,
        actorUserId: ctx.principal && ctx.principal.userId > 0 ? ctx.principal.userId : null,
        actorApiKeyId: ctx.apiKeyId > 0 ? ctx.apiKeyId : null,
        actorLabel: actorLabel(ctx),
        requestId: ctx.requestId,
        action: 'cancel.processed',
        entityType: 'cancel',
        entityId: String(cancelId),
        changes: {
          after: {
            contractId: locked.id,
            cancelNumber: null,
            requestId: request?.id ?? null,
            cancelDate: c.body.cancelDate,
            journalEntryId: entry.entryId,
            netRefund: calc.calculation.netCustomerRefund,
          },
        },
      },
      event: {
        type: 'cancel.processed',
        createdAt: now,
        payload: {
          cancelId,
          cancelNumber: null,
          contractId: locked.id,
          contractNumber: locked.contractNumber,
          requestId: request?.id ?? null,
          cancelDate: c.body.cancelDate,
          netRefund: centsToDecimal(c.quote.netCents + c.salesTaxRefundCents).toFixed(2),
          journalEntryId: entry.entryId,
        },
      },
      payments: calc.payments.map((p) => ({
        cancel_id: cancelId,
        contract_id: locked.id,
        payee_type: p.payeeType,
        account_holder_id: p.accountHolderId,
        kind: p.kind,
        amount: p.amount.toFixed(2),
        status: 'PENDING' as const,
        due_date: p.dueDate,
        created_at: now,
        updated_at: now,
      })),
    })
    const row: CancelRow = {
      ...inserted,
      cancel_number: number,
      journal_entry_id: entry.entryId,
      calculation: calc as unknown as CancelRow['calculation'],
    }
    return cancelView(row, locked.contractNumber, payments.map(paymentView).map(previewOf))
  }

  async function cancelReply(tenantId: number, cancelId: number, x?: Executor) {
    const read = async (e: Executor) => {
      const row = (await repo.findCancel(e, tenantId, cancelId))!
      const contractNumber = await repo.contractNumberOf(e, tenantId, row.contract_id)
      return cancelView(row, contractNumber, (await paymentsOfCancel(e, tenantId, cancelId)).map(previewOf))
    }
    return x ? read(x) : db.read(tenantId, read)
  }
  const previewOf = (p: ReturnType<typeof paymentView>) => ({ ...p }) as PaymentPreview & { id: number | null }

  function bodyOfRequest(row: CancelRequestRow): CancelBody {
    return {
      cancelDate: row.cancel_date,
      cancelOdometer: row.cancel_odometer,
      cancelReasonId: row.reason_id,
      cancelMethodId: row.method_override_id,
      requestedBy: row.requested_by as CancelRequester,
      payoffDate: row.payoff_date,
      refundPayee: row.refund_payee as CancelBody['refundPayee'],
      includeOpenClaims: row.include_open_claims,
    }
  }

  /**
   * Documents named by a request are the contract's files or the request's own documents: any other
   * id (another contract's, another tenant's, none) is refused, each listed (422).
   */
  async function checkDocuments(
    tenantId: number,
    documents: CancelBody['documents'],
    contractId: number,
    requestId: number | null,
  ) {
    if (!documents || documents.length === 0 || !deps.documentOwner) return
    const errors: FieldError[] = []
    for (const [i, d] of documents.entries()) {
      const owner = await deps.documentOwner(tenantId, d.documentId)
      const ok =
        owner !== undefined &&
        ((owner.ownerType === CONTRACT_OWNER && owner.ownerId === contractId) ||
          (requestId !== null && owner.ownerType === REQUEST_OWNER && owner.ownerId === requestId))
      if (!ok)
        errors.push({
          field: `documents[${i}].documentId`,
          code: 'unknown_reference',
          message: `document ${d.documentId} is neither a file of the contract nor a document of the request`,
        })
    }
    if (errors.length > 0) throw invalid(errors)
  }

  const requestNotes = (body: CancelBody) => {
    if (body.notes != null && body.notes.length > 2000)
      throw invalid([{ field: 'notes', code: 'too_long', message: 'at most 2000 characters' }])
  }

  return {
    /** POST contracts/{id}/cancelrequests?quoteOnly=true: the quote, nothing written. */
    async quote(ctx: AuthenticatedContext, contractId: number, body: CancelBody) {
      // One read unit of work for the contract and its claims: one connection, one transaction.
      return db.read(ctx.tenantId, async () => {
        const contract = await contracts.readRow(ctx, contractId)
        const c = await compute(ctx, contract, body)
        return quoteView(ctx, contract, body, c)
      })
    },

    /** POST contracts/{id}/cancelrequests: a stored request (REQUESTED, or PENDING_DOCUMENTS). */
    async request(ctx: AuthenticatedContext, contractId: number, body: CancelBody) {
      requestNotes(body)
      const contract = await contracts.readRow(ctx, contractId)
      const c = await compute(ctx, contract, body)
      await checkDocuments(ctx.tenantId, body.documents, contract.id, null)
      const calc = await stored(ctx.tenantId, c)
      const now = clock.now()
      const id = await db.transaction(ctx.tenantId, async (tx) => {
        const number = await nextNumber(tx, ctx.tenantId)
        const row = await repo.insertRequest(tx, ctx.tenantId, {
          contract_id: contract.id,
          request_number: number,
          status: c.missingDocuments.length > 0 ? 'PENDING_DOCUMENTS' : 'REQUESTED',
          cancel_date: c.body.cancelDate,
          cancel_odometer: body.cancelOdometer ?? null,
          reason_id: c.reason.id,
          reason_code: c.reason.code,
          method_override_id: body.cancelMethodId ?? null,
          requested_by: c.requestedBy,
          refund_payee: body.refundPayee ?? 'AUTO',
          payoff_date: body.payoffDate ?? null,
          notes: body.notes ?? null,
          documents: JSON.stringify(
            (body.documents ?? []).map((d) => ({ documentId: d.documentId, type: d.type ?? null })),
          ),
          include_open_claims: body.includeOpenClaims ?? false,
          // What the request ends of a GAP contract: GET /contracts/autocancelgap lists it.
          ends_gap: c.terms.product.type === 'GAP' ? (c.reason.endsGap ?? null) : null,
          quote: JSON.stringify(calc),
          created_at: now,
          created_by: actorLabel(ctx),
          created_by_user_id: ctx.principal.userId > 0 ? ctx.principal.userId : null,
          updated_at: now,
        })
        await writeAudit(tx, ctx, now, {
          action: 'cancel_request.created',
          entityType: 'cancel_request',
          entityId: row.id,
          changes: {
            after: {
              contractId: contract.id,
              requestNumber: number,
              status: row.status,
              cancelDate: c.body.cancelDate,
              reason: c.reason.code,
              netRefund: calc.calculation.netCustomerRefund,
            },
          },
        })
        return Number(row.id)
      })
      return this.getRequest(ctx, id)
    },

    async getRequest(ctx: AuthenticatedContext, id: number) {
      const { row, contract } = await visibleRequest(ctx, id)
      return requestView(row, contract, await cancelIdOfRequest(ctx.tenantId, row.id))
    },

    async getRequestByIdentifier(ctx: AuthenticatedContext, identifier: string) {
      return this.getRequest(ctx, await requestByIdentifier(ctx, identifier))
    },
    requestIdOf: requestByIdentifier,

    async listRequests(ctx: AuthenticatedContext, contractId: number, window: Window) {
      const contract = await contracts.readRow(ctx, contractId)
      return db.read(ctx.tenantId, async (x) => {
        const rows = await repo.listRequests(x, ctx.tenantId, contract.id, window)
        const total = await repo.countRequests(x, ctx.tenantId, contract.id)
        const items = []
        for (const r of rows) items.push(requestView(r, contract, await cancelIdOfRequest(ctx.tenantId, r.id, x)))
        return { items, totalCount: total }
      })
    },

    /** The tenant's requests across contracts, newest first; dealer-side users see their dealers' only. */
    async searchRequests(
      ctx: AuthenticatedContext,
      query: {
        status?: CancelRequestStatus | undefined
        open?: boolean | undefined
        dealerId?: number | undefined
        cancelDateFrom?: string | undefined
        cancelDateTo?: string | undefined
      },
      window: Window,
    ) {
      const filter: repo.RequestSearch = {
        statuses: query.status ? [query.status] : query.open === true ? OPEN_CANCEL_REQUEST_STATUSES : undefined,
        notStatuses: query.open === false ? OPEN_CANCEL_REQUEST_STATUSES : undefined,
        dealerId: query.dealerId,
        visibleDealerIds: ctx.principal.visibleAccountHolderIds,
        cancelDateFrom: query.cancelDateFrom,
        cancelDateTo: query.cancelDateTo,
      }
      const found = await db.read(ctx.tenantId, (x) => repo.searchRequests(x, ctx.tenantId, filter, window))
      return {
        items: found.rows.map((r) =>
          requestView(r, r, r.cancel_id === null || r.cancel_id === undefined ? null : Number(r.cancel_id)),
        ),
        totalCount: found.totalCount,
      }
    },

    /** POST cancelrequests/{id} with an action. */
    async act(
      ctx: AuthenticatedContext,
      id: number,
      input: { action: RequestAction; reason?: string | undefined; documents?: CancelBody['documents'] },
    ) {
      const { row: seen } = await visibleRequest(ctx, id)
      const { action } = input
      if (
        (action === 'APPROVE' || action === 'REJECT') &&
        !hasPermission(ctx.principal.permissions, 'cancellations:approve')
      )
        throw platformErrors.create('permission_denied', `${action} requires the cancellations:approve permission`)
      if (input.reason != null && input.reason.length > 2000)
        throw invalid([{ field: 'reason', code: 'too_long', message: 'at most 2000 characters' }])
      const allowed: Record<string, RequestAction[]> = {
        REQUESTED: ['SUBMIT_DOCUMENTS', 'APPROVE', 'REJECT', 'WITHDRAW'],
        PENDING_DOCUMENTS: ['SUBMIT_DOCUMENTS', 'REJECT', 'WITHDRAW'],
      }
      await db.transaction(ctx.tenantId, async (tx) => {
        const now = clock.now()
        // APPROVE locks the contract first (the order of every cancel), then the request.
        const body = bodyOfRequest(seen)
        const locked = action === 'APPROVE' ? await lockForCancel(tx, ctx, seen.contract_id, seen.cancel_date) : null
        const row = await repo.lockRequest(tx, ctx.tenantId, seen.id)
        if (!(allowed[row.status] ?? []).includes(action))
          throw cancellationErrors.create(
            'cancel_request_state_conflict',
            `cancel request ${row.request_number} is ${row.status}: ${action} is not allowed (allowed: ${(allowed[row.status] ?? []).join(', ') || 'none'})`,
          )
        if (action === 'REJECT' && !input.reason)
          throw invalid([{ field: 'reason', code: 'required', message: 'a rejection needs its reason' }])
        let next = row.status
        let documents = row.documents
        if (action === 'SUBMIT_DOCUMENTS') {
          if (!input.documents || input.documents.length === 0)
            throw invalid([{ field: 'documents', code: 'required', message: 'at least one document' }])
          await checkDocuments(ctx.tenantId, input.documents, row.contract_id, row.id)
          documents = [
            ...row.documents,
            ...input.documents.map((d) => ({ documentId: d.documentId, type: d.type ?? null })),
          ]
          const contract = await contracts.readRow(ctx, row.contract_id)
          const terms = await contracts.termsOf(ctx.tenantId, contract)
          const reason = terms.cancelReasons.find((r) => r.id === row.reason_id)
          const have = new Set(documents.map((d) => d.type ?? ''))
          const missing = (reason?.requiredDocuments ?? []).filter((d) => !have.has(d))
          next = missing.length === 0 ? 'REQUESTED' : 'PENDING_DOCUMENTS'
        } else if (action === 'REJECT') next = 'REJECTED'
        else if (action === 'WITHDRAW') next = 'WITHDRAWN'
        else next = 'PROCESSED'
        if (action === 'APPROVE')
          await processIn(tx, ctx, { locked: locked! }, body, { id: row.id, number: row.request_number })
        await repo.updateRequest(tx, ctx.tenantId, row.id, {
          status: next,
          documents: JSON.stringify(documents),
          updated_at: now,
          version: row.version + 1,
          ...(action === 'SUBMIT_DOCUMENTS'
            ? {}
            : { decided_at: now, decided_by: actorLabel(ctx), decision_note: input.reason ?? null }),
        })
        await writeAudit(tx, ctx, now, {
          action: `cancel_request.${action.toLowerCase()}`,
          entityType: 'cancel_request',
          entityId: row.id,
          changes: { before: { status: row.status }, after: { status: next, reason: input.reason ?? null } },
        })
      })
      return this.getRequest(ctx, seen.id)
    },

    /** POST contracts/{id}/cancels: staff process a cancel directly. */
    async process(ctx: AuthenticatedContext, contractId: number, body: CancelBody) {
      requestNotes(body)
      return db.transaction(ctx.tenantId, (tx) => processIn(tx, ctx, { id: contractId }, body, null))
    },

    async getCancel(ctx: AuthenticatedContext, id: number) {
      await visibleCancel(ctx, id)
      return cancelReply(ctx.tenantId, id)
    },

    async listCancels(ctx: AuthenticatedContext, contractId: number, window: Window) {
      const contract = await contracts.readRow(ctx, contractId)
      return db.read(ctx.tenantId, async (x) => {
        const ids = await repo.listCancelIds(x, ctx.tenantId, contract.id, window)
        const total = await repo.countCancels(x, ctx.tenantId, contract.id)
        const items = []
        for (const id of ids) items.push(await cancelReply(ctx.tenantId, id, x))
        return { items, totalCount: total }
      })
    },

    /** POST cancels/{id} { action: REVERSE }: exactly once, while no payment is PAID. */
    async reverse(ctx: AuthenticatedContext, id: number, input: { action: 'REVERSE'; reason?: string | undefined }) {
      const { row: seen } = await visibleCancel(ctx, id)
      if (!input.reason) throw invalid([{ field: 'reason', code: 'required', message: 'a reversal needs its reason' }])
      if (input.reason.length > 2000)
        throw invalid([{ field: 'reason', code: 'too_long', message: 'at most 2000 characters' }])
      await db.transaction(ctx.tenantId, async (tx) => {
        const now = clock.now()
        const today = await contracts.today(ctx.tenantId)
        const locked = await servicing
          .lockForEvent(tx, ctx, seen.contract_id, 'REINSTATE', { effectiveDate: today })
          .catch((e: unknown) => {
            if ((e as { code?: string }).code === 'contract_state_conflict')
              throw cancellationErrors.create(
                'cancel_already_reversed',
                `cancel ${seen.cancel_number}: ${(e as Error).message}`,
              )
            throw e
          })
        const row = await repo.lockCancel(tx, ctx.tenantId, seen.id)
        if (row.reversed_at !== null)
          throw cancellationErrors.create(
            'cancel_already_reversed',
            `cancel ${row.cancel_number} was reversed at ${row.reversed_at.toISOString()}`,
          )
        const payments = await paymentsOfCancel(tx, ctx.tenantId, row.id)
        if (payments.some((p) => p.status === 'PAID'))
          throw cancellationErrors.create(
            'cancel_refund_paid',
            `cancel ${row.cancel_number} has a paid payment: it cannot be reversed`,
          )
        const original = await ledger.entry(ctx.tenantId, row.journal_entry_id!)
        if (!original) throw new Error(`cancel ${row.id}: entry ${row.journal_entry_id} not found`)
        const entry = await ledger.post(ctx, {
          kind: 'CANCEL_REVERSED',
          source: { type: 'CANCELLATION', id: row.id },
          effectiveDate: await ledger.postingDate(ctx.tenantId),
          memo: `cancel ${row.cancel_number} reversed`,
          lines: reversalLines(
            original.lines.map((l) => ({
              accountHolderId: l.accountHolderId,
              purpose: l.purpose,
              side: l.debit > 0 ? ('DEBIT' as const) : ('CREDIT' as const),
              amount: (l.debit > 0 ? l.debit : l.credit).toFixed(2),
              ...(l.memo ? { memo: l.memo } : {}),
              ...(l.contractId != null ? { contractId: l.contractId } : {}),
              ...(l.disbursementCode != null ? { disbursementCode: l.disbursementCode } : {}),
            })),
          ),
        })
        await servicing.applyTransition(tx, ctx, locked, {
          event: 'REINSTATE',
          effectiveDate: today,
          source: { type: 'CANCELLATION', id: row.id },
          details: { cancelId: row.id, reason: input.reason ?? null },
        })
        await repo.markCancelReversed(tx, ctx.tenantId, row.id, {
          reversed_at: now,
          reversed_by: actorLabel(ctx),
          reversal_reason: input.reason,
          reversal_entry_id: entry.entryId,
        })
        await repo.voidPayments(tx, ctx.tenantId, row.id, now)
        // The reinstated contract earns again: what fell due while it stood cancelled is posted now,
        // from the unearned balance the reversal restored (docs/earnings.md).
        const resync = deps.earnings ? await deps.earnings.syncWithin(tx, ctx, row.contract_id) : null
        await writeAudit(tx, ctx, now, {
          action: 'cancel.reversed',
          entityType: 'cancel',
          entityId: row.id,
          changes: {
            after: { reversalEntryId: entry.entryId, reason: input.reason, earningsEntryId: resync?.entryId ?? null },
          },
        })
        await appendEvent(tx, ctx.tenantId, now, {
          type: 'cancel.reversed',
          payload: { cancelId: row.id, contractId: row.contract_id, reversalEntryId: entry.entryId },
        })
      })
      return cancelReply(ctx.tenantId, seen.id)
    },

    /** A request's payments: its cancel's once processed, else the preview stored with it (no id). */
    async paymentsOfRequest(ctx: AuthenticatedContext, id: number) {
      const { row } = await visibleRequest(ctx, id)
      const cancelId = await cancelIdOfRequest(ctx.tenantId, row.id)
      if (cancelId !== null) return db.read(ctx.tenantId, (x) => paymentsOfCancel(x, ctx.tenantId, cancelId))
      const q = row.quote as unknown as Stored
      return q.payments.map((p) => ({ id: null, cancelId: null, contractId: row.contract_id, ...p }))
    },

    async paymentsOfCancel(ctx: AuthenticatedContext, id: number) {
      const { row } = await visibleCancel(ctx, id)
      return db.read(ctx.tenantId, (x) => paymentsOfCancel(x, ctx.tenantId, row.id))
    },

    async paymentsOfContract(ctx: AuthenticatedContext, contractId: number) {
      const contract = await contracts.readRow(ctx, contractId)
      return db.read(ctx.tenantId, async (x) =>
        (await repo.paymentsOfContract(x, ctx.tenantId, contract.id)).map(paymentView),
      )
    },

    contractIdOf: (ctx: AuthenticatedContext, identifier: string) => contracts.idOf(ctx, identifier),
  }
}

export type CancellationService = ReturnType<typeof createCancellationService>
export type CancelValue = JsonValue
