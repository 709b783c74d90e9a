// Wire shapes of rerates (docs/contracts.md "Rerating"): the request (corrected facts, a reason, a dry
// run) and the rerate result (the pricing before and after, the differences in cents, the entries posted).
import { Type } from 'typebox'
import { DateTime, PagedQuery, enumOf, nullable } from '../../platform/http/schemas.ts'

const IsoDate = (description: string) => Type.String({ format: 'date', maxLength: 10, description })
const NO_CONTROL = '^[^\\x00-\\x1f\\x7f]*$'
const OptionalText = (max: number, description?: string) =>
  Type.Optional(nullable(Type.String({ minLength: 1, maxLength: max, pattern: NO_CONTROL }), description))
const MoneyIn = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
    description: `${description} A number with at most 2 decimals.`,
  })
const CatalogueId = (description: string) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description })

export const RerateListQuery = Type.Object({ ...PagedQuery }, { additionalProperties: false })

export const RERATE_REQUEST_EXAMPLE = {
  saleOdometer: 52150,
  vehicle: { vin: '1HGCV1F37LA012345' },
  selectedOptionIds: [1203],
  reason: 'Odometer misread at the sale: 52,150 on the title',
  dryRun: false,
}

const VehicleCorrection = Type.Object(
  {
    vin: Type.Optional(
      Type.String({
        pattern: '^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$',
        description:
          'The corrected VIN (check digit verified). It is decoded afresh: the year, make, model and trim the contract had are dropped unless restated here.',
      }),
    ),
    year: Type.Optional(nullable(Type.Integer({ minimum: 1900, maximum: 2100 }))),
    make: OptionalText(60),
    model: OptionalText(80),
    trim: OptionalText(80),
    condition: Type.Optional(nullable(enumOf(['NEW', 'USED', 'CERTIFIED'] as const))),
    inServiceDate: Type.Optional(nullable(IsoDate('The in-service date.'))),
    purchasePrice: Type.Optional(nullable(MoneyIn('Vehicle price.'))),
    msrp: Type.Optional(nullable(MoneyIn("Manufacturer's suggested retail price."))),
  },
  {
    additionalProperties: false,
    description: 'Corrected facts of the vehicle; a member left out keeps the contract’s value, null clears it.',
  },
)

export const RerateRequestBody = Type.Object(
  {
    saleOdometer: Type.Optional(
      nullable(Type.Integer({ minimum: 0, maximum: 2_000_000, description: 'The odometer at the sale, corrected.' })),
    ),
    vehicle: Type.Optional(VehicleCorrection),
    termId: Type.Optional(CatalogueId("Another term of the contract's plan (the rate quote's termId).")),
    deductibleId: Type.Optional(CatalogueId("Another deductible of the contract's product.")),
    selectedOptionIds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        maxItems: 50,
        uniqueItems: true,
        description:
          'Replaces the options and surcharges chosen (default: the contract’s own); required ones are added whatever is sent.',
      }),
    ),
    retailPrice: Type.Optional(
      MoneyIn(
        "A new retail price for the coverage; by default the contract keeps its own while it fits the new rate (the fixed retail when the rate's retail is locked).",
      ),
    ),
    reason: OptionalText(1000, 'Why the contract is rerated (kept with the rerate).'),
    dryRun: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'true: answer the rerate as it would be (200) and write nothing.',
      }),
    ),
  },
  { additionalProperties: false, examples: [RERATE_REQUEST_EXAMPLE] },
)

const Line = Type.Object({
  code: Type.String(),
  group: Type.String(),
  label: Type.String(),
  amount: Type.Number(),
  source: enumOf(['RATE', 'ACCOUNT_HOLDER', 'OPTION'] as const),
  optionCode: nullable(Type.String()),
  payeeAccountHolderId: Type.Integer(),
})

const Option = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  kind: Type.String(),
  required: Type.Boolean(),
  dealerCost: Type.Number(),
  retail: Type.Number(),
})

