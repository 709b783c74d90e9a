// GAP endings over HTTP (docs/cancellations.md "GAP"): a payoff reported as a cancel request and a
// loan that matured before the GAP term are listed by GET /contracts/autocancelgap, and cancelled by
// POST /contracts/autocancelgap/{id} with their GAP reason on their date; a GAP payoff is cancelled
// on the payoff date; a reversal resyncs the reinstated contract's earnings.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'

// Sold in January 2026; the clock then moves to LATER, when the short loan has matured.
const SOLD = new Date('2026-01-20T18:00:00Z')
const LATER = new Date('2026-11-20T18:00:00Z')
/** A 6-month loan: the demo book's first GAP term (36 months) covers loans of 1 to 36 months. */
const SHORT_LOAN =
  'vehiclePurchasePrice=28500&msrp=31200&financeType=RETAIL&amountFinanced=24000&financeTermMonths=6&apr=6.99'
/** A 72-month loan: the 72-month GAP term, maturing with it. */
const LONG_LOAN =
  'vehiclePurchasePrice=28500&msrp=31200&financeType=RETAIL&amountFinanced=24000&financeTermMonths=72&apr=6.99'

let t: TestApp
let demo: DemoTestTenant
let matured: Contract
let paidOff: Contract
let longLoan: Contract
let vsc: Contract

type Contract = { id: number; contractNumber: string; status: string; retailPrice: number }
type Due = {
  contractId: number
  contractNumber: string
  trigger: string
  source: string
  cancelDate: string
  reason: { id: number; code: string; name: string } | null
  cancelRequestId: number | null
  requestNumber: string | null
  loan: { termMonths: number; firstPaymentDate: string | null; maturityDate: string | null } | null
}
type Cancel = {
  id: number
  contractId: number
  requestId: number | null
  cancelDate: string
  status: string
  reason: { code: string }
  method: { code: string }
  calculation: { unearnedRatio: string; grossRefund: number; cancelFee: number; purchasePrice: number }
  journalEntryId: number
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: demo.headers, ...(payload === undefined ? {} : { payload: payload as object }) })

const sellGap = (saleDate: string, loan: string, loanNumber: string, firstPaymentDate?: string) =>
  sellDemoContract<Contract>(t, demo, {
    saleDate,
    productType: 'GAP',
    planCode: 'GAP-STD',
    quoteQuery: loan,
    customer: { firstName: 'Gale', lastName: 'Gap', emailAddress: 'gale@example.com' },
    deal: {
      customFields: { lenderLoanNumber: loanNumber },
      ...(firstPaymentDate ? { finance: { firstPaymentDate } } : {}),
    },
    finalize: true,
  })

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  matured = await sellGap('2026-01-15', SHORT_LOAN, 'LN-GAP-1', '2026-02-15')
  paidOff = await sellGap('2026-01-16', LONG_LOAN, 'LN-GAP-2')
  longLoan = await sellGap('2026-01-17', LONG_LOAN, 'LN-GAP-3')
  vsc = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-01-18', finalize: true })
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
})
after(() => t.close())

