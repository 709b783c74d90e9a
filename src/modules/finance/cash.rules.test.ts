import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { allocate, openItems, type OpenItem } from './cash.rules.ts'

describe('openItems', () => {
  const cases: Array<{ name: string; rows: Parameters<typeof openItems>[0]; want: OpenItem[] }> = [
    { name: 'none', rows: [], want: [] },
    {
      name: 'positive balances oldest first, ties by contract id',
      rows: [
        { contractId: 3, balanceCents: 500, firstDate: '2026-02-01' },
        { contractId: 2, balanceCents: 100, firstDate: '2026-01-01' },
        { contractId: 1, balanceCents: 200, firstDate: '2026-02-01' },
      ],
      want: [
        { contractId: 2, openCents: 100, firstDate: '2026-01-01' },
        { contractId: 1, openCents: 200, firstDate: '2026-02-01' },
        { contractId: 3, openCents: 500, firstDate: '2026-02-01' },
      ],
    },
    {
      name: 'zero and negative (chargeback) balances are not items',
      rows: [
        { contractId: 1, balanceCents: 0, firstDate: '2026-01-01' },
        { contractId: 2, balanceCents: -700, firstDate: '2026-01-01' },
        { contractId: 3, balanceCents: 1, firstDate: '2026-03-01' },
      ],
      want: [{ contractId: 3, openCents: 1, firstDate: '2026-03-01' }],
    },
  ]
  for (const c of cases) it(c.name, () => assert.deepEqual(openItems(c.rows), c.want))
})

describe('allocate', () => {
  const items: OpenItem[] = [
    { contractId: 1, openCents: 1000, firstDate: '2026-01-01' },
    { contractId: 2, openCents: 500, firstDate: '2026-01-02' },
  ]
  const cases: Array<{
    name: string
    available: number
    chosen?: Array<{ contractId: number; amountCents: number }>
    want: unknown
  }> = [
    {
      name: 'oldest first, partial on the last',
      available: 1200,
      want: {
        ok: true,
        applications: [
          { contractId: 1, amountCents: 1000 },
          { contractId: 2, amountCents: 200 },
        ],
        appliedCents: 1200,
      },
    },
    {
      name: 'oldest first, more than all items: the rest stays unapplied',
      available: 2000,
      want: {
        ok: true,
        applications: [
          { contractId: 1, amountCents: 1000 },
          { contractId: 2, amountCents: 500 },
        ],
        appliedCents: 1500,
      },
    },
    { name: 'nothing available', available: 0, want: { ok: true, applications: [], appliedCents: 0 } },
    {
      name: 'chosen items',
      available: 1500,
      chosen: [
        { contractId: 2, amountCents: 500 },
        { contractId: 1, amountCents: 300 },
      ],
      want: {
        ok: true,
        applications: [
          { contractId: 2, amountCents: 500 },
          { contractId: 1, amountCents: 300 },
        ],
        appliedCents: 800,
      },
    },
    {
      name: 'chosen more than the open amount',
      available: 5000,
      chosen: [{ contractId: 2, amountCents: 501 }],
      want: { ok: false, field: 'applications[0].amount', code: 'exceeds_open_amount' },
    },
    {
      name: 'the same contract twice counts together',
      available: 5000,
      chosen: [
        { contractId: 2, amountCents: 300 },
        { contractId: 2, amountCents: 300 },
      ],
      want: { ok: false, field: 'applications[1].amount', code: 'exceeds_open_amount' },
    },
    {
      name: 'a contract not open for this payer',
      available: 5000,
      chosen: [{ contractId: 9, amountCents: 1 }],
      want: { ok: false, field: 'applications[0].contractId', code: 'not_open_item' },
    },
    {
      name: 'more than the unapplied balance',
      available: 100,
      chosen: [{ contractId: 1, amountCents: 101 }],
      want: { ok: false, field: 'applications', code: 'exceeds_unapplied' },
    },
  ]
  for (const c of cases)
    it(c.name, () => {
      const got = allocate(items, c.available, c.chosen)
      if (got.ok) assert.deepEqual(got, c.want)
      else {
        const want = c.want as { field: string; code: string }
        assert.equal(got.ok, (c.want as { ok: boolean }).ok)
        assert.deepEqual(
          got.errors.map((e) => [e.field, e.code]),
          [[want.field, want.code]],
        )
      }
    })

  it('1,000 items allocate in one pass', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({
      contractId: i + 1,
      openCents: 100,
      firstDate: '2026-01-01',
    }))
    const got = allocate(many, 100_000)
    assert.ok(got.ok && got.applications.length === 1000 && got.appliedCents === 100_000)
  })
})
