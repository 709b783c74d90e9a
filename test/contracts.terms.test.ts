// The terms a contract is sold under (docs/contracts.md "Terms", issue 12 §2): taken from its own
// rate-book version when it is created, shown by GET /contracts/{id}; a contract sold before
// snapshots (terms null) is shown resolved on the fly and gets them written back on first use
// through the servicing port, after which later setting changes no longer move them.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { systemContext } from '../src/platform/http/context.ts'
import { seedDemo, sellDemoContract, type DemoSale, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, json, type TestApp } from './harness.ts'

const NOW = new Date('2026-11-21T18:00:00Z')

let t: TestApp
let demo: DemoTestTenant

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
})
after(() => t.close())

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: demo.headers, ...(payload === undefined ? {} : { payload: payload as object }) })

type Terms = {
  rateBookVersion: number
  product: { code: string; type: string }
  term: { code: string; months: number; miles: number }
  governingState: string | null
  cancellation: {
    method: { code: string; formula: string; id: number }
    fee: { amount: number | null; keptBy: string }
    freeLookDays: number
    deductClaims: boolean
    rules: Array<{ reasons: string[] | null; states: string[] | null }>
    sources: Record<string, string>
  }
  cancelMethods: Array<{ id: number; code: string }>
  cancelReasons: Array<{ id: number; code: string; productTypes: string[] | null }>
  earnings: Record<string, { method: string; refundable: boolean }>
  transfer: { allowed: boolean; fee: number | null; withinDays: number | null }
  salesTax: null
  lien: { lienHolderId: number; released: boolean; releasedOn: string | null } | null
  resolved: { at: string; on: string }
}
type Contract = {
  id: number
  term: { code: string }
  pricing: { rateBookVersion: number; lines: Array<{ code: string }> }
  lienHolder: { lienHolderId: number } | null
  terms: Terms
}

/** A contract of the demo book sold to Terry Terms: the VSC plan, or the tire & wheel one. */
const sell = (productType: 'VSC' | 'TIRE_WHEEL', saleDate: string, sale: Partial<DemoSale> = {}) =>
  sellDemoContract<Contract>(t, demo, {
    saleDate,
    productType,
    planCode: productType === 'VSC' ? 'PLAT-USED' : 'TW-STD',
    customer: { firstName: 'Terry', lastName: 'Terms', emailAddress: 'terry@example.com' },
    ...sale,
  })

const read = async (id: number) => json<Contract>(await inject('GET', `/api/contracts/${id}`))
const stored = async (id: number) =>
  (
    await t.db.transaction(demo.tenantId, (tx) =>
      sql<{
        terms: Record<string, any> | null
      }>`select terms from contract where tenant_id = ${demo.tenantId} and id = ${id}`.execute(tx),
    )
  ).rows[0]!.terms

const setSetting = async (key: string, value: unknown) => {
  const res = await inject('PUT', `/api/generalsettings/${key}`, { value })
  assert.equal(res.statusCode, 200, res.body)
}

test("a new contract keeps the terms of its own rate-book version, the quote's state and no lien", async () => {
  const c = await sell('VSC', '2026-11-02', { quoteQuery: 'customerState=NY' })
  assert.deepEqual(c.terms, (await read(c.id)).terms, 'the create reply and a read agree')
  const terms = c.terms
  assert.equal(terms.resolved.on, 'SALE')
  assert.equal(terms.resolved.at, NOW.toISOString())
  assert.equal(terms.rateBookVersion, c.pricing.rateBookVersion)
  assert.equal(terms.product.code, 'VSC')
  assert.equal(terms.term.code, c.term.code)
  assert.equal(terms.governingState, 'NY')
  // The demo book's VSC terms (demo-ratebook.ts), every one from the book.
  assert.equal(terms.cancellation.method.code, 'PRO_RATA_LESSER_TIME_MILES')
  assert.deepEqual(terms.cancellation.fee, {
    amount: 50,
    percent: null,
    percentOf: null,
    max: null,
    keptBy: 'ADMINISTRATOR',
  })
  assert.equal(terms.cancellation.freeLookDays, 60)
  assert.equal(terms.cancellation.deductClaims, true)
  assert.deepEqual(terms.cancellation.sources, {
    method: 'BOOK',
    fee: 'BOOK',
    freeLookDays: 'BOOK',
    deductClaims: 'BOOK',
  })
  assert.deepEqual(
    terms.cancellation.rules.map((r) => [r.reasons, r.states]),
    [
      [['REPOSSESSION'], null],
      [null, ['NY']],
      [null, null],
    ],
  )
  assert.ok(terms.cancelMethods.some((m) => m.id === terms.cancellation.method.id))
  assert.ok(terms.cancelReasons.every((r) => r.productTypes === null || r.productTypes.includes('VSC')))
  assert.deepEqual(Object.keys(terms.earnings).toSorted(), [...new Set(c.pricing.lines.map((l) => l.code))].toSorted())
  assert.deepEqual(terms.transfer, { allowed: true, fee: 50, withinDays: 30, dealerMayOwn: false })
  assert.equal(terms.salesTax, null)
  assert.equal(terms.lien, null)
  // Stored exact: amounts as decimal strings, which is what computations read.
  const raw = await stored(c.id)
  assert.equal(raw?.cancellation.fee.amount, '50.00')
  assert.equal(raw?.transfer.fee, '50.00')
})

