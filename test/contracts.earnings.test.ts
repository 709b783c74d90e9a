// The earnings routes (docs/earnings.md). GET /api/contracts/{contractId}/earningdetails: each
// priced line earned by its method from the contract's terms, as of a date, with a schedule that
// adds up to the line; a cancelled contract stops earning on its cancel date; a voided one earns
// nothing. POST syncEarnings / updateEarnings: what is due of the administrator's own lines posted
// from UNEARNED_REVENUE to ADMINISTRATOR_REVENUE, to the cent, once.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { systemContext } from '../src/platform/http/context.ts'
import { daysBetween } from '../src/platform/calendar.ts'
import { finalizeContract, seedDemo, sellDemoContract, type DemoSale, type DemoTestTenant } from './demo-tenant.ts'
import { createTenant, createTestApp, createUserWithRoles, json, type TestApp } from './harness.ts'

const NOW = new Date('2026-11-21T18:00:00Z')

let t: TestApp
let demo: DemoTestTenant

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
})
after(() => t.close())

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, headers = demo.headers) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })

type Line = {
  earnedPosted?: number | null
  dueToPost?: number | null
  lineNumber: number
  code: string
  method: string
  amount: number
  earnedToDate: number
  unearned: number
  earnedFraction: string
  schedule: Array<{ periodStart: string; periodEnd: string; earnedThisPeriod: number; earnedToDate: number }> | null
}
type Details = {
  asOf: string
  requestedAsOf: string
  earningsStoppedOn: string | null
  effectiveDate: string
  expirationDate: string
  totals: { amount: number; earnedToDate: number; unearned: number }
  lines: Line[]
}
type Contract = {
  id: number
  effectiveDate: string
  expirationDate: string
  pricing: { dealerCost: number; lines: Array<{ code: string; amount: number }> }
}

const cents = (n: number) => Math.round(n * 100)

/** A contract of the demo book sold to Erin Earnings on `saleDate`. */
const sell = (saleDate: string, sale: Partial<DemoSale> = {}) =>
  sellDemoContract<Contract>(t, demo, {
    saleDate,
    customer: { firstName: 'Erin', lastName: 'Earnings', emailAddress: 'erin@example.com' },
    ...sale,
  })

const finalized = (saleDate: string) => sell(saleDate, { finalize: true })

const details = async (id: number, query = '') => {
  const res = await inject('GET', `/api/contracts/${id}/earningdetails${query}`)
  assert.equal(res.statusCode, 200, res.body)
  return json<Details>(res)
}

test('every line: earned + unearned = amount, the schedule adds up to the line, pro rata by days to the cent', async () => {
  const c = await sell('2026-11-10')
  const asOf = '2027-05-31'
  const d = await details(c.id, `?asOf=${asOf}`)
  assert.equal(d.asOf, asOf)
  assert.equal(d.earningsStoppedOn, null)
  assert.equal(d.effectiveDate, c.effectiveDate)
  assert.deepEqual(
    d.lines.map((l) => [l.code, l.amount]),
    c.pricing.lines.map((l) => [l.code, l.amount]),
    'one line per priced line, in order',
  )
  assert.equal(cents(d.totals.amount), cents(c.pricing.dealerCost))
  for (const l of d.lines) {
    assert.equal(cents(l.earnedToDate) + cents(l.unearned), cents(l.amount), l.code)
    const sum = l.schedule!.reduce((s, p) => s + cents(p.earnedThisPeriod), 0)
    assert.equal(sum, cents(l.amount), `${l.code}: the periods add up to the line`)
    assert.equal(l.schedule!.at(-1)!.periodEnd, c.expirationDate)
    if (l.method === 'PRO_RATA_DAYS') {
      // round(A·d/D) half up, computed here independently.
      const D = BigInt(daysBetween(c.effectiveDate, c.expirationDate))
      const dd = BigInt(Math.max(0, daysBetween(c.effectiveDate, asOf)))
      const a = BigInt(cents(l.amount))
      const expected = (2n * a * dd + D) / (2n * D)
      assert.equal(BigInt(cents(l.earnedToDate)), expected, l.code)
      assert.equal(l.earnedFraction, `${dd}/${D}`)
    }
  }
  const sums = d.lines.reduce((s, l) => s + cents(l.earnedToDate), 0)
  assert.equal(sums, cents(d.totals.earnedToDate))
})

