// Runs a checked command against the configured database, opened exactly as the server opens it:
// PostgreSQL when DATABASE_URL is set, otherwise the embedded database in DATA_DIR (created if
// missing; refused while another process owns it); migrated either way. Changes are published on
// the invalidation bus, so running servers on PostgreSQL drop what they cached (a revoked key stops
// working at once). Returns the exit status. A caller that passes an open database (a test running
// many commands in one process) gets that one used as it is and left open.
import os from 'node:os'
import { ConfigError, loadConfig } from '../config.ts'
import { createModules } from '../modules.ts'
import { OperatorError } from '../modules/identity/index.ts'
import { SettingsOperatorError } from '../modules/settings/index.ts'
import { createInvalidationBus } from '../platform/cache.ts'
import { systemClock } from '../platform/clock.ts'
import { DataDirBusy } from '../platform/db/data-dir-lock.ts'
import { distributionPlan, DistributionRuleError } from '../platform/db/distribution.ts'
import type { Database } from '../platform/db/database.ts'
import { migrationStatus } from '../platform/db/migrate.ts'
import { openConfiguredDatabase } from '../platform/db/open.ts'
import { systemContext } from '../platform/http/context.ts'
import { AppError } from '../platform/http/errors.ts'
import { loadSecretBox, SecretsError } from '../platform/secrets.ts'
import type { Runner } from './commands.ts'
import { EXIT, InputError } from './parse.ts'
import type { ReplyWriter } from './stdio.ts'

export async function execute(
  runner: Runner,
  output: { json: boolean; reply: ReplyWriter; diagnostic(text: string): void },
  opened?: Database,
): Promise<number> {
  try {
    const config = loadConfig()
    const startedAt = new Date()
    const db = opened ?? (await openConfiguredDatabase(config, 'cli'))
    try {
      const bus = await createInvalidationBus(config.databaseListenUrl)
      try {
        // After the database is open, as the server does: an embedded data directory in use by
        // another process is left untouched, key file included.
        const secrets = loadSecretBox(config)
        const modules = createModules({ config, db, clock: systemClock, bus, secrets })
        const operator = operatorName()
        const reply = await runner({
          engine: db.engine,
          tenants: modules.identity.tenants,
          settings: modules.settings.service,
          rateBooks: modules.rating.rateBooks,
          sealedSecrets: modules.identity.sealedSecrets,
          migrationStatus: () => migrationStatus(db),
          // The catalog is readable with no tenant bound.
          distributionPlan: () => db.read(null, distributionPlan),
          operatorIn: (tenantId) => systemContext(tenantId, operator),
          startedAt,
        })
        await output.reply(output.json ? `${JSON.stringify(reply.json)}\n` : reply.text)
      } finally {
        await bus.close()
      }
    } finally {
      if (!opened) await db.close()
    }
    return EXIT.ok
  } catch (err) {
    const expected = expectedFailure(err)
    output.diagnostic(
      expected !== undefined
        ? `error: ${expected}\n`
        : `error: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    )
    return EXIT.failure
  }
}

/** Audit label of the person running the CLI. */
function operatorName(): string {
  try {
    const { username } = os.userInfo()
    return username ? `cli:${username}` : 'cli'
  } catch {
    // No passwd entry for this uid (common in containers).
    return 'cli'
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/** The message of a failure the operator can act on; undefined for a fault in this program. */
function expectedFailure(err: unknown): string | undefined {
  if (
    err instanceof InputError ||
    err instanceof OperatorError ||
    err instanceof SettingsOperatorError ||
    err instanceof DataDirBusy ||
    err instanceof DistributionRuleError ||
    err instanceof SecretsError
  ) {
    return err.message
  }
  if (err instanceof AppError && err.status < 500) return err.message
  if (!(err instanceof Error)) return undefined
  // loadConfig lists every problem, one per line.
  if (err instanceof ConfigError) return err.message
  const cause = err instanceof AggregateError && err.errors[0] instanceof Error ? err.errors[0] : err
  const code = (cause as NodeJS.ErrnoException).code
  if (code !== undefined && UNREACHABLE.has(code))
    return `cannot reach the PostgreSQL server of DATABASE_URL: ${cause.message || code}`
  // A file-system refusal names the path, e.g. a DATA_DIR that cannot be created.
  if ((cause as NodeJS.ErrnoException).syscall !== undefined && (cause as NodeJS.ErrnoException).path !== undefined)
    return cause.message
  // SQLSTATE classes 08 (connection), 28 (authorization), 3D (no such database): a wrong DATABASE_URL.
  if (code !== undefined && /^(08|28|3D)[0-9A-Z]{3}$/.test(code))
    return `PostgreSQL refused the connection of DATABASE_URL: ${cause.message}`
  return undefined
}
