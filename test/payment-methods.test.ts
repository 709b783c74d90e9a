// Payment methods over HTTP (docs/payment-methods.md), on PGlite and PostgreSQL: records tied to
// disbursement accounts by id, refusals naming the field with nothing written, one default per holder
// and direction, deletion audited, resolution in rule order, dealer-side visibility.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { systemContext } from '../src/platform/http/context.ts'
import { createTestApp, json, type TestApp } from './harness.ts'
import { seedDemo, type DemoTestTenant } from './demo-tenant.ts'

type Record_ = {
  id: number
  accountHolderId: number | null
  direction: string
  paymentMethod: string
  disbursementAccountId: number | null
  isDefault: boolean
}
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

let t: TestApp
let demo: DemoTestTenant
let holder: number
let other: number
let ach: number
let wire: number
let inactiveAch: number
let otherAch: number
const pm = () => t.modules.finance.paymentMethods

async function send(method: 'POST' | 'GET' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: demo.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

async function account(accountHolderId: number, paymentMethod: 'ACH' | 'WIRE', isDefault = false) {
  const res = await send('POST', '/api/disbursementaccounts', {
    accountHolderId,
    name: `${paymentMethod} account`,
    paymentMethod,
    bankName: 'First National Bank',
    routingNumber: '021000021',
    accountNumber: '000123456789',
    accountType: 'CHECKING',
    isDefault,
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

async function count() {
  return t.db.read(demo.tenantId, async (x) =>
    Number(
      (
        await x
          .selectFrom('available_payment_method')
          .select((e) => e.fn.countAll().as('n'))
          .where('tenant_id', '=', demo.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  )
}

before(async () => {
  t = await createTestApp()
  demo = await seedDemo(t)
  const holders = await t.db.read(demo.tenantId, (x) =>
    x.selectFrom('account_holder').select('id').where('tenant_id', '=', demo.tenantId).orderBy('id').execute(),
  )
  assert.ok(holders.length >= 2)
  holder = Number(holders[0]!.id)
  other = Number(holders[1]!.id)
  ach = await account(holder, 'ACH')
  wire = await account(holder, 'WIRE')
  inactiveAch = await account(holder, 'ACH')
  otherAch = await account(other, 'ACH')
  await t.db.transaction(demo.tenantId, (tx) =>
    tx
      .updateTable('disbursement_account')
      .set({ status: 'INACTIVE' })
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', inactiveAch)
      .execute(),
  )
})
after(async () => t.close())

const resolve = async (accountHolderId: number, direction: 'PAY' | 'RECEIVE') => {
  const res = await send('POST', '/api/availablePaymentMethods/paymentMethod', { accountHolderId, direction })
  assert.equal(res.statusCode, 200, res.body)
  return json<{ paymentMethod: string; disbursementAccountId?: number; source: string }>(res)
}

describe('payment methods', () => {
  test('nothing recorded: CHECK as the fallback', async () => {
    assert.deepEqual(await resolve(holder, 'PAY'), { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' })
  })

  test('refusals name the field, nothing written', async () => {
    const was = await count()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ accountHolderId: holder, direction: 'PAY', paymentMethod: 'ACH' }, 'disbursementAccountId'],
      [
        { accountHolderId: holder, direction: 'PAY', paymentMethod: 'ACH', disbursementAccountId: wire },
        'disbursementAccountId',
      ],
      [
        { accountHolderId: holder, direction: 'PAY', paymentMethod: 'ACH', disbursementAccountId: inactiveAch },
        'disbursementAccountId',
      ],
      [
        { accountHolderId: holder, direction: 'PAY', paymentMethod: 'ACH', disbursementAccountId: otherAch },
        'disbursementAccountId',
      ],
      [
        { accountHolderId: holder, direction: 'PAY', paymentMethod: 'CHECK', disbursementAccountId: ach },
        'disbursementAccountId',
      ],
      [{ direction: 'PAY', paymentMethod: 'ACH', disbursementAccountId: ach }, 'disbursementAccountId'],
      [{ accountHolderId: 987654321, direction: 'PAY', paymentMethod: 'CHECK' }, 'accountHolderId'],
    ]
    for (const [body, field] of cases) {
      const res = await send('POST', '/api/availablePaymentMethods', body)
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`)
      const p = json<Problem>(res)
      assert.equal(p.code, 'payment_method_invalid')
      assert.ok(
        p.errors?.some((e) => e.field === field),
        `${JSON.stringify(body)} names ${field}: ${res.body}`,
      )
    }
    const bad = await send('POST', '/api/availablePaymentMethods', { direction: 'PAY', paymentMethod: 'CASH' })
    assert.equal(bad.statusCode, 400)
    assert.equal(await count(), was)
  })

  let tenantWire: Record_
  let holderAch: Record_
  test('records, one default per holder and direction, resolution in rule order', async () => {
    // The tenant's default for PAY is WIRE: the holder has an active WIRE account, so it resolves to it.
    let res = await send('POST', '/api/availablePaymentMethods', {
      direction: 'PAY',
      paymentMethod: 'WIRE',
      isDefault: true,
    })
    assert.equal(res.statusCode, 201, res.body)
    tenantWire = json<Record_>(res)
    assert.equal(tenantWire.accountHolderId, null)
    assert.deepEqual(await resolve(holder, 'PAY'), {
      paymentMethod: 'WIRE',
      disbursementAccountId: wire,
      source: 'TENANT',
    })
    // The other holder has no WIRE account: the tenant rule cannot pay it, CHECK it is.
    assert.deepEqual(await resolve(other, 'PAY'), { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' })

    res = await send('POST', '/api/availablePaymentMethods', {
      accountHolderId: holder,
      direction: 'PAY',
      paymentMethod: 'ACH',
      disbursementAccountId: ach,
      isDefault: true,
    })
    assert.equal(res.statusCode, 201, res.body)
    holderAch = json<Record_>(res)
    assert.deepEqual(await resolve(holder, 'PAY'), {
      paymentMethod: 'ACH',
      disbursementAccountId: ach,
      source: 'ACCOUNT_HOLDER',
    })

    // A second default replaces the first as the default.
    res = await send('POST', '/api/availablePaymentMethods', {
      accountHolderId: holder,
      direction: 'PAY',
      paymentMethod: 'CHECK',
      isDefault: true,
    })
    assert.equal(res.statusCode, 201, res.body)
    const check = json<Record_>(res)
    const list = json<Record_[]>(
      await send('GET', `/api/availablePaymentMethods?accountHolderId=${holder}&direction=PAY`),
    )
    assert.deepEqual(
      list.filter((r) => r.isDefault).map((r) => r.id),
      [check.id],
    )
    assert.deepEqual(await resolve(holder, 'PAY'), { paymentMethod: 'CHECK', source: 'ACCOUNT_HOLDER' })

    // RECEIVE is separate: nothing recorded for it yet.
    assert.deepEqual(await resolve(holder, 'RECEIVE'), { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' })

    // Delete: gone from the list, kept in the audit; the holder falls back to the tenant rule.
    const del = await send('DELETE', `/api/availablePaymentMethods/${check.id}`)
    assert.equal(del.statusCode, 204, del.body)
    assert.equal((await send('DELETE', `/api/availablePaymentMethods/${check.id}`)).statusCode, 404)
    const after_ = json<Record_[]>(await send('GET', `/api/availablePaymentMethods?accountHolderId=${holder}`))
    assert.ok(!after_.some((r) => r.id === check.id))
    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('action')
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'available_payment_method')
        .where('entity_id', '=', String(check.id))
        .execute(),
    )
    assert.deepEqual(audit.map((a) => a.action).toSorted(), ['payment_method.created', 'payment_method.deleted'])
    assert.deepEqual(await resolve(holder, 'PAY'), {
      paymentMethod: 'WIRE',
      disbursementAccountId: wire,
      source: 'TENANT',
    })
  })

  test('two defaults of one holder and direction created at once: both succeed, the later one is the default', async () => {
    const body = { accountHolderId: other, direction: 'RECEIVE', paymentMethod: 'CHECK', isDefault: true }
    const replies = await Promise.all([1, 2, 3].map(() => send('POST', '/api/availablePaymentMethods', body)))
    assert.deepEqual(
      replies.map((r) => r.statusCode),
      [201, 201, 201],
      replies.map((r) => r.body).join('\n'),
    )
    const list = json<Record_[]>(
      await send('GET', `/api/availablePaymentMethods?accountHolderId=${other}&direction=RECEIVE`),
    )
    assert.equal(list.filter((r) => r.isDefault).length, 1)
  })

  test('unknown holder on resolution is a 422 naming it', async () => {
    const res = await send('POST', '/api/availablePaymentMethods/paymentMethod', {
      accountHolderId: 987654321,
      direction: 'PAY',
    })
    assert.equal(res.statusCode, 422, res.body)
    assert.ok(json<Problem>(res).errors?.some((e) => e.field === 'accountHolderId'))
  })

  test("dealer-side users see their holders' records and the tenant's only", async () => {
    const ctx = systemContext(demo.tenantId, 'dealer-side')
    const mine = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([holder]) } }
    const theirs = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([other]) } }
    const window = { limit: 100, offset: 0 }
    const seenByMine = (await pm().list(mine, {}, window)).items.map((r) => r.id)
    assert.ok(seenByMine.includes(holderAch.id) && seenByMine.includes(tenantWire.id))
    const seenByTheirs = (await pm().list(theirs, {}, window)).items.map((r) => r.id)
    assert.ok(!seenByTheirs.includes(holderAch.id) && seenByTheirs.includes(tenantWire.id))
    await assert.rejects(pm().remove(theirs, holderAch.id), { code: 'payment_method_not_found' })
    await assert.rejects(pm().remove(mine, tenantWire.id), { code: 'payment_method_not_found' })
    await assert.rejects(pm().resolve(theirs, { accountHolderId: holder, direction: 'PAY' }), {
      code: 'payment_method_invalid',
    })
    await assert.rejects(pm().create(theirs, { direction: 'PAY', paymentMethod: 'CHECK' }), {
      code: 'payment_method_invalid',
    })
  })
})
