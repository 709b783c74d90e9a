// HTTP shapes of the PPM services of a contract and of a claim (docs/claims.md "PPM services";
// payloads.md §7 `{serviceCode, description, allowedCount, usedCount, intervalMiles?, intervalMonths?}`).
import { Type } from 'typebox'
import { IntegerId, nullable } from '../../platform/http/schemas.ts'

export const PpmContractIdParams = Type.Object({ contractId: IntegerId('Contract id') })

const serviceMembers = {
  serviceCode: Type.String({
    description: "The service's code in the contract's schedule (what a job's ppmServiceCode names).",
  }),
  description: Type.String({ description: 'What the service is.' }),
  allowedCount: Type.Integer({ description: 'How many times the contract allows it over its life.' }),
  usedCount: Type.Integer({
    description:
      "Uses redeemed by the contract's claims that are not VOIDED or DENIED (their jobs that are not DENIED).",
  }),
  remainingCount: Type.Integer({ description: 'allowedCount − usedCount, never below 0.' }),
  intervalMonths: nullable(Type.Integer(), 'Due every this many months from the effective date; null: not by date.'),
  intervalMiles: nullable(Type.Integer(), 'Due every this many miles from the sale odometer; null: not by miles.'),
  nextDueDate: nullable(
    Type.String({ format: 'date' }),
    'When the next use falls due by date (it may be redeemed 30 days earlier); null when none is left or not by date.',
  ),
  nextDueOdometer: nullable(
    Type.Integer(),
    'The odometer at which the next use falls due (it may be redeemed 500 miles earlier); null when none is left or not by miles.',
  ),
  schedule: Type.Array(
    Type.Object({
      sequence: Type.Integer({ description: 'The use, from 1.' }),
      dueDate: nullable(Type.String({ format: 'date' })),
      dueOdometer: nullable(Type.Integer()),
      used: Type.Boolean({ description: 'Among the first usedCount uses.' }),
    }),
    {
      description:
        'Every use with when it falls due: effective date + intervalMonths × k, sale odometer + intervalMiles × k.',
    },
  ),
}

const EXAMPLE = {
  serviceCode: 'OIL_CHANGE',
  description: 'Synthetic oil and filter change',
  allowedCount: 6,
  usedCount: 1,
  remainingCount: 5,
  intervalMonths: 6,
  intervalMiles: 7500,
  nextDueDate: '2027-03-10',
  nextDueOdometer: 15012,
  schedule: [
    { sequence: 1, dueDate: '2026-09-10', dueOdometer: 7512, used: true },
    { sequence: 2, dueDate: '2027-03-10', dueOdometer: 15012, used: false },
  ],
}

export const ContractPpmServiceSchema = Type.Object(serviceMembers, {
  description: "A prepaid-maintenance service of a contract's schedule, with what is used and left.",
  examples: [EXAMPLE],
})

export const ClaimPpmServiceSchema = Type.Object(
  {
    ...serviceMembers,
    claimJobLineNumbers: Type.Array(Type.Integer(), {
      description:
        "The line numbers of this claim's jobs that redeem the service (not DENIED); [] for none. A VOIDED or DENIED claim's are listed, though they do not count in usedCount.",
    }),
  },
  {
    description: "A prepaid-maintenance service of the claim's contract, with the claim's jobs that redeem it.",
    examples: [{ ...EXAMPLE, claimJobLineNumbers: [1] }],
  },
)
