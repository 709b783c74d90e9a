// Sales tax kept at the sale and posted at finalize (docs/sales-tax.md "At sale", "At finalize"), on
// PGlite and PostgreSQL: a state rule the ADMINISTRATOR collects is kept in the terms and posted in the
// CONTRACT_FINALIZED entry (Dr DEALER_RECEIVABLE / Cr SALES_TAX_PAYABLE, balanced); a rule the DEALER
// collects is kept only; a tax-exempt sale and a state without rules keep none and post as before;
// a reprice of a PENDING contract recomputes the kept tax.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'

type KeptTax = {
  amount: number
  collectedBy: string
  date: string
  rules: Array<{ ruleId: number; rate: number; base: number; tax: number; collectedBy: string }>
}
type Sold = { id: number; status: string; pricing: { retailPrice: number }; terms: { salesTax: KeptTax | null } }
type Line = { accountHolderId: number; purpose: string; debit: number; credit: number }

let t: TestApp
let demo: DemoTestTenant
const TODAY = '2026-11-20'
const cents = (n: number) => Math.round(n * 100)

async function call(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = {}) {
  return t.app.inject({
    method,
    url,
    headers: { ...demo.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

async function rule(body: Record<string, unknown>): Promise<number> {
  const res = await call('POST', '/api/salestax/rules', {
    taxableBase: 'RETAIL_PRICE',
    effectiveFrom: '2026-01-01',
    ...body,
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ salesTaxRuleId: number }>(res).salesTaxRuleId
}

// Each sale on its own day: the same VIN, plan and day twice would be a duplicate (contract.service.ts).
let salesMade = 0
const saleDay = (n: number) => `2026-11-${String(20 - n).padStart(2, '0')}`

function sell(state: string, extra: { finalize?: boolean; deal?: Record<string, unknown> } = {}) {
  const customer = {
    firstName: 'Tam',
    lastName: `Buyer${state}`,
    address: { line1: '1 Main St', city: 'Springfield', state, postalCode: '10001' },
  }
  return sellDemoContract<Sold>(t, demo, {
    saleDate: saleDay(salesMade++),
    finalize: extra.finalize ?? false,
    deal: { customer, ...extra.deal },
  })
}

async function contractLines(contractId: number): Promise<Array<Line & { kind: string }>> {
  const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: contractId })
  return entries.flatMap((e) => e.lines.map((l) => ({ ...l, kind: e.kind })))
}

const sum = (lines: Line[], pick: (l: Line) => number) => lines.reduce((n, l) => n + cents(pick(l)), 0)

before(async () => {
  t = await createTestApp({ now: new Date(`${TODAY}T18:00:00Z`) })
  demo = await seedDemo(t)
})
after(async () => {
  await t.close()
})

describe('no rule for the state', () => {
  test('keeps no tax and posts the sale as before', async () => {
    const sold = await sell('NV', { finalize: true })
    assert.equal(sold.terms.salesTax, null)
    const lines = await contractLines(sold.id)
    assert.ok(lines.length > 0)
    assert.ok(lines.every((l) => l.purpose !== 'SALES_TAX_PAYABLE'))
    assert.equal(
      sum(lines, (l) => l.debit),
      sum(lines, (l) => l.credit),
    )
  })
})

describe('a state rule the ADMINISTRATOR collects', () => {
  let ruleId: number
  before(async () => {
    ruleId = await rule({ state: 'AZ', rate: 0.056, collectedBy: 'ADMINISTRATOR' })
  })

  test('is kept at the sale and shown on the contract', async () => {
    const sold = await sell('AZ')
    const tax = sold.terms.salesTax
    assert.ok(tax, 'a tax is kept')
    const expected = Math.round(cents(sold.pricing.retailPrice) * 0.056 + 1e-9)
    assert.equal(cents(tax.amount), expected)
    assert.equal(tax.collectedBy, 'ADMINISTRATOR')
    assert.match(tax.date, /^2026-11-\d\d$/)
    assert.deepEqual(
      tax.rules.map((r) => [r.ruleId, r.rate, cents(r.base), cents(r.tax), r.collectedBy]),
      [[ruleId, 0.056, cents(sold.pricing.retailPrice), expected, 'ADMINISTRATOR']],
    )
    const shown = await call('GET', `/api/contracts/${sold.id}`)
    assert.equal(shown.statusCode, 200, shown.body)
    assert.deepEqual(json<Sold>(shown).terms.salesTax, tax)
  })

  test('finalize posts it in the CONTRACT_FINALIZED entry, balanced', async () => {
    const sold = await sell('AZ', { finalize: true })
    const taxCents = cents(sold.terms.salesTax!.amount)
    const lines = await contractLines(sold.id)
    assert.ok(lines.every((l) => l.kind === 'CONTRACT_FINALIZED'))
    const payable = lines.filter((l) => l.purpose === 'SALES_TAX_PAYABLE')
    const administratorId = await t.modules.parties.contractParties.administratorId(demo.tenantId)
    assert.deepEqual(
      payable.map((l) => [l.accountHolderId, cents(l.credit), cents(l.debit)]),
      [[administratorId, taxCents, 0]],
    )
    const receivable = lines.filter((l) => l.purpose === 'DEALER_RECEIVABLE')
    // The dealer owes its dealer cost and the tax it collected for the administrator.
    const dealerCost = (
      await t.db.read(demo.tenantId, (x) =>
        x
          .selectFrom('contract')
          .select('dealer_cost')
          .where('tenant_id', '=', demo.tenantId)
          .where('id', '=', sold.id)
          .executeTakeFirstOrThrow(),
      )
    ).dealer_cost
    assert.equal(
      sum(receivable, (l) => l.debit),
      cents(Number(dealerCost)) + taxCents,
    )
    assert.equal(
      sum(lines, (l) => l.debit),
      sum(lines, (l) => l.credit),
    )
  })

  test('a reprice of the PENDING contract recomputes the kept tax', async () => {
    const sold = await sell('AZ')
    const got = await call('GET', `/api/contracts/${sold.id}`)
    const etag = got.headers.etag as string
    const retail = sold.pricing.retailPrice - 10
    const res = await call('PATCH', `/api/contracts/${sold.id}`, { retailPrice: retail }, { 'if-match': etag })
    assert.equal(res.statusCode, 200, res.body)
    const tax = json<Sold>(res).terms.salesTax
    assert.equal(cents(tax!.amount), Math.round(cents(retail) * 0.056 + 1e-9))
  })

  test('a tax-exempt sale keeps none', async () => {
    const sold = await sell('AZ', { finalize: true, deal: { taxExempt: true } })
    assert.equal(sold.terms.salesTax, null)
    assert.ok((await contractLines(sold.id)).every((l) => l.purpose !== 'SALES_TAX_PAYABLE'))
  })
})

describe('a rule the DEALER collects', () => {
  test('is kept in the snapshot only: nothing posted', async () => {
    await rule({ state: 'NM', rate: 0.05, collectedBy: 'DEALER' })
    const sold = await sell('NM', { finalize: true })
    const tax = sold.terms.salesTax
    assert.ok(tax)
    assert.equal(tax.collectedBy, 'DEALER')
    assert.equal(cents(tax.amount), Math.round(cents(sold.pricing.retailPrice) * 0.05 + 1e-9))
    const lines = await contractLines(sold.id)
    assert.ok(lines.every((l) => l.purpose !== 'SALES_TAX_PAYABLE'))
    assert.equal(
      sum(lines, (l) => l.debit),
      sum(lines, (l) => l.credit),
    )
  })
})

// Last: it moves the clock past the free-look.
describe('a cancel mid-term', () => {
  test('refunds U x the tax the administrator holds, rounded once, from SALES_TAX_PAYABLE; balanced', async () => {
    await rule({ state: 'UT', rate: 0.0685, collectedBy: 'ADMINISTRATOR' })
    const sold = await sell('UT', { finalize: true })
    const taxCents = cents(sold.terms.salesTax!.amount)
    t.clock.set(new Date('2027-06-10T18:00:00Z'))
    demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
    const res = await call('POST', `/api/contracts/${sold.id}/cancels`, {
      cancelDate: '2027-06-09',
      cancelOdometer: 47150,
      cancelReasonCode: 'CUSTOMER_REQUEST',
    })
    assert.equal(res.statusCode, 201, res.body)
    const cancel = json<{
      calculation: {
        decidedBy: string
        unearnedRatio: string
        grossRefund: number
        cancelFee: number
        claimsDeducted: number
        salesTaxRefund: number
        netCustomerRefund: number
      }
      payments: Array<{ kind: string; amount: number }>
    }>(res)
    const calc = cancel.calculation
    assert.equal(calc.decidedBy, 'METHOD')
    // U exact, applied once to the tax, half up (the same arithmetic as the gross: money.md).
    const [num, den] = calc.unearnedRatio.split('/').map(BigInt) as [bigint, bigint]
    assert.ok(num > 0n && num < den, `mid-term: 0 < U < 1 (${calc.unearnedRatio})`)
    const product = BigInt(taxCents) * num
    const expected = Number(product / den + (2n * (product % den) >= den ? 1n : 0n))
    assert.equal(cents(calc.salesTaxRefund), expected)
    assert.ok(expected > 0 && expected < taxCents)
    // The payee's refund is the net of the price plus the tax refunded, in one payment.
    const net = cents(calc.grossRefund) - cents(calc.cancelFee) - cents(calc.claimsDeducted)
    assert.equal(cents(calc.netCustomerRefund), net + expected)
    assert.equal(cents(cancel.payments.find((p) => p.kind === 'REFUND')!.amount), net + expected)

    const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, {
      type: 'CANCELLATION',
      id: json<{ id: number }>(res).id,
    })
    assert.equal(entries.length, 1)
    const lines = entries[0]!.lines
    assert.equal(entries[0]!.kind, 'CONTRACT_CANCELLED')
    const administratorId = await t.modules.parties.contractParties.administratorId(demo.tenantId)
    assert.deepEqual(
      lines.filter((l) => l.purpose === 'SALES_TAX_PAYABLE').map((l) => [l.accountHolderId, cents(l.debit)]),
      [[administratorId, expected]],
    )
    assert.equal(
      sum(
        lines.filter((l) => l.purpose === 'REFUND_PAYABLE'),
        (l) => l.credit,
      ),
      net + expected,
    )
    assert.equal(
      sum(lines, (l) => l.debit),
      sum(lines, (l) => l.credit),
    )
    // What stays payable to the state is the earned share of the tax.
    const all = [...(await contractLines(sold.id)), ...lines].filter((l) => l.purpose === 'SALES_TAX_PAYABLE')
    assert.equal(sum(all, (l) => l.credit) - sum(all, (l) => l.debit), taxCents - expected)
  })
})
