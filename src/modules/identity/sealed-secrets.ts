// The sealing passes over every tenant's stored secrets: this module's signing keys and the other
// modules' secrets (their TenantSecrets, wired in src/modules.ts), each module sealing its own
// table. Identity runs them because it owns the tenants and their `plaintext_secrets` flag, which
// marks tenants whose secrets a migration left in plaintext (migrations 0011, 0012): SQL cannot
// seal without the key, so the service does it at its next start, or the CLI's `secrets reseal`.
import type { Transaction } from 'kysely'
import type { Database } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { SealCount, SealScope, SecretBox } from '../../platform/secrets.ts'
import type { TenantSecrets } from '../../platform/tenancy.ts'
import * as credentials from './credentials.repository.ts'

export type ResealReport = {
  /** Id of the secrets key everything is now sealed under. */
  keyId: string
  tenants: number
  /** Secrets sealed again under the current key (or sealed for the first time). */
  resealed: number
  /** Secrets that were already sealed under the current key. */
  unchanged: number
  /** The same counts by kind of secret (its table). */
  tables: Record<string, SealCount>
}

export function createSealedSecrets({
  db,
  secrets,
  tenantSecrets,
}: {
  db: Database
  secrets: SecretBox
  tenantSecrets: readonly TenantSecrets[]
}) {
  /** Every kind's pass over one tenant, in a fixed order, so concurrent passes lock rows in the same order. */
  async function sealTenant(
    tx: Transaction<DB>,
    tenantId: number,
    scope: SealScope,
  ): Promise<Array<[string, SealCount]>> {
    const counts: Array<[string, SealCount]> = []
    for (const kind of tenantSecrets) counts.push([kind.name, await kind.seal(tx, tenantId, scope)])
    return counts
  }

  return {
    /**
     * Seals the secrets of the tenants a migration left in plaintext; one query when there are none.
     * Instances starting together each claim a tenant under its row lock, so each is sealed once.
     * Returns how many secrets it sealed.
     */
    async sealPlaintext(): Promise<number> {
      let sealed = 0
      for (const { id } of await db.read(null, (x) => credentials.listPlaintextTenants(x))) {
        sealed += await db.transaction(id, async (tx) => {
          if (!(await credentials.claimPlaintextTenant(tx, id))) return 0
          return (await sealTenant(tx, id, 'plaintext')).reduce((n, [, count]) => n + count.resealed, 0)
        })
      }
      return sealed
    },

    /** Seals every tenant's secrets under the current key (after a new key was put first), one transaction per tenant. */
    async reseal(): Promise<ResealReport> {
      const tables: Record<string, SealCount> = Object.fromEntries(
        tenantSecrets.map((kind) => [kind.name, { resealed: 0, unchanged: 0 }]),
      )
      const report: ResealReport = { keyId: secrets.currentKeyId, tenants: 0, resealed: 0, unchanged: 0, tables }
      for (const { id } of await db.read(null, (x) => credentials.listTenantIds(x))) {
        const counts = await db.transaction(id, async (tx) => {
          // 'all' seals plaintext too, so the tenant's start-up pass is done as well.
          await credentials.claimPlaintextTenant(tx, id)
          return sealTenant(tx, id, 'all')
        })
        report.tenants++
        for (const [name, count] of counts) {
          const total = (tables[name] ??= { resealed: 0, unchanged: 0 })
          total.resealed += count.resealed
          total.unchanged += count.unchanged
          report.resealed += count.resealed
          report.unchanged += count.unchanged
        }
      }
      return report
    },
  }
}

export type SealedSecrets = ReturnType<typeof createSealedSecrets>
