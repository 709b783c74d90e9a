// Payout runs (docs/payouts.md; money.md "Postings"): pay what is due to payees out of their
// REFUND_PAYABLE and DISBURSEMENT_PAYABLE accounts and their open claim payment requests
// (CLAIM_PAYABLE). Per payee, one CASH_DISBURSED entry debits each payable paid (a line per contract,
// or per claim payment request), credits each payable netted (what the payee owes back) and credits
// CASH of the administrator company the net. The run, its payouts, their items, the entries, the
// ports' updates (cancel refunds PAID, claim payments recorded), audit and event commit in one
// transaction, under a per-tenant advisory lock so that two runs serialize and the second sees the
// first's entries.
import type { Transaction } from 'kysely'
import { advisoryLock } from '../../platform/db/advisory-lock.ts'
import { writeAudit } from '../../platform/audit.ts'
import { isIsoDate } from '../../platform/calendar.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database, Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { appendEvent } from '../../platform/events/outbox.ts'
import { actorLabel, type AuthenticatedContext, type RequestContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { centsToDecimal, centsToNumber, Decimal, toCents } from '../../platform/money.ts'
import type { LedgerService } from './ledger.service.ts'
import type { PaymentMethod } from './payment-method.rules.ts'
import type { PaymentMethodService } from './payment-method.service.ts'
import { payoutErrors } from './payout.errors.ts'
import * as repo from './payout.repository.ts'
import type { PayoutItemRow, PayoutRow, RunRow } from './payout.repository.ts'
import {
  BALANCE_PURPOSES,
  coveredRequests,
  dueCents,
  planPayouts,
  purposesOf,
  type PayableItem,
  type PayeePayout,
  type PayoutPurpose,
} from './payout.rules.ts'

export type PayoutRunBody = {
  asOf?: string | undefined
  purposes?: string[] | undefined
  payeeIds?: number[] | undefined
  dryRun?: boolean | undefined
}
export type PayoutRunQuery = {
  payeeId?: number | undefined
  asOfFrom?: string | undefined
  asOfTo?: string | undefined
}

/** What another module does when a run pays items of a purpose (e.g. cancellations: refunds PAID). */
export type PayablePort = {
  purpose: PayoutPurpose
  /** Called in the run's transaction with the items paid (positive amounts) of that purpose. */
  paid(tx: Transaction<DB>, tenantId: number, items: readonly { payeeId: number; contractId: number }[]): Promise<void>
}

/** An open payable a module itemizes by its own records: a claim payment request and what is left of it. */
export type OpenPayable = { payeeId: number; contractId: number; requestId: number; amountCents: number }

/** How a run paid a payee's itemized payables: its payout, entry, method and accounting date. */
export type PayoutPayment = { payoutId: number; entryId: number; method: PaymentMethod; paidOn: string }

/**
 * A module whose payables of a purpose are its own open records, not the account's balance (claims:
 * CLAIM_PAYABLE is paid per open payment request, and only those that may be paid now).
 */
export type ItemizedPayablePort = {
  purpose: 'CLAIM_PAYABLE'
  /** The open items due as of `asOf` (amount > 0), read only (a dry run). */
  due(
    x: Executor,
    ctx: AuthenticatedContext,
    q: { asOf: string; payeeIds: readonly number[] | undefined },
  ): Promise<OpenPayable[]>
  /** The same, locked in the run's transaction until it commits: nothing changes them meanwhile. */
  lockDue(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    q: { asOf: string; payeeIds: readonly number[] | undefined },
  ): Promise<OpenPayable[]>
  /** Records each item paid in full by the payee's payout, in the run's transaction. */
  paid(
    tx: Transaction<DB>,
    ctx: AuthenticatedContext,
    items: readonly OpenPayable[],
    payment: PayoutPayment,
  ): Promise<void>
}

export type PayoutDeps = {
  db: Database
  clock: Clock
  ledger: Pick<LedgerService, 'post' | 'postingDate'>
  paymentMethods: Pick<PaymentMethodService, 'resolveIn'>
  administratorId(tenantId: number): Promise<number>
}

const stored = (c: number) => centsToDecimal(c).toFixed(2)
const cents = (text: string) => toCents(new Decimal(text))
const ENTITY = 'payout_run'

function payoutView(p: PayoutRow, items: readonly PayoutItemRow[]) {
  const mine = items.filter((i) => Number(i.payout_id) === Number(p.id))
  return {
    id: Number(p.id),
    payeeId: Number(p.payee_id),
    paymentMethod: p.payment_method,
    disbursementAccountId: p.disbursement_account_id === null ? null : Number(p.disbursement_account_id),
    amount: centsToNumber(cents(p.amount)),
    entryId: p.entry_id === null ? null : Number(p.entry_id),
    items: mine.map((i) => ({
      purpose: i.purpose,
      contractId: Number(i.contract_id),
      paymentRequestId: i.payment_request_id === null ? null : Number(i.payment_request_id),
      amount: centsToNumber(cents(i.amount)),
    })),
  }
}

function runView(r: RunRow, payouts: ReturnType<typeof payoutView>[]) {
  return {
    id: Number(r.id),
    asOf: r.as_of,
    accountingDate: r.accounting_date,
    purposes: r.purposes.split(','),
    payeeIds: r.payee_ids === null ? null : r.payee_ids.split(',').map(Number),
    dryRun: false,
    payoutCount: r.payout_count,
    total: centsToNumber(cents(r.total)),
    payouts,
    createdAt: r.created_at.toISOString(),
    createdBy: r.created_by,
  }
}
export type PayoutRunView = ReturnType<typeof runView>

export function createPayoutService(deps: PayoutDeps) {
  const { db, clock, ledger, paymentMethods } = deps
  const ports: PayablePort[] = []
  let itemized: ItemizedPayablePort | undefined
  const visibleSet = (ctx: RequestContext) => ctx.principal?.visibleAccountHolderIds ?? null
  const invalid = (errors: FieldError[]) =>
    payoutErrors.create('payout_run_invalid', `Invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, {
      errors,
    })
  const notFound = (id: number) => payoutErrors.create('payout_run_not_found', `No payout run ${id}`)

  /** The body checked against the tenant: purposes, asOf (not after today's posting date), payees. */
  async function checked(x: Executor, ctx: RequestContext, body: PayoutRunBody, today: string) {
    const errors: FieldError[] = []
    const purposes = purposesOf(body.purposes)
    if (purposes === null)
      errors.push({
        field: 'purposes',
        code: 'invalid_value',
        message: 'must be a non-empty subset of REFUND_PAYABLE, DISBURSEMENT_PAYABLE, CLAIM_PAYABLE',
      })
    const asOf = body.asOf ?? today
    if (!isIsoDate(asOf)) errors.push({ field: 'asOf', code: 'invalid_format', message: 'must be a date YYYY-MM-DD' })
    else if (asOf > today)
      errors.push({ field: 'asOf', code: 'invalid_value', message: `must be on or before the posting date ${today}` })
    let payeeIds: number[] | undefined
    if (body.payeeIds !== undefined) {
      payeeIds = [...new Set(body.payeeIds)]
      const visible = visibleSet(ctx)
      const known = await repo.existingHolders(x, ctx.tenantId, payeeIds)
      body.payeeIds.forEach((id, i) => {
        if (!known.has(id) || (visible !== null && !visible.has(id)))
          errors.push({
            field: `payeeIds[${i}]`,
            code: 'unknown_reference',
            message: `account holder ${id} does not exist`,
          })
      })
    }
    if (errors.length > 0 || purposes === null) throw invalid(errors)
    return { purposes, asOf, payeeIds }
  }

  /**
   * The plan of a run: what each payee is due, netted, with its method. Balance purposes are read from
   * the journal; CLAIM_PAYABLE items are the claims port's open requests (locked when `tx` is the
   * run's), each due while the payee's CLAIM_PAYABLE balance of the contract covers it.
   */
  async function plan(
    x: Executor,
    ctx: AuthenticatedContext,
    purposes: PayoutPurpose[],
    asOf: string,
    payeeIds: number[] | undefined,
    tx?: Transaction<DB>,
  ) {
    const tenantId = ctx.tenantId
    const byBalance = purposes.filter((p) => BALANCE_PURPOSES.includes(p))
    const balances = byBalance.length === 0 ? [] : await repo.payableBalances(x, tenantId, byBalance, asOf, payeeIds)
    const items: PayableItem[] = balances.map((b) => ({
      payeeId: b.payeeId,
      purpose: b.purpose,
      contractId: b.contractId,
      balanceCents: dueCents(cents(b.asOf), cents(b.now)),
    }))
    if (purposes.includes('CLAIM_PAYABLE') && itemized !== undefined) {
      const q = { asOf, payeeIds }
      const open = tx === undefined ? await itemized.due(x, ctx, q) : await itemized.lockDue(tx, ctx, q)
      const payees = [...new Set(open.map((o) => o.payeeId))]
      const owed = new Map(
        (payees.length === 0 ? [] : await repo.payableBalances(x, tenantId, ['CLAIM_PAYABLE'], asOf, payees)).map(
          (b) => [`${b.payeeId}:${b.contractId}`, dueCents(cents(b.asOf), cents(b.now))],
        ),
      )
      for (const r of coveredRequests(open, (p, c) => owed.get(`${p}:${c}`) ?? 0))
        items.push({
          payeeId: r.payeeId,
          purpose: 'CLAIM_PAYABLE',
          contractId: r.contractId,
          balanceCents: r.amountCents,
          paymentRequestId: r.requestId,
        })
    }
    const p = planPayouts(items)
    const withMethods = []
    for (const payout of p.payouts)
      withMethods.push({ payout, method: await paymentMethods.resolveIn(x, tenantId, payout.payeeId, 'PAY') })
    return { payouts: withMethods, skipped: p.skipped }
  }

  const planned = (payout: PayeePayout, method: { paymentMethod: string; disbursementAccountId?: number }) => ({
    id: null,
    payeeId: payout.payeeId,
    paymentMethod: method.paymentMethod,
    disbursementAccountId: method.disbursementAccountId ?? null,
    amount: centsToNumber(payout.netCents),
    entryId: null,
    items: [...payout.paid, ...payout.netted].map((i) => ({
      purpose: i.purpose,
      contractId: i.contractId,
      paymentRequestId: i.paymentRequestId ?? null,
      amount: centsToNumber(i.balanceCents),
    })),
  })

  return {
    /** Called by src/modules.ts for each module that settles its own records when its payables are paid. */
    registerPayablePort(port: PayablePort) {
      ports.push(port)
    },

    /** Called by src/modules.ts for the claims module: CLAIM_PAYABLE is paid per open payment request. */
    registerItemizedPort(port: ItemizedPayablePort) {
      itemized = port
    },

    async run(ctx: AuthenticatedContext, body: PayoutRunBody) {
      const tenantId = ctx.tenantId
      const today = await ledger.postingDate(tenantId)
      if (body.dryRun === true)
        return db.read(tenantId, async (x) => {
          const { purposes, asOf, payeeIds } = await checked(x, ctx, body, today)
          const p = await plan(x, ctx, purposes, asOf, payeeIds)
          const payouts = p.payouts.map((w) => planned(w.payout, w.method))
          return {
            id: null,
            asOf,
            accountingDate: today,
            purposes,
            payeeIds: payeeIds ?? null,
            dryRun: true,
            payoutCount: payouts.length,
            total: centsToNumber(p.payouts.reduce((s, w) => s + w.payout.netCents, 0)),
            payouts,
            skipped: p.skipped.map((s) => ({ payeeId: s.payeeId, net: centsToNumber(s.netCents) })),
            createdAt: clock.now().toISOString(),
            createdBy: actorLabel(ctx),
          }
        })
      return db.transaction(tenantId, async (tx) => {
        // Serializes runs of the tenant: the second reads the first's entries and pays 0 for them.
        await advisoryLock(tx, 'payout_run', [tenantId])
        const { purposes, asOf, payeeIds } = await checked(tx, ctx, body, today)
        const p = await plan(tx, ctx, purposes, asOf, payeeIds, tx)
        const now = clock.now()
        const total = p.payouts.reduce((s, w) => s + w.payout.netCents, 0)
        const run = await repo.insertRun(tx, tenantId, {
          as_of: asOf,
          accounting_date: today,
          purposes: purposes.join(','),
          payee_ids: payeeIds === undefined ? null : payeeIds.join(','),
          payout_count: p.payouts.length,
          total: stored(total),
          created_at: now,
          created_by: actorLabel(ctx),
        })
        const admin = p.payouts.length === 0 ? 0 : await deps.administratorId(tenantId)
        for (const { payout, method } of p.payouts) {
          const row = await repo.insertPayout(tx, tenantId, {
            run_id: Number(run.id),
            payee_id: payout.payeeId,
            payment_method: method.paymentMethod,
            disbursement_account_id: method.disbursementAccountId ?? null,
            amount: stored(payout.netCents),
            entry_id: null,
          })
          // Throws ledger_period_closed (409) when today is in the closed period: nothing commits.
          const entry = await ledger.post(ctx, {
            kind: 'CASH_DISBURSED',
            source: { type: 'CASH', id: Number(row.id) },
            effectiveDate: today,
            memo: `payout ${row.id} of run ${run.id}: ${method.paymentMethod}`,
            lines: [
              ...payout.paid.map((i) => ({
                accountHolderId: payout.payeeId,
                purpose: i.purpose,
                side: 'DEBIT' as const,
                amount: stored(i.balanceCents),
                ...(i.contractId === 0 ? {} : { contractId: i.contractId }),
              })),
              ...payout.netted.map((i) => ({
                accountHolderId: payout.payeeId,
                purpose: i.purpose,
                side: 'CREDIT' as const,
                amount: stored(-i.balanceCents),
                ...(i.contractId === 0 ? {} : { contractId: i.contractId }),
              })),
              { accountHolderId: admin, purpose: 'CASH', side: 'CREDIT', amount: stored(payout.netCents) },
            ],
          })
          await tx
            .updateTable('payout')
            .set({ entry_id: entry.entryId })
            .where('tenant_id', '=', tenantId)
            .where('id', '=', Number(row.id))
            .execute()
          await repo.insertItems(
            tx,
            tenantId,
            [...payout.paid, ...payout.netted].map((i) => ({
              payout_id: Number(row.id),
              purpose: i.purpose,
              contract_id: i.contractId,
              payment_request_id: i.paymentRequestId ?? null,
              amount: stored(i.balanceCents),
            })),
          )
          for (const port of ports) {
            const mine = payout.paid.filter((i) => i.purpose === port.purpose && i.contractId !== 0)
            if (mine.length > 0)
              await port.paid(
                tx,
                tenantId,
                mine.map((i) => ({ payeeId: i.payeeId, contractId: i.contractId })),
              )
          }
          const claims = payout.paid.filter((i) => i.paymentRequestId !== undefined)
          if (itemized !== undefined && claims.length > 0)
            await itemized.paid(
              tx,
              ctx,
              claims.map((i) => ({
                payeeId: i.payeeId,
                contractId: i.contractId,
                requestId: i.paymentRequestId!,
                amountCents: i.balanceCents,
              })),
              { payoutId: Number(row.id), entryId: entry.entryId, method: method.paymentMethod, paidOn: today },
            )
        }
        await writeAudit(tx, ctx, now, {
          action: 'payout_run.completed',
          entityType: ENTITY,
          entityId: Number(run.id),
          changes: { after: { asOf, purposes, payouts: p.payouts.length, total: stored(total) } },
        })
        await appendEvent(tx, tenantId, now, {
          type: 'payout.run.completed',
          payload: {
            payoutRunId: Number(run.id),
            asOf,
            payouts: p.payouts.length,
            total: stored(total),
            payeeIds: p.payouts.slice(0, 100).map((w) => w.payout.payeeId),
          },
        })
        const { payouts, items } = await repo.payoutsOf(tx, tenantId, [Number(run.id)])
        return {
          ...runView(
            run,
            payouts.map((x) => payoutView(x, items)),
          ),
          skipped: p.skipped.map((s) => ({ payeeId: s.payeeId, net: centsToNumber(s.netCents) })),
        }
      })
    },

    async list(ctx: RequestContext, query: PayoutRunQuery, window: Window) {
      return db.read(ctx.tenantId, async (x) => {
        const visible = visibleSet(ctx)
        const { rows, totalCount } = await repo.listRuns(
          x,
          ctx.tenantId,
          { visible, payeeId: query.payeeId, from: query.asOfFrom, to: query.asOfTo },
          window,
        )
        const { payouts, items } = await repo.payoutsOf(
          x,
          ctx.tenantId,
          rows.map((r) => Number(r.id)),
        )
        const seen = payouts.filter((p) => visible === null || visible.has(Number(p.payee_id)))
        return {
          items: rows.map((r) =>
            runView(
              r,
              seen.filter((p) => Number(p.run_id) === Number(r.id)).map((p) => payoutView(p, items)),
            ),
          ),
          totalCount,
        }
      })
    },

    async get(ctx: RequestContext, id: number) {
      // An id past bigint is no run (and not a database error).
      if (!isStorableId(id)) throw notFound(id)
      return db.read(ctx.tenantId, async (x) => {
        const run = await repo.getRun(x, ctx.tenantId, id)
        if (run === undefined) throw notFound(id)
        const visible = visibleSet(ctx)
        const { payouts, items } = await repo.payoutsOf(x, ctx.tenantId, [id])
        const seen = payouts.filter((p) => visible === null || visible.has(Number(p.payee_id)))
        // A dealer-side user sees a run only through its own payees' payouts.
        if (visible !== null && seen.length === 0) throw notFound(id)
        return runView(
          run,
          seen.map((p) => payoutView(p, items)),
        )
      })
    },
  }
}

export type PayoutService = ReturnType<typeof createPayoutService>
