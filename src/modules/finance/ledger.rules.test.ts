import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { allocate, Decimal, sumMoney } from '../../platform/money.ts'
import {
  ACCOUNT_PURPOSES,
  ENTRY_KIND_RULES,
  ENTRY_KINDS,
  SOURCE_TYPES,
  balanceOf,
  checkEntry,
  deltaLine,
  isCalendarDate,
  kindRecords,
  reversalLines,
  totals,
  type AccountPurpose,
  type EntryKind,
  type LedgerLineInput,
  type PostEntryInput,
  type SourceType,
} from './ledger.rules.ts'

const d = (v: string | number) => new Decimal(v)

const line = (
  side: 'DEBIT' | 'CREDIT',
  amount: Decimal | string,
  extra: Partial<LedgerLineInput> = {},
): LedgerLineInput => ({
  accountHolderId: 1,
  purpose: side === 'DEBIT' ? 'DEALER_RECEIVABLE' : 'DISBURSEMENT_PAYABLE',
  side,
  amount,
  ...extra,
})

const entry = (lines: LedgerLineInput[], extra: Partial<PostEntryInput> = {}): PostEntryInput => ({
  kind: 'CONTRACT_FINALIZED',
  source: { type: 'CONTRACT', id: 7 },
  effectiveDate: '2026-03-01',
  lines,
  ...extra,
})

describe('checkEntry: accepted entries', () => {
  const cases: Array<[string, LedgerLineInput[], string, number]> = [
    ['two lines', [line('DEBIT', '100.00'), line('CREDIT', '100.00')], '100', 2],
    [
      'one debit, three credits',
      [line('DEBIT', '1250.50'), line('CREDIT', '1000.25'), line('CREDIT', '200.25'), line('CREDIT', d('50'))],
      '1250.5',
      4,
    ],
    [
      'zero lines dropped',
      [line('DEBIT', '10'), line('CREDIT', '0.00'), line('CREDIT', '10'), line('DEBIT', d(0))],
      '10',
      2,
    ],
    [
      'same account twice stays two lines',
      [
        line('DEBIT', '5'),
        line('CREDIT', '2', { disbursementCode: 'A' }),
        line('CREDIT', '3', { disbursementCode: 'B' }),
      ],
      '5',
      3,
    ],
    ['largest amount', [line('DEBIT', '999999999999.99'), line('CREDIT', '999999999999.99')], '999999999999.99', 2],
    [
      'a Decimal of another decimal.js clone',
      [line('DEBIT', new (Decimal.clone())('1.5') as unknown as Decimal), line('CREDIT', '1.50')],
      '1.5',
      2,
    ],
  ]
  for (const [name, lines, total, count] of cases) {
    test(name, () => {
      const r = checkEntry(entry(lines))
      assert.ok(r.ok, JSON.stringify(r))
      assert.equal(r.total.toString(), total)
      assert.equal(r.lines.length, count)
      assert.deepEqual(
        r.lines.map((l) => l.lineNo),
        Array.from({ length: count }, (_, i) => i + 1),
      )
    })
  }

  test('lines keep their input position for errors, and their references', () => {
    const r = checkEntry(
      entry([
        line('DEBIT', '0'),
        line('DEBIT', '4', { contractId: 9, memo: 'm' }),
        line('CREDIT', '4', { disbursementCode: 'RES' }),
      ]),
    )
    assert.ok(r.ok)
    assert.deepEqual(
      r.lines.map((l) => [l.index, l.lineNo, l.contractId, l.disbursementCode, l.memo]),
      [
        [1, 1, 9, null, 'm'],
        [2, 2, null, 'RES', null],
      ],
    )
  })
})

