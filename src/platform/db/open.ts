// Opens the configured database (PostgreSQL when DATABASE_URL is set, else the embedded one, which
// this process then owns) and brings its schema up to date.
import type { Config } from '../../config.ts'
import { acquireDataDirLock } from './data-dir-lock.ts'
import { openPglite, openPostgres, type Database, type DatabaseLog } from './database.ts'
import { migrateToLatest } from './migrate.ts'

export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'dataDir'> & { databasePreparedStatements?: boolean },
  role: string,
  log?: DatabaseLog,
): Promise<Database> {
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl, config.databasePoolSize, {
      preparedStatements: config.databasePreparedStatements ?? true,
      ...(log ? { log } : {}),
    })
    await migrateToLatest(db)
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
