// Secrets at rest (tenants' private signing keys, quote-signing and link-signing keys): sealed
// with AES-256-GCM, authenticated encryption, under a key the database never holds. The keys come
// from SECRETS_KEY (a list: the current key first, older keys after it, kept only to open what
// they sealed), or, on the embedded database without SECRETS_KEY, from a key file in the data
// directory created on first start. A sealed value names its key, so the keys can be rotated: add a new key in front,
// re-seal everything (`npm run admin -- secrets reseal`), then drop the old key.
//
// Sealed format, one line of text: `v1:<keyId>:<iv>:<ciphertext>:<tag>`, the last three base64url.
// The additional authenticated data binds a value to its format, key id and `context` (which row
// it belongs to), so a sealed value copied into another row or tenant does not open.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const FORMAT = 'v1'
const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
/** The key file's name in the embedded database's data directory. */
export const SECRETS_KEY_FILE = 'secrets.key'

/** A secrets key is missing, malformed or wrong, or a sealed value does not open. */
export class SecretsError extends Error {}

export type SecretBox = {
  /** Id of the key new values are sealed under. */
  readonly currentKeyId: string
  /** Ids of every configured key, the current one first. */
  readonly keyIds: readonly string[]
  seal(plaintext: string, context: string): string
  /** The plaintext of a sealed value; SecretsError when its key is not configured or it does not authenticate. */
  open(sealed: string, context: string): string
  /** True for a value in the sealed format (whatever its key), false for plaintext left from before. */
  isSealed(value: string): boolean
  /** The key id a sealed value names; undefined for plaintext. */
  keyIdOf(value: string): string | undefined
}

/**
 * A key's id: derived from the key itself (a keyed hash, which reveals nothing about the key), so
 * operators list keys without naming them and a sealed value finds its key.
 */
export function secretsKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('vpp secrets key id').digest().subarray(0, 6).toString('base64url')
}

/** A new random key in the form SECRETS_KEY and the key file take. */
export function generateSecretsKey(): string {
  return randomBytes(KEY_BYTES).toString('base64')
}

/**
 * Parses a key list: base64 (standard or URL-safe) keys of 32 bytes, separated by commas or white
 * space, the current key first. Throws SecretsError naming `source` and what is wrong.
 */
export function parseSecretsKeys(text: string, source: string): Buffer[] {
  const items = text.split(/[\s,]+/).filter((s) => s !== '')
  if (items.length === 0) throw new SecretsError(`${source} holds no key`)
  const keys = items.map((item, i) => {
    // Node's base64 decoder takes the URL-safe alphabet too; the pattern refuses what it would skip.
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(item) ? Buffer.from(item, 'base64') : undefined
    if (!key || key.length !== KEY_BYTES) {
      throw new SecretsError(
        `${source}: key ${i + 1} is not ${KEY_BYTES} bytes in base64 (make one with: openssl rand -base64 32)`,
      )
    }
    return key
  })
  const ids = keys.map(secretsKeyId)
  if (new Set(ids).size !== ids.length) throw new SecretsError(`${source} lists the same key twice`)
  return keys
}

export function createSecretBox(keys: readonly Buffer[]): SecretBox {
  const first = keys[0]
  if (!first) throw new SecretsError('no secrets key is configured')
  const byId = new Map(keys.map((k) => [secretsKeyId(k), k] as const))
  const currentKeyId = secretsKeyId(first)
  const aad = (keyId: string, context: string) => Buffer.from(`${FORMAT}:${keyId}:${context}`)
  const parse = (value: string) => {
    const parts = value.split(':')
    return parts.length === 5 && parts[0] === FORMAT ? (parts as [string, string, string, string, string]) : undefined
  }
  return {
    currentKeyId,
    keyIds: [...byId.keys()],
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', first, iv)
      cipher.setAAD(aad(currentKeyId, context))
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return [
        FORMAT,
        currentKeyId,
        iv.toString('base64url'),
        ciphertext.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
      ].join(':')
    },
    open(sealed, context) {
      const parts = parse(sealed)
      if (!parts) throw new SecretsError(`the stored secret of ${context} is not in the sealed format`)
      const [, keyId, iv, ciphertext, tag] = parts
      const key = byId.get(keyId)
      if (!key) {
        throw new SecretsError(
          `the stored secret of ${context} is sealed under secrets key ${keyId}, which is not configured (configured: ${[...byId.keys()].join(', ')}); add that key to SECRETS_KEY after the current one`,
        )
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        })
        decipher.setAAD(aad(keyId, context))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
      } catch {
        throw new SecretsError(
          `the stored secret of ${context} does not authenticate under secrets key ${keyId}: it was altered or belongs to another row`,
        )
      }
    },
    isSealed: (value) => parse(value) !== undefined,
    keyIdOf: (value) => parse(value)?.[1],
  }
}

