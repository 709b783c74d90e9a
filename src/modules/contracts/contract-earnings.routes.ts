// The earnings routes (docs/earnings.md): GET /api/contracts/{contractId}/earningdetails, how each
// priced line of a contract is earned as of a date (contracts:read; 404 when the contract is not
// visible); POST /api/contracts/{contractId}/syncEarnings and POST /api/contracts/updateEarnings,
// which post what is due (processes:run, "Start automatic processes": the earnings process, run by
// hand or by the scheduler).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { IdFilter, nullable, problemResponses } from '../../platform/http/schemas.ts'
import { EARNINGS_METHODS } from '../rating/index.ts'
import { MAX_RUN_ERRORS, SYNCABLE_STATUSES, type ContractEarnings } from './contract-earnings.ts'
import { ContractIdParams } from './contract.schemas.ts'

const PROCESS_PERMISSION = 'processes:run'

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
  postedThrough: '2025-04-30',
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
      earnedPosted: 7.5,
      dueToPost: 4.95,
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
    postedThrough: nullable(
      Type.String({
        format: 'date',
        description: 'The as-of date of the last earnings run that posted for the contract; null when none has.',
      }),
    ),
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
        earnedPosted: nullable(
          Money(
            "What earnings runs posted for the line's disbursement code (its ADMINISTRATOR_REVENUE), shown on the code's first administrator line. Null on the code's other lines, and on a third-party line: its payee's sub-ledger, never posted by a sync.",
          ),
        ),
        dueToPost: nullable(
          Money(
            "The code's earned to date − earnedPosted: what a sync as of this date would post (negative: back to unearned). Null where earnedPosted is.",
          ),
        ),
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

const AsOf = (description: string) => Type.String({ format: 'date', maxLength: 10, description })

const SyncBody = Type.Object(
  {
    asOf: Type.Optional(
      AsOf(
        "YYYY-MM-DD; default today in the tenant's time zone, never after it (422). A cancelled contract is synced to its cancel date at the latest.",
      ),
    ),
  },
  { additionalProperties: false },
)

const SYNC_EXAMPLE = {
  contractId: 900123,
  contractNumber: 'VSC-PLAT-U-0126-00000042',
  status: 'ACTIVE',
  asOf: '2025-05-31',
  requestedAsOf: '2025-05-31',
  earningsStoppedOn: null,
  outcome: 'POSTED',
  lines: [{ code: 'ADM', earnedToDate: 12.45, earnedPosted: 7.5, due: 4.95 }],
  totalDue: 4.95,
  entryId: 5531,
  runId: 77,
  settlementEntryId: null,
  settledByCancel: false,
}

export const EarningsSyncSchema = Type.Object(
  {
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    status: Type.String(),
    asOf: Type.String({ format: 'date', description: 'The date earned-to-date is computed as of.' }),
    requestedAsOf: Type.String({ format: 'date' }),
    earningsStoppedOn: nullable(Type.String({ format: 'date', description: 'A cancelled contract: its cancel date.' })),
    outcome: Type.Unsafe<string>({
      type: 'string',
      enum: ['POSTED', 'NOTHING_DUE'],
      description: 'NOTHING_DUE: every administrator line was already posted to this date; nothing was written.',
    }),
    lines: Type.Array(
      Type.Object({
        code: Type.String(),
        earnedToDate: Money('round(amount × earned fraction as of asOf).'),
        earnedPosted: Money('What earnings runs had posted for the line before this sync.'),
        due: Money('earnedToDate − earnedPosted: what this sync posted (negative: Dr revenue, Cr unearned).'),
      }),
      { description: "The administrator's own lines only; third-party lines are their payees' sub-ledger." },
    ),
    totalDue: Money(),
    entryId: nullable(Type.Integer({ description: 'The EARNINGS_RECOGNIZED entry; null when nothing was due.' })),
    runId: nullable(Type.Integer({ description: "The run the entry was posted for (the entry's PROCESS source)." })),
    settlementEntryId: nullable(
      Type.Integer({
        description:
          "The CONTRACT_REFINALIZED entry that first moved an old contract's administrator lines to UNEARNED_REVENUE (decision 0012).",
      }),
    ),
    settledByCancel: Type.Boolean({
      description: 'A cancel entry cleared the lines: earnings runs post nothing more for the contract.',
    }),
  },
  { $id: 'ContractEarningsSync', examples: [SYNC_EXAMPLE] },
)

const UpdateBody = Type.Object(
  {
    asOf: Type.Optional(AsOf("YYYY-MM-DD; default today in the tenant's time zone, never after it (422).")),
    dealerId: Type.Optional(IdFilter('Only contracts of this dealer.')),
    productType: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Only this product type.' })),
    contractIds: Type.Optional(
      Type.Array(IdFilter('A contract id.'), { minItems: 1, maxItems: 1000, description: 'Only these contracts.' }),
    ),
    statuses: Type.Optional(
      Type.Array(Type.Unsafe<(typeof SYNCABLE_STATUSES)[number]>({ type: 'string', enum: [...SYNCABLE_STATUSES] }), {
        minItems: 1,
        maxItems: SYNCABLE_STATUSES.length,
        description: 'Default every sold status: FINALIZED, ACTIVE, EXPIRED, CANCELLED.',
      }),
    ),
    runId: Type.Optional(
      IdFilter(
        'Resume this run (still RUNNING) after its cursor, with its own date and filters; the other members are ignored.',
      ),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'Examine at most this many contracts in this call; the run stays RUNNING when more remain.',
      }),
    ),
  },
  { additionalProperties: false },
)

