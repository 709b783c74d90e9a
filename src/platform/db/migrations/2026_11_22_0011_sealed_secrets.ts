// Frozen: tenants' private signing keys are stored sealed (AES-256-GCM under SECRETS_KEY or the
// embedded database's key file; platform/secrets.ts), as text `v1:<keyId>:…`. SQL cannot seal
// without the key, so the rows already stored stay plaintext here and are sealed by the service at
// its next start (or `npm run admin -- secrets reseal`). `tenant.plaintext_secrets` marks the
// tenants still to do: true for every tenant that exists now, false for every tenant created
// later (whose secrets are sealed from the start), so a start finds the work with one query.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table tenant_signing_key alter column private_jwk type text using private_jwk::text;
    alter table tenant_signing_key rename column private_jwk to private_key;
    alter table tenant add column plaintext_secrets boolean not null default true;
    alter table tenant alter column plaintext_secrets set default false;
    create index tenant_plaintext_secrets_idx on tenant (id) where plaintext_secrets;
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('sealed secrets migration is not reversible')
}
