import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { formatRateId, parseRateId, RATE_ID_PATTERN } from './rate-id.ts'

test('a rate id reads back as what it was made from', () => {
  fc.assert(
    fc.property(
      fc.record({
        planId: fc.integer({ min: 1, max: 999_999_999_999_999 }),
        termId: fc.integer({ min: 1, max: 999_999_999_999_999 }),
        deductibleId: fc.integer({ min: 1, max: 999_999_999_999_999 }),
        rateIndex: fc.integer({ min: 0, max: 999_999_999 }),
      }),
      (ref) => {
        const id = formatRateId(ref)
        assert.match(id, new RegExp(RATE_ID_PATTERN))
        assert.deepEqual(parseRateId(id), { ...ref })
      },
    ),
  )
})

test('anything else is not a rate id', () => {
  for (const text of [
    '',
    'r.1.2.3',
    'r.1.2.3.4.5',
    'q.1.2.3.4',
    'r.1.2.3.-4',
    'r.1.2.3.1e3',
    'r.1.2.3.4 ',
    'r.1234567890123456.1.1.1',
    'r.1.1.1.1234567890',
  ])
    assert.equal(parseRateId(text), undefined, text)
  assert.deepEqual(parseRateId('r.8.11.6.42'), { planId: 8, termId: 11, deductibleId: 6, rateIndex: 42 })
})
