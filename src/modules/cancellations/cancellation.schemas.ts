// HTTP shapes of the cancel flow (payloads.md §6, docs/cancellations.md): the request body shared by
// the quote, the request and the direct cancel; the reply of a quote or request; the cancel; the
// cancel payment; the actions.
import { Type } from 'typebox'
import { DateTime, enumOf, IntegerId, nullable, PagedQuery } from '../../platform/http/schemas.ts'
import { CANCEL_REQUESTERS, REFUND_PAYEES } from '../rating/index.ts'

const Money = (description?: string) => Type.Number(description ? { description } : {})
const DateText = (description: string) => Type.String({ maxLength: 40, description })

export const REQUEST_STATUSES = [
  'QUOTED',
  'REQUESTED',
  'PENDING_DOCUMENTS',
  'APPROVED',
  'REJECTED',
  'WITHDRAWN',
  'PROCESSED',
] as const
export const REQUEST_ACTIONS = ['SUBMIT_DOCUMENTS', 'APPROVE', 'REJECT', 'WITHDRAW'] as const
export const PAYEE_TYPES = ['CUSTOMER', 'LIENHOLDER', 'DEALER', 'PAYEE'] as const
export const PAYMENT_KINDS = ['REFUND', 'CHARGEBACK', 'RECOVERY'] as const
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'VOID'] as const

const DocumentRef = Type.Object(
  {
    documentId: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'A document of the documents module.',
    }),
    type: Type.Optional(
      nullable(Type.String({ maxLength: 60, description: 'What it proves, e.g. ODOMETER_STATEMENT, PAYOFF_LETTER.' })),
    ),
  },
  { additionalProperties: false },
)

