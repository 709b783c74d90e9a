// The ledger totals (migration 0045, docs/ledgers.md "How the views are read"), on PGlite and
// PostgreSQL: per account, the folded total plus the unfolded deltas always equal the sums of the
// account's items and lines; per receivable account and first posted date, the open totals equal the
// open items. Checked after random raw postings (items opened, paid, overpaid and reopened, first
// dates moved earlier by backdated lines, several lines of one item in one statement, folds), after
// concurrent postings (PostgreSQL), and a posting does not wait on another's fold (PostgreSQL).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { createTestApp, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import * as viewsRepo from '../src/modules/finance/ledger-views.repository.ts'

type Tx = Parameters<Parameters<TestApp['db']['transaction']>[1]>[0]
type X = Parameters<Parameters<TestApp['db']['read']>[1]>[0]

const onPostgres = Boolean(process.env.DATABASE_URL)
let t: TestApp
let demo: DemoTestTenant
let receivable: number
let dealerId: number
let counter: number

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}

const money = (cents: number) => (cents / 100).toFixed(2)

type Line = { account: number; contract: number | null; debitCents: number; creditCents: number }

/** One raw entry, its lines inserted by one statement (the balance check of 0025 runs per statement). */
async function post(tx: Tx | X, date: string, lines: Line[]): Promise<void> {
  const r = await sql<{ id: number }>`insert into journal_entry
      (tenant_id, kind, source_type, source_id, effective_date, posted_at, posted_by)
      values (${demo.tenantId}, 'CONTRACT_FINALIZED', 'CONTRACT', 900, ${date}, now(), 'ledger-totals test')
      returning id`.execute(tx)
  const entryId = Number(r.rows[0]!.id)
  const values = lines.map(
    (l, i) =>
      sql`(${demo.tenantId}, ${entryId}, ${i + 1}, ${l.account}, ${money(l.debitCents)}, ${money(l.creditCents)}, ${l.contract})`,
  )
  await sql`insert into journal_line (tenant_id, entry_id, line_no, account_id, debit, credit, contract_id)
      values ${sql.join(values)}`.execute(tx)
}

/** A random balanced entry on the dealer's receivable: charges, payments (some over the open amount), several lines per item. */
function randomEntry(next: () => number, contracts: readonly number[]): { date: string; lines: Line[] } {
  const day = 1 + Math.floor(next() * 28)
  const date = `2026-10-${String(day).padStart(2, '0')}`
  const lines: Line[] = []
  const n = 1 + Math.floor(next() * 4)
  for (let i = 0; i < n; i++) {
    const contract = contracts[Math.floor(next() * contracts.length)]!
    const cents = 1 + Math.floor(next() * 50_000)
    const charge = next() < 0.6
    lines.push({ account: receivable, contract, debitCents: charge ? cents : 0, creditCents: charge ? 0 : cents })
    lines.push({ account: counter, contract, debitCents: charge ? 0 : cents, creditCents: charge ? cents : 0 })
  }
  return { date, lines }
}

