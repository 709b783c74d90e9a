// Transfer of a contract to a new owner (issue 16, docs/contracts.md "Transfers"): whether the
// product's terms allow it now. Pure; the service checks a request with it and checks it again, on
// the locked row, when the request is approved.
import type { FieldError } from '../../platform/http/errors.ts'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'

/** The product's transfer terms as the contract's terms snapshot keeps them (rate-books.md "products[].transfer"). */
export type TransferTerms = { allowed: boolean; fee: string | null; withinDays: number | null; dealerMayOwn: boolean }

export type TransferFacts = {
  /** The status a reader sees (a finalized contract in effect is ACTIVE). */
  status: ContractStatus
  terms: TransferTerms
  saleDate: string
  expirationDate: string
  today: string
  /** The day the vehicle was sold to the new owner. */
  transferDate: string
  /** The new owner is a dealer (a vehicle taken back onto a lot). */
  toDealer: boolean
}

export type TransferRefusal = {
  code: 'contract_state_conflict' | 'transfer_not_allowed' | 'transfer_window_closed' | 'transfer_invalid'
  detail: string
  errors: FieldError[]
}

const DAY_MS = 86_400_000
const days = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS

/**
 * Why the contract cannot pass to the new owner now, or null when it can: only an ACTIVE contract;
 * only when the product allows it; the vehicle's sale to the new owner on or after the contract's
 * sale, not in the future and not after the coverage ends; asked for within `withinDays` of that
 * sale (rate-books.md); a dealer as the new owner only when the product lets one own it.
 */
export function transferRefusal(f: TransferFacts): TransferRefusal | null {
  if (f.status !== 'ACTIVE')
    return {
      code: 'contract_state_conflict',
      detail: `only an ACTIVE contract can be transferred; this one is ${f.status}`,
      errors: [],
    }
  if (!f.terms.allowed)
    return { code: 'transfer_not_allowed', detail: "the product's terms do not allow a transfer", errors: [] }
  const dateError = (message: string): TransferRefusal => ({
    code: 'transfer_invalid',
    detail: `transferDate ${message}`,
    errors: [{ field: 'transferDate', code: 'out_of_range', message }],
  })
  if (f.transferDate < f.saleDate) return dateError(`must be on or after the contract's sale date ${f.saleDate}`)
  if (f.transferDate > f.today) return dateError(`must not be after today (${f.today})`)
  if (f.transferDate > f.expirationDate)
    return dateError(`must be on or before the contract's expiration date ${f.expirationDate}`)
  if (f.terms.withinDays !== null && days(f.transferDate, f.today) > f.terms.withinDays)
    return {
      code: 'transfer_window_closed',
      detail: `a transfer must be asked for within ${f.terms.withinDays} days of the vehicle's sale to the new owner (${f.transferDate})`,
      errors: [
        {
          field: 'transferDate',
          code: 'window_closed',
          message: `more than ${f.terms.withinDays} days before today (${f.today})`,
        },
      ],
    }
  if (f.toDealer && !f.terms.dealerMayOwn)
    return {
      code: 'transfer_not_allowed',
      detail: "the product's terms do not let a dealer be the new owner",
      errors: [{ field: 'newOwnerDealerId', code: 'not_allowed', message: 'a dealer may not own this contract' }],
    }
  return null
}
