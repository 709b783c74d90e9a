import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import {
  checkCustomFields,
  CONTRACT_EVENTS,
  CONTRACT_STATUSES,
  currentStatus,
  differenceLines,
  finalizationLines,
  lockedAgainst,
  quoteDisagreements,
  retailProblem,
  transition,
  type ContractEvent,
  type CustomFieldRule,
  type PostingLine,
} from './contract.rules.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'

const FACTS = { openHolds: 0, effectiveDate: '2026-11-01', expirationDate: '2030-11-01', today: '2026-11-21' }

describe('the contract state machine, transition by transition', () => {
  // Every status × event: the expected outcome (a status, or the refusal's code).
  const table: Record<ContractStatus, Record<ContractEvent, ContractStatus | string>> = {
    PENDING: {
      EDIT: 'PENDING',
      FINALIZE: 'FINALIZED',
      REFINALIZE: 'contract_state_conflict',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'VOIDED',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'contract_state_conflict',
    },
    FINALIZED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'FINALIZED',
      ACTIVATE: 'ACTIVE',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'CANCELLED',
    },
    ACTIVE: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'ACTIVE',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_not_expired',
      CANCEL: 'CANCELLED',
    },
    EXPIRED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'contract_state_conflict',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'contract_state_conflict',
    },
    CANCELLED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'contract_state_conflict',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'contract_state_conflict',
    },
    VOIDED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'contract_state_conflict',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'contract_state_conflict',
    },
  }
  for (const status of CONTRACT_STATUSES) {
    for (const event of CONTRACT_EVENTS) {
      const expected = table[status][event]
      test(`${status} + ${event} → ${expected}`, () => {
        const r = transition(status, event, FACTS)
        assert.equal(r.ok ? r.to : r.code, expected)
      })
    }
  }
  test('holds block finalization', () => {
    const r = transition('PENDING', 'FINALIZE', { ...FACTS, openHolds: 2 })
    assert.equal(r.ok ? r.to : r.code, 'contract_on_hold')
  })
  test('activation waits for the effective date', () => {
    const r = transition('FINALIZED', 'ACTIVATE', { ...FACTS, effectiveDate: '2026-12-01' })
    assert.equal(r.ok ? r.to : r.code, 'contract_not_effective')
  })
  test('expiry after the expiration date', () => {
    const r = transition('ACTIVE', 'EXPIRE', { ...FACTS, today: '2030-11-02' })
    assert.equal(r.ok ? r.to : r.code, 'EXPIRED')
  })
  const reads: Array<[ContractStatus, string, string, ContractStatus]> = [
    ['FINALIZED', '2026-11-21', '2026-11-21', 'ACTIVE'],
    ['FINALIZED', '2026-12-01', '2026-11-21', 'FINALIZED'],
    ['PENDING', '2026-11-01', '2026-11-21', 'PENDING'],
    ['CANCELLED', '2026-11-01', '2026-11-21', 'CANCELLED'],
  ]
  for (const [status, effective, today, seen] of reads) {
    test(`a ${status} contract effective ${effective} reads ${seen} on ${today}`, () =>
      assert.equal(currentStatus(status, effective, today), seen))
  }
})

describe('the edit lock', () => {
  const now = new Date('2026-11-21T12:00:00Z')
  const later = new Date('2026-11-21T12:10:00Z')
  const cases: Array<[string, { holder: number | null; expiresAt: Date | null }, number, boolean]> = [
    ['no lock', { holder: null, expiresAt: null }, 7, false],
    ['own lock', { holder: 7, expiresAt: later }, 7, false],
    ["another user's lock", { holder: 8, expiresAt: later }, 7, true],
    ["another user's expired lock", { holder: 8, expiresAt: new Date('2026-11-21T11:59:59Z') }, 7, false],
  ]
  for (const [name, lock, user, blocked] of cases)
    test(name, () => assert.equal(lockedAgainst(lock, user, now), blocked))
})

describe('custom fields', () => {
  const rules: CustomFieldRule[] = [
    { key: 'fm', label: 'F&I manager code', type: 'STRING', required: true, unique: false, maxLength: 4 },
    { key: 'etch', label: 'Etch', type: 'STRING', required: false, unique: true, pattern: '^[A-Z0-9]{8}$' },
    { key: 'keys', label: 'Keys', type: 'INTEGER', required: false, unique: false, min: 1, max: 4 },
    { key: 'fee', label: 'Fee', type: 'MONEY', required: false, unique: false, max: 500 },
    { key: 'delivered', label: 'Delivered', type: 'DATE', required: false, unique: false },
    { key: 'demo', label: 'Demo', type: 'BOOLEAN', required: false, unique: false },
    {
      key: 'brand',
      label: 'Brand',
      type: 'LIST',
      required: false,
      unique: false,
      options: [{ value: 'MICH', label: 'Michelin' }],
    },
  ]
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    [
      'valid values',
      { fm: 'FM7', etch: 'AB12CD34', keys: 2, fee: 99.5, delivered: '2026-11-21', demo: false, brand: 'MICH' },
      [],
    ],
    ['missing required', {}, ['customFields/fm:required']],
    ['blank required counts as missing', { fm: '   ' }, ['customFields/fm:required']],
    ['too long', { fm: 'FM777' }, ['customFields/fm:too_long']],
    ['pattern', { fm: 'A', etch: 'short' }, ['customFields/etch:pattern']],
    ['integer out of range', { fm: 'A', keys: 9 }, ['customFields/keys:out_of_range']],
    ['integer of the wrong type', { fm: 'A', keys: '2' }, ['customFields/keys:invalid_type']],
    ['money too precise', { fm: 'A', fee: 1.234 }, ['customFields/fee:invalid_type']],
    ['impossible date', { fm: 'A', delivered: '2026-02-30' }, ['customFields/delivered:invalid_type']],
    ['boolean as text', { fm: 'A', demo: 'yes' }, ['customFields/demo:invalid_type']],
    ['value not in the list', { fm: 'A', brand: 'PIRELLI' }, ['customFields/brand:not_allowed']],
    ['unknown field', { fm: 'A', color: 'red' }, ['customFields/color:unknown_field']],
    [
      'every problem at once',
      { keys: 0, brand: 'X', extra: 1 },
      [
        'customFields/extra:unknown_field',
        'customFields/fm:required',
        'customFields/keys:out_of_range',
        'customFields/brand:not_allowed',
      ],
    ],
  ]
  for (const [name, given, expected] of cases) {
    test(name, () =>
      assert.deepEqual(
        checkCustomFields(rules, given).errors.map((e) => `${e.field}:${e.code}`),
        expected,
      ),
    )
  }
  test('strings are trimmed', () => assert.equal(checkCustomFields(rules, { fm: ' FM7 ' }).values.fm, 'FM7'))
})

