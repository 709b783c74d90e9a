// The ledger core against the database (PGlite, and PostgreSQL in CI): posting and reading back,
// refusals that store nothing, the database's own append-only and balance guarantees, reversal,
// tenant isolation and concurrent first use of an account.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { systemContext } from '../src/platform/http/context.ts'
import { AppError } from '../src/platform/http/errors.ts'
import { Decimal } from '../src/platform/money.ts'
import type { LedgerLineInput, PostEntryInput } from '../src/modules/finance/index.ts'
import { createTenant, createTestApp, type TestApp } from './harness.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
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

/** A tenant with a dealer, an insurer, an agent and the administrator company. */
async function setUp() {
  const tenant = await createTenant(t)
  const id = tenant.tenantId
  return {
    tenantId: id,
    ctx: systemContext(id, 'ledger-test'),
    dealer: await accountHolder(id, 'DEALER', 'Dealer'),
    insurer: await accountHolder(id, 'INSURER', 'Insurer'),
    agent: await accountHolder(id, 'AGENT', 'Agent'),
    admin: await accountHolder(id, 'ADMIN_COMPANY', 'Administrator'),
  }
}

type Setup = Awaited<ReturnType<typeof setUp>>

/** A finalized contract: the dealer owes 1000.00, split over reserve, commission and the admin fee. */
function finalized(s: Setup, contractId: number, extra: Partial<PostEntryInput> = {}): PostEntryInput {
  const lines: LedgerLineInput[] = [
    { accountHolderId: s.dealer, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', amount: '1000.00', contractId },
    {
      accountHolderId: s.insurer,
      purpose: 'DISBURSEMENT_PAYABLE',
      side: 'CREDIT',
      amount: new Decimal('700.10'),
      contractId,
      disbursementCode: 'RESERVE',
    },
    {
      accountHolderId: s.agent,
      purpose: 'DISBURSEMENT_PAYABLE',
      side: 'CREDIT',
      amount: '149.95',
      contractId,
      disbursementCode: 'COMM',
    },
    {
      accountHolderId: s.agent,
      purpose: 'DISBURSEMENT_PAYABLE',
      side: 'CREDIT',
      amount: '50',
      contractId,
      disbursementCode: 'BONUS',
    },
    {
      accountHolderId: s.admin,
      purpose: 'ADMINISTRATOR_REVENUE',
      side: 'CREDIT',
      amount: '99.95',
      contractId,
      disbursementCode: 'ADMIN',
    },
  ]
  return {
    kind: 'CONTRACT_FINALIZED',
    source: { type: 'CONTRACT', id: contractId },
    effectiveDate: '2026-03-01',
    memo: 'contract finalized',
    lines,
    ...extra,
  }
}

function isCode(code: string, constraint?: string) {
  return (err: unknown) => {
    assert.equal((err as { code?: string }).code, code, String(err))
    if (constraint) assert.equal((err as { constraint?: string }).constraint, constraint, String(err))
    return true
  }
}

/** The deferred balance trigger's refusal at commit (a check constraint shares its SQLSTATE). */
const unbalanced = isCode('23514', 'journal_entry_balanced')

async function count(tenantId: number, table: 'journal_entry' | 'journal_line' | 'ledger_account'): Promise<number> {
  const r = await t.db.read(tenantId, (x) =>
    x
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow(),
  )
  return Number(r.n)
}

describe('posting', () => {
  test('a balanced entry is stored and read back with its lines, balances and audit record', async () => {
    const s = await setUp()
    const posted = await ledger().post(s.ctx, finalized(s, 4711))
    assert.equal(posted.kind, 'CONTRACT_FINALIZED')
    assert.deepEqual(posted.source, { type: 'CONTRACT', id: 4711 })
    assert.equal(posted.totalDebit, 1000)
    assert.equal(posted.totalCredit, 1000)
    assert.equal(posted.reversesEntryId, null)
    assert.equal(posted.postedBy, 'ledger-test')
    assert.equal(posted.postedAt, t.clock.now().toISOString())
    assert.deepEqual(
      posted.lines.map((l) => [l.lineNo, l.purpose, l.debit, l.credit, l.disbursementCode]),
      [
        [1, 'DEALER_RECEIVABLE', 1000, 0, null],
        [2, 'DISBURSEMENT_PAYABLE', 0, 700.1, 'RESERVE'],
        [3, 'DISBURSEMENT_PAYABLE', 0, 149.95, 'COMM'],
        [4, 'DISBURSEMENT_PAYABLE', 0, 50, 'BONUS'],
        [5, 'ADMINISTRATOR_REVENUE', 0, 99.95, 'ADMIN'],
      ],
    )

    const [read, ...rest] = await ledger().entriesForSource(s.tenantId, { type: 'CONTRACT', id: 4711 })
    assert.equal(rest.length, 0)
    assert.deepEqual(read, posted)
    assert.deepEqual(await ledger().entry(s.tenantId, posted.entryId), posted)
    assert.deepEqual(await ledger().entriesForSource(s.tenantId, { type: 'CLAIM', id: 4711 }), [])

    assert.deepEqual(await ledger().balances(s.tenantId, s.dealer), [
      { purpose: 'DEALER_RECEIVABLE', normalSide: 'DEBIT', debit: 1000, credit: 0, balance: 1000 },
    ])
    // The agent's two lines stay separate in the entry and add up in its one account.
    assert.deepEqual(await ledger().balances(s.tenantId, s.agent), [
      { purpose: 'DISBURSEMENT_PAYABLE', normalSide: 'CREDIT', debit: 0, credit: 199.95, balance: 199.95 },
    ])
    assert.equal(await count(s.tenantId, 'ledger_account'), 4)

    const audit = await t.db.read(s.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'entity_id', 'actor_label', 'changes', 'occurred_at'])
        .where('tenant_id', '=', s.tenantId)
        .where('entity_type', '=', 'journal_entry')
        .execute(),
    )
    // Written by the posting's own statement (one round trip with the entry and its lines).
    assert.deepEqual(audit, [
      {
        action: 'journal_entry.posted',
        entity_id: String(posted.entryId),
        actor_label: 'ledger-test',
        changes: {
          after: {
            kind: 'CONTRACT_FINALIZED',
            source: { type: 'CONTRACT', id: 4711 },
            effectiveDate: posted.effectiveDate,
            total: 1000,
            lineCount: 5,
          },
        },
        occurred_at: t.clock.now(),
      },
    ])
  })

  test('zero lines are left out and the rest renumbered', async () => {
    const s = await setUp()
    const input = finalized(s, 502)
    input.lines.splice(1, 0, {
      accountHolderId: s.insurer,
      purpose: 'DISBURSEMENT_PAYABLE',
      side: 'CREDIT',
      amount: '0.00',
      disbursementCode: 'ZERO',
    })
    const posted = await ledger().post(s.ctx, input)
    assert.deepEqual(
      posted.lines.map((l) => l.lineNo),
      [1, 2, 3, 4, 5],
    )
    assert.ok(!posted.lines.some((l) => l.disbursementCode === 'ZERO'))
  })

  test('an unbalanced entry is refused and nothing is stored', async () => {
    const s = await setUp()
    const input = finalized(s, 503)
    input.lines[0]!.amount = '1000.01'
    await assert.rejects(ledger().post(s.ctx, input), (err) => {
      assert.ok(err instanceof AppError)
      assert.equal(err.code, 'ledger_unbalanced')
      assert.equal(err.status, 500)
      assert.match(err.message, /debits 1000\.01, credits 1000\.00/)
      return true
    })
    assert.equal(await count(s.tenantId, 'journal_entry'), 0)
    assert.equal(await count(s.tenantId, 'ledger_account'), 0)
  })

  test('an unknown account holder is refused by line, and the caller’s transaction stays usable', async () => {
    const s = await setUp()
    const other = await setUp()
    const input = finalized(s, 504)
    input.lines[1]!.accountHolderId = other.insurer
    const posted = await t.db.transaction(s.tenantId, async () => {
      await assert.rejects(ledger().post(s.ctx, input), (err) => {
        assert.ok(err instanceof AppError)
        assert.equal(err.code, 'ledger_entry_invalid')
        assert.deepEqual(
          err.errors?.map((e) => [e.field, e.code]),
          [['lines[1].accountHolderId', 'unknown_reference']],
        )
        return true
      })
      return ledger().post(s.ctx, finalized(s, 504))
    })
    assert.deepEqual(await ledger().entriesForSource(s.tenantId, { type: 'CONTRACT', id: 504 }), [posted])
  })

  test('an entry posted inside a transaction that rolls back is gone with it', async () => {
    const s = await setUp()
    await assert.rejects(
      t.db.transaction(s.tenantId, async () => {
        await ledger().post(s.ctx, finalized(s, 505))
        throw new Error('finalize failed later')
      }),
      /finalize failed later/,
    )
    assert.deepEqual(await ledger().entriesForSource(s.tenantId, { type: 'CONTRACT', id: 505 }), [])
    assert.equal(await count(s.tenantId, 'journal_line'), 0)
  })

  test('ten concurrent first posts to the same new accounts all succeed', async () => {
    const s = await setUp()
    const posted = await Promise.all(Array.from({ length: 10 }, (_, i) => ledger().post(s.ctx, finalized(s, 600 + i))))
    assert.equal(new Set(posted.map((p) => p.entryId)).size, 10)
    assert.equal(await count(s.tenantId, 'ledger_account'), 4)
    assert.deepEqual(await ledger().balances(s.tenantId, s.dealer), [
      { purpose: 'DEALER_RECEIVABLE', normalSide: 'DEBIT', debit: 10_000, credit: 0, balance: 10_000 },
    ])
  })
})

