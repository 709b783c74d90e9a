// Payout runs (docs/payouts.md; money.md "Postings"): pay what is due to payees out of their
// REFUND_PAYABLE and DISBURSEMENT_PAYABLE accounts. Per payee, one CASH_DISBURSED entry debits each
// payable paid (a line per contract), credits each payable netted (what the payee owes back) and
// credits CASH of the administrator company the net. The run, its payouts, their items, the entries,
// the ports' updates (cancel refunds PAID), audit and event commit in one transaction, under a
// per-tenant advisory lock so that two runs serialize and the second sees the first's entries.
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
import type { PaymentMethodService } from './payment-method.service.ts'
import { payoutErrors } from './payout.errors.ts'
import * as repo from './payout.repository.ts'
import type { PayoutItemRow, PayoutRow, RunRow } from './payout.repository.ts'
import { dueCents, planPayouts, purposesOf, type PayeePayout, type PayoutPurpose } from './payout.rules.ts'

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
        message: 'must be a non-empty subset of REFUND_PAYABLE, DISBURSEMENT_PAYABLE',
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

  /** The plan of a run: what each payee is due, netted, with its method. Reads only. */
  async function plan(x: Executor, tenantId: number, purposes: PayoutPurpose[], asOf: string, payeeIds?: number[]) {
    const balances = await repo.payableBalances(x, tenantId, purposes, asOf, payeeIds)
    const items = balances.map((b) => ({
      payeeId: b.payeeId,
      purpose: b.purpose,
      contractId: b.contractId,
      balanceCents: dueCents(cents(b.asOf), cents(b.now)),
    }))
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
      amount: centsToNumber(i.balanceCents),
    })),
  })

  return {
    /** Called by src/modules.ts for each module that settles its own records when its payables are paid. */
    registerPayablePort(port: PayablePort) {
      ports.push(port)
    },

    async run(ctx: AuthenticatedContext, body: PayoutRunBody) {
      const tenantId = ctx.tenantId
      const today = await ledger.postingDate(tenantId)
      if (body.dryRun === true)
        return db.read(tenantId, async (x) => {
          const { purposes, asOf, payeeIds } = await checked(x, ctx, body, today)
          const p = await plan(x, tenantId, purposes, asOf, payeeIds)
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
        const p = await plan(tx, tenantId, purposes, asOf, payeeIds)
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
