// Tenants' private signing keys at rest: sealed with the secret box (platform/secrets.ts), bound
// to their tenant and kid, so the database (its dumps, backups, replicas) never holds a usable key.
// Also the maintenance of what is sealed: sealing the keys stored before sealing existed (at
// start-up), re-sealing everything under the current secrets key (rotation, from the CLI), and a
// start-up check that the configured keys open what is stored.
import type { JWK } from 'jose'
import type { SigningKey } from '../../platform/auth/tokens.ts'
import type { Database } from '../../platform/db/database.ts'
import type { SecretBox } from '../../platform/secrets.ts'
import * as credentials from './credentials.repository.ts'

export type ResealReport = {
  /** Id of the secrets key everything is now sealed under. */
  keyId: string
  tenants: number
  /** Secrets sealed again under the current key (or sealed for the first time). */
  resealed: number
  /** Secrets that were already sealed under the current key. */
  unchanged: number
}

type SigningKeyRow = { kid: string; private_key: string; public_jwk: unknown }

export function createSigningKeyVault({ db, secrets }: { db: Database; secrets: SecretBox }) {
  const context = (tenantId: number, kid: string) => `tenant_signing_key:${tenantId}:${kid}`

  /** The private key's plaintext; plaintext JSON is accepted as stored before migration 0011. */
  function privateText(tenantId: number, row: { kid: string; private_key: string }): string {
    // Accepting plaintext gives a database writer nothing it lacks: it could as well replace the
    // public key. Sealing protects the keys' confidentiality (dumps, backups), which this keeps.
    return secrets.isSealed(row.private_key) ? secrets.open(row.private_key, context(tenantId, row.kid)) : row.private_key
  }

  /** Seals (again, under the current key) the tenant's signing keys that need it; returns [resealed, unchanged]. */
  async function resealTenant(tenantId: number, clearFlag: boolean): Promise<[number, number]> {
    return db.transaction(tenantId, async (tx) => {
      if (clearFlag) await credentials.claimPlaintextTenant(tx, tenantId)
      let resealed = 0
      let unchanged = 0
      for (const row of await credentials.lockSigningKeys(tx, tenantId)) {
        if (secrets.keyIdOf(row.private_key) === secrets.currentKeyId) {
          unchanged++
          continue
        }
        await credentials.updateSealedPrivateKey(tx, tenantId, row.id, secrets.seal(privateText(tenantId, row), context(tenantId, row.kid)))
        resealed++
      }
      return [resealed, unchanged]
    })
  }

  return {
    seal: (tenantId: number, key: SigningKey): string => secrets.seal(JSON.stringify(key.privateJwk), context(tenantId, key.kid)),

    open: (tenantId: number, row: SigningKeyRow): SigningKey => ({
      kid: row.kid, privateJwk: JSON.parse(privateText(tenantId, row)) as JWK, publicJwk: row.public_jwk as JWK,
    }),

    /**
     * Seals the keys of the tenants migration 0011 left in plaintext; one query when there are none.
     * Instances starting together each claim a tenant under its row lock, so each is sealed once.
     */
    async sealPlaintext(): Promise<number> {
      let sealed = 0
      for (const { id } of await db.read(null, (x) => credentials.listPlaintextTenants(x))) {
        const claimed = await db.transaction(id, async (tx) => {
          if (!(await credentials.claimPlaintextTenant(tx, id))) return 0
          let count = 0
          for (const row of await credentials.lockSigningKeys(tx, id)) {
            if (secrets.isSealed(row.private_key)) continue
            await credentials.updateSealedPrivateKey(tx, id, row.id, secrets.seal(row.private_key, context(id, row.kid)))
            count++
          }
          return count
        })
        sealed += claimed
      }
      return sealed
    },

    /** Seals every tenant's secrets under the current key (after a new key was put first). */
    async reseal(): Promise<ResealReport> {
      const report: ResealReport = { keyId: secrets.currentKeyId, tenants: 0, resealed: 0, unchanged: 0 }
      for (const { id } of await db.read(null, (x) => credentials.listTenantIds(x))) {
        const [resealed, unchanged] = await resealTenant(id, true)
        report.tenants++
        report.resealed += resealed
        report.unchanged += unchanged
      }
      return report
    },

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
