// Wire shapes of reinsurance treaties (docs/reporting.md). Basis points are plain integers here and
// checked by the service (422 naming the field), so that a share of 12000 is named as out of range
// rather than refused as a bad type.
import { Type } from 'typebox'
import { DateTime, IdFilter, IntegerId, ListQuery, nullable } from '../../platform/http/schemas.ts'

const DateOnly = (description: string) => Type.String({ format: 'date', description, examples: ['2026-01-01'] })
const Bps = (description: string) => Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description })
const Ids = (description: string) =>
  Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000, uniqueItems: true, description })

export const TREATY_EXAMPLE = {
  id: 4,
  reinsuranceCompanyId: 88,
  name: 'Lone Star Re quota share 2026',
  dealerIds: [],
  dealerGroupIds: [12],
  productIds: [301],
  programIds: [],
  effectiveFrom: '2026-01-01',
  effectiveTo: null,
  shareBps: 10000,
  cedingFeeBps: 250,
  administratorFeeBps: 0,
  version: 1,
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
}

const Fields = {
  reinsuranceCompanyId: IntegerId('The reinsurance company ceded to (an account holder of kind REINSURANCE_COMPANY).'),
  name: Type.String({ minLength: 1, maxLength: 200, description: 'A name for people.' }),
  dealerIds: Ids('Dealers covered (account-holder ids).'),
  dealerGroupIds: Ids("Dealer groups covered: every dealer of the group at the sale (a dealer's own treaty wins)."),
  productIds: Ids('Products ceded (rating catalogue ids, GET /api/Rates/Products).'),
  programIds: Ids("Programs ceded (rating catalogue ids); a program's own treaty wins over its product's."),
  effectiveFrom: DateOnly('First sale date the treaty cedes.'),
  effectiveTo: nullable(DateOnly('Last sale date it cedes (inclusive).'), 'Last sale date it cedes; null: open-ended.'),
  shareBps: Bps('The ceded share of the reserve line in basis points, 0 to 10000 (10000 = 100 %, the default).'),
  cedingFeeBps: Bps('Ceding fee the reinsurance company pays, basis points of the ceded reserve (0 to 10000).'),
  administratorFeeBps: Bps(
    'Administrator fee the reinsurance company pays, basis points of the ceded reserve (0 to 10000).',
  ),
}

export const ReinsuranceTreatySchema = Type.Object(
  {
    id: IntegerId('The treaty.'),
    ...Fields,
    version: Type.Integer({ description: 'Row version (the ETag).' }),
    createdAt: DateTime('When created.'),
    updatedAt: DateTime('When last changed.'),
  },
  { $id: 'ReinsuranceTreaty', title: 'ReinsuranceTreaty', examples: [TREATY_EXAMPLE] },
)

/** What a PATCH must leave: the treaty's fields as a whole (a merge patch's null removes effectiveTo). */
export const ReinsuranceTreatyEditable = Type.Object(
  {
    ...Fields,
    dealerIds: Type.Optional(Fields.dealerIds),
    dealerGroupIds: Type.Optional(Fields.dealerGroupIds),
    productIds: Type.Optional(Fields.productIds),
    programIds: Type.Optional(Fields.programIds),
    effectiveTo: Type.Optional(Fields.effectiveTo),
  },
  { additionalProperties: false },
)

export const CreateReinsuranceTreatyBody = Type.Object(
  {
    reinsuranceCompanyId: Fields.reinsuranceCompanyId,
    name: Fields.name,
    dealerIds: Type.Optional(Fields.dealerIds),
    dealerGroupIds: Type.Optional(Fields.dealerGroupIds),
    productIds: Type.Optional(Fields.productIds),
    programIds: Type.Optional(Fields.programIds),
    effectiveFrom: Fields.effectiveFrom,
    effectiveTo: Type.Optional(Fields.effectiveTo),
    shareBps: Type.Optional(Fields.shareBps),
    cedingFeeBps: Type.Optional(Fields.cedingFeeBps),
    administratorFeeBps: Type.Optional(Fields.administratorFeeBps),
  },
  {
    additionalProperties: false,
    examples: [
      {
        reinsuranceCompanyId: 88,
        name: 'Lone Star Re quota share 2026',
        dealerGroupIds: [12],
        productIds: [301],
        effectiveFrom: '2026-01-01',
        shareBps: 10000,
        cedingFeeBps: 250,
      },
    ],
  },
)

export const TreatyParams = Type.Object({ treatyId: IntegerId('The treaty.') })

export const TreatyListQuery = Type.Object(
  {
    reinsuranceCompanyId: Type.Optional(IdFilter('Only treaties ceding to this reinsurance company.')),
    dealerId: Type.Optional(IdFilter('Only treaties naming this dealer.')),
    dealerGroupId: Type.Optional(IdFilter('Only treaties naming this dealer group.')),
    productId: Type.Optional(IdFilter('Only treaties naming this product.')),
    programId: Type.Optional(IdFilter('Only treaties naming this program.')),
    asOf: Type.Optional(DateOnly('Only the treaties in force on this day.')),
    ...ListQuery,
  },
  { additionalProperties: false },
)
