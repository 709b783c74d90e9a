// Cash over HTTP (docs/cash.md), on PGlite and PostgreSQL: receipts post and apply oldest first or as
// chosen; in-process receipts process once; more applications append; a returned payment reverses its
// entries and the items reopen; bad input is a 4xx naming the field with nothing written; dealer-side
// users see only their account holders' cash.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { systemContext } from '../src/platform/http/context.ts'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'

type Cash = {
  id: number
  payerId: number
  amount: number
  appliedAmount: number
  unappliedAmount: number
  status: string
  applications: Array<{ contractId: number; contractNumber?: string; amount: number; reversed: boolean }>
  entryIds: number[]
  version: number
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

let t: TestApp
let demo: DemoTestTenant
let dealerId: number
let otherHolderId: number
let first: { id: number; contractNumber: string }
let second: { id: number; contractNumber: string }
const DAY1 = '2026-11-20'
const DAY2 = '2026-11-21'
const cash = () => t.modules.finance.cash
const cents = (n: number) => Math.round(n * 100)

async function openOf(): Promise<Map<number, number>> {
  const items = await cash().openItems(systemContext(demo.tenantId), dealerId)
  return new Map(items.map((i) => [i.contractId, i.openCents]))
}

async function counts() {
  return t.db.read(demo.tenantId, async (x) => ({
    cash: Number(
      (
        await x
          .selectFrom('cash_transaction')
          .select((e) => e.fn.countAll().as('n'))
          .where('tenant_id', '=', demo.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
    entries: Number(
      (
        await x
          .selectFrom('journal_entry')
          .select((e) => e.fn.countAll().as('n'))
          .where('tenant_id', '=', demo.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  }))
}

const receipt = (over: Record<string, unknown> = {}) => ({
  payerId: dealerId,
  paymentMethod: 'CHECK',
  amount: 10,
  reference: '100234',
  receivedDate: DAY2,
  ...over,
})

async function send(method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: demo.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

before(async () => {
  t = await createTestApp({ now: new Date(`${DAY1}T18:00:00Z`) })
  demo = await seedDemo(t)
  first = await sellDemoContract(t, demo, { saleDate: DAY1, finalize: true })
  const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: first.id })
  const line = entries.flatMap((e) => e.lines).find((l) => l.purpose === 'DEALER_RECEIVABLE')
  assert.ok(line, 'the sale posted a dealer receivable')
  dealerId = line.accountHolderId
  otherHolderId = entries.flatMap((e) => e.lines).find((l) => l.accountHolderId !== dealerId)!.accountHolderId
  t.clock.set(new Date(`${DAY2}T18:00:00Z`))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  second = await sellDemoContract(t, demo, { saleDate: DAY2, finalize: true })
})
after(async () => t.close())

describe('receiving and applying cash', () => {
  test('the open items are the two sales, oldest first', async () => {
    const items = await cash().openItems(systemContext(demo.tenantId), dealerId)
    assert.deepEqual(
      items.map((i) => i.contractId),
      [first.id, second.id],
    )
    assert.ok(items.every((i) => i.openCents > 0))
  })

  test('bad input is a 422 naming the field, nothing written', async () => {
    const open = await openOf()
    const was = await counts()
    const cases: Array<[Record<string, unknown>, string, number?]> = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: 1.001 }, 'amount'],
      [{ payerId: 987654321 }, 'payerId'],
      [{ receivedDate: '2026-02-30' }, 'receivedDate'],
      [{ applications: [{ contractId: 987654321, amount: 1 }] }, 'applications[0].contractId'],
      [{ payerId: otherHolderId, applications: [{ contractId: first.id, amount: 1 }] }, 'applications[0].contractId'],
      [
        { amount: 999999, applications: [{ contractId: first.id, amount: open.get(first.id)! / 100 + 0.01 }] },
        'applications[0].amount',
      ],
      [{ amount: 1, applications: [{ contractId: first.id, amount: 2 }] }, 'applications'],
      [{ applications: [{ contractId: first.id, amount: 0 }] }, 'applications[0].amount'],
    ]
    for (const [over, field] of cases) {
      for (const url of ['/api/cashtransactions', '/api/inprocesscashtransactions']) {
        const res = await send('POST', url, receipt(over))
        assert.equal(res.statusCode, 422, `${url} ${JSON.stringify(over)}: ${res.body}`)
        const p = json<Problem>(res)
        assert.equal(p.code, 'cash_invalid')
        assert.ok(
          p.errors?.some((e) => e.field === field),
          `${JSON.stringify(over)} names ${field}: ${res.body}`,
        )
      }
    }
    assert.deepEqual(await counts(), was)
    assert.deepEqual(await openOf(), open)
  })

  let received: Cash
  test('a receipt posts CASH_RECEIVED and applies oldest first; the rest stays unapplied', async () => {
    const open = await openOf()
    const amount = (open.get(first.id)! + 100) / 100
    const res = await send('POST', '/api/cashtransactions', receipt({ amount }))
    assert.equal(res.statusCode, 201, res.body)
    received = json<Cash>(res)
    assert.equal(res.headers.location, `/api/cashtransactions/${received.id}`)
    assert.equal(received.status, 'POSTED')
    assert.equal(cents(received.amount), open.get(first.id)! + 100)
    assert.equal(cents(received.appliedAmount), open.get(first.id)! + 100)
    assert.equal(received.unappliedAmount, 0)
    assert.deepEqual(
      received.applications.map((a) => [a.contractId, cents(a.amount), a.contractNumber]),
      [
        [first.id, open.get(first.id)!, first.contractNumber],
        [second.id, 100, second.contractNumber],
      ],
    )
    assert.equal(received.entryIds.length, 2)
    const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CASH', id: received.id })
    assert.deepEqual(entries.map((e) => e.kind).toSorted(), ['CASH_APPLIED', 'CASH_RECEIVED'])
    const applied = entries.find((e) => e.kind === 'CASH_APPLIED')!
    assert.deepEqual(
      applied.lines.filter((l) => l.purpose === 'DEALER_RECEIVABLE').map((l) => l.contractId),
      [first.id, second.id],
    )
    const now = await openOf()
    assert.equal(now.has(first.id), false, 'the first item is closed')
    assert.equal(now.get(second.id), open.get(second.id)! - 100)
    const got = await send('GET', `/api/cashtransactions/${received.id}`)
    assert.equal(got.statusCode, 200)
    assert.equal(got.headers.etag, `"${received.version}"`)
  })

  test('in-process: recorded, listed, processed once (201), not deleted once processed', async () => {
    const res = await send('POST', '/api/inprocesscashtransactions', receipt({ amount: 5, paymentMethod: 'ACH' }))
    assert.equal(res.statusCode, 201, res.body)
    const row = json<{ id: number; status: string }>(res)
    assert.equal(row.status, 'PENDING')
    const list = await send('GET', `/api/inprocesscashtransactions?payerId=${dealerId}&status=PENDING`)
    assert.equal(list.statusCode, 200, list.body)
    assert.ok(json<{ items: Array<{ id: number }> }>(list).items.some((i) => i.id === row.id))
    const openBefore = await openOf()
    const done = await send('POST', `/api/inprocesscashtransactions/${row.id}/processrequests`, {})
    assert.equal(done.statusCode, 201, done.body)
    const c = json<Cash>(done)
    assert.equal(cents(c.appliedAmount), 500)
    assert.equal((await openOf()).get(second.id), openBefore.get(second.id)! - 500)
    const again = await send('POST', `/api/inprocesscashtransactions/${row.id}/processrequests`, {})
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(json<Problem>(again).code, 'cash_already_processed')
    const del = await send('DELETE', `/api/inprocesscashtransactions/${row.id}`)
    assert.equal(del.statusCode, 409, del.body)
    const read = json<{ status: string; cashTransactionId: number }>(
      await send('GET', `/api/inprocesscashtransactions/${row.id}`),
    )
    assert.deepEqual([read.status, read.cashTransactionId], ['PROCESSED', c.id])
    const pending = json<{ id: number }>(await send('POST', '/api/inprocesscashtransactions', receipt()))
    assert.equal((await send('DELETE', `/api/inprocesscashtransactions/${pending.id}`)).statusCode, 204)
    assert.equal((await send('GET', `/api/inprocesscashtransactions/${pending.id}`)).statusCode, 404)
  })

  let partial: Cash
  test('PATCH applies more of the unapplied balance (append-only); never more than it', async () => {
    // Chosen: nothing now, a cent later.
    const res = await send('POST', '/api/cashtransactions', receipt({ amount: 3, applications: [] }))
    assert.equal(res.statusCode, 201, res.body)
    partial = json<Cash>(res)
    assert.equal(partial.unappliedAmount, 3)
    const over = await send('PATCH', `/api/cashtransactions/${partial.id}`, {
      applications: [{ contractId: second.id, amount: 3.01 }],
    })
    assert.equal(over.statusCode, 422, over.body)
    assert.ok(json<Problem>(over).errors?.some((e) => e.field === 'applications'))
    const stale = await t.app.inject({
      method: 'PATCH',
      url: `/api/cashtransactions/${partial.id}`,
      headers: { ...demo.headers, 'if-match': '"99"' },
      payload: { memo: 'x' },
    })
    assert.equal(stale.statusCode, 412, stale.body)
    const ok = await send('PATCH', `/api/cashtransactions/${partial.id}`, {
      memo: 'part one',
      applications: [{ contractId: second.id, amount: 1 }],
    })
    assert.equal(ok.statusCode, 200, ok.body)
    partial = json<Cash>(ok)
    assert.deepEqual([partial.appliedAmount, partial.unappliedAmount], [1, 2])
    const ok2 = await send('PATCH', `/api/cashtransactions/${partial.id}`, {
      applications: [{ contractId: second.id, amount: 2 }],
    })
    assert.equal(ok2.statusCode, 200, ok2.body)
    partial = json<Cash>(ok2)
    assert.deepEqual([partial.appliedAmount, partial.unappliedAmount, partial.applications.length], [3, 0, 2])
  })

  test('a returned payment (NSF) reverses its entries and reopens its items; twice is 409', async () => {
    const openBefore = await openOf()
    const res = await send('PATCH', `/api/cashtransactions/${received.id}`, { status: 'RETURNED', returnReason: 'NSF' })
    assert.equal(res.statusCode, 200, res.body)
    const r = json<Cash>(res)
    assert.equal(r.status, 'RETURNED')
    assert.deepEqual([r.appliedAmount, r.unappliedAmount], [0, 0])
    assert.ok(r.applications.every((a) => a.reversed))
    const reopened = await openOf()
    assert.equal(reopened.get(first.id), r.applications.map((a) => cents(a.amount))[0])
    assert.equal(reopened.get(second.id), openBefore.get(second.id)! + 100)
    const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CASH', id: received.id })
    assert.equal(entries.filter((e) => e.kind === 'REVERSAL').length, 2)
    const again = await send('PATCH', `/api/cashtransactions/${received.id}`, {
      status: 'RETURNED',
      returnReason: 'NSF',
    })
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(json<Problem>(again).code, 'cash_already_returned')
    const list = await send('GET', `/api/cashtransactions?payerId=${dealerId}&status=RETURNED`)
    assert.equal(list.statusCode, 200)
    assert.deepEqual(
      json<Cash[]>(list).map((c) => c.id),
      [received.id],
    )
    assert.equal(list.headers['x-total-count'], '1')
    const paged = await send('GET', `/api/v2/cashtransactions?pageSize=2`)
    assert.equal(paged.statusCode, 200)
    assert.ok(json<{ totalCount: number }>(paged).totalCount >= 3)
  })

  test('a closed period is 409 ledger_period_closed, nothing written', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/GeneralSettings/booksClosedThrough',
      headers: demo.headers,
      payload: { value: DAY2 },
    })
    assert.equal(put.statusCode, 200, put.body)
    const was = await counts()
    const res = await send('POST', '/api/cashtransactions', receipt())
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(json<Problem>(res).code, 'ledger_period_closed')
    assert.deepEqual(await counts(), was)
    t.clock.set(new Date('2026-11-22T18:00:00Z'))
    demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  })

  test("dealer-side users see only their account holders' cash", async () => {
    const ctx = systemContext(demo.tenantId, 'dealer-side')
    const other = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([otherHolderId]) } }
    const mine = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([dealerId]) } }
    await assert.rejects(cash().get(other, received.id), { code: 'cash_transaction_not_found' })
    assert.equal((await cash().get(mine, received.id)).id, received.id)
    assert.equal((await cash().list(other, {}, { limit: 100, offset: 0 })).totalCount, 0)
    assert.ok((await cash().list(mine, {}, { limit: 100, offset: 0 })).totalCount >= 3)
    await assert.rejects(
      cash().receive(other, receipt() as never),
      (e: { code: string; errors?: Array<{ field: string }> }) =>
        e.code === 'cash_invalid' && e.errors!.some((x) => x.field === 'payerId'),
    )
  })
})
