// Wire shapes of the ledger views (docs/ledgers.md). Amounts are numbers with at most 2 decimals.
import { Type } from 'typebox'
import { enumOf, IdFilter, nullable, PagedQuery } from '../../platform/http/schemas.ts'
import { AGING_BUCKETS } from './ledger-views.rules.ts'
import { ACCOUNT_PURPOSES } from './ledger.rules.ts'

const PURPOSES = Object.keys(ACCOUNT_PURPOSES) as [string, ...string[]]
const HOLDER_KINDS_FILTER = [
  'ADMIN_COMPANY',
  'DEALER',
  'DEALER_GROUP',
  'AGENT',
  'CUSTOMER',
  'INSURER',
  'LIEN_HOLDER',
  'REPAIR_FACILITY',
  'INSPECTION_COMPANY',
  'CLAIM_PAYEE',
  'REINSURANCE_COMPANY',
] as const
const date = (description: string) => Type.String({ format: 'date', description, examples: ['2026-11-26'] })
const Purpose = enumOf(PURPOSES, 'Account purpose (docs/ledger.md).')

export const LedgerLinesQuerySchema = Type.Object(
  {
    ...PagedQuery,
    accountHolderId: IdFilter('The account holder whose lines to list (required).'),
    purpose: Type.Optional(Purpose),
    from: Type.Optional(date('Accounting date on or after.')),
    to: Type.Optional(date('Accounting date on or before.')),
    contractId: Type.Optional(IdFilter('Only lines of this contract.')),
  },
  { additionalProperties: false },
)

export const LedgerLineSchema = Type.Object(
  {
    entryId: Type.Integer(),
    lineNo: Type.Integer(),
    effectiveDate: Type.String({ format: 'date' }),
    kind: Type.String(),
    sourceType: Type.String(),
    sourceId: Type.Integer(),
    purpose: Type.String(),
    contractId: nullable(Type.Integer()),
    contractNumber: nullable(Type.String()),
    disbursementCode: nullable(Type.String()),
    debit: Type.Number(),
    credit: Type.Number(),
    memo: nullable(Type.String()),
  },
  {
    $id: 'LedgerLine',
    additionalProperties: false,
    examples: [
      {
        entryId: 12,
        lineNo: 1,
        effectiveDate: '2026-11-26',
        kind: 'CONTRACT_FINALIZED',
        sourceType: 'CONTRACT',
        sourceId: 1042,
        purpose: 'DEALER_RECEIVABLE',
        contractId: 1042,
        contractNumber: 'C-000001',
        disbursementCode: null,
        debit: 1250,
        credit: 0,
        memo: null,
      },
    ],
  },
)

const pageMembers = {
  pageNumber: Type.Integer(),
  pageSize: Type.Integer(),
  totalCount: Type.Integer(),
  totalPages: Type.Integer(),
}

export const LedgerLinesPageSchema = Type.Object(
  {
    items: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'LedgerLine#' })),
    ...pageMembers,
    openingBalance: nullable(
      Type.Number(),
      'With `from`: the balance of the filtered lines dated before it (normal side of `purpose` when given, else debit − credit); null without `from`.',
    ),
  },
  { additionalProperties: false },
)

export const PayReceiveQuerySchema = Type.Object(
  {
    ...PagedQuery,
    accountHolderId: Type.Optional(IdFilter('Only this account holder.')),
    kind: Type.Optional(enumOf(HOLDER_KINDS_FILTER, 'Only account holders of this kind.')),
    asOf: Type.Optional(date('Accounting date the balances are taken at (default: today in the tenant).')),
  },
  { additionalProperties: false },
)

