// Cancel methods and reasons keep their catalogue ids from one rate-book version to the next, like
// products and plans, defaults included; versions imported before these members existed get ids for
// the default codes from migration 0014 (run again here for one tenant, after taking the ids away as
// such a version left them); the export gives the members back as imported. On the embedded database
// and on PostgreSQL (scripts/with-postgres.sh).
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { createTenant, createTestApp, json, type TestApp } from '../../../../test/harness.ts'
import { systemContext } from '../../../platform/http/context.ts'
import { insertDefaultCancelItems } from '../../../platform/db/migrations/2026_11_26_0014_cancel_catalogue_kinds.ts'
import { DEFAULT_CANCEL_METHODS, DEFAULT_CANCEL_REASONS } from './ratebook.defaults.ts'
import type { RateBookInput } from './ratebook.format.ts'
import { createRateBookStore } from './ratebook.store.ts'
import { demoRateBook } from './demo-ratebook.ts'

let t: TestApp
before(async () => {
  t = await createTestApp({ now: new Date('2026-11-26T12:00:00Z') })
})
after(() => t.close())

/** A book as written before the after-sale members (no fixed payees, so any tenant imports it). */
function oldBook(effectiveDate: string): RateBookInput {
  const b = demoRateBook(effectiveDate)
  b.disbursementCodes = b.disbursementCodes.map(({ payee: _p, earnings: _e, refundable: _r, ...c }) => c)
  for (const k of ['cancelMethods', 'cancelReasons', 'stateRules', 'earningsCurves'] as const) delete b[k]
  for (const p of b.products) {
    delete p.cancellation
    delete p.transfer
    for (const g of p.programs) for (const pl of g.plans) delete pl.claims
  }
  return b
}

async function importBook(tenantId: number, book: RateBookInput) {
  return t.modules.rating.rateBooks.importBook(systemContext(tenantId, 'test'), book, { dryRun: false })
}

/** The catalogue items of the cancel kinds: code → [id, first_version]. */
async function cancelItems(tenantId: number, kind: 'CANCEL_METHOD' | 'CANCEL_REASON') {
  const rows = await t.db.read(tenantId, (x) =>
    x
      .selectFrom('rating_catalogue_item')
      .select(['id', 'code', 'first_version'])
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .orderBy('id')
      .execute(),
  )
  return new Map(rows.map((r) => [r.code, [Number(r.id), r.first_version] as const]))
}

