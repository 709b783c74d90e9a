// TypeBox schemas of POST /accountholders/autoexpirerequests: the request (explicit ids or a rule,
// dry run by default) and the result (what was, or would be, expired and what was skipped, and why).
import { Type, type Static } from 'typebox'
import { EXPIRABLE_KINDS, MAX_AUTO_EXPIRE } from './auto-expire.rules.ts'

const ExpirableKind = Type.Unsafe<(typeof EXPIRABLE_KINDS)[number]>({ type: 'string', enum: [...EXPIRABLE_KINDS] })

export const AutoExpireRuleSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('DEALERS_WITHOUT_CONTRACTS_SINCE'), Type.Literal('INACTIVE_STATUS')], {
      description:
        'DEALERS_WITHOUT_CONTRACTS_SINCE: dealers whose latest contract was sold before `since`, or that never sold one and were created before `since`. ' +
        'INACTIVE_STATUS: account holders with status INACTIVE (optionally only of `kinds`).',
    }),
    since: Type.Optional(
      Type.String({
        format: 'date',
        description: 'YYYY-MM-DD (UTC); required by, and only for, DEALERS_WITHOUT_CONTRACTS_SINCE; not after today.',
      }),
    ),
    kinds: Type.Optional(
      Type.Array(ExpirableKind, {
        minItems: 1,
        maxItems: EXPIRABLE_KINDS.length,
        uniqueItems: true,
        description: 'Only for INACTIVE_STATUS: the kinds to take (default: every kind).',
      }),
    ),
  },
  { additionalProperties: false },
)
export type AutoExpireRuleInput = Static<typeof AutoExpireRuleSchema>

export const AutoExpireRequestBody = Type.Object(
  {
    accountHolderIds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        minItems: 1,
        maxItems: MAX_AUTO_EXPIRE,
        uniqueItems: true,
        description: `Account holders to expire, of any kind but the administrator company; at most ${MAX_AUTO_EXPIRE}.`,
      }),
    ),
    rule: Type.Optional(AutoExpireRuleSchema),
    dryRun: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'true (the default): report what would be expired and change nothing. false: expire.',
      }),
    ),
    expiredDate: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'The expired date to set; default now; a past instant means now. A future instant schedules the expiry.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_AUTO_EXPIRE,
        description: `Rule only: the most matches to take, by id (default and max ${MAX_AUTO_EXPIRE}); see truncated.`,
      }),
    ),
    note: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'Why: kept in the audit record of each expiry.' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of accountHolderIds and rule.',
    examples: [
      { rule: { type: 'DEALERS_WITHOUT_CONTRACTS_SINCE', since: '2025-01-01' }, dryRun: true },
      {
        accountHolderIds: [1042, 1043],
        dryRun: false,
        expiredDate: '2026-07-01T00:00:00Z',
        note: 'Dealer agreements terminated',
      },
    ],
  },
)
export type AutoExpireRequest = Static<typeof AutoExpireRequestBody>

const Expired = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  businessKey: Type.Union([Type.String(), Type.Null()]),
  legalName: Type.String(),
  reason: Type.Union([Type.Literal('REQUESTED'), Type.Literal('NO_CONTRACTS_SINCE'), Type.Literal('INACTIVE_STATUS')], {
    description: 'REQUESTED: named in accountHolderIds; NO_CONTRACTS_SINCE, INACTIVE_STATUS: taken by the rule.',
  }),
  detail: Type.String(),
  lastContractDate: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'Sale date of the latest contract (dealers).',
  }),
  previousExpiredDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'A later expiry that this one brings forward, if any.',
  }),
})

const Skipped = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.String(), Type.Null()], { description: 'null when not found.' }),
  businessKey: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union(
    [
      Type.Literal('NOT_FOUND'),
      Type.Literal('ALREADY_EXPIRED'),
      Type.Literal('ALREADY_SCHEDULED'),
      Type.Literal('NOT_EXPIRABLE'),
    ],
    {
      description:
        'NOT_FOUND: no such account holder in the tenant (or not visible to the caller); ALREADY_EXPIRED: its expired date has passed; ' +
        'ALREADY_SCHEDULED: it already expires on or before the requested date; NOT_EXPIRABLE: the administrator company.',
    },
  ),
  detail: Type.String(),
})

export const AutoExpireResultSchema = Type.Object(
  {
    dryRun: Type.Boolean({ description: 'true: nothing was changed; `expired` lists what a real run would expire.' }),
    expiredDate: Type.String({ format: 'date-time', description: 'The expired date set (or that would be set).' }),
    matchedCount: Type.Integer({
      description: 'Ids given, or account holders matching the rule (all of them, even beyond limit).',
    }),
    truncated: Type.Boolean({
      description: 'Rule only: more account holders match than limit; repeat the request for the rest.',
    }),
    expired: Type.Array(Expired, { description: 'Expired (or, in a dry run, would be expired), in id order.' }),
    skipped: Type.Array(Skipped, { description: 'Named in accountHolderIds but not expired, with the reason.' }),
  },
  {
    $id: 'AutoExpireResult',
    examples: [
      {
        dryRun: true,
        expiredDate: '2026-06-01T12:00:00.000Z',
        matchedCount: 2,
        truncated: false,
        expired: [
          {
            id: 1042,
            kind: 'DEALER',
            businessKey: '10045',
            legalName: 'Main Street Motors LLC',
            reason: 'REQUESTED',
            detail: 'named in accountHolderIds',
            lastContractDate: '2024-11-30',
            previousExpiredDate: null,
          },
        ],
        skipped: [
          {
            id: 1043,
            kind: 'DEALER',
            businessKey: '10046',
            reason: 'ALREADY_EXPIRED',
            detail: 'expired 2026-01-31T00:00:00.000Z',
          },
        ],
      },
    ],
  },
)
export type AutoExpireResult = Static<typeof AutoExpireResultSchema>
