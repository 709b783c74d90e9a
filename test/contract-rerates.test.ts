// Rerating a contract (issue 16; docs/contracts.md "Rerating"), on PGlite and PostgreSQL: a pending
// contract repriced; a finalized one posting only the difference (CONTRACT_RERATED, balanced, sales tax
// included), its earnings resynced; a dry run that writes nothing; the prices checked against a fresh
// quote of the corrected facts to the cent; ineligible facts refused naming the rule; wrong states
// 409; another tenant's contract 404.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTenant, createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import type { RateQuote } from '../src/modules/rating/index.ts'

type Line = { code: string; amount: number; source: string; optionCode: string | null; payeeAccountHolderId: number }
type Side = {
  rateId: string
  saleOdometer: number | null
  expirationOdometer: number | null
  retailPrice: number
  optionsRetail: number
  dealerCost: number
  salesTax: number
  lines: Line[]
  options: Array<{ id: number; code: string }>
}
type Rerate = {
  id: number | null
  contractId: number
  contractStatus: string
  dryRun: boolean
  changed: string[]
  before: Side
  after: Side
  difference: {
    dealerCostCents: number
    retailPriceCents: number
    optionsRetailCents: number
    salesTaxCents: number
    totalPriceCents: number
  }
  postedLines: Array<{
    accountHolderId: number
    purpose: string
    side: 'DEBIT' | 'CREDIT'
    amount: number
    disbursementCode: string | null
  }>
  journalEntryId: number | null
  earningsEntryId: number | null
}
type Problem = {
  code: string
  errors?: Array<{ field: string; code: string; message: string }>
  exclusions?: Array<{ reason: string; criteria: string | null }>
}
type ContractView = {
  id: number
  status: string
  saleOdometer: number | null
  expirationOdometer: number | null
  pricing: { rateId: string; dealerCost: number; retailPrice: number }
  terms: { salesTax: { amount: number } | null }
}

const SALE = '2026-11-02'
const TODAY = '2026-11-20'
const cents = (n: number) => Math.round(n * 100)
let t: TestApp
let demo: DemoTestTenant
let active: { id: number; contractNumber: string; status: string }
let pending: { id: number }
let roadside: number

async function send(method: 'POST' | 'GET', url: string, payload?: unknown, headers = demo.headers) {
  return t.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}
const rerate = (id: number, body: Record<string, unknown>) => send('POST', `/api/contracts/${id}/rerateRequests`, body)
const contract = async (id: number) => json<ContractView>(await send('GET', `/api/contracts/${id}`))

before(async () => {
  t = await createTestApp({ now: new Date(`${SALE}T18:00:00Z`) })
  demo = await seedDemo(t)
  // The administrator collects Texas tax on the dealer cost: a rerate that moves the cost moves the tax.
  const rule = await send('POST', '/api/salestax/rules', {
    state: 'TX',
    rate: 0.0625,
    taxableBase: 'DEALER_COST',
    collectedBy: 'ADMINISTRATOR',
    effectiveFrom: '2026-01-01',
  })
  assert.equal(rule.statusCode, 201, rule.body)
  const customer = {
    firstName: 'Rae',
    lastName: 'Rerate',
    emailAddress: 'rae@example.com',
    address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
  }
  active = await sellDemoContract(t, demo, { saleDate: SALE, finalize: true, deal: { customer } })
  pending = await sellDemoContract(t, demo, { saleDate: '2026-11-01' })
  const quote = await send(
    'GET',
    `/api/Rates/rateQuote/${DEMO.dealerNumber}?${DEMO.accordQuery}&saleDate=${SALE}&productTypes=VSC`,
  )
  const plan = json<RateQuote>(quote)
    .products.flatMap((p) => p.programs.flatMap((g) => g.plans))
    .find((p) => p.planCode === 'PLAT-USED')!
  roadside = plan.terms[0]!.deductibles[0]!.options.find((o) => o.code === 'ROADSIDE')!.optionId
  await moveTo(`${TODAY}T18:00:00Z`)
})
after(async () => t.close())

