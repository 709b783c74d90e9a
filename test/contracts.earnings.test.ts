// GET /api/contracts/{contractId}/earningdetails (docs/earnings.md): each priced line earned by its
// method from the contract's terms, as of a date, with a schedule that adds up to the line; a
// cancelled contract stops earning on its cancel date; a voided one earns nothing.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { systemContext } from '../src/platform/http/context.ts'
import { daysBetween } from '../src/platform/calendar.ts'
import type { RateQuote } from '../src/modules/rating/index.ts'
import { DEMO, seedDemo, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, json, type TestApp } from './harness.ts'

const NOW = new Date('2026-11-21T18:00:00Z')

let t: TestApp
let demo: DemoTestTenant

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
})
after(() => t.close())

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, headers = demo.headers) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })

type Line = {
  lineNumber: number
  code: string
  method: string
  amount: number
  earnedToDate: number
  unearned: number
  earnedFraction: string
  schedule: Array<{ periodStart: string; periodEnd: string; earnedThisPeriod: number; earnedToDate: number }> | null
}
type Details = {
  asOf: string
  requestedAsOf: string
  earningsStoppedOn: string | null
  effectiveDate: string
  expirationDate: string
  totals: { amount: number; earnedToDate: number; unearned: number }
  lines: Line[]
}
type Contract = {
  id: number
  effectiveDate: string
  expirationDate: string
  pricing: { dealerCost: number; lines: Array<{ code: string; amount: number }> }
}

const cents = (n: number) => Math.round(n * 100)

async function sell(saleDate: string): Promise<Contract> {
  const q = await inject(
    'GET',
    `/api/Rates/rateQuote/${DEMO.dealerNumber}?${DEMO.accordQuery}&saleDate=${saleDate}&productTypes=VSC`,
  )
  assert.equal(q.statusCode, 200, q.body)
  const quote = json<RateQuote>(q)
  const plan = quote.products
    .flatMap((p) => p.programs.flatMap((g) => g.plans))
    .find((p) => p.planCode === 'PLAT-USED')!
  const rate = plan.terms[0]!.deductibles[0]!.rate
  const res = await inject('POST', '/api/contracts', {
    quoteId: quote.quoteId,
    rateId: rate.rateId,
    retailPrice: rate.suggestedRetail,
    saleDate,
    saleOdometer: 42150,
    vehicle: { vin: DEMO.vins.accord },
    customer: { firstName: 'Erin', lastName: 'Earnings', emailAddress: 'erin@example.com' },
    customFields: { financeManagerCode: 'FM7' },
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<Contract>(res)
}

const details = async (id: number, query = '') => {
  const res = await inject('GET', `/api/contracts/${id}/earningdetails${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Details>(res)
}

test('every line: earned + unearned = amount, the schedule adds up to the line, pro rata by days to the cent', async () => {
  const c = await sell('2026-11-10')
  const asOf = '2027-05-31'
  const d = await details(c.id, `?asOf=${asOf}`)
  assert.equal(d.asOf, asOf)
  assert.equal(d.earningsStoppedOn, null)
  assert.equal(d.effectiveDate, c.effectiveDate)
  assert.deepEqual(
    d.lines.map((l) => [l.code, l.amount]),
    c.pricing.lines.map((l) => [l.code, l.amount]),
    'one line per priced line, in order',
  )
  assert.equal(cents(d.totals.amount), cents(c.pricing.dealerCost))
  for (const l of d.lines) {
    assert.equal(cents(l.earnedToDate) + cents(l.unearned), cents(l.amount), l.code)
    const sum = l.schedule!.reduce((s, p) => s + cents(p.earnedThisPeriod), 0)
    assert.equal(sum, cents(l.amount), `${l.code}: the periods add up to the line`)
    assert.equal(l.schedule!.at(-1)!.periodEnd, c.expirationDate)
    if (l.method === 'PRO_RATA_DAYS') {
      // round(A·d/D) half up, computed here independently.
      const D = BigInt(daysBetween(c.effectiveDate, c.expirationDate))
      const dd = BigInt(Math.max(0, daysBetween(c.effectiveDate, asOf)))
      const a = BigInt(cents(l.amount))
      const expected = (2n * a * dd + D) / (2n * D)
      assert.equal(BigInt(cents(l.earnedToDate)), expected, l.code)
      assert.equal(l.earnedFraction, `${dd}/${D}`)
    }
  }
  const sums = d.lines.reduce((s, l) => s + cents(l.earnedToDate), 0)
  assert.equal(sums, cents(d.totals.earnedToDate))
})

test('before the effective date nothing is earned; from the expiration date everything; schedule=false leaves it out', async () => {
  const c = await sell('2026-11-11')
  const early = await details(c.id, `?asOf=2020-01-01&schedule=false`)
  assert.equal(early.totals.earnedToDate, 0)
  assert.ok(early.lines.every((l) => l.schedule === null))
  const late = await details(c.id, `?asOf=${c.expirationDate}`)
  assert.equal(cents(late.totals.earnedToDate), cents(late.totals.amount))
  assert.equal(late.totals.unearned, 0)
})

test('a cancelled contract stops earning on its cancel date; a voided one is 409; bad dates 400; another tenant 404', async () => {
  const c = await sell('2026-11-12')
  const fin = await inject('POST', `/api/contracts/${c.id}/finalize`, {})
  assert.equal(fin.statusCode, 200, fin.body)
  const ctx = systemContext(demo.tenantId, 'earnings-test')
  const cancelDate = '2026-11-20'
  await t.db.transaction(demo.tenantId, (tx) =>
    t.modules.contracts.servicing.applyTransition(tx, ctx, c.id, {
      event: 'CANCEL',
      effectiveDate: cancelDate,
      source: { type: 'CANCELLATION' },
    }),
  )
  const later = await details(c.id, '?asOf=2027-06-30')
  assert.equal(later.asOf, cancelDate)
  assert.equal(later.requestedAsOf, '2027-06-30')
  assert.equal(later.earningsStoppedOn, cancelDate)
  assert.deepEqual(later.totals, (await details(c.id, `?asOf=${cancelDate}`)).totals)
  assert.ok(later.lines.every((l) => l.schedule!.every((p) => p.periodEnd <= cancelDate)))

  const pending = await sell('2026-11-13')
  await t.db.transaction(demo.tenantId, (tx) =>
    t.modules.contracts.servicing.applyTransition(tx, ctx, pending.id, {
      event: 'VOID',
      effectiveDate: '2026-11-21',
      source: { type: 'PROCESS' },
    }),
  )
  const voided = await inject('GET', `/api/contracts/${pending.id}/earningdetails`)
  assert.equal(voided.statusCode, 409, voided.body)
  assert.equal(json<{ code: string }>(voided).code, 'contract_state_conflict')

  for (const bad of ['?asOf=2026-02-30', '?asOf=yesterday', '?schedule=maybe', '?limit=3']) {
    const res = await inject('GET', `/api/contracts/${c.id}/earningdetails${bad}`)
    assert.equal(res.statusCode, 400, `${bad}: ${res.body}`)
  }

  const other = await createTenant(t, 'Earnings other tenant')
  const foreign = await inject('GET', `/api/contracts/${c.id}/earningdetails`, undefined, other.headers)
  assert.equal(foreign.statusCode, 404, foreign.body)
})
