// TypeBox schemas of contracts (docs/contracts.md): the create body (payloads §4), the contract
// resource (payloads §5), search filters, holds, locks, the co-buyer, and the draft-document body.
import { Type, type TSchema } from 'typebox'
import { DateTime, enumOf, IntegerId, ListQuery, nullable, PagedQuery, sortParam } from '../../platform/http/schemas.ts'
import { CONTRACT_STATUSES, HOLD_REASONS, STATUS_EVENTS } from './contract.rules.ts'
import { CONTRACT_TERMS_EXAMPLE, ContractTermsSchema } from './contract-terms.schemas.ts'

const IsoDate = (description: string) => Type.String({ format: 'date', maxLength: 10, description })
/** Money in requests: a JSON number (or decimal string) with at most 2 decimals; checked by the service. */
const MoneyIn = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
    description: `${description} A number with at most 2 decimals.`,
  })
const Money = (description?: string) => Type.Number(description ? { description } : {})
/** Free text: no control characters (a NUL cannot be stored, a line break does not belong in a name). */
const NO_CONTROL = '^[^\\x00-\\x1f\\x7f]*$'
const Text = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: NO_CONTROL, ...(description ? { description } : {}) })
const OptionalText = (max: number, description?: string) =>
  Type.Optional(nullable(Type.String({ maxLength: max, pattern: NO_CONTROL }), description))
/** Account-holder ids in bodies and filters: integers an id column can hold. */
const AccountHolderRef = (description: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description })

const US_STATE = '^[A-Z]{2}$'
export const AddressSchema = Type.Object(
  {
    line1: Text(100),
    line2: OptionalText(100),
    city: Text(60),
    state: Type.String({ pattern: US_STATE, description: 'USPS state code.' }),
    postalCode: Type.String({ pattern: '^\\d{5}(-\\d{4})?$', description: 'ZIP or ZIP+4.' }),
    country: Type.Optional(nullable(Type.Literal('US'))),
  },
  { additionalProperties: false },
)

const PHONE = '^(\\+1[0-9]{10}|\\+?[0-9 ()./-]{7,20})$'
export const PersonSchema = Type.Object(
  {
    firstName: OptionalText(60),
    middleInitial: Type.Optional(nullable(Type.String({ maxLength: 1 }))),
    lastName: OptionalText(60),
    companyName: OptionalText(120, "For a business buyer instead of (or besides) a person's name."),
    emailAddress: Type.Optional(nullable(Type.String({ format: 'email', maxLength: 254 }))),
    phoneNumber: Type.Optional(nullable(Type.String({ pattern: PHONE }))),
    address: Type.Optional(nullable(AddressSchema)),
  },
  { additionalProperties: false },
)

export const LienHolderInline = Type.Object(
  {
    name: Text(200),
    address: Type.Optional(nullable(AddressSchema)),
    phoneNumber: Type.Optional(nullable(Type.String({ pattern: PHONE }))),
  },
  { additionalProperties: false },
)

const VehicleIn = Type.Object(
  {
    vin: Type.String({
      pattern: '^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$',
      description: "The 17-character VIN; must be the quote's.",
    }),
    year: Type.Optional(nullable(Type.Integer({ minimum: 1900, maximum: 2100 }))),
    make: OptionalText(60),
    model: OptionalText(80),
    trim: OptionalText(80),
    condition: Type.Optional(nullable(enumOf(['NEW', 'USED', 'CERTIFIED'] as const))),
    inServiceDate: Type.Optional(nullable(IsoDate("Must be the quote's when the quote had one."))),
    purchasePrice: Type.Optional(nullable(MoneyIn("Vehicle price; must be the quote's when the quote had one."))),
    msrp: Type.Optional(
      nullable(MoneyIn("Manufacturer's suggested retail price; must be the quote's when the quote had one.")),
    ),
    assetType: Type.Optional(nullable(enumOf(['AUTO', 'RV', 'MARINE', 'POWERSPORTS', 'OTHER'] as const))),
  },
  { additionalProperties: false },
)

