// Claim inspections over HTTP on the demo tenant (docs/claims.md "Inspections"): an adjuster requests
// an inspection (the default company serves the repair facility's state, its fee copied; the claim
// PENDING_INSPECTION; one outstanding at a time); the company takes it, adds files and the adjuster
// completes it (the claim back to OPEN, an event); a company rejects one (the claim still waits) and
// the adjuster asks another or cancels; the company's system reports by the sync routes. Who sees
// what: the company's users see their inspections only, the claim's dealer's users see them, another
// company's users get 404s and cannot take them. Bad input is a 400 or a 422 with nothing written;
// another tenant gets 404s.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import {
  createTenant,
  createUserWithRoles,
  createTestApp,
  json,
  loginHeaders,
  type TestApp,
  type TestTenant,
} from './harness.ts'

const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-06-01T18:00:00Z')

type Headers = Record<string, string>
type Inspection = {
  inspectionId: number
  claimId: number
  claimNumber: string
  inspectionCompanyId: number
  inspectionCompanyName: string
  reasonId: number
  status: string
  note: string | null
  fee: number | null
  rejectReasonId: number | null
  companyNote: string | null
  findings: string | null
  inspectedOdometer: number | null
  inspectedOn: string | null
  completedAt: string | null
  takenAt: string | null
  version: number
  files?: Array<{ documentId: number; ownerType: string; kind: string }>
}
type Page<T> = { items: T[]; totalCount: number; pageNumber: number; pageSize: number; totalPages: number }
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

let t: TestApp
let demo: DemoTestTenant
let other: TestTenant
let contractId: number
let facilityId: number
/** The demo inspection company (serves TX, where the demo repair facility is; fee 95) and a second one (NV). */
let company: number
let nevada: number
let reason: number
let rejectReason: number
let companyUser: { headers: Headers }
let nevadaUser: { headers: Headers }
let dealerUser: { headers: Headers }
let odometer = 45000
let day = 10