export const CancelBodySchema = Type.Object(
  {
    cancelDate: DateText(
      "YYYY-MM-DD: on or after the sale date, no later than tomorrow in the tenant's time zone (422 otherwise).",
    ),
    cancelOdometer: Type.Optional(
      nullable(
        Type.Integer({
          minimum: -1_000_000_000,
          maximum: 1_000_000_000,
          description: 'Miles at the cancel; at least the sale odometer. Required when the method reads miles.',
        }),
      ),
    ),
    cancelReasonId: Type.Optional(
      nullable(
        Type.Integer({
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'A cancel reason id (GET /cancelreasons).',
        }),
      ),
    ),
    cancelReasonCode: Type.Optional(
      nullable(Type.String({ maxLength: 60, description: 'The reason by code, instead of cancelReasonId.' })),
    ),
    cancelMethodId: Type.Optional(
      nullable(
        Type.Integer({
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'Overrides the method the rules decide; staff with cancellations:approve only (403 otherwise).',
        }),
      ),
    ),
    requestedBy: Type.Optional(
      enumOf(CANCEL_REQUESTERS, 'Who asks for the cancel; default ADMIN for staff, DEALER for dealer-side users.'),
    ),
    claimsInLast60Days: Type.Optional(
      Type.Boolean({ description: 'Accepted for compatibility; claims are read from the contract.' }),
    ),
    payoffDate: Type.Optional(nullable(DateText('YYYY-MM-DD; required by reasons that need it (payoff, refinance).'))),
    refundPayee: Type.Optional(
      enumOf(
        REFUND_PAYEES,
        "AUTO (default): the reason's payee, the lien holder while the lien is unreleased, else the customer.",
      ),
    ),
    notes: Type.Optional(nullable(Type.String({ maxLength: 2000 }))),
    documents: Type.Optional(Type.Array(DocumentRef, { maxItems: 50 })),
    includeOpenClaims: Type.Optional(
      Type.Boolean({ description: 'Cancel even with open or authorized unpaid claims (409 claims_open otherwise).' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        cancelDate: '2026-11-20',
        cancelOdometer: 48000,
        cancelReasonCode: 'CUSTOMER_REQUEST',
        requestedBy: 'DEALER',
        refundPayee: 'AUTO',
        notes: 'Vehicle traded in',
        documents: [{ documentId: 8801, type: 'ODOMETER_STATEMENT' }],
      },
    ],
  },
)

/** What a request is in; the open ones still wait for a decision (documents, approval, processing). */
export const CANCEL_REQUEST_STATUSES = [
  'REQUESTED',
  'PENDING_DOCUMENTS',
  'APPROVED',
  'REJECTED',
  'WITHDRAWN',
  'PROCESSED',
] as const
export const OPEN_CANCEL_REQUEST_STATUSES = ['REQUESTED', 'PENDING_DOCUMENTS', 'APPROVED'] as const

/** GET /api/v2/cancelrequests: the tenant's requests across contracts (the staff's work list). */
export const CancelRequestSearchQuery = Type.Object(
  {
    status: Type.Optional(enumOf(CANCEL_REQUEST_STATUSES, 'Requests in this status only.')),
    open: Type.Optional(
      Type.Boolean({
        description: `true: the requests still open (${OPEN_CANCEL_REQUEST_STATUSES.join(', ')}); false: the decided ones.`,
      }),
    ),
    dealerId: Type.Optional(IntegerId("The contract's selling dealer (account-holder id).")),
    cancelDateFrom: Type.Optional(
      Type.String({ format: 'date', maxLength: 10, description: 'Cancel date on or after.' }),
    ),
    cancelDateTo: Type.Optional(
      Type.String({ format: 'date', maxLength: 10, description: 'Cancel date on or before.' }),
    ),
    ...PagedQuery,
  },
  { additionalProperties: false },
)

export const QuoteOnlyQuery = Type.Object(
  {
    quoteOnly: Type.Optional(
      Type.Boolean({ description: 'true: answer the quote (status QUOTED) and write nothing.' }),
    ),
  },
  { additionalProperties: false },
)

const Payment = Type.Object({
  id: nullable(Type.Integer({ description: 'null in a preview (a quote, or a request not processed yet).' })),
  cancelId: nullable(Type.Integer()),
  contractId: Type.Integer(),
  payeeType: enumOf(PAYEE_TYPES),
  accountHolderId: Type.Integer(),
  kind: enumOf(
    PAYMENT_KINDS,
    'REFUND to the refund payee; CHARGEBACK: the dealer returns its markup share; RECOVERY: a payee returns its share.',
  ),
  amount: Money(),
  status: enumOf(PAYMENT_STATUSES),
  dueDate: nullable(Type.String({ format: 'date', description: 'A refund: processed day + refundDueDays.' })),
})
const PaymentPreview = Type.Object({
  payeeType: enumOf(PAYEE_TYPES),
  accountHolderId: Type.Integer(),
  kind: enumOf(PAYMENT_KINDS),
  amount: Money(),
  status: enumOf(PAYMENT_STATUSES),
  dueDate: nullable(Type.String({ format: 'date' })),
  id: Type.Optional(nullable(Type.Integer())),
})

const PAYMENT_EXAMPLE = {
  id: 77,
  cancelId: 12,
  contractId: 900123,
  payeeType: 'CUSTOMER',
  accountHolderId: 5120,
  kind: 'REFUND',
  amount: 1421.53,
  status: 'PENDING',
  dueDate: '2026-12-26',
}
export const CancelPaymentSchema = Type.Object(Payment.properties, {
  $id: 'CancelPayment',
  examples: [PAYMENT_EXAMPLE],
})

const NullableNumber = nullable(Type.Number())
const NullableInt = nullable(Type.Integer())

/** What a quote, a request and a cancel share. */
const Calculated = {
  reason: Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() }),
  method: Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String(), formula: Type.String() }),
  withinFreeLook: Type.Boolean(),
  calculation: Type.Object({
    basis: Type.String(),
    decidedBy: enumOf(
      ['BENEFIT_PAID', 'REASON', 'FREE_LOOK', 'METHOD'] as const,
      'What decided the fraction: a GAP total loss with its benefit paid (nothing refunded), a reason forcing the full refund, the free-look, or the method.',
    ),
    purchasePrice: Money('P: retail plus options.'),
    refundableAmount: Money('P less the non-refundable lines.'),
    daysElapsed: NullableInt,
    daysInTerm: NullableInt,
    monthsElapsed: NullableInt,
    termMonths: NullableInt,
    timeUnearnedFactor: NullableNumber,
    milesUsed: NullableInt,
    milesInTerm: NullableInt,
    mileageUnearnedFactor: NullableNumber,
    appliedUnearnedFactor: Money('The applied fraction to six places: display only.'),
    unearnedRatio: Type.String({
      description: 'The exact applied fraction, num/den: what the gross is computed from.',
    }),
    grossRefund: Money(),
    cancelFee: Money(),
    claimsDeducted: Money(),
    salesTaxRefund: Money('0 until sales tax is stored.'),
    netCustomerRefund: Money(),
  }),
  funding: Type.Object({
    dealerChargeback: Money("The dealer's markup share."),
    adminRefund: Money("Σ the dealer-cost lines' shares."),
    administratorShare: Money("The administrator company's own lines' shares."),
    feeRetained: nullable(Type.Object({ amount: Money(), retainedBy: enumOf(['ADMIN', 'DEALER'] as const) })),
    byDisbursement: Type.Array(
      Type.Object({
        code: Type.String(),
        group: Type.String(),
        payeeAccountHolderId: Type.Integer(),
        refundable: Type.Boolean(),
        amount: Money(),
        refund: Money(),
      }),
    ),
  }),
  freeLook: Type.Object({
    days: Type.Integer(),
    daysSinceSale: Type.Integer(),
    lostToClaim: Type.Boolean(),
    lostToTransfer: Type.Boolean({ description: 'Inside the window, but the contract passed to a new owner.' }),
  }),
  refundPayee: Type.Object({
    type: enumOf(['CUSTOMER', 'LIENHOLDER', 'DEALER'] as const),
    accountHolderId: Type.Integer(),
  }),
  rules: Type.Object({
    productRule: NullableInt,
    stateRule: nullable(Type.String()),
    governingState: nullable(Type.String()),
    reason: Type.String(),
    method: Type.String(),
    methodOverridden: Type.Boolean(),
    requestedBy: Type.String(),
    rateBookVersion: Type.Integer(),
  }),
}

