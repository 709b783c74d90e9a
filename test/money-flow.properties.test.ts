// The whole money flow, model-based (fast-check commands; issue 15 "Done when", money.md "Postings"):
// random sequences of sales, finalizes, cancels, claims (filed, authorized, payment requested, to the
// repair facility or to the customer), payout runs and cash (receipts oldest first or chosen, further
// applications, returned payments), each run in a fresh demo tenant. The model keeps every account's
// balance in cents from what the commands asked and answered, independently of the journal; after
// every command:
// - the ledger balances: every entry, and all of them (debits = credits);
// - every account (holder, purpose, contract) equals the model (CASH and UNAPPLIED_CASH per holder);
// - the dealer's receivable open items equal the model's positive receivables per contract;
// - what a payout run would pay now (a dry run: payables per contract, open claim payment requests,
//   netted per payee) equals what the model owes each payee;
// - no money is created or lost: the model's accounts sum to 0 and the administrator's CASH is what
//   was received (and not returned) less what was paid out.
// The clock moves a day at a time (`nextDay`; each run's setup posts on the first day, its commands
// from the second), and the model keeps every posting with its day, so the views are checked through
// the HTTP API against the balances as they were (test/money-flow.views.ts): at the end of each day,
// the ledger summary, pay/receive ledgers and unpaid products as of today; after a run, the same as
// of every day of it (and the day before and after), the journal lines (`/api/ledgers`) up to and
// from a day, and CSV statements (opening + lines = closing = the model; the file parsed as RFC 4180).
// Limits: one claim per contract and no cancel of a contract with a claim (an open claim blocks a
// cancel, a paid one is deducted: the claims tests cover those); every sale is a demo VSC of the one
// demo dealer, inside the free-look (the cancellation tests cover the refund arithmetic); cancel and
// loss dates, invoices and receipts are dated the first day whatever day they are entered on.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { systemContext } from '../src/platform/http/context.ts'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { addDays, checkStatement, checkViewsAsOf, type Posting, type ViewsWorld } from './money-flow.views.ts'

const TODAY = '2026-06-01'
const NOW = new Date(`${TODAY}T18:00:00Z`)
/** The first sale day of a tenant; each sale takes the next day (a repeated sale day is a duplicate). */
const FIRST_SALE = Date.parse('2026-04-06T00:00:00Z')
const MAX_SALES = 12

type Line = { group: string; amount: number; payeeAccountHolderId: number }
type Finalized = { contract: { id: number; status: string; pricing: { dealerCost: number; lines: Line[] } } }
type CancelRequest = {
  id: number
  calculation: { netCustomerRefund: number; cancelFee: number; claimsDeducted: number; salesTaxRefund: number }
  funding: {
    dealerChargeback: number
    administratorShare: number
    feeRetained: { amount: number; retainedBy: string } | null
    byDisbursement: { payeeAccountHolderId: number; refund: number }[]
  }
  refundPayee: { accountHolderId: number }
}
type PaymentRequest = { id: number; amount: number; payee: { accountHolderId: number }; riskBearerId: number }
type Cash = {
  id: number
  appliedAmount: number
  applications: { contractId: number; amount: number; reversed: boolean }[]
}
type RunItem = { purpose: string; contractId: number; paymentRequestId: number | null; amount: number }
type Run = { payouts: { payeeId: number; amount: number; items: RunItem[] }[] }

type ContractState = { customerId: number; status: 'PENDING' | 'ACTIVE' | 'CANCELLED'; claimed: boolean }
type Model = {
  /** Balance (debit − credit, cents) per `holder|purpose|contract`; CASH and UNAPPLIED_CASH with contract 0. */
  accounts: Map<string, number>
  contracts: Map<number, ContractState>
  /** Open claim payment requests: what is left to pay each. */
  requests: Map<number, { payeeId: number; contractId: number; restCents: number }>
  cash: Map<number, { amountCents: number; applied: Map<number, number>; returned: boolean }>
  receivedCents: number
  paidOutCents: number
  /** Today's accounting date: the day every posting of a command is dated (the clock moves a day at a time). */
  today: string
  /** Every posting, with its day: the balances as of any earlier day. */
  postings: Posting[]
}
type Real = {
  tenant: DemoTestTenant
  dealerId: number
  adminId: number
  facilityId: number
  lookups: { complaint: number; cause: number; correction: number }
  sales: number
}

