// Sales tax (docs/sales-tax.md): the tenant's rules (maintained by staff with settings permissions,
// audited), the tax they give for a sale (what a dealer menu system asks before it sells), and what
// today's rules give for a sold contract against the tax kept in its terms. The computation is
// sales-tax.rules.ts; this file reads, checks and writes.
import { advisoryLock } from '../../platform/db/advisory-lock.ts'
import { writeAudit } from '../../platform/audit.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { applyPatch, createPatchedValidator } from '../../platform/http/patch.ts'
import { isStorableId } from '../../platform/ids.ts'
import { Decimal, decimalProblem, toCents, toStoredDecimal } from '../../platform/money.ts'
import { salesTaxErrors } from './sales-tax.errors.ts'
import {
  countRules,
  deleteRule,
  findRule,
  insertRule,
  listRules,
  rulesOfState,
  updateRule,
  type RuleFilter,
  type RuleValues,
  type SalesTaxRuleRow,
} from './sales-tax.repository.ts'
import {
  computeSalesTax,
  DealerCostRequired,
  overlapping,
  rulesInForce,
  type Collector,
  type TaxableBase,
  type TaxLine,
  type TaxRule,
} from './sales-tax.rules.ts'
import { SalesTaxRuleEditable } from './sales-tax.schemas.ts'

/** A rule on the wire. */
export type SalesTaxRuleView = {
  salesTaxRuleId: number
  state: string
  county: string | null
  city: string | null
  productType: string | null
  rate: number
  taxableBase: TaxableBase
  collectedBy: Collector
  effectiveFrom: string
  effectiveTo: string | null
  createdAt: string
  updatedAt: string
}

export type RuleInput = {
  state: string
  county?: string | null
  city?: string | null
  productType?: string | null
  rate: number
  taxableBase: TaxableBase
  collectedBy: Collector
  effectiveFrom: string
  effectiveTo?: string | null
}

export type CalculationInput = {
  state: string
  county?: string
  city?: string
  productType: string
  date?: string
  retailPrice: number
  dealerCost?: number
}

export type CalculationView = {
  salesTax: number
  rules: Array<Omit<TaxLine, 'baseCents' | 'taxCents' | 'rate'> & { rate: number; base: number; tax: number }>
}

/** What sales tax reads of a contract (a narrow port onto the contracts module, wired in src/modules.ts). */
export type SalesTaxContractsPort = {
  /** The contract's sale facts as the caller may see them; the contracts module's 404 otherwise. */
  saleOf(ctx: AuthenticatedContext, contractId: number): Promise<ContractSale>
  today(tenantId: number): Promise<string>
}

export type ContractSale = {
  id: number
  productType: string
  /** Decimal strings, as the contract stores them. */
  retailPrice: string
  dealerCost: string
  /** The customer's address at the sale; null: none was given. */
  address: { state: string; city: string } | null
  /** The tax kept in the contract's terms snapshot (`terms.salesTax`); null: none kept. */
  storedSalesTax: { amount: number | string } | null
}

/** A sale whose tax the contracts module keeps (prices in cents; the day whose rules apply). */
export type SaleFacts = {
  state: string
  city: string | null
  productType: string
  date: string
  retailCents: number
  dealerCostCents: number
}

/** The tax kept in a contract's terms: amounts exact decimal strings; MIXED when its rules' collectors differ. */
export type KeptSalesTax = {
  amount: string
  collectedBy: Collector | 'MIXED'
  date: string
  rules: Array<{
    ruleId: number
    jurisdiction: TaxLine['jurisdiction']
    rate: string
    taxableBase: TaxableBase
    base: string
    tax: string
    collectedBy: Collector
  }>
}

export type SalesTaxDeps = { db: Database; clock: Clock; contracts: SalesTaxContractsPort }

const AMOUNT_MAX = new Decimal('9999999999.99')

function toView(r: SalesTaxRuleRow): SalesTaxRuleView {
  return {
    salesTaxRuleId: r.id,
    state: r.state,
    county: r.county,
    city: r.city,
    productType: r.product_type,
    rate: Number(r.rate),
    taxableBase: r.taxable_base,
    collectedBy: r.collected_by,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  }
}

