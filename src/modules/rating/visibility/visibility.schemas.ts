// TypeBox schemas of dealer rate visibility: the PUT body (a dealer's whole set of entries), the
// entry as replies give it, path and query parameters.
import { Type, type Static } from 'typebox'
import { IntegerId, ListQuery } from '../../../platform/http/schemas.ts'
import { MAX_ENTRIES } from './visibility.rules.ts'

const CatalogueId = (kind: string, description: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: `${description} A rating catalogue item of kind ${kind}.`,
  })
const MarkupValue = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 20 }), Type.Null()], { description })

export const EntryInput = Type.Object(
  {
    productId: Type.Integer({
      minimum: 1,
      description: 'The product the dealer may sell. A rating catalogue item of kind PRODUCT.',
    }),
    programId: Type.Optional(
      CatalogueId('PROGRAM', 'Only this program of the product; absent or null: every program.'),
    ),
    planId: Type.Optional(
      CatalogueId('PLAN', 'Only this plan; absent or null: every plan (of the program, if given).'),
    ),
    maxMarkupAmount: Type.Optional(
      MarkupValue(
        'Largest markup the dealer may add over the dealer cost, per contract: at most 2 decimal places, 0 to 1000000 (number or decimal string); absent or null: no limit here.',
      ),
    ),
    maxMarkupPercent: Type.Optional(
      MarkupValue(
        'Largest markup as a per cent of the dealer cost: at most 4 decimal places, 0 to 1000 (number or decimal string); absent or null: no limit here.',
      ),
    ),
  },
  { additionalProperties: false },
)

export const PUT_EXAMPLE = [
  { productId: 11, maxMarkupPercent: 150 },
  { productId: 21, programId: 22, planId: 24, maxMarkupAmount: 400 },
]

export const ReplaceVisibilityBody = Type.Array(EntryInput, {
  maxItems: MAX_ENTRIES,
  description: `Every entry of the dealer (at most ${MAX_ENTRIES}); replaces the previous set. An empty list leaves the dealer with nothing visible.`,
  examples: [PUT_EXAMPLE],
})

export const VISIBILITY_EXAMPLE = {
  dealerId: 77,
  productId: 21,
  programId: 22,
  planId: 24,
  maxMarkupAmount: 400,
  maxMarkupPercent: null,
}

export const VisibilityEntrySchema = Type.Object(
  {
    dealerId: Type.Integer(),
    productId: Type.Integer(),
    programId: Type.Union([Type.Integer(), Type.Null()], { description: 'null: every program of the product.' }),
    planId: Type.Union([Type.Integer(), Type.Null()], { description: 'null: every plan (of the program, if given).' }),
    maxMarkupAmount: Type.Union([Type.Number(), Type.Null()], {
      description:
        'Largest markup per contract, a JSON number with at most 2 decimal places (400, 49.5); null: no limit here.',
    }),
    maxMarkupPercent: Type.Union([Type.Number(), Type.Null()], {
      description:
        'Largest markup as a per cent of the dealer cost, a JSON number with at most 4 decimal places (150, 12.5); null: no limit here.',
    }),
  },
  { $id: 'DealerRateVisibility', examples: [VISIBILITY_EXAMPLE] },
)

export type VisibilityReply = Static<typeof VisibilityEntrySchema>

export const DealerIdParams = Type.Object({ dealerId: IntegerId('Dealer id') })

export const VisibilityListQuery = Type.Object(
  {
    dealerId: Type.Optional(Type.Integer({ minimum: 1, description: 'Entries of this dealer.' })),
    productId: Type.Optional(Type.Integer({ minimum: 1, description: 'Entries of this product.' })),
    ...ListQuery,
  },
  { additionalProperties: false },
)