const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: unknown,
  h: Headers = demo.headers,
  contentType?: string,
) =>
  t.app.inject({
    method,
    url,
    headers: { ...h, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })

/** A user of a DEALER-kind membership group listing `accountHolderId`: that account holder's portal user. */
async function portalUser(accountHolderId: number, code: string) {
  const group = await t.db.transaction(demo.tenantId, async (tx) => {
    const g = await tx
      .insertInto('membership_group')
      .values({
        tenant_id: demo.tenantId,
        code,
        name: code,
        description: '',
        kind: 'DEALER',
        created_at: LATER,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await tx
      .insertInto('membership_group_account_holder')
      .values({ tenant_id: demo.tenantId, group_id: g.id, account_holder_id: accountHolderId })
      .execute()
    return Number(g.id)
  })
  return createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'], { groups: [{ id: group }] })
}

/** A new OPEN claim on the demo contract (each a day and 100 miles after the one before). */
async function newClaim(): Promise<{ id: number; status: string }> {
  odometer += 100
  day += 1
  const res = await inject('POST', '/api/claims', {
    contractId,
    lossDate: `2026-05-${String(day).padStart(2, '0')}`,
    odometer,
    repairFacilityId: facilityId,
    jobs: [],
  })
  assert.equal(res.statusCode, 201, res.body)
  return json(res)
}

const claimStatus = async (id: number) => json<{ status: string }>(await inject('GET', `/api/claims/${id}`)).status

async function request(claimId: number, body: Record<string, unknown> = {}) {
  const res = await inject('POST', `/api/claims/${claimId}/inspections`, { reasonId: reason, ...body })
  assert.equal(res.statusCode, 201, res.body)
  return json<Inspection>(res)
}

const audits = (claimId: number) =>
  t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select('action')
      .where('tenant_id', '=', demo.tenantId)
      .where('entity_type', '=', 'claim')
      .where('entity_id', '=', String(claimId))
      .where('action', 'like', 'claim_inspection.%')
      .orderBy('id')
      .execute(),
  )

const events = (type: string) =>
  t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('event_outbox')
      .select('payload')
      .where('tenant_id', '=', demo.tenantId)
      .where('type', '=', type)
      .orderBy('id')
      .execute(),
  )

const inspectionRows = () =>
  t.db.read(demo.tenantId, async (x) =>
    Number(
      (
        await x
          .selectFrom('claim_inspection')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', demo.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  )

const completion = (over: Record<string, unknown> = {}) => ({
  inspectionCompanyId: company,
  reasonId: reason,
  note: 'Verify the coil failure.',
  status: 'COMPLETED',
  findings: 'Coil 3 open circuit; no sign of tampering.',
  inspectedOdometer: odometer + 50,
  inspectedOn: '2026-05-31',
  completedAt: '2026-05-31T20:00:00.000Z',
  ...over,
})

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  const contract = await sellDemoContract<{ id: number }>(t, demo, { saleDate: '2026-03-10', finalize: true })
  contractId = contract.id
  const ids = await t.db.read(demo.tenantId, async (x) => ({
    dealer: await x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', contractId)
      .executeTakeFirstOrThrow(),
    facility: await x
      .selectFrom('account_holder')
      .select('id')
      .where('tenant_id', '=', demo.tenantId)
      .where('kind', '=', 'REPAIR_FACILITY')
      .where('business_key', '=', 'RF-ATX')
      .executeTakeFirstOrThrow(),
    company: await x
      .selectFrom('account_holder')
      .select('id')
      .where('tenant_id', '=', demo.tenantId)
      .where('kind', '=', 'INSPECTION_COMPANY')
      .orderBy('id')
      .executeTakeFirstOrThrow(),
  }))
  facilityId = ids.facility.id
  company = ids.company.id
  const created = await inject('POST', '/api/inspectioncompanies', {
    companyCode: 'NV-INSP',
    legalName: 'Silver State Inspections LLC',
    serviceStates: ['NV'],
    inspectionFee: 60,
  })
  assert.equal(created.statusCode, 201, created.body)
  nevada = json<{ id: number }>(created).id
  const group = await inject('POST', '/api/portalvisibilitygroups', {
    code: 'PORTAL-CLM-INSP',
    name: 'Claims inspections portal',
    dealerIds: [ids.dealer.dealer_id],
  })
  assert.equal(group.statusCode, 201, group.body)
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  dealerUser = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'], {
    groups: [{ id: json<{ id: number }>(group).id }],
  })
  companyUser = await portalUser(company, 'INSPECTOR-TX')
  nevadaUser = await portalUser(nevada, 'INSPECTOR-NV')
  reason = json<Array<{ id: number }>>(await inject('GET', '/api/inspectionreasons?limit=1'))[0]!.id
  rejectReason = json<Array<{ id: number }>>(await inject('GET', '/api/rejectinspectionreasons?limit=1'))[0]!.id
  other = await createTenant(t, 'Other inspections tenant')
})
after(() => t.close())

