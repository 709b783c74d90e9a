// Closed periods and the posting date against the database (PGlite, and PostgreSQL with
// scripts/with-postgres.sh): booksClosedThrough refuses every post and reversal dated on or before
// it (409 ledger_period_closed, nothing written), null closes nothing, and postingDate is today in
// the tenant's time zone.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { createTenant, createTestApp, type TestApp } from '../../../test/harness.ts'
import { systemContext } from '../../platform/http/context.ts'
import { AppError } from '../../platform/http/errors.ts'
import type { PostEntryInput } from './index.ts'

// 03:30 UTC: still the 20th in Chicago, already the 21st in UTC.
const NOW = new Date('2026-11-21T03:30:00Z')

let t: TestApp
before(async () => {
  t = await createTestApp({ now: NOW })
})
after(() => t.close())

const ledger = () => t.modules.finance.ledger

async function accountHolder(tenantId: number, kind: string, name: string): Promise<number> {
  const r = await t.db.transaction(tenantId, (tx) =>
    sql<{ id: number }>`
    insert into account_holder (tenant_id, kind, legal_name, display_name) values (${tenantId}, ${kind}, ${name}, ${name}) returning id`.execute(
      tx,
    ),
  )
  return Number(r.rows[0]!.id)
}

async function setUp() {
  const tenant = await createTenant(t)
  const tenantId = tenant.tenantId
  const ctx = systemContext(tenantId, 'periods-test')
  const dealer = await accountHolder(tenantId, 'DEALER', 'Dealer')
  const insurer = await accountHolder(tenantId, 'INSURER', 'Insurer')
  const entry = (effectiveDate: string, contractId = 11): PostEntryInput => ({
    kind: 'CONTRACT_FINALIZED',
    source: { type: 'CONTRACT', id: contractId },
    effectiveDate,
    lines: [
      { accountHolderId: dealer, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', amount: '250.00', contractId },
      {
        accountHolderId: insurer,
        purpose: 'DISBURSEMENT_PAYABLE',
        side: 'CREDIT',
        amount: '250.00',
        contractId,
        disbursementCode: 'RES',
      },
    ],
  })
  const setting = async (key: 'booksClosedThrough' | 'timeZone', value: string | null) => {
    await t.modules.settings.service.update(ctx, key, { value })
  }
  const entries = async () =>
    Number(
      (
        await t.db.read(tenantId, (x) =>
          x
            .selectFrom('journal_entry')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('tenant_id', '=', tenantId)
            .executeTakeFirstOrThrow(),
        )
      ).n,
    )
  return { tenantId, ctx, entry, setting, entries }
}

/** The refusal of a date inside the period closed through `closedThrough`. */
function periodClosed(effectiveDate: string, closedThrough: string) {
  return (err: unknown) => {
    assert.ok(err instanceof AppError, String(err))
    assert.equal(err.code, 'ledger_period_closed')
    assert.equal(err.status, 409)
    assert.deepEqual(err.extensions, { effectiveDate, booksClosedThrough: closedThrough })
    assert.ok(err.message.includes(effectiveDate) && err.message.includes(closedThrough), err.message)
    return true
  }
}

describe('closed periods', () => {
  test('a post dated on or before booksClosedThrough is refused and writes nothing; after it, posted', async () => {
    const s = await setUp()
    await s.setting('booksClosedThrough', '2026-10-31')
    for (const date of ['2026-10-31', '2026-10-01', '2025-12-31']) {
      await assert.rejects(ledger().post(s.ctx, s.entry(date)), periodClosed(date, '2026-10-31'))
    }
    assert.equal(await s.entries(), 0)
    const posted = await ledger().post(s.ctx, s.entry('2026-11-01'))
    assert.equal(posted.effectiveDate, '2026-11-01')
    assert.equal(await s.entries(), 1)
  })

  test('booksClosedThrough null (the default, or reset) closes nothing', async () => {
    const s = await setUp()
    await ledger().post(s.ctx, s.entry('2000-01-01'))
    await s.setting('booksClosedThrough', '2026-10-31')
    await s.setting('booksClosedThrough', null)
    await ledger().post(s.ctx, s.entry('2026-10-31'))
    assert.equal(await s.entries(), 2)
  })

  test('an invalid entry is reported as such before the period is looked at', async () => {
    const s = await setUp()
    await s.setting('booksClosedThrough', '2026-10-31')
    const unbalanced = s.entry('2026-10-01')
    unbalanced.lines[1]!.amount = '249.99'
    await assert.rejects(ledger().post(s.ctx, unbalanced), (err: unknown) => {
      assert.equal((err as AppError).code, 'ledger_unbalanced')
      return true
    })
  })

  test('a reversal is dated in the open period: refused on or before the close, accepted after, whatever the original date', async () => {
    const s = await setUp()
    const original = await ledger().post(s.ctx, s.entry('2026-10-15'))
    await s.setting('booksClosedThrough', '2026-10-31')
    await assert.rejects(
      ledger().reverse(s.ctx, original.entryId, { effectiveDate: '2026-10-31' }),
      periodClosed('2026-10-31', '2026-10-31'),
    )
    assert.equal(await s.entries(), 1)
    const reversal = await ledger().reverse(s.ctx, original.entryId, { effectiveDate: '2026-11-02' })
    assert.equal(reversal.reversesEntryId, original.entryId)
    assert.equal(reversal.effectiveDate, '2026-11-02')
  })

  test('a contract sold in a since-closed month posts at its finalization: the posting date is today', async () => {
    const s = await setUp()
    await s.setting('booksClosedThrough', '2026-10-31')
    // What finalize does: the entry is dated postingDate, never the sale date (2026-10-20 here).
    // The default time zone is America/Chicago, where it is still the 20th.
    const posted = await ledger().post(s.ctx, s.entry(await ledger().postingDate(s.tenantId)))
    assert.equal(posted.effectiveDate, '2026-11-20')
  })

  test('books closed through today: today posts nothing (refused, not moved to another date)', async () => {
    const s = await setUp()
    const today = await ledger().postingDate(s.tenantId)
    await s.setting('booksClosedThrough', today)
    await assert.rejects(ledger().post(s.ctx, s.entry(today)), periodClosed(today, today))
  })
})

describe('postingDate', () => {
  const cases: Array<[string, string]> = [
    ['UTC', '2026-11-21'],
    ['America/Chicago', '2026-11-20'],
    ['America/New_York', '2026-11-20'],
    ['Asia/Tokyo', '2026-11-21'],
  ]
  for (const [zone, expected] of cases) {
    test(`at ${NOW.toISOString()} in ${zone}: ${expected}`, async () => {
      const s = await setUp()
      await s.setting('timeZone', zone)
      assert.equal(await ledger().postingDate(s.tenantId), expected)
    })
  }
})
