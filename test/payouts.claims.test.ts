// Payout runs pay claim payables (docs/payouts.md "Claim payables") over HTTP on the demo tenant:
// claims authorized with a payment requested are paid to their payee (the repair facility, or the
// customer) by one CASH_DISBURSED entry per payee, each request paid in full and recorded as the
// payments route records a payment (claim PAID, payment row, audit and event claim.paid); a claim on
// hold, edit-locked by another user or requested after the run's asOf waits; a partly paid request is
// paid its rest; a retry with the same Idempotency-Key replays the run; a second run pays nothing; a
// dry run writes nothing.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-06-01T18:00:00Z')
const NEXT_DAY = new Date('2026-06-02T18:00:00Z')

type Item = { purpose: string; contractId: number; paymentRequestId: number | null; amount: number }
type Payout = {
  id: number | null
  payeeId: number
  paymentMethod: string
  amount: number
  entryId: number | null
  items: Item[]
}
type Run = { id: number | null; dryRun: boolean; payoutCount: number; total: number; payouts: Payout[] }
type Request = { id: number; status: string; amount: number; paidTotal: number; payee: { accountHolderId: number } }
type Claim = {
  id: number
  status: string
  totals: { paid: number; payable: number }
  paymentRequests: Array<
    Request & {
      payments: Array<{
        method: string
        amount: number
        paidAt: string
        reference: string | null
        journalEntryId: number
      }>
    }
  >
}

let t: TestApp
let demo: DemoTestTenant
let facilityId: number
let lookups: { complaint: number; cause: number; correction: number; hold: number }
const contracts: Array<{ id: number; customerId: number }> = []

const cents = (n: number) => Math.round(n * 100)
const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, h = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })
const patch = (id: number, ops: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/claims/${id}`,
    headers: { ...demo.headers, 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify(ops),
  })

async function runPayouts(body: Record<string, unknown>, idempotencyKey?: string): Promise<Run> {
  const h = idempotencyKey === undefined ? demo.headers : { ...demo.headers, 'idempotency-key': idempotencyKey }
  const res = await inject('POST', '/api/payoutruns', body, h)
  assert.equal(res.statusCode, body['dryRun'] === true ? 200 : 201, res.body)
  return json<Run>(res)
}

async function getClaim(id: number): Promise<Claim> {
  const res = await inject('GET', `/api/claims/${id}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Claim>(res)
}

/** A claim on contract `i` at the facility, authorized, its payment requested; `payee` the customer when asked. */
async function requested(
  i: number,
  opts: { customer?: boolean; invoiced?: number } = {},
): Promise<{ claim: Claim; request: Request }> {
  const res = await inject('POST', '/api/claims', {
    contractId: contracts[i]!.id,
    lossDate: '2026-05-20',
    odometer: 45000 + i,
    repairFacilityId: facilityId,
    taxRate: 0.0825,
    jobs: [
      {
        complaintId: lookups.complaint,
        causeId: lookups.cause,
        correctionId: lookups.correction,
        coverageComponentCode: 'BLOCK',
        parts: [
          { partNumber: '30520-5A2-A01', description: 'Ignition coil', quantity: 1, unitPrice: 125, taxable: true },
        ],
        labor: [{ operationCode: 'IGN-COIL', hours: 0.6, rate: 145 }],
      },
    ],
  })
  assert.equal(res.statusCode, 201, res.body)
  const claim = json<Claim>(res)
  const ops: unknown[] = [
    { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
    { op: 'replace', path: '/status', value: 'AUTHORIZED' },
  ]
  if (opts.customer) ops.push({ op: 'replace', path: '/payee', value: { type: 'CONTRACT_HOLDER' } })
  const authorized = await patch(claim.id, ops)
  assert.equal(authorized.statusCode, 200, authorized.body)
  const r = await inject('POST', `/api/claims/${claim.id}/paymentrequests`, {
    invoiceNumber: `INV-${claim.id}`,
    invoiceDate: '2026-05-25',
    invoicedTotal: opts.invoiced ?? 10000,
  })
  assert.equal(r.statusCode, 201, r.body)
  return { claim, request: json<Request>(r) }
}

/** Rows of the payout tables, claim payments and journal entries: what a dry run must leave as it was. */
async function counts() {
  return t.db.read(demo.tenantId, async (x) => {
    const n = async (table: 'payout_run' | 'payout' | 'payout_item' | 'journal_entry' | 'claim_payment') =>
      Number(
        (
          await x
            .selectFrom(table)
            .select((e) => e.fn.countAll().as('n'))
            .where('tenant_id', '=', demo.tenantId)
            .executeTakeFirstOrThrow()
        ).n,
      )
    return {
      runs: await n('payout_run'),
      items: await n('payout_item'),
      entries: await n('journal_entry'),
      payments: await n('claim_payment'),
    }
  })
}

/** The payee's CLAIM_PAYABLE balance (credit - debit) over every line, in cents. */
async function claimPayable(payeeId: number): Promise<number> {
  const balances = await t.modules.finance.ledger.balances(demo.tenantId, payeeId)
  const b = balances.find((x) => x.purpose === 'CLAIM_PAYABLE')
  return b === undefined ? 0 : cents(b.balance)
}

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  for (let i = 0; i < 6; i++) {
    const c = await sellDemoContract<{ id: number; customer: { id: number } }>(t, demo, {
      saleDate: `2026-03-${String(10 + i).padStart(2, '0')}`,
      finalize: true,
      quoteQuery: 'vehiclePurchasePrice=21500',
      deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
    })
    const row = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('contract')
        .select('customer_id')
        .where('tenant_id', '=', demo.tenantId)
        .where('id', '=', c.id)
        .executeTakeFirstOrThrow(),
    )
    contracts.push({ id: c.id, customerId: Number(row.customer_id) })
  }
  facilityId = await t.db.read(demo.tenantId, async (x) =>
    Number(
      (
        await x
          .selectFrom('account_holder')
          .select('id')
          .where('tenant_id', '=', demo.tenantId)
          .where('business_key', '=', 'RF-ATX')
          .executeTakeFirstOrThrow()
      ).id,
    ),
  )
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  const first = async (url: string) => json<Array<{ id: number }>>(await inject('GET', `${url}?limit=1`))[0]!.id
  lookups = {
    complaint: await first('/api/claims/complaints'),
    cause: await first('/api/claims/causes'),
    correction: await first('/api/claims/corrections'),
    hold: await first('/api/claims/holdReasons'),
  }
})
after(() => t.close())