describe('request → take → files → complete', () => {
  let claim: { id: number }
  let inspection: Inspection

  test('a request asks the company serving the facility’s state, copies its fee and puts the claim PENDING_INSPECTION', async () => {
    claim = await newClaim()
    inspection = await request(claim.id, { note: 'Verify the coil failure.' })
    assert.equal(inspection.claimId, claim.id)
    assert.equal(inspection.inspectionCompanyId, company)
    assert.equal(inspection.fee, 95)
    assert.equal(inspection.status, 'REQUESTED')
    assert.equal(inspection.reasonId, reason)
    assert.deepEqual(inspection.files, [])
    assert.equal(await claimStatus(claim.id), 'PENDING_INSPECTION')
    assert.deepEqual(await audits(claim.id), [{ action: 'claim_inspection.requested' }])
    const requested = await events('claim.inspection_requested')
    assert.ok(requested.some((e) => (e.payload as { inspectionId: number }).inspectionId === inspection.inspectionId))
  })

  test('one outstanding inspection at a time: a second request is a 409', async () => {
    const res = await inject('POST', `/api/claims/${claim.id}/inspections`, { reasonId: reason })
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(json<Problem>(res).code, 'claim_inspection_outstanding')
  })

  test('the company’s user and the dealer’s user see it; another company’s user does not', async () => {
    const url = `/api/claims/inspections/${inspection.inspectionId}`
    assert.equal((await inject('GET', url, undefined, companyUser.headers)).statusCode, 200)
    assert.equal((await inject('GET', url, undefined, dealerUser.headers)).statusCode, 200)
    const hidden = await inject('GET', url, undefined, nevadaUser.headers)
    assert.equal(hidden.statusCode, 404)
    assert.equal(json<Problem>(hidden).code, 'claim_inspection_not_found')
    const queue = json<Page<Inspection>>(
      await inject('GET', '/api/claims/inspections?status=REQUESTED', undefined, companyUser.headers),
    )
    assert.ok(queue.items.some((i) => i.inspectionId === inspection.inspectionId))
    assert.ok(queue.items.every((i) => i.inspectionCompanyId === company && i.files === undefined))
    const nv = json<Page<Inspection>>(await inject('GET', '/api/claims/inspections', undefined, nevadaUser.headers))
    assert.equal(nv.items.filter((i) => i.inspectionId === inspection.inspectionId).length, 0)
    // A company's user does not see the claim itself (it is not the claim's dealer).
    assert.equal((await inject('GET', `/api/claims/${claim.id}`, undefined, companyUser.headers)).statusCode, 404)
  })

  test('another company’s user cannot take it (404); the dealer’s user cannot either; the company takes it', async () => {
    const url = `/api/claims/${claim.id}/inspections/takereject/${inspection.inspectionId}`
    const foreign = await inject('POST', url, { action: 'TAKE' }, nevadaUser.headers)
    assert.equal(foreign.statusCode, 404)
    assert.equal(json<Problem>(foreign).code, 'claim_inspection_not_found')
    assert.equal((await inject('POST', url, { action: 'TAKE' }, dealerUser.headers)).statusCode, 404)
    const taken = await inject('POST', url, { action: 'TAKE' }, companyUser.headers)
    assert.equal(taken.statusCode, 200, taken.body)
    assert.equal(json<Inspection>(taken).status, 'TAKEN')
    assert.equal(json<Inspection>(taken).takenAt, LATER.toISOString())
    // Taking it again changes nothing; rejecting a taken one is a 409.
    assert.equal((await inject('POST', url, { action: 'TAKE' }, companyUser.headers)).statusCode, 200)
    const late = await inject('POST', url, { action: 'REJECT', rejectReasonId: rejectReason }, companyUser.headers)
    assert.equal(late.statusCode, 409, late.body)
    assert.equal(json<Problem>(late).code, 'claim_inspection_state_conflict')
    assert.equal(await claimStatus(claim.id), 'PENDING_INSPECTION')
  })

  test('the company uploads a photo; another company cannot; the inspection lists it', async () => {
    const url = `/api/claims/${claim.id}/inspectionfiles/${inspection.inspectionId}?fileName=coil.txt`
    const res = await inject('POST', url, 'coil 3 reading: open', companyUser.headers, 'text/plain')
    assert.equal(res.statusCode, 201, res.body)
    const doc = json<{ documentId: number; ownerType: string; kind: string }>(res)
    assert.equal(doc.ownerType, 'CLAIM_INSPECTION')
    assert.equal(doc.kind, 'INSPECTION_FILE')
    assert.equal(res.headers.location, `/api/documents/${doc.documentId}`)
    const foreign = await inject('POST', url, 'not mine', nevadaUser.headers, 'text/plain')
    assert.equal(foreign.statusCode, 404)
    // The inspection of another claim is a 404 too.
    const elsewhere = await inject(
      'POST',
      `/api/claims/${claim.id + 100000}/inspectionfiles/${inspection.inspectionId}`,
      'x',
      companyUser.headers,
      'text/plain',
    )
    assert.equal(elsewhere.statusCode, 404)
    const read = json<Inspection>(await inject('GET', `/api/claims/inspections/${inspection.inspectionId}`))
    assert.deepEqual(
      read.files!.map((f) => f.documentId),
      [doc.documentId],
    )
    // The document read by id is guarded by the inspection's visibility.
    assert.equal(
      (await inject('GET', `/api/documents/${doc.documentId}`, undefined, companyUser.headers)).statusCode,
      200,
    )
    assert.equal(
      (await inject('GET', `/api/documents/${doc.documentId}`, undefined, nevadaUser.headers)).statusCode,
      404,
    )
  })

  test('the adjuster completes it with the results: COMPLETED, the claim back to OPEN, an event', async () => {
    const res = await inject('PUT', `/api/claims/${claim.id}/inspections`, completion())
    assert.equal(res.statusCode, 200, res.body)
    const done = json<Inspection>(res)
    assert.equal(done.status, 'COMPLETED')
    assert.equal(done.findings, 'Coil 3 open circuit; no sign of tampering.')
    assert.equal(done.completedAt, '2026-05-31T20:00:00.000Z')
    assert.equal(done.inspectedOn, '2026-05-31')
    assert.equal(await claimStatus(claim.id), 'OPEN')
    assert.deepEqual(
      (await audits(claim.id)).map((a) => a.action),
      [
        'claim_inspection.requested',
        'claim_inspection.taken',
        'claim_inspection.updated',
        'claim_inspection.completed',
      ],
    )
    const completed = await events('claim.inspection_completed')
    assert.ok(completed.some((e) => (e.payload as { inspectionId: number }).inspectionId === inspection.inspectionId))
    // Completed is final for the adjuster's PUT; a new inspection may be requested.
    const again = await inject('PUT', `/api/claims/${claim.id}/inspections`, completion({ status: 'CANCELLED' }))
    assert.equal(again.statusCode, 409)
    assert.equal(json<Problem>(again).code, 'claim_inspection_state_conflict')
    const next = await request(claim.id)
    assert.equal(next.status, 'REQUESTED')
  })
})

