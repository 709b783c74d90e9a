import { Migrator, type MigrationResultSet } from 'kysely/migration'
import type { Database } from './database.ts'
import { migrations } from './migrations/index.ts'

/** Brings the schema up to date; Kysely's lock table serialises concurrent callers. */
export async function migrateToLatest(db: Database): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
  })
  const result = await migrator.migrateToLatest()
  if (result.error) throw result.error
  return result
}
