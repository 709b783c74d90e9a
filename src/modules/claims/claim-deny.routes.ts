// POST /api/contracts/denyClaims (docs/claims.md "Denying the claims of ended contracts"): a contracts
// path, served by the claims module, whose claims it denies.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { DenyClaimsBodySchema, DenyClaimsReplySchema } from './claim-deny.schemas.ts'
import type { ClaimDenyService } from './claim-deny.service.ts'

const DESCRIPTION = [
  "For each cancelled or expired contract, denies its claims still being decided (OPEN, PENDING_INSPECTION, AUTHORIZED) whose loss the coverage did not reach: a loss on or after the cancel date (the status history), or after the expiration date. Losses before stay payable. The denied reason is the tenant's CONTRACT_NOT_IN_FORCE; each claim is denied in its own transaction, its row locked, audited and announced (claim.denied).",
  'A claim whose payment was requested (PENDING_PAYMENT, PARTIALLY_PAID) is left: its claim expense is posted; the reply says to withdraw the payment request first. Settled claims (PAID, DENIED, CLOSED, VOIDED) are left. A contract that has not ended is listed with its claims left.',
  "The reply lists each contract and each of its claims: before, after, whether it was denied and why. 404 for a contract the caller cannot see (another tenant's, a dealer-side user's other dealers'), before anything is done.",
].join(' ')

export const claimDenyRoutes: FastifyPluginAsyncTypebox<{ deny: ClaimDenyService }> = async (app, { deny }) => {
  app.post(
    '/api/contracts/denyClaims',
    {
      schema: {
        tags: ['Claims'],
        operationId: 'denyContractClaims',
        summary: 'Deny the claims of cancelled or expired contracts whose loss the coverage did not reach',
        description: DESCRIPTION,
        body: DenyClaimsBodySchema,
        response: { 200: DenyClaimsReplySchema, ...problemResponses(404) },
      },
      config: { permission: 'claims:approve' },
    },
    async (req) => {
      const body = req.body
      const ids = 'contractIds' in body ? body.contractIds : [body.contractId]
      const contracts = await deny.denyClaims(authenticatedContext(req), ids)
      return { deniedCount: contracts.reduce((n, c) => n + c.claims.filter((x) => x.denied).length, 0), contracts }
    },
  )
}
