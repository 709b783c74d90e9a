// Claims over HTTP on the demo tenant (docs/claims.md "Claims: intake, read, index"): intake takes a
// claim against a contract in force past its waiting period (a number from claimNumberFormat, OPEN,
// the requested total, an audit row and an event in its transaction); every refusal is a 422 naming
// the field and rule with nothing written; the claim reads back in payloads.md §7's shape; the index
// filters and pages; dealer-side users see their dealers' claims only; another tenant sees none.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

// Contracts are sold in March 2026 (PLAT-USED: a waiting period of 30 days and 1,000 miles from the
// sale odometer 42,150); the claims are taken in June.
const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-06-01T18:00:00Z')

type Contract = { id: number; contractNumber: string; status: string }
type Claim = {
  id: number
  claimNumber: string
  contractId: number
  contractNumber: string
  dealerId: number
  vin: string | null
  status: string
  holds: unknown[]
  lossDate: string
  odometer: number | null
  repairFacility: { accountHolderId: number; name: string; laborRate?: number | null; taxRate?: number }
  jobs: Array<{
    lineNumber: number
    complaint: { id: number; text: string }
    cause: { id: number; text: string } | null
    correction: { id: number; text: string } | null
    coverageComponentCode: string | null
    status: string
    parts: Array<{ requestedAmount: number; requestedUnitPrice: number; quantity: number }>
    labor: Array<{ requestedAmount: number }>
    sublet: Array<{ requestedAmount: number }>
    requestedTotal: number
    authorizedTotal: number
  }>
  benefits: unknown[]
  inspection: null
  paymentRequests: unknown[]
  notesCount: number
  documentsCount: number
  totals: { requested: number; authorized: number; tax: number; deductible: number; payable: number; paid: number }
  version: number
}
type Page<T> = { items: T[]; pageNumber: number; pageSize: number; totalCount: number; totalPages: number }
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

let t: TestApp
let demo: DemoTestTenant
let dealerUser: { id: number; headers: Record<string, string> }
let facilityId: number
let otherFacilityId: number
let dealerId: number
let lookups: { complaint: number; cause: number; correction: number }
const contracts: Contract[] = []
let otherDealers: Contract
let pending: Contract

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  for (let i = 0; i < 3; i++)
    contracts.push(
      await sellDemoContract<Contract>(t, demo, {
        saleDate: `2026-03-${String(10 + i).padStart(2, '0')}`,
        finalize: true,
      }),
    )
  otherDealers = await sellDemoContract<Contract>(t, demo, {
    saleDate: '2026-03-10',
    dealerNumber: DEMO.otherDealerNumber,
    finalize: true,
  })
  pending = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-15' })
  const ids = await t.db.read(demo.tenantId, async (x) => ({
    dealer: await x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', contracts[0]!.id)
      .executeTakeFirstOrThrow(),
    facilities: await x
      .selectFrom('account_holder')
      .select(['id', 'business_key'])
      .where('tenant_id', '=', demo.tenantId)
      .where('kind', '=', 'REPAIR_FACILITY')
      .orderBy('id')
      .execute(),
  }))
  dealerId = ids.dealer.dealer_id
  facilityId = ids.facilities.find((f) => f.business_key === 'RF-ATX')!.id
  otherFacilityId = ids.facilities.find((f) => f.business_key !== 'RF-ATX')!.id
  const group = await inject('POST', '/api/portalvisibilitygroups', {
    code: 'PORTAL-CLM',
    name: 'Claims portal',
    dealerIds: [dealerId],
  })
  assert.equal(group.statusCode, 201, group.body)
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  dealerUser = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'], {
    groups: [{ id: json<{ id: number }>(group).id }],
  })
  const first = async (url: string) => json<Array<{ id: number }>>(await inject('GET', `${url}?limit=1`))[0]!.id
  lookups = {
    complaint: await first('/api/claims/complaints'),
    cause: await first('/api/claims/causes'),
    correction: await first('/api/claims/corrections'),
  }
})
after(() => t.close())

const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: unknown,
  h: Record<string, string> = demo.headers,
) => t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })

