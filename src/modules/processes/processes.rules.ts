// The pure rules of the automatic processes (docs/processes.md): the catalogue of process names, how
// often each runs (its cadence: the slot a scheduled run is made for, and the parameters that slot
// gives it) and the parameters a run may be started with. Nothing here reads a database or a clock.
import { addDays, isIsoDate } from '../../platform/calendar.ts'
import type { FieldError } from '../../platform/http/errors.ts'

export const PROCESSES = [
  'ACTIVATION',
  'EXPIRY',
  'VOID',
  'EARNINGS',
  'GAP_AUTO_CANCEL',
  'CLAIMS_DENIAL',
  'MONTHLY_STATEMENTS',
] as const
export type ProcessName = (typeof PROCESSES)[number]

/**
 * DAILY: one scheduled run a day (slot: the tenant-local date). MONTHLY: one a month, made by the first
 * pass at or after its time of day on any day of the month (slot: the month's first day), for the
 * month that ended before it.
 */
export type Cadence = 'DAILY' | 'MONTHLY'

export const CADENCE: Record<ProcessName, Cadence> = {
  ACTIVATION: 'DAILY',
  EXPIRY: 'DAILY',
  VOID: 'DAILY',
  EARNINGS: 'MONTHLY',
  GAP_AUTO_CANCEL: 'DAILY',
  CLAIMS_DENIAL: 'DAILY',
  MONTHLY_STATEMENTS: 'MONTHLY',
}

/** The slot of a scheduled run made on tenant-local day `today`. */
export function slotOf(cadence: Cadence, today: string): string {
  return cadence === 'DAILY' ? today : `${today.slice(0, 7)}-01`
}

/** The month before the one of `date` (YYYY-MM-DD), as YYYY-MM. */
export function previousMonth(date: string): string {
  return addDays(`${date.slice(0, 7)}-01`, -1).slice(0, 7)
}

/** The first and last day of `month` (YYYY-MM). */
export function monthBounds(month: string): { from: string; to: string } {
  const from = `${month}-01`
  const next = addDays(from, 31)
  return { from, to: addDays(`${next.slice(0, 7)}-01`, -1) }
}

/**
 * The parameters a scheduled run of `process` is made with for its slot: a monthly process works on
 * the month that ended before the slot (EARNINGS as of its last day).
 */
export function scheduledParameters(process: ProcessName, slot: string): Record<string, unknown> {
  if (process === 'EARNINGS') return { asOf: monthBounds(previousMonth(slot)).to }
  if (process === 'MONTHLY_STATEMENTS') return { month: previousMonth(slot) }
  return {}
}

/** Items per batch (one transaction) unless the run's parameters say otherwise. */
export const DEFAULT_BATCH_SIZE = 500
export const MAX_BATCH_SIZE = 1000

/** A parameter's check: null when `value` is acceptable on tenant-local day `today`, else why not. */
type ParameterCheck = {
  describe: string
  check(value: unknown, today: string): { code: string; message: string } | null
}

const batchSize: ParameterCheck = {
  describe: `batchSize (1-${MAX_BATCH_SIZE}, default ${DEFAULT_BATCH_SIZE}): items per batch, each batch one transaction`,
  check: (v) =>
    Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_BATCH_SIZE
      ? null
      : { code: 'invalid', message: `must be an integer from 1 to ${MAX_BATCH_SIZE}` },
}

const asOf: ParameterCheck = {
  describe: 'asOf (YYYY-MM-DD, not after today; default today): the date earnings are synced as of',
  check(v, today) {
    if (typeof v !== 'string' || !isIsoDate(v)) return { code: 'invalid_format', message: 'must be a date YYYY-MM-DD' }
    return v > today ? { code: 'out_of_range', message: `must not be after today (${today})` } : null
  },
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/
const month: ParameterCheck = {
  describe: 'month (YYYY-MM, a month that has ended; default the last one): the month of the statements',
  check(v, today) {
    if (typeof v !== 'string' || !MONTH.test(v)) return { code: 'invalid_format', message: 'must be a month YYYY-MM' }
    return v >= today.slice(0, 7)
      ? { code: 'out_of_range', message: `must be a month that has ended (before ${today.slice(0, 7)})` }
      : null
  },
}

const format: ParameterCheck = {
  describe: 'format (PDF or CSV, default PDF): the statements made',
  check: (v) => (v === 'PDF' || v === 'CSV' ? null : { code: 'invalid', message: 'must be PDF or CSV' }),
}

/** The parameters each process takes (batchSize for every one). */
export const PARAMETERS: Record<ProcessName, Record<string, ParameterCheck>> = {
  ACTIVATION: { batchSize },
  EXPIRY: { batchSize },
  VOID: { batchSize },
  EARNINGS: { batchSize, asOf },
  GAP_AUTO_CANCEL: { batchSize },
  CLAIMS_DENIAL: { batchSize },
  MONTHLY_STATEMENTS: { batchSize, month, format },
}

/** The parameters of every process, for the API description. */
export function describeParameters(): string {
  return PROCESSES.map(
    (p) =>
      `${p}: ${Object.values(PARAMETERS[p])
        .map((c) => c.describe)
        .join('; ')}.`,
  ).join(' ')
}

export function isProcess(name: unknown): name is ProcessName {
  return typeof name === 'string' && (PROCESSES as readonly string[]).includes(name)
}

/**
 * The field errors of a start request on tenant-local day `today`; empty when it may start. Each
 * unknown or unacceptable parameter is named (`parameters.<name>`).
 */
export function checkStart(body: { process?: unknown; parameters?: unknown }, today: string): FieldError[] {
  const errors: FieldError[] = []
  const known = isProcess(body.process)
  if (!known) errors.push({ field: 'process', code: 'unknown', message: `must be one of ${PROCESSES.join(', ')}` })
  const p = body.parameters ?? {}
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    errors.push({ field: 'parameters', code: 'invalid', message: 'must be an object' })
    return errors
  }
  // An unknown process takes no parameter but batchSize until it is known.
  const checks: Record<string, ParameterCheck> = known ? PARAMETERS[body.process as ProcessName] : { batchSize }
  for (const [key, value] of Object.entries(p)) {
    const rule = Object.hasOwn(checks, key) ? checks[key] : undefined
    if (rule === undefined) {
      errors.push({
        field: `parameters.${key}`,
        code: 'unknown',
        message: known ? `is not a parameter of ${String(body.process)}` : 'is not a parameter of the process',
      })
      continue
    }
    const problem = rule.check(value, today)
    if (problem) errors.push({ field: `parameters.${key}`, ...problem })
  }
  return errors
}