test('ids are stable across versions: the defaults, a book that names its own (shared codes keep their ids), the defaults again', async () => {
  const tenant = await createTenant(t, 'Cancel ids')
  await importBook(tenant.tenantId, oldBook('2026-01-01'))
  const v1 = (await t.modules.rating.store.byVersion(tenant.tenantId, 1))!
  assert.deepEqual(
    v1.cancelMethods.map((m) => m.code),
    DEFAULT_CANCEL_METHODS.map((m) => m.code),
  )
  assert.deepEqual(
    v1.cancelReasons.map((r) => r.code),
    DEFAULT_CANCEL_REASONS.map((r) => r.code),
  )
  const methods = await cancelItems(tenant.tenantId, 'CANCEL_METHOD')
  for (const m of v1.cancelMethods) {
    assert.deepEqual(methods.get(m.code), [m.id, 1])
    assert.equal(v1.cancelMethodById.get(m.id), m)
  }
  const reasons = await cancelItems(tenant.tenantId, 'CANCEL_REASON')
  for (const r of v1.cancelReasons) assert.equal(v1.cancelReasonById.get(r.id)?.code, r.code)

  // Version 2 names its own: PRO_RATA_DAYS and CUSTOMER_REQUEST again, and new codes.
  const two = oldBook('2026-02-01')
  two.cancelMethods = [
    { code: 'PRO_RATA_DAYS', name: 'Days, renamed', formula: 'PRO_RATA_DAYS' },
    { code: 'PRO_RATA_LESSER_TIME_MILES', name: 'Lesser', formula: 'PRO_RATA_LESSER_TIME_MILES' },
    { code: 'SHORT_85', name: 'Short rate 85', formula: 'SHORT_RATE', shortRatePercent: 85 },
  ]
  two.cancelReasons = [
    { code: 'CUSTOMER_REQUEST', name: 'Asked', requestedBy: ['CUSTOMER'] },
    { code: 'LEMON_LAW', name: 'Lemon law buy-back', requestedBy: ['ADMIN'], forcesFullRefund: true },
  ]
  await importBook(tenant.tenantId, two)
  const v2 = (await t.modules.rating.store.byVersion(tenant.tenantId, 2))!
  assert.equal(v2.cancelMethodByCode.get('PRO_RATA_DAYS')!.id, methods.get('PRO_RATA_DAYS')![0])
  assert.equal(v2.cancelMethodByCode.get('PRO_RATA_DAYS')!.name, 'Days, renamed')
  assert.equal(v2.cancelReasonByCode.get('CUSTOMER_REQUEST')!.id, reasons.get('CUSTOMER_REQUEST')![0])
  const newMethods = await cancelItems(tenant.tenantId, 'CANCEL_METHOD')
  assert.deepEqual(newMethods.get('SHORT_85')?.[1], 2)
  assert.ok(![...methods.values()].some(([id]) => id === newMethods.get('SHORT_85')![0]))
  // Version 2 has no FULL: that id is not one of its methods.
  assert.equal(v2.cancelMethodById.get(methods.get('FULL')![0]), undefined)

  // Version 3 omits the members again: every default has the id it had in version 1.
  await importBook(tenant.tenantId, oldBook('2026-03-01'))
  const v3 = (await t.modules.rating.store.byVersion(tenant.tenantId, 3))!
  assert.deepEqual(
    v3.cancelMethods.map((m) => m.id),
    v1.cancelMethods.map((m) => m.id),
  )
  assert.deepEqual(
    v3.cancelReasons.map((r) => r.id),
    v1.cancelReasons.map((r) => r.id),
  )
  // Nobody else's: another tenant's items are its own.
  const other = await createTenant(t, 'Cancel ids, other tenant')
  await importBook(other.tenantId, oldBook('2026-01-01'))
  const otherIds = new Set([...(await cancelItems(other.tenantId, 'CANCEL_METHOD')).values()].map(([id]) => id))
  assert.ok(v1.cancelMethods.every((m) => !otherIds.has(m.id)))
})

