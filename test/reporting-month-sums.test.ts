// The month-end sums (migration 0048, docs/reporting.md "Month-end sums") over the demo book (a year
// of business): with the books closed, statements and loss ratios read the days that are month ends
// from the sums, and answer exactly what reckoning every contract again answered; the database drops
// a month end's sums when a movement dated on or before it, or a change to a contract that moved by
// it, lands; a month end another builder holds is reckoned live, and a dead builder's claim is taken
// over.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { seedDemoBook } from '../src/demo-book.ts'
import { seedDemoTenant } from '../src/demo.ts'
import { systemContext } from '../src/platform/http/context.ts'
import type { Executor } from '../src/platform/db/database.ts'
import { createTestApp, TEST_CONFIG, TEST_SECRETS, type TestApp } from './harness.ts'
import {
  lossRatioPage,
  monthDaySums,
  monthDigest,
  statementDigest,
} from '../src/modules/reporting/statement.repository.ts'

let t: TestApp
let tenant: number
let companies: number[]
const ctx = () => systemContext(tenant, 'month-sums-test')

before(async () => {
  t = await createTestApp({ now: new Date('2026-11-27T18:00:00Z') })
  const demo = await seedDemoTenant(t.modules, t.db)
  await seedDemoBook({ config: TEST_CONFIG, db: t.db, bus: t.bus, secrets: TEST_SECRETS }, demo, '2026-11-27')
  tenant = demo.tenantId
  companies = (
    await t.db.read(tenant, (x) =>
      x
        .selectFrom('account_holder')
        .select('id')
        .where('tenant_id', '=', tenant)
        .where('kind', '=', 'REINSURANCE_COMPANY')
        .orderBy('id')
        .execute(),
    )
  ).map((r) => Number(r.id))
})
after(() => t.close())

const closeThrough = (value: string | null) => t.modules.settings.service.update(ctx(), 'booksClosedThrough', { value })

/** The month ends with sums, and their state. */
const monthRows = () =>
  t.db.read(tenant, async (x) =>
    (
      await sql<{ month_end: string; status: string; cells: number }>`
        select to_char(month_end, 'YYYY-MM-DD') as month_end, status, cells from reporting_month
         where tenant_id = ${tenant} order by month_end`.execute(x)
    ).rows.map((r) => ({ monthEnd: r.month_end, status: r.status, cells: Number(r.cells) })),
  )

const MONTHS = ['2026-08', '2026-09', '2026-10', '2026-11'] as const
const LOSS_RATIOS = [
  { groupBy: 'dealer,vintage', from: '2026-01-01', to: '2026-10-31' },
  { groupBy: 'product,plan,term', from: '2026-09-01', to: '2026-10-31' },
  { groupBy: 'dealerGroup,program', from: '2025-12-01', to: '2026-09-30' },
  { groupBy: 'vintage', from: '2026-10-01', to: '2026-11-20' },
  { groupBy: 'dealer,product', from: '2026-03-17', to: '2026-10-31' },
]

/** Every statement of the companies over the months, and the loss ratios, without their timestamps. */
async function reports() {
  const statements: unknown[] = []
  for (const id of companies)
    for (const month of MONTHS) {
      const { generatedAt: _, ...s } = await t.modules.reporting.statements.statement(ctx(), id, month)
      statements.push(s)
    }
  const lossRatios: unknown[] = []
  for (const q of LOSS_RATIOS) {
    const { generatedAt: _, ...r } = await t.modules.reporting.statements.lossRatios(ctx(), { ...q, pageSize: 500 })
    lossRatios.push(r)
  }
  return { statements, lossRatios }
}

