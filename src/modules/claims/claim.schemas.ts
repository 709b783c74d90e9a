// HTTP shapes of claims (docs/claims.md "Claims: intake, read, index"; payloads.md §7): the intake
// body, the claim as read, its summary in the index, and the index's query.
import { Type } from 'typebox'
import { DateTime, IdFilter, IntegerId, ListQuery, PagedQuery, enumOf, nullable } from '../../platform/http/schemas.ts'
import { CLAIM_STATUSES, JOB_STATUSES } from './claim.rules.ts'

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

/** PUT /claims/{id}: every member required (400 lists the missing ones); the jobs are stored PENDING. */
export const ClaimEditSchema = Type.Object(
  {
    repairOrderNumber: nullable(Type.String({ maxLength: 60 })),
    taxRate: TaxRate,
    contact: nullable(ContactInput),
    jobs: Type.Array(JobInput, { maxItems: 50 }),
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
            parts: [
              {
                partNumber: '30520-5A2-A01',
                description: 'Ignition coil',
                quantity: 2,
                unitPrice: 125.0,
                taxable: true,
              },
            ],
            labor: [{ operationCode: 'IGN-COIL', hours: 1.2, rate: 145.0 }],
            sublet: [],
          },
        ],
      },
    ],
  },
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
        },
      ],
      labor: [{ operationCode: 'IGN-COIL', hours: 0.6, rate: 145, requestedAmount: 87, authorizedAmount: null }],
      sublet: [],
      requestedTotal: 212,
      authorizedTotal: 0,
    },
  ],
  benefits: [],
  inspection: null,
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
    }),
  ),
  labor: Type.Array(
    Type.Object({
      operationCode: nullable(Type.String()),
      hours: Type.Number(),
      rate: Type.Number(),
      requestedAmount: Type.Number({ description: 'hours × rate, rounded once to the cent.' }),
      authorizedAmount: nullable(Type.Number()),
    }),
  ),
  sublet: Type.Array(
    Type.Object({
      description: Type.String(),
      requestedAmount: Type.Number(),
      authorizedAmount: nullable(Type.Number()),
    }),
  ),
  requestedTotal: Type.Number(),
  authorizedTotal: Type.Number(),
})

export const ClaimSchema = Type.Object(
  {
    ...common,
    holds: Type.Array(Type.Unknown(), { description: 'Holds come with the claim workflow: [] for now.' }),
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
    benefits: Type.Array(Type.Unknown(), { description: 'Benefits (rental, towing) come with authorization: [].' }),
    inspection: Type.Null({ description: 'Inspections come later: null.' }),
    payee: nullable(Type.Object({ claimPayeeId: nullable(Type.Integer()), type: Type.String() })),
    paymentRequests: Type.Array(Type.Unknown(), { description: 'Payment requests come later: [].' }),
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