/**
 * The secret box of a configuration: SECRETS_KEY when set; otherwise, on the embedded database,
 * the key file in the data directory (created, mode 0600, on first start). PostgreSQL without
 * SECRETS_KEY is refused: instances share the database, so they must share the key, and no file
 * beside one of them can be that.
 */
export function loadSecretBox(config: {
  secretsKey: string | undefined
  databaseUrl: string | undefined
  dataDir: string
}): SecretBox {
  if (config.secretsKey !== undefined) return createSecretBox(parseSecretsKeys(config.secretsKey, 'SECRETS_KEY'))
  if (config.databaseUrl !== undefined) {
    throw new SecretsError(
      'SECRETS_KEY is required with DATABASE_URL: it encrypts the secrets stored in the database (see docs/operations.md, "Rotating the secrets key"); make one with: openssl rand -base64 32',
    )
  }
  const file = path.join(config.dataDir, SECRETS_KEY_FILE)
  fs.mkdirSync(config.dataDir, { recursive: true })
  try {
    // 'wx': of two processes racing on a new directory, one creates the key and the other reads it.
    fs.writeFileSync(file, `${generateSecretsKey()}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) {
    throw new SecretsError(`${file} can be read by other users of this machine; restrict it with: chmod 600 ${file}`)
  }
  return createSecretBox(parseSecretsKeys(fs.readFileSync(file, 'utf8'), file))
}

/** Which stored secrets a sealing pass takes: those still in plaintext, or every one not under the current key. */
export type SealScope = 'plaintext' | 'all'

/** What a sealing pass did: values it sealed (again) under the current key, and values it left as they were. */
export type SealCount = { resealed: number; unchanged: number }

/**
 * The plaintext of a stored value: opened when sealed, as it is when left in plaintext by the
 * migration that introduced sealing for it (until the start-up pass seals it).
 */
export function openStored(secrets: SecretBox, stored: string, context: string): string {
  return secrets.isSealed(stored) ? secrets.open(stored, context) : stored
}

/**
 * Binary secrets (HMAC keys) are sealed as lower-case hex, the same text the migrations that
 * introduced sealing leave in the column, so a value reads the same before and after it is sealed.
 */
export function sealBytes(secrets: SecretBox, bytes: Buffer, context: string): string {
  return secrets.seal(bytes.toString('hex'), context)
}

/** The bytes of a binary secret stored by sealBytes, or as hex left from before sealing. */
export function openBytes(secrets: SecretBox, stored: string, context: string): Buffer {
  const hex = openStored(secrets, stored, context)
  // Buffer.from(…, 'hex') stops silently at the first bad digit; a shortened key must not sign.
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) throw new SecretsError(`the stored secret of ${context} is not hex`)
  return Buffer.from(hex, 'hex')
}

/**
 * One sealing pass over stored values (one tenant's rows, locked by the caller): under 'plaintext'
 * it seals those not sealed yet; under 'all' also those sealed under an older key. Each is written
 * back through `write`, sealed under the current key with the same plaintext and context.
 */
export async function sealStored<R>(
  secrets: SecretBox,
  rows: Iterable<R>,
  scope: SealScope,
  access: {
    stored(row: R): string
    context(row: R): string
    write(row: R, sealed: string): Promise<void>
  },
): Promise<SealCount> {
  const count: SealCount = { resealed: 0, unchanged: 0 }
  for (const row of rows) {
    const stored = access.stored(row)
    const keyId = secrets.keyIdOf(stored)
    if (keyId !== undefined && (scope === 'plaintext' || keyId === secrets.currentKeyId)) {
      count.unchanged++
      continue
    }
    const context = access.context(row)
    await access.write(row, secrets.seal(openStored(secrets, stored, context), context))
    count.resealed++
  }
  return count
}
