// The inspection rules table by table (docs/claims.md "Inspections"): every status change and what it
// does to the claim; every problem of a report.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  INSPECTION_STATUSES,
  inspectionStep,
  reportProblems,
  type InspectionStatus,
} from './claim-inspections.rules.ts'

test('inspectionStep: every pair of statuses', () => {
  const allowed: Record<string, 'COMPLETE_INSPECTION' | 'CANCEL_INSPECTION' | null> = {
    'REQUESTED→TAKEN': null,
    'REQUESTED→REJECTED': null,
    'REQUESTED→COMPLETED': 'COMPLETE_INSPECTION',
    'TAKEN→COMPLETED': 'COMPLETE_INSPECTION',
    'REQUESTED→CANCELLED': 'CANCEL_INSPECTION',
    'TAKEN→CANCELLED': 'CANCEL_INSPECTION',
    'REJECTED→CANCELLED': 'CANCEL_INSPECTION',
  }
  for (const from of INSPECTION_STATUSES)
    for (const to of INSPECTION_STATUSES) {
      const step = inspectionStep(from, to)
      const key = `${from}→${to}`
      if (from === to) assert.deepEqual(step, { ok: true, changed: false, claimEvent: null }, key)
      else if (key in allowed) assert.deepEqual(step, { ok: true, changed: true, claimEvent: allowed[key] }, key)
      else {
        assert.equal(step.ok, false, key)
        assert.equal(!step.ok && step.code, 'claim_inspection_state_conflict', key)
      }
    }
})

const facts = { lossDate: '2026-05-20', claimOdometer: 45000, now: new Date('2026-06-01T18:00:00Z') }
const complete = {
  status: 'COMPLETED' as InspectionStatus,
  findings: 'Coil open.',
  inspectedOdometer: 45100,
  inspectedOn: '2026-05-30',
  completedAt: '2026-05-30T20:00:00Z',
}
const problems = (report: Parameters<typeof reportProblems>[0]) =>
  reportProblems(report, facts).map((e) => `${e.field} ${e.code}`)

test('reportProblems: a completion', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['complete', {}, []],
    ['only the required results', { inspectedOdometer: null, inspectedOn: undefined }, []],
    [
      'no findings, no completedAt',
      { findings: null, completedAt: undefined },
      ['findings required', 'completedAt required'],
    ],
    ['blank findings', { findings: '  \n' }, ['findings blank']],
    ['not an instant', { completedAt: 'yesterday' }, ['completedAt invalid_format']],
    ['in the future', { completedAt: '2026-06-01T18:00:01Z' }, ['completedAt in_future']],
    ['exactly now', { completedAt: '2026-06-01T18:00:00Z' }, []],
    ['inspected before the loss', { inspectedOn: '2026-05-19' }, ['inspectedOn before_loss_date']],
    ['inspected on the loss date', { inspectedOn: '2026-05-20' }, []],
    ['not a date', { inspectedOn: '2026-02-30' }, ['inspectedOn invalid_format']],
    ['odometer below the claim', { inspectedOdometer: 44999 }, ['inspectedOdometer below_claim_odometer']],
    ['odometer at the claim', { inspectedOdometer: 45000 }, []],
    ['odometer not whole', { inspectedOdometer: 45000.5 }, ['inspectedOdometer out_of_range']],
    ['a reject reason', { rejectReasonId: 4 }, ['rejectReasonId not_allowed']],
  ]
  for (const [name, over, expected] of cases) assert.deepEqual(problems({ ...complete, ...over }), expected, name)
  assert.deepEqual(reportProblems({ ...complete, inspectedOdometer: 1 }, { ...facts, claimOdometer: null }), [])
})

test('reportProblems: the other statuses', () => {
  assert.deepEqual(problems({ status: 'REJECTED' }), ['rejectReasonId required'])
  assert.deepEqual(problems({ status: 'REJECTED', rejectReasonId: 3 }), [])
  assert.deepEqual(problems({ status: 'TAKEN', rejectReasonId: 3 }), ['rejectReasonId not_allowed'])
  assert.deepEqual(problems({ status: 'TAKEN', findings: null, completedAt: null }), [])
  assert.deepEqual(problems({ ...complete, status: 'CANCELLED' }), [
    'findings not_allowed',
    'inspectedOdometer not_allowed',
    'inspectedOn not_allowed',
    'completedAt not_allowed',
  ])
})
