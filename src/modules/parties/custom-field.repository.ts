// Custom fields and their definitions. Executor first, tenant always. Names compare ignoring case
// (the unique indexes are on lower(name)); a field's label comes from the definition of its name.
import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Transaction } from 'kysely'
import { advisoryLock } from '../../platform/db/advisory-lock.ts'
import type { Executor } from '../../platform/db/database.ts'
import type {
  AccountHolderCustomFieldTable,
  CustomFieldDefinitionTable,
  CustomFieldType,
  DB,
} from '../../platform/db/schema.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { CustomFieldKind, CustomFieldValue } from './custom-field.rules.ts'

export type FieldRow = Selectable<AccountHolderCustomFieldTable> & { label: string | null }
export type DefinitionRow = Selectable<CustomFieldDefinitionTable>

/**
 * Serialises writes of fields named `name` on account holders of `kind` (shared) against writes
 * of the definition of that name (exclusive): a field is checked against the definition that
 * commits, and a definition against every field that exists when it commits.
 */
export async function lockFieldName(
  tx: Transaction<DB>,
  tenantId: number,
  kind: CustomFieldKind,
  name: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  await advisoryLock(tx, 'custom_field_name', [tenantId, kind, name.toLowerCase()], mode)
}

// ---------------------------------------------------------------------------------------------
// Definitions

export type DefinitionFilter = { appliesTo?: CustomFieldKind; name?: string }

