// claimNumberParts, table by table: for each valid format and sequence, the parts around the
// sequence make exactly the number formatContractNumber makes (what intake's write statement relies on).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { formatContractNumber } from '../settings/index.ts'
import { claimNumberOf, claimNumberParts } from './claim-number.rules.ts'

const DATE = '2026-11-27'
const FORMATS = [
  '{formPrefix}-{sequence:8}',
  'CLM{yyyy}{mm}-{sequence:6}',
  '{sequence}',
  '{sequence:1}/{yy}',
  'C-{yy}.{mm}-{sequence:12}-X',
  '{formPrefix}{sequence:4}{formPrefix}',
]
const SEQUENCES = [1, 9, 10, 1234, 99_999_999, 123_456_789]

describe('claimNumberParts', () => {
  for (const format of FORMATS)
    it(`${format}: the parts make formatContractNumber's number`, () => {
      const parts = claimNumberParts(format, { formPrefix: 'CLM', date: DATE })
      for (const sequence of SEQUENCES)
        assert.equal(
          claimNumberOf(parts, sequence),
          formatContractNumber(format, { formPrefix: 'CLM', sequence, date: DATE }),
          `sequence ${sequence}`,
        )
    })

  it('the parts of the default format', () => {
    assert.deepEqual(claimNumberParts('{formPrefix}-{sequence:8}', { formPrefix: 'CLM', date: DATE }), {
      prefix: 'CLM-',
      width: 8,
      suffix: '',
    })
  })

  it('a format without a sequence is refused (settings never store one)', () => {
    assert.throws(() => claimNumberParts('{formPrefix}-{yyyy}', { formPrefix: 'CLM', date: DATE }), /no \{sequence\}/)
  })
})
