// The adjuster's decisions and the money of a claim over HTTP (docs/claims.md "Deciding a claim",
// "Payment requests and payments"): jobs and benefits authorized by PATCH with an authorization
// number, holds that stop the money, a payment request posting CLAIM_APPROVED to the risk bearer and
// the payee, payments posting CLAIM_PAID up to PAID, a request withdrawn with its entry reversed,
// denial with a reason, close, reopen and void; repair facilities see their own claims.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-06-01T18:00:00Z')

type Claim = {
  id: number
  claimNumber: string
  status: string
  version: number
  holds: Array<{ id: number; holdReason: { id: number; text: string }; releasedAt: string | null }>
  authorization: { number: string; expiresAt: string; authorizedBy: string } | null
  deniedReason: { id: number; text: string } | null
  jobs: Array<{ status: string; authorizedTotal: number }>
  benefits: Array<{ type: string; countedAmount: number; status: string }>
  payee: { type: string; claimPayeeId: number } | null
  totals: { requested: number; authorized: number; tax: number; deductible: number; payable: number; paid: number }
  paymentRequests: Array<{ id: number; status: string; amount: number; paidTotal: number; payments: unknown[] }>
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

let t: TestApp
let demo: DemoTestTenant
let facilityId: number
let lookups: { complaint: number; cause: number; correction: number; hold: number; denied: number }
const contracts: Array<{ id: number; contractNumber: string }> = []

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, h = demo.headers, type?: string) =>
  t.app.inject({
    method,
    url,
    headers: type ? { ...h, 'content-type': type } : h,
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
const patch = (id: number, ops: unknown, h = demo.headers) =>
  inject('PATCH', `/api/claims/${id}`, ops, h, 'application/json-patch+json')

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  for (let i = 0; i < 4; i++)
    contracts.push(
      await sellDemoContract(t, demo, {
        saleDate: `2026-03-${String(10 + i).padStart(2, '0')}`,
        finalize: true,
        // PLAT-USED's limit of liability is the vehicle's purchase price.
        quoteQuery: 'vehiclePurchasePrice=21500',
        deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
      }),
    )
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
    denied: await first('/api/claims/deniedReasons'),
  }
})
after(() => t.close())

async function take(contractIndex: number, lossDate = '2026-05-20'): Promise<Claim> {
  const res = await inject('POST', '/api/claims', {
    contractId: contracts[contractIndex]!.id,
    lossDate,
    odometer: 45000 + contractIndex,
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
        sublet: [{ description: 'Tow', amount: 20 }],
      },
    ],
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<Claim>(res)
}