test('a version imported before the cancel kinds existed gets ids for the default codes from migration 0014', async () => {
  const tenant = await createTenant(t, 'Cancel ids backfill')
  await importBook(tenant.tenantId, oldBook('2026-01-01'))
  await importBook(tenant.tenantId, oldBook('2026-06-01'))
  // As such a version left things: no CANCEL_* items at all.
  await t.db.transaction(tenant.tenantId, (tx) =>
    tx
      .deleteFrom('rating_catalogue_item')
      .where('tenant_id', '=', tenant.tenantId)
      .where('kind', 'in', ['CANCEL_METHOD', 'CANCEL_REASON'])
      .execute(),
  )
  const freshStore = () => createRateBookStore({ db: t.db, bus: t.bus, clock: t.clock })
  await assert.rejects(freshStore().byVersion(tenant.tenantId, 1), /no catalogue id for CANCEL_METHOD PRO_RATA_DAYS/)

  // A tenant without a rate book gets nothing.
  const bookless = await createTenant(t, 'Cancel ids, no book')
  await t.db.transaction(null, (tx) => insertDefaultCancelItems(tx, bookless.tenantId))
  assert.equal((await cancelItems(bookless.tenantId, 'CANCEL_METHOD')).size, 0)

  await t.db.transaction(null, (tx) => insertDefaultCancelItems(tx, tenant.tenantId))
  const methods = await cancelItems(tenant.tenantId, 'CANCEL_METHOD')
  const reasons = await cancelItems(tenant.tenantId, 'CANCEL_REASON')
  assert.deepEqual(
    [...methods.keys()],
    DEFAULT_CANCEL_METHODS.map((m) => m.code),
  )
  assert.deepEqual(
    [...reasons.keys()],
    DEFAULT_CANCEL_REASONS.map((r) => r.code),
  )
  // First seen in the tenant's first version.
  assert.ok([...methods.values(), ...reasons.values()].every(([, first]) => first === 1))
  for (const version of [1, 2]) {
    const book = (await freshStore().byVersion(tenant.tenantId, version))!
    assert.deepEqual(
      book.cancelMethods.map((m) => m.id),
      [...methods.values()].map(([id]) => id),
    )
    assert.deepEqual(
      book.cancelReasons.map((r) => r.id),
      [...reasons.values()].map(([id]) => id),
    )
  }
  // Again: nothing changes.
  await t.db.transaction(null, (tx) => insertDefaultCancelItems(tx, tenant.tenantId))
  assert.deepEqual(await cancelItems(tenant.tenantId, 'CANCEL_METHOD'), methods)
  // And a later import keeps them.
  await importBook(tenant.tenantId, oldBook('2026-09-01'))
  assert.deepEqual(await cancelItems(tenant.tenantId, 'CANCEL_REASON'), reasons)
})

test('the export gives the after-sale members back as imported (amounts as JSON numbers), and re-imports unchanged', async () => {
  const tenant = await createTenant(t, 'Cancel ids export')
  const book = demoRateBook('2026-01-01')
  book.disbursementCodes = book.disbursementCodes.map(({ payee: _p, ...c }) => c)
  const first = await importBook(tenant.tenantId, book)
  const res = await t.app.inject({ method: 'GET', url: '/api/Rates/ratebooks/1/document', headers: tenant.headers })
  assert.equal(res.statusCode, 200, res.body)
  const doc = json<RateBookInput>(res)
  assert.deepEqual(
    doc.cancelMethods,
    book.cancelMethods!.map((m) => ({
      ...m,
      ...(m.shortRatePercent === undefined ? {} : { shortRatePercent: Number(m.shortRatePercent) }),
      ...(m.fixedAmount === undefined ? {} : { fixedAmount: Number(m.fixedAmount) }),
    })),
  )
  assert.deepEqual(doc.cancelReasons, book.cancelReasons)
  assert.deepEqual(doc.stateRules, [
    { state: 'CA', freeLookDays: 60, cancelFeeMax: 50, cancelFeeMaxPercent: 10 },
    { state: 'NY', cancelFeeMax: 50, claimsDeductible: false },
    { state: 'FL', freeLookDays: 30, cancelFeeMaxPercent: 10, claimsDeductible: false },
  ])
  assert.deepEqual(doc.earningsCurves![0]!.cumulative, book.earningsCurves![0]!.cumulative.map(Number))
  assert.deepEqual(
    doc.disbursementCodes.map((c) => [c.code, c.earnings ?? null, c.refundable ?? null]),
    book.disbursementCodes.map((c) => [c.code, c.earnings ?? null, c.refundable ?? null]),
  )
  const vsc = doc.products[0]!
  assert.deepEqual(vsc.cancellation!.rules![0]!.fee, { percent: 10, percentOf: 'REFUND', max: 75, keptBy: 'DEALER' })
  assert.deepEqual(vsc.transfer, { allowed: true, fee: 50, withinDays: 30, dealerMayOwn: false })
  assert.deepEqual(vsc.programs[1]!.plans[0]!.claims!.limitOfLiability, { basis: 'AMOUNT', amount: 15000 })
  assert.deepEqual(doc.products[1]!.transfer, { allowed: false })
  const again = await importBook(tenant.tenantId, doc)
  assert.deepEqual(again, { ...first, unchanged: true })
})
