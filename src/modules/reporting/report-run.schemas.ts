// Wire shapes of report runs (docs/reporting.md "Report runs").
import { Type } from 'typebox'
import { DateTime, enumOf, IntegerId, ListQuery, nullable } from '../../platform/http/schemas.ts'
import { REPORT_KINDS } from './report-run.rules.ts'
import { RUN_STATUSES } from './report-run.service.ts'

const Kind = enumOf(
  REPORT_KINDS,
  'REINSURANCE_STATEMENT (reinsurance companies), PREMIUM_BORDEREAU or CLAIMS_BORDEREAU (insurers).',
)
const Period = Type.String({
  maxLength: 20,
  description: 'The accounting month, YYYY-MM: a closed month (its last day on or before booksClosedThrough).',
  examples: ['2026-10'],
})

export const RUN_EXAMPLE = {
  id: 3,
  kind: 'REINSURANCE_STATEMENT',
  period: '2026-10',
  status: 'SUCCEEDED',
  riskBearerIds: [39, 41],
  progress: { done: 2, total: 2 },
  error: null,
  createdAt: '2026-11-05T18:00:00.000Z',
  createdBy: 'admin@demo.example',
  startedAt: '2026-11-05T18:00:01.000Z',
  finishedAt: '2026-11-05T18:00:02.000Z',
  documents: [
    {
      riskBearerId: 39,
      reportDocumentId: 7,
      producedBy: 'EARLIER',
      frozenAt: '2026-11-02T18:00:00.000Z',
      inputDigest: '5f0c6a3e0b1d9c2f4e7a8b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e',
      href: '/api/reports/runs/3/documents/39',
    },
    {
      riskBearerId: 41,
      reportDocumentId: 9,
      producedBy: 'THIS_RUN',
      frozenAt: '2026-11-05T18:00:02.000Z',
      inputDigest: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      href: '/api/reports/runs/3/documents/41',
    },
  ],
}

export const StartReportRunBody = Type.Object(
  {
    kind: Kind,
    period: Period,
    riskBearerIds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        minItems: 1,
        maxItems: 10_000,
        description: 'The risk bearers (default: every one of the kind). Each must be of the kind (422 naming it).',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ kind: 'REINSURANCE_STATEMENT', period: '2026-10' }],
  },
)

export const ReportRunSchema = Type.Object(
  {
    id: IntegerId('The run.'),
    kind: Kind,
    period: Type.String({ description: 'YYYY-MM' }),
    status: enumOf(RUN_STATUSES, 'QUEUED, RUNNING (under a lease), SUCCEEDED or FAILED (error says why).'),
    riskBearerIds: Type.Array(Type.Integer(), { description: 'The risk bearers, ascending: worked in this order.' }),
    progress: Type.Object({
      done: Type.Integer({ description: 'Risk bearers whose document is produced (or was already frozen).' }),
      total: Type.Integer({ description: 'Risk bearers of the run.' }),
    }),
    error: nullable(Type.Object({ code: Type.String(), message: Type.String() }), 'Why the run FAILED.'),
    createdAt: DateTime('When requested.'),
    createdBy: Type.String({ description: 'Who requested it.' }),
    startedAt: nullable(DateTime('When first taken up.')),
    finishedAt: nullable(DateTime('When it SUCCEEDED or FAILED.')),
    documents: Type.Array(
      Type.Object({
        riskBearerId: Type.Integer(),
        reportDocumentId: Type.Integer({ description: 'The frozen document.' }),
        producedBy: enumOf(
          ['THIS_RUN', 'EARLIER'] as const,
          'THIS_RUN, or EARLIER: frozen before by a request or another run, reused.',
        ),
        frozenAt: DateTime('When it was frozen.'),
        inputDigest: Type.String({ description: 'sha256 of the inputs it was produced from.' }),
        href: Type.String({ description: 'GET it here (JSON or CSV).' }),
      }),
      { description: 'The frozen documents of its risk bearers so far, by risk bearer.' },
    ),
  },
  { $id: 'ReportRun', title: 'ReportRun', examples: [RUN_EXAMPLE] },
)

export const ReportRunListQuery = Type.Object(
  {
    kind: Type.Optional(Kind),
    period: Type.Optional(Type.String({ maxLength: 20, description: 'Only runs of this month (YYYY-MM).' })),
    status: Type.Optional(enumOf(RUN_STATUSES, 'Only runs in this status.')),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const ReportRunParams = Type.Object({ reportRunId: IntegerId('The run.') })
export const ReportDocumentParams = Type.Object({
  reportRunId: IntegerId('The run.'),
  riskBearerId: IntegerId('One of its risk bearers.'),
})
export const ReportDocumentQuery = Type.Object(
  {
    format: Type.Optional(
      enumOf(['json', 'csv'] as const, 'json (default) or csv (RFC 4180); `Accept: text/csv` also asks for CSV.'),
    ),
  },
  { additionalProperties: false },
)
