// PPM services over HTTP on the demo tenant (docs/claims.md "PPM services"): a PPM contract's schedule
// with its uses, what is left and when the next use falls due, on the contract's route and on a
// claim's; [] for a contract without a schedule; 404 for what the caller cannot see. The uses are
// counted from the claims' jobs (claim-ppm.repository.ts): until intake takes a job's
// ppmServiceCode, the test writes the jobs of a claim taken over HTTP directly, and runs the
// redemption check the claims service will call.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import type { StoredClaimJob } from '../src/platform/db/schema.claims.ts'
import { systemContext } from '../src/platform/http/context.ts'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

// PPM-NEW sold 2026-03-10 at 12 miles: oil changes and tire rotations every 6 months or 7,500 miles
// (6 each), a multi-point inspection every 12 months or 15,000 miles (3).
const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-06-01T18:00:00Z')

type Contract = { id: number; contractNumber: string; status: string }
type Service = {
  serviceCode: string
  description: string
  allowedCount: number
  usedCount: number
  remainingCount: number
  intervalMonths: number | null
  intervalMiles: number | null
  nextDueDate: string | null
  nextDueOdometer: number | null
  schedule: Array<{ sequence: number; dueDate: string | null; dueOdometer: number | null; used: boolean }>
  claimJobLineNumbers?: number[]
}

let t: TestApp
let demo: DemoTestTenant
let ppm: Contract
let vsc: Contract
let otherDealers: Contract
let facilityId: number
let complaintId: number
let claimId: number
let dealerUser: { headers: Record<string, string> }

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, h: Record<string, string> = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  ppm = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-10', productType: 'PPM', finalize: true })
  vsc = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-11', finalize: true })
  otherDealers = await sellDemoContract<Contract>(t, demo, {
    saleDate: '2026-03-12',
    productType: 'PPM',
    dealerNumber: DEMO.otherDealerNumber,
    finalize: true,
  })
  const ids = await t.db.read(demo.tenantId, async (x) => ({
    dealer: await x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', ppm.id)
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
    code: 'PORTAL-PPM',
    name: 'PPM portal',
    dealerIds: [ids.dealer.dealer_id],
  })
  assert.equal(group.statusCode, 201, group.body)
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  dealerUser = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'], {
    groups: [{ id: json<{ id: number }>(group).id }],
  })
  complaintId = json<Array<{ id: number }>>(await inject('GET', '/api/claims/complaints?limit=1'))[0]!.id
  // A claim on the PPM contract, taken over HTTP (no jobs: intake does not take a ppmServiceCode yet).
  const taken = await inject('POST', '/api/claims', {
    contractId: ppm.id,
    lossDate: '2026-05-20',
    odometer: 3000,
    repairFacilityId: facilityId,
  })
  assert.equal(taken.statusCode, 201, taken.body)
  claimId = json<{ id: number }>(taken).id
})
after(() => t.close())

/** Writes the claim's jobs and status as intake and the adjuster will (a job per code; null: no code). */
async function setClaim(
  id: number,
  jobs: Array<[code: string | null, status: StoredClaimJob['status']]>,
  status = 'OPEN',
) {
  const stored = jobs.map(([code, jobStatus], i): StoredClaimJob => ({
    lineNumber: i + 1,
    complaintId,
    causeId: null,
    correctionId: null,
    coverageComponentCode: null,
    ...(code === null ? {} : { ppmServiceCode: code }),
    status: jobStatus,
    deniedReasonId: null,
    parts: [],
    labor: [],
    sublet: [],
  }))
  await t.db.transaction(demo.tenantId, (tx) =>
    sql`update claim set jobs = ${JSON.stringify(stored)}::jsonb, status = ${status}
        where tenant_id = ${demo.tenantId} and id = ${id}`.execute(tx),
  )
}

const services = async (url: string, h = demo.headers) => {
  const res = await inject('GET', url, undefined, h)
  assert.equal(res.statusCode, 200, res.body)
  return json<Service[]>(res)
}

