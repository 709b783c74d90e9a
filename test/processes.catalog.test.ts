// The automatic processes beyond the status changes (docs/processes.md), each on the demo tenant under
// a moved clock and through POST /api/automatic-process-runs: EARNINGS (one BATCH earnings run per
// process run, what a sync of each contract posts, nothing twice), CLAIMS_DENIAL (an ended contract's
// uncovered claims denied), GAP_AUTO_CANCEL (a matured loan's GAP contract cancelled; refused alone
// while the books are closed), MONTHLY_STATEMENTS (each dealer's statement of the month, once), their
// parameters (422 naming the field), the monthly schedule (one run a month, for the month before), batches at once (counts and
// cursor), and EXPIRY's set-based batches writing what the item-by-item path writes.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { addDays } from '../src/platform/calendar.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, json, loginHeaders, type TestApp } from './harness.ts'

// Sold in January 2026; the clock then moves to the start of March (earnings of February, claims
// denial), and to August (the 6-month loan has matured; July's statements).
const SOLD = new Date('2026-01-20T18:00:00Z')
const MARCH = new Date('2026-03-02T18:00:00Z')
const AUGUST = new Date('2026-08-03T18:00:00Z')
const SHORT_LOAN =
  'vehiclePurchasePrice=28500&msrp=31200&financeType=RETAIL&amountFinanced=24000&financeTermMonths=6&apr=6.99'

type Contract = { id: number; contractNumber: string; status: string }
type Run = {
  guid: string
  process: string
  parameters: Record<string, unknown>
  status: string
  slot: string | null
  examined: number
  changed: number
  failed: number
  errors: Array<{ itemId: number; code: string; message: string }>
  state: Record<string, unknown>
}

let t: TestApp
let demo: DemoTestTenant
/** The tick's scope: on PostgreSQL the test files share a database, and other files' tenants have their own clocks. */
const ownTenant = () => ({ tenantIds: [demo.tenantId] })
let gap: Contract
let vsc: Contract
let ended: Contract
let facilityId: number

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: demo.headers, ...(payload === undefined ? {} : { payload: payload as object }) })

async function moveTo(at: Date): Promise<void> {
  t.clock.set(at)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
}

/** Starts `process` on demand and works it to its end; the finished run. */
async function run(process: string, parameters: Record<string, unknown> = {}): Promise<Run> {
  const res = await inject('POST', '/api/automatic-process-runs', { process, parameters })
  assert.equal(res.statusCode, 202, res.body)
  const queued = json<Run>(res)
  assert.deepEqual(queued.state, {})
  await t.modules.processes.service.work(demo.tenantId)
  const read = await inject('GET', `/api/automatic-process-runs/${queued.guid}`)
  assert.equal(read.statusCode, 200, read.body)
  const done = json<Run>(read)
  assert.equal(done.status, 'SUCCEEDED', read.body)
  return done
}

/** A date column as YYYY-MM-DD (a Date from pg, a string from PGlite). */
const dayText = (v: unknown) => String(v instanceof Date ? v.toISOString() : v).slice(0, 10)

const statusOf = async (id: number) =>
  (
    await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('contract')
        .select('status')
        .where('tenant_id', '=', demo.tenantId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    )
  ).status

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  gap = await sellDemoContract<Contract>(t, demo, {
    saleDate: '2026-01-15',
    productType: 'GAP',
    planCode: 'GAP-STD',
    quoteQuery: SHORT_LOAN,
    customer: { firstName: 'Gale', lastName: 'Gap', emailAddress: 'gale@example.com' },
    deal: { customFields: { lenderLoanNumber: 'LN-PROC-1' }, finance: { firstPaymentDate: '2026-02-15' } },
    finalize: true,
  })
  vsc = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-01-10', finalize: true })
  ended = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-01-11', finalize: true })
  facilityId = (
    await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('account_holder')
        .select('id')
        .where('tenant_id', '=', demo.tenantId)
        .where('business_key', '=', 'RF-ATX')
        .executeTakeFirstOrThrow(),
    )
  ).id
  await moveTo(MARCH)
})
after(() => t.close())