let t: TestApp
const cents = (n: number) => Math.round(n * 100)
const POOLED = new Set(['CASH', 'UNAPPLIED_CASH'])
const keyOf = (holder: number, purpose: string, contract: number) =>
  `${holder}|${purpose}|${POOLED.has(purpose) ? 0 : contract}`

function post(m: Model, holder: number, purpose: string, contract: number, debitMinusCredit: number) {
  const k = keyOf(holder, purpose, contract)
  const v = (m.accounts.get(k) ?? 0) + debitMinusCredit
  if (v === 0) m.accounts.delete(k)
  else m.accounts.set(k, v)
  if (debitMinusCredit !== 0)
    m.postings.push({
      date: m.today,
      holder,
      purpose,
      contract: POOLED.has(purpose) ? 0 : contract,
      cents: debitMinusCredit,
    })
}
const balance = (m: Model, holder: number, purpose: string, contract: number) =>
  m.accounts.get(keyOf(holder, purpose, contract)) ?? 0

async function call(r: Real, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, type?: string) {
  return t.app.inject({
    method,
    url,
    headers: type ? { ...r.tenant.headers, 'content-type': type } : r.tenant.headers,
    ...(payload === undefined ? {} : { payload: (type ? JSON.stringify(payload) : payload) as object }),
  })
}

/** What a payout run owes each payee now, by the model: its items and their net (paid when > 0). */
function owed(m: Model) {
  const byPayee = new Map<number, RunItem[]>()
  const add = (payeeId: number, item: RunItem) => byPayee.set(payeeId, [...(byPayee.get(payeeId) ?? []), item])
  for (const [k, v] of m.accounts) {
    const [holder, purpose, contract] = k.split('|')
    if (purpose === 'REFUND_PAYABLE' || purpose === 'DISBURSEMENT_PAYABLE')
      add(Number(holder), { purpose, contractId: Number(contract), paymentRequestId: null, amount: -v })
  }
  for (const [id, q] of m.requests)
    add(q.payeeId, { purpose: 'CLAIM_PAYABLE', contractId: q.contractId, paymentRequestId: id, amount: q.restCents })
  const due = new Map<number, { netCents: number; items: RunItem[] }>()
  for (const [payeeId, items] of byPayee) {
    const netCents = items.reduce((s, i) => s + i.amount, 0)
    if (netCents > 0) due.set(payeeId, { netCents, items })
  }
  return due
}

const itemKey = (i: RunItem) => `${i.purpose}|${i.contractId}|${i.paymentRequestId}|${i.amount}`

/** A run's payouts against the model's: the same payees, nets and items (in cents). */
function assertRunIsOwed(run: Run, due: ReturnType<typeof owed>, what: string) {
  assert.deepEqual(
    run.payouts.map((p) => [p.payeeId, cents(p.amount)]).toSorted((a, b) => a[0]! - b[0]!),
    [...due].map(([payeeId, d]) => [payeeId, d.netCents]).toSorted((a, b) => a[0]! - b[0]!),
    `${what}: payees and nets`,
  )
  for (const p of run.payouts)
    assert.deepEqual(
      p.items.map((i) => itemKey({ ...i, amount: cents(i.amount) })).toSorted(),
      due.get(p.payeeId)!.items.map(itemKey).toSorted(),
      `${what}: items of payee ${p.payeeId}`,
    )
}

