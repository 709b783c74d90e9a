// POST /api/contracts/denyClaims over HTTP on the demo tenant (docs/claims.md "Denying the claims of
// ended contracts"): a cancelled contract's claims still being decided whose loss is on or after the
// cancel date are denied with the tenant's CONTRACT_NOT_IN_FORCE reason (audited, announced); losses
// before stay payable; a claim whose payment was requested and settled claims are left; a contract
// that has not ended is listed and left; an invisible contract is a 404 before anything is done.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

// Contracts are sold in March 2026 (PLAT-USED: a waiting period of 30 days and 1,000 miles); the
// claims are taken, and the contracts cancelled as of 2026-05-15, in June.
const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-06-01T18:00:00Z')
const CANCEL_DATE = '2026-05-15'

type Contract = { id: number; contractNumber: string; status: string }
type ClaimResult = {
  claimId: number
  claimNumber: string
  lossDate: string
  before: string
  after: string
  denied: boolean
  reason: string
}
type ContractResult = {
  contractId: number
  contractNumber: string
  status: string
  coverageEnded: { kind: string; from: string } | null
  reason: string
  claims: ClaimResult[]
}
type Reply = { deniedCount: number; contracts: ContractResult[] }

let t: TestApp
let demo: DemoTestTenant
let facilityId: number
let cancelled: Contract
let active: Contract
let otherDealers: Contract
/** Cancelled within a test of its own. */
let fresh: Contract
let dealerUser: { headers: Record<string, string> }
let reasonId: number
/** The claims of `cancelled` by their loss dates. */
const claims: Record<string, number> = {}

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, h: Record<string, string> = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })

async function take(contractId: number, lossDate: string, odometer: number): Promise<number> {
  const res = await inject('POST', '/api/claims', { contractId, lossDate, odometer, repairFacilityId: facilityId })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

async function cancel(contractId: number) {
  const res = await inject('POST', `/api/contracts/${contractId}/cancels`, {
    cancelDate: CANCEL_DATE,
    cancelOdometer: 45100,
    cancelReasonCode: 'CUSTOMER_REQUEST',
    includeOpenClaims: true,
  })
  assert.equal(res.statusCode, 201, res.body)
}

const setStatus = (id: number, status: string) =>
  t.db.transaction(demo.tenantId, (tx) =>
    sql`update claim set status = ${status} where tenant_id = ${demo.tenantId} and id = ${id}`.execute(tx),
  )

const claimRow = (id: number) =>
  t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('claim')
      .select(['status', 'denied_reason_id', 'version'])
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  )

async function denyClaims(body: unknown, h = demo.headers): Promise<Reply> {
  const res = await inject('POST', '/api/contracts/denyClaims', body, h)
  assert.equal(res.statusCode, 200, res.body)
  return json<Reply>(res)
}

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  cancelled = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-10', finalize: true })
  active = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-11', finalize: true })
  fresh = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-13', finalize: true })
  otherDealers = await sellDemoContract<Contract>(t, demo, {
    saleDate: '2026-03-12',
    dealerNumber: DEMO.otherDealerNumber,
    finalize: true,
  })
  const ids = await t.db.read(demo.tenantId, async (x) => ({
    dealer: await x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', cancelled.id)
      .executeTakeFirstOrThrow(),
    facility: await x
      .selectFrom('account_holder')
      .select('id')
      .where('tenant_id', '=', demo.tenantId)
      .where('business_key', '=', 'RF-ATX')
      .executeTakeFirstOrThrow(),
  }))
  facilityId = ids.facility.id
  const group = await inject('POST', '/api/portalvisibilitygroups', {
    code: 'PORTAL-DENY',
    name: 'Deny portal',
    dealerIds: [ids.dealer.dealer_id],
  })
  assert.equal(group.statusCode, 201, group.body)
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  dealerUser = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'], {
    groups: [{ id: json<{ id: number }>(group).id }],
  })
  const reasons = json<Array<{ id: number; code: string }>>(await inject('GET', '/api/claims/deniedReasons'))
  reasonId = reasons.find((r) => r.code === 'CONTRACT_NOT_IN_FORCE')!.id
  // The claims, taken while the contract was in force (odometers rising with the loss dates).
  claims.before = await take(cancelled.id, '2026-05-01', 45000)
  claims.onCancelDate = await take(cancelled.id, CANCEL_DATE, 45100)
  claims.after = await take(cancelled.id, '2026-05-20', 45200)
  claims.voided = await take(cancelled.id, '2026-05-22', 45300)
  claims.paymentRequested = await take(cancelled.id, '2026-05-25', 45400)
  await take(active.id, '2026-05-20', 45200)
  await take(otherDealers.id, '2026-05-20', 45200)
  await cancel(cancelled.id)
  // Statuses the adjuster's workflow reaches (written directly: this file tests the denial, not them).
  await setStatus(claims.voided, 'VOIDED')
  await setStatus(claims.paymentRequested, 'PENDING_PAYMENT')
})
after(() => t.close())