const job = (over: Record<string, unknown> = {}) => ({
  complaintId: lookups.complaint,
  causeId: lookups.cause,
  correctionId: lookups.correction,
  coverageComponentCode: 'block',
  parts: [{ partNumber: '30520-5A2-A01', description: 'Ignition coil', quantity: 1, unitPrice: 125, taxable: true }],
  labor: [{ operationCode: 'IGN-COIL', hours: 0.6, rate: 145 }],
  sublet: [{ description: 'Tow', amount: '20.00' }],
  ...over,
})

const body = (over: Record<string, unknown> = {}) => ({
  contractId: contracts[0]!.id,
  lossDate: '2026-05-20',
  odometer: 45000,
  repairFacilityId: facilityId,
  repairOrderNumber: 'RO-44821',
  taxRate: 0.0825,
  contact: { name: 'Service Advisor', phoneNumber: '+1-555-0199' },
  jobs: [job()],
  ...over,
})

const claimCount = () =>
  t.db.read(demo.tenantId, async (x) =>
    Number(
      (
        await x
          .selectFrom('claim')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', demo.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  )

/** POSTs a claim and asserts it is refused with 422 claim_invalid; replies its field errors as "field code". */
async function refused(payload: Record<string, unknown>): Promise<string[]> {
  const count = await claimCount()
  const res = await inject('POST', '/api/claims', payload)
  assert.equal(res.statusCode, 422, res.body)
  const p = json<Problem>(res)
  assert.equal(p.code, 'claim_invalid')
  assert.equal(await claimCount(), count, 'nothing written')
  return p.errors!.map((e) => `${e.field} ${e.code}`)
}

let taken: Claim

describe('intake', () => {
  test('a claim is taken: a number, OPEN, the requested total, an audit row and an event', async () => {
    const res = await inject('POST', '/api/claims', body())
    assert.equal(res.statusCode, 201, res.body)
    taken = json<Claim>(res)
    assert.match(taken.claimNumber, /^CLM-202606-\d{6}$/)
    assert.equal(taken.status, 'OPEN')
    assert.equal(taken.contractId, contracts[0]!.id)
    assert.equal(taken.contractNumber, contracts[0]!.contractNumber)
    assert.equal(taken.dealerId, dealerId)
    assert.equal(taken.vin, DEMO.vins.accord)
    assert.equal(taken.lossDate, '2026-05-20')
    assert.equal(taken.odometer, 45000)
    assert.deepEqual(taken.repairFacility, {
      accountHolderId: facilityId,
      name: 'Precision Auto Repair',
      laborRate: 145,
      taxRate: 0.0825,
    })
    const j = taken.jobs[0]!
    assert.equal(j.lineNumber, 1)
    assert.equal(j.status, 'PENDING')
    assert.equal(j.coverageComponentCode, 'BLOCK')
    assert.equal(j.complaint.id, lookups.complaint)
    assert.ok(j.complaint.text.length > 0)
    assert.equal(j.cause!.id, lookups.cause)
    assert.equal(j.correction!.id, lookups.correction)
    // 1 × 125.00 + 0.6 h × 145.00 + 20.00 sublet
    assert.equal(j.parts[0]!.requestedAmount, 125)
    assert.equal(j.labor[0]!.requestedAmount, 87)
    assert.equal(j.sublet[0]!.requestedAmount, 20)
    assert.equal(j.requestedTotal, 232)
    assert.equal(j.authorizedTotal, 0)
    assert.deepEqual(taken.totals, { requested: 232, authorized: 0, tax: 0, deductible: 0, payable: 0, paid: 0 })
    assert.deepEqual(taken.holds, [])
    assert.deepEqual(taken.paymentRequests, [])
    assert.equal(taken.inspection, null)
    assert.equal(taken.notesCount, 0)
    assert.equal(taken.version, 1)

    const written = await t.db.read(demo.tenantId, async (x) => ({
      audit: await x
        .selectFrom('audit_log')
        .select(['action', 'entity_id'])
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'claim')
        .execute(),
      events: await x
        .selectFrom('event_outbox')
        .select(['type', 'payload'])
        .where('tenant_id', '=', demo.tenantId)
        .where('type', '=', 'claim.created')
        .execute(),
    }))
    assert.deepEqual(written.audit, [{ action: 'claim.created', entity_id: String(taken.id) }])
    assert.equal(written.events.length, 1)
    const payload = written.events[0]!.payload as Record<string, unknown>
    assert.equal(payload.claimId, taken.id)
    assert.equal(payload.claimNumber, taken.claimNumber)
    assert.equal(payload.requested, '232.00')
  })

  test('numbers follow each other; a claim without jobs or odometer limits is taken too', async () => {
    const res = await inject('POST', '/api/claims', body({ contractId: contracts[1]!.id, jobs: [], contact: null }))
    assert.equal(res.statusCode, 201, res.body)
    const next = json<Claim>(res)
    const seq = (n: string) => Number(n.slice(-6))
    assert.equal(seq(next.claimNumber), seq(taken.claimNumber) + 1)
    assert.deepEqual(next.jobs, [])
    assert.equal(next.totals.requested, 0)
  })

  test('claimNumberFormat decides the number', async () => {
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/generalsettings/11',
      headers: demo.headers,
      payload: { value: 'C{yy}-{sequence:4}' },
    })
    assert.ok(set.statusCode === 200 || set.statusCode === 204, set.body)
    const res = await inject('POST', '/api/claims', body({ contractId: contracts[2]!.id, lossDate: '2026-05-10' }))
    assert.equal(res.statusCode, 201, res.body)
    assert.match(json<Claim>(res).claimNumber, /^C26-\d{4}$/)
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/generalsettings/11',
      headers: demo.headers,
      payload: { value: '{formPrefix}-{yyyy}{mm}-{sequence:6}' },
    })
    assert.ok(reset.statusCode === 200 || reset.statusCode === 204, reset.body)
  })

  test('the loss date: not a date, before the sale, in the future, within the waiting period', async () => {
    assert.deepEqual(await refused(body({ lossDate: '2026-5-20' })), ['lossDate invalid_format'])
    assert.deepEqual(await refused(body({ lossDate: '2026-03-01' })), ['lossDate before_sale_date'])
    assert.deepEqual(await refused(body({ lossDate: '2026-06-02' })), ['lossDate in_future'])
    // Sold and in effect 2026-03-10: 30 days wait, the first covered day is 2026-04-09.
    assert.deepEqual(await refused(body({ lossDate: '2026-04-08' })), ['lossDate within_waiting_period'])
  })

  test('a contract not in force on the loss date (PENDING, never finalized)', async () => {
    assert.deepEqual(await refused(body({ contractId: pending.id, lossDate: '2026-05-20' })), [
      'lossDate contract_not_in_force',
    ])
  })

  test('the odometer: required, below the sale odometer, within the waiting miles, past the coverage, below an earlier claim', async () => {
    assert.deepEqual(await refused(body({ odometer: null })), ['odometer required'])
    assert.deepEqual(await refused(body({ odometer: 40000 })), ['odometer below_sale_odometer'])
    assert.deepEqual(await refused(body({ lossDate: '2026-05-19', odometer: 42500 })), [
      'odometer within_waiting_period',
    ])
    assert.deepEqual(await refused(body({ odometer: 9_000_000 })), ['odometer at_or_above_expiration_odometer'])
    // The claim taken on contract 0 read 45,000 on 2026-05-20: a later loss cannot read less.
    assert.deepEqual(await refused(body({ lossDate: '2026-05-25', odometer: 44000 })), [
      'odometer below_earlier_claim_odometer',
    ])
  })

  test('the repair facility and the tax rate', async () => {
    assert.deepEqual(await refused(body({ repairFacilityId: dealerId })), ['repairFacilityId not_found'])
    assert.deepEqual(await refused(body({ repairFacilityId: 999_999_999 })), ['repairFacilityId not_found'])
    assert.deepEqual(await refused(body({ taxRate: 1.5 })), ['taxRate out_of_range'])
    assert.deepEqual(await refused(body({ taxRate: '0.1234567' })), ['taxRate too_precise'])
  })

  test("the three Cs must be the tenant's, the component the contract's coverage", async () => {
    assert.deepEqual(await refused(body({ jobs: [job({ complaintId: lookups.cause })] })), [
      'jobs[0].complaintId unknown_lookup',
    ])
    assert.deepEqual(await refused(body({ jobs: [job({ causeId: 999_999_999, correctionId: lookups.cause })] })), [
      'jobs[0].causeId unknown_lookup',
      'jobs[0].correctionId unknown_lookup',
    ])
    assert.deepEqual(await refused(body({ jobs: [job(), job({ coverageComponentCode: 'FLUX_CAPACITOR' })] })), [
      'jobs[1].coverageComponentCode not_covered',
    ])
  })

  test('the lines: quantities and hours above 0 with two places at most, prices 0 or more with two places', async () => {
    const part = { partNumber: 'P', description: 'Part', quantity: 1, unitPrice: 10, taxable: false }
    assert.deepEqual(
      await refused(
        body({
          jobs: [
            job({
              parts: [
                { ...part, quantity: 0 },
                { ...part, unitPrice: -1 },
                { ...part, unitPrice: 1.234 },
              ],
              labor: [{ hours: 1.234, rate: 100 }],
              sublet: [{ description: 'S', amount: 'ten' }],
            }),
          ],
        }),
      ),
      [
        'jobs[0].parts[1].unitPrice out_of_range',
        'jobs[0].parts[2].unitPrice too_precise',
        'jobs[0].sublet[0].amount invalid_format',
        'jobs[0].parts[0].quantity out_of_range',
        'jobs[0].labor[0].hours invalid_format',
      ],
    )
  })

  test('every refusal at once', async () => {
    const errors = await refused(
      body({ lossDate: '2026-06-02', odometer: 40000, taxRate: 2, jobs: [job({ coverageComponentCode: 'X' })] }),
    )
    assert.deepEqual(errors.toSorted(), [
      'jobs[0].coverageComponentCode not_covered',
      'lossDate in_future',
      'odometer below_sale_odometer',
      'taxRate out_of_range',
    ])
  })

  test('bad shapes are 400; an unknown or invisible contract 404', async () => {
    const res = await inject('POST', '/api/claims', { ...body(), extra: 1 })
    assert.equal(res.statusCode, 400, res.body)
    const missing = await inject('POST', '/api/claims', { lossDate: '2026-05-20' })
    assert.equal(missing.statusCode, 400, missing.body)
    const unknown = await inject('POST', '/api/claims', body({ contractId: 999_999_999 }))
    assert.equal(unknown.statusCode, 404, unknown.body)
    const invisible = await inject('POST', '/api/claims', body({ contractId: otherDealers.id }), dealerUser.headers)
    assert.equal(invisible.statusCode, 404, invisible.body)
  })
})