describe('GET /api/contracts/{contractId}/ppmservices', () => {
  test("the schedule of the contract's plan: allowance, nothing used, the first use due", async () => {
    await setClaim(claimId, [])
    const list = await services(`/api/contracts/${ppm.id}/ppmservices`)
    assert.deepEqual(
      list.map((s) => [s.serviceCode, s.allowedCount, s.usedCount, s.remainingCount]),
      [
        ['OIL_CHANGE', 6, 0, 6],
        ['TIRE_ROTATION', 6, 0, 6],
        ['MULTI_POINT', 3, 0, 3],
      ],
    )
    const oil = list[0]!
    assert.equal(oil.description, 'Synthetic oil and filter change')
    assert.equal(oil.intervalMonths, 6)
    assert.equal(oil.intervalMiles, 7500)
    // From the effective date (the sale date) and the sale odometer of 12 miles.
    assert.equal(oil.nextDueDate, '2026-09-10')
    assert.equal(oil.nextDueOdometer, 7512)
    assert.equal(oil.schedule.length, 6)
    assert.deepEqual(oil.schedule[5], { sequence: 6, dueDate: '2029-03-10', dueOdometer: 45012, used: false })
    assert.equal(list[2]!.nextDueDate, '2027-03-10')
    assert.equal(list[2]!.nextDueOdometer, 15012)
  })

  test('a contract without a schedule (VSC) answers []', async () => {
    assert.deepEqual(await services(`/api/contracts/${vsc.id}/ppmservices`), [])
  })

  test('uses: jobs of claims not VOIDED or DENIED, jobs not DENIED, codes in any case', async () => {
    await setClaim(claimId, [
      ['oil_change', 'PENDING'],
      ['OIL_CHANGE', 'AUTHORIZED'],
      ['OIL_CHANGE', 'DENIED'],
      ['MULTI_POINT', 'PENDING'],
      [null, 'PENDING'],
    ])
    const list = await services(`/api/contracts/${ppm.id}/ppmservices`)
    const oil = list.find((s) => s.serviceCode === 'OIL_CHANGE')!
    assert.deepEqual(
      [oil.usedCount, oil.remainingCount, oil.nextDueDate, oil.nextDueOdometer],
      [2, 4, '2027-09-10', 22512],
    )
    assert.deepEqual(
      oil.schedule.map((s) => s.used),
      [true, true, false, false, false, false],
    )
    assert.equal(list.find((s) => s.serviceCode === 'MULTI_POINT')!.usedCount, 1)
    assert.equal(list.find((s) => s.serviceCode === 'TIRE_ROTATION')!.usedCount, 0)
    for (const status of ['VOIDED', 'DENIED']) {
      await setClaim(claimId, [['OIL_CHANGE', 'PENDING']], status)
      const none = await services(`/api/contracts/${ppm.id}/ppmservices`)
      assert.equal(none.find((s) => s.serviceCode === 'OIL_CHANGE')!.usedCount, 0, status)
    }
    await setClaim(claimId, [['OIL_CHANGE', 'PENDING']], 'CLOSED')
    const closed = await services(`/api/contracts/${ppm.id}/ppmservices`)
    assert.equal(closed.find((s) => s.serviceCode === 'OIL_CHANGE')!.usedCount, 1, 'a CLOSED claim counts')
    await setClaim(claimId, [])
  })

  test("404 for a contract the caller cannot see: unknown, another tenant's, another dealer's", async () => {
    const unknown = await inject('GET', '/api/contracts/987654321/ppmservices')
    assert.equal(unknown.statusCode, 404, unknown.body)
    assert.equal(json<{ code: string }>(unknown).code, 'contract_not_found')
    const other = await createTenant(t, 'Other PPM tenant')
    assert.equal(
      (await inject('GET', `/api/contracts/${ppm.id}/ppmservices`, undefined, other.headers)).statusCode,
      404,
    )
    const hidden = await inject('GET', `/api/contracts/${otherDealers.id}/ppmservices`, undefined, dealerUser.headers)
    assert.equal(hidden.statusCode, 404, hidden.body)
    assert.equal((await services(`/api/contracts/${ppm.id}/ppmservices`, dealerUser.headers)).length, 3)
  })
})

