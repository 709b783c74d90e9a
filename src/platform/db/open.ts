// Opens the configured database (PostgreSQL when DATABASE_URL is set, else the embedded one, which
// this process then owns) and brings its schema up to date (over DATABASE_LISTEN_URL's session
// connection when the service sits behind a transaction pooler).
import type { Config } from '../../config.ts'
import { acquireDataDirLock } from './data-dir-lock.ts'
import { openPglite, openPostgres, type Database, type DatabaseLog } from './database.ts'
import { migrateToLatest } from './migrate.ts'

export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir'> & {
    databasePreparedStatements?: boolean
    databaseReadUrl?: string | undefined
    databaseListenUrl?: string | undefined
  },
  role: string,
  log?: DatabaseLog,
): Promise<Database> {
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl, config.databasePoolSize, {
      preparedStatements: config.databasePreparedStatements ?? true,
      ...(config.databaseReadUrl ? { readUrl: config.databaseReadUrl } : {}),
      ...(log ? { log } : {}),
    })
    // The migrator holds a session-level advisory lock across its statements, which a transaction
    // pooler cannot keep: when DATABASE_LISTEN_URL names a session connection beside the pooler,
    // migrations take that one (docs/scale-out.md).
    if (config.databaseListenUrl && config.databaseListenUrl !== config.databaseUrl) {
      const direct = await openPostgres(config.databaseListenUrl, 1, log ? { log } : {})
      try {
        await migrateToLatest(direct)
      } finally {
        await direct.close()
      }
    } else {
      await migrateToLatest(db)
    }
    return db
  }
  const release = acquireDataDirLock(config.dataDir, role)
  try {
    const db = await openPglite(config.dataDir)
    await migrateToLatest(db)
    return {
      ...db,
      async close() {
        try {
          await db.close()
        } finally {
          release()
        }
      },
    }
  } catch (err) {
    release()
    throw err
  }
}