/** Moves the clock; the access token of the old day has expired, so the admin logs in again. */
async function moveTo(at: string) {
  t.clock.set(new Date(at))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
}

/** The dealer cost of PLAT-USED's first rate in a fresh quote of the Accord at `odometer` on the sale date. */
async function quotedDealerCost(odometer: number): Promise<number> {
  const query = DEMO.accordQuery.replace('odometer=42150', `odometer=${odometer}`)
  const res = await send(
    'GET',
    `/api/Rates/rateQuote/${DEMO.dealerNumber}?${query}&saleDate=${SALE}&productTypes=VSC&customerState=TX`,
  )
  assert.equal(res.statusCode, 200, res.body)
  const plan = json<RateQuote>(res)
    .products.flatMap((p) => p.programs.flatMap((g) => g.plans))
    .find((p) => p.planCode === 'PLAT-USED')!
  return plan.terms[0]!.deductibles[0]!.rate.dealerCost
}

const sumCents = (lines: Array<{ amount: number }>) => lines.reduce((n, l) => n + cents(l.amount), 0)

describe('contract rerates', () => {
  test('a pending contract gets its new pricing; nothing is posted', async () => {
    const was = await contract(pending.id)
    const res = await rerate(pending.id, { saleOdometer: 52150, reason: 'Odometer misread' })
    assert.equal(res.statusCode, 201, res.body)
    const r = json<Rerate>(res)
    assert.equal(r.contractStatus, 'PENDING')
    assert.deepEqual(r.changed, ['saleOdometer'])
    assert.equal(r.before.dealerCost, was.pricing.dealerCost)
    assert.equal(cents(r.after.dealerCost), sumCents(r.after.lines))
    assert.ok(r.after.dealerCost > r.before.dealerCost, 'the second odometer band costs more')
    assert.equal(r.difference.dealerCostCents, cents(r.after.dealerCost) - cents(r.before.dealerCost))
    assert.deepEqual([r.postedLines, r.journalEntryId, r.earningsEntryId], [[], null, null])
    const now = await contract(pending.id)
    assert.equal(now.status, 'PENDING')
    assert.deepEqual(
      [now.saleOdometer, now.expirationOdometer, now.pricing.dealerCost, now.pricing.rateId],
      [52150, 52150 + 24000, r.after.dealerCost, r.after.rateId],
    )
    assert.notEqual(
      r.after.rateId,
      r.before.rateId,
      'another rate (odometer band) of the same plan, term and deductible',
    )
    const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: pending.id })
    assert.equal(entries.length, 0)
    const list = await send('GET', `/api/contracts/${pending.id}/rerateRequests`)
    assert.equal(list.statusCode, 200, list.body)
    const page = json<{ totalCount: number; items: Rerate[] }>(list)
    assert.equal(page.totalCount, 1)
    assert.deepEqual(page.items[0]!.difference, r.difference)
  })

  test('a finalized contract posts only the difference, balanced, with its sales tax; earnings resynced', async () => {
    const was = await contract(active.id)
    assert.equal(was.status, 'ACTIVE')
    const body = { saleOdometer: 52150, selectedOptionIds: [roadside], reason: 'Title shows 52,150; roadside added' }

    // A dry run answers the same rerate and changes nothing.
    const dry = await rerate(active.id, { ...body, dryRun: true })
    assert.equal(dry.statusCode, 200, dry.body)
    const preview = json<Rerate>(dry)
    assert.deepEqual([preview.id, preview.dryRun, preview.journalEntryId], [null, true, null])
    assert.deepEqual(await contract(active.id), was)
    const listed = json<{ totalCount: number }>(await send('GET', `/api/contracts/${active.id}/rerateRequests`))
    assert.equal(listed.totalCount, 0)

    const res = await rerate(active.id, body)
    assert.equal(res.statusCode, 201, res.body)
    const r = json<Rerate>(res)
    assert.equal(r.contractStatus, 'ACTIVE')
    assert.deepEqual(r.changed.toSorted(), ['saleOdometer', 'selectedOptionIds'])
    assert.deepEqual(r.difference, preview.difference)
    assert.deepEqual(r.postedLines, preview.postedLines)

    // Money exact: the new rate is what a fresh quote of the corrected facts prices, to the cent.
    const option = r.after.lines.filter((l) => l.optionCode === 'ROADSIDE')
    assert.deepEqual(
      option.map((l) => [l.code, l.amount]),
      [['ADM', 35]],
    )
    assert.equal(cents(r.after.dealerCost) - sumCents(option), cents(await quotedDealerCost(52150)))
    assert.equal(cents(r.before.dealerCost), cents(await quotedDealerCost(42150)))
    assert.equal(r.difference.optionsRetailCents, 9900)
    // Tax: 6.25 % of the dealer cost, rounded once, half up.
    const tax = (c: number) => Math.floor((c * 625 + 5000) / 10000)
    assert.equal(cents(r.before.salesTax), tax(cents(r.before.dealerCost)))
    assert.equal(cents(r.after.salesTax), tax(cents(r.after.dealerCost)))
    assert.equal(r.difference.salesTaxCents, cents(r.after.salesTax) - cents(r.before.salesTax))

    // The entry: the dealer owes the cost and tax difference; each payee's line difference, the tax payable.
    assert.ok(r.journalEntryId)
    const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: active.id })
    const entry = entries.find((e) => e.entryId === r.journalEntryId)!
    assert.equal(entry.kind, 'CONTRACT_RERATED')
    assert.equal(cents(entry.totalDebit), cents(entry.totalCredit))
    const receivable = r.postedLines.filter((l) => l.purpose === 'DEALER_RECEIVABLE')
    assert.equal(sumCents(receivable), r.difference.dealerCostCents + r.difference.salesTaxCents)
    const taxLine = r.postedLines.filter((l) => l.purpose === 'SALES_TAX_PAYABLE')
    assert.equal(sumCents(taxLine), r.difference.salesTaxCents)
    assert.equal(
      sumCents(r.postedLines.filter((l) => l.side === 'CREDIT')),
      sumCents(r.postedLines.filter((l) => l.side === 'DEBIT')),
    )
    // Over every CONTRACT entry, the dealer owes exactly the new dealer cost plus the new tax.
    let owed = 0
    for (const e of entries)
      for (const l of e.lines) if (l.purpose === 'DEALER_RECEIVABLE') owed += cents(l.debit) - cents(l.credit)
    assert.equal(owed, cents(r.after.dealerCost) + cents(r.after.salesTax))

    // Earnings resynced: the sync posted what the new lines have earned since the effective date; a
    // second sync finds nothing due.
    assert.ok(r.earningsEntryId, 'the resync posted')
    const again = await send('POST', `/api/contracts/${active.id}/syncEarnings`, {})
    assert.equal(again.statusCode, 200, again.body)
    assert.equal(json<{ outcome: string }>(again).outcome, 'NOTHING_DUE')

    const now = await contract(active.id)
    assert.deepEqual(
      [now.status, now.saleOdometer, now.pricing.dealerCost, now.terms.salesTax?.amount],
      ['ACTIVE', 52150, r.after.dealerCost, r.after.salesTax],
    )
    // Nothing more to post: a refinalize finds the books as the lines call for.
    const refinalize = await send('POST', `/api/contracts/${active.id}/refinalize`, {})
    assert.equal(refinalize.statusCode, 200, refinalize.body)
    assert.equal(json<{ journalEntry: unknown }>(refinalize).journalEntry, null)
  })

  test('facts the rate is not offered for: 422 naming the rule; nothing written', async () => {
    const res = await rerate(active.id, { saleOdometer: 120000 })
    assert.equal(res.statusCode, 422, res.body)
    const p = json<Problem>(res)
    assert.equal(p.code, 'rerate_ineligible')
    assert.ok(
      p.errors?.some((e) => e.field === 'plan' && e.code === 'CRITERIA' && e.message.includes('odometer <= 100000')),
      res.body,
    )
    assert.ok(
      p.exclusions?.some((e) => e.criteria?.includes('odometer <= 100000')),
      res.body,
    )
    const bad = [
      [{ termId: 987654321 }, 'termId'],
      [{ vehicle: { vin: '1HGCV1F30LA012345' } }, 'vehicle/vin'],
      [{ retailPrice: 1 }, 'retailPrice'],
    ] as const
    for (const [body, field] of bad) {
      const r = await rerate(active.id, body)
      assert.equal(r.statusCode, 422, r.body)
      assert.equal(json<Problem>(r).code, 'contract_invalid', r.body)
      assert.ok(
        json<Problem>(r).errors?.some((e) => e.field === field),
        r.body,
      )
    }
    const schema = await rerate(active.id, { saleOdometer: -1, dryRun: 'yes' })
    assert.equal(schema.statusCode, 400, schema.body)
    const list = json<{ totalCount: number }>(await send('GET', `/api/contracts/${active.id}/rerateRequests`))
    assert.equal(list.totalCount, 1, 'only the applied rerate')
  })

  test('a finalized contract come into effect: its activation is recorded first; a new term resolves its terms', async () => {
    // Sold and finalized on a later day for an effective date that has since passed: stored FINALIZED, read ACTIVE.
    await moveTo('2026-11-06T18:00:00Z')
    const later = await sellDemoContract(t, demo, {
      saleDate: '2026-11-06',
      effectiveDate: '2026-11-10',
      finalize: true,
    })
    assert.equal(later.status, 'FINALIZED')
    await moveTo(`${TODAY}T18:00:00Z`)
    const quote = await send(
      'GET',
      `/api/Rates/rateQuote/${DEMO.dealerNumber}?${DEMO.accordQuery}&saleDate=2026-11-06&productTypes=VSC`,
    )
    const plan = json<RateQuote>(quote)
      .products.flatMap((p) => p.programs.flatMap((g) => g.plans))
      .find((p) => p.planCode === 'PLAT-USED')!
    const longer = plan.terms[1]!
    const res = await rerate(later.id, { termId: longer.termId })
    assert.equal(res.statusCode, 201, res.body)
    const r = json<Rerate>(res)
    assert.equal(r.contractStatus, 'ACTIVE')
    assert.deepEqual(r.changed, ['termId'])
    assert.equal(cents(r.after.dealerCost), cents(longer.deductibles[0]!.rate.dealerCost))
    const history = json<{ items: Array<{ event: string }> }>(
      await send('GET', `/api/contracts/${later.id}/statushistory`),
    )
    assert.deepEqual(
      history.items.map((h) => h.event),
      ['CREATE', 'FINALIZE', 'ACTIVATE'],
    )
    const now = json<{ status: string; expirationDate: string; terms: { term: { code: string } } }>(
      await send('GET', `/api/contracts/${later.id}`),
    )
    assert.deepEqual(
      [now.status, now.terms.term.code, now.expirationDate],
      ['ACTIVE', longer.termCode, `${2026 + longer.termMonths / 12}-11-10`],
    )
  })

  test('a cancelled or voided contract: 409; another tenant’s contract: 404', async () => {
    const cancelled = await sellDemoContract(t, demo, { saleDate: '2026-11-05', finalize: true })
    const cancel = await send('POST', `/api/contracts/${cancelled.id}/cancels`, {
      cancelDate: TODAY,
      cancelOdometer: 43000,
      cancelReasonCode: 'CUSTOMER_REQUEST',
    })
    assert.equal(cancel.statusCode, 201, cancel.body)
    const res = await rerate(cancelled.id, { saleOdometer: 42200 })
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(json<Problem>(res).code, 'contract_state_conflict')

    const other = await createTenant(t, 'Other tenant')
    for (const [method, payload] of [
      ['POST', { saleOdometer: 42200 }],
      ['GET', undefined],
    ] as const) {
      const r = await send(method, `/api/contracts/${active.id}/rerateRequests`, payload, other.headers)
      assert.equal(r.statusCode, 404, r.body)
      assert.equal(json<Problem>(r).code, 'contract_not_found')
    }
    const missing = await rerate(987654321, { saleOdometer: 1 })
    assert.equal(missing.statusCode, 404, missing.body)
  })
})
