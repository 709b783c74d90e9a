import { sql } from 'kysely'
import { Migrator, type MigrationInfo, type MigrationResultSet } from 'kysely/migration'
import type { Database } from './database.ts'
import { migrations } from './migrations/index.ts'

function migrator(db: Database): Migrator {
  return new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } })
}

/**
 * Whether exactly the known migrations are applied, in one read (false when the migration table does not
 * exist yet). The usual start finds nothing to do: Kysely's migrator would first create its tables
 * if missing and take its lock, some 0.3 s of statements on the embedded database.
 */
async function upToDate(db: Database): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely)
    const applied = new Set(rows.map((r) => r.name))
    const known = Object.keys(migrations)
    // Exactly the known ones: anything else (pending, or applied by a newer version) is the migrator's to judge.
    return applied.size === known.length && known.every((name) => applied.has(name))
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return false // undefined_table: a new database
    throw err
  }
}

/**
 * Brings the schema up to date; Kysely's session-level advisory lock serialises concurrent callers
 * (so this needs a session connection, not a transaction pooler: platform/db/open.ts).
 */
export async function migrateToLatest(db: Database): Promise<MigrationResultSet> {
  if (await upToDate(db)) return { results: [] }
  const result = await migrator(db).migrateToLatest()
  if (result.error) throw result.error
  return result
}

/** Every known migration, with the moment it was applied (absent when pending). */
export async function migrationStatus(db: Database): Promise<readonly MigrationInfo[]> {
  return migrator(db).getMigrations()
}