test('parameters are checked per process: an unknown one, a bad date or month, each a 422 naming it', async () => {
  for (const [payload, fields] of [
    [{ process: 'EARNINGS', parameters: { asOf: '2026-03-03' } }, ['parameters.asOf']],
    [
      { process: 'EARNINGS', parameters: { asOf: 'yesterday', month: '2026-02' } },
      ['parameters.asOf', 'parameters.month'],
    ],
    [{ process: 'GAP_AUTO_CANCEL', parameters: { asOf: '2026-03-01' } }, ['parameters.asOf']],
    [
      { process: 'MONTHLY_STATEMENTS', parameters: { month: '2026-03', format: 'XLS' } },
      ['parameters.month', 'parameters.format'],
    ],
    [{ process: 'MONTHLY_STATEMENTS', parameters: { month: '2026-2' } }, ['parameters.month']],
    [{ process: 'CLAIMS_DENIAL', parameters: { batchSize: 1001 } }, ['parameters.batchSize']],
  ] as const) {
    const res = await inject('POST', '/api/automatic-process-runs', payload)
    assert.equal(res.statusCode, 422, res.body)
    const body = json<{ code: string; errors: Array<{ field: string }> }>(res)
    assert.equal(body.code, 'process_run_invalid')
    assert.deepEqual(
      body.errors.map((e) => e.field),
      fields,
      JSON.stringify(payload),
    )
  }
})

test('EARNINGS syncs every sold contract under one earnings run, as of asOf; a second run posts nothing', async () => {
  const first = await run('EARNINGS', { asOf: '2026-02-28', batchSize: 2 })
  assert.equal(first.examined, 3)
  assert.equal(first.failed, 0, JSON.stringify(first.errors))
  assert.ok(first.changed >= 1, 'the administrator lines earned something by the end of February')
  assert.equal(first.state.day, '2026-03-02')
  assert.equal(first.state.asOf, '2026-02-28')
  const earningsRunId = Number(first.state.earningsRunId)
  const earningsRun = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('earnings_run')
      .select(['scope', 'status', 'as_of', 'examined', 'posted', 'nothing_due', 'failed'])
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', earningsRunId)
      .executeTakeFirstOrThrow(),
  )
  assert.deepEqual(
    { ...earningsRun, as_of: dayText(earningsRun.as_of) },
    {
      scope: 'BATCH',
      status: 'COMPLETED',
      as_of: '2026-02-28',
      examined: 3,
      posted: first.changed,
      nothing_due: 3 - first.changed,
      failed: 0,
    },
  )
  // One EARNINGS_RECOGNIZED entry per contract that posted, its source the earnings run.
  const entries = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('journal_entry')
      .select('source_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('kind', '=', 'EARNINGS_RECOGNIZED')
      .execute(),
  )
  assert.equal(entries.length, first.changed)
  assert.ok(entries.every((e) => Number(e.source_id) === earningsRunId))
  // What a sync of a contract would post now as of that date: nothing.
  const sync = await inject('POST', `/api/contracts/${vsc.id}/syncEarnings`, { asOf: '2026-02-28' })
  assert.equal(sync.statusCode, 200, sync.body)
  assert.equal(json<{ outcome: string }>(sync).outcome, 'NOTHING_DUE')

  const again = await run('EARNINGS', { asOf: '2026-02-28' })
  assert.deepEqual([again.examined, again.changed, again.failed], [3, 0, 0])
  assert.notEqual(again.state.earningsRunId, first.state.earningsRunId)
  // Without asOf: as of the run's day.
  const today = await run('EARNINGS')
  assert.equal(today.state.asOf, '2026-03-02')
})

