// A claim's number from the tenant's claimNumberFormat (docs/claims.md "Claims: intake, read, index"),
// split around its one sequence placeholder, so that intake's write statement can put the counter's
// next value in the middle (claim.repository.ts insertNumberedClaim): the counter row is then locked
// from that statement to the commit only. The format is valid (settings: exactly one {sequence} or
// {sequence:N}); the number is formatContractNumber's for any sequence (claim-number.rules.test.ts).
import { formatContractNumber } from '../settings/index.ts'

const SEQUENCE = /\{sequence(?::(\d{1,2}))?\}/

export type ClaimNumberParts = { prefix: string; width: number; suffix: string }

/** The number's text before and after the sequence, and the sequence's width (0: as long as it is). */
export function claimNumberParts(format: string, parts: { formPrefix: string; date: string }): ClaimNumberParts {
  const m = SEQUENCE.exec(format)
  if (!m) throw new Error(`claim number format ${JSON.stringify(format)} has no {sequence}`)
  const around = (text: string) => formatContractNumber(text, { ...parts, sequence: 0 })
  return {
    prefix: around(format.slice(0, m.index)),
    width: m[1] === undefined ? 0 : Number(m[1]),
    suffix: around(format.slice(m.index + m[0].length)),
  }
}

/** The number the parts make with `sequence` (what the write statement computes; a sequence longer than the width is written in full). */
export function claimNumberOf(p: ClaimNumberParts, sequence: number): string {
  return p.prefix + String(sequence).padStart(p.width, '0') + p.suffix
}
