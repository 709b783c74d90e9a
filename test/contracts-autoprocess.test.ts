// Automatic expiry and voiding by hand (docs/contracts.md "Automatic expiry and voiding"):
// GET/POST /contracts/autoexpire and /contracts/autovoidable under a moved clock. Expiry by date and
// by mileage (a claim's odometer, accepted or refused past the limit, is the contract's latest known
// one), the EXPIRY process expiring by mileage too, voiding after pendingContractVoidAfterDays, the
// 409s naming why, another tenant's 404, and a dealer-side user's view.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  loginHeaders,
  type TestApp,
  type TestTenant,
} from './harness.ts'

type Contract = { id: number; contractNumber: string; status: string }
type Due = {
  contractId: number
  contractNumber: string
  dealerId: number
  productType: string
  status: string
  expirationDate: string
  reason: string
  reasons: string[]
  expiresOn: string
  mileage: {
    saleOdometer: number | null
    termMiles: number | null
    expirationOdometer: number | null
    lastOdometer: { odometer: number; readOn: string; source: { type: string; id: number | null } } | null
    milesLeft: number | null
  }
}
type Voidable = {
  contractId: number
  status: string
  pendingDays: number
  voidAfterDays: number
  voidableSince: string
}
type Change = {
  contractId: number
  event: string
  fromStatus: string
  toStatus: string
  effectiveDate: string
  reason: string
  historyId: number
}
type Problem = { code: string; detail: string }

// Sold in March 2026 (PLAT-USED, sale odometer 42,150; a waiting period of 30 days and 1,000 miles).
const SOLD = new Date('2026-03-20T18:00:00Z')
const JUNE = new Date('2026-06-01T18:00:00Z')
const JULY = new Date('2026-07-01T18:00:00Z')

let t: TestApp
let demo: DemoTestTenant
let other: TestTenant
/** Dealer 10001's contracts: A (date expiry), B (mileage, by hand), D (mileage, by the process). */
let a: Contract
let b: Contract
let d: Contract
/** Dealer 10002's. */
let c: Contract
let pending: Contract
let otherPending: Contract
let facilityId: number
let dealerId: number
let limitB: number
let lookups: { complaint: number; cause: number; correction: number }
let dealerUser: { headers: Record<string, string>; email: string; password: string }
let dealerRunner: { headers: Record<string, string>; email: string; password: string }

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  other = await createTenant(t, 'Autoprocess other tenant')
  const sell = (saleDate: string, extra: Record<string, unknown> = {}) =>
    sellDemoContract<Contract>(t, demo, { saleDate, finalize: true, ...extra })
  a = await sell('2026-03-10')
  b = await sell('2026-03-11')
  d = await sell('2026-03-12')
  c = await sell('2026-03-10', { dealerNumber: DEMO.otherDealerNumber })
  pending = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-13' })
  otherPending = await sellDemoContract<Contract>(t, demo, {
    saleDate: '2026-03-13',
    dealerNumber: DEMO.otherDealerNumber,
  })
  const ids = await t.db.read(demo.tenantId, async (x) => ({
    b: await x
      .selectFrom('contract')
      .select(['dealer_id', 'expiration_odometer'])
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow(),
    facility: await x
      .selectFrom('account_holder')
      .select('id')
      .where('tenant_id', '=', demo.tenantId)
      .where('kind', '=', 'REPAIR_FACILITY')
      .where('business_key', '=', 'RF-ATX')
      .executeTakeFirstOrThrow(),
  }))
  dealerId = ids.b.dealer_id
  limitB = ids.b.expiration_odometer!
  facilityId = ids.facility.id
  const group = await inject('POST', '/api/portalvisibilitygroups', {
    code: 'PORTAL-AUTO',
    name: 'Auto-expiry portal',
    dealerIds: [dealerId],
  })
  assert.equal(group.statusCode, 201, group.body)
  const groups = [{ id: json<{ id: number }>(group).id }]
  dealerUser = await createUserWithRoles(t, demo, ['DEALER_USER'], { groups })
  dealerRunner = await createUserWithRoles(t, demo, ['ACCOUNTING'], { groups })
  await moveTo(JUNE)
  const first = async (url: string) => json<Array<{ id: number }>>(await inject('GET', `${url}?limit=1`))[0]!.id
  lookups = {
    complaint: await first('/api/claims/complaints'),
    cause: await first('/api/claims/causes'),
    correction: await first('/api/claims/corrections'),
  }
})
after(() => t.close())

