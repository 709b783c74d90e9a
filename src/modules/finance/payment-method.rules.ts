// Payment methods (issue 15, "Payment methods"): which method a payment to or from an account holder
// uses, and whether a payment-method record is acceptable. Pure: the service loads the records and
// the holder's disbursement accounts and asks these rules; nothing here reads or writes.
import type { FieldError } from '../../platform/http/errors.ts'

// The same three methods a disbursement account carries (src/modules/parties/disbursement-account.rules.ts).
export const PAYMENT_METHODS = ['CHECK', 'ACH', 'WIRE'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** PAY: how the administrator pays this holder. RECEIVE: how it accepts money from it. */
export const PAYMENT_DIRECTIONS = ['PAY', 'RECEIVE'] as const
export type PaymentDirection = (typeof PAYMENT_DIRECTIONS)[number]

/** Where a resolution came from, in the order the rule tries them. */
export const RESOLUTION_SOURCES = [
  'ACCOUNT_HOLDER',
  'DISBURSEMENT_ACCOUNT_DEFAULT',
  'TENANT',
  'FALLBACK_CHECK',
] as const
export type ResolutionSource = (typeof RESOLUTION_SOURCES)[number]

/** A stored payment-method record; accountHolderId null is the tenant's own rule. */
export type PaymentMethodRecord = {
  accountHolderId: string | null
  direction: PaymentDirection
  paymentMethod: PaymentMethod
  disbursementAccountId: string | null
  isDefault: boolean
}

/** What the rules need of a disbursement account: never its bank details. */
export type DisbursementAccountRef = {
  id: string
  accountHolderId: string
  paymentMethod: PaymentMethod
  status: 'ACTIVE' | 'INACTIVE'
  isDefault: boolean
}

export type Resolution = {
  paymentMethod: PaymentMethod
  disbursementAccountId?: string
  source: ResolutionSource
}

const needsAccount = (direction: PaymentDirection, method: PaymentMethod) => direction === 'PAY' && method !== 'CHECK'

/**
 * The method a payment to (PAY) or from (RECEIVE) a holder uses: the holder's default record for
 * that direction → the holder's default active disbursement account's method (PAY only: an account
 * is where the administrator sends money) → the tenant's default record → CHECK. A record that
 * needs an account but whose account is no longer active is skipped rather than resolved to a
 * payment that cannot be made.
 */
export function resolvePaymentMethod(input: {
  accountHolderId: string
  direction: PaymentDirection
  records: readonly PaymentMethodRecord[]
  accounts: readonly DisbursementAccountRef[]
}): Resolution {
  const { accountHolderId, direction } = input
  const usable = (r: PaymentMethodRecord) => {
    if (!needsAccount(r.direction, r.paymentMethod)) return true
    const account = input.accounts.find((a) => a.id === r.disbursementAccountId)
    return account !== undefined && account.status === 'ACTIVE' && account.paymentMethod === r.paymentMethod
  }
  const fromRecord = (r: PaymentMethodRecord, source: ResolutionSource): Resolution =>
    needsAccount(r.direction, r.paymentMethod) && r.disbursementAccountId
      ? { paymentMethod: r.paymentMethod, disbursementAccountId: r.disbursementAccountId, source }
      : { paymentMethod: r.paymentMethod, source }

  const holder = input.records.find(
    (r) => r.accountHolderId === accountHolderId && r.direction === direction && r.isDefault && usable(r),
  )
  if (holder) return fromRecord(holder, 'ACCOUNT_HOLDER')

  if (direction === 'PAY') {
    const account = input.accounts.find(
      (a) => a.accountHolderId === accountHolderId && a.isDefault && a.status === 'ACTIVE',
    )
    if (account) {
      return account.paymentMethod === 'CHECK'
        ? { paymentMethod: 'CHECK', source: 'DISBURSEMENT_ACCOUNT_DEFAULT' }
        : {
            paymentMethod: account.paymentMethod,
            disbursementAccountId: account.id,
            source: 'DISBURSEMENT_ACCOUNT_DEFAULT',
          }
    }
  }

  // The tenant's rule names no holder, so it cannot name a holder's account: an ACH/WIRE tenant
  // default for PAY resolves only with the holder's own active account of that method.
  const tenant = input.records.find((r) => r.accountHolderId === null && r.direction === direction && r.isDefault)
  if (tenant) {
    if (!needsAccount(direction, tenant.paymentMethod)) return { paymentMethod: tenant.paymentMethod, source: 'TENANT' }
    const account = input.accounts.find(
      (a) => a.accountHolderId === accountHolderId && a.status === 'ACTIVE' && a.paymentMethod === tenant.paymentMethod,
    )
    if (account) return { paymentMethod: tenant.paymentMethod, disbursementAccountId: account.id, source: 'TENANT' }
  }

  return { paymentMethod: 'CHECK', source: 'FALLBACK_CHECK' }
}

/**
 * Rule violations of a new record, given the disbursement account it names (null when it names none
 * or the id was not found among the holder's accounts). PAY by ACH or WIRE needs an account of the
 * holder, active, of the same method; any other record carries none (bank details stay with the
 * disbursement account; a tenant rule names no holder's account).
 */
export function paymentMethodViolations(
  record: Omit<PaymentMethodRecord, 'isDefault'>,
  account: DisbursementAccountRef | null,
): FieldError[] {
  const field = 'disbursementAccountId'
  if (!needsAccount(record.direction, record.paymentMethod) || record.accountHolderId === null) {
    if (record.disbursementAccountId !== null)
      return [
        {
          field,
          code: 'not_allowed',
          message:
            record.accountHolderId === null
              ? 'is not accepted on a tenant rule'
              : `is not accepted for ${record.direction} by ${record.paymentMethod}`,
        },
      ]
    return []
  }
  if (record.disbursementAccountId === null)
    return [{ field, code: 'required', message: `is required for PAY by ${record.paymentMethod}` }]
  if (
    account === null ||
    account.id !== record.disbursementAccountId ||
    account.accountHolderId !== record.accountHolderId
  )
    return [{ field, code: 'not_found', message: 'is not a disbursement account of this account holder' }]
  if (account.status !== 'ACTIVE') return [{ field, code: 'invalid_value', message: 'is not an active account' }]
  if (account.paymentMethod !== record.paymentMethod)
    return [
      { field, code: 'invalid_value', message: `is a ${account.paymentMethod} account, not ${record.paymentMethod}` },
    ]
  return []
}
