// /api/v1/adminusers (spec §4.1).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Clock } from '../../platform/clock.ts'
import { authenticatedContext } from '../../platform/http/context.ts'
import { expectedVersion, setEtag } from '../../platform/http/etag.ts'
import { platformErrors } from '../../platform/http/errors.ts'
import { listWindow, sendList } from '../../platform/http/pagination.ts'
import { problemResponses } from '../../platform/http/schemas.ts'
import { toUserDto } from './user.mapper.ts'
import {
  CreateUserBody,
  ReplaceUserBody,
  USER_EXAMPLE,
  UserIdParams,
  UserSchema,
  UserSearchQuery,
  type CreateUserInput,
  type ReplaceUserInput,
} from './user.schemas.ts'
import type { UserInput, UserService } from './user.service.ts'

const userRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'User#' })

function fromCreate(body: CreateUserInput): UserInput {
  return {
    emailAddress: body.emailAddress,
    externalIdentity: body.externalIdentity ?? null,
    firstName: body.firstName ?? null,
    lastName: body.lastName ?? null,
    phoneNumber: body.phoneNumber ?? null,
    expiredDate: body.expiredDate ? new Date(body.expiredDate) : null,
    accountHolderId: body.accountHolderId ?? null,
    roleIds: (body.roles ?? []).map((r) => r.id),
    groupIds: (body.groups ?? []).map((g) => g.id),
    ...(body.password !== undefined ? { password: body.password } : {}),
  }
}

function fromReplace(body: ReplaceUserInput): UserInput {
  return {
    emailAddress: body.emailAddress,
    externalIdentity: body.externalIdentity,
    firstName: body.firstName,
    lastName: body.lastName,
    phoneNumber: body.phoneNumber,
    expiredDate: body.expiredDate ? new Date(body.expiredDate) : null,
    accountHolderId: body.accountHolderId,
    roleIds: body.roles.map((r) => r.id),
    groupIds: body.groups.map((g) => g.id),
    ...(body.password !== undefined ? { password: body.password } : {}),
  }
}

export const userRoutes: FastifyPluginAsyncTypebox<{ users: UserService; clock: Clock }> = async (
  app,
  { users, clock },
) => {
  app.addSchema(UserSchema)

  app.get(
    '/api/v1/adminusers',
    {
      schema: {
        tags: ['Users'],
        operationId: 'listAdminUsers',
        summary: 'Search users',
        description:
          'Exact-match search. Criteria combine with AND; with none, every user is listed (bounded by limit/offset, ordered by id). The total is in X-Total-Count.',
        querystring: UserSearchQuery,
        response: { 200: Type.Array(userRef, { examples: [[USER_EXAMPLE]] }), ...problemResponses() },
      },
      config: { permission: 'users:read' },
    },
    async (req, reply) => {
      const q = req.query
      const result = await users.search(
        authenticatedContext(req),
        {
          ...(q['searchData.id'] !== undefined ? { id: q['searchData.id'] } : {}),
          ...(q['searchData.emailAddress'] !== undefined ? { emailAddress: q['searchData.emailAddress'] } : {}),
          ...(q['searchData.externalIdentity'] !== undefined
            ? { externalIdentity: q['searchData.externalIdentity'] }
            : {}),
        },
        listWindow(q),
      )
      const now = clock.now()
      return sendList(reply, { items: result.rows.map((r) => toUserDto(r, now)), totalCount: result.total })
    },
  )

  app.post(
    '/api/v1/adminusers',
    {
      schema: {
        tags: ['Users'],
        operationId: 'createAdminUser',
        summary: 'Create a user with roles and groups',
        description:
          'An unknown role or group id is 422 naming it; an email address or External Identity already used in the tenant is 409. Roles may only carry permissions the caller holds.',
        body: CreateUserBody,
        response: { 201: userRef, ...problemResponses(409, 415, 422) },
      },
      config: { permission: 'users:write' },
    },
    async (req, reply) => {
      const row = await users.create(authenticatedContext(req), fromCreate(req.body))
      setEtag(reply, row.version)
      reply.code(201).header('location', `/api/v1/adminusers/${row.id}`)
      return toUserDto(row, clock.now())
    },
  )

  app.get(
    '/api/v1/adminusers/:userId',
    {
      schema: {
        tags: ['Users'],
        operationId: 'getAdminUser',
        summary: 'Read one user',
        params: UserIdParams,
        response: { 200: userRef, ...problemResponses(404) },
      },
      config: { permission: 'users:read' },
    },
    async (req, reply) => {
      const row = await users.get(authenticatedContext(req), req.params.userId)
      setEtag(reply, row.version)
      return toUserDto(row, clock.now())
    },
  )

  app.put(
    '/api/v1/adminusers/:userId',
    {
      schema: {
        tags: ['Users'],
        operationId: 'replaceAdminUser',
        summary: 'Replace a user (also how a user is expired)',
        description:
          'Full replacement: every field is required; roles and groups are replaced. Read-only fields of a GET reply are accepted and ignored. expiredDate earlier than now is stored as now; later is stored as given; null reactivates. If-Match is honoured.',
        params: UserIdParams,
        body: ReplaceUserBody,
        response: { 200: userRef, ...problemResponses(404, 409, 412, 415, 422) },
      },
      config: { permission: 'users:write' },
    },
    async (req, reply) => {
      if (req.body.id !== undefined && req.body.id !== req.params.userId) {
        throw platformErrors.create(
          'id_mismatch',
          `The body id ${req.body.id} differs from the path id ${req.params.userId}`,
          {
            errors: [{ field: 'id', code: 'mismatch', message: 'must equal the id in the path' }],
          },
        )
      }
      const row = await users.replace(
        authenticatedContext(req),
        req.params.userId,
        fromReplace(req.body),
        expectedVersion(req),
      )
      setEtag(reply, row.version)
      return toUserDto(row, clock.now())
    },
  )
}
