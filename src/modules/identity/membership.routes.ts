// Membership roles and groups (spec §4.3). `Search/{id}` takes a user id and answers the roles (or
// groups) that user holds: the question user administrators ask when reviewing access. The lists
// (`GET /api/MembershipRoles`, `GET /api/MembershipGroups`) are what a user form offers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { IntegerId, ListQuery, problemResponses } from '../../platform/http/schemas.ts'
import type { MembershipService } from './membership.service.ts'

const RoleSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    description: Type.String(),
    permissions: Type.Array(Type.String(), { description: "Permissions granted; '*' means every permission." }),
  },
  {
    $id: 'MembershipRole',
    examples: [
      {
        id: 3,
        code: 'CONTRACT_ADMINISTRATOR',
        name: 'Contract administrator',
        description: 'Sells, corrects, finalizes and cancels contracts.',
        permissions: ['contracts:read', 'contracts:write'],
      },
    ],
  },
)

const GroupSchema = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    description: Type.String(),
    kind: Type.Union([Type.Literal('STAFF'), Type.Literal('DEALER')], {
      description: 'DEALER groups limit their members to the account holders listed.',
    }),
    users: Type.Array(Type.Object({ id: Type.Integer(), emailAddress: Type.String() }), {
      description: 'Members (first 1000).',
    }),
    accountHolderIds: Type.Array(Type.Integer(), {
      description: 'Account holders (dealers) the members of a DEALER group may see.',
    }),
  },
  {
    $id: 'MembershipGroup',
    examples: [
      {
        id: 1,
        code: 'STAFF',
        name: 'Administrator staff',
        description: '',
        kind: 'STAFF',
        users: [{ id: 1, emailAddress: 'admin@admin.example' }],
        accountHolderIds: [],
      },
    ],
  },
)

const roleRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'MembershipRole#' })
const groupRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'MembershipGroup#' })

const MembershipListQuery = Type.Object({ ...ListQuery }, { additionalProperties: false })

export const membershipRoutes: FastifyPluginAsyncTypebox<{ membership: MembershipService }> = async (
  app,
  { membership },
) => {
  app.addSchema(RoleSchema)
  app.addSchema(GroupSchema)
  const config = { permission: 'membership:read' }

  app.get(
    '/api/MembershipRoles',
    {
      schema: {
        tags: ['Membership'],
        operationId: 'listMembershipRoles',
        summary: "List the tenant's membership roles with their permissions",
        description: 'Ordered by id, bounded by limit/offset; the total is in X-Total-Count.',
        querystring: MembershipListQuery,
        response: { 200: Type.Array(roleRef), ...problemResponses() },
      },
      config,
    },
    async (req, reply) => sendList(reply, await membership.roles(authenticatedContext(req), listWindow(req.query))),
  )

  app.get(
    '/api/MembershipGroups',
    {
      schema: {
        tags: ['Membership'],
        operationId: 'listMembershipGroups',
        summary: "List the tenant's membership groups with their users and visible account holders",
        description:
          'Staff and dealer (portal visibility) groups, ordered by id, bounded by limit/offset; the total is in X-Total-Count. Each group lists its first 1000 members.',
        querystring: MembershipListQuery,
        response: { 200: Type.Array(groupRef), ...problemResponses() },
      },
      config,
    },
    async (req, reply) => sendList(reply, await membership.groups(authenticatedContext(req), listWindow(req.query))),
  )

  app.get(
    '/api/MembershipRoles/:membershipRoleId',
    {
      schema: {
        tags: ['Membership'],
        operationId: 'getMembershipRole',
        summary: 'Read a membership role with its permissions',
        params: Type.Object({ membershipRoleId: IntegerId('Role id') }),
        response: { 200: roleRef, ...problemResponses(404) },
      },
      config,
    },
    async (req) => membership.role(authenticatedContext(req), req.params.membershipRoleId),
  )

  app.get(
    '/api/MembershipRoles/Search/:id',
    {
      schema: {
        tags: ['Membership'],
        operationId: 'listMembershipRolesOfUser',
        summary: 'Roles held by a user',
        description:
          '`id` is a user id; the reply lists the roles that user holds (empty when none). 404 when the user does not exist.',
        params: Type.Object({ id: IntegerId('User id') }),
        response: { 200: Type.Array(roleRef), ...problemResponses(404) },
      },
      config,
    },
    async (req) => membership.rolesOfUser(authenticatedContext(req), req.params.id),
  )

  app.get(
    '/api/MembershipGroups/:membershipGroupId',
    {
      schema: {
        tags: ['Membership'],
        operationId: 'getMembershipGroup',
        summary: 'Read a membership group with its users and visible account holders',
        params: Type.Object({ membershipGroupId: IntegerId('Group id') }),
        response: { 200: groupRef, ...problemResponses(404) },
      },
      config,
    },
    async (req) => membership.group(authenticatedContext(req), req.params.membershipGroupId),
  )

  app.get(
    '/api/MembershipGroups/Search/:id',
    {
      schema: {
        tags: ['Membership'],
        operationId: 'listMembershipGroupsOfUser',
        summary: 'Groups a user belongs to',
        description:
          '`id` is a user id; the reply lists the groups that user belongs to (empty when none). 404 when the user does not exist.',
        params: Type.Object({ id: IntegerId('User id') }),
        response: { 200: Type.Array(groupRef), ...problemResponses(404) },
      },
      config,
    },
    async (req) => membership.groupsOfUser(authenticatedContext(req), req.params.id),
  )
}
