// A claim's notes and documents over HTTP on the demo tenant (docs/claims.md "Notes and documents"):
// notes are appended (201, audited claim_note.created), read one by one and listed oldest first with
// X-Total-Count; `notes/all` is not taken for a note id; STAFF notes are hidden from dealer-side
// users; blank or overlong text is refused with nothing written. Documents go through the documents
// module's collection (upload, list, read; none on a voided claim). The claim's notesCount and
// documentsCount count them. Another tenant and a dealer-side user of other dealers get 404s.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-06-01T18:00:00Z')

type Contract = { id: number }
type Claim = { id: number; notesCount: number; documentsCount: number }
type Note = { id: number; claimId: number; text: string; visibility: string; createdAt: string; createdBy: string }
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }
type Doc = { documentId: number; ownerType: string; ownerId: number; kind: string }

let t: TestApp
let demo: DemoTestTenant
let dealerUser: { headers: Record<string, string> }
let other: { headers: Record<string, string> }
let mine: Claim
let theirs: Claim
let quiet: Claim

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, h: Record<string, string> = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })

const noteCount = () =>
  t.db.read(demo.tenantId, async (x) =>
    Number(
      (
        await x
          .selectFrom('claim_note')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', demo.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  )

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
  const ours = await sellDemoContract<Contract>(t, demo, { saleDate: '2026-03-10', finalize: true })
  const otherDealers = await sellDemoContract<Contract>(t, demo, {
    saleDate: '2026-03-10',
    dealerNumber: DEMO.otherDealerNumber,
    finalize: true,
  })
  const ids = await t.db.read(demo.tenantId, async (x) => ({
    dealer: await x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', ours.id)
      .executeTakeFirstOrThrow(),
    facility: await x
      .selectFrom('account_holder')
      .select('id')
      .where('tenant_id', '=', demo.tenantId)
      .where('kind', '=', 'REPAIR_FACILITY')
      .where('business_key', '=', 'RF-ATX')
      .executeTakeFirstOrThrow(),
  }))
  const group = await inject('POST', '/api/portalvisibilitygroups', {
    code: 'PORTAL-CLM-NOTES',
    name: 'Claims notes portal',
    dealerIds: [ids.dealer.dealer_id],
  })
  assert.equal(group.statusCode, 201, group.body)
  t.clock.set(LATER)
  demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
  dealerUser = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'], {
    groups: [{ id: json<{ id: number }>(group).id }],
  })
  other = await createTenant(t, 'Other notes tenant')
  const take = async (contractId: number, lossDate: string, odometer: number) => {
    const res = await inject('POST', '/api/claims', {
      contractId,
      lossDate,
      odometer,
      repairFacilityId: ids.facility.id,
      jobs: [],
    })
    assert.equal(res.statusCode, 201, res.body)
    return json<Claim>(res)
  }
  mine = await take(ours.id, '2026-05-20', 45000)
  quiet = await take(ours.id, '2026-05-21', 45100)
  theirs = await take(otherDealers.id, '2026-05-20', 45000)
})
after(() => t.close())