describe('POST /api/contracts/denyClaims', () => {
  test('a cancelled contract: losses on or after the cancel date denied, earlier ones left, each saying why', async () => {
    const reply = await denyClaims({ contractId: cancelled.id })
    assert.equal(reply.deniedCount, 2)
    assert.equal(reply.contracts.length, 1)
    const c = reply.contracts[0]!
    assert.equal(c.contractId, cancelled.id)
    assert.equal(c.contractNumber, cancelled.contractNumber)
    assert.equal(c.status, 'CANCELLED')
    assert.deepEqual(c.coverageEnded, { kind: 'CANCELLED', from: CANCEL_DATE })
    assert.match(c.reason, /cancelled as of 2026-05-15: 2 of its 5 claim\(s\) denied/)
    const by = new Map(c.claims.map((r) => [r.claimId, r]))
    assert.deepEqual(
      c.claims.map((r) => r.claimId),
      [claims.before, claims.onCancelDate, claims.after, claims.voided, claims.paymentRequested],
      'every claim, oldest first',
    )
    const row = (id: number) => {
      const r = by.get(id)!
      return [r.lossDate, r.before, r.after, r.denied]
    }
    assert.deepEqual(row(claims.before!), ['2026-05-01', 'OPEN', 'OPEN', false])
    assert.match(by.get(claims.before!)!.reason, /stays payable/)
    assert.deepEqual(row(claims.onCancelDate!), [CANCEL_DATE, 'OPEN', 'DENIED', true])
    assert.deepEqual(row(claims.after!), ['2026-05-20', 'OPEN', 'DENIED', true])
    assert.match(by.get(claims.after!)!.reason, /not covered: the contract was cancelled as of 2026-05-15/)
    assert.deepEqual(row(claims.voided!), ['2026-05-22', 'VOIDED', 'VOIDED', false])
    assert.deepEqual(row(claims.paymentRequested!), ['2026-05-25', 'PENDING_PAYMENT', 'PENDING_PAYMENT', false])
    assert.match(by.get(claims.paymentRequested!)!.reason, /withdraw the payment request/)
    assert.match(by.get(claims.after!)!.claimNumber, /^CLM-/)

    // Stored: DENIED with the tenant's CONTRACT_NOT_IN_FORCE reason, a new version; the others as they were.
    const denied = await claimRow(claims.after!)
    assert.equal(denied.status, 'DENIED')
    assert.equal(denied.denied_reason_id, reasonId)
    assert.equal(denied.version, 2)
    assert.equal((await claimRow(claims.before!)).status, 'OPEN')
    assert.equal((await claimRow(claims.paymentRequested!)).status, 'PENDING_PAYMENT')
    const read = await inject('GET', `/api/claims/${claims.after}`)
    assert.equal(read.statusCode, 200, read.body)
    assert.equal(json<{ status: string }>(read).status, 'DENIED')

    // Audited and announced, once per claim denied.
    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['entity_id', 'changes'])
        .where('tenant_id', '=', demo.tenantId)
        .where('action', '=', 'claim.denied')
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => Number(a.entity_id)),
      [claims.onCancelDate, claims.after],
    )
    const changes = audit[1]!.changes as unknown as Record<string, unknown>
    assert.deepEqual(changes.before, { status: 'OPEN', deniedReasonId: null })
    assert.deepEqual(changes.after, { status: 'DENIED', deniedReasonId: reasonId })
    assert.equal(changes.source, 'CONTRACT_ENDED')
    const events = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('event_outbox')
        .select(['payload'])
        .where('tenant_id', '=', demo.tenantId)
        .where('type', '=', 'claim.denied')
        .orderBy('id')
        .execute(),
    )
    assert.equal(events.length, 2)
    const payload = events[1]!.payload as unknown as Record<string, unknown>
    assert.equal(payload.claimId, claims.after)
    assert.equal(payload.contractId, cancelled.id)
    assert.equal(payload.contractNumber, cancelled.contractNumber)
    assert.equal(payload.lossDate, '2026-05-20')
    assert.equal(payload.fromStatus, 'OPEN')
    assert.equal(payload.deniedReasonId, reasonId)
    assert.equal(payload.deniedReasonCode, 'CONTRACT_NOT_IN_FORCE')
    assert.equal(payload.source, 'CONTRACT_ENDED')
  })

  test('run again: nothing more to deny (the denied claims are DENIED already)', async () => {
    const reply = await denyClaims({ contractIds: [cancelled.id, cancelled.id] })
    assert.equal(reply.deniedCount, 0)
    assert.equal(reply.contracts.length, 1, 'a repeated id counts once')
    const after_ = reply.contracts[0]!.claims.find((c) => c.claimId === claims.after)!
    assert.deepEqual([after_.before, after_.after, after_.denied], ['DENIED', 'DENIED', false])
    assert.match(after_.reason, /DENIED already/)
    assert.equal((await claimRow(claims.after!)).version, 2, 'not written again')
  })

  test('a contract that has not ended is listed with its claims left', async () => {
    const reply = await denyClaims({ contractIds: [active.id] })
    assert.equal(reply.deniedCount, 0)
    const c = reply.contracts[0]!
    assert.equal(c.coverageEnded, null)
    assert.match(c.reason, /within its term/)
    assert.equal(c.claims.length, 1)
    assert.deepEqual([c.claims[0]!.before, c.claims[0]!.after, c.claims[0]!.denied], ['OPEN', 'OPEN', false])
  })

  test('a contract the caller cannot see is a 404 before anything is done', async () => {
    // A cancelled contract of the dealer-side user's dealer with a claim to deny, named with one it cannot see.
    const claim = await take(fresh.id, '2026-05-20', 45200)
    await cancel(fresh.id)
    const unknown = await inject('POST', '/api/contracts/denyClaims', { contractIds: [fresh.id, 987654321] })
    assert.equal(unknown.statusCode, 404, unknown.body)
    assert.equal(json<{ code: string }>(unknown).code, 'contract_not_found')
    const hidden = await inject(
      'POST',
      '/api/contracts/denyClaims',
      { contractIds: [fresh.id, otherDealers.id] },
      dealerUser.headers,
    )
    assert.equal(hidden.statusCode, 404, hidden.body)
    const other = await createTenant(t, 'Other deny tenant')
    const theirs = await inject('POST', '/api/contracts/denyClaims', { contractId: fresh.id }, other.headers)
    assert.equal(theirs.statusCode, 404, theirs.body)
    assert.equal((await claimRow(claim)).status, 'OPEN', 'nothing done')
    // The dealer-side user's own dealer's contract.
    const reply = await denyClaims({ contractId: fresh.id }, dealerUser.headers)
    assert.equal(reply.deniedCount, 1)
    assert.equal((await claimRow(claim)).status, 'DENIED')
  })

  test('400 for a body of the wrong shape; 403 without claims:approve', async () => {
    for (const body of [
      {},
      { contractIds: [] },
      { contractId: cancelled.id, contractIds: [cancelled.id] },
      { contractIds: Array.from({ length: 1001 }, (_, i) => i + 1) },
      { contractId: 'x' },
    ]) {
      const res = await inject('POST', '/api/contracts/denyClaims', body)
      assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`)
    }
    const reader = await createUserWithRoles(t, demo, ['READ_ONLY'])
    const res = await inject('POST', '/api/contracts/denyClaims', { contractId: cancelled.id }, reader.headers)
    assert.equal(res.statusCode, 403, res.body)
  })
})