/** Authorizes the coil at 118.40 and the labor at 87.00, the tow as asked, and a 2-day rental. */
const AUTHORIZE = [
  { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
  { op: 'replace', path: '/jobs/0/parts/0/authorizedUnitPrice', value: 118.4 },
  { op: 'replace', path: '/jobs/0/parts/0/reductionReason', value: 'MSRP list price' },
  { op: 'replace', path: '/jobs/0/labor/0/authorizedAmount', value: 87 },
  { op: 'replace', path: '/jobs/0/labor/0/reductionReason', value: 'Labor guide: 0.6 h at 145.00' },
  { op: 'replace', path: '/benefits', value: [{ type: 'RENTAL', status: 'AUTHORIZED', days: 2, dailyRate: 40 }] },
  { op: 'replace', path: '/status', value: 'AUTHORIZED' },
]

/** The entry's lines as "PURPOSE SIDE amount", and the account holders, in line order. */
async function entryLines(entryId: number) {
  const entry = await t.modules.finance.ledger.entry(demo.tenantId, entryId)
  assert.ok(entry, `entry ${entryId}`)
  return entry.lines.map((l) => ({
    text: `${l.purpose} ${l.debit > 0 ? 'DEBIT' : 'CREDIT'} ${(l.debit || l.credit).toFixed(2)}`,
    holder: l.accountHolderId,
  }))
}

describe('authorize, request payment, pay', () => {
  let claim: Claim
  test('PATCH authorizes: an authorization number valid 180 days, the payable to the cent, audited and an event', async () => {
    claim = await take(0)
    const res = await patch(claim.id, AUTHORIZE)
    assert.equal(res.statusCode, 200, res.body)
    claim = json<Claim>(res)
    assert.equal(claim.status, 'AUTHORIZED')
    assert.equal(claim.authorization!.number, `${claim.claimNumber}-A1`)
    // Authorized 2026-06-01, valid 180 days: expired from 2026-11-28.
    assert.equal(claim.authorization!.expiresAt, '2026-11-28')
    assert.equal(claim.jobs[0]!.authorizedTotal, 225.4)
    assert.equal(claim.benefits[0]!.countedAmount, 80)
    // 118.40 + 87.00 + 20.00 + 80.00 = 305.40; tax 118.40 × 0.0825 = 9.768 → 9.77; deductible 0 (D0).
    assert.deepEqual(claim.totals, {
      requested: 312,
      authorized: 305.4,
      tax: 9.77,
      deductible: 0,
      payable: 315.17,
      paid: 0,
    })
    const events = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('event_outbox')
        .select(['type'])
        .where('tenant_id', '=', demo.tenantId)
        .where('type', '=', 'claim.authorized')
        .execute(),
    )
    assert.equal(events.length, 1)
  })

  test('a hold stops the payment request; releasing it lets it through', async () => {
    let res = await patch(claim.id, [
      { op: 'add', path: '/holds/-', value: { holdReasonId: lookups.hold, note: 'W-9' } },
    ])
    assert.equal(res.statusCode, 200, res.body)
    const held = json<Claim>(res)
    assert.equal(held.holds.length, 1)
    assert.equal(held.holds[0]!.releasedAt, null)
    res = await inject('POST', `/api/claims/${claim.id}/paymentrequests`, {
      invoiceNumber: 'INV-1',
      invoiceDate: '2026-05-28',
      invoicedTotal: 400,
    })
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(json<Problem>(res).code, 'claim_on_hold')
    res = await patch(claim.id, [{ op: 'replace', path: '/holds', value: [] }])
    assert.equal(res.statusCode, 200, res.body)
    assert.ok(json<Claim>(res).holds[0]!.releasedAt)
  })

  let requestId: number
  test('the payment request commits the lesser of payable and invoice: CLAIM_APPROVED, PENDING_PAYMENT', async () => {
    const bad = await inject('POST', `/api/claims/${claim.id}/paymentrequests`, {
      invoiceNumber: 'INV-1',
      invoiceDate: '2026-07-01',
      invoicedTotal: 1.234,
    })
    assert.equal(bad.statusCode, 422, bad.body)
    assert.deepEqual(
      json<Problem>(bad)
        .errors!.map((e) => `${e.field} ${e.code}`)
        .toSorted(),
      ['invoiceDate in_future', 'invoicedTotal too_precise'],
    )
    const res = await inject('POST', `/api/claims/${claim.id}/paymentrequests`, {
      invoiceNumber: 'INV-1',
      invoiceDate: '2026-05-28',
      invoicedTotal: 300,
    })
    assert.equal(res.statusCode, 201, res.body)
    const request = json<{ id: number; amount: number; journalEntryId: number; payee: { accountHolderId: number } }>(
      res,
    )
    requestId = request.id
    assert.equal(request.amount, 300)
    assert.equal(request.payee.accountHolderId, facilityId)
    const lines = await entryLines(request.journalEntryId)
    assert.deepEqual(
      lines.map((l) => l.text),
      ['CLAIM_EXPENSE DEBIT 300.00', 'CLAIM_PAYABLE CREDIT 300.00'],
    )
    assert.equal(lines[1]!.holder, facilityId)
    const read = json<Claim>(await inject('GET', `/api/claims/${claim.id}`))
    assert.equal(read.status, 'PENDING_PAYMENT')
    assert.equal(read.paymentRequests[0]!.status, 'REQUESTED')
    // No second request while one is open, no edits.
    const again = await inject('POST', `/api/claims/${claim.id}/paymentrequests`, {
      invoiceNumber: 'INV-2',
      invoiceDate: '2026-05-28',
      invoicedTotal: 10,
    })
    assert.equal(again.statusCode, 409, again.body)
  })

  test('payments: partial, above what is left (422), the rest: PAID, CLAIM_PAID entries, paid on the claim', async () => {
    let res = await inject('POST', `/api/claims/${claim.id}/paymentrequests/${requestId}/payments`, {
      method: 'CHECK',
      amount: 100,
      paidAt: '2026-06-01',
      reference: 'CHK 1',
    })
    assert.equal(res.statusCode, 201, res.body)
    const first = json<{ claimStatus: string; journalEntryId: number }>(res)
    assert.equal(first.claimStatus, 'PARTIALLY_PAID')
    assert.deepEqual(
      (await entryLines(first.journalEntryId)).map((l) => l.text),
      ['CLAIM_PAYABLE DEBIT 100.00', 'CASH CREDIT 100.00'],
    )
    res = await inject('POST', `/api/claims/${claim.id}/paymentrequests/${requestId}/payments`, {
      method: 'ACH',
      amount: 200.01,
      paidAt: '2026-06-01',
    })
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(json<Problem>(res).code, 'claim_payment_above_payable')
    res = await inject('POST', `/api/claims/${claim.id}/paymentrequests/${requestId}/payments`, {
      method: 'ACH',
      amount: 200,
      paidAt: '2026-06-01',
    })
    assert.equal(res.statusCode, 201, res.body)
    const read = json<Claim>(await inject('GET', `/api/claims/${claim.id}`))
    assert.equal(read.status, 'PAID')
    assert.equal(read.totals.paid, 300)
    assert.equal(read.paymentRequests[0]!.status, 'PAID')
    assert.equal(read.paymentRequests[0]!.payments.length, 2)
    // PAID is final: nothing changes it.
    const closed = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'CLOSED' }])
    assert.equal(closed.statusCode, 409, closed.body)
  })
})

