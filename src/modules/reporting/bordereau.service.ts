// Insurer bordereaux (docs/reporting.md): per insurer and accounting month, the premium bordereau
// (every contract entry on the insurer's payable: written, cancelled, reinstated, adjusted) and the
// claims bordereau (payments posted in the month, authorized and unpaid at its end). Read from the
// journal, so each total is the journal's own sum; staff only. A closed month's bordereau is produced
// once and frozen (report-run.freeze.ts, docs/reporting.md "Month close"): later requests answer it.
import { localDate } from '../../platform/clock.ts'
import type { Executor } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { isStorableId } from '../../platform/ids.ts'
import * as repo from './bordereau.repository.ts'
import { groupPremiumLines, outstandingCents, premiumTotals, type Amounts } from './bordereau.rules.ts'
import { reportingErrors } from './reporting.errors.ts'
import { staffOnly } from './treaty.service.ts'
import { monthPeriod } from './treaty.rules.ts'
import { createFreezer, type FreezeDeps, type Produced } from './report-run.freeze.ts'
import { inputDigest } from './report-run.rules.ts'

/** db, clock, the tenant's time zone (whose today bounds the month) and booksClosedThrough (the month close). */
export type BordereauDeps = FreezeDeps

const money = (cents: number) => cents / 100
const amounts = (a: Amounts) => ({
  premium: money(a.premiumCents),
  reserve: money(a.reserveCents),
  other: money(a.otherCents),
  total: money(a.totalCents),
})

