// The contract's money on the books, through the API (docs/ledger.md, docs/decisions/0012): finalize
// defers the administrator's own lines (UNEARNED_REVENUE) and balances; refinalize posts only the
// difference, and moves an old contract's administrator payable to unearned without counting it
// twice; entries are dated the posting date, refused in a closed period; and
// GET /api/contracts/{contractId}/journalentries with its permissions and visibility.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { DEMO, seedDemo, type DemoTestTenant } from '../../../test/demo-tenant.ts'
import { createTenant, createUserWithRoles, createTestApp, json, type TestApp } from '../../../test/harness.ts'
import { systemContext } from '../../platform/http/context.ts'
import type { ContractJournalEntryView } from '../finance/index.ts'
import type { RateQuote } from '../rating/index.ts'

// Noon in Chicago (the demo tenant's time zone): the posting date is 2026-11-21.
const NOW = new Date('2026-11-21T18:00:00Z')
const TODAY = '2026-11-21'

let t: TestApp
let demo: DemoTestTenant
let administratorId: number

before(async () => {
  t = await createTestApp({ now: NOW })
  demo = await seedDemo(t)
  administratorId = await t.modules.parties.contractParties.administratorId(demo.tenantId)
})
after(() => t.close())

const inject = (method: 'GET' | 'POST', url: string, headers = demo.headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })

type ContractReply = {
  id: number
  status: string
  pricing: { dealerCost: number; lines: Array<{ code: string; amount: number; payeeAccountHolderId: number }> }
}
type Problem = { status: number; code: string; detail: string; effectiveDate?: string; booksClosedThrough?: string }

/** A pending contract of `dealerNumber` sold on `saleDate` (each test its own date: no duplicates). */
async function pendingContract(saleDate: string, dealerNumber: string = DEMO.dealerNumber): Promise<ContractReply> {
  const vin = dealerNumber === DEMO.dealerNumber ? DEMO.vins.accord : DEMO.vins.camry
  const quoted = await inject(
    'GET',
    `/api/Rates/rateQuote/${dealerNumber}?vin=${vin}&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01&saleDate=${saleDate}`,
  )
  assert.equal(quoted.statusCode, 200, quoted.body)
  const quote = json<RateQuote>(quoted)
  const plan = quote.products.flatMap((p) => p.programs.flatMap((g) => g.plans)).find((p) => p.planCode === 'PLAT-USED')
  assert.ok(plan, 'the quote offers PLAT-USED')
  const rate = plan.terms[0]!.deductibles[0]!.rate
  const created = await inject('POST', '/api/contracts', demo.headers, {
    quoteId: quote.quoteId,
    rateId: rate.rateId,
    retailPrice: rate.suggestedRetail,
    saleOdometer: 42150,
    vehicle: { vin },
    customer: { firstName: 'Lee', lastName: 'Ledger', emailAddress: 'lee@example.com' },
    customFields: { financeManagerCode: 'FM7' },
  })
  assert.equal(created.statusCode, 201, created.body)
  return json<ContractReply>(created)
}

async function finalized(saleDate: string, dealerNumber?: string): Promise<ContractReply> {
  const c = await pendingContract(saleDate, dealerNumber)
  const res = await inject('POST', `/api/contracts/${c.id}/finalize`, demo.headers, {})
  assert.equal(res.statusCode, 200, res.body)
  return json<{ contract: ContractReply }>(res).contract
}

async function journal(contractId: number, headers = demo.headers) {
  const res = await inject('GET', `/api/contracts/${contractId}/journalentries`, headers)
  assert.equal(res.statusCode, 200, res.body)
  return { entries: json<ContractJournalEntryView[]>(res), total: Number(res.headers['x-total-count']) }
}

const cents = (n: number) => Math.round(n * 100)

/** Net cents on the books per account holder and purpose (debit positive), over the contract's entries. */
function net(entries: readonly ContractJournalEntryView[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const l of entries.flatMap((e) => e.lines)) {
    const key = `${l.accountHolderId}/${l.purpose}`
    out.set(key, (out.get(key) ?? 0) + (l.side === 'DEBIT' ? cents(l.amount) : -cents(l.amount)))
  }
  for (const [k, v] of out) if (v === 0) out.delete(k)
  return out
}

