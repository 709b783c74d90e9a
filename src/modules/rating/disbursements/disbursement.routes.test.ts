// Account-holder disbursements through HTTP: create, read, list, patch (both formats), the audit-log
// entry of each change, every 4xx, dealer-side visibility, the rate book's codes, and forQuote's
// cache kept true across instances by the invalidation bus.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type TestApp,
  type TestTenant,
} from '../../../../test/harness.ts'
import { KINDS } from '../../parties/index.ts'
import { systemContext } from '../../../platform/http/context.ts'
import { demoRateBook } from '../index.ts'

let t: TestApp

before(async () => {
  t = await createTestApp({ now: new Date('2026-06-01T12:00:00Z') })
})
after(() => t.close())

const BASE = '/api/Rates/Disbursements'

type Headers = Record<string, string>
type Disbursement = {
  id: number
  accountHolderId: number
  accountHolderKind: string
  code: string
  label: string
  group: string
  basis: string
  amount: number | null
  percent: number | null
  target: { productId: number | null; programId: number | null; planId: number | null; termId: number | null }
  effectiveFrom: string
  effectiveTo: string | null
  createdAt: string
  updatedAt: string
  version: number
  auditLogId: number
}
type AuditEntry = {
  id: number
  disbursementId: number
  accountHolderId: number
  action: string
  occurredAt: string
  actor: { userId: number | null; label: string }
  requestId: string | null
  changedFields: string[]
  before: Record<string, unknown> | null
  after: Record<string, unknown>
}
type Problem = {
  status: number
  code: string
  detail: string
  errors?: Array<{ field: string; code: string; message: string }>
}

const fields = (res: { json(): unknown }) => ((res.json() as Problem).errors ?? []).map((e) => [e.field, e.code])

/** The demo book without fixed payees (they would need insurers), plus a dealer-pack code. */
function testBook(
  effectiveDate: string,
  extraCodes = [{ code: 'DLRPACK', label: 'Dealer pack', group: 'DEALER_PACK' as const }],
) {
  const book = demoRateBook(effectiveDate)
  return { ...book, disbursementCodes: [...book.disbursementCodes.map(({ payee: _payee, ...c }) => c), ...extraCodes] }
}

async function importBook(tenant: TestTenant, book: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Rates/ratebooks',
    headers: tenant.headers,
    payload: book as Record<string, unknown>,
  })
  assert.equal(res.statusCode, 201, res.body)
}

type World = {
  tenant: TestTenant
  /** Catalogue id of an item by kind and code. */
  item(kind: string, code: string): number
  dealer: number
  otherDealer: number
  group: number
  agent: number
  customer: number
}

let seq = 0
async function create(tenant: TestTenant, path: string, payload: Record<string, unknown>): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: tenant.headers, payload })
  assert.equal(res.statusCode, 201, `${path}: ${res.body}`)
  return json<{ id: number }>(res).id
}

async function world(options: { book?: boolean } = {}): Promise<World> {
  const tenant = await createTenant(t, 'Disbursements')
  if (options.book !== false) await importBook(tenant, testBook('2026-01-01'))
  const items = await t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('rating_catalogue_item')
      .select(['id', 'kind', 'code'])
      .where('tenant_id', '=', tenant.tenantId)
      .execute(),
  )
  seq += 1
  const group = await create(tenant, '/api/dealergroups', { groupCode: `G${seq}`, legalName: 'Group' })
  const agent = await create(tenant, '/api/agents', { agentCode: `A${seq}`, legalName: 'Agent' })
  const dealer = await create(tenant, '/api/dealers', {
    dealerNumber: `D${seq}`,
    legalName: 'Dealer',
    dealerGroupId: group,
    agentIds: [agent],
  })
  const otherDealer = await create(tenant, '/api/dealers', { dealerNumber: `E${seq}`, legalName: 'Other dealer' })
  const customer = (
    await t.modules.parties.accountHolders.create(systemContext(tenant.tenantId), KINDS.CUSTOMER, {
      legalName: 'Customer',
      dealerId: dealer,
    })
  ).id
  return {
    tenant,
    dealer,
    otherDealer,
    group,
    agent,
    customer,
    item(kind, code) {
      const found = items.find((i) => i.kind === kind && i.code === code)
      assert.ok(found, `${kind} ${code}`)
      return found.id
    },
  }
}

