// Ledger accounts, journal entries and lines. Executor first, tenant always. Entries and lines are
// only ever inserted: the database refuses anything else (migration 0008).
import { sql, type Selectable, type Transaction } from 'kysely'
import type { Executor } from '../../platform/db/database.ts'
import { windowed, type Window } from '../../platform/http/pagination.ts'
import type { DB } from '../../platform/db/schema.ts'
import type { JournalEntryTable } from '../../platform/db/schema.ledger.ts'

export type EntryRow = Selectable<JournalEntryTable>

export type LineRow = {
  entry_id: number
  line_no: number
  account_holder_id: number
  purpose: string
  debit: string
  credit: string
  contract_id: number | null
  disbursement_code: string | null
  memo: string | null
}

export type AccountKey = { accountHolderId: number; purpose: string }

export type AccountRow = { id: number; account_holder_id: number; purpose: string }

export type NewLine = {
  line_no: number
  account_id: number
  debit: string
  credit: string
  contract_id: number | null
  disbursement_code: string | null
  memo: string | null
}

export async function findAccounts(db: Executor, tenantId: number, keys: readonly AccountKey[]): Promise<AccountRow[]> {
  if (keys.length === 0) return []
  return db
    .selectFrom('ledger_account')
    .select(['id', 'account_holder_id', 'purpose'])
    .where('tenant_id', '=', tenantId)
    .where('account_holder_id', 'in', [...new Set(keys.map((k) => k.accountHolderId))])
    .where('purpose', 'in', [...new Set(keys.map((k) => k.purpose))])
    .execute()
}

/** The ids among `ids` that are account holders of the tenant. */
export async function existingAccountHolders(
  db: Executor,
  tenantId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('account_holder')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .execute()
  return new Set(rows.map((r) => r.id))
}

/**
 * Creates the accounts that do not exist yet. Concurrent first posts to the same account both
 * succeed: the loser's insert waits for the winner and then does nothing. Keys are inserted in one
 * sorted order, so two transactions creating overlapping sets cannot deadlock.
 */
export async function createAccounts(
  tx: Transaction<DB>,
  tenantId: number,
  keys: readonly AccountKey[],
): Promise<void> {
  if (keys.length === 0) return
  const sorted = keys.toSorted(
    (a, b) => a.accountHolderId - b.accountHolderId || (a.purpose < b.purpose ? -1 : a.purpose > b.purpose ? 1 : 0),
  )
  await tx
    .insertInto('ledger_account')
    .values(sorted.map((k) => ({ tenant_id: tenantId, account_holder_id: k.accountHolderId, purpose: k.purpose })))
    .onConflict((oc) => oc.columns(['tenant_id', 'account_holder_id', 'purpose']).doNothing())
    .execute()
}

