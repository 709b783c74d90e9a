// The demo book (src/demo-book.ts, docs/reporting.md "The demo book"): the year of sales, cancels and
// claims `npm start` seeds into the demo tenant through the routes, on a clock walked through the
// year. Seeded once for a fixed day: what it makes is fixed by the generator's seed and that day; every
// month's reconciliation is empty; the reinsurance statement and the bordereaux have figures in
// every month; the statements' invariants hold at each month end.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { demoBookStart, seedDemoBook, type DemoBookSummary } from '../src/demo-book.ts'
import { seedDemoTenant, type DemoTenant } from '../src/demo.ts'
import { createTestApp, json, loginHeaders, TEST_CONFIG, TEST_SECRETS, type TestApp } from './harness.ts'

const TODAY = '2026-11-27'
/** The months of the book: from November 2025 through November 2026 (to date). */
const MONTHS = Array.from({ length: 13 }, (_, i) => {
  const d = new Date(Date.UTC(2025, 10 + i, 1))
  return d.toISOString().slice(0, 7)
})

type Cell = Record<string, number> & { lossRatio: string | null }
type Statement = { contracts: number; totals: { mtd: Cell; qtd: Cell; ytd: Cell; itd: Cell } }

let t: TestApp
let demo: DemoTenant
let summary: DemoBookSummary
let headers: Record<string, string>
let companyId: number
let insurerId: number

const get = async <T>(url: string): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url, headers })
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
  return json<T>(res)
}

before(async () => {
  t = await createTestApp({ now: new Date(`${TODAY}T18:00:00Z`) })
  demo = await seedDemoTenant(t.modules, t.db)
  summary = await seedDemoBook({ config: TEST_CONFIG, db: t.db, bus: t.bus, secrets: TEST_SECRETS }, demo, TODAY)
  headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  const companies = await get<Array<{ id: number; companyCode: string }>>('/api/reinsurancecompanies')
  companyId = companies.find((c) => c.companyCode === 'LSRE')!.id
  const insurers = await get<Array<{ id: number; insurerCode: string }>>('/api/insurers')
  insurerId = insurers.find((i) => i.insurerCode === 'INS-FCI')!.id
})
after(() => t.close())

test('the book starts on the first of the month a year before the seed day', () => {
  assert.equal(demoBookStart('2026-11-27'), '2025-11-01')
  assert.equal(demoBookStart('2027-01-01'), '2026-01-01')
  assert.equal(demoBookStart('2026-03-31'), '2025-03-01')
})

test('a year of sales, cancels and claims, the same for the same seed day', async () => {
  assert.deepEqual(summary, { from: '2025-11-01', to: '2026-11-26', sales: 89, cancels: 6, claims: 14, paid: 10 })
  const contracts = await t.app.inject({ method: 'GET', url: '/api/contracts?limit=1', headers })
  assert.equal(contracts.statusCode, 200, contracts.body)
  const treaties =
    await get<Array<{ reinsuranceCompanyId: number; shareBps: number; effectiveFrom: string }>>(
      '/api/reinsurance/treaties',
    )
  assert.deepEqual(
    treaties.map((x) => [x.reinsuranceCompanyId, x.shareBps, x.effectiveFrom]),
    [[companyId, 7500, '2025-11-01']],
  )
})

test('every month of the book reconciles to the ledger, and the statement holds its invariants', async () => {
  let months = 0
  for (const month of MONTHS) {
    const r = await get<{ checks: unknown[]; differences: unknown[] }>(`/api/reports/reconciliation?month=${month}`)
    assert.ok(r.checks.length > 0, month)
    assert.deepEqual(r.differences, [], month)
    const s = await get<Statement>(`/api/reports/reinsurancecompanies/${companyId}/statement?month=${month}`)
    const itd = s.totals.itd
    // earned + unearned = written − cancelled, to the cent; incurred = paid + outstanding.
    assert.equal(
      Math.round((itd.earnedPremium! + itd.unearnedPremium!) * 100),
      Math.round(itd.netWrittenPremium! * 100),
      month,
    )
    assert.equal(
      Math.round(itd.claimsIncurred! * 100),
      Math.round((itd.claimsPaid! + itd.claimsOutstanding!) * 100),
      month,
    )
    if (s.totals.mtd.writtenPremium! > 0) months++
  }
  // Ceded sales in (nearly) every month.
  assert.ok(months >= 10, `${months} months with ceded sales`)
  const year = await get<Statement>(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-10`)
  assert.ok(year.contracts > 20)
  assert.ok(year.totals.itd.cancellations! > 0)
  assert.ok(year.totals.itd.claimsIncurred! > 0)
  assert.ok(year.totals.itd.claimsPaid! > 0)
})

test("the insurer's bordereaux have the book's sales, cancels and claims", async () => {
  let written = 0
  let cancelled = 0
  let paid = 0
  for (const month of MONTHS) {
    const premium = await get<{ totals: { written: { count: number }; cancelled: { count: number } } }>(
      `/api/reports/insurers/${insurerId}/bordereaux/premium?month=${month}`,
    )
    written += premium.totals.written.count
    cancelled += premium.totals.cancelled.count
    const claims = await get<{ totals: { paid: { count: number } } }>(
      `/api/reports/insurers/${insurerId}/bordereaux/claims?month=${month}`,
    )
    paid += claims.totals.paid.count
  }
  // The insurer bears the VSC reserve: most sales, cancels and every paid claim (all are VSC).
  assert.ok(written > 50 && written <= summary.sales, `${written} written`)
  assert.ok(cancelled > 0 && cancelled <= summary.cancels, `${cancelled} cancelled`)
  assert.equal(paid, summary.paid)
})
