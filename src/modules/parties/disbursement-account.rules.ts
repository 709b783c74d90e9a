// Disbursement-account rules: ABA routing numbers, account numbers, which bank fields a payment
// method needs, and how bank numbers are masked. Pure; messages never repeat the value they judge,
// because the value may be a bank number.
import type { FieldError } from '../../platform/http/errors.ts'

export const PAYMENT_METHODS = ['ACH', 'WIRE', 'CHECK'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

export const ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const
export type AccountType = (typeof ACCOUNT_TYPES)[number]

export const BANK_FIELDS = ['bankName', 'routingNumber', 'accountNumber', 'accountType'] as const
export type BankField = (typeof BANK_FIELDS)[number]

/** The fields that hold bank numbers: masked in replies and in the audit trail. */
export const SENSITIVE_FIELDS = ['routingNumber', 'accountNumber'] as const
export type SensitiveField = (typeof SENSITIVE_FIELDS)[number]

export const ROUTING_NUMBER_PATTERN = '^[0-9]{9}$'
export const ACCOUNT_NUMBER_PATTERN = '^[0-9]{4,17}$'

/**
 * Bank fields each method must carry. ACH needs the account type (it selects the NACHA
 * transaction code, checking or savings); a Fedwire transfer does not use it. A check is drawn on
 * the administrator's own bank, so the payee's bank details have no use and are not accepted.
 */
const REQUIRED: Record<PaymentMethod, readonly BankField[]> = {
  ACH: ['bankName', 'routingNumber', 'accountNumber', 'accountType'],
  WIRE: ['bankName', 'routingNumber', 'accountNumber'],
  CHECK: [],
}

const ALLOWED: Record<PaymentMethod, readonly BankField[]> = {
  ACH: BANK_FIELDS,
  WIRE: BANK_FIELDS,
  CHECK: [],
}

export function requiredBankFields(method: PaymentMethod): readonly BankField[] {
  return REQUIRED[method]
}

export function allowedBankFields(method: PaymentMethod): readonly BankField[] {
  return ALLOWED[method]
}

export type RoutingNumberProblem = 'invalid_format' | 'invalid_prefix' | 'invalid_checksum'

/**
 * Why a routing number is not a valid ABA routing transit number, or null when it is: nine digits;
 * a Federal Reserve prefix (00 government, 01-12 banks, 21-32 thrifts, 61-72 electronic, 80
 * traveller's checks), not all zeros; and the check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) +
 * (d3+d6+d9) is a multiple of 10.
 */
export function routingNumberProblem(value: string): RoutingNumberProblem | null {
  if (!/^[0-9]{9}$/.test(value)) return 'invalid_format'
  const prefix = Number(value.slice(0, 2))
  const knownPrefix = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80
  if (!knownPrefix || value === '000000000') return 'invalid_prefix'
  const d = [...value].map(Number)
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1]
  const sum = d.reduce((acc, digit, i) => acc + digit * (weights[i] as number), 0)
  return sum % 10 === 0 ? null : 'invalid_checksum'
}

export function isValidRoutingNumber(value: string): boolean {
  return routingNumberProblem(value) === null
}

export function isValidAccountNumber(value: string): boolean {
  return /^[0-9]{4,17}$/.test(value)
}

/**
 * Masks a bank number: five asterisks (the length is not disclosed) then the last digits, at most
 * four and never more than half of the number, so a short account number is not shown whole.
 */
export function maskBankNumber(value: string | null): string | null {
  if (value === null) return null
  const shown = Math.min(4, Math.floor(value.length / 2))
  return `*****${shown > 0 ? value.slice(-shown) : ''}`
}

/** What the rules look at. Values may have any type: the schema reports type errors separately. */
export type DisbursementAccountFields = {
  paymentMethod?: unknown
  bankName?: unknown
  routingNumber?: unknown
  accountNumber?: unknown
  accountType?: unknown
  isDefault?: unknown
  status?: unknown
}

const present = (v: unknown) => v !== undefined && v !== null

const ROUTING_MESSAGES: Record<RoutingNumberProblem, string> = {
  invalid_format: 'must be 9 digits',
  invalid_prefix: 'does not start with a Federal Reserve routing prefix',
  invalid_checksum: 'fails the ABA check digit',
}

/**
 * Every rule violation of an account taken as a whole: bank fields required or not allowed for the
 * payment method, bank number formats and the ABA check digit, and the default account being
 * active. Type and enum errors are the schema's; a field with the wrong type is skipped here.
 */
export function disbursementAccountViolations(a: DisbursementAccountFields): FieldError[] {
  const errors: FieldError[] = []
  const method = (PAYMENT_METHODS as readonly unknown[]).includes(a.paymentMethod)
    ? (a.paymentMethod as PaymentMethod)
    : undefined
  if (method) {
    for (const field of BANK_FIELDS) {
      if (!allowedBankFields(method).includes(field) && present(a[field])) {
        errors.push({ field, code: 'not_allowed', message: `is not accepted for payment method ${method}` })
      } else if (requiredBankFields(method).includes(field) && !present(a[field])) {
        errors.push({ field, code: 'required', message: `is required for payment method ${method}` })
      }
    }
  }
  const listed = new Set(errors.map((e) => e.field))
  if (typeof a.routingNumber === 'string' && !listed.has('routingNumber')) {
    const problem = routingNumberProblem(a.routingNumber)
    if (problem)
      errors.push({
        field: 'routingNumber',
        code: problem === 'invalid_format' ? 'invalid_format' : 'invalid_value',
        message: ROUTING_MESSAGES[problem],
      })
  }
  if (typeof a.accountNumber === 'string' && !listed.has('accountNumber') && !isValidAccountNumber(a.accountNumber)) {
    errors.push({ field: 'accountNumber', code: 'invalid_format', message: 'must be 4 to 17 digits' })
  }
  if (a.isDefault === true && a.status === 'INACTIVE') {
    errors.push({ field: 'isDefault', code: 'not_allowed', message: 'an inactive account cannot be the default' })
  }
  return errors
}
