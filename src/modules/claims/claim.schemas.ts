// HTTP shapes of claims (docs/claims.md "Claims: intake, read, index"; payloads.md §7): the intake
// body, the claim as read, its summary in the index, and the index's query.
import { Type } from 'typebox'
import { DateTime, IdFilter, IntegerId, ListQuery, PagedQuery, enumOf, nullable } from '../../platform/http/schemas.ts'
import { BENEFIT_TYPES } from '../rating/index.ts'
import { CLAIM_STATUSES, JOB_STATUSES } from './claim.rules.ts'
import { ClaimInspectionSchema } from './claim-inspections.schemas.ts'

const Decimal = (description: string, examples: unknown[]) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 20 })], { description, examples })
const Money = (description: string) => Decimal(`${description} A decimal of at most two places, 0 or more.`, [125.0])
const IsoDate = (description: string) => Type.String({ format: 'date', description, examples: ['2026-09-14'] })
const Text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description })

export const ClaimIdParams = Type.Object({ claimId: IntegerId('Claim id') })

const PartInput = Type.Object(
  {
    partNumber: Text(60, 'The part number.'),
    description: Text(200, 'What the part is.'),
    quantity: Decimal('More than 0, at most two places.', [1]),
    unitPrice: Money('The unit price asked.'),
    taxable: Type.Boolean({ description: "Taxed at the facility's tax rate." }),
  },
  { additionalProperties: false },
)

const LaborInput = Type.Object(
  {
    operationCode: Type.Optional(nullable(Type.String({ maxLength: 60 }), 'The labor guide operation.')),
    hours: Decimal('More than 0, at most two places.', [0.6]),
    rate: Money('The rate per hour asked.'),
  },
  { additionalProperties: false },
)

const SubletInput = Type.Object(
  { description: Text(200, 'The work sent out (a tow, machine shop work).'), amount: Money('The amount asked.') },
  { additionalProperties: false },
)

const JobInput = Type.Object(
  {
    complaintId: IdFilter('The complaint (GET /api/claims/complaints).'),
    causeId: Type.Optional(nullable(IdFilter('The cause (GET /api/claims/causes).'))),
    correctionId: Type.Optional(nullable(IdFilter('The correction (GET /api/claims/corrections).'))),
    coverageComponentCode: Type.Optional(
      nullable(Type.String({ maxLength: 60 }), "A component code of the contract's coverage (any case)."),
    ),
    ppmServiceCode: Type.Optional(
      nullable(
        Type.String({ maxLength: 60 }),
        "A service of the contract's PPM schedule (any case) the job redeems, instead of a coverage component (GET /api/contracts/{contractId}/ppmservices).",
      ),
    ),
    parts: Type.Optional(Type.Array(PartInput, { maxItems: 200 })),
    labor: Type.Optional(Type.Array(LaborInput, { maxItems: 100 })),
    sublet: Type.Optional(Type.Array(SubletInput, { maxItems: 50 })),
  },
  { additionalProperties: false },
)

const ContactInput = Type.Object(
  {
    name: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
    phoneNumber: Type.Optional(nullable(Type.String({ maxLength: 40 }))),
    emailAddress: Type.Optional(nullable(Type.String({ maxLength: 320 }))),
  },
  { additionalProperties: false },
)

