// Contract routes: every refusal of POST /contracts, duplicates and idempotency under concurrency,
// numbering under concurrency, the edit lock, PATCH only while pending, refinalize posting only the
// difference, tenancy and permissions.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { createTenant, createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'
import { DEMO, seedDemo, type DemoTestTenant } from './demo-tenant.ts'
import type { RateQuote } from '../src/modules/rating/index.ts'

const NOW = new Date('2026-11-21T18:00:00Z')
const TODAY = '2026-11-21'
const HONDA_VIN = DEMO.vins.accord
const CAMRY_VIN = DEMO.vins.camry
const FINANCE =
  'vehiclePurchasePrice=28500&msrp=31200&financeType=RETAIL&amountFinanced=24000&financeTermMonths=72&apr=6.99'

let t: TestApp
let demo: DemoTestTenant
let headers: Record<string, string>

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
  headers = demo.headers
})
after(() => t.close())

const login = (email: string, password: string) => loginHeaders(t, demo.apiKey, email, password)

/** The rate quote's reply, typed from its published schema. */
type QuoteReply = RateQuote

const inject = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  h: Record<string, string> = headers,
) =>
  t.app.inject({
    method,
    url,
    headers: h,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })

/** A fresh quote and the first rate of `planCode`. */
async function quoteFor(
  options: { vin?: string; saleDate?: string; planCode?: string; extra?: string; dealer?: string } = {},
) {
  const vin = options.vin ?? HONDA_VIN
  const query = `vin=${vin}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&saleDate=${options.saleDate ?? TODAY}${options.extra ? `&${options.extra}` : ''}`
  const res = await inject('GET', `/api/Rates/rateQuote/${options.dealer ?? DEMO.dealerNumber}?${query}`)
  assert.equal(res.statusCode, 200, res.body)
  const quote = json<QuoteReply>(res)
  const plan = quote.products
    .flatMap((p) => p.programs.flatMap((g) => g.plans))
    .find((p) => p.planCode === (options.planCode ?? 'PLAT-USED'))
  assert.ok(plan, `the quote offers ${options.planCode ?? 'PLAT-USED'}`)
  return { quoteId: quote.quoteId, rate: plan.terms[0]!.deductibles[0]!.rate, vin, saleDate: options.saleDate ?? TODAY }
}

function dealOf(q: Awaited<ReturnType<typeof quoteFor>>, overrides: Record<string, unknown> = {}) {
  return {
    quoteId: q.quoteId,
    rateId: q.rate.rateId,
    retailPrice: q.rate.suggestedRetail,
    saleOdometer: 42150,
    vehicle: { vin: q.vin },
    customer: { firstName: 'Sam', lastName: 'Buyer', emailAddress: 'sam@example.com' },
    customFields: { financeManagerCode: 'FM7' },
    ...overrides,
  }
}

type Problem = { status: number; code: string; errors?: Array<{ field: string; code: string }> }
const fieldsOf = (res: { body: string }) =>
  (json<Problem>(res as never).errors ?? []).map((e) => `${e.field}:${e.code}`).toSorted()