const FinanceIn = Type.Object(
  {
    financeType: Type.Optional(nullable(enumOf(['CASH', 'RETAIL', 'LEASE', 'BALLOON'] as const))),
    amountFinanced: Type.Optional(nullable(MoneyIn('Amount financed.'))),
    termMonths: Type.Optional(nullable(Type.Integer({ minimum: 1, maximum: 240 }))),
    apr: Type.Optional(nullable(MoneyIn('Annual percentage rate, e.g. 6.99.'))),
    monthlyPayment: Type.Optional(nullable(MoneyIn('Monthly payment.'))),
    firstPaymentDate: Type.Optional(nullable(IsoDate('First payment date.'))),
    balloonAmount: Type.Optional(nullable(MoneyIn('Balloon payment.'))),
    residualValue: Type.Optional(nullable(MoneyIn('Lease residual value.'))),
  },
  { additionalProperties: false },
)

const SalesPerson = Type.Object(
  { firstName: OptionalText(60), lastName: OptionalText(60), code: OptionalText(20) },
  { additionalProperties: false },
)
const FinanceManager = Type.Object({ name: OptionalText(120), code: OptionalText(20) }, { additionalProperties: false })

/** The deal: what the dealer sold, on which quote's rate, to whom. Shared by POST /contracts and the draft document. */
const dealFields = {
  quoteId: Type.String({
    minLength: 1,
    maxLength: 4800,
    description:
      'The quote (`quoteId` of GET /api/Rates/rateQuote/{dealerNumber}); prices come from it, never from the request.',
  }),
  rateId: Type.String({ minLength: 1, maxLength: 100, description: 'The chosen rate of that quote (`rate.rateId`).' }),
  dealerNumber: Type.Optional(Text(40, "Must be the quote's dealer when given.")),
  selectedOptionIds: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1 }), {
      maxItems: 50,
      uniqueItems: true,
      description:
        'Options and surcharges chosen from those the quote offered with the rate; required ones are added whatever is sent.',
    }),
  ),
  retailPrice: MoneyIn(
    "What the customer pays for the coverage (options come on top at their retail). Between the rate's minRetail and maxRetail; equal to suggestedRetail when the rate's retail is locked.",
  ),
  saleDate: Type.Optional(IsoDate("Must be the quote's sale date when given.")),
  effectiveDate: Type.Optional(
    IsoDate('Coverage starts; defaults to the sale date; at most 60 days after it. Expiration is counted from it.'),
  ),
  saleOdometer: Type.Optional(
    nullable(Type.Integer({ minimum: 0, maximum: 2_000_000, description: "Must be the quote's odometer." })),
  ),
  vehicle: VehicleIn,
  customer: PersonSchema,
  coBuyer: Type.Optional(nullable(PersonSchema)),
  finance: Type.Optional(nullable(FinanceIn)),
  lienHolderId: Type.Optional(nullable(AccountHolderRef('An existing lien holder (GET /api/lienHolders).'))),
  lienHolder: Type.Optional(nullable(LienHolderInline)),
  dealNumber: OptionalText(40, "The dealer's deal number."),
  salesPerson: Type.Optional(nullable(SalesPerson)),
  financeManager: Type.Optional(nullable(FinanceManager)),
  customFields: Type.Optional(
    Type.Record(Type.String({ maxLength: 40 }), Type.Unknown(), {
      description: "Values of the plan's custom fields (GET /api/Rates/Products/{productId}/customfields), by key.",
    }),
  ),
  taxExempt: Type.Optional(Type.Boolean({ description: 'Recorded; sales tax comes with a later release.' })),
}

