// The servicing port and the status history (docs/contracts.md "Servicing port", "Status history"):
// finalization and what the port applies (cancel, reinstate, expire by mileage, a late cancel of an
// expired contract, void) each write a history row, an audit record and an outbox event in the
// caller's transaction; the port answers 404 / 423 / 409 as the routes do; the status on a date; the
// parties' last contract date after a void; GET …/statushistory; the backfill of migration 0015.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql, type Transaction } from 'kysely'
import type { DB } from '../src/platform/db/schema.ts'
import { backfillStatusHistory } from '../src/platform/db/migrations/2026_11_26_0015_contract_status_history.ts'
import { eventsAfter } from '../src/platform/events/outbox.ts'
import { systemContext, type AuthenticatedContext } from '../src/platform/http/context.ts'
import type { ContractServicing } from '../src/modules/contracts/index.ts'
import {
  DEMO,
  finalizeContract,
  seedDemo,
  sellDemoContract,
  type DemoSale,
  type DemoTestTenant,
} from './demo-tenant.ts'
import { createTenant, createTestApp, json, loginHeaders, type TestApp } from './harness.ts'

const NOW = new Date('2026-11-21T18:00:00Z')
const TODAY = '2026-11-21'

let t: TestApp
let demo: DemoTestTenant
let port: ContractServicing
let staff: AuthenticatedContext

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
  port = t.modules.contracts.servicing
  staff = systemContext(demo.tenantId, 'servicing-test')
})
after(() => t.close())

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, h = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })

type Problem = { status: number; code: string }
type Contract = { id: number; contractNumber: string; status: string; expirationOdometer: number | null }

/** A contract of the demo book sold to Robin Servicing on `saleDate` (each test its own day: no two are duplicates). */
const sell = (saleDate: string, sale: Partial<DemoSale> = {}) =>
  sellDemoContract<Contract>(t, demo, {
    saleDate,
    customer: { firstName: 'Robin', lastName: 'Servicing', emailAddress: 'robin@example.com' },
    ...sale,
  })

/** The port inside one transaction of the tenant, as a cancellation or claim service calls it. */
const within = <T>(fn: (tx: Transaction<DB>) => Promise<T>, tenantId = demo.tenantId) => t.db.transaction(tenantId, fn)

/** `event (from → to) effective` of each history row. */
async function historyLines(id: number) {
  return (await port.historyOf(demo.tenantId, id)).map(
    (h) =>
      `${h.event} ${h.fromStatus ?? '-'}→${h.toStatus} ${h.effectiveDate} ${h.source.type}${h.source.id ? `#${h.source.id}` : ''}`,
  )
}

async function outboxTypes(id: number) {
  const events = await within((tx) => eventsAfter(tx, demo.tenantId, 0, 10_000))
  return events.filter((e) => e.payload.contractId === id).map((e) => e.type)
}

async function auditActions(id: number) {
  const rows = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select('action')
      .where('tenant_id', '=', demo.tenantId)
      .where('entity_type', '=', 'contract')
      .where('entity_id', '=', String(id))
      .orderBy('id')
      .execute(),
  )
  return rows.map((r) => r.action)
}

async function failsWith(promise: Promise<unknown>, status: number, code: string) {
  await assert.rejects(promise, (err: { status?: number; code?: string }) => {
    assert.equal(err.status, status)
    assert.equal(err.code, code)
    return true
  })
}

