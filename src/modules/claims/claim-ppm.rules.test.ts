// PPM redemption rules (claim-ppm.rules.ts), table by table: when a use falls due, the problems of a
// claim's jobs (unknown service, allowance used, not yet due, with the tolerance), and the schedule
// the ppmservices routes show.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  PPM_TOLERANCE_DAYS,
  PPM_TOLERANCE_MILES,
  ppmDue,
  ppmIsDue,
  ppmRedemptionProblems,
  ppmServiceOf,
  ppmServiceStatuses,
  type PpmService,
} from './claim-ppm.rules.ts'

// The demo plan PPM-NEW's schedule (demo-ratebook.ts).
const OIL: PpmService = {
  code: 'OIL_CHANGE',
  name: 'Synthetic oil and filter change',
  intervalMonths: 6,
  intervalMiles: 7500,
  count: 6,
}
const ROTATION: PpmService = {
  code: 'TIRE_ROTATION',
  name: 'Tire rotation',
  intervalMonths: 6,
  intervalMiles: 7500,
  count: 6,
}
const INSPECTION: PpmService = {
  code: 'MULTI_POINT',
  name: 'Multi-point inspection',
  intervalMonths: 12,
  intervalMiles: 15000,
  count: 3,
}
const MONTHS_ONLY: PpmService = {
  code: 'WIPERS',
  name: 'Wiper blades',
  intervalMonths: 12,
  intervalMiles: null,
  count: 2,
}
const MILES_ONLY: PpmService = { code: 'AIR_FILTER', name: 'Air filter', intervalMiles: 15000, count: 2 }
const ANY_TIME: PpmService = { code: 'DETAIL', name: 'Detailing', count: 1 }
const SCHEDULE = [OIL, ROTATION, INSPECTION, MONTHS_ONLY, MILES_ONLY, ANY_TIME]
const CONTRACT = { effectiveDate: '2026-03-10', saleOdometer: 12 }
const none = new Map<string, number>()

test('the tolerance is 30 days and 500 miles', () => {
  assert.equal(PPM_TOLERANCE_DAYS, 30)
  assert.equal(PPM_TOLERANCE_MILES, 500)
})

describe('ppmDue: the k-th use from the effective date and the sale odometer', () => {
  const cases: Array<
    [string, PpmService, number, { effectiveDate: string; saleOdometer: number | null }, string | null, number | null]
  > = [
    ['first oil change', OIL, 1, CONTRACT, '2026-09-10', 7512],
    ['sixth oil change', OIL, 6, CONTRACT, '2029-03-10', 45012],
    ['month end clamps', OIL, 1, { effectiveDate: '2026-08-31', saleOdometer: 0 }, '2027-02-28', 7500],
    [
      'no sale odometer counts from 0',
      INSPECTION,
      2,
      { effectiveDate: '2026-03-10', saleOdometer: null },
      '2028-03-10',
      30000,
    ],
    ['months only', MONTHS_ONLY, 2, CONTRACT, '2028-03-10', null],
    ['miles only', MILES_ONLY, 1, CONTRACT, null, 15012],
    ['no interval', ANY_TIME, 1, CONTRACT, null, null],
  ]
  for (const [name, service, k, contract, dueDate, dueOdometer] of cases)
    test(name, () => assert.deepEqual(ppmDue(service, k, contract), { dueDate, dueOdometer }))

  test('k below 1 is a caller error', () => {
    assert.throws(() => ppmDue(OIL, 0, CONTRACT), RangeError)
    assert.throws(() => ppmDue(OIL, 1.5, CONTRACT), RangeError)
  })
})

