// updateEarnings' set-based batches (docs/earnings.md "Runs"): a run over contracts in mixed states
// posts exactly what a per-contract sync of each would (entry by entry, to the cent), in one
// EARNINGS_RECOGNIZED entry per contract with its audit record; what the batch cannot settle (an old
// contract whose sale postings need settling, a bad row, one locked by another transaction) goes
// through the per-contract sync, which posts it or records its failure; a rerun posts nothing new.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { systemContext } from '../src/platform/http/context.ts'
import { seedDemo, sellDemoContract, type DemoTestTenant } from './demo-tenant.ts'
import { createTestApp, json, type TestApp } from './harness.ts'

const NOW = new Date('2026-11-21T18:00:00Z')
const AS_OF = '2026-11-20'

let t: TestApp
let demo: DemoTestTenant

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
})
after(() => t.close())

const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: demo.headers, ...(payload === undefined ? {} : { payload: payload as object }) })
const staff = () => systemContext(demo.tenantId, 'earnings-run-test')
const cents = (n: number) => Math.round(n * 100)

type RunReply = {
  runId: number
  status: string
  examined: number
  posted: number
  nothingDue: number
  failed: number
  entries: number
  errors: Array<{ contractId: number; code: string }>
}

/** A sale in one of the states a run meets, prepared the same way on each contract it is given. */
type Scenario = {
  name: string
  saleDate: string
  roadside?: boolean
  /** Synced (per contract) as of this date before the run. */
  syncedBefore?: string
  /** Cancelled (status history) on this date. */
  cancelledOn?: string
  /** With a cancel entry clearing its administrator lines. */
  cancelEntry?: boolean
  /** As finalized before the deferral: its administrator lines on DISBURSEMENT_PAYABLE. */
  oldStyle?: boolean
}

const SCENARIOS: Scenario[] = [
  { name: 'never synced', saleDate: '2026-10-20' },
  { name: 'an option ADM with the rate ADM', saleDate: '2026-10-25', roadside: true },
  { name: 'synced before', saleDate: '2026-09-30', syncedBefore: '2026-11-01' },
  { name: 'cancelled, no cancel entry', saleDate: '2026-10-01', cancelledOn: '2026-11-10' },
  { name: 'cancelled, its entry stands', saleDate: '2026-10-02', cancelledOn: '2026-11-09', cancelEntry: true },
  { name: 'old style', saleDate: '2026-10-03', oldStyle: true },
  {
    name: 'synced before and cancelled since',
    saleDate: '2026-09-25',
    syncedBefore: '2026-10-15',
    cancelledOn: '2026-11-05',
  },
]

async function prepare(s: Scenario): Promise<number> {
  const c = await sellDemoContract<{ id: number }>(t, demo, {
    saleDate: s.saleDate,
    finalize: true,
    ...(s.roadside ? { optionCodes: ['ROADSIDE'] } : {}),
  })
  const ledger = t.modules.finance.ledger
  const [sale] = await ledger.entriesForSource(demo.tenantId, { type: 'CONTRACT', id: c.id })
  const deferred = sale!.lines.filter((l) => l.purpose === 'UNEARNED_REVENUE')
  assert.ok(deferred.length > 0, 'the demo contract has administrator lines')
  if (s.oldStyle) {
    await ledger.post(staff(), {
      kind: 'CONTRACT_REFINALIZED',
      source: { type: 'CONTRACT', id: c.id },
      effectiveDate: '2026-11-21',
      lines: deferred.flatMap((l) => [
        { ...moved(l, c.id), purpose: 'UNEARNED_REVENUE' as const, side: 'DEBIT' as const },
        { ...moved(l, c.id), purpose: 'DISBURSEMENT_PAYABLE' as const, side: 'CREDIT' as const },
      ]),
    })
  }
  if (s.syncedBefore) {
    const res = await inject('POST', `/api/contracts/${c.id}/syncEarnings`, { asOf: s.syncedBefore })
    assert.equal(res.statusCode, 200, res.body)
  }
  if (s.cancelledOn) {
    await t.db.transaction(demo.tenantId, (tx) =>
      t.modules.contracts.servicing.applyTransition(tx, staff(), c.id, {
        event: 'CANCEL',
        effectiveDate: s.cancelledOn!,
        source: { type: 'CANCELLATION' },
      }),
    )
  }
  if (s.cancelEntry) {
    await ledger.post(staff(), {
      kind: 'CONTRACT_CANCELLED',
      source: { type: 'CANCELLATION', id: c.id },
      effectiveDate: '2026-11-21',
      lines: deferred.flatMap((l) => [
        { ...moved(l, c.id), purpose: 'UNEARNED_REVENUE' as const, side: 'DEBIT' as const },
        { ...moved(l, c.id), purpose: 'REFUND_PAYABLE' as const, side: 'CREDIT' as const },
      ]),
    })
  }
  return c.id
}