async function reconcile(m: Model, r: Real): Promise<void> {
  const tenantId = r.tenant.tenantId
  const lines = await t.db.read(tenantId, (x) =>
    x
      .selectFrom('journal_line as l')
      .innerJoin('ledger_account as a', (j) =>
        j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
      )
      .select(['l.entry_id', 'a.account_holder_id', 'a.purpose', 'l.contract_id', 'l.debit', 'l.credit'])
      .where('l.tenant_id', '=', tenantId)
      .where('a.tenant_id', '=', tenantId)
      .execute(),
  )
  // The ledger balances, entry by entry.
  const byEntry = new Map<number, number>()
  for (const l of lines)
    byEntry.set(
      Number(l.entry_id),
      (byEntry.get(Number(l.entry_id)) ?? 0) + cents(Number(l.debit)) - cents(Number(l.credit)),
    )
  for (const [entry, diff] of byEntry) assert.equal(diff, 0, `entry ${entry} balances`)
  // Every account equals the model.
  const real = new Map<string, number>()
  for (const l of lines) {
    const k = keyOf(Number(l.account_holder_id), l.purpose, Number(l.contract_id ?? 0))
    real.set(k, (real.get(k) ?? 0) + cents(Number(l.debit)) - cents(Number(l.credit)))
  }
  for (const [k, v] of real) if (v === 0) real.delete(k)
  assert.deepEqual(new Map([...real].toSorted()), new Map([...m.accounts].toSorted()), 'accounts = model')
  // No money created or lost.
  assert.equal(
    [...m.accounts.values()].reduce((s, v) => s + v, 0),
    0,
    'the model balances',
  )
  assert.equal(balance(m, r.adminId, 'CASH', 0), m.receivedCents - m.paidOutCents, 'CASH = received − paid out')
  // The dealer's open items are the model's positive receivables.
  const items = await t.modules.finance.cash.openItems(systemContext(tenantId), r.dealerId)
  const receivables = [...m.contracts.keys()]
    .map((id) => [id, balance(m, r.dealerId, 'DEALER_RECEIVABLE', id)] as const)
    .filter(([, v]) => v > 0)
  assert.deepEqual(
    items.map((i) => [i.contractId, i.openCents]).toSorted((a, b) => a[0]! - b[0]!),
    receivables.map(([id, v]) => [id, v]).toSorted((a, b) => a[0]! - b[0]!),
    'open items = model receivables',
  )
  // What is payable now (a dry run) is what the model owes.
  const dry = await call(r, 'POST', '/api/payoutruns', { dryRun: true })
  assert.equal(dry.statusCode, 200, dry.body)
  assertRunIsOwed(json<Run>(dry), owed(m), 'dry run')
}

type Cmd = fc.AsyncCommand<Model, Real>
const pick = <T>(list: readonly T[], which: number): T => list[which % list.length]!
const ids = (m: Readonly<Model>, ok: (c: ContractState) => boolean) =>
  [...m.contracts].filter(([, c]) => ok(c)).map(([id]) => id)

const sell = (): Cmd => ({
  check: () => true,
  async run(m, r) {
    if (r.sales >= MAX_SALES) return
    const saleDate = new Date(FIRST_SALE + r.sales++ * 86_400_000).toISOString().slice(0, 10)
    const c = await sellDemoContract<{ id: number; customer: { customerId: number } }>(t, r.tenant, {
      saleDate,
      // PLAT-USED's limit of liability is the vehicle's purchase price (claims need one).
      quoteQuery: 'vehiclePurchasePrice=21500',
      deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
    })
    m.contracts.set(c.id, { customerId: c.customer.customerId, status: 'PENDING', claimed: false })
    await reconcile(m, r)
  },
  toString: () => 'sell',
})

const finalize = (which: number): Cmd => ({
  check: (m) => ids(m, (c) => c.status === 'PENDING').length > 0,
  async run(m, r) {
    const id = pick(
      ids(m, (c) => c.status === 'PENDING'),
      which,
    )
    const res = await call(r, 'POST', `/api/contracts/${id}/finalize`, {})
    assert.equal(res.statusCode, 200, res.body)
    const { pricing } = json<Finalized>(res).contract
    // Dr the dealer's receivable the dealer cost; Cr each payee its line (the administrator's own: unearned).
    post(m, r.dealerId, 'DEALER_RECEIVABLE', id, cents(pricing.dealerCost))
    for (const l of pricing.lines)
      post(
        m,
        l.payeeAccountHolderId,
        l.payeeAccountHolderId === r.adminId ? 'UNEARNED_REVENUE' : 'DISBURSEMENT_PAYABLE',
        id,
        -cents(l.amount),
      )
    m.contracts.get(id)!.status = 'ACTIVE'
    await reconcile(m, r)
  },
  toString: () => `finalize(${which})`,
})

