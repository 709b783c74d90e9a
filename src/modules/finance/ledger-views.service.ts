// Ledger views (docs/ledgers.md): an account holder's lines, pay/receive nets, open receivable items
// and balances by purpose, all derived from the journal lines as of accounting dates. Read only: no
// audit rows or events. Dealer-side callers see only their account holders: the filter is in SQL,
// and an explicit account holder they may not see is 404 account_holder_not_found, as in parties.
import type { Database } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { centsToNumber } from '../../platform/money.ts'
import { ledgerViewErrors } from './ledger-views.errors.ts'
import * as repo from './ledger-views.repository.ts'
import {
  ageInDays,
  agingBucket,
  agingTotals,
  dayNumber,
  netOwed,
  normalBalance,
  AGING_BUCKETS,
} from './ledger-views.rules.ts'
import type { LedgerService } from './ledger.service.ts'
import { ACCOUNT_PURPOSES, type AccountPurpose } from './ledger.rules.ts'

export type LedgerViewsDeps = { db: Database; ledger: Pick<LedgerService, 'postingDate'> }

const money = centsToNumber
const DAY_MS = 86_400_000
const minusDays = (date: string, days: number) =>
  new Date(((dayNumber(date) as number) - days) * DAY_MS).toISOString().slice(0, 10)

export function createLedgerViewsService({ db, ledger }: LedgerViewsDeps) {
  const visibleOf = (ctx: RequestContext): repo.Visible => ctx.principal?.visibleAccountHolderIds ?? null

  /** 404 unless the holder exists in the tenant and the caller may see it. */
  async function checkHolder(ctx: RequestContext, x: Parameters<typeof repo.holderExists>[0], id: number | undefined) {
    if (id === undefined) return
    const visible = visibleOf(ctx)
    if ((visible && !visible.has(id)) || !(await repo.holderExists(x, ctx.tenantId, id)))
      throw ledgerViewErrors.create('account_holder_not_found', `No account holder ${id}`)
  }

  const asOfOr = async (ctx: RequestContext, asOf: string | undefined) =>
    asOf ?? (await ledger.postingDate(ctx.tenantId))

  return {
    async lines(ctx: RequestContext, f: repo.LineFilter, window: Window) {
      return db.read(ctx.tenantId, async (x) => {
        await checkHolder(ctx, x, f.accountHolderId)
        const { rows, totalCount } = await repo.ledgerLines(x, ctx.tenantId, f, window)
        let openingBalance: number | null = null
        if (f.from !== undefined) {
          const t = await repo.totalsBefore(x, ctx.tenantId, f, f.from)
          // One purpose: on its normal side. Several: debit-positive, as the lines' debit − credit.
          openingBalance = money(
            f.purpose
              ? normalBalance(f.purpose as AccountPurpose, t.debitCents, t.creditCents)
              : t.debitCents - t.creditCents,
          )
        }
        const items = rows.map(({ debitCents, creditCents, ...r }) => ({
          ...r,
          debit: money(debitCents),
          credit: money(creditCents),
        }))
        return { items, totalCount, openingBalance }
      })
    },

    async payReceive(
      ctx: RequestContext,
      f: { accountHolderId?: number | undefined; kind?: string | undefined; asOf?: string | undefined },
      window: Window,
    ) {
      const asOf = await asOfOr(ctx, f.asOf)
      return db.read(ctx.tenantId, async (x) => {
        await checkHolder(ctx, x, f.accountHolderId)
        const fromItems = await repo.itemsCover(x, ctx.tenantId, asOf)
        const { rows, totalCount } = await repo.payReceive(
          x,
          ctx.tenantId,
          { ...f, asOf, fromItems, visible: visibleOf(ctx) },
          window,
        )
        const items = rows.map((r) => ({
          accountHolderId: r.accountHolderId,
          kind: r.kind,
          displayName: r.displayName,
          asOf,
          receivable: money(r.receivableCents),
          disbursementPayable: money(r.disbursementPayableCents),
          refundPayable: money(r.refundPayableCents),
          claimPayable: money(r.claimPayableCents),
          unappliedCash: money(r.unappliedCashCents),
          net: money(netOwed(r)),
        }))
        return { items, totalCount }
      })
    },

    async unpaid(
      ctx: RequestContext,
      f: { dealerId?: number | undefined; asOf?: string | undefined; minAge?: number | undefined },
      window: Window,
    ) {
      const asOf = await asOfOr(ctx, f.asOf)
      return db.read(ctx.tenantId, async (x) => {
        await checkHolder(ctx, x, f.dealerId)
        const postedOnOrBefore = f.minAge ? minusDays(asOf, f.minAge) : undefined
        const fromItems = await repo.itemsCover(x, ctx.tenantId, asOf)
        const { rows, totalCount } = await repo.openItems(
          x,
          ctx.tenantId,
          { asOf, fromItems, dealerId: f.dealerId, visible: visibleOf(ctx), postedOnOrBefore },
          window,
        )
        const items = rows.map((r) => {
          const ageDays = ageInDays(r.firstPostedDate, asOf)
          return {
            dealerId: r.dealerId,
            contractId: r.contractId,
            contractNumber: r.contractNumber,
            productId: r.productId,
            firstPostedDate: r.firstPostedDate,
            openAmount: money(r.openCents),
            ageDays,
            agingBucket: agingBucket(ageDays),
          }
        })
        return { items, totalCount, asOf }
      })
    },

    async summary(
      ctx: RequestContext,
      f: { accountHolderId?: number | undefined; purpose?: string | undefined; asOf?: string | undefined },
    ) {
      const asOf = await asOfOr(ctx, f.asOf)
      return db.read(ctx.tenantId, async (x) => {
        await checkHolder(ctx, x, f.accountHolderId)
        const visible = visibleOf(ctx)
        const fromItems = await repo.itemsCover(x, ctx.tenantId, asOf)
        const rows = await repo.balances(x, ctx.tenantId, { ...f, asOf, fromItems, visible })
        const totals = new Map<string, { debit: number; credit: number }>()
        const balances = rows.map((r) => {
          const t = totals.get(r.purpose) ?? { debit: 0, credit: 0 }
          t.debit += r.debitCents
          t.credit += r.creditCents
          totals.set(r.purpose, t)
          return {
            accountHolderId: r.accountHolderId,
            purpose: r.purpose,
            debit: money(r.debitCents),
            credit: money(r.creditCents),
            balance: money(normalBalance(r.purpose as AccountPurpose, r.debitCents, r.creditCents)),
          }
        })
        const purposeTotals = [...totals].map(([purpose, t]) => ({
          purpose,
          normalSide: ACCOUNT_PURPOSES[purpose as AccountPurpose].normalSide,
          debit: money(t.debit),
          credit: money(t.credit),
          balance: money(normalBalance(purpose as AccountPurpose, t.debit, t.credit)),
        }))
        // Aging of the receivables: only when the receivable is in the filter.
        const withReceivable = f.purpose === undefined || f.purpose === 'DEALER_RECEIVABLE'
        const open = withReceivable
          ? await repo.openByFirstDate(x, ctx.tenantId, { asOf, fromItems, dealerId: f.accountHolderId, visible })
          : []
        const aging = agingTotals(
          open.map((o) => ({ openCents: o.openCents, ageDays: ageInDays(o.firstPostedDate, asOf) })),
        )
        return {
          asOf,
          balances,
          totals: purposeTotals,
          receivableAging: AGING_BUCKETS.map((bucket) => ({ bucket, amount: money(aging[bucket]) })),
        }
      })
    },
  }
}

export type LedgerViewsService = ReturnType<typeof createLedgerViewsService>
