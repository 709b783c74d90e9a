// Custom fields of cash transactions (issue 15; docs/cash.md "Custom fields", docs/custom-fields.md),
// on PGlite and PostgreSQL: the five routes, the tenant's CASH_TRANSACTION definitions (LIST values,
// required fields, conflicts), bad values naming the field, and visibility (404 for an unknown or
// invisible cash transaction, another transaction's field, or a dealer-side user of another payer),
// another tenant's ids (404 as for unknown ones, nothing changed) and a read-only user (403 on writes).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { systemContext } from '../src/platform/http/context.ts'
import { createTenant, createTestApp, createUserWithRoles, json, type TestApp } from './harness.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'

type Field = { id: number; name: string; type: string; value: unknown; label?: string; version: number }
type Problem = { code: string; errors?: Array<{ field: string; code: string }> }

let t: TestApp
let demo: DemoTestTenant
let dealerId: number
let otherHolderId: number
let cashId: number
let otherCashId: number

async function send(method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, payload?: unknown, headers = {}) {
  return t.app.inject({
    method,
    url,
    headers: { ...demo.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
}

async function receive(payerId: number): Promise<number> {
  const res = await send('POST', '/api/cashtransactions', {
    payerId,
    paymentMethod: 'CHECK',
    amount: 10,
    reference: `cf-${payerId}`,
    receivedDate: '2026-11-20',
    applications: [],
  })
  assert.equal(res.statusCode, 201, res.body)
  return json<{ id: number }>(res).id
}

before(async () => {
  t = await createTestApp({ now: new Date('2026-11-20T18:00:00Z') })
  demo = await seedDemo(t)
  const sold = await sellDemoContract(t, demo, { saleDate: '2026-11-20', finalize: true })
  const entries = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: sold.id })
  dealerId = entries.flatMap((e) => e.lines).find((l) => l.purpose === 'DEALER_RECEIVABLE')!.accountHolderId
  otherHolderId = entries.flatMap((e) => e.lines).find((l) => l.accountHolderId !== dealerId)!.accountHolderId
  cashId = await receive(dealerId)
  otherCashId = await receive(otherHolderId)
})
after(async () => t.close())

describe('cash transaction custom fields', () => {
  const base = () => `/api/cashtransactions/${cashId}/customfields`

  test('add, list, read, change and delete a field; every write audited', async () => {
    const created = await send('POST', base(), { name: 'batch', type: 'STRING', value: 'Lockbox 7' })
    assert.equal(created.statusCode, 201, created.body)
    const field = json<Field>(created)
    assert.equal(created.headers.location, `${base()}/${field.id}`)
    assert.deepEqual([field.name, field.type, field.value, field.version], ['batch', 'STRING', 'Lockbox 7', 1])

    const list = await send('GET', base())
    assert.equal(list.statusCode, 200, list.body)
    assert.equal(list.headers['x-total-count'], '1')
    assert.deepEqual(
      json<Field[]>(list).map((f) => f.id),
      [field.id],
    )
    const read = await send('GET', `${base()}/${field.id}`)
    assert.equal(read.statusCode, 200)
    assert.equal(read.headers.etag, '"1"')

    const patched = await send('PATCH', `${base()}/${field.id}`, { value: 'Lockbox 9' }, { 'if-match': '"1"' })
    assert.equal(patched.statusCode, 200, patched.body)
    assert.deepEqual([json<Field>(patched).value, json<Field>(patched).version], ['Lockbox 9', 2])
    const stale = await send('PATCH', `${base()}/${field.id}`, { value: 'x' }, { 'if-match': '"1"' })
    assert.equal(stale.statusCode, 412)

    const gone = await send('DELETE', `${base()}/${field.id}`)
    assert.equal(gone.statusCode, 204)
    assert.equal((await send('GET', `${base()}/${field.id}`)).statusCode, 404)

    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'changes'])
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_type', '=', 'custom_field')
        .where('entity_id', '=', String(field.id) as never)
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(
      audit.map((a) => a.action),
      ['custom_field.created', 'custom_field.updated', 'custom_field.deleted'],
    )
    assert.equal((audit[0]!.changes as { cashTransactionId?: number }).cashTransactionId, cashId)
  })

  test('bad values and duplicate names are refused, naming the field; nothing written', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'count', type: 'INTEGER', value: 1.5 }, 422, 'value'],
      [{ name: 'amount', type: 'DECIMAL', value: 1.001 }, 422, 'value'],
      [{ name: 'when', type: 'DATE', value: '2026-02-30' }, 422, 'value'],
      [{ name: 'choice', type: 'LIST', value: 'A' }, 422, 'type'],
      [{ name: ' bad', type: 'STRING', value: 'x' }, 400, 'name'],
    ]
    for (const [body, status, field] of cases) {
      const res = await send('POST', base(), body)
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`)
      const p = json<Problem>(res)
      assert.ok(
        p.errors?.some((e) => e.field === field || e.field === `/${field}`),
        `${JSON.stringify(body)} names ${field}: ${res.body}`,
      )
    }
    assert.equal((await send('POST', base(), { name: 'Lot', type: 'STRING', value: 'a' })).statusCode, 201)
    const dup = await send('POST', base(), { name: 'lot', type: 'STRING', value: 'b' })
    assert.equal(dup.statusCode, 409, dup.body)
    assert.equal(json<Problem>(dup).code, 'custom_field_name_taken')
    assert.equal(json<Field[]>(await send('GET', base())).length, 1)
  })

  test('CASH_TRANSACTION definitions govern the fields of every cash transaction, and only theirs', async () => {
    const def = await send('POST', '/api/customfielddefinitions', {
      appliesTo: 'CASH_TRANSACTION',
      name: 'deposit bank',
      type: 'LIST',
      allowedValues: ['First National', 'Lakeside'],
      required: true,
    })
    assert.equal(def.statusCode, 201, def.body)
    const list = await send('GET', base())
    assert.equal(list.headers['x-missing-required-fields'], 'deposit bank')
    const wrong = await send('POST', base(), { name: 'Deposit Bank', type: 'LIST', value: 'Elsewhere' })
    assert.equal(wrong.statusCode, 422, wrong.body)
    const ok = await send('POST', base(), { name: 'Deposit Bank', type: 'LIST', value: 'Lakeside' })
    assert.equal(ok.statusCode, 201, ok.body)
    assert.deepEqual([json<Field>(ok).name, json<Field>(ok).label], ['deposit bank', 'deposit bank'])
    // Required: the field cannot be deleted; the definition cannot drop a value in use.
    const del = await send('DELETE', `${base()}/${json<Field>(ok).id}`)
    assert.equal(del.statusCode, 409, del.body)
    const narrowed = await send('PATCH', `/api/customfielddefinitions/${json<{ id: number }>(def).id}`, {
      allowedValues: ['First National'],
    })
    assert.equal(narrowed.statusCode, 409, narrowed.body)
    const conflict = (json<Problem & { conflictingFields?: Array<Record<string, number>> }>(narrowed)
      .conflictingFields ?? [])[0]
    assert.equal(conflict?.cashTransactionId, cashId)
    // A dealer's field of the same name is not governed by it.
    const dealerField = await send('POST', `/api/dealers/${dealerId}/customfields`, {
      name: 'deposit bank',
      type: 'STRING',
      value: 'anything',
    })
    assert.equal(dealerField.statusCode, 201, dealerField.body)
  })

  test('an unknown cash transaction, another one’s field, or one the caller may not see is 404', async () => {
    const unknown = await send('GET', '/api/cashtransactions/987654321/customfields')
    assert.equal(unknown.statusCode, 404)
    assert.equal(json<Problem>(unknown).code, 'cash_transaction_not_found')
    const mine = json<Field[]>(await send('GET', base()))[0]!
    const elsewhere = await send('GET', `/api/cashtransactions/${otherCashId}/customfields/${mine.id}`)
    assert.equal(elsewhere.statusCode, 404)
    assert.equal(json<Problem>(elsewhere).code, 'custom_field_not_found')

    const fields = t.modules.parties.customFields
    const ctx = systemContext(demo.tenantId, 'dealer-side')
    const dealerSide = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([otherHolderId]) } }
    await assert.rejects(
      fields.listFields(dealerSide, fields.cashTransaction(cashId), {}, { limit: 10, offset: 0 }),
      (e: { code?: string }) => e.code === 'cash_transaction_not_found',
    )
    const visible = await fields.listFields(
      dealerSide,
      fields.cashTransaction(otherCashId),
      {},
      { limit: 10, offset: 0 },
    )
    assert.deepEqual(visible.rows, [])
  })

  test('another tenant gets 404 with these ids, as for unknown ones; a read-only user cannot write', async () => {
    const field = json<Field>(await send('POST', base(), { name: 'xt', type: 'STRING', value: 'kept' }))
    const other = await createTenant(t, 'Other tenant')
    const one = `${base()}/${field.id}`
    const attempts = (headers: Record<string, string>, collection: string, item: string) => [
      () => send('GET', collection, undefined, headers),
      () => send('POST', collection, { name: 'intruder', type: 'STRING', value: 'x' }, headers),
      () => send('GET', item, undefined, headers),
      () => send('PATCH', item, { value: 'changed' }, headers),
      () => send('DELETE', item, undefined, headers),
    ]
    const unknown = attempts(
      demo.headers,
      '/api/cashtransactions/987654321/customfields',
      '/api/cashtransactions/987654321/customfields/1',
    )
    const foreign = attempts(other.headers, base(), one)
    for (const [i, attempt] of foreign.entries()) {
      const [res, missing] = [await attempt(), await unknown[i]!()]
      assert.equal(res.statusCode, 404, res.body)
      assert.equal(missing.statusCode, 404, missing.body)
      assert.equal(json<Problem>(res).code, 'cash_transaction_not_found')
      assert.deepEqual(Object.keys(json(res)).toSorted(), Object.keys(json(missing)).toSorted())
    }

    const reader = await createUserWithRoles(t, demo, ['READ_ONLY'])
    assert.equal((await send('GET', one, undefined, reader.headers)).statusCode, 200)
    const [, post, , patch, remove] = attempts(reader.headers, base(), one)
    for (const attempt of [post!, patch!, remove!]) {
      const res = await attempt()
      assert.equal(res.statusCode, 403, res.body)
      assert.equal(json<Problem>(res).code, 'permission_denied')
    }

    const kept = json<Field>(await send('GET', one))
    assert.deepEqual([kept.value, kept.version], ['kept', 1])
    assert.ok(json<Field[]>(await send('GET', base())).every((f) => f.name !== 'intruder'))
  })
})
