// A contract's earning details (docs/earnings.md): each priced line earned by its method from the
// contract's terms snapshot (finance's earnings rules), as of a date, with its schedule by calendar
// month. A read: nothing is posted here (posting what is due is the earnings sync's).
import type { Database } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { centsToNumber } from '../../platform/money.ts'
import { earningsAsOf, earningsSchedule, type EarningsDates } from '../finance/index.ts'
import { contractErrors } from './contract.errors.ts'
import * as repo from './contract.repository.ts'
import type { ContractCore } from './contract.service.ts'

export type EarningDetailsQuery = { asOf?: string | undefined; schedule?: boolean | undefined }

export function createContractEarnings({ db, core }: { db: Database; core: ContractCore }) {
  return {
    /**
     * The earnings of every priced line as of `asOf` (default today in the tenant's zone). A voided
     * contract earns nothing (409); a cancelled one stops earning on its cancel date, so a later
     * asOf reads as of that date (what the cancel refunds or earns at cancel is the cancel's).
     */
    async details(ctx: AuthenticatedContext, contractId: number, query: EarningDetailsQuery) {
      const row = await core.readRow(ctx, contractId)
      if (row.status === 'VOIDED')
        throw contractErrors.create(
          'contract_state_conflict',
          `contract ${row.contract_number} is voided: a contract never sold earns nothing`,
        )
      const [terms, today, cancelledOn] = await Promise.all([
        core.termsOf(ctx.tenantId, row),
        core.today(ctx.tenantId),
        row.status === 'CANCELLED' ? lastCancelDate(db, ctx.tenantId, row.id) : Promise.resolve(null),
      ])
      const requested = query.asOf ?? today
      const asOf = cancelledOn !== null && cancelledOn < requested ? cancelledOn : requested
      const dates: EarningsDates = {
        effectiveDate: row.effective_date,
        expirationDate: row.expiration_date,
        termMonths: row.coverage.term.months,
      }
      const lines = row.pricing.lines.map((l) => {
        const t = terms.earnings[l.code]
        // Every line code has terms: the snapshot was resolved from these very lines.
        if (t === undefined) throw new Error(`contract ${row.id}: no earnings terms for line ${l.code}`)
        return { line: l, terms: t }
      })
      const result = earningsAsOf(
        lines.map(({ line, terms: t }) => ({ code: line.code, amountCents: line.cents, terms: t })),
        dates,
        asOf,
      )
      return {
        contractId: row.id,
        contractNumber: row.contract_number,
        status: row.status,
        asOf,
        requestedAsOf: requested,
        earningsStoppedOn: cancelledOn,
        effectiveDate: dates.effectiveDate,
        expirationDate: dates.expirationDate,
        termMonths: dates.termMonths,
        totals: {
          amount: centsToNumber(result.totals.amountCents),
          earnedToDate: centsToNumber(result.totals.earnedToDateCents),
          unearned: centsToNumber(result.totals.unearnedCents),
        },
        lines: lines.map(({ line, terms: t }, i) => {
          const e = result.lines[i]!
          return {
            lineNumber: i + 1,
            code: line.code,
            group: line.group,
            label: line.label,
            source: line.source,
            payeeAccountHolderId: line.payeeAccountHolderId,
            method: t.method,
            curveCode: t.curve?.code ?? null,
            monthCounting: t.monthCounting,
            refundable: t.refundable,
            amount: centsToNumber(e.amountCents),
            earnedToDate: centsToNumber(e.earnedToDateCents),
            unearned: centsToNumber(e.unearnedCents),
            earnedFraction: `${e.earnedFraction.num}/${e.earnedFraction.den}`,
            earnedFactor: e.earnedFactor,
            schedule:
              query.schedule === false
                ? null
                : earningsSchedule(line.cents, t, dates, { through: cancelledOn ?? undefined }).map((p) => ({
                    periodStart: p.periodStart,
                    periodEnd: p.periodEnd,
                    earnedThisPeriod: centsToNumber(p.earnedThisPeriodCents),
                    earnedToDate: centsToNumber(p.earnedToDateCents),
                    unearned: centsToNumber(p.unearnedCents),
                  })),
          }
        }),
      }
    },
  }
}

/** The effective date of the contract's latest cancellation (its cancel date). */
async function lastCancelDate(db: Database, tenantId: number, contractId: number): Promise<string | null> {
  const rows = await db.read(tenantId, (x) => repo.listStatusHistory(x, tenantId, contractId))
  const cancel = rows.findLast((r) => r.event === 'CANCEL')
  return cancel ? cancel.effective_date : null
}

export type ContractEarnings = ReturnType<typeof createContractEarnings>