export const ClaimBodySchema = Type.Object(
  {
    contractId: IdFilter('The contract claimed against.'),
    lossDate: Type.String({ description: 'The day of the failure, YYYY-MM-DD.', examples: ['2026-09-14'] }),
    odometer: Type.Optional(
      nullable(Type.Integer({ description: 'The odometer at the loss; required when the coverage reads miles.' })),
    ),
    repairFacilityId: IdFilter('The repair facility (an account holder of kind REPAIR_FACILITY).'),
    repairOrderNumber: Type.Optional(nullable(Type.String({ maxLength: 60 }))),
    taxRate: Type.Optional(
      Decimal(
        "The facility's tax rate on parts, a fraction below 1 with at most six places (0.0825); default 0. Repair facilities store no tax rate yet, so the claim gives it.",
        [0.0825],
      ),
    ),
    contact: Type.Optional(nullable(ContactInput)),
    jobs: Type.Optional(Type.Array(JobInput, { maxItems: 50 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        contractId: 900123,
        lossDate: '2026-09-14',
        odometer: 63010,
        repairFacilityId: 7001,
        repairOrderNumber: 'RO-44821',
        taxRate: 0.0825,
        contact: { name: 'Service Advisor', phoneNumber: '+1-555-0199' },
        jobs: [
          {
            complaintId: 12,
            causeId: 40,
            correctionId: 77,
            coverageComponentCode: 'BLOCK',
            parts: [
              {
                partNumber: '30520-5A2-A01',
                description: 'Ignition coil',
                quantity: 1,
                unitPrice: 125.0,
                taxable: true,
              },
            ],
            labor: [{ operationCode: 'IGN-COIL', hours: 0.6, rate: 145.0 }],
            sublet: [],
          },
        ],
      },
    ],
  },
)

const TaxRate = Decimal(
  "The facility's tax rate on parts, a fraction below 1 with at most six places (0.0825). Repair facilities store no tax rate yet, so the claim gives it.",
  [0.0825],
)

// The adjuster's decisions on a job's lines (PUT and PATCH; not at intake, where every job is PENDING).
const authorized = (description: string) =>
  Type.Optional(nullable(Money(description), 'null or absent: as requested (labor: capped at the allowed rate).'))

const reductionReason = Type.Optional(
  nullable(Type.String({ maxLength: 200 }), 'Why the line is authorized for less than was asked: required then.'),
)

const EditPartInput = Type.Object(
  {
    ...PartInput.properties,
    authorizedUnitPrice: authorized('The unit price authorized.'),
    reductionReason,
  },
  { additionalProperties: false },
)
const EditLaborInput = Type.Object(
  {
    ...LaborInput.properties,
    authorizedAmount: authorized('The labor amount authorized.'),
    reductionReason,
  },
  { additionalProperties: false },
)
const EditSubletInput = Type.Object(
  {
    ...SubletInput.properties,
    authorizedAmount: authorized('The sublet amount authorized.'),
    reductionReason,
  },
  { additionalProperties: false },
)

const EditJobInput = Type.Object(
  {
    ...JobInput.properties,
    parts: Type.Optional(Type.Array(EditPartInput, { maxItems: 200 })),
    labor: Type.Optional(Type.Array(EditLaborInput, { maxItems: 100 })),
    sublet: Type.Optional(Type.Array(EditSubletInput, { maxItems: 50 })),
    status: Type.Optional(
      enumOf(JOB_STATUSES, "The adjuster's decision: only AUTHORIZED jobs are paid. Absent: PENDING."),
    ),
    deniedReasonId: Type.Optional(nullable(IdFilter('Why a DENIED job is denied (GET /api/claims/deniedReasons).'))),
  },
  { additionalProperties: false },
)

/** A benefit line (rental, towing, trip interruption): one occurrence, within the plan's caps. */
export const BenefitInput = Type.Object(
  {
    type: enumOf(BENEFIT_TYPES, "A benefit type the plan's claim terms list."),
    status: Type.Optional(enumOf(JOB_STATUSES, 'Only AUTHORIZED benefits are paid. Absent: PENDING.')),
    days: Type.Optional(
      nullable(Type.Integer({ minimum: 1, maximum: 365, description: 'Days, for a per-day benefit.' })),
    ),
    dailyRate: Type.Optional(nullable(Money('The daily rate asked, for a per-day benefit.'))),
    amount: Type.Optional(nullable(Money('The amount asked, for a benefit not paid by the day.'))),
    authorizedAmount: Type.Optional(
      nullable(Money('The amount authorized; null or absent: as asked, within the caps.')),
    ),
  },
  { additionalProperties: false },
)

/** PUT /claims/{id}: every member required (400 lists the missing ones). */
export const ClaimEditSchema = Type.Object(
  {
    repairOrderNumber: nullable(Type.String({ maxLength: 60 })),
    taxRate: TaxRate,
    contact: nullable(ContactInput),
    jobs: Type.Array(EditJobInput, { maxItems: 50 }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        repairOrderNumber: 'RO-44821',
        taxRate: 0.0825,
        contact: { name: 'Service Advisor', phoneNumber: '+1-555-0199' },
        jobs: [
          {
            complaintId: 12,
            causeId: 40,
            correctionId: 77,
            coverageComponentCode: 'BLOCK',
            status: 'AUTHORIZED',
            parts: [
              {
                partNumber: '30520-5A2-A01',
                description: 'Ignition coil',
                quantity: 1,
                unitPrice: 125.0,
                authorizedUnitPrice: 118.4,
                taxable: true,
              },
            ],
            labor: [{ operationCode: 'IGN-COIL', hours: 0.6, rate: 145.0, authorizedAmount: 87.0 }],
            sublet: [],
          },
        ],
      },
    ],
  },
)