test('before the effective date nothing is earned; from the expiration date everything; schedule=false leaves it out', async () => {
  const c = await sell('2026-11-11')
  const early = await details(c.id, `?asOf=2020-01-01&schedule=false`)
  assert.equal(early.totals.earnedToDate, 0)
  assert.ok(early.lines.every((l) => l.schedule === null))
  const late = await details(c.id, `?asOf=${c.expirationDate}`)
  assert.equal(cents(late.totals.earnedToDate), cents(late.totals.amount))
  assert.equal(late.totals.unearned, 0)
})

test('a cancelled contract stops earning on its cancel date; a voided one is 409; bad dates 400; another tenant 404', async () => {
  const c = await finalized('2026-11-12')
  const ctx = systemContext(demo.tenantId, 'earnings-test')
  const cancelDate = '2026-11-20'
  await t.db.transaction(demo.tenantId, (tx) =>
    t.modules.contracts.servicing.applyTransition(tx, ctx, c.id, {
      event: 'CANCEL',
      effectiveDate: cancelDate,
      source: { type: 'CANCELLATION' },
    }),
  )
  const later = await details(c.id, '?asOf=2027-06-30')
  assert.equal(later.asOf, cancelDate)
  assert.equal(later.requestedAsOf, '2027-06-30')
  assert.equal(later.earningsStoppedOn, cancelDate)
  assert.deepEqual(later.totals, (await details(c.id, `?asOf=${cancelDate}`)).totals)
  assert.ok(later.lines.every((l) => l.schedule!.every((p) => p.periodEnd <= cancelDate)))

  const pending = await sell('2026-11-13')
  await t.db.transaction(demo.tenantId, (tx) =>
    t.modules.contracts.servicing.applyTransition(tx, ctx, pending.id, {
      event: 'VOID',
      effectiveDate: '2026-11-21',
      source: { type: 'PROCESS' },
    }),
  )
  const voided = await inject('GET', `/api/contracts/${pending.id}/earningdetails`)
  assert.equal(voided.statusCode, 409, voided.body)
  assert.equal(json<{ code: string }>(voided).code, 'contract_state_conflict')

  for (const bad of ['?asOf=2026-02-30', '?asOf=yesterday', '?schedule=maybe', '?limit=3']) {
    const res = await inject('GET', `/api/contracts/${c.id}/earningdetails${bad}`)
    assert.equal(res.statusCode, 400, `${bad}: ${res.body}`)
  }

  const other = await createTenant(t, 'Earnings other tenant')
  const foreign = await inject('GET', `/api/contracts/${c.id}/earningdetails`, undefined, other.headers)
  assert.equal(foreign.statusCode, 404, foreign.body)
})

// ---- syncEarnings / updateEarnings ----------------------------------------------------------------

type SyncReply = {
  contractId: number
  asOf: string
  requestedAsOf: string
  earningsStoppedOn: string | null
  outcome: 'POSTED' | 'NOTHING_DUE'
  lines: Array<{ code: string; earnedToDate: number; earnedPosted: number; due: number }>
  totalDue: number
  entryId: number | null
  runId: number | null
  settlementEntryId: number | null
}
type RunReply = {
  runId: number
  status: 'RUNNING' | 'COMPLETED'
  asOf: string
  cursor: number | null
  examined: number
  posted: number
  nothingDue: number
  failed: number
  errors: Array<{ contractId: number; code: string; detail: string }>
  entries: number
  durationMs: number
}

const staff = () => systemContext(demo.tenantId, 'earnings-test')

const sync = async (id: number, body: object = {}) => {
  const res = await inject('POST', `/api/contracts/${id}/syncEarnings`, body)
  assert.equal(res.statusCode, 200, res.body)
  return json<SyncReply>(res)
}