export const CONTRACT_REQUEST_EXAMPLE = {
  quoteId: 'q1.WzEsMiwzLDE3NjM3...Il0.Xb1Qm0qLx5kRZ2cIuwv7mA',
  rateId: 'r.8.11.6.42',
  selectedOptionIds: [21],
  retailPrice: 2695.0,
  saleDate: '2026-11-21',
  saleOdometer: 42150,
  vehicle: { vin: '1HGCV1F37LA012345', condition: 'USED' },
  customer: {
    firstName: 'Sam',
    middleInitial: 'J',
    lastName: 'Buyer',
    emailAddress: 'sam@example.com',
    phoneNumber: '+15125550101',
    address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701' },
  },
  coBuyer: { firstName: 'Alex', lastName: 'Buyer' },
  lienHolder: {
    name: 'First Bank of Austin',
    address: { line1: '500 Congress Ave', city: 'Austin', state: 'TX', postalCode: '78701' },
  },
  dealNumber: 'D-88123',
  salesPerson: { firstName: 'Pat', lastName: 'Seller', code: 'PS1' },
  financeManager: { name: 'Fran Manager', code: 'FM7' },
  customFields: { financeManagerCode: 'FM7', stockNumber: 'S-1042' },
}

export const CreateContractBody = Type.Object(dealFields, {
  additionalProperties: false,
  examples: [CONTRACT_REQUEST_EXAMPLE],
})
export const DraftDocumentBody = Type.Object(dealFields, {
  additionalProperties: false,
  examples: [CONTRACT_REQUEST_EXAMPLE],
  description: 'The deal as it would be submitted to POST /api/contracts; checked the same way, nothing is stored.',
})

// ---- the contract resource ---------------------------------------------------------------------

const Ref = (extra: Record<string, TSchema>) => Type.Object(extra)
const Line = Type.Object({
  code: Type.String(),
  group: Type.String(),
  label: Type.String(),
  amount: Money(),
  source: enumOf(
    ['RATE', 'ACCOUNT_HOLDER', 'OPTION'] as const,
    "From the rate's buckets, an account-holder disbursement, or an option.",
  ),
  optionCode: nullable(Type.String()),
  payeeAccountHolderId: Type.Integer({ description: 'Who receives the amount when the contract is finalized.' }),
})
const HoldView = Type.Object({
  holdId: Type.Integer(),
  contractId: Type.Integer(),
  reasonCode: enumOf(HOLD_REASONS.map((r) => r.code)),
  reason: Type.String(),
  note: nullable(Type.String()),
  createdAt: DateTime('When the hold was placed.'),
  createdBy: Type.String(),
  resolved: Type.Boolean(),
  resolvedAt: nullable(DateTime('When it was resolved.')),
  resolvedBy: nullable(Type.String()),
  resolutionNote: nullable(Type.String()),
})
export const HOLD_EXAMPLE = {
  holdId: 311,
  contractId: 900123,
  reasonCode: 'MISSING_SIGNATURE',
  reason: 'Missing signature',
  note: 'Co-buyer did not sign page 2',
  createdAt: '2026-11-21T16:05:00.000Z',
  createdBy: 'clerk@admin.example',
  resolved: false,
  resolvedAt: null,
  resolvedBy: null,
  resolutionNote: null,
}
export const HoldSchema = Type.Object(HoldView.properties, { $id: 'ContractHold', examples: [HOLD_EXAMPLE] })
const PersonOut = Type.Object({
  firstName: nullable(Type.String()),
  middleInitial: nullable(Type.String()),
  lastName: nullable(Type.String()),
  companyName: nullable(Type.String()),
  emailAddress: nullable(Type.String()),
  phoneNumber: nullable(Type.String()),
  address: nullable(AddressSchema),
})

