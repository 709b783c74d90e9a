// Portal visibility groups: membership groups of kind DEALER seen through their dealers
// (docs/portal-visibility.md).
import { Type, type Static } from 'typebox'
import { IntegerId, ListQuery } from '../../platform/http/schemas.ts'

/** Bounds the reply's dealerIds and the visible set a member's every account-holder query carries. */
export const MAX_DEALERS_PER_GROUP = 5000
export const MAX_BULK_ITEMS = 100

const Code = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$',
  description: 'Unique in the tenant among all membership groups; case-sensitive. 1–50 letters, digits, `_`, `.`, `-`.',
  examples: ['LONESTAR-PORTAL'],
})
// No control characters in a name (PostgreSQL text cannot hold NUL at all), and not blank.
const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^(?=.*\\S)[^\\x00-\\x1f\\x7f]+$',
  description: 'Display name; leading and trailing spaces are dropped.',
  examples: ['Lone Star dealers'],
})
const Description = Type.String({
  maxLength: 500,
  pattern: '^[^\\x00]*$',
  description: 'Free text.',
  examples: ['Dealers of the Lone Star Automotive Group'],
})
const DealerIdList = (description: string) =>
  Type.Array(Type.Integer({ minimum: 1 }), {
    maxItems: MAX_DEALERS_PER_GROUP,
    uniqueItems: true,
    description,
    examples: [[77, 78]],
  })

export const GROUP_EXAMPLE = {
  id: 12,
  code: 'LONESTAR-PORTAL',
  name: 'Lone Star dealers',
  description: 'Dealers of the Lone Star Automotive Group',
  dealerIds: [77, 78],
  dealerCount: 2,
  userCount: 5,
  createdAt: '2026-01-02T15:04:05.000Z',
}

export const PortalVisibilityGroupSchema = Type.Object(
  {
    id: Type.Integer({ description: 'The membership group id (users join the group with `groups: [{ id }]`).' }),
    code: Type.String(),
    name: Type.String(),
    description: Type.String(),
    dealerIds: Type.Array(Type.Integer(), { description: 'Dealers the members may see, ascending.' }),
    dealerCount: Type.Integer(),
    userCount: Type.Integer({ description: 'Users in the group.' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'PortalVisibilityGroup', examples: [GROUP_EXAMPLE] },
)
export type PortalVisibilityGroupDto = Static<typeof PortalVisibilityGroupSchema>

export const DealerSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    dealerNumber: Type.Union([Type.String(), Type.Null()]),
    legalName: Type.String(),
    displayName: Type.String(),
    status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
    isActive: Type.Boolean({ description: 'ACTIVE and not expired.' }),
  },
  {
    $id: 'PortalVisibilityGroupDealer',
    examples: [
      {
        id: 77,
        dealerNumber: '10045',
        legalName: 'Main Street Motors LLC',
        displayName: 'Main St Honda',
        status: 'ACTIVE',
        isActive: true,
      },
    ],
  },
)

export const GroupIdParams = Type.Object({ portalVisibilityGroupId: IntegerId('Portal visibility group id') })
export const GroupCodeParams = Type.Object({
  portalVisibilityGroupCode: Type.String({
    minLength: 1,
    maxLength: 50,
    description: 'Portal visibility group code (case-sensitive).',
    examples: ['LONESTAR-PORTAL'],
  }),
})

export const GroupListQuery = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name (case-insensitive).' }),
    ),
    dealerId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only groups that include this dealer.' })),
    ...ListQuery,
  },
  { additionalProperties: false },
)

export const DealerListQuery = Type.Object({ ...ListQuery }, { additionalProperties: false })

export const CreateGroupBody = Type.Object(
  {
    code: Code,
    name: Name,
    description: Type.Optional(Description),
    dealerIds: Type.Optional(
      DealerIdList(
        'Dealers the members may see; each must be a dealer of the tenant (422 naming `dealerIds[i]`). Defaults to none.',
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        code: 'LONESTAR-PORTAL',
        name: 'Lone Star dealers',
        description: 'Dealers of the Lone Star Automotive Group',
        dealerIds: [77, 78],
      },
    ],
  },
)
export type CreateGroupInput = Static<typeof CreateGroupBody>

const BulkItem = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({ description: "Selects the group. When given, `code` (if any) is the group's new code." }),
    ),
    code: Type.Optional(Code),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    dealerIds: Type.Optional(DealerIdList('Replaces the dealers. Not combined with addDealerIds or removeDealerIds.')),
    addDealerIds: Type.Optional(DealerIdList('Dealers to add (already present: no change).')),
    removeDealerIds: Type.Optional(DealerIdList('Dealers to remove (absent: no change).')),
  },
  {
    additionalProperties: false,
    description: "One group's changes: `id` selects the group, or else `code` does; omitted members are unchanged.",
  },
)

export const BulkUpdateBody = Type.Array(BulkItem, {
  minItems: 1,
  maxItems: MAX_BULK_ITEMS,
  description:
    'Every item applies, or none does (one transaction). Errors name the item by index: `[1].addDealerIds[0]`.',
  examples: [
    [
      { code: 'LONESTAR-PORTAL', addDealerIds: [79], removeDealerIds: [77] },
      { id: 13, name: 'Gulf Coast dealers', dealerIds: [80, 81] },
    ],
  ],
})
export type BulkUpdateItem = Static<typeof BulkItem>
