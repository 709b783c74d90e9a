// Stored setting values: one row per setting a tenant has changed. Executor first, tenant always.
import { sql, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'

export type StoredSetting = {
  setting_key: string
  value: unknown
  updated_at: Date
  updated_by: string
  version: number
}

const COLUMNS = ['setting_key', 'value', 'updated_at', 'updated_by', 'version'] as const

/** Every stored value of the tenant (at most one per catalogue entry, so bounded). */
export async function listStored(db: Executor, tenantId: number): Promise<StoredSetting[]> {
  return db
    .selectFrom('general_setting')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .orderBy('setting_key')
    .execute()
}

export async function findStored(db: Executor, tenantId: number, key: string): Promise<StoredSetting | undefined> {
  return db
    .selectFrom('general_setting')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('setting_key', '=', key)
    .executeTakeFirst()
}

/** Locks the stored row for the rest of the transaction, so concurrent writes apply one after another. */
export async function lockStored(
  tx: Transaction<DB>,
  tenantId: number,
  key: string,
): Promise<StoredSetting | undefined> {
  return tx
    .selectFrom('general_setting')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('setting_key', '=', key)
    .forUpdate()
    .executeTakeFirst()
}

/**
 * Inserts the first stored value. Undefined when a concurrent transaction inserted it first (the
 * insert waits for that one to commit), so the caller locks and updates instead.
 */
export async function insertStored(
  tx: Transaction<DB>,
  tenantId: number,
  key: string,
  value: unknown,
  by: string,
  now: Date,
): Promise<StoredSetting | undefined> {
  return tx
    .insertInto('general_setting')
    .values({ tenant_id: tenantId, setting_key: key, value: JSON.stringify(value), updated_at: now, updated_by: by })
    .onConflict((oc) => oc.columns(['tenant_id', 'setting_key']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst()
}

export async function updateStored(
  tx: Transaction<DB>,
  tenantId: number,
  key: string,
  value: unknown,
  by: string,
  now: Date,
): Promise<StoredSetting> {
  return tx
    .updateTable('general_setting')
    .set({ value: JSON.stringify(value), updated_at: now, updated_by: by, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('setting_key', '=', key)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

export async function deleteStored(tx: Transaction<DB>, tenantId: number, key: string): Promise<void> {
  await tx.deleteFrom('general_setting').where('tenant_id', '=', tenantId).where('setting_key', '=', key).execute()
}

/** Whether the tenant exists (for operator commands, which name a tenant by hand). */
export async function tenantExists(db: Executor, tenantId: number): Promise<boolean> {
  const row = await db.selectFrom('tenant').select('id').where('id', '=', tenantId).executeTakeFirst()
  return row !== undefined
}
