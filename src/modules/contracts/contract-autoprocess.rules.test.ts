import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  expiryDue,
  milesLeft,
  pendingDays,
  readingRefusal,
  voidable,
  voidableFrom,
  type ExpiryFacts,
} from './contract-autoprocess.rules.ts'

const base: ExpiryFacts = {
  effectiveDate: '2026-03-10',
  expirationDate: '2029-03-10',
  expirationOdometer: 78150,
  reading: null,
}

test('expiryDue: by date, by mileage, the earlier first, null when neither', () => {
  const rows: Array<[string, Partial<ExpiryFacts>, string, ReturnType<typeof expiryDue>]> = [
    ['in force, no reading', {}, '2027-01-01', null],
    ['on the expiration date it still runs', {}, '2029-03-10', null],
    [
      'the day after: DATE, expired from that day',
      {},
      '2029-03-11',
      { reason: 'DATE', reasons: ['DATE'], expiresOn: '2029-03-11' },
    ],
    [
      'long after: still from the day after the expiration date',
      {},
      '2030-01-01',
      { reason: 'DATE', reasons: ['DATE'], expiresOn: '2029-03-11' },
    ],
    ['a reading below the limit', { reading: { odometer: 78149, readOn: '2026-11-20' } }, '2026-11-27', null],
    [
      'a reading at the limit: MILEAGE from the reading day',
      { reading: { odometer: 78150, readOn: '2026-11-20' } },
      '2026-11-27',
      { reason: 'MILEAGE', reasons: ['MILEAGE'], expiresOn: '2026-11-20' },
    ],
    [
      'a reading read after as-of does not count yet',
      { reading: { odometer: 90000, readOn: '2026-11-20' } },
      '2026-11-19',
      null,
    ],
    [
      'no mileage limit',
      { expirationOdometer: null, reading: { odometer: 999999, readOn: '2026-11-20' } },
      '2026-11-27',
      null,
    ],
    [
      'both: the mileage came first',
      { reading: { odometer: 80000, readOn: '2028-06-01' } },
      '2029-04-01',
      { reason: 'MILEAGE', reasons: ['DATE', 'MILEAGE'], expiresOn: '2028-06-01' },
    ],
    [
      'both: the date came first',
      { reading: { odometer: 80000, readOn: '2029-03-20' } },
      '2029-04-01',
      { reason: 'DATE', reasons: ['DATE', 'MILEAGE'], expiresOn: '2029-03-11' },
    ],
    [
      'a tie is DATE',
      { reading: { odometer: 80000, readOn: '2029-03-11' } },
      '2029-04-01',
      { reason: 'DATE', reasons: ['DATE', 'MILEAGE'], expiresOn: '2029-03-11' },
    ],
    [
      'a reading before the effective date expires it from the effective date',
      { reading: { odometer: 80000, readOn: '2026-03-01' } },
      '2026-04-01',
      { reason: 'MILEAGE', reasons: ['MILEAGE'], expiresOn: '2026-03-10' },
    ],
  ]
  for (const [name, over, asOf, want] of rows) assert.deepEqual(expiryDue({ ...base, ...over }, asOf), want, name)
})

test('milesLeft: the limit less the reading; null without either', () => {
  assert.equal(milesLeft(78150, { odometer: 78410, readOn: '2026-11-20' }), -260)
  assert.equal(milesLeft(78150, { odometer: 45000, readOn: '2026-11-20' }), 33150)
  assert.equal(milesLeft(null, { odometer: 45000, readOn: '2026-11-20' }), null)
  assert.equal(milesLeft(78150, null), null)
})

test('readingRefusal: what a contract keeps as its latest known odometer', () => {
  const contract = { status: 'ACTIVE', effectiveDate: '2026-03-10', current: { odometer: 45000, readOn: '2026-05-20' } }
  const today = '2026-06-01'
  const rows: Array<
    [string, Partial<typeof contract>, { odometer: number; readOn: string }, ReturnType<typeof readingRefusal>]
  > = [
    ['a later reading', {}, { odometer: 46000, readOn: '2026-05-25' }, null],
    ['the same day replaces (a correction)', {}, { odometer: 44000, readOn: '2026-05-20' }, null],
    ['an older day', {}, { odometer: 46000, readOn: '2026-05-19' }, 'older'],
    ['the first reading', { current: null as never }, { odometer: 43000, readOn: '2026-04-01' }, null],
    ['in the future', {}, { odometer: 46000, readOn: '2026-06-02' }, 'future'],
    ['today', {}, { odometer: 46000, readOn: '2026-06-01' }, null],
    [
      'before the effective date',
      { current: null as never },
      { odometer: 43000, readOn: '2026-03-09' },
      'before_effective_date',
    ],
    ['above the bound', {}, { odometer: 9_000_000, readOn: '2026-05-25' }, 'out_of_range'],
    ['negative', {}, { odometer: -1, readOn: '2026-05-25' }, 'out_of_range'],
    ['not a whole number', {}, { odometer: 1.5, readOn: '2026-05-25' }, 'invalid'],
    ['not a date', {}, { odometer: 46000, readOn: '2026-02-30' }, 'invalid'],
    ['a pending contract', { status: 'PENDING' }, { odometer: 46000, readOn: '2026-05-25' }, 'not_in_force'],
    ['a voided contract', { status: 'VOIDED' }, { odometer: 46000, readOn: '2026-05-25' }, 'not_in_force'],
    ['an expired contract keeps readings', { status: 'EXPIRED' }, { odometer: 46000, readOn: '2026-05-25' }, null],
  ]
  for (const [name, over, reading, want] of rows)
    assert.equal(readingRefusal({ ...contract, ...over }, reading, today), want, name)
})

test('voidable: created more than the setting’s days before now', () => {
  const created = new Date('2026-03-20T18:00:00.000Z')
  const rows: Array<[string, number, boolean]> = [
    ['2026-06-18T17:59:59.999Z', 90, false],
    ['2026-06-18T18:00:00.000Z', 90, false],
    ['2026-06-18T18:00:00.001Z', 90, true],
    ['2026-03-21T18:00:00.001Z', 1, true],
  ]
  for (const [now, days, want] of rows) assert.equal(voidable(created, days, new Date(now)), want, `${now} ${days}`)
  assert.equal(voidableFrom(created, 90).toISOString(), '2026-06-18T18:00:00.000Z')
  assert.equal(pendingDays(created, new Date('2026-07-01T00:00:00.000Z')), 102)
  assert.equal(pendingDays(created, new Date('2026-03-01T00:00:00.000Z')), 0)
})