describe('notes', () => {
  let first: Note

  test('a note is added (201, Location, audited) and read back', async () => {
    const res = await inject('POST', `/api/claims/${mine.id}/notes`, { text: 'Called the service advisor.' })
    assert.equal(res.statusCode, 201, res.body)
    first = json<Note>(res)
    assert.equal(first.claimId, mine.id)
    assert.equal(first.text, 'Called the service advisor.')
    assert.equal(first.visibility, 'ALL')
    assert.equal(first.createdAt, LATER.toISOString())
    assert.ok(first.createdBy.length > 0)
    assert.equal(res.headers.location, `/api/claims/${mine.id}/notes/${first.id}`)
    const read = await inject('GET', `/api/claims/${mine.id}/notes/${first.id}`)
    assert.equal(read.statusCode, 200, read.body)
    assert.deepEqual(json<Note>(read), first)
    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'entity_type', 'entity_id'])
        .where('tenant_id', '=', demo.tenantId)
        .where('action', '=', 'claim_note.created')
        .execute(),
    )
    assert.deepEqual(audit, [{ action: 'claim_note.created', entity_type: 'claim', entity_id: String(mine.id) }])
  })

  test('notes/all lists every note, oldest first, paged by limit/offset with X-Total-Count', async () => {
    const second = json<Note>(
      await inject('POST', `/api/claims/${mine.id}/notes`, { text: 'Teardown authorized.' }, dealerUser.headers),
    )
    const staff = await inject('POST', `/api/claims/${mine.id}/notes`, { text: 'Watch this one.', visibility: 'STAFF' })
    assert.equal(staff.statusCode, 201, staff.body)
    const third = json<Note>(staff)
    const all = await inject('GET', `/api/claims/${mine.id}/notes/all`)
    assert.equal(all.statusCode, 200, all.body)
    assert.equal(all.headers['x-total-count'], '3')
    assert.deepEqual(
      json<Note[]>(all).map((n) => n.id),
      [first.id, second.id, third.id],
    )
    const window = await inject('GET', `/api/claims/${mine.id}/notes/all?limit=1&offset=1`)
    assert.equal(window.headers['x-total-count'], '3')
    assert.deepEqual(
      json<Note[]>(window).map((n) => n.id),
      [second.id],
    )
    // Another claim's list is its own (empty).
    const none = await inject('GET', `/api/claims/${quiet.id}/notes/all`)
    assert.deepEqual(json<Note[]>(none), [])
    assert.equal(none.headers['x-total-count'], '0')
  })

  test('STAFF notes: dealer-side users neither read, count nor write them', async () => {
    const listed = await inject('GET', `/api/claims/${mine.id}/notes/all`, undefined, dealerUser.headers)
    assert.equal(listed.statusCode, 200, listed.body)
    assert.equal(listed.headers['x-total-count'], '2')
    const staffNote = json<Note[]>(await inject('GET', `/api/claims/${mine.id}/notes/all`)).find(
      (n) => n.visibility === 'STAFF',
    )!
    const hidden = await inject('GET', `/api/claims/${mine.id}/notes/${staffNote.id}`, undefined, dealerUser.headers)
    assert.equal(hidden.statusCode, 404, hidden.body)
    assert.equal(json<Problem>(hidden).code, 'claim_note_not_found')
    const count = await noteCount()
    const refused = await inject(
      'POST',
      `/api/claims/${mine.id}/notes`,
      { text: 'x', visibility: 'STAFF' },
      dealerUser.headers,
    )
    assert.equal(refused.statusCode, 422, refused.body)
    assert.deepEqual(
      json<Problem>(refused).errors!.map((e) => `${e.field} ${e.code}`),
      ['visibility not_allowed'],
    )
    assert.equal(await noteCount(), count, 'nothing written')
    assert.equal(
      json<Claim>(await inject('GET', `/api/claims/${mine.id}`, undefined, dealerUser.headers)).notesCount,
      2,
    )
    assert.equal(json<Claim>(await inject('GET', `/api/claims/${mine.id}`)).notesCount, 3)
  })

  test('bad text: 400 missing, empty, too long or an unknown member; 422 blanks only; nothing written', async () => {
    const count = await noteCount()
    for (const payload of [
      {},
      { text: '' },
      { text: 'x'.repeat(4001) },
      { text: 'ok', extra: 1 },
      { text: 'ok', visibility: 'X' },
    ]) {
      const res = await inject('POST', `/api/claims/${mine.id}/notes`, payload)
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload).slice(0, 40)}: ${res.body}`)
    }
    const blank = await inject('POST', `/api/claims/${mine.id}/notes`, { text: '   ' })
    assert.equal(blank.statusCode, 422, blank.body)
    assert.equal(json<Problem>(blank).code, 'claim_note_invalid')
    assert.deepEqual(
      json<Problem>(blank).errors!.map((e) => `${e.field} ${e.code}`),
      ['text blank'],
    )
    const longest = await inject('POST', `/api/claims/${quiet.id}/notes`, { text: 'y'.repeat(4000) })
    assert.equal(longest.statusCode, 201, longest.body)
    assert.equal(await noteCount(), count + 1)
  })

  test('404: another claim, another tenant, a claim a dealer-side user cannot see, an unknown note', async () => {
    const n = json<Note[]>(await inject('GET', `/api/claims/${mine.id}/notes/all`))[0]!
    const elsewhere = await inject('GET', `/api/claims/${quiet.id}/notes/${n.id}`)
    assert.equal(elsewhere.statusCode, 404, elsewhere.body)
    assert.equal(json<Problem>(elsewhere).code, 'claim_note_not_found')
    assert.equal((await inject('GET', `/api/claims/${mine.id}/notes/987654321`)).statusCode, 404)
    assert.equal((await inject('GET', `/api/claims/${mine.id}/notes/99999999999999999999`)).statusCode, 404)
    const count = await noteCount()
    for (const [h, claim] of [
      [other.headers, mine],
      [dealerUser.headers, theirs],
    ] as const) {
      for (const res of [
        await inject('POST', `/api/claims/${claim.id}/notes`, { text: 'nope' }, h),
        await inject('GET', `/api/claims/${claim.id}/notes/all`, undefined, h),
        await inject('GET', `/api/claims/${claim.id}/notes/${n.id}`, undefined, h),
      ]) {
        assert.equal(res.statusCode, 404, res.body)
        assert.equal(json<Problem>(res).code, 'claim_not_found')
      }
    }
    assert.equal(await noteCount(), count, 'nothing written')
  })
})

describe('documents', () => {
  const upload = (claimId: number, name: string, h: Record<string, string> = demo.headers) =>
    t.app.inject({
      method: 'POST',
      url: `/api/claims/${claimId}/documents?fileName=${name}`,
      headers: { ...h, 'content-type': 'text/plain' },
      payload: `invoice ${name}`,
    })

  test('upload, list and read; the claim counts them', async () => {
    const a = await upload(mine.id, 'invoice.txt')
    assert.equal(a.statusCode, 201, a.body)
    const doc = json<Doc>(a)
    assert.equal(doc.ownerType, 'CLAIM')
    assert.equal(doc.ownerId, mine.id)
    assert.equal(doc.kind, 'CLAIM_DOCUMENT')
    assert.equal(a.headers.location, `/api/claims/${mine.id}/documents/${doc.documentId}`)
    const b = await upload(mine.id, 'photo.txt', dealerUser.headers)
    assert.equal(b.statusCode, 201, b.body)
    const listed = await inject('GET', `/api/claims/${mine.id}/documents`)
    assert.equal(listed.statusCode, 200, listed.body)
    assert.equal(listed.headers['x-total-count'], '2')
    assert.deepEqual(
      json<Doc[]>(listed).map((d) => d.documentId),
      [doc.documentId, json<Doc>(b).documentId],
    )
    const read = await inject('GET', `/api/claims/${mine.id}/documents/${doc.documentId}`)
    assert.equal(read.statusCode, 200, read.body)
    assert.equal(json<Doc>(read).documentId, doc.documentId)
    // A document of another claim is not in this one's collection.
    const elsewhere = await inject('GET', `/api/claims/${quiet.id}/documents/${doc.documentId}`)
    assert.equal(elsewhere.statusCode, 404, elsewhere.body)

    const claim = json<Claim>(await inject('GET', `/api/claims/${mine.id}`))
    assert.equal(claim.documentsCount, 2)
    assert.equal(claim.notesCount, 3)
    const empty = json<Claim>(await inject('GET', `/api/claims/${theirs.id}`))
    assert.equal(empty.documentsCount, 0)
    assert.equal(empty.notesCount, 0)
  })

  test('404 for another tenant or an invisible claim; 409 on a voided claim (reads go on)', async () => {
    for (const [h, claim] of [
      [other.headers, mine],
      [dealerUser.headers, theirs],
    ] as const) {
      assert.equal((await upload(claim.id, 'x.txt', h)).statusCode, 404)
      assert.equal((await inject('GET', `/api/claims/${claim.id}/documents`, undefined, h)).statusCode, 404)
    }
    await t.db.transaction(demo.tenantId, (tx) =>
      tx
        .updateTable('claim')
        .set({ status: 'VOIDED' })
        .where('tenant_id', '=', demo.tenantId)
        .where('id', '=', quiet.id)
        .execute(),
    )
    const voided = await upload(quiet.id, 'late.txt')
    assert.equal(voided.statusCode, 409, voided.body)
    assert.equal(json<Problem>(voided).code, 'claim_state_conflict')
    assert.equal((await inject('GET', `/api/claims/${quiet.id}/documents`)).statusCode, 200)
    // Notes still go on a voided claim: they record why.
    assert.equal((await inject('POST', `/api/claims/${quiet.id}/notes`, { text: 'Entered twice.' })).statusCode, 201)
  })
})
