// Account-holder disbursements and the catalogue look-ups their targets need. Executor first,
// tenant always. Each disbursement row carries the id of its latest audit-log entry, read from the
// audit trail's (tenant, entity type, entity id, id) index.
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely'
import type { Executor } from '../../../platform/db/database.ts'
import type { DB, RateDisbursementTable } from '../../../platform/db/schema.ts'
import { windowed, type Window } from '../../../platform/http/pagination.ts'

/** The audit-log entity type of disbursement changes. */
export const AUDIT_ENTITY = 'rate_disbursement'

export type RuleRow = Selectable<RateDisbursementTable>
export type DisbursementRow = RuleRow & { audit_log_id: number | null }

/** The columns a create or change writes. */
export type DisbursementWrite = Pick<
  RuleRow,
  | 'code'
  | 'label'
  | 'disbursement_group'
  | 'basis'
  | 'amount'
  | 'percent'
  | 'product_id'
  | 'program_id'
  | 'plan_id'
  | 'term_id'
  | 'effective_from'
  | 'effective_to'
>

export type DisbursementFilter = { effectiveOn?: string; code?: string }

type Eb = ExpressionBuilder<DB & { d: RateDisbursementTable }, 'd'>

function selectDisbursements(db: Executor, tenantId: number) {
  return db
    .selectFrom('rate_disbursement as d')
    .selectAll('d')
    .select(
      sql<number | null>`(select max(a.id) from audit_log a
      where a.tenant_id = d.tenant_id and a.entity_type = ${AUDIT_ENTITY} and a.entity_id = d.id::text)`.as(
        'audit_log_id',
      ),
    )
    .where('d.tenant_id', '=', tenantId)
}

export async function findDisbursement(
  db: Executor,
  tenantId: number,
  id: number,
): Promise<DisbursementRow | undefined> {
  return selectDisbursements(db, tenantId).where('d.id', '=', id).executeTakeFirst()
}

export async function lockDisbursement(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
): Promise<RuleRow | undefined> {
  return tx
    .selectFrom('rate_disbursement')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export async function listDisbursements(
  db: Executor,
  tenantId: number,
  accountHolderId: number,
  filter: DisbursementFilter,
  window: Window,
) {
  const where = (eb: Eb) => {
    const c: Array<Expression<SqlBool>> = [eb('d.account_holder_id', '=', accountHolderId)]
    if (filter.code !== undefined) c.push(eb('d.code', '=', filter.code))
    if (filter.effectiveOn !== undefined) {
      c.push(eb('d.effective_from', '<=', filter.effectiveOn))
      c.push(eb.or([eb('d.effective_to', 'is', null), eb('d.effective_to', '>=', filter.effectiveOn)]))
    }
    return eb.and(c)
  }
  const rows = await windowed(selectDisbursements(db, tenantId).where(where).orderBy('d.id'), window).execute()
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length }
  const count = await db
    .selectFrom('rate_disbursement as d')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('d.tenant_id', '=', tenantId)
    .where(where)
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.n) }
}

/**
 * The latest audit-log entry of a disbursement. Inside the transaction that wrote one, it is that
 * entry: the disbursement's row lock keeps any other change of it waiting.
 */
export async function latestAuditLogId(tx: Transaction<DB>, tenantId: number, id: number): Promise<number | null> {
  const row = await tx
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('tenant_id', '=', tenantId)
    .where('entity_type', '=', AUDIT_ENTITY)
    .where('entity_id', '=', String(id))
    .executeTakeFirst()
  return row?.id ?? null
}

/** Every disbursement of one account holder, by id: what the rate quote caches per holder. */
export async function rulesOfHolder(db: Executor, tenantId: number, accountHolderId: number): Promise<RuleRow[]> {
  return db
    .selectFrom('rate_disbursement')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('account_holder_id', '=', accountHolderId)
    .orderBy('id')
    .execute()
}

export async function insertDisbursement(
  tx: Transaction<DB>,
  tenantId: number,
  holder: { id: number; kind: RateDisbursementTable['account_holder_kind'] },
  values: DisbursementWrite,
  now: Date,
): Promise<number> {
  const row = await tx
    .insertInto('rate_disbursement')
    .values({
      ...values,
      tenant_id: tenantId,
      account_holder_id: holder.id,
      account_holder_kind: holder.kind,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateDisbursement(
  tx: Transaction<DB>,
  tenantId: number,
  id: number,
  values: DisbursementWrite,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('rate_disbursement')
    .set({ ...values, updated_at: now, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute()
}

/** An audit-log entry of a disbursement change, with the disbursement's account holder. */
export async function findAuditEntry(db: Executor, tenantId: number, id: number) {
  return db
    .selectFrom('audit_log as a')
    .innerJoin('rate_disbursement as d', (j) =>
      j.onRef('d.tenant_id', '=', 'a.tenant_id').on(sql<boolean>`d.id::text = a.entity_id`),
    )
    .select([
      'a.id',
      'a.occurred_at',
      'a.actor_user_id',
      'a.actor_label',
      'a.request_id',
      'a.action',
      'a.changes',
      'd.id as disbursement_id',
      'd.account_holder_id',
      'd.account_holder_kind',
    ])
    .where('a.tenant_id', '=', tenantId)
    .where('a.id', '=', id)
    .where('a.entity_type', '=', AUDIT_ENTITY)
    .executeTakeFirst()
}