const RUN_EXAMPLE = {
  runId: 78,
  status: 'COMPLETED',
  asOf: '2025-05-31',
  filters: {
    dealerId: null,
    productType: 'VSC',
    contractIds: null,
    statuses: ['FINALIZED', 'ACTIVE', 'EXPIRED', 'CANCELLED'],
  },
  cursor: 900210,
  examined: 1200,
  posted: 1187,
  nothingDue: 12,
  failed: 1,
  errors: [
    {
      contractId: 900177,
      code: 'ledger_period_closed',
      detail: 'An entry dated 2025-05-31 falls in the closed period',
    },
  ],
  entries: 1187,
  startedAt: '2025-05-31T23:00:00.000Z',
  finishedAt: '2025-05-31T23:00:04.512Z',
  durationMs: 4512,
}

export const EarningsRunSchema = Type.Object(
  {
    runId: Type.Integer({ description: 'The run: the PROCESS source of the entries it posted.' }),
    status: Type.Unsafe<string>({
      type: 'string',
      enum: ['RUNNING', 'COMPLETED'],
      description: 'RUNNING: the call stopped at `limit` with contracts left; resume with `runId`.',
    }),
    asOf: Type.String({ format: 'date' }),
    filters: Type.Object({
      dealerId: nullable(Type.Integer()),
      productType: nullable(Type.String()),
      contractIds: nullable(Type.Array(Type.Integer())),
      statuses: Type.Array(Type.String()),
    }),
    cursor: nullable(Type.Integer({ description: 'The last contract id examined; a resumed run goes on after it.' })),
    examined: Type.Integer({ description: 'Contracts examined by the run so far (every call).' }),
    posted: Type.Integer({ description: 'Contracts for which an entry was posted.' }),
    nothingDue: Type.Integer({ description: 'Contracts already up to date: nothing posted.' }),
    failed: Type.Integer({ description: 'Contracts whose sync failed (rolled back alone; the run went on).' }),
    errors: Type.Array(Type.Object({ contractId: Type.Integer(), code: Type.String(), detail: Type.String() }), {
      description: `Why each failed, the first ${MAX_RUN_ERRORS} kept.`,
    }),
    entries: Type.Integer({ description: 'Entries posted by this call.' }),
    startedAt: Type.String({ format: 'date-time' }),
    finishedAt: nullable(Type.String({ format: 'date-time' })),
    durationMs: Type.Integer({ description: 'How long this call took.' }),
  },
  { $id: 'EarningsRun', examples: [RUN_EXAMPLE] },
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

  app.addSchema(EarningsSyncSchema)
  app.post(
    '/api/contracts/:contractId/syncEarnings',
    {
      schema: {
        tags: ['Contracts'],
        operationId: 'syncContractEarnings',
        summary: "Post what is due of a contract's earnings",
        description:
          "Under the contract's row lock: settles an old contract's sale postings first (decision 0012), then posts one EARNINGS_RECOGNIZED entry moving, per administrator line, earned-to-date as of `asOf` minus what earnings runs already posted from UNEARNED_REVENUE to ADMINISTRATOR_REVENUE (cumulative rounding). Nothing due: nothing is written (a repeated sync posts nothing). A cancelled contract is synced to its cancel date at most, and not at all once its cancel entry stands. Third-party lines are not posted. 409 for a pending or voided contract; 422 for an asOf after today; 404 for a contract the caller cannot see.",
        params: ContractIdParams,
        body: SyncBody,
        response: {
          200: Type.Unsafe<Record<string, unknown>>({ $ref: 'ContractEarningsSync#' }),
          ...problemResponses(404, 409, 422, 423),
        },
      },
      config: { permission: PROCESS_PERMISSION },
    },
    async (req) => earnings.sync(authenticatedContext(req), req.params.contractId, req.body),
  )

  app.addSchema(EarningsRunSchema)
  app.post(
    '/api/contracts/updateEarnings',
    {
      schema: {
        tags: ['Contracts'],
        operationId: 'updateContractEarnings',
        summary: 'Run the earnings sync over many contracts',
        description:
          'Syncs every contract the filters select (default: every sold contract), in contract-id order, 500 at a time, each in its own transaction: a contract that fails is counted and reported, and the run goes on. The run is recorded with its cursor after every batch, so a run stopped by `limit` (or interrupted) resumes with `runId`. Running it again for the same date posts nothing new. Answers the run: examined, posted, nothing due, failed (with each error), entries, duration.',
        body: UpdateBody,
        response: {
          200: Type.Unsafe<Record<string, unknown>>({ $ref: 'EarningsRun#' }),
          ...problemResponses(404, 409, 422),
        },
      },
      // Not under Idempotency-Key: a run is many transactions (one per contract), which one
      // request-wide transaction would merge, and a run repeated posts nothing new anyway.
      config: { permission: PROCESS_PERMISSION, idempotent: false },
    },
    async (req) => earnings.update(authenticatedContext(req), req.body),
  )
}
