// Operator use cases (CLI and demo seeding): tenants, API keys, signing keys, identity-provider
// trust. Each runs in one transaction, is audited, and publishes the invalidations its change needs.
// The caller passes a system context of the tenant (systemContext(tenantId, who)), as a request
// passes its own: the audit trail names whoever the context names (`cli:jdoe`, `demo-seed`).
import { sql } from 'kysely'
import { writeAudit } from '../../platform/audit.ts'
import { generateApiKey } from '../../platform/auth/api-keys.ts'
import { hashPassword } from '../../platform/auth/passwords.ts'
import { generateSigningKey, IDP_ALGORITHM_ALLOW_LIST, signAccessToken } from '../../platform/auth/tokens.ts'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import { systemContext, type AuthenticatedContext } from '../../platform/http/context.ts'
import type { TenantInitializer } from '../../platform/tenancy.ts'
import { API_KEY_TOPIC, IDENTITY_PROVIDER_TOPIC, SIGNING_KEY_TOPIC } from './auth.service.ts'
import * as credentials from './credentials.repository.ts'
import * as membership from './membership.repository.ts'
import { DEFAULT_GROUPS, DEFAULT_ROLES } from './permissions.rules.ts'
import type { SigningKeyVault } from './signing-keys.ts'
import { insertUser, replaceUserMemberships } from './user.repository.ts'

export type TenantCreated = { tenantId: number; apiKey: string; adminUserId: number }

export class OperatorError extends Error {}

type Deps = {
  db: Database
  clock: Clock
  bus: InvalidationBus
  signingKeys: SigningKeyVault
  tenantInitializers?: readonly TenantInitializer[]
}

