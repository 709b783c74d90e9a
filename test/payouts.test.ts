// Payout runs over HTTP on the demo tenant (docs/payouts.md): a sale's disbursements paid; a cancel's
// refund paid (cancel payment PAID) with the chargeback netted against the payee's next sale; every
// run's entries balanced; a second run pays nothing; a dry run writes nothing; refusals name the field
// (bad purposes, another tenant's payee, closed period: nothing written); dealer-side users see only
// their payees' payouts and cannot run.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { systemContext } from '../src/platform/http/context.ts'
import { DEMO, seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, createUserWithRoles, json, loginHeaders, type TestApp } from './harness.ts'

const SOLD = new Date('2026-03-20T18:00:00Z')
const LATER = new Date('2026-10-06T18:00:00Z')
const CANCEL = { cancelDate: '2026-10-05', cancelOdometer: 47150, cancelReasonCode: 'CUSTOMER_REQUEST' }

let t: TestApp
let demo: DemoTestTenant

type Item = { purpose: string; contractId: number; amount: number }
type Payout = {
  id: number | null
  payeeId: number
  paymentMethod: string
  amount: number
  entryId: number | null
  items: Item[]
}
type Run = {
  id: number | null
  dryRun: boolean
  payoutCount: number
  total: number
  payouts: Payout[]
  skipped?: { payeeId: number; net: number }[]
}
type Problem = { code: string; errors?: { field: string; code: string }[] }

const cents = (n: number) => Math.round(n * 100)
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, h = demo.headers) =>
  t.app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) })
const sell = (saleDate: string, dealerNumber?: string) =>
  sellDemoContract<{ id: number }>(t, demo, { saleDate, finalize: true, ...(dealerNumber ? { dealerNumber } : {}) })

async function runPayouts(body: Record<string, unknown>): Promise<Run> {
  const res = await inject('POST', '/api/payoutruns', body)
  assert.equal(res.statusCode, body['dryRun'] === true ? 200 : 201, res.body)
  return json<Run>(res)
}

/** Rows of the payout tables and journal entries: what a refused or dry run must leave as it was. */
async function counts() {
  return t.db.read(demo.tenantId, async (x) => {
    const n = async (table: 'payout_run' | 'payout' | 'payout_item' | 'journal_entry') =>
      Number(
        (
          await x
            .selectFrom(table)
            .select((e) => e.fn.countAll().as('n'))
            .where('tenant_id', '=', demo.tenantId)
            .executeTakeFirstOrThrow()
        ).n,
      )
    return {
      runs: await n('payout_run'),
      payouts: await n('payout'),
      items: await n('payout_item'),
      entries: await n('journal_entry'),
    }
  })
}

/** Each payout's entry balances and has the payout's lines: Dr paid, Cr netted, Cr CASH the net. */
async function assertEntries(run: Run) {
  const administratorId = await t.modules.parties.contractParties.administratorId(demo.tenantId)
  for (const p of run.payouts) {
    const lines = await t.db.read(demo.tenantId, (x) =>
      x
        .selectFrom('journal_line as l')
        .innerJoin('ledger_account as a', (j) =>
          j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
        )
        .innerJoin('journal_entry as e', (j) =>
          j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
        )
        .select(['a.purpose', 'a.account_holder_id', 'l.debit', 'l.credit', 'l.contract_id', 'e.kind'])
        .where('l.tenant_id', '=', demo.tenantId)
        .where('l.entry_id', '=', p.entryId!)
        .execute(),
    )
    assert.ok(lines.every((l) => l.kind === 'CASH_DISBURSED'))
    const dr = lines.reduce((s, l) => s + cents(Number(l.debit)), 0)
    const cr = lines.reduce((s, l) => s + cents(Number(l.credit)), 0)
    assert.equal(dr, cr, 'balanced')
    const cash = lines.filter((l) => l.purpose === 'CASH')
    assert.equal(cash.length, 1)
    assert.equal(Number(cash[0]!.account_holder_id), administratorId)
    assert.equal(cents(Number(cash[0]!.credit)), cents(p.amount))
    assert.equal(
      p.items.reduce((s, i) => s + cents(i.amount), 0),
      cents(p.amount),
      'payout = paid - netted',
    )
    for (const i of p.items) {
      const line = lines.find((l) => l.purpose === i.purpose && Number(l.contract_id ?? 0) === i.contractId)!
      assert.ok(line, `a line for ${i.purpose} ${i.contractId}`)
      assert.equal(cents(Number(line.debit) - Number(line.credit)), cents(i.amount))
    }
  }
}

