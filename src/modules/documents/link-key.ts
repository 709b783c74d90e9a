// Each tenant's link-signing secret (32 random bytes; signed-link.ts) at rest: sealed with the
// secret box (platform/secrets.ts), bound to its table and tenant, so a database dump cannot sign
// download links and a sealed value moved to another tenant's row does not open. Sealing never
// changes the bytes, so links stay valid across start-up sealing and secrets key rotations.
import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { Database } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { openBytes, sealBytes, sealStored, type SecretBox } from '../../platform/secrets.ts'
import type { TenantInitializer, TenantSecrets } from '../../platform/tenancy.ts'
import * as repo from './documents.repository.ts'

const SECRET_BYTES = 32

export function createLinkKeys({ db, secrets }: { db: Database; secrets: SecretBox }) {
  const context = (tenantId: number) => `document_link_key:${tenantId}`
  const create = (tx: Transaction<DB>, tenantId: number) =>
    repo.createLinkKey(tx, tenantId, sealBytes(secrets, randomBytes(SECRET_BYTES), context(tenantId)))
  // Hex left in plaintext by migration 0012 is read as it is until the start-up pass seals it.
  const open = (tenantId: number, stored: string | undefined) =>
    stored === undefined ? undefined : openBytes(secrets, stored, context(tenantId))
  return {
    /** A new tenant's secret, sealed, in its creating transaction. */
    initializeTenant: ((tx, tenant) => create(tx, tenant.id)) satisfies TenantInitializer,

    /** The tenant's secret, undefined when it has none. */
    async secret(tenantId: number): Promise<Buffer | undefined> {
      return open(tenantId, await db.read(tenantId, (x) => repo.linkKey(x, tenantId)))
    },

    /** The tenant's secret given a new one unless it has one (a fallback: tenants are given one at creation). */
    async secretOrNew(tenantId: number): Promise<Buffer> {
      const stored = await db.transaction(tenantId, async (tx) => {
        await create(tx, tenantId)
        return repo.linkKey(tx, tenantId)
      })
      const secret = open(tenantId, stored)
      if (!secret) throw new Error(`no link key for tenant ${tenantId}`)
      return secret
    },

    /** The link keys' part in identity's sealing passes. */
    tenantSecrets: {
      name: 'document_link_key',
      seal: async (tx, tenantId, scope) =>
        sealStored(secrets, await repo.lockLinkKey(tx, tenantId), scope, {
          stored: (row) => row.secret,
          context: () => context(tenantId),
          write: (_row, sealed) => repo.updateLinkKey(tx, tenantId, sealed),
        }),
    } satisfies TenantSecrets,
  }
}

export type LinkKeys = ReturnType<typeof createLinkKeys>