/** What the contract's lines call for under the deferral, as net cents per holder and purpose. */
function expectedBooks(c: ContractReply, dealerId: number): Map<string, number> {
  const out = new Map<string, number>([[`${dealerId}/DEALER_RECEIVABLE`, cents(c.pricing.dealerCost)]])
  for (const l of c.pricing.lines) {
    if (l.amount === 0) continue
    const key = `${l.payeeAccountHolderId}/${l.payeeAccountHolderId === administratorId ? 'UNEARNED_REVENUE' : 'DISBURSEMENT_PAYABLE'}`
    out.set(key, (out.get(key) ?? 0) - cents(l.amount))
  }
  return out
}

async function dealerIdOf(contractId: number): Promise<number> {
  const row = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('contract')
      .select('dealer_id')
      .where('tenant_id', '=', demo.tenantId)
      .where('id', '=', contractId)
      .executeTakeFirstOrThrow(),
  )
  return row.dealer_id
}

/** Adds `delta` cents to the contract's priced line `index` (what a rerate will do), as contracts.test.ts does. */
async function bumpLine(contractId: number, index: number, delta: number) {
  await t.db.transaction(demo.tenantId, (tx) =>
    sql`update contract set pricing = jsonb_set(pricing, ${`{lines,${index},cents}`}::text[], to_jsonb((pricing->'lines'->${index}::int->>'cents')::int + ${delta}::int)) where tenant_id = ${demo.tenantId} and id = ${contractId}`.execute(
      tx,
    ),
  )
  await t.db.transaction(demo.tenantId, (tx) =>
    sql`update contract set pricing = jsonb_set(pricing, '{dealerCostCents}', to_jsonb((pricing->>'dealerCostCents')::int + ${delta}::int)) where tenant_id = ${demo.tenantId} and id = ${contractId}`.execute(
      tx,
    ),
  )
}

async function setClosedThrough(value: string | null) {
  await t.modules.settings.service.update(systemContext(demo.tenantId, 'ledger-route-test'), 'booksClosedThrough', {
    value,
  })
}