describe('checkEntry: refused entries', () => {
  const cases: Array<[string, PostEntryInput, 'invalid' | 'unbalanced', string[]]> = [
    ['debits ≠ credits', entry([line('DEBIT', '100'), line('CREDIT', '99.99')]), 'unbalanced', ['lines']],
    ['one line', entry([line('DEBIT', '100')]), 'invalid', ['lines']],
    ['only zero lines', entry([line('DEBIT', '0'), line('CREDIT', '0')]), 'invalid', ['lines']],
    ['no lines', entry([]), 'invalid', ['lines']],
    [
      'negative amount',
      entry([line('DEBIT', '-5'), line('CREDIT', '-5')]),
      'invalid',
      ['lines[0].amount', 'lines[1].amount'],
    ],
    [
      'fractions of a cent',
      entry([line('DEBIT', d('1.005')), line('CREDIT', '1.005')]),
      'invalid',
      ['lines[0].amount', 'lines[1].amount'],
    ],
    [
      'too large',
      entry([line('DEBIT', d('1000000000000')), line('CREDIT', d('1000000000000'))]),
      'invalid',
      ['lines[0].amount', 'lines[1].amount'],
    ],
    [
      'not an amount',
      entry([line('DEBIT', 'abc'), line('CREDIT', 5 as unknown as string)]),
      'invalid',
      ['lines[0].amount', 'lines[1].amount'],
    ],
    ['infinite', entry([line('DEBIT', d(Infinity)), line('CREDIT', '1')]), 'invalid', ['lines[0].amount']],
    [
      'unknown purpose, side, holder',
      entry([
        line('DEBIT', '1', { purpose: 'PETTY_CASH' as AccountPurpose }),
        line('CREDIT', '1', { side: 'LEFT' as 'DEBIT', accountHolderId: 0 }),
      ]),
      'invalid',
      ['lines[0].purpose', 'lines[1].accountHolderId', 'lines[1].side'],
    ],
    [
      'bad references',
      entry([
        line('DEBIT', '1', { contractId: -1 }),
        line('CREDIT', '1', { disbursementCode: '' }),
        line('CREDIT', '0', { disbursementCode: 'x'.repeat(101) }),
      ]),
      'invalid',
      ['lines[0].contractId', 'lines[1].disbursementCode', 'lines[2].disbursementCode'],
    ],
    [
      'a REVERSAL posted directly',
      entry([line('DEBIT', '1'), line('CREDIT', '1')], { kind: 'REVERSAL' }),
      'invalid',
      ['kind'],
    ],
    [
      'unknown kind and source',
      entry([line('DEBIT', '1'), line('CREDIT', '1')], {
        kind: 'GIFT' as 'REVERSAL',
        source: { type: 'INVOICE' as 'CASH', id: 1.5 },
      }),
      'invalid',
      ['kind', 'source.type', 'source.id'],
    ],
    [
      'impossible date',
      entry([line('DEBIT', '1'), line('CREDIT', '1')], { effectiveDate: '2026-02-29' }),
      'invalid',
      ['effectiveDate'],
    ],
    [
      'memo too long',
      entry([line('DEBIT', '1', { memo: 'm'.repeat(1001) }), line('CREDIT', '1')], { memo: 'm'.repeat(1001) }),
      'invalid',
      ['memo', 'lines[0].memo'],
    ],
  ]
  for (const [name, input, reason, fields] of cases) {
    test(name, () => {
      const r = checkEntry(input)
      assert.equal(r.ok, false)
      if (r.ok) return
      assert.equal(r.reason, reason)
      assert.deepEqual(r.errors.map((e) => e.field).toSorted(), fields.toSorted())
    })
  }

  test('reverse() may check a REVERSAL', () => {
    assert.ok(
      checkEntry(entry([line('DEBIT', '1'), line('CREDIT', '1')], { kind: 'REVERSAL' }), { allowReversal: true }).ok,
    )
  })
})

