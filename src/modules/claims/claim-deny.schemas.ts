// HTTP shapes of POST /api/contracts/denyClaims (docs/claims.md "Denying the claims of ended contracts").
import { Type } from 'typebox'
import { IntegerId, enumOf, nullable } from '../../platform/http/schemas.ts'
import { CLAIM_STATUSES } from './claim.rules.ts'
import { MAX_DENY_CONTRACTS } from './claim-deny.service.ts'

export const DenyClaimsBodySchema = Type.Union(
  [
    Type.Object(
      {
        contractIds: Type.Array(IntegerId('Contract id'), {
          minItems: 1,
          maxItems: MAX_DENY_CONTRACTS,
          description: `The contracts, 1 to ${MAX_DENY_CONTRACTS} (a repeated id counts once).`,
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object({ contractId: IntegerId('One contract') }, { additionalProperties: false }),
  ],
  {
    description: 'The contracts whose claims to judge: `contractIds`, or one `contractId`.',
    examples: [{ contractIds: [900123, 900124] }, { contractId: 900123 }],
  },
)

const Status = enumOf(CLAIM_STATUSES, 'A claim status.')

const ClaimResult = Type.Object({
  claimId: Type.Integer(),
  claimNumber: Type.String(),
  lossDate: Type.String({ format: 'date' }),
  before: Status,
  after: Status,
  denied: Type.Boolean({ description: 'Denied by this request (after is DENIED).' }),
  reason: Type.String({ description: 'Why the claim was denied, or why it was left.' }),
})

const ContractResult = Type.Object({
  contractId: Type.Integer(),
  contractNumber: Type.String(),
  status: Type.String({ description: "The contract's status." }),
  coverageEnded: nullable(
    Type.Object({
      kind: Type.Union([Type.Literal('CANCELLED'), Type.Literal('EXPIRED')]),
      from: Type.String({ format: 'date', description: 'The first day the coverage no longer covers.' }),
    }),
    'How the coverage ended; null: the contract has not ended (its claims are left).',
  ),
  reason: Type.String({ description: 'What was done with the contract, in words.' }),
  claims: Type.Array(ClaimResult, {
    description: 'Every claim of the contract, oldest first, and what happened to it.',
  }),
})

export const DenyClaimsReplySchema = Type.Object(
  {
    deniedCount: Type.Integer({ description: 'Claims denied by this request.' }),
    contracts: Type.Array(ContractResult),
  },
  {
    examples: [
      {
        deniedCount: 1,
        contracts: [
          {
            contractId: 900123,
            contractNumber: 'VSCPL-00A004352',
            status: 'CANCELLED',
            coverageEnded: { kind: 'CANCELLED', from: '2026-11-10' },
            reason: 'the contract was cancelled as of 2026-11-10: 1 of its 2 claim(s) denied (CONTRACT_NOT_IN_FORCE)',
            claims: [
              {
                claimId: 55012,
                claimNumber: 'CLM-202611-000512',
                lossDate: '2026-11-02',
                before: 'AUTHORIZED',
                after: 'AUTHORIZED',
                denied: false,
                reason:
                  'the loss on 2026-11-02 is before the contract was cancelled as of 2026-11-10: it was in force then and the claim stays payable',
              },
              {
                claimId: 55013,
                claimNumber: 'CLM-202611-000513',
                lossDate: '2026-11-15',
                before: 'OPEN',
                after: 'DENIED',
                denied: true,
                reason: 'the loss on 2026-11-15 is not covered: the contract was cancelled as of 2026-11-10',
              },
            ],
          },
        ],
      },
    ],
  },
)
