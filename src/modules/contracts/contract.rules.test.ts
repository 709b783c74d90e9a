import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import {
  changedMembers,
  checkCustomFields,
  checkEdit,
  CONTRACT_EVENTS,
  CONTRACT_STATUSES,
  currentStatus,
  differenceLines,
  editedParties,
  finalizationLines,
  inForceOn,
  lockedAgainst,
  quoteDisagreements,
  retailProblem,
  statusEventType,
  statusForEvent,
  statusOn,
  transition,
  type ContractEdit,
  type ContractEvent,
  type EditFacts,
  type CustomFieldRule,
  type PostingLine,
  type StatusHistoryPoint,
  type TransitionFacts,
} from './contract.rules.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'

const FACTS: TransitionFacts = {
  openHolds: 0,
  effectiveDate: '2026-11-01',
  expirationDate: '2030-11-01',
  today: '2026-11-21',
  expirationOdometer: 90000,
  // What the history says a cancelled contract was before its cancellation.
  statusBeforeCancel: 'ACTIVE',
}

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
      REINSTATE: 'contract_state_conflict',
    },
    FINALIZED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'FINALIZED',
      ACTIVATE: 'ACTIVE',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'CANCELLED',
      REINSTATE: 'contract_state_conflict',
    },
    ACTIVE: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'ACTIVE',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_not_expired',
      CANCEL: 'CANCELLED',
      REINSTATE: 'contract_state_conflict',
    },
    EXPIRED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'contract_state_conflict',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      // As of today, which is on or before the expiration date.
      CANCEL: 'CANCELLED',
      REINSTATE: 'contract_state_conflict',
    },
    CANCELLED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'contract_state_conflict',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'contract_state_conflict',
      REINSTATE: 'ACTIVE',
    },
    VOIDED: {
      EDIT: 'contract_state_conflict',
      FINALIZE: 'contract_state_conflict',
      REFINALIZE: 'contract_state_conflict',
      ACTIVATE: 'contract_state_conflict',
      VOID: 'contract_state_conflict',
      EXPIRE: 'contract_state_conflict',
      CANCEL: 'contract_state_conflict',
      REINSTATE: 'contract_state_conflict',
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
  const outcome = (r: ReturnType<typeof transition>) => (r.ok ? r.to : r.code)
  const expiries: Array<[string, Partial<TransitionFacts>, string]> = [
    ['on the expiration date, no reading', { today: '2030-11-01' }, 'contract_not_expired'],
    ['the day after, no reading', { today: '2030-11-02' }, 'EXPIRED'],
    ['a reading below the expiration odometer', { odometer: 89999 }, 'contract_not_expired'],
    ['a reading at the expiration odometer', { odometer: 90000 }, 'EXPIRED'],
    ['a reading past it', { odometer: 120000 }, 'EXPIRED'],
    ['a reading, no mileage limit', { odometer: 500000, expirationOdometer: null }, 'contract_not_expired'],
    ['no reading, no mileage limit, by date', { expirationOdometer: null, today: '2031-01-01' }, 'EXPIRED'],
    ['a null reading', { odometer: null }, 'contract_not_expired'],
  ]
  for (const [name, facts, expected] of expiries)
    test(`EXPIRE by date or mileage: ${name} → ${expected}`, () =>
      assert.equal(outcome(transition('ACTIVE', 'EXPIRE', { ...FACTS, ...facts })), expected))
  const lateCancels: Array<[string, Partial<TransitionFacts>, string]> = [
    ['cancel date before the expiration date', { today: '2031-02-01', eventDate: '2030-06-15' }, 'CANCELLED'],
    ['cancel date on the expiration date', { today: '2031-02-01', eventDate: '2030-11-01' }, 'CANCELLED'],
    [
      'cancel date after the expiration date',
      { today: '2031-02-01', eventDate: '2030-11-02' },
      'contract_cancel_after_expiration',
    ],
    ['no cancel date: today, after the expiration date', { today: '2031-02-01' }, 'contract_cancel_after_expiration'],
  ]
  for (const [name, facts, expected] of lateCancels)
    test(`CANCEL of an EXPIRED contract: ${name} → ${expected}`, () =>
      assert.equal(outcome(transition('EXPIRED', 'CANCEL', { ...FACTS, ...facts })), expected))
  test('CANCEL of an ACTIVE contract is not bound by the expiration date (unchanged)', () =>
    assert.equal(outcome(transition('ACTIVE', 'CANCEL', { ...FACTS, eventDate: '2031-01-01' })), 'CANCELLED'))
  const reinstatements: Array<[ContractStatus | null | undefined, string]> = [
    ['FINALIZED', 'FINALIZED'],
    ['ACTIVE', 'ACTIVE'],
    ['EXPIRED', 'EXPIRED'],
    [null, 'contract_state_conflict'],
    [undefined, 'contract_state_conflict'],
    ['PENDING', 'contract_state_conflict'],
    ['VOIDED', 'contract_state_conflict'],
  ]
  for (const [before, expected] of reinstatements)
    test(`REINSTATE of a contract that was ${before} before its cancellation → ${expected}`, () =>
      assert.equal(outcome(transition('CANCELLED', 'REINSTATE', { ...FACTS, statusBeforeCancel: before })), expected))
  const judged: Array<[ContractStatus, ContractEvent, string, ContractStatus]> = [
    ['FINALIZED', 'CANCEL', '2026-11-21', 'ACTIVE'],
    ['FINALIZED', 'EXPIRE', '2026-11-21', 'ACTIVE'],
    ['FINALIZED', 'ACTIVATE', '2026-11-21', 'FINALIZED'],
    ['FINALIZED', 'CANCEL', '2026-10-31', 'FINALIZED'],
    ['PENDING', 'VOID', '2026-11-21', 'PENDING'],
    ['CANCELLED', 'REINSTATE', '2026-11-21', 'CANCELLED'],
  ]
  for (const [stored, event, today, from] of judged)
    test(`${event} on a contract stored ${stored} (effective 2026-11-01) on ${today} is judged from ${from}`, () =>
      assert.equal(statusForEvent(stored, event, '2026-11-01', today), from))
  test('the outbox and audit name of each recorded event', () =>
    assert.deepEqual(
      (['CREATE', 'FINALIZE', 'ACTIVATE', 'VOID', 'EXPIRE', 'CANCEL', 'REINSTATE'] as const).map(statusEventType),
      [
        'contract.created',
        'contract.finalized',
        'contract.activated',
        'contract.voided',
        'contract.expired',
        'contract.cancelled',
        'contract.reinstated',
      ],
    ))
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

describe('the status on a date, from the history', () => {
  const contract = { effectiveDate: '2026-11-01', expirationDate: '2030-11-01' }
  const point = (toStatus: ContractStatus, effectiveDate: string): StatusHistoryPoint => ({ toStatus, effectiveDate })
  const created = point('PENDING', '2026-10-30')
  const finalized = point('FINALIZED', '2026-11-02')
  const activated = point('ACTIVE', '2026-11-01')
  const sold = [created, finalized, activated]
  // Each history in the order recorded; the loss date; the status then; in force then.
  const cases: Array<[string, StatusHistoryPoint[], string, ContractStatus | null, boolean]> = [
    ['before the contract existed', sold, '2026-10-01', null, false],
    ['pending on the sale date', sold, '2026-10-30', 'PENDING', false],
    ['finalized after its effective date: in force from the effective date', sold, '2026-11-01', 'ACTIVE', true],
    ['an active contract mid-term', sold, '2028-05-05', 'ACTIVE', true],
    ['on the expiration date', sold, '2030-11-01', 'ACTIVE', true],
    ['after the expiration date, expiry not yet recorded', sold, '2030-11-02', 'ACTIVE', false],
    [
      'finalized before its effective date, activation not recorded: FINALIZED before it',
      [created, point('FINALIZED', '2026-10-30')],
      '2026-10-31',
      'FINALIZED',
      false,
    ],
    [
      'finalized before its effective date, activation not recorded: reads ACTIVE from it',
      [created, point('FINALIZED', '2026-10-30')],
      '2026-11-01',
      'ACTIVE',
      true,
    ],
    ['never finalized', [created], '2027-01-01', 'PENDING', false],
    ['voided', [created, point('VOIDED', '2026-11-03')], '2027-01-01', 'VOIDED', false],
    [
      'cancelled after the loss: in force on the loss date',
      [...sold, point('CANCELLED', '2027-02-01')],
      '2027-01-10',
      'ACTIVE',
      true,
    ],
    ['cancelled before the loss', [...sold, point('CANCELLED', '2027-02-01')], '2027-02-10', 'CANCELLED', false],
    ['cancel date on the loss date', [...sold, point('CANCELLED', '2027-02-01')], '2027-02-01', 'CANCELLED', false],
    ['expired by mileage before the loss', [...sold, point('EXPIRED', '2028-05-01')], '2028-06-01', 'EXPIRED', false],
    ['expired by mileage after the loss', [...sold, point('EXPIRED', '2028-05-01')], '2028-04-30', 'ACTIVE', true],
    [
      'reinstated as of the cancel date: in force throughout',
      [...sold, point('CANCELLED', '2027-02-01'), point('ACTIVE', '2027-02-01')],
      '2027-02-15',
      'ACTIVE',
      true,
    ],
    [
      'reinstated later: a lapse in between',
      [...sold, point('CANCELLED', '2027-02-01'), point('ACTIVE', '2027-03-01')],
      '2027-02-15',
      'CANCELLED',
      false,
    ],
    [
      'reinstated later: in force again after the lapse',
      [...sold, point('CANCELLED', '2027-02-01'), point('ACTIVE', '2027-03-01')],
      '2027-03-01',
      'ACTIVE',
      true,
    ],
    [
      'expired, then cancelled as of a day before the expiry (late total loss): cancelled from that day',
      [...sold, point('EXPIRED', '2030-11-02'), point('CANCELLED', '2030-06-01')],
      '2030-07-01',
      'CANCELLED',
      false,
    ],
    [
      'expired, then cancelled as of a day before the expiry: in force before it',
      [...sold, point('EXPIRED', '2030-11-02'), point('CANCELLED', '2030-06-01')],
      '2030-05-31',
      'ACTIVE',
      true,
    ],
    [
      'expired, then cancelled as of a day before the expiry: cancelled after the expiry too',
      [...sold, point('EXPIRED', '2030-11-02'), point('CANCELLED', '2030-06-01')],
      '2031-01-01',
      'CANCELLED',
      false,
    ],
  ]
  for (const [name, history, date, status, inForce] of cases) {
    test(`${name}: ${status} on ${date}, ${inForce ? '' : 'not '}in force`, () => {
      assert.equal(statusOn(history, date, contract), status)
      assert.equal(inForceOn(history, date, contract), inForce)
    })
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

describe('editing a pending contract', () => {
  const sold: ContractEdit = {
    contractNumber: 'VSC-000001',
    status: 'PENDING',
    quoteId: 'q1',
    rateId: 'r1',
    saleDate: '2026-11-21',
    saleOdometer: 42150,
    vin: '1HGCV1F37LA012345',
    dealerNumber: '10001',
    effectiveDate: '2026-11-21',
    retailPrice: 2000,
    customer: {
      firstName: 'Ana',
      lastName: 'Ruiz',
      address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
    },
    coBuyer: null,
    lienHolderId: null,
    lienHolder: null,
    finance: { monthlyPayment: '350.00' },
    dealNumber: 'D-1',
    taxExempt: false,
    customFields: { fm: 'FM7' },
  }
  const facts: EditFacts = {
    saleDate: '2026-11-21',
    termMonths: 36,
    retailBounds: { suggestedRetailCents: 200000, minRetailCents: 150000, maxRetailCents: 300000, retailLocked: false },
    customFieldRules: [
      { key: 'fm', label: 'F&I manager', type: 'STRING', required: true, unique: false, maxLength: 4 },
    ],
    financed: true,
  }

  const cases: Array<[string, Partial<ContractEdit>, Partial<typeof facts>, string[]]> = [
    ['unchanged', {}, {}, []],
    ['a retail price within the rate', { retailPrice: '2499.99' }, {}, []],
    ['a retail price of 3 places', { retailPrice: 2000.001 }, {}, ['retailPrice:too_precise']],
    ['a retail price that is not an amount', { retailPrice: 'cheap' }, {}, ['retailPrice:invalid_format']],
    ['a retail price above the rate', { retailPrice: 3000.01 }, {}, ['retailPrice:out_of_range']],
    [
      'a locked retail price changed',
      { retailPrice: 1999 },
      { retailBounds: { ...facts.retailBounds, retailLocked: true } },
      ['retailPrice:retail_locked'],
    ],
    ['a custom field checked again', { customFields: { fm: 'TOO-LONG' } }, {}, ['customFields/fm:too_long']],
    [
      'custom fields left out: a required one is missing',
      { customFields: undefined },
      {},
      ['customFields/fm:required'],
    ],
    ['an effective date before the sale', { effectiveDate: '2026-11-20' }, {}, ['effectiveDate:out_of_range']],
    ['an effective date 60 days after the sale', { effectiveDate: '2027-01-20' }, {}, []],
    ['an effective date 61 days after the sale', { effectiveDate: '2027-01-21' }, {}, ['effectiveDate:out_of_range']],
    ['a contract holder without a last name', { customer: { firstName: 'Ana' } }, {}, ['customer:required']],
    ['a company as contract holder', { customer: { companyName: 'Ruiz LLC' } }, {}, []],
    ['a co-buyer without a name', { coBuyer: { emailAddress: 'x@y.example' } }, {}, ['coBuyer:required']],
    ['finance terms added', { finance: { monthlyPayment: 100 } }, { financed: false }, ['finance:not_financed']],
    ['finance terms removed from a financed contract', { finance: null }, {}, []],
    [
      'finance amounts of 3 places',
      { finance: { monthlyPayment: '1.001', balloonAmount: -1, residualValue: null } },
      {},
      ['finance/monthlyPayment:too_precise', 'finance/balloonAmount:out_of_range'],
    ],
    [
      'every problem at once',
      { retailPrice: 1, customFields: {}, effectiveDate: '2026-01-01', customer: {} },
      {},
      ['retailPrice:out_of_range', 'customFields/fm:required', 'effectiveDate:out_of_range', 'customer:required'],
    ],
  ]
  for (const [name, edit, given, expected] of cases) {
    test(name, () => {
      const checked = checkEdit({ ...sold, ...edit }, { ...facts, ...given })
      assert.deepEqual(checked.ok ? [] : checked.errors.map((e) => `${e.field}:${e.code}`), expected)
    })
  }

  test('an accepted edit sets the retail price in cents, the custom fields and the expiration date', () => {
    assert.deepEqual(
      checkEdit({ ...sold, retailPrice: '2100.50', effectiveDate: '2026-12-31', customFields: { fm: ' FM8 ' } }, facts),
      {
        ok: true,
        retailCents: 210050,
        customFields: { fm: 'FM8' },
        expirationDate: '2029-12-31',
      },
    )
  })

  const partyCases: Array<[string, Partial<ContractEdit>, ReturnType<typeof editedParties>]> = [
    ['nothing', {}, { customer: false, lienHolder: 'unchanged' }],
    [
      'the same customer, members in another order',
      { customer: { address: sold.customer.address!, lastName: 'Ruiz', firstName: 'Ana' } },
      { customer: false, lienHolder: 'unchanged' },
    ],
    [
      'another customer',
      { customer: { ...sold.customer, lastName: 'Ruíz' } },
      { customer: true, lienHolder: 'unchanged' },
    ],
    ['a lien holder by id', { lienHolderId: 7 }, { customer: false, lienHolder: 'byId' }],
    [
      'a lien holder by its details',
      { lienHolder: { name: 'First Bank' } },
      { customer: false, lienHolder: 'byDetails' },
    ],
    [
      'no lien holder, said with a null',
      { lienHolderId: undefined, lienHolder: undefined },
      { customer: false, lienHolder: 'unchanged' },
    ],
  ]
  for (const [name, edit, expected] of partyCases) {
    test(`parties: ${name}`, () => assert.deepEqual(editedParties(sold, { ...sold, ...edit }), expected))
  }

  const memberCases: Array<[string, (e: Record<string, unknown>) => void, string[]]> = [
    ['nothing', () => {}, []],
    ['the retail price', (e) => (e.retailPrice = 2100), ['retailPrice']],
    [
      'an equal value in another form of the same JSON',
      (e) => (e.customer = { lastName: 'Ruiz', firstName: 'Ana', address: sold.customer.address }),
      [],
    ],
    ['a member removed (a merge patch null)', (e) => delete e.dealNumber, ['dealNumber']],
    ['a null member left out: the same', (e) => delete e.coBuyer, []],
    ['a member added', (e) => (e.salesPerson = { code: 'S1' }), ['salesPerson']],
  ]
  for (const [name, change, expected] of memberCases) {
    test(`audited members: ${name}`, () => {
      const next = structuredClone(sold) as Record<string, unknown>
      change(next)
      assert.deepEqual(changedMembers(sold, next as ContractEdit), expected)
    })
  }
})

describe('postings', () => {
  const lines = [
    { code: 'RES', group: 'RESERVE', cents: 85000, payeeAccountHolderId: 3 },
    { code: 'ADM', group: 'ADMIN_FEE', cents: 17500, payeeAccountHolderId: 1 },
    { code: 'PCK', group: 'DEALER_PACK', cents: 0, payeeAccountHolderId: 9 },
  ]
  // Account holder 1 is the administrator company: its own lines are deferred (docs/decisions/0012).
  const parties = { dealerId: 9, administratorId: 1 }
  test("finalization: the dealer owes the total, each payee is owed its line, the administrator's is unearned", () => {
    assert.deepEqual(finalizationLines(parties, lines), [
      { accountHolderId: 9, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents: 102500 },
      { accountHolderId: 3, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', cents: 85000, disbursementCode: 'RES' },
      { accountHolderId: 1, purpose: 'UNEARNED_REVENUE', side: 'CREDIT', cents: 17500, disbursementCode: 'ADM' },
    ])
  })
  test('nothing changed: nothing to post', () => {
    const posted = finalizationLines(parties, lines)
    assert.deepEqual(differenceLines(posted, posted), [])
  })
  test('a line raised: only the difference is posted', () => {
    const before = finalizationLines(parties, lines)
    const after = finalizationLines(parties, [
      { ...lines[0]!, cents: 90000 },
      { ...lines[1]!, cents: 18000 },
    ])
    assert.deepEqual(differenceLines(after, before), [
      { accountHolderId: 9, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents: 5500 },
      { accountHolderId: 3, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', cents: 5000, disbursementCode: 'RES' },
      { accountHolderId: 1, purpose: 'UNEARNED_REVENUE', side: 'CREDIT', cents: 500, disbursementCode: 'ADM' },
    ])
  })
  // A contract finalized before the deferral: its administrator line was the administrator's payable.
  const legacy: PostingLine[] = [
    { accountHolderId: 9, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents: 102500 },
    { accountHolderId: 3, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', cents: 85000, disbursementCode: 'RES' },
    { accountHolderId: 1, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', cents: 17500, disbursementCode: 'ADM' },
  ]
  test('an old contract refinalized unchanged: its administrator line moves to unearned, counted once', () => {
    assert.deepEqual(differenceLines(finalizationLines(parties, lines), legacy), [
      { accountHolderId: 1, purpose: 'UNEARNED_REVENUE', side: 'CREDIT', cents: 17500, disbursementCode: 'ADM' },
      { accountHolderId: 1, purpose: 'DISBURSEMENT_PAYABLE', side: 'DEBIT', cents: 17500, disbursementCode: 'ADM' },
    ])
  })
  test('an old contract refinalized after a price change: the move and the difference, the receivable by the difference only', () => {
    const after = finalizationLines(parties, [lines[0]!, { ...lines[1]!, cents: 18000 }])
    const diff = differenceLines(after, legacy)
    assert.deepEqual(diff, [
      { accountHolderId: 9, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', cents: 500 },
      { accountHolderId: 1, purpose: 'UNEARNED_REVENUE', side: 'CREDIT', cents: 18000, disbursementCode: 'ADM' },
      { accountHolderId: 1, purpose: 'DISBURSEMENT_PAYABLE', side: 'DEBIT', cents: 17500, disbursementCode: 'ADM' },
    ])
    // On the books afterwards: exactly what the lines call for, nothing left in the old payable.
    assert.deepEqual(differenceLines(after, [...legacy, ...diff]), [])
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
        const first = finalizationLines(parties, a)
        const second = finalizationLines(parties, b)
        assert.equal(signed(first), 0)
        const diff = differenceLines(second, first)
        assert.equal(signed(diff), 0)
        // Posting the difference on top of the first gives what the second calls for, account by account.
        assert.deepEqual(differenceLines(second, [...first, ...diff]), [])
      }),
    )
  })
})