describe('entry kinds and the sources they record', () => {
  // Written down from money.md "Postings" and docs/decisions/0012, independently of the table in code.
  const expected: Array<[EntryKind, SourceType[]]> = [
    ['CONTRACT_FINALIZED', ['CONTRACT']],
    ['CONTRACT_REFINALIZED', ['CONTRACT']],
    ['CONTRACT_RERATED', ['CONTRACT']],
    ['CONTRACT_CANCELLED', ['CANCELLATION']],
    ['CANCEL_REVERSED', ['CANCELLATION']],
    ['EARNINGS_RECOGNIZED', ['PROCESS']],
    ['CLAIM_APPROVED', ['CLAIM']],
    ['CLAIM_RELEASED', ['CLAIM']],
    ['CLAIM_PAID', ['CLAIM']],
    ['CASH_RECEIVED', ['CASH']],
    ['CASH_APPLIED', ['CASH']],
    ['CASH_DISBURSED', ['CASH']],
    ['TRANSFER_FEE', ['TRANSFER']],
    ['REVERSAL', [...SOURCE_TYPES]],
  ]
  test('every kind is declared once, with its posting', () => {
    assert.deepEqual(ENTRY_KINDS.toSorted(), expected.map(([k]) => k).toSorted())
    for (const kind of ENTRY_KINDS) assert.ok(ENTRY_KIND_RULES[kind].posting.length > 0, kind)
  })
  for (const [kind, sources] of expected) {
    for (const type of SOURCE_TYPES) {
      const allowed = sources.includes(type)
      test(`${kind} from ${type}: ${allowed ? 'accepted' : 'refused'}`, () => {
        assert.equal(kindRecords(kind, type), allowed)
        if (kind === 'REVERSAL') return
        const r = checkEntry(entry([line('DEBIT', '1'), line('CREDIT', '1')], { kind, source: { type, id: 3 } }))
        assert.equal(r.ok, allowed)
        if (!r.ok)
          assert.deepEqual(
            r.errors.map((e) => `${e.field}:${e.code}`),
            ['source.type:not_allowed'],
          )
      })
    }
  }
  test('a reversal keeps its original source, whatever it is', () => {
    for (const type of SOURCE_TYPES) {
      const r = checkEntry(
        entry([line('DEBIT', '1'), line('CREDIT', '1')], { kind: 'REVERSAL', source: { type, id: 3 } }),
        {
          allowReversal: true,
        },
      )
      assert.ok(r.ok, type)
    }
  })
})

describe('account purposes', () => {
  const expected: Array<[AccountPurpose, 'DEBIT' | 'CREDIT']> = [
    ['DEALER_RECEIVABLE', 'DEBIT'],
    ['DISBURSEMENT_PAYABLE', 'CREDIT'],
    ['ADMINISTRATOR_REVENUE', 'CREDIT'],
    ['UNEARNED_REVENUE', 'CREDIT'],
    ['CASH', 'DEBIT'],
    ['UNAPPLIED_CASH', 'CREDIT'],
    ['CLAIM_PAYABLE', 'CREDIT'],
    ['CLAIM_EXPENSE', 'DEBIT'],
    ['REFUND_PAYABLE', 'CREDIT'],
    ['SALES_TAX_PAYABLE', 'CREDIT'],
  ]
  test('the purposes are exactly these', () =>
    assert.deepEqual(Object.keys(ACCOUNT_PURPOSES).toSorted(), expected.map(([p]) => p).toSorted()))
  for (const [purpose, side] of expected) {
    test(`${purpose} increases on the ${side.toLowerCase()} side, and a line may post to it`, () => {
      assert.equal(ACCOUNT_PURPOSES[purpose].normalSide, side)
      // An increase on its normal side, balanced by the same amount on the other side of another account.
      const other: AccountPurpose = side === 'DEBIT' ? 'DISBURSEMENT_PAYABLE' : 'DEALER_RECEIVABLE'
      const r = checkEntry(
        entry([
          line(side, '12.34', { purpose }),
          line(side === 'DEBIT' ? 'CREDIT' : 'DEBIT', '12.34', { purpose: other }),
        ]),
      )
      assert.ok(r.ok, JSON.stringify(r))
      assert.equal(
        balanceOf(purpose, side === 'DEBIT' ? d('12.34') : d(0), side === 'CREDIT' ? d('12.34') : d(0)).toString(),
        '12.34',
      )
    })
  }
})