/** Moves the clock and signs everybody in again (tokens expire with the moved clock). */
async function moveTo(at: Date) {
  t.clock.set(at)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  other.headers = await loginHeaders(t, other.apiKey, other.adminEmail, other.adminPassword)
  for (const u of [dealerUser, dealerRunner].filter(Boolean))
    u.headers = await loginHeaders(t, demo.apiKey, u.email, u.password)
}

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, h: Record<string, string> = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })

const claim = (contractId: number, lossDate: string, odometer: number) =>
  inject('POST', '/api/claims', {
    contractId,
    lossDate,
    odometer,
    repairFacilityId: facilityId,
    repairOrderNumber: `RO-${odometer}`,
    jobs: [
      {
        complaintId: lookups.complaint,
        causeId: lookups.cause,
        correctionId: lookups.correction,
        coverageComponentCode: 'block',
        labor: [{ operationCode: 'DIAG', hours: 1, rate: 100 }],
      },
    ],
  })

async function dueList(query = '', h = demo.headers) {
  const res = await inject('GET', `/api/contracts/autoexpire${query}`, undefined, h)
  assert.equal(res.statusCode, 200, res.body)
  return { items: json<Due[]>(res), total: Number(res.headers['x-total-count']) }
}

async function voidableList(query = '', h = demo.headers) {
  const res = await inject('GET', `/api/contracts/autovoidable${query}`, undefined, h)
  assert.equal(res.statusCode, 200, res.body)
  return { items: json<Voidable[]>(res), total: Number(res.headers['x-total-count']) }
}

async function row(id: number) {
  return t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract')
      .select(['status', 'version', 'expiration_date', 'last_odometer', 'last_odometer_on', 'last_odometer_source'])
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  )
}

async function audits(id: number, action: string) {
  return t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('tenant_id', '=', demo.tenantId)
      .where('entity_type', '=', 'contract')
      .where('entity_id', '=', String(id))
      .where('action', '=', action)
      .orderBy('id')
      .execute(),
  )
}