const CALC_EXAMPLE = {
  reason: { id: 1, code: 'CUSTOMER_REQUEST', name: 'Customer request' },
  method: { id: 1, code: 'PRO_RATA_DAYS', name: 'Pro rata by days', formula: 'PRO_RATA_DAYS' },
  withinFreeLook: false,
  calculation: {
    basis: 'RETAIL',
    decidedBy: 'METHOD',
    purchasePrice: 1800,
    refundableAmount: 1800,
    daysElapsed: 200,
    daysInTerm: 1096,
    monthsElapsed: null,
    termMonths: null,
    timeUnearnedFactor: 0.817518,
    milesUsed: null,
    milesInTerm: null,
    mileageUnearnedFactor: null,
    appliedUnearnedFactor: 0.817518,
    unearnedRatio: '112/137',
    grossRefund: 1471.53,
    cancelFee: 50,
    claimsDeducted: 0,
    salesTaxRefund: 0,
    netCustomerRefund: 1421.53,
  },
  funding: {
    dealerChargeback: 654.01,
    adminRefund: 817.52,
    administratorShare: 143.07,
    feeRetained: { amount: 50, retainedBy: 'ADMIN' },
    byDisbursement: [
      { code: 'RES', group: 'RESERVE', payeeAccountHolderId: 31, refundable: true, amount: 640, refund: 523.21 },
      { code: 'ADM', group: 'ADMIN_FEE', payeeAccountHolderId: 1, refundable: true, amount: 175, refund: 143.07 },
    ],
  },
  freeLook: { days: 30, daysSinceSale: 200, lostToClaim: false, lostToTransfer: false },
  refundPayee: { type: 'CUSTOMER', accountHolderId: 5120 },
  rules: {
    productRule: null,
    stateRule: 'TX',
    governingState: 'TX',
    reason: 'CUSTOMER_REQUEST',
    method: 'PRO_RATA_DAYS',
    methodOverridden: false,
    requestedBy: 'DEALER',
    rateBookVersion: 3,
  },
}