describe('GET /api/claims/{claimId}/ppmservices', () => {
  test("the contract's services with the line numbers of the claim's jobs that redeem each", async () => {
    await setClaim(claimId, [
      ['TIRE_ROTATION', 'PENDING'],
      [null, 'PENDING'],
      ['tire_rotation', 'DENIED'],
      ['MULTI_POINT', 'AUTHORIZED'],
    ])
    const list = await services(`/api/claims/${claimId}/ppmservices`)
    assert.deepEqual(
      list.map((s) => [s.serviceCode, s.usedCount, s.claimJobLineNumbers]),
      [
        ['OIL_CHANGE', 0, []],
        ['TIRE_ROTATION', 1, [1]],
        ['MULTI_POINT', 1, [4]],
      ],
    )
    await setClaim(claimId, [])
    const none = await services(`/api/claims/${claimId}/ppmservices`)
    assert.deepEqual(
      none.map((s) => [s.usedCount, s.claimJobLineNumbers]),
      [
        [0, []],
        [0, []],
        [0, []],
      ],
    )
  })

  test('a claim of a contract without a schedule answers []', async () => {
    const taken = await inject('POST', '/api/claims', {
      contractId: vsc.id,
      lossDate: '2026-05-20',
      odometer: 45000,
      repairFacilityId: facilityId,
    })
    assert.equal(taken.statusCode, 201, taken.body)
    assert.deepEqual(await services(`/api/claims/${json<{ id: number }>(taken).id}/ppmservices`), [])
  })

  test("404 claim_not_found for a claim the caller cannot see: unknown, another tenant's, another dealer's", async () => {
    const unknown = await inject('GET', '/api/claims/987654321/ppmservices')
    assert.equal(unknown.statusCode, 404, unknown.body)
    assert.equal(json<{ code: string }>(unknown).code, 'claim_not_found')
    const other = await createTenant(t, 'Other PPM claims tenant')
    assert.equal((await inject('GET', `/api/claims/${claimId}/ppmservices`, undefined, other.headers)).statusCode, 404)
    const theirs = await inject('POST', '/api/claims', {
      contractId: otherDealers.id,
      lossDate: '2026-05-20',
      odometer: 3000,
      repairFacilityId: facilityId,
    })
    assert.equal(theirs.statusCode, 201, theirs.body)
    const hidden = await inject(
      'GET',
      `/api/claims/${json<{ id: number }>(theirs).id}/ppmservices`,
      undefined,
      dealerUser.headers,
    )
    assert.equal(hidden.statusCode, 404, hidden.body)
    assert.equal(json<{ code: string }>(hidden).code, 'claim_not_found')
    assert.equal((await services(`/api/claims/${claimId}/ppmservices`, dealerUser.headers)).length, 3)
  })
})