describe('withdraw, deny, close, reopen, void', () => {
  test('a request withdrawn by PATCH back to AUTHORIZED: WITHDRAWN, its entry reversed', async () => {
    let claim = await take(1)
    assert.equal((await patch(claim.id, AUTHORIZE)).statusCode, 200)
    const res = await inject('POST', `/api/claims/${claim.id}/paymentrequests`, {
      invoiceNumber: 'INV-9',
      invoiceDate: '2026-05-28',
      invoicedTotal: 1000,
    })
    assert.equal(res.statusCode, 201, res.body)
    assert.equal(json<{ amount: number }>(res).amount, 315.17)
    const back = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'AUTHORIZED' }])
    assert.equal(back.statusCode, 200, back.body)
    claim = json<Claim>(back)
    assert.equal(claim.status, 'AUTHORIZED')
    const request = claim.paymentRequests[0] as unknown as { status: string; releaseEntryId: number | null }
    assert.equal(request.status, 'WITHDRAWN')
    assert.ok(request.releaseEntryId)
    const reversal = await entryLines(request.releaseEntryId!)
    assert.deepEqual(reversal.map((l) => l.text).toSorted(), [
      'CLAIM_EXPENSE CREDIT 315.17',
      'CLAIM_PAYABLE DEBIT 315.17',
    ])
    // Requested again, paid in part, then closed: the unpaid rest released (CLAIM_RELEASED).
    const again = await inject('POST', `/api/claims/${claim.id}/paymentrequests`, {
      invoiceNumber: 'INV-10',
      invoiceDate: '2026-05-29',
      invoicedTotal: 100,
    })
    assert.equal(again.statusCode, 201, again.body)
    const second = json<{ id: number }>(again)
    const paid = await inject('POST', `/api/claims/${claim.id}/paymentrequests/${second.id}/payments`, {
      method: 'WIRE',
      amount: 40,
      paidAt: '2026-06-01',
    })
    assert.equal(paid.statusCode, 201, paid.body)
    const closed = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'CLOSED' }])
    assert.equal(closed.statusCode, 200, closed.body)
    const closedClaim = json<Claim>(closed)
    assert.equal(closedClaim.status, 'CLOSED')
    assert.equal(closedClaim.totals.paid, 40)
    const last = closedClaim.paymentRequests[1] as unknown as { status: string; releaseEntryId: number }
    assert.equal(last.status, 'CLOSED')
    assert.deepEqual(
      (await entryLines(last.releaseEntryId)).map((l) => l.text),
      ['CLAIM_PAYABLE DEBIT 60.00', 'CLAIM_EXPENSE CREDIT 60.00'],
    )
  })

  test('deny needs a reason (422), then DENIED with it; reopen; close; void', async () => {
    let claim = await take(2)
    let res = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'DENIED' }])
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(json<Problem>(res).code, 'claim_denied_reason_required')
    res = await patch(claim.id, [
      { op: 'replace', path: '/status', value: 'DENIED' },
      { op: 'replace', path: '/deniedReasonId', value: lookups.denied },
    ])
    assert.equal(res.statusCode, 200, res.body)
    claim = json<Claim>(res)
    assert.equal(claim.status, 'DENIED')
    assert.equal(claim.deniedReason!.id, lookups.denied)
    res = await inject(
      'PATCH',
      `/api/claims/${claim.id}`,
      { status: 'OPEN' },
      demo.headers,
      'application/merge-patch+json',
    )
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(json<Claim>(res).status, 'OPEN')
    res = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'CLOSED' }])
    assert.equal(json<Claim>(res).status, 'CLOSED')
    res = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'VOIDED' }])
    assert.equal(json<Claim>(res).status, 'VOIDED')
    const audits = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('action')
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'claim')
        .where('entity_id', '=', String(claim.id))
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(
      audits.map((a) => a.action),
      ['claim.created', 'claim.denied', 'claim.reopened', 'claim.closed', 'claim.voided'],
    )
  })

  test('bad decisions: an unknown hold reason, a benefit the plan does not list, a status no PATCH sets', async () => {
    const claim = await take(3)
    let res = await patch(claim.id, [
      { op: 'add', path: '/holds/-', value: { holdReasonId: lookups.complaint } },
      { op: 'replace', path: '/benefits', value: [{ type: 'ROADSIDE', amount: 50 }] },
    ])
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res)
        .errors!.map((e) => `${e.field} ${e.code}`)
        .toSorted(),
      ['benefits[0].type not_covered', 'holds[0].holdReasonId unknown_lookup'],
    )
    // A line authorized for less than was asked says why.
    res = await patch(claim.id, [
      { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
      { op: 'replace', path: '/jobs/0/sublet/0/authorizedAmount', value: 15 },
    ])
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res).errors!.map((e) => `${e.field} ${e.code}`),
      ['jobs[0].sublet[0].reductionReason required'],
    )
    res = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'PAID' }])
    assert.equal(res.statusCode, 409, res.body)
    res = await patch(claim.id, [{ op: 'replace', path: '/status', value: 'AUTHORIZED' }])
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(json<Problem>(res).code, 'claim_nothing_authorized')
    const benefits = await inject('GET', `/api/claims/${claim.id}/claimbenefits`)
    assert.equal(benefits.statusCode, 200, benefits.body)
    assert.deepEqual(json(benefits), [])
  })
})