describe('agreement with the quote', () => {
  const quoted = {
    vin: '1HGCV1F37LA012345',
    odometer: 42150,
    saleDate: '2026-11-21',
    assetType: 'AUTO',
    vehicleCondition: 'USED',
    amountFinanced: '24000',
  }
  const cases: Array<[string, Parameters<typeof quoteDisagreements>[1], string[]]> = [
    [
      'the same facts',
      { vin: '1hgcv1f37la012345', saleOdometer: 42150, saleDate: '2026-11-21', amountFinanced: 24000 },
      [],
    ],
    ["left out facts are the quote's", {}, []],
    ['another VIN', { vin: '4T1B11HK8KU123456' }, ['vehicle/vin:differs_from_quote']],
    ['another odometer', { saleOdometer: 42151 }, ['saleOdometer:differs_from_quote']],
    ['another sale date', { saleDate: '2026-11-20' }, ['saleDate:differs_from_quote']],
    ['another amount financed', { amountFinanced: '24000.01' }, ['finance/amountFinanced:differs_from_quote']],
    ['a fact the quote did not have', { msrp: 31200 }, ['vehicle/msrp:not_quoted']],
  ]
  for (const [name, stated, expected] of cases) {
    test(name, () =>
      assert.deepEqual(
        quoteDisagreements(quoted, stated).map((e) => `${e.field}:${e.code}`),
        expected,
      ),
    )
  }
})

describe('the retail price', () => {
  const open = { suggestedRetailCents: 200000, minRetailCents: 150000, maxRetailCents: 300000, retailLocked: false }
  const locked = { ...open, retailLocked: true }
  const cases: Array<[string, number, typeof open, string | undefined]> = [
    ['within the limits', 250000, open, undefined],
    ['at the minimum', 150000, open, undefined],
    ['at the maximum', 300000, open, undefined],
    ['below the minimum', 149999, open, 'out_of_range'],
    ['above the maximum', 300001, open, 'out_of_range'],
    ['a locked retail given exactly', 200000, locked, undefined],
    ['a locked retail changed', 199999, locked, 'retail_locked'],
  ]
  for (const [name, cents, rate, code] of cases) test(name, () => assert.equal(retailProblem(cents, rate)?.code, code))
})

describe('postings', () => {
  const lines = [
    { code: 'RES', group: 'RESERVE', cents: 85000, payeeAccountHolderId: 3 },
    { code: 'ADM', group: 'ADMIN_FEE', cents: 17500, payeeAccountHolderId: 1 },
    { code: 'PCK', group: 'DEALER_PACK', cents: 0, payeeAccountHolderId: 9 },
  ]
  test('finalization: the dealer owes the total, each payee is owed its line', () => {
    assert.deepEqual(finalizationLines(9, lines), [
      { accountHolderId: 9, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents: 102500 },
      { accountHolderId: 3, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', cents: 85000, disbursementCode: 'RES' },
      { accountHolderId: 1, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', cents: 17500, disbursementCode: 'ADM' },
    ])
  })
  test('nothing changed: nothing to post', () => {
    const posted = finalizationLines(9, lines)
    assert.deepEqual(differenceLines(posted, posted), [])
  })
  test('a line raised: only the difference is posted', () => {
    const before = finalizationLines(9, lines)
    const after = finalizationLines(9, [{ ...lines[0]!, cents: 90000 }, lines[1]!])
    assert.deepEqual(differenceLines(after, before), [
      { accountHolderId: 9, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents: 5000 },
      { accountHolderId: 3, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', cents: 5000, disbursementCode: 'RES' },
    ])
  })
  const signed = (ls: PostingLine[]) => ls.reduce((n, l) => n + (l.side === 'DEBIT' ? l.cents : -l.cents), 0)
  test('property: postings and their differences always balance', () => {
    const arbLines = fc.array(
      fc.record({
        code: fc.constantFrom('RES', 'ADM', 'COM', 'PCK'),
        group: fc.constant('X'),
        cents: fc.integer({ min: 0, max: 10_000_000 }),
        payeeAccountHolderId: fc.integer({ min: 1, max: 5 }),
      }),
      { maxLength: 8 },
    )
    fc.assert(
      fc.property(arbLines, arbLines, (a, b) => {
        const first = finalizationLines(9, a)
        const second = finalizationLines(9, b)
        assert.equal(signed(first), 0)
        const diff = differenceLines(second, first)
        assert.equal(signed(diff), 0)
        // Posting the difference on top of the first gives what the second calls for, account by account.
        assert.deepEqual(differenceLines(second, [...first, ...diff]), [])
      }),
    )
  })
})
