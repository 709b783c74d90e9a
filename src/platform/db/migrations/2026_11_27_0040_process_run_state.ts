// Frozen: what an automatic process run fixes when it starts (issue 16; docs/processes.md "Runs"):
// the tenant-local day it works as of, and what a process keeps for its whole run (the earnings run
// it posts under, the month of its statements). A run resumed by another instance goes on with the
// same state, so its remaining batches work as the first ones did.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table automatic_process_run
      add column state jsonb not null default '{}' check (jsonb_typeof(state) = 'object');
  `.execute(db)
  // A run resumed after its lease expired may end weeks after it started: 2^31 ms is under 25 days.
  await sql`alter table automatic_process_run alter column duration_ms type bigint`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('process run state migration is not reversible')
}