function toTaxRule(r: SalesTaxRuleRow): TaxRule {
  return {
    id: r.id,
    state: r.state,
    county: r.county,
    city: r.city,
    productType: r.product_type,
    rate: r.rate,
    taxableBase: r.taxable_base,
    collectedBy: r.collected_by,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
  }
}

/** The stored values of a rule as submitted (created, or patched as a whole), or every problem with it. */
function ruleValues(input: RuleInput): RuleValues {
  const errors: FieldError[] = []
  const rate = decimalProblem(input.rate, { places: 6, min: new Decimal(0), max: new Decimal(1) })
  if (rate) errors.push({ field: 'rate', ...rate })
  const place = (field: 'county' | 'city') => {
    const v = input[field]
    if (v === undefined || v === null) return null
    const t = v.trim()
    if (t === '') errors.push({ field, code: 'invalid_format', message: 'must name a place, or be null' })
    return t
  }
  const county = place('county')
  const city = place('city')
  const effectiveTo = input.effectiveTo ?? null
  if (effectiveTo !== null && effectiveTo < input.effectiveFrom)
    errors.push({
      field: 'effectiveTo',
      code: 'out_of_range',
      message: `must not be before effectiveFrom (${input.effectiveFrom})`,
    })
  if (errors.length > 0)
    throw salesTaxErrors.create(
      'sales_tax_rule_invalid',
      `${errors.length} invalid field(s): ${errors.map((e) => e.field).join(', ')}`,
      { errors },
    )
  return {
    state: input.state.toUpperCase(),
    county,
    city,
    product_type: input.productType ?? null,
    rate: toStoredDecimal(input.rate, 6),
    taxable_base: input.taxableBase,
    collected_by: input.collectedBy,
    effective_from: input.effectiveFrom,
    effective_to: effectiveTo,
  }
}

const period = (r: { effective_from: string; effective_to: string | null }) =>
  `${r.effective_from} to ${r.effective_to ?? 'open-ended'}`

function editableOf(r: SalesTaxRuleRow): Record<string, unknown> {
  const v = toView(r)
  return {
    state: v.state,
    county: v.county,
    city: v.city,
    productType: v.productType,
    rate: v.rate,
    taxableBase: v.taxableBase,
    collectedBy: v.collectedBy,
    effectiveFrom: v.effectiveFrom,
    effectiveTo: v.effectiveTo,
  }
}

const validateEditable = createPatchedValidator(SalesTaxRuleEditable)

function amountCents(field: string, value: number): number {
  const p = decimalProblem(value, { places: 2, min: new Decimal(0), max: AMOUNT_MAX })
  if (p)
    throw salesTaxErrors.create('sales_tax_calculation_invalid', `${field} ${p.message}`, {
      errors: [{ field, ...p }],
    })
  return toCents(new Decimal(String(value)))
}

function calculationView(result: { totalCents: number; lines: TaxLine[] }): CalculationView {
  return {
    salesTax: result.totalCents / 100,
    rules: result.lines.map((l) => ({
      ruleId: l.ruleId,
      jurisdiction: l.jurisdiction,
      rate: Number(l.rate),
      taxableBase: l.taxableBase,
      base: l.baseCents / 100,
      tax: l.taxCents / 100,
      collectedBy: l.collectedBy,
    })),
  }
}