export const CONTRACT_EXAMPLE = {
  id: 900123,
  contractNumber: 'VSC-PLAT-U-0126-00000042',
  status: 'PENDING',
  holdStatus: { onHold: false, openHoldCount: 0 },
  locked: false,
  lock: null,
  dealer: { accountHolderId: 77, dealerNumber: '10001', name: 'Main Street Honda' },
  product: { productId: 1, productCode: 'VSC', productType: 'VSC', name: 'Vehicle Service Contract' },
  program: { programId: 2, code: 'PLAT', name: 'Platinum Exclusionary' },
  plan: { planId: 8, code: 'PLAT-USED', name: 'Platinum - Used', formNumber: 'VSC-PLAT-U-0126' },
  term: { termId: 11, code: '48-48000', months: 48, miles: 48000 },
  deductible: { deductibleId: 6, code: 'D100', amount: 100, type: 'STANDARD' },
  options: [
    {
      optionId: 21,
      code: 'ROADSIDE',
      name: 'Roadside assistance',
      kind: 'OPTION',
      required: false,
      dealerCost: 35,
      retail: 99,
    },
  ],
  saleDate: '2026-11-21',
  effectiveDate: '2026-11-21',
  expirationDate: '2030-11-21',
  saleOdometer: 42150,
  expirationOdometer: 90150,
  vehicle: {
    vin: '1HGCV1F37LA012345',
    year: 2020,
    make: 'HONDA',
    model: 'ACCORD',
    trim: null,
    condition: 'USED',
    inServiceDate: null,
    purchasePrice: null,
    msrp: null,
    assetType: 'AUTO',
    vehicleClass: 'A',
  },
  customer: {
    customerId: 5511,
    firstName: 'Sam',
    middleInitial: 'J',
    lastName: 'Buyer',
    companyName: null,
    emailAddress: 'sam@example.com',
    phoneNumber: '+15125550101',
    address: { line1: '1 Main St', line2: null, city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
  },
  coBuyer: null,
  lienHolder: null,
  finance: null,
  pricing: {
    quoteId: 'q1.WzEsMiwzLDE3NjM3...Il0.Xb1Qm0qLx5kRZ2cIuwv7mA',
    rateId: 'r.8.11.6.42',
    rateBookVersion: 3,
    dealerCost: 1085,
    retailPrice: 2695,
    optionsRetail: 99,
    totalPrice: 2794,
    dealerMarkup: 1709,
    lines: [
      {
        code: 'RES',
        group: 'RESERVE',
        label: 'Claims reserve',
        amount: 850,
        source: 'RATE',
        optionCode: null,
        payeeAccountHolderId: 3,
      },
    ],
  },
  customFields: { financeManagerCode: 'FM7' },
  remittance: { finalizedAt: null, finalizedBy: null, journalEntryIds: [] },
  documents: [],
  terms: CONTRACT_TERMS_EXAMPLE,
  dealNumber: 'D-88123',
  salesPerson: null,
  financeManager: null,
  taxExempt: false,
  createdAt: '2026-11-21T16:01:59.000Z',
  updatedAt: '2026-11-21T16:01:59.000Z',
  createdBy: 'user:7',
  version: 1,
}

export const ContractSchema = Type.Object(
  {
    id: Type.Integer(),
    contractNumber: Type.String(),
    status: enumOf(
      CONTRACT_STATUSES,
      'PENDING, FINALIZED, ACTIVE (finalized and in effect), EXPIRED, CANCELLED or VOIDED.',
    ),
    holdStatus: Type.Object({ onHold: Type.Boolean(), openHoldCount: Type.Integer() }),
    locked: Type.Boolean({ description: 'Whether a user holds the edit lock now.' }),
    lock: nullable(
      Type.Object({ userId: Type.Integer(), user: Type.String(), expiresAt: DateTime('When the lock frees itself.') }),
    ),
    dealer: Ref({ accountHolderId: Type.Integer(), dealerNumber: Type.String(), name: Type.String() }),
    product: Ref({
      productId: Type.Integer(),
      productCode: Type.String(),
      productType: Type.String(),
      name: Type.String(),
    }),
    program: Ref({ programId: Type.Integer(), code: Type.String(), name: Type.String() }),
    plan: Ref({ planId: Type.Integer(), code: Type.String(), name: Type.String(), formNumber: Type.String() }),
    term: Ref({
      termId: Type.Integer(),
      code: Type.String(),
      months: Type.Integer(),
      miles: Type.Integer({ description: '0: unlimited.' }),
    }),
    deductible: Ref({ deductibleId: Type.Integer(), code: Type.String(), amount: Money(), type: Type.String() }),
    options: Type.Array(
      Type.Object({
        optionId: Type.Integer(),
        code: Type.String(),
        name: Type.String(),
        kind: Type.String(),
        required: Type.Boolean(),
        dealerCost: Money(),
        retail: Money(),
      }),
    ),
    saleDate: Type.String({ format: 'date' }),
    effectiveDate: Type.String({ format: 'date' }),
    expirationDate: Type.String({ format: 'date' }),
    saleOdometer: nullable(Type.Integer()),
    expirationOdometer: nullable(Type.Integer({ description: 'null: unlimited miles, or no sale odometer.' })),
    vehicle: Type.Object({
      vin: nullable(Type.String()),
      year: nullable(Type.Integer()),
      make: nullable(Type.String()),
      model: nullable(Type.String()),
      trim: nullable(Type.String()),
      condition: nullable(Type.String()),
      inServiceDate: nullable(Type.String()),
      purchasePrice: nullable(Money()),
      msrp: nullable(Money()),
      assetType: Type.String(),
      vehicleClass: nullable(Type.String()),
    }),
    customer: Type.Object({ customerId: Type.Integer(), ...PersonOut.properties }),
    coBuyer: nullable(PersonOut),
    lienHolder: nullable(
      Type.Object({
        lienHolderId: Type.Integer(),
        name: Type.String(),
        address: nullable(AddressSchema),
        phoneNumber: nullable(Type.String()),
      }),
    ),
    finance: nullable(
      Type.Object({
        financeType: nullable(Type.String()),
        amountFinanced: nullable(Money()),
        termMonths: nullable(Type.Integer()),
        apr: nullable(Money()),
        monthlyPayment: nullable(Money()),
        firstPaymentDate: nullable(Type.String()),
        balloonAmount: nullable(Money()),
        residualValue: nullable(Money()),
      }),
    ),
    pricing: Type.Object({
      quoteId: Type.String(),
      rateId: Type.String(),
      rateBookVersion: Type.Integer(),
      dealerCost: Money('What the dealer remits: the sum of the lines.'),
      retailPrice: Money("The coverage's retail price."),
      optionsRetail: Money("The options' retail prices, added to the coverage's."),
      totalPrice: Money('What the customer pays: retail price plus options.'),
      dealerMarkup: Money('totalPrice − dealerCost, kept by the dealer.'),
      lines: Type.Array(Line, {
        description: 'Every amount of the dealer cost with its payee; they add up to dealerCost exactly.',
      }),
    }),
    customFields: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    remittance: Type.Object({
      finalizedAt: nullable(DateTime('When the contract was finalized.')),
      finalizedBy: nullable(Type.String()),
      journalEntryIds: Type.Array(Type.Integer(), {
        description: 'Journal entries posted for the contract (finalize, refinalize), oldest first.',
      }),
    }),
    documents: Type.Array(
      Type.Object({
        documentId: Type.Integer(),
        kind: Type.String(),
        draft: Type.Boolean(),
        currentVersion: Type.Integer(),
        createdAt: Type.String(),
      }),
    ),
    terms: ContractTermsSchema,
    dealNumber: nullable(Type.String()),
    salesPerson: nullable(
      Type.Object({
        firstName: nullable(Type.String()),
        lastName: nullable(Type.String()),
        code: nullable(Type.String()),
      }),
    ),
    financeManager: nullable(Type.Object({ name: nullable(Type.String()), code: nullable(Type.String()) })),
    taxExempt: Type.Boolean(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    createdBy: Type.String(),
    version: Type.Integer(),
  },
  { $id: 'Contract', examples: [CONTRACT_EXAMPLE] },
)

export const ContractSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    contractNumber: Type.String(),
    status: enumOf(CONTRACT_STATUSES),
    dealerId: Type.Integer(),
    productCode: Type.String(),
    planCode: Type.String(),
    vin: nullable(Type.String()),
    customerName: Type.String(),
    saleDate: Type.String(),
    effectiveDate: Type.String(),
    expirationDate: Type.String(),
    dealerCost: Money(),
    retailPrice: Money(),
    createdAt: Type.String(),
  },
  {
    $id: 'ContractSummary',
    examples: [
      {
        id: 900123,
        contractNumber: 'VSC-PLAT-U-0126-00000042',
        status: 'ACTIVE',
        dealerId: 77,
        productCode: 'VSC',
        planCode: 'PLAT-USED',
        vin: '1HGCV1F37LA012345',
        customerName: 'Sam J Buyer',
        saleDate: '2026-11-21',
        effectiveDate: '2026-11-21',
        expirationDate: '2030-11-21',
        dealerCost: 1085,
        retailPrice: 2695,
        createdAt: '2026-11-21T16:01:59.000Z',
      },
    ],
  },
)