describe('payout runs pay claim payables', () => {
  test('requests paid in full to their payees; holds, edit locks and a later asOf wait; nothing twice', async () => {
    const a = await requested(0)
    const b = await requested(1, { invoiced: 100.5 })
    const c = await requested(2, { customer: true })
    const held = await requested(3)
    const locked = await requested(4)
    assert.equal(c.request.payee.accountHolderId, contracts[2]!.customerId)
    let res = await patch(held.claim.id, [
      { op: 'add', path: '/holds/-', value: { holdReasonId: lookups.hold, note: 'W-9' } },
    ])
    assert.equal(res.statusCode, 200, res.body)
    const adjuster = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'])
    res = await inject('POST', `/api/claims/${locked.claim.id}/lock`, undefined, adjuster.headers)
    assert.equal(res.statusCode, 200, res.body)
    // Partly paid through the payments route: the run pays the rest.
    res = await inject('POST', `/api/claims/${b.claim.id}/paymentrequests/${b.request.id}/payments`, {
      method: 'CHECK',
      amount: 40.25,
      paidAt: '2026-06-01',
    })
    assert.equal(res.statusCode, 201, res.body)

    // Requested today: not due as of yesterday.
    assert.equal((await runPayouts({ dryRun: true, purposes: ['CLAIM_PAYABLE'], asOf: '2026-05-31' })).payoutCount, 0)

    const was = await counts()
    const facilityOwed = await claimPayable(facilityId)
    const dry = await runPayouts({ dryRun: true, purposes: ['CLAIM_PAYABLE'] })
    assert.deepEqual(await counts(), was, 'a dry run writes nothing')
    const run = await runPayouts({ purposes: ['CLAIM_PAYABLE'] }, 'claims-run-1')
    // The same request again (a retry with its Idempotency-Key): the same run replayed, nothing written.
    const paid = await counts()
    const replayed = await runPayouts({ purposes: ['CLAIM_PAYABLE'] }, 'claims-run-1')
    assert.equal(replayed.id, run.id)
    assert.deepEqual(await counts(), paid)
    assert.deepEqual(
      run.payouts.map((p) => [p.payeeId, p.amount, p.items]),
      dry.payouts.map((p) => [p.payeeId, p.amount, p.items]),
    )
    const rest = (r: Request) => cents(r.amount) - (r.id === b.request.id ? 4025 : 0)
    const toFacility = run.payouts.find((p) => p.payeeId === facilityId)!
    assert.deepEqual(
      toFacility.items.map((i) => [i.purpose, i.contractId, i.paymentRequestId, cents(i.amount)]),
      [a, b].map((x) => ['CLAIM_PAYABLE', Number(contracts[[a, b].indexOf(x)]!.id), x.request.id, rest(x.request)]),
    )
    assert.equal(cents(toFacility.amount), rest(a.request) + rest(b.request))
    const toCustomer = run.payouts.find((p) => p.payeeId === contracts[2]!.customerId)!
    assert.equal(cents(toCustomer.amount), cents(c.request.amount))
    assert.equal(run.payouts.length, 2, 'the held and the locked claims wait')
    // The facility's claim payable is what the waiting claims still owe.
    assert.equal(await claimPayable(facilityId), facilityOwed - cents(toFacility.amount))
    assert.equal(await claimPayable(facilityId), cents(held.request.amount) + cents(locked.request.amount))
    assert.equal(await claimPayable(contracts[2]!.customerId), 0)

    // Each payout's entry: CASH_DISBURSED, Dr CLAIM_PAYABLE per request, Cr CASH the net; balanced.
    for (const p of run.payouts) {
      const entry = (await t.modules.finance.ledger.entry(demo.tenantId, p.entryId!))!
      assert.equal(entry.kind, 'CASH_DISBURSED')
      const dr = entry.lines.reduce((s, l) => s + cents(l.debit), 0)
      const cr = entry.lines.reduce((s, l) => s + cents(l.credit), 0)
      assert.equal(dr, cr)
      assert.equal(cents(entry.lines.find((l) => l.purpose === 'CASH')!.credit), cents(p.amount))
      assert.equal(entry.lines.filter((l) => l.purpose === 'CLAIM_PAYABLE').length, p.items.length)
    }

    // Each claim paid is PAID with its payment recorded as the payments route records one.
    for (const [x, payout] of [
      [a, toFacility],
      [b, toFacility],
      [c, toCustomer],
    ] as const) {
      const claim = await getClaim(x.claim.id)
      assert.equal(claim.status, 'PAID')
      assert.equal(cents(claim.totals.paid), cents(x.request.amount))
      const req = claim.paymentRequests.find((r) => r.id === x.request.id)!
      assert.equal(req.status, 'PAID')
      assert.equal(cents(req.paidTotal), cents(req.amount))
      const last = req.payments.at(-1)!
      assert.equal(last.journalEntryId, payout.entryId)
      assert.equal(last.method, payout.paymentMethod)
      assert.equal(last.paidAt, '2026-06-01')
      assert.equal(last.reference, `payout ${payout.id}`)
      assert.equal(cents(last.amount), rest(x.request))
    }
    const audits = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'entity_id'])
        .where('tenant_id', '=', demo.tenantId)
        .where('action', '=', 'claim.paid')
        .where('entity_id', 'in', [String(a.claim.id), String(c.claim.id)])
        .execute(),
    )
    assert.equal(audits.length, 2)
    for (const x of [held, locked]) assert.equal((await getClaim(x.claim.id)).status, 'PENDING_PAYMENT')

    // Nothing twice: the next run pays none of them.
    assert.equal((await runPayouts({ purposes: ['CLAIM_PAYABLE'] })).payoutCount, 0)

    // Released, the held and the locked claims are paid by the next run (a later day).
    res = await patch(held.claim.id, [{ op: 'replace', path: '/holds', value: [] }])
    assert.equal(res.statusCode, 200, res.body)
    res = await inject('DELETE', `/api/claims/${locked.claim.id}/lock`, undefined, adjuster.headers)
    assert.equal(res.statusCode, 204, res.body)
    t.clock.set(NEXT_DAY)
    demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
    const next = await runPayouts({ payeeIds: [facilityId] })
    assert.equal(next.payoutCount, 1)
    assert.deepEqual(
      next.payouts[0]!.items.filter((i) => i.purpose === 'CLAIM_PAYABLE').map((i) => i.paymentRequestId),
      [held.request.id, locked.request.id],
    )
    assert.equal(await claimPayable(facilityId), 0)
    for (const x of [held, locked]) assert.equal((await getClaim(x.claim.id)).status, 'PAID')
    const got = await inject('GET', `/api/payoutruns/${next.id}`)
    assert.equal(got.statusCode, 200, got.body)
    assert.deepEqual(json<Run>(got).payouts[0]!.items, next.payouts[0]!.items)
  })

  test('a payment by hand and a run at once: the request is paid once, to the cent', async () => {
    const x = await requested(5)
    const before_ = await claimPayable(facilityId)
    const [byHand, run] = await Promise.all([
      inject('POST', `/api/claims/${x.claim.id}/paymentrequests/${x.request.id}/payments`, {
        method: 'WIRE',
        amount: x.request.amount,
        paidAt: '2026-06-02',
      }),
      inject('POST', '/api/payoutruns', { purposes: ['CLAIM_PAYABLE'], payeeIds: [facilityId] }),
    ])
    assert.equal(run.statusCode, 201, run.body)
    const paidByRun = json<Run>(run).payouts.some((p) => p.items.some((i) => i.paymentRequestId === x.request.id))
    // Whichever came second found the request paid: the run paid nothing of it, or the hand payment is refused.
    assert.equal(byHand.statusCode, paidByRun ? 409 : 201, byHand.body)
    const claim = await getClaim(x.claim.id)
    assert.equal(claim.status, 'PAID')
    assert.equal(cents(claim.totals.paid), cents(x.request.amount))
    assert.equal(claim.paymentRequests[0]!.payments.length, 1)
    assert.equal(await claimPayable(facilityId), before_ - cents(x.request.amount))
  })
})
