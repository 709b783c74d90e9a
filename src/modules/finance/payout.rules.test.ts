import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { dueCents, planPayouts, purposesOf, type PayableItem } from './payout.rules.ts'

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
    assert.deepEqual(purposesOf(undefined), ['REFUND_PAYABLE', 'DISBURSEMENT_PAYABLE'])
    assert.deepEqual(purposesOf(['DISBURSEMENT_PAYABLE']), ['DISBURSEMENT_PAYABLE'])
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