describe('status changes through finalization and the port', () => {
  test('finalize, cancel and reinstate: history, outbox and audit in step; the status on each date', async () => {
    const c = await sell('2026-11-02', { finalize: true })
    const cancelled = await within((tx) =>
      port.applyTransition(tx, staff, c.id, {
        event: 'CANCEL',
        effectiveDate: '2026-11-15',
        source: { type: 'CANCELLATION', id: 5012 },
        details: { refund: '412.50' },
      }),
    )
    assert.equal(cancelled.fromStatus, 'ACTIVE')
    assert.equal(cancelled.toStatus, 'CANCELLED')
    assert.equal(cancelled.activatedFirst, false)
    assert.equal(json<Contract>(await inject('GET', `/api/contracts/${c.id}`)).status, 'CANCELLED')
    const reinstated = await within((tx) =>
      port.applyTransition(tx, staff, c.id, {
        event: 'REINSTATE',
        effectiveDate: '2026-11-20',
        source: { type: 'CANCELLATION', id: 5012 },
      }),
    )
    assert.equal(reinstated.toStatus, 'ACTIVE', 'back to what it was before the cancel')
    assert.deepEqual(await historyLines(c.id), [
      'CREATE -→PENDING 2026-11-02 CONTRACT',
      `FINALIZE PENDING→FINALIZED ${TODAY} CONTRACT`,
      'ACTIVATE FINALIZED→ACTIVE 2026-11-02 CONTRACT',
      'CANCEL ACTIVE→CANCELLED 2026-11-15 CANCELLATION#5012',
      'REINSTATE CANCELLED→ACTIVE 2026-11-20 CANCELLATION#5012',
    ])
    assert.deepEqual(await outboxTypes(c.id), [
      'contract.created',
      'contract.finalized',
      'contract.activated',
      'contract.cancelled',
      'contract.reinstated',
    ])
    const actions = await auditActions(c.id)
    for (const action of ['contract.created', 'contract.finalized', 'contract.activated', 'contract.cancelled'])
      assert.ok(actions.includes(action), action)
    assert.equal(actions.at(-1), 'contract.reinstated')
    // The cancellation's audit record carries the caller's details; its event the contract's facts.
    const audit = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select('changes')
        .where('tenant_id', '=', demo.tenantId)
        .where('entity_id', '=', String(c.id))
        .where('action', '=', 'contract.cancelled')
        .executeTakeFirstOrThrow(),
    )
    assert.deepEqual(audit.changes, {
      before: { status: 'ACTIVE' },
      after: { status: 'CANCELLED' },
      effectiveDate: '2026-11-15',
      source: { type: 'CANCELLATION', id: 5012 },
      refund: '412.50',
    })
    const event = (await within((tx) => eventsAfter(tx, demo.tenantId, 0, 10_000, ['contract.cancelled']))).find(
      (e) => e.payload.contractId === c.id,
    )!
    assert.deepEqual(event.payload, {
      contractId: c.id,
      contractNumber: c.contractNumber,
      dealerId: event.payload.dealerId,
      event: 'CANCEL',
      fromStatus: 'ACTIVE',
      toStatus: 'CANCELLED',
      effectiveDate: '2026-11-15',
      source: { type: 'CANCELLATION', id: 5012 },
      historyId: cancelled.historyId,
    })
    const on: Array<[string, string | null]> = [
      ['2026-11-01', null],
      ['2026-11-02', 'ACTIVE'],
      ['2026-11-15', 'CANCELLED'],
      ['2026-11-19', 'CANCELLED'],
      ['2026-11-20', 'ACTIVE'],
    ]
    for (const [date, status] of on) assert.equal(await port.statusOn(demo.tenantId, c.id, date), status, date)
    // Inside the caller's transaction the port reads through it.
    assert.equal(await within((tx) => port.statusOn(demo.tenantId, c.id, '2026-11-16', tx)), 'CANCELLED')
  })

  test('a finalized contract read ACTIVE has its activation recorded before the change', async () => {
    const c = await sell(TODAY, { effectiveDate: '2026-12-15', finalize: true })
    assert.equal(c.status, 'FINALIZED', 'not yet in effect')
    t.clock.set(new Date('2026-12-20T12:00:00Z'))
    try {
      const locked = await within((tx) => port.lockForEvent(tx, staff, c.id, 'CANCEL'))
      assert.equal(locked.status, 'ACTIVE', 'judged as the reader sees it')
      assert.equal(locked.effectiveDate, '2026-12-15')
      assert.equal(locked.terms?.resolved.on, 'SALE', 'the terms were taken when the contract was created')
      const applied = await within((tx) =>
        port.applyTransition(tx, staff, c.id, {
          event: 'CANCEL',
          effectiveDate: '2026-12-20',
          source: { type: 'CLAIM', id: 77 },
        }),
      )
      assert.equal(applied.activatedFirst, true)
      assert.deepEqual((await historyLines(c.id)).slice(1), [
        `FINALIZE PENDING→FINALIZED ${TODAY} CONTRACT`,
        'ACTIVATE FINALIZED→ACTIVE 2026-12-15 CONTRACT',
        'CANCEL ACTIVE→CANCELLED 2026-12-20 CLAIM#77',
      ])
      assert.deepEqual((await outboxTypes(c.id)).slice(-2), ['contract.activated', 'contract.cancelled'])
    } finally {
      t.clock.set(NOW)
    }
  })

  test('refinalize writes the pending activation of a finalized contract in effect', async () => {
    const c = await sell('2026-11-20', { effectiveDate: '2026-12-01', finalize: true })
    t.clock.set(new Date('2026-12-02T12:00:00Z'))
    try {
      // Signed in again: the clock moved past the token's life.
      const headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
      const res = await inject('POST', `/api/contracts/${c.id}/refinalize`, {}, headers)
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(json<{ contract: Contract }>(res).contract.status, 'ACTIVE')
      assert.equal((await historyLines(c.id)).at(-1), 'ACTIVATE FINALIZED→ACTIVE 2026-12-01 CONTRACT')
      const stored = await t.db.read(demo.tenantId, (x) =>
        x
          .selectFrom('contract')
          .select('status')
          .where('tenant_id', '=', demo.tenantId)
          .where('id', '=', c.id)
          .executeTakeFirstOrThrow(),
      )
      assert.equal(stored.status, 'ACTIVE')
    } finally {
      t.clock.set(NOW)
    }
  })

  test('expire by mileage, a late cancel of the expired contract, its reinstatement back to EXPIRED', async () => {
    const c = await sell('2026-11-03', { finalize: true })
    const limit = c.expirationOdometer!
    assert.ok(limit > 42150)
    await failsWith(
      within((tx) => port.lockForEvent(tx, staff, c.id, 'EXPIRE', { odometer: limit - 1 })),
      409,
      'contract_not_expired',
    )
    await failsWith(
      within((tx) =>
        port.applyTransition(tx, staff, c.id, { event: 'EXPIRE', effectiveDate: TODAY, source: { type: 'PROCESS' } }),
      ),
      409,
      'contract_not_expired',
    )
    await within((tx) =>
      port.applyTransition(tx, staff, c.id, {
        event: 'EXPIRE',
        effectiveDate: '2026-11-20',
        source: { type: 'CLAIM', id: 9 },
        facts: { odometer: limit },
      }),
    )
    const expired = await within((tx) => port.lockForEvent(tx, staff, c.id, 'CANCEL', { effectiveDate: '2026-11-10' }))
    assert.equal(expired.status, 'EXPIRED')
    await failsWith(
      within((tx) =>
        port.applyTransition(tx, staff, c.id, {
          event: 'CANCEL',
          effectiveDate: '2031-01-01',
          source: { type: 'CANCELLATION', id: 1 },
        }),
      ),
      409,
      'contract_cancel_after_expiration',
    )
    await within((tx) =>
      port.applyTransition(tx, staff, c.id, {
        event: 'CANCEL',
        effectiveDate: '2026-11-10',
        source: { type: 'CANCELLATION', id: 2 },
      }),
    )
    assert.equal(await port.statusOn(demo.tenantId, c.id, '2026-11-09'), 'ACTIVE')
    assert.equal(await port.statusOn(demo.tenantId, c.id, '2026-11-25'), 'CANCELLED', 'the late cancel wins')
    const back = await within((tx) =>
      port.applyTransition(tx, staff, c.id, {
        event: 'REINSTATE',
        effectiveDate: '2026-11-10',
        source: { type: 'CANCELLATION', id: 2 },
      }),
    )
    assert.equal(back.toStatus, 'EXPIRED')
    assert.deepEqual((await historyLines(c.id)).slice(3), [
      'EXPIRE ACTIVE→EXPIRED 2026-11-20 CLAIM#9',
      'CANCEL EXPIRED→CANCELLED 2026-11-10 CANCELLATION#2',
      'REINSTATE CANCELLED→EXPIRED 2026-11-10 CANCELLATION#2',
    ])
  })

  test('refusals through the port: another tenant 404, an invisible dealer 404, an edit lock 423, a state 409; nothing written', async () => {
    const c = await sell('2026-11-04')
    const other = await createTenant(t)
    const request = { event: 'VOID', effectiveDate: TODAY, source: { type: 'PROCESS' } } as const
    await failsWith(
      within((tx) => port.applyTransition(tx, systemContext(other.tenantId), c.id, request), other.tenantId),
      404,
      'contract_not_found',
    )
    await failsWith(
      within((tx) => port.lockForEvent(tx, systemContext(other.tenantId), c.id, 'VOID'), other.tenantId),
      404,
      'contract_not_found',
    )
    await failsWith(
      within((tx) => port.termsOf(tx, systemContext(other.tenantId), c.id), other.tenantId),
      404,
      'contract_not_found',
    )
    const dealerSide: AuthenticatedContext = {
      ...staff,
      principal: { ...staff.principal, visibleAccountHolderIds: new Set([999_999]) },
    }
    await failsWith(
      within((tx) => port.lockForEvent(tx, dealerSide, c.id, 'VOID')),
      404,
      'contract_not_found',
    )
    assert.equal((await inject('POST', `/api/contracts/${c.id}/lock`)).statusCode, 200)
    await failsWith(
      within((tx) => port.applyTransition(tx, staff, c.id, request)),
      423,
      'contract_locked',
    )
    assert.equal((await inject('DELETE', `/api/contracts/${c.id}/lock`)).statusCode, 204)
    for (const event of ['CANCEL', 'EXPIRE', 'REINSTATE', 'ACTIVATE'] as const)
      await failsWith(
        within((tx) => port.lockForEvent(tx, staff, c.id, event)),
        409,
        'contract_state_conflict',
      )
    assert.deepEqual(await historyLines(c.id), ['CREATE -→PENDING 2026-11-04 CONTRACT'])
    // A failure after the port's writes, in the caller's transaction, leaves nothing behind.
    await assert.rejects(
      within(async (tx) => {
        await port.applyTransition(tx, staff, c.id, request)
        throw new Error('the caller fails later')
      }),
      /the caller fails later/,
    )
    assert.deepEqual(await historyLines(c.id), ['CREATE -→PENDING 2026-11-04 CONTRACT'])
    assert.deepEqual(await outboxTypes(c.id), ['contract.created'])
  })

  test("a void recomputes the dealer's and the customer's last contract date from what still counts", async () => {
    // Another dealer and customer than the tests above, so that these two sales are all they have.
    const buyer = { firstName: 'Kim', lastName: 'Voidable', emailAddress: 'kim@example.com' }
    const earlier = await sell('2026-11-05', { customer: buyer, dealerNumber: DEMO.otherDealerNumber })
    const latest = await sell('2026-11-06', { customer: buyer, dealerNumber: DEMO.otherDealerNumber })
    const { dealerId, customerId } = await within((tx) => port.lockForEvent(tx, staff, latest.id, 'VOID'))
    const dates = () =>
      t.db.read(demo.tenantId, async (x) => {
        const rows = await x
          .selectFrom('account_holder')
          .select(['id', 'last_contract_date'])
          .where('tenant_id', '=', demo.tenantId)
          .where('id', 'in', [dealerId, customerId])
          .execute()
        return Object.fromEntries(rows.map((r) => [r.id === dealerId ? 'dealer' : 'customer', r.last_contract_date]))
      })
    assert.deepEqual(await dates(), { dealer: '2026-11-06', customer: '2026-11-06' }, 'raised by each sale')
    await within((tx) =>
      port.applyTransition(tx, staff, latest.id, { event: 'VOID', effectiveDate: TODAY, source: { type: 'PROCESS' } }),
    )
    assert.deepEqual(await dates(), { dealer: '2026-11-05', customer: '2026-11-05' }, 'back to the sale that counts')
    await within((tx) =>
      port.applyTransition(tx, staff, earlier.id, { event: 'VOID', effectiveDate: TODAY, source: { type: 'PROCESS' } }),
    )
    assert.deepEqual(await dates(), { dealer: null, customer: null }, 'no contract counts any more')
    assert.equal((await outboxTypes(latest.id)).at(-1), 'contract.voided')
    assert.deepEqual((await historyLines(latest.id)).at(-1), `VOID PENDING→VOIDED ${TODAY} PROCESS`)
  })
})