describe('the redemption check the claims service runs', () => {
  const contract = () => t.modules.contracts.core.readRow(systemContext(demo.tenantId), ppm.id)
  const check = async (
    jobs: Array<string | null>,
    lossDate: string,
    odometer: number | null,
    except: number | null,
  ) => {
    const row = await contract()
    const problems = await t.db.read(demo.tenantId, (x) =>
      t.modules.claims.ppm.redemptionProblems(x, demo.tenantId, row, {
        claimId: except,
        jobs: jobs.map((ppmServiceCode) => ({ ppmServiceCode })),
        lossDate,
        odometer,
      }),
    )
    return problems.map((p) => `${p.field} ${p.code}`)
  }

  test("the uses of the contract's other claims count; the claim being edited is left out", async () => {
    await setClaim(claimId, [['OIL_CHANGE', 'AUTHORIZED']])
    // A second oil change on 2026-09-10 at 8,000 miles: due 2027-03-10 or at 15,012 miles.
    assert.deepEqual(await check(['OIL_CHANGE'], '2026-09-10', 8000, null), ['jobs[0].ppmServiceCode not_due'])
    // Editing that claim: its own job is the first use.
    assert.deepEqual(await check(['OIL_CHANGE'], '2026-09-10', 8000, claimId), [])
    assert.deepEqual(await check(['BRAKES', null], '2026-09-10', 8000, null), [
      'jobs[0].ppmServiceCode unknown_service',
    ])
    assert.deepEqual(await check([null], '2026-01-01', null, null), [], 'no job names a service: nothing to check')
    await setClaim(claimId, [
      ['MULTI_POINT', 'PENDING'],
      ['MULTI_POINT', 'PENDING'],
      ['MULTI_POINT', 'PENDING'],
    ])
    assert.deepEqual(await check(['MULTI_POINT'], '2030-01-01', 50000, null), ['jobs[0].ppmServiceCode allowance_used'])
    const row = await contract()
    assert.equal(t.modules.claims.ppm.serviceCodeOf(row, 'multi_point'), 'MULTI_POINT')
    assert.equal(t.modules.claims.ppm.serviceCodeOf(row, 'BRAKES'), null)
    await setClaim(claimId, [])
  })

  test('redemptions of one contract are serialized: the second transaction waits for the first', async () => {
    const order: string[] = []
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let locked!: () => void
    const isLocked = new Promise<void>((r) => (locked = r))
    const first = t.db.transaction(demo.tenantId, async (tx) => {
      await t.modules.claims.ppm.lockRedemptions(tx, demo.tenantId, ppm.id)
      locked()
      await held
      order.push('first')
    })
    await isLocked
    const second = t.db.transaction(demo.tenantId, async (tx) => {
      await t.modules.claims.ppm.lockRedemptions(tx, demo.tenantId, ppm.id)
      order.push('second')
    })
    await new Promise((r) => setTimeout(r, 50))
    release()
    await Promise.all([first, second])
    assert.deepEqual(order, ['first', 'second'])
  })
})

describe('redemption at intake and on edits (POST and PATCH /api/claims)', () => {
  const ppmJob = (code: string) => ({ complaintId, ppmServiceCode: code, labor: [{ hours: 0.5, rate: 100 }] })
  const take = (jobs: unknown[], odometer = 8000, lossDate = '2026-05-25') =>
    inject('POST', '/api/claims', { contractId: ppm.id, lossDate, odometer, repairFacilityId: facilityId, jobs })

  test('a due service is redeemed: the job keeps its code, the contract counts the use', async () => {
    const earlier = (await services(`/api/contracts/${ppm.id}/ppmservices`)).find(
      (s) => s.serviceCode === 'TIRE_ROTATION',
    )!
    // 7,500 miles less the 500-mile tolerance from the sale at 12 miles: due from 7,012.
    const res = await take([ppmJob('tire_rotation')])
    assert.equal(res.statusCode, 201, res.body)
    const claim = json<{ jobs: Array<{ ppmServiceCode: string | null; coverageComponentCode: string | null }> }>(res)
    assert.equal(claim.jobs[0]!.ppmServiceCode, 'TIRE_ROTATION')
    const now = (await services(`/api/contracts/${ppm.id}/ppmservices`)).find((s) => s.serviceCode === 'TIRE_ROTATION')!
    assert.equal(now.usedCount, earlier.usedCount + 1)
  })

  test('refused with the rule named, nothing written: not due yet, unknown, a component and a service at once', async () => {
    const res = await take([
      ppmJob('MULTI_POINT'),
      ppmJob('WIPER_BLADES'),
      { ...ppmJob('OIL_CHANGE'), coverageComponentCode: 'BLOCK' },
    ])
    assert.equal(res.statusCode, 422, res.body)
    const codes = json<{ errors: Array<{ field: string; code: string }> }>(res).errors.map(
      (e) => `${e.field} ${e.code}`,
    )
    assert.ok(codes.includes('jobs[0].ppmServiceCode not_due'), codes.join())
    assert.ok(codes.includes('jobs[1].ppmServiceCode unknown_service'), codes.join())
    assert.ok(codes.includes('jobs[2].ppmServiceCode not_allowed'), codes.join())
  })
})