describe('POST /api/contracts refusals', () => {
  test('an unknown or altered quote: 422 quote_unknown', async () => {
    const q = await quoteFor()
    for (const quoteId of ['nonsense', `${q.quoteId.slice(0, -2)}xx`]) {
      const res = await inject('POST', '/api/contracts', dealOf(q, { quoteId }))
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(json<Problem>(res).code, 'quote_unknown')
    }
  })

  test('an expired quote: 422 quote_expired', async () => {
    const q = await quoteFor()
    t.clock.set(new Date(NOW.getTime() + 25 * 3600_000))
    try {
      const res = await inject('POST', '/api/contracts', dealOf(q), await login(demo.adminEmail, demo.adminPassword))
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(json<Problem>(res).code, 'quote_expired')
    } finally {
      t.clock.set(NOW)
    }
  })

  test('a rate the quote did not offer, or a cheaper rate index: 422 rate_not_in_quote', async () => {
    const q = await quoteFor()
    const [, plan, term, deductible, index] = q.rate.rateId.split('.')
    for (const rateId of [`r.${plan}.${term}.${deductible}.${Number(index) + 1}`, 'r.1.2.3.4', 'garbage']) {
      const res = await inject('POST', '/api/contracts', dealOf(q, { rateId }))
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(json<Problem>(res).code, 'rate_not_in_quote')
    }
  })

  test('facts that differ from the quote are each named', async () => {
    const q = await quoteFor()
    const res = await inject(
      'POST',
      '/api/contracts',
      dealOf(q, { vehicle: { vin: CAMRY_VIN }, saleOdometer: 50000, saleDate: '2026-11-20' }),
    )
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(json<Problem>(res).code, 'contract_invalid')
    assert.deepEqual(fieldsOf(res), [
      'saleDate:differs_from_quote',
      'saleOdometer:differs_from_quote',
      'vehicle/vin:differs_from_quote',
    ])
  })

  test("a retail price outside the rate's limits: 422 naming retailPrice", async () => {
    const q = await quoteFor()
    for (const retailPrice of [q.rate.minRetail - 0.01, q.rate.maxRetail + 1]) {
      const res = await inject('POST', '/api/contracts', dealOf(q, { retailPrice }))
      assert.equal(res.statusCode, 422, res.body)
      assert.deepEqual(fieldsOf(res), ['retailPrice:out_of_range'])
    }
    const tooPrecise = await inject('POST', '/api/contracts', dealOf(q, { retailPrice: 2000.005 }))
    assert.deepEqual(fieldsOf(tooPrecise), ['retailPrice:too_precise'])
  })

  test('every missing or invalid custom field is listed', async () => {
    const q = await quoteFor()
    const res = await inject(
      'POST',
      '/api/contracts',
      dealOf(q, { customFields: { stockNumber: 'x'.repeat(30), unknownThing: 1 } }),
    )
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(fieldsOf(res), [
      'customFields/financeManagerCode:required',
      'customFields/stockNumber:too_long',
      'customFields/unknownThing:unknown_field',
    ])
  })

  test('schema violations are a 400 naming each field', async () => {
    const q = await quoteFor()
    const res = await inject('POST', '/api/contracts', {
      ...dealOf(q),
      vehicle: { vin: 'short' },
      customer: 'nobody',
      extra: true,
    })
    assert.equal(res.statusCode, 400, res.body)
    assert.ok((json<Problem>(res).errors ?? []).length >= 3)
  })

  test('a unique custom field already used in the tenant: 409', async () => {
    const loan = `LN-${Date.now()}`
    const gap = async (vin: string) => {
      const q = await quoteFor({ vin, planCode: 'GAP-STD', extra: FINANCE })
      return inject('POST', '/api/contracts', dealOf(q, { customFields: { lenderLoanNumber: loan } }))
    }
    const first = await gap(HONDA_VIN)
    assert.equal(first.statusCode, 201, first.body)
    const second = await gap(CAMRY_VIN)
    assert.equal(second.statusCode, 409, second.body)
    assert.equal(json<Problem>(second).code, 'custom_field_value_taken')
    assert.deepEqual(fieldsOf(second), ['customFields/lenderLoanNumber:taken'])
  })
})

