// Automatic processes (docs/processes.md): ACTIVATION, EXPIRY and VOID runs under a moved clock, the
// run routes (422 naming the field, 409 once finished, another tenant's 404), a cancel between
// batches, an instance that dies mid-run resumed by another from the cursor (nothing changed twice),
// and two scheduler instances on one database making one run per slot.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createModules } from '../src/modules.ts'
import {
  createTenant,
  createTestApp,
  json,
  loginHeaders,
  TEST_CONFIG,
  TEST_SECRETS,
  type TestApp,
  type TestTenant,
} from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'

type Run = {
  guid: string
  process: string
  status: string
  slot: string | null
  cursor: number
  examined: number
  changed: number
  failed: number
  errors: unknown[]
  durationMs: number | null
}

let t: TestApp
let demo: DemoTestTenant
/** The tick's scope: on PostgreSQL the test files share a database, and other files' tenants have their own clocks. */
const ownTenant = () => ({ tenantIds: [demo.tenantId] })
let other: TestTenant
const finalized: number[] = []
const pending: number[] = []

before(async () => {
  t = await createTestApp({ now: new Date('2026-11-27T18:00:00.000Z') })
  demo = await seedDemo(t)
  other = await createTenant(t, 'Processes other tenant')
  for (const day of ['2026-11-24', '2026-11-25', '2026-11-26']) {
    const c = await sellDemoContract(t, demo, { saleDate: day, effectiveDate: '2026-12-10', finalize: true })
    finalized.push(c.id)
  }
  for (const day of ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']) {
    pending.push((await sellDemoContract(t, demo, { saleDate: day })).id)
  }
})
after(async () => {
  await t.close()
})

/** Moves the clock, and signs the users in again (their tokens expire with the moved clock). */
async function moveTo(at: Date): Promise<void> {
  t.clock.set(at)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  other.headers = await loginHeaders(t, other.apiKey, other.adminEmail, other.adminPassword)
}

async function statuses(ids: number[]): Promise<string[]> {
  const rows = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract')
      .select(['id', 'status'])
      .where('tenant_id', '=', demo.tenantId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute(),
  )
  return rows.map((r) => r.status)
}

async function historyCount(ids: number[], toStatus: 'ACTIVE' | 'EXPIRED' | 'VOIDED'): Promise<number> {
  const rows = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract_status_history')
      .select('contract_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('contract_id', 'in', ids)
      .where('to_status', '=', toStatus)
      .execute(),
  )
  return rows.length
}

async function start(process: string, parameters: Record<string, unknown> = {}): Promise<Run> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/automatic-process-runs',
    headers: demo.headers,
    payload: { process, parameters },
  })
  assert.equal(res.statusCode, 202, res.body)
  const run = json<Run>(res)
  assert.equal(res.headers.location, `/api/automatic-process-runs/${run.guid}`)
  assert.equal(run.status, 'QUEUED')
  assert.equal(run.slot, null)
  return run
}

async function read(guid: string, headers = demo.headers) {
  return t.app.inject({ method: 'GET', url: `/api/automatic-process-runs/${guid}`, headers })
}

test('ACTIVATION makes finalized contracts ACTIVE once their effective date has come, batch by batch', async () => {
  // Before the effective date nothing is due.
  const early = await start('ACTIVATION')
  await t.modules.processes.service.work(demo.tenantId)
  const done = json<Run>(await read(early.guid))
  assert.equal(done.status, 'SUCCEEDED')
  assert.equal(done.examined, 0)

  await moveTo(new Date('2026-12-11T18:00:00.000Z'))
  // The administrator's edit lock on the second contract: that item fails, the run goes on.
  const lock = await t.app.inject({
    method: 'POST',
    url: `/api/contracts/${finalized[1]}/lock`,
    headers: demo.headers,
    payload: {},
  })
  assert.ok(lock.statusCode < 300, lock.body)
  const run = await start('ACTIVATION', { batchSize: 2 })
  assert.equal(await t.modules.processes.service.work(demo.tenantId), 1)
  const first = json<Run>(await read(run.guid))
  assert.equal(first.status, 'SUCCEEDED')
  assert.deepEqual([first.examined, first.changed, first.failed], [3, 2, 1])
  assert.deepEqual(
    first.errors.map((e) => [(e as { itemId: number }).itemId, (e as { code: string }).code]),
    [[finalized[1], 'contract_locked']],
  )
  assert.equal(first.cursor, Math.max(...finalized))
  assert.ok(first.durationMs !== null && first.durationMs >= 0)
  assert.deepEqual(await statuses(finalized), ['ACTIVE', 'FINALIZED', 'ACTIVE'])
  // Unlocked, the next run activates it; a run after that finds nothing due.
  const unlock = await t.app.inject({
    method: 'DELETE',
    url: `/api/contracts/${finalized[1]}/lock`,
    headers: demo.headers,
  })
  assert.ok(unlock.statusCode < 300, unlock.body)
  const again = await start('ACTIVATION')
  await t.modules.processes.service.work(demo.tenantId)
  assert.deepEqual([json<Run>(await read(again.guid)).changed, json<Run>(await read(again.guid)).failed], [1, 0])
  assert.deepEqual(await statuses(finalized), ['ACTIVE', 'ACTIVE', 'ACTIVE'])
  assert.equal(await historyCount(finalized, 'ACTIVE'), 3)
  const last = await start('ACTIVATION')
  await t.modules.processes.service.work(demo.tenantId)
  assert.equal(json<Run>(await read(last.guid)).examined, 0)
})