describe('finalize and refinalize post the deferral', () => {
  test("finalize credits the administrator's own lines to UNEARNED_REVENUE, the others to their payables; the entry balances", async () => {
    const c = await finalized('2026-10-22')
    const dealerId = await dealerIdOf(c.id)
    const adminLines = c.pricing.lines.filter((l) => l.payeeAccountHolderId === administratorId && l.amount > 0)
    assert.ok(adminLines.length > 0, 'the demo plan has lines of the administrator')
    assert.ok(c.pricing.lines.some((l) => l.payeeAccountHolderId !== administratorId && l.amount > 0))

    const { entries, total } = await journal(c.id)
    assert.equal(total, 1)
    const [entry] = entries
    assert.equal(entry!.kind, 'CONTRACT_FINALIZED')
    assert.deepEqual(entry!.source, { type: 'CONTRACT', id: c.id })
    assert.equal(entry!.effectiveDate, TODAY)
    const debits = entry!.lines.filter((l) => l.side === 'DEBIT').reduce((n, l) => n + cents(l.amount), 0)
    const credits = entry!.lines.filter((l) => l.side === 'CREDIT').reduce((n, l) => n + cents(l.amount), 0)
    assert.equal(debits, credits)
    assert.equal(debits, cents(c.pricing.dealerCost))
    for (const l of entry!.lines) {
      assert.equal(l.contractId, c.id)
      if (l.side === 'DEBIT') assert.deepEqual([l.accountHolderId, l.purpose], [dealerId, 'DEALER_RECEIVABLE'])
      else if (l.accountHolderId === administratorId) assert.equal(l.purpose, 'UNEARNED_REVENUE')
      else assert.equal(l.purpose, 'DISBURSEMENT_PAYABLE')
    }
    assert.ok(!entry!.lines.some((l) => l.purpose === 'DISBURSEMENT_PAYABLE' && l.accountHolderId === administratorId))
    assert.deepEqual(net(entries), expectedBooks(c, dealerId))
  })

  test("refinalize after a price change posts only the difference, the administrator's to UNEARNED_REVENUE", async () => {
    const c = await finalized('2026-10-23')
    const dealerId = await dealerIdOf(c.id)
    const unchanged = await inject('POST', `/api/contracts/${c.id}/refinalize`, demo.headers, {})
    assert.equal(json<{ journalEntry: unknown }>(unchanged).journalEntry, null)

    const adminIndex = c.pricing.lines.findIndex((l) => l.payeeAccountHolderId === administratorId && l.amount > 0)
    await bumpLine(c.id, adminIndex, 1234)
    const res = await inject('POST', `/api/contracts/${c.id}/refinalize`, demo.headers, {})
    assert.equal(res.statusCode, 200, res.body)
    const posted = json<{
      journalEntry: { kind: string; effectiveDate: string; lines: Array<Record<string, unknown>> }
      contract: ContractReply
    }>(res)
    assert.equal(posted.journalEntry.kind, 'CONTRACT_REFINALIZED')
    assert.equal(posted.journalEntry.effectiveDate, TODAY)
    assert.deepEqual(posted.journalEntry.lines, [
      { accountHolderId: dealerId, purpose: 'DEALER_RECEIVABLE', debit: 12.34, credit: 0, disbursementCode: null },
      {
        accountHolderId: administratorId,
        purpose: 'UNEARNED_REVENUE',
        debit: 0,
        credit: 12.34,
        disbursementCode: c.pricing.lines[adminIndex]!.code,
      },
    ])
    const { entries, total } = await journal(c.id)
    assert.equal(total, 2)
    assert.deepEqual(
      entries.map((e) => e.kind),
      ['CONTRACT_FINALIZED', 'CONTRACT_REFINALIZED'],
    )
    assert.ok(entries[0]!.id < entries[1]!.id, 'oldest first')
    assert.deepEqual(net(entries), expectedBooks(posted.contract, dealerId))
  })

  test('an old contract (administrator lines posted as its payable) refinalized: moved to unearned once, plus the difference', async () => {
    const c = await pendingContract('2026-10-24')
    const dealerId = await dealerIdOf(c.id)
    const ctx = systemContext(demo.tenantId, 'legacy-finalize')
    // Finalized as before the deferral: every line to its payee's DISBURSEMENT_PAYABLE.
    const legacy = await t.modules.finance.ledger.post(ctx, {
      kind: 'CONTRACT_FINALIZED',
      source: { type: 'CONTRACT', id: c.id },
      effectiveDate: '2026-10-24',
      lines: [
        {
          accountHolderId: dealerId,
          purpose: 'DEALER_RECEIVABLE',
          side: 'DEBIT',
          amount: c.pricing.dealerCost.toFixed(2),
          contractId: c.id,
        },
        ...c.pricing.lines.map((l) => ({
          accountHolderId: l.payeeAccountHolderId,
          purpose: 'DISBURSEMENT_PAYABLE' as const,
          side: 'CREDIT' as const,
          amount: l.amount.toFixed(2),
          contractId: c.id,
          disbursementCode: l.code,
        })),
      ],
    })
    await t.db.transaction(demo.tenantId, (tx) =>
      sql`update contract set status = 'ACTIVE', finalized_at = ${NOW}, finalized_by = 'legacy', journal_entry_ids = ${JSON.stringify([legacy.entryId])}::jsonb where tenant_id = ${demo.tenantId} and id = ${c.id}`.execute(
        tx,
      ),
    )
    const otherIndex = c.pricing.lines.findIndex((l) => l.payeeAccountHolderId !== administratorId && l.amount > 0)
    await bumpLine(c.id, otherIndex, 500)

    const res = await inject('POST', `/api/contracts/${c.id}/refinalize`, demo.headers, {})
    assert.equal(res.statusCode, 200, res.body)
    const corrected = json<{ contract: ContractReply }>(res).contract
    const { entries } = await journal(c.id)
    const refinalized = entries.at(-1)!
    assert.equal(refinalized.kind, 'CONTRACT_REFINALIZED')
    // The receivable moves by the price change only: the administrator's lines are not counted twice.
    const receivable = refinalized.lines.filter((l) => l.purpose === 'DEALER_RECEIVABLE')
    assert.deepEqual(
      receivable.map((l) => [l.side, l.amount]),
      [['DEBIT', 5]],
    )
    const adminTotal = c.pricing.lines
      .filter((l) => l.payeeAccountHolderId === administratorId)
      .reduce((n, l) => n + cents(l.amount), 0)
    const moved = (purpose: string, side: string) =>
      refinalized.lines
        .filter((l) => l.accountHolderId === administratorId && l.purpose === purpose && l.side === side)
        .reduce((n, l) => n + cents(l.amount), 0)
    assert.equal(moved('DISBURSEMENT_PAYABLE', 'DEBIT'), adminTotal)
    assert.equal(moved('UNEARNED_REVENUE', 'CREDIT'), adminTotal)
    // On the books now: exactly what the lines call for, nothing left in the administrator's payable.
    const books = net(entries)
    assert.deepEqual(books, expectedBooks(corrected, dealerId))
    assert.equal(books.get(`${administratorId}/DISBURSEMENT_PAYABLE`), undefined)
    // And a second refinalize has nothing left to do.
    const again = await inject('POST', `/api/contracts/${c.id}/refinalize`, demo.headers, {})
    assert.equal(json<{ journalEntry: unknown }>(again).journalEntry, null)
  })
})

