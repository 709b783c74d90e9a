// Each tenant's quote-signing secret (32 random bytes; quote.token.ts) at rest: sealed with the
// secret box (platform/secrets.ts), bound to its table and tenant, so a database dump cannot sign
// quote ids and a sealed value moved to another tenant's row does not open. Sealing never changes
// the bytes, so quote ids stay valid across start-up sealing and secrets key rotations.
import { randomBytes } from 'node:crypto'
import type { Database } from '../../../platform/db/database.ts'
import { openBytes, sealBytes, sealStored, type SecretBox } from '../../../platform/secrets.ts'
import type { TenantInitializer, TenantSecrets } from '../../../platform/tenancy.ts'
import * as repo from './quote-key.repository.ts'

const SECRET_BYTES = 32

export function createQuoteKeys({ db, secrets }: { db: Database; secrets: SecretBox }) {
  const context = (tenantId: number) => `rate_quote_key:${tenantId}`
  return {
    /** A new tenant's secret, sealed, in its creating transaction. */
    initializeTenant: ((tx, tenant) =>
      repo.createQuoteKey(
        tx,
        tenant.id,
        sealBytes(secrets, randomBytes(SECRET_BYTES), context(tenant.id)),
      )) satisfies TenantInitializer,

    /** The tenant's secret; hex left in plaintext by migration 0012 is read as it is until sealed. */
    async secret(tenantId: number): Promise<Buffer> {
      return openBytes(secrets, await db.read(tenantId, (x) => repo.quoteKey(x, tenantId)), context(tenantId))
    },

    /** The quote keys' part in identity's sealing passes. */
    tenantSecrets: {
      name: 'rate_quote_key',
      seal: async (tx, tenantId, scope) =>
        sealStored(secrets, await repo.lockQuoteKey(tx, tenantId), scope, {
          stored: (row) => row.secret,
          context: () => context(tenantId),
          write: (_row, sealed) => repo.updateQuoteKey(tx, tenantId, sealed),
        }),
    } satisfies TenantSecrets,
  }
}

export type QuoteKeys = ReturnType<typeof createQuoteKeys>