/** Totals vs items vs lines, per account; open totals vs open items, per receivable account and first date. */
async function assertTotalsEqualItems(x: Kysely<any>): Promise<void> {
  const tenant = demo.tenantId
  const totals = await sql<{ account_id: string; d: string; c: string }>`
    select account_id::text, sum(debit)::numeric(20, 2)::text as d, sum(credit)::numeric(20, 2)::text as c
      from (select account_id, debit, credit from ledger_total where tenant_id = ${tenant}
            union all
            select account_id, debit, credit from ledger_total_delta where tenant_id = ${tenant}) u
     group by account_id
    having sum(debit) <> 0 or sum(credit) <> 0
     order by account_id`.execute(x)
  const items = await sql<{ account_id: string; d: string; c: string }>`
    select account_id::text, sum(debit)::numeric(20, 2)::text as d, sum(credit)::numeric(20, 2)::text as c
      from ledger_item where tenant_id = ${tenant}
     group by account_id
    having sum(debit) <> 0 or sum(credit) <> 0
     order by account_id`.execute(x)
  const lines = await sql<{ account_id: string; d: string; c: string }>`
    select account_id::text, sum(debit)::numeric(20, 2)::text as d, sum(credit)::numeric(20, 2)::text as c
      from journal_line where tenant_id = ${tenant}
     group by account_id
    having sum(debit) <> 0 or sum(credit) <> 0
     order by account_id`.execute(x)
  assert.ok(items.rows.length > 0)
  assert.deepEqual(totals.rows, items.rows, 'account totals = items')
  assert.deepEqual(totals.rows, lines.rows, 'account totals = lines')

  const open = await sql<{ account_id: string; first_date: string; amount: string; n: string }>`
    select account_id::text, first_date::text, sum(open_amount)::numeric(20, 2)::text as amount, sum(open_count)::text as n
      from (select account_id, first_date, open_amount, open_count from ledger_open_total where tenant_id = ${tenant}
            union all
            select account_id, first_date, open_amount, open_count from ledger_open_delta where tenant_id = ${tenant}) u
     group by account_id, first_date
    having sum(open_amount) <> 0 or sum(open_count) <> 0
     order by account_id, first_date`.execute(x)
  const openItems = await sql<{ account_id: string; first_date: string; amount: string; n: string }>`
    select i.account_id::text, i.first_date::text, sum(i.debit - i.credit)::numeric(20, 2)::text as amount,
           count(*)::text as n
      from ledger_item i
      join ledger_account a on a.tenant_id = i.tenant_id and a.id = i.account_id
     where i.tenant_id = ${tenant} and a.tenant_id = ${tenant} and a.purpose = 'DEALER_RECEIVABLE'
       and i.contract_id <> 0 and i.debit > i.credit
     group by i.account_id, i.first_date
     order by i.account_id, i.first_date`.execute(x)
  assert.ok(openItems.rows.length > 0)
  assert.deepEqual(open.rows, openItems.rows, 'open totals = open items')
}

/** The views read the same figures from the totals (fromItems) as from the lines. */
async function assertViewsAgree(x: X): Promise<void> {
  const asOf = '2027-06-30'
  assert.equal(await viewsRepo.itemsCover(x, demo.tenantId, asOf), true)
  const window = { limit: 100, offset: 0, pageNumber: 1, pageSize: 100 }
  for (const visible of [null, new Set([dealerId])]) {
    for (const f of [
      { asOf, visible },
      { asOf, visible, dealerId: dealerId },
      { asOf, visible, dealerId: dealerId, postedOnOrBefore: '2026-10-15' },
    ]) {
      assert.deepEqual(
        await viewsRepo.balances(x, demo.tenantId, { ...f, accountHolderId: f.dealerId, fromItems: true }),
        await viewsRepo.balances(x, demo.tenantId, { ...f, accountHolderId: f.dealerId, fromItems: false }),
      )
      assert.deepEqual(
        await viewsRepo.openByFirstDate(x, demo.tenantId, { ...f, fromItems: true }),
        await viewsRepo.openByFirstDate(x, demo.tenantId, { ...f, fromItems: false }),
      )
      const fromTotals = await viewsRepo.openItems(x, demo.tenantId, { ...f, fromItems: true }, window)
      const fromLines = await viewsRepo.openItems(x, demo.tenantId, { ...f, fromItems: false }, window)
      assert.equal(fromTotals.totalCount, fromLines.totalCount)
      assert.deepEqual(fromTotals, fromLines)
    }
  }
}

before(async () => {
  t = await createTestApp({ now: new Date('2026-11-20T18:00:00Z') })
  demo = await seedDemo(t)
  await sellDemoContract(t, demo, { saleDate: '2026-11-20', finalize: true })
  const accounts = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('ledger_account')
      .select(['id', 'purpose', 'account_holder_id'])
      .where('tenant_id', '=', demo.tenantId)
      .orderBy('id')
      .execute(),
  )
  const rec = accounts.find((a) => a.purpose === 'DEALER_RECEIVABLE')!
  receivable = Number(rec.id)
  dealerId = Number(rec.account_holder_id)
  counter = Number(accounts.find((a) => a.purpose !== 'DEALER_RECEIVABLE')!.id)
})
after(() => t.close())