describe('the database keeps the ledger append-only', () => {
  // Each names its tenant, as every statement the service runs does (docs/scale-out.md): the
  // refusal is the trigger's, not row-level security's.
  const statements = [
    [
      'update journal_line',
      (tenantId: number, entryId: number) =>
        sql`update journal_line set memo = 'edited' where tenant_id = ${tenantId} and entry_id = ${entryId}`,
    ],
    [
      'update journal_line amounts',
      (tenantId: number, entryId: number) =>
        sql`update journal_line set debit = credit, credit = debit where tenant_id = ${tenantId} and entry_id = ${entryId}`,
    ],
    [
      'delete journal_line',
      (tenantId: number, entryId: number) =>
        sql`delete from journal_line where tenant_id = ${tenantId} and entry_id = ${entryId}`,
    ],
    [
      'update journal_entry',
      (tenantId: number, entryId: number) =>
        sql`update journal_entry set effective_date = '2020-01-01' where tenant_id = ${tenantId} and id = ${entryId}`,
    ],
    [
      'delete journal_entry',
      (tenantId: number, entryId: number) =>
        sql`delete from journal_entry where tenant_id = ${tenantId} and id = ${entryId}`,
    ],
    [
      'update ledger_account',
      (tenantId: number) => sql`update ledger_account set purpose = 'CASH' where tenant_id = ${tenantId}`,
    ],
    ['delete ledger_account', (tenantId: number) => sql`delete from ledger_account where tenant_id = ${tenantId}`],
    ['truncate journal_line', () => sql`truncate journal_line`],
    ['truncate journal_entry', () => sql`truncate journal_entry cascade`],
    ['truncate ledger_account', () => sql`truncate ledger_account cascade`],
  ] as const
  for (const [name, statement] of statements) {
    test(`${name} is refused`, async () => {
      const s = await setUp()
      const posted = await ledger().post(s.ctx, finalized(s, 700))
      await assert.rejects(
        t.db.transaction(s.tenantId, (tx) => statement(s.tenantId, posted.entryId).execute(tx)),
        isCode('42501'),
      )
      assert.deepEqual(await ledger().entry(s.tenantId, posted.entryId), posted)
    })
  }
})

