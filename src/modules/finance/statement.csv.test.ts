// The statement's CSV rows (docs/statements.md "CSV"): amounts as numbers with 2 decimals and `-` for
// negatives (a payee's balance is negative: the administrator owes it), never behind the formula
// guard that texts starting with = + - @ get; texts quoted when they hold a comma, a quote or a break.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { csvBalanceRow, csvField, csvLineRow, type StatementLine } from './statement.csv.ts'

const line = (over: Partial<StatementLine>): StatementLine => ({
  effectiveDate: '2026-06-02',
  kind: 'PAYOUT',
  sourceType: 'PAYOUT_RUN',
  sourceId: 3,
  entryId: 40,
  lineNo: 2,
  purpose: 'DISBURSEMENT_PAYABLE',
  contractNumber: null,
  disbursementCode: null,
  memo: null,
  debitCents: 0,
  creditCents: 0,
  balanceCents: 0,
  ...over,
})

test('amounts are written as numbers, negatives with a bare minus', () => {
  const cases: Array<[string, StatementLine, string]> = [
    [
      'a payee owed: negative balance',
      line({ creditCents: 61_000, balanceCents: -61_000 }),
      '2026-06-02,PAYOUT,PAYOUT_RUN,3,40,2,DISBURSEMENT_PAYABLE,,,,0.00,610.00,-610.00\r\n',
    ],
    [
      'a cent below zero',
      line({ debitCents: 5, balanceCents: -1 }),
      '2026-06-02,PAYOUT,PAYOUT_RUN,3,40,2,DISBURSEMENT_PAYABLE,,,,0.05,0.00,-0.01\r\n',
    ],
    [
      'a memo starting with a minus is still guarded, one with a comma quoted',
      line({ memo: '-cash 5, returned', debitCents: 1_250, balanceCents: 1_250 }),
      `2026-06-02,PAYOUT,PAYOUT_RUN,3,40,2,DISBURSEMENT_PAYABLE,,,"'-cash 5, returned",12.50,0.00,12.50\r\n`,
    ],
  ]
  for (const [name, l, expected] of cases) assert.equal(csvLineRow(l), expected, name)
  assert.equal(
    csvBalanceRow('OPENING_BALANCE', '2026-06-01', -123_456),
    '2026-06-01,OPENING_BALANCE,,,,,,,,,,,-1234.56\r\n',
  )
  assert.equal(csvBalanceRow('CLOSING_BALANCE', '2026-06-30', 0), '2026-06-30,CLOSING_BALANCE,,,,,,,,,,,0.00\r\n')
})

test('texts: the formula guard and RFC 4180 quoting', () => {
  const cases: Array<[string | number | null, string]> = [
    [null, ''],
    [42, '42'],
    ['plain', 'plain'],
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@x', "'@x"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
  ]
  for (const [value, expected] of cases) assert.equal(csvField(value), expected, JSON.stringify(value))
})