describe('ledger totals', () => {
  test('after random postings (with folds), the totals equal the items and the lines, and the views agree', async () => {
    const next = random(15)
    // Contract ids of the raw lines (no such contracts: the items and totals do not need them).
    const contracts = [910001, 910002, 910003, 910004, 910005, 910006]
    for (let i = 0; i < 90; i++) {
      const e = randomEntry(next, contracts)
      // Two entries in one transaction now and then: the second sees the first's deltas.
      await t.db.transaction(demo.tenantId, async (tx) => {
        await post(tx, e.date, e.lines)
        if (i % 7 === 0) {
          const e2 = randomEntry(next, contracts)
          await post(tx, e2.date, e2.lines)
        }
      })
      if (i % 30 === 29) await t.db.read(demo.tenantId, (x) => assertTotalsEqualItems(x))
    }
    // A rolled-back posting leaves nothing behind.
    await assert.rejects(
      t.db.transaction(demo.tenantId, async (tx) => {
        await post(tx, '2026-10-02', randomEntry(next, contracts).lines)
        throw new Error('roll back')
      }),
      /roll back/,
    )
    await t.db.read(demo.tenantId, async (x) => {
      await assertTotalsEqualItems(x)
      await assertViewsAgree(x)
      // 90 postings of the receivable: its deltas were folded (at most FOLD_AT left unfolded here).
      const left = await sql<{ n: string }>`select count(*)::text as n from ledger_total_delta
        where tenant_id = ${demo.tenantId} and account_id = ${receivable}`.execute(x)
      assert.ok(Number(left.rows[0]!.n) < 16, `unfolded deltas: ${left.rows[0]!.n}`)
      const folded = await sql<{ n: string }>`select count(*)::text as n from ledger_open_total
        where tenant_id = ${demo.tenantId} and account_id = ${receivable}`.execute(x)
      assert.ok(Number(folded.rows[0]!.n) > 0)
    })
  })

  test('concurrent postings of one account: the totals still equal the items', { skip: !onPostgres }, async () => {
    const contracts = [920001, 920002, 920003, 920004]
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        const next = random(100 + worker)
        for (let i = 0; i < 12; i++) {
          const e = randomEntry(next, contracts)
          await t.db.transaction(demo.tenantId, (tx) => post(tx, e.date, e.lines))
        }
      }),
    )
    await t.db.read(demo.tenantId, async (x) => {
      await assertTotalsEqualItems(x)
      await assertViewsAgree(x)
    })
  })

  test('a posting does not wait on a fold in progress of the same account', { skip: !onPostgres }, async () => {
    let released!: () => void
    const release = new Promise<void>((resolve) => (released = resolve))
    let folding!: () => void
    const folded = new Promise<void>((resolve) => (folding = resolve))
    // A: posts until its statement folds the receivable (no unfolded delta left in its view), then
    // holds the fold's lock until B has committed.
    const a = t.db.transaction(demo.tenantId, async (tx) => {
      for (let i = 0; i < 40; i++) {
        await post(tx, '2026-10-10', [
          { account: receivable, contract: 930001, debitCents: 100 + i, creditCents: 0 },
          { account: counter, contract: 930001, debitCents: 0, creditCents: 100 + i },
        ])
        const left = await sql<{ n: string }>`select count(*)::text as n from ledger_total_delta
          where tenant_id = ${demo.tenantId} and account_id = ${receivable}`.execute(tx)
        if (Number(left.rows[0]!.n) === 0) break
      }
      folding()
      await release
    })
    await folded
    // B: other items of the same accounts; a wait on A's locks would fail it after the lock timeout.
    try {
      await t.db.transaction(demo.tenantId, async (tx) => {
        await sql`set local lock_timeout = '10s'`.execute(tx)
        await post(tx, '2026-10-11', [
          { account: receivable, contract: 930002, debitCents: 777, creditCents: 0 },
          { account: counter, contract: 930002, debitCents: 0, creditCents: 777 },
        ])
      })
    } finally {
      released()
      await a
    }
    await t.db.read(demo.tenantId, (x) => assertTotalsEqualItems(x))
  })
})