test("CLAIMS_DENIAL denies an ended contract's claims its coverage did not reach, once", async () => {
  const take = async (contractId: number, lossDate: string) => {
    const res = await inject('POST', '/api/claims', {
      contractId,
      lossDate,
      odometer: 45000,
      repairFacilityId: facilityId,
    })
    assert.equal(res.statusCode, 201, res.body)
    return json<{ id: number }>(res).id
  }
  const beforeCancel = await take(ended.id, '2026-02-20')
  const afterCancel = await take(ended.id, '2026-02-27')
  const inForce = await take(vsc.id, '2026-02-27')
  const cancel = await inject('POST', `/api/contracts/${ended.id}/cancels`, {
    cancelDate: '2026-02-25',
    cancelOdometer: 45100,
    cancelReasonCode: 'CUSTOMER_REQUEST',
    includeOpenClaims: true,
  })
  assert.equal(cancel.statusCode, 201, cancel.body)

  const denial = await run('CLAIMS_DENIAL')
  assert.deepEqual([denial.examined, denial.changed, denial.failed], [1, 1, 0])
  const claimStatus = async (id: number) => json<{ status: string }>(await inject('GET', `/api/claims/${id}`)).status
  assert.equal(await claimStatus(beforeCancel), 'OPEN')
  assert.equal(await claimStatus(afterCancel), 'DENIED')
  assert.equal(await claimStatus(inForce), 'OPEN')
  // The earlier loss stays payable, so the contract is examined again, and nothing changes.
  const again = await run('CLAIMS_DENIAL')
  assert.deepEqual([again.examined, again.changed, again.failed], [1, 0, 0])
})

test('GAP_AUTO_CANCEL cancels a GAP contract whose loan matured, with the payoff reason, once', async () => {
  // Nothing is due before the loan matures (its last payment: 2026-07-15).
  assert.equal((await run('GAP_AUTO_CANCEL')).examined, 0)
  await moveTo(AUGUST)
  // The books closed through today: the cancel cannot post, so that item fails alone and the run succeeds.
  const close = (value: string | null) =>
    t.app.inject({ method: 'PUT', url: '/api/generalsettings/10', headers: demo.headers, payload: { value } })
  assert.ok((await close('2026-08-03')).statusCode < 300)
  const refused = await run('GAP_AUTO_CANCEL')
  assert.deepEqual([refused.examined, refused.changed, refused.failed], [1, 0, 1])
  assert.deepEqual(
    refused.errors.map((e) => [e.itemId, e.code]),
    [[gap.id, 'ledger_period_closed']],
  )
  assert.equal(await statusOf(gap.id), 'ACTIVE')
  assert.ok((await close(null)).statusCode < 300)
  const cancelled = await run('GAP_AUTO_CANCEL')
  assert.deepEqual(
    [cancelled.examined, cancelled.changed, cancelled.failed],
    [1, 1, 0],
    JSON.stringify(cancelled.errors),
  )
  assert.equal(await statusOf(gap.id), 'CANCELLED')
  assert.equal(await statusOf(vsc.id), 'ACTIVE')
  const cancels = await inject('GET', `/api/contracts/${gap.id}/cancels`)
  assert.equal(cancels.statusCode, 200, cancels.body)
  const [cancel] = json<Array<{ cancelDate: string; reason: { code: string } }>>(cancels)
  assert.equal(cancel?.cancelDate, '2026-07-15')
  assert.equal(cancel?.reason.code, 'EARLY_PAYOFF')
  assert.equal((await run('GAP_AUTO_CANCEL')).examined, 0)
})

test("MONTHLY_STATEMENTS makes each dealer's statement of the month once", async () => {
  const made = await run('MONTHLY_STATEMENTS', { month: '2026-07', format: 'CSV' })
  assert.deepEqual(made.state, { day: '2026-08-03', month: '2026-07', format: 'CSV' })
  assert.equal(made.failed, 0, JSON.stringify(made.errors))
  assert.ok(made.examined >= 1)
  assert.equal(made.changed, made.examined)
  const requests = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('statement_request')
      .select(['account_holder_id', 'status', 'format', 'purpose', 'requested_by'])
      .where('tenant_id', '=', demo.tenantId)
      .orderBy('account_holder_id')
      .execute(),
  )
  assert.equal(requests.length, made.examined)
  assert.ok(requests.every((r) => r.status === 'COMPLETED' && r.format === 'CSV' && r.purpose === null))
  // The dealer that sold the contracts has one, readable through the statement route.
  const dealerId = (
    await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('contract')
        .select('dealer_id')
        .where('tenant_id', '=', demo.tenantId)
        .where('id', '=', vsc.id)
        .executeTakeFirstOrThrow(),
    )
  ).dealer_id
  assert.ok(requests.some((r) => Number(r.account_holder_id) === Number(dealerId)))
  // Made once: a second run of the month finds every dealer done.
  assert.equal((await run('MONTHLY_STATEMENTS', { month: '2026-07' })).examined, 0)
})