test("a contract with a lien holder keeps the lien, unreleased; without a state the quote used the dealer's", async () => {
  const c = await sell('VSC', '2026-11-03', {
    deal: {
      lienHolder: {
        name: 'Terms Credit Union',
        address: { line1: '1 Bank St', city: 'Austin', state: 'TX', postalCode: '78701' },
      },
    },
  })
  assert.ok(c.lienHolder)
  assert.deepEqual(c.terms.lien, { lienHolderId: c.lienHolder.lienHolderId, released: false, releasedOn: null })
  assert.match(c.terms.governingState ?? '', /^[A-Z]{2}$/, "the dealer's state, which the quote stood in with")
})

test('a contract sold before snapshots: shown resolved, written back on first use through the port, then kept', async () => {
  // Tire & wheel has no cancellation terms in the demo book: the tenant settings stand in.
  const c = await sell('TIRE_WHEEL', '2026-11-04')
  assert.equal(c.terms.cancellation.freeLookDays, 30)
  assert.equal(c.terms.cancellation.sources.freeLookDays, 'SETTING')
  // Made as a contract of before this issue would be: no snapshot.
  await t.db.transaction(demo.tenantId, (tx) =>
    sql`update contract set terms = null where tenant_id = ${demo.tenantId} and id = ${c.id}`.execute(tx),
  )
  await setSetting('freeLookDays', 45)
  try {
    const shown = (await read(c.id)).terms
    assert.equal(shown.resolved.on, 'FIRST_USE')
    assert.equal(shown.cancellation.freeLookDays, 45, "the settings of today stand in for the book's silence")
    assert.equal(await stored(c.id), null, 'a read writes nothing')

    const ctx = systemContext(demo.tenantId, 'terms-test')
    const used = await t.db.transaction(demo.tenantId, (tx) => t.modules.contracts.servicing.termsOf(tx, ctx, c.id))
    assert.equal(used.resolved.on, 'FIRST_USE')
    assert.equal(used.cancellation.freeLookDays, 45)
    assert.equal((await stored(c.id))?.cancellation.freeLookDays, 45, 'written back')

    await setSetting('freeLookDays', 20)
    assert.equal((await read(c.id)).terms.cancellation.freeLookDays, 45, 'kept: later settings do not move them')
    const again = await t.db.transaction(demo.tenantId, (tx) => t.modules.contracts.servicing.termsOf(tx, ctx, c.id))
    assert.deepEqual(again, used)
  } finally {
    await setSetting('freeLookDays', 30)
  }
})

test("another tenant's contract has no terms to read: 404 through the port", async () => {
  const c = await sell('VSC', '2026-11-05')
  const other = await createTenant(t, 'Terms other tenant')
  const foreign = systemContext(other.tenantId, 'terms-test')
  await assert.rejects(
    t.db.transaction(other.tenantId, (tx) => t.modules.contracts.servicing.termsOf(tx, foreign, c.id)),
    (e: { code?: string }) => e.code === 'contract_not_found',
  )
  assert.equal((await stored(c.id))?.resolved.on, 'SALE', 'untouched')
})
