// Seeds finalized contracts in bulk for the cancellations group (scripts/bench.ts): copies of a few
// template contracts the bench sold and finalized through the API, made by SQL in the server
// process (hidden route POST /bench/clone-contracts), so 100,000 of them take seconds, not the hours
// the API would. Each copy is what finalize leaves: the contract row (every column of its template,
// a number of its own, its dates moved back `shift` days so that earnings are due), its status
// history (FINALIZE, ACTIVATE, dated the same way), its CONTRACT_FINALIZED entry with the template's
// lines on the copy (the administrator's lines in UNEARNED_REVENUE, per decision 0012) and
// journal_entry_ids naming that entry. What finalize writes besides (the PDF, audit and outbox rows)
// is not read by cancels or earnings, and is left out. The column lists are read from the catalog,
// so a column a later migration adds is copied too.
import { sql, type RawBuilder } from 'kysely'
import type { Database, Executor } from '../../src/platform/db/database.ts'

/** Copies made per transaction: bounded statements and commit-time balance checks. */
const CHUNK = 5000

async function columnsOf(x: Executor, table: string): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
     where table_schema = current_schema() and table_name = ${table} and column_name <> 'id'
       and is_generated = 'NEVER'
     order by ordinal_position`.execute(x)
  return rows.map((r) => r.column_name)
}

/** `alias.column` for each column, or its override (an SQL expression over the statement's relations). */
function selectList(columns: readonly string[], alias: string, overrides: Record<string, string>): RawBuilder<unknown> {
  return sql.raw(columns.map((c) => overrides[c] ?? `${alias}.${c}`).join(', '))
}

export type CloneOptions = {
  templateIds: readonly number[]
  count: number
  /** The first copy's serial (copies are numbered `<template number>-B<serial>`): unique per call. */
  firstSerial: number
  /** Days each copy's dates move back: shiftDays (default 30) + (serial mod spreadDays). */
  spreadDays: number
  /** The least days a copy's dates move back (the processes group moves them past their expiration). */
  shiftDays?: number
  /** Reply each copy's id and sale odometer (a few thousand at most). */
  returnIds: boolean
}

export async function cloneContracts(
  db: Database,
  tenantId: number,
  options: CloneOptions,
): Promise<{ count: number; contracts: Array<{ id: number; saleOdometer: number }> }> {
  const { templateIds } = options
  if (templateIds.length === 0) throw new Error('no template contracts')
  const contracts: Array<{ id: number; saleOdometer: number }> = []
  const [contractCols, historyCols, entryCols, lineCols] = await db.read(tenantId, async (x) => [
    await columnsOf(x, 'contract'),
    await columnsOf(x, 'contract_status_history'),
    await columnsOf(x, 'journal_entry'),
    await columnsOf(x, 'journal_line'),
  ])
  // One CONTRACT_FINALIZED entry per template: the copies' entries are made from it.
  const entries = await db.read(tenantId, (x) =>
    sql<{ source_id: number; n: number }>`
      select source_id, count(*)::int as n from journal_entry
       where tenant_id = ${tenantId} and source_type = 'CONTRACT' and source_id = any(${[...templateIds]}::bigint[])
       group by source_id`.execute(x),
  )
  if (entries.rows.length !== templateIds.length || entries.rows.some((r) => r.n !== 1))
    throw new Error('every template must be finalized, with exactly one CONTRACT entry')

  const templates = sql`${[...templateIds]}::bigint[]`
  for (let done = 0; done < options.count; done += CHUNK) {
    const first = options.firstSerial + done
    const last = options.firstSerial + Math.min(options.count, done + CHUNK) - 1
    const copies = await db.transaction(tenantId, async (tx) => {
      const { rows } = await sql<{ id: number; sale_odometer: number | null }>`
        with src as (
          select g.n, t.id as template_id, t.contract_number || '-B' || g.n as number, ${options.shiftDays ?? 30}::int + g.n % ${options.spreadDays} as shift
            from generate_series(${first}::int, ${last}::int) as g(n)
            join contract t on t.tenant_id = ${tenantId} and t.id = (${templates})[1 + g.n % ${templateIds.length}]
        ),
        ins as (
          insert into contract (${sql.raw(contractCols.join(', '))})
          select ${selectList(contractCols, 't', {
            contract_number: 's.number',
            sale_date: 't.sale_date - s.shift',
            effective_date: 't.effective_date - s.shift',
            expiration_date: 't.expiration_date - s.shift',
          })}
            from src s join contract t on t.tenant_id = ${tenantId} and t.id = s.template_id
          returning id, contract_number, sale_odometer
        ),
        pairs as (
          select i.id, i.sale_odometer, s.template_id, s.shift, s.number from ins i join src s on s.number = i.contract_number
        ),
        history as (
          insert into contract_status_history (${sql.raw(historyCols.join(', '))})
          select ${selectList(historyCols, 'h', { contract_id: 'p.id', effective_date: 'h.effective_date - p.shift' })}
            from pairs p join contract_status_history h on h.tenant_id = ${tenantId} and h.contract_id = p.template_id
        ),
        entries as (
          insert into journal_entry (${sql.raw(entryCols.join(', '))})
          select ${selectList(entryCols, 'e', {
            source_id: 'p.id',
            memo: 'replace(e.memo, t.contract_number, p.number)',
          })}
            from pairs p
            join contract t on t.tenant_id = ${tenantId} and t.id = p.template_id
            join journal_entry e on e.tenant_id = ${tenantId} and e.source_type = 'CONTRACT' and e.source_id = p.template_id
          returning id, source_id
        ),
        lines as (
          insert into journal_line (${sql.raw(lineCols.join(', '))})
          select ${selectList(lineCols, 'l', {
            entry_id: 'ne.id',
            contract_id: 'case when l.contract_id is null then null else p.id end',
          })}
            from entries ne
            join pairs p on p.id = ne.source_id
            join journal_entry e on e.tenant_id = ${tenantId} and e.source_type = 'CONTRACT' and e.source_id = p.template_id
            join journal_line l on l.tenant_id = ${tenantId} and l.entry_id = e.id
        )
        select id, sale_odometer from pairs`.execute(tx)
      const ids = rows.map((r) => r.id)
      await sql`
        update contract c set journal_entry_ids = jsonb_build_array(e.id)
          from journal_entry e
         where c.tenant_id = ${tenantId} and e.tenant_id = ${tenantId} and c.id = any(${ids}::bigint[])
           and e.source_type = 'CONTRACT' and e.source_id = c.id`.execute(tx)
      return rows
    })
    if (options.returnIds) for (const r of copies) contracts.push({ id: r.id, saleOdometer: r.sale_odometer ?? 0 })
  }
  // Fresh statistics, so the planner sees the copies.
  await db.read(null, (x) =>
    sql`analyze contract, contract_status_history, journal_entry, journal_line, ledger_account`.execute(x),
  )
  return { count: options.count, contracts }
}