// ---- parameters and small bodies ---------------------------------------------------------------

export const ContractIdParams = Type.Object({ contractId: IntegerId('Contract id') })
export const IdentifierParams = Type.Object({
  identifier: Type.String({
    minLength: 1,
    maxLength: 60,
    pattern: '^[A-Za-z0-9_./-]+$',
    description: 'Contract id, or contract number (letters, digits, - _ / .).',
  }),
})
export const HoldParams = Type.Object({ contractId: IntegerId('Contract id'), holdId: IntegerId('Hold id') })

/** Search text: printable characters only (a NUL cannot reach the database). */
const PRINTABLE = '^[^\\x00-\\x1f\\x7f]+$'
const searchFilters = {
  contractNumber: Type.Optional(
    Type.String({ minLength: 1, maxLength: 60, pattern: PRINTABLE, description: 'Exact contract number (any case).' }),
  ),
  vin: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 17,
      pattern: PRINTABLE,
      description: 'The VIN, or its last 6 or more characters.',
    }),
  ),
  customerName: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 100,
      pattern: PRINTABLE,
      description: "The start of the contract holder's name or a word of it (any case).",
    }),
  ),
  dealerId: Type.Optional(AccountHolderRef('Selling dealer (account-holder id).')),
  dealerNumber: Type.Optional(
    Type.String({ minLength: 1, maxLength: 40, pattern: PRINTABLE, description: 'Selling dealer number.' }),
  ),
  status: Type.Optional(
    enumOf(CONTRACT_STATUSES, 'Stored status (a finalized contract in effect is stored FINALIZED until activated).'),
  ),
  saleDateFrom: Type.Optional(IsoDate('Sale date on or after.')),
  saleDateTo: Type.Optional(IsoDate('Sale date on or before.')),
  createdFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after.' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time', description: 'Created before.' })),
}
/** What a contract search may be ordered by (its default: newest first, `-createdAt`). */
export const CONTRACT_SORT_FIELDS = [
  'createdAt',
  'saleDate',
  'contractNumber',
  'customerName',
  'expirationDate',
  'dealerCost',
  'retailPrice',
] as const
export type ContractSortField = (typeof CONTRACT_SORT_FIELDS)[number]
const searchSort = { sort: sortParam(CONTRACT_SORT_FIELDS, '-createdAt') }
export const SearchQuery = Type.Object(
  { ...searchFilters, ...searchSort, ...ListQuery },
  { additionalProperties: false },
)
export const PagedSearchQuery = Type.Object(
  { ...searchFilters, ...searchSort, ...PagedQuery },
  { additionalProperties: false },
)