export function createTenantService({ db, clock, bus, signingKeys: vault, tenantInitializers = [] }: Deps) {
  return {
    /**
     * `as` gives the context the creation is audited under once the tenant exists (it has no id
     * before): the operator's system context in the new tenant.
     */
    async createTenant(
      input: { name: string; adminEmail: string; adminPassword: string },
      as: (tenantId: number) => AuthenticatedContext = (tenantId) => systemContext(tenantId, 'operator'),
    ): Promise<TenantCreated> {
      if (!input.name.trim()) throw new OperatorError('--name must not be empty')
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.adminEmail))
        throw new OperatorError('--admin-email must be an email address')
      if (input.adminPassword.length < 12) throw new OperatorError('--admin-password must be at least 12 characters')
      const now = clock.now()
      const passwordHash = await hashPassword(input.adminPassword)
      const signingKey = await generateSigningKey()
      return db.transaction(null, async (tx) => {
        const tenant = await tx
          .insertInto('tenant')
          .values({ name: input.name.trim(), created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
        const tenantId = tenant.id
        // Bind the new tenant for the rest of this transaction, so row-level security admits its rows.
        await sql`select set_config('app.tenant_id', ${String(tenantId)}, true)`.execute(tx)
        const ctx = as(tenantId)
        for (const initialize of tenantInitializers)
          await initialize(tx, { id: tenantId, name: input.name.trim() }, now)
        const roles = await membership.insertRoles(tx, tenantId, DEFAULT_ROLES)
        const groups = await membership.insertGroups(tx, tenantId, DEFAULT_GROUPS)
        await credentials.insertSigningKey(
          tx,
          tenantId,
          { ...signingKey, sealedPrivateKey: vault.seal(tenantId, signingKey) },
          now,
        )
        const key = generateApiKey(tenantId)
        const apiKey = await credentials.insertApiKey(
          tx,
          tenantId,
          { name: 'default', prefix: key.prefix, hash: key.hash },
          now,
        )
        const adminUserId = await insertUser(
          tx,
          tenantId,
          {
            email_address: input.adminEmail,
            external_identity: null,
            first_name: 'Tenant',
            last_name: 'Administrator',
            phone_number: null,
            expired_date: null,
            account_holder_id: null,
            password_hash: passwordHash,
          },
          now,
        )
        const adminRole = roles.find((r) => r.code === 'ADMINISTRATOR')
        const staff = groups.find((g) => g.code === 'STAFF')
        await replaceUserMemberships(
          tx,
          tenantId,
          adminUserId,
          adminRole ? [adminRole.id] : [],
          staff ? [staff.id] : [],
        )
        await writeAudit(tx, ctx, now, {
          action: 'tenant.created',
          entityType: 'tenant',
          entityId: tenantId,
          changes: { after: { name: input.name, adminUserId, apiKeyId: apiKey.id } },
        })
        return { tenantId, apiKey: key.key, adminUserId }
      })
    },

    async listTenants() {
      return db.read(null, (x) => x.selectFrom('tenant').select(['id', 'name', 'created_at']).orderBy('id').execute())
    },

    async assertTenant(tenantId: number) {
      const row = await db.read(null, (x) =>
        x.selectFrom('tenant').select('id').where('id', '=', tenantId).executeTakeFirst(),
      )
      if (!row) throw new OperatorError(`tenant ${tenantId} does not exist`)
    },

    async createApiKey(ctx: AuthenticatedContext, name: string) {
      const { tenantId } = ctx
      await this.assertTenant(tenantId)
      const now = clock.now()
      const key = generateApiKey(tenantId)
      const row = await db.transaction(tenantId, async (tx) => {
        const inserted = await credentials.insertApiKey(tx, tenantId, { name, prefix: key.prefix, hash: key.hash }, now)
        await writeAudit(tx, ctx, now, {
          action: 'api_key.created',
          entityType: 'api_key',
          entityId: inserted.id,
          changes: { after: { name, prefix: key.prefix } },
        })
        return inserted
      })
      return { id: row.id, name, apiKey: key.key }
    },

    async listApiKeys(tenantId: number) {
      await this.assertTenant(tenantId)
      const rows = await db.read(tenantId, (x) => credentials.listApiKeys(x, tenantId))
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.key_prefix,
        createdAt: r.created_at.toISOString(),
        revokedAt: r.revoked_at?.toISOString() ?? null,
      }))
    },

    async revokeApiKey(ctx: AuthenticatedContext, id: number) {
      const { tenantId } = ctx
      await this.assertTenant(tenantId)
      const now = clock.now()
      const revoked = await db.transaction(tenantId, async (tx) => {
        const row = await credentials.revokeApiKey(tx, tenantId, id, now)
        if (!row) throw new OperatorError(`API key ${id} of tenant ${tenantId} does not exist or is already revoked`)
        await writeAudit(tx, ctx, now, {
          action: 'api_key.revoked',
          entityType: 'api_key',
          entityId: id,
        })
        return row
      })
      await bus.publish(API_KEY_TOPIC, `${tenantId}:${revoked.key_hash}`)
      return { id, revokedAt: now.toISOString() }
    },

    /** Replaces an API key: a new key with the same name; the old one is revoked at once. */
    async rotateApiKey(ctx: AuthenticatedContext, id: number) {
      const { tenantId } = ctx
      await this.assertTenant(tenantId)
      const old = await db.read(tenantId, (x) => credentials.findApiKeyById(x, tenantId, id))
      if (!old || old.revoked_at)
        throw new OperatorError(`API key ${id} of tenant ${tenantId} does not exist or is revoked`)
      const created = await this.createApiKey(ctx, old.name)
      await this.revokeApiKey(ctx, id)
      return { ...created, replaced: id }
    },

    /** New signing key; tokens signed by the old one keep working until they expire. */
    async rotateSigningKey(ctx: AuthenticatedContext) {
      const { tenantId } = ctx
      await this.assertTenant(tenantId)
      const now = clock.now()
      const key = await generateSigningKey()
      await db.transaction(tenantId, async (tx) => {
        await credentials.retireSigningKeys(tx, tenantId, now)
        await credentials.insertSigningKey(tx, tenantId, { ...key, sealedPrivateKey: vault.seal(tenantId, key) }, now)
        await writeAudit(tx, ctx, now, {
          action: 'signing_key.rotated',
          entityType: 'signing_key',
          entityId: key.kid,
        })
      })
      await bus.publish(SIGNING_KEY_TOPIC, `${tenantId}:`)
      return { kid: key.kid }
    },

    /**
     * A long-lived token for a provisioning client (SCIM from Entra ID or Okta), which can send only
     * a bearer token. It acts as the given user, so that user's roles bound it; expiring the user
     * revokes it at once, and rotating the signing key revokes it 24 hours later.
     */
    async issueProvisioningToken(ctx: AuthenticatedContext, userId: number, days: number) {
      const { tenantId } = ctx
      await this.assertTenant(tenantId)
      if (!Number.isInteger(days) || days < 1 || days > 730)
        throw new OperatorError('--days must be an integer from 1 to 730')
      const now = clock.now()
      const user = await db.read(tenantId, (x) =>
        x
          .selectFrom('app_user')
          .select(['id', 'expired_date'])
          .where('tenant_id', '=', tenantId)
          .where('id', '=', userId)
          .executeTakeFirst(),
      )
      if (!user) throw new OperatorError(`user ${userId} of tenant ${tenantId} does not exist`)
      if (user.expired_date && user.expired_date.getTime() <= now.getTime())
        throw new OperatorError(`user ${userId} is no longer active`)
      const row = await db.read(tenantId, (x) => credentials.findCurrentSigningKey(x, tenantId))
      if (!row) throw new OperatorError(`tenant ${tenantId} has no signing key; run signingkey rotate`)
      const ttlSeconds = days * 86_400
      const token = await signAccessToken(
        vault.open(tenantId, row),
        { tenantId, userId },
        now,
        ttlSeconds,
        'provisioning',
      )
      await db.transaction(tenantId, (tx) =>
        writeAudit(tx, ctx, now, {
          action: 'provisioning_token.issued',
          entityType: 'user',
          entityId: userId,
          changes: { after: { days, kid: row.kid } },
        }),
      )
      return { token, userId, expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString() }
    },

    async setIdentityProvider(
      ctx: AuthenticatedContext,
      v: { issuer: string; audience: string; jwksUrl: string; identityClaim: string; algorithms: string[] },
    ) {
      const { tenantId } = ctx
      await this.assertTenant(tenantId)
      const problems: string[] = []
      try {
        const u = new URL(v.jwksUrl)
        if (u.protocol !== 'https:' && u.hostname !== '127.0.0.1' && u.hostname !== 'localhost')
          problems.push('--jwks-url must use https')
      } catch {
        problems.push('--jwks-url must be a URL')
      }
      if (!v.issuer) problems.push('--issuer is required')
      if (!v.audience) problems.push('--audience is required')
      const bad = v.algorithms.filter((a) => !(IDP_ALGORITHM_ALLOW_LIST as readonly string[]).includes(a))
      if (v.algorithms.length === 0 || bad.length > 0)
        problems.push(`--algorithms must be among ${IDP_ALGORITHM_ALLOW_LIST.join(', ')}`)
      if (problems.length > 0) throw new OperatorError(problems.join('; '))
      const now = clock.now()
      const row = await db.transaction(tenantId, async (tx) => {
        const saved = await credentials.upsertIdentityProvider(tx, tenantId, v, now)
        await writeAudit(tx, ctx, now, {
          action: 'identity_provider.configured',
          entityType: 'identity_provider',
          entityId: saved.id,
          changes: { after: v },
        })
        return saved
      })
      await bus.publish(IDENTITY_PROVIDER_TOPIC, `${tenantId}:`)
      return { id: row.id, ...v }
    },

    async listIdentityProviders(tenantId: number) {
      await this.assertTenant(tenantId)
      const rows = await db.read(tenantId, (x) => credentials.listIdentityProviders(x, tenantId))
      return rows.map((r) => ({
        id: r.id,
        issuer: r.issuer,
        audience: r.audience,
        jwksUrl: r.jwks_url,
        identityClaim: r.identity_claim,
        algorithms: r.algorithms,
      }))
    },

    async removeIdentityProvider(ctx: AuthenticatedContext, issuer: string) {
      const { tenantId } = ctx
      await this.assertTenant(tenantId)
      const now = clock.now()
      await db.transaction(tenantId, async (tx) => {
        const row = await credentials.deleteIdentityProvider(tx, tenantId, issuer)
        if (!row) throw new OperatorError(`tenant ${tenantId} trusts no identity provider with issuer ${issuer}`)
        await writeAudit(tx, ctx, now, {
          action: 'identity_provider.removed',
          entityType: 'identity_provider',
          entityId: row.id,
          changes: { before: { issuer } },
        })
      })
      await bus.publish(IDENTITY_PROVIDER_TOPIC, `${tenantId}:`)
      return { issuer, removed: true }
    },
  }
}

export type TenantService = ReturnType<typeof createTenantService>