describe('duplicates and concurrency', () => {
  test('an identical submission moments later: 409 pointing at the first contract', async () => {
    const q = await quoteFor({ saleDate: '2026-11-02' })
    const first = await inject('POST', '/api/contracts', dealOf(q))
    assert.equal(first.statusCode, 201, first.body)
    const again = await inject('POST', '/api/contracts', dealOf(await quoteFor({ saleDate: '2026-11-02' })))
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(json<Problem>(again).code, 'duplicate_contract')
    assert.equal(again.headers.location, first.headers.location)
  })

  test('50 parallel submissions with one Idempotency-Key create exactly one contract', async () => {
    const q = await quoteFor({ saleDate: '2026-11-03' })
    const body = dealOf(q)
    const replies = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/contracts',
          headers: { ...headers, 'idempotency-key': 'one-deal-50' },
          payload: body,
        }),
      ),
    )
    const created = replies.filter((r) => r.statusCode === 201)
    assert.ok(created.length >= 1)
    assert.ok(
      replies.every((r) => r.statusCode === 201 || r.statusCode === 409),
      replies.map((r) => r.statusCode).join(','),
    )
    assert.equal(
      new Set(created.map((r) => json<{ id: number }>(r).id)).size,
      1,
      'every success names the same contract',
    )
    const found = json<unknown[]>(
      await inject('GET', `/api/contracts?vin=${HONDA_VIN}&saleDateFrom=2026-11-03&saleDateTo=2026-11-03`),
    )
    assert.equal(found.length, 1)
  })

  test('50 parallel creations of different contracts get 50 distinct numbers', async () => {
    const quotes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        quoteFor({ vin: CAMRY_VIN, saleDate: new Date(Date.UTC(2026, 10, 21 - i)).toISOString().slice(0, 10) }),
      ),
    )
    const replies = await Promise.all(quotes.map((q) => inject('POST', '/api/contracts', dealOf(q))))
    assert.deepEqual(
      replies.map((r) => r.statusCode),
      Array(50).fill(201),
      replies.find((r) => r.statusCode !== 201)?.body,
    )
    const numbers = replies.map((r) => json<{ contractNumber: string }>(r).contractNumber)
    assert.equal(new Set(numbers).size, 50)
  })
})