describe('ppmIsDue: the due date or the due odometer, less the tolerance', () => {
  // First oil change: due 2026-09-10 (from 2026-08-11) or at 7,512 miles (from 7,012).
  const cases: Array<[string, PpmService, number, string, number | null, boolean]> = [
    ['on the due date', OIL, 1, '2026-09-10', 3000, true],
    ['30 days early', OIL, 1, '2026-08-11', 3000, true],
    ['31 days early, few miles', OIL, 1, '2026-08-10', 3000, false],
    ['early by date but at the due odometer', OIL, 1, '2026-05-01', 7512, true],
    ['500 miles short of the due odometer', OIL, 1, '2026-05-01', 7012, true],
    ['501 miles short', OIL, 1, '2026-05-01', 7011, false],
    ['no odometer: by date only (early)', OIL, 1, '2026-05-01', null, false],
    ['no odometer: by date only (due)', OIL, 1, '2026-09-01', null, true],
    ['the second use counts twice the interval', OIL, 2, '2026-09-10', 8000, false],
    ['the second use, due by miles', OIL, 2, '2026-09-10', 14512, true],
    ['months only ignores miles', MONTHS_ONLY, 1, '2026-06-01', 999999, false],
    ['months only, due', MONTHS_ONLY, 1, '2027-02-08', null, true],
    ['miles only ignores the date', MILES_ONLY, 1, '2035-01-01', 1000, false],
    ['miles only, due', MILES_ONLY, 1, '2026-04-01', 14512, true],
    ['no interval: any time', ANY_TIME, 1, '2026-03-10', null, true],
  ]
  for (const [name, service, k, lossDate, odometer, due] of cases)
    test(name, () => assert.equal(ppmIsDue(service, k, CONTRACT, lossDate, odometer), due))
})

describe('ppmRedemptionProblems', () => {
  type Case = [
    name: string,
    used: Record<string, number>,
    codes: Array<string | null>,
    lossDate: string,
    odometer: number | null,
    problems: string[],
    schedule?: PpmService[],
  ]
  const cases: Case[] = [
    ['nothing redeemed', {}, [null, null], '2026-04-01', 100, []],
    ['the first oil change, due', {}, ['OIL_CHANGE'], '2026-09-10', 5000, []],
    ['any case', {}, ['oil_change', 'Tire_Rotation'], '2026-09-10', 5000, []],
    ['an unknown code', {}, ['BRAKES'], '2026-09-10', 5000, ['jobs[0].ppmServiceCode unknown_service']],
    [
      'no schedule: every code unknown',
      {},
      ['OIL_CHANGE'],
      '2026-09-10',
      5000,
      ['jobs[0].ppmServiceCode unknown_service'],
      [],
    ],
    ['too early', {}, ['OIL_CHANGE'], '2026-05-01', 5000, ['jobs[0].ppmServiceCode not_due']],
    [
      'used elsewhere: the next one is not due yet',
      { OIL_CHANGE: 1 },
      ['OIL_CHANGE'],
      '2026-09-10',
      8000,
      ['jobs[0].ppmServiceCode not_due'],
    ],
    ['used elsewhere: the next one is due', { OIL_CHANGE: 1 }, ['OIL_CHANGE'], '2027-03-10', 8000, []],
    ['all used', { OIL_CHANGE: 6 }, ['OIL_CHANGE'], '2030-01-01', 60000, ['jobs[0].ppmServiceCode allowance_used']],
    [
      'the last one left, twice on one claim',
      { MULTI_POINT: 2 },
      ['MULTI_POINT', 'MULTI_POINT'],
      '2030-01-01',
      60000,
      ['jobs[1].ppmServiceCode allowance_used'],
    ],
    [
      'two of one service on one claim: the second is the next use',
      {},
      ['OIL_CHANGE', 'OIL_CHANGE'],
      '2026-09-10',
      8000,
      ['jobs[1].ppmServiceCode not_due'],
    ],
    ['two due at once (a catch-up visit)', {}, ['OIL_CHANGE', 'OIL_CHANGE'], '2027-03-10', 8000, []],
    [
      'every problem at once, each on its job',
      { OIL_CHANGE: 6 },
      ['OIL_CHANGE', null, 'BRAKES', 'MULTI_POINT'],
      '2026-09-10',
      8000,
      [
        'jobs[0].ppmServiceCode allowance_used',
        'jobs[2].ppmServiceCode unknown_service',
        'jobs[3].ppmServiceCode not_due',
      ],
    ],
    ['an invalid loss date skips the due check', {}, ['OIL_CHANGE'], '2026-13-01', 0, []],
    [
      'no interval: any time, up to its count',
      { DETAIL: 1 },
      ['DETAIL'],
      '2026-03-10',
      null,
      ['jobs[0].ppmServiceCode allowance_used'],
    ],
  ]
  for (const [name, used, codes, lossDate, odometer, problems, schedule] of cases)
    test(name, () => {
      const got = ppmRedemptionProblems(
        schedule ?? SCHEDULE,
        new Map(Object.entries(used)),
        codes.map((ppmServiceCode) => ({ ppmServiceCode })),
        lossDate,
        odometer,
        CONTRACT,
      )
      assert.deepEqual(
        got.map((e) => `${e.field} ${e.code}`),
        problems,
      )
      for (const e of got) assert.ok(e.message.length > 0)
    })

  test('the not_due message names the use, the due date and odometer and the tolerance', () => {
    const [e] = ppmRedemptionProblems(
      SCHEDULE,
      new Map([['OIL_CHANGE', 1]]),
      [{ ppmServiceCode: 'OIL_CHANGE' }],
      '2026-09-10',
      8000,
      CONTRACT,
    )
    assert.equal(e!.message, 'the 2nd OIL_CHANGE is due on 2027-03-10 (from 2027-02-08) or at 15012 miles (from 14512)')
  })
})