/** The administrator's own lines, as the sale entry deferred them: code → cents. */
async function deferredLines(id: number): Promise<Map<string, number>> {
  const [sale] = await t.modules.finance.ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id })
  return new Map(
    sale!.lines.filter((l) => l.purpose === 'UNEARNED_REVENUE').map((l) => [l.disbursementCode!, cents(l.credit)]),
  )
}

/** Net ADMINISTRATOR_REVENUE and UNEARNED_REVENUE of a contract, per code, in cents (credit − debit). */
async function revenueOf(id: number) {
  const rows = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('journal_line as l')
      .innerJoin('ledger_account as a', (j) =>
        j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
      )
      .select(['a.purpose', 'l.disbursement_code', 'l.debit', 'l.credit'])
      .where('l.tenant_id', '=', demo.tenantId)
      .where('l.contract_id', '=', id)
      .execute(),
  )
  const out = { revenue: new Map<string, number>(), unearned: new Map<string, number>() }
  for (const r of rows) {
    const map =
      r.purpose === 'ADMINISTRATOR_REVENUE' ? out.revenue : r.purpose === 'UNEARNED_REVENUE' ? out.unearned : null
    if (!map) continue
    const code = r.disbursement_code ?? ''
    map.set(code, (map.get(code) ?? 0) + cents(Number(r.credit)) - cents(Number(r.debit)))
  }
  return out
}

/** round(A·d/D) half up, computed here independently of the earnings rules (PRO_RATA_DAYS). */
function proRataDays(amountCents: number, c: Contract, asOf: string): number {
  const D = BigInt(daysBetween(c.effectiveDate, c.expirationDate))
  const d = BigInt(Math.min(Math.max(0, daysBetween(c.effectiveDate, asOf)), Number(D)))
  return Number((2n * BigInt(amountCents) * d + D) / (2n * D))
}

/** What each administrator line should have earned as of `asOf`: by days here, else what the details say. */
async function expectedEarned(c: Contract, asOf: string): Promise<Map<string, number>> {
  const own = await deferredLines(c.id)
  const d = await details(c.id, `?asOf=${asOf}&schedule=false`)
  const out = new Map<string, number>()
  for (const [code, amount] of own) {
    const line = d.lines.find((l) => l.code === code)!
    out.set(code, line.method === 'PRO_RATA_DAYS' ? proRataDays(amount, c, asOf) : cents(line.earnedToDate))
  }
  return out
}

