// What autovacuum does to a table in service soon after a bulk load, done at once for a bench that
// seeded in bulk on PostgreSQL: the visibility map set, so that index-only scans read the index
// alone. Seeding in bulk leaves it empty, which no table of a running service keeps. VACUUM runs
// outside a transaction, so on its own connection (the embedded database's copies are fewer and it
// runs no autovacuum). It can mark a page all-visible only once the commits of its rows are flushed:
// the throwaway cluster commits asynchronously (scripts/with-postgres.sh), so the WAL is waited for
// first.
import pg from 'pg'

export async function vacuumAfterBulkLoad(tables: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn')
    for (let i = 0; i < 100; i++) {
      const flushed = await client.query<{ done: boolean }>('select pg_current_wal_flush_lsn() >= $1::pg_lsn as done', [
        rows[0]!.lsn,
      ])
      if (flushed.rows[0]!.done) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    for (const table of tables) await client.query(`vacuum (analyze) ${table}`)
  } finally {
    await client.end()
  }
}
