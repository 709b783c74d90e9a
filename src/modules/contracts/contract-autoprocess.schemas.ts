// HTTP shapes of automatic expiry and voiding (docs/contracts.md "Automatic expiry and voiding"): the
// lists' queries, a contract due to expire, a contract that may be voided, and the change a POST made.
import { Type } from 'typebox'
import { DateTime, enumOf, IdFilter, ListQuery, nullable } from '../../platform/http/schemas.ts'
import { EXPIRY_REASONS, ODOMETER_SOURCES } from './contract-autoprocess.rules.ts'

const ProductType = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 40,
    pattern: '^[A-Za-z_]+$',
    description: 'Only contracts of this product type (VSC, GAP, PPM, …; any case).',
  }),
)

export const ExpiryDueQuerySchema = Type.Object(
  {
    asOf: Type.Optional(
      Type.String({
        format: 'date',
        maxLength: 10,
        description:
          "YYYY-MM-DD, default today in the tenant's time zone: due as of that day (a later day previews the expiries to come; a reading counts from the day it was read).",
      }),
    ),
    reason: Type.Optional(enumOf(EXPIRY_REASONS, 'Only contracts due for this reason (either when absent).')),
    dealerId: Type.Optional(IdFilter("Only this dealer's contracts.")),
    productType: ProductType,
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const VoidableQuerySchema = Type.Object(
  {
    dealerId: Type.Optional(IdFilter("Only this dealer's contracts.")),
    productType: ProductType,
    ...ListQuery,
  },
  { additionalProperties: false },
)

const Day = (description: string) => Type.String({ format: 'date', description })

const EXPIRY_EXAMPLE = {
  contractId: 900123,
  contractNumber: 'VSCPL-00A004352',
  dealerId: 5,
  productType: 'VSC',
  status: 'ACTIVE',
  saleDate: '2026-03-10',
  effectiveDate: '2026-03-10',
  expirationDate: '2029-03-10',
  reason: 'MILEAGE',
  reasons: ['MILEAGE'],
  expiresOn: '2026-11-20',
  mileage: {
    saleOdometer: 42150,
    termMiles: 36000,
    milesBasis: 'FROM_SALE_ODOMETER',
    expirationOdometer: 78150,
    lastOdometer: { odometer: 78410, readOn: '2026-11-20', source: { type: 'CLAIM_INTAKE', id: null } },
    milesLeft: -260,
  },
}

export const ExpiryDueSchema = Type.Object(
  {
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    dealerId: Type.Integer(),
    productType: Type.String(),
    status: enumOf(['FINALIZED', 'ACTIVE'] as const, 'As a reader sees it: a finalized contract in effect is ACTIVE.'),
    saleDate: Day('YYYY-MM-DD.'),
    effectiveDate: Day('YYYY-MM-DD.'),
    expirationDate: Day('The last day of the coverage by date.'),
    reason: enumOf(
      EXPIRY_REASONS,
      'What ends it first: DATE (as-of after the expiration date) or MILEAGE (the latest known odometer at or past the expiration odometer); DATE on a tie.',
    ),
    reasons: Type.Array(enumOf(EXPIRY_REASONS), { description: 'Every reason that applies, DATE first.' }),
    expiresOn: Day(
      "The day it is EXPIRED from (the status history's effective date): the day after the expiration date, or the day of the reading.",
    ),
    mileage: Type.Object(
      {
        saleOdometer: nullable(Type.Integer()),
        termMiles: nullable(Type.Integer({ description: "The term's miles (0: unlimited)." })),
        milesBasis: nullable(enumOf(['FROM_SALE_ODOMETER', 'FROM_ZERO'] as const)),
        expirationOdometer: nullable(
          Type.Integer({
            description:
              "Where the coverage ends: sale odometer + the term's miles (FROM_ZERO: the term's miles); null: no mileage limit.",
          }),
        ),
        lastOdometer: nullable(
          Type.Object({
            odometer: Type.Integer(),
            readOn: Day("The day the vehicle showed it (a claim's loss date)."),
            source: Type.Object({
              type: enumOf(
                ODOMETER_SOURCES,
                'CLAIM: an accepted claim (id: the claim); CLAIM_INTAKE: a claim refused because the miles are used up (no claim kept).',
              ),
              id: nullable(Type.Integer()),
            }),
          }),
          'The latest known odometer reading; null: none reported.',
        ),
        milesLeft: nullable(
          Type.Integer({
            description: 'expirationOdometer − the reading (negative: past the limit); null: no limit or no reading.',
          }),
        ),
      },
      { description: 'The figures of the mileage limit.' },
    ),
  },
  { $id: 'ContractExpiryDue', examples: [EXPIRY_EXAMPLE] },
)

const VOIDABLE_EXAMPLE = {
  contractId: 900140,
  contractNumber: 'VSCPL-00A004371',
  dealerId: 5,
  productType: 'VSC',
  status: 'PENDING',
  saleDate: '2026-08-01',
  effectiveDate: '2026-08-01',
  createdAt: '2026-08-01T16:02:11.000Z',
  createdBy: 'dealer.user@example.com',
  pendingDays: 117,
  voidAfterDays: 90,
  voidableSince: '2026-10-30T16:02:11.000Z',
}

export const VoidableSchema = Type.Object(
  {
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    dealerId: Type.Integer(),
    productType: Type.String(),
    status: enumOf(['PENDING'] as const),
    saleDate: Day('YYYY-MM-DD.'),
    effectiveDate: Day('YYYY-MM-DD.'),
    createdAt: DateTime('When the contract was written.'),
    createdBy: Type.String(),
    pendingDays: Type.Integer({ description: 'Whole days since it was written.' }),
    voidAfterDays: Type.Integer({ description: 'The setting pendingContractVoidAfterDays.' }),
    voidableSince: DateTime('createdAt + voidAfterDays days: from then it may be voided.'),
  },
  { $id: 'ContractVoidable', examples: [VOIDABLE_EXAMPLE] },
)

export const AutoChangeSchema = Type.Object(
  {
    contractId: Type.Integer(),
    contractNumber: Type.String(),
    event: enumOf(['EXPIRE', 'VOID'] as const),
    fromStatus: enumOf(
      ['PENDING', 'ACTIVE'] as const,
      'The status it was judged from (a finalized contract in effect: ACTIVE).',
    ),
    toStatus: enumOf(['EXPIRED', 'VOIDED'] as const),
    effectiveDate: Day('The day it is in its new status from (the status history row).'),
    reason: enumOf([...EXPIRY_REASONS, 'PENDING_TOO_LONG'] as const),
    activatedFirst: Type.Boolean({
      description: 'A finalized contract in effect had its activation recorded first (its own history row and event).',
    }),
    historyId: Type.Integer({ description: 'The status history row of the change.' }),
  },
  {
    $id: 'ContractAutoChange',
    examples: [
      {
        contractId: 900123,
        contractNumber: 'VSCPL-00A004352',
        event: 'EXPIRE',
        fromStatus: 'ACTIVE',
        toStatus: 'EXPIRED',
        effectiveDate: '2026-11-20',
        reason: 'MILEAGE',
        activatedFirst: false,
        historyId: 88120,
      },
    ],
  },
)
