import { Migrator, type MigrationInfo, type MigrationResultSet } from 'kysely/migration'
import type { Database } from './database.ts'
import { migrations } from './migrations/index.ts'

function migrator(db: Database): Migrator {
  return new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } })
}

/** Brings the schema up to date; Kysely's lock table serialises concurrent callers. */
export async function migrateToLatest(db: Database): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateToLatest()
  if (result.error) throw result.error
  return result
}

/** Every known migration, with the moment it was applied (absent when pending). */
export async function migrationStatus(db: Database): Promise<readonly MigrationInfo[]> {
  return migrator(db).getMigrations()
}