export const CreateHoldBody = Type.Object(
  {
    reasonCode: enumOf(
      HOLD_REASONS.map((r) => r.code),
      'A code of GET /api/contracts/holdreasons.',
    ),
    note: Type.Optional(nullable(Type.String({ maxLength: 1000, pattern: '^[^\\x00]*$' }))),
  },
  {
    additionalProperties: false,
    examples: [{ reasonCode: 'MISSING_SIGNATURE', note: 'Co-buyer did not sign page 2' }],
  },
)
export const ResolveHoldBody = Type.Object(
  {
    note: Type.Optional(nullable(Type.String({ maxLength: 1000, pattern: '^[^\\x00]*$' }))),
  },
  { additionalProperties: false, examples: [{ note: 'Signed copy received by fax' }] },
)
export const ResolutionSchema = Type.Object(
  {
    holdId: Type.Integer(),
    resolvedAt: DateTime('When the hold was resolved.'),
    resolvedBy: Type.String(),
    note: nullable(Type.String()),
  },
  {
    examples: [
      {
        holdId: 311,
        resolvedAt: '2026-11-21T17:40:00.000Z',
        resolvedBy: 'clerk@admin.example',
        note: 'Signed copy received by fax',
      },
    ],
  },
)
export const HoldReasonSchema = Type.Object(
  { code: Type.String(), name: Type.String(), description: Type.String() },
  {
    examples: [{ code: HOLD_REASONS[0].code, name: HOLD_REASONS[0].name, description: HOLD_REASONS[0].description }],
  },
)
export const LockSchema = Type.Object(
  {
    contractId: Type.Integer(),
    locked: Type.Boolean(),
    heldByYou: Type.Boolean(),
    userId: nullable(Type.Integer()),
    user: nullable(Type.String()),
    expiresAt: nullable(DateTime('When the lock frees itself unless renewed.')),
  },
  {
    examples: [
      {
        contractId: 900123,
        locked: true,
        heldByYou: true,
        userId: 7,
        user: 'user:7',
        expiresAt: '2026-11-21T16:16:59.000Z',
      },
    ],
  },
)
export const CoBuyerBody = Type.Object(PersonSchema.properties, {
  additionalProperties: false,
  examples: [{ firstName: 'Alex', lastName: 'Buyer', emailAddress: 'alex@example.com' }],
})
/** Routes that take no body accept an empty object (or none). */
export { EmptyBody } from '../../platform/http/schemas.ts'