test('monthly processes are scheduled once a month, for the month before', async () => {
  // 23:00 in Chicago on 2026-08-03: every time of day has come.
  await moveTo(new Date('2026-08-04T04:00:00.000Z'))
  await t.modules.processes.service.tick(ownTenant())
  const monthly = async () =>
    t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('automatic_process_run')
        .select(['process', 'slot', 'parameters', 'status', 'examined'])
        .where('tenant_id', '=', demo.tenantId)
        .where('process', 'in', ['EARNINGS', 'MONTHLY_STATEMENTS'])
        .where('slot', 'is not', null)
        .orderBy('process')
        .execute(),
    )
  const runs = await monthly()
  assert.deepEqual(
    runs.map((r) => [r.process, dayText(r.slot), r.parameters, r.status]),
    [
      ['EARNINGS', '2026-08-01', { asOf: '2026-07-31' }, 'SUCCEEDED'],
      ['MONTHLY_STATEMENTS', '2026-08-01', { month: '2026-07' }, 'SUCCEEDED'],
    ],
  )
  // The statements of July were made on demand already.
  assert.equal(runs[1]!.examined, 0)
  // The next day: no second monthly run.
  await moveTo(new Date('2026-08-05T04:00:00.000Z'))
  await t.modules.processes.service.tick(ownTenant())
  assert.equal((await monthly()).length, 2)
})

test('batches at once: each commits its items with its counts; the cursor moves once all have', async () => {
  const future: number[] = []
  for (const day of ['2026-08-01', '2026-08-02', '2026-08-03'])
    future.push((await sellDemoContract(t, demo, { saleDate: day, effectiveDate: '2026-09-10', finalize: true })).id)
  await moveTo(new Date('2026-09-12T18:00:00.000Z'))
  // The embedded database has one connection: the batches queue for it, but work as on PostgreSQL.
  const options = t.modules.processes.options
  const configured = options.parallelBatches
  options.parallelBatches = 3
  try {
    const res = await inject('POST', '/api/automatic-process-runs', {
      process: 'ACTIVATION',
      parameters: { batchSize: 1 },
    })
    assert.equal(res.statusCode, 202, res.body)
    const guid = json<Run>(res).guid
    const read = async () => json<Run & { cursor: number }>(await inject('GET', `/api/automatic-process-runs/${guid}`))
    // Two batches (of one contract each) at once, then the instance stops: both counted, the cursor past both.
    await t.modules.processes.service.work(demo.tenantId, { maxBatches: 2 })
    const mid = await read()
    assert.deepEqual([mid.status, mid.examined, mid.changed, mid.cursor], ['RUNNING', 2, 2, future[1]])
    t.clock.advance(options.leaseMs + 1000)
    await t.modules.processes.service.work(demo.tenantId)
    const done = await read()
    assert.deepEqual([done.status, done.examined, done.changed, done.failed], ['SUCCEEDED', 3, 3, 0])
    assert.deepEqual(await Promise.all(future.map(statusOf)), ['ACTIVE', 'ACTIVE', 'ACTIVE'])
  } finally {
    options.parallelBatches = configured
  }
})