describe('isCalendarDate', () => {
  const cases: Array<[unknown, boolean]> = [
    ['2026-01-31', true],
    ['2028-02-29', true],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2026-02-29', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['2026-01-01T00:00:00Z', false],
    [20260101, false],
    [null, false],
  ]
  for (const [value, expected] of cases)
    test(`${JSON.stringify(value)} → ${expected}`, () => assert.equal(isCalendarDate(value), expected))
})

describe('sides and balances', () => {
  test('reversalLines swaps every side and keeps the rest', () => {
    const lines = [
      { side: 'DEBIT' as const, amount: d(3), code: 'A' },
      { side: 'CREDIT' as const, amount: d(3), code: 'B' },
    ]
    assert.deepEqual(
      reversalLines(lines).map((l) => [l.side, l.amount.toString(), l.code]),
      [
        ['CREDIT', '3', 'A'],
        ['DEBIT', '3', 'B'],
      ],
    )
  })

  const deltas: Array<[string, 'DEBIT' | 'CREDIT', string, [string, string] | undefined]> = [
    ['increase of a payable', 'CREDIT', '25.50', ['CREDIT', '25.5']],
    ['decrease of a payable', 'CREDIT', '-25.50', ['DEBIT', '25.5']],
    ['decrease of a receivable', 'DEBIT', '-0.01', ['CREDIT', '0.01']],
    ['no change', 'DEBIT', '0', undefined],
  ]
  for (const [name, side, change, expected] of deltas) {
    test(`deltaLine: ${name}`, () => {
      const l = deltaLine({ accountHolderId: 1, purpose: 'DISBURSEMENT_PAYABLE', side }, d(change))
      assert.deepEqual(l && [l.side, new Decimal(l.amount).toString()], expected)
    })
  }

  const balances: Array<[AccountPurpose, string, string, string]> = [
    ['DEALER_RECEIVABLE', '100', '40', '60'],
    ['DISBURSEMENT_PAYABLE', '40', '100', '60'],
    ['ADMINISTRATOR_REVENUE', '10', '0', '-10'],
    ['CASH', '0', '0', '0'],
  ]
  for (const [purpose, debit, credit, expected] of balances) {
    test(`balanceOf ${purpose} ${debit}/${credit} → ${expected}`, () =>
      assert.equal(balanceOf(purpose, d(debit), d(credit)).toString(), expected))
  }

  test('every purpose has a normal side and a description', () => {
    for (const [name, p] of Object.entries(ACCOUNT_PURPOSES)) {
      assert.match(name, /^[A-Z][A-Z_]{0,62}$/)
      assert.ok(p.normalSide === 'DEBIT' || p.normalSide === 'CREDIT')
      assert.ok(p.description.length > 0)
    }
  })
})

describe('property: an amount split by largest remainder always makes a balanced entry', () => {
  test('dealer cost debited, its allocation over payees credited', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_00 }),
        fc
          .array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 12 })
          .filter((ws) => ws.some((w) => w > 0)),
        (cents, weights) => {
          const total = d(cents).dividedBy(100)
          const parts = allocate(
            total,
            weights.map((w) => d(w)),
          )
          const lines: LedgerLineInput[] = [
            line('DEBIT', total),
            ...parts.map((p, i) => line('CREDIT', p, { accountHolderId: i + 1, disbursementCode: `D${i}` })),
          ]
          const r = checkEntry(entry(lines))
          assert.ok(r.ok, JSON.stringify(r))
          const t = totals(r.lines)
          assert.ok(t.debit.equals(t.credit))
          assert.ok(t.debit.equals(total))
          assert.ok(sumMoney(r.lines.map((l) => l.amount)).equals(total.times(2)))
          // Reversing balances too, and nets every account to zero.
          const reversed = reversalLines(r.lines)
          const rt = totals(reversed)
          assert.ok(rt.debit.equals(t.credit) && rt.credit.equals(t.debit))
        },
      ),
      { numRuns: 300 },
    )
  })
})