describe('lifecycle', () => {
  /** A new pending contract; each test sells on its own day, so no two are duplicates. */
  async function pending(saleDate: string) {
    const q = await quoteFor({ saleDate })
    const res = await inject('POST', '/api/contracts', dealOf(q))
    assert.equal(res.statusCode, 201, res.body)
    return json<{ id: number }>(res).id
  }

  test('the edit lock keeps other users out until released', async () => {
    const id = await pending('2026-10-20')
    const other = await createUserWithRoles(t, demo, ['ADMINISTRATOR'])
    const otherHeaders = other.headers
    const locked = await inject('POST', `/api/contracts/${id}/lock`)
    assert.equal(locked.statusCode, 200, locked.body)
    assert.equal(json<{ heldByYou: boolean }>(locked).heldByYou, true)
    const blocked = await inject('PATCH', `/api/contracts/${id}`, { dealNumber: 'D-1' }, otherHeaders)
    assert.equal(blocked.statusCode, 423, blocked.body)
    assert.equal(json<Problem>(blocked).code, 'contract_locked')
    assert.equal((await inject('POST', `/api/contracts/${id}/lock`, undefined, otherHeaders)).statusCode, 423)
    assert.equal((await inject('DELETE', `/api/contracts/${id}/lock`, undefined, otherHeaders)).statusCode, 423)
    const own = await inject('PATCH', `/api/contracts/${id}`, { dealNumber: 'D-2' })
    assert.equal(own.statusCode, 200, own.body)
    assert.equal((await inject('DELETE', `/api/contracts/${id}/lock`)).statusCode, 204)
    const released = await inject('PATCH', `/api/contracts/${id}`, { dealNumber: 'D-3' }, otherHeaders)
    assert.equal(released.statusCode, 200, released.body)
    assert.equal(json<{ dealNumber: string }>(released).dealNumber, 'D-3')
  })

  test('PATCH refuses immutable fields by name, then only pending contracts change', async () => {
    const id = await pending('2026-10-21')
    const immutable = await inject('PATCH', `/api/contracts/${id}`, {
      vin: CAMRY_VIN.replace('8', '9'),
      saleOdometer: 1,
    })
    assert.equal(immutable.statusCode, 422, immutable.body)
    assert.equal(json<Problem>(immutable).code, 'immutable_field')
    const jsonPatch = await t.app.inject({
      method: 'PATCH',
      url: `/api/contracts/${id}`,
      headers: { ...headers, 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify([{ op: 'replace', path: '/customFields/financeManagerCode', value: 'FM9' }]),
    })
    assert.equal(jsonPatch.statusCode, 200, jsonPatch.body)
    assert.equal(json<{ customFields: Record<string, string> }>(jsonPatch).customFields.financeManagerCode, 'FM9')
    assert.equal((await inject('POST', `/api/contracts/${id}/finalize`, {})).statusCode, 200)
    const late = await inject('PATCH', `/api/contracts/${id}`, { dealNumber: 'D-4' })
    assert.equal(late.statusCode, 409, late.body)
    assert.equal(json<Problem>(late).code, 'contract_state_conflict')
    assert.equal((await inject('POST', `/api/contracts/${id}/finalize`, {})).statusCode, 409)
  })

  test('refinalize posts only the difference after a correction', async () => {
    const q = await quoteFor({ saleDate: '2026-10-22' })
    const created = await inject('POST', '/api/contracts', dealOf(q))
    assert.equal(created.statusCode, 201, created.body)
    const id = json<{ id: number }>(created).id
    assert.equal((await inject('POST', `/api/contracts/${id}/finalize`, {})).statusCode, 200)
    const unchanged = await inject('POST', `/api/contracts/${id}/refinalize`, {})
    assert.equal(unchanged.statusCode, 200, unchanged.body)
    assert.equal(json<{ journalEntry: unknown }>(unchanged).journalEntry, null)
    // A correction (what a rerate will do): the first line grows by 12.34.
    await t.db.transaction(demo.tenantId, (tx) =>
      sql`update contract set pricing = jsonb_set(pricing, '{lines,0,cents}', to_jsonb((pricing->'lines'->0->>'cents')::int + 1234)) where tenant_id = ${demo.tenantId} and id = ${id}`.execute(
        tx,
      ),
    )
    const corrected = await inject('POST', `/api/contracts/${id}/refinalize`, {})
    assert.equal(corrected.statusCode, 200, corrected.body)
    const entry = json<{ journalEntry: { totalDebit: number; totalCredit: number; lines: unknown[] } }>(
      corrected,
    ).journalEntry
    assert.equal(entry.totalDebit, 12.34)
    assert.equal(entry.totalCredit, 12.34)
    assert.equal(entry.lines.length, 2)
  })

  test('co-buyer set and removed while pending', async () => {
    const id = await pending('2026-10-23')
    const set = await inject('POST', `/api/contracts/${id}/cobuyer`, { firstName: 'Alex', lastName: 'Buyer' })
    assert.equal(set.statusCode, 200, set.body)
    assert.equal(json<{ coBuyer: { firstName: string } }>(set).coBuyer.firstName, 'Alex')
    assert.equal((await inject('DELETE', `/api/contracts/${id}/cobuyer`)).statusCode, 204)
    assert.equal(json<{ coBuyer: unknown }>(await inject('GET', `/api/contracts/${id}`)).coBuyer, null)
  })

  test('hold reasons, holds and their resolution', async () => {
    assert.ok(
      json<Array<{ code: string }>>(await inject('GET', '/api/contracts/holdreasons')).some(
        (r) => r.code === 'MISSING_SIGNATURE',
      ),
    )
    const id = await pending('2026-10-24')
    const hold = json<{ holdId: number }>(
      await inject('POST', `/api/contracts/${id}/holds`, { reasonCode: 'NEEDS_REVIEW' }),
    )
    assert.deepEqual(json<unknown[]>(await inject('GET', `/api/contracts/${id}/holds/${hold.holdId}/resolves`)), [])
    assert.equal((await inject('POST', `/api/contracts/${id}/holds/${hold.holdId}/resolves`, {})).statusCode, 201)
    const twice = await inject('POST', `/api/contracts/${id}/holds/${hold.holdId}/resolves`, {})
    assert.equal(twice.statusCode, 409)
    assert.equal(json<Problem>(twice).code, 'hold_already_resolved')
    assert.equal((await inject('POST', `/api/contracts/${id}/holds/999999/resolves`, {})).statusCode, 404)
    assert.equal((await inject('POST', `/api/contracts/${id}/holds`, { reasonCode: 'NOT_A_REASON' })).statusCode, 400)
  })
})

describe('access', () => {
  test('no credentials 401; missing permission 403; another tenant 404', async () => {
    const q = await quoteFor({ saleDate: '2026-10-10' })
    const created = await inject('POST', '/api/contracts', dealOf(q))
    assert.equal(created.statusCode, 201, created.body)
    const id = json<{ id: number }>(created).id
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/contracts/${id}`, headers: { 'x-api-key': demo.apiKey } }))
        .statusCode,
      401,
    )
    const adjuster = await createUserWithRoles(t, demo, ['CLAIMS_ADJUSTER'])
    const adjusterHeaders = adjuster.headers
    assert.equal((await inject('GET', `/api/contracts/${id}`, undefined, adjusterHeaders)).statusCode, 200)
    assert.equal((await inject('POST', '/api/contracts', dealOf(q), adjusterHeaders)).statusCode, 403)
    assert.equal((await inject('POST', `/api/contracts/${id}/finalize`, {}, adjusterHeaders)).statusCode, 403)
    const other = await createTenant(t)
    for (const url of [
      `/api/contracts/${id}`,
      `/api/v2/contracts/${id}`,
      `/api/contracts/${id}/holds`,
      `/api/contracts/${id}/documents`,
      `/api/contracts/${id}/coveragegroups`,
    ]) {
      assert.equal((await t.app.inject({ method: 'GET', url, headers: other.headers })).statusCode, 404, url)
    }
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/api/contracts', headers: other.headers, payload: dealOf(q) }))
        .statusCode,
      422,
      "another tenant's quote is unknown",
    )
  })

  test('coverage, PPM schedule and the draft document of a pending contract', async () => {
    const q = await quoteFor({ saleDate: '2026-10-12' })
    const id = json<{ id: number }>(await inject('POST', '/api/contracts', dealOf(q))).id
    const groups = json<Array<{ components: unknown[] }>>(await inject('GET', `/api/contracts/${id}/coveragegroups`))
    const components = json<unknown[]>(await inject('GET', `/api/contracts/${id}/coveragecomponents`))
    assert.ok(groups.length > 0)
    assert.equal(
      components.length,
      groups.reduce((n, g) => n + g.components.length, 0),
    )
    assert.deepEqual(json<unknown[]>(await inject('GET', `/api/contracts/${id}/ppmservices`)), [])
    const doc = await inject('POST', `/api/contracts/${id}/documents`)
    assert.equal(doc.statusCode, 201, doc.body)
    const listed = json<Array<{ versions: Array<{ metadata: { draft: boolean } }> }>>(
      await inject('GET', `/api/contracts/${id}/documents`),
    )
    assert.equal(listed[0]!.versions[0]!.metadata.draft, true)
  })
})

describe('hostile and careless input', () => {
  test('control characters and ids no column can hold are 400s naming the field', async () => {
    const q = await quoteFor({ saleDate: '2026-10-14' })
    const nul = await inject(
      'POST',
      '/api/contracts',
      dealOf(q, { customer: { firstName: 'Sam\u0000', lastName: 'Buyer' } }),
    )
    assert.equal(nul.statusCode, 400, nul.body)
    const huge = await inject('POST', '/api/contracts', dealOf(q, { lienHolderId: 1e20 }))
    assert.equal(huge.statusCode, 400, huge.body)
    for (const url of [
      '/api/contracts?dealerId=99999999999999999999',
      '/api/v2/contracts?dealerId=9223372036854775808',
      '/api/contracts?customerName=a%00b',
    ]) {
      assert.equal((await inject('GET', url)).statusCode, 400, url)
    }
    // A NUL is refused by the platform before the contract rules see it (400, named like the schema names fields).
    const fieldNul = await inject(
      'POST',
      '/api/contracts',
      dealOf(q, { customFields: { financeManagerCode: 'F\u0000' } }),
    )
    assert.equal(fieldNul.statusCode, 400, fieldNul.body)
    assert.deepEqual(fieldsOf(fieldNul), ['customFields.financeManagerCode:invalid_value'])
    const fieldControl = await inject(
      'POST',
      '/api/contracts',
      dealOf(q, { customFields: { financeManagerCode: 'F\u0007' } }),
    )
    assert.equal(fieldControl.statusCode, 422, fieldControl.body)
    assert.deepEqual(fieldsOf(fieldControl), ['customFields/financeManagerCode:invalid_value'])
  })

  test('a PATCH that would store bad values is refused and the contract stays readable', async () => {
    const q = await quoteFor({ saleDate: '2026-10-15', extra: FINANCE, planCode: 'GAP-STD' })
    const created = await inject(
      'POST',
      '/api/contracts',
      dealOf(q, { customFields: { lenderLoanNumber: `LN-P-${Date.now()}` } }),
    )
    assert.equal(created.statusCode, 201, created.body)
    const id = json<{ id: number }>(created).id
    const bad = await inject('PATCH', `/api/contracts/${id}`, {
      finance: { monthlyPayment: 'abc' },
      effectiveDate: '2099-01-01',
    })
    assert.equal(bad.statusCode, 422, bad.body)
    assert.deepEqual(fieldsOf(bad), ['effectiveDate:out_of_range', 'finance/monthlyPayment:invalid_format'])
    const partial = await inject('PATCH', `/api/contracts/${id}`, {
      salesPerson: { firstName: null, code: 'PS1' },
      finance: { monthlyPayment: 410.22 },
      coBuyer: null,
    })
    assert.equal(partial.statusCode, 200, partial.body)
    const read = await inject('GET', `/api/contracts/${id}`)
    assert.equal(read.statusCode, 200, read.body)
    const c = json<{ salesPerson: { firstName: string | null; code: string }; finance: { monthlyPayment: number } }>(
      read,
    )
    assert.deepEqual(c.salesPerson, { firstName: null, lastName: null, code: 'PS1' })
    assert.equal(c.finance.monthlyPayment, 410.22)
  })

  test('parallel claims of one unique value: one contract gets it, the others 409', async () => {
    const loan = `LN-R-${Date.now()}`
    const quotes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        quoteFor({
          saleDate: new Date(Date.UTC(2026, 8, 25 + i)).toISOString().slice(0, 10),
          extra: FINANCE,
          planCode: 'GAP-STD',
        }),
      ),
    )
    const replies = await Promise.all(
      quotes.map((q) => inject('POST', '/api/contracts', dealOf(q, { customFields: { lenderLoanNumber: loan } }))),
    )
    assert.deepEqual(
      replies.map((r) => r.statusCode).toSorted(),
      [201, 409, 409, 409, 409, 409, 409, 409],
      replies.map((r) => r.body).join('\n'),
    )
  })

  test('a draft document is rendered again on retry, even with an Idempotency-Key', async () => {
    const q = await quoteFor({ saleDate: '2026-10-16' })
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/contracts/draftdocument',
        headers: { ...headers, 'idempotency-key': 'draft-1' },
        payload: dealOf(q),
      })
    for (const res of [await send(), await send()]) {
      assert.equal(res.statusCode, 200, res.body)
      assert.ok(res.rawPayload.length > 1000)
      assert.equal(res.headers['idempotent-replayed'], undefined)
    }
  })

  test('status ACTIVE finds finalized contracts in effect', async () => {
    const q = await quoteFor({ saleDate: '2026-10-17' })
    const id = json<{ id: number }>(await inject('POST', '/api/contracts', dealOf(q))).id
    assert.equal((await inject('POST', `/api/contracts/${id}/finalize`)).statusCode, 200)
    const active = json<Array<{ id: number; status: string }>>(
      await inject('GET', '/api/contracts?status=ACTIVE&saleDateFrom=2026-10-17&saleDateTo=2026-10-17'),
    )
    assert.deepEqual(
      active.map((c) => [c.id, c.status]),
      [[id, 'ACTIVE']],
    )
    assert.deepEqual(
      json<unknown[]>(
        await inject('GET', '/api/contracts?status=FINALIZED&saleDateFrom=2026-10-17&saleDateTo=2026-10-17'),
      ),
      [],
    )
  })

  test('sort orders a search by the field named, either way, ties by id; an unknown sort is a 400', async () => {
    const made: Array<{ id: number; saleDate: string; name: string }> = []
    for (const [saleDate, lastName] of [
      ['2026-10-02', 'Carter'],
      ['2026-10-01', 'Abbott'],
      ['2026-10-03', 'Baker'],
      ['2026-10-01', 'Dunn'],
    ] as const) {
      // Two sales on one day: another VIN, or it would be a duplicate submission.
      const q = await quoteFor({ saleDate, vin: lastName === 'Dunn' ? CAMRY_VIN : HONDA_VIN })
      const res = await inject(
        'POST',
        '/api/contracts',
        dealOf(q, { customer: { firstName: 'Sortable', lastName, emailAddress: `${lastName}@example.com` } }),
      )
      assert.equal(res.statusCode, 201, res.body)
      made.push({ id: json<{ id: number }>(res).id, saleDate, name: lastName })
    }
    const window = 'saleDateFrom=2026-10-01&saleDateTo=2026-10-03&customerName=sortable'
    const ids = async (sort: string) =>
      json<Array<{ id: number }>>(await inject('GET', `/api/contracts?${window}${sort}`)).map((c) => c.id)
    const byId = made.map((m) => m.id)
    assert.deepEqual(
      await ids(''),
      byId.toSorted((a, b) => b - a),
      'newest first by default',
    )
    assert.deepEqual(
      await ids('&sort=createdAt'),
      byId.toSorted((a, b) => a - b),
    )
    const bySale = made.toSorted((a, b) => a.saleDate.localeCompare(b.saleDate) || a.id - b.id).map((m) => m.id)
    assert.deepEqual(await ids('&sort=saleDate'), bySale)
    assert.deepEqual(await ids('&sort=-saleDate'), bySale.toReversed())
    const byName = made.toSorted((a, b) => a.name.localeCompare(b.name)).map((m) => m.id)
    assert.deepEqual(await ids('&sort=customerName'), byName)
    const paged = json<{ items: Array<{ id: number }> }>(
      await inject('GET', `/api/v2/contracts?${window}&sort=-customerName&pageSize=2&pageNumber=2`),
    )
    assert.deepEqual(
      paged.items.map((c) => c.id),
      byName.toReversed().slice(2),
    )
    const bad = await inject('GET', '/api/contracts?sort=dealer_id')
    assert.equal(bad.statusCode, 400)
    assert.deepEqual(
      fieldsOf(bad).map((f) => f.split(':')[0]),
      ['sort'],
    )
  })

  test('lien holders with addresses, inline or by id, are kept and shown', async () => {
    const lienHolders = json<Array<{ id: number; legalName: string }>>(await inject('GET', '/api/lienHolders?limit=1'))
    assert.ok(lienHolders.length > 0, 'the demo tenant has lien holders')
    const byId = await inject(
      'POST',
      '/api/contracts',
      dealOf(await quoteFor({ saleDate: '2026-10-18' }), { lienHolderId: lienHolders[0]!.id }),
    )
    assert.equal(byId.statusCode, 201, byId.body)
    const inline = await inject(
      'POST',
      '/api/contracts',
      dealOf(await quoteFor({ saleDate: '2026-10-19' }), {
        lienHolder: {
          name: 'First Bank of Austin',
          address: { line1: '500 Congress Ave', city: 'Austin', state: 'TX', postalCode: '78701' },
          phoneNumber: '+15125550199',
        },
      }),
    )
    assert.equal(inline.statusCode, 201, inline.body)
    for (const res of [byId, inline]) {
      const id = json<{ id: number }>(res).id
      const read = await inject('GET', `/api/contracts/${id}`)
      assert.equal(read.statusCode, 200, read.body)
      const lien = json<{ lienHolder: { lienHolderId: number; address: Record<string, unknown> | null } }>(
        read,
      ).lienHolder
      assert.ok(lien.lienHolderId > 0)
      const edited = await inject('PATCH', `/api/contracts/${id}`, { dealNumber: 'D-L' })
      assert.equal(edited.statusCode, 200, edited.body)
    }
    assert.equal(
      json<{ lienHolder: { address: { line1: string } } }>(inline).lienHolder.address.line1,
      '500 Congress Ave',
    )
  })

  test('lone surrogates and huge paging values are 400s', async () => {
    const q = await quoteFor({ saleDate: '2026-10-25' })
    const surrogate = await t.app.inject({
      method: 'POST',
      url: '/api/contracts',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(dealOf(q)).replace('"Sam"', '"Sam\\ud800"'),
    })
    assert.equal(surrogate.statusCode, 400, surrogate.body)
    assert.equal(json<Problem>(surrogate).code, 'validation_failed')
    assert.deepEqual(fieldsOf(surrogate), ['customer.firstName:invalid_value'])
    for (const url of [
      '/api/contracts?offset=99999999999999999999',
      '/api/v2/contracts?pageNumber=99999999999999999',
    ]) {
      assert.equal((await inject('GET', url)).statusCode, 400, url)
    }
  })
})

describe('dealer-side users', () => {
  test("sell for their own dealer only, and see only their dealers' contracts", async () => {
    const dealers = json<Array<{ id: number; dealerNumber: string }>>(await inject('GET', '/api/dealers?limit=1000'))
    const own = dealers.find((d) => d.dealerNumber === DEMO.otherDealerNumber)!
    const group = await inject('POST', '/api/portalvisibilitygroups', {
      code: 'CONTRACT-PORTAL',
      name: 'Toyota Dallas portal',
      dealerIds: [own.id],
    })
    assert.equal(group.statusCode, 201, group.body)
    const user = await createUserWithRoles(t, demo, ['DEALER_USER'], {
      groups: [{ id: json<{ id: number }>(group).id }],
    })
    // A contract of dealer 10001, written by staff: invisible to the dealer user.
    const staffContract = json<{ id: number; contractNumber: string }>(
      await inject('POST', '/api/contracts', dealOf(await quoteFor({ saleDate: '2026-10-26' }))),
    )
    for (const url of [
      `/api/contracts/${staffContract.id}`,
      `/api/v2/contracts/${staffContract.contractNumber}`,
      `/api/contracts/${staffContract.id}/holds`,
      `/api/contracts/${staffContract.id}/lock`,
    ]) {
      assert.equal((await inject('GET', url, undefined, user.headers)).statusCode, 404, url)
    }
    assert.equal(
      (await inject('POST', `/api/contracts/${staffContract.id}/holds`, { reasonCode: 'OTHER' }, user.headers))
        .statusCode,
      404,
    )
    // A staff quote of dealer 10001 is not the dealer user's to contract.
    const staffQuote = await quoteFor({ saleDate: '2026-10-27' })
    const refused = await inject('POST', '/api/contracts', dealOf(staffQuote), user.headers)
    assert.equal(refused.statusCode, 422, refused.body)
    assert.equal(json<Problem>(refused).code, 'quote_unknown')
    // Its own dealer's quote and contract are its own.
    const q = await (async () => {
      const res = await inject(
        'GET',
        `/api/Rates/rateQuote/${DEMO.otherDealerNumber}?vin=${CAMRY_VIN}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&saleDate=2026-10-28`,
        undefined,
        user.headers,
      )
      assert.equal(res.statusCode, 200, res.body)
      const quote = json<QuoteReply>(res)
      const plan = quote.products
        .flatMap((p) => p.programs.flatMap((g) => g.plans))
        .find((p) => p.planCode === 'PLAT-USED')!
      return {
        quoteId: quote.quoteId,
        rate: plan.terms[0]!.deductibles[0]!.rate,
        vin: CAMRY_VIN,
        saleDate: '2026-10-28',
      }
    })()
    const mine = await inject('POST', '/api/contracts', dealOf(q), user.headers)
    assert.equal(mine.statusCode, 201, mine.body)
    const listed = json<Array<{ id: number; dealerId: number }>>(
      await inject('GET', '/api/contracts?limit=1000', undefined, user.headers),
    )
    assert.ok(listed.length > 0 && listed.every((c) => c.dealerId === own.id))
    assert.ok(listed.some((c) => c.id === json<{ id: number }>(mine).id))
  })
})
