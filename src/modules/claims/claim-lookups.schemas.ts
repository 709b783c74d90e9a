// HTTP shapes of the claim lookups (docs/claims.md "Lookups"): an entry of a list, the three Cs with
// their type, a combination, and the lists' queries.
import { Type } from 'typebox'
import { IdFilter, ListQuery, nullable } from '../../platform/http/schemas.ts'

const Code = (description: string) => Type.String({ minLength: 1, maxLength: 60, description })
const ActiveFilter = Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) entries.' }))

export const LookupQuerySchema = Type.Object({ active: ActiveFilter, ...ListQuery }, { additionalProperties: false })

export const TypedLookupQuerySchema = Type.Object(
  {
    type: Type.Optional(
      Code('Only entries of this type (a code of GET /api/claims/complaintscausescorrectionstypes, any case).'),
    ),
    active: ActiveFilter,
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const CombinationQuerySchema = Type.Object(
  {
    complaintId: Type.Optional(IdFilter('Only the combinations of this complaint.')),
    causeId: Type.Optional(IdFilter('Only the combinations with this cause.')),
    correctionId: Type.Optional(IdFilter('Only the combinations with this correction.')),
    type: Type.Optional(Code('Only combinations whose complaint is of this type (any case).')),
    active: ActiveFilter,
    ...ListQuery,
  },
  { additionalProperties: false },
)

const entry = {
  id: Type.Integer(),
  code: Type.String({ description: 'Unique in its list, in any case.' }),
  name: Type.String(),
}
const listed = {
  active: Type.Boolean({ description: 'Offered for new claims; an inactive entry stays on the claims that use it.' }),
  sortOrder: Type.Integer({ description: 'Position in the list (lists are in this order, then by id).' }),
}

export const ClaimLookupSchema = Type.Object(
  { ...entry, ...listed },
  {
    $id: 'ClaimLookup',
    description: 'An entry of a reason list, or a type of the three Cs.',
    examples: [{ id: 118, code: 'WEAR_AND_TEAR', name: 'Normal wear and tear', active: true, sortOrder: 3 }],
  },
)

export const ClaimThreeCSchema = Type.Object(
  { ...entry, type: Type.String({ description: 'The code of its type (ENGINE, TRANSMISSION…).' }), ...listed },
  {
    $id: 'ClaimThreeC',
    description: 'A complaint, a cause or a correction.',
    examples: [
      {
        id: 40,
        code: 'IGNITION_COIL_FAILED',
        name: 'Failed ignition coil',
        type: 'ENGINE',
        active: true,
        sortOrder: 1,
      },
    ],
  },
)

const Ref = Type.Object({ ...entry })

export const ClaimCombinationSchema = Type.Object(
  {
    id: Type.Integer(),
    type: nullable(Type.String(), "The complaint's type."),
    complaint: Ref,
    cause: Ref,
    correction: Ref,
    ...listed,
  },
  {
    $id: 'ClaimComplaintCauseCorrection',
    description: 'A usual combination of a complaint, a cause of it and the correction of that cause.',
    examples: [
      {
        id: 7,
        type: 'ENGINE',
        complaint: { id: 12, code: 'CHECK_ENGINE_LIGHT', name: 'Check engine light on' },
        cause: { id: 40, code: 'IGNITION_COIL_FAILED', name: 'Failed ignition coil' },
        correction: { id: 77, code: 'REPLACE_IGNITION_COIL', name: 'Replace ignition coil' },
        active: true,
        sortOrder: 1,
      },
    ],
  },
)