export async function insertEntry(
  tx: Transaction<DB>,
  tenantId: number,
  entry: Pick<
    EntryRow,
    'kind' | 'source_type' | 'source_id' | 'effective_date' | 'posted_at' | 'posted_by' | 'memo' | 'reverses_entry_id'
  >,
): Promise<EntryRow> {
  return tx
    .insertInto('journal_entry')
    .values({ tenant_id: tenantId, ...entry })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function insertLines(
  tx: Transaction<DB>,
  tenantId: number,
  entryId: number,
  lines: readonly NewLine[],
): Promise<void> {
  await tx
    .insertInto('journal_line')
    .values(lines.map((l) => ({ tenant_id: tenantId, entry_id: entryId, ...l })))
    .execute()
}

/**
 * The entry, locked: reversals of one entry queue here, so the second sees the first's reversal.
 * FOR UPDATE takes a row lock only; the append-only triggers fire on UPDATE, which this is not.
 */
export async function lockEntry(tx: Transaction<DB>, tenantId: number, id: number): Promise<EntryRow | undefined> {
  return tx
    .selectFrom('journal_entry')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

export async function findReversalOf(db: Executor, tenantId: number, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('journal_entry')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('reverses_entry_id', '=', id)
    .executeTakeFirst()
  return row?.id
}

export async function entriesById(db: Executor, tenantId: number, ids: readonly number[]): Promise<EntryRow[]> {
  if (ids.length === 0) return []
  return db
    .selectFrom('journal_entry')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute()
}

export async function entriesBySource(
  db: Executor,
  tenantId: number,
  sourceType: string,
  sourceId: number,
): Promise<EntryRow[]> {
  return db
    .selectFrom('journal_entry')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .orderBy('id')
    .execute()
}

/** Journal lines of the tenant with their account's holder and purpose (a LineRow each). */
function linesSelect(db: Executor, tenantId: number) {
  return db
    .selectFrom('journal_line as l')
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .select([
      'l.entry_id',
      'l.line_no',
      'a.account_holder_id',
      'a.purpose',
      'l.debit',
      'l.credit',
      'l.contract_id',
      'l.disbursement_code',
      'l.memo',
    ])
    .where('l.tenant_id', '=', tenantId)
}

export async function linesOf(db: Executor, tenantId: number, entryIds: readonly number[]): Promise<LineRow[]> {
  if (entryIds.length === 0) return []
  return linesSelect(db, tenantId)
    .where('l.entry_id', 'in', [...entryIds])
    .orderBy('l.entry_id')
    .orderBy('l.line_no')
    .execute()
}

/**
 * The lines of a source's entries (reversals included), in entry and line order: entriesBySource's
 * entries' linesOf, in one statement.
 */
export async function linesOfSource(
  db: Executor,
  tenantId: number,
  sourceType: string,
  sourceId: number,
): Promise<LineRow[]> {
  return linesSelect(db, tenantId)
    .where('l.entry_id', 'in', (eb) =>
      eb
        .selectFrom('journal_entry as e')
        .select('e.id')
        .where('e.tenant_id', '=', tenantId)
        .where('e.source_type', '=', sourceType)
        .where('e.source_id', '=', sourceId),
    )
    .orderBy('l.entry_id')
    .orderBy('l.line_no')
    .execute()
}

/** Debit and credit totals of each account of the account holder (accounts without lines included). */
export async function accountTotals(db: Executor, tenantId: number, accountHolderId: number) {
  return db
    .selectFrom('ledger_account as a')
    .leftJoin('journal_line as l', (j) => j.onRef('l.tenant_id', '=', 'a.tenant_id').onRef('l.account_id', '=', 'a.id'))
    .select([
      'a.purpose',
      sql<string>`coalesce(sum(l.debit), 0)`.as('debit'),
      sql<string>`coalesce(sum(l.credit), 0)`.as('credit'),
    ])
    .where('a.tenant_id', '=', tenantId)
    .where('a.account_holder_id', '=', accountHolderId)
    .groupBy(['a.id', 'a.purpose'])
    .orderBy('a.purpose')
    .execute()
}

/**
 * The entries of a contract: those it is the source of (CONTRACT) and any with a line on it (a
 * cancel, a claim, an earnings run, a cash application). Their ids are a union of two index range
 * scans (journal_entry_source_idx, journal_line_contract_idx), never a scan of the tenant's entries.
 */
function contractEntries(db: Executor, tenantId: number, contractId: number) {
  const ids = db
    .selectFrom('journal_entry as s')
    .select('s.id as entry_id')
    .where('s.tenant_id', '=', tenantId)
    .where('s.source_type', '=', 'CONTRACT')
    .where('s.source_id', '=', contractId)
    .union(
      db
        .selectFrom('journal_line as l')
        .select('l.entry_id')
        .where('l.tenant_id', '=', tenantId)
        .where('l.contract_id', '=', contractId),
    )
  return db.selectFrom('journal_entry as e').where('e.tenant_id', '=', tenantId).where('e.id', 'in', ids)
}

/** A window of the contract's entries, oldest first (ids grow with posting). */
export async function entriesOfContract(
  db: Executor,
  tenantId: number,
  contractId: number,
  window: Window,
): Promise<EntryRow[]> {
  return windowed(contractEntries(db, tenantId, contractId).selectAll('e').orderBy('e.id'), window).execute()
}

export async function countEntriesOfContract(db: Executor, tenantId: number, contractId: number): Promise<number> {
  const row = await contractEntries(db, tenantId, contractId)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export type ContractLineRow = LineRow & { account_holder_name: string }

/**
 * The lines of `entryIds` that are on the contract, and those on no contract (an entry of the
 * contract's own may have some); the caller keeps the latter only for the contract's own entries.
 * With the account holder's display name.
 */
export async function contractLinesOf(
  db: Executor,
  tenantId: number,
  contractId: number,
  entryIds: readonly number[],
): Promise<ContractLineRow[]> {
  if (entryIds.length === 0) return []
  return db
    .selectFrom('journal_line as l')
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .innerJoin('account_holder as h', (j) =>
      j.onRef('h.tenant_id', '=', 'a.tenant_id').onRef('h.id', '=', 'a.account_holder_id'),
    )
    .select([
      'l.entry_id',
      'l.line_no',
      'a.account_holder_id',
      'h.display_name as account_holder_name',
      'a.purpose',
      'l.debit',
      'l.credit',
      'l.contract_id',
      'l.disbursement_code',
      'l.memo',
    ])
    .where('l.tenant_id', '=', tenantId)
    .where('a.tenant_id', '=', tenantId)
    .where('h.tenant_id', '=', tenantId)
    .where('l.entry_id', 'in', [...entryIds])
    .where((eb) => eb.or([eb('l.contract_id', '=', contractId), eb('l.contract_id', 'is', null)]))
    .orderBy('l.entry_id')
    .orderBy('l.line_no')
    .execute()
}

/**
 * Per disbursement code, the net amount (credit − debit, in cents) of the contract's lines on
 * `purpose` in entries of `kinds`: e.g. what the earnings runs have moved to ADMINISTRATOR_REVENUE.
 */
export async function contractPurposeTotals(
  db: Executor,
  tenantId: number,
  contractId: number,
  purpose: string,
  kinds: readonly string[],
): Promise<Array<{ code: string | null; net_cents: string | number }>> {
  return db
    .selectFrom('journal_line as l')
    .innerJoin('ledger_account as a', (j) =>
      j.onRef('a.tenant_id', '=', 'l.tenant_id').onRef('a.id', '=', 'l.account_id'),
    )
    .innerJoin('journal_entry as e', (j) => j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.id', '=', 'l.entry_id'))
    .select(['l.disbursement_code as code', sql<string>`(sum(l.credit) - sum(l.debit)) * 100`.as('net_cents')])
    .where('l.tenant_id', '=', tenantId)
    .where('l.contract_id', '=', contractId)
    .where('a.purpose', '=', purpose)
    .where('e.kind', 'in', [...kinds])
    .groupBy('l.disbursement_code')
    .execute()
}

/**
 * A PostgreSQL array literal (`{1,2,NULL}`, `{"a","b\\"c"}`) of `values`, built here rather than by the
 * driver: node-postgres serialises an array parameter element by element (a type test, a string
 * conversion and two regular-expression replacements each), which was a tenth of an earnings run's
 * service CPU. Numbers are written as they are; strings are quoted, with `\` and `"` escaped; null
 * is NULL. The statement casts the parameter to its array type (`::bigint[]`, `::text[]`).
 */
export function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  let out = '{'
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ','
    const v = values[i]
    if (v === null || v === undefined) out += 'NULL'
    else if (typeof v === 'number') out += String(v)
    else if (v.includes('"') || v.includes('\\')) out += `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
    else out += `"${v}"`
  }
  return `${out}}`
}

/**
 * Inserts entries in one statement (each column one array parameter); their ids and memos in the
 * order given. The rows are inserted in the order of the arrays (ORDER BY their ordinality), and
 * identity values are drawn in insertion order, so the ids sorted ascending line up with `entries`
 * (the memo comes back too, for the caller to check that they do).
 */
export async function insertEntries(
  tx: Transaction<DB>,
  tenantId: number,
  entries: ReadonlyArray<Parameters<typeof insertEntry>[2]>,
): Promise<Array<{ id: number; memo: string | null }>> {
  if (entries.length === 0) return []
  const column = (value: (e: Parameters<typeof insertEntry>[2]) => string | number | null) =>
    arrayLiteral(entries.map(value))
  const { rows } = await sql<{ id: number; memo: string | null }>`
    insert into journal_entry
      (tenant_id, kind, source_type, source_id, effective_date, posted_at, posted_by, memo, reverses_entry_id)
    select ${tenantId}::bigint, u.kind, u.source_type, u.source_id, u.effective_date, u.posted_at, u.posted_by, u.memo, u.reverses_entry_id
      from unnest(
        ${column((e) => e.kind)}::text[], ${column((e) => e.source_type)}::text[], ${column((e) => e.source_id)}::bigint[],
        ${column((e) => e.effective_date)}::date[], ${column((e) => e.posted_at.toISOString())}::timestamptz[],
        ${column((e) => e.posted_by)}::text[], ${column((e) => e.memo)}::text[], ${column((e) => e.reverses_entry_id)}::bigint[]
      ) with ordinality as u(kind, source_type, source_id, effective_date, posted_at, posted_by, memo, reverses_entry_id, n)
     order by u.n
    returning id, memo`.execute(tx)
  return rows.map((r) => ({ id: Number(r.id), memo: r.memo })).toSorted((a, b) => a.id - b.id)
}

/** The audit row of a posting, written by the posting's own statement (insertPostedEntry). */
export type PostingAudit = {
  occurredAt: Date
  actorUserId: number | null
  actorApiKeyId: number | null
  actorLabel: string
  requestId: string | null
  action: string
  entityType: string
  /** `changes` as writeAudit stores them; the entry's id is the row's entity_id. */
  changes: Record<string, unknown>
}

/**
 * One entry, its lines and its audit record in one statement (one round trip instead of three): the
 * entry inserted and returned, its lines (each column one array parameter) and the audit row naming
 * it, written by data-modifying CTEs of that statement. The same rows as insertEntry, insertLines and
 * writeAudit; the balance triggers see the lines as one statement's, as with insertLines.
 */
export async function insertPostedEntry(
  tx: Transaction<DB>,
  tenantId: number,
  entry: Parameters<typeof insertEntry>[2],
  lines: readonly NewLine[],
  audit: PostingAudit,
): Promise<EntryRow> {
  const column = (value: (l: NewLine) => string | number | null) => arrayLiteral(lines.map(value))
  const { rows } = await sql<EntryRow>`
    with e as (
      insert into journal_entry
        (tenant_id, kind, source_type, source_id, effective_date, posted_at, posted_by, memo, reverses_entry_id)
      values (${tenantId}::bigint, ${entry.kind}::text, ${entry.source_type}::text, ${entry.source_id}::bigint,
              ${entry.effective_date}::date, ${entry.posted_at}::timestamptz, ${entry.posted_by}::text,
              ${entry.memo}::text, ${entry.reverses_entry_id}::bigint)
      returning *),
    l as (
      insert into journal_line
        (tenant_id, entry_id, line_no, account_id, debit, credit, contract_id, disbursement_code, memo)
      select ${tenantId}::bigint, e.id, u.* from e, unnest(
        ${column((l) => l.line_no)}::int[], ${column((l) => l.account_id)}::bigint[],
        ${column((l) => l.debit)}::numeric[], ${column((l) => l.credit)}::numeric[], ${column((l) => l.contract_id)}::bigint[],
        ${column((l) => l.disbursement_code)}::text[], ${column((l) => l.memo)}::text[]
      ) as u),
    a as (
      insert into audit_log
        (tenant_id, occurred_at, actor_user_id, actor_api_key_id, actor_label, request_id, action, entity_type, entity_id, changes)
      select ${tenantId}::bigint, ${audit.occurredAt}::timestamptz, ${audit.actorUserId}::bigint, ${audit.actorApiKeyId}::bigint,
             ${audit.actorLabel}::text, ${audit.requestId}::text, ${audit.action}::text, ${audit.entityType}::text,
             e.id::text, ${JSON.stringify(audit.changes)}::jsonb
        from e)
    select * from e`.execute(tx)
  return rows[0]!
}

/**
 * Lines of several entries, each naming its entry. One statement whatever their number: each column
 * is one array parameter (unnest), which the database parses and plans far faster than thousands
 * of VALUES rows.
 */
export async function insertEntriesLines(
  tx: Transaction<DB>,
  tenantId: number,
  lines: ReadonlyArray<NewLine & { entry_id: number }>,
): Promise<void> {
  if (lines.length === 0) return
  const column = (value: (l: NewLine & { entry_id: number }) => string | number | null) =>
    arrayLiteral(lines.map(value))
  await sql`
    insert into journal_line
      (tenant_id, entry_id, line_no, account_id, debit, credit, contract_id, disbursement_code, memo)
    select ${tenantId}::bigint, u.* from unnest(
      ${column((l) => l.entry_id)}::bigint[], ${column((l) => l.line_no)}::int[], ${column((l) => l.account_id)}::bigint[],
      ${column((l) => l.debit)}::numeric[], ${column((l) => l.credit)}::numeric[], ${column((l) => l.contract_id)}::bigint[],
      ${column((l) => l.disbursement_code)}::text[], ${column((l) => l.memo)}::text[]
    ) as u`.execute(tx)
}

/**
 * contractPurposeTotals for several contracts at once: per contract and disbursement code, the net
 * (credit − debit, in cents) of their lines on `purpose` in entries of `kinds`. One small query per
 * contract (a lateral join over the ids): each reads the contract's own lines by
 * journal_line_contract_idx and their entries and accounts by primary key, whatever the size of the
 * ledger. Joined as one set, the planner took the lines of 500 contracts for many and hashed them
 * against a scan of every entry, which grew with the ledger (the earnings run's costliest read).
 */
export async function contractsPurposeTotals(
  db: Executor,
  tenantId: number,
  contractIds: readonly number[],
  purpose: string,
  kinds: readonly string[],
): Promise<Array<{ contract_id: number; code: string | null; net_cents: string | number }>> {
  if (contractIds.length === 0) return []
  const { rows } = await sql<{ contract_id: string | number; code: string | null; net_cents: string }>`
    select c.id as contract_id, t.code, t.net_cents
      from unnest(${arrayLiteral(contractIds)}::bigint[]) as c(id)
      cross join lateral (
        select l.disbursement_code as code, (sum(l.credit) - sum(l.debit)) * 100 as net_cents
          from journal_line l
          join ledger_account a on a.tenant_id = l.tenant_id and a.id = l.account_id
          join journal_entry e on e.tenant_id = l.tenant_id and e.id = l.entry_id
         where l.tenant_id = ${tenantId} and l.contract_id = c.id
           and a.purpose = ${purpose} and e.kind = any(${arrayLiteral(kinds)}::text[])
         group by l.disbursement_code
      ) as t`.execute(db)
  return rows.map((r) => ({ ...r, contract_id: Number(r.contract_id) }))
}

/**
 * Per source of one type among `sourceIds`, the net of its entries' lines (reversals included) per
 * account holder, purpose and disbursement code, in cents (debit − credit; zero nets left out):
 * what the sources' entries have posted, summed by the database (no line-by-line read).
 */
export async function sourceNets(
  db: Executor,
  tenantId: number,
  sourceType: string,
  sourceIds: readonly number[],
): Promise<
  Array<{
    source_id: number
    account_holder_id: number
    purpose: string
    disbursement_code: string | null
    net_cents: number
  }>
> {
  if (sourceIds.length === 0) return []
  // Per source, a lateral query (as contractsPurposeTotals): its entries by journal_entry_source_idx,
  // their lines and accounts by key.
  const { rows } = await sql<{
    source_id: string | number
    account_holder_id: string | number
    purpose: string
    disbursement_code: string | null
    net_cents: string
  }>`
    select s.id as source_id, t.account_holder_id, t.purpose, t.disbursement_code, t.net_cents
      from unnest(${arrayLiteral(sourceIds)}::bigint[]) as s(id)
      cross join lateral (
        -- numeric(14, 2) × 100 is whole: an int8 (a string from the driver), exact.
        select a.account_holder_id, a.purpose, l.disbursement_code,
               ((sum(l.debit) - sum(l.credit)) * 100)::bigint as net_cents
          from journal_entry e
          join journal_line l on l.tenant_id = e.tenant_id and l.entry_id = e.id
          join ledger_account a on a.tenant_id = l.tenant_id and a.id = l.account_id
         where e.tenant_id = ${tenantId} and e.source_type = ${sourceType} and e.source_id = s.id
         group by a.account_holder_id, a.purpose, l.disbursement_code
        having sum(l.debit) <> sum(l.credit)
      ) as t`.execute(db)
  return rows.map((r) => ({
    source_id: Number(r.source_id),
    account_holder_id: Number(r.account_holder_id),
    purpose: r.purpose,
    disbursement_code: r.disbursement_code,
    net_cents: Number(r.net_cents),
  }))
}
