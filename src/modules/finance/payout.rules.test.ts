import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { coveredRequests, dueCents, planPayouts, purposesOf, type PayableItem } from './payout.rules.ts'

const item = (payeeId: number, contractId: number, balanceCents: number, purpose = 'REFUND_PAYABLE'): PayableItem => ({
  payeeId,
  contractId,
  balanceCents,
  purpose: purpose as PayableItem['purpose'],
})

describe('planPayouts', () => {
  const cases: { name: string; items: PayableItem[]; paid: [number, number][]; skipped: number[] }[] = [
    { name: 'nothing open', items: [], paid: [], skipped: [] },
    { name: 'one refund', items: [item(1, 10, 5000)], paid: [[1, 5000]], skipped: [] },
    { name: 'zero balances are no items', items: [item(1, 10, 0)], paid: [], skipped: [] },
    {
      name: 'a chargeback nets against commissions',
      items: [item(2, 10, 3000, 'DISBURSEMENT_PAYABLE'), item(2, 11, -1000, 'DISBURSEMENT_PAYABLE')],
      paid: [[2, 2000]],
      skipped: [],
    },
    {
      name: 'a payee owing more than it is owed is skipped whole',
      items: [item(3, 10, 1000, 'DISBURSEMENT_PAYABLE'), item(3, 11, -1500, 'DISBURSEMENT_PAYABLE')],
      paid: [],
      skipped: [3],
    },
    { name: 'exactly netting out is skipped', items: [item(4, 1, 700), item(4, 2, -700)], paid: [], skipped: [4] },
    {
      name: 'payees apart, ordered by id',
      items: [item(9, 1, 100), item(5, 1, 200), item(5, 2, -50, 'DISBURSEMENT_PAYABLE')],
      paid: [
        [5, 150],
        [9, 100],
      ],
      skipped: [],
    },
    {
      name: 'claim payment requests are paid beside refunds and net a chargeback',
      items: [
        { ...item(6, 10, 19517, 'CLAIM_PAYABLE'), paymentRequestId: 2 },
        { ...item(6, 10, 4000, 'CLAIM_PAYABLE'), paymentRequestId: 1 },
        item(6, 11, -2500, 'DISBURSEMENT_PAYABLE'),
      ],
      paid: [[6, 21017]],
      skipped: [],
    },
    {
      name: 'a claim payee that owes more than its claims is skipped whole',
      items: [
        { ...item(7, 10, 1000, 'CLAIM_PAYABLE'), paymentRequestId: 3 },
        item(7, 11, -1000, 'DISBURSEMENT_PAYABLE'),
      ],
      paid: [],
      skipped: [7],
    },
  ]
  for (const c of cases)
    it(c.name, () => {
      const plan = planPayouts(c.items)
      assert.deepEqual(
        plan.payouts.map((p) => [p.payeeId, p.netCents]),
        c.paid,
      )
      assert.deepEqual(
        plan.skipped.map((s) => s.payeeId),
        c.skipped,
      )
      for (const p of plan.payouts) {
        const debits = p.paid.reduce((s, i) => s + i.balanceCents, 0)
        const credits = p.netted.reduce((s, i) => s - i.balanceCents, 0) + p.netCents
        assert.equal(debits, credits, 'the entry balances')
      }
    })
})

describe('purposesOf', () => {
  it('defaults to all, keeps a known subset, refuses unknown or empty', () => {
    assert.deepEqual(purposesOf(undefined), ['REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE', 'CLAIM_PAYABLE'])
    assert.deepEqual(purposesOf(['DISBURSEMENT_PAYABLE']), ['DISBURSEMENT_PAYABLE'])
    assert.deepEqual(purposesOf(['CLAIM_PAYABLE', 'REFUND_PAYABLE']), ['REFUND_PAYABLE', 'CLAIM_PAYABLE'])
    assert.equal(purposesOf([]), null)
    assert.equal(purposesOf(['CASH']), null)
  })
})

describe('dueCents', () => {
  const cases: [number, number, number][] = [
    [5000, 5000, 5000],
    [5000, 0, 0],
    [5000, 2000, 2000],
    [2000, 5000, 2000],
    [-800, -800, -800],
    [-800, -300, -300],
    [-800, 100, 0],
    [0, 900, 0],
  ]
  for (const [asOf, now, due] of cases)
    it(`as of ${asOf}, now ${now}: ${due}`, () => assert.equal(dueCents(asOf, now), due))
})

describe('planPayouts orders the claim items of a payee by contract, then request', () => {
  it('keeps each request an item of its own', () => {
    const plan = planPayouts([
      { ...item(1, 20, 100, 'CLAIM_PAYABLE'), paymentRequestId: 9 },
      { ...item(1, 10, 100, 'CLAIM_PAYABLE'), paymentRequestId: 8 },
      { ...item(1, 10, 100, 'CLAIM_PAYABLE'), paymentRequestId: 5 },
    ])
    assert.deepEqual(
      plan.payouts[0]!.paid.map((i) => [i.contractId, i.paymentRequestId]),
      [
        [10, 5],
        [10, 8],
        [20, 9],
      ],
    )
  })
})

describe('coveredRequests', () => {
  const r = (requestId: number, payeeId: number, contractId: number, amountCents: number) => ({
    requestId,
    payeeId,
    contractId,
    amountCents,
  })
  const cases: { name: string; requests: ReturnType<typeof r>[]; ledger: Record<string, number>; due: number[] }[] = [
    {
      name: 'the books owe exactly the requests',
      requests: [r(1, 5, 10, 700), r(2, 5, 10, 300)],
      ledger: { '5:10': 1000 },
      due: [1, 2],
    },
    {
      name: 'oldest first within what the books owe',
      requests: [r(2, 5, 10, 300), r(1, 5, 10, 800)],
      ledger: { '5:10': 1000 },
      due: [1],
    },
    {
      name: 'a later smaller request still fits',
      requests: [r(1, 5, 10, 900), r(2, 5, 10, 100), r(3, 5, 10, 50)],
      ledger: { '5:10': 950 },
      due: [1, 3],
    },
    { name: 'nothing owed: nothing due', requests: [r(1, 5, 10, 100)], ledger: {}, due: [] },
    {
      name: 'payees and contracts apart',
      requests: [r(1, 5, 10, 100), r(2, 6, 10, 100), r(3, 5, 11, 100)],
      ledger: { '5:10': 100, '6:10': 50, '5:11': 100 },
      due: [1, 3],
    },
    { name: 'zero requests are not items', requests: [r(1, 5, 10, 0)], ledger: { '5:10': 100 }, due: [] },
  ]
  for (const c of cases)
    it(c.name, () => {
      const due = coveredRequests(c.requests, (p, k) => c.ledger[`${p}:${k}`] ?? 0)
      assert.deepEqual(
        due.map((d) => d.requestId),
        c.due,
      )
    })
})