before(async () => {
  t = await createTestApp({ now: SOLD })
  demo = await seedDemo(t)
})
after(() => t.close())

describe('payout runs', () => {
  let first: { id: number }
  let refundPayee: number
  let cancelId: number

  test('a dry run writes nothing; a run pays the sale disbursements; a second run pays nothing', async () => {
    first = await sell('2026-03-10')
    t.clock.set(LATER)
    demo.headers = await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword)
    const was = await counts()
    const dry = await runPayouts({ dryRun: true, purposes: ['DISBURSEMENT_PAYABLE'] })
    assert.equal(dry.dryRun, true)
    assert.equal(dry.id, null)
    assert.ok(dry.payoutCount > 0)
    assert.deepEqual(await counts(), was)

    const run = await runPayouts({ purposes: ['DISBURSEMENT_PAYABLE'] })
    assert.equal(run.dryRun, false)
    assert.equal(run.payoutCount, dry.payoutCount)
    assert.equal(run.total, dry.total)
    assert.deepEqual(
      run.payouts.map((p) => [p.payeeId, p.amount]),
      dry.payouts.map((p) => [p.payeeId, p.amount]),
    )
    await assertEntries(run)
    const got = await inject('GET', `/api/payoutruns/${run.id}`)
    assert.equal(got.statusCode, 200, got.body)
    assert.equal(json<Run>(got).payouts.length, run.payoutCount)

    const again = await runPayouts({ purposes: ['DISBURSEMENT_PAYABLE'] })
    assert.equal(again.payoutCount, 0)
    assert.equal(again.total, 0)
  })

  test('a cancel: the refund is paid (payment PAID), the chargeback is netted, not paid again', async () => {
    const res = await inject('POST', `/api/contracts/${first.id}/cancelrequests`, CANCEL)
    assert.equal(res.statusCode, 201, res.body)
    const approved = await inject('POST', `/api/cancelrequests/${json<{ id: number }>(res).id}`, { action: 'APPROVE' })
    assert.equal(approved.statusCode, 200, approved.body)
    cancelId = json<{ cancelId: number }>(approved).cancelId
    const payments = json<{ accountHolderId: number; kind: string; amount: number; status: string }[]>(
      await inject('GET', `/api/cancels/${cancelId}/cancelpayments`),
    )
    const refund = payments.find((p) => p.kind === 'REFUND')!
    assert.equal(refund.status, 'PENDING')
    refundPayee = refund.accountHolderId

    // The disbursements already paid are charged back: those payees owe; nothing is paid to them.
    const dry = await runPayouts({ dryRun: true, purposes: ['DISBURSEMENT_PAYABLE'] })
    assert.equal(dry.payoutCount, 0)
    assert.ok(dry.skipped!.length > 0 && dry.skipped!.every((s) => s.net < 0), JSON.stringify(dry.skipped))

    const run = await runPayouts({ purposes: ['REFUND_PAYABLE'] })
    const paid = run.payouts.find((p) => p.payeeId === refundPayee)!
    assert.ok(paid, 'the refund payee is paid')
    assert.equal(cents(paid.amount), cents(refund.amount))
    assert.deepEqual(paid.items, [
      { purpose: 'REFUND_PAYABLE', contractId: first.id, paymentRequestId: null, amount: refund.amount },
    ])
    await assertEntries(run)
    const after_ = json<{ kind: string; status: string }[]>(
      await inject('GET', `/api/cancels/${cancelId}/cancelpayments`),
    )
    assert.equal(after_.find((p) => p.kind === 'REFUND')!.status, 'PAID')
    assert.equal((await runPayouts({ purposes: ['REFUND_PAYABLE'] })).payoutCount, 0)

    // A new sale of the same dealer: what it earns its payees is netted against what they owe back.
    const skipped = new Map(dry.skipped!.map((s) => [s.payeeId, s.net]))
    const second = await sell('2026-10-01')
    const netted = await runPayouts({ purposes: ['DISBURSEMENT_PAYABLE'] })
    await assertEntries(netted)
    const withDebt = netted.payouts.filter((p) => skipped.has(p.payeeId))
    assert.ok(withDebt.length > 0, 'a payee that owed is paid net')
    for (const p of withDebt) {
      const owed = p.items.filter((i) => i.amount < 0)
      assert.deepEqual(
        owed.map((i) => i.contractId),
        [first.id],
      )
      assert.equal(cents(owed.reduce((s, i) => s + i.amount, 0)), cents(skipped.get(p.payeeId)!))
      assert.ok(p.items.some((i) => i.contractId === second.id && i.amount > 0))
    }
    // Whatever still nets to <= 0 stays open: the next run pays nothing.
    assert.equal((await runPayouts({ purposes: ['DISBURSEMENT_PAYABLE'] })).payoutCount, 0)
  })

  test('refusals name the field and write nothing', async () => {
    const was = await counts()
    const bad = await inject('POST', '/api/payoutruns', { purposes: ['CASH'] })
    assert.equal(bad.statusCode, 422, bad.body)
    assert.equal(json<Problem>(bad).code, 'payout_run_invalid')
    assert.deepEqual(
      json<Problem>(bad).errors!.map((e) => e.field),
      ['purposes'],
    )
    const empty = await inject('POST', '/api/payoutruns', { purposes: [] })
    assert.equal(empty.statusCode, 422, empty.body)

    const other = await createTenant(t, 'Other payouts tenant')
    const foreign = await t.db.read(other.tenantId, (x) =>
      x.selectFrom('account_holder').select('id').where('tenant_id', '=', other.tenantId).executeTakeFirst(),
    )
    const foreignId = foreign === undefined ? 987654321 : Number(foreign.id)
    const res = await inject('POST', '/api/payoutruns', { payeeIds: [refundPayee, foreignId] })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(
      json<Problem>(res).errors!.map((e) => [e.field, e.code]),
      [['payeeIds[1]', 'unknown_reference']],
    )
    const future = await inject('POST', '/api/payoutruns', { asOf: '2027-01-01' })
    assert.equal(future.statusCode, 422, future.body)
    assert.equal(json<Problem>(future).errors![0]!.field, 'asOf')
    assert.deepEqual(await counts(), was)
    assert.equal((await inject('GET', '/api/payoutruns/987654321')).statusCode, 404)
  })

  test('dealer-side users: no runs over HTTP; reads see only their payees', async () => {
    const dealerUser = await createUserWithRoles(t, demo, ['DEALER_USER'])
    assert.equal((await inject('POST', '/api/payoutruns', {}, dealerUser.headers)).statusCode, 403)
    assert.equal((await inject('GET', '/api/payoutruns', undefined, dealerUser.headers)).statusCode, 403)

    const service = t.modules.finance.payouts
    const all = await service.list(systemContext(demo.tenantId), {}, { limit: 100, offset: 0 })
    const paidRun = all.items.find((r) => r.payouts.some((p) => p.payeeId === refundPayee))!
    const ctx = systemContext(demo.tenantId, 'dealer-side')
    const mine = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([refundPayee]) } }
    const none = { ...ctx, principal: { ...ctx.principal, visibleAccountHolderIds: new Set([987654321]) } }
    const seen = await service.get(mine, paidRun.id)
    assert.deepEqual(
      seen.payouts.map((p) => p.payeeId),
      [refundPayee],
    )
    await assert.rejects(service.get(none, paidRun.id), { code: 'payout_run_not_found' })
    assert.equal((await service.list(none, {}, { limit: 100, offset: 0 })).totalCount, 0)
    const listed = await service.list(mine, {}, { limit: 100, offset: 0 })
    assert.ok(listed.items.every((r) => r.payouts.every((p) => p.payeeId === refundPayee)))
    await assert.rejects(service.run(none as never, { payeeIds: [refundPayee] }), { code: 'payout_run_invalid' })
  })

  test('a closed period is 409 ledger_period_closed, nothing written', async () => {
    await sell('2026-10-02', DEMO.otherDealerNumber)
    const put = await inject('PUT', '/api/GeneralSettings/booksClosedThrough', { value: '2026-10-06' })
    assert.equal(put.statusCode, 200, put.body)
    const was = await counts()
    const res = await inject('POST', '/api/payoutruns', { purposes: ['DISBURSEMENT_PAYABLE'] })
    assert.equal(res.statusCode, 409, res.body)
    assert.equal(json<Problem>(res).code, 'ledger_period_closed')
    assert.deepEqual(await counts(), was)
  })
})
