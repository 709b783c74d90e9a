// The cancel flow over HTTP on the demo tenant (docs/cancellations.md): the quote agrees with the
// rules and writes nothing; a request approved is processed (contract CANCELLED, one balanced entry
// per decision 0012's cancel table, payments); a reversal reinstates, reverses the entry once and
// voids the payments; bad input 422 / 409 / 404 with nothing written; dealer-side users request but
// do not approve; two approvals at once give one cancel.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoSale, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

// Contracts are sold on days around SOLD, then the clock moves to LATER (past the free-look): the
// cancels are on CANCEL_DATE, 200 days after the sale.
const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-10-06T18:00:00Z')
const CANCEL_DATE = '2026-10-05'

let t: TestApp
let demo: DemoTestTenant
let dealerUser: { headers: Record<string, string> }
let dealerId: number
const contracts: Contract[] = []
/** A finalized contract of the other demo dealer, which the dealer-side user cannot see. */
let otherDealers: Contract

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  for (let i = 0; i < 8; i++) {
    contracts.push(await sell({ saleDate: `2026-03-${String(10 + i).padStart(2, '0')}`, finalize: i < 7 }))
  }
  otherDealers = await sell({ saleDate: '2026-03-10', dealerNumber: DEMO.otherDealerNumber, finalize: true })
  const dealer = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', contracts[0]!.id)
      .executeTakeFirstOrThrow(),
  )
  dealerId = dealer.dealer_id
  const group = await inject('POST', '/api/portalvisibilitygroups', {
    code: 'PORTAL-CXL',
    name: 'Cancel portal',
    dealerIds: [dealerId],
  })
  assert.equal(group.statusCode, 201, group.body)
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  dealerUser = await createUserWithRoles(t, demo, ['DEALER_USER'], { groups: [{ id: json<{ id: number }>(group).id }] })
})
after(() => t.close())

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, h: Record<string, string> = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })

type Contract = { id: number; contractNumber: string; status: string; dealerId?: number }

/** A contract of the demo book sold to Robin Cancel (sellDemoContract). */
const sell = (sale: DemoSale) =>
  sellDemoContract<Contract>(t, demo, {
    customer: { firstName: 'Robin', lastName: 'Cancel', emailAddress: 'robin@example.com' },
    ...sale,
  })

type Line = {
  accountHolderId: number
  purpose: string
  side: 'DEBIT' | 'CREDIT'
  amount: number
  disbursementCode: string | null
}
type Entry = {
  id: number
  kind: string
  source: { type: string; id: number }
  lines: Line[]
  reversesEntryId: number | null
}
type Quote = {
  id: number | null
  status: string
  requestNumber: string | null
  cancelId?: number | null
  method: { code: string }
  withinFreeLook: boolean
  calculation: Record<string, number | string | null> & {
    refundableAmount: number
    unearnedRatio: string
    grossRefund: number
    cancelFee: number
    netCustomerRefund: number
    claimsDeducted: number
  }
  funding: {
    dealerChargeback: number
    adminRefund: number
    feeRetained: { amount: number; retainedBy: string } | null
    byDisbursement: Array<{ code: string; payeeAccountHolderId: number; amount: number; refund: number }>
  }
  refundPayee: { type: string; accountHolderId: number }
  payments: Array<{ kind: string; amount: number; status: string; accountHolderId: number }>
}
type Cancel = Omit<Quote, 'payments'> & {
  id: number
  status: string
  journalEntryId: number
  reversalEntryId: number | null
  payments: Array<{
    id: number
    kind: string
    amount: number
    status: string
    accountHolderId: number
    dueDate: string | null
  }>
}
type Problem = { status: number; code: string; errors?: Array<{ field: string; code: string }> }

const cents = (n: number) => Math.round(n * 100)
const BODY = { cancelDate: CANCEL_DATE, cancelOdometer: 47150, cancelReasonCode: 'CUSTOMER_REQUEST' }

