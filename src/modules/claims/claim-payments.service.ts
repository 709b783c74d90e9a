// A claim's payment requests and payments (docs/claims.md "Payment requests and payments";
// money.md "Postings"). The payment request is where the money is committed: the payee's invoice is
// matched to the authorization, the amount is the lesser of the payable and the invoice, and one
// balanced entry (CLAIM_APPROVED) posts the claim expense to the risk bearer and the claim payable to
// the payee. A payment on the request (CLAIM_PAID) moves money out of cash; a payout run pays open
// requests through `payoutPort` (its own CASH_DISBURSED entry), recording each payment as `pay` does
// (`record`). Withdrawing a request before any payment reverses its entry.
import { auditActor, writeAudit } from '../../platform/audit.ts'
import { isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { ClaimPaymentMethodColumn, ClaimPayeeTypeColumn } from '../../platform/db/schema.claims.ts'
import type { DB } from '../../platform/db/schema.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { centsToDecimal, centsToNumber, Decimal, decimalProblem, toCents } from '../../platform/money.ts'
import type { ItemizedPayablePort, LedgerService, OpenPayable } from '../finance/index.ts'
import type { Transaction } from 'kysely'
import { claimErrors } from './claim.errors.ts'
import { transition } from './claim.rules.ts'
import * as repo from './claim.repository.ts'
import type { ClaimRow } from './claim.repository.ts'
import { authorizationOf } from './claim.service.ts'
import * as payRepo from './claim-payments.repository.ts'
import type { PaymentRequestRow, PaymentRow } from './claim-payments.repository.ts'

export type PaymentRequestBody = { invoiceNumber: string; invoiceDate: string; invoicedTotal: number | string }
export type PaymentBody = {
  method: ClaimPaymentMethodColumn
  amount: number | string
  paidAt: string
  reference?: string | null | undefined
}

/** What of a contract the payment request reads: who bears the risk (its reserve line's payee). */
export type ClaimContractForPayment = {
  id: number
  contract_number: string
  pricing: { lines: ReadonlyArray<{ group: string; payeeAccountHolderId: number }> }
}

export type ClaimPaymentsDeps = {
  db: Database
  clock: Clock
  ledger: Pick<LedgerService, 'post' | 'reverse' | 'postingDate'>
  contracts: {
    readRow(ctx: AuthenticatedContext, id: number): Promise<ClaimContractForPayment>
    today(tenantId: number): Promise<string>
  }
  /** The administrator company (the cash account's holder, and the risk bearer of a contract without a reserve line). */
  administratorId(tenantId: number): Promise<number>
  /** The claim's checks every change makes: visible (404), not locked by another user (423). */
  lockedClaim(tx: Transaction<DB>, ctx: AuthenticatedContext, claimId: number): Promise<ClaimRow>
}

const cents = (text: string) => toCents(new Decimal(text))
const stored = (c: number) => centsToDecimal(c).toFixed(2)
const MAX_AMOUNT = new Decimal('999999999.99')

export function paymentRequestView(r: PaymentRequestRow, payments: readonly PaymentRow[]) {
  return {
    id: Number(r.id),
    claimId: Number(r.claim_id),
    status: r.status,
    invoiceNumber: r.invoice_number,
    invoiceDate: r.invoice_date,
    invoicedTotal: Number(r.invoiced_total),
    amount: Number(r.amount),
    paidTotal: Number(r.paid_total),
    payee: { type: r.payee_type, accountHolderId: Number(r.payee_account_holder_id) },
    riskBearerId: Number(r.risk_bearer_id),
    journalEntryId: Number(r.journal_entry_id),
    releaseEntryId: r.release_entry_id === null ? null : Number(r.release_entry_id),
    payments: payments.filter((p) => Number(p.payment_request_id) === Number(r.id)).map(paymentView),
    createdAt: r.created_at.toISOString(),
    createdBy: r.created_by,
  }
}

export function paymentView(p: PaymentRow) {
  return {
    id: Number(p.id),
    paymentRequestId: Number(p.payment_request_id),
    method: p.method,
    amount: Number(p.amount),
    paidAt: p.paid_on,
    reference: p.reference,
    journalEntryId: Number(p.journal_entry_id),
    createdAt: p.created_at.toISOString(),
    createdBy: p.created_by,
  }
}

export function createClaimPayments(deps: ClaimPaymentsDeps) {
  const { db, clock, ledger, contracts } = deps

  const invalid = (errors: FieldError[]) =>
    claimErrors.create('claim_payment_invalid', `Invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, {
      errors,
    })

  function amountOf(field: string, value: number | string, errors: FieldError[], min: Decimal): number | null {
    const p = decimalProblem(value, { places: 2, min, max: MAX_AMOUNT })
    if (p) {
      errors.push({ field, code: p.code, message: p.message })
      return null
    }
    return toCents(new Decimal(value))
  }

  /** A date not after today nor before `notBefore` (the loss for an invoice, the invoice for a payment). */
  function dateOf(
    field: string,
    value: string,
    today: string,
    errors: FieldError[],
    notBefore: { date: string; code: string; what: string },
  ) {
    if (!isIsoDate(value)) errors.push({ field, code: 'invalid_format', message: 'must be a date YYYY-MM-DD' })
    else if (value > today) errors.push({ field, code: 'in_future', message: `${value} is after today (${today})` })
    else if (value < notBefore.date)
      errors.push({
        field,
        code: notBefore.code,
        message: `${value} is before the ${notBefore.what} ${notBefore.date}`,
      })
  }

  async function openHolds(tx: Transaction<DB>, tenantId: number, claimId: number) {
    return repo.openHoldCount(tx, tenantId, claimId)
  }

  /** RECORD_PAYMENT of `amount` on the claim's open request, checked by the state machine (throws its refusal). */
  async function paymentStep(
    tx: Transaction<DB>,
    claim: ClaimRow,
    request: PaymentRequestRow,
    amount: number,
    today: string,
  ): Promise<{ to: ClaimRow['status'] }> {
    const step = transition(claim.status, 'RECORD_PAYMENT', {
      openHolds: await openHolds(tx, claim.tenant_id, Number(claim.id)),
      today,
      authorization: null,
      hasAuthorizedLines: true,
      hasDeniedReason: false,
      payableCents: cents(request.amount),
      paidCents: cents(request.paid_total),
      paymentCents: amount,
    })
    if (!step.ok) throw claimErrors.create(step.code, `claim ${claim.claim_number}: ${step.message}`)
    return step
  }

  /**
   * Records a payment whose CLAIM_PAID or CASH_DISBURSED entry is posted: the payment row, the request
   * and the claim paid (PAID or PARTIALLY_PAID as `step` says), audited `claim.paid`, event `claim.paid`.
   * The one way a payment is recorded: by the payments route (`pay`) and by payout runs (`payoutPort`).
   */
  async function record(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    claim: ClaimRow,
    request: PaymentRequestRow,
    step: { to: ClaimRow['status'] },
    p: {
      method: ClaimPaymentMethodColumn
      amountCents: number
      paidOn: string
      reference: string | null
      entryId: number
      payoutId?: number
    },
  ) {
    const tenantId = ctx.tenantId
    const claimId = Number(claim.id)
    const requestId = Number(request.id)
    const amount = p.amountCents
    const now = clock.now()
    const payment = await payRepo.insertPayment(tx, tenantId, {
      claim_id: claimId,
      payment_request_id: requestId,
      method: p.method,
      amount: stored(amount),
      paid_on: p.paidOn,
      reference: p.reference,
      journal_entry_id: p.entryId,
      created_at: now,
      created_by: actorLabel(ctx),
    })
    await payRepo.updatePaymentRequest(tx, tenantId, requestId, {
      status: step.to === 'PAID' ? 'PAID' : 'PARTIALLY_PAID',
      paid_total: stored(cents(request.paid_total) + amount),
      updated_at: now,
    })
    const claimPaid = cents(claim.paid_total) + amount
    const after = await repo.updateClaim(tx, tenantId, claimId, {
      status: step.to,
      paid_total: stored(claimPaid),
      updated_at: now,
      updated_by: actorLabel(ctx),
    })
    await writeAudit(tx, ctx, now, {
      action: 'claim.paid',
      entityType: 'claim',
      entityId: claimId,
      changes: {
        before: { status: claim.status, paid: claim.paid_total },
        after: {
          status: after.status,
          paid: after.paid_total,
          paymentId: Number(payment.id),
          paymentRequestId: requestId,
          amount: stored(amount),
          method: p.method,
          entryId: p.entryId,
          ...(p.payoutId === undefined ? {} : { payoutId: p.payoutId }),
        },
      },
    })
    await appendEvent(tx, tenantId, now, {
      type: 'claim.paid',
      payload: {
        claimId,
        claimNumber: claim.claim_number,
        contractId: Number(claim.contract_id),
        dealerId: Number(claim.dealer_id),
        paymentRequestId: requestId,
        paymentId: Number(payment.id),
        amount: stored(amount),
        paidTotal: after.paid_total,
        status: after.status,
        payeeAccountHolderId: Number(request.payee_account_holder_id),
      },
    })
    return { payment, after, claimPaid }
  }

  /** The due requests as the payout run's items. */
  const openPayables = (rows: readonly payRepo.DueRequestRow[]): OpenPayable[] =>
    rows.map((r) => ({
      payeeId: Number(r.payee_account_holder_id),
      contractId: Number(r.contract_id),
      requestId: Number(r.id),
      amountCents: cents(r.amount) - cents(r.paid_total),
    }))

  /**
   * What payout runs call (docs/payouts.md "Claim payables"): the open requests that may be paid now,
   * and, once the run has posted the payee's CASH_DISBURSED entry, each request paid in full through
   * `record`, as a payment by the payout's method dated the run's accounting date.
   */
  const payoutPort: ItemizedPayablePort = {
    purpose: 'CLAIM_PAYABLE',
    async due(x, ctx, q) {
      const rows = await payRepo.dueRequests(x, ctx.tenantId, {
        asOf: q.asOf,
        payeeIds: q.payeeIds,
        userId: ctx.principal.userId,
        now: clock.now(),
      })
      return openPayables(rows)
    },
    async lockDue(tx, ctx, q) {
      const tenantId = ctx.tenantId
      const query = { asOf: q.asOf, payeeIds: q.payeeIds, userId: ctx.principal.userId, now: clock.now() }
      const first = await payRepo.dueRequests(tx, tenantId, query)
      // Claims locked in id order (as every change locks a claim before its request), then read
      // again: what changed meanwhile is seen, and nothing changes under the run until it commits.
      const claimIds = [...new Set(first.map((r) => Number(r.claim_id)))].toSorted((a, b) => a - b)
      for (const id of claimIds) await repo.lockClaim(tx, tenantId, id)
      return openPayables(await payRepo.dueRequests(tx, tenantId, { ...query, claimIds }))
    },
    async paid(tx, ctx, items, payment) {
      const tenantId = ctx.tenantId
      for (const item of items) {
        const claimId = await payRepo.claimOfRequest(tx, tenantId, item.requestId)
        const claim = claimId === undefined ? undefined : await repo.lockClaim(tx, tenantId, claimId)
        const request =
          claim === undefined ? undefined : await payRepo.lockPaymentRequest(tx, tenantId, claim.id, item.requestId)
        // The run locked these claims (lockDue): a request gone or changed is a conflict, nothing commits.
        const rest = request === undefined ? 0 : cents(request.amount) - cents(request.paid_total)
        if (
          claim === undefined ||
          request === undefined ||
          (request.status !== 'REQUESTED' && request.status !== 'PARTIALLY_PAID') ||
          rest !== item.amountCents
        )
          throw claimErrors.create(
            'claim_state_conflict',
            `payment request ${item.requestId} changed during the payout run (${request?.status ?? 'gone'}, ${stored(rest)} left)`,
          )
        const step = await paymentStep(tx, claim, request, item.amountCents, payment.paidOn)
        await record(tx, ctx, claim, request, step, {
          method: payment.method,
          amountCents: item.amountCents,
          paidOn: payment.paidOn,
          reference: `payout ${payment.payoutId}`,
          entryId: payment.entryId,
          payoutId: payment.payoutId,
        })
      }
    },
  }

  return {
    /**
     * POST /claims/{id}/paymentrequests: the payee's invoice against the authorization. The claim must
     * be AUTHORIZED, off hold, its authorization valid and something payable; the amount is the lesser
     * of the payable and the invoiced total. Posts CLAIM_APPROVED; the claim goes PENDING_PAYMENT.
     */
    async request(ctx: AuthenticatedContext, claimId: number, body: PaymentRequestBody) {
      const tenantId = ctx.tenantId
      const today = await contracts.today(tenantId)
      return db.transaction(tenantId, async (tx) => {
        const claim = await deps.lockedClaim(tx, ctx, claimId)
        const errors: FieldError[] = []
        const invoiced = amountOf('invoicedTotal', body.invoicedTotal, errors, new Decimal(0))
        dateOf('invoiceDate', body.invoiceDate, today, errors, {
          date: claim.loss_date,
          code: 'before_loss_date',
          what: 'loss date',
        })
        if (errors.length > 0 || invoiced === null) throw invalid(errors)
        const payable = cents(claim.payable_total)
        const amount = Math.min(payable, invoiced)
        const step = transition(claim.status, 'REQUEST_PAYMENT', {
          openHolds: await openHolds(tx, tenantId, claimId),
          today,
          // The stored expiry read with a validity of 0: expired from that day on (claim.rules.ts).
          authorization: authorizationOf(claim, 0),
          hasAuthorizedLines: true,
          hasDeniedReason: false,
          payableCents: amount,
          paidCents: cents(claim.paid_total),
        })
        if (!step.ok) throw claimErrors.create(step.code, `claim ${claim.claim_number}: ${step.message}`)
        const contract = await contracts.readRow(ctx, claim.contract_id)
        const payeeType: ClaimPayeeTypeColumn = claim.payee_type ?? 'REPAIR_FACILITY'
        const payeeId = Number(claim.payee_account_holder_id ?? claim.repair_facility_id)
        const reserve = contract.pricing.lines.find((l) => l.group === 'RESERVE')
        const riskBearerId = reserve?.payeeAccountHolderId ?? (await deps.administratorId(tenantId))
        const now = clock.now()
        const entry = await ledger.post(ctx, {
          kind: 'CLAIM_APPROVED',
          source: { type: 'CLAIM', id: claimId },
          effectiveDate: await ledger.postingDate(tenantId),
          memo: `claim ${claim.claim_number}: invoice ${body.invoiceNumber}`,
          lines: [
            {
              accountHolderId: riskBearerId,
              purpose: 'CLAIM_EXPENSE',
              side: 'DEBIT',
              amount: stored(amount),
              contractId: contract.id,
            },
            {
              accountHolderId: payeeId,
              purpose: 'CLAIM_PAYABLE',
              side: 'CREDIT',
              amount: stored(amount),
              contractId: contract.id,
            },
          ],
        })
        // The request, the claim's status and payee, and the audit row: one statement.
        const request = await payRepo.insertRequestedPayment(
          tx,
          tenantId,
          claimId,
          {
            contract_id: contract.id,
            status: 'REQUESTED',
            invoice_number: body.invoiceNumber,
            invoice_date: body.invoiceDate,
            invoiced_total: stored(invoiced),
            amount: stored(amount),
            payee_type: payeeType,
            payee_account_holder_id: payeeId,
            risk_bearer_id: riskBearerId,
            journal_entry_id: entry.entryId,
            created_at: now,
            created_by: actorLabel(ctx),
            updated_at: now,
          },
          { status: step.to, payee_type: payeeType, payee_account_holder_id: payeeId, updated_by: actorLabel(ctx) },
          {
            ...auditActor(ctx),
            // paymentRequestId is added by the statement.
            changes: JSON.stringify({
              before: { status: claim.status },
              after: {
                status: step.to,
                invoiceNumber: body.invoiceNumber,
                invoicedTotal: stored(invoiced),
                amount: stored(amount),
                payeeAccountHolderId: payeeId,
                riskBearerId,
                entryId: entry.entryId,
              },
            }),
          },
        )
        return paymentRequestView(request, [])
      })
    },

    /**
     * POST /claims/{id}/paymentrequests/{requestId}/payments: money paid on the open request, at most
     * what is left of it. Posts CLAIM_PAID; the claim is PAID when the request is, else PARTIALLY_PAID.
     */
    async pay(ctx: AuthenticatedContext, claimId: number, requestId: number, body: PaymentBody) {
      const tenantId = ctx.tenantId
      const today = await contracts.today(tenantId)
      return db.transaction(tenantId, async (tx) => {
        const claim = await deps.lockedClaim(tx, ctx, claimId)
        const request = await payRepo.lockPaymentRequest(tx, tenantId, claimId, requestId)
        if (!request)
          throw claimErrors.create(
            'claim_payment_request_not_found',
            `claim ${claim.claim_number} has no payment request ${requestId}`,
          )
        if (request.status !== 'REQUESTED' && request.status !== 'PARTIALLY_PAID')
          throw claimErrors.create(
            'claim_state_conflict',
            `payment request ${requestId} is ${request.status}: it takes no payment`,
          )
        const errors: FieldError[] = []
        const amount = amountOf('amount', body.amount, errors, new Decimal('0.01'))
        dateOf('paidAt', body.paidAt, today, errors, {
          date: request.invoice_date,
          code: 'before_invoice_date',
          what: 'invoice date',
        })
        if (errors.length > 0 || amount === null) throw invalid(errors)
        const step = await paymentStep(tx, claim, request, amount, today)
        const entry = await ledger.post(ctx, {
          kind: 'CLAIM_PAID',
          source: { type: 'CLAIM', id: claimId },
          effectiveDate: await ledger.postingDate(tenantId),
          memo: `claim ${claim.claim_number}: ${body.method} ${body.reference ?? ''}`.trim(),
          lines: [
            {
              accountHolderId: Number(request.payee_account_holder_id),
              purpose: 'CLAIM_PAYABLE',
              side: 'DEBIT',
              amount: stored(amount),
              contractId: Number(request.contract_id),
            },
            {
              accountHolderId: await deps.administratorId(tenantId),
              purpose: 'CASH',
              side: 'CREDIT',
              amount: stored(amount),
              contractId: Number(request.contract_id),
            },
          ],
        })
        const { payment, after, claimPaid } = await record(tx, ctx, claim, request, step, {
          method: body.method,
          amountCents: amount,
          paidOn: body.paidAt,
          reference: body.reference ?? null,
          entryId: entry.entryId,
        })
        return { ...paymentView(payment), claimStatus: after.status, claimPaidTotal: centsToNumber(claimPaid) }
      })
    },

    /**
     * Withdraws the claim's open request (a PATCH taking a PENDING_PAYMENT claim back to AUTHORIZED;
     * the state machine has checked that nothing was paid): its entry reversed, the row WITHDRAWN.
     */
    async withdrawOpenRequest(tx: Transaction<DB>, ctx: AuthenticatedContext, claim: ClaimRow) {
      const open = await payRepo.openPaymentRequest(tx, ctx.tenantId, claim.id)
      if (!open) return
      if (cents(open.paid_total) > 0)
        throw claimErrors.create('claim_has_payments', `payment request ${open.id} has payments; it stays`)
      const reversal = await ledger.reverse(ctx, Number(open.journal_entry_id), {
        effectiveDate: await ledger.postingDate(ctx.tenantId),
        memo: `claim ${claim.claim_number}: payment request ${open.id} withdrawn`,
      })
      await payRepo.updatePaymentRequest(tx, ctx.tenantId, Number(open.id), {
        status: 'WITHDRAWN',
        release_entry_id: reversal.entryId,
        updated_at: clock.now(),
      })
    },

    /**
     * Releases the unpaid rest of the claim's open request (a PARTIALLY_PAID claim closed: the rest
     * written off): one entry CLAIM_RELEASED, Dr the payee's claim payable and Cr the risk bearer's
     * claim expense by the rest, so that the books keep only what was paid; the request CLOSED.
     */
    async closeOpenRequest(tx: Transaction<DB>, ctx: AuthenticatedContext, claim: ClaimRow) {
      const open = await payRepo.openPaymentRequest(tx, ctx.tenantId, claim.id)
      if (!open) return
      const rest = cents(open.amount) - cents(open.paid_total)
      const entry = await ledger.post(ctx, {
        kind: 'CLAIM_RELEASED',
        source: { type: 'CLAIM', id: claim.id },
        effectiveDate: await ledger.postingDate(ctx.tenantId),
        memo: `claim ${claim.claim_number} closed: the unpaid rest of payment request ${open.id} released`,
        lines: [
          {
            accountHolderId: Number(open.payee_account_holder_id),
            purpose: 'CLAIM_PAYABLE',
            side: 'DEBIT',
            amount: stored(rest),
            contractId: Number(open.contract_id),
          },
          {
            accountHolderId: Number(open.risk_bearer_id),
            purpose: 'CLAIM_EXPENSE',
            side: 'CREDIT',
            amount: stored(rest),
            contractId: Number(open.contract_id),
          },
        ],
      })
      await payRepo.updatePaymentRequest(tx, ctx.tenantId, Number(open.id), {
        status: 'CLOSED',
        release_entry_id: entry.entryId,
        updated_at: clock.now(),
      })
    },

    /** The port payout runs pay claim payables through (src/modules.ts registers it with finance). */
    payoutPort,

    /** The claim's payment requests with their payments, for the claim's view. */
    async of(tenantId: number, claimId: number) {
      const { requests, payments } = await db.read(tenantId, (x) => payRepo.paymentRequestsOf(x, tenantId, claimId))
      return requests.map((r) => paymentRequestView(r, payments))
    },
  }
}

export type ClaimPayments = ReturnType<typeof createClaimPayments>