describe('closed periods at finalization', () => {
  test('a contract sold in a closed month posts, dated today; with the books closed through today it is refused and stays pending', async () => {
    try {
      await setClosedThrough('2026-10-31')
      const sold = await finalized('2026-10-25')
      assert.equal(sold.status, 'ACTIVE')
      const { entries } = await journal(sold.id)
      assert.equal(entries[0]!.effectiveDate, TODAY)

      await setClosedThrough(TODAY)
      const c = await pendingContract('2026-11-02')
      const refused = await inject('POST', `/api/contracts/${c.id}/finalize`, demo.headers, {})
      assert.equal(refused.statusCode, 409, refused.body)
      const problem = json<Problem>(refused)
      assert.equal(problem.code, 'ledger_period_closed')
      assert.equal(problem.effectiveDate, TODAY)
      assert.equal(problem.booksClosedThrough, TODAY)
      const current = json<ContractReply>(await inject('GET', `/api/contracts/${c.id}`))
      assert.equal(current.status, 'PENDING')
      assert.equal((await journal(c.id)).total, 0)
    } finally {
      await setClosedThrough(null)
    }
  })
})

describe('GET /api/contracts/{contractId}/journalentries', () => {
  test('the lines carry the contract, line number, account holder and its name, purpose, side, amount, code and source', async () => {
    const c = await finalized('2026-10-26')
    const { entries } = await journal(c.id)
    const entry = entries[0]!
    assert.deepEqual(Object.keys(entry).toSorted(), [
      'effectiveDate',
      'id',
      'kind',
      'lines',
      'memo',
      'postedAt',
      'postedBy',
      'reversesEntryId',
      'source',
    ])
    assert.equal(entry.postedAt, NOW.toISOString())
    assert.equal(entry.postedBy, demo.adminEmail)
    assert.equal(entry.reversesEntryId, null)
    assert.deepEqual(
      entry.lines.map((l) => l.lineNo),
      entry.lines.map((_, i) => i + 1),
    )
    const names = new Map(
      (
        await t.db.read(demo.tenantId, (x) =>
          x
            .selectFrom('account_holder')
            .select(['id', 'display_name'])
            .where('tenant_id', '=', demo.tenantId)
            .execute(),
        )
      ).map((r) => [r.id, r.display_name]),
    )
    for (const l of entry.lines) {
      assert.equal(l.contractId, c.id)
      assert.equal(l.accountHolderName, names.get(l.accountHolderId))
      assert.deepEqual(l.source, { type: 'CONTRACT', id: c.id })
      assert.ok(typeof l.amount === 'number' && l.amount > 0)
      assert.equal(l.disbursementCode === null, l.purpose === 'DEALER_RECEIVABLE')
    }
  })

  test("another source's entry shows with the contract's lines only; a reversal shows too; limit/offset and X-Total-Count", async () => {
    const a = await finalized('2026-10-27')
    const b = await finalized('2026-10-28')
    const dealerId = await dealerIdOf(a.id)
    const ctx = systemContext(demo.tenantId, 'cash-test')
    // A cash application over both contracts (what the cash issue will post), then reversed (NSF).
    const cash = await t.modules.finance.ledger.post(ctx, {
      kind: 'CASH_APPLIED',
      source: { type: 'CASH', id: 9001 },
      effectiveDate: TODAY,
      lines: [
        { accountHolderId: dealerId, purpose: 'UNAPPLIED_CASH', side: 'DEBIT', amount: '300.00' },
        { accountHolderId: dealerId, purpose: 'DEALER_RECEIVABLE', side: 'CREDIT', amount: '100.00', contractId: a.id },
        { accountHolderId: dealerId, purpose: 'DEALER_RECEIVABLE', side: 'CREDIT', amount: '200.00', contractId: b.id },
      ],
    })
    const reversal = await t.modules.finance.ledger.reverse(ctx, cash.entryId, { effectiveDate: TODAY })

    const { entries, total } = await journal(a.id)
    assert.equal(total, 3)
    assert.deepEqual(
      entries.map((e) => [e.kind, e.source.type]),
      [
        ['CONTRACT_FINALIZED', 'CONTRACT'],
        ['CASH_APPLIED', 'CASH'],
        ['REVERSAL', 'CASH'],
      ],
    )
    assert.deepEqual(
      entries[1]!.lines.map((l) => [l.lineNo, l.contractId, l.side, l.amount, l.source.type]),
      [[2, a.id, 'CREDIT', 100, 'CASH']],
    )
    assert.equal(entries[2]!.reversesEntryId, cash.entryId)
    assert.equal(entries[2]!.id, reversal.entryId)
    assert.deepEqual(
      entries[2]!.lines.map((l) => [l.contractId, l.side, l.amount]),
      [[a.id, 'DEBIT', 100]],
    )

    const page = await inject('GET', `/api/contracts/${a.id}/journalentries?limit=1&offset=1`)
    assert.equal(page.statusCode, 200, page.body)
    assert.equal(page.headers['x-total-count'], '3')
    assert.deepEqual(
      json<ContractJournalEntryView[]>(page).map((e) => e.id),
      [cash.entryId],
    )
    const pending = await pendingContract('2026-10-29')
    assert.deepEqual(await journal(pending.id), { entries: [], total: 0 })
  })

  test("another tenant's contract, or an unknown one: 404", async () => {
    const c = await finalized('2026-10-30')
    const other = await createTenant(t)
    for (const [id, headers] of [
      [c.id, other.headers],
      [999_999_999, demo.headers],
    ] as const) {
      const res = await inject('GET', `/api/contracts/${id}/journalentries`, headers)
      assert.equal(res.statusCode, 404, res.body)
      assert.equal(json<Problem>(res).code, 'contract_not_found')
    }
  })

  test('permissions: finance:read and contracts:read both; a dealer-side user sees only its dealers’ contracts', async () => {
    const mine = await finalized('2026-11-03', DEMO.otherDealerNumber)
    const theirs = await finalized('2026-11-04')
    const accounting = await createUserWithRoles(t, demo, ['ACCOUNTING'])
    assert.equal((await journal(theirs.id, accounting.headers)).total, 1)
    for (const role of ['CONTRACT_ADMINISTRATOR', 'DEALER_USER']) {
      const user = await createUserWithRoles(t, demo, [role])
      const res = await inject('GET', `/api/contracts/${theirs.id}/journalentries`, user.headers)
      assert.equal(res.statusCode, 403, `${role}: ${res.body}`)
      assert.equal(json<Problem>(res).code, 'permission_denied')
    }
    // A role with finance:read alone (a custom role): contracts:read is missing.
    await t.db.transaction(demo.tenantId, (tx) =>
      tx
        .insertInto('membership_role')
        .values({
          tenant_id: demo.tenantId,
          code: 'LEDGER_ONLY',
          name: 'Ledger only',
          description: 'finance:read without contracts:read',
          permissions: ['finance:read'],
        })
        .execute(),
    )
    const ledgerOnly = await createUserWithRoles(t, demo, ['LEDGER_ONLY'])
    const refused = await inject('GET', `/api/contracts/${theirs.id}/journalentries`, ledgerOnly.headers)
    assert.equal(refused.statusCode, 403, refused.body)
    assert.match(json<Problem>(refused).detail, /contracts:read/)

    // A dealer-side user whose roles read contracts and ledgers (READ_ONLY), in the group of dealer 10002.
    const dealers = json<Array<{ id: number; dealerNumber: string }>>(
      await inject('GET', '/api/dealers?limit=1000', demo.headers),
    )
    const own = dealers.find((d) => d.dealerNumber === DEMO.otherDealerNumber)!
    const group = await inject('POST', '/api/portalvisibilitygroups', demo.headers, {
      code: 'LEDGER-PORTAL',
      name: 'Toyota Dallas ledger portal',
      dealerIds: [own.id],
    })
    assert.equal(group.statusCode, 201, group.body)
    const dealerSide = await createUserWithRoles(t, demo, ['READ_ONLY'], {
      groups: [{ id: json<{ id: number }>(group).id }],
    })
    assert.equal((await journal(mine.id, dealerSide.headers)).total, 1)
    const hidden = await inject('GET', `/api/contracts/${theirs.id}/journalentries`, dealerSide.headers)
    assert.equal(hidden.statusCode, 404, hidden.body)
  })

  test('a bad id or window: 400', async () => {
    for (const url of [
      '/api/contracts/abc/journalentries',
      '/api/contracts/1/journalentries?limit=0',
      '/api/contracts/1/journalentries?limit=1001',
      '/api/contracts/1/journalentries?offset=-1',
      '/api/contracts/1/journalentries?other=1',
    ]) {
      const res = await inject('GET', url)
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
    }
  })
})