describe('GET /api/contracts/{contractId}/statushistory', () => {
  test('paged, oldest first; 404 for another tenant and an unknown id', async () => {
    const c = await sell('2026-11-07', { finalize: true })
    const page = json<{
      items: Array<{
        event: string
        fromStatus: string | null
        toStatus: string
        source: { type: string }
        actor: string
      }>
      totalCount: number
      totalPages: number
    }>(await inject('GET', `/api/contracts/${c.id}/statushistory?pageSize=2`))
    assert.equal(page.totalCount, 3)
    assert.equal(page.totalPages, 2)
    assert.deepEqual(
      page.items.map((i) => `${i.event}:${i.fromStatus}:${i.toStatus}:${i.source.type}`),
      ['CREATE:null:PENDING:CONTRACT', 'FINALIZE:PENDING:FINALIZED:CONTRACT'],
    )
    assert.equal(page.items[0]!.actor, demo.adminEmail)
    const second = json<{ items: Array<{ event: string }> }>(
      await inject('GET', `/api/contracts/${c.id}/statushistory?pageSize=2&pageNumber=2`),
    )
    assert.deepEqual(
      second.items.map((i) => i.event),
      ['ACTIVATE'],
    )
    const other = await createTenant(t)
    const foreign = await inject('GET', `/api/contracts/${c.id}/statushistory`, undefined, other.headers)
    assert.equal(foreign.statusCode, 404, foreign.body)
    assert.equal(json<Problem>(foreign).code, 'contract_not_found')
    assert.equal((await inject('GET', '/api/contracts/99999999/statushistory')).statusCode, 404)
  })
})

