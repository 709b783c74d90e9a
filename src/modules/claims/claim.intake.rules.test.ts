// Claim intake, table by table: the loss date (before the sale, in the future, the contract in force
// by its status history: cancelled after the loss, expired, reinstated after a lapse, never sold), the
// odometer (the sale's, an earlier claim's, the expiration odometer by each miles basis) and the
// waiting period in days and miles; every refusal listed at once.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { StatusHistoryPoint } from '../contracts/index.ts'
import {
  expirationOdometerOf,
  firstCoveredDay,
  intakeProblems,
  type IntakeClaim,
  type IntakeContract,
} from './claim.intake.rules.ts'

const point = (toStatus: StatusHistoryPoint['toStatus'], effectiveDate: string): StatusHistoryPoint => ({
  toStatus,
  effectiveDate,
})
// Sold 2026-01-10, in effect the same day (a FINALIZED contract reads ACTIVE from its effective date).
const SOLD = [point('PENDING', '2026-01-10'), point('FINALIZED', '2026-01-10')]

const CONTRACT: IntakeContract = {
  history: SOLD,
  saleDate: '2026-01-10',
  effectiveDate: '2026-01-10',
  expirationDate: '2029-01-10',
  saleOdometer: 20_000,
  expirationOdometer: 56_000,
  termMiles: 36_000,
  milesBasis: 'FROM_SALE_ODOMETER',
  waitingPeriodDays: 30,
  waitingPeriodMiles: 1_000,
}
const CLAIM: IntakeClaim = {
  lossDate: '2026-06-01',
  odometer: 30_000,
  today: '2026-06-03',
  earlierClaimsMaxOdometer: null,
}

type Row = [string, Partial<IntakeClaim>, Partial<IntakeContract>, string[]]

function check(rows: Row[]) {
  for (const [name, claim, contract, expected] of rows)
    it(`${name}: ${expected.length === 0 ? 'taken' : expected.join(', ')}`, () => {
      const errors = intakeProblems({ ...CONTRACT, ...contract }, { ...CLAIM, ...claim })
      assert.deepEqual(
        errors.map((e) => `${e.field} ${e.code}`),
        expected,
      )
      for (const e of errors) assert.ok(e.message.length > 0)
    })
}

describe('the loss date', () => {
  check([
    ['in force, past the waiting period', {}, {}, []],
    ['not a date', { lossDate: '2026-02-30' }, {}, ['lossDate invalid_format']],
    ['before the sale', { lossDate: '2026-01-09' }, {}, ['lossDate before_sale_date']],
    ['in the future', { lossDate: '2026-06-04' }, {}, ['lossDate in_future']],
    ['today', { lossDate: '2026-06-03' }, {}, []],
    [
      'after the sale but before the effective date',
      { lossDate: '2026-01-15' },
      { effectiveDate: '2026-01-20', history: [point('PENDING', '2026-01-10'), point('FINALIZED', '2026-01-10')] },
      ['lossDate before_effective_date'],
    ],
    [
      'after the expiration date',
      { lossDate: '2029-01-11', today: '2029-02-01', odometer: 50_000 },
      { history: [...SOLD, point('ACTIVE', '2026-01-10'), point('EXPIRED', '2029-01-11')] },
      ['lossDate after_expiration_date'],
    ],
    [
      'expired, a loss before the expiry: claimable',
      { lossDate: '2029-01-10', today: '2029-03-01', odometer: 50_000 },
      { history: [...SOLD, point('ACTIVE', '2026-01-10'), point('EXPIRED', '2029-01-11')] },
      [],
    ],
    [
      'cancelled after the loss: claimable',
      { lossDate: '2026-07-15', today: '2026-09-01' },
      { history: [...SOLD, point('CANCELLED', '2026-08-01')] },
      [],
    ],
    [
      'cancelled before the loss',
      { lossDate: '2026-08-15', today: '2026-09-01' },
      { history: [...SOLD, point('CANCELLED', '2026-08-01')] },
      ['lossDate contract_not_in_force'],
    ],
    [
      'cancelled as of the loss date',
      { lossDate: '2026-08-01', today: '2026-09-01' },
      { history: [...SOLD, point('CANCELLED', '2026-08-01')] },
      ['lossDate contract_not_in_force'],
    ],
    [
      'reinstated after a lapse: a loss in the lapse',
      { lossDate: '2026-08-15', today: '2026-10-01' },
      { history: [...SOLD, point('CANCELLED', '2026-08-01'), point('ACTIVE', '2026-09-01')] },
      ['lossDate contract_not_in_force'],
    ],
    [
      'reinstated after a lapse: a loss after it',
      { lossDate: '2026-09-01', today: '2026-10-01' },
      { history: [...SOLD, point('CANCELLED', '2026-08-01'), point('ACTIVE', '2026-09-01')] },
      [],
    ],
    [
      'reinstated as of the cancel date: never lapsed',
      { lossDate: '2026-08-15', today: '2026-10-01' },
      { history: [...SOLD, point('CANCELLED', '2026-08-01'), point('ACTIVE', '2026-08-01')] },
      [],
    ],
    ['never finalized', {}, { history: [point('PENDING', '2026-01-10')] }, ['lossDate contract_not_in_force']],
    [
      'voided',
      {},
      { history: [point('PENDING', '2026-01-10'), point('VOIDED', '2026-01-11')] },
      ['lossDate contract_not_in_force'],
    ],
    ['no history at all', {}, { history: [] }, ['lossDate contract_not_in_force']],
  ])
  it('a refusal for the status says what the contract was then', () => {
    const [e] = intakeProblems(
      { ...CONTRACT, history: [...SOLD, point('CANCELLED', '2026-05-01')] },
      { ...CLAIM, lossDate: '2026-05-02' },
    )
    assert.match(e!.message, /not in force on 2026-05-02: it was CANCELLED then/)
  })
})