export async function listDefinitions(db: Executor, tenantId: number, filter: DefinitionFilter, window: Window) {
  let q = db.selectFrom('custom_field_definition').where('tenant_id', '=', tenantId)
  if (filter.appliesTo) q = q.where('applies_to', '=', filter.appliesTo)
  if (filter.name) q = q.where(sql<string>`lower(name)`, '=', filter.name.toLowerCase())
  const rows = await windowed(q.selectAll().orderBy('id'), window).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

export function findDefinition(db: Executor, tenantId: number, id: number): Promise<DefinitionRow | undefined> {
  return db
    .selectFrom('custom_field_definition')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export function lockDefinition(tx: Transaction<DB>, tenantId: number, id: number): Promise<DefinitionRow | undefined> {
  return tx
    .selectFrom('custom_field_definition')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export function findDefinitionByName(
  db: Executor,
  tenantId: number,
  kind: CustomFieldKind,
  name: string,
): Promise<DefinitionRow | undefined> {
  return db
    .selectFrom('custom_field_definition')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('applies_to', '=', kind)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst()
}

export type DefinitionWrite = {
  label: string
  required: boolean
  allowed_values: string[] | null
  max_length: number | null
}

export async function insertDefinition(
  tx: Transaction<DB>,
  tenantId: number,
  key: { applies_to: CustomFieldKind; name: string; type: CustomFieldType },
  values: DefinitionWrite,
  now: Date,
): Promise<number> {
  const row = await tx
    .insertInto('custom_field_definition')
    .values({ ...key, ...values, tenant_id: tenantId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateDefinition(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: DefinitionWrite,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('custom_field_definition')
    .set({ ...values, updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

export async function deleteDefinition(tx: Transaction<DB>, tenantId: number, id: number): Promise<void> {
  await tx.deleteFrom('custom_field_definition').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

export type ConflictMember = 'type' | 'allowedValues' | 'maxLength'

/**
 * Stored fields named `key.name` on account holders of `key.applies_to` that `rules` would
 * contradict: another type, a LIST value outside the allowed values, a STRING longer than
 * maxLength (char_length counts characters, as the rules do). With `rules` null (the definition
 * goes away): LIST fields, which cannot exist without one. At most 10, with the total.
 */
export async function conflictingFields(
  db: Executor,
  tenantId: number,
  key: { applies_to: CustomFieldKind; name: string },
  rules: { type: CustomFieldType; allowed_values: string[] | null; max_length: number | null } | null,
) {
  const reasons: Array<[ConflictMember, Expression<SqlBool>]> =
    rules === null
      ? [['type', sql<SqlBool>`f.type = 'LIST'`]]
      : [
          ['type', sql<SqlBool>`f.type <> ${rules.type}`],
          ...(rules.type === 'LIST' && rules.allowed_values
            ? [
                ['allowedValues', sql<SqlBool>`not (f.value #>> '{}' = any(${rules.allowed_values}::text[]))`] as [
                  ConflictMember,
                  Expression<SqlBool>,
                ],
              ]
            : []),
          ...(rules.type === 'STRING' && rules.max_length !== null
            ? [
                ['maxLength', sql<SqlBool>`char_length(f.value #>> '{}') > ${rules.max_length}`] as [
                  ConflictMember,
                  Expression<SqlBool>,
                ],
              ]
            : []),
        ]
  // Account holders' fields are those of holders of the kind; a cash transaction's table is its kind's alone.
  const store = storeOf(key.applies_to)
  let q = db
    .selectFrom(store.f)
    .where('f.tenant_id', '=', tenantId)
    .where(sql<string>`lower(f.name)`, '=', key.name.toLowerCase())
    .where((eb) => eb.or(reasons.map(([, condition]) => condition)))
  const kind = key.applies_to
  if (kind !== 'CASH_TRANSACTION')
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('account_holder as ah')
          .select('ah.id')
          .where('ah.tenant_id', '=', tenantId)
          .whereRef('ah.id', '=', 'f.account_holder_id')
          .where('ah.kind', '=', kind),
      ),
    )
  // The first reason that holds, in the order above (a field of another type fails on its type).
  const reason = sql<ConflictMember>`case ${sql.join(
    reasons.map(([member, condition]) => sql`when ${condition} then ${sql.lit(member)}`),
    sql` `,
  )} end`
  const rows = await q
    .select(['f.id', store.owner(true).as('owner_id'), reason.as('reason')])
    .orderBy('f.id')
    .limit(10)
    .execute()
  if (rows.length < 10) return { rows, total: rows.length }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

// ---------------------------------------------------------------------------------------------
// Fields

/**
 * Where the fields of a kind live: account holders' in account_holder_custom_field, cash
 * transactions' in cash_transaction_custom_field (migration 0036). Both tables have the same
 * columns but the owner's, so one set of statements serves both: the table is named as the account
 * holders' for Kysely's types and its owner column is referred to by name.
 */
function storeOf(kind: CustomFieldKind) {
  const store =
    kind === 'CASH_TRANSACTION'
      ? { table: 'cash_transaction_custom_field', owner: 'cash_transaction_id' }
      : { table: 'account_holder_custom_field', owner: 'account_holder_id' }
  return {
    /** The table, aliased `f`. */
    f: `${store.table} as f` as 'account_holder_custom_field as f',
    table: store.table as 'account_holder_custom_field',
    /** The owner column (of `f` when qualified). */
    owner: (qualified: boolean) => sql.ref(qualified ? `f.${store.owner}` : store.owner),
    ownerColumn: store.owner as 'account_holder_id',
  }
}

function selectFields(db: Executor, tenantId: number, kind: CustomFieldKind, ownerId: number) {
  const store = storeOf(kind)
  return db
    .selectFrom(store.f)
    .leftJoin('custom_field_definition as d', (j) =>
      j
        .onRef('d.tenant_id', '=', 'f.tenant_id')
        .on('d.applies_to', '=', kind)
        .on(sql<string>`lower(d.name)`, '=', sql<string>`lower(f.name)`),
    )
    .selectAll('f')
    .select('d.label')
    .where('f.tenant_id', '=', tenantId)
    .where(store.owner(true), '=', ownerId)
}

export async function listFields(
  db: Executor,
  tenantId: number,
  kind: CustomFieldKind,
  ownerId: number,
  filter: { name?: string },
  window: Window,
) {
  let q = selectFields(db, tenantId, kind, ownerId)
  if (filter.name) q = q.where(sql<string>`lower(f.name)`, '=', filter.name.toLowerCase())
  const rows: FieldRow[] = await windowed(q.orderBy('f.id'), window).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const store = storeOf(kind)
  let c = db
    .selectFrom(store.f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('f.tenant_id', '=', tenantId)
    .where(store.owner(true), '=', ownerId)
  if (filter.name) c = c.where(sql<string>`lower(f.name)`, '=', filter.name.toLowerCase())
  const count = await c.executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

export function findField(
  db: Executor,
  tenantId: number,
  kind: CustomFieldKind,
  ownerId: number,
  fieldId: number,
): Promise<FieldRow | undefined> {
  return selectFields(db, tenantId, kind, ownerId).where('f.id', '=', fieldId).executeTakeFirst()
}

export function lockField(
  tx: Transaction<DB>,
  tenantId: number,
  kind: CustomFieldKind,
  ownerId: number,
  fieldId: number,
) {
  const store = storeOf(kind)
  return tx
    .selectFrom(store.table)
    .select(['id', 'name', 'type', 'version'])
    .where('tenant_id', '=', tenantId)
    .where(store.owner(false), '=', ownerId)
    .where('id', '=', fieldId)
    .forUpdate()
    .executeTakeFirst()
}

export async function fieldNameTaken(
  db: Executor,
  tenantId: number,
  kind: CustomFieldKind,
  ownerId: number,
  name: string,
): Promise<boolean> {
  const store = storeOf(kind)
  const row = await db
    .selectFrom(store.table)
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(store.owner(false), '=', ownerId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst()
  return row !== undefined
}

export async function insertField(
  tx: Transaction<DB>,
  tenantId: number,
  kind: CustomFieldKind,
  ownerId: number,
  field: { name: string; type: CustomFieldType; value: CustomFieldValue },
  now: Date,
): Promise<number> {
  const store = storeOf(kind)
  const row = await tx
    .insertInto(store.table)
    .values({
      tenant_id: tenantId,
      [store.ownerColumn]: ownerId,
      name: field.name,
      type: field.type,
      value: JSON.stringify(field.value),
      created_at: now,
      updated_at: now,
    } as Insertable<DB['account_holder_custom_field']>)
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateFieldValue(
  tx: Transaction<DB>,
  tenantId: number,
  kind: CustomFieldKind,
  fieldId: number,
  value: CustomFieldValue,
  now: Date,
): Promise<void> {
  await tx
    .updateTable(storeOf(kind).table)
    .set({ value: JSON.stringify(value), updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', fieldId)
    .execute()
}

export async function deleteField(
  tx: Transaction<DB>,
  tenantId: number,
  kind: CustomFieldKind,
  fieldId: number,
): Promise<void> {
  await tx.deleteFrom(storeOf(kind).table).where('tenant_id', '=', tenantId).where('id', '=', fieldId).execute()
}

/** Names of required definitions for `kind` that the owner has no field for, by name. */
export async function missingRequired(
  db: Executor,
  tenantId: number,
  kind: CustomFieldKind,
  ownerId: number,
): Promise<string[]> {
  const store = storeOf(kind)
  const rows = await db
    .selectFrom('custom_field_definition as d')
    .select('d.name')
    .where('d.tenant_id', '=', tenantId)
    .where('d.applies_to', '=', kind)
    .where('d.required', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom(store.f)
            .select('f.id')
            .where('f.tenant_id', '=', tenantId)
            .where(store.owner(true), '=', ownerId)
            .where(sql<string>`lower(f.name)`, '=', sql<string>`lower(d.name)`),
        ),
      ),
    )
    .orderBy(sql`lower(d.name)`)
    .execute()
  return rows.map((r) => r.name)
}
