import type { Transaction } from 'kysely'
import type { DB } from './db/schema.ts'
import type { SealCount, SealScope } from './secrets.ts'

/**
 * Work a module does when a tenant is created, inside the creating transaction (already bound to
 * the new tenant), for example the administrator-company record. Wired in src/modules.ts.
 */
export type TenantInitializer = (tx: Transaction<DB>, tenant: { id: number; name: string }, now: Date) => Promise<void>

/**
 * A module's stored per-tenant secrets, for the sealing passes identity runs tenant by tenant (at
 * start-up over plaintext a migration left, and re-sealing after a secrets key rotation): `seal`
 * locks the tenant's rows and seals what `scope` takes (platform/secrets.ts sealStored), inside a
 * transaction bound to the tenant. `name` (its table) names it in reports. Wired in src/modules.ts.
 */
export type TenantSecrets = {
  readonly name: string
  seal(tx: Transaction<DB>, tenantId: number, scope: SealScope): Promise<SealCount>
}