describe('the waiting period', () => {
  check([
    // 2026-01-10 + 30 days = 2026-02-09; 20,000 + 1,000 = 21,000.
    ['the day before it ends', { lossDate: '2026-02-08', odometer: 25_000 }, {}, ['lossDate within_waiting_period']],
    ['the day it ends', { lossDate: '2026-02-09', odometer: 25_000 }, {}, []],
    ['a mile short', { odometer: 20_999 }, {}, ['odometer within_waiting_period']],
    ['the mile it ends', { odometer: 21_000 }, {}, []],
    [
      'both: each refused',
      { lossDate: '2026-01-20', odometer: 20_500 },
      {},
      ['lossDate within_waiting_period', 'odometer within_waiting_period'],
    ],
    [
      'days from the effective date, not the sale',
      { lossDate: '2026-02-12', odometer: 25_000 },
      { effectiveDate: '2026-01-20' },
      ['lossDate within_waiting_period'],
    ],
    ['none', { lossDate: '2026-01-10', odometer: 20_000 }, { waitingPeriodDays: 0, waitingPeriodMiles: 0 }, []],
    [
      'miles from the sale odometer on a FROM_ZERO plan too',
      { odometer: 812 },
      { saleOdometer: 12, expirationOdometer: null, milesBasis: 'FROM_ZERO' },
      ['odometer within_waiting_period'],
    ],
  ])
  it('firstCoveredDay', () => {
    assert.equal(firstCoveredDay(CONTRACT), '2026-02-09')
    assert.equal(firstCoveredDay({ effectiveDate: '2028-02-15', waitingPeriodDays: 30 }), '2028-03-16')
  })
})

describe('the odometer', () => {
  check([
    ['below the sale odometer', { odometer: 19_999 }, {}, ['odometer below_sale_odometer']],
    [
      "below an earlier claim's",
      { odometer: 29_999, earlierClaimsMaxOdometer: 30_000 },
      {},
      ['odometer below_earlier_claim_odometer'],
    ],
    ["at an earlier claim's", { odometer: 30_000, earlierClaimsMaxOdometer: 30_000 }, {}, []],
    ['at the expiration odometer', { odometer: 56_000 }, {}, ['odometer at_or_above_expiration_odometer']],
    ['a mile below it', { odometer: 55_999 }, {}, []],
    [
      'FROM_ZERO: the term miles are the limit',
      { odometer: 36_000 },
      { saleOdometer: 12, expirationOdometer: 99_999, milesBasis: 'FROM_ZERO', waitingPeriodMiles: 0 },
      ['odometer at_or_above_expiration_odometer'],
    ],
    [
      'FROM_ZERO, a mile below',
      { odometer: 35_999 },
      { saleOdometer: 12, expirationOdometer: null, milesBasis: 'FROM_ZERO' },
      [],
    ],
    ['unlimited miles', { odometer: 500_000 }, { termMiles: 0, expirationOdometer: null }, []],
    ['missing when the coverage reads miles', { odometer: null }, {}, ['odometer required']],
    [
      'missing on unlimited miles and no waiting miles',
      { odometer: null },
      { termMiles: 0, expirationOdometer: null, waitingPeriodMiles: 0 },
      [],
    ],
    ['negative', { odometer: -1 }, {}, ['odometer out_of_range']],
    ['not whole', { odometer: 30_000.5 }, {}, ['odometer out_of_range']],
    ['the sale odometer unknown: only the expiration odometer reads it', { odometer: 100 }, { saleOdometer: null }, []],
  ])
  it('expirationOdometerOf', () => {
    assert.equal(expirationOdometerOf(CONTRACT), 56_000)
    assert.equal(expirationOdometerOf({ ...CONTRACT, milesBasis: 'FROM_ZERO' }), 36_000)
    assert.equal(expirationOdometerOf({ ...CONTRACT, termMiles: 0 }), null)
  })
})

describe('every refusal at once', () => {
  check([
    [
      'a loss before the sale at an odometer below it',
      { lossDate: '2025-12-31', odometer: 10 },
      {},
      ['lossDate before_sale_date', 'odometer below_sale_odometer'],
    ],
    [
      'a loss after a cancel at an odometer at the limit',
      { lossDate: '2026-08-15', today: '2026-09-01', odometer: 60_000 },
      { history: [...SOLD, point('CANCELLED', '2026-08-01')] },
      ['lossDate contract_not_in_force', 'odometer at_or_above_expiration_odometer'],
    ],
  ])
})
