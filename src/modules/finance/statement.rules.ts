// Statements as pure rules (docs/statements.md): what a request may ask for, how a line's amount
// and the running balance are counted, and the one invariant every statement keeps: the opening
// balance plus the lines is the closing balance, to the cent. Balances are signed debit − credit
// over the accounts the statement covers, in integer cents: positive, the holder owes the
// administrator (a dealer's receivable); negative, the administrator owes the holder (a payable).
import type { FieldError } from '../../platform/http/errors.ts'
import { ACCOUNT_PURPOSES, isCalendarDate, type AccountPurpose } from './ledger.rules.ts'

export const STATEMENT_FORMATS = ['PDF', 'CSV'] as const
export type StatementFormat = (typeof STATEMENT_FORMATS)[number]

export const STATEMENT_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const
export type StatementStatus = (typeof STATEMENT_STATUSES)[number]

/** Statements with more lines than this are made in the background (202); the service takes it as a dep. */
export const DEFAULT_SYNC_LINE_LIMIT = 2000

/** Lines read per page of the keyset cursor: what a background run holds in memory at once. */
export const PAGE_SIZE = 1000

export type StatementRequestInput = {
  from: string
  to: string
  format?: StatementFormat
  purpose?: AccountPurpose
}

export type CheckedRequest = {
  from: string
  to: string
  format: StatementFormat
  purpose: AccountPurpose | null
}

/**
 * The request as the service uses it, or every problem of it: dates that are not calendar dates
 * (YYYY-MM-DD), a period that ends before it starts (named on `to`), an unknown purpose.
 */
export function checkStatementRequest(
  input: StatementRequestInput,
): { ok: true; value: CheckedRequest } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = []
  for (const field of ['from', 'to'] as const) {
    if (!isCalendarDate(input[field]))
      errors.push({ field, code: 'invalid_format', message: 'must be a calendar date YYYY-MM-DD' })
  }
  if (errors.length === 0 && input.from > input.to)
    errors.push({ field: 'to', code: 'out_of_range', message: `must be on or after from (${input.from})` })
  if (input.purpose !== undefined && !Object.hasOwn(ACCOUNT_PURPOSES, input.purpose))
    errors.push({
      field: 'purpose',
      code: 'invalid_value',
      message: `must be one of ${Object.keys(ACCOUNT_PURPOSES).join(', ')}`,
    })
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    value: { from: input.from, to: input.to, format: input.format ?? 'PDF', purpose: input.purpose ?? null },
  }
}

/** What a line moves: debit − credit. */
export const lineDelta = (line: { debitCents: number; creditCents: number }) => line.debitCents - line.creditCents

/**
 * The running balance after each line, from `openingCents`, and the closing balance: a fold the
 * service applies page by page (pass the last balance of one page as the opening of the next).
 */
export function runningBalances(
  openingCents: number,
  lines: ReadonlyArray<{ debitCents: number; creditCents: number }>,
): { balances: number[]; closingCents: number } {
  const balances: number[] = []
  let balance = openingCents
  for (const line of lines) {
    balance += lineDelta(line)
    balances.push(balance)
  }
  return { balances, closingCents: balance }
}

/** The statement invariant: opening + Σ(debit − credit) of its lines = closing, exactly. */
export function reconciles(
  openingCents: number,
  lines: ReadonlyArray<{ debitCents: number; creditCents: number }>,
  closingCents: number,
): boolean {
  return runningBalances(openingCents, lines).closingCents === closingCents
}

/** Whether a statement of `lineCount` lines is made in the request (201) rather than in the background (202). */
export function isSmall(lineCount: number, syncLineLimit: number): boolean {
  return lineCount <= syncLineLimit
}