describe('the database refuses unbalanced entries at commit', () => {
  async function rawEntry(
    tx: Parameters<Parameters<TestApp['db']['transaction']>[1]>[0],
    tenantId: number,
  ): Promise<number> {
    const r = await sql<{
      id: number
    }>`insert into journal_entry (tenant_id, kind, source_type, source_id, effective_date, posted_at, posted_by)
      values (${tenantId}, 'CONTRACT_FINALIZED', 'CONTRACT', 800, '2026-03-01', now(), 'raw') returning id`.execute(tx)
    return Number(r.rows[0]!.id)
  }
  async function accountIds(s: Setup) {
    // The accounts exist once an entry used them.
    await ledger().post(s.ctx, finalized(s, 799))
    const rows = await t.db.read(s.tenantId, (x) =>
      x
        .selectFrom('ledger_account')
        .select(['id', 'purpose', 'account_holder_id'])
        .where('tenant_id', '=', s.tenantId)
        .execute(),
    )
    return {
      receivable: rows.find((r) => r.purpose === 'DEALER_RECEIVABLE')!.id,
      payable: rows.find((r) => r.account_holder_id === s.insurer)!.id,
    }
  }
  const line = (tenantId: number, entryId: number, lineNo: number, accountId: number, debit: string, credit: string) =>
    sql`insert into journal_line (tenant_id, entry_id, line_no, account_id, debit, credit) values (${tenantId}, ${entryId}, ${lineNo}, ${accountId}, ${debit}, ${credit})`

  test('debits ≠ credits', async () => {
    const s = await setUp()
    const a = await accountIds(s)
    await assert.rejects(
      t.db.transaction(s.tenantId, async (tx) => {
        const id = await rawEntry(tx, s.tenantId)
        await line(s.tenantId, id, 1, a.receivable, '10.00', '0').execute(tx)
        await line(s.tenantId, id, 2, a.payable, '0', '9.99').execute(tx)
      }),
      unbalanced,
    )
    assert.equal(await count(s.tenantId, 'journal_entry'), 1)
  })

  test('an entry without lines, and one with a single line', async () => {
    const s = await setUp()
    const a = await accountIds(s)
    await assert.rejects(
      t.db.transaction(s.tenantId, (tx) => rawEntry(tx, s.tenantId)),
      unbalanced,
    )
    await assert.rejects(
      t.db.transaction(s.tenantId, async (tx) => {
        const id = await rawEntry(tx, s.tenantId)
        await line(s.tenantId, id, 1, a.receivable, '10.00', '0').execute(tx)
      }),
      unbalanced,
    )
    assert.equal(await count(s.tenantId, 'journal_entry'), 1)
  })

  test('a line added to an entry already posted', async () => {
    const s = await setUp()
    const a = await accountIds(s)
    const [posted] = await ledger().entriesForSource(s.tenantId, { type: 'CONTRACT', id: 799 })
    await assert.rejects(
      t.db.transaction(s.tenantId, (tx) => line(s.tenantId, posted!.entryId, 6, a.payable, '0', '5.00').execute(tx)),
      unbalanced,
    )
    assert.deepEqual(await ledger().entry(s.tenantId, posted!.entryId), posted)
  })

  test('a line with both sides, or neither, is refused at once', async () => {
    const s = await setUp()
    const a = await accountIds(s)
    for (const [debit, credit] of [
      ['5.00', '5.00'],
      ['0', '0'],
      ['-5.00', '0'],
    ] as const) {
      await assert.rejects(
        t.db.transaction(s.tenantId, async (tx) => {
          const id = await rawEntry(tx, s.tenantId)
          await line(s.tenantId, id, 1, a.receivable, debit, credit).execute(tx)
        }),
        isCode('23514'),
      )
    }
  })

  test('a balanced raw entry commits', async () => {
    const s = await setUp()
    const a = await accountIds(s)
    const id = await t.db.transaction(s.tenantId, async (tx) => {
      const entryId = await rawEntry(tx, s.tenantId)
      await line(s.tenantId, entryId, 1, a.receivable, '10.00', '0').execute(tx)
      await line(s.tenantId, entryId, 2, a.payable, '0', '10.00').execute(tx)
      return entryId
    })
    assert.equal((await ledger().entry(s.tenantId, id))?.totalDebit, 10)
  })

  test('lines added to an entry already posted: taken when they balance within their statement (migration 0025)', async () => {
    const s = await setUp()
    const a = await accountIds(s)
    const [posted] = await ledger().entriesForSource(s.tenantId, { type: 'CONTRACT', id: 799 })
    const entryId = posted!.entryId
    // Two statements that would balance together by commit: the first is refused at once.
    await assert.rejects(
      t.db.transaction(s.tenantId, async (tx) => {
        await line(s.tenantId, entryId, 6, a.receivable, '5.00', '0').execute(tx)
        await line(s.tenantId, entryId, 7, a.payable, '0', '5.00').execute(tx)
      }),
      unbalanced,
    )
    assert.deepEqual(await ledger().entry(s.tenantId, entryId), posted)
    await t.db.transaction(s.tenantId, (tx) =>
      sql`insert into journal_line (tenant_id, entry_id, line_no, account_id, debit, credit)
          values (${s.tenantId}, ${entryId}, 6, ${a.receivable}, 5.00, 0), (${s.tenantId}, ${entryId}, 7, ${a.payable}, 0, 5.00)`.execute(
        tx,
      ),
    )
    assert.equal((await ledger().entry(s.tenantId, entryId))?.totalDebit, posted!.totalDebit + 5)
  })
})