test('EXPIRY set-based writes what the item-by-item path writes (its fallback)', async () => {
  const contracts = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract')
      .select(['id', 'expiration_date'])
      .where('tenant_id', '=', demo.tenantId)
      .where('status', 'in', ['ACTIVE', 'FINALIZED'])
      .orderBy('id')
      .execute(),
  )
  assert.ok(contracts.length >= 2)
  const last = contracts
    .map((c) => dayText(c.expiration_date))
    .toSorted()
    .at(-1)!
  await moveTo(new Date(Date.parse(`${last}T18:00:00.000Z`) + 2 * 86_400_000))
  const res = await inject('POST', '/api/automatic-process-runs', { process: 'EXPIRY', parameters: { batchSize: 1 } })
  assert.equal(res.statusCode, 202, res.body)
  const guid = json<Run>(res).guid
  // The first batch with the set-based transition failing: worked item by item instead.
  const port = t.modules.contracts.batchTransitions
  const setBased = port.transitionMany
  let refused = 0
  port.transitionMany = async () => {
    refused++
    throw new Error('set-based transition unavailable')
  }
  try {
    await t.modules.processes.service.work(demo.tenantId, { maxBatches: 1 })
  } finally {
    port.transitionMany = setBased
  }
  assert.equal(refused, 1)
  t.clock.advance(t.modules.processes.options.leaseMs + 1000)
  await t.modules.processes.service.work(demo.tenantId)
  const done = json<Run>(await inject('GET', `/api/automatic-process-runs/${guid}`))
  assert.deepEqual(
    [done.status, done.examined, done.changed, done.failed],
    ['SUCCEEDED', contracts.length, contracts.length, 0],
  )
  assert.deepEqual(
    await Promise.all(contracts.map((c) => statusOf(c.id))),
    contracts.map(() => 'EXPIRED'),
  )

  // What each path wrote for its contract: the history row, the audit record, the event.
  const written = async (contractId: number) =>
    t.db.read(demo.tenantId, async (x) => {
      const history = await x
        .selectFrom('contract_status_history')
        .select([
          'id',
          'event',
          'from_status',
          'to_status',
          'effective_date',
          'source_type',
          'source_id',
          'actor_label',
        ])
        .where('tenant_id', '=', demo.tenantId)
        .where('contract_id', '=', contractId)
        .where('event', '=', 'EXPIRE')
        .executeTakeFirstOrThrow()
      const audit = await x
        .selectFrom('audit_log')
        .select(['actor_label', 'changes'])
        .where('tenant_id', '=', demo.tenantId)
        .where('action', '=', 'contract.expired')
        .where('entity_id', '=', String(contractId))
        .executeTakeFirstOrThrow()
      const event = await x
        .selectFrom('event_outbox')
        .select('payload')
        .where('tenant_id', '=', demo.tenantId)
        .where('type', '=', 'contract.expired')
        .where(sql<boolean>`(payload ->> 'contractId')::bigint = ${contractId}`)
        .executeTakeFirstOrThrow()
      return { history, audit, event: event.payload as Record<string, unknown> }
    })
  const [itemByItem, batch] = await Promise.all([written(contracts[0]!.id), written(contracts[1]!.id)])
  const expiration = (i: number) => dayText(contracts[i]!.expiration_date)
  for (const [w, i] of [
    [itemByItem, 0],
    [batch, 1],
  ] as const) {
    assert.deepEqual(
      { ...w.history, id: undefined, effective_date: dayText(w.history.effective_date) },
      {
        id: undefined,
        event: 'EXPIRE',
        from_status: 'ACTIVE',
        to_status: 'EXPIRED',
        effective_date: addDays(expiration(i), 1),
        source_type: 'PROCESS',
        source_id: w.history.source_id,
        actor_label: 'automatic-process',
      },
    )
    assert.equal(w.event.historyId, Number(w.history.id))
  }
  assert.equal(Number(itemByItem.history.source_id), Number(batch.history.source_id))
  const same = (v: { changes: unknown }) => ({ ...(v.changes as Record<string, unknown>), effectiveDate: undefined })
  assert.deepEqual(same(batch.audit), same(itemByItem.audit))
  const event = (p: Record<string, unknown>) => ({
    ...p,
    contractId: undefined,
    contractNumber: undefined,
    effectiveDate: undefined,
    historyId: undefined,
  })
  assert.deepEqual(event(batch.event), event(itemByItem.event))
})