export const CLAIM_PAYEE_TYPES = ['REPAIR_FACILITY', 'CONTRACT_HOLDER', 'OTHER'] as const

export const PayeeInput = Type.Object(
  {
    type: enumOf(
      CLAIM_PAYEE_TYPES,
      "Who is paid: the claim's repair facility, the contract holder (the customer) or another claim payee.",
    ),
    claimPayeeId: Type.Optional(
      nullable(IdFilter('OTHER: the claim payee (GET /api/claimpayees); ignored for the other types.')),
    ),
  },
  { additionalProperties: false },
)

export const HoldInput = Type.Object(
  {
    id: Type.Optional(IdFilter('An open hold kept as it is; absent: a new hold.')),
    holdReasonId: IdFilter('Why (GET /api/claims/holdReasons).'),
    note: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
  },
  { additionalProperties: false },
)

/**
 * What PATCH sees and may change: the edit members, the fixed ones (422 immutable_field), and the
 * adjuster's decisions (docs/claims.md "Deciding a claim").
 */
export const ClaimPatchedSchema = Type.Object(
  {
    ...ClaimEditSchema.properties,
    status: enumOf(CLAIM_STATUSES, 'The status wanted: AUTHORIZED, DENIED, CLOSED, VOIDED or OPEN (reopen).'),
    deniedReasonId: nullable(IdFilter('Why the claim is DENIED (GET /api/claims/deniedReasons).')),
    holds: Type.Array(HoldInput, { maxItems: 20, description: 'The open holds; one left out is released.' }),
    payee: nullable(PayeeInput),
    adjusterUserId: nullable(IdFilter('The adjuster the claim is assigned to (a user of the tenant).')),
    benefits: Type.Array(BenefitInput, { maxItems: 20 }),
  },
  { additionalProperties: false },
)

const Totals = Type.Object(
  {
    requested: Type.Number(),
    authorized: Type.Number(),
    tax: Type.Number(),
    deductible: Type.Number(),
    payable: Type.Number(),
    paid: Type.Number(),
  },
  { description: 'The payable rules\' figures (docs/claims.md "The payable"); at intake only `requested` is set.' },
)

const Ref = Type.Object({ id: Type.Integer(), text: Type.String() })

const common = {
  id: Type.Integer(),
  claimNumber: Type.String({ description: 'From the claimNumberFormat setting.' }),
  contractId: Type.Integer(),
  contractNumber: Type.String(),
  dealerId: Type.Integer({ description: 'The selling dealer of the contract.' }),
  vin: nullable(Type.String()),
  status: enumOf(CLAIM_STATUSES),
  lossDate: Type.String({ format: 'date' }),
  odometer: nullable(Type.Integer()),
  repairOrderNumber: nullable(Type.String()),
  adjusterUserId: nullable(Type.Integer()),
  totals: Totals,
  reportedAt: DateTime('When the claim was taken.'),
  createdAt: DateTime('Created.'),
  updatedAt: DateTime('Last changed.'),
  version: Type.Integer(),
}

