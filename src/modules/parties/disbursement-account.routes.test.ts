import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createTenant,
  createTestApp,
  createUserWithRoles,
  json,
  type InjectOptions,
  type TestApp,
  type TestTenant,
} from '../../../test/harness.ts'

let t: TestApp

before(async () => {
  t = await createTestApp()
})
after(() => t.close())

const URL = '/api/disbursementaccounts'
const ROUTING = '021000021'
const ACCOUNT = '000123456789'
const NEW_ACCOUNT = '55512349876'

type Account = {
  id: number
  accountHolderId: number
  name: string
  paymentMethod: string
  bankName: string | null
  routingNumber: string | null
  accountNumber: string | null
  accountType: string | null
  isDefault: boolean
  status: string
  createdAt: string
  updatedAt: string
  version: number
}
type Problem = {
  status: number
  code: string
  detail: string
  errors?: Array<{ field: string; code: string; message: string }>
}

/** Every response body served without reveal=true: none may hold a full bank number. */
const unrevealedBodies: string[] = []

async function call(options: InjectOptions) {
  const res = await t.app.inject(options)
  if (!String(options.url).includes('reveal=true') || res.statusCode !== 200) unrevealedBodies.push(res.body)
  return res
}

const get = (headers: Record<string, string>, path: string) => call({ method: 'GET', url: `${URL}${path}`, headers })
const post = (headers: Record<string, string>, body: unknown, extra: Record<string, string> = {}) =>
  call({ method: 'POST', url: URL, headers: { ...headers, ...extra }, payload: body as Record<string, unknown> })
const patch = (
  headers: Record<string, string>,
  id: number,
  body: unknown,
  contentType = 'application/merge-patch+json',
  extra: Record<string, string> = {},
) =>
  call({
    method: 'PATCH',
    url: `${URL}/${id}`,
    headers: { ...headers, 'content-type': contentType, ...extra },
    payload: JSON.stringify(body),
  })