describe('reject, ask another, cancel', () => {
  test('a rejection leaves the claim PENDING_INSPECTION; another company is asked; the adjuster cancels', async () => {
    const claim = await newClaim()
    const first = await request(claim.id, { inspectionCompanyId: nevada })
    assert.equal(first.fee, 60)
    const url = `/api/claims/${claim.id}/inspections/takereject/${first.inspectionId}`
    const noReason = await inject('POST', url, { action: 'REJECT' }, nevadaUser.headers)
    assert.equal(noReason.statusCode, 422, noReason.body)
    assert.deepEqual(json<Problem>(noReason).errors, [
      { field: 'rejectReasonId', code: 'required', message: 'a rejection names its reason' },
    ])
    const wrongKind = await inject('POST', url, { action: 'REJECT', rejectReasonId: reason }, nevadaUser.headers)
    assert.equal(wrongKind.statusCode, 422)
    assert.equal(json<Problem>(wrongKind).errors![0]!.code, 'unknown_lookup')
    const res = await inject(
      'POST',
      url,
      { action: 'REJECT', rejectReasonId: rejectReason, note: 'Out of our area.' },
      nevadaUser.headers,
    )
    assert.equal(res.statusCode, 200, res.body)
    const rejected = json<Inspection>(res)
    assert.equal(rejected.status, 'REJECTED')
    assert.equal(rejected.rejectReasonId, rejectReason)
    assert.equal(rejected.companyNote, 'Out of our area.')
    assert.equal(await claimStatus(claim.id), 'PENDING_INSPECTION')
    // A rejected inspection takes no files.
    const file = await inject(
      'POST',
      `/api/claims/${claim.id}/inspectionfiles/${first.inspectionId}`,
      'late',
      nevadaUser.headers,
      'text/plain',
    )
    assert.equal(file.statusCode, 409)
    // Another company is asked; the claim still waits.
    const second = await request(claim.id, { inspectionCompanyId: company })
    assert.equal(await claimStatus(claim.id), 'PENDING_INSPECTION')
    // The adjuster changes its note (every member required), then cancels it.
    const missing = await inject('PUT', `/api/claims/${claim.id}/inspections`, { status: 'CANCELLED' })
    assert.equal(missing.statusCode, 400)
    const fields = json<Problem>(missing).errors!.map((e) => e.field)
    for (const f of ['inspectionCompanyId', 'reasonId', 'note', 'findings', 'completedAt'])
      assert.ok(
        fields.some((x) => x.includes(f)),
        `${f} in ${fields.join(', ')}`,
      )
    const edit = {
      ...completion({ status: 'REQUESTED', note: 'Call first.' }),
      findings: null,
      inspectedOdometer: null,
    }
    const results = await inject('PUT', `/api/claims/${claim.id}/inspections`, edit)
    assert.equal(results.statusCode, 422, results.body)
    assert.deepEqual(
      json<Problem>(results)
        .errors!.map((e) => `${e.field} ${e.code}`)
        .toSorted(),
      ['completedAt not_allowed', 'inspectedOn not_allowed'],
    )
    const changed = await inject('PUT', `/api/claims/${claim.id}/inspections`, {
      ...edit,
      inspectedOn: null,
      completedAt: null,
      inspectionCompanyId: nevada,
    })
    assert.equal(changed.statusCode, 200, changed.body)
    assert.equal(json<Inspection>(changed).note, 'Call first.')
    assert.equal(json<Inspection>(changed).inspectionCompanyId, nevada)
    assert.equal(json<Inspection>(changed).fee, 60)
    const cancelled = await inject('PUT', `/api/claims/${claim.id}/inspections`, {
      ...edit,
      inspectedOn: null,
      completedAt: null,
      inspectionCompanyId: nevada,
      status: 'CANCELLED',
    })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.equal(json<Inspection>(cancelled).status, 'CANCELLED')
    assert.equal(json<Inspection>(cancelled).inspectionId, second.inspectionId)
    assert.equal(await claimStatus(claim.id), 'OPEN')
  })

  test('a rejected inspection the adjuster gives up on is cancelled: the claim back to OPEN', async () => {
    const claim = await newClaim()
    const first = await request(claim.id)
    const res = await inject(
      'POST',
      `/api/claims/${claim.id}/inspections/takereject/${first.inspectionId}`,
      { action: 'REJECT', rejectReasonId: rejectReason },
      demo.headers,
    )
    assert.equal(res.statusCode, 200, res.body)
    const body = {
      inspectionCompanyId: company,
      reasonId: reason,
      note: null,
      findings: null,
      inspectedOdometer: null,
      inspectedOn: null,
      completedAt: null,
    }
    const edit = await inject('PUT', `/api/claims/${claim.id}/inspections`, { ...body, status: 'REQUESTED' })
    assert.equal(edit.statusCode, 409)
    const cancelled = await inject('PUT', `/api/claims/${claim.id}/inspections`, { ...body, status: 'CANCELLED' })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.equal(json<Inspection>(cancelled).rejectReasonId, rejectReason)
    assert.equal(await claimStatus(claim.id), 'OPEN')
  })
})

