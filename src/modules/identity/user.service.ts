// User management use cases (spec §2.1, §3, §4.1). Shared by v1 (/v1/adminusers) and SCIM
// (/v2/Users): both are views of the same users.
import type { Transaction } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import { hashPassword } from '../../platform/auth/passwords.ts'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { AuthenticatedContext } from '../../platform/http/context.ts'
import type { FieldError } from '../../platform/http/errors.ts'
import type { Window } from '../../platform/http/pagination.ts'
import { isStorableId } from '../../platform/ids.ts'
import { identityErrors } from './identity.errors.ts'
import { missingPermissions } from './permissions.rules.ts'
import * as repo from './user.repository.ts'
import { storedExpiredDate } from './user.rules.ts'

export const PRINCIPAL_TOPIC = 'identity.principal'

export type UserInput = {
  emailAddress: string
  externalIdentity: string | null
  firstName: string | null
  lastName: string | null
  phoneNumber: string | null
  expiredDate: Date | null
  accountHolderId: number | null
  /** undefined keeps the current roles (SCIM carries none); [] clears them. */
  roleIds?: number[]
  groupIds?: number[]
  /** undefined keeps the current password. */
  password?: string
}

type Deps = { db: Database; clock: Clock; bus: InvalidationBus }

export function createUserService({ db, clock, bus }: Deps) {
  const notFound = (id: number) => identityErrors.create('user_not_found', `User ${id} does not exist`)

  async function assertReferences(tx: Transaction<DB>, ctx: AuthenticatedContext, input: UserInput): Promise<void> {
    const errors: FieldError[] = []
    const check = async (
      table: 'membership_role' | 'membership_group',
      field: 'roles' | 'groups',
      ids: number[] | undefined,
    ) => {
      if (!ids) return
      const found = await repo.existingIds(tx, ctx.tenantId, table, ids.filter(isStorableId))
      ids.forEach((id, i) => {
        if (!found.has(id))
          errors.push({
            field: `${field}[${i}].id`,
            code: 'unknown_reference',
            message: `${field === 'roles' ? 'role' : 'group'} ${id} does not exist`,
          })
      })
    }
    await check('membership_role', 'roles', input.roleIds)
    await check('membership_group', 'groups', input.groupIds)
    if (errors.length > 0) {
      throw identityErrors.create('unknown_reference', `Unknown ${errors.map((e) => e.message).join('; ')}`, { errors })
    }
    if (input.groupIds && ctx.principal.visibleAccountHolderIds !== null && input.groupIds.length > 0) {
      // A dealer-side caller may only place users in its own groups: anything else would widen what
      // they (or the user) see.
      const own = new Set(await repo.groupIdsOfUser(tx, ctx.tenantId, ctx.principal.userId))
      const foreign = input.groupIds.filter((g) => !own.has(g))
      if (foreign.length > 0) {
        throw identityErrors.create(
          'permission_escalation',
          `You may only assign groups you belong to; not ${foreign.join(', ')}`,
        )
      }
    }
    if (input.roleIds) {
      // Nobody grants a role carrying permissions they do not hold.
      const missing = missingPermissions(
        ctx.principal.permissions,
        await repo.permissionsOfRoles(tx, ctx.tenantId, input.roleIds),
      )
      if (missing.length > 0) {
        throw identityErrors.create(
          'permission_escalation',
          `The roles given carry permissions you do not hold: ${missing.join(', ')}`,
        )
      }
    }
  }

  function conflictFrom(err: unknown, input: UserInput): never {
    if (isForeignKeyViolation(err)) {
      // A role or group removed while this request ran.
      throw identityErrors.create('unknown_reference', 'A role or group given no longer exists')
    }
    if (isUniqueViolation(err, 'app_user_email_uq')) {
      throw identityErrors.create(
        'email_address_taken',
        `A user with email address ${input.emailAddress} already exists`,
        {
          errors: [{ field: 'emailAddress', code: 'taken', message: 'is already used by another user' }],
        },
      )
    }
    if (isUniqueViolation(err, 'app_user_external_identity_uq')) {
      throw identityErrors.create(
        'external_identity_taken',
        `A user with external identity ${input.externalIdentity} already exists`,
        {
          errors: [{ field: 'externalIdentity', code: 'taken', message: 'is already used by another user' }],
        },
      )
    }
    throw err
  }

  const toWrite = (input: UserInput, now: Date, currentExpiredDate: Date | null = null): repo.UserWrite => ({
    email_address: input.emailAddress.trim(),
    external_identity: input.externalIdentity,
    first_name: input.firstName,
    last_name: input.lastName,
    phone_number: input.phoneNumber,
    expired_date: storedExpiredDate(input.expiredDate, now, currentExpiredDate),
    account_holder_id: input.accountHolderId,
  })

  const auditView = (w: repo.UserWrite, roleIds?: number[], groupIds?: number[], passwordChanged = false) => ({
    ...w,
    role_ids: roleIds,
    group_ids: groupIds,
    password_changed: passwordChanged,
  })

  return {
    async search(ctx: AuthenticatedContext, criteria: repo.UserCriteria, window: Window) {
      if (criteria.id !== undefined && !isStorableId(criteria.id)) return { rows: [], total: 0 }
      return db.read(ctx.tenantId, (x) => repo.searchUsers(x, ctx.tenantId, criteria, window))
    },

    async get(ctx: AuthenticatedContext, id: number): Promise<repo.UserRow> {
      if (!isStorableId(id)) throw notFound(id)
      const row = await db.read(ctx.tenantId, (x) => repo.findUserById(x, ctx.tenantId, id))
      if (!row) throw notFound(id)
      return row
    },

    async create(ctx: AuthenticatedContext, input: UserInput): Promise<repo.UserRow> {
      const now = clock.now()
      const passwordHash = input.password ? await hashPassword(input.password) : null
      try {
        const row = await db.transaction(ctx.tenantId, async (tx) => {
          await assertReferences(tx, ctx, input)
          const write = toWrite(input, now)
          const id = await repo.insertUser(tx, ctx.tenantId, { ...write, password_hash: passwordHash }, now)
          await repo.replaceUserMemberships(tx, ctx.tenantId, id, input.roleIds ?? [], input.groupIds ?? [])
          await writeAudit(tx, ctx, now, {
            action: 'user.created',
            entityType: 'user',
            entityId: id,
            changes: { after: auditView(write, input.roleIds ?? [], input.groupIds ?? [], passwordHash !== null) },
          })
          return repo.findUserById(tx, ctx.tenantId, id)
        })
        return row as repo.UserRow
      } catch (err) {
        conflictFrom(err, input)
      }
    },

    /**
     * Full replacement. `checkVersion` enforces If-Match against the locked row's version.
     */
    async replace(
      ctx: AuthenticatedContext,
      id: number,
      input: UserInput,
      checkVersion: (current: number) => void = () => {},
    ): Promise<repo.UserRow> {
      if (!isStorableId(id)) throw notFound(id)
      const now = clock.now()
      const passwordHash = input.password ? await hashPassword(input.password) : undefined
      let row: repo.UserRow
      try {
        row = await db.transaction(ctx.tenantId, async (tx) => {
          const locked = await repo.lockUser(tx, ctx.tenantId, id)
          if (!locked) throw notFound(id)
          checkVersion(locked.version)
          const before = await repo.findUserById(tx, ctx.tenantId, id)
          await assertReferences(tx, ctx, input)
          const write = toWrite(input, now, before?.expired_date ?? null)
          await repo.updateUser(
            tx,
            ctx.tenantId,
            id,
            passwordHash === undefined ? write : { ...write, password_hash: passwordHash },
            now,
          )
          const roleIds = input.roleIds ?? before!.roles.map((r) => Number(r.id))
          const groupIds = input.groupIds ?? before!.groups.map((g) => Number(g.id))
          await repo.replaceUserMemberships(tx, ctx.tenantId, id, roleIds, groupIds)
          await writeAudit(tx, ctx, now, {
            action: 'user.replaced',
            entityType: 'user',
            entityId: id,
            changes: {
              before:
                before &&
                auditView(
                  {
                    email_address: before.email_address,
                    external_identity: before.external_identity,
                    first_name: before.first_name,
                    last_name: before.last_name,
                    phone_number: before.phone_number,
                    expired_date: before.expired_date,
                    account_holder_id: before.account_holder_id,
                  },
                  before.roles.map((r) => Number(r.id)),
                  before.groups.map((g) => Number(g.id)),
                ),
              after: auditView(write, roleIds, groupIds, passwordHash !== undefined),
            },
          })
          return (await repo.findUserById(tx, ctx.tenantId, id)) as repo.UserRow
        })
      } catch (err) {
        conflictFrom(err, input)
      }
      // Cached principals of this tenant (status, permissions) must not outlive the change.
      await bus.publish(PRINCIPAL_TOPIC, `${ctx.tenantId}:`)
      return row
    },
  }
}

export type UserService = ReturnType<typeof createUserService>