describe('history rows', () => {
  test('are immutable', async () => {
    const c = await sell('2026-11-08')
    await assert.rejects(
      within((tx) =>
        sql`update contract_status_history set to_status = 'ACTIVE' where tenant_id = ${demo.tenantId} and contract_id = ${c.id}`.execute(
          tx,
        ),
      ),
      /immutable/,
    )
    await assert.rejects(
      within((tx) =>
        sql`delete from contract_status_history where tenant_id = ${demo.tenantId} and contract_id = ${c.id}`.execute(
          tx,
        ),
      ),
      /immutable/,
    )
  })

  test('the backfill of migration 0015 rebuilds the history of contracts that have none', async () => {
    const model = await sell('2026-11-09')
    // Contracts as they stood before the history: copies of a sold one, in each status, without rows.
    const copies: Record<string, { status: string; finalized: boolean; updatedAt: string }> = {
      PENDING: { status: 'PENDING', finalized: false, updatedAt: '2026-11-09T15:00:00Z' },
      VOIDED: { status: 'VOIDED', finalized: false, updatedAt: '2026-11-12T15:00:00Z' },
      FINALIZED: { status: 'FINALIZED', finalized: true, updatedAt: '2026-11-10T15:00:00Z' },
      ACTIVE: { status: 'ACTIVE', finalized: true, updatedAt: '2026-11-10T15:00:00Z' },
      EXPIRED: { status: 'EXPIRED', finalized: true, updatedAt: '2030-11-05T15:00:00Z' },
      CANCELLED: { status: 'CANCELLED', finalized: true, updatedAt: '2027-01-15T15:00:00Z' },
    }
    const ids: Record<string, number> = {}
    await within(async (tx) => {
      const columns = (
        await sql<{ column_name: string }>`
          select column_name from information_schema.columns
           where table_schema = current_schema() and table_name = 'contract' and is_generated = 'NEVER'
             and column_name not in ('id', 'contract_number', 'status', 'finalized_at', 'finalized_by', 'updated_at')
           order by ordinal_position`.execute(tx)
      ).rows.map((r) => r.column_name)
      const list = sql.join(columns.map((name) => sql.ref(name)))
      for (const [key, copy] of Object.entries(copies)) {
        const row = await sql<{ id: number }>`
          insert into contract (${list}, contract_number, status, finalized_at, finalized_by, updated_at)
          select ${list}, contract_number || ${`-${key}`}, ${copy.status},
                 ${copy.finalized ? new Date('2026-11-10T15:00:00Z') : null}::timestamptz,
                 ${copy.finalized ? 'clerk@admin.example' : null}::text, ${new Date(copy.updatedAt)}::timestamptz
            from contract where tenant_id = ${demo.tenantId} and id = ${model.id}
          returning id`.execute(tx)
        ids[key] = row.rows[0]!.id
      }
      await backfillStatusHistory(tx, demo.tenantId)
      await backfillStatusHistory(tx, demo.tenantId)
    })
    const lines = async (key: string) => (await historyLines(ids[key]!)).map((l) => l.replace(/ BACKFILL$/, ''))
    assert.deepEqual(await lines('PENDING'), ['CREATE -→PENDING 2026-11-09'])
    assert.deepEqual(await lines('VOIDED'), ['CREATE -→PENDING 2026-11-09', 'VOID PENDING→VOIDED 2026-11-12'])
    assert.deepEqual(await lines('FINALIZED'), ['CREATE -→PENDING 2026-11-09', 'FINALIZE PENDING→FINALIZED 2026-11-10'])
    assert.deepEqual(await lines('ACTIVE'), [
      'CREATE -→PENDING 2026-11-09',
      'FINALIZE PENDING→FINALIZED 2026-11-10',
      'ACTIVATE FINALIZED→ACTIVE 2026-11-09',
    ])
    const expiration = (await within((tx) => port.lockForEvent(tx, staff, ids.CANCELLED!, 'REINSTATE'))).expirationDate
    const dayAfter = new Date(Date.parse(`${expiration}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    assert.deepEqual(await lines('EXPIRED'), [
      'CREATE -→PENDING 2026-11-09',
      'FINALIZE PENDING→FINALIZED 2026-11-10',
      'ACTIVATE FINALIZED→ACTIVE 2026-11-09',
      `EXPIRE ACTIVE→EXPIRED ${dayAfter}`,
    ])
    assert.deepEqual(await lines('CANCELLED'), [
      'CREATE -→PENDING 2026-11-09',
      'FINALIZE PENDING→FINALIZED 2026-11-10',
      'ACTIVATE FINALIZED→ACTIVE 2026-11-09',
      'CANCEL ACTIVE→CANCELLED 2027-01-15',
    ])
    // The model already had its history: left alone; and the rebuilt rows answer "in force on".
    assert.deepEqual(await historyLines(model.id), ['CREATE -→PENDING 2026-11-09 CONTRACT'])
    assert.equal(await port.statusOn(demo.tenantId, ids.CANCELLED!, '2026-12-01'), 'ACTIVE')
    assert.equal(await port.statusOn(demo.tenantId, ids.CANCELLED!, '2027-01-15'), 'CANCELLED')
    assert.equal(await port.statusOn(demo.tenantId, ids.FINALIZED!, '2026-11-20'), 'ACTIVE', 'read ACTIVE in effect')
    // A backfilled cancellation can be reversed: the history says what it was before.
    const back = await within((tx) =>
      port.applyTransition(tx, staff, ids.CANCELLED!, {
        event: 'REINSTATE',
        effectiveDate: '2027-01-15',
        source: { type: 'CANCELLATION' },
      }),
    )
    assert.equal(back.toStatus, 'ACTIVE')
  })
})

describe('sale postings settled through the port (decision 0012)', () => {
  test('a contract posted the old way gets its administrator lines moved to UNEARNED_REVENUE once; a current one posts nothing', async () => {
    const c = await sell('2026-11-19')
    assert.equal(await within((tx) => port.settleSalePostings(tx, staff, c.id)), null, 'pending: never posted')
    await finalizeContract(t, demo, c.id)
    assert.equal(await within((tx) => port.settleSalePostings(tx, staff, c.id)), null, 'already as its lines say')

    // Make it look finalized before the deferral: its administrator lines on DISBURSEMENT_PAYABLE.
    const ledger = t.modules.finance.ledger
    const [sale] = await ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: c.id })
    const deferred = sale!.lines.filter((l) => l.purpose === 'UNEARNED_REVENUE')
    assert.ok(deferred.length > 0, 'the demo contract has administrator lines')
    await ledger.post(staff, {
      kind: 'CONTRACT_REFINALIZED',
      source: { type: 'CONTRACT', id: c.id },
      effectiveDate: TODAY,
      lines: deferred.flatMap((l) => [
        {
          accountHolderId: l.accountHolderId,
          purpose: 'UNEARNED_REVENUE' as const,
          side: 'DEBIT' as const,
          amount: String(l.credit),
          contractId: c.id,
          disbursementCode: l.disbursementCode!,
        },
        {
          accountHolderId: l.accountHolderId,
          purpose: 'DISBURSEMENT_PAYABLE' as const,
          side: 'CREDIT' as const,
          amount: String(l.credit),
          contractId: c.id,
          disbursementCode: l.disbursementCode!,
        },
      ]),
    })

    const settled = await within((tx) => port.settleSalePostings(tx, staff, c.id))
    assert.ok(settled !== null)
    const entry = await ledger.entry(demo.tenantId, settled)
    assert.equal(entry?.kind, 'CONTRACT_REFINALIZED')
    assert.deepEqual(
      entry!.lines.map((l) => [l.purpose, l.debit, l.credit, l.disbursementCode]).toSorted(),
      deferred
        .flatMap((l) => [
          ['DISBURSEMENT_PAYABLE', l.credit, 0, l.disbursementCode],
          ['UNEARNED_REVENUE', 0, l.credit, l.disbursementCode],
        ])
        .toSorted(),
    )
    assert.equal(await within((tx) => port.settleSalePostings(tx, staff, c.id)), null, 'once')
    const view = json<{ remittance: { journalEntryIds: number[] } }>(await inject('GET', `/api/contracts/${c.id}`))
    assert.equal(view.remittance.journalEntryIds.at(-1), settled)
  })
})
