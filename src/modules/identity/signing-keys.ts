// Tenants' private signing keys at rest: sealed with the secret box (platform/secrets.ts), bound
// to their tenant and kid, so the database (its dumps, backups, replicas) never holds a usable key.
// Their part in the sealing passes (sealed-secrets.ts) is `tenantSecrets`; `verify` is the
// start-up check that the configured keys open what is stored.
import type { JWK } from 'jose'
import type { SigningKey } from '../../platform/auth/tokens.ts'
import type { Database } from '../../platform/db/database.ts'
import { openStored, sealStored, type SecretBox } from '../../platform/secrets.ts'
import type { TenantSecrets } from '../../platform/tenancy.ts'
import * as credentials from './credentials.repository.ts'

type SigningKeyRow = { kid: string; private_key: string; public_jwk: JWK }

export function createSigningKeyVault({ db, secrets }: { db: Database; secrets: SecretBox }) {
  const context = (tenantId: number, kid: string) => `tenant_signing_key:${tenantId}:${kid}`

  /** The private key's plaintext; plaintext JSON is accepted as stored before migration 0011. */
  function privateText(tenantId: number, row: { kid: string; private_key: string }): string {
    // Accepting plaintext gives a database writer nothing it lacks: it could as well replace the
    // public key. Sealing protects the keys' confidentiality (dumps, backups), which this keeps.
    return openStored(secrets, row.private_key, context(tenantId, row.kid))
  }

  const tenantSecrets: TenantSecrets = {
    name: 'tenant_signing_key',
    // Retired keys too: they verify tokens for a day after a rotation.
    seal: async (tx, tenantId, scope) =>
      sealStored(secrets, await credentials.lockSigningKeys(tx, tenantId), scope, {
        stored: (row) => row.private_key,
        context: (row) => context(tenantId, row.kid),
        write: (row, sealed) => credentials.updateSealedPrivateKey(tx, tenantId, row.id, sealed),
      }),
  }

  return {
    seal: (tenantId: number, key: SigningKey): string =>
      secrets.seal(JSON.stringify(key.privateJwk), context(tenantId, key.kid)),

    open: (tenantId: number, row: SigningKeyRow): SigningKey => ({
      kid: row.kid,
      privateJwk: JSON.parse(privateText(tenantId, row)) as JWK,
      publicJwk: row.public_jwk,
    }),

    /** The signing keys' part in the sealing passes. */
    tenantSecrets,

    /**
     * Opens the newest tenant's current signing key, so a wrong or missing secrets key stops the
     * start with a SecretsError naming the key it needs, instead of failing every sign-in later.
     */
    async verify(): Promise<void> {
      const newest = await db.read(null, (x) => credentials.findNewestTenant(x))
      if (!newest) return
      const row = await db.read(newest.id, (x) => credentials.findCurrentSigningKey(x, newest.id))
      if (row) privateText(newest.id, row)
    },
  }
}

export type SigningKeyVault = ReturnType<typeof createSigningKeyVault>