describe('the sync routes', () => {
  test('the company’s system reports TAKEN, then the results; the claim back to OPEN', async () => {
    const claim = await newClaim()
    const inspection = await request(claim.id)
    const foreign = await inject(
      'PATCH',
      '/api/claims/inspections/syncinspection',
      { claimInspectionId: inspection.inspectionId, status: 'TAKEN' },
      nevadaUser.headers,
    )
    assert.equal(foreign.statusCode, 404)
    const taken = await inject(
      'PATCH',
      '/api/claims/inspections/syncinspection',
      { claimInspectionId: inspection.inspectionId, status: 'TAKEN' },
      companyUser.headers,
    )
    assert.equal(taken.statusCode, 200, taken.body)
    assert.equal(json<Inspection>(taken).status, 'TAKEN')
    const report = {
      claimInspectionId: inspection.inspectionId,
      status: 'COMPLETED',
      rejectReasonId: null,
      note: 'Photos attached.',
      findings: 'Timing chain stretched beyond spec.',
      inspectedOdometer: odometer + 10,
      inspectedOn: '2026-05-30',
      completedAt: '2026-05-30T22:00:00.000Z',
    }
    const noFindings = await inject(
      'PUT',
      '/api/claims/inspections/syncpostputinspection',
      { ...report, findings: null, completedAt: '2027-01-01T00:00:00.000Z', inspectedOdometer: 1 },
      companyUser.headers,
    )
    assert.equal(noFindings.statusCode, 422, noFindings.body)
    assert.deepEqual(
      json<Problem>(noFindings)
        .errors!.map((e) => `${e.field} ${e.code}`)
        .toSorted(),
      ['completedAt in_future', 'findings required', 'inspectedOdometer below_claim_odometer'],
    )
    const done = await inject('PUT', '/api/claims/inspections/syncpostputinspection', report, companyUser.headers)
    assert.equal(done.statusCode, 200, done.body)
    const completed = json<Inspection>(done)
    assert.equal(completed.status, 'COMPLETED')
    assert.equal(completed.companyNote, 'Photos attached.')
    assert.equal(completed.inspectedOdometer, odometer + 10)
    assert.equal(await claimStatus(claim.id), 'OPEN')
    // A corrected report changes only the results; a rejection after the completion is a 409.
    const corrected = await inject(
      'PATCH',
      '/api/claims/inspections/syncinspection',
      { claimInspectionId: inspection.inspectionId, status: 'COMPLETED', findings: 'Timing chain and guides worn.' },
      companyUser.headers,
    )
    assert.equal(corrected.statusCode, 200, corrected.body)
    assert.equal(json<Inspection>(corrected).findings, 'Timing chain and guides worn.')
    assert.equal(json<Inspection>(corrected).completedAt, '2026-05-30T22:00:00.000Z')
    const late = await inject(
      'PATCH',
      '/api/claims/inspections/syncinspection',
      { claimInspectionId: inspection.inspectionId, status: 'REJECTED', rejectReasonId: rejectReason },
      companyUser.headers,
    )
    assert.equal(late.statusCode, 409)
  })

  test('PUT sync needs every member (400); an unknown inspection is a 404', async () => {
    const res = await inject(
      'PUT',
      '/api/claims/inspections/syncpostputinspection',
      { claimInspectionId: 1, status: 'TAKEN' },
      companyUser.headers,
    )
    assert.equal(res.statusCode, 400)
    const missing = await inject(
      'PATCH',
      '/api/claims/inspections/syncinspection',
      { claimInspectionId: 987654321, status: 'TAKEN' },
      companyUser.headers,
    )
    assert.equal(missing.statusCode, 404)
  })
})

