// The reporting book (migration 0046, docs/reporting.md "How the figures are computed"): the rows the
// triggers keep as sales, cancels, reversals and claims are posted equal the rows the migration's own
// backfill rebuilds from scratch over the demo book (a year of business); and the database's
// rounding (reporting_round) is the rules' multiplyCentsByRatio, half up, negative amounts included.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { seedDemoBook } from '../src/demo-book.ts'
import { seedDemoTenant } from '../src/demo.ts'
import { createTestApp, TEST_CONFIG, TEST_SECRETS, type TestApp } from './harness.ts'
import { multiplyCentsByRatio } from '../src/platform/money.ts'
import type { Executor } from '../src/platform/db/database.ts'
import { backfill } from '../src/platform/db/migrations/2026_11_27_0046_reporting_book.ts'

let t: TestApp
before(async () => {
  t = await createTestApp({ now: new Date('2026-11-27T18:00:00Z') })
})
after(() => t.close())

describe('reporting_round', () => {
  const cases: Array<[string, number, number, number]> = [
    ['exact', 1000, 3, 1],
    ['below half', 1001, 1, 3],
    ['half rounds up', 5, 1, 2],
    ['negative half rounds toward +infinity', -5, 1, 2],
    ['negative below half', -1001, 1, 3],
    ['negative above half', -1002, 1, 3],
    ['a share of 75 %', 123457, 7500, 10000],
    ['a negative share', -123457, 7500, 10000],
    ['money.md 1,000.05 × 30/36', 100005, 30, 36],
    ['zero', 0, 17, 19],
  ]
  for (const [name, cents, num, den] of cases)
    test(name, async () => {
      const r = await t.db.read(null, (x) =>
        sql<{ v: string }>`select reporting_round(${cents}::numeric * ${num}, ${den})::text as v`.execute(x),
      )
      assert.equal(Number(r.rows[0]!.v), multiplyCentsByRatio(cents, num, den))
    })

  test('a denominator beyond 2^64: exact', async () => {
    const den = 10n ** 30n + 7n
    const num = den / 2n
    const r = await t.db.read(null, (x) =>
      sql<{
        v: string
      }>`select reporting_round(${'123456789'}::numeric * ${num.toString()}::numeric, ${den.toString()}::numeric)::text as v`.execute(
        x,
      ),
    )
    assert.equal(BigInt(r.rows[0]!.v), (123456789n * num * 2n + den) / (2n * den))
  })
})

test('the rows the triggers kept equal the rows the migration backfills from the contracts, journal and payments', async () => {
  const demo = await seedDemoTenant(t.modules, t.db)
  await seedDemoBook({ config: TEST_CONFIG, db: t.db, bus: t.bus, secrets: TEST_SECRETS }, demo, '2026-11-27')
  const tenant = demo.tenantId
  const rows = (x: Executor) =>
    Promise.all([
      sql<
        Record<string, unknown>
      >`select * from reporting_contract where tenant_id = ${tenant} order by contract_id`.execute(x),
      sql<Record<string, unknown>>`select * from reporting_movement where tenant_id = ${tenant}
        order by contract_id, on_date, code`.execute(x),
    ]).then(([c, m]) => ({ contracts: c.rows, movements: m.rows }))
  const kept = await t.db.read(tenant, rows)
  const rebuilt = await t.db
    .transaction(tenant, async (tx) => {
      await sql`delete from reporting_movement where tenant_id = ${tenant}`.execute(tx)
      await sql`delete from reporting_contract where tenant_id = ${tenant}`.execute(tx)
      await backfill(tx, tenant)
      const r = await rows(tx)
      // Leave the kept rows as they were.
      throw Object.assign(new Error('rollback'), { rows: r })
    })
    .catch((e: { rows?: Awaited<ReturnType<typeof rows>> }) => {
      if (e.rows === undefined) throw e
      return e.rows
    })
  assert.deepEqual(rebuilt, kept)
  // The demo year has sales, cancels, reversals and claims: the comparison is not over an empty book.
  assert.ok(kept.contracts.length > 0)
  assert.ok(kept.movements.some((m) => Number(m.cancel_events) > 0))
  assert.ok(kept.movements.some((m) => Number(m.claims_paid) > 0))
  assert.ok(kept.movements.some((m) => Number(m.claims_incurred) > 0))
})
