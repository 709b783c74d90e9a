// Reinsurance statements, loss-ratio analytics and the reconciliation (docs/reporting.md): the
// differences of the book's sums on two days (book-sums.service.ts), summed in SQL over the reporting
// book the database keeps with the journal (migration 0046) per contract as statement.rules.ts
// reckons it, or read from the month-end sums of closed months (migration 0048). Statements are for
// the staff and for dealer-side users whose dealers a treaty of the company covers; loss ratios and
// the reconciliation are staff only.
import { addDays } from '../../platform/calendar.ts'
import { localDate } from '../../platform/clock.ts'
import type { Executor } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { isIsoDate } from '../../platform/calendar.ts'
import { isStorableId } from '../../platform/ids.ts'
import { createBordereauService } from './bordereau.service.ts'
import { reportingErrors } from './reporting.errors.ts'
import * as repo from './statement.repository.ts'
import * as treaties from './treaty.repository.ts'
import {
  columnPeriods,
  COLUMNS,
  FIGURES,
  lossRatio,
  NO_SUMS,
  periodFigures,
  zeroFigures,
  type Column,
  type DaySums,
  type Figure,
  type Figures,
} from './statement.rules.ts'
import { bookQuery, bookSums, createMonthSums, dayQuery } from './book-sums.service.ts'
import { FULL_SHARE_BPS, monthPeriod } from './treaty.rules.ts'
import { multiplyCentsByRatio } from '../../platform/money.ts'
import { staffOnly } from './treaty.service.ts'
import { createFreezer, type FreezeDeps } from './report-run.freeze.ts'
import * as runs from './report-run.repository.ts'
import * as runRules from './report-run.rules.ts'

export type StatementDeps = FreezeDeps

/**
 * What changed in the closed months through the latest frozen statement before this month since it
 * was frozen: the inception-to-date figures through its end now, less what it reported (docs/reporting.md
 * "Prior-period adjustments"); null when its inputs are as they were.
 */
export type PriorPeriodAdjustments = {
  period: string
  asOf: string
  frozenAt: string
  frozenInputDigest: string
  inputDigest: string
  figures: Record<Figure, number>
}

const money = (cents: number) => cents / 100

/** A cell of money figures and its loss ratio, as the wire shows it. */
export function figuresView(f: Figures) {
  const out = {} as Record<Figure, number>
  for (const k of FIGURES) out[k] = money(f[k])
  return { ...out, lossRatio: lossRatio(f.claimsIncurred, f.earnedPremium) }
}
export type FiguresView = ReturnType<typeof figuresView>

type Cells = Record<Column, Figures>
const blankCells = (): Cells => ({ mtd: zeroFigures(), qtd: zeroFigures(), ytd: zeroFigures(), itd: zeroFigures() })
const cellsView = (c: Cells) => ({
  mtd: figuresView(c.mtd),
  qtd: figuresView(c.qtd),
  ytd: figuresView(c.ytd),
  itd: figuresView(c.itd),
})

export const GROUP_BY = ['dealer', 'dealerGroup', 'product', 'program', 'plan', 'term', 'vintage'] as const
export type GroupBy = (typeof GROUP_BY)[number]

export type LinesQuery = {
  figure: Figure
  column?: Column | undefined
  product?: string | undefined
  vintage?: string | undefined
  pageNumber?: number | undefined
  pageSize?: number | undefined
}

export type LossRatioQuery = {
  groupBy?: string | undefined
  from?: string | undefined
  to?: string | undefined
  pageNumber?: number | undefined
  pageSize?: number | undefined
}

const periodInvalid = (e: FieldError) =>
  reportingErrors.create('report_period_invalid', `${e.field} ${e.message}`, { errors: [e] })

