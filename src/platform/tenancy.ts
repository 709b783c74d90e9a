import type { Transaction } from 'kysely'
import type { DB } from './db/schema.ts'

/**
 * Work a module does when a tenant is created, inside the creating transaction (already bound to
 * the new tenant), for example the administrator-company record. Wired in src/modules.ts.
 */
export type TenantInitializer = (tx: Transaction<DB>, tenant: { id: number; name: string }, now: Date) => Promise<void>
