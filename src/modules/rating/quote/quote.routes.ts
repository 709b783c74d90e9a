// GET /api/Rates/rateQuote/{dealerNumber} (spec §4.3, docs/rate-quote.md) and GET
// /api/Rates/quotes/{quoteId}, which shows a quote again from its id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { authenticatedContext, hasPermission, type AuthenticatedContext } from '../../../platform/http/context.ts'
import { platformErrors } from '../../../platform/http/errors.ts'
import { problemResponses } from '../../../platform/http/schemas.ts'
import { validatedExcept } from '../../../platform/http/validation.ts'
import { readQuoteQuery } from './quote.rules.ts'
import { RateQuoteQuery, RateQuoteSchema } from './quote.schemas.ts'
import type { QuoteService } from './quote.service.ts'
import type { EncodedReply } from './reply-json.ts'
import { MAX_QUOTE_ID_LENGTH } from './quote.token.ts'

const TAGS = ['Rates']

/** Sends an encoded reply; its buffer goes back to the pool when the response is over. */
function sendEncoded(res: FastifyReply, reply: EncodedReply) {
  res.raw.once('close', reply.release)
  return res.type('application/json; charset=utf-8').send(reply.bytes)
}

function requireExplain(ctx: AuthenticatedContext) {
  if (!hasPermission(ctx.principal.permissions, 'rates:explain')) {
    throw platformErrors.create('permission_denied', 'explain=true requires the rates:explain permission')
  }
}

export const quoteRoutes: FastifyPluginAsyncTypebox<{
  service: QuoteService
  today: (tenantId: number) => Promise<string>
}> = async (app, { service, today }) => {
  app.addSchema(RateQuoteSchema)
  // A Buffer is the reply already serialized (see below); the schema documents its shape.
  const quoteRef = Type.Unsafe<Record<string, unknown> | Buffer>({ $ref: 'RateQuote#' })

  app.get(
    '/api/Rates/rateQuote/:dealerNumber',
    {
      schema: {
        operationId: 'getRateQuote',
        tags: TAGS,
        summary: 'Rate quote: the products, plans, terms, deductibles and priced rates a dealer can sell for a vehicle',
        description: [
          "Every parameter is optional at the HTTP layer; which inputs a product needs is the rate book's configuration, and a product whose inputs are missing is left out with a PRODUCT_INPUTS_MISSING message.",
          'Malformed parameters (bad date, negative odometer, VIN with a bad check digit, unknown parameter) answer 400 listing each; a sale date in the future or older than the saleDateLookBackDays setting, or an in-service date after the sale date, answer 422.',
          'An unknown dealer is 404; an inactive dealer, or one without visible products, gets 200 with no products and a message saying so.',
          'When nothing qualifies: `products: []` and the message NO_PLANS_FOUND "No plans found".',
          '`explain=true` (permission rates:explain) adds `exclusions`: every product, program, plan, term and deductible left out, with the rule that excluded it.',
          '`quoteId` is signed and self-describing: POST /contracts and GET /Rates/quotes/{quoteId} replay it over the same rate-book version; it expires after the quoteLifetime setting.',
        ].join(' '),
        params: Type.Object({
          dealerNumber: Type.String({ minLength: 1, maxLength: 40, description: 'The dealer number (any case).' }),
        }),
        querystring: RateQuoteQuery,
        response: { 200: quoteRef, ...problemResponses(404, 422) },
      },
      // readQuoteQuery reads the query and lists every bad parameter at once; the schema documents it.
      validatorCompiler: validatedExcept('querystring'),
      config: { permission: 'rates:read' },
    },
    async (req, res) => {
      const ctx = authenticatedContext(req)
      const { dealerNumber } = req.params as { dealerNumber: string }
      const read = readQuoteQuery(dealerNumber, req.query as Record<string, unknown>, await today(ctx.tenantId))
      if (!read.ok)
        throw platformErrors.create(
          'validation_failed',
          `${read.errors.length} invalid parameter(s): ${read.errors.map((e) => e.field).join(', ')}`,
          { errors: read.errors },
        )
      if (read.explain) requireExplain(ctx)
      // The service writes the reply's JSON itself (to the schema above, from cached priced
      // pieces); a Buffer is sent as is.
      return sendEncoded(res, await service.quote(ctx, read.inputs, read.explain))
    },
  )

  app.get(
    '/api/Rates/quotes/:quoteId',
    {
      schema: {
        operationId: 'getQuote',
        tags: TAGS,
        summary: 'Show a quote again from its id',
        description:
          "Replays the quote (same inputs, same rate-book version, same instant) and adds `expired`. A QUOTE_DISBURSEMENTS_CHANGED message warns when the dealer's disbursements changed since. 404 for an id that is not this tenant's or was altered.",
        params: Type.Object({ quoteId: Type.String({ minLength: 1, maxLength: MAX_QUOTE_ID_LENGTH }) }),
        querystring: Type.Object({ explain: Type.Optional(Type.Boolean({ default: false })) }),
        response: {
          // The same shape as the quote (`RateQuote`), whose optional `expired` a replay always sets.
          200: quoteRef,
          ...problemResponses(404),
        },
      },
      config: { permission: 'rates:read' },
    },
    async (req, res) => {
      const ctx = authenticatedContext(req)
      if (req.query.explain) requireExplain(ctx)
      return sendEncoded(res, await service.replay(ctx, req.params.quoteId, req.query.explain === true))
    },
  )
}