export function createStatementService(deps: StatementDeps) {
  const { db, clock, timeZone } = deps
  const bordereaux = createBordereauService(deps)
  const freezer = createFreezer(deps)
  const monthSums = createMonthSums(deps)

  async function monthOf(ctx: AuthenticatedContext, month: string) {
    const now = clock.now()
    const today = localDate(now, await timeZone(ctx.tenantId))
    const period = monthPeriod(month, today)
    if ('field' in period) throw periodInvalid(period)
    // The current month reports to date: nothing is earned ahead of today.
    return { ...period, month, asOf: period.to < today ? period.to : today, generatedAt: now.toISOString() }
  }

  /** The company, when it is one of the tenant's and the caller may see its statements; else 404. */
  async function company(x: Executor, ctx: AuthenticatedContext, id: number) {
    const notFound = () => reportingErrors.create('risk_bearer_not_found', `no reinsurance company ${id}`)
    if (!isStorableId(id)) throw notFound()
    const c = await repo.accountHolderOfKind(x, ctx.tenantId, id, 'REINSURANCE_COMPANY')
    if (!c) throw notFound()
    const visible = ctx.principal.visibleAccountHolderIds
    if (visible !== null) {
      const dealers = [...visible]
      const groups = new Set(await repo.dealerGroupsOf(x, ctx.tenantId, dealers))
      const covers = (await treaties.allTreaties(x, ctx.tenantId)).some(
        (t) =>
          Number(t.reinsurance_company_id) === id &&
          (t.dealer_ids.some((d) => visible.has(Number(d))) || t.dealer_group_ids.some((g) => groups.has(Number(g)))),
      )
      if (!covers) throw notFound()
    }
    return { id: Number(c.id), companyCode: c.business_key, name: c.display_name }
  }

  /** The days a month's statement reads: the day before each column began, and the month's last (asOf). */
  function statementDays(period: { from: string; asOf: string }) {
    const periods = columnPeriods(period.from, period.asOf)
    const days = COLUMNS.flatMap((col) => {
      const p = periods[col]
      return p.from === null ? [p.to] : [addDays(p.from, -1), p.to]
    })
    return { periods, days: [...new Set(days)] }
  }

  /**
   * The company's statement over the month (through asOf): each column the difference of the book's
   * sums on the day before it began and on asOf, in total, by product and by vintage; every product
   * and vintage of the book listed. `monthEnds`: the days readable from month-end sums.
   */
  async function statementOf(
    x: Executor,
    ctx: AuthenticatedContext,
    companyId: number,
    period: { from: string; asOf: string },
    monthEnds: ReadonlySet<string>,
  ) {
    const { periods, days } = statementDays(period)
    const scope = { reinsuranceCompanyId: companyId }
    // Keys: product (k0) and vintage (k1); grouping() 3 the total, 1 by product, 2 by vintage.
    const sums = await bookSums(x, ctx.tenantId, scope, days, monthEnds, ['c.product_id', 'c.vintage'], [[], [0], [1]])
    const at = new Map<string, DaySums>()
    const keyOf = (grouping: number, key: string | number | null | undefined, day: number) =>
      `${grouping}/${key ?? ''}/${day}`
    for (const g of sums) at.set(keyOf(g.grouping, g.grouping === 1 ? g.keys[0] : g.keys[1], g.day), g.sums)
    const cellsOf = (grouping: number, key: string | number | null) => {
      const cells = blankCells()
      for (const col of COLUMNS) {
        const p = periods[col]
        const end = at.get(keyOf(grouping, key, days.indexOf(p.to))) ?? NO_SUMS
        const start =
          p.from === null ? NO_SUMS : (at.get(keyOf(grouping, key, days.indexOf(addDays(p.from, -1)))) ?? NO_SUMS)
        cells[col] = periodFigures(start.cumulative, end.cumulative)
      }
      return cells
    }
    const byProduct = new Map<number, { product: { id: number; code: string; name: string }; cells: Cells }>()
    const byVintage = new Map<string, Cells>()
    const book = await repo.bookGroups(x, ctx.tenantId, scope)
    for (const g of book.products) {
      const id = Number(g.product_id)
      byProduct.set(id, {
        product: { id, code: g.product_code ?? '', name: g.product_name ?? '' },
        cells: cellsOf(1, g.product_id === null ? null : id),
      })
    }
    for (const v of book.vintages) byVintage.set(v, cellsOf(2, v))
    return {
      contracts: book.contracts,
      periods,
      totals: cellsOf(3, null),
      byProduct,
      byVintage,
    }
  }

  /** The company's inception-to-date totals through `day`. */
  async function itdTotals(
    x: Executor,
    tenantId: number,
    companyId: number,
    day: string,
    monthEnds: ReadonlySet<string>,
  ): Promise<Figures> {
    const [total] = await bookSums(x, tenantId, { reinsuranceCompanyId: companyId }, [day], monthEnds, [], [[]])
    return periodFigures(NO_SUMS.cumulative, (total?.sums ?? NO_SUMS).cumulative)
  }

  /** A company's statement input digest as of a day: kept with the day's month-end sums, else digested now. */
  async function digestOf(
    x: Executor,
    tenantId: number,
    companyId: number,
    day: string,
    monthEnds: ReadonlySet<string>,
  ) {
    const kept = monthEnds.has(day) ? await repo.monthDigest(x, tenantId, companyId, day) : undefined
    return kept ?? (await repo.statementDigest(x, tenantId, companyId, day))
  }

  /**
   * A statement as produced from the journal now, with the digest of its inputs when asked (a closed
   * month's, to freeze), and the prior-period adjustment when the latest frozen statement before the
   * month no longer matches its inputs.
   */
  async function statementDocument(
    x: Executor,
    ctx: AuthenticatedContext,
    reinsuranceCompany: Awaited<ReturnType<typeof company>>,
    header: Awaited<ReturnType<typeof monthOf>>,
    monthEnds: ReadonlySet<string>,
    withDigest = false,
  ) {
    const companyId = reinsuranceCompany.id
    const s = await statementOf(x, ctx, companyId, header, monthEnds)
    const prior = await runs.latestDocumentBefore(x, ctx.tenantId, 'REINSURANCE_STATEMENT', companyId, header.month)
    let priorPeriodAdjustments: PriorPeriodAdjustments | null = null
    if (prior) {
      const asOf = String(prior.document.asOf)
      const inputDigest = await digestOf(x, ctx.tenantId, companyId, asOf, monthEnds)
      if (inputDigest !== prior.inputDigest) {
        const frozen = (prior.document.totals as Record<string, Record<string, unknown>>).itd ?? {}
        const f = runRules.adjustmentOf(await itdTotals(x, ctx.tenantId, companyId, asOf, monthEnds), frozen)
        const figures = {} as Record<Figure, number>
        for (const k of FIGURES) figures[k] = money(f[k])
        priorPeriodAdjustments = {
          period: prior.period,
          asOf,
          frozenAt: prior.createdAt.toISOString(),
          frozenInputDigest: prior.inputDigest,
          inputDigest,
          figures,
        }
      }
    }
    const document = {
      reinsuranceCompany,
      ...header,
      contracts: s.contracts,
      periods: s.periods,
      totals: cellsView(s.totals),
      byProduct: [...s.byProduct.values()]
        .toSorted((a, b) => a.product.code.localeCompare(b.product.code) || a.product.id - b.product.id)
        .map((p) => ({ product: p.product, ...cellsView(p.cells) })),
      byVintage: [...s.byVintage]
        .toSorted(([a], [b]) => a.localeCompare(b))
        .map(([vintage, cells]) => ({ vintage, ...cellsView(cells) })),
      priorPeriodAdjustments,
    }
    return {
      document,
      inputDigest: withDigest ? await digestOf(x, ctx.tenantId, companyId, header.asOf, monthEnds) : '',
    }
  }

  type StatementDocument = Awaited<ReturnType<typeof statementDocument>>['document']

  return {
    /**
     * The company's statement of the month. A closed month's (docs/reporting.md "Month close") is
     * produced once and frozen: later requests answer the stored document. `reportRunId`: the run
     * producing it (report runs), recorded with the frozen document.
     */
    async statement(
      ctx: AuthenticatedContext,
      companyId: number,
      month: string,
      reportRunId: number | null = null,
    ): Promise<StatementDocument> {
      const header = await monthOf(ctx, month)
      const days = statementDays(header).days
      if (!(await freezer.closed(ctx.tenantId, header.to))) {
        // The caller's access first: the month-end sums are built for those who may read them.
        const reinsuranceCompany = await db.reportRead(ctx.tenantId, (x) => company(x, ctx, companyId))
        const monthEnds = await monthSums.readyMonthEnds(ctx.tenantId, days)
        return (
          await db.reportRead(ctx.tenantId, (x) => statementDocument(x, ctx, reinsuranceCompany, header, monthEnds))
        ).document
      }
      // Closed: read on the primary (a replica may lag behind what is frozen), the caller's access first.
      const { reinsuranceCompany, stored } = await db.read(ctx.tenantId, async (x) => ({
        reinsuranceCompany: await company(x, ctx, companyId),
        stored: await runs.documentOf(x, ctx.tenantId, 'REINSURANCE_STATEMENT', companyId, month),
      }))
      if (stored) return stored.document as StatementDocument
      const monthEnds = await monthSums.readyMonthEnds(ctx.tenantId, days)
      const produced = await db.read(ctx.tenantId, (x) =>
        statementDocument(x, ctx, reinsuranceCompany, header, monthEnds, true),
      )
      return (await freezer.freeze(ctx, 'REINSURANCE_STATEMENT', companyId, month, produced, reportRunId)).document
    },

    /**
     * Builds the month-end sums a month's statements read (report runs, before each step's
     * transaction); nothing when the month's days are not closed month ends or are built already.
     */
    async prepareStatements(ctx: AuthenticatedContext, month: string): Promise<void> {
      await monthSums.readyMonthEnds(ctx.tenantId, statementDays(await monthOf(ctx, month)).days)
    },

    async statementLines(ctx: AuthenticatedContext, companyId: number, month: string, q: LinesQuery) {
      const header = await monthOf(ctx, month)
      const column = q.column ?? 'mtd'
      const window = pageWindow(q)
      return db.reportRead(ctx.tenantId, async (x) => {
        const reinsuranceCompany = await company(x, ctx, companyId)
        const periods = columnPeriods(header.from, header.asOf)
        const query = await bookQuery(x, ctx.tenantId, { reinsuranceCompanyId: companyId }, [periods[column]])
        const lines = await repo.statementLines(
          x,
          ctx.tenantId,
          query,
          q.figure,
          { product: q.product, vintage: q.vintage },
          window,
        )
        const items = lines.rows.map((c) => ({
          contractId: Number(c.contract_id),
          contractNumber: c.contract_number,
          dealer: { id: Number(c.dealer_id), dealerNumber: c.dealer_number ?? '', name: c.dealer_name ?? '' },
          product: { id: Number(c.product_id), code: c.product_code ?? '', name: c.product_name ?? '' },
          program: { id: Number(c.program_id), code: c.program_code ?? '', name: c.program_name ?? '' },
          plan: { id: Number(c.plan_id), code: c.plan_code ?? '', name: c.plan_name ?? '' },
          term: { months: Number(c.term_months), miles: Number(c.term_miles) },
          saleDate: c.sale_date,
          vintage: c.vintage,
          shareBps: Number(c.share_bps),
          amount: money(Number(c.cents)),
        }))
        return {
          reinsuranceCompany,
          ...header,
          figure: q.figure,
          column,
          period: periods[column],
          product: q.product ?? null,
          vintage: q.vintage ?? null,
          total: money(lines.totalCents),
          ...toPage(items, lines.count, window),
        }
      })
    },

    async lossRatios(ctx: AuthenticatedContext, q: LossRatioQuery) {
      staffOnly(ctx, 'Loss ratios')
      const today = localDate(clock.now(), await timeZone(ctx.tenantId))
      const to = q.to ?? today
      const from = q.from ?? `${to.slice(0, 4)}-01-01`
      const errors: FieldError[] = []
      const dims = (q.groupBy ?? 'product')
        .split(',')
        .map((d) => d.trim())
        .filter((d) => d !== '')
      for (const d of dims)
        if (!(GROUP_BY as readonly string[]).includes(d))
          errors.push({ field: 'groupBy', code: 'invalid_value', message: `${d} is not one of ${GROUP_BY.join(', ')}` })
      if (dims.length === 0)
        errors.push({ field: 'groupBy', code: 'required', message: `name one or more of ${GROUP_BY.join(', ')}` })
      if (!isIsoDate(from))
        errors.push({ field: 'from', code: 'invalid_format', message: `must be a date, not ${from}` })
      if (!isIsoDate(to)) errors.push({ field: 'to', code: 'invalid_format', message: `must be a date, not ${to}` })
      else if (to > today) errors.push({ field: 'to', code: 'out_of_range', message: `is after today (${today})` })
      if (errors.length === 0 && from > to)
        errors.push({ field: 'from', code: 'out_of_range', message: `is after to (${to})` })
      if (errors.length > 0)
        throw reportingErrors.create('report_period_invalid', errors.map((e) => `${e.field} ${e.message}`).join('; '), {
          errors,
        })
      const groupBy = [...new Set(dims)] as GroupBy[]
      const window = pageWindow(q)
      const start = addDays(from, -1)
      const monthEnds = await monthSums.readyMonthEnds(ctx.tenantId, [start, to])
      return db.reportRead(ctx.tenantId, async (x) => {
        const days = [start, to] as const
        const pageOf = async (fromSums: ReadonlySet<string>) => {
          const liveDays = days.filter((d) => !fromSums.has(d))
          return repo.lossRatioPage(
            x,
            ctx.tenantId,
            days,
            days.filter((d) => fromSums.has(d)),
            liveDays.length === 0 ? null : await dayQuery(x, ctx.tenantId, { gross: true }, liveDays),
            groupBy,
            window,
          )
        }
        // Month-end sums this snapshot does not see READY (a replica behind, dropped since) are
        // reckoned live instead: each pass reads fewer of them, so this ends.
        let fromSums = new Set(monthEnds)
        let page = await pageOf(fromSums)
        while ('stale' in page) {
          const stale = page.stale
          fromSums = new Set([...fromSums].filter((d) => !stale.includes(d)))
          page = await pageOf(fromSums)
        }
        const { dealerGroupKey } = repo.dimensionGrouping(ctx.tenantId, groupBy)
        const items = page.rows.map((r) => {
          const group: Record<string, unknown> = {}
          for (const d of groupBy) {
            switch (d) {
              case 'dealer':
                group.dealer = {
                  id: Number(r.dealer_id),
                  dealerNumber: r.dealer_number ?? '',
                  name: r.dealer_name ?? '',
                }
                break
              case 'dealerGroup': {
                const id = dealerGroupKey === undefined ? null : r.keys[dealerGroupKey]
                group.dealerGroup =
                  id === null || id === undefined ? null : { id: Number(id), name: r.dealer_group_name ?? '' }
                break
              }
              case 'product':
              case 'program':
              case 'plan':
                group[d] = { id: Number(r[`${d}_id`]), code: r[`${d}_code`] ?? '', name: r[`${d}_name`] ?? '' }
                break
              case 'term':
                group.term = { months: Number(r.term_months), miles: Number(r.term_miles) }
                break
              case 'vintage':
                group.vintage = r.vintage
                break
            }
          }
          const written = Number(r.written)
          const cancelled = Number(r.cancelled)
          const earned = Number(r.earned)
          const incurred = Number(r.inc)
          return {
            group,
            contracts: Number(r.contracts),
            writtenPremium: money(written),
            cancellations: money(cancelled),
            netWrittenPremium: money(written - cancelled),
            earnedPremium: money(earned),
            claimsPaid: money(Number(r.paid)),
            claimsIncurred: money(incurred),
            lossRatio: lossRatio(incurred, earned),
          }
        })
        return { from, to, groupBy, generatedAt: clock.now().toISOString(), ...toPage(items, page.total, window) }
      })
    },

    async reconciliation(ctx: AuthenticatedContext, month: string, riskBearerId?: number) {
      staffOnly(ctx, 'The reconciliation')
      const header = await monthOf(ctx, month)
      const { companies, insurers } = await db.reportRead(ctx.tenantId, async (x) => {
        if (riskBearerId === undefined)
          return {
            companies: await repo.accountHoldersOfKind(x, ctx.tenantId, 'REINSURANCE_COMPANY'),
            insurers: await repo.accountHoldersOfKind(x, ctx.tenantId, 'INSURER'),
          }
        const c = isStorableId(riskBearerId)
          ? await repo.accountHolderOfKind(x, ctx.tenantId, riskBearerId, 'REINSURANCE_COMPANY')
          : undefined
        const i = isStorableId(riskBearerId)
          ? await repo.accountHolderOfKind(x, ctx.tenantId, riskBearerId, 'INSURER')
          : undefined
        if (!c && !i)
          throw reportingErrors.create('risk_bearer_not_found', `no insurer or reinsurance company ${riskBearerId}`)
        return { companies: c ? [c] : [], insurers: i ? [i] : [] }
      })
      type Check = {
        report: 'REINSURANCE_STATEMENT' | 'PREMIUM_BORDEREAU' | 'CLAIMS_BORDEREAU'
        riskBearer: { id: number; code: string | null; name: string }
        figure: string
        source: string
        reportedCents: number
        ledgerCents: number
      }
      const checks: Check[] = []
      const before = addDays(header.from, -1)
      const monthEnds = await monthSums.readyMonthEnds(ctx.tenantId, statementDays(header).days)
      for (const co of companies) {
        const riskBearer = { id: Number(co.id), code: co.business_key, name: co.display_name }
        await db.reportRead(ctx.tenantId, async (x) => {
          const s = await statementOf(x, ctx, riskBearer.id, header, monthEnds)
          const [end, start] = [
            await repo.ledgerSumsByContract(x, ctx.tenantId, riskBearer.id, header.to),
            await repo.ledgerSumsByContract(x, ctx.tenantId, riskBearer.id, before),
          ]
          const startOf = new Map(start.map((r) => [r.contractId, r]))
          const sum = { written: 0, cancelled: 0, claimsIncurred: 0, claimsPaid: 0 }
          for (const e of end) {
            const b = startOf.get(e.contractId)
            for (const k of Object.keys(sum) as Array<keyof typeof sum>)
              sum[k] +=
                multiplyCentsByRatio(e[k], e.shareBps, FULL_SHARE_BPS) -
                multiplyCentsByRatio(b?.[k] ?? 0, e.shareBps, FULL_SHARE_BPS)
          }
          const m = s.totals.mtd
          const itd = s.totals.itd
          const RESERVE = 'RESERVE lines of DISBURSEMENT_PAYABLE / UNEARNED_REVENUE'
          checks.push(
            {
              report: 'REINSURANCE_STATEMENT',
              riskBearer,
              figure: 'writtenPremium',
              source: `${RESERVE}, sale entries`,
              reportedCents: m.writtenPremium,
              ledgerCents: sum.written,
            },
            {
              report: 'REINSURANCE_STATEMENT',
              riskBearer,
              figure: 'cancellations',
              source: `${RESERVE}, cancel entries`,
              reportedCents: m.cancellations,
              ledgerCents: sum.cancelled,
            },
            {
              report: 'REINSURANCE_STATEMENT',
              riskBearer,
              figure: 'claimsIncurred',
              source: 'CLAIM_EXPENSE',
              reportedCents: m.claimsIncurred,
              ledgerCents: sum.claimsIncurred,
            },
            {
              report: 'REINSURANCE_STATEMENT',
              riskBearer,
              figure: 'claimsPaid',
              source: 'CLAIM_PAYABLE debits of CLAIM_PAID / CASH_DISBURSED',
              reportedCents: m.claimsPaid,
              ledgerCents: sum.claimsPaid,
            },
            {
              report: 'REINSURANCE_STATEMENT',
              riskBearer,
              figure: 'earnedPremium+unearnedPremium (inception to date)',
              source: `netWrittenPremium from ${RESERVE}`,
              reportedCents: itd.earnedPremium + itd.unearnedPremium,
              ledgerCents: end.reduce(
                (n, e) =>
                  n +
                  multiplyCentsByRatio(e.written, e.shareBps, FULL_SHARE_BPS) -
                  multiplyCentsByRatio(e.cancelled, e.shareBps, FULL_SHARE_BPS),
                0,
              ),
            },
          )
        })
      }
      const admin = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: null } }
      for (const ins of insurers) {
        const riskBearer = { id: Number(ins.id), code: ins.business_key, name: ins.display_name }
        const premium = await bordereaux.premium(admin, riskBearer.id, month)
        const claims = await bordereaux.claims(admin, riskBearer.id, month)
        await db.reportRead(ctx.tenantId, async (x) => {
          checks.push(
            {
              report: 'PREMIUM_BORDEREAU',
              riskBearer,
              figure: 'totals.net.total',
              source: 'DISBURSEMENT_PAYABLE',
              reportedCents: Math.round(premium.totals.net.total * 100),
              ledgerCents: await repo.insurerPayableMovement(x, ctx.tenantId, riskBearer.id, header.from, header.to),
            },
            {
              report: 'CLAIMS_BORDEREAU',
              riskBearer,
              figure: 'totals.paid.amount',
              source: 'CLAIM_PAYABLE debits of CLAIM_PAID / CASH_DISBURSED',
              reportedCents: Math.round(claims.totals.paid.amount * 100),
              ledgerCents: await repo.insurerClaimPaymentsPosted(
                x,
                ctx.tenantId,
                riskBearer.id,
                header.from,
                header.to,
              ),
            },
          )
        })
      }
      const view = checks.map((c) => ({
        report: c.report,
        riskBearer: c.riskBearer,
        figure: c.figure,
        source: c.source,
        reported: money(c.reportedCents),
        ledger: money(c.ledgerCents),
        difference: money(c.reportedCents - c.ledgerCents),
      }))
      return { ...header, checks: view, differences: view.filter((c) => c.difference !== 0) }
    },
  }
}

export type StatementService = ReturnType<typeof createStatementService>
export type ReinsuranceStatement = Awaited<ReturnType<StatementService['statement']>>
export type StatementLines = Awaited<ReturnType<StatementService['statementLines']>>
export type LossRatios = Awaited<ReturnType<StatementService['lossRatios']>>
export type Reconciliation = Awaited<ReturnType<StatementService['reconciliation']>>
