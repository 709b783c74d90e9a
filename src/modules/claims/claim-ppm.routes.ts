// PPM services over HTTP (docs/claims.md "PPM services"): a contract's prepaid-maintenance schedule
// with what its claims used and what is left, and the same for a claim's contract with the claim's
// jobs that redeem each service. The contract's path lives among the contracts' but the claims
// module serves it: the uses are the claims'.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { ClaimIdParams } from './claim.schemas.ts'
import { ClaimPpmServiceSchema, ContractPpmServiceSchema, PpmContractIdParams } from './claim-ppm.schemas.ts'
import type { ClaimPpmService } from './claim-ppm.service.ts'

const USES =
  "A use counts when a job of one of the contract's claims names the service (ppmServiceCode), the job is not DENIED and the claim is neither VOIDED nor DENIED. The k-th use falls due intervalMonths × k months after the effective date or intervalMiles × k miles past the sale odometer, whichever comes first; a claim may redeem it 30 days or 500 miles before."

export const claimPpmRoutes: FastifyPluginAsyncTypebox<{ ppm: ClaimPpmService }> = async (app, { ppm }) => {
  app.get(
    '/api/contracts/:contractId/ppmservices',
    {
      schema: {
        tags: ['Contracts'],
        operationId: 'listContractPpmServices',
        summary: 'List the prepaid-maintenance services of a contract, used and remaining',
        description: `Each service of the contract's schedule (its coverage as sold) with its allowance, the uses redeemed, what is left and when the next use falls due. ${USES} [] for a contract without a schedule (every product but PPM). 404 for a contract the caller cannot see (another tenant's, a dealer-side user's other dealers').`,
        params: PpmContractIdParams,
        response: { 200: Type.Array(ContractPpmServiceSchema), ...problemResponses(404) },
      },
      config: { permission: 'contracts:read' },
    },
    async (req) => ppm.contractServices(authenticatedContext(req), req.params.contractId),
  )

  app.get(
    '/api/claims/:claimId/ppmservices',
    {
      schema: {
        tags: ['Claims'],
        operationId: 'listClaimPpmServices',
        summary: "List the prepaid-maintenance services of a claim's contract and what the claim redeems",
        description: `The services of the claim's contract as GET /api/contracts/{contractId}/ppmservices gives them, each with the line numbers of this claim's jobs that redeem it (claimJobLineNumbers). ${USES} [] when the contract has no schedule. 404 for a claim the caller cannot see.`,
        params: ClaimIdParams,
        response: { 200: Type.Array(ClaimPpmServiceSchema), ...problemResponses(404) },
      },
      config: { permission: 'claims:read' },
    },
    async (req) => ppm.claimServices(authenticatedContext(req), req.params.claimId),
  )
}