const EXAMPLE = {
  id: 55012,
  claimNumber: 'CLM-202609-000512',
  contractId: 900123,
  contractNumber: 'VSCPL-00A004352',
  dealerId: 3,
  vin: '1HGCV1F37LA012345',
  status: 'OPEN',
  holds: [],
  reportedAt: '2026-09-15T15:20:00.000Z',
  lossDate: '2026-09-14',
  odometer: 63010,
  repairFacility: { accountHolderId: 7001, name: 'Quality Auto Repair', laborRate: 145, taxRate: 0.0825 },
  contact: { name: 'Service Advisor', phoneNumber: '+1-555-0199', emailAddress: null },
  repairOrderNumber: 'RO-44821',
  authorization: null,
  adjusterUserId: null,
  jobs: [
    {
      lineNumber: 1,
      complaint: { id: 12, text: 'Check engine light on' },
      cause: { id: 40, text: 'Failed ignition coil' },
      correction: { id: 77, text: 'Replace ignition coil' },
      coverageComponentCode: 'BLOCK',
      ppmServiceCode: null,
      status: 'PENDING',
      deniedReason: null,
      parts: [
        {
          partNumber: '30520-5A2-A01',
          description: 'Ignition coil',
          quantity: 1,
          requestedUnitPrice: 125,
          authorizedUnitPrice: null,
          taxable: true,
          requestedAmount: 125,
          reductionReason: null,
        },
      ],
      labor: [
        {
          operationCode: 'IGN-COIL',
          hours: 0.6,
          rate: 145,
          requestedAmount: 87,
          authorizedAmount: null,
          reductionReason: null,
        },
      ],
      sublet: [],
      requestedTotal: 212,
      authorizedTotal: 0,
    },
  ],
  benefits: [],
  inspection: null,
  deniedReason: null,
  totals: { requested: 212, authorized: 0, tax: 0, deductible: 0, payable: 0, paid: 0 },
  payee: null,
  paymentRequests: [],
  notesCount: 0,
  documentsCount: 0,
  createdAt: '2026-09-15T15:20:00.000Z',
  updatedAt: '2026-09-15T15:20:00.000Z',
  version: 1,
}

const JobSchema = Type.Object({
  lineNumber: Type.Integer(),
  complaint: Ref,
  cause: nullable(Ref),
  correction: nullable(Ref),
  coverageComponentCode: nullable(Type.String()),
  ppmServiceCode: nullable(Type.String(), 'The PPM service the job redeems; null for a repair.'),
  status: enumOf(JOB_STATUSES),
  deniedReason: nullable(Ref),
  parts: Type.Array(
    Type.Object({
      partNumber: Type.String(),
      description: Type.String(),
      quantity: Type.Number(),
      requestedUnitPrice: Type.Number(),
      authorizedUnitPrice: nullable(Type.Number()),
      taxable: Type.Boolean(),
      requestedAmount: Type.Number({ description: 'quantity × requestedUnitPrice, rounded once to the cent.' }),
      reductionReason: nullable(Type.String(), 'Why it was authorized for less than was asked.'),
    }),
  ),
  labor: Type.Array(
    Type.Object({
      operationCode: nullable(Type.String()),
      hours: Type.Number(),
      rate: Type.Number(),
      requestedAmount: Type.Number({ description: 'hours × rate, rounded once to the cent.' }),
      authorizedAmount: nullable(Type.Number()),
      reductionReason: nullable(Type.String(), 'Why it was authorized for less than was asked.'),
    }),
  ),
  sublet: Type.Array(
    Type.Object({
      description: Type.String(),
      requestedAmount: Type.Number(),
      authorizedAmount: nullable(Type.Number()),
      reductionReason: nullable(Type.String(), 'Why it was authorized for less than was asked.'),
    }),
  ),
  requestedTotal: Type.Number(),
  authorizedTotal: Type.Number(),
})

const ClaimHoldSchema = Type.Object({
  id: Type.Integer(),
  holdReason: Ref,
  note: nullable(Type.String()),
  placedAt: DateTime('When the hold was placed.'),
  placedBy: Type.String(),
  releasedAt: nullable(DateTime('When it was released; null: open.')),
  releasedBy: nullable(Type.String()),
})

