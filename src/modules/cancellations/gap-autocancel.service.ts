// GAP auto-cancel (docs/cancellations.md "GAP"): the GAP contracts due for cancellation, and the
// cancel of one with its GAP reason. A payoff, refinance, sale, repossession or total loss is reported
// as a cancel request whose reason ends GAP (by the lien holder, the dealer, the customer or staff);
// a matured loan is read from the deal's finance terms. The cancel itself is the cancel flow's: a
// reported ending is APPROVED (its request, its date, its documents), a matured loan is processed
// directly with the book's payoff reason on the maturity date.
import { isIsoDate } from '../../platform/calendar.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { cancellationErrors } from './cancellation.errors.ts'
import type { CancellationService, ContractReader, ContractTerms } from './cancellation.service.ts'
import * as repo from './gap-autocancel.repository.ts'
import type { GapDueRow } from './gap-autocancel.repository.ts'
import { gapTrigger, maturityReason, type GapTriggerChoice } from './gap-autocancel.rules.ts'

export type GapDueQuery = { asOf?: string | undefined; dealerId?: number | undefined }

export type GapAutoCancelDeps = {
  db: Database
  contracts: ContractReader
  cancellations: CancellationService
}

export function createGapAutoCancel({ db, contracts, cancellations }: GapAutoCancelDeps) {
  const notDue = (contractNumber: string, why: string) =>
    cancellationErrors.create('gap_cancel_not_due', `contract ${contractNumber}: ${why}`)

  /** asOf as asked, default today; never after today (nothing is cancelled ahead of its date). */
  async function asOfOf(tenantId: number, asOf: string | undefined): Promise<string> {
    const today = await contracts.today(tenantId)
    if (asOf === undefined) return today
    const errors: FieldError[] = []
    if (!isIsoDate(asOf)) errors.push({ field: 'asOf', code: 'invalid_format', message: 'must be a date YYYY-MM-DD' })
    else if (asOf > today)
      errors.push({ field: 'asOf', code: 'out_of_range', message: `must not be after today (${today})` })
    if (errors.length > 0)
      throw cancellationErrors.create('cancel_request_invalid', `Invalid as-of date: ${errors[0]!.message}`, {
        errors,
      })
    return asOf
  }

  const choiceOf = (row: GapDueRow, asOf: string): GapTriggerChoice | null =>
    gapTrigger({
      asOf,
      expirationDate: row.expiration_date,
      request:
        row.ends_gap !== null && row.request_date !== null
          ? { endsGap: row.ends_gap, cancelDate: row.request_date }
          : null,
      maturityDate: row.maturity_date,
    })

  /** The reason the contract would be cancelled with: the request's, else the book's payoff reason. */
  function reasonOf(row: GapDueRow, choice: GapTriggerChoice, terms: ContractTerms) {
    const r =
      choice.source === 'CANCEL_REQUEST'
        ? terms.cancelReasons.find((x) => x.id === row.reason_id)
        : maturityReason(terms.cancelReasons)
    return r ? { id: r.id, code: r.code, name: r.name } : null
  }

  async function itemOf(ctx: AuthenticatedContext, row: GapDueRow, asOf: string) {
    const choice = choiceOf(row, asOf)!
    // The snapshot read with the row; only a contract sold before snapshots needs its terms resolved.
    const terms =
      row.terms !== null
        ? (row.terms as ContractTerms)
        : await contracts.termsOf(ctx.tenantId, await contracts.readRow(ctx, row.id))
    const fromRequest = choice.source === 'CANCEL_REQUEST'
    return {
      contractId: row.id,
      contractNumber: row.contract_number,
      dealerId: row.dealer_id,
      status: row.status,
      saleDate: row.sale_date,
      effectiveDate: row.effective_date,
      expirationDate: row.expiration_date,
      trigger: choice.trigger,
      source: choice.source,
      cancelDate: choice.cancelDate,
      reason: reasonOf(row, choice, terms),
      cancelRequestId: fromRequest ? row.request_id : null,
      requestNumber: fromRequest ? row.request_number : null,
      loan:
        row.loan_term_months === null
          ? null
          : {
              termMonths: row.loan_term_months,
              firstPaymentDate: row.first_payment_date,
              maturityDate: row.maturity_date,
            },
    }
  }

  return {
    /** GET contracts/autocancelgap: the GAP contracts due as of `asOf` (default today), by contract id. */
    async due(ctx: AuthenticatedContext, query: GapDueQuery, window: Window) {
      const asOf = await asOfOf(ctx.tenantId, query.asOf)
      const selection: repo.GapDueSelection = {
        asOf,
        dealerId: query.dealerId ?? null,
        visible: ctx.principal.visibleAccountHolderIds,
        contractId: null,
      }
      const [rows, totalCount] = await db.read(ctx.tenantId, (x) =>
        Promise.all([
          repo.listGapDue(x, ctx.tenantId, selection, window),
          repo.countGapDue(x, ctx.tenantId, selection),
        ]),
      )
      const items = []
      for (const row of rows) items.push(await itemOf(ctx, row, asOf))
      return { items, totalCount }
    },

    /**
     * The ids of the GAP contracts due as of `asOf` after `afterId`, ascending, of every dealer: the
     * GAP_AUTO_CANCEL process's items (docs/processes.md); each is cancelled by `cancel`.
     */
    async dueIds(tenantId: number, asOf: string, afterId: number, limit: number): Promise<number[]> {
      const rows = await db.read(tenantId, (x) =>
        repo.listGapDue(
          x,
          tenantId,
          { asOf, dealerId: null, visible: null, contractId: null, afterId },
          { limit, offset: 0 },
        ),
      )
      return rows.map((r) => r.id)
    },

    /**
     * POST contracts/autocancelgap/{contractId}: cancels a due GAP contract with its GAP reason. A
     * reported ending: its request is approved (processed on its own date and facts). A matured loan:
     * a cancel requested by the administrator with the book's payoff reason, on the maturity date.
     */
    async cancel(
      ctx: AuthenticatedContext,
      contractId: number,
      body: { asOf?: string | undefined; notes?: string | undefined },
    ) {
      const contract = await contracts.readRow(ctx, contractId)
      const asOf = await asOfOf(ctx.tenantId, body.asOf)
      const terms = await contracts.termsOf(ctx.tenantId, contract)
      if (terms.product.type !== 'GAP')
        throw notDue(contract.contract_number, `a ${terms.product.type} contract is not GAP`)
      if (contract.status !== 'FINALIZED' && contract.status !== 'ACTIVE')
        throw notDue(contract.contract_number, `a ${contract.status} contract is not in force`)
      const [row] = await db.read(ctx.tenantId, (x) =>
        repo.listGapDue(
          x,
          ctx.tenantId,
          { asOf, dealerId: null, visible: ctx.principal.visibleAccountHolderIds, contractId: contract.id },
          { limit: 1, offset: 0 },
        ),
      )
      const choice = row ? choiceOf(row, asOf) : null
      if (!row || !choice)
        throw notDue(
          contract.contract_number,
          `nothing ends it as of ${asOf}: no reported payoff, refinance, sale, repossession or total loss waits for a decision, and its loan has not matured before ${contract.expiration_date}`,
        )
      if (choice.source === 'CANCEL_REQUEST') {
        const approved = await cancellations.act(ctx, row.request_id!, { action: 'APPROVE' })
        return cancellations.getCancel(ctx, approved.cancelId!)
      }
      const reason = maturityReason(terms.cancelReasons)
      if (!reason)
        throw notDue(
          contract.contract_number,
          `its rate book version ${terms.rateBookVersion} has no reason ending GAP by PAYOFF that the administrator may give`,
        )
      return cancellations.process(ctx, contract.id, {
        cancelDate: choice.cancelDate,
        cancelReasonId: reason.id,
        payoffDate: choice.cancelDate,
        requestedBy: 'ADMIN',
        notes: body.notes ?? `GAP auto-cancel: the loan matured on ${choice.cancelDate}`,
      })
    },
  }
}

export type GapAutoCancel = ReturnType<typeof createGapAutoCancel>