describe('read', () => {
  test("GET /api/claims/{claimId} reads the claim as intake answered it; the lookups' static routes still answer", async () => {
    const res = await inject('GET', `/api/claims/${taken.id}`)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(json<Claim>(res), taken)
    const causes = await inject('GET', '/api/claims/causes')
    assert.equal(causes.statusCode, 200, causes.body)
    assert.ok(Array.isArray(json(causes)))
    const complaints = await inject('GET', '/api/claims/complaintcausecorrections?limit=1')
    assert.equal(complaints.statusCode, 200, complaints.body)
    assert.equal((await inject('GET', '/api/claims/not-a-number')).statusCode, 400)
    assert.equal((await inject('GET', '/api/claims/999999999')).statusCode, 404)
  })
})

let mine: Claim
let theirs: Claim

describe('index', () => {
  before(async () => {
    // Ten minutes later (the tokens stay valid): the created filters tell these two from the others.
    t.clock.set(new Date('2026-06-01T18:10:00Z'))
    const a = await inject('POST', '/api/claims', body({ lossDate: '2026-06-01', odometer: 46000 }), dealerUser.headers)
    assert.equal(a.statusCode, 201, a.body)
    mine = json<Claim>(a)
    const b = await inject(
      'POST',
      '/api/claims',
      body({ contractId: otherDealers.id, repairFacilityId: otherFacilityId, lossDate: '2026-05-01' }),
    )
    assert.equal(b.statusCode, 201, b.body)
    theirs = json<Claim>(b)
  })

  const list = async (query: string, h = demo.headers) => {
    const res = await inject('GET', `/api/claims${query}`, undefined, h)
    assert.equal(res.statusCode, 200, res.body)
    return json<Page<Claim>>(res)
  }
  const idsOf = (p: Page<Claim>) => p.items.map((c) => c.id)

  test('newest first, paged', async () => {
    const all = await list('')
    assert.equal(all.totalCount, 5)
    assert.deepEqual(
      idsOf(all),
      idsOf(all).toSorted((x, y) => y - x),
    )
    assert.equal(all.items[0]!.id, theirs.id)
    const page2 = await list('?pageSize=2&pageNumber=2')
    assert.deepEqual(page2, { ...page2, pageNumber: 2, pageSize: 2, totalCount: 5, totalPages: 3 })
    assert.deepEqual(idsOf(page2), idsOf(all).slice(2, 4))
    assert.equal((all.items[0] as unknown as Record<string, unknown>).jobs, undefined, 'summaries carry no jobs')
    // A page past the end: no claims, the total still counted.
    const past = await list('?pageSize=2&pageNumber=9')
    assert.deepEqual(past, { items: [], pageNumber: 9, pageSize: 2, totalCount: 5, totalPages: 3 })
  })

  test("a summary's instants and figures are the claim's, as GET /api/claims/{claimId} shows them", async () => {
    const read = await inject('GET', `/api/claims/${mine.id}`, undefined, demo.headers)
    assert.equal(read.statusCode, 200, read.body)
    const full = json<Record<string, unknown>>(read)
    const summary = (await list(`?contractId=${mine.contractId}`)).items.find((c) => c.id === mine.id) as unknown as
      Record<string, unknown> | undefined
    assert.ok(summary)
    // The database writes the summaries (claim.repository searchClaims): every key is the claim's.
    for (const key of Object.keys(summary).filter((k) => k !== 'repairFacility'))
      assert.deepEqual(summary[key], full[key], key)
    assert.deepEqual(Object.keys(summary).toSorted(), [
      'adjusterUserId',
      'claimNumber',
      'contractId',
      'contractNumber',
      'createdAt',
      'dealerId',
      'id',
      'lossDate',
      'odometer',
      'repairFacility',
      'repairOrderNumber',
      'reportedAt',
      'status',
      'totals',
      'updatedAt',
      'version',
      'vin',
    ])
    const facility = full.repairFacility as { accountHolderId: number; name: string }
    assert.deepEqual(summary.repairFacility, { accountHolderId: facility.accountHolderId, name: facility.name })
    assert.equal(summary.createdAt, '2026-06-01T18:10:00.000Z')
  })

  test('each filter', async () => {
    assert.deepEqual(idsOf(await list(`?contractId=${contracts[0]!.id}`)), [mine.id, taken.id])
    assert.deepEqual(idsOf(await list(`?dealerId=${theirs.dealerId}`)), [theirs.id])
    assert.deepEqual(idsOf(await list(`?repairFacilityId=${otherFacilityId}`)), [theirs.id])
    assert.equal((await list(`?vin=${DEMO.vins.accord.toLowerCase()}`)).totalCount, 5)
    // A well-formed VIN no claim of this file names.
    assert.equal((await list(`?vin=${DEMO.vins.camry}`)).totalCount, 0)
    assert.equal((await list('?status=OPEN')).totalCount, 5)
    assert.equal((await list('?status=PAID')).totalCount, 0)
    assert.deepEqual(idsOf(await list('?lossDateFrom=2026-06-01')), [mine.id])
    assert.deepEqual(idsOf(await list('?lossDateTo=2026-05-01')), [theirs.id])
    assert.deepEqual(idsOf(await list('?lossDateFrom=2026-05-01&lossDateTo=2026-05-10')).length, 2)
    assert.deepEqual(idsOf(await list('?createdFrom=2026-06-01T18:05:00Z')), [theirs.id, mine.id])
    assert.equal((await list('?createdTo=2026-06-01T18:05:00Z')).totalCount, 3)
    assert.equal((await list(`?adjusterUserId=${demo.adminUserId}`)).totalCount, 0)
    assert.equal((await inject('GET', '/api/claims?status=NOPE')).statusCode, 400)
    assert.equal((await inject('GET', '/api/claims?lossDateFrom=yesterday')).statusCode, 400)
  })

  test("dealer-side users see their dealers' claims only", async () => {
    const seen = await list('', dealerUser.headers)
    assert.equal(seen.totalCount, 4)
    assert.ok(!idsOf(seen).includes(theirs.id))
    assert.equal((await list(`?dealerId=${theirs.dealerId}`, dealerUser.headers)).totalCount, 0)
    const hidden = await inject('GET', `/api/claims/${theirs.id}`, undefined, dealerUser.headers)
    assert.equal(hidden.statusCode, 404, hidden.body)
    assert.equal(json<Problem>(hidden).code, 'claim_not_found')
    const own = await inject('GET', `/api/claims/${mine.id}`, undefined, dealerUser.headers)
    assert.equal(own.statusCode, 200, own.body)
  })

  test('another tenant sees none of them', async () => {
    const other = await createTenant(t, 'Other claims tenant')
    const res = await inject('GET', `/api/claims/${taken.id}`, undefined, other.headers)
    assert.equal(res.statusCode, 404, res.body)
    const page = await list('', other.headers)
    assert.equal(page.totalCount, 0)
    const post = await inject('POST', '/api/claims', body(), other.headers)
    assert.equal(post.statusCode, 404, post.body)
  })
})

