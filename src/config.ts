// The only reader of process.env. Parsed once, frozen, and fails fast listing every problem.
import path from 'node:path'
import { MAX_ACCESS_TOKEN_TTL_SECONDS } from './platform/auth/tokens.ts'
import { parseSecretsKeys, SecretsError } from './platform/secrets.ts'

export type Config = Readonly<{
  host: string
  port: number
  /** Directory of the embedded (PGlite) database; ignored when databaseUrl is set. */
  dataDir: string
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl: string | undefined
  /**
   * DATABASE_LISTEN_URL: a session connection for the cache-invalidation bus (LISTEN), which a
   * transaction-pooling proxy cannot carry. Defaults to databaseUrl.
   */
  databaseListenUrl: string | undefined
  /**
   * DATABASE_READ_URL: a read replica for report-style reads (docs/scale-out.md). Absent: those
   * reads go to databaseUrl like every other.
   */
  databaseReadUrl: string | undefined
  databasePoolSize: number
  /** Name (prepare once) parameterised statements; off behind a transaction-pooling proxy. */
  databasePreparedStatements: boolean
  logLevel: string
  /** Requests per minute per API key before 429. */
  rateLimitPerMinute: number
  /**
   * Failed authentications per minute before 429: wrong passwords per user and client address at
   * the token endpoint; other failed authentications (bad API key or token) per client address.
   */
  authFailureLimitPerMinute: number
  /**
   * SECRETS_KEY: the keys that encrypt secrets at rest, current first (platform/secrets.ts). When
   * absent the embedded database uses its key file; PostgreSQL refuses to start.
   */
  secretsKey: string | undefined
  /** Lifetime of access tokens issued by POST /api/auth/token. */
  accessTokenTtlSeconds: number
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number
  /** Seed the demo tenant when the database is new. */
  seedDemo: boolean
  /** With the demo tenant, seed its year of business (src/demo-book.ts). */
  seedDemoBook: boolean
  /**
   * WEBHOOKS_ALLOW_PRIVATE: webhook receivers on loopback and private addresses are allowed
   * (docs/webhooks.md); off by default, so a subscription cannot reach the service's own network.
   */
  webhooksAllowPrivateReceivers: boolean
  /** Stored documents (docs/documents.md). */
  documents: Readonly<{
    /** Where new versions go: the database, or files under `dir`. */
    storage: 'database' | 'filesystem'
    dir: string
    maxBytes: number
    linkTtlSeconds: number
  }>
}>

type Env = Record<string, string | undefined>

/** The environment is unusable; the message lists every problem, one per line. */
export class ConfigError extends Error {}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = []
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`)
      return fallback
    }
    return n
  }
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false
    problems.push(`${name} must be true or false (got "${raw}")`)
    return fallback
  }
  const databaseUrl = env.DATABASE_URL || undefined
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://')
  }
  const databaseListenUrl = env.DATABASE_LISTEN_URL || databaseUrl
  const databaseReadUrl = env.DATABASE_READ_URL || undefined
  for (const [name, url] of [
    ['DATABASE_LISTEN_URL', env.DATABASE_LISTEN_URL],
    ['DATABASE_READ_URL', databaseReadUrl],
  ] as const) {
    if (!url) continue
    if (!/^postgres(ql)?:\/\//.test(url)) problems.push(`${name} must start with postgres:// or postgresql://`)
    else if (!databaseUrl) problems.push(`${name} needs DATABASE_URL (the embedded database has no pooler or replicas)`)
  }
  const logLevel = env.LOG_LEVEL || 'info'
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`)
  }
  const secretsKey = env.SECRETS_KEY || undefined
  // Instances sharing a PostgreSQL database must share the key, so no key file can stand in for it;
  // and production must never store secrets in plaintext for want of one.
  if (secretsKey === undefined && databaseUrl) {
    problems.push(
      'SECRETS_KEY is required with DATABASE_URL (base64 of 32 random bytes: openssl rand -base64 32); see docs/operations.md',
    )
  }
  if (secretsKey !== undefined) {
    try {
      parseSecretsKeys(secretsKey, 'SECRETS_KEY')
    } catch (err) {
      if (!(err instanceof SecretsError)) throw err
      problems.push(err.message)
    }
  }
  const dataDir = path.resolve(env.DATA_DIR || 'data')
  // Files beside the embedded database by default; with PostgreSQL, the database, which every instance shares.
  const storage = env.DOCUMENT_STORAGE || (databaseUrl ? 'database' : 'filesystem')
  if (storage !== 'database' && storage !== 'filesystem') {
    problems.push(`DOCUMENT_STORAGE must be database or filesystem (got "${storage}")`)
  }
  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port: int('PORT', 8080, 0, 65535),
    dataDir,
    databaseUrl,
    databaseListenUrl,
    databaseReadUrl,
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 500),
    databasePreparedStatements: bool('DATABASE_PREPARED_STATEMENTS', true),
    logLevel,
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 6000, 1, 100_000_000),
    authFailureLimitPerMinute: int('AUTH_FAILURE_LIMIT_PER_MINUTE', 30, 1, 100_000_000),
    secretsKey,
    accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 3600, 60, MAX_ACCESS_TOKEN_TTL_SECONDS),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1_048_576, 1024, 1_073_741_824),
    seedDemo: bool('SEED_DEMO', true),
    seedDemoBook: bool('SEED_DEMO_BOOK', true),
    webhooksAllowPrivateReceivers: bool('WEBHOOKS_ALLOW_PRIVATE', false),
    documents: Object.freeze({
      storage: storage === 'filesystem' ? 'filesystem' : 'database',
      dir: path.resolve(env.DOCUMENT_DIR || path.join(dataDir, 'documents')),
      maxBytes: int('DOCUMENT_MAX_BYTES', 25 * 1024 * 1024, 1024, 1_073_741_824),
      linkTtlSeconds: int('DOCUMENT_LINK_TTL_SECONDS', 300, 10, 86_400),
    }),
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`)
  }
  return Object.freeze(config)
}