const cancel = (which: number): Cmd => ({
  check: (m) => ids(m, (c) => c.status === 'ACTIVE' && !c.claimed).length > 0,
  async run(m, r) {
    const id = pick(
      ids(m, (c) => c.status === 'ACTIVE' && !c.claimed),
      which,
    )
    const res = await call(r, 'POST', `/api/contracts/${id}/cancelrequests`, {
      cancelDate: TODAY,
      cancelOdometer: 43000,
      cancelReasonCode: 'CUSTOMER_REQUEST',
    })
    assert.equal(res.statusCode, 201, res.body)
    const q = json<CancelRequest>(res)
    const approved = await call(r, 'POST', `/api/cancelrequests/${q.id}`, { action: 'APPROVE' })
    assert.equal(approved.statusCode, 200, approved.body)
    assert.equal(q.calculation.claimsDeducted, 0)
    assert.equal(q.calculation.salesTaxRefund, 0)
    // Dr each payee its refunded share (the administrator: its unearned, the rest earned at cancel);
    // Dr the dealer's receivable the markup share; Cr the refund payable the net; Cr the fee to its keeper.
    let adminShare = 0
    for (const d of q.funding.byDisbursement)
      if (d.payeeAccountHolderId === r.adminId) adminShare += cents(d.refund)
      else post(m, d.payeeAccountHolderId, 'DISBURSEMENT_PAYABLE', id, cents(d.refund))
    assert.equal(adminShare, cents(q.funding.administratorShare))
    const unearned = -balance(m, r.adminId, 'UNEARNED_REVENUE', id)
    post(m, r.adminId, 'UNEARNED_REVENUE', id, unearned)
    post(m, r.adminId, 'ADMINISTRATOR_REVENUE', id, -(unearned - adminShare))
    post(m, r.dealerId, 'DEALER_RECEIVABLE', id, cents(q.funding.dealerChargeback))
    post(m, q.refundPayee.accountHolderId, 'REFUND_PAYABLE', id, -cents(q.calculation.netCustomerRefund))
    const fee = q.funding.feeRetained
    if (fee !== null && cents(fee.amount) > 0) {
      assert.equal(fee.retainedBy, 'ADMIN')
      post(m, r.adminId, 'ADMINISTRATOR_REVENUE', id, -cents(fee.amount))
    }
    m.contracts.get(id)!.status = 'CANCELLED'
    await reconcile(m, r)
  },
  toString: () => `cancel(${which})`,
})

