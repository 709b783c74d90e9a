// Ledger views over HTTP (docs/ledgers.md), on PGlite and PostgreSQL: two finalized sales on two
// accounting days; lines with an opening balance, pay/receive nets, open items aged as of a date,
// the summary with its receivable aging; dealer-side visibility; bad query params are a 400 naming them.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { systemContext } from '../src/platform/http/context.ts'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import * as viewsRepo from '../src/modules/finance/ledger-views.repository.ts'

type Page<T> = { items: T[]; totalCount: number; pageNumber: number; pageSize: number; totalPages: number }
type Line = {
  entryId: number
  effectiveDate: string
  purpose: string
  contractId: number | null
  contractNumber: string | null
  debit: number
  credit: number
}
type Unpaid = {
  dealerId: number
  contractId: number
  contractNumber: string
  firstPostedDate: string
  openAmount: number
  ageDays: number
  agingBucket: string
}
type Summary = {
  asOf: string
  balances: Array<{ accountHolderId: number; purpose: string; balance: number }>
  totals: Array<{ purpose: string; debit: number; credit: number; balance: number }>
  receivableAging: Array<{ bucket: string; amount: number }>
}

let t: TestApp
let demo: DemoTestTenant
let dealerId: number
let otherHolderId: number
let first: { id: number; contractNumber: string }
let second: { id: number; contractNumber: string }
let receivable1 = 0
const DAY1 = '2026-11-20'
const DAY2 = '2026-11-21'
const cents = (n: number) => Math.round(n * 100)

async function get<T>(url: string, headers = demo.headers) {
  const res = await t.app.inject({ method: 'GET', url, headers })
  return { status: res.statusCode, body: json<T>(res), raw: res.body }
}

before(async () => {
  t = await createTestApp({ now: new Date(`${DAY1}T18:00:00Z`) })
  demo = await seedDemo(t)
  first = await sellDemoContract(t, demo, { saleDate: DAY1, finalize: true })
  const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: first.id })
  const line = entries.flatMap((e) => e.lines).find((l) => l.purpose === 'DEALER_RECEIVABLE')
  assert.ok(line, 'the sale posted a dealer receivable')
  dealerId = line.accountHolderId
  receivable1 = cents(Number(line.debit))
  otherHolderId = entries.flatMap((e) => e.lines).find((l) => l.accountHolderId !== dealerId)!.accountHolderId
  t.clock.set(new Date(`${DAY2}T18:00:00Z`))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  second = await sellDemoContract(t, demo, { saleDate: DAY2, finalize: true })
})
after(async () => t.close())

