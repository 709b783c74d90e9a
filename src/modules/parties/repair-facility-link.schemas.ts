// TypeBox schemas of the links between repair facilities and the dealers and dealer groups they
// serve (spec §4.3): the linked account holders, the change body, the removal query, and the
// facilities of a dealer.
import { Type, type Static } from 'typebox'
import { IdFilter, IntegerId, ListQuery } from '../../platform/http/schemas.ts'
import { KINDS } from './account-holder.kinds.ts'
import { replySchema } from './account-holder.schemas.ts'

/** Links of one kind a repair facility may hold; also the most ids one request may name. */
export const MAX_LINKS_PER_KIND = 1000

export const RepairFacilityIdParams = Type.Object({ repairFacilityId: IntegerId('Repair facility id') })
export const DealerIdParams = Type.Object({ dealerId: IntegerId('Dealer id') })

export const LinkListQuery = Type.Object({ ...ListQuery }, { additionalProperties: false })

const ids = (description: string) =>
  Type.Array(Type.Integer({ minimum: 1 }), { maxItems: MAX_LINKS_PER_KIND, description })

export const LinkChangeBody = Type.Object(
  {
    add: Type.Optional(ids('Ids to link, in addition to the current links. Already linked ids are kept as they are.')),
    replace: Type.Optional(
      ids('The complete new set of links of this kind: ids not listed are unlinked. [] removes every link.'),
    ),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of add and replace.',
    examples: [{ add: [1042, 1043] }, { replace: [1042] }],
  },
)
export type LinkChange = Static<typeof LinkChangeBody>

export const LinkRemovalQuery = Type.Object(
  {
    // Comma-separated values are split into items before validation (the route's preValidation).
    ids: Type.Array(IdFilter('A dealer or dealer-group id.'), {
      minItems: 1,
      maxItems: MAX_LINKS_PER_KIND,
      description:
        'Ids to unlink, at most 1000: repeated (ids=1042&ids=1043); comma-separated values (ids=1042,1043) are read as the same list. Ids not linked are ignored.',
      examples: [[1042, 1043]],
    }),
  },
  { additionalProperties: false },
)

export const LinkedAccountHolderSchema = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('DEALER'), Type.Literal('DEALER_GROUP')]),
    businessKey: Type.Union([Type.String(), Type.Null()], { description: 'Dealer number or dealer-group code.' }),
    legalName: Type.String(),
    displayName: Type.String(),
    status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
    expiredDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    isActive: Type.Boolean(),
    state: Type.Union([Type.String(), Type.Null()], { description: 'State of the first address.' }),
    linkedAt: Type.String({ format: 'date-time', description: 'When the link was made.' }),
  },
  {
    $id: 'RepairFacilityLinkedAccountHolder',
    examples: [
      {
        id: 1042,
        kind: 'DEALER',
        businessKey: '10045',
        legalName: 'Main Street Motors LLC',
        displayName: 'Main St Honda',
        status: 'ACTIVE',
        expiredDate: null,
        isActive: true,
        state: 'TX',
        linkedAt: '2026-01-02T15:04:05.000Z',
      },
    ],
  },
)
export type LinkedAccountHolder = Static<typeof LinkedAccountHolderSchema>

const facility = replySchema(KINDS.REPAIR_FACILITY)

/** A repair facility as the repair-facility routes show it, plus how it serves the dealer. */
export const FacilityOfDealerSchema = Type.Object(
  {
    ...facility.properties,
    via: Type.Union([Type.Literal('DEALER'), Type.Literal('DEALER_GROUP')], {
      description:
        "DEALER: linked to the dealer itself (wins when both links exist); DEALER_GROUP: linked to the dealer's group.",
    }),
  },
  {
    $id: 'RepairFacilityOfDealer',
    examples: [
      {
        id: 2001,
        kind: 'REPAIR_FACILITY',
        facilityCode: 'RF-77',
        legalName: 'Precision Auto Repair LLC',
        displayName: 'Precision Auto Repair',
        status: 'ACTIVE',
        expiredDate: null,
        isActive: true,
        taxId: '*****6789',
        w9OnFile: true,
        addresses: [
          {
            type: 'PHYSICAL',
            line1: '4410 Burnet Rd',
            city: 'Austin',
            state: 'TX',
            postalCode: '78756',
            country: 'US',
          },
        ],
        phones: [{ type: 'OFFICE', number: '+15125550142' }],
        emails: [{ type: 'CLAIMS', address: 'service@precision.example' }],
        facilityType: 'INDEPENDENT',
        laborRate: 135,
        aseCertified: true,
        createdAt: '2026-01-02T15:04:05.000Z',
        updatedAt: '2026-01-02T15:04:05.000Z',
        version: 1,
        via: 'DEALER_GROUP',
      },
    ],
  },
)
