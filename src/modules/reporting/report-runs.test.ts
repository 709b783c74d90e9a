// Month close and report runs over HTTP (docs/reporting.md "Month close", "Report runs"), on the demo
// tenant: a closed month's statement and bordereaux are frozen at their first request (a rerun answers
// the same document, whatever was posted since); a sale posted late into a reopened month shows in the
// next month's statement as a prior-period adjustment; a run over several companies reports its
// progress, is idempotent, resumes after its instance died (an expired lease) and never produces a
// document twice.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { systemContext } from '../../platform/http/context.ts'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from '../../../test/demo-tenant.ts'
import { createTestApp, json, loginHeaders, type TestApp } from '../../../test/harness.ts'

type Cell = Record<string, number> & { lossRatio: string | null }
type Statement = {
  month: string
  generatedAt: string
  totals: { mtd: Cell; qtd: Cell; ytd: Cell; itd: Cell }
  priorPeriodAdjustments: null | {
    period: string
    asOf: string
    frozenInputDigest: string
    inputDigest: string
    figures: Record<string, number>
  }
}
type Run = {
  id: number
  kind: string
  period: string
  status: string
  riskBearerIds: number[]
  progress: { done: number; total: number }
  error: { code: string } | null
  documents: Array<{ riskBearerId: number; reportDocumentId: number; producedBy: string; href: string }>
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

let t: TestApp
let demo: DemoTestTenant
let companyId: number
let insurerId: number
const otherCompanies: number[] = []

const call = (url: string, headers = demo.headers) => t.app.inject({ method: 'GET', url, headers })
const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: demo.headers, payload: payload as Record<string, unknown> })

async function moveTo(day: string) {
  t.clock.set(new Date(`${day}T18:00:00Z`))
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
}

const closeThrough = (value: string | null) =>
  t.modules.settings.service.update(systemContext(demo.tenantId, 'report-runs-test'), 'booksClosedThrough', { value })

const sell = (saleDate: string) =>
  sellDemoContract<{ id: number }>(t, demo, {
    saleDate,
    finalize: true,
    quoteQuery: 'vehiclePurchasePrice=21500',
    deal: { vehicle: { vin: DEMO.vins.accord, purchasePrice: 21500 } },
  })