const claim = (which: number, toCustomer: boolean, invoicedCents: number): Cmd => ({
  check: (m) => ids(m, (c) => c.status === 'ACTIVE' && !c.claimed).length > 0,
  async run(m, r) {
    const id = pick(
      ids(m, (c) => c.status === 'ACTIVE' && !c.claimed),
      which,
    )
    const filed = await call(r, 'POST', '/api/claims', {
      contractId: id,
      lossDate: TODAY,
      odometer: 45000,
      repairFacilityId: r.facilityId,
      taxRate: 0.0825,
      jobs: [
        {
          complaintId: r.lookups.complaint,
          causeId: r.lookups.cause,
          correctionId: r.lookups.correction,
          coverageComponentCode: 'BLOCK',
          parts: [{ partNumber: 'P-1', description: 'Ignition coil', quantity: 1, unitPrice: 125, taxable: true }],
          labor: [{ operationCode: 'IGN-COIL', hours: 0.6, rate: 145 }],
        },
      ],
    })
    assert.equal(filed.statusCode, 201, filed.body)
    const claimId = json<{ id: number }>(filed).id
    const ops: unknown[] = [
      { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
      { op: 'replace', path: '/status', value: 'AUTHORIZED' },
    ]
    if (toCustomer) ops.push({ op: 'replace', path: '/payee', value: { type: 'CONTRACT_HOLDER' } })
    const authorized = await call(r, 'PATCH', `/api/claims/${claimId}`, ops, 'application/json-patch+json')
    assert.equal(authorized.statusCode, 200, authorized.body)
    const requested = await call(r, 'POST', `/api/claims/${claimId}/paymentrequests`, {
      invoiceNumber: `INV-${claimId}`,
      invoiceDate: TODAY,
      invoicedTotal: invoicedCents / 100,
    })
    assert.equal(requested.statusCode, 201, requested.body)
    const q = json<PaymentRequest>(requested)
    const contract = m.contracts.get(id)!
    assert.equal(q.payee.accountHolderId, toCustomer ? contract.customerId : r.facilityId)
    assert.ok(cents(q.amount) <= invoicedCents && cents(q.amount) > 0)
    // Dr the risk bearer's claim expense; Cr the payee's claim payable.
    post(m, q.riskBearerId, 'CLAIM_EXPENSE', id, cents(q.amount))
    post(m, q.payee.accountHolderId, 'CLAIM_PAYABLE', id, -cents(q.amount))
    m.requests.set(q.id, { payeeId: q.payee.accountHolderId, contractId: id, restCents: cents(q.amount) })
    contract.claimed = true
    await reconcile(m, r)
  },
  toString: () => `claim(${which}, ${toCustomer ? 'customer' : 'facility'}, ${invoicedCents})`,
})

const payout = (): Cmd => ({
  check: () => true,
  async run(m, r) {
    const due = owed(m)
    const res = await call(r, 'POST', '/api/payoutruns', {})
    assert.equal(res.statusCode, 201, res.body)
    assertRunIsOwed(json<Run>(res), due, 'run')
    // Dr every item paid or netted (the payable settled); Cr CASH the net; claim requests paid.
    for (const [payeeId, d] of due) {
      for (const i of d.items) {
        post(m, payeeId, i.purpose, i.contractId, i.amount)
        if (i.paymentRequestId !== null) m.requests.delete(i.paymentRequestId)
      }
      post(m, r.adminId, 'CASH', 0, -d.netCents)
      m.paidOutCents += d.netCents
    }
    await reconcile(m, r)
  },
  toString: () => 'payout',
})

const receive = (amountCents: number, chosen: number | null): Cmd => ({
  check: () => true,
  async run(m, r) {
    const open = [...m.contracts.keys()].filter((id) => balance(m, r.dealerId, 'DEALER_RECEIVABLE', id) > 0)
    const target = chosen === null || open.length === 0 ? undefined : pick(open, chosen)
    const applyCents =
      target === undefined ? 0 : Math.min(balance(m, r.dealerId, 'DEALER_RECEIVABLE', target), amountCents)
    const res = await call(r, 'POST', '/api/cashtransactions', {
      payerId: r.dealerId,
      paymentMethod: 'ACH',
      amount: amountCents / 100,
      reference: `P-${m.cash.size}`,
      receivedDate: TODAY,
      ...(target === undefined ? {} : { applications: [{ contractId: target, amount: applyCents / 100 }] }),
    })
    assert.equal(res.statusCode, 201, res.body)
    const c = json<Cash>(res)
    const totalOpen = open.reduce((s, id) => s + balance(m, r.dealerId, 'DEALER_RECEIVABLE', id), 0)
    assert.equal(cents(c.appliedAmount), target === undefined ? Math.min(amountCents, totalOpen) : applyCents)
    // Dr CASH; Cr the dealer's unapplied cash; each application Dr unapplied / Cr the receivable.
    post(m, r.adminId, 'CASH', 0, amountCents)
    post(m, r.dealerId, 'UNAPPLIED_CASH', 0, -amountCents)
    m.receivedCents += amountCents
    const applied = new Map<number, number>()
    for (const a of c.applications) {
      assert.ok(cents(a.amount) <= balance(m, r.dealerId, 'DEALER_RECEIVABLE', a.contractId), 'within the item')
      post(m, r.dealerId, 'UNAPPLIED_CASH', 0, cents(a.amount))
      post(m, r.dealerId, 'DEALER_RECEIVABLE', a.contractId, -cents(a.amount))
      applied.set(a.contractId, (applied.get(a.contractId) ?? 0) + cents(a.amount))
    }
    m.cash.set(c.id, { amountCents, applied, returned: false })
    await reconcile(m, r)
  },
  toString: () => `receive(${amountCents}, ${chosen})`,
})

const unappliedOf = (c: { amountCents: number; applied: Map<number, number> }) =>
  c.amountCents - [...c.applied.values()].reduce((s, v) => s + v, 0)

const applyMore = (which: number, amountCents: number): Cmd => ({
  check: (m) => [...m.cash.values()].some((c) => !c.returned && unappliedOf(c) > 0),
  async run(m, r) {
    const [id, c] = pick(
      [...m.cash].filter(([, x]) => !x.returned && unappliedOf(x) > 0),
      which,
    )
    const open = [...m.contracts.keys()].filter((k) => balance(m, r.dealerId, 'DEALER_RECEIVABLE', k) > 0)
    if (open.length === 0) return
    const contractId = pick(open, which)
    const amount = Math.min(amountCents, unappliedOf(c), balance(m, r.dealerId, 'DEALER_RECEIVABLE', contractId))
    const res = await call(r, 'PATCH', `/api/cashtransactions/${id}`, {
      applications: [{ contractId, amount: amount / 100 }],
    })
    assert.equal(res.statusCode, 200, res.body)
    post(m, r.dealerId, 'UNAPPLIED_CASH', 0, amount)
    post(m, r.dealerId, 'DEALER_RECEIVABLE', contractId, -amount)
    c.applied.set(contractId, (c.applied.get(contractId) ?? 0) + amount)
    await reconcile(m, r)
  },
  toString: () => `applyMore(${which}, ${amountCents})`,
})

const nsf = (which: number): Cmd => ({
  check: (m) => [...m.cash.values()].some((c) => !c.returned),
  async run(m, r) {
    const [id, c] = pick(
      [...m.cash].filter(([, x]) => !x.returned),
      which,
    )
    const res = await call(r, 'PATCH', `/api/cashtransactions/${id}`, { status: 'RETURNED', returnReason: 'NSF' })
    assert.equal(res.statusCode, 200, res.body)
    // The receipt and its applications reversed: the items reopen, the cash leaves.
    for (const [contractId, a] of c.applied) {
      post(m, r.dealerId, 'UNAPPLIED_CASH', 0, -a)
      post(m, r.dealerId, 'DEALER_RECEIVABLE', contractId, a)
    }
    post(m, r.adminId, 'CASH', 0, -c.amountCents)
    post(m, r.dealerId, 'UNAPPLIED_CASH', 0, c.amountCents)
    m.receivedCents -= c.amountCents
    c.returned = true
    await reconcile(m, r)
  },
  toString: () => `nsf(${which})`,
})

const world = (m: Model, r: Real): ViewsWorld => ({
  t,
  headers: r.tenant.headers,
  dealerId: r.dealerId,
  adminId: r.adminId,
  postings: m.postings,
  today: m.today,
})

/** The clock moves a day (the tenant's today with it) and the administrator signs in again. */
async function moveDay(m: Model, r: Real) {
  t.clock.advance(86_400_000)
  m.today = addDays(m.today, 1)
  r.tenant.headers = await loginHeaders(t, r.tenant.apiKey, r.tenant.adminEmail, r.tenant.adminPassword)
  assert.equal(await t.modules.finance.ledger.postingDate(r.tenant.tenantId), m.today)
}

/** The day ends: the views as of today (read from the ledger items and totals), then the next day. */
const nextDay = (): Cmd => ({
  check: () => true,
  async run(m, r) {
    await checkViewsAsOf(world(m, r), m.today)
    await moveDay(m, r)
  },
  toString: () => 'nextDay',
})

/**
 * After a run: the views as of every day from the day before the first posting to the day after
 * today (the past ones read from the lines, today's and later from the items) against the model's
 * balances of that day, the journal lines as of the first, second and last day; for every account
 * holder with postings, a CSV statement of the whole run; for the dealer and the administrator, one
 * from the second day (its opening: the first day's balance) to the day before today (or the second
 * day), and the dealer's receivable alone.
 */
async function checkHistory(m: Model, r: Real) {
  const w = world(m, r)
  const second = addDays(TODAY, 1)
  for (let day = addDays(TODAY, -1); day <= addDays(m.today, 1); day = addDays(day, 1))
    await checkViewsAsOf(w, day, { full: day === TODAY || day === second || day === m.today })
  for (const holder of new Set(m.postings.map((p) => p.holder))) await checkStatement(w, holder, TODAY, m.today)
  const subTo = m.today > second ? addDays(m.today, -1) : second
  for (const holder of [r.dealerId, r.adminId]) await checkStatement(w, holder, second, subTo)
  await checkStatement(w, r.dealerId, TODAY, m.today, 'DEALER_RECEIVABLE')
}

/**
 * A fresh demo tenant and a first finalized sale on the first day (the clock back at NOW): each run
 * starts from its own books; its commands start on the second day.
 */
async function fresh(): Promise<{ model: Model; real: Real }> {
  t.clock.set(NOW)
  const tenant = await seedDemo(t)
  const tenantId = tenant.tenantId
  const holder = async (businessKey: string) =>
    t.db.read(tenantId, async (x) =>
      Number(
        (
          await x
            .selectFrom('account_holder')
            .select('id')
            .where('tenant_id', '=', tenantId)
            .where('business_key', '=', businessKey)
            .executeTakeFirstOrThrow()
        ).id,
      ),
    )
  const first = async (url: string) =>
    json<Array<{ id: number }>>(
      await t.app.inject({ method: 'GET', url: `${url}?limit=1`, headers: tenant.headers }),
    )[0]!.id
  const real: Real = {
    tenant,
    dealerId: 0,
    adminId: await t.modules.parties.contractParties.administratorId(tenantId),
    facilityId: await holder('RF-ATX'),
    lookups: {
      complaint: await first('/api/claims/complaints'),
      cause: await first('/api/claims/causes'),
      correction: await first('/api/claims/corrections'),
    },
    sales: 0,
  }
  const model: Model = {
    accounts: new Map(),
    contracts: new Map(),
    requests: new Map(),
    cash: new Map(),
    receivedCents: 0,
    paidOutCents: 0,
    today: TODAY,
    postings: [],
  }
  await sell().run(model, real)
  const [id] = [...model.contracts.keys()]
  const row = await t.db.read(tenantId, (x) =>
    x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id!)
      .executeTakeFirstOrThrow(),
  )
  real.dealerId = Number(row.dealer_id)
  await finalize(0).run(model, real)
  await moveDay(model, real)
  return { model, real }
}