function moved(l: { accountHolderId: number; credit: number; disbursementCode: string | null }, contractId: number) {
  return {
    accountHolderId: l.accountHolderId,
    amount: String(l.credit),
    contractId,
    disbursementCode: l.disbursementCode!,
  }
}

/**
 * The contract's EARNINGS_RECOGNIZED entries as posted: per entry, its lines (purpose, side, code,
 * cents), oldest first; with the run each entry names.
 */
async function earningsEntries(contractId: number) {
  const rows = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('journal_line as l')
      .innerJoin('journal_entry as e', (j) =>
        j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'),
      )
      .innerJoin('ledger_account as a', (j) =>
        j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
      )
      .select(['e.id', 'e.source_id', 'e.memo', 'a.purpose', 'l.debit', 'l.credit', 'l.disbursement_code', 'l.line_no'])
      .where('l.tenant_id', '=', demo.tenantId)
      .where('e.tenant_id', '=', demo.tenantId)
      .where('a.tenant_id', '=', demo.tenantId)
      .where('l.contract_id', '=', contractId)
      .where('e.kind', '=', 'EARNINGS_RECOGNIZED')
      .orderBy('e.id')
      .orderBy('l.line_no')
      .execute(),
  )
  const entries = new Map<number, { runId: number; memo: string | null; lines: string[] }>()
  for (const r of rows) {
    const e = entries.get(r.id) ?? { runId: r.source_id, memo: r.memo, lines: [] }
    const debit = cents(Number(r.debit))
    e.lines.push(
      `${r.purpose} ${debit > 0 ? 'Dr' : 'Cr'} ${r.disbursement_code} ${debit > 0 ? debit : cents(Number(r.credit))}`,
    )
    entries.set(r.id, e)
  }
  return [...entries.entries()].map(([id, e]) => ({ id, ...e }))
}

async function syncedAudits(contractId: number) {
  return t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select(['changes'])
      .where('tenant_id', '=', demo.tenantId)
      .where('action', '=', 'contract.earnings_synced')
      .where('entity_id', '=', String(contractId))
      .orderBy('id')
      .execute(),
  )
}

const run = async (body: object) => {
  const res = await inject('POST', '/api/contracts/updateEarnings', body)
  assert.equal(res.statusCode, 200, res.body)
  return json<RunReply>(res)
}

/** Counts the entries the run posts through the batch path (ledger.postMany) while `fn` runs. */
async function countingBatchPosts<T>(fn: () => Promise<T>): Promise<{ result: T; batched: number }> {
  const ledger = t.modules.finance.ledger
  const original = ledger.postMany
  let batched = 0
  ledger.postMany = async (ctx, inputs) => {
    batched += inputs.length
    return original(ctx, inputs)
  }
  try {
    return { result: await fn(), batched }
  } finally {
    ledger.postMany = original
  }
}