describe('edit (PUT, PATCH)', () => {
  const edit = (over: Record<string, unknown> = {}) => ({
    repairOrderNumber: 'RO-2',
    taxRate: 0.0825,
    contact: null,
    jobs: [
      job({
        parts: [{ partNumber: 'P-1', description: 'Ignition coil', quantity: 2, unitPrice: 125, taxable: true }],
        labor: [{ operationCode: 'IGN-COIL', hours: 1.2, rate: 145 }],
        sublet: [],
      }),
    ],
    ...over,
  })
  const setRow = (values: Record<string, unknown>) =>
    t.db.transaction(demo.tenantId, (tx) =>
      tx.updateTable('claim').set(values).where('tenant_id', '=', demo.tenantId).where('id', '=', taken.id).execute(),
    )
  const send = (method: 'PUT' | 'PATCH', payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url: `/api/claims/${taken.id}`,
      headers: { ...demo.headers, ...headers },
      payload: payload as object,
    })

  test('PUT replaces the jobs, the repair order, the contact and the tax rate; totals recomputed, audited', async () => {
    const res = await send('PUT', edit())
    assert.equal(res.statusCode, 200, res.body)
    const c = json<Claim & { repairOrderNumber: string; contact: unknown }>(res)
    assert.equal(res.headers.etag, `"${taken.version + 1}"`)
    assert.equal(c.version, taken.version + 1)
    assert.equal(c.repairOrderNumber, 'RO-2')
    assert.equal(c.contact, null)
    // 2 × 125.00 + 1.2 h × 145.00
    assert.equal(c.totals.requested, 424)
    assert.equal(c.jobs[0]!.status, 'PENDING')
    assert.equal(c.claimNumber, taken.claimNumber)
    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('action')
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'claim')
        .where('entity_id', '=', String(taken.id))
        .execute(),
    )
    assert.deepEqual(audit.map((a) => a.action).toSorted(), ['claim.created', 'claim.updated'])
  })

  test('PUT: missing members 400; a stale If-Match 412; a refused job 422 with nothing changed', async () => {
    const missing = await send('PUT', { jobs: [] })
    assert.equal(missing.statusCode, 400, missing.body)
    const stale = await send('PUT', edit(), { 'if-match': `"${taken.version}"` })
    assert.equal(stale.statusCode, 412, stale.body)
    const bad = await send('PUT', edit({ jobs: [job({ coverageComponentCode: 'FLUX' })] }))
    assert.equal(bad.statusCode, 422, bad.body)
    assert.deepEqual(
      json<Problem>(bad).errors!.map((e) => `${e.field} ${e.code}`),
      ['jobs[0].coverageComponentCode not_covered'],
    )
    const now = json<Claim>(await inject('GET', `/api/claims/${taken.id}`))
    assert.equal(now.version, taken.version + 1)
    assert.equal(now.totals.requested, 424)
  })

  test('PATCH: a merge patch, a JSON Patch; the fixed members cannot change', async () => {
    const merged = await send(
      'PATCH',
      { repairOrderNumber: 'RO-3' },
      { 'content-type': 'application/merge-patch+json' },
    )
    assert.equal(merged.statusCode, 200, merged.body)
    const m = json<Claim & { repairOrderNumber: string }>(merged)
    assert.equal(m.repairOrderNumber, 'RO-3')
    assert.equal(m.totals.requested, 424)
    const jsonPatch = await send('PATCH', [{ op: 'replace', path: '/jobs/0/parts/0/quantity', value: 1 }], {
      'content-type': 'application/json-patch+json',
      'if-match': `"${m.version}"`,
    })
    assert.equal(jsonPatch.statusCode, 200, jsonPatch.body)
    assert.equal(json<Claim>(jsonPatch).totals.requested, 299)
    const fixed = await send('PATCH', { lossDate: '2026-05-21' })
    assert.equal(fixed.statusCode, 422, fixed.body)
    assert.equal(json<Problem>(fixed).code, 'immutable_field')
    const invalid = await send('PATCH', { jobs: [{ complaintId: 'x' }] })
    assert.equal(invalid.statusCode, 422, invalid.body)
  })

  test("423 while another user holds the claim's edit lock; 409 in a status that allows no edit", async () => {
    await setRow({
      lock_user_id: dealerUser.id,
      lock_user_label: 'adjuster17',
      lock_expires_at: new Date(LATER.getTime() + 3_600_000),
    })
    const locked = await send('PATCH', { repairOrderNumber: 'RO-4' })
    assert.equal(locked.statusCode, 423, locked.body)
    assert.equal(json<Problem>(locked).code, 'claim_locked')
    await setRow({ lock_user_id: null, lock_user_label: null, lock_expires_at: null, status: 'DENIED' })
    const denied = await send('PATCH', { repairOrderNumber: 'RO-4' })
    assert.equal(denied.statusCode, 409, denied.body)
    assert.equal(json<Problem>(denied).code, 'claim_state_conflict')
    await setRow({ status: 'OPEN' })
  })

  test('404 for a claim the caller cannot see', async () => {
    const hidden = await t.app.inject({
      method: 'PATCH',
      url: `/api/claims/${theirs.id}`,
      headers: dealerUser.headers,
      payload: { repairOrderNumber: 'X' },
    })
    assert.equal(hidden.statusCode, 404, hidden.body)
    const other = await createTenant(t, 'Other editing tenant')
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/claims/${taken.id}`,
      headers: other.headers,
      payload: edit(),
    })
    assert.equal(put.statusCode, 404, put.body)
  })
})

describe('claims and cancels', () => {
  test('an open claim blocks a cancel (409 claims_open) unless the cancel includes it', async () => {
    // contracts[0] has the open claims taken above.
    const cancel = { cancelDate: '2026-05-31', cancelOdometer: 46000, cancelReasonCode: 'CUSTOMER_REQUEST' }
    const blocked = await inject('POST', `/api/contracts/${contracts[0]!.id}/cancelrequests?quoteOnly=true`, cancel)
    assert.equal(blocked.statusCode, 409, blocked.body)
    assert.equal(json<Problem>(blocked).code, 'claims_open')
    const included = await inject('POST', `/api/contracts/${contracts[0]!.id}/cancelrequests?quoteOnly=true`, {
      ...cancel,
      includeOpenClaims: true,
    })
    assert.equal(included.statusCode, 200, included.body)
    // A contract without claims is quoted as before.
    const fresh = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-05-25', finalize: true })
    const free = await inject('POST', `/api/contracts/${fresh.id}/cancelrequests?quoteOnly=true`, cancel)
    assert.equal(free.statusCode, 200, free.body)
  })
})
