// HTTP shapes of automatic process runs (docs/processes.md).
import { Type } from 'typebox'
import { DateTime, enumOf, nullable, PagedQuery } from '../../platform/http/schemas.ts'
import { describeParameters } from './processes.rules.ts'
import { PROCESSES, RUN_STATUSES } from './processes.service.ts'

const DateParam = (description: string) =>
  Type.String({ format: 'date', maxLength: 10, description, examples: ['2026-11-27'] })

export const RunGuidParams = Type.Object({
  // Not format uuid: an id that names no run, of any shape, is a 404 like another tenant's.
  guid: Type.String({
    minLength: 1,
    maxLength: 36,
    description: 'The run guid.',
    examples: ['0b8f7a52-8a1e-4d55-9a43-0a3b8f3e4c11'],
  }),
})

export const RunListQuery = Type.Object(
  {
    ...PagedQuery,
    process: Type.Optional(enumOf(PROCESSES, 'Only runs of this process.')),
    status: Type.Optional(enumOf(RUN_STATUSES, 'Only runs in this status.')),
    from: Type.Optional(DateParam('Runs created on or after this day (UTC), YYYY-MM-DD.')),
    to: Type.Optional(DateParam('Runs created on or before this day (UTC), YYYY-MM-DD.')),
  },
  { additionalProperties: false },
)

// process and parameters are checked by the service, so a bad one is a 422 naming the field.
export const RunStartBody = Type.Object(
  {
    process: Type.String({ maxLength: 40, description: `One of ${PROCESSES.join(', ')}.` }),
    parameters: Type.Optional(
      Type.Record(Type.String({ maxLength: 40 }), Type.Unknown(), {
        description: `The process's parameters; any other is refused (422 naming it). ${describeParameters()}`,
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { process: 'EXPIRY', parameters: { batchSize: 500 } },
      { process: 'MONTHLY_STATEMENTS', parameters: { month: '2026-10', format: 'CSV' } },
    ],
  },
)

export const RunPatchBody = Type.Object(
  { status: enumOf(['CANCELLED'] as const, 'CANCELLED: stop the run at its next batch.') },
  { additionalProperties: false, examples: [{ status: 'CANCELLED' }] },
)

const ItemError = Type.Object({
  itemId: Type.Integer({
    description: 'The item: a contract id (a dealer id for MONTHLY_STATEMENTS); 0: the process itself failed.',
  }),
  code: Type.String(),
  message: Type.String(),
})

export const RunSchema = Type.Object(
  {
    guid: Type.String({ format: 'uuid' }),
    process: enumOf(PROCESSES),
    parameters: Type.Record(Type.String(), Type.Unknown()),
    slot: nullable(
      Type.String({ format: 'date' }),
      'The tenant-local day of a scheduled run; null when started on demand.',
    ),
    status: enumOf(RUN_STATUSES),
    cursor: Type.Integer({ description: 'The last item id done; a resumed run goes on after it.' }),
    examined: Type.Integer(),
    changed: Type.Integer(),
    failed: Type.Integer({ description: 'Items that failed (exact); errors keeps the first 100.' }),
    errors: Type.Array(ItemError),
    state: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'What the run fixed when it started: `day` (the tenant-local day it works as of); EARNINGS `asOf` and `earningsRunId`; MONTHLY_STATEMENTS `month` and `format`. Empty while QUEUED.',
    }),
    startedBy: Type.String(),
    createdAt: DateTime('When the run was queued.'),
    startedAt: nullable(DateTime('When work on it began.')),
    finishedAt: nullable(DateTime('When it finished.')),
    durationMs: nullable(Type.Integer()),
  },
  {
    $id: 'AutomaticProcessRun',
    title: 'AutomaticProcessRun',
    examples: [
      {
        guid: '0b8f7a52-8a1e-4d55-9a43-0a3b8f3e4c11',
        process: 'EXPIRY',
        parameters: {},
        slot: '2026-11-27',
        status: 'SUCCEEDED',
        cursor: 5001,
        examined: 12,
        changed: 11,
        failed: 1,
        errors: [{ itemId: 4990, code: 'contract_locked', message: 'the contract is locked by another user' }],
        state: { day: '2026-11-27' },
        startedBy: 'scheduler',
        createdAt: '2026-11-27T07:15:00.000Z',
        startedAt: '2026-11-27T07:15:00.120Z',
        finishedAt: '2026-11-27T07:15:01.410Z',
        durationMs: 1290,
      },
    ],
  },
)