test('a run over contracts in mixed states posts exactly what per-contract syncs post', async () => {
  // Twins: the same sale twice, the second set ten minutes later (the duplicate-sale window).
  const single: number[] = []
  for (const s of SCENARIOS) single.push(await prepare(s))
  t.clock.set(new Date(NOW.getTime() + 11 * 60_000))
  const batch: number[] = []
  for (const s of SCENARIOS) batch.push(await prepare(s))
  const broken = await sellDemoContract<{ id: number }>(t, demo, { saleDate: '2026-10-04', finalize: true })
  await t.db.transaction(demo.tenantId, (tx) =>
    sql`update contract set terms = jsonb_set(terms, '{earnings}', '{}'::jsonb) where tenant_id = ${demo.tenantId} and id = ${broken.id}`.execute(
      tx,
    ),
  )
  const pending = await sellDemoContract<{ id: number }>(t, demo, { saleDate: '2026-10-05' })

  for (const id of single) {
    const res = await inject('POST', `/api/contracts/${id}/syncEarnings`, { asOf: AS_OF })
    assert.equal(res.statusCode, 200, res.body)
  }
  const { result: done, batched } = await countingBatchPosts(() =>
    run({ asOf: AS_OF, contractIds: [...batch, broken.id, pending.id] }),
  )
  assert.equal(done.status, 'COMPLETED')
  assert.equal(done.examined, SCENARIOS.length + 1, 'a pending contract is not selected')
  assert.equal(done.failed, 1)
  assert.deepEqual(
    done.errors.map((e) => [e.contractId, e.code]),
    [[broken.id, 'earnings_sync_failed']],
  )
  const due = SCENARIOS.filter((s) => !s.cancelEntry).length
  assert.equal(done.posted, due)
  assert.equal(done.nothingDue, SCENARIOS.length - due)
  assert.equal(done.entries, due)
  // Every contract due but the old-style one (settled first by the per-contract sync) is posted in the batch.
  assert.equal(batched, due - 1)

  for (const [i, s] of SCENARIOS.entries()) {
    const one = await earningsEntries(single[i]!)
    const many = await earningsEntries(batch[i]!)
    assert.equal(many.length, one.length, `${s.name}: as many entries`)
    for (const [k, e] of many.entries()) {
      assert.deepEqual(e.lines, one[k]!.lines, `${s.name}: entry ${k + 1} posts the same lines`)
      const shape = (memo: string | null) => memo?.replace(/contract \S+/, 'contract …')
      assert.equal(shape(e.memo), shape(one[k]!.memo), `${s.name}: the same memo but for the contract number`)
    }
    const last = many.at(-1)
    if (!s.cancelEntry) {
      assert.equal(last!.runId, done.runId, `${s.name}: the run's entry names the run`)
      const audits = await syncedAudits(batch[i]!)
      const audit = audits.at(-1)!.changes as { after: { runId: number; entryId: number; asOf: string } }
      assert.equal(audit.after.runId, done.runId)
      assert.equal(audit.after.entryId, last!.id)
      assert.equal(audit.after.asOf, s.cancelledOn && s.cancelledOn < AS_OF ? s.cancelledOn : AS_OF)
    } else
      assert.ok(
        many.every((e) => e.runId !== done.runId),
        `${s.name}: nothing posted by the run`,
      )
  }
  const runEntryIds = (await Promise.all(batch.map((id) => earningsEntries(id)))).flatMap((es) =>
    es.filter((e) => e.runId === done.runId).map((e) => String(e.id)),
  )
  assert.equal(runEntryIds.length, due)
  const ledgerAudits = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tenant_id', '=', demo.tenantId)
      .where('action', '=', 'journal_entry.posted')
      .where('entity_id', 'in', runEntryIds)
      .executeTakeFirstOrThrow(),
  )
  assert.equal(ledgerAudits.n, due, 'each entry of the batch is audited as the ledger audits a post')

  // Idempotent: the same run again posts nothing, and a later date only the difference (same as one by one).
  const rerun = await run({ asOf: AS_OF, contractIds: batch })
  assert.deepEqual(
    [rerun.examined, rerun.posted, rerun.nothingDue, rerun.entries],
    [SCENARIOS.length, 0, SCENARIOS.length, 0],
  )
  const later = await run({ asOf: '2026-11-21', contractIds: batch })
  for (const id of single) {
    const res = await inject('POST', `/api/contracts/${id}/syncEarnings`, { asOf: '2026-11-21' })
    assert.equal(res.statusCode, 200, res.body)
  }
  assert.equal(later.failed, 0)
  for (const [i, s] of SCENARIOS.entries()) {
    const one = await earningsEntries(single[i]!)
    const many = await earningsEntries(batch[i]!)
    assert.deepEqual(
      many.map((e) => e.lines),
      one.map((e) => e.lines),
      `${s.name}: the same entries after a later run`,
    )
  }
})

test('a contract locked by another transaction is synced after it, once (PostgreSQL)', async (ctx) => {
  if (t.db.engine === 'pglite') return ctx.skip('one connection: a second transaction cannot hold a lock meanwhile')
  t.clock.set(new Date(NOW.getTime() + 30 * 60_000))
  const ids = [
    await prepare({ name: 'a', saleDate: '2026-10-11' }),
    await prepare({ name: 'b', saleDate: '2026-10-12' }),
    await prepare({ name: 'c', saleDate: '2026-10-13' }),
  ]
  const held = ids[1]!
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let locked!: () => void
  const isLocked = new Promise<void>((resolve) => (locked = resolve))
  const holder = t.db.transaction(demo.tenantId, async (tx) => {
    await sql`select id from contract where tenant_id = ${demo.tenantId} and id = ${held} for update`.execute(tx)
    locked()
    await released
  })
  await isLocked
  const { result: pendingRun, batched } = await countingBatchPosts(async () => {
    const running = run({ asOf: AS_OF, contractIds: ids })
    await new Promise((resolve) => setTimeout(resolve, 300))
    release()
    await holder
    return running
  })
  assert.equal(pendingRun.posted, 3)
  assert.equal(pendingRun.failed, 0)
  assert.equal(batched, 2, 'the locked contract was left to the per-contract sync')
  for (const id of ids) assert.equal((await earningsEntries(id)).length, 1, `contract ${id}: one entry`)
  const again = await run({ asOf: AS_OF, contractIds: ids })
  assert.equal(again.posted, 0)
})