describe('ledger views', () => {
  test("GET /api/ledgers: the dealer's lines in date order, an opening balance from `from`", async () => {
    const all = await get<Page<Line> & { openingBalance: number | null }>(
      `/api/ledgers?accountHolderId=${dealerId}&purpose=DEALER_RECEIVABLE`,
    )
    assert.equal(all.status, 200, all.raw)
    assert.equal(all.body.openingBalance, null)
    assert.deepEqual(
      all.body.items.map((l) => [l.effectiveDate, l.contractId, l.contractNumber]),
      [
        [DAY1, first.id, first.contractNumber],
        [DAY2, second.id, second.contractNumber],
      ],
    )
    const later = await get<Page<Line> & { openingBalance: number | null }>(
      `/api/ledgers?accountHolderId=${dealerId}&purpose=DEALER_RECEIVABLE&from=${DAY2}`,
    )
    assert.equal(later.body.totalCount, 1)
    assert.equal(cents(later.body.openingBalance!), receivable1)
    const one = await get<Page<Line>>(`/api/ledgers?accountHolderId=${dealerId}&contractId=${first.id}&to=${DAY1}`)
    assert.ok(one.body.items.length > 0 && one.body.items.every((l) => l.contractId === first.id))
    const paged = await get<Page<Line>>(`/api/ledgers?accountHolderId=${dealerId}&pageSize=1`)
    assert.equal(paged.body.items.length, 1)
    assert.equal(paged.body.totalPages, paged.body.totalCount)
  })

  test('GET /api/ledgers/payReceiveLedgers: receivable and payables per holder, as of a date', async () => {
    type PR = { accountHolderId: number; receivable: number; net: number; disbursementPayable: number }
    const now = await get<Page<PR>>(`/api/ledgers/payReceiveLedgers?kind=DEALER`)
    assert.equal(now.status, 200, now.raw)
    const mine = now.body.items.find((i) => i.accountHolderId === dealerId)!
    assert.ok(mine.receivable > 0)
    assert.equal(cents(mine.net), cents(mine.receivable) - cents(mine.disbursementPayable))
    const onDay1 = await get<Page<PR>>(`/api/ledgers/payReceiveLedgers?accountHolderId=${dealerId}&asOf=${DAY1}`)
    assert.equal(cents(onDay1.body.items[0]!.receivable), receivable1)
    const none = await get<Page<PR>>(`/api/ledgers/payReceiveLedgers?asOf=2020-01-01`)
    assert.equal(none.body.totalCount, 0)
  })

  test('GET /api/ledgers/unpaidLedgersProducts: open items aged as of a date', async () => {
    const asOf = '2026-12-21' // 31 and 30 days after the two sales
    const r = await get<Page<Unpaid>>(`/api/ledgers/unpaidLedgersProducts?dealerId=${dealerId}&asOf=${asOf}`)
    assert.equal(r.status, 200, r.raw)
    assert.deepEqual(
      r.body.items.map((i) => [i.contractId, i.firstPostedDate, i.ageDays, i.agingBucket]),
      [
        [first.id, DAY1, 31, '31-60'],
        [second.id, DAY2, 30, '0-30'],
      ],
    )
    assert.equal(cents(r.body.items[0]!.openAmount), receivable1)
    const old = await get<Page<Unpaid>>(`/api/ledgers/unpaidLedgersProducts?asOf=${asOf}&minAge=31`)
    assert.deepEqual(
      old.body.items.map((i) => i.contractId),
      [first.id],
    )
    const early = await get<Page<Unpaid>>(`/api/ledgers/unpaidLedgersProducts?asOf=${DAY1}`)
    assert.deepEqual(
      early.body.items.map((i) => i.contractId),
      [first.id],
    )
  })

  test('GET /api/ledgerSummary: balances by purpose, totals balance, receivable aging', async () => {
    const r = await get<Summary>(`/api/ledgerSummary?asOf=2026-12-21`)
    assert.equal(r.status, 200, r.raw)
    // Every entry balances, so debits equal credits over all purposes.
    const debit = r.body.totals.reduce((s, x) => s + cents(x.debit), 0)
    const credit = r.body.totals.reduce((s, x) => s + cents(x.credit), 0)
    assert.equal(debit, credit)
    const rec = r.body.totals.find((x) => x.purpose === 'DEALER_RECEIVABLE')!
    const aging = Object.fromEntries(r.body.receivableAging.map((b) => [b.bucket, cents(b.amount)]))
    assert.equal(aging['31-60'], receivable1)
    assert.equal(aging['0-30']! + aging['31-60']!, cents(rec.balance))
    const today = await get<Summary>(`/api/ledgerSummary?accountHolderId=${dealerId}&purpose=DEALER_RECEIVABLE`)
    assert.equal(today.body.asOf, DAY2)
    assert.deepEqual(
      today.body.balances.map((b) => [b.accountHolderId, b.purpose]),
      [[dealerId, 'DEALER_RECEIVABLE']],
    )
  })

  test('the ledger items are the sums of their lines, and the views read the same figures from either', async () => {
    await t.db.read(demo.tenantId, async (x) => {
      const items = await x
        .selectFrom('ledger_item')
        .select([
          'account_id',
          'contract_id',
          sql<string>`debit::text`.as('debit'),
          sql<string>`credit::text`.as('credit'),
          sql<string>`first_date::text`.as('first'),
          sql<string>`last_date::text`.as('last'),
          sql<string>`line_count::text`.as('n'),
        ])
        .where('tenant_id', '=', demo.tenantId)
        .orderBy('account_id')
        .orderBy('contract_id')
        .execute()
      const fromLines = await x
        .selectFrom('journal_line as l')
        .innerJoin('journal_entry as e', (j) =>
          j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
        )
        .select([
          'l.account_id',
          sql<number>`coalesce(l.contract_id, 0)`.as('contract_id'),
          sql<string>`sum(l.debit)::text`.as('debit'),
          sql<string>`sum(l.credit)::text`.as('credit'),
          sql<string>`min(e.effective_date)::text`.as('first'),
          sql<string>`max(e.effective_date)::text`.as('last'),
          sql<string>`count(*)::text`.as('n'),
        ])
        .where('l.tenant_id', '=', demo.tenantId)
        .where('e.tenant_id', '=', demo.tenantId)
        .groupBy(['l.account_id', sql`coalesce(l.contract_id, 0)`])
        .orderBy('l.account_id')
        .orderBy(sql`coalesce(l.contract_id, 0)`)
        .execute()
      const norm = (r: { account_id: number; contract_id: number; debit: string; credit: string }) => ({
        ...r,
        account_id: Number(r.account_id),
        contract_id: Number(r.contract_id),
        debit: Number(r.debit).toFixed(2),
        credit: Number(r.credit).toFixed(2),
      })
      assert.ok(items.length > 0)
      assert.deepEqual(items.map(norm), fromLines.map(norm))

      // As of a day after every line, the items answer; the lines must give the same figures.
      const asOf = '2026-12-21'
      assert.equal(await viewsRepo.itemsCover(x, demo.tenantId, asOf), true)
      assert.equal(await viewsRepo.itemsCover(x, demo.tenantId, DAY1), false, 'a line of DAY2 is after DAY1')
      for (const visible of [null, new Set([dealerId])]) {
        const f = { asOf, visible }
        assert.deepEqual(
          await viewsRepo.balances(x, demo.tenantId, { ...f, fromItems: true }),
          await viewsRepo.balances(x, demo.tenantId, { ...f, fromItems: false }),
        )
        assert.deepEqual(
          await viewsRepo.openByFirstDate(x, demo.tenantId, { ...f, fromItems: true }),
          await viewsRepo.openByFirstDate(x, demo.tenantId, { ...f, fromItems: false }),
        )
        const window = { limit: 100, offset: 0, pageNumber: 1, pageSize: 100 }
        assert.deepEqual(
          await viewsRepo.openItems(x, demo.tenantId, { ...f, fromItems: true }, window),
          await viewsRepo.openItems(x, demo.tenantId, { ...f, fromItems: false }, window),
        )
        assert.deepEqual(
          await viewsRepo.payReceive(x, demo.tenantId, { ...f, fromItems: true }, window),
          await viewsRepo.payReceive(x, demo.tenantId, { ...f, fromItems: false }, window),
        )
      }
    })
  })

  test('dealer-side users see only their account holders', async () => {
    const views = t.modules.finance.ledgerViews
    const ctx = systemContext(demo.tenantId, 'dealer-side')
    const mine = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([dealerId]) } }
    const other = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([otherHolderId]) } }
    const window = { limit: 100, offset: 0, pageNumber: 1, pageSize: 100 }
    const pr = await views.payReceive(mine, {}, window)
    assert.deepEqual(
      pr.items.map((i) => i.accountHolderId),
      [dealerId],
    )
    assert.equal((await views.unpaid(other, {}, window)).totalCount, 0)
    assert.equal((await views.unpaid(mine, {}, window)).totalCount, 2)
    const s = await views.summary(other, {})
    assert.ok(s.balances.every((b) => b.accountHolderId === otherHolderId))
    for (const call of [
      () => views.lines(other, { accountHolderId: dealerId }, window),
      () => views.payReceive(other, { accountHolderId: dealerId }, window),
      () => views.unpaid(other, { dealerId }, window),
      () => views.summary(other, { accountHolderId: dealerId }),
    ])
      await assert.rejects(call, (e: { code?: string; statusCode?: number }) => {
        assert.equal(e.code, 'account_holder_not_found')
        return true
      })
  })

  test('an unknown account holder is 404; bad query params are 400 naming the param', async () => {
    const missing = await get<{ code: string }>(`/api/ledgers?accountHolderId=987654321`)
    assert.equal(missing.status, 404)
    assert.equal(missing.body.code, 'account_holder_not_found')
    for (const [url, param] of [
      ['/api/ledgers', 'accountHolderId'],
      [`/api/ledgers?accountHolderId=${dealerId}&purpose=NOPE`, 'purpose'],
      [`/api/ledgers?accountHolderId=${dealerId}&from=2026-02-30`, 'from'],
      [`/api/ledgers/payReceiveLedgers?kind=ALIEN`, 'kind'],
      [`/api/ledgers/unpaidLedgersProducts?minAge=-1`, 'minAge'],
      [`/api/ledgerSummary?asOf=yesterday`, 'asOf'],
      [`/api/ledgerSummary?bogus=1`, 'bogus'],
    ] as const) {
      const r = await get<{ errors?: Array<{ field: string }>; detail?: string }>(url)
      assert.equal(r.status, 400, `${url}: ${r.raw}`)
      assert.ok(r.raw.includes(param), `${url} names ${param}: ${r.raw}`)
    }
  })
})
