// API keys, signing keys and identity-provider trust of a tenant. Private signing keys are stored
// sealed (signing-keys.ts seals and opens them); this file only moves the sealed text.
import type { Transaction } from 'kysely'
import type { JWK } from 'jose'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'

export async function findActiveApiKey(db: Executor, tenantId: number, hash: string) {
  return db
    .selectFrom('api_key')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('key_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
}

export async function insertApiKey(
  tx: Transaction<DB>,
  tenantId: number,
  v: { name: string; prefix: string; hash: string },
  now: Date,
) {
  return tx
    .insertInto('api_key')
    .values({ tenant_id: tenantId, name: v.name, key_prefix: v.prefix, key_hash: v.hash, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
}

export async function listApiKeys(db: Executor, tenantId: number) {
  return db
    .selectFrom('api_key')
    .select(['id', 'name', 'key_prefix', 'created_at', 'revoked_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute()
}

export async function revokeApiKey(tx: Transaction<DB>, tenantId: number, id: number, now: Date) {
  return tx
    .updateTable('api_key')
    .set({ revoked_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning(['id', 'key_hash'])
    .executeTakeFirst()
}

export async function findApiKeyById(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('api_key')
    .select(['id', 'name', 'key_hash', 'revoked_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Signing keys usable for verification: the current one and those retired less than `graceMs` ago. */
export async function findVerificationKey(db: Executor, tenantId: number, kid: string, notRetiredBefore: Date) {
  return db
    .selectFrom('tenant_signing_key')
    .select(['public_jwk'])
    .where('tenant_id', '=', tenantId)
    .where('kid', '=', kid)
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', notRetiredBefore)]))
    .executeTakeFirst()
}

export async function findCurrentSigningKey(db: Executor, tenantId: number) {
  return db
    .selectFrom('tenant_signing_key')
    .select(['kid', 'private_key', 'public_jwk'])
    .where('tenant_id', '=', tenantId)
    .where('retired_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

export async function retireSigningKeys(tx: Transaction<DB>, tenantId: number, now: Date) {
  await tx
    .updateTable('tenant_signing_key')
    .set({ retired_at: now })
    .where('tenant_id', '=', tenantId)
    .where('retired_at', 'is', null)
    .execute()
}

export async function insertSigningKey(
  tx: Transaction<DB>,
  tenantId: number,
  key: { kid: string; sealedPrivateKey: string; publicJwk: JWK },
  now: Date,
) {
  await tx
    .insertInto('tenant_signing_key')
    .values({
      tenant_id: tenantId,
      kid: key.kid,
      alg: 'EdDSA',
      private_key: key.sealedPrivateKey,
      public_jwk: JSON.stringify(key.publicJwk),
      created_at: now,
    })
    .execute()
}

/** Every signing key of the tenant (retired ones too), locked for re-sealing. */
export async function lockSigningKeys(tx: Transaction<DB>, tenantId: number) {
  return tx
    .selectFrom('tenant_signing_key')
    .select(['id', 'kid', 'private_key'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .forUpdate()
    .execute()
}

export async function updateSealedPrivateKey(tx: Transaction<DB>, tenantId: number, id: number, sealed: string) {
  await tx
    .updateTable('tenant_signing_key')
    .set({ private_key: sealed })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

/** Claims the tenant's start-up sealing (row-locked until commit): false when it is not due or done. */
export async function claimPlaintextTenant(tx: Transaction<DB>, tenantId: number): Promise<boolean> {
  const row = await tx
    .updateTable('tenant')
    .set({ plaintext_secrets: false })
    .where('id', '=', tenantId)
    .where('plaintext_secrets', '=', true)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

export async function listPlaintextTenants(db: Executor) {
  return db.selectFrom('tenant').select('id').where('plaintext_secrets', '=', true).orderBy('id').execute()
}

export async function findNewestTenant(db: Executor) {
  return db.selectFrom('tenant').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst()
}

export async function listTenantIds(db: Executor) {
  return db.selectFrom('tenant').select('id').orderBy('id').execute()
}

export async function listIdentityProviders(db: Executor, tenantId: number) {
  return db
    .selectFrom('identity_provider')
    .select(['id', 'issuer', 'audience', 'jwks_url', 'identity_claim', 'algorithms', 'created_at', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute()
}

export async function upsertIdentityProvider(
  tx: Transaction<DB>,
  tenantId: number,
  v: { issuer: string; audience: string; jwksUrl: string; identityClaim: string; algorithms: string[] },
  now: Date,
) {
  return tx
    .insertInto('identity_provider')
    .values({
      tenant_id: tenantId,
      issuer: v.issuer,
      audience: v.audience,
      jwks_url: v.jwksUrl,
      identity_claim: v.identityClaim,
      algorithms: v.algorithms,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'issuer']).doUpdateSet({
        audience: v.audience,
        jwks_url: v.jwksUrl,
        identity_claim: v.identityClaim,
        algorithms: v.algorithms,
        updated_at: now,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
}

export async function deleteIdentityProvider(tx: Transaction<DB>, tenantId: number, issuer: string) {
  return tx
    .deleteFrom('identity_provider')
    .where('tenant_id', '=', tenantId)
    .where('issuer', '=', issuer)
    .returning('id')
    .executeTakeFirst()
}