export const POSTING_EXAMPLE = {
  contract: {
    ...CONTRACT_EXAMPLE,
    status: 'ACTIVE',
    remittance: {
      finalizedAt: '2026-11-21T18:00:00.000Z',
      finalizedBy: 'clerk@admin.example',
      journalEntryIds: [4410],
    },
    version: 2,
  },
  journalEntry: {
    entryId: 4410,
    kind: 'CONTRACT_FINALIZED',
    effectiveDate: '2026-11-21',
    totalDebit: 1085,
    totalCredit: 1085,
    lines: [
      { accountHolderId: 77, purpose: 'DEALER_RECEIVABLE', debit: 1085, credit: 0, disbursementCode: null },
      { accountHolderId: 3, purpose: 'DISBURSEMENT_PAYABLE', debit: 0, credit: 850, disbursementCode: 'RES' },
      { accountHolderId: 1, purpose: 'UNEARNED_REVENUE', debit: 0, credit: 235, disbursementCode: 'ADM' },
    ],
  },
  document: { documentId: 5020, fileId: 9130, versionNo: 1 },
}
export const PostingSchema = Type.Object(
  {
    contract: Type.Unsafe<Record<string, unknown>>({ $ref: 'Contract#' }),
    journalEntry: nullable(
      Type.Object(
        {
          entryId: Type.Integer(),
          kind: Type.String(),
          effectiveDate: Type.String(),
          totalDebit: Money(),
          totalCredit: Money(),
          lines: Type.Array(
            Type.Object({
              accountHolderId: Type.Integer(),
              purpose: Type.String(),
              debit: Money(),
              credit: Money(),
              disbursementCode: nullable(Type.String()),
            }),
          ),
        },
        { description: 'The entry posted; null when a refinalization found nothing to post.' },
      ),
    ),
    document: nullable(
      Type.Object(
        { documentId: Type.Integer(), fileId: Type.Integer(), versionNo: Type.Integer() },
        { description: 'The final contract document produced.' },
      ),
    ),
  },
  { examples: [POSTING_EXAMPLE] },
)

