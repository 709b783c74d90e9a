// Frozen: the per-tenant HMAC keys that sign quote ids (rate_quote_key) and download links
// (document_link_key) are stored sealed, as migration 0011 did for signing keys: the column
// becomes text holding `v1:<keyId>:…` (platform/secrets.ts). SQL cannot seal without the secrets
// key, so the existing secrets become their bytes in lower-case hex (the form they are sealed in)
// and every tenant is marked `plaintext_secrets` again, for the service to seal them at its next
// start (or `npm run admin -- secrets reseal`). The bytes do not change: quote ids and download
// links issued before stay valid.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table rate_quote_key alter column secret type text using encode(secret, 'hex');
    -- A length check on bytes says nothing about sealed text.
    alter table document_link_key drop constraint if exists document_link_key_secret_check;
    alter table document_link_key alter column secret type text using encode(secret, 'hex');
    update tenant set plaintext_secrets = true;
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('sealed quote and link keys migration is not reversible')
}
