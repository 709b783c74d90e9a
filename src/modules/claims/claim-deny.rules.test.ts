// Denying the claims of ended contracts (claim-deny.rules.ts), table by table: when a contract's
// coverage ended, and which of its claims are denied and why the others are left.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ContractStatus } from '../../platform/db/schema.contracts.ts'
import type { StatusHistoryPoint } from '../contracts/index.ts'
import { CLAIM_STATUSES, type ClaimStatus } from './claim.rules.ts'
import { coverageEnd, denyDecision, type EndedContract } from './claim-deny.rules.ts'

const p = (toStatus: ContractStatus, effectiveDate: string): StatusHistoryPoint => ({ toStatus, effectiveDate })
const SOLD = [p('PENDING', '2026-03-10'), p('FINALIZED', '2026-03-10'), p('ACTIVE', '2026-03-10')]
const contract = (status: ContractStatus, history: StatusHistoryPoint[]): EndedContract => ({
  status,
  effectiveDate: '2026-03-10',
  expirationDate: '2028-03-10',
  history,
})
const CANCELLED = contract('CANCELLED', [...SOLD, p('CANCELLED', '2026-05-15')])
const EXPIRED = contract('EXPIRED', [...SOLD, p('EXPIRED', '2028-03-11')])

describe('coverageEnd', () => {
  const cases: Array<[string, EndedContract, string, ReturnType<typeof coverageEnd>]> = [
    ['cancelled: from the cancel date', CANCELLED, '2026-06-01', { kind: 'CANCELLED', from: '2026-05-15' }],
    [
      'cancelled twice (reinstated between): the last cancel',
      contract('CANCELLED', [
        ...SOLD,
        p('CANCELLED', '2026-04-01'),
        p('ACTIVE', '2026-04-01'),
        p('CANCELLED', '2026-05-20'),
      ]),
      '2026-06-01',
      { kind: 'CANCELLED', from: '2026-05-20' },
    ],
    ['expired: the day after the expiration date', EXPIRED, '2028-04-01', { kind: 'EXPIRED', from: '2028-03-11' }],
    [
      'expired by mileage before the date: from the recorded expiry',
      contract('EXPIRED', [...SOLD, p('EXPIRED', '2027-08-01')]),
      '2027-09-01',
      { kind: 'EXPIRED', from: '2027-08-01' },
    ],
    [
      'active past its expiration date (expiry not recorded yet)',
      contract('ACTIVE', SOLD),
      '2028-03-11',
      { kind: 'EXPIRED', from: '2028-03-11' },
    ],
    ['active on its expiration date: not ended', contract('ACTIVE', SOLD), '2028-03-10', null],
    ['finalized, in its term: not ended', contract('FINALIZED', SOLD), '2026-06-01', null],
    ['pending: never in force', contract('PENDING', SOLD.slice(0, 1)), '2030-01-01', null],
    [
      'voided: never in force',
      contract('VOIDED', [...SOLD.slice(0, 1), p('VOIDED', '2026-03-11')]),
      '2030-01-01',
      null,
    ],
  ]
  for (const [name, c, today, end] of cases) test(name, () => assert.deepEqual(coverageEnd(c, today), end))
})

describe('denyDecision', () => {
  const cancelEnd = coverageEnd(CANCELLED, '2026-06-01')!
  const expiredEnd = coverageEnd(EXPIRED, '2028-04-01')!
  const cases: Array<[string, ClaimStatus, string, EndedContract, boolean, RegExp]> = [
    [
      'OPEN, loss after the cancel',
      'OPEN',
      '2026-05-20',
      CANCELLED,
      true,
      /not covered: the contract was cancelled as of 2026-05-15/,
    ],
    ['OPEN, loss on the cancel date', 'OPEN', '2026-05-15', CANCELLED, true, /not covered/],
    ['OPEN, loss the day before the cancel: payable', 'OPEN', '2026-05-14', CANCELLED, false, /stays payable/],
    ['PENDING_INSPECTION, loss after', 'PENDING_INSPECTION', '2026-05-20', CANCELLED, true, /not covered/],
    ['AUTHORIZED, loss after', 'AUTHORIZED', '2026-05-20', CANCELLED, true, /not covered/],
    ['AUTHORIZED, loss before: payable', 'AUTHORIZED', '2026-04-20', CANCELLED, false, /stays payable/],
    [
      'PENDING_PAYMENT, loss after: left',
      'PENDING_PAYMENT',
      '2026-05-20',
      CANCELLED,
      false,
      /withdraw the payment request/,
    ],
    [
      'PARTIALLY_PAID, loss after: left',
      'PARTIALLY_PAID',
      '2026-05-20',
      CANCELLED,
      false,
      /withdraw the payment request/,
    ],
    ['PENDING_PAYMENT, loss before: payable', 'PENDING_PAYMENT', '2026-04-20', CANCELLED, false, /stays payable/],
    ['PAID: settled', 'PAID', '2026-05-20', CANCELLED, false, /PAID already/],
    ['DENIED: settled', 'DENIED', '2026-05-20', CANCELLED, false, /DENIED already/],
    ['CLOSED: settled', 'CLOSED', '2026-05-20', CANCELLED, false, /CLOSED already/],
    ['VOIDED: settled', 'VOIDED', '2026-05-20', CANCELLED, false, /VOIDED already/],
    ['expired, loss on the expiration date: payable', 'OPEN', '2028-03-10', EXPIRED, false, /stays payable/],
    [
      'expired, loss after the expiration date',
      'OPEN',
      '2028-03-11',
      EXPIRED,
      true,
      /not covered: the contract was expired/,
    ],
  ]
  for (const [name, status, lossDate, c, deny, reason] of cases)
    test(name, () => {
      const end = c === CANCELLED ? cancelEnd : expiredEnd
      const d = denyDecision({ status, lossDate }, c, end)
      assert.equal(d.deny, deny)
      assert.match(d.reason, reason)
    })

  test('only OPEN, PENDING_INSPECTION and AUTHORIZED claims are ever denied', () => {
    const denied = CLAIM_STATUSES.filter(
      (s) => denyDecision({ status: s, lossDate: '2026-05-20' }, CANCELLED, cancelEnd).deny,
    )
    assert.deepEqual(denied, ['OPEN', 'PENDING_INSPECTION', 'AUTHORIZED'])
  })
})