describe('repair facility visibility', () => {
  test("a facility's user sees the claims repaired there, not others", async () => {
    const group = await inject('POST', '/api/portalvisibilitygroups', {
      code: 'RF-PORTAL',
      name: 'Facility portal',
      dealerIds: [facilityId],
    })
    assert.equal(group.statusCode, 201, group.body)
    const user = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'], {
      groups: [{ id: json<{ id: number }>(group).id }],
    })
    const list = await inject('GET', '/api/claims', undefined, user.headers)
    assert.equal(list.statusCode, 200, list.body)
    const page = json<{ totalCount: number; items: Array<{ repairFacility: { accountHolderId: number } }> }>(list)
    assert.ok(page.totalCount >= 4)
    assert.ok(page.items.every((c) => c.repairFacility.accountHolderId === facilityId))
  })
})

describe('the edit lock', () => {
  test("an adjuster's lock: 423 for another user's changes, released by its holder", async () => {
    const claim = await take(3, '2026-05-21')
    const other = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'])
    let res = await inject('POST', `/api/claims/${claim.id}/lock`, undefined, other.headers)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(json<{ heldByYou: boolean }>(res).heldByYou, true)
    res = await patch(claim.id, [{ op: 'replace', path: '/repairOrderNumber', value: 'RO-2' }])
    assert.equal(res.statusCode, 423, res.body)
    assert.equal(json<Problem>(res).code, 'claim_locked')
    res = await inject('GET', `/api/claims/${claim.id}/lock`)
    assert.deepEqual(
      (({ locked, heldByYou }) => ({ locked, heldByYou }))(json<{ locked: boolean; heldByYou: boolean }>(res)),
      { locked: true, heldByYou: false },
    )
    res = await t.app.inject({ method: 'DELETE', url: `/api/claims/${claim.id}/lock`, headers: other.headers })
    assert.equal(res.statusCode, 204, res.body)
    res = await patch(claim.id, [{ op: 'replace', path: '/repairOrderNumber', value: 'RO-2' }])
    assert.equal(res.statusCode, 200, res.body)
  })
})

