// The event outbox (platform/events/outbox.ts, docs/events.md): an event exists exactly when the
// transaction that appended it committed, a tenant sees only its own events, in id order, and a
// stored event can be neither changed nor deleted.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { appendEvent, eventsAfter } from '../src/platform/events/outbox.ts'
import { closeAtEnd, createTenant, createTestApp, type TestApp, type TestTenant } from './harness.ts'

let t: TestApp
let a: TestTenant
let b: TestTenant
const AT = new Date('2026-11-26T12:00:00.000Z')

before(async () => {
  t = await createTestApp()
  a = await createTenant(t, 'Outbox A')
  b = await createTenant(t, 'Outbox B')
})
after(closeAtEnd(() => t.close()))

test('an appended event is read back in id order with its payload and time', async () => {
  const first = await t.db.transaction(a.tenantId, (tx) =>
    appendEvent(tx, a.tenantId, AT, { type: 'contract.finalized', payload: { contractId: 7, contractNumber: 'C-7' } }),
  )
  const second = await t.db.transaction(a.tenantId, (tx) =>
    appendEvent(tx, a.tenantId, AT, { type: 'contract.cancelled', payload: { contractId: 7, net: '1200.00' } }),
  )
  assert.ok(second > first)
  const events = await t.db.transaction(a.tenantId, (tx) => eventsAfter(tx, a.tenantId, first - 1, 10))
  assert.deepEqual(
    events.map((e) => [e.id, e.tenantId, e.type, e.payload, e.createdAt.toISOString()]),
    [
      [first, a.tenantId, 'contract.finalized', { contractId: 7, contractNumber: 'C-7' }, AT.toISOString()],
      [second, a.tenantId, 'contract.cancelled', { contractId: 7, net: '1200.00' }, AT.toISOString()],
    ],
  )
  const onlyCancels = await t.db.transaction(a.tenantId, (tx) =>
    eventsAfter(tx, a.tenantId, 0, 10, ['contract.cancelled']),
  )
  assert.deepEqual(
    onlyCancels.map((e) => e.id),
    [second],
  )
  assert.deepEqual(await t.db.transaction(a.tenantId, (tx) => eventsAfter(tx, a.tenantId, 0, 10, [])), [])
})

test('an event of a transaction that rolls back does not exist', async () => {
  const earlier = await t.db.transaction(a.tenantId, (tx) => eventsAfter(tx, a.tenantId, 0, 1000))
  await assert.rejects(
    t.db.transaction(a.tenantId, async (tx) => {
      await appendEvent(tx, a.tenantId, AT, { type: 'claim.paid', payload: { claimId: 1 } })
      throw new Error('the change failed')
    }),
    /the change failed/,
  )
  const later = await t.db.transaction(a.tenantId, (tx) => eventsAfter(tx, a.tenantId, 0, 1000))
  assert.deepEqual(later, earlier)
})

test("a tenant never sees another tenant's events", async () => {
  await t.db.transaction(b.tenantId, (tx) =>
    appendEvent(tx, b.tenantId, AT, { type: 'contract.voided', payload: { contractId: 1 } }),
  )
  const ofA = await t.db.transaction(a.tenantId, (tx) => eventsAfter(tx, a.tenantId, 0, 1000))
  assert.ok(ofA.every((e) => e.tenantId === a.tenantId && e.type !== 'contract.voided'))
  const ofB = await t.db.transaction(b.tenantId, (tx) => eventsAfter(tx, b.tenantId, 0, 1000))
  assert.deepEqual(
    ofB.map((e) => e.type),
    ['contract.voided'],
  )
})

test('event types are checked, and stored events are immutable', async () => {
  for (const type of ['Contract.Finalized', 'contract', 'contract..x', 'contract.finalized!', `a.${'b'.repeat(100)}`])
    await assert.rejects(
      t.db.transaction(a.tenantId, (tx) => appendEvent(tx, a.tenantId, AT, { type, payload: {} })),
      RangeError,
      type,
    )
  const id = await t.db.transaction(a.tenantId, (tx) =>
    appendEvent(tx, a.tenantId, AT, { type: 'contract.expired', payload: { contractId: 3 } }),
  )
  await assert.rejects(
    t.db.transaction(a.tenantId, (tx) =>
      sql`update event_outbox set type = 'contract.activated' where tenant_id = ${a.tenantId} and id = ${id}`.execute(
        tx,
      ),
    ),
    /immutable/,
  )
  await assert.rejects(
    t.db.transaction(a.tenantId, (tx) =>
      sql`delete from event_outbox where tenant_id = ${a.tenantId} and id = ${id}`.execute(tx),
    ),
    /immutable/,
  )
})