let dealerSeq = 0
async function createDealer(tenant: TestTenant): Promise<number> {
  dealerSeq += 1
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dealers',
    headers: tenant.headers,
    payload: { dealerNumber: `D-${dealerSeq}`, legalName: `Dealer ${dealerSeq} LLC` },
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

const achBody = (accountHolderId: number, extra: Record<string, unknown> = {}) => ({
  accountHolderId,
  name: 'Operating account',
  paymentMethod: 'ACH',
  bankName: 'First National Bank',
  routingNumber: ROUTING,
  accountNumber: ACCOUNT,
  accountType: 'CHECKING',
  ...extra,
})

async function createAccount(tenant: TestTenant, body: Record<string, unknown>): Promise<Account> {
  const res = await post(tenant.headers, body)
  assert.equal(res.statusCode, 201, res.body)
  return json<Account>(res)
}

async function auditRows(tenant: TestTenant, entityId: number) {
  return t.db.read(tenant.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_id', '=', tenant.tenantId)
      .where('entity_type', '=', 'disbursement_account')
      .where('entity_id', '=', String(entityId))
      .orderBy('id')
      .execute(),
  )
}

const fields = (res: { json(): unknown }) => ((res.json() as Problem).errors ?? []).map((e) => [e.field, e.code])

describe('disbursement accounts', () => {
  test('create → read masked → reveal → patch both formats → list', async () => {
    const tenant = await createTenant(t)
    const dealerId = await createDealer(tenant)

    const created = await post(tenant.headers, achBody(dealerId, { isDefault: true }))
    assert.equal(created.statusCode, 201, created.body)
    const account = json<Account>(created)
    assert.equal(created.headers.location, `${URL}/${account.id}`)
    assert.equal(created.headers.etag, '"1"')
    assert.deepEqual(
      { ...account, id: 0, createdAt: '', updatedAt: '' },
      {
        id: 0,
        accountHolderId: dealerId,
        name: 'Operating account',
        paymentMethod: 'ACH',
        bankName: 'First National Bank',
        routingNumber: '*****0021',
        accountNumber: '*****6789',
        accountType: 'CHECKING',
        isDefault: true,
        status: 'ACTIVE',
        createdAt: '',
        updatedAt: '',
        version: 1,
      },
    )

    const read = await get(tenant.headers, `/${account.id}`)
    assert.equal(read.statusCode, 200)
    assert.equal(read.headers.etag, '"1"')
    assert.equal(json<Account>(read).accountNumber, '*****6789')
    assert.equal(json<Account>(read).routingNumber, '*****0021')

    const revealed = await get(tenant.headers, `/${account.id}?reveal=true`)
    assert.equal(revealed.statusCode, 200, revealed.body)
    assert.equal(revealed.headers['cache-control'], 'no-store')
    assert.equal(json<Account>(revealed).accountNumber, ACCOUNT)
    assert.equal(json<Account>(revealed).routingNumber, ROUTING)

    // Merge patch; plain application/json is read as a merge patch too.
    const merged = await patch(tenant.headers, account.id, {
      name: 'Payables account',
      bankName: 'First National Bank of Texas',
    })
    assert.equal(merged.statusCode, 200, merged.body)
    assert.equal(json<Account>(merged).name, 'Payables account')
    assert.equal(json<Account>(merged).version, 2)
    assert.equal(merged.headers.etag, '"2"')
    const plain = await patch(tenant.headers, account.id, { accountType: 'SAVINGS' }, 'application/json')
    assert.equal(plain.statusCode, 200, plain.body)
    assert.equal(json<Account>(plain).accountType, 'SAVINGS')

    // Sending the masked representation back unchanged keeps the stored numbers.
    const roundTrip = await patch(tenant.headers, account.id, { ...json<Account>(plain), name: 'Round trip' })
    assert.equal(roundTrip.statusCode, 200, roundTrip.body)
    const afterRoundTrip = json<Account>(await get(tenant.headers, `/${account.id}?reveal=true`))
    assert.equal(afterRoundTrip.accountNumber, ACCOUNT)
    assert.equal(afterRoundTrip.routingNumber, ROUTING)

    // JSON Patch with a test on the masked value; a full new number replaces the stored one.
    const jsonPatch = await patch(
      tenant.headers,
      account.id,
      [
        { op: 'test', path: '/accountNumber', value: '*****6789' },
        { op: 'replace', path: '/accountNumber', value: NEW_ACCOUNT },
      ],
      'application/json-patch+json',
      { 'if-match': '"4"' },
    )
    assert.equal(jsonPatch.statusCode, 200, jsonPatch.body)
    assert.equal(json<Account>(jsonPatch).accountNumber, '*****9876')
    assert.equal(json<Account>(await get(tenant.headers, `/${account.id}?reveal=true`)).accountNumber, NEW_ACCOUNT)

    // The patch works on masked values: copying a number elsewhere copies the mask, not the number.
    const copied = await patch(
      tenant.headers,
      account.id,
      [{ op: 'copy', from: '/accountNumber', path: '/name' }],
      'application/json-patch+json',
    )
    assert.equal(copied.statusCode, 200, copied.body)
    assert.equal(json<Account>(copied).name, '*****9876')

    const stale = await patch(tenant.headers, account.id, { name: 'Stale' }, 'application/merge-patch+json', {
      'if-match': '"1"',
    })
    assert.equal(stale.statusCode, 412)

    const immutable = await patch(tenant.headers, account.id, { accountHolderId: dealerId + 1, id: 5, version: 99 })
    assert.equal(immutable.statusCode, 422)
    assert.equal(json<Problem>(immutable).code, 'immutable_field')
    assert.deepEqual(
      fields(immutable)
        .map(([f]) => f)
        .toSorted(),
      ['accountHolderId', 'id', 'version'],
    )

    const list = await get(tenant.headers, `?accountHolderId=${dealerId}`)
    assert.equal(list.statusCode, 200)
    assert.equal(list.headers['x-total-count'], '1')
    assert.equal(json<Account[]>(list)[0]?.accountNumber, '*****9876')
  })

  test('list filters by account holder, payment method, status and default; bounded and ordered by id', async () => {
    const tenant = await createTenant(t)
    const a = await createDealer(tenant)
    const b = await createDealer(tenant)
    const ach = await createAccount(tenant, achBody(a, { isDefault: true }))
    const wire = await createAccount(
      tenant,
      achBody(a, { name: 'Wires', paymentMethod: 'WIRE', accountType: undefined }),
    )
    const check = await createAccount(tenant, { accountHolderId: b, name: 'Mail a check', paymentMethod: 'CHECK' })
    const inactive = await createAccount(tenant, achBody(b, { name: 'Old account', status: 'INACTIVE' }))

    const ids = async (query: string) => {
      const res = await get(tenant.headers, query)
      assert.equal(res.statusCode, 200, res.body)
      return { ids: json<Account[]>(res).map((r) => r.id), total: res.headers['x-total-count'] }
    }
    assert.deepEqual(await ids(''), { ids: [ach.id, wire.id, check.id, inactive.id], total: '4' })
    assert.deepEqual(await ids(`?accountHolderId=${a}`), { ids: [ach.id, wire.id], total: '2' })
    assert.deepEqual(await ids('?paymentMethod=CHECK'), { ids: [check.id], total: '1' })
    assert.deepEqual(await ids('?status=INACTIVE'), { ids: [inactive.id], total: '1' })
    assert.deepEqual(await ids('?isDefault=true'), { ids: [ach.id], total: '1' })
    assert.deepEqual(await ids(`?accountHolderId=${b}&paymentMethod=ACH`), { ids: [inactive.id], total: '1' })
    assert.deepEqual(await ids('?limit=2&offset=1'), { ids: [wire.id, check.id], total: '4' })
    assert.deepEqual(await ids('?accountHolderId=99999999999999999999'), { ids: [], total: '0' })
    assert.equal(json<Account>(await get(tenant.headers, `/${check.id}`)).routingNumber, null)

    for (const bad of ['?limit=0', '?limit=1001', '?paymentMethod=CASH', '?reveal=true', '?status=EXPIRED']) {
      const res = await get(tenant.headers, bad)
      assert.equal(res.statusCode, 400, bad)
      assert.equal(json<Problem>(res).code, 'validation_failed')
    }
  })

  test('a new default unsets the previous default of the same account holder, in the same transaction', async () => {
    const tenant = await createTenant(t)
    const dealer = await createDealer(tenant)
    const other = await createDealer(tenant)
    const first = await createAccount(tenant, achBody(dealer, { isDefault: true }))
    const otherDefault = await createAccount(tenant, achBody(other, { isDefault: true }))
    const second = await createAccount(tenant, achBody(dealer, { name: 'Second', isDefault: true }))

    const isDefault = async (id: number) => json<Account>(await get(tenant.headers, `/${id}`)).isDefault
    assert.equal(await isDefault(first.id), false)
    assert.equal(await isDefault(second.id), true)
    assert.equal(await isDefault(otherDefault.id), true, 'another holder keeps its default')
    const firstNow = json<Account>(await get(tenant.headers, `/${first.id}`))
    assert.equal(firstNow.version, 2)

    const back = await patch(tenant.headers, first.id, { isDefault: true })
    assert.equal(back.statusCode, 200, back.body)
    assert.equal(await isDefault(first.id), true)
    assert.equal(await isDefault(second.id), false)
    const defaults = await get(tenant.headers, `?accountHolderId=${dealer}&isDefault=true`)
    assert.deepEqual(
      json<Account[]>(defaults).map((r) => r.id),
      [first.id],
    )

    // Concurrent switches are serialised on the account holder: all succeed, one default remains.
    const racing = await Promise.all(
      [1, 2, 3].map((n) => post(tenant.headers, achBody(other, { name: `Racing ${n}`, isDefault: true }))),
    )
    assert.deepEqual(
      racing.map((r) => r.statusCode),
      [201, 201, 201],
    )
    assert.equal((await get(tenant.headers, `?accountHolderId=${other}&isDefault=true`)).headers['x-total-count'], '1')

    const cleared = await auditRows(tenant, second.id)
    assert.deepEqual(
      cleared.map((r) => r.action),
      ['disbursement_account.created', 'disbursement_account.updated'],
    )
    assert.deepEqual((cleared[1]?.changes as { after: unknown } | undefined)?.after, { isDefault: false })

    // An inactive account cannot be the default.
    const deactivate = await patch(tenant.headers, first.id, { status: 'INACTIVE' })
    assert.equal(deactivate.statusCode, 422)
    assert.equal(json<Problem>(deactivate).code, 'patched_resource_invalid')
    assert.deepEqual(fields(deactivate), [['isDefault', 'not_allowed']])
    const both = await patch(tenant.headers, first.id, { status: 'INACTIVE', isDefault: false })
    assert.equal(both.statusCode, 200, both.body)
    const inactiveDefault = await post(tenant.headers, achBody(dealer, { isDefault: true, status: 'INACTIVE' }))
    assert.equal(inactiveDefault.statusCode, 400)
    assert.deepEqual(fields(inactiveDefault), [['isDefault', 'not_allowed']])
  })

  test('bad input → 400 listing every field; nothing saved', async () => {
    const tenant = await createTenant(t)
    const dealer = await createDealer(tenant)

    const everything = await post(tenant.headers, {
      accountHolderId: dealer,
      paymentMethod: 'ACH',
      routingNumber: '021000020',
      accountNumber: '12',
      colour: 'blue',
    })
    assert.equal(everything.statusCode, 400)
    assert.equal(json<Problem>(everything).code, 'validation_failed')
    assert.deepEqual(
      fields(everything).toSorted(),
      [
        ['accountNumber', 'invalid_format'],
        ['accountType', 'required'],
        ['bankName', 'required'],
        ['colour', 'unknown_field'],
        ['name', 'required'],
        ['routingNumber', 'invalid_value'],
      ].toSorted(),
    )

    const missingBank = await post(tenant.headers, { accountHolderId: dealer, name: 'x', paymentMethod: 'ACH' })
    assert.equal(missingBank.statusCode, 400)
    assert.deepEqual(fields(missingBank), [
      ['bankName', 'required'],
      ['routingNumber', 'required'],
      ['accountNumber', 'required'],
      ['accountType', 'required'],
    ])

    const badPrefix = await post(tenant.headers, achBody(dealer, { routingNumber: '130000006' }))
    assert.equal(badPrefix.statusCode, 400)
    assert.deepEqual(fields(badPrefix), [['routingNumber', 'invalid_value']])
    const short = await post(tenant.headers, achBody(dealer, { routingNumber: '02100002', accountNumber: '123' }))
    assert.deepEqual(json<Problem>(short).errors, [
      { field: 'routingNumber', code: 'invalid_format', message: 'must be 9 digits' },
      { field: 'accountNumber', code: 'invalid_format', message: 'must be 4 to 17 digits' },
    ])

    const checkWithBank = await post(tenant.headers, achBody(dealer, { paymentMethod: 'CHECK' }))
    assert.equal(checkWithBank.statusCode, 400)
    assert.deepEqual(fields(checkWithBank), [
      ['bankName', 'not_allowed'],
      ['routingNumber', 'not_allowed'],
      ['accountNumber', 'not_allowed'],
      ['accountType', 'not_allowed'],
    ])
    assert.ok(
      !checkWithBank.body.includes(ACCOUNT) && !checkWithBank.body.includes(ROUTING),
      'errors never echo the numbers',
    )

    const wrongTypes = await post(tenant.headers, {
      accountHolderId: '12',
      name: 5,
      paymentMethod: 'CASH',
      routingNumber: 21000021,
      isDefault: 'yes',
    })
    assert.equal(wrongTypes.statusCode, 400)
    assert.deepEqual(
      fields(wrongTypes)
        .map(([f]) => f)
        .toSorted(),
      ['accountHolderId', 'isDefault', 'name', 'paymentMethod', 'routingNumber'],
    )

    for (const body of ['text', 12, null, []]) {
      const res = await call({
        method: 'POST',
        url: URL,
        headers: { ...tenant.headers, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      })
      assert.equal(res.statusCode, 400, JSON.stringify(body))
    }

    const list = await get(tenant.headers, '')
    assert.equal(list.headers['x-total-count'], '0')
  })

  test('a patched account is validated as a whole (422 listing every field); switching to CHECK drops the bank fields', async () => {
    const tenant = await createTenant(t)
    const dealer = await createDealer(tenant)
    const account = await createAccount(tenant, achBody(dealer))

    const bad = await patch(tenant.headers, account.id, {
      routingNumber: '021000020',
      accountNumber: '12',
      name: '',
      accountType: null,
    })
    assert.equal(bad.statusCode, 422)
    assert.equal(json<Problem>(bad).code, 'patched_resource_invalid')
    assert.deepEqual(
      fields(bad)
        .map(([f]) => f)
        .toSorted(),
      ['accountNumber', 'accountType', 'name', 'routingNumber'],
    )

    const keepsBank = await patch(tenant.headers, account.id, { paymentMethod: 'CHECK' })
    assert.equal(keepsBank.statusCode, 422)
    assert.deepEqual(fields(keepsBank), [
      ['bankName', 'not_allowed'],
      ['routingNumber', 'not_allowed'],
      ['accountNumber', 'not_allowed'],
      ['accountType', 'not_allowed'],
    ])
    assert.ok(!keepsBank.body.includes(ACCOUNT), 'errors never echo the stored number')

    const toCheck = await patch(tenant.headers, account.id, {
      paymentMethod: 'CHECK',
      bankName: null,
      routingNumber: null,
      accountNumber: null,
      accountType: null,
    })
    assert.equal(toCheck.statusCode, 200, toCheck.body)
    assert.deepEqual(
      [json<Account>(toCheck).routingNumber, json<Account>(toCheck).accountNumber, json<Account>(toCheck).bankName],
      [null, null, null],
    )

    const backToAch = await patch(tenant.headers, account.id, { paymentMethod: 'ACH' })
    assert.equal(backToAch.statusCode, 422)
    assert.deepEqual(
      fields(backToAch).map(([f]) => f),
      ['bankName', 'routingNumber', 'accountNumber', 'accountType'],
    )

    const badOps = await patch(
      tenant.headers,
      account.id,
      [{ op: 'replace', path: '/nothing/here', value: 1 }],
      'application/json-patch+json',
    )
    assert.equal(badOps.statusCode, 422)
    assert.equal(json<Problem>(badOps).code, 'invalid_patch')
  })

  test('accountHolderId must exist in the tenant → 422 naming it', async () => {
    const tenant = await createTenant(t)
    const other = await createTenant(t, 'Other')
    const foreignDealer = await createDealer(other)
    // 1e20: an integer no bigint column holds.
    for (const accountHolderId of [foreignDealer, 999_999_999, 1e20]) {
      const res = await post(tenant.headers, achBody(accountHolderId))
      assert.equal(res.statusCode, 422, `${accountHolderId}: ${res.body}`)
      assert.equal(json<Problem>(res).code, 'unknown_reference')
      assert.deepEqual(fields(res), [['accountHolderId', 'unknown_reference']])
    }
  })

  test("another tenant's account → 404 on GET, reveal and PATCH; absent from lists", async () => {
    const tenant = await createTenant(t)
    const other = await createTenant(t, 'Other')
    const account = await createAccount(other, achBody(await createDealer(other)))
    for (const path of [`/${account.id}`, `/${account.id}?reveal=true`]) {
      const res = await get(tenant.headers, path)
      assert.equal(res.statusCode, 404, path)
      assert.equal(json<Problem>(res).code, 'disbursement_account_not_found')
    }
    const res = await patch(tenant.headers, account.id, { name: 'Mine now' })
    assert.equal(res.statusCode, 404)
    assert.equal(json<Problem>(res).code, 'disbursement_account_not_found')
    assert.equal((await get(tenant.headers, '')).headers['x-total-count'], '0')
    for (const id of ['0', '99999999999999999999'])
      assert.equal((await get(tenant.headers, `/${id}`)).statusCode, 404, id)
  })

  test('permissions: reveal needs bankdetails:read; writes need accountholders:write', async () => {
    const tenant = await createTenant(t)
    const account = await createAccount(tenant, achBody(await createDealer(tenant)))

    const contracts = await createUserWithRoles(t, tenant, ['CONTRACT_ADMINISTRATOR'])
    const masked = await get(contracts.headers, `/${account.id}`)
    assert.equal(masked.statusCode, 200)
    assert.equal(json<Account>(masked).accountNumber, '*****6789')
    const refused = await get(contracts.headers, `/${account.id}?reveal=true`)
    assert.equal(refused.statusCode, 403)
    assert.equal(json<Problem>(refused).code, 'permission_denied')
    assert.equal((await get(contracts.headers, `/${account.id}?reveal=false`)).statusCode, 200)

    const accounting = await createUserWithRoles(t, tenant, ['ACCOUNTING'])
    const revealed = await get(accounting.headers, `/${account.id}?reveal=true`)
    assert.equal(revealed.statusCode, 200)
    assert.equal(json<Account>(revealed).accountNumber, ACCOUNT)
    assert.equal((await post(accounting.headers, achBody(account.accountHolderId))).statusCode, 403)

    const readOnly = await createUserWithRoles(t, tenant, ['READ_ONLY'])
    assert.equal((await get(readOnly.headers, '')).statusCode, 200)
    assert.equal((await get(readOnly.headers, `/${account.id}?reveal=true`)).statusCode, 403)
    assert.equal((await post(readOnly.headers, achBody(account.accountHolderId))).statusCode, 403)
    assert.equal((await patch(readOnly.headers, account.id, { name: 'x' })).statusCode, 403)

    const nobody = await createUserWithRoles(t, tenant, [])
    assert.equal((await get(nobody.headers, '')).statusCode, 403)
    assert.equal((await get(nobody.headers, `/${account.id}`)).statusCode, 403)

    // Who saw the bank details is audited; refused attempts reveal nothing and record nothing.
    const reveals = (await auditRows(tenant, account.id)).filter(
      (r) => r.action === 'disbursement_account.bank_details_revealed',
    )
    assert.deepEqual(
      reveals.map((r) => r.actor_label),
      [accounting.email],
    )
  })

  test('dealer-side users see only the accounts of account holders their groups grant', async () => {
    const tenant = await createTenant(t)
    const mine = await createDealer(tenant)
    const theirs = await createDealer(tenant)
    const visible = await createAccount(tenant, achBody(mine))
    const hidden = await createAccount(tenant, achBody(theirs))
    const groupId = await t.db.transaction(tenant.tenantId, async (tx) => {
      const g = await tx
        .insertInto('membership_group')
        .values({ tenant_id: tenant.tenantId, code: 'DEALER-MINE', name: 'My dealer', description: '', kind: 'DEALER' })
        .returning('id')
        .executeTakeFirstOrThrow()
      await tx
        .insertInto('membership_group_account_holder')
        .values({ tenant_id: tenant.tenantId, group_id: g.id, account_holder_id: mine })
        .execute()
      return g.id
    })
    const dealerUser = await createUserWithRoles(t, tenant, ['DEALER_USER'], { groups: [{ id: groupId }] })
    const list = await get(dealerUser.headers, '')
    assert.deepEqual(
      json<Account[]>(list).map((r) => r.id),
      [visible.id],
    )
    assert.equal(list.headers['x-total-count'], '1')
    assert.equal((await get(dealerUser.headers, `/${visible.id}`)).statusCode, 200)
    assert.equal((await get(dealerUser.headers, `/${hidden.id}`)).statusCode, 404)
    assert.deepEqual(json<Account[]>(await get(dealerUser.headers, `?accountHolderId=${theirs}`)), [])
  })

  test('the audit trail and stored idempotent replies hold masked numbers only', async () => {
    const tenant = await createTenant(t)
    const dealer = await createDealer(tenant)
    const created = await post(tenant.headers, achBody(dealer, { isDefault: true }), {
      'idempotency-key': 'create-account-1',
    })
    assert.equal(created.statusCode, 201, created.body)
    const account = json<Account>(created)
    const replay = await post(tenant.headers, achBody(dealer, { isDefault: true }), {
      'idempotency-key': 'create-account-1',
    })
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(json<Account>(replay).accountNumber, '*****6789')

    // Only the leading digits change: the masked numbers look alike, the audit names the change.
    const changed = await patch(tenant.headers, account.id, { accountNumber: '999123456789', name: 'Renamed' })
    assert.equal(changed.statusCode, 200, changed.body)
    assert.equal((await get(tenant.headers, `/${account.id}?reveal=true`)).statusCode, 200)

    const rows = await auditRows(tenant, account.id)
    assert.deepEqual(
      rows.map((r) => r.action),
      ['disbursement_account.created', 'disbursement_account.updated', 'disbursement_account.bank_details_revealed'],
    )
    const createdChanges = rows[0]?.changes as { after: Account }
    assert.equal(createdChanges.after.accountNumber, '*****6789')
    assert.equal(createdChanges.after.routingNumber, '*****0021')
    const updated = rows[1]?.changes as { before: Account; after: Account; bankDetailsChanged: string[] }
    assert.deepEqual([updated.before.name, updated.after.name], ['Operating account', 'Renamed'])
    assert.deepEqual(updated.bankDetailsChanged, ['accountNumber'])
    assert.equal(rows[2]?.actor_label, tenant.adminEmail)

    const stored =
      JSON.stringify(
        await t.db.read(tenant.tenantId, (x) =>
          x.selectFrom('audit_log').select('changes').where('tenant_id', '=', tenant.tenantId).execute(),
        ),
      ) +
      JSON.stringify(
        await t.db.read(tenant.tenantId, (x) =>
          x.selectFrom('idempotency_key').select('response_body').where('tenant_id', '=', tenant.tenantId).execute(),
        ),
      )
    for (const secret of [ACCOUNT, ROUTING, '999123456789'])
      assert.ok(!stored.includes(secret), `${secret} stored in clear`)
  })

  test('no response body served without reveal holds a full bank number', () => {
    assert.ok(unrevealedBodies.length > 50)
    for (const secret of [ACCOUNT, ROUTING, NEW_ACCOUNT, '999123456789']) {
      const leaks = unrevealedBodies.filter((b) => b.includes(secret))
      assert.deepEqual(leaks, [], secret)
    }
  })
})