const post = (headers: Headers, holderId: number | string, body: unknown, extra: Headers = {}) =>
  t.app.inject({
    method: 'POST',
    url: `${BASE}/AccountHolder/${holderId}`,
    headers: { ...headers, ...extra },
    payload: body as Record<string, unknown>,
  })
const get = (headers: Headers, path: string) => t.app.inject({ method: 'GET', url: `${BASE}${path}`, headers })
const patch = (
  headers: Headers,
  id: number | string,
  body: unknown,
  contentType = 'application/merge-patch+json',
  extra: Headers = {},
) =>
  t.app.inject({
    method: 'PATCH',
    url: `${BASE}/${id}`,
    headers: { ...headers, 'content-type': contentType, ...extra },
    payload: JSON.stringify(body),
  })

async function createDisbursement(
  headers: Headers,
  holderId: number,
  body: Record<string, unknown>,
): Promise<Disbursement> {
  const res = await post(headers, holderId, body)
  assert.equal(res.statusCode, 201, res.body)
  return json<Disbursement>(res)
}

async function auditEntry(headers: Headers, id: number): Promise<AuditEntry> {
  const res = await get(headers, `/AuditLog/${id}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<AuditEntry>(res)
}

describe('disbursements', () => {
  test('create → read → patch (merge and JSON Patch) → audit-log entries → list', async () => {
    const w = await world()
    const h = w.tenant.headers
    const vsc = w.item('PRODUCT', 'VSC')
    const platUsed = w.item('PLAN', 'PLAT-USED')

    const created = await post(h, w.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 150,
      target: { productId: vsc, planId: platUsed },
      effectiveFrom: '2026-01-01',
    })
    assert.equal(created.statusCode, 201, created.body)
    const d = json<Disbursement>(created)
    assert.equal(created.headers.location, `${BASE}/${d.id}`)
    assert.equal(created.headers.etag, '"1"')
    assert.ok(Number.isInteger(d.auditLogId))
    assert.deepEqual(
      { ...d, id: 0, createdAt: '', updatedAt: '', auditLogId: 0 },
      {
        id: 0,
        accountHolderId: w.dealer,
        accountHolderKind: 'DEALER',
        code: 'DLRPACK',
        label: 'Dealer pack',
        group: 'DEALER_PACK',
        basis: 'AMOUNT',
        amount: 150,
        percent: null,
        target: { productId: vsc, programId: null, planId: platUsed, termId: null },
        effectiveFrom: '2026-01-01',
        effectiveTo: null,
        createdAt: '',
        updatedAt: '',
        version: 1,
        auditLogId: 0,
      },
    )
    // Money is a JSON number in the reply text itself, not a decimal string.
    assert.match(created.body, /"amount":150,"percent":null,/)

    const read = await get(h, `/${d.id}`)
    assert.equal(read.statusCode, 200)
    assert.equal(read.headers.etag, '"1"')
    assert.deepEqual(json(read), d)
    // Paths match case-insensitively.
    assert.equal((await get(h, `/${d.id}`.toUpperCase())).statusCode, 200)
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/API/RATES/DISBURSEMENTS/${d.id}`, headers: h })).statusCode,
      200,
    )

    const createdEntry = await auditEntry(h, d.auditLogId)
    assert.equal(createdEntry.action, 'CREATED')
    assert.equal(createdEntry.disbursementId, d.id)
    assert.equal(createdEntry.accountHolderId, w.dealer)
    assert.equal(createdEntry.before, null)
    assert.equal(createdEntry.after.amount, 150)
    assert.equal(createdEntry.after.percent, null)
    assert.equal(createdEntry.actor.label, w.tenant.adminEmail)
    assert.equal(createdEntry.actor.userId, w.tenant.adminUserId)
    assert.ok(createdEntry.changedFields.includes('amount') && createdEntry.changedFields.includes('target.planId'))

    // Ending it and changing the amount: merge patch (plain application/json reads as one too); a
    // decimal string is still accepted and answered as the number it stands for.
    const ended = await patch(h, d.id, { effectiveTo: '2026-12-31', amount: '175.50' }, 'application/json')
    assert.equal(ended.statusCode, 200, ended.body)
    const e = json<Disbursement>(ended)
    assert.equal(e.amount, 175.5)
    assert.match(ended.body, /"amount":175\.5,/)
    assert.equal(e.effectiveTo, '2026-12-31')
    assert.equal(e.version, 2)
    assert.equal(ended.headers.etag, '"2"')
    assert.ok(e.auditLogId > d.auditLogId)
    const updatedEntry = await auditEntry(h, e.auditLogId)
    assert.equal(updatedEntry.action, 'UPDATED')
    assert.deepEqual(updatedEntry.changedFields, ['amount', 'effectiveTo'])
    assert.equal(updatedEntry.before?.amount, 150)
    assert.equal(updatedEntry.after.amount, 175.5)
    assert.equal(updatedEntry.after.version, 2)
    // The earlier entry still reads as it was.
    assert.deepEqual(await auditEntry(h, d.auditLogId), createdEntry)

    // JSON Patch switching the basis, with If-Match.
    const switched = await patch(
      h,
      d.id,
      [
        { op: 'test', path: '/basis', value: 'AMOUNT' },
        { op: 'replace', path: '/basis', value: 'PERCENT' },
        { op: 'remove', path: '/amount' },
        { op: 'replace', path: '/percent', value: 2.5 },
      ],
      'application/json-patch+json',
      { 'if-match': '"2"' },
    )
    assert.equal(switched.statusCode, 200, switched.body)
    assert.equal(json<Disbursement>(switched).percent, 2.5)
    assert.equal(json<Disbursement>(switched).amount, null)
    // JSON Patch test operations compare with the numbers of the reply.
    const tested = await patch(
      h,
      d.id,
      [
        { op: 'test', path: '/percent', value: 2.5 },
        { op: 'replace', path: '/percent', value: '0.0125' },
      ],
      'application/json-patch+json',
    )
    assert.equal(tested.statusCode, 200, tested.body)
    assert.equal(json<Disbursement>(tested).percent, 0.0125)
    const failedTest = await patch(
      h,
      d.id,
      [{ op: 'test', path: '/percent', value: '0.0125' }],
      'application/json-patch+json',
    )
    assert.equal(failedTest.statusCode, 422, failedTest.body)
    assert.equal(json<Problem>(failedTest).code, 'invalid_patch')

    // A new code brings its label and group; the target can be widened to the whole product.
    const recoded = await patch(h, d.id, { code: 'COM', target: { planId: null } })
    assert.equal(recoded.statusCode, 200, recoded.body)
    assert.deepEqual(
      [json<Disbursement>(recoded).label, json<Disbursement>(recoded).group],
      ['Agent commission', 'COMMISSION'],
    )
    assert.deepEqual(json<Disbursement>(recoded).target, {
      productId: vsc,
      programId: null,
      planId: null,
      termId: null,
    })

    const stale = await patch(h, d.id, { effectiveTo: null }, 'application/merge-patch+json', { 'if-match': '"1"' })
    assert.equal(stale.statusCode, 412)
    assert.equal(json<Problem>(stale).code, 'precondition_failed')

    const immutable = await patch(h, d.id, {
      id: 5,
      accountHolderId: w.otherDealer,
      label: 'Mine',
      group: 'TAX',
      version: 9,
    })
    assert.equal(immutable.statusCode, 422)
    assert.equal(json<Problem>(immutable).code, 'immutable_field')
    assert.deepEqual(
      fields(immutable)
        .map(([f]) => f)
        .toSorted(),
      ['accountHolderId', 'group', 'id', 'label', 'version'],
    )

    // The reply round-trips as a merge patch.
    const current = json<Disbursement>(await get(h, `/${d.id}`))
    const roundTrip = await patch(h, d.id, { ...current, effectiveTo: '2026-11-30' })
    assert.equal(roundTrip.statusCode, 200, roundTrip.body)

    const later = await createDisbursement(h, w.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: '99.99',
      effectiveFrom: '2027-01-01',
    })
    const list = await get(h, `/AccountHolder/${w.dealer}`)
    assert.equal(list.statusCode, 200)
    assert.equal(list.headers['x-total-count'], '2')
    assert.deepEqual(
      json<Disbursement[]>(list).map((x) => x.id),
      [d.id, later.id],
    )
    assert.deepEqual(
      json<Disbursement[]>(await get(h, `/AccountHolder/${w.dealer}?effectiveOn=2026-06-01`)).map((x) => x.id),
      [d.id],
    )
    assert.deepEqual(
      json<Disbursement[]>(await get(h, `/AccountHolder/${w.dealer}?effectiveOn=2027-06-01`)).map((x) => x.id),
      [later.id],
    )
    assert.deepEqual(
      json<Disbursement[]>(await get(h, `/AccountHolder/${w.dealer}?code=DLRPACK`)).map((x) => x.id),
      [later.id],
    )
    const page = await get(h, `/AccountHolder/${w.dealer}?limit=1&offset=1`)
    assert.deepEqual([json<Disbursement[]>(page).map((x) => x.id), page.headers['x-total-count']], [[later.id], '2'])
    assert.deepEqual(json(await get(h, `/AccountHolder/${w.otherDealer}`)), [])
  })

  test('dealer groups and agents carry disbursements; Idempotency-Key replays the creation', async () => {
    const w = await world()
    const h = w.tenant.headers
    const body = { code: 'COM', basis: 'PERCENT', percent: '1.25', effectiveFrom: '2026-01-01' }
    const first = await post(h, w.agent, body, { 'idempotency-key': 'agent-commission-1' })
    assert.equal(first.statusCode, 201, first.body)
    assert.equal(json<Disbursement>(first).accountHolderKind, 'AGENT')
    const replay = await post(h, w.agent, body, { 'idempotency-key': 'agent-commission-1' })
    assert.equal(replay.statusCode, 201)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(json<Disbursement>(replay).id, json<Disbursement>(first).id)
    assert.equal(json<Disbursement[]>(await get(h, `/AccountHolder/${w.agent}`)).length, 1)
    const grouped = await createDisbursement(h, w.group, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 25,
      effectiveFrom: '2026-01-01',
    })
    assert.equal(grouped.accountHolderKind, 'DEALER_GROUP')
  })

  test('400 lists every bad field of the body', async () => {
    const w = await world()
    const h = w.tenant.headers
    const res = await post(h, w.dealer, {
      code: 'not a code',
      basis: 'SOMETIMES',
      amount: '1.234',
      target: { productId: 'x', colour: 'red' },
      effectiveFrom: '2026-02-30',
      effectiveTo: 5,
      extra: true,
    })
    assert.equal(res.statusCode, 400, res.body)
    assert.equal(json<Problem>(res).code, 'validation_failed')
    assert.deepEqual(fields(res).toSorted(), [
      ['amount', 'too_precise'],
      ['basis', 'invalid_value'],
      ['code', 'invalid_value'],
      ['effectiveFrom', 'invalid_format'],
      ['effectiveTo', 'invalid_type'],
      ['extra', 'unknown_field'],
      ['target.colour', 'unknown_field'],
      ['target.productId', 'invalid_type'],
    ])

    const rules = await post(h, w.dealer, {
      code: 'DLRPACK',
      basis: 'PERCENT',
      amount: 10,
      effectiveFrom: '2026-06-01',
      effectiveTo: '2026-05-31',
    })
    assert.equal(rules.statusCode, 400)
    assert.deepEqual(fields(rules).toSorted(), [
      ['amount', 'not_allowed'],
      ['effectiveTo', 'out_of_range'],
      ['percent', 'required'],
    ])

    const missing = await post(h, w.dealer, {})
    assert.deepEqual(
      fields(missing)
        .map(([f]) => f)
        .toSorted(),
      ['basis', 'code', 'effectiveFrom'],
    )

    const malformed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/AccountHolder/${w.dealer}`,
      headers: { ...h, 'content-type': 'application/json' },
      payload: '{"code":',
    })
    assert.equal(malformed.statusCode, 400)
    assert.equal(json<Problem>(malformed).code, 'malformed_json')

    const badQuery = await get(h, `/AccountHolder/${w.dealer}?effectiveOn=0000-01-01`)
    assert.equal(badQuery.statusCode, 400)
    assert.deepEqual(fields(badQuery), [['effectiveOn', 'invalid_value']])
  })

  test('422: kinds, codes and catalogue references are each named', async () => {
    const w = await world()
    const h = w.tenant.headers
    const valid = { code: 'DLRPACK', basis: 'AMOUNT', amount: 10, effectiveFrom: '2026-01-01' }

    for (const holder of [w.customer]) {
      for (const res of [await post(h, holder, valid), await get(h, `/AccountHolder/${holder}`)]) {
        assert.equal(res.statusCode, 422, res.body)
        assert.equal(json<Problem>(res).code, 'disbursement_holder_kind_not_allowed')
        assert.deepEqual(fields(res), [['accountHolderId', 'not_allowed']])
      }
    }

    const other = await world()
    const refs = await post(h, w.dealer, {
      ...valid,
      code: 'NOPE',
      target: {
        productId: w.item('PLAN', 'PLAT-USED'),
        programId: w.item('PROGRAM', 'PLAT'),
        planId: other.item('PLAN', 'PLAT-USED'),
        termId: 99_999_999_999,
      },
    })
    assert.equal(refs.statusCode, 422, refs.body)
    assert.equal(json<Problem>(refs).code, 'unknown_reference')
    assert.deepEqual(fields(refs), [
      ['code', 'unknown_reference'],
      ['target.productId', 'unknown_reference'],
      ['target.planId', 'unknown_reference'],
      ['target.termId', 'unknown_reference'],
    ])
    assert.match(json<Problem>(refs).errors![1]!.message, /is a PLAN, not a PRODUCT/)

    const d = await createDisbursement(h, w.dealer, valid)
    const badCode = await patch(h, d.id, { code: 'NOPE' })
    assert.equal(badCode.statusCode, 422)
    assert.deepEqual(fields(badCode), [['code', 'unknown_reference']])
    const badTarget = await patch(h, d.id, { target: { termId: w.item('PLAN', 'PLAT-USED') } })
    assert.deepEqual(fields(badTarget), [['target.termId', 'unknown_reference']])
    const invalid = await patch(h, d.id, { basis: 'PERCENT', effectiveFrom: '2026-13-01' })
    assert.equal(invalid.statusCode, 422)
    assert.equal(json<Problem>(invalid).code, 'patched_resource_invalid')
    assert.deepEqual(fields(invalid).toSorted(), [
      ['amount', 'not_allowed'],
      ['effectiveFrom', 'invalid_format'],
      ['percent', 'required'],
    ])
    const badOp = await patch(h, d.id, [{ op: 'remove', path: '/nothing' }], 'application/json-patch+json')
    assert.equal(json<Problem>(badOp).code, 'invalid_patch')
    // Nothing above changed it.
    assert.equal(json<Disbursement>(await get(h, `/${d.id}`)).version, 1)
  })

  test('a code the rate book in force has dropped stays on its disbursements, which can still be ended', async () => {
    const w = await world()
    const h = w.tenant.headers
    const d = await createDisbursement(h, w.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 10,
      effectiveFrom: '2026-01-01',
    })
    const other = await createDisbursement(h, w.dealer, {
      code: 'ADM',
      basis: 'AMOUNT',
      amount: 10,
      effectiveFrom: '2026-01-01',
    })
    await importBook(w.tenant, testBook('2026-05-01', []))
    const codes = json<Array<{ code: string }>>(await get(h, '/DisbursementsCodes')).map((c) => c.code)
    assert.ok(!codes.includes('DLRPACK'))
    const endIt = await patch(h, d.id, { effectiveTo: '2026-05-31' })
    assert.equal(endIt.statusCode, 200, endIt.body)
    assert.equal(json<Disbursement>(endIt).code, 'DLRPACK')
    assert.deepEqual(fields(await patch(h, other.id, { code: 'DLRPACK' })), [['code', 'unknown_reference']])
    assert.deepEqual(
      fields(await post(h, w.dealer, { code: 'DLRPACK', basis: 'AMOUNT', amount: 1, effectiveFrom: '2026-06-01' })),
      [['code', 'unknown_reference']],
    )
  })

  test("404: unknown ids, other tenants' ids, audit entries of other things", async () => {
    const a = await world()
    const b = await world()
    const d = await createDisbursement(a.tenant.headers, a.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 10,
      effectiveFrom: '2026-01-01',
    })
    const hb = b.tenant.headers

    const cases: Array<[string, Promise<{ statusCode: number; json(): unknown }>, string]> = [
      ["other tenant's disbursement", get(hb, `/${d.id}`), 'disbursement_not_found'],
      ["other tenant's disbursement, patched", patch(hb, d.id, { amount: 1 }), 'disbursement_not_found'],
      ['an id too large to exist', get(hb, '/99999999999999999999'), 'disbursement_not_found'],
      ["other tenant's account holder", get(hb, `/AccountHolder/${a.dealer}`), 'account_holder_not_found'],
      [
        "other tenant's account holder, create",
        post(hb, a.dealer, { code: 'DLRPACK', basis: 'AMOUNT', amount: 10, effectiveFrom: '2026-01-01' }),
        'account_holder_not_found',
      ],
      ['an unknown account holder', get(hb, '/AccountHolder/0'), 'account_holder_not_found'],
      ["other tenant's audit entry", get(hb, `/AuditLog/${d.auditLogId}`), 'disbursement_audit_log_not_found'],
    ]
    for (const [name, pending, code] of cases) {
      const res = await pending
      assert.equal(res.statusCode, 404, name)
      assert.equal((res.json() as Problem).code, code, name)
    }

    // The audit entry of the dealer's creation is not a disbursement change.
    const dealerEntry = await t.db.read(a.tenant.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('id')
        .where('tenant_id', '=', a.tenant.tenantId)
        .where('entity_type', '=', 'account_holder')
        .where('entity_id', '=', String(a.dealer))
        .executeTakeFirstOrThrow(),
    )
    const notOurs = await get(a.tenant.headers, `/AuditLog/${dealerEntry.id}`)
    assert.equal(notOurs.statusCode, 404)
    assert.equal(json<Problem>(notOurs).code, 'disbursement_audit_log_not_found')
  })

  test('403 without the permission: reads need rates:read, changes rates:write', async () => {
    const w = await world()
    const d = await createDisbursement(w.tenant.headers, w.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 10,
      effectiveFrom: '2026-01-01',
    })
    const reader = await createUserWithRoles(t, w.tenant, ['READ_ONLY'])
    assert.equal((await get(reader.headers, `/${d.id}`)).statusCode, 200)
    assert.equal((await get(reader.headers, `/AuditLog/${d.auditLogId}`)).statusCode, 200)
    for (const res of [
      await post(reader.headers, w.dealer, {
        code: 'DLRPACK',
        basis: 'AMOUNT',
        amount: 10,
        effectiveFrom: '2026-01-01',
      }),
      await patch(reader.headers, d.id, { amount: 11 }),
    ]) {
      assert.equal(res.statusCode, 403)
      assert.equal(json<Problem>(res).code, 'permission_denied')
    }
    const nobody = await createUserWithRoles(t, w.tenant, [])
    for (const path of [
      `/${d.id}`,
      `/AccountHolder/${w.dealer}`,
      `/AuditLog/${d.auditLogId}`,
      '/DisbursementsCodes',
      '/DisbursementsGroups',
      '/DisbursementsLabels',
    ]) {
      assert.equal((await get(nobody.headers, path)).statusCode, 403, path)
    }
  })

  test('dealer-side users see the disbursements of their own dealers only', async () => {
    const w = await world()
    const h = w.tenant.headers
    const mine = await createDisbursement(h, w.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 10,
      effectiveFrom: '2026-01-01',
    })
    const theirs = await createDisbursement(h, w.otherDealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 10,
      effectiveFrom: '2026-01-01',
    })
    const agents = await createDisbursement(h, w.agent, {
      code: 'COM',
      basis: 'PERCENT',
      percent: 1,
      effectiveFrom: '2026-01-01',
    })
    const portal = await t.app.inject({
      method: 'POST',
      url: '/api/portalvisibilitygroups',
      headers: h,
      payload: { code: `P${++seq}`, name: 'Portal', dealerIds: [w.dealer] },
    })
    assert.equal(portal.statusCode, 201, portal.body)
    const dealerUser = await createUserWithRoles(t, w.tenant, ['DEALER_USER'], {
      groups: [{ id: json<{ id: number }>(portal).id }],
    })
    const u = dealerUser.headers
    assert.equal((await get(u, `/${mine.id}`)).statusCode, 200)
    assert.equal((await get(u, `/AuditLog/${mine.auditLogId}`)).statusCode, 200)
    assert.deepEqual(
      json<Disbursement[]>(await get(u, `/AccountHolder/${w.dealer}`)).map((x) => x.id),
      [mine.id],
    )
    for (const path of [
      `/${theirs.id}`,
      `/${agents.id}`,
      `/AuditLog/${theirs.auditLogId}`,
      `/AccountHolder/${w.otherDealer}`,
      `/AccountHolder/${w.agent}`,
      `/AccountHolder/${w.customer}`,
    ]) {
      assert.equal((await get(u, path)).statusCode, 404, path)
    }
  })

  test('codes, labels and groups come from the rate book in force', async () => {
    const w = await world()
    const h = w.tenant.headers
    const codes = json<Array<{ code: string; label: string; group: string }>>(await get(h, '/DisbursementsCodes'))
    const book = testBook('2026-01-01')
    assert.deepEqual(
      codes.map((c) => c.code),
      book.disbursementCodes.map((c) => c.code).toSorted(),
    )
    assert.deepEqual(
      codes.find((c) => c.code === 'DLRPACK'),
      { code: 'DLRPACK', label: 'Dealer pack', group: 'DEALER_PACK' },
    )
    const labels = json<Array<{ label: string; codes: string[] }>>(await get(h, '/DisbursementsLabels'))
    // Codes may share a label: each label is listed once, with all of its codes.
    assert.deepEqual(
      labels.find((l) => l.label === 'Dealer pack')?.codes,
      book.disbursementCodes
        .filter((c) => c.label === 'Dealer pack')
        .map((c) => c.code)
        .toSorted(),
    )
    assert.deepEqual(
      labels.map((l) => l.label),
      [...new Set(book.disbursementCodes.map((c) => c.label))].toSorted(),
    )
    assert.deepEqual(
      labels.flatMap((l) => l.codes).toSorted(),
      codes.map((c) => c.code),
    )
    const groups = json<Array<{ group: string; description: string }>>(await get(h, '/DisbursementsGroups'))
    assert.deepEqual(
      groups.map((g) => g.group),
      [
        'RESERVE',
        'PREMIUM',
        'CLIP_PREMIUM',
        'ADMIN_FEE',
        'COMMISSION',
        'DEALER_PACK',
        'DEALER_PARTICIPATION',
        'TAX',
        'OTHER',
      ],
    )
    assert.ok(groups.every((g) => g.description.length > 10))

    const bare = await world({ book: false })
    assert.deepEqual(json(await get(bare.tenant.headers, '/DisbursementsCodes')), [])
    assert.deepEqual(json(await get(bare.tenant.headers, '/DisbursementsLabels')), [])
    const refused = await post(bare.tenant.headers, bare.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 10,
      effectiveFrom: '2026-01-01',
    })
    assert.equal(refused.statusCode, 422)
    assert.deepEqual(fields(refused), [['code', 'unknown_reference']])
  })

  test("forQuote: the holders' rules from memory, dropped on every instance by each change", async () => {
    const w = await world()
    const h = w.tenant.headers
    // t.modules is a second instance of the service over the same database and bus, as another process would be.
    const quote = t.modules.rating.disbursements
    const holders = { dealerId: w.dealer, dealerGroupId: w.group, agentIds: [w.agent] }

    const empty = await quote.forQuote(w.tenant.tenantId, holders)
    assert.deepEqual(empty.rules, [])

    const agentRule = await createDisbursement(h, w.agent, {
      code: 'COM',
      basis: 'PERCENT',
      percent: 1.5,
      effectiveFrom: '2026-01-01',
    })
    const groupRule = await createDisbursement(h, w.group, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 20,
      effectiveFrom: '2026-01-01',
    })
    const dealerRule = await createDisbursement(h, w.dealer, {
      code: 'DLRPACK',
      basis: 'AMOUNT',
      amount: 150,
      target: { productId: w.item('PRODUCT', 'VSC'), termId: w.item('TERM', 'PLAT-USED/48-48000') },
      effectiveFrom: '2027-01-01',
    })
    const first = await quote.forQuote(w.tenant.tenantId, holders)
    assert.notEqual(first.fingerprint, empty.fingerprint)
    // Dealer first, then the group, then the agents; not-yet-effective rules included.
    assert.deepEqual(
      first.rules.map((r) => r.id),
      [dealerRule.id, groupRule.id, agentRule.id],
    )
    assert.deepEqual(first.rules[0], {
      id: dealerRule.id,
      accountHolderId: w.dealer,
      accountHolderKind: 'DEALER',
      code: 'DLRPACK',
      label: 'Dealer pack',
      group: 'DEALER_PACK',
      basis: 'AMOUNT',
      amount: '150.00',
      percent: null,
      productId: w.item('PRODUCT', 'VSC'),
      programId: null,
      planId: null,
      termId: w.item('TERM', 'PLAT-USED/48-48000'),
      effectiveFrom: '2027-01-01',
      effectiveTo: null,
    })
    assert.equal(first.rules[2]!.percent, '1.5000')
    assert.equal((await quote.forQuote(w.tenant.tenantId, holders)).fingerprint, first.fingerprint)

    // Served from memory: a change behind the service's back is not seen...
    await t.db.transaction(w.tenant.tenantId, (tx) =>
      tx
        .updateTable('rate_disbursement')
        .set({ amount: '1.00' })
        .where('tenant_id', '=', w.tenant.tenantId)
        .where('id', '=', groupRule.id)
        .execute(),
    )
    assert.equal((await quote.forQuote(w.tenant.tenantId, holders)).rules[1]!.amount, '20.00')
    // ...while a change through the API (on the other instance) is, at once.
    const patched = await patch(h, dealerRule.id, { amount: 160 })
    assert.equal(patched.statusCode, 200, patched.body)
    const second = await quote.forQuote(w.tenant.tenantId, holders)
    assert.notEqual(second.fingerprint, first.fingerprint)
    assert.equal(second.rules[0]!.amount, '160.00')

    const added = await createDisbursement(h, w.agent, {
      code: 'COM',
      basis: 'AMOUNT',
      amount: 5,
      effectiveFrom: '2026-01-01',
    })
    const third = await quote.forQuote(w.tenant.tenantId, holders)
    assert.deepEqual(third.rules.map((r) => r.id).slice(2), [agentRule.id, added.id])
    assert.notEqual(third.fingerprint, second.fingerprint)

    // Holders are taken only in the role given: an agent named as the dealer group brings nothing.
    const wrongRole = await quote.forQuote(w.tenant.tenantId, {
      dealerId: w.dealer,
      dealerGroupId: w.agent,
      agentIds: [w.agent, w.agent],
    })
    assert.deepEqual(
      wrongRole.rules.map((r) => r.accountHolderKind),
      ['DEALER', 'AGENT', 'AGENT'],
    )
    // Other tenants' rules never show up; ids that cannot exist are ignored.
    const foreign = await t.modules.rating.disbursements.forQuote(w.tenant.tenantId + 1_000_000, holders)
    assert.deepEqual(foreign.rules, [])
    assert.deepEqual(
      (await quote.forQuote(w.tenant.tenantId, { dealerId: -1, dealerGroupId: null, agentIds: [] })).rules,
      [],
    )
    // The rules handed out are frozen: a caller cannot corrupt the cache.
    assert.throws(() => {
      ;(third.rules[0] as { amount: string | null }).amount = '0.00'
    })
  })
})