const Side = Type.Object(
  {
    rateId: Type.String({ description: 'The rate of the contract’s rate-book version that prices it.' }),
    term: Type.Object({ id: Type.Integer(), code: Type.String(), months: Type.Integer(), miles: Type.Integer() }),
    deductible: Type.Object({ id: Type.Integer(), code: Type.String() }),
    saleOdometer: nullable(Type.Integer()),
    expirationDate: IsoDate('The effective date plus the term’s months.'),
    expirationOdometer: nullable(Type.Integer()),
    vehicle: Type.Object({
      vin: nullable(Type.String()),
      year: nullable(Type.Integer()),
      make: nullable(Type.String()),
      model: nullable(Type.String()),
      trim: nullable(Type.String()),
      condition: nullable(Type.String()),
      inServiceDate: nullable(Type.String()),
      purchasePrice: nullable(Type.Number()),
      msrp: nullable(Type.Number()),
      vehicleClass: nullable(Type.String()),
    }),
    retailPrice: Type.Number(),
    optionsRetail: Type.Number(),
    totalPrice: Type.Number({ description: 'retailPrice + optionsRetail: what the customer pays.' }),
    dealerCost: Type.Number({ description: 'The sum of the lines.' }),
    salesTax: Type.Number({ description: 'The sales tax kept in the terms (0: none).' }),
    lines: Type.Array(Line, { description: 'Each priced line with its payee.' }),
    options: Type.Array(Option),
  },
  { description: 'The contract’s pricing on one side of the rerate.' },
)

const cents = (description: string) => Type.Integer({ description: `${description}, in cents (after − before).` })

const SIDE_BEFORE_EXAMPLE = {
  rateId: 'r.41.57.63.1410',
  term: { id: 57, code: '24-24000', months: 24, miles: 24000 },
  deductible: { id: 63, code: 'D0' },
  saleOdometer: 42150,
  expirationDate: '2028-11-02',
  expirationOdometer: 66150,
  vehicle: {
    vin: '1HGCV1F37LA012345',
    year: 2020,
    make: 'HONDA',
    model: 'ACCORD',
    trim: null,
    condition: 'USED',
    inServiceDate: '2020-05-01',
    purchasePrice: null,
    msrp: null,
    vehicleClass: 'B',
  },
  retailPrice: 2155,
  optionsRetail: 0,
  totalPrice: 2155,
  dealerCost: 1231,
  salesTax: 0,
  lines: [
    {
      code: 'RES',
      group: 'RESERVE',
      label: 'Reserve',
      amount: 855,
      source: 'RATE',
      optionCode: null,
      payeeAccountHolderId: 12,
    },
    {
      code: 'PRM',
      group: 'PREMIUM',
      label: 'Insurer premium',
      amount: 51,
      source: 'RATE',
      optionCode: null,
      payeeAccountHolderId: 12,
    },
    {
      code: 'ADM',
      group: 'ADMIN_FEE',
      label: 'Administration fee',
      amount: 175,
      source: 'RATE',
      optionCode: null,
      payeeAccountHolderId: 1,
    },
    {
      code: 'COM',
      group: 'COMMISSION',
      label: 'Agent commission',
      amount: 150,
      source: 'RATE',
      optionCode: null,
      payeeAccountHolderId: 31,
    },
  ],
  options: [],
}

