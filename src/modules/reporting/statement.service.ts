// Reinsurance statements, loss-ratio analytics and the reconciliation (docs/reporting.md), read from
// the journal at request time: the contracts of a book and their movements (statement.repository.ts),
// reckoned by statement.rules.ts. Statements are for the staff and for dealer-side users whose dealers
// a treaty of the company covers; loss ratios and the reconciliation are staff only.
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
  addFigures,
  columnPeriods,
  COLUMNS,
  contractFigures,
  FIGURES,
  isZero,
  lossRatio,
  vintageOf,
  zeroFigures,
  type Column,
  type Figure,
  type Figures,
} from './statement.rules.ts'
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

  async function statementOf(
    x: Executor,
    ctx: AuthenticatedContext,
    companyId: number,
    period: { from: string; asOf: string },
  ) {
    const book = await repo.book(x, ctx.tenantId, { reinsuranceCompanyId: companyId })
    const periods = columnPeriods(period.from, period.asOf)
    const totals = blankCells()
    const byProduct = new Map<number, { product: repo.BookFacts['product']; cells: Cells }>()
    const byVintage = new Map<string, Cells>()
    const perContract = new Map<number, Cells>()
    for (const c of book) {
      const cells = blankCells()
      for (const col of COLUMNS) cells[col] = contractFigures(c, periods[col].from, periods[col].to)
      perContract.set(c.id, cells)
      let p = byProduct.get(c.product.id)
      if (!p) byProduct.set(c.product.id, (p = { product: c.product, cells: blankCells() }))
      const v = vintageOf(c.saleDate)
      let vc = byVintage.get(v)
      if (!vc) byVintage.set(v, (vc = blankCells()))
      for (const col of COLUMNS) {
        addFigures(totals[col], cells[col])
        addFigures(p.cells[col], cells[col])
        addFigures(vc[col], cells[col])
      }
    }
    return { book, periods, totals, byProduct, byVintage, perContract }
  }

  /**
   * A statement as produced from the journal now, with the digest of its inputs, and the prior-period
   * adjustment when the latest frozen statement before the month no longer matches its inputs.
   */
  async function statementDocument(
    x: Executor,
    ctx: AuthenticatedContext,
    companyId: number,
    header: Awaited<ReturnType<typeof monthOf>>,
  ) {
    const reinsuranceCompany = await company(x, ctx, companyId)
    const s = await statementOf(x, ctx, companyId, header)
    const prior = await runs.latestDocumentBefore(x, ctx.tenantId, 'REINSURANCE_STATEMENT', companyId, header.month)
    let priorPeriodAdjustments: PriorPeriodAdjustments | null = null
    if (prior) {
      const asOf = String(prior.document.asOf)
      const inputDigest = runRules.inputDigest(runRules.statementInputs(s.book, asOf))
      if (inputDigest !== prior.inputDigest) {
        const frozen = (prior.document.totals as Record<string, Record<string, unknown>>).itd ?? {}
        const f = runRules.adjustmentOf(runRules.itdFigures(s.book, asOf), frozen)
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
      contracts: s.book.length,
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
    return { document, inputDigest: runRules.inputDigest(runRules.statementInputs(s.book, header.asOf)) }
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
      if (!(await freezer.closed(ctx.tenantId, header.to)))
        return (await db.reportRead(ctx.tenantId, (x) => statementDocument(x, ctx, companyId, header))).document
      // Closed: read on the primary (a replica may lag behind what is frozen), the caller's access first.
      const stored = await db.read(ctx.tenantId, async (x) => {
        await company(x, ctx, companyId)
        return runs.documentOf(x, ctx.tenantId, 'REINSURANCE_STATEMENT', companyId, month)
      })
      if (stored) return stored.document as StatementDocument
      const produced = await db.read(ctx.tenantId, (x) => statementDocument(x, ctx, companyId, header))
      return (await freezer.freeze(ctx, 'REINSURANCE_STATEMENT', companyId, month, produced, reportRunId)).document
    },

    async statementLines(ctx: AuthenticatedContext, companyId: number, month: string, q: LinesQuery) {
      const header = await monthOf(ctx, month)
      const column = q.column ?? 'mtd'
      const window = pageWindow(q)
      return db.reportRead(ctx.tenantId, async (x) => {
        const reinsuranceCompany = await company(x, ctx, companyId)
        const s = await statementOf(x, ctx, companyId, header)
        const lines = s.book
          .filter((c) => q.product === undefined || c.product.code.toLowerCase() === q.product.toLowerCase())
          .filter((c) => q.vintage === undefined || vintageOf(c.saleDate) === q.vintage.toUpperCase())
          .map((c) => ({ c, cents: s.perContract.get(c.id)![column][q.figure] }))
          .filter((l) => l.cents !== 0)
        const total = lines.reduce((n, l) => n + l.cents, 0)
        const items = lines.slice(window.offset, window.offset + window.limit).map(({ c, cents }) => ({
          contractId: c.id,
          contractNumber: c.contractNumber,
          dealer: c.dealer,
          product: c.product,
          program: c.program,
          plan: c.plan,
          term: c.term,
          saleDate: c.saleDate,
          vintage: vintageOf(c.saleDate),
          shareBps: c.shareBps,
          amount: money(cents),
        }))
        return {
          reinsuranceCompany,
          ...header,
          figure: q.figure,
          column,
          period: s.periods[column],
          product: q.product ?? null,
          vintage: q.vintage ?? null,
          total: money(total),
          ...toPage(items, lines.length, window),
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
      return db.reportRead(ctx.tenantId, async (x) => {
        const book = await repo.book(x, ctx.tenantId, { gross: true })
        const groups = new Map<
          string,
          { group: Record<string, unknown>; sort: string; figures: Figures; contracts: number }
        >()
        for (const c of book) {
          const f = contractFigures(c, from, to)
          if (isZero(f)) continue
          const group: Record<string, unknown> = {}
          const keys: string[] = []
          for (const d of groupBy) {
            switch (d) {
              case 'dealer':
                group.dealer = c.dealer
                keys.push(c.dealer.dealerNumber.padStart(20, ' '), String(c.dealer.id))
                break
              case 'dealerGroup':
                group.dealerGroup = c.dealerGroup
                keys.push(c.dealerGroup?.name ?? '', String(c.dealerGroup?.id ?? 0))
                break
              case 'product':
                group.product = c.product
                keys.push(c.product.code, String(c.product.id))
                break
              case 'program':
                group.program = c.program
                keys.push(c.program.code, String(c.program.id))
                break
              case 'plan':
                group.plan = c.plan
                keys.push(c.plan.code, String(c.plan.id))
                break
              case 'term':
                group.term = c.term
                keys.push(String(c.term.months).padStart(6, '0'), String(c.term.miles).padStart(9, '0'))
                break
              case 'vintage':
                group.vintage = vintageOf(c.saleDate)
                keys.push(vintageOf(c.saleDate))
                break
            }
          }
          const key = keys.join('\u0000')
          let g = groups.get(key)
          if (!g) groups.set(key, (g = { group, sort: key, figures: zeroFigures(), contracts: 0 }))
          addFigures(g.figures, f)
          g.contracts += 1
        }
        const all = [...groups.values()].toSorted((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0))
        const items = all.slice(window.offset, window.offset + window.limit).map((g) => ({
          group: g.group,
          contracts: g.contracts,
          writtenPremium: money(g.figures.writtenPremium),
          cancellations: money(g.figures.cancellations),
          netWrittenPremium: money(g.figures.netWrittenPremium),
          earnedPremium: money(g.figures.earnedPremium),
          claimsPaid: money(g.figures.claimsPaid),
          claimsIncurred: money(g.figures.claimsIncurred),
          lossRatio: lossRatio(g.figures.claimsIncurred, g.figures.earnedPremium),
        }))
        return { from, to, groupBy, generatedAt: clock.now().toISOString(), ...toPage(items, all.length, window) }
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
      for (const co of companies) {
        const riskBearer = { id: Number(co.id), code: co.business_key, name: co.display_name }
        await db.reportRead(ctx.tenantId, async (x) => {
          const s = await statementOf(x, ctx, riskBearer.id, header)
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
