// TypeBox schemas of the ledger's HTTP reads (docs/ledger.md "Reading over HTTP"): a journal entry
// with its lines, as GET /api/contracts/{contractId}/journalentries answers it.
import { Type } from 'typebox'
import { ACCOUNT_PURPOSES, ENTRY_KINDS, SOURCE_TYPES } from './ledger.rules.ts'
import { enumOf, nullable } from '../../platform/http/schemas.ts'

const SourceSchema = Type.Object(
  {
    type: enumOf(SOURCE_TYPES, 'What the entry records.'),
    id: Type.Integer({ description: "The source's own id: a contract, cancellation, claim, cash transaction, …" }),
  },
  { description: 'What the entry records.' },
)

const JournalLineSchema = Type.Object({
  lineNo: Type.Integer({ minimum: 1, description: "The line's number in its entry, from 1." }),
  contractId: nullable(Type.Integer(), 'The contract the line is on; null for a line on no contract.'),
  accountHolderId: Type.Integer({ description: 'The account holder whose account the line moves.' }),
  accountHolderName: Type.String({ description: "The account holder's display name." }),
  purpose: enumOf(Object.keys(ACCOUNT_PURPOSES) as Array<keyof typeof ACCOUNT_PURPOSES>, "The account's purpose."),
  side: enumOf(['DEBIT', 'CREDIT'] as const, 'The side the amount is on.'),
  amount: Type.Number({ minimum: 0.01, description: 'Positive, at most 2 decimals.' }),
  disbursementCode: nullable(Type.String(), 'The disbursement code of the priced line it posts, if any.'),
  memo: nullable(Type.String(), 'The memo of the line, if any.'),
  source: SourceSchema,
})

const JOURNAL_ENTRY_EXAMPLE = {
  id: 4410,
  kind: 'CONTRACT_FINALIZED',
  source: { type: 'CONTRACT', id: 1042 },
  effectiveDate: '2026-11-21',
  postedAt: '2026-11-21T18:00:00.000Z',
  postedBy: 'clerk@admin.example',
  memo: 'Finalized contract VSC-2026-000123',
  reversesEntryId: null,
  lines: [
    {
      lineNo: 1,
      contractId: 1042,
      accountHolderId: 77,
      accountHolderName: 'Lone Star Honda of Austin',
      purpose: 'DEALER_RECEIVABLE',
      side: 'DEBIT',
      amount: 1085,
      disbursementCode: null,
      memo: null,
      source: { type: 'CONTRACT', id: 1042 },
    },
    {
      lineNo: 2,
      contractId: 1042,
      accountHolderId: 3,
      accountHolderName: 'Heartland Casualty',
      purpose: 'DISBURSEMENT_PAYABLE',
      side: 'CREDIT',
      amount: 850,
      disbursementCode: 'RES',
      memo: null,
      source: { type: 'CONTRACT', id: 1042 },
    },
    {
      lineNo: 3,
      contractId: 1042,
      accountHolderId: 1,
      accountHolderName: 'Demo Administrator',
      purpose: 'UNEARNED_REVENUE',
      side: 'CREDIT',
      amount: 235,
      disbursementCode: 'ADM',
      memo: null,
      source: { type: 'CONTRACT', id: 1042 },
    },
  ],
}

export const JournalEntrySchema = Type.Object(
  {
    id: Type.Integer({ description: 'The journal entry id.' }),
    kind: enumOf(ENTRY_KINDS, 'What happened (docs/ledger.md "Entry kinds").'),
    source: SourceSchema,
    effectiveDate: Type.String({ format: 'date', description: 'The accounting date.' }),
    postedAt: Type.String({ format: 'date-time', description: 'When it was posted (UTC).' }),
    postedBy: Type.String({ description: 'Who posted it.' }),
    memo: nullable(Type.String(), 'The memo of the entry, if any.'),
    reversesEntryId: nullable(Type.Integer(), 'On a REVERSAL: the entry it reverses.'),
    lines: Type.Array(JournalLineSchema, {
      description:
        "The entry's lines on the contract, in order. An entry of the contract's own (source CONTRACT) shows all its lines; another (an earnings run, a cash application over several contracts) only the contract's.",
    }),
  },
  { $id: 'JournalEntry', examples: [JOURNAL_ENTRY_EXAMPLE] },
)