async function contractStatus(id: number) {
  const res = await inject('GET', `/api/contracts/${id}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Contract>(res).status
}

async function entries(id: number): Promise<Entry[]> {
  const res = await inject('GET', `/api/contracts/${id}/journalentries`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Entry[]>(res)
}

async function rowCounts() {
  return t.db.read(demo.tenantId, async (x) => {
    const n = async (table: 'cancel_request' | 'cancel' | 'cancel_payment') =>
      Number(
        (
          await x
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('tenant_id', '=', demo.tenantId)
            .executeTakeFirstOrThrow()
        ).n,
      )
    const entriesCount = Number(
      (
        await x
          .selectFrom('journal_entry')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', demo.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    )
    return {
      requests: await n('cancel_request'),
      cancels: await n('cancel'),
      payments: await n('cancel_payment'),
      entries: entriesCount,
    }
  })
}

/** What earnings runs recognized on the contract, per code (ADMINISTRATOR_REVENUE credits of EARNINGS_RECOGNIZED entries). */
function earnedOf(all: Entry[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const e of all.filter((x) => x.kind === 'EARNINGS_RECOGNIZED'))
    for (const l of e.lines.filter((x) => x.purpose === 'ADMINISTRATOR_REVENUE'))
      out.set(
        l.disbursementCode!,
        (out.get(l.disbursementCode!) ?? 0) + (l.side === 'CREDIT' ? 1 : -1) * cents(l.amount),
      )
  return out
}

/** The cancel entry decision 0012 calls for, from the quote: per account holder, purpose and code, signed (debit +). */
function expectedLines(q: Quote, administratorId: number, customerId: number, earned = new Map<string, number>()) {
  const out = new Map<string, number>()
  const add = (holder: number, purpose: string, code: string | null, signedCents: number) => {
    const k = `${holder}|${purpose}|${code ?? ''}`
    out.set(k, (out.get(k) ?? 0) + signedCents)
  }
  for (const l of q.funding.byDisbursement) {
    if (l.payeeAccountHolderId === administratorId) {
      // The remaining unearned balance: the line less what earnings runs recognized.
      const remaining = cents(l.amount) - (earned.get(l.code) ?? 0)
      add(administratorId, 'UNEARNED_REVENUE', l.code, remaining)
      add(administratorId, 'ADMINISTRATOR_REVENUE', l.code, -(remaining - cents(l.refund)))
    } else add(l.payeeAccountHolderId, 'DISBURSEMENT_PAYABLE', l.code, cents(l.refund))
  }
  add(dealerId, 'DEALER_RECEIVABLE', null, cents(q.funding.dealerChargeback))
  add(customerId, 'REFUND_PAYABLE', null, -cents(q.calculation.netCustomerRefund))
  if (q.funding.feeRetained)
    add(
      q.funding.feeRetained.retainedBy === 'ADMIN' ? administratorId : dealerId,
      q.funding.feeRetained.retainedBy === 'ADMIN' ? 'ADMINISTRATOR_REVENUE' : 'DEALER_RECEIVABLE',
      null,
      -cents(q.funding.feeRetained.amount),
    )
  return new Map([...out].filter(([, v]) => v !== 0))
}

function signedLines(e: Entry) {
  const out = new Map<string, number>()
  for (const l of e.lines) {
    const k = `${l.accountHolderId}|${l.purpose}|${l.disbursementCode ?? ''}`
    out.set(k, (out.get(k) ?? 0) + (l.side === 'DEBIT' ? 1 : -1) * cents(l.amount))
  }
  return new Map([...out].filter(([, v]) => v !== 0))
}

describe('quote', () => {
  test('answers what the rules compute and writes nothing', async () => {
    const c = contracts[0]!
    const counts = await rowCounts()
    const res = await inject('POST', `/api/contracts/${c.id}/cancelrequests?quoteOnly=true`, BODY)
    assert.equal(res.statusCode, 200, res.body)
    const q = json<Quote>(res)
    assert.equal(q.status, 'QUOTED')
    assert.equal(q.id, null)
    assert.equal(q.withinFreeLook, false)
    assert.equal(q.calculation.daysElapsed, 209)
    // gross = round(B × U), exactly, from the exact ratio.
    const [num, den] = q.calculation.unearnedRatio.split('/').map(BigInt) as [bigint, bigint]
    const B = BigInt(cents(q.calculation.refundableAmount))
    const gross = Number((2n * B * num + den) / (2n * den))
    assert.equal(cents(q.calculation.grossRefund), gross)
    assert.equal(
      cents(q.calculation.netCustomerRefund),
      cents(q.calculation.grossRefund) - cents(q.calculation.cancelFee) - cents(q.calculation.claimsDeducted),
    )
    // The shares add up to the gross.
    assert.equal(cents(q.funding.adminRefund) + cents(q.funding.dealerChargeback), cents(q.calculation.grossRefund))
    assert.equal(
      q.funding.byDisbursement.reduce((n, l) => n + cents(l.refund), 0),
      cents(q.funding.adminRefund),
    )
    assert.equal(q.refundPayee.type, 'CUSTOMER')
    assert.equal(q.payments[0]!.kind, 'REFUND')
    assert.equal(q.payments[0]!.amount, q.calculation.netCustomerRefund)
    // By contract number (v2), the same quote.
    const v2 = await inject('POST', `/api/v2/contracts/${c.contractNumber}/cancelrequests?quoteOnly=true`, BODY)
    assert.equal(v2.statusCode, 200, v2.body)
    assert.deepEqual(json<Quote>(v2).calculation, q.calculation)
    assert.deepEqual(await rowCounts(), counts)
  })

  test('bad input: every problem listed (422), nothing written', async () => {
    const c = contracts[0]!
    const counts = await rowCounts()
    const bad = async (body: Record<string, unknown>) => {
      const res = await inject('POST', `/api/contracts/${c.id}/cancelrequests`, body)
      assert.equal(res.statusCode, 422, res.body)
      return json<Problem>(res)
        .errors!.map((e) => `${e.field}:${e.code}`)
        .toSorted()
    }
    assert.deepEqual(await bad({ cancelDate: '2026-02-30', cancelOdometer: 100, cancelReasonCode: 'NO_SUCH' }), [
      'cancelDate:invalid_format',
      'cancelReasonCode:reason_not_applicable',
    ])
    assert.deepEqual(
      await bad({ cancelDate: '2026-03-01', cancelOdometer: 100, cancelReasonCode: 'CUSTOMER_REQUEST' }),
      ['cancelDate:before_sale_date', 'cancelOdometer:below_sale_odometer'],
    )
    assert.deepEqual(await bad({ ...BODY, cancelDate: '2026-10-08' }), ['cancelDate:too_late'])
    // GAP_REFINANCE is a GAP reason: not for this VSC contract.
    assert.deepEqual(await bad({ ...BODY, cancelReasonCode: 'GAP_REFINANCE' }), [
      'cancelReasonCode:reason_not_applicable',
    ])
    // SALE_UNWOUND is not for a customer to ask for.
    assert.deepEqual(await bad({ ...BODY, cancelReasonCode: 'SALE_UNWOUND', requestedBy: 'CUSTOMER' }), [
      'requestedBy:requester_not_allowed',
    ])
    assert.deepEqual(await rowCounts(), counts)
  })

  test('a PENDING contract is voided, not cancelled (409); unknown contract 404', async () => {
    const pending = contracts[7]!
    const res = await inject('POST', `/api/contracts/${pending.id}/cancelrequests?quoteOnly=true`, BODY)
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(json<Problem>(res).code, 'cancel_not_allowed')
    assert.match(res.body, /voided, not cancelled/)
    const missing = await inject('POST', `/api/contracts/987654321/cancelrequests?quoteOnly=true`, BODY)
    assert.equal(missing.statusCode, 404, missing.body)
  })
})

describe('request, approve, reverse', () => {
  test('a request approved is processed: contract CANCELLED, the entry of decision 0012, payments', async () => {
    const c = contracts[1]!
    const created = await inject('POST', `/api/contracts/${c.id}/cancelrequests`, BODY, dealerUser.headers)
    assert.equal(created.statusCode, 201, created.body)
    const request = json<Quote>(created)
    assert.equal(request.status, 'REQUESTED')
    assert.match(request.requestNumber!, /^CXL-\d{6}-\d{6}$/)
    // Dealer-side users may request, not approve.
    const denied = await inject('POST', `/api/cancelrequests/${request.id}`, { action: 'APPROVE' }, dealerUser.headers)
    assert.equal(denied.statusCode, 403, denied.body)
    // By number (v2).
    const byNumber = await inject('GET', `/api/v2/cancelrequests/${request.requestNumber!.toLowerCase()}`)
    assert.equal(byNumber.statusCode, 200, byNumber.body)
    assert.equal(json<Quote>(byNumber).id, request.id)

    // Earnings recognized before the cancel: the cancel clears only what is left unearned.
    const synced = await inject('POST', `/api/contracts/${c.id}/syncEarnings`, {})
    assert.equal(synced.statusCode, 200, synced.body)
    const earned = earnedOf(await entries(c.id))
    assert.ok(
      [...earned.values()].some((v) => v > 0),
      'the sync recognized earnings',
    )

    const approved = await inject('POST', `/api/cancelrequests/${request.id}`, { action: 'APPROVE' })
    assert.equal(approved.statusCode, 200, approved.body)
    const done = json<Quote>(approved)
    assert.equal(done.status, 'PROCESSED')
    assert.equal(await contractStatus(c.id), 'CANCELLED')

    const cancels = await inject('GET', `/api/contracts/${c.id}/cancels`)
    assert.equal(cancels.statusCode, 200, cancels.body)
    const [cancel] = json<Cancel[]>(cancels)
    assert.equal(cancel!.id, done.cancelId)
    assert.equal(cancel!.status, 'PROCESSED')
    assert.deepEqual(cancel!.calculation, request.calculation)

    const all = await entries(c.id)
    const entry = all.find((e) => e.kind === 'CONTRACT_CANCELLED')!
    assert.deepEqual(entry.source, { type: 'CANCELLATION', id: cancel!.id })
    const debit = entry.lines.filter((l) => l.side === 'DEBIT').reduce((n, l) => n + cents(l.amount), 0)
    const credit = entry.lines.filter((l) => l.side === 'CREDIT').reduce((n, l) => n + cents(l.amount), 0)
    assert.equal(debit, credit)
    const administratorId = await t.modules.parties.contractParties.administratorId(demo.tenantId)
    assert.deepEqual(
      signedLines(entry),
      expectedLines(cancel!, administratorId, cancel!.refundPayee.accountHolderId, earned),
    )

    const payments = await inject('GET', `/api/cancels/${cancel!.id}/cancelpayments`)
    assert.equal(payments.statusCode, 200, payments.body)
    const list = json<Cancel['payments']>(payments)
    assert.deepEqual(
      list.map((p) => [p.kind, p.amount, p.status]),
      cancel!.payments.map((p) => [p.kind, p.amount, 'PENDING']),
    )
    assert.equal(list[0]!.kind, 'REFUND')
    assert.equal(list[0]!.dueDate, '2026-11-05')
    for (const url of [
      `/api/cancelrequests/${request.id}/cancelpayments`,
      `/api/v2/cancelrequests/${request.requestNumber}/cancelpayments`,
      `/api/contracts/${c.id}/cancelpayments`,
      `/api/v2/contracts/${c.contractNumber}/cancelpayments`,
    ]) {
      const r = await inject('GET', url)
      assert.equal(r.statusCode, 200, `${url} ${r.body}`)
      assert.deepEqual(
        json<Cancel['payments']>(r).map((p) => p.id),
        list.map((p) => p.id),
        url,
      )
    }
    // The request cannot be acted on again.
    const again = await inject('POST', `/api/cancelrequests/${request.id}`, { action: 'WITHDRAW' })
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(json<Problem>(again).code, 'cancel_request_state_conflict')

    // Reverse: the entry on the other side, the contract reinstated, payments VOID; exactly once.
    const reversed = await inject('POST', `/api/cancels/${cancel!.id}`, {
      action: 'REVERSE',
      reason: 'Customer kept it',
    })
    assert.equal(reversed.statusCode, 200, reversed.body)
    const r = json<Cancel>(reversed)
    assert.equal(r.status, 'REVERSED')
    assert.ok(r.payments.every((p) => p.status === 'VOID'))
    assert.equal(await contractStatus(c.id), 'ACTIVE')
    const later = await entries(c.id)
    const reversal = later.find((e) => e.kind === 'CANCEL_REVERSED')!
    assert.equal(reversal.id, r.reversalEntryId)
    const negated = new Map([...signedLines(entry)].map(([k, v]) => [k, -v]))
    assert.deepEqual(signedLines(reversal), negated)
    const twice = await inject('POST', `/api/cancels/${cancel!.id}`, { action: 'REVERSE', reason: 'again' })
    assert.equal(twice.statusCode, 409, twice.body)

    // Re-processed after the reversal: the same entry.
    const again2 = await inject('POST', `/api/contracts/${c.id}/cancels`, BODY)
    assert.equal(again2.statusCode, 201, again2.body)
    const second = (await entries(c.id)).filter((e) => e.kind === 'CONTRACT_CANCELLED')
    assert.equal(second.length, 2)
    assert.deepEqual(signedLines(second[1]!), signedLines(entry))
  })

  test('a reason requiring documents waits for them; reject and withdraw', async () => {
    const c = contracts[2]!
    const created = await inject('POST', `/api/contracts/${c.id}/cancelrequests`, {
      ...BODY,
      cancelReasonCode: 'TRADE_IN',
    })
    assert.equal(created.statusCode, 201, created.body)
    const req = json<Quote>(created)
    assert.equal(req.status, 'PENDING_DOCUMENTS')
    const early = await inject('POST', `/api/cancelrequests/${req.id}`, { action: 'APPROVE' })
    assert.equal(early.statusCode, 409, early.body)
    // The document uploaded to the request's collection, then submitted with its type.
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/cancelrequests/${req.id}/documents?fileName=odometer.txt`,
      headers: { ...dealerUser.headers, 'content-type': 'text/plain' },
      payload: 'odometer statement: 47,150 miles',
    })
    assert.equal(upload.statusCode, 201, upload.body)
    const documentId = json<{ documentId: number }>(upload).documentId
    const listed = await inject('GET', `/api/cancelrequests/${req.id}/documents`)
    assert.deepEqual(
      json<Array<{ documentId: number }>>(listed).map((d) => d.documentId),
      [documentId],
    )
    const foreign = await inject('POST', `/api/cancelrequests/${req.id}`, {
      action: 'SUBMIT_DOCUMENTS',
      documents: [{ documentId: 987654321, type: 'ODOMETER_STATEMENT' }],
    })
    assert.equal(foreign.statusCode, 422, foreign.body)
    assert.equal(json<Problem>(foreign).errors![0]!.field, 'documents[0].documentId')
    const docs = await inject('POST', `/api/cancelrequests/${req.id}`, {
      action: 'SUBMIT_DOCUMENTS',
      documents: [{ documentId, type: 'ODOMETER_STATEMENT' }],
    })
    assert.equal(docs.statusCode, 200, docs.body)
    assert.equal(json<Quote>(docs).status, 'REQUESTED')
    const noReason = await inject('POST', `/api/cancelrequests/${req.id}`, { action: 'REJECT' })
    assert.equal(noReason.statusCode, 422, noReason.body)
    const rejected = await inject('POST', `/api/cancelrequests/${req.id}`, { action: 'REJECT', reason: 'not traded' })
    assert.equal(rejected.statusCode, 200, rejected.body)
    assert.equal(json<Quote>(rejected).status, 'REJECTED')
    // A decided request takes no more documents.
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/cancelrequests/${req.id}/documents?fileName=late.txt`,
      headers: { ...demo.headers, 'content-type': 'text/plain' },
      payload: 'too late',
    })
    assert.equal(late.statusCode, 409, late.body)

    const other = await inject('POST', `/api/contracts/${c.id}/cancelrequests`, BODY, dealerUser.headers)
    assert.equal(other.statusCode, 201, other.body)
    const withdrawn = await inject(
      'POST',
      `/api/cancelrequests/${json<Quote>(other).id}`,
      { action: 'WITHDRAW' },
      dealerUser.headers,
    )
    assert.equal(withdrawn.statusCode, 200, withdrawn.body)
    assert.equal(json<Quote>(withdrawn).status, 'WITHDRAWN')
    assert.equal(await contractStatus(c.id), 'ACTIVE')
    const list = await inject('GET', `/api/v2/contracts/${c.id}/cancelrequests?pageSize=1`)
    assert.equal(list.statusCode, 200, list.body)
    assert.equal(json<{ totalCount: number }>(list).totalCount, 2)
  })

  test('two approvals at once give one cancel; the other 409', async () => {
    const c = contracts[3]!
    const ids: number[] = []
    for (let i = 0; i < 2; i++) {
      const r = await inject('POST', `/api/contracts/${c.id}/cancelrequests`, BODY)
      assert.equal(r.statusCode, 201, r.body)
      ids.push(json<Quote>(r).id!)
    }
    const results = await Promise.all(
      ids.map((id) => inject('POST', `/api/cancelrequests/${id}`, { action: 'APPROVE' })),
    )
    assert.deepEqual(results.map((r) => r.statusCode).toSorted(), [200, 409], results.map((r) => r.body).join('\n'))
    const loser = results.find((r) => r.statusCode === 409)!
    assert.equal(json<Problem>(loser).code, 'contract_already_cancelled')
    const cancels = json<Cancel[]>(await inject('GET', `/api/contracts/${c.id}/cancels`))
    assert.equal(cancels.length, 1)
    assert.equal((await entries(c.id)).filter((e) => e.kind === 'CONTRACT_CANCELLED').length, 1)
    // A cancelled contract: 409 for a new quote.
    const quote = await inject('POST', `/api/contracts/${c.id}/cancelrequests?quoteOnly=true`, BODY)
    assert.equal(quote.statusCode, 409, quote.body)
  })

  test('direct cancels are staff-only; dealer-side users see only their dealers', async () => {
    const c = contracts[4]!
    const byDealer = await inject('POST', `/api/contracts/${c.id}/cancels`, BODY, dealerUser.headers)
    assert.equal(byDealer.statusCode, 403, byDealer.body)
    const override = await inject(
      'POST',
      `/api/contracts/${c.id}/cancelrequests?quoteOnly=true`,
      { ...BODY, cancelMethodId: 1 },
      dealerUser.headers,
    )
    assert.equal(override.statusCode, 403, override.body)
    const res = await inject('POST', `/api/contracts/${c.id}/cancels`, { ...BODY, cancelReasonCode: 'SALE_UNWOUND' })
    assert.equal(res.statusCode, 201, res.body)
    const cancel = json<Cancel>(res)
    // A forced full refund, to the dealer (the reason's payee).
    assert.equal(cancel.calculation.decidedBy, 'REASON')
    assert.equal(cancel.calculation.grossRefund, cancel.calculation.refundableAmount)
    assert.equal(cancel.refundPayee.type, 'DEALER')
    const seen = await inject('GET', `/api/cancels/${cancel.id}`, undefined, dealerUser.headers)
    assert.equal(seen.statusCode, 200, seen.body)
    // The reply is built from what was written: what is read back. The number, taken last, is the
    // counter's next one: the request after it takes the one after.
    assert.deepEqual(json(seen), json(res))
    const cancelNumber = json<{ cancelNumber: string }>(res).cancelNumber
    assert.match(cancelNumber, /^CXL-\d{6}-\d{6}$/)
    // Another dealer's contract, its requests and payments: 404 to the dealer-side user, as unknown ones.
    const hidden = await inject(
      'POST',
      `/api/contracts/${otherDealers.id}/cancelrequests?quoteOnly=true`,
      BODY,
      dealerUser.headers,
    )
    assert.equal(hidden.statusCode, 404, hidden.body)
    const theirs = await inject('POST', `/api/contracts/${otherDealers.id}/cancelrequests`, BODY)
    assert.equal(theirs.statusCode, 201, theirs.body)
    const sequence = (n: string) => Number(n.slice(-6))
    assert.equal(sequence(json<Quote>(theirs).requestNumber!), sequence(cancelNumber) + 1)
    for (const url of [
      `/api/cancelrequests/${json<Quote>(theirs).id}`,
      `/api/cancelrequests/${json<Quote>(theirs).id}/cancelpayments`,
      `/api/v2/contracts/${otherDealers.contractNumber}/cancelpayments`,
    ]) {
      const r = await inject('GET', url, undefined, dealerUser.headers)
      assert.equal(r.statusCode, 404, `${url} ${r.body}`)
    }
    const unknown = await inject('GET', `/api/cancels/987654321`)
    assert.equal(unknown.statusCode, 404, unknown.body)
  })

  test("the tenant's requests across contracts: open ones, by status, dealer and cancel date; a dealer-side user sees its dealers' only", async () => {
    type Page = { items: Quote[]; totalCount: number; pageNumber: number; totalPages: number }
    const page = async (query: string, h = demo.headers) => {
      const res = await inject('GET', `/api/v2/cancelrequests?pageSize=1000${query}`, undefined, h)
      assert.equal(res.statusCode, 200, res.body)
      return json<Page>(res)
    }
    const all = await page('')
    // Every request of the contracts sold here, newest first, each as its own route answers it.
    const perContract: Quote[] = []
    for (const c of [...contracts, otherDealers])
      perContract.push(...json<Quote[]>(await inject('GET', `/api/contracts/${c.id}/cancelrequests`)))
    assert.ok(perContract.length >= 6)
    assert.deepEqual(
      all.items.map((r) => r.id),
      perContract.map((r) => r.id!).toSorted((a, b) => b - a),
    )
    assert.equal(all.totalCount, perContract.length)
    for (const r of all.items.slice(0, 3)) assert.deepEqual(r, json(await inject('GET', `/api/cancelrequests/${r.id}`)))
    const statusOf = new Map(all.items.map((r) => [r.id, r.status]))
    const open = await page('&open=true')
    assert.deepEqual(
      open.items.map((r) => r.id),
      all.items.filter((r) => ['REQUESTED', 'PENDING_DOCUMENTS', 'APPROVED'].includes(r.status)).map((r) => r.id),
    )
    assert.ok(open.totalCount > 0)
    const decided = await page('&open=false')
    assert.equal(decided.totalCount + open.totalCount, all.totalCount)
    const rejected = await page('&status=REJECTED')
    assert.deepEqual(
      rejected.items.map((r) => r.id),
      [...statusOf].filter(([, s]) => s === 'REJECTED').map(([id]) => id),
    )
    const mine = await page('', dealerUser.headers)
    const theirs = new Set(
      json<Quote[]>(await inject('GET', `/api/contracts/${otherDealers.id}/cancelrequests`)).map((r) => r.id),
    )
    assert.ok(theirs.size > 0)
    assert.deepEqual(
      mine.items.map((r) => r.id),
      all.items.filter((r) => !theirs.has(r.id)).map((r) => r.id),
    )
    assert.deepEqual((await page(`&dealerId=${dealerId}`)).items, mine.items)
    assert.equal((await page(`&cancelDateFrom=${CANCEL_DATE}&cancelDateTo=${CANCEL_DATE}`)).totalCount, all.totalCount)
    assert.equal((await page('&cancelDateTo=2026-10-04')).totalCount, 0)
    const paged = await inject('GET', '/api/v2/cancelrequests?pageSize=2&pageNumber=2')
    assert.deepEqual(
      json<Page>(paged).items.map((r) => r.id),
      all.items.slice(2, 4).map((r) => r.id),
    )
    const bad = await inject('GET', '/api/v2/cancelrequests?status=OPEN&cancelDateFrom=yesterday')
    assert.equal(bad.statusCode, 400, bad.body)
    assert.deepEqual((json<Problem>(bad).errors ?? []).map((e) => e.field).toSorted(), ['cancelDateFrom', 'status'])
  })
})