test('a claim reports its odometer; a claim refused past the limit makes the contract due by mileage', async () => {
  assert.deepEqual((await dueList()).items, [])
  // An accepted claim: the latest known odometer, source CLAIM with the claim's id; no new version.
  const before_ = await row(b.id)
  const taken = await claim(b.id, '2026-05-20', 45000)
  assert.equal(taken.statusCode, 201, taken.body)
  const claimId = json<{ id: number }>(taken).id
  const afterClaim = await row(b.id)
  assert.deepEqual(
    [afterClaim.last_odometer, afterClaim.last_odometer_on, afterClaim.last_odometer_source],
    [45000, '2026-05-20', 'CLAIM'],
  )
  assert.equal(afterClaim.version, before_.version)
  assert.equal((await audits(b.id, 'contract.odometer_recorded')).length, 1)
  assert.deepEqual((await dueList()).items, [])

  // Refused past the limit: no claim, but the reading is kept, and the contract is due by MILEAGE.
  const refused = await claim(b.id, '2026-05-25', limitB + 260)
  assert.equal(refused.statusCode, 422, refused.body)
  assert.ok(refused.body.includes('at_or_above_expiration_odometer'))
  const { items, total } = await dueList()
  assert.equal(total, 1)
  const due = items[0]!
  assert.equal(due.contractId, b.id)
  assert.equal(due.status, 'ACTIVE')
  assert.equal(due.reason, 'MILEAGE')
  assert.deepEqual(due.reasons, ['MILEAGE'])
  assert.equal(due.expiresOn, '2026-05-25')
  assert.equal(due.mileage.saleOdometer, 42150)
  assert.equal(due.mileage.expirationOdometer, limitB)
  assert.equal(due.mileage.expirationOdometer, 42150 + due.mileage.termMiles!)
  assert.deepEqual(due.mileage.lastOdometer, {
    odometer: limitB + 260,
    readOn: '2026-05-25',
    source: { type: 'CLAIM_INTAKE', id: null },
  })
  assert.equal(due.mileage.milesLeft, -260)
  // A reading before the one kept, and an absurd one, are left aside.
  assert.equal((await claim(d.id, '2026-05-20', 9_000_000)).statusCode, 422)
  assert.equal((await row(d.id)).last_odometer, null)
  // Filters: reason, dealer, product type; as of a day before the reading, nothing yet.
  assert.equal((await dueList('?reason=DATE')).total, 0)
  assert.equal((await dueList('?reason=MILEAGE')).total, 1)
  assert.equal((await dueList(`?dealerId=${dealerId}`)).total, 1)
  assert.equal((await dueList(`?dealerId=${dealerId + 100000}`)).total, 0)
  assert.equal((await dueList('?productType=vsc')).total, 1)
  assert.equal((await dueList('?productType=GAP')).total, 0)
  assert.equal((await dueList('?asOf=2026-05-24')).total, 0)
  assert.equal(claimId > 0, true)
})

test('POST autoexpire: expires a contract due by mileage from the reading day; the 409s name why', async () => {
  // Not due: the date, the limit and the latest reading in the message.
  const early = await inject('POST', `/api/contracts/autoexpire/${a.id}`, {})
  assert.equal(early.statusCode, 409, early.body)
  const p = json<Problem>(early)
  assert.equal(p.code, 'contract_not_expired')
  assert.match(p.detail, /runs through \d{4}-\d{2}-\d{2}/)
  assert.match(p.detail, /no odometer reading/)
  // A dealer-side user lacks processes:run; a dealer-side runner cannot see dealer 10002's contract.
  assert.equal((await inject('POST', `/api/contracts/autoexpire/${b.id}`, {}, dealerUser.headers)).statusCode, 403)
  assert.equal((await inject('POST', `/api/contracts/autoexpire/${c.id}`, {}, dealerRunner.headers)).statusCode, 404)
  // Another tenant: 404.
  assert.equal((await inject('POST', `/api/contracts/autoexpire/${b.id}`, {}, other.headers)).statusCode, 404)
  assert.equal(
    (await inject('GET', '/api/contracts/autoexpire', undefined, other.headers)).headers['x-total-count'],
    '0',
  )

  const res = await inject('POST', `/api/contracts/autoexpire/${b.id}`)
  assert.equal(res.statusCode, 200, res.body)
  const change = json<Change>(res)
  assert.deepEqual(
    [change.contractId, change.event, change.fromStatus, change.toStatus, change.effectiveDate, change.reason],
    [b.id, 'EXPIRE', 'ACTIVE', 'EXPIRED', '2026-05-25', 'MILEAGE'],
  )
  assert.equal((await row(b.id)).status, 'EXPIRED')
  const history = json<{ items: Array<{ event: string; effectiveDate: string; source: { type: string } }> }>(
    await inject('GET', `/api/contracts/${b.id}/statushistory`),
  )
  const last = history.items.at(-1)!
  assert.deepEqual([last.event, last.effectiveDate, last.source.type], ['EXPIRE', '2026-05-25', 'CONTRACT'])
  const [audit] = await audits(b.id, 'contract.expired')
  assert.equal((audit!.changes as { reason: string }).reason, 'MILEAGE')
  const events = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('event_outbox')
      .select('type')
      .where('tenant_id', '=', demo.tenantId)
      .where('type', '=', 'contract.expired')
      .execute(),
  )
  assert.equal(events.length, 1)
  // Done once: the second is a state conflict; the list no longer shows it.
  const again = await inject('POST', `/api/contracts/autoexpire/${b.id}`, {})
  assert.equal(again.statusCode, 409)
  assert.equal(json<Problem>(again).code, 'contract_state_conflict')
  assert.equal((await dueList()).total, 0)
  // A pending contract is not in force.
  const pend = await inject('POST', `/api/contracts/autoexpire/${pending.id}`, {})
  assert.equal(json<Problem>(pend).code, 'contract_state_conflict')
})