export const CoverageGroupSchema = Type.Object(
  {
    code: Type.String(),
    name: Type.String(),
    components: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  },
  {
    examples: [
      {
        code: 'ENGINE',
        name: 'Engine',
        components: [
          { code: 'BLOCK', name: 'Cylinder block' },
          { code: 'HEADS', name: 'Cylinder heads' },
        ],
      },
    ],
  },
)
export const CoverageComponentSchema = Type.Object(
  { groupCode: Type.String(), groupName: Type.String(), code: Type.String(), name: Type.String() },
  {
    examples: [{ groupCode: 'ENGINE', groupName: 'Engine', code: 'BLOCK', name: 'Cylinder block' }],
  },
)

export const StatusHistoryQuery = Type.Object({ ...PagedQuery }, { additionalProperties: false })

export const STATUS_CHANGE_EXAMPLE = {
  historyId: 88121,
  event: 'CANCEL',
  fromStatus: 'ACTIVE',
  toStatus: 'CANCELLED',
  effectiveDate: '2027-03-01',
  source: { type: 'CANCELLATION', id: 5012 },
  occurredAt: '2027-03-04T15:20:00.000Z',
  actor: 'clerk@admin.example',
  actorUserId: 7,
}
export const StatusChangeSchema = Type.Object(
  {
    historyId: Type.Integer(),
    event: enumOf(STATUS_EVENTS, 'CREATE for the creation; else the transition of the state machine.'),
    fromStatus: nullable(enumOf(CONTRACT_STATUSES), 'The status before; null for the creation.'),
    toStatus: enumOf(CONTRACT_STATUSES),
    effectiveDate: IsoDate('The day from which the contract is in toStatus (a cancellation: its cancel date).'),
    source: Type.Object(
      {
        type: Type.String({
          description:
            'What made the change: CONTRACT (its own routes and dates), CANCELLATION, CLAIM, PROCESS, TRANSFER; BACKFILL for changes rebuilt for contracts older than the history.',
        }),
        id: nullable(Type.Integer(), 'The id of that record, when there is one.'),
      },
      { additionalProperties: false },
    ),
    occurredAt: DateTime('When the change was recorded.'),
    actor: Type.String({ description: 'Who recorded it: a user, an API key or a process.' }),
    actorUserId: nullable(Type.Integer()),
  },
  { $id: 'ContractStatusChange', examples: [STATUS_CHANGE_EXAMPLE] },
)

/** What a PATCH result must be: the editable representation (a merge patch's null leaves a member out). */
export const PatchedContractSchema = Type.Object(
  {
    contractNumber: Type.String(),
    status: Type.String(),
    quoteId: Type.String(),
    rateId: Type.String(),
    saleDate: Type.String(),
    saleOdometer: Type.Optional(nullable(Type.Integer())),
    vin: Type.Optional(nullable(Type.String())),
    dealerNumber: Type.String(),
    effectiveDate: Type.String({ format: 'date' }),
    retailPrice: MoneyIn("The coverage's retail price."),
    customer: PersonSchema,
    coBuyer: Type.Optional(nullable(PersonSchema)),
    lienHolderId: Type.Optional(nullable(AccountHolderRef('An existing lien holder.'))),
    lienHolder: Type.Optional(nullable(LienHolderInline)),
    finance: Type.Optional(
      nullable(
        Type.Object(
          {
            monthlyPayment: Type.Optional(nullable(MoneyIn('Monthly payment.'))),
            firstPaymentDate: Type.Optional(nullable(IsoDate('First payment date.'))),
            balloonAmount: Type.Optional(nullable(MoneyIn('Balloon payment.'))),
            residualValue: Type.Optional(nullable(MoneyIn('Lease residual value.'))),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    dealNumber: OptionalText(40),
    salesPerson: Type.Optional(nullable(SalesPerson)),
    financeManager: Type.Optional(nullable(FinanceManager)),
    customFields: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.Unknown())),
    taxExempt: Type.Boolean(),
  },
  { additionalProperties: false },
)