describe('reversal', () => {
  test('reverses every line, links the entry and brings balances back to zero; only once', async () => {
    const s = await setUp()
    const posted = await ledger().post(s.ctx, finalized(s, 900))
    const reversal = await ledger().reverse(s.ctx, posted.entryId, { effectiveDate: '2026-03-05' })
    assert.equal(reversal.kind, 'REVERSAL')
    assert.equal(reversal.reversesEntryId, posted.entryId)
    assert.deepEqual(reversal.source, posted.source)
    assert.equal(reversal.memo, `Reversal of entry ${posted.entryId}`)
    // The source's lines in one read: the entries' lines, oldest entry first, each in line order.
    assert.deepEqual(await ledger().linesForSource(s.tenantId, posted.source), [...posted.lines, ...reversal.lines])
    assert.deepEqual(await ledger().linesForSource(s.tenantId, { type: posted.source.type, id: 987_654 }), [])
    assert.deepEqual(
      reversal.lines.map((l) => [l.accountHolderId, l.purpose, l.debit, l.credit, l.contractId, l.disbursementCode]),
      posted.lines.map((l) => [l.accountHolderId, l.purpose, l.credit, l.debit, l.contractId, l.disbursementCode]),
    )
    for (const holder of [s.dealer, s.insurer, s.agent, s.admin]) {
      for (const b of await ledger().balances(s.tenantId, holder)) assert.equal(b.balance, 0, `${holder} ${b.purpose}`)
    }
    assert.deepEqual(
      (await ledger().entriesForSource(s.tenantId, posted.source)).map((e) => e.entryId),
      [posted.entryId, reversal.entryId],
    )

    await assert.rejects(ledger().reverse(s.ctx, posted.entryId, { effectiveDate: '2026-03-06' }), (err) => {
      assert.ok(err instanceof AppError)
      assert.equal(err.code, 'ledger_entry_already_reversed')
      assert.equal(err.status, 409)
      assert.equal(err.extensions?.reversalEntryId, reversal.entryId)
      return true
    })
    await assert.rejects(
      ledger().reverse(s.ctx, reversal.entryId, { effectiveDate: '2026-03-06' }),
      isCode('ledger_entry_not_reversible'),
    )
    const audit = await t.db.read(s.tenantId, (x) =>
      x
        .selectFrom('audit_log')
        .select(['action', 'entity_id', 'changes'])
        .where('tenant_id', '=', s.tenantId)
        .where('entity_type', '=', 'journal_entry')
        .orderBy('id')
        .execute(),
    )
    assert.deepEqual(audit[1], {
      action: 'journal_entry.reversed',
      entity_id: String(reversal.entryId),
      changes: {
        after: {
          reversesEntryId: posted.entryId,
          source: reversal.source,
          effectiveDate: reversal.effectiveDate,
          total: reversal.totalDebit,
        },
      },
    })
    assert.deepEqual(
      audit.map((a) => a.action),
      ['journal_entry.posted', 'journal_entry.reversed'],
    )
  })

  test('concurrent reversals of one entry: exactly one wins', async () => {
    const s = await setUp()
    const posted = await ledger().post(s.ctx, finalized(s, 901))
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => ledger().reverse(s.ctx, posted.entryId, { effectiveDate: '2026-03-02' })),
    )
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1)
    for (const r of results) if (r.status === 'rejected') isCode('ledger_entry_already_reversed')(r.reason)
  })

  test('a reversal is not dated before its entry, and needs a valid date', async () => {
    const s = await setUp()
    const posted = await ledger().post(s.ctx, finalized(s, 902))
    await assert.rejects(
      ledger().reverse(s.ctx, posted.entryId, { effectiveDate: '2026-02-28' }),
      isCode('ledger_entry_invalid'),
    )
    await assert.rejects(
      ledger().reverse(s.ctx, posted.entryId, { effectiveDate: 'yesterday' }),
      isCode('ledger_entry_invalid'),
    )
    const reversal = await ledger().reverse(s.ctx, posted.entryId, {
      effectiveDate: '2026-03-01',
      memo: 'sale unwound',
    })
    assert.equal(reversal.memo, 'sale unwound')
  })

  test('unknown ids are not found', async () => {
    const s = await setUp()
    for (const id of [0, -1, 1.5, 2 ** 53, 999_999_999_999]) {
      await assert.rejects(
        ledger().reverse(s.ctx, id, { effectiveDate: '2026-03-01' }),
        isCode('ledger_entry_not_found'),
      )
    }
  })
})

describe('tenant isolation', () => {
  test("another tenant's entries, accounts and balances are invisible", async () => {
    const a = await setUp()
    const b = await setUp()
    const posted = await ledger().post(a.ctx, finalized(a, 1000))
    await assert.rejects(
      ledger().reverse(b.ctx, posted.entryId, { effectiveDate: '2026-03-02' }),
      isCode('ledger_entry_not_found'),
    )
    assert.equal(await ledger().entry(b.tenantId, posted.entryId), undefined)
    assert.deepEqual(await ledger().entriesForSource(b.tenantId, posted.source), [])
    assert.deepEqual(await ledger().balances(b.tenantId, a.dealer), [])
    // Another tenant's account holders cannot be posted to.
    await assert.rejects(ledger().post(b.ctx, finalized(a, 1000)), isCode('ledger_entry_invalid'))
    // And its rows stay out of reach of raw SQL under row-level security.
    const seen = await t.db.read(b.tenantId, (x) =>
      sql<{ n: number }>`select count(*)::int as n from journal_line where entry_id = ${posted.entryId}`.execute(x),
    )
    assert.equal(seen.rows[0]!.n, 0)
    assert.equal((await ledger().entry(a.tenantId, posted.entryId))?.entryId, posted.entryId)
  })
})