test('the EXPIRY process expires by mileage too (dueForProcess)', async () => {
  const limitD = (await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract')
      .select('expiration_odometer')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow(),
  ))!.expiration_odometer!
  const ids = await t.modules.contracts.dueForProcess(demo.tenantId, {
    event: 'EXPIRE',
    today: '2026-06-01',
    afterId: 0,
    limit: 100,
  })
  assert.deepEqual(ids, [])
  assert.equal((await claim(d.id, '2026-05-28', limitD)).statusCode, 422)
  assert.deepEqual(
    await t.modules.contracts.dueForProcess(demo.tenantId, {
      event: 'EXPIRE',
      today: '2026-06-01',
      afterId: 0,
      limit: 100,
    }),
    [d.id],
  )
  const run = await inject('POST', '/api/automatic-process-runs', { process: 'EXPIRY', parameters: {} })
  assert.equal(run.statusCode, 202, run.body)
  await t.modules.processes.service.work(demo.tenantId)
  assert.equal((await row(d.id)).status, 'EXPIRED')
  // The same contract by hand now: 409, nothing expired twice.
  const late = await inject('POST', `/api/contracts/autoexpire/${d.id}`, {})
  assert.equal(json<Problem>(late).code, 'contract_state_conflict')
  const history = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract_status_history')
      .select('event')
      .where('tenant_id', '=', demo.tenantId)
      .where('contract_id', '=', d.id)
      .where('event', '=', 'EXPIRE')
      .execute(),
  )
  assert.equal(history.length, 1)
})

test('the EXPIRY process dates an expiry by mileage from the reading day, as the POST does', async () => {
  const history = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract_status_history')
      .select('effective_date')
      .where('tenant_id', '=', demo.tenantId)
      .where('contract_id', '=', d.id)
      .where('event', '=', 'EXPIRE')
      .execute(),
  )
  assert.deepEqual(
    history.map((h) => h.effective_date),
    ['2026-05-28'],
  )
})

