// Transfers of a contract to a new owner (issue 16; docs/contracts.md "Transfers"), on PGlite and
// PostgreSQL: request then approval, the holder changed, the product's fee posted (TRANSFER_FEE,
// balanced), contract.transferred emitted, the free-look not passed on; refusals naming the rule.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'

type Transfer = {
  id: number
  contractId: number
  status: string
  transferDate: string
  newCustomerId: number | null
  previousCustomerId: number
  fee: number
  journalEntryId: number | null
  version: number
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

const SALE = '2026-11-02'
const TODAY = '2026-11-20'
let t: TestApp
let demo: DemoTestTenant
let active: { id: number; contractNumber: string }
let pending: { id: number }

async function send(method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown, headers = {}) {
  return t.app.inject({
    method,
    url,
    headers: { ...demo.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

const request = (over: Record<string, unknown> = {}) => ({
  newOwner: {
    firstName: 'Jordan',
    lastName: 'Reyes',
    emailAddress: 'jordan.reyes@example.com',
    address: { line1: '88 Elm St', city: 'Austin', state: 'TX', postalCode: '78701' },
  },
  transferDate: '2026-11-15',
  odometer: 43010,
  ...over,
})

before(async () => {
  t = await createTestApp({ now: new Date(`${SALE}T18:00:00Z`) })
  demo = await seedDemo(t)
  active = await sellDemoContract(t, demo, { saleDate: SALE, finalize: true })
  pending = await sellDemoContract(t, demo, { saleDate: '2026-11-01' })
  await moveTo(`${TODAY}T18:00:00Z`)
})

/** Moves the clock; the access token of the old day has expired, so the admin logs in again. */
async function moveTo(at: string) {
  t.clock.set(new Date(at))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
}
after(async () => t.close())

describe('contract transfers', () => {
  test('refusals name the rule; nothing written', async () => {
    const cases: Array<[number, Record<string, unknown>, number, string, string?]> = [
      [pending.id, {}, 409, 'contract_state_conflict'],
      [active.id, { transferDate: '2026-11-21' }, 422, 'transfer_invalid', 'transferDate'],
      [active.id, { transferDate: '2026-11-01' }, 422, 'transfer_invalid', 'transferDate'],
      [active.id, { newOwnerDealerId: 987654321 }, 422, 'transfer_invalid', 'newOwnerDealerId'],
      [987654321, {}, 404, 'contract_not_found'],
    ]
    for (const [id, over, status, code, field] of cases) {
      const res = await send('POST', `/api/contracts/${id}/transferrequest`, request(over))
      assert.equal(res.statusCode, status, `${id} ${JSON.stringify(over)}: ${res.body}`)
      const p = json<Problem>(res)
      assert.equal(p.code, code, res.body)
      if (field)
        assert.ok(
          p.errors?.some((e) => e.field === field),
          res.body,
        )
    }
    const bad = await send('POST', `/api/contracts/${active.id}/transferrequest`, request({ transferDate: 'soon' }))
    assert.equal(bad.statusCode, 400, bad.body)
    const list = await send('GET', `/api/contracts/${active.id}/transferrequests`)
    assert.equal(list.statusCode, 200, list.body)
    assert.equal(json<{ totalCount: number }>(list).totalCount, 0, list.body)
  })

  test('the window: more than the product’s 30 days after the sale to the new owner is refused', async () => {
    await moveTo('2026-12-20T18:00:00Z')
    try {
      const res = await send('POST', `/api/contracts/${active.id}/transferrequest`, request())
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(json<Problem>(res).code, 'transfer_window_closed')
    } finally {
      await moveTo(`${TODAY}T18:00:00Z`)
    }
  })

  test('request, then approval: new holder, fee posted and balanced, event, free-look not passed on', async () => {
    const original = json<{ customer: { customerId: number } }>(await send('GET', `/api/contracts/${active.id}`))
    const quoteBefore = await send('POST', `/api/contracts/${active.id}/cancelrequests?quoteOnly=true`, {
      cancelDate: TODAY,
      cancelOdometer: 43500,
      cancelReasonCode: 'CUSTOMER_REQUEST',
    })
    assert.equal(quoteBefore.statusCode, 200, quoteBefore.body)
    assert.equal(json<{ withinFreeLook: boolean }>(quoteBefore).withinFreeLook, true, 'inside the free-look before')

    const created = await send('POST', `/api/contracts/${active.id}/transferrequest`, request())
    assert.equal(created.statusCode, 201, created.body)
    const req = json<Transfer>(created)
    assert.deepEqual([req.status, req.fee, req.newCustomerId], ['REQUESTED', 50, null])
    assert.equal(created.headers.location, `/api/contracts/${active.id}/transferrequests/${req.id}`)
    const again = await send('POST', `/api/contracts/${active.id}/transferrequest`, request())
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(json<Problem>(again).code, 'transfer_pending')

    const approved = await send(
      'PATCH',
      `/api/contracts/${active.id}/transferrequests/${req.id}`,
      { status: 'APPROVED', decisionNote: 'Title copy received' },
      { 'if-match': `"${req.version}"` },
    )
    assert.equal(approved.statusCode, 200, approved.body)
    const done = json<Transfer>(approved)
    assert.equal(done.status, 'APPROVED')
    assert.ok(done.newCustomerId && done.newCustomerId !== original.customer.customerId)
    assert.ok(done.journalEntryId)

    const now = json<{ customer: { customerId: number; firstName: string } }>(
      await send('GET', `/api/contracts/${active.id}`),
    )
    assert.deepEqual([now.customer.customerId, now.customer.firstName], [done.newCustomerId, 'Jordan'])

    const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'TRANSFER', id: req.id })
    assert.equal(entries.length, 1)
    const lines = entries[0]!.lines
    assert.equal(entries[0]!.kind, 'TRANSFER_FEE')
    const debit = lines.reduce((s, l) => s + Math.round(Number(l.debit) * 100), 0)
    const credit = lines.reduce((s, l) => s + Math.round(Number(l.credit) * 100), 0)
    assert.deepEqual([debit, credit], [5000, 5000])
    assert.deepEqual(lines.map((l) => l.purpose).toSorted(), ['ADMINISTRATOR_REVENUE', 'DEALER_RECEIVABLE'])

    const events = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('event_outbox')
        .select(['type', 'payload'])
        .where('tenant_id', '=', demo.tenantId)
        .where('type', '=', 'contract.transferred')
        .execute(),
    )
    assert.equal(events.length, 1)
    assert.equal((events[0]!.payload as { transferRequestId: number }).transferRequestId, req.id)

    const decidedTwice = await send('PATCH', `/api/contracts/${active.id}/transferrequests/${req.id}`, {
      status: 'REJECTED',
    })
    assert.equal(decidedTwice.statusCode, 409, decidedTwice.body)
    assert.equal(json<Problem>(decidedTwice).code, 'transfer_already_decided')

    const quoteAfter = await send('POST', `/api/contracts/${active.id}/cancelrequests?quoteOnly=true`, {
      cancelDate: TODAY,
      cancelOdometer: 43500,
      cancelReasonCode: 'CUSTOMER_REQUEST',
    })
    assert.equal(quoteAfter.statusCode, 200, quoteAfter.body)
    const q = json<{ withinFreeLook: boolean; freeLook: { lostToTransfer: boolean } }>(quoteAfter)
    assert.deepEqual([q.withinFreeLook, q.freeLook.lostToTransfer], [false, true], quoteAfter.body)

    const read = await send('GET', `/api/contracts/${active.id}/transferrequests/${req.id}`)
    assert.equal(read.statusCode, 200)
    assert.equal(read.headers.etag, `"${done.version}"`)
    const list = json<{ items: Transfer[]; totalCount: number }>(
      await send('GET', `/api/contracts/${active.id}/transferrequests`),
    )
    assert.deepEqual(
      list.items.map((i) => [i.id, i.status]),
      [[req.id, 'APPROVED']],
    )
  })

  test('a rejection only closes the request; a request of another contract is 404', async () => {
    const created = await send('POST', `/api/contracts/${active.id}/transferrequest`, request({ transferDate: TODAY }))
    assert.equal(created.statusCode, 201, created.body)
    const req = json<Transfer>(created)
    const holder = json<{ customer: { customerId: number } }>(await send('GET', `/api/contracts/${active.id}`))
    const elsewhere = await send('GET', `/api/contracts/${pending.id}/transferrequests/${req.id}`)
    assert.equal(elsewhere.statusCode, 404)
    assert.equal(json<Problem>(elsewhere).code, 'transfer_not_found')
    const rejected = await send('PATCH', `/api/contracts/${active.id}/transferrequests/${req.id}`, {
      status: 'REJECTED',
      decisionNote: 'No bill of sale',
    })
    assert.equal(rejected.statusCode, 200, rejected.body)
    assert.deepEqual([json<Transfer>(rejected).status, json<Transfer>(rejected).journalEntryId], ['REJECTED', null])
    const still = json<{ customer: { customerId: number } }>(await send('GET', `/api/contracts/${active.id}`))
    assert.equal(still.customer.customerId, holder.customer.customerId)
  })
})
