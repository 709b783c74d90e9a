// Cash, model-based (fast-check): random sequences of receipts (oldest first or chosen), further
// applications and returned payments against a dealer with three finalized sales. After each command
// the views reconcile with the ledger and the model:
// - Σ open items − Σ negative items = the receivable balance (both read from the journal);
// - per contract: the receivable = the sale's amount − the applications not reversed (nothing applied twice);
// - the payer's UNAPPLIED_CASH balance = Σ unappliedAmount of its cash = received − applied − returned.
// Sales are made once, before the runs (selling through the API takes most of a second each).
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { systemContext } from '../src/platform/http/context.ts'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'

type Cash = {
  id: number
  amount: number
  appliedAmount: number
  unappliedAmount: number
  status: string
  applications: Array<{ contractId: number; amount: number; reversed: boolean }>
}
type Model = { cash: Map<number, { amountCents: number; appliedCents: number; returned: boolean }> }
type Real = { ids: number[] }

let t: TestApp
let demo: DemoTestTenant
let dealerId: number
const contracts: number[] = []
/** Each sale's receivable, in cents, before any cash. */
const sold = new Map<number, number>()
const cents = (n: number) => Math.round(n * 100)

async function call(method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: demo.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

async function allCash(): Promise<Cash[]> {
  const res = await call('GET', `/api/cashtransactions?payerId=${dealerId}&limit=1000`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Cash[]>(res)
}

async function reconcile(model: Model): Promise<void> {
  const items = await t.modules.finance.cash.openItems(systemContext(demo.tenantId), dealerId)
  const balances = await t.modules.finance.ledger.balances(demo.tenantId, dealerId)
  const receivable = balances.find((b) => b.purpose === 'DEALER_RECEIVABLE')!
  const unapplied = balances.find((b) => b.purpose === 'UNAPPLIED_CASH')
  const cash = await allCash()
  // Open items: with no cancels here, no negative items; Σ open = the receivable balance.
  assert.equal(
    items.reduce((s, i) => s + i.openCents, 0),
    cents(receivable.balance),
    'Σ open items = receivable',
  )
  const appliedTo = new Map<number, number>()
  for (const c of cash)
    for (const a of c.applications)
      if (!a.reversed) appliedTo.set(a.contractId, (appliedTo.get(a.contractId) ?? 0) + cents(a.amount))
  const open = new Map(items.map((i) => [i.contractId, i.openCents]))
  for (const [contractId, owed] of sold) {
    const applied = appliedTo.get(contractId) ?? 0
    assert.ok(applied <= owed, `contract ${contractId}: applied ${applied} > owed ${owed}`)
    assert.equal(open.get(contractId) ?? 0, owed - applied, `contract ${contractId}: open = owed − applied`)
  }
  const viewUnapplied = cash.reduce((s, c) => s + cents(c.unappliedAmount), 0)
  assert.equal(cents(unapplied?.balance ?? 0), viewUnapplied, 'UNAPPLIED_CASH = Σ unappliedAmount')
  for (const c of cash) {
    const m = model.cash.get(c.id)
    if (!m) continue
    assert.equal(c.status, m.returned ? 'RETURNED' : 'POSTED')
    assert.equal(cents(c.appliedAmount), m.returned ? 0 : m.appliedCents)
    assert.equal(cents(c.unappliedAmount), m.returned ? 0 : m.amountCents - m.appliedCents)
  }
}

const receive = (amountCents: number, pick: number | null): fc.AsyncCommand<Model, Real> => ({
  check: () => true,
  async run(model: Model, real: Real) {
    const items = await t.modules.finance.cash.openItems(systemContext(demo.tenantId), dealerId)
    const totalOpen = items.reduce((s, i) => s + i.openCents, 0)
    const chosen = pick === null || items.length === 0 ? undefined : items[pick % items.length]!
    const applyCents = chosen ? Math.min(chosen.openCents, amountCents) : 0
    const res = await call('POST', '/api/cashtransactions', {
      payerId: dealerId,
      paymentMethod: 'ACH',
      amount: amountCents / 100,
      reference: `P-${real.ids.length}`,
      receivedDate: '2026-11-20',
      ...(chosen ? { applications: [{ contractId: chosen.contractId, amount: applyCents / 100 }] } : {}),
    })
    assert.equal(res.statusCode, 201, res.body)
    const c = json<Cash>(res)
    const expected = chosen ? applyCents : Math.min(amountCents, totalOpen)
    assert.equal(cents(c.appliedAmount), expected)
    model.cash.set(c.id, { amountCents: amountCents, appliedCents: expected, returned: false })
    real.ids.push(c.id)
    await reconcile(model)
  },
  toString: () => `receive(${amountCents}, ${pick})`,
})

const applyMore = (which: number, amountCents: number): fc.AsyncCommand<Model, Real> => ({
  check: (m: Readonly<Model>) => [...m.cash.values()].some((c) => !c.returned && c.amountCents > c.appliedCents),
  async run(model: Model, real: Real) {
    const candidates = real.ids.filter((id) => {
      const c = model.cash.get(id)!
      return !c.returned && c.amountCents > c.appliedCents
    })
    const id = candidates[which % candidates.length]!
    const m = model.cash.get(id)!
    const items = await t.modules.finance.cash.openItems(systemContext(demo.tenantId), dealerId)
    if (items.length === 0) return
    const item = items[which % items.length]!
    // Over the unapplied balance is refused, nothing written; within it is applied.
    const over = await call('PATCH', `/api/cashtransactions/${id}`, {
      applications: [{ contractId: item.contractId, amount: (m.amountCents - m.appliedCents + 1) / 100 }],
    })
    assert.equal(over.statusCode, 422, over.body)
    const amount = Math.min(amountCents, m.amountCents - m.appliedCents, item.openCents)
    const res = await call('PATCH', `/api/cashtransactions/${id}`, {
      applications: [{ contractId: item.contractId, amount: amount / 100 }],
    })
    assert.equal(res.statusCode, 200, res.body)
    m.appliedCents += amount
    await reconcile(model)
  },
  toString: () => `applyMore(${which}, ${amountCents})`,
})

const returned = (which: number): fc.AsyncCommand<Model, Real> => ({
  check: (m: Readonly<Model>) => [...m.cash.values()].some((c) => !c.returned),
  async run(model: Model, real: Real) {
    const candidates = real.ids.filter((id) => !model.cash.get(id)!.returned)
    const id = candidates[which % candidates.length]!
    const res = await call('PATCH', `/api/cashtransactions/${id}`, { status: 'RETURNED', returnReason: 'NSF' })
    assert.equal(res.statusCode, 200, res.body)
    model.cash.get(id)!.returned = true
    const again = await call('PATCH', `/api/cashtransactions/${id}`, { status: 'RETURNED', returnReason: 'NSF' })
    assert.equal(again.statusCode, 409, again.body)
    await reconcile(model)
  },
  toString: () => `return(${which})`,
})

before(async () => {
  t = await createTestApp({ now: new Date('2026-11-20T18:00:00Z') })
  demo = await seedDemo(t)
  for (const [i, day] of ['2026-11-18', '2026-11-19', '2026-11-20'].entries()) {
    const c = await sellDemoContract(t, demo, { saleDate: day, finalize: true })
    contracts.push(c.id)
    const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: c.id })
    const line = entries.flatMap((e) => e.lines).find((l) => l.purpose === 'DEALER_RECEIVABLE')!
    if (i === 0) dealerId = line.accountHolderId
    sold.set(c.id, cents(line.debit))
  }
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
})
after(async () => t.close())

test('cash commands keep the views, the ledger and the model reconciled', async () => {
  const commands = [
    fc.tuple(fc.integer({ min: 1, max: 150_000 }), fc.option(fc.nat(5))).map(([a, p]) => receive(a, p)),
    fc.tuple(fc.nat(10), fc.integer({ min: 1, max: 50_000 })).map(([w, a]) => applyMore(w, a)),
    fc.nat(10).map((w) => returned(w)),
  ]
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 6 }), async (cmds) => {
      await fc.asyncModelRun(() => ({ model: { cash: new Map() }, real: { ids: [] } }), cmds)
    }),
    { numRuns: 12 },
  )
})