export const RERATE_EXAMPLE = {
  id: 18,
  contractId: 900123,
  contractNumber: 'VSC-PLAT-U-0126-00000042',
  contractStatus: 'ACTIVE',
  dryRun: false,
  reason: 'Odometer misread at the sale: 52,150 on the title',
  changed: ['saleOdometer', 'selectedOptionIds'],
  request: {
    saleOdometer: 52150,
    vehicle: { vin: '1HGCV1F37LA012345' },
    selectedOptionIds: [1203],
    reason: 'Odometer misread at the sale: 52,150 on the title',
  },
  before: SIDE_BEFORE_EXAMPLE,
  after: {
    ...SIDE_BEFORE_EXAMPLE,
    rateId: 'r.41.57.63.1411',
    saleOdometer: 52150,
    expirationOdometer: 76150,
    optionsRetail: 99,
    totalPrice: 2254,
    dealerCost: 1556.16,
    lines: [
      { ...SIDE_BEFORE_EXAMPLE.lines[0]!, amount: 1128.6 },
      { ...SIDE_BEFORE_EXAMPLE.lines[1]!, amount: 67.56 },
      ...SIDE_BEFORE_EXAMPLE.lines.slice(2),
      {
        code: 'ADM',
        group: 'ADMIN_FEE',
        label: 'Administration fee',
        amount: 35,
        source: 'OPTION',
        optionCode: 'ROADSIDE',
        payeeAccountHolderId: 1,
      },
    ],
    options: [
      {
        id: 1203,
        code: 'ROADSIDE',
        name: 'Roadside assistance',
        kind: 'OPTION',
        required: false,
        dealerCost: 35,
        retail: 99,
      },
    ],
  },
  difference: {
    dealerCostCents: 32516,
    retailPriceCents: 0,
    optionsRetailCents: 9900,
    salesTaxCents: 0,
    totalPriceCents: 9900,
  },
  postedLines: [
    { accountHolderId: 7, purpose: 'DEALER_RECEIVABLE', side: 'DEBIT', amount: 325.16, disbursementCode: null },
    { accountHolderId: 12, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', amount: 273.6, disbursementCode: 'RES' },
    { accountHolderId: 12, purpose: 'DISBURSEMENT_PAYABLE', side: 'CREDIT', amount: 16.56, disbursementCode: 'PRM' },
    { accountHolderId: 1, purpose: 'UNEARNED_REVENUE', side: 'CREDIT', amount: 35, disbursementCode: 'ADM' },
  ],
  journalEntryId: 40187,
  settlementEntryId: null,
  earningsEntryId: 40188,
  requestedAt: '2026-11-20T18:00:00.000Z',
  requestedBy: 'service.admin@example.com',
}

export const ContractRerateSchema = Type.Object(
  {
    id: nullable(Type.Integer({ description: 'The rerate request; null for a dry run (nothing is kept).' })),
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    contractStatus: enumOf(['PENDING', 'FINALIZED', 'ACTIVE'] as const, 'The contract’s status when rerated.'),
    dryRun: Type.Boolean(),
    reason: nullable(Type.String()),
    changed: Type.Array(Type.String(), {
      description:
        'The facts that differ from the contract’s, by request field (saleOdometer, vehicle/vin, termId, selectedOptionIds, retailPrice…).',
    }),
    request: Type.Record(Type.String(), Type.Unknown(), { description: 'The request as sent (without dryRun).' }),
    before: Side,
    after: Side,
    difference: Type.Object(
      {
        dealerCostCents: cents('The dealer cost (what the dealer owes)'),
        retailPriceCents: cents('The retail price of the coverage'),
        optionsRetailCents: cents('The retail of the options'),
        salesTaxCents: cents('The sales tax kept in the terms'),
        totalPriceCents: cents('What the customer pays (retail + options)'),
      },
      { description: 'Exact differences in whole cents.' },
    ),
    postedLines: Type.Array(
      Type.Object({
        accountHolderId: Type.Integer(),
        purpose: Type.String(),
        side: enumOf(['DEBIT', 'CREDIT'] as const),
        amount: Type.Number(),
        disbursementCode: nullable(Type.String()),
      }),
      {
        description:
          'The lines of the CONTRACT_RERATED entry (a dry run: those it would post); empty for a pending contract or when nothing differs.',
      },
    ),
    journalEntryId: nullable(Type.Integer({ description: 'The CONTRACT_RERATED entry, when one was posted.' })),
    settlementEntryId: nullable(
      Type.Integer({
        description:
          'A CONTRACT_REFINALIZED entry posted first when the contract’s sale postings needed settling (decision 0012).',
      }),
    ),
    earningsEntryId: nullable(
      Type.Integer({ description: 'The EARNINGS_RECOGNIZED entry of the resync, when one was due.' }),
    ),
    requestedAt: DateTime('When rerated.'),
    requestedBy: Type.String(),
  },
  { $id: 'ContractRerate', examples: [RERATE_EXAMPLE] },
)