test('autovoidable: PENDING contracts older than pendingContractVoidAfterDays; a dealer-side user sees its own', async () => {
  // 73 days after the sale: not yet (the setting is 90).
  assert.equal((await voidableList()).total, 0)
  const early = await inject('POST', `/api/contracts/autovoidable/${pending.id}`, {})
  assert.equal(early.statusCode, 409, early.body)
  assert.equal(json<Problem>(early).code, 'contract_not_voidable')
  assert.match(json<Problem>(early).detail, /pendingContractVoidAfterDays 90/)

  await moveTo(JULY)
  const all = await voidableList()
  assert.deepEqual(
    all.items.map((v) => v.contractId),
    [pending.id, otherPending.id],
  )
  assert.equal(all.items[0]!.status, 'PENDING')
  assert.equal(all.items[0]!.voidAfterDays, 90)
  assert.equal(all.items[0]!.pendingDays, 103)
  assert.equal(all.items[0]!.voidableSince, '2026-06-18T18:00:00.000Z')
  const mine = await voidableList('', dealerUser.headers)
  assert.deepEqual(
    mine.items.map((v) => v.contractId),
    [pending.id],
  )
  assert.equal((await voidableList('?limit=1&offset=1')).items[0]!.contractId, otherPending.id)
  assert.equal((await voidableList('', other.headers)).total, 0)
  assert.equal((await inject('POST', `/api/contracts/autovoidable/${pending.id}`, {}, other.headers)).statusCode, 404)
  assert.equal(
    (await inject('POST', `/api/contracts/autovoidable/${otherPending.id}`, {}, dealerRunner.headers)).statusCode,
    404,
  )
  // A finalized contract is not pending.
  const finalized = await inject('POST', `/api/contracts/autovoidable/${a.id}`, {})
  assert.equal(json<Problem>(finalized).code, 'contract_state_conflict')

  const res = await inject('POST', `/api/contracts/autovoidable/${pending.id}`)
  assert.equal(res.statusCode, 200, res.body)
  const change = json<Change>(res)
  assert.deepEqual(
    [change.event, change.fromStatus, change.toStatus, change.effectiveDate, change.reason],
    ['VOID', 'PENDING', 'VOIDED', '2026-07-01', 'PENDING_TOO_LONG'],
  )
  assert.equal((await row(pending.id)).status, 'VOIDED')
  assert.equal((await audits(pending.id, 'contract.voided')).length, 1)
  assert.equal(
    json<Problem>(await inject('POST', `/api/contracts/autovoidable/${pending.id}`, {})).code,
    'contract_state_conflict',
  )
  assert.deepEqual(
    (await voidableList()).items.map((v) => v.contractId),
    [otherPending.id],
  )
})

test('by date: due the day after the expiration date; a preview as of a later day; a dealer-side view', async () => {
  const expiration = (await row(a.id)).expiration_date
  // A preview: as of the day after the expiration date, A and C (dealer 10002) are due by DATE.
  const next = new Date(`${expiration}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  const dayAfter = next.toISOString().slice(0, 10)
  assert.equal((await dueList(`?asOf=${expiration}`)).total, 0)
  const preview = await dueList(`?asOf=${dayAfter}`)
  assert.deepEqual(
    preview.items.map((x) => [x.contractId, x.reason, x.expiresOn]),
    [
      [a.id, 'DATE', dayAfter],
      [c.id, 'DATE', dayAfter],
    ],
  )
  // Not due today: 409.
  assert.equal((await inject('POST', `/api/contracts/autoexpire/${a.id}`, {})).statusCode, 409)

  await moveTo(new Date(`${dayAfter}T18:00:00Z`))
  const mine = await dueList('', dealerUser.headers)
  assert.deepEqual(
    mine.items.map((x) => x.contractId),
    [a.id],
  )
  assert.equal((await dueList()).total, 2)
  const res = await inject('POST', `/api/contracts/autoexpire/${a.id}`, {}, dealerRunner.headers)
  assert.equal(res.statusCode, 200, res.body)
  const change = json<Change>(res)
  assert.deepEqual([change.toStatus, change.effectiveDate, change.reason], ['EXPIRED', dayAfter, 'DATE'])
  assert.deepEqual(
    (await dueList()).items.map((x) => x.contractId),
    [c.id],
  )
})

test('bad input: a malformed as-of date or reason is a 400 naming the field, never a 5xx', async () => {
  for (const query of [
    '?asOf=2026-13-01',
    '?asOf=yesterday',
    '?reason=SPEED',
    '?productType=' + 'X'.repeat(41),
    '?dealerId=0',
  ]) {
    const res = await inject('GET', `/api/contracts/autoexpire${query}`)
    assert.equal(res.statusCode, 400, `${query}: ${res.body}`)
  }
  assert.equal((await inject('POST', '/api/contracts/autoexpire/abc', {})).statusCode, 400)
  assert.equal((await inject('POST', '/api/contracts/autoexpire/99999999999', {})).statusCode, 404)
  assert.equal((await inject('POST', '/api/contracts/autovoidable/99999999999', {})).statusCode, 404)
})
