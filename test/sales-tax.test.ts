// Sales tax over HTTP (docs/sales-tax.md), on PGlite and PostgreSQL: rule maintenance (create,
// read, list with filters, patch, delete, overlaps refused naming the dates, audit rows), the
// calculation (stacked rules, rounding, dealer cost required, too-precise amounts), and a contract's
// recalculation (today's rules for its customer's address against the tax kept at the sale; dealer-side
// visibility; nothing written).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { systemContext } from '../src/platform/http/context.ts'
import { AppError } from '../src/platform/http/errors.ts'
import { createTestApp, json, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'

type Rule = {
  salesTaxRuleId: number
  state: string
  county: string | null
  city: string | null
  productType: string | null
  rate: number
  taxableBase: string
  collectedBy: string
  effectiveFrom: string
  effectiveTo: string | null
}
type Calculation = {
  salesTax: number
  rules: Array<{
    ruleId: number
    jurisdiction: { level: string }
    rate: number
    base: number
    tax: number
    collectedBy: string
  }>
}

let t: TestApp
let demo: DemoTestTenant
const TODAY = '2026-11-20'

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = {}) {
  return t.app.inject({
    method,
    url,
    headers: { ...demo.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

async function createRule(body: Record<string, unknown>): Promise<Rule> {
  const res = await call('POST', '/api/salestax/rules', body)
  assert.equal(res.statusCode, 201, res.body)
  return json<Rule>(res)
}

async function ruleCount(): Promise<number> {
  const r = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('sales_tax_rule')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', demo.tenantId)
      .executeTakeFirstOrThrow(),
  )
  return Number(r.n)
}

before(async () => {
  t = await createTestApp({ now: new Date(`${TODAY}T18:00:00Z`) })
  demo = await seedDemo(t)
})
after(async () => {
  await t.close()
})

describe('rules', () => {
  let state: Rule
  test('a rule is created, read and audited', async () => {
    state = await createRule({
      state: 'tx',
      rate: 0.0625,
      taxableBase: 'RETAIL_PRICE',
      collectedBy: 'DEALER',
      effectiveFrom: '2026-01-01',
    })
    assert.equal(state.state, 'TX')
    assert.equal(state.rate, 0.0625)
    assert.equal(state.county, null)
    assert.equal(state.productType, null)
    assert.equal(state.effectiveTo, null)
    const read = await call('GET', `/api/salestax/rules/${state.salesTaxRuleId}`)
    assert.equal(read.statusCode, 200, read.body)
    assert.deepEqual(json(read), state)
    assert.ok(read.headers.etag)
    const audits = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('action')
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'sales_tax_rule')
        .where('entity_id', '=', String(state.salesTaxRuleId))
        .execute(),
    )
    assert.deepEqual(
      audits.map((a) => a.action),
      ['sales_tax_rule.created'],
    )
  })

  test('an overlapping rule of the same jurisdiction and product type is refused naming the dates', async () => {
    const rulesBefore = await ruleCount()
    const res = await call('POST', '/api/salestax/rules', {
      state: 'TX',
      rate: 0.07,
      taxableBase: 'RETAIL_PRICE',
      collectedBy: 'DEALER',
      effectiveFrom: '2026-06-01',
      effectiveTo: '2026-12-31',
    })
    assert.equal(res.statusCode, 409, res.body)
    const body = json<{ code: string; detail: string }>(res)
    assert.equal(body.code, 'sales_tax_rule_overlap')
    assert.match(body.detail, /2026-06-01 to 2026-12-31 overlaps rule \d+ \(2026-01-01 to open-ended\)/)
    assert.equal(await ruleCount(), rulesBefore)
  })

  test('the same dates for another product type or jurisdiction are fine', async () => {
    await createRule({
      state: 'TX',
      productType: 'GAP',
      rate: 0,
      taxableBase: 'NONE',
      collectedBy: 'DEALER',
      effectiveFrom: '2026-01-01',
    })
    await createRule({
      state: 'TX',
      city: 'Austin',
      rate: 0.01,
      taxableBase: 'DEALER_COST',
      collectedBy: 'ADMINISTRATOR',
      effectiveFrom: '2026-01-01',
    })
  })

  test('bad input is 422 naming each field', async () => {
    const res = await call('POST', '/api/salestax/rules', {
      state: 'TX',
      county: '  ',
      rate: 0.1234567,
      taxableBase: 'RETAIL_PRICE',
      collectedBy: 'DEALER',
      effectiveFrom: '2026-01-01',
      effectiveTo: '2025-12-31',
    })
    assert.equal(res.statusCode, 422, res.body)
    const body = json<{ code: string; errors: Array<{ field: string }> }>(res)
    assert.equal(body.code, 'sales_tax_rule_invalid')
    assert.deepEqual(body.errors.map((e) => e.field).toSorted(), ['county', 'effectiveTo', 'rate'])
    const type = await call('POST', '/api/salestax/rules', {
      state: 'TX',
      productType: 'BOAT',
      rate: 0.01,
      taxableBase: 'RETAIL_PRICE',
      collectedBy: 'DEALER',
      effectiveFrom: '2026-01-01',
    })
    assert.equal(type.statusCode, 400, type.body)
  })

  test('the list filters by state, product type and day', async () => {
    const all = await call('GET', '/api/salestax/rules?state=TX')
    assert.equal(all.statusCode, 200, all.body)
    assert.equal(all.headers['x-total-count'], '3')
    const gap = json<Rule[]>(await call('GET', '/api/salestax/rules?productType=GAP'))
    assert.deepEqual(gap.map((r) => r.productType).toSorted(), ['GAP', null, null])
    const vsc = json<Rule[]>(await call('GET', '/api/salestax/rules?productType=VSC'))
    assert.equal(vsc.length, 2)
    const past = await call('GET', '/api/salestax/rules?asOf=2025-06-01')
    assert.equal(past.headers['x-total-count'], '0')
    const paged = await call('GET', '/api/salestax/rules?limit=1&offset=1')
    assert.equal(json<Rule[]>(paged).length, 1)
    assert.equal(paged.headers['x-total-count'], '3')
  })

  test('a patch closes a rule, a new one follows it, and an overlapping patch is refused', async () => {
    const closed = await call('PATCH', `/api/salestax/rules/${state.salesTaxRuleId}`, { effectiveTo: '2026-06-30' })
    assert.equal(closed.statusCode, 200, closed.body)
    assert.equal(json<Rule>(closed).effectiveTo, '2026-06-30')
    const next = await createRule({
      state: 'TX',
      rate: 0.0625,
      taxableBase: 'RETAIL_PRICE',
      collectedBy: 'DEALER',
      effectiveFrom: '2026-07-01',
    })
    const reopen = await call('PATCH', `/api/salestax/rules/${state.salesTaxRuleId}`, { effectiveTo: null })
    assert.equal(reopen.statusCode, 409, reopen.body)
    assert.match(json<{ detail: string }>(reopen).detail, new RegExp(`rule ${next.salesTaxRuleId} \\(2026-07-01`))
    const precise = await call(
      'PATCH',
      `/api/salestax/rules/${state.salesTaxRuleId}`,
      [{ op: 'replace', path: '/rate', value: 0.0000001 }],
      { 'content-type': 'application/json-patch+json' },
    )
    assert.equal(precise.statusCode, 422, precise.body)
    const stale = await call(
      'PATCH',
      `/api/salestax/rules/${state.salesTaxRuleId}`,
      { rate: 0.06 },
      { 'if-match': '"1"' },
    )
    assert.equal(stale.statusCode, 412, stale.body)
  })

  test('a rule is deleted, then is 404', async () => {
    const extra = await createRule({
      state: 'OK',
      rate: 0.045,
      taxableBase: 'RETAIL_PRICE',
      collectedBy: 'DEALER',
      effectiveFrom: '2026-01-01',
    })
    const del = await call('DELETE', `/api/salestax/rules/${extra.salesTaxRuleId}`)
    assert.equal(del.statusCode, 204, del.body)
    const gone = await call('GET', `/api/salestax/rules/${extra.salesTaxRuleId}`)
    assert.equal(gone.statusCode, 404, gone.body)
    assert.equal(json<{ code: string }>(gone).code, 'sales_tax_rule_not_found')
    assert.equal((await call('DELETE', `/api/salestax/rules/${extra.salesTaxRuleId}`)).statusCode, 404)
    assert.equal((await call('PATCH', '/api/salestax/rules/99999999', { rate: 0.01 })).statusCode, 404)
  })
})

describe('calculations', () => {
  test('state and city rules stack, each rounded once', async () => {
    const rulesBefore = await ruleCount()
    const res = await call('POST', '/api/salestax/calculations', {
      state: 'TX',
      city: 'austin',
      productType: 'VSC',
      date: '2026-11-20',
      retailPrice: 2695,
      dealerCost: 876.4,
    })
    assert.equal(res.statusCode, 200, res.body)
    const c = json<Calculation>(res)
    assert.deepEqual(
      c.rules.map((r) => [r.jurisdiction.level, r.rate, r.base, r.tax, r.collectedBy]),
      [
        ['STATE', 0.0625, 2695, 168.44, 'DEALER'],
        ['CITY', 0.01, 876.4, 8.76, 'ADMINISTRATOR'],
      ],
    )
    assert.equal(c.salesTax, 177.2)
    assert.equal(await ruleCount(), rulesBefore, 'a calculation writes nothing')
  })

  test('the product type rule replaces the state rule; the date picks the rules then in force', async () => {
    const gap = json<Calculation>(
      await call('POST', '/api/salestax/calculations', { state: 'TX', productType: 'GAP', retailPrice: 795 }),
    )
    assert.equal(gap.salesTax, 0)
    assert.deepEqual(
      gap.rules.map((r) => r.tax),
      [0],
    )
    const earlier = json<Calculation>(
      await call('POST', '/api/salestax/calculations', {
        state: 'TX',
        productType: 'VSC',
        date: '2025-12-31',
        retailPrice: 1000,
      }),
    )
    assert.deepEqual(earlier, { salesTax: 0, rules: [] })
  })

  test('a rule on the dealer cost needs it; amounts have at most 2 decimals', async () => {
    const missing = await call('POST', '/api/salestax/calculations', {
      state: 'TX',
      city: 'Austin',
      productType: 'VSC',
      retailPrice: 2695,
    })
    assert.equal(missing.statusCode, 422, missing.body)
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(missing).errors.map((e) => e.field),
      ['dealerCost'],
    )
    const precise = await call('POST', '/api/salestax/calculations', {
      state: 'TX',
      productType: 'VSC',
      retailPrice: 10.005,
    })
    assert.equal(precise.statusCode, 422, precise.body)
    assert.deepEqual(
      json<{ errors: Array<{ field: string }> }>(precise).errors.map((e) => e.field),
      ['retailPrice'],
    )
  })
})