test('start: an unknown process or parameter is a 422 naming the field; another tenant reads a 404', async () => {
  for (const [payload, field] of [
    [{ process: 'NOPE' }, 'process'],
    [{ process: 'EXPIRY', parameters: { colour: 'red' } }, 'parameters.colour'],
    [{ process: 'EXPIRY', parameters: { batchSize: 0 } }, 'parameters.batchSize'],
  ] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/automatic-process-runs',
      headers: demo.headers,
      payload,
    })
    assert.equal(res.statusCode, 422, res.body)
    const body = json<{ code: string; errors: Array<{ field: string }> }>(res)
    assert.equal(body.code, 'process_run_invalid')
    assert.deepEqual(
      body.errors.map((e) => e.field),
      [field],
    )
  }
  const run = await start('VOID', { batchSize: 1000 })
  assert.equal((await read(run.guid, other.headers)).statusCode, 404)
  const patch = await t.app.inject({
    method: 'PATCH',
    url: `/api/automatic-process-runs/${run.guid}`,
    headers: other.headers,
    payload: { status: 'CANCELLED' },
  })
  assert.equal(patch.statusCode, 404)
  const list = await t.app.inject({ method: 'GET', url: '/api/automatic-process-runs', headers: other.headers })
  assert.equal(json<{ totalCount: number }>(list).totalCount, 0)
  // A queued run cancelled never starts.
  const cancelled = await t.app.inject({
    method: 'PATCH',
    url: `/api/automatic-process-runs/${run.guid}`,
    headers: demo.headers,
    payload: { status: 'CANCELLED' },
  })
  assert.equal(cancelled.statusCode, 200, cancelled.body)
  assert.equal(json<Run>(cancelled).status, 'CANCELLED')
  await t.modules.processes.service.work(demo.tenantId)
  assert.equal(json<Run>(await read(run.guid)).examined, 0)
})

test('VOID: an instance killed mid-run leaves its lease; another resumes from the cursor and changes nothing twice', async () => {
  // pendingContractVoidAfterDays (90) later.
  await moveTo(new Date('2027-02-27T18:00:00.000Z'))
  const run = await start('VOID', { batchSize: 2 })
  const a = t.modules.processes
  const b = createModules({
    config: TEST_CONFIG,
    db: t.db,
    clock: t.clock,
    bus: t.bus,
    secrets: TEST_SECRETS,
  }).processes
  // Instance A does one batch, then "dies": the run stays RUNNING under its lease.
  assert.equal(await a.service.work(demo.tenantId, { maxBatches: 1 }), 1)
  const mid = json<Run>(await read(run.guid))
  assert.equal(mid.status, 'RUNNING')
  assert.deepEqual([mid.examined, mid.changed], [2, 2])
  assert.equal(mid.cursor, pending[1])
  // While the lease holds, B leaves the run alone.
  assert.equal(await b.service.work(demo.tenantId), 0)
  t.clock.advance(a.options.leaseMs + 1000)
  assert.equal(await b.service.work(demo.tenantId), 1)
  const done = json<Run>(await read(run.guid))
  assert.equal(done.status, 'SUCCEEDED')
  assert.deepEqual([done.examined, done.changed, done.failed], [6, 6, 0])
  assert.deepEqual(await statuses(pending), Array(6).fill('VOIDED'))
  assert.equal(await historyCount(pending, 'VOIDED'), 6)
  // A's batch after its lease was taken over does nothing.
  const finished = await t.app.inject({
    method: 'PATCH',
    url: `/api/automatic-process-runs/${run.guid}`,
    headers: demo.headers,
    payload: { status: 'CANCELLED' },
  })
  assert.equal(finished.statusCode, 409, finished.body)
  assert.equal(json<{ code: string }>(finished).code, 'process_run_finished')
})

