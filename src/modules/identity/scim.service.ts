// SCIM use cases over the users of v1 (user.service.ts does the writing, its checks and the audit).
// Filters become exact lookups (scim.filter.ts); PUT and PATCH read the user, compute the SCIM state
// they ask for and write it back as a full replacement that keeps what SCIM does not carry (roles,
// groups, account holder, password), with the version read as the precondition, so a concurrent
// change is never overwritten unseen.
import type { Clock } from '../../platform/clock.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import { identityErrors } from './identity.errors.ts'
import { ScimError } from './scim.errors.ts'
import { parseFilter, planFilter, type UserLookup } from './scim.filter.ts'
import {
  assertStorable,
  parseScimId,
  stateOfResource,
  stateOfRow,
  toUserInput,
  unchanged,
  weakEtag,
  type ScimUserState,
} from './scim.mapper.ts'
import { applyPatch, type PatchOperation } from './scim.patch.ts'
import { SCIM_DEFAULT_COUNT, SCIM_MAX_COUNT, type ScimListQueryInput, type ScimUserInput } from './scim.schemas.ts'
import type { UserCriteria, UserRow } from './user.repository.ts'
import type { UserService } from './user.service.ts'

type Deps = { users: Pick<UserService, 'search' | 'get' | 'create' | 'replace'>; clock: Clock }

export type ScimPage = { rows: UserRow[]; totalResults: number; startIndex: number }

/** If-Match (RFC 7232 §3.1) against the user's version; weak and strong forms of the tag both match. */
export function ifMatchAllows(header: string | undefined, version: number): boolean {
  if (header === undefined) return true
  return header
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t.replace(/^W\//, '') === `"${version}"`)
}

class VersionMoved extends Error {}

const MAX_ATTEMPTS = 3

function criteriaOf(lookup: UserLookup): UserCriteria | undefined {
  const criteria: UserCriteria = {}
  if (lookup.id !== undefined) {
    const id = parseScimId(lookup.id)
    if (id === undefined) return undefined // not an id any user can have
    criteria.id = id
  }
  if (lookup.userName !== undefined) criteria.emailAddress = lookup.userName
  if (lookup.externalId !== undefined) criteria.externalIdentity = lookup.externalId
  return criteria
}

export function createScimUserService({ users, clock }: Deps) {
  const notFound = (id: string) => identityErrors.create('user_not_found', `User ${id} does not exist`)

  const idOf = (text: string): number => {
    const id = parseScimId(text)
    if (id === undefined) throw notFound(text)
    return id
  }

  async function update(
    ctx: AuthenticatedContext,
    idText: string,
    ifMatch: string | undefined,
    change: (row: UserRow) => ScimUserState,
  ): Promise<UserRow> {
    const id = idOf(idText)
    for (let attempt = 1; ; attempt++) {
      const row = await users.get(ctx, id)
      if (!ifMatchAllows(ifMatch, row.version)) {
        throw new ScimError(
          412,
          undefined,
          `If-Match ${ifMatch} does not match the current version ${weakEtag(row.version)}`,
        )
      }
      const state = change(row)
      assertStorable(state)
      const input = toUserInput(state, row, clock.now())
      if (unchanged(row, input)) return row
      try {
        return await users.replace(ctx, id, input, (version) => {
          if (version !== row.version) throw new VersionMoved()
        })
      } catch (err) {
        if (!(err instanceof VersionMoved)) throw err
        // Changed between our read and our write: read again and reapply (If-Match is rechecked).
        if (attempt >= MAX_ATTEMPTS)
          throw new ScimError(409, undefined, 'The user kept changing while being updated; retry')
      }
    }
  }

  return {
    /**
     * ListResponse rows: every user, or those the filter names, ordered by id. Each branch of a
     * filter names at most one user (userName, externalId and id are unique in the tenant), so
     * the matches of a filter are few and paged here; an unfiltered list is paged by the store.
     */
    async list(ctx: AuthenticatedContext, query: ScimListQueryInput): Promise<ScimPage> {
      const startIndex = Math.max(1, query.startIndex ?? 1)
      const count = Math.min(Math.max(0, query.count ?? SCIM_DEFAULT_COUNT), SCIM_MAX_COUNT)
      const plan = query.filter === undefined ? { kind: 'all' as const } : planFilter(parseFilter(query.filter))
      if (plan.kind === 'all') {
        const { rows, total } = await users.search(ctx, {}, { limit: count, offset: startIndex - 1 })
        return { rows, totalResults: total, startIndex }
      }
      const found = new Map<number, UserRow>()
      for (const lookup of plan.lookups) {
        const criteria = criteriaOf(lookup)
        if (!criteria) continue
        const { rows } = await users.search(ctx, criteria, { limit: 1, offset: 0 })
        for (const row of rows) found.set(row.id, row)
      }
      const matches = [...found.values()].toSorted((a, b) => a.id - b.id)
      return { rows: matches.slice(startIndex - 1, startIndex - 1 + count), totalResults: matches.length, startIndex }
    },

    async get(ctx: AuthenticatedContext, idText: string): Promise<UserRow> {
      return users.get(ctx, idOf(idText))
    },

    async create(ctx: AuthenticatedContext, body: ScimUserInput): Promise<UserRow> {
      const state = stateOfResource(body, undefined)
      assertStorable(state)
      return users.create(ctx, toUserInput(state, undefined, clock.now()))
    },

    async replace(
      ctx: AuthenticatedContext,
      idText: string,
      body: ScimUserInput,
      ifMatch: string | undefined,
    ): Promise<UserRow> {
      return update(ctx, idText, ifMatch, (row) => stateOfResource(body, stateOfRow(row)))
    },

    async patch(
      ctx: AuthenticatedContext,
      idText: string,
      operations: readonly PatchOperation[],
      ifMatch: string | undefined,
    ): Promise<UserRow> {
      return update(ctx, idText, ifMatch, (row) => applyPatch(stateOfRow(row), operations))
    },
  }
}

export type ScimUserService = ReturnType<typeof createScimUserService>