describe('GAP and tire & wheel', () => {
  test('a GAP contract takes no repair claim (422 gap_not_claimable); tire & wheel pays up to its per-occurrence cap', async () => {
    t.clock.set(SOLD)
    demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
    const gap = await sellDemoContract(t, demo, {
      saleDate: '2026-03-16',
      productType: 'GAP',
      planCode: 'GAP-STD',
      quoteQuery:
        'vehiclePurchasePrice=28500&msrp=31200&financeType=RETAIL&amountFinanced=24000&financeTermMonths=72&apr=6.99',
      deal: { customFields: { lenderLoanNumber: 'LN-CLAIMS-1' } },
      finalize: true,
    })
    const tire = await sellDemoContract(t, demo, {
      saleDate: '2026-03-17',
      productType: 'TIRE_WHEEL',
      planCode: 'TW-STD',
      finalize: true,
    })
    t.clock.set(LATER)
    demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
    const base = { lossDate: '2026-05-20', odometer: 46000, repairFacilityId: facilityId }
    let res = await inject('POST', '/api/claims', { ...base, contractId: gap.id })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res).errors!.map((e) => `${e.field} ${e.code}`),
      ['contractId gap_not_claimable'],
    )
    res = await inject('POST', '/api/claims', {
      ...base,
      contractId: tire.id,
      jobs: [
        {
          complaintId: lookups.complaint,
          parts: [{ partNumber: 'TIRE-245', description: 'Tire', quantity: 4, unitPrice: 450, taxable: false }],
        },
      ],
    })
    assert.equal(res.statusCode, 201, res.body)
    const claim = json<Claim>(res)
    res = await patch(claim.id, [
      { op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' },
      { op: 'replace', path: '/status', value: 'AUTHORIZED' },
    ])
    assert.equal(res.statusCode, 200, res.body)
    // 4 × 450.00 = 1,800.00, held to the plan's 1,500.00 per occurrence.
    assert.equal(json<Claim>(res).totals.authorized, 1800)
    assert.equal(json<Claim>(res).totals.payable, 1500)
  })
})

describe('claims:approve', () => {
  test('a claims clerk (claims:write, not claims:approve) edits a claim but cannot authorize, deny or pay it', async () => {
    await t.db.transaction(demo.tenantId, (tx) =>
      tx
        .insertInto('membership_role')
        .values({
          tenant_id: demo.tenantId,
          code: 'CLAIMS_CLERK',
          name: 'Claims clerk',
          description: 'Takes and works claims; does not decide them',
          permissions: ['claims:read', 'claims:write', 'contracts:read', 'accountholders:read'],
          created_at: new Date(),
        })
        .execute(),
    )
    const clerk = await createUserWithRoles(t, demo, ['CLAIMS_CLERK'])
    const claim = await take(2, '2026-05-22')
    let res = await patch(claim.id, [{ op: 'replace', path: '/repairOrderNumber', value: 'RO-CLERK' }], clerk.headers)
    assert.equal(res.statusCode, 200, res.body)
    res = await patch(claim.id, AUTHORIZE, clerk.headers)
    assert.equal(res.statusCode, 403, res.body)
    assert.equal(json<Problem>(res).code, 'permission_denied')
    res = await patch(claim.id, [{ op: 'replace', path: '/jobs/0/status', value: 'AUTHORIZED' }], clerk.headers)
    assert.equal(res.statusCode, 403, res.body)
    assert.equal((await patch(claim.id, AUTHORIZE)).statusCode, 200)
    res = await inject(
      'POST',
      `/api/claims/${claim.id}/paymentrequests`,
      { invoiceNumber: 'INV-C', invoiceDate: '2026-05-28', invoicedTotal: 10 },
      clerk.headers,
    )
    assert.equal(res.statusCode, 403, res.body)
  })
})