export const PayReceiveSchema = Type.Object(
  {
    accountHolderId: Type.Integer(),
    kind: Type.String(),
    displayName: Type.String(),
    asOf: Type.String({ format: 'date' }),
    receivable: Type.Number({ description: 'DEALER_RECEIVABLE, debit − credit: owed to the administrator.' }),
    disbursementPayable: Type.Number({ description: 'DISBURSEMENT_PAYABLE, credit − debit.' }),
    refundPayable: Type.Number({ description: 'REFUND_PAYABLE, credit − debit.' }),
    claimPayable: Type.Number({ description: 'CLAIM_PAYABLE, credit − debit.' }),
    unappliedCash: Type.Number({ description: 'UNAPPLIED_CASH, credit − debit: received, not yet applied.' }),
    net: Type.Number({ description: 'receivable − payables − unapplied cash: > 0 the holder owes the administrator.' }),
  },
  {
    $id: 'PayReceiveLedger',
    additionalProperties: false,
    examples: [
      {
        accountHolderId: 7,
        kind: 'DEALER',
        displayName: 'Main Street Motors',
        asOf: '2026-11-26',
        receivable: 1250,
        disbursementPayable: 0,
        refundPayable: 0,
        claimPayable: 0,
        unappliedCash: 0,
        net: 1250,
      },
    ],
  },
)

export const UnpaidQuerySchema = Type.Object(
  {
    ...PagedQuery,
    dealerId: Type.Optional(IdFilter('Only this dealer (default: every dealer the caller sees).')),
    asOf: Type.Optional(date('Accounting date (default: today in the tenant).')),
    minAge: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000, description: 'Only items at least this many days old.' }),
    ),
  },
  { additionalProperties: false },
)

export const UnpaidItemSchema = Type.Object(
  {
    dealerId: Type.Integer(),
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    productId: Type.Integer(),
    firstPostedDate: Type.String({ format: 'date' }),
    openAmount: Type.Number(),
    ageDays: Type.Integer(),
    agingBucket: enumOf(AGING_BUCKETS),
  },
  {
    $id: 'UnpaidLedgerProduct',
    additionalProperties: false,
    examples: [
      {
        dealerId: 7,
        contractId: 1042,
        contractNumber: 'C-000001',
        productId: 3,
        firstPostedDate: '2026-10-01',
        openAmount: 1250,
        ageDays: 56,
        agingBucket: '31-60',
      },
    ],
  },
)

export const UnpaidPageSchema = Type.Object(
  {
    items: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'UnpaidLedgerProduct#' })),
    ...pageMembers,
    asOf: Type.String({ format: 'date' }),
  },
  { additionalProperties: false },
)

export const SummaryQuerySchema = Type.Object(
  {
    accountHolderId: Type.Optional(IdFilter('Only this account holder.')),
    purpose: Type.Optional(Purpose),
    asOf: Type.Optional(date('Accounting date (default: today in the tenant).')),
  },
  { additionalProperties: false },
)

const Amounts = { debit: Type.Number(), credit: Type.Number(), balance: Type.Number() }

export const SummarySchema = Type.Object(
  {
    asOf: Type.String({ format: 'date' }),
    balances: Type.Array(
      Type.Object(
        { accountHolderId: Type.Integer(), purpose: Type.String(), ...Amounts },
        { additionalProperties: false },
      ),
    ),
    totals: Type.Array(
      Type.Object(
        { purpose: Type.String(), normalSide: enumOf(['DEBIT', 'CREDIT'] as const), ...Amounts },
        { additionalProperties: false },
      ),
    ),
    receivableAging: Type.Array(
      Type.Object({ bucket: enumOf(AGING_BUCKETS), amount: Type.Number() }, { additionalProperties: false }),
    ),
  },
  {
    $id: 'LedgerSummary',
    additionalProperties: false,
    examples: [
      {
        asOf: '2026-11-26',
        balances: [{ accountHolderId: 7, purpose: 'DEALER_RECEIVABLE', debit: 1250, credit: 0, balance: 1250 }],
        totals: [{ purpose: 'DEALER_RECEIVABLE', normalSide: 'DEBIT', debit: 1250, credit: 0, balance: 1250 }],
        receivableAging: [
          { bucket: '0-30', amount: 1250 },
          { bucket: '31-60', amount: 0 },
          { bucket: '61-90', amount: 0 },
          { bucket: '90+', amount: 0 },
        ],
      },
    ],
  },
)
