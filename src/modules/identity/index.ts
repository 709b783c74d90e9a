// Identity: tenants and their credentials, users (v1 and SCIM), membership roles and groups, and
// the token endpoint. Other code reaches this module only through what is exported here.
import type { FastifyInstance } from 'fastify'
import type { InvalidationBus } from '../../platform/cache.ts'
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { SecretBox } from '../../platform/secrets.ts'
import type { TenantInitializer, TenantSecrets } from '../../platform/tenancy.ts'
import { authRoutes } from './auth.routes.ts'
import { createAuthService } from './auth.service.ts'
import { membershipRoutes } from './membership.routes.ts'
import { createMembershipService } from './membership.service.ts'
import { portalVisibilityRoutes } from './portal-visibility.routes.ts'
import { createPortalVisibilityService, type DealerDirectory } from './portal-visibility.service.ts'
import { scimRoutes } from './scim.routes.ts'
import { createSealedSecrets } from './sealed-secrets.ts'
import { createSigningKeyVault } from './signing-keys.ts'
import { createTenantService } from './tenant.service.ts'
import { userRoutes } from './user.routes.ts'
import { createUserService } from './user.service.ts'

export { OperatorError, type TenantCreated, type TenantService } from './tenant.service.ts'
export type { SigningKeyVault } from './signing-keys.ts'
export type { ResealReport, SealedSecrets } from './sealed-secrets.ts'
export { PERMISSIONS, DEFAULT_ROLES } from './permissions.rules.ts'
export { findUserById, selectUsers } from './user.repository.ts'
export type { DealerDirectory, DealerSummary } from './portal-visibility.service.ts'

export type IdentityDeps = {
  db: Database
  clock: Clock
  bus: InvalidationBus
  accessTokenTtlSeconds: number
  /** Seals the secrets this module stores (tenants' private signing keys). */
  secrets: SecretBox
  /** Other modules' work when a tenant is created (see src/modules.ts). */
  tenantInitializers?: readonly TenantInitializer[]
  /** Other modules' sealed per-tenant secrets, for the sealing passes this module runs (see src/modules.ts). */
  tenantSecrets?: readonly TenantSecrets[]
  /** Dealers, from the parties module (see src/modules.ts); without it the portal visibility group routes are not served. */
  dealers?: DealerDirectory
}

export function createIdentityModule(deps: IdentityDeps) {
  const signingKeys = createSigningKeyVault(deps)
  const sealedSecrets = createSealedSecrets({
    ...deps,
    tenantSecrets: [signingKeys.tenantSecrets, ...(deps.tenantSecrets ?? [])],
  })
  const users = createUserService(deps)
  const auth = createAuthService({ ...deps, signingKeys })
  const membership = createMembershipService(deps)
  const tenants = createTenantService({ ...deps, signingKeys })
  const { dealers } = deps
  const portalVisibility = dealers ? createPortalVisibilityService({ ...deps, dealers }) : undefined
  return {
    credentialStore: auth.store,
    tokenVerifier: auth.tokens,
    tenants,
    users,
    /** The sealed signing keys, and the start-up check that the secrets key opens them. */
    signingKeys,
    /** Every module's sealed secrets: start-up sealing of plaintext left by a migration, re-sealing (CLI). */
    sealedSecrets,
    async routes(app: FastifyInstance) {
      await app.register(authRoutes, { auth })
      await app.register(userRoutes, { users, clock: deps.clock })
      await app.register(scimRoutes, { users, clock: deps.clock })
      await app.register(membershipRoutes, { membership })
      if (portalVisibility) await app.register(portalVisibilityRoutes, { groups: portalVisibility })
    },
  }
}

export type IdentityModule = ReturnType<typeof createIdentityModule>