export const CancelRequestSchema = Type.Object(
  {
    id: nullable(Type.Integer({ description: 'null for a quote.' })),
    requestNumber: nullable(Type.String({ description: 'From the cancelNumberFormat setting; null for a quote.' })),
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    status: enumOf(REQUEST_STATUSES),
    cancelDate: Type.String({ format: 'date' }),
    cancelOdometer: NullableInt,
    ...Calculated,
    payments: Type.Array(PaymentPreview, {
      description: 'The payments the cancel creates (a preview until processed).',
    }),
    requestedBy: Type.String(),
    missingDocuments: Type.Optional(Type.Array(Type.String())),
    refundPayeeRequested: Type.Optional(Type.String()),
    payoffDate: Type.Optional(nullable(Type.String({ format: 'date' }))),
    notes: Type.Optional(nullable(Type.String())),
    documents: Type.Optional(Type.Array(Type.Object({ documentId: Type.Integer(), type: nullable(Type.String()) }))),
    includeOpenClaims: Type.Optional(Type.Boolean()),
    requestedAt: nullable(DateTime('When the request was stored.')),
    requestedByUser: Type.Optional(Type.String()),
    decidedAt: Type.Optional(nullable(DateTime('When it was approved, rejected or withdrawn.'))),
    decidedBy: Type.Optional(nullable(Type.String())),
    decisionNote: Type.Optional(nullable(Type.String())),
    cancelId: Type.Optional(nullable(Type.Integer({ description: 'The cancel it became, once processed.' }))),
    processedAt: nullable(DateTime('')),
    version: Type.Optional(Type.Integer()),
    messages: Type.Array(Type.String()),
  },
  {
    $id: 'CancelRequest',
    examples: [
      {
        id: 4401,
        requestNumber: 'CXL-202611-000001',
        contractId: 900123,
        contractNumber: 'VSC-PLAT-U-0126-00000042',
        status: 'REQUESTED',
        cancelDate: '2026-11-20',
        cancelOdometer: 48000,
        ...CALC_EXAMPLE,
        payments: [
          {
            payeeType: 'CUSTOMER',
            accountHolderId: 5120,
            kind: 'REFUND',
            amount: 1421.53,
            status: 'PENDING',
            dueDate: '2026-12-26',
          },
        ],
        requestedBy: 'DEALER',
        requestedAt: '2026-11-26T14:00:00.000Z',
        processedAt: null,
        messages: [],
      },
    ],
  },
)

export const CancelSchema = Type.Object(
  {
    id: Type.Integer(),
    cancelNumber: Type.String(),
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    requestId: NullableInt,
    status: enumOf(['PROCESSED', 'REVERSED'] as const),
    cancelDate: Type.String({ format: 'date' }),
    cancelOdometer: NullableInt,
    ...Calculated,
    payments: Type.Array(PaymentPreview),
    journalEntryId: NullableInt,
    processedAt: DateTime(''),
    processedBy: Type.String(),
    reversedAt: nullable(DateTime('')),
    reversedBy: nullable(Type.String()),
    reversalReason: nullable(Type.String()),
    reversalEntryId: NullableInt,
  },
  {
    $id: 'Cancel',
    examples: [
      {
        id: 12,
        cancelNumber: 'CXL-202611-000001',
        contractId: 900123,
        contractNumber: 'VSC-PLAT-U-0126-00000042',
        requestId: 4401,
        status: 'PROCESSED',
        cancelDate: '2026-11-20',
        cancelOdometer: 48000,
        ...CALC_EXAMPLE,
        // A cancel's payments as PaymentPreview shows them: with their ids, without the cancel and contract.
        payments: [(({ cancelId: _c, contractId: _k, ...p }) => p)(PAYMENT_EXAMPLE)],
        journalEntryId: 5501,
        processedAt: '2026-11-26T14:05:00.000Z',
        processedBy: 'admin@example.com',
        reversedAt: null,
        reversedBy: null,
        reversalReason: null,
        reversalEntryId: null,
      },
    ],
  },
)

export const RequestActionSchema = Type.Object(
  {
    action: enumOf(REQUEST_ACTIONS, 'APPROVE and REJECT need cancellations:approve.'),
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Required to REJECT.' })),
    documents: Type.Optional(
      Type.Array(DocumentRef, { maxItems: 50, description: 'SUBMIT_DOCUMENTS: the documents added.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ action: 'APPROVE' }, { action: 'REJECT', reason: 'Odometer statement unreadable' }],
  },
)

export const CancelActionSchema = Type.Object(
  {
    action: enumOf(['REVERSE'] as const),
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why the cancel is undone.' }),
  },
  { additionalProperties: false, examples: [{ action: 'REVERSE', reason: 'Customer kept the contract' }] },
)

export const CancelRequestIdParams = Type.Object({ cancelRequestId: IntegerId('Cancel request id') })
export const CancelIdParams = Type.Object({ cancelId: IntegerId('Cancel id') })
export const RequestIdentifierParams = Type.Object({
  identifier: Type.String({
    minLength: 1,
    maxLength: 60,
    description: 'The cancel request id or its number (any case).',
  }),
})
export const ContractIdentifierParams = Type.Object({
  identifier: Type.String({
    minLength: 1,
    maxLength: 60,
    description: 'The contract id or its contract number (any case).',
  }),
})