test('EXPIRY: a running run cancelled stops at its next batch; a later run expires the rest', async () => {
  const contract = await t.app.inject({ method: 'GET', url: `/api/contracts/${finalized[0]}`, headers: demo.headers })
  const expiration = json<{ expirationDate: string }>(contract).expirationDate
  await moveTo(new Date(Date.parse(`${expiration}T18:00:00.000Z`) + 2 * 86_400_000))
  const run = await start('EXPIRY', { batchSize: 1 })
  await t.modules.processes.service.work(demo.tenantId, { maxBatches: 1 })
  assert.equal(json<Run>(await read(run.guid)).status, 'RUNNING')
  const cancelled = await t.app.inject({
    method: 'PATCH',
    url: `/api/automatic-process-runs/${run.guid}`,
    headers: demo.headers,
    payload: { status: 'CANCELLED' },
  })
  assert.equal(cancelled.statusCode, 200, cancelled.body)
  assert.equal(json<Run>(cancelled).status, 'CANCELLED')
  await t.modules.processes.service.work(demo.tenantId)
  const stopped = json<Run>(await read(run.guid))
  assert.deepEqual([stopped.status, stopped.examined, stopped.changed], ['CANCELLED', 1, 1])
  assert.deepEqual(await statuses(finalized), ['EXPIRED', 'ACTIVE', 'ACTIVE'])

  const rest = await start('EXPIRY')
  await t.modules.processes.service.work(demo.tenantId)
  assert.deepEqual(
    [json<Run>(await read(rest.guid)).status, json<Run>(await read(rest.guid)).changed],
    ['SUCCEEDED', 2],
  )
  assert.deepEqual(await statuses(finalized), ['EXPIRED', 'EXPIRED', 'EXPIRED'])
  assert.equal(await historyCount(finalized, 'EXPIRED'), 3)

  const list = await t.app.inject({
    method: 'GET',
    url: '/api/automatic-process-runs?process=EXPIRY&status=CANCELLED',
    headers: demo.headers,
  })
  assert.equal(list.statusCode, 200, list.body)
  assert.deepEqual(
    json<{ items: Run[] }>(list).items.map((r) => r.guid),
    [run.guid],
  )
})

test('two scheduler instances on one database start each slot once, at its time of day in the tenant zone', async () => {
  const b = createModules({
    config: TEST_CONFIG,
    db: t.db,
    clock: t.clock,
    bus: t.bus,
    secrets: TEST_SECRETS,
  }).processes
  // 00:30 in Chicago (06:30 UTC in winter): before every default time of day (01:00 and later).
  await moveTo(new Date('2030-01-15T06:30:00.000Z'))
  await Promise.all([t.modules.processes.service.tick(ownTenant()), b.service.tick(ownTenant())])
  const slotRuns = () =>
    t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('automatic_process_run')
        .select(['process', 'status'])
        .where('tenant_id', '=', demo.tenantId)
        .where('slot', '=', '2030-01-15')
        .orderBy('process')
        .execute(),
    )
  assert.deepEqual(await slotRuns(), [])
  // 01:20: ACTIVATION (01:00) and EXPIRY (01:15) are due, VOID (01:30) not yet.
  await moveTo(new Date('2030-01-15T07:20:00.000Z'))
  await Promise.all([t.modules.processes.service.tick(ownTenant()), b.service.tick(ownTenant())])
  assert.deepEqual(
    (await slotRuns()).map((r) => [r.process, r.status]),
    [
      ['ACTIVATION', 'SUCCEEDED'],
      ['EXPIRY', 'SUCCEEDED'],
    ],
  )
  await moveTo(new Date('2030-01-15T23:00:00.000Z'))
  await Promise.all([
    t.modules.processes.service.tick(ownTenant()),
    b.service.tick(ownTenant()),
    b.service.tick(ownTenant()),
  ])
  // Every daily process of the day by 23:00 (the monthly ones have the month's slot: processes.catalog.test.ts).
  assert.deepEqual(
    (await slotRuns()).map((r) => r.process),
    ['ACTIVATION', 'CLAIMS_DENIAL', 'EXPIRY', 'GAP_AUTO_CANCEL', 'VOID'],
  )
  // A process whose setting is null is not scheduled.
  const off = await t.app.inject({
    method: 'PUT',
    url: '/api/generalsettings/18',
    headers: demo.headers,
    payload: { value: null },
  })
  assert.ok(off.statusCode < 300, off.body)
  await moveTo(new Date('2030-01-16T23:00:00.000Z'))
  await t.modules.processes.service.tick(ownTenant())
  const next = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('automatic_process_run')
      .select('process')
      .where('tenant_id', '=', demo.tenantId)
      .where('slot', '=', '2030-01-16')
      .orderBy('process')
      .execute(),
  )
  assert.deepEqual(
    next.map((r) => r.process),
    ['ACTIVATION', 'CLAIMS_DENIAL', 'EXPIRY', 'GAP_AUTO_CANCEL'],
  )
  // The loop starts and stops cleanly.
  b.scheduler.start()
  assert.equal(b.scheduler.running, true)
  await b.scheduler.stop()
  assert.equal(b.scheduler.running, false)
})