describe('ppmServiceOf', () => {
  test('finds a code in any case, with blanks around it', () => {
    assert.equal(ppmServiceOf(SCHEDULE, ' tire_rotation ')?.code, 'TIRE_ROTATION')
    assert.equal(ppmServiceOf(SCHEDULE, 'TIRE'), undefined)
  })
})

describe('ppmServiceStatuses', () => {
  test('used, remaining and the next use due, with the whole schedule', () => {
    const [oil, rotation, inspection] = ppmServiceStatuses(
      [OIL, ROTATION, INSPECTION],
      new Map([
        ['OIL_CHANGE', 2],
        ['MULTI_POINT', 3],
      ]),
      CONTRACT,
    )
    assert.deepEqual(
      { ...oil!, schedule: oil!.schedule.slice(0, 3) },
      {
        serviceCode: 'OIL_CHANGE',
        description: 'Synthetic oil and filter change',
        allowedCount: 6,
        usedCount: 2,
        remainingCount: 4,
        intervalMonths: 6,
        intervalMiles: 7500,
        nextDueDate: '2027-09-10',
        nextDueOdometer: 22512,
        schedule: [
          { sequence: 1, dueDate: '2026-09-10', dueOdometer: 7512, used: true },
          { sequence: 2, dueDate: '2027-03-10', dueOdometer: 15012, used: true },
          { sequence: 3, dueDate: '2027-09-10', dueOdometer: 22512, used: false },
        ],
      },
    )
    assert.equal(oil!.schedule.length, 6)
    assert.equal(rotation!.usedCount, 0)
    assert.equal(rotation!.nextDueDate, '2026-09-10')
    assert.equal(inspection!.remainingCount, 0)
    assert.equal(inspection!.nextDueDate, null)
    assert.equal(inspection!.nextDueOdometer, null)
  })

  test('no schedule: nothing', () => assert.deepEqual(ppmServiceStatuses([], none, CONTRACT), []))

  test('more used than allowed (a count lowered after the fact) leaves none remaining, never a negative', () => {
    const [s] = ppmServiceStatuses([ANY_TIME], new Map([['DETAIL', 3]]), CONTRACT)
    assert.equal(s!.remainingCount, 0)
    assert.equal(s!.intervalMonths, null)
  })
})