async function statement(month: string, id = companyId): Promise<Statement> {
  const res = await call(`/api/reports/reinsurancecompanies/${id}/statement?month=${month}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Statement>(res)
}

async function premium(month: string): Promise<{ generatedAt: string; lines: unknown[]; totals: unknown }> {
  const res = await call(`/api/reports/insurers/${insurerId}/bordereaux/premium?month=${month}`)
  assert.equal(res.statusCode, 200, res.body)
  return json(res)
}

/** The frozen documents of the tenant, by kind, risk bearer and month. */
async function documents(period: string) {
  const r = await t.db.read(demo.tenantId, (x) =>
    sql<{
      kind: string
      risk_bearer_id: string
      n: string
    }>`select kind, risk_bearer_id, count(*) as n from report_document where tenant_id = ${demo.tenantId} and period = ${period} group by kind, risk_bearer_id`.execute(
      x,
    ),
  )
  return r.rows.map((row) => ({ kind: row.kind, riskBearerId: Number(row.risk_bearer_id), n: Number(row.n) }))
}

async function audits(action: string): Promise<number> {
  const r = await t.db.read(demo.tenantId, (x) =>
    sql<{
      n: string
    }>`select count(*) as n from audit_log where tenant_id = ${demo.tenantId} and action = ${action}`.execute(x),
  )
  return Number(r.rows[0]!.n)
}

async function getRun(id: number): Promise<Run> {
  const res = await call(`/api/reports/runs/${id}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Run>(res)
}

before(async () => {
  t = await createTestApp({ now: new Date('2026-08-15T18:00:00Z') })
  demo = await seedDemo(t)
  const list = async (url: string) => json<Array<Record<string, unknown>>>(await call(url))
  companyId = Number((await list('/api/reinsurancecompanies')).find((c) => c.companyCode === 'LSRE')!.id)
  insurerId = Number((await list('/api/insurers')).find((c) => c.insurerCode === 'INS-FCI')!.id)
  const dealerId = Number((await list(`/api/dealers?dealerNumber=${DEMO.dealerNumber}`))[0]!.id)
  const productId = Number((await list('/api/Rates/Products')).find((p) => p.code === 'VSC')!.id)
  const treaty = await post('/api/reinsurance/treaties', {
    reinsuranceCompanyId: companyId,
    name: 'Lone Star Re quota share',
    dealerIds: [dealerId],
    productIds: [productId],
    effectiveFrom: '2026-08-01',
    shareBps: 7500,
  })
  assert.equal(treaty.statusCode, 201, treaty.body)
  for (const code of ['RE-A', 'RE-B']) {
    const res = await post('/api/reinsurancecompanies', { companyCode: code, legalName: `Reinsurer ${code}` })
    assert.equal(res.statusCode, 201, res.body)
    otherCompanies.push(json<{ id: number }>(res).id)
  }
  await sell('2026-08-10')
  await sell('2026-08-12')
})
after(() => t.close())

describe('month close', () => {
  let frozen: Statement
  let frozenPremium: Awaited<ReturnType<typeof premium>>

  test('an open month is not frozen: each request reports as of now', async () => {
    await moveTo('2026-09-05')
    const a = await statement('2026-08')
    await moveTo('2026-09-06')
    const b = await statement('2026-08')
    assert.notEqual(a.generatedAt, b.generatedAt)
    assert.deepEqual(await documents('2026-08'), [])
  })

  test('closing the month freezes its statement and bordereau at their first request; a rerun answers the same', async () => {
    await closeThrough('2026-08-31')
    const frozenBefore = await audits('report_document.frozen')
    frozen = await statement('2026-08')
    frozenPremium = await premium('2026-08')
    assert.equal(frozen.totals.mtd.writtenPremium, 915)
    assert.equal(frozen.priorPeriodAdjustments, null)
    await moveTo('2026-09-07')
    assert.deepEqual(await statement('2026-08'), frozen, 'a rerun answers the stored figures, generatedAt included')
    assert.deepEqual(await premium('2026-08'), frozenPremium)
    assert.deepEqual(
      (await documents('2026-08')).toSorted((a, b) => a.kind.localeCompare(b.kind)),
      [
        { kind: 'PREMIUM_BORDEREAU', riskBearerId: insurerId, n: 1 },
        { kind: 'REINSURANCE_STATEMENT', riskBearerId: companyId, n: 1 },
      ],
    )
    assert.equal((await audits('report_document.frozen')) - frozenBefore, 2)
    // The CSV of a frozen month is the frozen document's.
    const csv = await call(`/api/reports/reinsurancecompanies/${companyId}/statement?month=2026-08&format=csv`)
    assert.equal(csv.statusCode, 200)
    assert.match(csv.body, /TOTAL,,MTD,2026-08-01,2026-08-31,915\.00,/)
  })

  test('a sale posted late into the reopened month: the frozen month is unchanged, the next statement shows a prior-period adjustment', async () => {
    // The books reopened, a sale dated August 31 posted, the books closed again.
    await closeThrough(null)
    await moveTo('2026-08-31')
    await sell('2026-08-31')
    await moveTo('2026-09-10')
    await closeThrough('2026-08-31')
    assert.deepEqual(await statement('2026-08'), frozen, 'the closed month answers what it reported')
    assert.deepEqual(await premium('2026-08'), frozenPremium)
    const september = await statement('2026-09')
    const adj = september.priorPeriodAdjustments
    assert.ok(adj, 'the inputs of the frozen August changed')
    assert.equal(adj.period, '2026-08')
    assert.equal(adj.asOf, '2026-08-31')
    assert.notEqual(adj.inputDigest, adj.frozenInputDigest)
    // 610.00 of reserve × 75 %: written, net written; nothing else moved.
    assert.equal(adj.figures.writtenPremium, 457.5)
    assert.equal(adj.figures.netWrittenPremium, 457.5)
    assert.equal(adj.figures.cancellations, 0)
    assert.equal(adj.figures.claimsIncurred, 0)
    assert.equal(
      Math.round((adj.figures.earnedPremium! + adj.figures.unearnedPremium!) * 100),
      45750,
      'earned + unearned = net written',
    )
    // September's own month has nothing of it; inception to date has all three sales.
    assert.equal(september.totals.mtd.writtenPremium, 0)
    assert.equal(september.totals.itd.writtenPremium, 1372.5)
    assert.equal(
      Math.round((september.totals.itd.writtenPremium! - frozen.totals.itd.writtenPremium!) * 100),
      Math.round(adj.figures.writtenPremium * 100),
    )
  })

  test('once September is closed and frozen, October no longer repeats the adjustment', async () => {
    await moveTo('2026-10-05')
    await closeThrough('2026-09-30')
    const september = await statement('2026-09')
    assert.ok(september.priorPeriodAdjustments, 'frozen with its adjustment')
    assert.equal((await statement('2026-10')).priorPeriodAdjustments, null)
  })
})

describe('report runs', () => {
  let runId: number

  test('a month not closed, a risk bearer of another kind: 422 naming the field, nothing stored', async () => {
    const open = await post('/api/reports/runs', { kind: 'REINSURANCE_STATEMENT', period: '2026-10' })
    assert.equal(open.statusCode, 422, open.body)
    assert.equal(json<Problem>(open).code, 'report_period_invalid')
    assert.deepEqual(
      json<Problem>(open).errors!.map((e) => [e.field, e.code]),
      [['period', 'not_closed']],
    )
    const bad = await post('/api/reports/runs', {
      kind: 'REINSURANCE_STATEMENT',
      period: '2026-09',
      riskBearerIds: [insurerId],
    })
    assert.equal(bad.statusCode, 422, bad.body)
    assert.equal(json<Problem>(bad).code, 'report_run_invalid')
    assert.equal(json<Problem>(bad).errors![0]!.field, 'riskBearerIds[0]')
    const future = await post('/api/reports/runs', { kind: 'PREMIUM_BORDEREAU', period: '2027-01' })
    assert.equal(future.statusCode, 422)
    assert.equal(json<Problem>(future).errors![0]!.field, 'period')
    const list = await call('/api/reports/runs')
    assert.equal(list.headers['x-total-count'], '0')
  })

  test('a run over every company of a closed month: queued with its total; the same request again is the same run (200)', async () => {
    const res = await post('/api/reports/runs', { kind: 'REINSURANCE_STATEMENT', period: '2026-08' })
    assert.equal(res.statusCode, 201, res.body)
    const run = json<Run>(res)
    runId = run.id
    assert.equal(res.headers.location, `/api/reports/runs/${run.id}`)
    assert.equal(run.status, 'QUEUED')
    const companies = [companyId, ...otherCompanies].toSorted((a, b) => a - b)
    for (const id of companies) assert.ok(run.riskBearerIds.includes(id))
    assert.equal(run.progress.total, run.riskBearerIds.length)
    assert.equal(run.progress.done, 0)
    // LSRE's August statement was frozen by a request already: it is listed from the start.
    assert.deepEqual(
      run.documents.map((d) => [d.riskBearerId, d.producedBy]),
      [[companyId, 'EARLIER']],
    )
    const again = await post('/api/reports/runs', { kind: 'REINSURANCE_STATEMENT', period: '2026-08' })
    assert.equal(again.statusCode, 200, again.body)
    assert.equal(json<Run>(again).id, run.id)
    assert.equal(await audits('report_run.created'), 1)
    const notYet = await call(`/api/reports/runs/${run.id}/documents/${otherCompanies[0]}`)
    assert.equal(notYet.statusCode, 404)
    assert.equal(json<Problem>(notYet).code, 'report_document_not_found')
  })

  test('an instance dies mid-run; another takes over once its lease expired, resumes after the cursor, produces nothing twice', async () => {
    const runs = t.modules.reporting.runs
    const first = runs.options.owner
    assert.equal(await runs.work(demo.tenantId, { maxSteps: 1 }), 1)
    let run = await getRun(runId)
    assert.equal(run.status, 'RUNNING')
    assert.deepEqual(run.progress, { done: 1, total: run.riskBearerIds.length })
    // Another instance: the lease still holds, so it takes nothing.
    runs.options.owner = 'instance-b'
    assert.equal(await runs.work(demo.tenantId), 0)
    assert.equal((await getRun(runId)).progress.done, 1)
    // The lease expires (the first instance died): taken over and finished.
    t.clock.set(new Date(t.clock.now().getTime() + runs.options.leaseMs + 1000))
    demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
    assert.equal(await runs.work(demo.tenantId), 1)
    run = await getRun(runId)
    assert.equal(run.status, 'SUCCEEDED')
    assert.deepEqual(run.progress, { done: run.riskBearerIds.length, total: run.riskBearerIds.length })
    assert.deepEqual(
      run.documents.map((d) => d.riskBearerId),
      run.riskBearerIds,
    )
    assert.equal(run.documents.find((d) => d.riskBearerId === companyId)!.producedBy, 'EARLIER')
    for (const id of otherCompanies)
      assert.equal(run.documents.find((d) => d.riskBearerId === id)!.producedBy, 'THIS_RUN')
    // One document per company, never two; the first instance coming back finds the run not its own.
    runs.options.owner = first
    assert.equal(await runs.work(demo.tenantId), 0)
    const docs = (await documents('2026-08')).filter((d) => d.kind === 'REINSURANCE_STATEMENT')
    assert.equal(docs.length, run.riskBearerIds.length)
    assert.ok(docs.every((d) => d.n === 1))
    assert.equal(await audits('report_run.succeeded'), 1)
  })

  test('the documents: the frozen statement as JSON and CSV; the run listed with filters', async () => {
    const doc = await call(`/api/reports/runs/${runId}/documents/${companyId}`)
    assert.equal(doc.statusCode, 200, doc.body)
    assert.deepEqual(json(doc), await statement('2026-08'))
    const other = json<Statement>(await call(`/api/reports/runs/${runId}/documents/${otherCompanies[0]}`))
    assert.equal(other.totals.itd.writtenPremium, 0)
    const csv = await call(`/api/reports/runs/${runId}/documents/${companyId}?format=csv`)
    assert.equal(csv.statusCode, 200)
    assert.match(String(csv.headers['content-type']), /^text\/csv/)
    assert.match(csv.body, /^recordType,key,column,/)
    const list = await call('/api/reports/runs?kind=REINSURANCE_STATEMENT&period=2026-08&status=SUCCEEDED')
    assert.equal(list.statusCode, 200, list.body)
    assert.equal(list.headers['x-total-count'], '1')
    assert.equal(json<Run[]>(list)[0]!.id, runId)
    assert.equal((await call('/api/reports/runs?status=QUEUED')).headers['x-total-count'], '0')
    const missing = await call('/api/reports/runs/999999')
    assert.equal(missing.statusCode, 404)
    assert.equal(json<Problem>(missing).code, 'report_run_not_found')
    const notOfRun = await call(`/api/reports/runs/${runId}/documents/${insurerId}`)
    assert.equal(notOfRun.statusCode, 404)
  })

  test('a bordereau run of chosen insurers; the month reopened under a run fails it, naming why', async () => {
    const res = await post('/api/reports/runs', {
      kind: 'CLAIMS_BORDEREAU',
      period: '2026-09',
      riskBearerIds: [insurerId],
    })
    assert.equal(res.statusCode, 201, res.body)
    const id = json<Run>(res).id
    assert.equal(await t.modules.reporting.runs.work(demo.tenantId), 1)
    const run = await getRun(id)
    assert.equal(run.status, 'SUCCEEDED')
    assert.deepEqual(run.progress, { done: 1, total: 1 })
    const csv = await call(`/api/reports/runs/${id}/documents/${insurerId}`, { ...demo.headers, accept: 'text/csv' })
    assert.equal(csv.statusCode, 200)
    assert.match(String(csv.headers['content-type']), /^text\/csv/)

    const premiumRun = await post('/api/reports/runs', { kind: 'PREMIUM_BORDEREAU', period: '2026-09' })
    assert.equal(premiumRun.statusCode, 201, premiumRun.body)
    await closeThrough('2026-08-31')
    assert.equal(await t.modules.reporting.runs.work(demo.tenantId), 1)
    const failed = await getRun(json<Run>(premiumRun).id)
    assert.equal(failed.status, 'FAILED')
    assert.equal(failed.error!.code, 'report_period_invalid')
    assert.equal(failed.progress.done, 0)
    assert.equal(await audits('report_run.failed'), 1)
    await closeThrough('2026-09-30')
  })
})
