import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { transferRefusal, type TransferFacts } from './contract-transfer.rules.ts'

const base: TransferFacts = {
  status: 'ACTIVE',
  terms: { allowed: true, fee: '50.00', withinDays: 30, dealerMayOwn: false },
  saleDate: '2026-01-10',
  expirationDate: '2029-01-10',
  today: '2026-06-01',
  transferDate: '2026-05-20',
  toDealer: false,
}

describe('transferRefusal', () => {
  const cases: Array<[string, Partial<TransferFacts>, string | null, string?]> = [
    ['an active contract within the window', {}, null],
    ['the last day of the window', { transferDate: '2026-05-02' }, null],
    ['a day past the window', { transferDate: '2026-05-01' }, 'transfer_window_closed', 'transferDate'],
    [
      'no window: any day since the sale',
      { terms: { ...base.terms, withinDays: null }, transferDate: '2026-01-10' },
      null,
    ],
    ['pending', { status: 'PENDING' }, 'contract_state_conflict'],
    ['finalized, not yet in effect', { status: 'FINALIZED' }, 'contract_state_conflict'],
    ['cancelled', { status: 'CANCELLED' }, 'contract_state_conflict'],
    ['expired', { status: 'EXPIRED' }, 'contract_state_conflict'],
    ['not allowed by the product', { terms: { ...base.terms, allowed: false } }, 'transfer_not_allowed'],
    [
      'before the sale',
      { transferDate: '2026-01-09', terms: { ...base.terms, withinDays: null } },
      'transfer_invalid',
      'transferDate',
    ],
    ['in the future', { transferDate: '2026-06-02' }, 'transfer_invalid', 'transferDate'],
    [
      'after the coverage ends',
      { today: '2029-02-01', transferDate: '2029-01-11' },
      'transfer_invalid',
      'transferDate',
    ],
    ['to a dealer when none may own it', { toDealer: true }, 'transfer_not_allowed', 'newOwnerDealerId'],
    ['to a dealer when one may', { toDealer: true, terms: { ...base.terms, dealerMayOwn: true } }, null],
  ]
  for (const [name, over, code, field] of cases)
    it(name, () => {
      const r = transferRefusal({ ...base, ...over })
      assert.equal(r?.code ?? null, code)
      if (field)
        assert.ok(
          r?.errors.some((e) => e.field === field),
          JSON.stringify(r),
        )
    })
})