export function createSalesTaxService({ db, clock, contracts }: SalesTaxDeps) {
  const notFound = (id: number) => salesTaxErrors.create('sales_tax_rule_not_found', `no sales tax rule ${id}`)

  /**
   * Refuses `values` when a rule of the same jurisdiction and product type (other than `id`) is in
   * force on any of its days. Runs under the tenant-and-state lock, so two writes cannot both pass.
   */
  async function assertNoOverlap(
    tx: Parameters<typeof advisoryLock>[0],
    tenantId: number,
    values: RuleValues,
    id: number,
  ): Promise<void> {
    await advisoryLock(tx, 'sales_tax_rule', [tenantId, values.state])
    const others = await rulesOfState(tx, tenantId, values.state)
    const clash = overlapping(toTaxRule({ ...values, id } as SalesTaxRuleRow), others.map(toTaxRule))
    if (clash.length === 0) return
    const rows = others.filter((o) => clash.some((c) => c.id === o.id))
    throw salesTaxErrors.create(
      'sales_tax_rule_overlap',
      `${period(values)} overlaps ${rows.map((r) => `rule ${r.id} (${period(r)})`).join(', ')}`,
      {
        errors: [
          {
            field: 'effectiveFrom',
            code: 'overlap',
            message: `overlaps ${rows.map((r) => `rule ${r.id} (${period(r)})`).join(', ')}`,
          },
        ],
        extensions: {
          overlapping: rows.map((r) => ({
            salesTaxRuleId: r.id,
            effectiveFrom: r.effective_from,
            effectiveTo: r.effective_to,
          })),
        },
      },
    )
  }

  /** The tax for a location, product type and day, amounts in cents; 422 naming dealerCost when a rule needs it. */
  async function calculate(
    tenantId: number,
    at: { state: string; county?: string | null; city?: string | null },
    productType: string,
    date: string,
    amounts: { retailCents: number; dealerCostCents: number | null },
  ) {
    const state = at.state.toUpperCase()
    const rules = (await db.read(tenantId, (x) => rulesOfState(x, tenantId, state))).map(toTaxRule)
    try {
      return computeSalesTax(rulesInForce(rules, { ...at, state }, productType, date), amounts)
    } catch (err) {
      if (!(err instanceof DealerCostRequired)) throw err
      throw salesTaxErrors.create('sales_tax_calculation_invalid', `rule ${err.ruleId} taxes the dealer cost`, {
        errors: [{ field: 'dealerCost', code: 'required', message: `rule ${err.ruleId} taxes the dealer cost` }],
      })
    }
  }

  return {
    /**
     * The tax of a sale as the contract keeps it in its terms (docs/sales-tax.md "At sale"): the rules in
     * force on the sale date for the customer's state and city (contracts keep no county) and the product
     * type; null when none applies. Amounts are exact decimal strings. What the contracts port calls.
     */
    async ofSale(tenantId: number, sale: SaleFacts): Promise<KeptSalesTax | null> {
      const result = await calculate(tenantId, { state: sale.state, city: sale.city }, sale.productType, sale.date, {
        retailCents: sale.retailCents,
        dealerCostCents: sale.dealerCostCents,
      })
      if (result.lines.length === 0) return null
      const collectors = new Set(result.lines.map((l) => l.collectedBy))
      const cents = (c: number) => (c / 100).toFixed(2)
      return {
        amount: cents(result.totalCents),
        collectedBy: collectors.size === 1 ? result.lines[0]!.collectedBy : 'MIXED',
        date: sale.date,
        rules: result.lines.map((l) => ({
          ruleId: l.ruleId,
          jurisdiction: l.jurisdiction,
          rate: l.rate,
          taxableBase: l.taxableBase,
          base: cents(l.baseCents),
          tax: cents(l.taxCents),
          collectedBy: l.collectedBy,
        })),
      }
    },

    async list(ctx: AuthenticatedContext, filter: RuleFilter, window: Window) {
      const f = { ...filter, ...(filter.state ? { state: filter.state.toUpperCase() } : {}) }
      return db.read(ctx.tenantId, async (x) => ({
        items: (await listRules(x, ctx.tenantId, f, window)).map(toView),
        totalCount: await countRules(x, ctx.tenantId, f),
      }))
    },

    async get(ctx: AuthenticatedContext, id: number) {
      const row = isStorableId(id) ? await db.read(ctx.tenantId, (x) => findRule(x, ctx.tenantId, id)) : undefined
      if (!row) throw notFound(id)
      return { view: toView(row), version: row.version }
    },

    async create(ctx: AuthenticatedContext, input: RuleInput) {
      const values = ruleValues(input)
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        await assertNoOverlap(tx, ctx.tenantId, values, 0)
        const row = await insertRule(tx, ctx.tenantId, values, now)
        await writeAudit(tx, ctx, now, {
          action: 'sales_tax_rule.created',
          entityType: 'sales_tax_rule',
          entityId: row.id,
          changes: { after: editableOf(row) },
        })
        return { view: toView(row), version: row.version }
      })
    },

    async patch(
      ctx: AuthenticatedContext,
      id: number,
      body: unknown,
      contentType: string | undefined,
      checkVersion: (current: number) => void,
    ) {
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      return db.transaction(ctx.tenantId, async (tx) => {
        const current = await findRule(tx, ctx.tenantId, id, true)
        if (!current) throw notFound(id)
        checkVersion(current.version)
        const before = editableOf(current)
        const next = applyPatch(before, body, contentType, [])
        validateEditable(next)
        const values = ruleValues(next as RuleInput)
        // A rule moved to another state is checked against that state's rules; its old state's lock is not needed.
        await assertNoOverlap(tx, ctx.tenantId, values, id)
        const row = await updateRule(tx, ctx.tenantId, id, values, now)
        await writeAudit(tx, ctx, now, {
          action: 'sales_tax_rule.updated',
          entityType: 'sales_tax_rule',
          entityId: id,
          changes: { before, after: editableOf(row) },
        })
        return { view: toView(row), version: row.version }
      })
    },

    async remove(ctx: AuthenticatedContext, id: number, checkVersion: (current: number) => void) {
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      await db.transaction(ctx.tenantId, async (tx) => {
        const current = await findRule(tx, ctx.tenantId, id, true)
        if (!current) throw notFound(id)
        checkVersion(current.version)
        await deleteRule(tx, ctx.tenantId, id)
        await writeAudit(tx, ctx, now, {
          action: 'sales_tax_rule.deleted',
          entityType: 'sales_tax_rule',
          entityId: id,
          changes: { before: editableOf(current) },
        })
      })
    },

    /** POST /api/salestax/calculations: the tax of a sale; writes nothing. */
    async calculation(ctx: AuthenticatedContext, input: CalculationInput): Promise<CalculationView> {
      const retailCents = amountCents('retailPrice', input.retailPrice)
      const dealerCostCents = input.dealerCost === undefined ? null : amountCents('dealerCost', input.dealerCost)
      const date = input.date ?? (await contracts.today(ctx.tenantId))
      return calculationView(
        await calculate(ctx.tenantId, input, input.productType, date, { retailCents, dealerCostCents }),
      )
    },

    /**
     * GET /api/contracts/{id}/recalculatepurchasesalestax: today's rules for the contract's customer
     * address (contracts keep no county, so county rules do not apply), product type and prices,
     * against the tax kept in its terms. Writes nothing.
     */
    async recalculateForContract(ctx: AuthenticatedContext, contractId: number) {
      const sale = await contracts.saleOf(ctx, contractId)
      const stored = sale.storedSalesTax
      const date = await contracts.today(ctx.tenantId)
      const address = sale.address
      const retailCents = toCents(new Decimal(sale.retailPrice))
      const dealerCostCents = toCents(new Decimal(sale.dealerCost))
      const recalculated =
        address === null
          ? { totalCents: 0, lines: [] }
          : await calculate(ctx.tenantId, { state: address.state, city: address.city }, sale.productType, date, {
              retailCents,
              dealerCostCents,
            })
      const storedCents = stored === null ? null : toCents(new Decimal(String(stored.amount)))
      return {
        contractId: sale.id,
        date,
        location: { state: address?.state ?? null, county: null, city: address?.city ?? null },
        productType: sale.productType,
        retailPrice: retailCents / 100,
        dealerCost: dealerCostCents / 100,
        recalculated: calculationView(recalculated),
        stored: storedCents === null ? null : storedCents / 100,
        difference: (recalculated.totalCents - (storedCents ?? 0)) / 100,
      }
    },
  }
}

export type SalesTaxService = ReturnType<typeof createSalesTaxService>