export function createBordereauService(deps: BordereauDeps) {
  const { db, clock, timeZone } = deps
  const freezer = createFreezer(deps)

  /**
   * A bordereau of a closed month: the stored one, or produced (on the primary) and frozen; of an
   * open month: produced from the journal (perhaps on the replica).
   */
  async function closeAware<T>(
    ctx: AuthenticatedContext,
    kind: 'PREMIUM_BORDEREAU' | 'CLAIMS_BORDEREAU',
    insurerId: number,
    header: { month: string; to: string },
    reportRunId: number | null,
    produce: (x: Executor) => Promise<Produced<T>>,
  ): Promise<T> {
    if (!(await freezer.closed(ctx.tenantId, header.to))) return (await db.reportRead(ctx.tenantId, produce)).document
    const stored = await freezer.stored(ctx.tenantId, kind, insurerId, header.month)
    if (stored) return stored.document as T
    const produced = await db.read(ctx.tenantId, produce)
    return (await freezer.freeze(ctx, kind, insurerId, header.month, produced, reportRunId)).document
  }

  /** The insurer's header and the month's bounds; 404 for anything but an insurer of the tenant, 422 for a bad month. */
  async function prepare(ctx: AuthenticatedContext, insurerId: number, month: string) {
    staffOnly(ctx, 'Insurer bordereaux')
    const zone = await timeZone(ctx.tenantId)
    const insurer = isStorableId(insurerId)
      ? await db.read(ctx.tenantId, (x) => repo.insurer(x, ctx.tenantId, insurerId))
      : undefined
    if (!insurer) throw reportingErrors.create('risk_bearer_not_found', `no insurer ${insurerId}`)
    const now = clock.now()
    const period = monthPeriod(month, localDate(now, zone))
    if ('field' in period)
      throw reportingErrors.create('report_period_invalid', `month ${period.message}`, { errors: [period] })
    return {
      zone,
      header: {
        insurer: { id: Number(insurer.id), insurerCode: insurer.business_key, name: insurer.display_name },
        month,
        from: period.from,
        to: period.to,
        generatedAt: now.toISOString(),
      },
    }
  }

  const dealerOf = (c: repo.ContractFacts) => ({ id: c.dealerId, dealerNumber: c.dealerNumber, name: c.dealerName })
  const itemOf = (i: { id: number; code: string; name: string }) => ({ id: i.id, code: i.code, name: i.name })

  return {
    async premium(ctx: AuthenticatedContext, insurerId: number, month: string, reportRunId: number | null = null) {
      const { header } = await prepare(ctx, insurerId, month)
      return closeAware(ctx, 'PREMIUM_BORDEREAU', insurerId, header, reportRunId, async (x) => {
        const journal = await repo.premiumLines(x, ctx.tenantId, insurerId, header.from, header.to)
        const contracts = await repo.contractFacts(
          x,
          ctx.tenantId,
          journal.map((l) => l.contractId),
        )
        const grouped = groupPremiumLines(journal, (contractId, code) =>
          code === null ? undefined : contracts.get(contractId)?.groups.get(code),
        )
        const lines = grouped.map((g) => {
          const c = contracts.get(g.first.contractId)
          // A journal line's contract id is the contract's own: it exists in the tenant.
          if (c === undefined) throw new Error(`journal names contract ${g.first.contractId}, not found`)
          const cancel = g.transaction === 'CANCELLED' || g.transaction === 'REINSTATED'
          return {
            transaction: g.transaction,
            postedOn: g.first.postedOn,
            journalEntryId: g.first.entryId,
            contractId: c.id,
            contractNumber: c.contractNumber,
            dealer: dealerOf(c),
            product: itemOf(c.product),
            program: itemOf(c.program),
            plan: itemOf(c.plan),
            term: c.term,
            saleDate: c.saleDate,
            effectiveDate: c.effectiveDate,
            expirationDate: c.expirationDate,
            cancelNumber: cancel ? g.first.cancelNumber : null,
            cancelDate: cancel ? g.first.cancelDate : null,
            ...amounts(g.amounts),
            cession:
              c.cession === null
                ? null
                : {
                    treatyId: c.cession.treatyId,
                    reinsuranceCompanyId: c.cession.reinsuranceCompanyId,
                    shareBps: c.cession.shareBps,
                  },
          }
        })
        const t = premiumTotals(grouped)
        const total = (k: keyof typeof t) => ({ count: t[k].count, ...amounts(t[k]) })
        const document = {
          ...header,
          lines,
          totals: {
            written: total('WRITTEN'),
            cancelled: total('CANCELLED'),
            reinstated: total('REINSTATED'),
            adjusted: total('ADJUSTED'),
            net: total('net'),
          },
        }
        // The inputs: the journal lines read (entry, contract, code, cents) and the contracts' cessions.
        return { document, inputDigest: inputDigest({ journal, lines: lines.map((l) => [l.contractId, l.cession]) }) }
      })
    },

    async claims(ctx: AuthenticatedContext, insurerId: number, month: string, reportRunId: number | null = null) {
      const { header, zone } = await prepare(ctx, insurerId, month)
      return closeAware(ctx, 'CLAIMS_BORDEREAU', insurerId, header, reportRunId, async (x) => {
        const [payments, requests, authorized] = [
          await repo.claimPayments(x, ctx.tenantId, insurerId, header.from, header.to),
          await repo.requestsCommittedBy(x, ctx.tenantId, insurerId, header.to),
          await repo.authorizedUninvoiced(x, ctx.tenantId, insurerId, header.to, zone),
        ]
        const contracts = await repo.contractFacts(x, ctx.tenantId, [
          ...payments.map((p) => p.contractId),
          ...requests.map((r) => r.contractId),
          ...authorized.map((a) => a.contractId),
        ])
        const facts = (claim: { claimId: number; claimNumber: string; contractId: number; lossDate: string }) => {
          const c = contracts.get(claim.contractId)
          if (c === undefined) throw new Error(`claim ${claim.claimId} names contract ${claim.contractId}, not found`)
          return {
            claimId: claim.claimId,
            claimNumber: claim.claimNumber,
            contractId: c.id,
            contractNumber: c.contractNumber,
            dealer: dealerOf(c),
            product: itemOf(c.product),
            plan: itemOf(c.plan),
            lossDate: claim.lossDate,
          }
        }
        const paid = payments.map((p) => ({
          ...facts(p),
          paymentRequestId: p.paymentRequestId,
          paymentId: p.paymentId,
          journalEntryId: p.entryId,
          postedOn: p.postedOn,
          paidOn: p.paidOn,
          method: p.method,
          reference: p.reference,
          amountCents: p.cents,
        }))
        const outstanding = [
          ...requests
            .map((r) => ({ r, left: outstandingCents(r) }))
            .filter(({ left }) => left > 0)
            .map(({ r, left }) => ({
              ...facts(r),
              basis: 'PAYMENT_REQUEST' as const,
              paymentRequestId: r.paymentRequestId,
              since: r.requestedOn,
              authorizedCents: r.amountCents,
              paidCents: r.paidCents,
              releasedCents: r.releasedCents,
              outstandingCents: left,
            })),
          ...authorized
            .filter((a) => a.payableCents > 0)
            .map((a) => ({
              ...facts(a),
              basis: 'AUTHORIZATION' as const,
              paymentRequestId: null,
              since: a.authorizedOn,
              authorizedCents: a.payableCents,
              paidCents: 0,
              releasedCents: 0,
              outstandingCents: a.payableCents,
            })),
        ]
        const document = {
          ...header,
          paid: paid.map(({ amountCents, ...p }) => ({ ...p, amount: money(amountCents) })),
          outstanding: outstanding.map(
            ({ authorizedCents, paidCents, releasedCents, outstandingCents: o, ...rest }) => ({
              ...rest,
              authorized: money(authorizedCents),
              paidToDate: money(paidCents),
              released: money(releasedCents),
              outstanding: money(o),
            }),
          ),
          totals: {
            paid: { count: paid.length, amount: money(paid.reduce((n, p) => n + p.amountCents, 0)) },
            outstanding: {
              count: outstanding.length,
              amount: money(outstanding.reduce((n, o) => n + o.outstandingCents, 0)),
            },
          },
        }
        // The inputs: the payments, committed requests and uninvoiced authorizations read.
        return { document, inputDigest: inputDigest({ payments, requests, authorized }) }
      })
    },
  }
}

export type BordereauService = ReturnType<typeof createBordereauService>
export type PremiumBordereau = Awaited<ReturnType<BordereauService['premium']>>
export type ClaimsBordereau = Awaited<ReturnType<BordereauService['claims']>>
