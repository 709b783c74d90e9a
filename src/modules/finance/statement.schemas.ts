// HTTP shapes of account-holder statements (docs/statements.md): the request body and the
// statement request as the API shows it, queued, running, completed or failed.
import { Type } from 'typebox'
import { DateTime, enumOf, IntegerId, nullable } from '../../platform/http/schemas.ts'
import { ACCOUNT_PURPOSES } from './ledger.rules.ts'
import { STATEMENT_FORMATS, STATEMENT_STATUSES } from './statement.rules.ts'

const PURPOSES = Object.keys(ACCOUNT_PURPOSES) as Array<keyof typeof ACCOUNT_PURPOSES>
const Money = (description: string) => Type.Number({ description })

export const AccountHolderIdParams = Type.Object({ accountHolderId: IntegerId('Account holder id') })
export const StatementRequestIdParams = Type.Object({
  accountHolderId: IntegerId('Account holder id'),
  statementRequestId: IntegerId('Statement request id'),
})

export const StatementRequestBodySchema = Type.Object(
  {
    // Checked as calendar dates by the service, so a bad date is a 422 naming the field.
    from: Type.String({ maxLength: 40, description: 'First accounting date of the period, YYYY-MM-DD.' }),
    to: Type.String({
      maxLength: 40,
      description: 'Last accounting date of the period (on or after from), YYYY-MM-DD.',
    }),
    format: Type.Optional(enumOf(STATEMENT_FORMATS, 'PDF (default) or CSV (RFC 4180).')),
    purpose: Type.Optional(
      enumOf(PURPOSES, "Only the holder's account of this purpose; by default every account of the holder."),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ from: '2026-11-01', to: '2026-11-30', format: 'CSV', purpose: 'DEALER_RECEIVABLE' }],
  },
)

const EXAMPLE = {
  id: 17,
  status: 'COMPLETED',
  accountHolderId: 1042,
  purpose: 'DEALER_RECEIVABLE',
  from: '2026-11-01',
  to: '2026-11-30',
  format: 'CSV',
  openingBalance: 1250,
  closingBalance: 3945.5,
  lineCount: 3,
  documentId: 88,
  fileId: 91,
  downloadUrl: '/api/files/91/download?t=3&expires=1764201600&signature=q1w2e3',
  downloadUrlExpiresAt: '2026-11-27T00:00:00.000Z',
  failureReason: null,
  createdAt: '2026-11-26T21:40:00.000Z',
  completedAt: '2026-11-26T21:40:00.000Z',
}

export const StatementRequestSchema = Type.Object(
  {
    id: Type.Integer({ description: 'The statement request id.' }),
    status: enumOf(
      STATEMENT_STATUSES,
      'QUEUED and RUNNING while a large statement is made in the background; COMPLETED with its document; FAILED with the reason.',
    ),
    accountHolderId: Type.Integer(),
    purpose: nullable(enumOf(PURPOSES), 'The account covered; null: every account of the holder.'),
    from: Type.String({ description: 'YYYY-MM-DD' }),
    to: Type.String({ description: 'YYYY-MM-DD' }),
    format: enumOf(STATEMENT_FORMATS),
    openingBalance: nullable(
      Money('Σ(debit − credit) of the lines dated before from: positive, owed by the holder. Null until made.'),
    ),
    closingBalance: nullable(Money('openingBalance plus the period lines, exactly. Null until made.')),
    lineCount: nullable(Type.Integer({ description: 'Journal lines in the period.' })),
    documentId: nullable(Type.Integer({ description: 'The stored statement (documents module), once COMPLETED.' })),
    fileId: nullable(Type.Integer({ description: 'Its file (GET /api/files/{fileId}).' })),
    downloadUrl: nullable(Type.String({ description: 'A signed link to the file, fresh on every read.' })),
    downloadUrlExpiresAt: nullable(DateTime('When downloadUrl stops working.')),
    failureReason: nullable(Type.String({ description: 'Why a FAILED request failed.' })),
    createdAt: DateTime('When it was requested.'),
    completedAt: nullable(DateTime('When it was made.')),
  },
  { $id: 'StatementRequest', examples: [EXAMPLE] },
)
