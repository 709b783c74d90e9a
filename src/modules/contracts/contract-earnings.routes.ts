// GET /api/contracts/{contractId}/earningdetails (docs/earnings.md): how each priced line of a
// contract is earned, as of a date. Visible as the contract is (contracts:read; 404 otherwise).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { EARNINGS_METHODS } from '../rating/index.ts'
import type { ContractEarnings } from './contract-earnings.ts'
import { ContractIdParams } from './contract.schemas.ts'

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const Money = (description?: string) => Type.Number(description ? { description } : {})

const EarningDetailsQuery = Type.Object(
  {
    asOf: Type.Optional(
      Type.String({
        format: 'date',
        maxLength: 10,
        description:
          "YYYY-MM-DD; default today in the tenant's time zone. Any date: before the effective date nothing is earned, from the expiration date everything.",
      }),
    ),
    schedule: Type.Optional(
      Type.Boolean({ description: 'Whether each line carries its schedule by month (default true).' }),
    ),
  },
  { additionalProperties: false },
)

const EXAMPLE = {
  contractId: 900123,
  contractNumber: 'VSC-PLAT-U-0126-00000042',
  status: 'ACTIVE',
  asOf: '2025-05-31',
  requestedAsOf: '2025-05-31',
  earningsStoppedOn: null,
  effectiveDate: '2025-03-14',
  expirationDate: '2028-03-14',
  termMonths: 36,
  totals: { amount: 175, earnedToDate: 12.45, unearned: 162.55 },
  lines: [
    {
      lineNumber: 1,
      code: 'ADM',
      group: 'ADMIN_FEE',
      label: 'Administration fee',
      source: 'RATE',
      payeeAccountHolderId: 1,
      method: 'PRO_RATA_DAYS',
      curveCode: null,
      monthCounting: null,
      refundable: true,
      amount: 175,
      earnedToDate: 12.45,
      unearned: 162.55,
      earnedFraction: '78/1096',
      earnedFactor: '0.071168',
      schedule: [
        {
          periodStart: '2025-03-14',
          periodEnd: '2025-03-31',
          earnedThisPeriod: 2.71,
          earnedToDate: 2.71,
          unearned: 172.29,
        },
        {
          periodStart: '2025-04-01',
          periodEnd: '2025-04-30',
          earnedThisPeriod: 4.79,
          earnedToDate: 7.5,
          unearned: 167.5,
        },
      ],
    },
  ],
}

export const EarningDetailsSchema = Type.Object(
  {
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    status: Type.String(),
    asOf: Type.String({
      format: 'date',
      description: 'The date the amounts are as of (the cancel date when asked later than it).',
    }),
    requestedAsOf: Type.String({ format: 'date' }),
    earningsStoppedOn: nullable(
      Type.String({
        format: 'date',
        description: 'A cancelled contract: its cancel date, after which it earns nothing.',
      }),
    ),
    effectiveDate: Type.String({ format: 'date' }),
    expirationDate: Type.String({ format: 'date' }),
    termMonths: Type.Integer(),
    totals: Type.Object({ amount: Money(), earnedToDate: Money(), unearned: Money() }),
    lines: Type.Array(
      Type.Object({
        lineNumber: Type.Integer({ description: "The line's position in the contract's pricing lines, from 1." }),
        code: Type.String(),
        group: Type.String(),
        label: Type.String(),
        source: Type.String(),
        payeeAccountHolderId: Type.Integer(),
        method: Type.Unsafe<string>({ type: 'string', enum: [...EARNINGS_METHODS] }),
        curveCode: nullable(Type.String()),
        monthCounting: nullable(Type.String()),
        refundable: Type.Boolean(),
        amount: Money(),
        earnedToDate: Money('round(amount × earned fraction), rounded once, half up.'),
        unearned: Money(),
        earnedFraction: Type.String({ description: 'The exact earned fraction, num/den.' }),
        earnedFactor: Type.String({ description: 'The fraction to six places, for display.' }),
        schedule: nullable(
          Type.Array(
            Type.Object({
              periodStart: Type.String({ format: 'date' }),
              periodEnd: Type.String({ format: 'date', description: 'A month end, or the expiration date.' }),
              earnedThisPeriod: Money(
                'The difference of earned-to-date at the two ends: periods add up to the amount.',
              ),
              earnedToDate: Money(),
              unearned: Money(),
            }),
          ),
        ),
      }),
    ),
  },
  { $id: 'ContractEarningDetails', examples: [EXAMPLE] },
)

export const contractEarningsRoutes: FastifyPluginAsyncTypebox<{ earnings: ContractEarnings }> = async (
  app,
  { earnings },
) => {
  app.addSchema(EarningDetailsSchema)
  app.get(
    '/api/contracts/:contractId/earningdetails',
    {
      schema: {
        tags: ['Contracts'],
        operationId: 'getContractEarningDetails',
        summary: 'How each priced line of a contract is earned, as of a date',
        description:
          'Each priced line of the contract by its earnings method from the contract\'s terms (money.md "Earnings"): amount, earned to date (rounded once), unearned, the exact fraction, and the schedule by calendar month (cumulative rounding: the periods add up to the line). A cancelled contract earns nothing after its cancel date. 409 for a voided contract; 404 for one the caller cannot see.',
        params: ContractIdParams,
        querystring: EarningDetailsQuery,
        response: {
          200: Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractEarningDetails#' }),
          ...problemResponses(404, 409),
        },
      },
      config: { permission: 'contracts:read' },
    },
    async (req) => earnings.details(authenticatedContext(req), req.params.contractId, req.query),
  )
}