const BenefitSchema = Type.Object({
  lineNumber: Type.Integer(),
  type: Type.String({ description: 'RENTAL, TOWING, TRIP_INTERRUPTION, …' }),
  status: enumOf(JOB_STATUSES),
  days: nullable(Type.Integer()),
  dailyRate: nullable(Type.Number()),
  requestedAmount: nullable(Type.Number()),
  authorizedAmount: nullable(Type.Number()),
  countedAmount: Type.Number({ description: "What the line pays: within the plan's caps, 0 unless AUTHORIZED." }),
  cappedBy: Type.Array(Type.String(), {
    description: 'PER_DAY, MAX_DAYS, PER_OCCURRENCE, MAX_AMOUNT: the caps that bound.',
  }),
})

export const ClaimBenefitSchema = Type.Object(BenefitSchema.properties, {
  $id: 'ClaimBenefit',
  examples: [
    {
      lineNumber: 1,
      type: 'RENTAL',
      status: 'AUTHORIZED',
      days: 2,
      dailyRate: 40,
      requestedAmount: null,
      authorizedAmount: null,
      countedAmount: 80,
      cappedBy: [],
    },
  ],
})

export const CLAIM_PAYMENT_METHODS = ['CHECK', 'ACH', 'CREDIT_CARD', 'WIRE'] as const

const PAYMENT_EXAMPLE = {
  id: 9101,
  paymentRequestId: 8801,
  method: 'CHECK',
  amount: 195.17,
  paidAt: '2026-09-25',
  reference: 'CHK 100442',
  journalEntryId: 77120,
  createdAt: '2026-09-25T14:00:00.000Z',
  createdBy: 'accounting@example.com',
}

export const ClaimPaymentSchema = Type.Object(
  {
    id: Type.Integer(),
    paymentRequestId: Type.Integer(),
    method: enumOf(CLAIM_PAYMENT_METHODS),
    amount: Type.Number(),
    paidAt: Type.String({ format: 'date' }),
    reference: nullable(Type.String()),
    journalEntryId: Type.Integer({ description: 'The CLAIM_PAID entry.' }),
    createdAt: DateTime('Recorded.'),
    createdBy: Type.String(),
  },
  { $id: 'ClaimPayment', examples: [PAYMENT_EXAMPLE] },
)

export const ClaimPaymentRequestSchema = Type.Object(
  {
    id: Type.Integer(),
    claimId: Type.Integer(),
    status: enumOf(['REQUESTED', 'PARTIALLY_PAID', 'PAID', 'WITHDRAWN', 'CLOSED'] as const),
    invoiceNumber: Type.String(),
    invoiceDate: Type.String({ format: 'date' }),
    invoicedTotal: Type.Number(),
    amount: Type.Number({ description: 'What is committed: the lesser of the payable and the invoiced total.' }),
    paidTotal: Type.Number(),
    payee: Type.Object({ type: enumOf(CLAIM_PAYEE_TYPES), accountHolderId: Type.Integer() }),
    riskBearerId: Type.Integer({ description: "Whose claim expense it is: the payee of the contract's reserve line." }),
    journalEntryId: Type.Integer({ description: 'The CLAIM_APPROVED entry.' }),
    releaseEntryId: nullable(
      Type.Integer(),
      "The entry that released what was committed: a WITHDRAWN request's reversal, a CLOSED request's CLAIM_RELEASED of its unpaid rest.",
    ),
    payments: Type.Array(Type.Unsafe({ $ref: 'ClaimPayment#' })),
    createdAt: DateTime('Requested.'),
    createdBy: Type.String(),
  },
  {
    $id: 'ClaimPaymentRequest',
    examples: [
      {
        id: 8801,
        claimId: 55012,
        status: 'REQUESTED',
        invoiceNumber: 'INV-20931',
        invoiceDate: '2026-09-20',
        invoicedTotal: 295.17,
        amount: 195.17,
        paidTotal: 0,
        payee: { type: 'REPAIR_FACILITY', accountHolderId: 7001 },
        riskBearerId: 12,
        journalEntryId: 77101,
        releaseEntryId: null,
        payments: [],
        createdAt: '2026-09-21T09:00:00.000Z',
        createdBy: 'adjuster@example.com',
      },
    ],
  },
)

const PaymentRequestRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'ClaimPaymentRequest#' })

export const PaymentRequestBodySchema = Type.Object(
  {
    invoiceNumber: Text(60, "The payee's invoice number."),
    invoiceDate: Type.String({ description: 'The invoice date, YYYY-MM-DD: not before the loss, not after today.' }),
    invoicedTotal: Money('What the payee invoices for the claim (its share, after the deductible).'),
  },
  {
    additionalProperties: false,
    examples: [{ invoiceNumber: 'INV-20931', invoiceDate: '2026-09-20', invoicedTotal: 195.17 }],
  },
)

export const PaymentBodySchema = Type.Object(
  {
    method: enumOf(CLAIM_PAYMENT_METHODS, 'How the money went out.'),
    amount: Decimal('More than 0, at most two places, at most what is left of the request.', [195.17]),
    paidAt: Type.String({ description: 'The day it was paid, YYYY-MM-DD: not before the invoice, not after today.' }),
    reference: Type.Optional(nullable(Type.String({ maxLength: 100 }), 'Check number, ACH trace…')),
  },
  {
    additionalProperties: false,
    examples: [{ method: 'CHECK', amount: 195.17, paidAt: '2026-09-25', reference: 'CHK 100442' }],
  },
)

export const PaymentRequestParams = Type.Object({
  claimId: IntegerId('Claim id'),
  paymentRequestId: IntegerId('Payment request id'),
})

export const ClaimSchema = Type.Object(
  {
    ...common,
    deniedReason: nullable(Ref, 'Why a DENIED claim was denied.'),
    holds: Type.Array(ClaimHoldSchema, {
      description: 'Open holds first, then released ones; each in the order placed.',
    }),
    repairFacility: Type.Object({
      accountHolderId: Type.Integer(),
      name: Type.String({ description: 'As when the claim was taken.' }),
      laborRate: nullable(Type.Number(), "The facility's posted labor rate when the claim was taken; null: none."),
      taxRate: Type.Number({ description: 'The tax rate on parts the claim is priced with.' }),
    }),
    contact: nullable(
      Type.Object({
        name: nullable(Type.String()),
        phoneNumber: nullable(Type.String()),
        emailAddress: nullable(Type.String()),
      }),
    ),
    authorization: nullable(
      Type.Object({
        number: Type.String(),
        authorizedAt: nullable(Type.String()),
        expiresAt: nullable(Type.String()),
        authorizedBy: nullable(Type.String()),
      }),
    ),
    jobs: Type.Array(JobSchema),
    benefits: Type.Array(BenefitSchema, { description: 'Benefit lines (rental, towing, trip interruption).' }),
    inspection: nullable(
      Type.Object(ClaimInspectionSchema.properties),
      'The claim\'s latest inspection (docs/claims.md "Inspections"); null: none requested.',
    ),
    payee: nullable(
      Type.Object({
        claimPayeeId: nullable(Type.Integer(), 'The account holder paid: the facility, the customer or a claim payee.'),
        type: enumOf(CLAIM_PAYEE_TYPES),
      }),
      'Who is paid; null until chosen (a payment request pays the repair facility then).',
    ),
    paymentRequests: Type.Array(PaymentRequestRef, {
      description: 'Payment requests in the order made, with their payments.',
    }),
    notesCount: Type.Integer({
      description: "The claim's notes the caller may read (GET /claims/{claimId}/notes/all).",
    }),
    documentsCount: Type.Integer({ description: "The claim's documents (GET /claims/{claimId}/documents)." }),
  },
  { $id: 'Claim', description: 'A claim (payloads.md §7).', examples: [EXAMPLE] },
)