before(async () => {
  t = await createTestApp({ now: NOW })
})
after(async () => t.close())

test('sales, cancels, claims, payouts and cash keep the ledger, the views and the model reconciled', async () => {
  const commands = [
    fc.constant(null).map(() => sell()),
    fc.nat(10).map((w) => finalize(w)),
    fc.nat(10).map((w) => cancel(w)),
    fc.tuple(fc.nat(10), fc.boolean(), fc.integer({ min: 1, max: 40_000 })).map(([w, c, a]) => claim(w, c, a)),
    fc.constant(null).map(() => payout()),
    fc.tuple(fc.integer({ min: 1, max: 150_000 }), fc.option(fc.nat(5))).map(([a, p]) => receive(a, p)),
    fc.tuple(fc.nat(10), fc.integer({ min: 1, max: 50_000 })).map(([w, a]) => applyMore(w, a)),
    fc.nat(10).map((w) => nsf(w)),
    fc.constant(null).map(() => nextDay()),
  ]
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 14, size: 'large' }), async (cmds) => {
      const setup = await fresh()
      await fc.asyncModelRun(() => setup, cmds)
      await checkHistory(setup.model, setup.real)
    }),
    {
      numRuns: 12,
      // One run always nets: disbursements paid, the contract cancelled (its payees owe back), a new
      // sale and a claim to the customer (who is owed the refund too), paid net; a receipt returned.
      examples: [
        [
          [
            payout(),
            nextDay(),
            cancel(0),
            sell(),
            finalize(0),
            claim(0, true, 20_000),
            nextDay(),
            receive(50_000, null),
            payout(),
            nextDay(),
            nsf(0),
            payout(),
          ],
        ],
      ],
    },
  )
})