const due = async (query = '') => {
  const res = await inject('GET', `/api/contracts/autocancelgap${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return { items: json<Due[]>(res), total: Number(res.headers['x-total-count']) }
}

describe('GAP endings', () => {
  test('a payoff is cancelled on the payoff date; a differing cancel date is refused', async () => {
    const body = {
      cancelDate: '2026-10-02',
      payoffDate: '2026-10-01',
      cancelReasonCode: 'EARLY_PAYOFF',
      requestedBy: 'LIENHOLDER',
    }
    const wrong = await inject('POST', `/api/contracts/${paidOff.id}/cancelrequests?quoteOnly=true`, body)
    assert.equal(wrong.statusCode, 422, wrong.body)
    assert.deepEqual(
      json<Problem>(wrong).errors!.map((e) => [e.field, e.code]),
      [['cancelDate', 'not_payoff_date']],
    )
    // A VSC contract's cancel date is its own, whatever the payoff date.
    const other = await inject('POST', `/api/contracts/${vsc.id}/cancelrequests?quoteOnly=true`, {
      ...body,
      cancelOdometer: 50_000,
      requestedBy: 'CUSTOMER',
    })
    assert.equal(other.statusCode, 200, other.body)
  })

  test('a matured loan and a reported payoff are listed; a payoff waiting for documents is not', async () => {
    const first = await due()
    assert.deepEqual(
      first.items.map((d) => [d.contractId, d.trigger, d.source, d.cancelDate, d.reason?.code]),
      [[matured.id, 'LOAN_MATURED', 'LOAN_TERMS', '2026-07-15', 'EARLY_PAYOFF']],
    )
    // The last of six payments: 2026-02-15 + 5 months.
    assert.deepEqual(first.items[0]!.loan, {
      termMonths: 6,
      firstPaymentDate: '2026-02-15',
      maturityDate: '2026-07-15',
    })
    assert.equal(first.total, 1)

    const created = await inject('POST', `/api/contracts/${paidOff.id}/cancelrequests`, {
      cancelDate: '2026-10-01',
      payoffDate: '2026-10-01',
      cancelReasonCode: 'EARLY_PAYOFF',
      requestedBy: 'LIENHOLDER',
    })
    assert.equal(created.statusCode, 201, created.body)
    const request = json<{ id: number; requestNumber: string; status: string }>(created)
    assert.equal(request.status, 'PENDING_DOCUMENTS')
    assert.deepEqual(
      (await due()).items.map((d) => d.contractId),
      [matured.id],
    )
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/cancelrequests/${request.id}/documents?fileName=payoff.txt`,
      headers: { ...demo.headers, 'content-type': 'text/plain' },
      payload: 'payoff letter: loan LN-GAP-2 paid in full on 2026-10-01',
    })
    assert.equal(upload.statusCode, 201, upload.body)
    const submitted = await inject('POST', `/api/cancelrequests/${request.id}`, {
      action: 'SUBMIT_DOCUMENTS',
      documents: [{ documentId: json<{ documentId: number }>(upload).documentId, type: 'PAYOFF_LETTER' }],
    })
    assert.equal(submitted.statusCode, 200, submitted.body)

    const listed = await due()
    assert.deepEqual(
      listed.items.map((d) => [d.contractId, d.trigger, d.source, d.cancelDate, d.cancelRequestId, d.requestNumber]),
      [
        [matured.id, 'LOAN_MATURED', 'LOAN_TERMS', '2026-07-15', null, null],
        [paidOff.id, 'PAYOFF', 'CANCEL_REQUEST', '2026-10-01', request.id, request.requestNumber],
      ],
    )
    assert.equal(listed.total, 2)
    assert.ok(!listed.items.some((d) => d.contractId === longLoan.id || d.contractId === vsc.id))
    // As of a date before both: nothing due. Paged: one at a time.
    assert.deepEqual((await due('?asOf=2026-07-14')).items, [])
    const page = await due('?limit=1&offset=1')
    assert.deepEqual([page.items.map((d) => d.contractId), page.total], [[paidOff.id], 2])
  })

  test('bad input: an as-of date after today or not a date is 422; a contract not due is 409', async () => {
    for (const asOf of ['2026-11-21', 'soon']) {
      const res = await inject('GET', `/api/contracts/autocancelgap?asOf=${asOf}`)
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(json<Problem>(res).errors![0]!.field, 'asOf')
    }
    for (const c of [longLoan, vsc]) {
      const res = await inject('POST', `/api/contracts/autocancelgap/${c.id}`, {})
      assert.equal(res.statusCode, 409, res.body)
      assert.equal(json<Problem>(res).code, 'gap_cancel_not_due')
    }
    const unknown = await inject('POST', '/api/contracts/autocancelgap/987654321', {})
    assert.equal(unknown.statusCode, 404, unknown.body)
  })

  test('the matured loan is cancelled with the payoff reason on its maturity date; the reported payoff by its request', async () => {
    const res = await inject('POST', `/api/contracts/autocancelgap/${matured.id}`, {})
    assert.equal(res.statusCode, 201, res.body)
    const cancel = json<Cancel>(res)
    assert.deepEqual(
      [cancel.contractId, cancel.cancelDate, cancel.reason.code, cancel.method.code, cancel.requestId],
      [matured.id, '2026-07-15', 'EARLY_PAYOFF', 'PRO_RATA_MONTHS_NEAREST_15', null],
    )
    // Six of 36 months elapsed: 30/36 of the price, no fee (the book's payoff rule).
    assert.equal(cancel.calculation.unearnedRatio, '5/6')
    assert.equal(cancel.calculation.grossRefund, Math.round((cancel.calculation.purchasePrice * 100 * 5) / 6) / 100)
    assert.equal(cancel.calculation.cancelFee, 0)
    const again = await inject('POST', `/api/contracts/autocancelgap/${matured.id}`, {})
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(json<Problem>(again).code, 'gap_cancel_not_due')

    const [item] = (await due()).items
    assert.equal(item!.contractId, paidOff.id)
    const viaRequest = await inject('POST', `/api/contracts/autocancelgap/${paidOff.id}`, {})
    assert.equal(viaRequest.statusCode, 201, viaRequest.body)
    const second = json<Cancel>(viaRequest)
    assert.deepEqual(
      [second.requestId, second.cancelDate, second.reason.code],
      [item!.cancelRequestId, '2026-10-01', 'EARLY_PAYOFF'],
    )
    const request = await inject('GET', `/api/cancelrequests/${item!.cancelRequestId}`)
    assert.equal(json<{ status: string }>(request).status, 'PROCESSED')
    assert.deepEqual((await due()).items, [])
  })

  test("a reversal reinstates the contract and posts the earnings due since the sale in the reversal's transaction", async () => {
    const [cancel] = json<Cancel[]>(await inject('GET', `/api/contracts/${matured.id}/cancels`))
    const entries = async () =>
      json<Array<{ id: number; kind: string }>>(await inject('GET', `/api/contracts/${matured.id}/journalentries`)).map(
        (e) => e.kind,
      )
    const earlier = await entries()
    assert.ok(!earlier.includes('EARNINGS_RECOGNIZED'), earlier.join())
    const reversed = await inject('POST', `/api/cancels/${cancel!.id}`, {
      action: 'REVERSE',
      reason: 'payoff posted in error',
    })
    assert.equal(reversed.statusCode, 200, reversed.body)
    const contract = json<{ status: string }>(await inject('GET', `/api/contracts/${matured.id}`))
    assert.equal(contract.status, 'ACTIVE')
    const later = await entries()
    assert.deepEqual(later.slice(earlier.length).toSorted(), ['CANCEL_REVERSED', 'EARNINGS_RECOGNIZED'])
    // Nothing more is due today: a sync posts nothing.
    const sync = await inject('POST', `/api/contracts/${matured.id}/syncEarnings`, {})
    assert.equal(sync.statusCode, 200, sync.body)
    assert.equal(json<{ outcome: string }>(sync).outcome, 'NOTHING_DUE')
    // Reinstated and matured: due again.
    assert.deepEqual(
      (await due()).items.map((d) => [d.contractId, d.trigger]),
      [[matured.id, 'LOAN_MATURED']],
    )
  })
})