describe('syncEarnings and updateEarnings', () => {
  test('sync posts what is due to the cent, once; a later asOf posts the difference; details show it', async () => {
    const c = await finalized('2026-11-14')
    const own = await deferredLines(c.id)
    assert.ok(own.size > 0, 'the demo contract has administrator lines')
    const d0 = await details(c.id, '?asOf=2026-11-18&schedule=false')
    assert.ok(
      d0.lines.some((l) => own.has(l.code) && l.method === 'PRO_RATA_DAYS'),
      'an administrator line is earned by days (checked independently)',
    )

    const first = await sync(c.id, { asOf: '2026-11-18' })
    const want = await expectedEarned(c, '2026-11-18')
    assert.equal(first.outcome, 'POSTED')
    assert.ok(first.entryId !== null && first.runId !== null)
    assert.equal(first.settlementEntryId, null, 'a current contract needs no settlement')
    assert.deepEqual(
      first.lines.map((l) => [l.code, cents(l.due)]).toSorted(),
      [...want].map(([code, v]) => [code, v]).toSorted(),
    )
    const entry = await t.modules.finance.ledger.entry(demo.tenantId, first.entryId!)
    assert.equal(entry!.kind, 'EARNINGS_RECOGNIZED')
    assert.deepEqual(entry!.source, { type: 'PROCESS', id: first.runId })
    let books = await revenueOf(c.id)
    for (const [code, v] of want) {
      assert.equal(books.revenue.get(code) ?? 0, v, `${code} earned`)
      assert.equal(books.unearned.get(code), own.get(code)! - v, `${code} unearned`)
    }
    // Third-party lines are not posted: only the administrator's codes carry revenue.
    assert.deepEqual(
      [...books.revenue.keys()].toSorted(),
      [...want.keys()].filter((k) => want.get(k)! !== 0).toSorted(),
    )

    const again = await sync(c.id, { asOf: '2026-11-18' })
    assert.equal(again.outcome, 'NOTHING_DUE')
    assert.equal(again.entryId, null)
    assert.equal(again.totalDue, 0)

    const detailsBefore = await details(c.id, '?asOf=2026-11-21&schedule=false')
    const later = await sync(c.id)
    assert.equal(later.asOf, '2026-11-21', 'default today')
    const want2 = await expectedEarned(c, '2026-11-21')
    for (const l of later.lines) {
      assert.equal(cents(l.due), want2.get(l.code)! - want.get(l.code)!, `${l.code}: the difference`)
      const shown = detailsBefore.lines.find((x) => x.code === l.code) as Line & {
        dueToPost: number
        earnedPosted: number
      }
      assert.equal(cents(shown.dueToPost), cents(l.due), 'details showed what the sync would post')
      assert.equal(cents(shown.earnedPosted), want.get(l.code)!)
    }
    books = await revenueOf(c.id)
    for (const [code, v] of want2) assert.equal(books.revenue.get(code) ?? 0, v)

    const synced = (await details(c.id, '?asOf=2026-11-21&schedule=false')) as Details & {
      postedThrough: string | null
    }
    assert.equal(synced.postedThrough, '2026-11-21')
    for (const l of synced.lines as Array<Line & { dueToPost: number | null; earnedPosted: number | null }>) {
      if (own.has(l.code)) assert.equal(l.dueToPost, 0, l.code)
      else assert.equal(l.earnedPosted, null, `${l.code}: a third-party line is not posted`)
    }

    const future = await inject('POST', `/api/contracts/${c.id}/syncEarnings`, { asOf: '2026-11-22' })
    assert.equal(future.statusCode, 422, future.body)
    const bad = await inject('POST', `/api/contracts/${c.id}/syncEarnings`, { asOf: 'soon' })
    assert.equal(bad.statusCode, 400, bad.body)
  })

  test('an old-style contract is settled first; a cancelled one earns to its cancel date; pending 409', async () => {
    const old = await finalized('2026-11-15')
    const ledger = t.modules.finance.ledger
    const [sale] = await ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: old.id })
    const deferred = sale!.lines.filter((l) => l.purpose === 'UNEARNED_REVENUE')
    // As finalized before the deferral: the administrator lines on its DISBURSEMENT_PAYABLE.
    await ledger.post(staff(), {
      kind: 'CONTRACT_REFINALIZED',
      source: { type: 'CONTRACT', id: old.id },
      effectiveDate: '2026-11-21',
      lines: deferred.flatMap((l) => [
        {
          accountHolderId: l.accountHolderId,
          purpose: 'UNEARNED_REVENUE' as const,
          side: 'DEBIT' as const,
          amount: String(l.credit),
          contractId: old.id,
          disbursementCode: l.disbursementCode!,
        },
        {
          accountHolderId: l.accountHolderId,
          purpose: 'DISBURSEMENT_PAYABLE' as const,
          side: 'CREDIT' as const,
          amount: String(l.credit),
          contractId: old.id,
          disbursementCode: l.disbursementCode!,
        },
      ]),
    })
    const settled = await sync(old.id, { asOf: '2026-11-20' })
    assert.ok(settled.settlementEntryId !== null, 'settled first')
    assert.equal((await ledger.entry(demo.tenantId, settled.settlementEntryId!))!.kind, 'CONTRACT_REFINALIZED')
    const books = await revenueOf(old.id)
    const want = await expectedEarned(old, '2026-11-20')
    for (const l of deferred) {
      const code = l.disbursementCode!
      assert.equal(books.revenue.get(code) ?? 0, want.get(code))
      assert.equal(books.unearned.get(code), cents(l.credit) - want.get(code)!, `${code}: never below what it holds`)
    }

    const c = await finalized('2026-11-01')
    const cancelDate = '2026-11-17'
    await t.db.transaction(demo.tenantId, (tx) =>
      t.modules.contracts.servicing.applyTransition(tx, staff(), c.id, {
        event: 'CANCEL',
        effectiveDate: cancelDate,
        source: { type: 'CANCELLATION' },
      }),
    )
    const cancelled = await sync(c.id)
    assert.equal(cancelled.asOf, cancelDate)
    assert.equal(cancelled.earningsStoppedOn, cancelDate)
    const wantCancel = await expectedEarned(c, cancelDate)
    for (const l of cancelled.lines) assert.equal(cents(l.due), wantCancel.get(l.code), l.code)
    assert.equal((await sync(c.id)).outcome, 'NOTHING_DUE')

    // Once its cancel entry stands, the cancel has settled the lines: a sync posts nothing more.
    const settledByCancel = await finalized('2026-10-30')
    await t.db.transaction(demo.tenantId, (tx) =>
      t.modules.contracts.servicing.applyTransition(tx, staff(), settledByCancel.id, {
        event: 'CANCEL',
        effectiveDate: '2026-11-10',
        source: { type: 'CANCELLATION' },
      }),
    )
    const [sold] = await ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: settledByCancel.id })
    const cleared = sold!.lines.filter((l) => l.purpose === 'UNEARNED_REVENUE')
    await ledger.post(staff(), {
      kind: 'CONTRACT_CANCELLED',
      source: { type: 'CANCELLATION', id: settledByCancel.id },
      effectiveDate: '2026-11-21',
      lines: cleared.flatMap((l) => [
        {
          accountHolderId: l.accountHolderId,
          purpose: 'UNEARNED_REVENUE' as const,
          side: 'DEBIT' as const,
          amount: String(l.credit),
          contractId: settledByCancel.id,
          disbursementCode: l.disbursementCode!,
        },
        {
          accountHolderId: l.accountHolderId,
          purpose: 'REFUND_PAYABLE' as const,
          side: 'CREDIT' as const,
          amount: String(l.credit),
          contractId: settledByCancel.id,
        },
      ]),
    })
    assert.ok([...(await expectedEarned(settledByCancel, '2026-11-10')).values()].some((v) => v > 0))
    const none = (await sync(settledByCancel.id)) as SyncReply & { settledByCancel: boolean }
    assert.equal(none.settledByCancel, true)
    assert.equal(none.outcome, 'NOTHING_DUE')
    assert.ok(none.lines.every((l) => l.due === 0))

    const pending = await sell('2026-11-16')
    const conflict = await inject('POST', `/api/contracts/${pending.id}/syncEarnings`, {})
    assert.equal(conflict.statusCode, 409, conflict.body)
    assert.equal(json<{ code: string }>(conflict).code, 'contract_state_conflict')
  })

  test('updateEarnings: batched, one failing contract reported, resumable, a rerun posts nothing new', async () => {
    const contracts = [await finalized('2026-10-20'), await finalized('2026-10-21'), await finalized('2026-10-22')]
    const broken = await finalized('2026-10-23')
    // A bad row: its terms snapshot lost the earnings of its lines.
    await t.db.transaction(demo.tenantId, (tx) =>
      sql`update contract set terms = jsonb_set(terms, '{earnings}', '{}'::jsonb) where tenant_id = ${demo.tenantId} and id = ${broken.id}`.execute(
        tx,
      ),
    )
    const ids = [...contracts.map((c) => c.id), broken.id]
    const asOf = '2026-11-20'
    const run = async (body: object) => {
      const res = await inject('POST', '/api/contracts/updateEarnings', body)
      assert.equal(res.statusCode, 200, res.body)
      return json<RunReply>(res)
    }
    const part = await run({ asOf, contractIds: ids, limit: 2 })
    assert.equal(part.status, 'RUNNING')
    assert.equal(part.examined, 2)
    assert.equal(part.cursor, ids.toSorted((a, b) => a - b)[1], 'the cursor: the last contract id examined')
    const done = await run({ runId: part.runId })
    assert.equal(done.status, 'COMPLETED')
    assert.equal(done.runId, part.runId)
    assert.equal(done.asOf, asOf)
    assert.equal(done.examined, 4)
    assert.equal(done.posted, 3)
    assert.equal(done.nothingDue, 0)
    assert.equal(done.failed, 1)
    assert.equal(part.entries + done.entries, 3)
    assert.deepEqual(
      done.errors.map((e) => [e.contractId, e.code]),
      [[broken.id, 'earnings_sync_failed']],
    )
    for (const c of contracts) {
      const books = await revenueOf(c.id)
      for (const [code, v] of await expectedEarned(c, asOf))
        assert.equal(books.revenue.get(code) ?? 0, v, `${c.id} ${code}`)
    }
    const resumedAgain = await inject('POST', '/api/contracts/updateEarnings', { runId: part.runId })
    assert.equal(resumedAgain.statusCode, 409, resumedAgain.body)

    const rerun = await run({ asOf, contractIds: ids })
    assert.equal(rerun.status, 'COMPLETED')
    assert.deepEqual([rerun.examined, rerun.posted, rerun.nothingDue, rerun.failed, rerun.entries], [4, 0, 3, 1, 0])

    const filtered = await run({ asOf, contractIds: ids, productType: 'NOT_A_TYPE' })
    assert.equal(filtered.examined, 0)
    const future = await inject('POST', '/api/contracts/updateEarnings', { asOf: '2027-01-01' })
    assert.equal(future.statusCode, 422, future.body)
    const unknownRun = await inject('POST', '/api/contracts/updateEarnings', { runId: 987654321 })
    assert.equal(unknownRun.statusCode, 404, unknownRun.body)
  })

  test('another tenant 404; without processes:run 403', async () => {
    const c = await finalized('2026-11-18')
    const other = await createTenant(t, 'Earnings sync other tenant')
    const foreign = await inject('POST', `/api/contracts/${c.id}/syncEarnings`, {}, other.headers)
    assert.equal(foreign.statusCode, 404, foreign.body)
    const foreignRun = await inject('POST', '/api/contracts/updateEarnings', { contractIds: [c.id] }, other.headers)
    assert.equal(foreignRun.statusCode, 200, foreignRun.body)
    assert.equal(json<RunReply>(foreignRun).examined, 0, "another tenant's run sees none of these contracts")

    const clerk = await createUserWithRoles(t, demo, ['CONTRACT_ADMINISTRATOR'])
    for (const [url, body] of [
      [`/api/contracts/${c.id}/syncEarnings`, {}],
      ['/api/contracts/updateEarnings', {}],
    ] as const) {
      const res = await inject('POST', url, body, clerk.headers)
      assert.equal(res.statusCode, 403, `${url}: ${res.body}`)
    }
    const read = await inject('GET', `/api/contracts/${c.id}/earningdetails`, undefined, clerk.headers)
    assert.equal(read.statusCode, 200, read.body)
  })
})