export const ClaimSummarySchema = Type.Object(
  {
    ...common,
    repairFacility: Type.Object({ accountHolderId: Type.Integer(), name: Type.String() }),
  },
  {
    $id: 'ClaimSummary',
    description: 'A claim as the index lists it: no jobs.',
    examples: [
      {
        id: EXAMPLE.id,
        claimNumber: EXAMPLE.claimNumber,
        contractId: EXAMPLE.contractId,
        contractNumber: EXAMPLE.contractNumber,
        dealerId: EXAMPLE.dealerId,
        vin: EXAMPLE.vin,
        status: EXAMPLE.status,
        lossDate: EXAMPLE.lossDate,
        odometer: EXAMPLE.odometer,
        repairFacility: { accountHolderId: 7001, name: 'Quality Auto Repair' },
        repairOrderNumber: EXAMPLE.repairOrderNumber,
        adjusterUserId: null,
        totals: EXAMPLE.totals,
        reportedAt: EXAMPLE.reportedAt,
        createdAt: EXAMPLE.createdAt,
        updatedAt: EXAMPLE.updatedAt,
        version: 1,
      },
    ],
  },
)

export const ClaimIndexQuery = Type.Object(
  {
    status: Type.Optional(enumOf(CLAIM_STATUSES, 'Only claims in this status.')),
    contractId: Type.Optional(IdFilter('Only claims of this contract.')),
    vin: Type.Optional(
      Type.String({ minLength: 1, maxLength: 17, description: 'Only claims of this VIN (whole, any case).' }),
    ),
    dealerId: Type.Optional(IdFilter("Only claims of this dealer's contracts.")),
    repairFacilityId: Type.Optional(IdFilter('Only claims at this repair facility.')),
    lossDateFrom: Type.Optional(IsoDate('Loss on or after this day.')),
    lossDateTo: Type.Optional(IsoDate('Loss on or before this day.')),
    createdFrom: Type.Optional(DateTime('Created at or after this instant.')),
    createdTo: Type.Optional(DateTime('Created before this instant.')),
    adjusterUserId: Type.Optional(IdFilter('Only claims assigned to this adjuster.')),
    ...PagedQuery,
  },
  { additionalProperties: false },
)

/** A note's visibility: ALL, whoever sees the claim; STAFF, the administrator's staff only (not dealer-side users). */
export const CLAIM_NOTE_VISIBILITIES = ['ALL', 'STAFF'] as const

export const ClaimNoteBodySchema = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: 4000,
      description: 'The note, 1 to 4000 characters (not only blanks).',
    }),
    visibility: Type.Optional(
      enumOf(
        CLAIM_NOTE_VISIBILITIES,
        "ALL (the default): whoever sees the claim reads the note. STAFF: the administrator's staff only; a dealer-side user can neither write nor read one.",
      ),
    ),
  },
  { additionalProperties: false, examples: [{ text: 'Called the service advisor: teardown authorized.' }] },
)

export const ClaimNoteSchema = Type.Object(
  {
    id: Type.Integer(),
    claimId: Type.Integer(),
    text: Type.String(),
    visibility: enumOf(CLAIM_NOTE_VISIBILITIES),
    createdAt: DateTime('When the note was written.'),
    createdBy: Type.String({ description: 'Who wrote it (user or API key label).' }),
  },
  {
    $id: 'ClaimNote',
    additionalProperties: false,
    examples: [
      {
        id: 301,
        claimId: 55012,
        text: 'Called the service advisor: teardown authorized.',
        visibility: 'ALL',
        createdAt: '2026-09-15T16:02:00.000Z',
        createdBy: 'adjuster@example.com',
      },
    ],
  },
)

export const ClaimNoteParams = Type.Object({ claimId: IntegerId('Claim id'), noteId: IntegerId('Note id') })

export const ClaimNoteListQuery = Type.Object({ ...ListQuery }, { additionalProperties: false })

export const ClaimLockSchema = Type.Object(
  {
    claimId: Type.Integer(),
    locked: Type.Boolean(),
    heldByYou: Type.Boolean(),
    userId: nullable(Type.Integer()),
    user: nullable(Type.String()),
    expiresAt: nullable(DateTime('When the lock frees itself unless renewed.')),
  },
  {
    $id: 'ClaimLock',
    examples: [
      {
        claimId: 55012,
        locked: true,
        heldByYou: true,
        userId: 7,
        user: 'adjuster@example.com',
        expiresAt: '2026-09-15T16:17:00.000Z',
      },
    ],
  },
)