describe('month-end sums', () => {
  let live: Awaited<ReturnType<typeof reports>>

  test('with the books open, every day is reckoned contract by contract and no sums are built', async () => {
    assert.ok(companies.length > 0)
    live = await reports()
    assert.deepEqual(await monthRows(), [])
    // The demo book has figures in the months compared, not zeros on both sides.
    const r = live.lossRatios[0] as { items: Array<{ contracts: number; earnedPremium: number }> }
    assert.ok(r.items.length > 0 && r.items.some((i) => i.earnedPremium > 0 && i.contracts > 0))
  })

  test('closed through October: the month ends are read from their sums, every figure as before', async () => {
    await closeThrough('2026-10-31')
    const fromSums = await reports()
    const months = await monthRows()
    for (const day of ['2025-12-31', '2026-06-30', '2026-07-31', '2026-08-31', '2026-09-30', '2026-10-31'])
      assert.ok(
        months.some((m) => m.monthEnd === day && m.status === 'READY'),
        `${day} built: ${JSON.stringify(months)}`,
      )
    assert.ok(months.find((m) => m.monthEnd === '2026-10-31')!.cells > 0)
    // The statements of the closed months are produced from the sums and frozen; November's reads
    // the sums for its starts and reckons November 27 live.
    assert.deepEqual(fromSums.statements, live.statements)
    assert.deepEqual(fromSums.lossRatios, live.lossRatios)
    // Nothing after the close, nor a day that is not a month end, has sums.
    assert.ok(months.every((m) => m.monthEnd <= '2026-10-31'))
    // The statement input digests kept with the sums are those of the book digested now.
    for (const m of months)
      for (const id of companies)
        await t.db.read(tenant, async (x) => {
          const kept = await monthDigest(x, tenant, id, m.monthEnd)
          const now = await statementDigest(x, tenant, id, m.monthEnd)
          if (kept !== undefined || m.cells > 0) assert.equal(kept, now, `${id} ${m.monthEnd}`)
        })
  })

  test('a movement dated on or before a month end drops its sums and the later ones', async () => {
    const rowsAfter = await t.db
      .transaction(tenant, async (x) => {
        const [contract] = (
          await sql<{ contract_id: string }>`select contract_id from reporting_contract
            where tenant_id = ${tenant} order by contract_id limit 1`.execute(x)
        ).rows
        await sql`insert into reporting_movement (tenant_id, contract_id, on_date, code, written, cancelled,
                    cancel_events, claims_paid, claims_incurred)
                  values (${tenant}, ${contract!.contract_id}, '2026-09-15', '', 0, 0, 0, 0, 100)`.execute(x)
        const r = await monthsIn(x)
        throw Object.assign(new Error('rollback'), { rows: r })
      })
      .catch((e: { rows?: string[] }) => {
        if (e.rows === undefined) throw e
        return e.rows
      })
    assert.ok(rowsAfter.includes('2026-08-31'))
    assert.ok(!rowsAfter.includes('2026-09-30') && !rowsAfter.includes('2026-10-31'), rowsAfter.join())
    // Rolled back: the sums are as they were.
    assert.ok((await monthRows()).some((m) => m.monthEnd === '2026-10-31'))
  })

  test('a change to a contract drops the sums from its first movement on', async () => {
    const { rows, first } = await t.db
      .transaction(tenant, async (x) => {
        const [c] = (
          await sql<{ contract_id: string; first: string }>`
            select m.contract_id, to_char(min(m.on_date), 'YYYY-MM-DD') as first from reporting_movement m
             where m.tenant_id = ${tenant} group by m.contract_id
            having min(m.on_date) > '2026-07-31' and min(m.on_date) <= '2026-08-31' limit 1`.execute(x)
        ).rows
        await sql`update reporting_contract set dealer_name = dealer_name || ' (renamed)'
                   where tenant_id = ${tenant} and contract_id = ${c!.contract_id}`.execute(x)
        throw Object.assign(new Error('rollback'), { result: { rows: await monthsIn(x), first: c!.first } })
      })
      .catch((e: { result?: { rows: string[]; first: string } }) => {
        if (e.result === undefined) throw e
        return e.result
      })
    assert.ok(first.startsWith('2026-08'))
    assert.deepEqual(
      rows.filter((d) => d >= '2026-08-31'),
      [],
    )
    assert.ok(rows.includes('2026-07-31'))
  })

  test('a month end another builder holds is reckoned live; a dead builder is taken over', async () => {
    await closeThrough('2026-11-26')
    // Someone is building September 30 anew (its sums dropped), and someone else died building
    // October 31 long ago.
    await t.db.transaction(tenant, async (x) => {
      await sql`delete from reporting_month where tenant_id = ${tenant} and month_end >= '2026-09-30'`.execute(x)
      await sql`insert into reporting_month (tenant_id, month_end, status, started_at)
                values (${tenant}, '2026-09-30', 'BUILDING', now()),
                       (${tenant}, '2026-10-31', 'BUILDING', now() - interval '1 hour')`.execute(x)
    })
    const again = await reports()
    assert.deepEqual(again.lossRatios, live.lossRatios)
    assert.deepEqual(again.statements, live.statements)
    const months = await monthRows()
    assert.equal(months.find((m) => m.monthEnd === '2026-09-30')?.status, 'BUILDING')
    assert.equal(months.find((m) => m.monthEnd === '2026-10-31')?.status, 'READY')
    // A reader told a month end is READY that its snapshot does not see READY (a replica behind
    // the primary, sums dropped since) reads no sums for it and says so, rather than zeros.
    await t.db.read(tenant, async (x) => {
      const read = await monthDaySums(x, tenant, { gross: true }, ['2026-09-30', '2026-10-31'], ['c.vintage'], [[0]])
      assert.deepEqual(read.ready, ['2026-10-31'])
      assert.ok(read.rows.length > 0 && read.rows.every((r) => Number(r.t) === 1))
      const page = await lossRatioPage(
        x,
        tenant,
        ['2026-09-30', '2026-10-31'],
        ['2026-09-30', '2026-10-31'],
        null,
        ['vintage'],
        {
          limit: 10,
          offset: 0,
        },
      )
      assert.deepEqual(page, { stale: ['2026-09-30'] })
    })
  })
})

const monthsIn = async (x: Executor) =>
  (
    await sql<{ d: string }>`select to_char(month_end, 'YYYY-MM-DD') as d from reporting_month
      where tenant_id = ${tenant} order by month_end`.execute(x)
  ).rows.map((r) => r.d)