test('two administrator lines of one code (a rate ADM and an option ADM) are earned together, once, by code', async () => {
  const c = await sell('2026-11-08', { optionCodes: ['ROADSIDE'] })
  const adm = c.pricing.lines.filter((l) => l.code === 'ADM')
  assert.equal(adm.length, 2, 'the rate and the roadside option both carry ADM')
  await finalizeContract(t, demo, c.id)
  const amount = adm.reduce((sum, l) => sum + cents(l.amount), 0)
  // Synced at two dates and again: a per-line reckoning against the code's posted total would post too little.
  for (const asOf of ['2026-11-19', '2026-11-21', '2026-11-21']) {
    const res = await inject('POST', `/api/contracts/${c.id}/syncEarnings`, { asOf })
    assert.equal(res.statusCode, 200, res.body)
  }
  // As of today (the test clock): the code's whole amount earned by days, rounded once.
  const books = await revenueOf(c.id)
  const want = proRataDays(amount, c, '2026-11-21')
  assert.equal(books.revenue.get('ADM') ?? 0, want)
  assert.equal(books.unearned.get('ADM'), amount - want)
  const d = await details(c.id, '?asOf=2026-11-21&schedule=false')
  const shown = d.lines.filter((l) => l.code === 'ADM')
  assert.equal(cents(shown[0]!.earnedPosted!), want, "the code's posted amount on its first line")
  assert.equal(shown[0]!.dueToPost, 0)
  assert.equal(shown[1]!.earnedPosted, null)
})
