// Kysely table types of the automatic process runs (migrations 0034 and 0040, docs/processes.md). Kept in step with the migration.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>

export type ProcessRunStatus = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED'

export interface AutomaticProcessRunTable {
  tenant_id: number
  id: Generated<number>
  guid: string
  process: string
  parameters: ColumnType<Record<string, unknown>, string, string>
  /** The tenant-local date of a scheduled run; null for a run started on demand. */
  slot: ColumnType<string | null, string | null, string | null>
  status: ProcessRunStatus
  /** The last item id done: the next batch starts after it. */
  cursor: ColumnType<number, number | undefined, number>
  examined: ColumnType<number, number | undefined, number>
  changed: ColumnType<number, number | undefined, number>
  failed: ColumnType<number, number | undefined, number>
  /** At most MAX_RUN_ERRORS `{ itemId, code, message }`; `failed` is always the exact count. */
  errors: ColumnType<Array<{ itemId: number; code: string; message: string }>, string | undefined, string>
  started_by: string
  created_at: Timestamp
  started_at: Timestamp | null
  finished_at: Timestamp | null
  duration_ms: number | null
  lease_owner: string | null
  lease_expires_at: Timestamp | null
  /** What the run fixed when it started (its day; a process's own: the earnings run, the month), migration 0040. */
  state: ColumnType<Record<string, unknown>, string | undefined, string>
}

export type ProcessTables = {
  automatic_process_run: AutomaticProcessRunTable
}
