// The pure rules of the automatic processes (processes.rules.ts), table by table: slots and the
// month a monthly run works on, and the start request's field errors per process.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  CADENCE,
  checkStart,
  monthBounds,
  previousMonth,
  PROCESSES,
  scheduledParameters,
  slotOf,
} from './processes.rules.ts'

test('slots: a daily process has the day, a monthly one the first day of the month', () => {
  for (const [cadence, today, slot] of [
    ['DAILY', '2026-11-27', '2026-11-27'],
    ['DAILY', '2026-01-01', '2026-01-01'],
    ['MONTHLY', '2026-11-27', '2026-11-01'],
    ['MONTHLY', '2026-11-01', '2026-11-01'],
    ['MONTHLY', '2024-02-29', '2024-02-01'],
  ] as const)
    assert.equal(slotOf(cadence, today), slot, `${cadence} ${today}`)
  assert.deepEqual(
    PROCESSES.filter((p) => CADENCE[p] === 'MONTHLY'),
    ['EARNINGS', 'MONTHLY_STATEMENTS'],
  )
})

test('the month before, and a month as its first and last day', () => {
  for (const [date, before] of [
    ['2026-11-27', '2026-10'],
    ['2026-01-01', '2025-12'],
    ['2026-03-31', '2026-02'],
  ] as const)
    assert.equal(previousMonth(date), before, date)
  for (const [month, from, to] of [
    ['2026-02', '2026-02-01', '2026-02-28'],
    ['2024-02', '2024-02-01', '2024-02-29'],
    ['2026-04', '2026-04-01', '2026-04-30'],
    ['2026-12', '2026-12-01', '2026-12-31'],
    ['2026-01', '2026-01-01', '2026-01-31'],
  ] as const)
    assert.deepEqual(monthBounds(month), { from, to }, month)
})

test('a scheduled run works on the month that ended before its slot', () => {
  for (const [process, slot, parameters] of [
    ['EARNINGS', '2026-11-01', { asOf: '2026-10-31' }],
    ['EARNINGS', '2026-03-01', { asOf: '2026-02-28' }],
    ['MONTHLY_STATEMENTS', '2026-01-01', { month: '2025-12' }],
    ['EXPIRY', '2026-11-27', {}],
    ['CLAIMS_DENIAL', '2026-11-27', {}],
  ] as const)
    assert.deepEqual(scheduledParameters(process, slot), parameters, `${process} ${slot}`)
})

test('start: each bad field named, with its code; a good request has none', () => {
  const today = '2026-11-27'
  const fields = (body: { process?: unknown; parameters?: unknown }) =>
    checkStart(body, today).map((e) => `${e.field}:${e.code}`)
  for (const [body, expected] of [
    [{ process: 'EXPIRY' }, []],
    [{ process: 'EXPIRY', parameters: { batchSize: 1000 } }, []],
    [{ process: 'EARNINGS', parameters: { asOf: '2026-11-27', batchSize: 1 } }, []],
    [{ process: 'MONTHLY_STATEMENTS', parameters: { month: '2026-10', format: 'CSV' } }, []],
    [{ process: 'MONTHLY_STATEMENTS', parameters: { format: 'PDF' } }, []],
    [{ process: 'NOPE' }, ['process:unknown']],
    [{}, ['process:unknown']],
    [{ process: 'NOPE', parameters: { asOf: '2026-01-01' } }, ['process:unknown', 'parameters.asOf:unknown']],
    [{ process: 'EXPIRY', parameters: [] }, ['parameters:invalid']],
    [{ process: 'EXPIRY', parameters: 'x' }, ['parameters:invalid']],
    [{ process: 'EXPIRY', parameters: { batchSize: 0 } }, ['parameters.batchSize:invalid']],
    [{ process: 'EXPIRY', parameters: { batchSize: 1.5 } }, ['parameters.batchSize:invalid']],
    [{ process: 'EXPIRY', parameters: { batchSize: '10' } }, ['parameters.batchSize:invalid']],
    [{ process: 'EXPIRY', parameters: { asOf: '2026-11-27' } }, ['parameters.asOf:unknown']],
    [{ process: 'EARNINGS', parameters: { asOf: '2026-11-28' } }, ['parameters.asOf:out_of_range']],
    [{ process: 'EARNINGS', parameters: { asOf: '2026-02-30' } }, ['parameters.asOf:invalid_format']],
    [{ process: 'EARNINGS', parameters: { asOf: 20261127 } }, ['parameters.asOf:invalid_format']],
    [{ process: 'MONTHLY_STATEMENTS', parameters: { month: '2026-11' } }, ['parameters.month:out_of_range']],
    [{ process: 'MONTHLY_STATEMENTS', parameters: { month: '2026-13' } }, ['parameters.month:invalid_format']],
    [{ process: 'MONTHLY_STATEMENTS', parameters: { format: 'pdf' } }, ['parameters.format:invalid']],
    [{ process: 'GAP_AUTO_CANCEL', parameters: { toString: 1 } }, ['parameters.toString:unknown']],
  ] as const)
    assert.deepEqual(fields(body), expected, JSON.stringify(body))
})