describe("a contract's recalculation", () => {
  let contract: { id: number; retailPrice: number; dealerCost: number }
  before(async () => {
    contract = await sellDemoContract<{ id: number; retailPrice: number; dealerCost: number }>(t, demo, {
      saleDate: TODAY,
      finalize: true,
      customer: { firstName: 'Sam', lastName: 'Buyer' },
      deal: {
        customer: {
          firstName: 'Sam',
          lastName: 'Buyer',
          address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
        },
      },
    })
  })

  test("today's rules for the customer's address, beside the tax kept at the sale", async () => {
    const rulesBefore = await ruleCount()
    const res = await call('GET', `/api/contracts/${contract.id}/recalculatepurchasesalestax`)
    assert.equal(res.statusCode, 200, res.body)
    const r = json<{
      contractId: number
      date: string
      location: { state: string; county: null; city: string }
      productType: string
      retailPrice: number
      dealerCost: number
      recalculated: Calculation
      stored: number | null
      difference: number
    }>(res)
    assert.equal(r.contractId, contract.id)
    assert.equal(r.date, TODAY)
    assert.deepEqual(r.location, { state: 'TX', county: null, city: 'Austin' })
    assert.equal(r.productType, 'VSC')
    const retail = Math.round(r.retailPrice * 100)
    const cost = Math.round(r.dealerCost * 100)
    // TX 6.25% of the retail price and Austin 1% of the dealer cost (the TX rule of today: from 2026-07-01).
    const expected = Math.round(retail * 0.0625 + 1e-9) + Math.round(cost * 0.01 + 1e-9)
    assert.equal(Math.round(r.recalculated.salesTax * 100), expected)
    // Sold today under the same rules: the tax kept in its terms is today's, to the cent.
    assert.equal(Math.round((r.stored ?? NaN) * 100), expected)
    assert.equal(r.difference, 0)
    assert.equal(await ruleCount(), rulesBefore)
  })

  test('a contract the caller cannot see is 404', async () => {
    const missing = await call('GET', '/api/contracts/99999999/recalculatepurchasesalestax')
    assert.equal(missing.statusCode, 404, missing.body)
    assert.equal(json<{ code: string }>(missing).code, 'contract_not_found')
    const ctx = systemContext(demo.tenantId, 'dealer-side')
    const dealerSide = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set<number>([-1]) } }
    await assert.rejects(
      t.modules.salesTax.service.recalculateForContract(dealerSide, contract.id),
      (e) => e instanceof AppError && e.code === 'contract_not_found',
    )
  })
})
