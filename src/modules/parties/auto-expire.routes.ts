// POST /accountholders/autoexpirerequests (spec §4.3): bulk expiry, dry run by default.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { MAX_AUTO_EXPIRE } from './auto-expire.rules.ts'
import { AutoExpireRequestBody, AutoExpireResultSchema } from './auto-expire.schemas.ts'
import type { AutoExpireService } from './auto-expire.service.ts'

export const autoExpireRoutes: FastifyPluginAsyncTypebox<{ service: AutoExpireService }> = async (app, { service }) => {
  app.addSchema(AutoExpireResultSchema)

  app.post(
    '/api/accountholders/autoexpirerequests',
    {
      schema: {
        tags: ['Account holders'],
        operationId: 'expireAccountHolders',
        summary: 'Expire account holders in bulk',
        description: [
          'Sets the expired date of account holders named by `accountHolderIds` or matched by a `rule` (exactly one of the two). An expired account holder takes no new business.',
          `**dryRun defaults to true**: the answer lists what would be expired and nothing changes; send \`"dryRun": false\` to expire. At most ${MAX_AUTO_EXPIRE} account holders per request:`,
          `\`accountHolderIds\` holds at most ${MAX_AUTO_EXPIRE} ids; a rule takes the first \`limit\` matches by id and says \`truncated\` when more match (repeat the request for the rest).`,
          'Account holders already expired, or already due to expire by the requested date, are never changed (they are listed in `skipped` when named by id; a rule does not match them).',
          'A real run is one transaction: expired date set, version bumped, one audit record per account holder. Idempotency-Key is honoured.',
        ].join(' '),
        body: AutoExpireRequestBody,
        response: {
          200: Type.Unsafe<Record<string, unknown>>({ $ref: 'AutoExpireResult#' }),
          ...problemResponses(409, 422),
        },
      },
      config: { permission: 'accountholders:write' },
    },
    async (req) => service.run(authenticatedContext(req), req.body),
  )
}