describe('bad input and other tenants', () => {
  test('a request without a reason is a 400; an unknown reason or company a 422; nothing written', async () => {
    const claim = await newClaim()
    const before_ = await inspectionRows()
    const noReason = await inject('POST', `/api/claims/${claim.id}/inspections`, {})
    assert.equal(noReason.statusCode, 400)
    const extra = await inject('POST', `/api/claims/${claim.id}/inspections`, { reasonId: reason, fee: 1 })
    assert.equal(extra.statusCode, 400)
    const wrong = await inject('POST', `/api/claims/${claim.id}/inspections`, {
      reasonId: rejectReason,
      inspectionCompanyId: facilityId,
      note: '   ',
    })
    assert.equal(wrong.statusCode, 422, wrong.body)
    assert.deepEqual(
      json<Problem>(wrong)
        .errors!.map((e) => `${e.field} ${e.code}`)
        .toSorted(),
      ['inspectionCompanyId not_found', 'note blank', 'reasonId unknown_lookup'],
    )
    assert.equal(await inspectionRows(), before_)
    assert.equal(await claimStatus(claim.id), 'OPEN')
    // A claim with no inspection has nothing to PUT.
    const none = await inject('PUT', `/api/claims/${claim.id}/inspections`, completion())
    assert.equal(none.statusCode, 404)
    assert.equal(json<Problem>(none).code, 'claim_inspection_not_found')
  })

  test('completing without findings and with results on a non-completion are 422s', async () => {
    const claim = await newClaim()
    await request(claim.id)
    const res = await inject(
      'PUT',
      `/api/claims/${claim.id}/inspections`,
      completion({ findings: '  ', completedAt: null }),
    )
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res)
        .errors!.map((e) => `${e.field} ${e.code}`)
        .toSorted(),
      ['completedAt required', 'findings blank'],
    )
    const taken = await inject('PUT', `/api/claims/${claim.id}/inspections`, {
      ...completion({ status: 'TAKEN' }),
      findings: null,
      inspectedOdometer: null,
      inspectedOn: null,
      completedAt: null,
    })
    assert.equal(taken.statusCode, 422)
    assert.equal(json<Problem>(taken).errors![0]!.field, 'status')
    assert.equal(await claimStatus(claim.id), 'PENDING_INSPECTION')
  })

  test('another tenant sees none of it: 404s and an empty queue', async () => {
    const claim = await newClaim()
    const inspection = await request(claim.id)
    const h = other.headers
    assert.equal(
      (await inject('GET', `/api/claims/inspections/${inspection.inspectionId}`, undefined, h)).statusCode,
      404,
    )
    assert.equal((await inject('POST', `/api/claims/${claim.id}/inspections`, { reasonId: reason }, h)).statusCode, 404)
    assert.equal(
      (
        await inject(
          'POST',
          `/api/claims/${claim.id}/inspections/takereject/${inspection.inspectionId}`,
          { action: 'TAKE' },
          h,
        )
      ).statusCode,
      404,
    )
    assert.equal(
      (
        await inject(
          'PATCH',
          '/api/claims/inspections/syncinspection',
          { claimInspectionId: inspection.inspectionId, status: 'TAKEN' },
          h,
        )
      ).statusCode,
      404,
    )
    const queue = json<Page<Inspection>>(await inject('GET', '/api/claims/inspections', undefined, h))
    assert.equal(queue.totalCount, 0)
    assert.equal((await inject('GET', `/api/claims/inspections/${inspection.inspectionId}`)).statusCode, 200)
  })

  test('the queue filters by company, status and claim, and pages', async () => {
    const page = json<Page<Inspection>>(
      await inject('GET', `/api/claims/inspections?inspectionCompanyId=${nevada}&pageSize=1`),
    )
    assert.ok(page.totalCount >= 2)
    assert.equal(page.items.length, 1)
    assert.equal(page.pageSize, 1)
    assert.equal(page.totalPages, page.totalCount)
    assert.ok(page.items.every((i) => i.inspectionCompanyId === nevada))
    const completed = json<Page<Inspection>>(await inject('GET', '/api/claims/inspections?status=COMPLETED'))
    assert.ok(completed.items.length >= 2 && completed.items.every((i) => i.status === 'COMPLETED'))
    const bad = await inject('GET', '/api/claims/inspections?status=DONE')
    assert.equal(bad.statusCode, 400)
  })
})
